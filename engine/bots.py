"""Bots: controllers that answer a seat's decisions from what that seat may see.

random  uniformly among the options.
greedy  one ply: each option is tried in a few worlds the seat's view allows
        (Match.sample) and scored by the game's evaluation; the best average wins.
mcts    information-set Monte Carlo tree search (single observer): every iteration
        samples a world from the seat's view, walks one tree shared by all worlds
        with UCT (counting only the options each world offers), adds a node, plays
        `rollout` random decisions and scores the end with the game's evaluation.
        It answers with the most visited option, and stops a search of N
        iterations as soon as no other option could catch up with it.

A bot never reads the match itself: only its Ask (options, view) and the samples the
Ask makes for its seat, which depend on the seat's view and the bot's seed alone.
Every random choice comes from the bot's own generator, seeded from the match seed
and the seat, so the same seed gives the same game.
"""
from __future__ import annotations

import math
import random
import re
import time
from dataclasses import dataclass, field

from .errors import EngineError
from .match import Ask, Match, RandomBot, Seat, bot_key, mix64

KINDS = ("random", "greedy", "mcts", "bot")
BUDGET = re.compile(r"(\d{1,7})|(\d{1,4}(?:\.\d{1,3})?)s")

# What `bot` and `mcts` mean unless the game says (bots: iterations): the strongest
# search that answers in about a second a decision on a two-core laptop (see the
# README's "Bots"). A count, not a time, so that games replay.
MCTS_ITERATIONS = 300
GREEDY_SAMPLES = 2
EXPLORATION = 0.7


def parse_kind(text: str) -> tuple[str, int | None, float | None]:
    """'mcts:200' -> ('mcts', 200, None); 'mcts:1.5s' -> ('mcts', None, 1.5); others as they are.

    Raises EngineError for an unknown kind or a bad budget."""
    kind, _, budget = text.partition(":")
    if kind not in KINDS:
        raise EngineError(f"unknown bot '{kind}': use {', '.join(KINDS)} (mcts:N for N iterations a "
                          f"decision, mcts:2s for a time budget)")
    if not budget:
        return kind, None, None
    if kind != "mcts":
        raise EngineError(f"'{text}': only mcts takes a budget (mcts:N or mcts:Ns)")
    m = BUDGET.fullmatch(budget)
    if not m or (m.group(1) and int(m.group(1)) < 1) or (m.group(2) and float(m.group(2)) <= 0):
        raise EngineError(f"'{text}': the budget is a number of iterations (mcts:200) or of seconds (mcts:1.5s)")
    return (kind, int(m.group(1)), None) if m.group(1) else (kind, None, float(m.group(2)))


class Bot:
    """A controller with a generator for each decision, seeded from the match's seed, its
    kind, its seat and the decision's number: what it answers never depends on what it was
    asked before, so a match loaded from a save, or played again after undo, gets the same
    answers (and undo cannot be used to ask it again until it answers otherwise)."""

    name = "bot"

    def __init__(self, seed: int, seat: int):
        self.key = bot_key(self.name, seed, seat)
        self.rng = random.Random(self.key)

    def __call__(self, ask: Ask) -> int:
        if ask.count <= 1:
            return 0
        self.rng.seed(mix64(self.key ^ ask.decision))
        return self.decide(ask)

    def decide(self, ask: Ask) -> int:
        raise NotImplementedError

    def seed(self) -> int:
        return self.rng.getrandbits(62)


class GreedyBot(Bot):
    """One ply: each option scored by the evaluation, averaged over a few sampled worlds."""

    name = "greedy"

    def __init__(self, seed: int, seat: int, samples: int = GREEDY_SAMPLES):
        super().__init__(seed, seat)
        self.samples = samples

    def decide(self, ask: Ask) -> int:
        seat = ask.player
        seeds = [self.seed() for _ in range(self.samples)]
        best, best_score = [], -math.inf
        for i in range(ask.count):
            score = 0.0
            for s in seeds:
                world = ask.sample(s)
                world.answer(i)
                score += world.evaluate(seat, last_use=True)
            if score > best_score + 1e-9:
                best, best_score = [i], score
            elif score > best_score - 1e-9:
                best.append(i)
        return best[self.rng.randrange(len(best))]


