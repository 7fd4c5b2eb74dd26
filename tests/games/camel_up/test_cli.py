"""Camel Up at the command line: ``play``, ``export camel-up``."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.cli_helpers import check_error, entry, one_json_object


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


M_STATE = {
    "edition": 1,
    "track": {"4": ["blue"], "5": ["green", "orange"], "7": ["yellow"], "8": ["white"]},
    "to_move": ["blue", "green", "orange", "yellow", "white"],
}


def test_odds_json_gives_the_golden_values_of_position_m(cwd: Path) -> None:
    done = entry("camel-up", "odds", "--state", json.dumps(M_STATE), "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    out = one_json_object(done.stdout)
    names = ["blue", "green", "orange", "yellow", "white"]  # camel id = place from the back
    golden_first = [0.0828, 0.1048, 0.2492, 0.1857, 0.3776]
    golden_win = [0.1463, 0.1858, 0.2107, 0.2290, 0.2282]
    for name, first, win in zip(names, golden_first, golden_win, strict=True):
        assert out["leg"]["first"][name] == pytest.approx(first, abs=1e-4)
        assert out["game"]["winner"][name] == pytest.approx(win, abs=1e-4)
    assert out["ev"]["leg white"] == pytest.approx(1.8427, abs=1e-4)  # O9's EV of the 5-tile
    assert out["ev"]["roll"] == 1.0
    assert len(out["ev"]) == 1 + 5 + 10 + 2 * 11  # roll, leg and overall bets, spaces 2-16 free
    assert out["best"] in out["ev"]


def test_odds_reads_a_file_and_prints_tables(tmp_path: Path, cwd: Path) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps({**M_STATE, "tiles": {"10": "oasis"}}))
    done = entry("camel-up", "odds", "--state", path, cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert "Best actions for seat 0" in done.stdout and "white" in done.stdout


@pytest.mark.parametrize(
    ("change", "culprits"),
    [
        ({"track": {"4": ["blue", "blue"]}}, ["blue", "space 4"]),
        ({"track": {"4": ["blue"], "5": ["green"], "6": ["pink"]}}, ["pink"]),
        ({"tiles": {"10": "oasis", "11": "mirage"}}, ["10", "11", "adjacent"]),
        ({"tiles": {"5": "oasis"}}, ["space 5", "under a camel"]),
        ({"tiles": {"9": "sideways"}}, ["sideways"]),
        ({"to_move": ["blue", "teal"]}, ["teal"]),
        ({"to_move": []}, ["leg is over"]),
        ({"colour": 3}, ["colour"]),
        ({"track": {"17": ["blue"]}}, ["space 17"]),
    ],
)
def test_invalid_states_are_named(change: dict[str, Any], culprits: list[str], cwd: Path) -> None:
    state = {**M_STATE, **change}
    check_error(entry("camel-up", "odds", "--state", json.dumps(state), cwd=cwd), *culprits)


def test_odds_rejects_text_that_is_neither_json_nor_a_file(cwd: Path) -> None:
    check_error(entry("camel-up", "odds", "--state", "nope.json", cwd=cwd), "nope.json")
    check_error(entry("camel-up", "odds", "--state", "{bad", cwd=cwd), "not valid JSON")


def test_the_example_in_odds_help_runs(cwd: Path) -> None:
    import typer.main

    from sleuth.cli.app import app
    from sleuth.cli.lazy import subcommand
    from sleuth.games.camel_up.commands import STATE_EXAMPLE

    odds = subcommand(subcommand(typer.main.get_command(app), "camel-up"), "odds")
    (state,) = [p for p in odds.params if p.name == "state"]
    assert STATE_EXAMPLE in state.help
    done = entry("camel-up", "odds", "--state", STATE_EXAMPLE, "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    out = one_json_object(done.stdout)
    assert set(out["leg"]["first"]) == {"blue", "green", "orange", "yellow", "white"}
    assert out["leg"]["first"]["green"] == 0.0  # green, under orange, has no die left: it stays


def test_the_shipped_example_state_uses_every_field_and_runs(cwd: Path) -> None:
    from sleuth.games.camel_up.position import FIELDS

    path = Path(__file__).resolve().parents[3] / "examples" / "camel-up-state.json"
    assert set(json.loads(path.read_text())) == FIELDS
    done = entry("camel-up", "odds", "--state", path, "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    out = one_json_object(done.stdout)
    assert "winner green" not in out["ev"]  # my_cards: the mover already bet on green
    assert sum(out["game"]["winner"].values()) == pytest.approx(1.0)
