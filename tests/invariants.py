"""State invariants every game must keep after every answer, read from the host's snapshot."""
from __future__ import annotations


def check_invariants(game, st: dict) -> None:
    cards = st["cards"]
    where: dict[int, list[str]] = {c["id"]: [] for c in cards}
    for key, ids in st["zones"].items():
        for i in ids:
            where[i].append(f"zone {key}")
            assert cards[i - 1]["zone"] == key, f"card {i} listed in {key} but says {cards[i - 1]['zone']}"
    spaces = st["spaces"]
    for space, i in spaces.items():
        where[i].append(f"space {space}")
        assert cards[i - 1].get("space") == space, f"card {i} on {space} but says {cards[i - 1].get('space')}"
    for c in cards:
        for u in c.get("under") or []:
            where[u].append(f"under {c['id']}")
            assert cards[u - 1].get("host") == c["id"]
    for cid, places in where.items():
        assert len(places) == 1, f"card {cid} ({cards[cid - 1]['name']}) is in {len(places)} places: {places}"
    decl = game.data.get("counters") or {}
    for owner, values in st["counters"].items():
        for name, v in values.items():
            lo, hi = decl[name].get("min"), decl[name].get("max")
            assert lo is None or v >= lo, f"counter {name} of {owner} is {v}, below {lo}"
            assert hi is None or v <= hi, f"counter {name} of {owner} is {v}, above {hi}"
    for c in cards:
        for t, n in c["tokens"].items():
            assert isinstance(n, int) and n > 0, f"card {c['id']} has {n} {t} tokens"
