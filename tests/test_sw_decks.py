"""Summoner Wars custom decks: the rulebook's deck building as data (a leader whose build
symbols decide what may go in, copies per kind, cards per kind), `summon deck check`, and
custom decks played, saved and loaded."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, edit, summon
from engine.errors import DefinitionError
from engine.loader import load_game
from engine.match import Match, RandomBot, Seat, load_match, play

EXAMPLE = ROOT / "docs" / "examples" / "decks" / "svara_raiders.yaml"


def deck(tmp_path: Path, *changes: tuple[str, str], name: str = "my_deck") -> Path:
    """The example deck, changed, written under tmp_path (outside any cards/ folder)."""
    text = EXAMPLE.read_text().replace("id: svara_raiders", f"id: {name}")
    for old, new in changes:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / f"{name}.yaml"
    path.write_text(text)
    return path


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def test_the_example_deck_is_legal_and_summarised_in_the_game_s_terms():
    r = summon("deck", "check", str(EXAMPLE))
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.splitlines()[:3] == ["Svara's Raiders (summoner_wars): 31 cards", "  summoner: Svara",
                                         "  6 standard, 2 epic, 3 champion, 16 common"]
    assert "ok: a legal summoner_wars deck" in r.stdout


def test_a_deck_for_a_game_named_by_its_folder_is_checked(tmp_path):
    """--game takes a game's folder, as everywhere: deck check failed with "no game called
    'duel'" for a game outside the games found."""
    examples = ROOT / "docs" / "examples"
    duel = tmp_path / "games" / "rules" / "duel"     # (its seats made to take sets: the docs' take none)
    shutil.copytree(examples / "rules" / "duel", duel)
    shutil.copytree(examples / "cards" / "duel", duel.parent.parent / "cards" / "duel")
    yaml = duel / "game.yaml"
    assert "sets: {per_seat: false}" in yaml.read_text()
    yaml.write_text(yaml.read_text().replace("sets: {per_seat: false}", "sets: {per_seat: true}"))
    good = tmp_path / "duel_deck.yaml"
    good.write_text("id: dd\nname: Duel Deck\ndeck:\n  - {card: scout, copies: 3}\n  - {card: knight, copies: 2}\n")
    r = summon("deck", "check", "--game", str(examples / "rules" / "duel"), str(good), cwd=tmp_path)
    assert r.returncode == 1 and "\nduel_deck.yaml:4:3: duel gives no seat a card set of its own" in r.stdout, r.stdout
    r = summon("deck", "check", "--game", str(duel), str(good), cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("Duel Deck (duel): 5 cards\nok: a legal duel deck"), r.stdout
    good.write_text(good.read_text().replace("scout", "scuot"))
    r = summon("deck", "check", "--game", str(duel), str(good), cwd=tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "\nduel_deck.yaml:4:12: no card called 'scuot' (did you mean 'scout'?)\n" in r.stdout, r.stdout


def test_a_card_without_a_shared_symbol_and_broken_counts_are_named_with_their_lines(tmp_path):
    bad = deck(tmp_path, ("{card: ice_ram, copies: 2}", "{card: sacrificial_pyre, copies: 2}"),
               ("{card: jarmund}", "{card: dragos}"), ("{card: ice_smith, copies: 4}", "{card: ice_smith, copies: 5}"))
    r = summon("deck", "check", str(bad))      # outside cards/: the game is the one with all its cards
    assert r.returncode == 1 and "Traceback" not in r.stderr
    out = r.stdout
    assert (f"{bad}:{line_of(bad, 'sacrificial_pyre')}:5: Sacrificial Pyre has no symbols in common with the "
            f"deck's summoner Svara (ret_talus against dwarf, svara): remove it, or build the deck around "
            f"another summoner") in out
    assert f"{bad}:{line_of(bad, 'dragos')}:5: Dragos has no symbols in common" in out
    assert (f"{bad}:{line_of(bad, 'ice_smith')}:5: Ice Smith: 5 copies, but a deck may hold at most 4 of each "
            f"common card: remove 1") in out
    assert "the deck holds 17 common cards; the game's deck rules want 16: remove 1" in out
    assert "4 problems found" in out
    assert "  6 standard, 2 epic, 3 champion, 17 common" in out


@pytest.mark.parametrize("change, said", [
    (("  - {card: svara}\n", ""), "a deck is built around exactly one summoner, and this one has 0 (none): "
                                  "add one card tagged summoner"),
    (("  - {card: svara}\n", "  - {card: svara}\n  - {card: ret_talus}\n"),
     "exactly one summoner, and this one has 2 (Ret-Talus, Svara): keep one of them"),
    (("{card: dwarf_gate, copies: 3}", "{card: dwarf_gate, copies: 2}"),
     "the deck holds 2 gate (not great, unit) cards; the game's deck rules want 3: add 1"),
    # the draw pile's gates are the 5-life ones: a 10-life Great Gate is no substitute
    (("{card: dwarf_gate, copies: 3}", "{card: dwarf_great_gate, copies: 3}"),
     "the deck holds 3 great cards; the game's deck rules want 0: remove 3"),
])
def test_the_leader_and_the_gates_are_counted(tmp_path, change, said):
    r = summon("deck", "check", "--game", "summoner_wars", str(deck(tmp_path, change)))
    assert r.returncode == 1 and said in r.stdout, r.stdout + r.stderr


def test_the_shipped_factions_keep_the_rules_and_a_faction_card_that_breaks_them_is_found(game_copy):
    g = game_copy()
    load_game(str(g.rules))                      # both faction decks are legal decks
    edit(g.cards / "polar_dwarves.yaml", "    symbols: [dwarf]\n", "    symbols: [kingdom]\n")
    with pytest.raises(DefinitionError, match="polar_dwarves.yaml:[0-9]+:[0-9]+: Frost Mage has no symbols in "
                                              "common with the deck's summoner Svara"):
        load_game(str(g.rules))


def test_a_custom_deck_starts_with_its_summoner_s_layout_and_plays_to_the_end(tmp_path):
    mine = deck(tmp_path, ("{card: frost_mage, copies: 4}", "{card: frost_mage, copies: 3}"),
                ("{card: ice_golem, copies: 4}", "{card: ice_golem, copies: 4}\n  - {card: frost_mage}"))
    game = load_game("summoner_wars", extra_cards=[mine])
    m = Match(game, 5, [Seat("random", "my_deck"), Seat("random", "fallen_kingdom")], quiet=True)
    names = m.eval("""
      local out = {}
      for _, c in ipairs(cards.in_play()) do
        if c.owner == 1 then out[#out + 1] = c.def end
      end
      table.sort(out)
      return table.concat(out, ","), zones.count(1, "draw") + zones.count(1, "hand")""")
    assert names == ["dwarf_great_gate,frost_mage,ice_golem,svara", 30]
    play(m, {1: RandomBot(7, 1), 2: RandomBot(7, 2)}, max_decisions=5000)
    assert m.is_over and m.winner in (1, 2)


def test_a_save_holds_the_deck_list_and_loads_when_the_file_is_gone(tmp_path):
    mine = deck(tmp_path)
    game = load_game("summoner_wars", extra_cards=[mine])
    m = Match(game, 3, [Seat("random", "my_deck"), Seat("random", "fallen_kingdom")], quiet=True)
    play(m, {1: RandomBot(7, 1), 2: RandomBot(7, 2)}, max_decisions=120)
    save = tmp_path / "game.json"
    m.save(save)
    assert json.loads(save.read_text())["card_file_texts"] == {str(mine.resolve()): mine.read_text()}
    mine.write_text(mine.read_text().replace("name: Svara's Raiders", "name: Changed Since"))
    again = load_match(save, quiet=True)
    assert again.state_hash() == m.state_hash() and again.answers == m.answers
    mine.unlink()
    assert load_match(save, quiet=True).state_hash() == m.state_hash()


def test_a_save_whose_deck_texts_are_not_text_is_refused_in_words(tmp_path):
    save = tmp_path / "bad.json"
    save.write_text(json.dumps({"format": "summon-match/1", "game": "summoner_wars", "seed": 1, "seats": ["random", "random"],
                                "answers": [], "card_files": ["x.yaml"], "card_file_texts": {"x.yaml": 3}}))
    r = summon("replay", str(save))
    assert r.returncode == 1 and "'card_file_texts' must map each card or deck file to its text" in r.stderr
    assert "Traceback" not in r.stderr


def test_a_file_that_is_no_deck_or_fits_no_game_is_a_clear_error(tmp_path):
    plain = tmp_path / "plain.yaml"
    plain.write_text("id: plain\nname: Plain\n")
    r = summon("deck", "check", str(plain))
    assert r.returncode == 1 and f"{plain}:1:1: this file has no deck list" in r.stdout
    odd = tmp_path / "odd.yaml"
    odd.write_text("id: odd\nname: Odd\ndeck:\n  - {card: no_such_card}\n")
    r = summon("deck", "check", str(odd))
    assert r.returncode == 1 and "cannot tell which game this deck is for" in r.stdout
    assert "Traceback" not in r.stderr


def test_the_veiled_court_keeps_the_deck_rules_and_a_card_off_its_symbols_is_found(game_copy):
    g = game_copy()
    game = load_game(str(g.rules))
    assert "veiled_court" in game.sets
    edit(g.cards / "veiled_court.yaml", "    symbols: [court]\n    cost: 1\n", "    symbols: [dwarf]\n    cost: 1\n")
    with pytest.raises(DefinitionError, match="veiled_court.yaml:[0-9]+:[0-9]+: Hushblade has no symbols in "
                                              "common with the deck's summoner Ilsevane"):
        load_game(str(g.rules))


def test_a_broken_deck_text_in_a_save_is_named_by_the_deck_file_it_came_from(tmp_path):
    deck_path = tmp_path / "gone.yaml"            # not on disk: the save's text is used
    save = tmp_path / "broken.json"
    save.write_text(json.dumps({"format": "summon-match/1", "game": "summoner_wars", "seed": 1,
                                "seats": ["random", "random"], "answers": [], "card_files": [str(deck_path)],
                                "card_file_texts": {str(deck_path): "id: x\nname: X\ndeck:\n  - {card: [\n"}}))
    r = summon("replay", str(save))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert f"{deck_path}:5:1: (in the text the save holds) YAML syntax" in r.stderr, r.stderr
    assert "summon-saved-" not in r.stderr


def test_a_deck_with_a_misspelt_card_is_taken_for_the_game_of_its_other_cards(tmp_path):
    """Kept outside the games, with one card misspelt: deck check and check said only that
    they could not tell the game; the deck's other cards tell it, and the misspelling is named."""
    bad = deck(tmp_path, ("{card: ice_smith, copies: 4}", "{card: ice_smyth, copies: 4}"))
    where = f"{bad}:{line_of(bad, 'ice_smyth')}:"
    for args in (("deck", "check", str(bad)), ("check", str(bad))):
        r = summon(*args)
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
        said = [x for x in r.stdout.splitlines() if x.startswith(where)]
        assert said and said[0].endswith("no card called 'ice_smyth' (did you mean 'ice_smith'?)"), r.stdout
    r = summon("check", str(deck(tmp_path, name="fine")))
    assert r.returncode == 0 and r.stdout.strip() == f"ok: {tmp_path / 'fine.yaml'}", r.stdout + r.stderr
