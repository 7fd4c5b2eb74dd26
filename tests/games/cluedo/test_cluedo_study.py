"""studies/cluedo_study.py: a setting runs, resumes without replaying, and reports; turns to
certainty replayed from stored actions agree with what the logic player did."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import duckdb

from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game

ROOT = Path(__file__).resolve().parents[3]
STUDY = ROOT / "studies" / "cluedo_study.py"


def study_module() -> ModuleType:
    sys.path.insert(0, str(STUDY.parent))
    spec = importlib.util.spec_from_file_location("cluedo_study", STUDY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def study(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(STUDY), *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def test_a_setting_runs_resumes_and_reports(tmp_path: Path) -> None:
    only = ("--only", "3 sleuth v logic", "--workers", "1")
    first = study("run", "--games", "2", *only, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = study("run", "--games", "2", *only, cwd=tmp_path)
    assert again.returncode == 0 and again.stdout.startswith("nothing to play: every setting has")
    db = tmp_path / "study-output" / "cluedo-study.duckdb"
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("select bots from games order by game_index").fetchall()
    assert [r[0] for r in rows] == [["sleuth", "logic", "logic"], ["logic", "sleuth", "logic"]]
    report = study("report", "--workers", "1", cwd=tmp_path)
    assert report.returncode == 0, report.stderr
    assert "| 3 | `sleuth` v `logic` | 2 |" in report.stdout
    assert "| 6 | `velma` v `logic` | 0 | not run |" in report.stdout
    assert "Mean turns to certainty" in report.stdout


def test_turns_to_certainty_replays_what_the_logic_player_knew() -> None:
    turns_to_certainty = study_module().turns_to_certainty
    checked = 0
    for seed in range(6):
        game = make_game("cluedo", {"players": 3, "max_turns": 150})
        record = run_match(game, [game_spec("cluedo").bot("logic")] * 3, seed, time_limit=None)
        actions = [str(step.action) for step in record.steps]
        turns = turns_to_certainty(game.options(), actions)
        if 1 not in record.wins:
            continue  # the turn limit came first
        winner = record.wins.index(1)
        checked += 1
        moves = sum(
            1
            for step in record.steps
            for e in step.events
            if e.kind == "moved" and e.public["seat"] == winner
        )
        # logic accuses the moment it is certain: at its turn's start or after its suggestion
        assert turns[winner] is not None and turns[winner] in (moves, moves - 1)
    assert checked >= 2
