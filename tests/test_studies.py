"""Smoke tests: each study runs end to end on a few games, resumes without replaying, tops up
with new games, and reports with a plot; by default everything goes to ``study-output/`` under
the current directory, never into the committed ``docs/img``."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime
from pathlib import Path

import duckdb

from sleuth.arena import store
from sleuth.arena.equilibrium import solve_zero_sum
from sleuth.arena.tournament import run_tournament

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
STUDY = ROOT / "studies" / "fugitive_study.py"
NOW = datetime(2026, 1, 1)


def docs_files() -> dict[Path, tuple[int, int]]:
    """Every file under docs/ but the pages (edited by hand) with its modification time and
    size: the figures and anything a study could have written there."""
    return {
        f: (f.stat().st_mtime_ns, f.stat().st_size)
        for f in DOCS.rglob("*")
        if f.is_file() and f.suffix != ".md"
    }


def study(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(STUDY), *args], cwd=cwd, capture_output=True, text=True, timeout=300
    )


def without_matplotlib(script: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``script`` run as on an install without the report extra (importing matplotlib fails)."""
    program = (
        "import runpy, sys\n"
        "sys.modules['matplotlib'] = None\n"  # 'import matplotlib' raises ImportError
        f"sys.path.insert(0, {str(script.parent)!r})\n"
        f"sys.argv = [{str(script)!r}, *sys.argv[1:]]\n"
        f"runpy.run_path({str(script)!r}, run_name='__main__')\n"
    )
    return subprocess.run(
        [sys.executable, "-c", program, *args], cwd=cwd, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip


def test_fugitive_study_runs_resumes_and_reports(tmp_path: Path) -> None:
    before = docs_files()
    first = study("run", "--games", "1", "--workers", "1", cwd=tmp_path)  # the default folder
    assert first.returncode == 0, first.stderr
    db = tmp_path / "study-output" / "fugitive-study.duckdb"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["fugitive-study.duckdb", "study-output"]
    default = study("report", cwd=tmp_path)
    assert default.returncode == 0, default.stderr
    assert (tmp_path / "study-output" / "fugitive-study.png").stat().st_size > 10_000
    assert docs_files() == before  # the committed figure is untouched
    plain = without_matplotlib(STUDY, "report", cwd=tmp_path)  # a plain install: no plot
    assert plain.returncode == 0, plain.stderr
    assert plain.stdout == default.stdout.replace(
        f"plot: {Path('study-output') / 'fugitive-study.png'}\n", ""
    )
    assert "no plot: it needs matplotlib, which the 'report' extra installs" in plain.stderr
    out = tmp_path / "elsewhere"
    with duckdb.connect(str(db), read_only=True) as con:
        runs = con.execute("select count(*) from runs").fetchone()
    again = study("run", "--db", str(db), "--games", "1", "--workers", "1")
    assert again.returncode == 0, again.stderr
    assert (
        again.stdout
        == "nothing to play: every setting has its 1 game (a larger --games adds more)\n"
    )
    assert runs is not None and runs[0] == 17  # 24 experiments, 17 distinct pairings
    topped = study("run", "--db", str(db), "--games", "2", "--workers", "1")
    assert topped.returncode == 0, topped.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        counts = con.execute("select count(*), count(distinct seed) from games").fetchone()
    assert counts == (34, 2)  # one more game per pairing; every pairing shares the seeds
    store.save(db, run_tournament("fox", ["solver", "quantum"], 2, workers=1), NOW, "x")
    result = study("report", "--db", str(db), "--out", str(out))  # other games are ignored
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("### ") == 7 and "not run" not in result.stdout
    assert (out / "fugitive-study.png").stat().st_size > 10_000
    missing = study("report", "--out", str(tmp_path / "none"))
    assert missing.returncode != 0 and "fugitive-study.duckdb does not exist" in missing.stderr


CAMEL_STUDY = ROOT / "studies" / "camel_up_study.py"


def test_camel_up_study_runs_resumes_and_reports(tmp_path: Path) -> None:
    before = docs_files()

    def camel(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(CAMEL_STUDY), *args], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)  # fmt: skip

    first = camel("run", "--games", "300", "--workers", "1")  # the default folder
    assert first.returncode == 0 and "played 300 games" in first.stdout, first.stderr
    db = tmp_path / "study-output" / "camel-up-study.duckdb"
    again = camel("run", "--db", str(db), "--games", "400", "--workers", "2")
    assert again.returncode == 0 and "played 100 games; 400" in again.stdout, again.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("select count(distinct seed) from placement").fetchone() == (400,)
    result = camel("report")
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("### ") == 3 and "| 1st (front) |" in result.stdout
    assert "17.52%" in result.stdout  # the exact baseline of the rearmost camel's P(win)
    assert sorted(p.name for p in db.parent.iterdir()) == [db.name, "camel-up-study.png"]
    assert (db.parent / "camel-up-study.png").stat().st_size > 10_000
    assert docs_files() == before  # the committed figure is untouched
    plain = without_matplotlib(
        CAMEL_STUDY, "report", "--db", str(db), "--out", "none", cwd=tmp_path
    )
    assert plain.returncode == 0 and plain.stdout.count("### ") == 3, plain.stderr
    assert "no plot: it needs matplotlib" in plain.stderr and not (tmp_path / "none").exists()
    out = tmp_path / "figures"
    elsewhere = camel("report", "--db", str(db), "--out", str(out))
    assert elsewhere.returncode == 0 and (out / "camel-up-study.png").exists(), elsewhere.stderr
    missing = camel("report", "--db", str(tmp_path / "none.duckdb"))
    assert missing.returncode != 0 and "none.duckdb does not exist" in missing.stderr


