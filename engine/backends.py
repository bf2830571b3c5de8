"""Where batch games run: in this process, in a pool of local processes, or on a Ray cluster.

Every backend runs the same Batch (a few games, named by their index in the run) with the
same function, run_batch, so the same arguments give the same results on any of them;
only the order in which batches come back differs, and the caller sorts by game index.
"""
from __future__ import annotations

import os
import socket
import sys
import tempfile
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from .errors import EngineError
from .loader import GameDef, load_game
from .match import Seat

BACKENDS = ("local", "ray")
CLUSTER_EXTRA = "pip install -e '.[cluster]'"
# A local Ray instance's shared memory: results are small, so Ray's least (75 MB) and a margin.
LOCAL_OBJECT_STORE = 128 * 1024 * 1024


@dataclass(frozen=True)
class Batch:
    """Some games of a run, as plain data a worker process or machine can take."""

    root: str                   # the game's folder (a worker loads the game from it)
    extra_cards: tuple[str, ...]
    entrants: tuple[Seat, ...]
    games: tuple[tuple[int, int, bool], ...]   # (index, seed, swap)
    max_decisions: int
    options: dict = field(default_factory=dict)
    cards: dict = field(default_factory=dict)  # card stat changes: card id -> stat -> value


_games: dict[tuple, GameDef] = {}   # games a worker has loaded, with their card changes


def _game_for(batch: Batch) -> GameDef:
    """The batch's game with its card changes, loaded once per process."""
    from .lab import with_card_stats
    import json

    key = (batch.root, batch.extra_cards, json.dumps(batch.cards, sort_keys=True))
    if key not in _games:
        base = load_game(batch.root, [Path(p) for p in batch.extra_cards] or None)
        _games[key] = with_card_stats(base, batch.cards)
    return _games[key]


def run_batch(batch: Batch, game: GameDef | None = None) -> list[dict]:
    """Plays a batch's games (on `game` when given, else on the game loaded from its folder)."""
    from .lab import with_card_stats
    from .sim import run_seated

    game = with_card_stats(game, batch.cards) if game is not None else _game_for(batch)
    entrants = list(batch.entrants)
    return [run_seated(game, entrants, i, s, swap, batch.max_decisions, batch.options or None)
            for i, s, swap in batch.games]


class InProcess:
    """Plays batches one after another in this process, on the game object it was given."""

    name = "local"
    workers = 1

    def __init__(self, game: GameDef):
        self.game = game

    def run(self, batches: list[Batch]) -> Iterator[list[dict]]:
        for b in batches:
            yield run_batch(b, self.game)

    def close(self) -> None:
        pass


class LocalPool:
    """Today's process pool: `jobs` processes on this machine, kept for the whole command."""

    name = "local"

    def __init__(self, jobs: int):
        self.workers = jobs
        self._pool = ProcessPoolExecutor(max_workers=jobs)

    def run(self, batches: list[Batch]) -> Iterator[list[dict]]:
        pending = {self._pool.submit(run_batch, b) for b in batches}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    yield f.result()
        finally:
            for f in pending:
                f.cancel()

    def close(self) -> None:
        self._pool.shutdown(cancel_futures=True)


class RayCluster:
    """Ray: joins the cluster at `address`, or starts a local Ray instance of `jobs` CPUs
    (every core when jobs is 0) that it stops again when closed.

    Workers load the game from its folder, so on a cluster of several machines the game's
    files must be at the same path on each, with summon installed there."""

    name = "ray"

    def __init__(self, jobs: int, address: str | None = None):
        try:
            import ray
        except ImportError:
            raise EngineError(f"--backend ray needs Ray, which is not installed: {CLUSTER_EXTRA}") from None
        self._ray = ray
        self._started = not ray.is_initialized()
        if self._started:
            if address:
                check_reachable(address)
            with tempfile.TemporaryFile(mode="w+b") as said, _fd2_into(said):
                try:
                    if address:
                        ray.init(address=address, logging_level="ERROR", log_to_driver=False)
                    else:
                        ray.init(address="local", num_cpus=jobs or os.cpu_count() or 1, include_dashboard=False,
                                 object_store_memory=LOCAL_OBJECT_STORE, logging_level="ERROR",
                                 log_to_driver=False)
                    failure = None
                except Exception as e:   # ConnectionError, RuntimeError, ValueError...: one line, no traceback
                    failure = (str(e).strip().splitlines() or [type(e).__name__])[0]
                said.seek(0)
                log = said.read().decode("utf-8", "replace")
            if failure is not None:
                where = f"join the Ray cluster at {address}" if address else "start a local Ray instance"
                if "Authentication token" in log:
                    failure += (" (the cluster asks for an authentication token: see "
                                "https://docs.ray.io/en/latest/ray-security/token-auth.html)")
                raise EngineError(f"cannot {where}: {failure}")
        self.workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._remote = ray.remote(run_batch)

    def run(self, batches: list[Batch]) -> Iterator[list[dict]]:
        ray = self._ray
        pending = [self._remote.remote(b) for b in batches]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    try:
                        yield ray.get(ref)
                    except ray.exceptions.RayTaskError as e:
                        cause = e.as_instanceof_cause()
                        if isinstance(cause, EngineError):
                            raise EngineError(str(cause)) from None
                        raise
        finally:
            for ref in pending:
                ray.cancel(ref)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()


@contextmanager
def _fd2_into(file) -> Iterator[None]:
    """Sends what is written to file descriptor 2 (stderr) into file for a while: Ray's C++
    core logs retries there while it connects, and a refusal should be one line of ours."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    os.dup2(file.fileno(), 2)
    try:
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def check_reachable(address: str, seconds: float = 5.0) -> None:
    """Raises EngineError when nothing answers at a Ray address (HOST:PORT or ray://HOST:PORT):
    Ray itself would retry for minutes. "auto" (the cluster this machine is part of) is left to Ray."""
    if address == "auto":
        return
    hostport = address.split("://", 1)[-1].rstrip("/")
    host, sep, port = hostport.rpartition(":")
    if not sep or not host or not port.isdecimal() or not 0 < int(port) < 65536:
        raise EngineError(f"--address {address}: give the cluster's HOST:PORT (e.g. 10.0.0.5:6379), "
                          f"ray://HOST:PORT or auto")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=seconds).close()
    except OSError as e:
        why = e.strerror or str(e) or type(e).__name__
        raise EngineError(f"cannot reach the Ray cluster at {address}: {why}") from None


def open_backend(name: str, game: GameDef, jobs: int, games: int, address: str | None = None):
    """The backend to run a command's games on; close() it when done.

    local: in this process for one job (or a run of one game), else a process pool of
    `jobs` processes (0: every core for 20 games or more, else one). ray: see RayCluster."""
    if name not in BACKENDS:
        raise EngineError(f"unknown backend '{name}': use {' or '.join(BACKENDS)}")
    if address and name != "ray":
        raise EngineError("--address joins a Ray cluster: give it with --backend ray")
    if name == "ray":
        return RayCluster(jobs, address)
    if jobs <= 0:
        jobs = (os.cpu_count() or 1) if games >= 20 else 1
    if jobs <= 1 or games < 2:
        return InProcess(game)
    return LocalPool(jobs)
