"""The ``sleuth`` command line.

Three ways in (``tests/cli_helpers.py``): the real console script in a subprocess (exit codes,
stderr, no traceback, exactly one JSON object on stdout); the same entry point called in this
process (the long matrix of bad inputs, each checked for exit code 2, a message naming the
culprit and no escaping exception, without paying a second of interpreter start-up per case);
and Typer's ``CliRunner`` for happy paths.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import duckdb
import pytest

from sleuth.arena.stats import wilson_interval
from tests.cli_helpers import check_error, entry, flat, invoke, one_json_object, sleuth
from tests.games.fox.oracles import neighbours

# --- sleuth games ----------------------------------------------------------------------------


def test_games_lists_options_roles_and_bots() -> None:
    out = flat(invoke("games").stdout)
    assert "fox" in out and "Fox in a Hole" in out
    assert "roles: hunter, fox" in out
    for word in ("graph", "path:5", "k", "lazy", "days", "random", "solver", "quantum"):
        assert word in out


def test_games_lists_only_the_games_named(cwd: Path) -> None:
    done = sleuth("games", "cluedo", "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert [g["name"] for g in one_json_object(done.stdout)["games"]] == ["cluedo"]
    assert flat(invoke("games", "fox").stdout).startswith("fox — Fox in a Hole")
    assert "Fugitive" not in invoke("games", "fox").stdout
    check_error(sleuth("games", "chess", cwd=cwd), "unknown game 'chess'; known games: fox")


def test_games_json(cwd: Path) -> None:
    done = sleuth("games", "--json", cwd=cwd)
    assert done.returncode == 0 and done.stderr == ""
    listing = one_json_object(done.stdout)
    assert list(listing) == ["games"]
    fox = next(g for g in listing["games"] if g["name"] == "fox")
    assert set(fox) == {"name", "description", "rules_version", "roles", "options", "bots"}
    assert fox["roles"] == ["hunter", "fox"]
    assert {o["name"]: o["default"] for o in fox["options"]} == {
        "graph": "path:5", "k": 1, "lazy": False, "days": 0,
    }  # fmt: skip
    assert all(set(o) == {"name", "default", "help"} and o["help"] for o in fox["options"])
    assert {b["name"]: b["roles"] for b in fox["bots"]} == {
        "random": ["hunter", "fox"], "solver": ["hunter"], "quantum": ["fox"],
        "ismcts": ["hunter", "fox"], "dmcts": ["hunter", "fox"],
    }  # fmt: skip
    assert all(b["description"] for b in fox["bots"])
    options = {b["name"]: [o["name"] for o in b["options"]] for b in fox["bots"]}
    assert options["solver"] == [] and "iterations" in options["ismcts"]
    assert "worlds" in options["dmcts"] and "worlds" not in options["ismcts"]
    limits = {b["name"]: b["move_limit"] for b in fox["bots"]}
    assert limits["solver"] == 1.0 and limits["ismcts"] == 1.5  # 1,000 x 0.5 ms + 1 s


def test_play_raises_the_default_limit_to_a_bots_budget_but_not_a_given_one() -> None:
    """A search stopped at 1.2 s a move declares 2.2 s: within the default limit, over a given
    1 ms (the limits count CPU time, which a 1.2 s search uses more than 1 ms of at any load,
    and never more than 1.2 s)."""
    bots = "ismcts:iterations=1000000000:seconds=1.2,random"
    args = ["play", "fox", "--bots", bots, "-n", "1", "-o", "graph=path:3", "-o", "days=1"]
    assert one_json_object(invoke(*args, "--no-db", "--json").stdout)["forfeits"] == 0
    given = one_json_object(invoke(*args, "--no-db", "--json", "--time-limit", "0.001").stdout)
    assert given["forfeits"] == 1


# --- sleuth play -----------------------------------------------------------------------------


@pytest.mark.parametrize("as_json", [False, True])
def test_play_says_on_stderr_why_each_bot_forfeited(as_json: bool) -> None:
    import tests.tally  # noqa: F401  (registers the toy game)

    args = ["play", "tally", "--bots", "crash,one,zero", "-n", "3", "-w", "1", "--no-db"]
    done = invoke(*args, *(["--json"] if as_json else []))
    assert done.stderr.splitlines() == [
        "warning: crash forfeited 3 times; the first in game 0 (seat 0, step 0): raised "
        "RuntimeError: crashed on purpose"
    ]
    if as_json:
        assert one_json_object(done.stdout)["forfeits"] == 3  # stdout stays one JSON object


def test_compare_says_on_stderr_why_a_bot_forfeited() -> None:
    import tests.tally  # noqa: F401  (registers the toy game)

    args = [
        "compare",
        "tally",
        "-a",
        "crash",
        "-b",
        "one",
        "--field",
        "zero,one",
        "-n",
        "2",
        "--no-db",
    ]
    done = invoke(*args, "-w", "1")
    assert done.stderr.splitlines() == [
        "warning: crash forfeited 2 times; the first in game 0 (seat 0, step 0): raised "
        "RuntimeError: crashed on purpose"
    ]


def check_play_json(summary: dict[str, Any]) -> None:
    """The schema of the issue: keys, order and types."""
    assert list(summary) == [
        "game", "run_id", "games", "requested", "stopped_by", "seed", "bots", "results",
        "mean_length", "forfeits", "seconds", "thinking",
    ]  # fmt: skip
    assert isinstance(summary["game"], str) and isinstance(summary["run_id"], str)
    assert summary["games"] == summary["requested"] and summary["stopped_by"] is None
    assert isinstance(summary["games"], int) and isinstance(summary["seed"], int)
    assert all(isinstance(b, str) for b in summary["bots"])
    for res in summary["results"]:
        assert list(res) == [
            "bot", "side", "role", "games", "wins", "win_rate", "ci95", "forfeits",
        ]  # fmt: skip
        assert all(isinstance(res[key], str) for key in ("bot", "side", "role"))
        assert isinstance(res["games"], int) and isinstance(res["wins"], float)
        assert isinstance(res["win_rate"], float)
        assert len(res["ci95"]) == 2 and all(isinstance(x, float) for x in res["ci95"])
    assert isinstance(summary["mean_length"], float)
    assert isinstance(summary["forfeits"], int) and isinstance(summary["seconds"], float)


def test_play_json_prints_exactly_one_object_and_stores_the_games(cwd: Path) -> None:
    db = cwd.parent / "results.duckdb"
    done = sleuth(
        "play", "fox", "--bots", "solver,quantum", "--games", "20", "--json", "--db", db, cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""  # no progress bar: --json, and stderr is not a terminal
    summary = one_json_object(done.stdout)
    check_play_json(summary)
    assert summary["game"] == "fox" and summary["games"] == 20 and summary["seed"] == 0
    assert summary["bots"] == ["solver", "quantum"]
    solver, quantum = summary["results"]
    assert (solver["bot"], solver["role"], solver["games"]) == ("solver", "hunter", 20)
    assert solver["wins"] == 20.0 and solver["win_rate"] == 1.0
    assert solver["ci95"] == pytest.approx(list(wilson_interval(20, 20)))
    assert solver["ci95"][1] == 1.0
    assert (quantum["bot"], quantum["role"], quantum["wins"]) == ("quantum", "fox", 0.0)
    assert quantum["ci95"][0] == 0.0
    assert summary["mean_length"] == 12.0 and summary["forfeits"] == 0
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT run_id FROM runs").fetchall() == [(summary["run_id"],)]
        assert con.execute("SELECT count(*), sum(wins[1]) FROM games").fetchone() == (20, 20.0)
    assert list(cwd.iterdir()) == []  # nothing written into the working folder


def test_play_prints_a_table(cwd: Path) -> None:
    done = sleuth(
        "play", "fox", "--bots", "solver,quantum", "--games", "20", "--no-db", "--workers", "2",
        cwd=cwd,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = flat(done.stdout)
    for header in ("bot", "side", "role", "games", "wins", "win rate", "95% CI", "mean moves"):
        assert header in out
    assert re.search(
        r"solver\s*│\s*hunter\s*│\s*hunter\s*│\s*20\s*│\s*20\s*│\s*100\.0%", done.stdout
    )
    assert re.search(r"quantum\s*│\s*fox\s*│\s*fox\s*│\s*20\s*│\s*0\s*│\s*0\.0%", done.stdout)
    assert "83.9%–100.0%" in out and "0.0%–16.1%" in out  # Wilson, 20 of 20 and 0 of 20
    assert "12.00" in out and "20 games in" in out and "forfeits 0" in out
    assert "graph=path:5" in out
    assert not done.stdout.lstrip().startswith("{")
    assert list(cwd.iterdir()) == []  # --no-db: no database file


def test_play_shows_the_longest_move_as_precisely_as_the_mean(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from types import SimpleNamespace

    from sleuth.arena.tournament import Standing
    from sleuth.cli.app import _print_standings

    fast = Standing("solver", "hunter", "hunter", 1, 1.0, 6.0, moves=6, thinking=6e-5, longest=4e-5)
    tournament = SimpleNamespace(game="fox", options={}, seed=0, standings=lambda: [fast])
    _print_standings(tournament)  # type: ignore[arg-type]
    # a mean of 0.01 ms was shown beside a longest move of "at most 0.0 ms"
    assert "solver (hunter) 0.01 ms, at most 0.04 ms" in capsys.readouterr().out


def test_play_stopped_before_any_game_prints_no_empty_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from types import SimpleNamespace

    from sleuth.cli.app import _print_standings

    tournament = SimpleNamespace(game="fox", options={}, seed=0, standings=lambda: [])
    _print_standings(tournament)  # type: ignore[arg-type]
    assert capsys.readouterr().out == ""  # was a table without rows and "thinking time per move: "


def test_play_writes_sleuth_duckdb_in_the_working_folder_by_default(
    cwd: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(cwd)
    out = invoke("play", "fox", "--bots", "solver,quantum", "--games", "3", "--workers", "1")
    assert "sleuth.duckdb" in flat(out.stdout)
    invoke("play", "fox", "--bots", "random,random", "--games", "4", "--workers", "1", "--json")
    assert [p.name for p in cwd.iterdir()] == ["sleuth.duckdb"]
    with duckdb.connect(str(cwd / "sleuth.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM runs").fetchone() == (2,)  # appended
        assert con.execute("SELECT count(*) FROM games").fetchone() == (7,)


def test_play_options(cwd: Path) -> None:
    args = ["play", "fox", "--bots", "solver,quantum", "--games", "4", "--no-db"]
    args += ["--option", "graph=cycle:5", "--option", "days=10"]
    summary = one_json_object(invoke(*args, "--json").stdout)
    # no sequence catches the fox on a 5-cycle with one inspection a day: it survives 10 days
    assert [r["win_rate"] for r in summary["results"]] == [0.0, 1.0]
    assert summary["mean_length"] == 20.0
    table = flat(invoke(*args, "--workers", "1").stdout)
    assert "graph=cycle:5" in table and "days=10" in table and "20.00" in table
    short = one_json_object(
        invoke(*args[:-4], "-o", "graph=cycle:5", "-o", "days=10", "--json").stdout
    )
    assert short["results"] == summary["results"]


def test_play_seed_and_workers(cwd: Path) -> None:
    base = ["play", "fox", "--bots", "random,random", "--games", "30", "--no-db", "--json"]
    runs = [
        one_json_object(invoke(*base, "--seed", "9", "--workers", str(w)).stdout) for w in (1, 2)
    ]
    runs.append(one_json_object(invoke(*base, "--seed", "10", "--workers", "2").stdout))
    for r in runs:
        r.pop("seconds")
        r.pop("thinking")  # wall-clock times
        r.pop("run_id")  # new for every run
    assert runs[0] == runs[1]
    assert runs[0]["seed"] == 9 and runs[2]["seed"] == 10
    assert [(r["bot"], r["role"], r["games"]) for r in runs[0]["results"]] == [
        ("random", "hunter", 30),
        ("random", "fox", 30),
    ]


def test_play_counts_one_game_in_the_singular(cwd: Path) -> None:
    done = sleuth("play", "fox", "--bots", "random,random", "--games", "1", "--no-db", cwd=cwd)
    assert done.returncode == 0, done.stderr
    assert "1 game in " in flat(done.stdout)


def test_play_logs_can_be_replayed(tmp_path: Path, cwd: Path) -> None:
    logs = tmp_path / "logs"
    invoke(
        "play", "fox", "--bots", "random,random", "--games", "6", "--seed", "3", "--no-db",
        "--logs", logs, "--json", "--workers", "2",
    )  # fmt: skip
    files = sorted(logs.iterdir())
    assert [f.name for f in files] == [f"game-{i:06d}.jsonl" for i in range(6)]
    for f in files:
        out = flat(invoke("replay", f).stdout)
        assert "valid fox log" in out and "random vs random" in out
    done = sleuth("replay", files[0], "--json", cwd=cwd)
    assert done.returncode == 0 and done.stderr == ""
    replay = one_json_object(done.stdout)
    header = json.loads(files[0].read_text().splitlines()[0])
    end = json.loads(files[0].read_text().splitlines()[-1])
    assert replay["valid"] is True and replay["game"] == "fox"
    assert replay["options"] == header["options"] and replay["seed"] == header["seed"]
    assert replay["bots"] == ["random", "random"]
    assert replay["outcome"] == end["outcome"] and replay["wins"] == end["wins"]
    kept = files[0].read_text()
    again = entry("play", "fox", "--bots", "random,random", "--no-db", "--logs", logs, cwd=cwd)
    check_error(again, str(logs), "already holds game logs", "empty folder")
    assert files[0].read_text() == kept


def test_play_search_bots_end_to_end(cwd: Path) -> None:
    done = sleuth(
        "play", "fox", "--bots", "ismcts:iterations=200,quantum", "--games", "4", "--json",
        "--no-db", "--seed", "5", cwd=cwd,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""
    summary = one_json_object(done.stdout)
    assert summary["bots"] == ["ismcts:iterations=200", "quantum"] and summary["forfeits"] == 0
    hunter = next(r for r in summary["results"] if r["role"] == "hunter")
    assert hunter["bot"] == "ismcts:iterations=200" and hunter["games"] == 4
    mixed = invoke(
        "play", "fox", "--bots", "dmcts:iterations=100:worlds=4,ismcts:iterations=100",
        "--games", "4", "--no-db", "--json", "--workers", "1",
    )  # fmt: skip
    results = one_json_object(mixed.stdout)["results"]
    assert {(r["bot"], r["role"]) for r in results} == {
        (b, role) for b in ("dmcts:iterations=100:worlds=4", "ismcts:iterations=100")
        for role in ("hunter", "fox")
    }  # fmt: skip


# --- sleuth fox solve / value ----------------------------------------------------------------


def catches_every_fox(spec: str, strategy: Iterable[Iterable[int]], lazy: bool = False) -> bool:
    """Whether inspecting ``strategy`` (one list of holes per day) catches any fox walk."""
    nbr = neighbours(spec)
    possible = set(range(len(nbr)))
    for holes in strategy:
        possible -= set(holes)
        if not possible:
            return True
        possible = {w for v in possible for w in nbr[v] | ({v} if lazy else set())}
    return False


def test_fox_solve_text(cwd: Path) -> None:
    done = entry("fox", "solve", "--graph", "path:5", cwd=cwd)
    assert done.returncode == 0 and done.stderr == ""
    assert "caught within 6 days" in flat(done.stdout)
    days = re.findall(r"day\s+(\d+): inspect ([\d, ]+)", done.stdout)
    assert [int(d) for d, _ in days] == [1, 2, 3, 4, 5, 6]
    strategy = [[int(h) for h in holes.split(",")] for _, holes in days]
    assert catches_every_fox("path:5", strategy)


def test_fox_solve_json_path5(cwd: Path) -> None:
    done = sleuth("fox", "solve", "--graph", "path:5", "--json", cwd=cwd)
    assert done.returncode == 0 and done.stderr == ""
    answer = one_json_object(done.stdout)
    assert list(answer) == ["winnable", "days", "strategy"]
    assert answer["winnable"] is True and answer["days"] == 6
    assert len(answer["strategy"]) == 6
    assert all(isinstance(h, int) for day in answer["strategy"] for h in day)
    assert catches_every_fox("path:5", answer["strategy"])
    assert not catches_every_fox("path:5", answer["strategy"][:5])


def test_fox_solve_json_unwinnable(cwd: Path) -> None:
    done = sleuth("fox", "solve", "--graph", "spider:3,3,3", "--json", cwd=cwd)
    assert done.returncode == 0 and done.stderr == ""
    assert one_json_object(done.stdout) == {"winnable": False, "days": None, "strategy": None}
    assert done.stdout.strip() == '{"winnable": false, "days": null, "strategy": null}'
    text = flat(invoke("fox", "solve", "--graph", "spider:3,3,3").stdout)
    assert "no inspection sequence is sure to catch the fox" in text


@pytest.mark.parametrize(
    ("graph", "k", "lazy", "days"),
    [
        ("path:2", 1, False, 2),
        ("path:7", 1, False, 10),  # 2(n - 2) on a path
        ("star:3", 1, False, None),
        ("cycle:4", 2, False, None),
        ("grid:2x3", 2, False, None),
        ("path:4", 2, True, None),
    ],
)
def test_fox_solve_strategies_really_catch(
    graph: str, k: int, lazy: bool, days: int | None
) -> None:
    args = ["fox", "solve", "--graph", graph, "--k", str(k), "--json"]
    answer = one_json_object(invoke(*args, *(["--lazy"] if lazy else [])).stdout)
    if answer["winnable"]:
        assert len(answer["strategy"]) == answer["days"]
        assert all(1 <= len(day) <= k for day in answer["strategy"])
        assert catches_every_fox(graph, answer["strategy"], lazy)
    else:
        assert answer == {"winnable": False, "days": None, "strategy": None}
    if days is not None:
        assert answer["days"] == days


def test_fox_value(cwd: Path) -> None:
    done = sleuth("fox", "value", "--graph", "path:5", "--days", "3", "--json", cwd=cwd)
    assert done.returncode == 0 and done.stderr == ""
    value = one_json_object(done.stdout)
    assert list(value) == ["p_catch", "hunter", "fox"]
    assert value["p_catch"] == pytest.approx(0.625, abs=1e-9)
    hunter = [(h["p"], h["strategy"]) for h in value["hunter"]]
    fox = [(f["p"], f["walk"]) for f in value["fox"]]
    assert sum(p for p, _ in hunter) == pytest.approx(1.0)
    assert sum(p for p, _ in fox) == pytest.approx(1.0)
    nbr = neighbours("path:5")
    for _, walk in fox:
        assert len(walk) == 3 and all(b in nbr[a] for a, b in itertools.pairwise(walk))

    def p_catch(strategy: list[list[int]], walk: list[int]) -> float:
        return float(any(walk[d] in strategy[d] for d in range(3)))

    # an equilibrium: neither side can do better than 5/8 against the other's mix
    for _, walk in fox:
        assert sum(p * p_catch(s, walk) for p, s in hunter) >= 0.625 - 1e-9
    for _, strategy in hunter:
        assert sum(p * p_catch(strategy, w) for p, w in fox) <= 0.625 + 1e-9
    text = flat(invoke("fox", "value", "--graph", "path:5", "--days", "3").stdout)
    assert "P(catch) = 0.625000 (= 5/8)" in text


# --- sleuth replay: bad logs -----------------------------------------------------------------


@pytest.fixture
def log_lines(tmp_path: Path) -> list[str]:
    logs = tmp_path / "logs"
    invoke(
        "play", "fox", "--bots", "solver,quantum", "--games", "1", "--no-db", "--logs", logs,
        "--json",
    )  # fmt: skip
    return (logs / "game-000000.jsonl").read_text().splitlines()


def test_replay_a_tampered_action_names_the_line(cwd: Path, log_lines: list[str]) -> None:
    # the solver's first inspection is hole 1 on path:5; claim it inspected hole 4
    number, line = next(
        (n, line) for n, line in enumerate(log_lines, 1) if '"action":"inspect' in line
    )
    assert '"action":"inspect 1"' in line
    log_lines[number - 1] = line.replace('"action":"inspect 1"', '"action":"inspect 4"')
    bad = cwd / "tampered.jsonl"
    bad.write_text("\n".join(log_lines) + "\n")
    message = check_error(sleuth("replay", bad, cwd=cwd), "tampered.jsonl", f"line {number}")
    assert "inspect 4" in message


def test_replay_an_illegal_action_names_the_line(cwd: Path, log_lines: list[str]) -> None:
    log_lines[1] = log_lines[1].replace('"action":"hide"', '"action":"hole 7"')
    bad = cwd / "illegal.jsonl"
    bad.write_text("\n".join(log_lines) + "\n")
    check_error(entry("replay", bad, cwd=cwd), "illegal.jsonl", "line 2", "hole 7")


def test_replay_a_tampered_result_names_the_last_line(cwd: Path, log_lines: list[str]) -> None:
    end = json.loads(log_lines[-1])
    end["wins"] = end["wins"][::-1]
    log_lines[-1] = json.dumps(end)
    bad = cwd / "result.jsonl"
    bad.write_text("\n".join(log_lines) + "\n")
    check_error(entry("replay", bad, cwd=cwd), "result.jsonl", f"line {len(log_lines)}", "wins")


def test_replay_a_truncated_log(cwd: Path, log_lines: list[str]) -> None:
    bad = cwd / "short.jsonl"
    bad.write_text("\n".join(log_lines[:5]) + "\n")
    check_error(entry("replay", bad, cwd=cwd), "short.jsonl", "line 5", "truncated")
    cut = cwd / "cut.jsonl"
    text = "\n".join(log_lines)
    cut.write_text(text[: len(log_lines[0]) + 40])  # stops in the middle of line 2
    check_error(entry("replay", cut, cwd=cwd), "cut.jsonl", "line 2", "invalid JSON")


def test_replay_invalid_json_line(cwd: Path, log_lines: list[str]) -> None:
    log_lines[3] = "{not json"
    bad = cwd / "junk.jsonl"
    bad.write_text("\n".join(log_lines) + "\n")
    check_error(entry("replay", bad, cwd=cwd), "junk.jsonl", "line 4", "invalid JSON")


def test_replay_unreadable_files(cwd: Path) -> None:
    check_error(sleuth("replay", "missing.jsonl", cwd=cwd), "missing.jsonl")
    (cwd / "empty.jsonl").write_text("")
    check_error(entry("replay", "empty.jsonl", "--json", cwd=cwd), "empty.jsonl", "empty")
    (cwd / "folder").mkdir()
    check_error(entry("replay", "folder", cwd=cwd), "folder")


# --- bad input everywhere --------------------------------------------------------------------

PLAY = ["play", "fox", "--bots", "solver,quantum", "--games", "2", "--no-db"]


@pytest.mark.parametrize(
    ("args", "culprits"),
    [
        (["play", "chess", "--bots", "a,b", "--no-db"], ["unknown game", "'chess'", "fox"]),
        (["play", "fox", "--bots", "solver,wolf", "--no-db"], ["unknown bot", "'wolf'", "quantum"]),
        (["play", "fox", "--bots", "solver", "--no-db"], ["2 seats", "got 1 bot"]),
        (["play", "fox", "--bots", "solver,quantum,random", "--no-db"], ["got 3 bots"]),
        (["play", "fox", "--bots", "quantum,quantum", "--no-db"], ["no seating", "quantum"]),
        ([*PLAY, "--option", "graph"], ["'graph'", "name=value"]),
        ([*PLAY, "--option", "=3"], ["'=3'", "name=value"]),
        ([*PLAY, "--option", "colour=red"], ["unknown option", "'colour'", "graph"]),
        ([*PLAY, "--option", "graph=blob:3"], ["graph", "blob:3"]),
        ([*PLAY, "--option", "graph=path:0"], ["graph", "at least 1"]),
        ([*PLAY, "--option", "k=0"], ["k=", "at least 1"]),
        ([*PLAY, "--option", "lazy=maybe"], ["lazy", "maybe"]),
        ([*PLAY, "--option", "days=-1"], ["days", "-1"]),
        ([*PLAY, "--games", "0"], ["number of games", "at least 1"]),
        ([*PLAY, "--games", "abc"], ["--games"]),
        ([*PLAY, "--workers", "0"], ["--workers"]),
        ([*PLAY, "--time-limit", "0"], ["--time-limit"]),
        ([*PLAY, "--time-limit", "-1"], ["--time-limit"]),
        ([*PLAY[:-1], "--db", "no/such/folder/r.duckdb"], ["no/such/folder/r.duckdb"]),
        (["play", "[/]", "--bots", "a,b", "--no-db"], ["'[/]'"]),  # not taken for Rich markup
        (["fox", "solve", "--graph", "blob"], ["unknown graph spec", "'blob'"]),
        (["fox", "solve", "--graph", "path:0"], ["path length", "0"]),
        (["fox", "solve", "--graph", "grid:3y4"], ["grid", "3y4"]),
        (["fox", "solve", "--graph", "edges:0-1,2-3"], ["not connected"]),
        (["fox", "solve", "--graph", "no-such-file.txt"], ["no-such-file.txt"]),
        (["fox", "solve", "--k", "0"], ["--k"]),
        (["fox", "solve", "--k", "many"], ["--k"]),
        (["fox", "value", "--graph", "path:5"], ["--days"]),
        (["fox", "value", "--days", "0"], ["--days"]),
        (["fox", "value", "--graph", "cycle:2", "--days", "2"], ["cycle length", "at least 3"]),
        (["fox", "value", "--graph", "grid:3x3", "--days", "8"], ["8-day", "9 holes"]),
        (["fox", "play", "--graph", "star:0"], ["star", "at least 1"]),
        (["fox", "play", "--k", "0"], ["--k"]),
        (["replay"], ["Missing argument"]),
        (["bogus"], ["bogus"]),
        (["fox", "bogus"], ["bogus"]),
        (["play", "fox", "--bots", "solver,quantum", "--frobnicate"], ["--frobnicate"]),
        (["play", "fox", "--bots", "ismcts:iterations=0,quantum"], ["iterations", "'ismcts'"]),
        (["play", "fox", "--bots", "ismcts:speed=9,quantum"], ["unknown option", "'speed'"]),
        (["play", "fox", "--bots", "ismcts:c=-1,quantum"], ["option c=", "at least 0"]),
        (["play", "fox", "--bots", "dmcts:worlds=x,quantum"], ["worlds", "'x'"]),
        (["play", "fox", "--bots", "wolf:c=1,quantum"], ["unknown bot", "'wolf'"]),
        (["play", "fox", "--bots", "solver,,quantum", "--no-db"], ["--bots", "name is empty"]),
        ([*PLAY, "--option", "k=1", "--option", "k=2"], ["'k'", "given twice"]),
        ([*PLAY, "--db", "r.duckdb"], ["--db and --no-db"]),
        (["compare", "fox", "-a", "solver", "-b", "random", "--field", ""], ["--field", "empty"]),
        # a seat count the game refuses names the bots it came from
        (["play", "camel-up", "--bots", "ev", "--no-db"], ["players=1", "1 bot in --bots"]),
        (["play", "scotland-yard", "--bots", "random,mc,mc", "--no-db"], ["3 bots in --bots"]),
        (
            ["compare", "camel-up", "-a", "ev", "-b", "random", "--field", ",".join(["ev"] * 8)],
            ["9 bots in --candidate and --field, so players=9"],
        ),
    ],
)
def test_bad_input_is_a_clear_error(args: list[str], culprits: list[str], cwd: Path) -> None:
    done = entry(*args, cwd=cwd, stdin="give up\n")
    check_error(done, *culprits)
    assert list(cwd.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "culprits"),
    [
        (["play", "chess", "--bots", "a,b", "--json"], ["unknown game", "'chess'"]),
        ([*PLAY, "--option", "graph", "--json"], ["'graph'", "name=value"]),
        ([*PLAY, "--games", "abc"], ["--games"]),
        (["fox", "solve", "--graph", "blob", "--json"], ["unknown graph spec", "'blob'"]),
        (["fox", "value", "--days", "0", "--json"], ["--days"]),
        (["fox", "play", "--graph", "path:x"], ["path length", "'x'"]),
        (["bogus"], ["bogus"]),
    ],
)
def test_bad_input_in_a_real_process(args: list[str], culprits: list[str], cwd: Path) -> None:
    done = sleuth(*args, cwd=cwd, stdin="give up\n")
    check_error(done, *culprits)
    assert done.stdout == ""
    assert list(cwd.iterdir()) == []


def test_bad_input_with_json_prints_nothing_on_stdout(cwd: Path) -> None:
    for args in (
        ["play", "fox", "--bots", "solver,wolf", "--no-db", "--json"],
        ["fox", "solve", "--graph", "blob", "--json"],
        ["replay", "missing.jsonl", "--json"],
    ):
        done = entry(*args, cwd=cwd)
        check_error(done)
        assert done.stdout == ""


def test_errors_fit_on_one_line(cwd: Path) -> None:
    done = sleuth("fox", "solve", "--graph", "blob:" + "x" * 120, cwd=cwd)
    check_error(done, "x" * 120)
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")


def test_bot_names_are_stored_in_canonical_form(cwd: Path) -> None:
    done = entry(
        "play", "fox", "--bots", "ismcts:c=.50:iterations=20,random", "-n", "2", "--json", cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    out = one_json_object(done.stdout)
    assert out["bots"] == ["ismcts:c=0.5:iterations=20", "random"]
    with duckdb.connect(str(cwd / "sleuth.duckdb"), read_only=True) as con:
        stored = {
            name for (bots,) in con.execute("select bots from games").fetchall() for name in bots
        }
    assert stored == {"ismcts:c=0.5:iterations=20", "random"}
