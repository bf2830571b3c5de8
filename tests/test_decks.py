"""Deck lists, card pools and deck rules, on a small game of the test suite (sealed bid) made
to give each seat a deck: engine features no shipped game's rules are needed for."""
from __future__ import annotations

import shutil

import pytest

from conftest import ROOT, edit
from engine.errors import DefinitionError, EngineError
from engine.loader import load_game
from engine.match import Match, Seat


@pytest.fixture
def decked(tmp_path):
    """sealed_bid with seats taking decks: its cards become a pool, two deck lists draw on it."""
    game = tmp_path / "sealed_bid"
    shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", game)
    edit(game / "game.yaml", "sets: {per_seat: false}",
         "sets: {per_seat: true, deck: {min_size: 3, max_size: 4, max_copies: 2}}")
    edit(game / "cards" / "cards.yaml", "id: cards\n", "id: cards\nplayable: false\n")
    (game / "cards" / "lows.yaml").write_text(
        "id: lows\nname: Lows\ndeck:\n  - {card: low, copies: 2}\n  - {card: middle}\n")
    (game / "cards" / "highs.yaml").write_text(
        "id: highs\nname: Highs\ndeck:\n  - {card: high, copies: 2}\n  - {card: middle, copies: 2}\n")
    return game


def test_a_pool_is_no_seat_s_set_and_deck_lists_are(decked):
    g = load_game(str(decked))
    assert sorted(g.sets) == ["highs", "lows"] and sorted(g.cards) == ["high", "low", "middle"]
    m = Match(g, 1, [Seat("bot"), Seat("bot")], quiet=True)
    assert [s.set for s in m.seats] == ["highs", "lows"]
    assert m.eval("return sets.lows.deck[1].card .. sets.lows.deck[1].copies") == ["low2"]
    with pytest.raises(EngineError, match=r"card set 'cards' is a pool decks draw on \(playable: false\), not a set to play"):
        Match(g, 1, [Seat("bot", "cards"), Seat("bot")], quiet=True)


def test_deck_rules_count_a_deck_list_its_size_and_copies(decked):
    edit(decked / "cards" / "lows.yaml", "{card: low, copies: 2}", "{card: low, copies: 3}")
    edit(decked / "cards" / "highs.yaml", "  - {card: middle, copies: 2}\n", "")
    with pytest.raises(DefinitionError) as e:
        load_game(str(decked))
    text = str(e.value)
    assert ("lows.yaml:4:5: Low: 3 copies, but a deck may hold at most 2 of any card: remove 1, or raise "
            "sets.deck.max_copies in game.yaml") in text
    assert "lows.yaml:4:3: the deck holds" not in text                 # 4 is within 3 to 4
    assert ("highs.yaml:4:3: the deck holds 2 cards; the game's deck rules want at least 3: add 1 cards, or "
            "lower sets.deck.min_size in game.yaml") in text
    assert "cards.yaml" not in text                                            # a pool keeps no deck rules


@pytest.mark.parametrize("second, said", [
    ("{card: middle, copies: two}", 'lows.yaml:5:28: expected a whole number, got text "two"'),
    ("{card: cinder_pup, copies: 3}", "lows.yaml:5:12: no card called 'cinder_pup'"),
    ("{card: middle, copies: -2}", "lows.yaml:5:28: -2 is less than the minimum of 1"),
])
def test_an_entry_in_error_leaves_the_others_checked_and_the_totals_unsaid(decked, second, said):
    """An entry the schema refuses (copies: two), or one naming a card the game has not (a
    deck for another game, a misspelt id), is said where it is; the copies past the most of a
    card in another entry are still reported, and the deck's size, which that entry would
    make wrong, is not."""
    (decked / "cards" / "lows.yaml").write_text(
        f"id: lows\nname: Lows\ndeck:\n  - {{card: low, copies: 3}}\n  - {second}\n")
    with pytest.raises(DefinitionError) as e:
        load_game(str(decked))
    text = str(e.value)
    assert "lows.yaml:4:5: Low: 3 copies, but a deck may hold at most 2 of any card" in text
    assert said in text
    assert "the deck holds" not in text


def test_a_set_needs_cards_or_a_deck_list(decked):
    (decked / "cards" / "empty.yaml").write_text("id: empty\nname: Empty\n")
    with pytest.raises(DefinitionError, match="empty.yaml:1:1: needs one of the keys 'cards', 'deck'"):
        load_game(str(decked))