@dataclass
class Node:
    """A node of the search tree: the options tried from here, by label."""

    visits: int = 0
    reward: float = 0.0       # summed over visits, for the player who chose the option leading here
    available: int = 0        # iterations in which this option was offered
    children: dict = field(default_factory=dict)
    best: float = 0.0         # implicit minimax: the evaluation backed up by max/min, for the bot's seat
    player: int = 0           # who chose at this node when last walked through (0: not yet)
    value: float = 0.0        # its own evaluation, from the iteration that added it
    options: int = 0          # how many options its chooser had when last walked through


class MctsBot(Bot):
    """Information-set MCTS on worlds sampled from the bot's view."""

    name = "mcts"

    def __init__(self, seed: int, seat: int, iterations: int | None = MCTS_ITERATIONS,
                 seconds: float | None = None, rollout: int = 0, exploration: float = EXPLORATION,
                 minimax: float = 0.0, settle: bool = True, allies: frozenset = frozenset()):
        super().__init__(seed, seat)
        self.allies = allies      # the seats that seek the same result (its team; every seat in a cooperative game)
        self.iterations, self.seconds = iterations, seconds
        self.settle = settle      # stop a counted search once its answer cannot change
        self.rollout, self.c, self.minimax = rollout, exploration, minimax
        self.last_iterations, self.last_root = 0, None     # (for tests and explaining a choice)

    def decide(self, ask: Ask) -> int:
        seat = ask.player
        root = Node()
        self.bounds = (math.inf, -math.inf)
        labels = ask.options
        deadline = time.perf_counter() + self.seconds if self.seconds else None
        n = 0
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and n > 0:
                    break
            elif n >= self.iterations:
                break
            self._iterate(ask.sample(self.seed()), root, seat)
            n += 1
            if deadline is None and self.settle and self._settled(root, labels, self.iterations - n):
                break
        self.last_iterations, self.last_root = n, root
        best = max(range(len(labels)), key=lambda i: self._rank(root.children.get(labels[i])))
        return best

    @staticmethod
    def _settled(root: Node, labels: list, left: int) -> bool:
        """Whether the most visited option stays the most visited whatever the LEFT
        iterations do: each iteration adds one visit to one option at the root, so a
        lead of more than LEFT visits cannot be caught (nor tied, so the mean reward
        that breaks ties does not matter). Stopping there answers exactly as the whole
        search would (as Leela Chess Zero's "smart pruning" does), with fewer samples;
        the iterations not run draw nothing from the bot's generator, so the games
        played after that differ from a whole search's, but not in kind. Only the
        real ask's LABELS count: a sampled world may offer options the real one does
        not, and those can never be the answer."""
        first = second = 0
        for child in (root.children.get(label) for label in labels):
            if child is None:
                continue
            if child.visits > first:
                first, second = child.visits, first
            elif child.visits > second:
                second = child.visits
        return first - second > left

    @staticmethod
    def _rank(node: Node | None) -> tuple:
        if node is None:
            return (0, 0.0)
        return (node.visits, node.reward / node.visits if node.visits else 0.0)

    def _iterate(self, world: Match, root: Node, seat: int) -> None:
        node, path = root, []
        walked = [root]           # the nodes whose chooser was asked, for the minimax backup
        a = self.minimax
        while world.pending is not None:
            player = world.pending.player
            node.player = player
            labels = world.options()
            node.options = len(labels)
            untried = [i for i, lab in enumerate(labels) if lab not in node.children]
            for lab in labels:
                child = node.children.get(lab)
                if child is not None:
                    child.available += 1
            if untried:
                i = untried[self.rng.randrange(len(untried))]
                child = node.children[labels[i]] = Node(available=1)
                path.append((child, player))
                world.answer(i)
                break
            # Values are compared on the spread seen so far in this tree (as MuZero
            # does): an evaluation whose options differ by a few hundredths would
            # otherwise leave the search exploring almost uniformly.
            lo, hi = self.bounds
            spread = hi - lo if hi - lo > 1e-9 else 1.0
            ours = player == seat or player in self.allies
            base = lo if ours else 1.0 - hi
            best_i, best_u = 0, -math.inf
            for i, lab in enumerate(labels):
                child = node.children[lab]
                q = child.reward / child.visits
                if a:
                    q = (1.0 - a) * q + a * (child.best if ours else 1.0 - child.best)
                q = (q - base) / spread
                u = q + self.c * math.sqrt(math.log(child.available) / child.visits)
                if u > best_u:
                    best_i, best_u = i, u
            node = node.children[labels[best_i]]
            path.append((node, player))
            walked.append(node)
            world.answer(best_i)
        if self.rollout and world.pending is not None:
            world.rollout(self.seed(), self.rollout)
        value = (world.evaluate(seat, last_use=True) + 1.0) / 2.0      # 0 lost .. 1 won, for the bot's seat
        lo, hi = self.bounds
        self.bounds = (min(lo, value), max(hi, value))
        for node, player in path:
            node.visits += 1
            node.reward += value if player == seat or player in self.allies else 1.0 - value
        root.visits += 1
        if a:
            # implicit minimax backups (Lanctot et al. 2014): a node added now holds its
            # evaluation; every node walked through holds its best child's for whoever
            # chooses there, so that an option is not judged by the average of the poor
            # replies tried under it. While some of its options are untried, a node's
            # own evaluation stands for them: one poor reply tried first must not bury
            # an option whose other replies nobody has looked at.
            if path:
                path[-1][0].best = path[-1][0].value = value
            for n in reversed(walked):
                if n.children and n.player:
                    vals = [c.best for c in n.children.values() if c.visits]
                    if len(vals) < n.options:
                        vals.append(n.value)
                    n.best = max(vals) if n.player == seat or n.player in self.allies else min(vals)


