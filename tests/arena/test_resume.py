"""Storing a run as it goes and resuming it: batches, stored rows read back, no duplicates."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from sleuth.arena import store
from sleuth.arena.tournament import GameRow, Tournament, run_tournament
from sleuth.cli.app import app
from sleuth.core.errors import SleuthError
from sleuth.core.match import DEFAULT_TIME_LIMIT

STARTED = datetime(2026, 1, 2, 3, 4, 5)
BOTS = ["random", "random"]


def header(run_id: str, games: int) -> Tournament:
    options = {"graph": "path:5", "k": 1, "lazy": False, "days": 20}
    return Tournament(run_id, "fox", options, 3, tuple(BOTS), 1, requested=games)


def test_finished_games_are_handed_over_in_batches_covering_every_game() -> None:
    batches: list[list[GameRow]] = []
    for workers in (1, 2):
        batches.clear()
        t = run_tournament("fox", BOTS, 50, seed=3, workers=workers, on_rows=batches.append)
        assert sorted(r.index for batch in batches for r in batch) == list(range(50))
        assert all(batches)
        assert t.complete and t.stopped_by is None and t.exit_code == 0 and not t.lost


def test_a_resumed_run_plays_only_the_missing_games_and_equals_a_whole_run() -> None:
    whole = run_tournament("fox", BOTS, 30, seed=3, workers=1)
    kept = [r for r in whole.rows if r.index % 3 != 1]  # as if games 1, 4, 7, ... were lost
    played: list[GameRow] = []
    resumed = run_tournament(
        "fox", BOTS, 30, seed=3, workers=2, previous=kept, run_id="abc", on_rows=played.extend
    )
    assert sorted(r.index for r in played) == list(range(1, 30, 3))
    assert resumed.run_id == "abc" and resumed.complete
    assert [(r.index, r.outcome, r.actions) for r in resumed.rows] == [
        (r.index, r.outcome, r.actions) for r in whole.rows
    ]
    assert resumed.summary()["results"] == whole.summary()["results"]


def test_stored_rows_read_back_as_they_were(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    t = run_tournament("fox", BOTS, 12, seed=3, workers=1)
    store.begin(db, header(t.run_id, 20), STARTED, "x", time_limit=1.0)
    store.add_games(db, t.run_id, "fox", t.options, t.rows[:5])
    store.add_games(db, t.run_id, "fox", t.options, t.rows[3:12])  # 3, 4 again: skipped
    found = store.find_run(db, "fox", t.options, 3, BOTS, 20, 1.0)
    assert found.run_id == t.run_id and found.status == "running"
    assert found.rows == t.rows
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (12,)


def test_the_end_of_a_run_records_whether_it_finished(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    t = run_tournament("fox", BOTS, 4, seed=3, workers=1)
    store.begin(db, header(t.run_id, 4), STARTED, "x", time_limit=None)
    store.add_games(db, t.run_id, "fox", t.options, t.rows[:2])
    partial = Tournament(t.run_id, "fox", t.options, 3, tuple(BOTS), 1, t.rows[:2], 1.5, 4)
    store.end(db, partial)
    assert store.find_run(db, "fox", t.options, 3, BOTS, 4, None).status == "stopped"
    store.add_games(db, t.run_id, "fox", t.options, t.rows[2:])
    whole = Tournament(t.run_id, "fox", t.options, 3, tuple(BOTS), 2, t.rows, 2.0, 4)
    store.end(db, whole, seconds_before=1.5)
    found = store.find_run(db, "fox", t.options, 3, BOTS, 4, None)
    assert (found.status, found.seconds, len(found.rows)) == ("finished", 3.5, 4)


@pytest.mark.parametrize(
    ("seed", "games", "time_limit"), [(4, 20, 1.0), (3, 21, 1.0), (3, 20, 2.0), (3, 20, None)]
)
def test_only_the_very_same_tournament_is_resumed(
    tmp_path: Path, seed: int, games: int, time_limit: float | None
) -> None:
    db = tmp_path / "r.duckdb"
    h = header("run1", 20)
    store.begin(db, h, STARTED, "x", time_limit=1.0)
    with pytest.raises(SleuthError, match="no run of this tournament to resume"):
        store.find_run(db, "fox", h.options, seed, BOTS, games, time_limit)
    with pytest.raises(SleuthError, match="no run"):
        store.find_run(db, "fox", h.options, 3, ["random", "quantum"], 20, 1.0)


def test_the_latest_of_several_runs_is_resumed(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    store.begin(db, header("old", 20), STARTED, "x", time_limit=1.0)
    store.begin(db, header("new", 20), STARTED.replace(year=2027), "x", time_limit=1.0)
    assert store.find_run(db, "fox", header("x", 20).options, 3, BOTS, 20, 1.0).run_id == "new"


# --- the command line ------------------------------------------------------------------------


def play(*args: str) -> Any:
    return CliRunner().invoke(app, ["play", "fox", "--bots", "random,random", *args])


def test_resume_needs_the_results_file() -> None:
    result = play("-n", "5", "--no-db", "--resume")
    assert isinstance(result.exception, SleuthError)
    assert "--resume continues a run stored" in str(result.exception)


def test_resume_without_a_stored_run_says_so_and_stores_nothing(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    result = play("-n", "5", "--db", str(db), "--resume")
    assert isinstance(result.exception, SleuthError)
    assert "holds no run of this tournament" in str(result.exception)
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM runs").fetchone() == (0,)


def test_resuming_a_finished_run_plays_nothing_and_prints_its_table(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    first = play("-n", "6", "-w", "1", "--db", str(db), "--json")
    assert first.exit_code == 0
    again = play("-n", "6", "-w", "1", "--db", str(db), "--json", "--resume")
    assert again.exit_code == 0 and "already finished: nothing to resume" in again.stderr
    assert json.loads(again.stdout)["results"] == json.loads(first.stdout)["results"]
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*), count(DISTINCT run_id) FROM games").fetchone() == (
            6,
            1,
        )


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_workers_play_every_game_whatever_the_start_method(method: str) -> None:
    """Workers watch the parent they see (a fork server under forkserver), not the main
    process's pid: they must not take themselves for orphans."""
    program = (
        "import multiprocessing\n"
        "from sleuth.arena.tournament import run_tournament\n"
        "if __name__ == '__main__':\n"
        f"    multiprocessing.set_start_method({method!r})\n"
        "    t = run_tournament('fox', ['random', 'random'], 3000, seed=1, workers=2,\n"
        "                       options={'graph': 'grid:4x4'})\n"
        "    print(len(t.rows), t.lost)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "3000 []"


def test_the_default_time_limit_and_a_chosen_one_are_different_runs(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    h = header("run1", 20)
    store.begin(db, h, STARTED, "x", time_limit=DEFAULT_TIME_LIMIT)
    assert store.find_run(db, "fox", h.options, 3, BOTS, 20, DEFAULT_TIME_LIMIT).run_id == "run1"
    with pytest.raises(SleuthError, match="no run"):
        store.find_run(db, "fox", h.options, 3, BOTS, 20, float(DEFAULT_TIME_LIMIT))
    with pytest.raises(SleuthError, match="no run"):
        store.find_run(db, "fox", h.options, 3, BOTS, 20, None)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_store_that_fails_mid_run_stops_it_and_says_what_was_kept(
    workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sleuth.arena.tournament.BATCH_ROWS", 50)
    kept: list[GameRow] = []

    def store_twice(rows: list[GameRow]) -> None:
        if len(kept) >= 100:
            raise SleuthError("cannot store results in r.duckdb: disk full")
        kept.extend(rows)

    with pytest.raises(SleuthError) as error:
        run_tournament("fox", BOTS, 5000, seed=3, workers=workers, on_rows=store_twice)
    message = str(error.value)
    assert message.startswith("cannot store results in r.duckdb: disk full: the run stopped")
    assert f"with {len(kept)} games stored" in message and "--resume" in message
    assert len(kept) == 100


def _stop_after(db: Path, kept: int) -> None:
    """Make the only run in ``db`` one that stopped with its first ``kept`` games stored."""
    with duckdb.connect(str(db)) as con:
        con.execute("DELETE FROM games WHERE game_index >= ?", [kept])
        con.execute("UPDATE runs SET status = 'stopped'")


def test_a_resumed_run_writes_the_rest_of_its_logs_where_it_began(tmp_path: Path) -> None:
    db, logs = tmp_path / "r.duckdb", tmp_path / "logs"
    assert play("-n", "6", "-w", "1", "--db", str(db), "--logs", str(logs)).exit_code == 0
    _stop_after(db, 2)
    for late in sorted(logs.glob("game-*.jsonl"))[2:]:
        late.unlink()  # as if the run had stopped after two games
    again = play("-n", "6", "-w", "1", "--db", str(db), "--resume")
    assert again.exit_code == 0, again.output
    assert f"writes its logs to {logs.absolute()}: they go on there" in again.stderr
    assert [p.name for p in sorted(logs.glob("*"))] == [f"game-{i:06d}.jsonl" for i in range(6)]


def test_resuming_into_another_logs_folder_is_refused_and_plays_nothing(tmp_path: Path) -> None:
    db, logs, other = tmp_path / "r.duckdb", tmp_path / "logs", tmp_path / "other"
    assert play("-n", "4", "-w", "1", "--db", str(db), "--logs", str(logs)).exit_code == 0
    _stop_after(db, 1)
    again = play("-n", "4", "-w", "1", "--db", str(db), "--resume", "--logs", str(other))
    assert isinstance(again.exception, SleuthError)
    assert str(again.exception).startswith(f"--logs {other}: run ")
    assert f"writes its logs to {logs.absolute()}; resume it with" in str(again.exception)
    assert not other.exists()
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (1,)


def test_logs_asked_for_only_on_resuming_warn_that_earlier_games_have_none(
    tmp_path: Path,
) -> None:
    db, logs = tmp_path / "r.duckdb", tmp_path / "logs"
    assert play("-n", "4", "-w", "1", "--db", str(db)).exit_code == 0
    _stop_after(db, 3)
    again = play("-n", "4", "-w", "1", "--db", str(db), "--resume", "--logs", str(logs))
    assert again.exit_code == 0, again.output
    assert "began without --logs: its 3 finished games have no logs in" in again.stderr
    assert [p.name for p in logs.glob("*")] == ["game-000003.jsonl"]
    _stop_after(db, 3)  # stopped again: the next resume goes on in that folder
    (logs / "game-000003.jsonl").unlink()
    last = play("-n", "4", "-w", "1", "--db", str(db), "--resume")
    assert last.exit_code == 0, last.output
    assert f"writes its logs to {logs.absolute()}: they go on there" in last.stderr
    assert [p.name for p in logs.glob("*")] == ["game-000003.jsonl"]
