"""Small statistics for balance reports: rates with 95% Wilson score intervals, and their verdicts;
the interval of a difference between two rates."""
from __future__ import annotations

import math
from dataclasses import dataclass

Z95 = 1.959963984540054   # the normal quantile for a two-sided 95% interval


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (low, high) of a proportion: successes out of trials.

    Unlike the normal approximation it stays inside 0..1 and is sound for small samples
    and rates near 0 or 1, which bot tournaments often give. No trials: (0, 1), nothing known.
    """
    if trials <= 0:
        return 0.0, 1.0
    if not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes out of {trials} trials")
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def difference(s1: int, n1: int, s2: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """The 95% interval (low, high) of p1 - p2, two proportions from independent samples
    (s1 of n1 against s2 of n2): Newcombe's hybrid score interval, built from each
    proportion's Wilson interval. It keeps within -1..1 and, unlike the normal
    approximation, holds up for small samples and shares near 0 or 1. An interval that
    takes in 0 says the samples cannot tell the two shares apart.
    """
    if n1 <= 0 or n2 <= 0:
        return -1.0, 1.0
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1, z)
    l2, u2 = wilson(s2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(-1.0, low), min(1.0, high)


@dataclass(frozen=True)
class Rate:
    """A win rate: wins out of games, with its 95% interval."""

    wins: int
    games: int

    @property
    def rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    @property
    def half_width(self) -> float:
        """Half the interval's width: the "±" a designer reads."""
        low, high = self.interval
        return (high - low) / 2

    def verdict(self, fair: float) -> str:
        """In plain words, whether the rate differs from a fair share (its interval, exact,
        leaves it out)."""
        if not self.games:
            return "no games decided"
        low, high = self.interval
        ci = f"95% CI {interval_text(low, high, fair)}%"
        if low > fair:
            return f"favoured, {ci}"
        if high < fair:
            return f"disfavoured, {ci}"
        return "no evidence of imbalance at this sample size"

    def to_json(self, fair: float | None = None) -> dict:
        """The rate as report.json holds it (rates rounded to 6 places)."""
        low, high = self.interval
        out = {"wins": self.wins, "games": self.games,
               "rate": None if self.rate is None else round(self.rate, 6),
               "low": round(low, 6), "high": round(high, 6)}
        if fair is not None:
            out["verdict"] = self.verdict(fair)
        return out


def pct(x: float) -> str:
    """A proportion as whole percentage points ("58")."""
    return f"{100 * x:.0f}"


def interval_text(low: float, high: float, fair: float | None = None) -> str:
    """An interval in percentage points ("10-49"), each bound rounded once from its exact
    value, with decimals where whole points would put it on the other side of the fair
    share from the exact bound ("disfavoured, 10-49.6", never "10-50" at a share of 50%)."""
    def bound(x: float) -> str:
        for places in range(10):   # (a bound a hair from the fair share takes as many as it needs)
            text = f"{100 * x:.{places}f}"
            if fair is None or ((x < fair) == (float(text) < 100 * fair) and (x > fair) == (float(text) > 100 * fair)):
                break
        return text
    return f"{bound(low)}-{bound(high)}"