def test_an_older_save_listing_a_games_own_deck_file_loads_after_that_file_changed(tmp_path):
    """Saves listed a game's own deck file, given as a file, with its text: once the file
    changed, the saved copy clashed with the file itself ("defined twice"). Such an entry is
    now read with the game."""
    import shutil
    from engine.match import SAVE_FORMAT, game_of_save
    shutil.copytree(ROOT / "rules" / "summoner_tcg", tmp_path / "rules" / "summoner_tcg")
    shutil.copytree(ROOT / "cards" / "summoner_tcg", tmp_path / "cards" / "summoner_tcg")
    own = tmp_path / "cards" / "summoner_tcg" / "ember.yaml"
    text = own.read_text()
    data = {"format": SAVE_FORMAT, "game": "summoner_tcg", "seed": 4, "seats": ["human:ember", "bot:tide"],
            "answers": [], "rules": str(tmp_path / "rules" / "summoner_tcg"), "card_files": [str(own)],
            "card_file_texts": {str(own): text}}
    own.write_text(text.replace("{card: spark_fox, copies: 2}", "{card: spark_fox, copies: 1}")
                   .replace("{card: ash_runner, copies: 2}", "{card: ash_runner, copies: 3}"))   # (30 cards still)
    game = game_of_save(data)
    assert {"card": "spark_fox", "copies": 1} in game.sets["ember"].data["deck"] and game.extra_cards == []


def test_a_link_to_a_games_own_deck_file_is_that_deck(tmp_path):
    """A seat given a link to one of the game's own deck files: the file is that deck (it was
    'defines no card set a seat can play')."""
    from engine.loader import set_of_file
    link = tmp_path / "ember_link.yaml"
    link.symlink_to(ROOT / "cards" / "summoner_tcg" / "ember.yaml")
    game = load_game("summoner_tcg", extra_cards=[link])
    assert set_of_file(game, link) == "ember"


def test_a_save_with_a_deck_in_a_subfolder_of_the_games_cards_loads(tmp_path):
    """A deck kept in cards/GAME/decks/ is no file of the game's own (the loader reads the
    cards folder, not its subfolders): its save lists it, and loading must read it."""
    import shutil
    from engine.match import load_match
    shutil.copytree(ROOT / "rules" / "summoner_tcg", tmp_path / "rules" / "summoner_tcg")
    shutil.copytree(ROOT / "cards" / "summoner_tcg", tmp_path / "cards" / "summoner_tcg")
    deck = tmp_path / "cards" / "summoner_tcg" / "decks" / "mine.yaml"
    deck.parent.mkdir()
    deck.write_text((tmp_path / "cards" / "summoner_tcg" / "ember.yaml").read_text().replace("id: ember\n", "id: mine\n"))
    game = load_game(str(tmp_path / "rules" / "summoner_tcg"), extra_cards=[deck])
    m = Match(game, 4, [Seat("random", "mine"), Seat("random", "tide")], quiet=True)
    m.rollout(seed=4, max_decisions=5)
    m.save(tmp_path / "m.json")
    back = load_match(tmp_path / "m.json")
    assert back.state_hash() == m.state_hash() and back.seats[0].set == "mine"



def test_a_deck_no_seat_of_its_game_can_play_is_said_so(tmp_path, capsys):
    """summon check and summon deck check said ok to a deck kept outside a game whose seats
    take no card set of their own (sets: {per_seat: false}), which --players then refused;
    a deck list among the game's own sets (its rules may read it) is no mistake."""
    from repl.cli import main

    game = tmp_path / "sealed_bid"
    shutil.copytree(ROOT / "tests" / "games" / "sealed_bid", game)
    deck = tmp_path / "mine.yaml"
    deck.write_text("id: mine\nname: Mine\ndeck:\n  - {card: low, copies: 2}\n")
    at = f"{deck}:{deck.read_text().splitlines().index('  - {card: low, copies: 2}') + 1}:3"
    said = "sealed_bid gives no seat a card set of its own (its game.yaml has sets: {per_seat: false})"
    assert main(["check", str(deck), "--game", str(game)]) == 0
    assert f"{at}: note: {said}, so no seat can play this deck" in capsys.readouterr().out
    assert main(["deck", "check", str(deck), "--game", str(game)]) == 1
    out = capsys.readouterr().out
    assert f"{at}: {said}" in out and "ok:" not in out
    with pytest.raises(EngineError, match="gives no seat a card set of its own"):
        Match(load_game(str(game), extra_cards=[deck]), 1, [Seat("bot", str(deck)), Seat("bot")], quiet=True)
    own = game / "cards" / "mine.yaml"
    own.write_text(deck.read_text())
    assert main(["check", str(own)]) == 0
    out = capsys.readouterr().out
    assert "no seat can play" not in out and "ok:" in out, out
