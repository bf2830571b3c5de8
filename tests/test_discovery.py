"""Where games are found: $SUMMON_PATH first, then the current folder, then the installed games;
an earlier folder wins a game id."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, edit
from engine.check import check
from engine import loader, scenarios
from engine.errors import UnknownGame

TINY = ROOT / "tests" / "games" / "tiny_graph"


def add_game(folder: Path, name: str, gid: str = "tiny_graph") -> Path:
    """Copies the tiny test game into folder/rules/<gid>/ under a telling name; returns that rules folder."""
    dest = folder / "rules" / gid
    shutil.copytree(TINY, dest)
    text = (dest / "game.yaml").read_text()
    text = text.replace("id: tiny_graph", f"id: {gid}").replace("name: Tiny Graph", f"name: {name}")
    (dest / "game.yaml").write_text(text)
    return dest


@pytest.fixture
def places(tmp_path, monkeypatch):
    """Three empty folders, for $SUMMON_PATH, the current folder and the installed games, and no SUMMON_PATH."""
    dirs = {k: tmp_path / k for k in ("path", "cwd", "installed")}
    for d in dirs.values():
        d.mkdir()
    monkeypatch.delenv("SUMMON_PATH", raising=False)
    monkeypatch.chdir(dirs["cwd"])
    monkeypatch.setattr(loader, "installed_root", lambda: dirs["installed"])
    return dirs


def test_summon_path_comes_first_then_the_current_folder_then_the_installed_games(places, monkeypatch):
    for origin, d in places.items():
        add_game(d, f"from {origin}")
    monkeypatch.setenv("SUMMON_PATH", str(places["path"]))
    assert [(f.root, f.origin) for f in loader.folders()] == [
        (places["path"], "SUMMON_PATH"), (places["cwd"], "current folder"),
        (places["installed"], "installed")]
    assert loader.resolve("tiny_graph")[0] == places["path"] / "rules" / "tiny_graph"
    assert loader.load_game("tiny_graph").name == "from path"


def test_the_current_folder_wins_over_the_installed_games(places):
    add_game(places["cwd"], "from cwd")
    add_game(places["installed"], "from installed")
    rules, cards = loader.resolve("tiny_graph")
    assert (rules, cards) == (places["cwd"] / "rules" / "tiny_graph", places["cwd"] / "rules" / "tiny_graph" / "cards")
    assert loader.load_game("tiny_graph").name == "from cwd"


def test_installed_games_are_found_from_a_folder_without_rules(places):
    add_game(places["installed"], "from installed")
    assert [f.origin for f in loader.folders()] == ["installed"]
    assert loader.load_game("tiny_graph").name == "from installed"


def test_an_earlier_summon_path_folder_wins(places, tmp_path, monkeypatch):
    first, second = tmp_path / "first", tmp_path / "second"
    add_game(second, "second")
    add_game(first, "first")
    monkeypatch.setenv("SUMMON_PATH", os.pathsep.join([str(first), "", str(second)]))
    assert loader.summon_path() == [first, second]
    assert loader.load_game("tiny_graph").name == "first"
    monkeypatch.setenv("SUMMON_PATH", os.pathsep.join([str(second), str(first)]))
    assert loader.load_game("tiny_graph").name == "second"


def test_games_of_every_folder_are_found_and_a_folder_named_twice_counts_once(places, monkeypatch):
    add_game(places["path"], "a", gid="game_a")
    add_game(places["cwd"], "b", gid="game_b")
    add_game(places["installed"], "c", gid="game_c")
    monkeypatch.setenv("SUMMON_PATH", os.pathsep.join([str(places["path"]), str(places["cwd"])]))
    assert [f.origin for f in loader.folders()] == ["SUMMON_PATH", "SUMMON_PATH", "installed"]
    assert loader.list_games() == {"game_a": places["path"] / "rules" / "game_a",
                                   "game_b": places["cwd"] / "rules" / "game_b",
                                   "game_c": places["installed"] / "rules" / "game_c"}


def test_an_unknown_game_names_the_games_found_and_where_it_looked(places, monkeypatch):
    add_game(places["path"], "a", gid="tiny_graph")
    add_game(places["installed"], "c", gid="other_game")
    monkeypatch.setenv("SUMMON_PATH", str(places["path"]))
    with pytest.raises(UnknownGame) as e:
        loader.resolve("tiny_grap")
    assert str(e.value) == (
        f"no game called 'tiny_grap' (did you mean 'tiny_graph'?); games found: other_game, tiny_graph; "
        f"looked in {places['path']} (SUMMON_PATH), {places['installed']} (installed)")


def test_no_game_anywhere_says_none_were_found(places):
    with pytest.raises(UnknownGame, match=r"games found: none; looked in .*installed"):
        loader.resolve("summoner_wars")


def test_paths_show_as_they_open_from_the_current_folder(places, monkeypatch):
    """A game on SUMMON_PATH, checked from another folder, had its paths shown relative to
    its games folder (rules/tiny_graph/game.yaml), which opens nothing from here."""
    rules = add_game(places["path"], "a")
    monkeypatch.setenv("SUMMON_PATH", str(places["path"]))
    assert loader.display(rules / "game.yaml") == str(rules / "game.yaml")
    outside = places["path"].parent / "elsewhere.yaml"
    assert loader.display(outside) == str(outside)


def test_a_path_that_would_name_another_file_from_here_is_shown_whole(places, monkeypatch):
    """A copy of a game on SUMMON_PATH, checked from a folder holding the game it copies (a
    checkout): its problems named the file here, which has no such problem."""
    copy, here = add_game(places["path"], "the copy"), add_game(places["cwd"], "the original")
    monkeypatch.setenv("SUMMON_PATH", str(places["path"]))
    assert loader.display(copy / "game.yaml") == str(copy / "game.yaml")
    assert loader.display(here / "game.yaml") == os.path.join("rules", "tiny_graph", "game.yaml")
    edit(copy / "game.yaml", "name: the copy", "name: [the copy]")
    assert [p.path for p in check("tiny_graph")] == [str(copy / "game.yaml")]


def test_summon_test_without_paths_runs_the_scenarios_of_every_game_found_but_not_hidden_ones(places, monkeypatch):
    for origin in ("path", "installed"):
        tests = add_game(places[origin], origin) / "tests"
        tests.mkdir()
        (tests / f"{origin}.yaml").write_text("game: tiny_graph\nscenarios: []\n")
    other = add_game(places["installed"], "other", gid="other_game") / "cards" / "tests"
    other.mkdir()
    (other / "cards.yaml").write_text("game: other_game\nscenarios: []\n")
    monkeypatch.setenv("SUMMON_PATH", str(places["path"]))
    assert scenarios.find_files() == [places["installed"] / "rules" / "other_game" / "cards" / "tests" / "cards.yaml",
                                      places["path"] / "rules" / "tiny_graph" / "tests" / "path.yaml"]


def summon_list(cwd: Path, summon_path: str) -> subprocess.CompletedProcess:
    """`summon list` run from a folder, with the checkout's code and the given SUMMON_PATH."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), SUMMON_PATH=summon_path)
    return subprocess.run([sys.executable, "-m", "repl", "list"], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=120)