BALANCE = ROOT / "studies" / "fugitive_balance.py"


def test_fugitive_balance_runs_resumes_and_solves_the_matrix_game(tmp_path: Path) -> None:
    before = docs_files()

    def balance(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(BALANCE), *args, "--quick"], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)  # fmt: skip

    first = balance("run", "--edition", "first", "--workers", "1")
    assert first.returncode == 0, first.stderr
    assert first.stdout.count(", first ...") == 4  # 2 Fugitives x 2 Marshals
    db = tmp_path / "study-output" / "fugitive-balance.duckdb"
    again = balance("run", "--edition", "first", "--workers", "1")
    assert again.stdout == (
        "nothing to play: every setting has its 2 games (a larger --games adds more)\n"
    ), again.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "select bots[1], bots[2], avg(wins[1]) from games group by all"
        ).fetchall()
        assert con.execute("select count(*) from games").fetchone() == (8,)
    rates = {(f, m): rate for f, m, rate in rows}
    result = balance("matrix", "--samples", "50")
    assert result.returncode == 0, result.stderr
    assert "## first edition" in result.stdout and "## second" not in result.stdout
    assert result.stdout.count("| `random` |") == 1 and "| worst for the Marshal |" in result.stdout
    payoff = [[rates[f, m] for m in ("candidates", "notes")] for f in ("random", "steady")]
    value = solve_zero_sum(payoff).value
    assert f"value (the Fugitive's equilibrium win rate): {value:.2%}, 95% bootstrap" in (
        result.stdout
    )
    assert "Fugitive's equilibrium mix: `" in result.stdout
    assert (db.parent / "fugitive-balance-first.png").stat().st_size > 10_000
    assert docs_files() == before
    missing = balance("matrix", "--out", str(tmp_path / "none"))
    assert missing.returncode != 0 and "fugitive-balance.duckdb does not exist" in missing.stderr


def test_fugitive_balance_psro_finds_the_restricted_equilibrium(tmp_path: Path) -> None:
    before = docs_files()
    result = subprocess.run(
        [sys.executable, str(BALANCE), "psro", "--quick", "--edition", "first", "--workers", "1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    db = tmp_path / "study-output" / "fugitive-balance.duckdb"
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "select bots[1], bots[2], count(*), avg(wins[1]) from games group by all"
        ).fetchall()
    assert all(games == 2 for _, _, games, _ in rows)
    rates = {(f, m): rate for f, m, _, rate in rows}
    fugitives, marshals = ("policy", "policy:stride=2"), ("candidates", "notes")
    # with these two-by-two pools it measures every entry, and its answer is the whole game's
    value = solve_zero_sum([[rates[f, m] for m in marshals] for f in fugitives]).value
    assert f"value (the Fugitive's win rate): {value:.2%}" in result.stdout
    assert "converged: yes" in result.stdout
    assert 'the robust Fugitive\'s mix (robust.MIXES["first"]): ((' in result.stdout
    assert "best Marshal of the pool against the Fugitive's mix: `" in result.stdout
    again = subprocess.run(
        [sys.executable, str(BALANCE), "psro", "--quick", "--edition", "first", "--workers", "1"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert " ...\n" not in again.stdout and again.stdout.endswith(result.stdout.split("\n\n", 1)[1])
    assert docs_files() == before
