"""Camel Up at the command line: ``play``, ``export camel-up``."""

from __future__ import annotations

import csv
from pathlib import Path

import duckdb

from tests.test_cli import check_error, entry


def _play(db: Path, cwd: Path, *options: str, bots: str = "random,random,random") -> None:
    args = ["play", "camel-up", "--bots", bots, "-n", "4", "--db", db, "-w", "1"]
    for option in options:
        args += ["-o", option]
    done = entry(*args, cwd=cwd)
    assert done.returncode == 0, done.stderr


def test_export_writes_one_row_per_action_matching_the_stored_games(
    tmp_path: Path, cwd: Path
) -> None:
    db = tmp_path / "r.duckdb"
    _play(db, cwd, "players=3")
    _play(db, cwd, "players=4", "edition=2", bots="random,random,random,random")
    out = tmp_path / "actions.csv"
    done = entry("export", "camel-up", "--db", db, "--csv", out, cwd=cwd)
    assert done.returncode == 0, done.stderr
    with out.open() as f:
        rows = list(csv.DictReader(f))
    with duckdb.connect(str(db), read_only=True) as con:
        games = con.execute("SELECT run_id, game_index, length, returns FROM games").fetchall()
    assert f"{len(rows)} rows from 8 games" in done.stdout
    for run_id, index, length, returns in games:
        mine = [r for r in rows if r["run_id"] == run_id and r["game_index"] == str(index)]
        assert len(mine) == 1 + length  # row 0, then one per player action
        assert [r["row"] for r in mine] == [str(i) for i in range(len(mine))]
        last = mine[-1]
        money = [float(last[f"player{p}_money"]) for p in range(len(returns))]
        assert money == returns
        assert last["winners"] and all(r["winners"] == last["winners"] for r in mine)
        rolls = [r for r in mine if r["kind"] == "roll"]
        assert rolls and all(r["die"] and r["value"] in "123" for r in rolls)
    assert {r["kind"] for r in rows} >= {"start", "roll", "leg bet", "tile", "overall bet"}


def test_export_errors_name_the_problem(tmp_path: Path, cwd: Path) -> None:
    missing = tmp_path / "missing.duckdb"
    check_error(entry("export", "camel-up", "--db", missing, "--csv", "x.csv", cwd=cwd), "missing")
    db = tmp_path / "fox.duckdb"
    done = entry("play", "fox", "--bots", "random,random", "-n", "1", "--db", db, cwd=cwd)
    assert done.returncode == 0
    check_error(entry("export", "camel-up", "--db", db, "--csv", "x.csv", cwd=cwd), "no Camel Up")
    _play(db, cwd)
    check_error(
        entry("export", "camel-up", "--db", db, "--csv", "x.csv", "--run", "zzz", cwd=cwd),
        "run zzz",
    )
    check_error(
        entry("export", "camel-up", "--db", db, "--csv", tmp_path / "no" / "x.csv", cwd=cwd),
        "cannot write",
    )