def make_bot(kind: str, seed: int, seat: int, rollout: int = 0, iterations: int = MCTS_ITERATIONS,
             minimax: float = 0.0, allies: frozenset = frozenset()):
    """The controller for a seat kind (random, greedy, mcts[:N|:Ns], bot); `iterations`
    is what mcts without a budget and bot run (the game's `bots: iterations`), `minimax`
    the weight of implicit minimax backups in its choices (`bots: minimax`), `allies` the
    seats of its team (game.yaml `players: teams`, or every seat when `cooperative`)."""
    name, budget, seconds = parse_kind(kind)
    if name == "random":
        return RandomBot(seed, seat)
    if name == "greedy":
        return GreedyBot(seed, seat)
    if name == "bot" or (budget is None and seconds is None):
        return MctsBot(seed, seat, iterations, rollout=rollout, minimax=minimax, allies=allies)
    return MctsBot(seed, seat, budget if seconds is None else None, seconds, rollout=rollout,
                   minimax=minimax, allies=allies)


def searches(seats: list[Seat]) -> bool:
    """Whether any seat is played by a bot that searches (and so forks the match)."""
    return any(s.controller != "human" and parse_kind(s.controller)[0] != "random" for s in seats)


def team_of(players: dict, seats: int, seat: int) -> frozenset:
    """The other seats on a seat's team: every seat in a cooperative game; in a game that
    declares `teams` covering this many seats (each seat in one), its team's; else none."""
    if players.get("cooperative"):
        return frozenset(range(1, seats + 1)) - {seat}
    teams = players.get("teams") or []
    if sorted(p for t in teams for p in t) != list(range(1, seats + 1)):
        return frozenset()
    return next((frozenset(t) - {seat} for t in teams if seat in t), frozenset())


def bots_for(match: Match, *, humans_too: bool = False) -> dict:
    """A controller for every bot seat of a match (and `bot` for human seats when
    humans_too: the REPL's `bot` command), each seeded from the match seed and its seat."""
    spec = match.game.data.get("bots") or {}
    rollout, iterations = int(spec.get("rollout", 0)), int(spec.get("iterations", MCTS_ITERATIONS))
    minimax = float(spec.get("minimax", 0.0))
    out = {}
    for i, s in enumerate(match.seats, 1):
        allies = team_of(match.game.data["players"], len(match.seats), i)
        if s.controller != "human":
            out[i] = make_bot(s.controller, match.seed, i, rollout, iterations, minimax, allies)
        elif humans_too:
            out[i] = make_bot("bot", match.seed, i, rollout, iterations, minimax, allies)
    if searches(match.seats):
        match.keep_checkpoints()
    return out
