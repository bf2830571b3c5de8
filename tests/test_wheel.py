"""The package as a user installs it: build the wheel, install it in a fresh venv (its
dependencies from the package index), and run `summon` from a folder outside the checkout."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT
from engine import scenarios

pytestmark = pytest.mark.wheel

# Build artefacts and caches a checkout may hold; the wheel is built from a copy without them,
# so that a stale build/ folder cannot put old files in it.
NOT_SOURCE = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".venv",
                                    ".pytest_cache", ".hypothesis")


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """Runs a command; fails the test with its output when it exits non-zero."""
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, f"{' '.join(cmd)} exited {r.returncode}\n{r.stdout}\n{r.stderr}"
    return r


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a clean copy of the checkout."""
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    shutil.copytree(ROOT, src, ignore=NOT_SOURCE)
    run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "-w", str(tmp / "dist"), "-q"], cwd=tmp)
    (built,) = (tmp / "dist").glob("summon-*.whl")
    return built


def shipped_game_files() -> set[str]:
    """Every file of the checkout's games, as the wheel should name it (summon_games/rules/..., .../cards/...)."""
    out = set()
    for top in ("rules", "cards"):
        for p in (ROOT / top).rglob("*"):
            rel = p.relative_to(ROOT)
            if p.is_file() and "__pycache__" not in rel.parts and not p.name.startswith("."):
                out.add(f"summon_games/{rel.as_posix()}")
    return out


def test_the_wheel_ships_the_engine_data_and_every_file_of_the_games(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for f in ("engine/schemas/game.schema.json", "engine/schemas/scenario.schema.json", "engine/lua/core.lua",
              "summon_games/rules/summoner_wars/game.yaml", "summon_games/rules/summoners_isle/game.yaml",
              "summon_games/cards/summoner_wars/polar_dwarves.yaml",
              "summon_games/rules/summoner_wars/tests/attack.yaml"):
        assert f in names
    lua = {f"engine/lua/{p.name}" for p in (ROOT / "engine" / "lua").glob("*.lua")}
    assert lua <= names
    assert sorted(shipped_game_files() - names) == []
    assert not [n for n in names if n.startswith(("rules/", "cards/", "tests/"))]


def clean_env(venv: Path) -> dict[str, str]:
    """The environment a user of the venv has: its bin/ first, nothing pointing at the checkout."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "SUMMON_PATH", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONNOUSERSITE"] = "1"
    return env


def test_the_installed_wheel_finds_and_runs_the_games_from_any_folder(wheel, tmp_path):
    venv = tmp_path / "venv"
    # A venv without system site-packages: the machine's own install of the checkout must not leak in.
    run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    python, summon = venv / "bin" / "python", str(venv / "bin" / "summon")
    run([str(python), "-m", "pip", "install", "-q", str(wheel)], cwd=tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = clean_env(venv)
    site = Path(run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                    elsewhere, env).stdout.strip())
    engine_file = run([str(python), "-c", "import engine; print(engine.__file__)"], elsewhere, env).stdout.strip()
    assert Path(engine_file) == site / "engine" / "__init__.py"

    sim = json.loads(run([summon, "sim", "summoner_wars", "--games", "3", "--json"], elsewhere, env).stdout)
    assert (sim["game"], sim["games"], sim["finished"]) == ("summoner_wars", 3, 3)
    assert sum(sim["wins"].values()) + sim["draws"] == 3

    listing = run([summon, "list"], elsewhere, env).stdout
    assert listing.splitlines()[0] == f"{site / 'summon_games'}  (installed)"
    assert re.search(r"^  summoner_wars  Summoner Wars, 2 players$", listing, re.M)
    assert re.search(r"^      polar_dwarves  Polar Dwarves \(\d+ cards\)$", listing, re.M)
    assert re.search(r"^  summoners_isle  ", listing, re.M)

    assert run([summon, "check", "summoner_wars"], elsewhere, env).stdout == "ok: summoner_wars\n"
    last = run([summon, "test"], elsewhere, env).stdout.splitlines()[-1]
    assert last == f"{shipped_scenario_count()} passed, 0 failed"

    # the skeleton's templates are in the wheel: a new game works from any folder
    new = next(g for g in (f"pip_race_{n}" for n in range(100)) if g not in listing)
    run([summon, "new", "game", new], elsewhere, env)
    assert run([summon, "test", f"rules/{new}/tests"], elsewhere, env).stdout.splitlines()[-1] == "3 passed, 0 failed"
    # a card set is not written into the installed games, which the next upgrade replaces
    before = sorted((site / "summon_games").rglob("*"))
    r = subprocess.run([summon, "new", "set", "summoner_wars", "raiders"], cwd=elsewhere, env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "summoner_wars is the copy installed with summon" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and sorted((site / "summon_games").rglob("*")) == before


def shipped_scenario_count() -> int:
    """How many scenarios the checkout's games hold in their tests/ folders."""
    folders = sorted(ROOT.glob("rules/*/tests")) + sorted(ROOT.glob("cards/*/tests"))
    files = scenarios.find_files([str(p) for p in folders])
    docs = [scenarios.load_file(f)[0] for f in files]
    return sum(len(d.data["scenarios"]) for d in docs)
