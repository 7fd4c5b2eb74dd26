"""The DuckDB results store: the documented tables and columns, values, appending runs."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import pytest

import sleuth
from sleuth.arena import store
from sleuth.arena.tournament import GameRow, Tournament, run_tournament
from sleuth.core.errors import SleuthError
from sleuth.core.match import DEFAULT_TIME_LIMIT
from sleuth.core.registry import make_game

RUN_COLUMNS = [
    "run_id", "started_at", "game", "options", "seed", "bots", "games", "workers", "seconds",
    "sleuth_version", "status", "time_limit", "logs", "rotate", "league",
]  # fmt: skip
GAME_COLUMNS = [
    "run_id", "game_index", "game", "options", "seed", "bots", "roles", "outcome", "returns",
    "wins", "length", "duration", "forfeits", "actions", "thinking", "winners", "termination",
]  # fmt: skip
STARTED = datetime(2025, 1, 2, 3, 4, 5)


def columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    rows = con.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_name = ? "
        "ORDER BY ordinal_position",
        [table],
    ).fetchall()
    return [name for (name,) in rows]


def fetch(con: duckdb.DuckDBPyConnection, sql: str, *params: Any) -> list[dict[str, Any]]:
    cursor = con.execute(sql, list(params))
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]


def test_the_documented_columns_are_the_real_ones(tmp_path: Path) -> None:
    doc = store.__doc__ or ""
    for name in RUN_COLUMNS + GAME_COLUMNS:
        assert f"``{name}``" in doc, f"{name} is not documented in sleuth.arena.store"
    db = tmp_path / "r.duckdb"
    store.save(db, run_tournament("fox", ["solver", "quantum"], 2, workers=1), STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:
        assert columns(con, "runs") == RUN_COLUMNS
        assert columns(con, "games") == GAME_COLUMNS


def test_one_run_row_and_one_row_per_game(tmp_path: Path) -> None:
    db = tmp_path / "results.duckdb"
    t = run_tournament(
        "fox", ["random", "random"], 9, seed=11, options={"graph": "cycle:4"}, workers=1
    )
    store.save(db, t, STARTED, sleuth.__version__)
    with duckdb.connect(str(db), read_only=True) as con:
        (run,) = fetch(con, "SELECT * FROM runs")
        games = fetch(con, "SELECT * FROM games ORDER BY game_index")
    assert run["run_id"] == t.run_id
    assert run["started_at"] == STARTED
    assert run["game"] == "fox"
    assert json.loads(run["options"]) == t.options == {
        "graph": "cycle:4", "k": 1, "lazy": False, "days": 16,
    }  # fmt: skip
    assert run["seed"] == 11
    assert run["bots"] == ["random", "random"]
    assert run["games"] == 9
    assert run["workers"] == 1
    assert run["seconds"] == pytest.approx(t.seconds)
    assert run["sleuth_version"] == sleuth.__version__

    assert len(games) == 9
    for stored, row in zip(games, t.rows, strict=True):
        assert stored["run_id"] == t.run_id
        assert stored["game_index"] == row.index
        assert stored["game"] == "fox"
        assert json.loads(stored["options"]) == t.options
        assert stored["seed"] == row.seed
        assert stored["bots"] == list(row.bots)
        assert stored["roles"] == ["hunter", "fox"]
        assert stored["outcome"] == row.outcome
        assert stored["returns"] == list(row.returns)
        assert stored["wins"] == list(row.wins)
        assert stored["length"] == row.length
        assert stored["duration"] == pytest.approx(row.duration)
        assert json.loads(stored["forfeits"]) == []
    assert [g["game_index"] for g in games] == list(range(9))


def test_seeds_are_full_63_bit_values(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    t = run_tournament("fox", ["solver", "quantum"], 4, seed=2**62 + 5, workers=1)
    store.save(db, t, STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT seed FROM runs").fetchone() == (2**62 + 5,)
        seeds = [s for (s,) in con.execute("SELECT seed FROM games ORDER BY game_index").fetchall()]
    assert seeds == [r.seed for r in t.rows]
    assert max(seeds) > 2**31  # would not fit a 32-bit column


def test_two_runs_append(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    first = run_tournament("fox", ["solver", "quantum"], 3, workers=1)
    second = run_tournament("fox", ["random", "random"], 5, seed=1, workers=1)
    store.save(db, first, STARTED, "x")
    store.save(db, second, STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:
        runs = fetch(con, "SELECT run_id, bots, games FROM runs ORDER BY games")
        per_run = dict(con.execute("SELECT run_id, count(*) FROM games GROUP BY run_id").fetchall())
        wins = con.execute(
            "SELECT sum(wins[1]) FROM games WHERE run_id = ?", [first.run_id]
        ).fetchone()
    assert runs == [
        {"run_id": first.run_id, "bots": ["solver", "quantum"], "games": 3},
        {"run_id": second.run_id, "bots": ["random", "random"], "games": 5},
    ]
    assert per_run == {first.run_id: 3, second.run_id: 5}
    assert wins == (3.0,)  # the solver hunter caught the fox in every game (lists are 1-based)


def row(index: int, wins: tuple[float, float], forfeits: list[dict[str, Any]]) -> GameRow:
    return GameRow(
        index=index, seed=100 + index, bots=("random", "random"), roles=("hunter", "fox"),
        outcome="by hand", returns=wins, wins=wins, length=3, duration=0.5, forfeits=forfeits,
    )  # fmt: skip


def test_ties_and_forfeits_are_stored(tmp_path: Path) -> None:
    forfeit = {"seat": 1, "bot": "random", "step": 2, "reason": "raised RuntimeError: boom"}
    t = Tournament("hand-built", "fox", {"graph": "path:3"}, 7, ("random", "random"), 2)
    t.rows = [row(0, (0.5, 0.5), []), row(1, (1.0, 0.0), [forfeit])]
    db = tmp_path / "r.duckdb"
    store.save(db, t, STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:
        games = fetch(con, "SELECT * FROM games ORDER BY game_index")
        (run,) = fetch(con, "SELECT * FROM runs")
    assert games[0]["wins"] == [0.5, 0.5]
    assert json.loads(games[0]["forfeits"]) == []
    assert json.loads(games[1]["forfeits"]) == [forfeit]
    assert run["run_id"] == "hand-built" and run["workers"] == 2 and run["games"] == 2


def test_a_run_without_games(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    store.save(db, Tournament("empty", "fox", {}, 0, ("solver", "quantum"), 1), STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT run_id, games FROM runs").fetchall() == [("empty", 0)]
        assert con.execute("SELECT count(*) FROM games").fetchone() == (0,)


def test_the_same_run_cannot_be_stored_twice(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    t = run_tournament("fox", ["solver", "quantum"], 2, workers=1)
    store.save(db, t, STARTED, "x")
    with pytest.raises(SleuthError, match=re.escape(str(db))):
        store.save(db, t, STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:  # the failed save left nothing behind
        assert con.execute("SELECT count(*) FROM games").fetchone() == (2,)


@pytest.mark.parametrize(
    "kind", ["missing folder", "not a database", "a JSON file", "a JSONL log", "a folder"]
)
def test_unusable_files_give_a_clear_error_and_stay_unchanged(tmp_path: Path, kind: str) -> None:
    content = None
    if kind == "missing folder":
        db = tmp_path / "no" / "such" / "folder" / "r.duckdb"
    elif kind == "a folder":
        db = tmp_path
    else:  # DuckDB 2 opens an existing JSON file as an empty in-memory database
        db = tmp_path / {"not a database": "notes.txt", "a JSON file": "g.json"}.get(
            kind, "game.jsonl"
        )
        content = {"not a database": "hello\n"}.get(kind, '{"format": "sleuth-log"}\n')
        db.write_text(content)
    t = run_tournament("fox", ["solver", "quantum"], 1, workers=1)
    for attempt in (lambda: store.prepare(db), lambda: store.save(db, t, STARTED, "x")):
        with pytest.raises(SleuthError) as info:
            attempt()
        assert str(db) in str(info.value)
    if content is not None:
        assert db.read_text() == content


DOCS = Path(__file__).resolve().parents[2] / "docs" / "file-formats.md"


def documented_schema(table: str) -> list[tuple[str, str]]:
    """The ``| column | type | meaning |`` rows under "`table` —" in docs/file-formats.md."""
    text = DOCS.read_text(encoding="utf-8")
    section = text.split(f"`{table}` —", 1)[1]
    rows = []
    for line in section.splitlines()[1:]:
        if rows and not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("|") and cells[0] not in ("column", "---"):
            rows.append((cells[0], cells[1]))
    return rows


@pytest.mark.skipif(not DOCS.exists(), reason="docs/file-formats.md is not in this checkout")
def test_the_schema_in_the_docs_matches_the_database(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    store.save(db, run_tournament("fox", ["solver", "quantum"], 3, workers=1), STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:
        for table in ("runs", "games"):
            real = con.execute(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = ? ORDER BY ordinal_position",
                [table],
            ).fetchall()
            assert documented_schema(table) == real
        # the example query of the docs runs
        sql = DOCS.read_text(encoding="utf-8").split("```sql", 1)[1].split("```", 1)[0]
        assert con.execute(sql).fetchall() == [("solver", 1.0, 3)]


def test_stored_actions_replay_the_game(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    t = run_tournament("fox", ["random", "random"], 3, seed=5, options={"graph": "path:4"},
                       workers=1)  # fmt: skip
    store.save(db, t, STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:
        games = fetch(con, "SELECT options, actions, wins FROM games ORDER BY game_index")
    for stored in games:
        game = make_game("fox", json.loads(stored["options"]))
        state = game.new_initial_state()
        for text in stored["actions"]:
            state.apply(game.parse_action(text))
        assert state.is_terminal() and list(state.wins()) == stored["wins"]


def test_a_file_from_before_the_actions_column_is_upgraded(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    old_schema = store.SCHEMA.split("ALTER")[0].replace(", actions VARCHAR[]", "")
    with duckdb.connect(str(db)) as con:
        con.execute(old_schema)
    store.save(db, run_tournament("fox", ["random", "random"], 2, workers=1), STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:
        assert columns(con, "games") == GAME_COLUMNS
        assert con.execute("SELECT count(*) FROM games WHERE len(actions) > 0").fetchone() == (2,)


def test_winners_and_termination_are_stored_and_read_back(tmp_path: Path) -> None:
    db = tmp_path / "r.duckdb"
    t = run_tournament("fox", ["random", "random"], 6, seed=2, options={"graph": "path:4"},
                       workers=1)  # fmt: skip
    store.save(db, t, STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:
        games = fetch(con, "SELECT wins, winners, termination FROM games ORDER BY game_index")
    assert [(g["winners"], g["termination"]) for g in games] == [
        (list(r.winners or ()), r.termination) for r in t.rows
    ]
    for stored in games:
        caught = stored["termination"] == "caught"
        assert stored["winners"] == (["hunter"] if caught else ["fox"])
        assert stored["wins"] == ([1.0, 0.0] if caught else [0.0, 1.0])
    found = store.find_run(db, "fox", t.options, 2, ["random", "random"], 6, DEFAULT_TIME_LIMIT)
    assert found.rows == t.rows


def test_games_stored_before_the_structured_outcome_read_back_as_null(tmp_path: Path) -> None:
    db = tmp_path / "old.duckdb"
    old_schema = store.SCHEMA.split("ALTER TABLE games ADD COLUMN IF NOT EXISTS winners")[0]
    t = Tournament("old-run", "fox", {"graph": "path:3"}, 7, ("random", "random"), 1)
    t.rows = [row(0, (1.0, 0.0), [])]  # a row as older versions kept it: no winners
    with duckdb.connect(str(db)) as con:
        con.execute(old_schema)
        con.execute(
            "INSERT INTO games (run_id, game_index, roles, wins) VALUES "
            "('older', 0, ['hunter', 'fox'], [1.0, 0.0])"
        )
    store.save(db, t, STARTED, "x")
    with duckdb.connect(str(db), read_only=True) as con:
        assert columns(con, "games") == GAME_COLUMNS
        stored = con.execute(
            "SELECT run_id, winners, termination FROM games ORDER BY run_id"
        ).fetchall()
    assert stored == [("old-run", None, None), ("older", None, None)]
    rows = store.find_run(
        db, "fox", {"graph": "path:3"}, 7, ["random", "random"], 1, DEFAULT_TIME_LIMIT
    ).rows
    assert [(r.winners, r.termination) for r in rows] == [(None, None)]
