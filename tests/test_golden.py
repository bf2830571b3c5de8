"""Golden playthroughs: each game's seeded bot transcript matches the stored one
(regenerate on purpose with `python tools/golden.py --write`)."""
from __future__ import annotations

import sys

import pytest

from conftest import ROOT, SHIPPED_GAMES

sys.path.insert(0, str(ROOT / "tools"))
import golden  # noqa: E402


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "golden").glob("*.txt")), ids=lambda p: p.stem)
def test_transcript_is_unchanged(path):
    stored = path.read_text().splitlines()
    now = golden.transcript(path.stem).splitlines()
    for i, (a, b) in enumerate(zip(stored, now), 1):
        assert a == b, f"{path.name} line {i} differs:\n  stored: {a}\n  now:    {b}\n" \
                       f"(if the change is meant, run: python tools/golden.py --write)"
    assert len(stored) == len(now), f"{path.name}: {len(stored)} lines stored, {len(now)} now"


def test_every_shipped_game_has_a_transcript():
    from engine import loader

    assert set(SHIPPED_GAMES) <= set(loader.list_games(ROOT))
    for gid in SHIPPED_GAMES:
        assert (ROOT / "tests" / "golden" / f"{gid}.txt").is_file(), f"run: python tools/golden.py --write {gid}"
