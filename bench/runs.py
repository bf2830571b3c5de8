"""Runs of `summon sim` kept as JSON files, for benchmark scripts whose measures take hours:
each run is played once, written whole (never half a file), and read back with a clear
error for a file that is not a run's JSON, so an interrupted measure resumes where it stopped."""
from __future__ import annotations

import fcntl
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def play(path: Path, args: list[str], label: str, wait: bool = False, stamp: dict | None = None) -> bool:
    """Plays `summon sim ARGS --json` into PATH unless PATH holds a run already or another
    process is playing it now (with WAIT: wait for that process, and play the run if it
    died first); True when it played. A run being played holds a lock on PATH.part
    (released by the system if that process dies), so several processes may work through
    the same list of runs, each taking the next one nobody has, then waiting for the rest.
    A failed run stops the script with summon's own error. STAMP, if given, is kept in the
    run as `played_with` (what the run was played with, to tell later whether it is still
    current)."""
    if path.exists():
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part")
    with open(part, "a") as claim:
        try:
            fcntl.flock(claim, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            return False                        # another process is playing it
        if path.exists():                       # it finished while we waited to look
            part.unlink(missing_ok=True)
            return False
        print(label, file=sys.stderr, flush=True)
        res = subprocess.run([sys.executable, "-m", "repl", "sim", *args, "--json"], cwd=ROOT,
                             capture_output=True, text=True)
        if res.returncode != 0:
            part.unlink(missing_ok=True)
            sys.exit(f"{label}: summon sim failed:\n{res.stderr}")
        text = res.stdout
        if stamp is not None:
            text = json.dumps({**json.loads(text), "played_with": stamp}, indent=1, sort_keys=True) + "\n"
        claim.truncate(0)
        claim.write(text)
        claim.flush()
        part.replace(path)                      # whole or not at all
    return True


def load(path: Path) -> dict:
    """A run's JSON, or exit naming the file, line and column and the way out."""
    try:
        run = json.loads(path.read_text())
    except json.JSONDecodeError as e:
        sys.exit(f"{path}:{e.lineno}:{e.colno}: not a run's JSON ({e.msg}); delete it to play that run again")
    for key, kind in (("results", list), ("wins", dict), ("bots", list), ("games", int)):
        if not isinstance(run, dict) or not isinstance(run.get(key), kind):
            sys.exit(f"{path}:1:1: not a run's JSON (no '{key}'); delete it to play that run again")
    return run


def runs(folder: Path) -> list[tuple[Path, dict]]:
    """Every run in a folder, in the order of their seeds (file names)."""
    paths = sorted(folder.glob("*.json"), key=lambda p: (len(p.stem), p.stem))
    return [(p, load(p)) for p in paths]
