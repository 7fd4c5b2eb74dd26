"""``sleuth infer GAME`` for every game with a belief plug-in: Fox in a Hole and Camel Up (the
Fugitive notepad has its own tests), and the errors every game shares."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from sleuth.core.events import Event
from sleuth.core.log import write_log
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.core.seatview import ViewLog
from sleuth.core.viewlog import read_view_log, write_view_log
from sleuth.games.fox.graph import holes_of
from sleuth.games.fox.rules import FoxGame
from tests.cli_helpers import check_error, entry, flat, one_json_object
from tests.core import toy


def _log(tmp_path: Path, game: str, options: dict[str, object], bots: list[str], seed: int) -> Path:
    spec = game_spec(game)
    record = run_match(spec.make(options), [spec.bot(b) for b in bots], seed=seed)
    path = tmp_path / f"{game}.jsonl"
    write_log(record, path)
    return path


@pytest.fixture
def fox_log(tmp_path: Path) -> Path:
    """A random hunter against the quantum fox on a 6-hole path: many days, never caught."""
    return _log(tmp_path, "fox", {"graph": "path:6", "days": 7}, ["random", "quantum"], 3)


@pytest.fixture
def camel_log(tmp_path: Path) -> Path:
    return _log(tmp_path, "camel-up", {"players": 3}, ["random"] * 3, 11)


def _dodging_positions(game: FoxGame, inspections: list[list[int]]) -> set[int]:
    """Brute force (the oracle): the holes where some fox walk that dodged every inspection
    is on the morning after them."""
    graph = game.graph
    moves = {h: holes_of(graph.neighbours[h]) for h in range(graph.n)}
    walks = [[h] for h in range(graph.n)]
    for holes in inspections:
        walks = [[*w, m] for w in walks if w[-1] not in holes for m in moves[w[-1]]]
    return {w[-1] for w in walks}


# --- fox ---------------------------------------------------------------------------------------


def test_fox_json_matches_brute_force_after_every_cut(fox_log: Path, cwd: Path) -> None:
    view = read_view_log(fox_log, "hunter")
    game = view.game
    assert isinstance(game, FoxGame)
    done_all = 0
    for cut in range(len(view.events) + 1):
        out = one_json_object(entry("infer", "fox", "--log", fox_log, "--events", str(cut),
                                    "--json", cwd=cwd).stdout)  # fmt: skip
        assert set(out) == {"events", "day", "caught", "possible_holes", "inspections", "walk"}
        inspected = [list(e.public["holes"]) for e in view.events[:cut] if e.kind == "inspected"]
        assert out["events"] == cut and out["day"] == len(inspected) + 1
        assert out["caught"] is False
        assert set(out["possible_holes"]) == _dodging_positions(game, inspected)
        for day, row in enumerate(out["inspections"], start=1):
            assert row["day"] == day and row["holes"] == inspected[day - 1]
            assert set(row["morning"]) == _dodging_positions(game, inspected[:day])
        walk = out["walk"]  # a real walk on the board that dodged every inspection
        assert len(walk) == len(inspected)
        assert all(h not in holes for h, holes in zip(walk, inspected, strict=True))
        assert all(b in holes_of(game.graph.neighbours[a]) for a, b in itertools.pairwise(walk))
        done_all += 1
    assert done_all > 5


def test_fox_text(fox_log: Path, cwd: Path) -> None:
    text = flat(entry("infer", "fox", "--log", fox_log, "--events", "6", cwd=cwd).stdout)
    assert "inspected" in text and "next morning" in text
    assert "the fox may be in" in text and "of 6 holes" in text
    assert "One walk that dodged every inspection" in text
    start = flat(entry("infer", "fox", "--log", fox_log, "--events", "0", cwd=cwd).stdout)
    assert start == "Day 1: the fox may be in 6 of 6 holes: 0, 1, 2, 3, 4, 5"


def test_fox_caught(tmp_path: Path, cwd: Path) -> None:
    caught = _log(tmp_path, "fox", {"graph": "path:5"}, ["solver", "quantum"], 0)
    out = one_json_object(entry("infer", "fox", "--log", caught, "--json", cwd=cwd).stdout)
    assert out["caught"] is True and out["possible_holes"] == []
    last = out["inspections"][-1]
    assert last["caught"] is True and out["walk"][-1] in last["holes"]
    assert "Caught on day" in entry("infer", "fox", "--log", caught, cwd=cwd).stdout


def test_fox_bad_input(fox_log: Path, game_log: Path, tmp_path: Path, cwd: Path) -> None:
    check_error(entry("infer", "fox", "--log", tmp_path / "none.jsonl", cwd=cwd), "none.jsonl")
    check_error(
        entry("infer", "fox", "--log", game_log, cwd=cwd), "fugitive game log, not a fox one"
    )
    count = len(read_view_log(fox_log, "hunter").events)
    too_many = entry("infer", "fox", "--log", fox_log, "--events", str(count + 1), cwd=cwd)
    check_error(too_many, f"--events {count + 1}", f"only {count} events")
    check_error(entry("infer", "fox", "--log", fox_log, "--events", "-1", cwd=cwd), "--events")
    view = read_view_log(fox_log, "hunter")
    # a fox log that says hole 0 caught the fox on day 1, then inspects again
    caught = Event("inspected", {"day": 1, "holes": (0,), "caught": True})
    again = Event("inspected", {"day": 2, "holes": (1,), "caught": False})
    bad = tmp_path / "bad.jsonl"
    write_view_log(ViewLog(view.game, 0, [view.events[0], caught, again]), bad)
    check_error(entry("infer", "fox", "--log", bad, cwd=cwd), "event 3", "already caught")
    # on path:3, a miss at hole 1 leaves the fox in 0 or 2, so the next morning it is in 1
    game = game_spec("fox").make({"graph": "path:3"})
    missed = Event("inspected", {"day": 1, "holes": (1,), "caught": False})
    found = Event("inspected", {"day": 2, "holes": (0,), "caught": True})
    write_view_log(ViewLog(game, 0, [view.events[0], missed, found]), bad)
    check_error(entry("infer", "fox", "--log", bad, cwd=cwd), "event 3", "could be in none")


def test_a_fox_miss_that_leaves_no_hole_is_named(tmp_path: Path, cwd: Path) -> None:
    spec = game_spec("fox")
    game = spec.make({"graph": "path:1"})
    missed = Event("inspected", {"day": 1, "holes": (0,), "caught": False})
    bad = tmp_path / "bad.jsonl"
    write_view_log(ViewLog(game, 0, [missed]), bad)
    check_error(entry("infer", "fox", "--log", bad, cwd=cwd), "event 1", "no hole left")


# --- camel up ----------------------------------------------------------------------------------


def test_camel_up_json_for_a_seat(camel_log: Path, cwd: Path) -> None:
    view = read_view_log(camel_log, "player", seat=1)
    cut = next(
        i for i, e in enumerate(view.events) if e.kind == "overall_bet" and e.private is None
    )
    cut += 3  # past another seat's hidden overall card
    out = one_json_object(entry("infer", "camel-up", "--log", camel_log, "--seat", "1",
                                "--events", str(cut), "--json", cwd=cwd).stdout)  # fmt: skip
    took_die = view.events[cut - 1].kind == "roll"  # a roll and its die are one move
    assert out["events"] == cut + took_die
    assert out["seat"] == 1 and out["started"] and not out["over"]
    for part in ("first", "second"):
        assert sum(out["leg"][part].values()) == pytest.approx(1)
    assert sum(out["game"]["winner"].values()) == pytest.approx(1)
    assert out["best"] in out["ev"] and out["to_move"] in (0, 1, 2)
    hidden = out["hidden_cards"]
    assert hidden and all(card["seat"] != 1 for card in hidden)
    for card in hidden:
        assert sum(card["camels"].values()) == pytest.approx(1)
    # seat 1's own cards are not hidden from seat 1; the same cut from seat 0 sees other cards
    seat0 = one_json_object(entry("infer", "camel-up", "--log", camel_log, "--seat", "0",
                                  "--events", str(cut), "--json", cwd=cwd).stdout)  # fmt: skip
    assert all(card["seat"] != 0 for card in seat0["hidden_cards"])
    assert seat0["leg"] == out["leg"]  # the public race is the same for every seat


def test_camel_up_text_and_ends(camel_log: Path, cwd: Path) -> None:
    # The first 8 events; a cut between a roll and its die takes the die (one event more).
    shown = one_json_object(
        entry("infer", "camel-up", "--log", camel_log, "--events", "8", "--json", cwd=cwd).stdout
    )["events"]
    assert shown in (8, 9)
    text = flat(entry("infer", "camel-up", "--log", camel_log, "--events", "8", cwd=cwd).stdout)
    assert f"Seat 0 of 3, after {shown} events" in text and "Odds" in text and "to move" in text
    start = flat(entry("infer", "camel-up", "--log", camel_log, "--events", "0", cwd=cwd).stdout)
    assert start == "Seat 0 of 3, after 0 events: the race has not started."
    end = one_json_object(entry("infer", "camel-up", "--log", camel_log, "--json", cwd=cwd).stdout)
    assert end["over"] and "leg" not in end and end["to_move"] is None


def test_camel_up_bad_input(camel_log: Path, fox_log: Path, tmp_path: Path, cwd: Path) -> None:
    seats = entry("infer", "camel-up", "--log", camel_log, "--seat", "3", cwd=cwd)
    check_error(seats, "seat 3 is not a player")
    check_error(
        entry("infer", "camel-up", "--log", fox_log, cwd=cwd), "fox game log, not a camel-up one"
    )
    view = tmp_path / "seat2.jsonl"
    write_view_log(read_view_log(camel_log, "player", seat=2), view)
    check_error(entry("infer", "camel-up", "--log", view, "--seat", "1", cwd=cwd),
                "seat 2's view, not seat 1's")  # fmt: skip
    ok = one_json_object(entry("infer", "camel-up", "--log", view, "--events", "5", "--json",
                               cwd=cwd).stdout)  # fmt: skip
    assert ok["seat"] == 2
    count = len(read_view_log(view, "player").events)
    check_error(entry("infer", "camel-up", "--log", view, "--events", str(count + 1), cwd=cwd),
                f"only {count} events")  # fmt: skip


# --- every game --------------------------------------------------------------------------------


def _usage_error(*args: str, cwd: Path) -> str:
    """The usage error of a command, without the box Typer draws around it."""
    done = entry(*args, cwd=cwd)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    return " ".join(done.stderr.replace("│", " ").split())


def test_a_game_without_the_plug_in_and_an_unknown_game(cwd: Path) -> None:
    assert toy.SPEC.infer is None and toy.SPEC.assist is None
    message = _usage_error("infer", "highcard", "--log", "x", cwd=cwd)
    assert (
        "highcard has no belief for `sleuth infer`; games with one: fox, fugitive, camel-up"
        in message
    )
    message = _usage_error("infer", "chess", cwd=cwd)
    assert "unknown game 'chess'; games with a belief for `sleuth infer`: fox, fugitive" in message
    message = _usage_error("assist", "fox", cwd=cwd)
    assert "fox has no table-side assistant; games with one: fugitive, camel-up" in message
