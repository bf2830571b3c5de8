"""Shared fixtures: games load once per session; positions are set up with scenario Lua."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.loader import LuaSource, load_game  # noqa: E402
from engine.match import Match, Seat  # noqa: E402


@pytest.fixture(scope="session")
def sw():
    """The Summoner Wars game definition."""
    return load_game("summoner_wars")


def position(game, lua: str, *, seed: int = 1, sets=("polar_dwarves", "fallen_kingdom"), quiet=False) -> Match:
    """A match whose position is set by scenario Lua run after the game's setup.

    The Lua sees the rules' functions plus `scenario`: clear_board(), create(card, player,
    space, {tokens}), add(player, zone, {cards}), empty(player, zone), set_counter(player,
    name, value), start(player, phase), force({numbers}) and remove(card).
    """
    return Match(game, seed, [Seat("bot", s) for s in sets], quiet=quiet,
                 scenario=LuaSource("scenario", lua))


def card_at(match: Match, space: str) -> dict | None:
    """The card on a space, as plain data, or None."""
    st = match.snapshot()
    cid = st["spaces"].get(space) if isinstance(st["spaces"], dict) else None
    return st["cards"][cid - 1] if cid else None


def counter(match: Match, name: str, player: int) -> int:
    return match.snapshot()["counters"][str(player)][name]


def zone(match: Match, name: str, player: int) -> list[str]:
    """Card definition ids in a zone, bottom to top."""
    st = match.snapshot()
    ids = st["zones"].get(f"{name}:{player}", [])
    return [st["cards"][i - 1]["def"] for i in (ids if isinstance(ids, list) else [])]


def tokens(card: dict | None, name: str) -> int:
    return ((card or {}).get("tokens") or {}).get(name, 0)
