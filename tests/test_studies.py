"""Smoke test: the Fugitive balance study runs end to end on one game per experiment, resumes
without replaying, tops up with new games, and reports every question with a plot."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime
from pathlib import Path

import duckdb

from sleuth.arena import store
from sleuth.arena.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "studies" / "fugitive_study.py"
NOW = datetime(2026, 1, 1)


def study(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(STUDY), *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def test_fugitive_study_runs_resumes_and_reports(tmp_path: Path) -> None:
    db, image = tmp_path / "study.duckdb", tmp_path / "study.png"
    first = study("run", "--db", str(db), "--games", "1", "--workers", "1")
    assert first.returncode == 0, first.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        runs = con.execute("select count(*) from runs").fetchone()
    again = study("run", "--db", str(db), "--games", "1", "--workers", "1")
    assert again.returncode == 0 and again.stdout == ""  # nothing left to play
    assert runs is not None and runs[0] == 17  # 24 experiments, 17 distinct pairings
    topped = study("run", "--db", str(db), "--games", "2", "--workers", "1")
    assert topped.returncode == 0, topped.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        counts = con.execute("select count(*), count(distinct seed) from games").fetchone()
    assert counts == (34, 2)  # one more game per pairing; every pairing shares the seeds
    store.save(db, run_tournament("fox", ["solver", "quantum"], 2, workers=1), NOW, "x")
    result = study("report", "--db", str(db), "--image", str(image))  # other games are ignored
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("### ") == 7 and "not run" not in result.stdout
    assert image.stat().st_size > 10_000
    missing = study("report", "--db", str(tmp_path / "none.duckdb"), "--image", str(image))
    assert missing.returncode != 0 and "none.duckdb does not exist" in missing.stderr


CAMEL_STUDY = ROOT / "studies" / "camel_up_study.py"


def test_camel_up_study_runs_resumes_and_reports(tmp_path: Path) -> None:
    db, image = tmp_path / "camel.duckdb", tmp_path / "camel.png"

    def camel(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(CAMEL_STUDY), *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=300)  # fmt: skip

    first = camel("run", "--db", str(db), "--games", "300", "--workers", "1")
    assert first.returncode == 0 and "played 300 games" in first.stdout, first.stderr
    again = camel("run", "--db", str(db), "--games", "400", "--workers", "2")
    assert again.returncode == 0 and "played 100 games; 400" in again.stdout, again.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("select count(distinct seed) from placement").fetchone() == (400,)
    result = camel("report", "--db", str(db), "--image", str(image))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("### ") == 3 and "| 1st (front) |" in result.stdout
    assert "17.52%" in result.stdout  # the exact baseline of the rearmost camel's P(win)
    assert image.stat().st_size > 10_000
    missing = camel("report", "--db", str(tmp_path / "none.duckdb"))
    assert missing.returncode != 0 and "none.duckdb does not exist" in missing.stderr