def test_summon_list_names_each_folder_and_the_games_it_hides(tmp_path):
    mine = tmp_path / "mine"
    shutil.copytree(ROOT / "rules" / "summoners_isle", mine / "rules" / "summoners_isle")
    shutil.copytree(ROOT / "cards" / "summoners_isle", mine / "cards" / "summoners_isle")
    add_game(mine, "Tiny Graph")
    r = summon_list(tmp_path, str(mine) + os.pathsep + str(tmp_path / "missing"))
    assert r.returncode == 0, r.stderr
    blocks = r.stdout.strip().split("\n\n")
    assert blocks[0].splitlines()[0] == f"{mine}  (SUMMON_PATH)"
    assert re.search(r"^  summoners_isle  Summoner's Isle, 2-4 players$", blocks[0], re.M)
    assert re.search(r"^  tiny_graph  Tiny Graph, 2-3 players$", blocks[0], re.M)
    assert blocks[1] == f"{tmp_path / 'missing'}  (SUMMON_PATH)\n  no such folder"
    assert blocks[2].splitlines()[0] == f"{ROOT}  (installed)"
    assert re.search(r"^  summoner_wars  Summoner Wars, 2 players$", blocks[2], re.M)
    assert re.search(r"^      polar_dwarves  ", blocks[2], re.M)
    assert f"  summoners_isle  hidden by the one in {mine}" in blocks[2].splitlines()


def test_summon_list_with_no_game_anywhere_fails_and_says_how_to_add_one(tmp_path):
    env = dict(os.environ, SUMMON_PATH=str(tmp_path))
    code = ("import sys; from engine import loader; from repl.cli import main; "
            "loader.installed_root = lambda: None; sys.exit(main(['list']))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                       env=dict(env, PYTHONPATH=str(ROOT)), timeout=120)
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        f"{tmp_path}  (SUMMON_PATH)", "  no games here (looked for rules/<game>/game.yaml)",
        "no games found: set SUMMON_PATH to folders holding rules/<game>/game.yaml, or run summon where rules/ is"]
