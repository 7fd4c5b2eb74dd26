"""``sleuth infer scotland-yard``: the detectives' tracker after logs made by ``sleuth play``
(one seat for the detectives, or one seat each), checked cut by cut against a tracker fed by
hand and against the truth of Mr. X's own view; the text answer; contradictions name the
event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sleuth.core.events import Event
from sleuth.core.registry import make_game
from sleuth.core.seatview import ViewLog
from sleuth.core.viewlog import read_view_log, write_view_log
from sleuth.games.scotland_yard.assistant import DetectivesSession
from sleuth.games.scotland_yard.plugins import infer
from sleuth.games.scotland_yard.rules import ScotlandYardGame
from sleuth.games.scotland_yard.tracker import Tracker
from tests.cli_helpers import check_error, entry, flat, one_json_object

ROLES = ("detectives", "detective")


def play_logs(cwd: Path, bots: int, games: int, *options: str) -> list[Path]:
    """Logs of ``games`` random games from ``sleuth play`` (``bots`` seats)."""
    args = ["play", "scotland-yard", "--bots", ",".join(["random"] * bots), "-n", str(games)]
    for option in options:
        args += ["-o", option]
    done = entry(*args, "--logs", "logs", "--no-db", "--seed", "7", cwd=cwd)
    assert done.returncode == 0, done.stderr
    return sorted((cwd / "logs").glob("*.jsonl"))


def hand_tracker(game: ScotlandYardGame, events: list[Event], model: Any) -> Tracker | None:
    """The tracker fed from the public fields, step by step as the tracker section says (the
    end of the game left out)."""
    tracker = None
    for event in events:
        public = event.public
        if event.kind == "start":
            starts = list(public["detectives"])
            tracker = Tracker(game.board, game.mrx_start_set(starts), starts, model)
        elif event.kind == "mrx_moved":
            assert tracker is not None
            tracker.mrx_leg(public["ticket"])
            if public["reveal"] is not None:
                tracker.reveal(public["reveal"])
        elif event.kind == "detective_moved":
            assert tracker is not None
            tracker.detective_moved(public["detective"], public["station"], public["captured"])
    return tracker


def truth(mrx_events: list[Event]) -> int:
    """Mr. X's station after these events of his own view (0 before the start)."""
    station = 0
    for event in mrx_events:
        if event.private is not None:
            station = int(event.private.get("mrx", event.private.get("station", station)))
    return station


def check_cut(view: ViewLog, mrx: ViewLog, cut: int, model: Any) -> dict[str, Any]:
    """The JSON answer at ``cut``, checked; returned for more checks."""
    game = view.game
    assert isinstance(game, ScotlandYardGame)
    out = infer(view, cut, {"model": model, "smooth": True}).to_json()
    assert out["events"] == cut and out["model"] == model
    seen = view.events[:cut]
    over = any(e.kind == "game_over" for e in seen)
    tracker = hand_tracker(game, [e for e in seen if e.kind != "game_over"], model)
    if tracker is None:
        assert out["started"] is False and out["possible"] == [] and out["history"] == []
        return out
    assert out["entry"] == tracker.entry
    assert out["detectives"] == tracker.detectives
    assert out["history"] == [b.bit_count() for b in tracker.history]
    station = truth(mrx.events[:cut])
    assert station in out["possible"]
    assert out["size"] == len(out["possible"]) == len(out["probabilities"])
    assert sorted(int(s) for s in out["probabilities"]) == out["possible"]
    assert sum(out["probabilities"].values()) == pytest.approx(1)
    if over:
        assert out["over"] and out["possible"] == [station]
    else:
        assert out["possible"] == tracker.stations()
        assert out["probabilities"] == {str(s): p for s, p in tracker.probabilities().items()}
        assert out["smoothed"][-1] == out["possible"]
    path = [truth(mrx.events[:1]), *(s for _, s in mrx.events[-1].public["log"])]
    assert len(out["smoothed"]) == tracker.entry + 1
    for k, smoothed in enumerate(out["smoothed"]):
        assert path[k] in smoothed and len(smoothed) <= out["history"][k]
    tickets = [e.public["ticket"] for e in seen if e.kind == "mrx_moved"]
    assert [row["ticket"] for row in out["log"]] == tickets
    return out


@pytest.mark.parametrize("bots", [2, 4])
def test_every_cut_agrees_with_the_tracker_and_the_truth(bots: int, cwd: Path) -> None:
    """Seats=2 (one detectives seat) and seats=4 (three detective seats) logs alike."""
    options = [] if bots == 2 else ["detectives=3"]
    for number, log in enumerate(play_logs(cwd, bots, 3, *options)):
        view = read_view_log(log, ROLES)
        assert view.role == ("detectives" if bots == 2 else "detective")
        mrx = read_view_log(log, "mrx")
        model = ("uniform", "random-walk")[number % 2]
        for cut in range(len(view.events) + 1):
            check_cut(view, mrx, cut, model)
        final = check_cut(view, mrx, len(view.events), model)
        assert final["over"] and final["size"] == 1
        assert final["smoothed"][1:] == [[s] for _, s in view.events[-1].public["log"]]


def test_the_command_line_gives_the_same_json(cwd: Path) -> None:
    log = play_logs(cwd, 2, 1)[0]
    view = read_view_log(log, ROLES)
    for cut, model in ((0, "uniform"), (9, "random-walk"), (len(view.events) // 2, "uniform")):
        args = ["--events", str(cut), "--model", model, "--smooth", "--json"]
        out = one_json_object(entry("infer", "scotland-yard", "--log", log, *args, cwd=cwd).stdout)
        assert out == infer(view, cut, {"model": model, "smooth": True}).to_json()
    plain = one_json_object(entry("infer", "scotland-yard", "--log", log, "--json", cwd=cwd).stdout)
    assert plain["model"] == "uniform" and "smoothed" not in plain
    for key in ("events", "entry", "possible", "size", "model", "probabilities", "detectives"):
        assert key in plain


def test_a_capture_and_the_text_answer(cwd: Path) -> None:
    logs = play_logs(cwd, 2, 12)
    caught = [log for log in logs if '"termination":"caught"' in log.read_text()]
    assert caught, "no capture in 12 random games"
    view = read_view_log(caught[0], ROLES)
    out = infer(view, None, {"model": "uniform"}).to_json()
    captures = [e for e in view.events if e.kind == "detective_moved" and e.public["captured"]]
    assert out["caught"] == captures[0].public["station"] and out["possible"] == [out["caught"]]
    # a view that stops at the capture (as the assistant saves it, without 'game_over')
    at_capture = view.events.index(captures[0]) + 1
    cut = infer(view, at_capture, {"model": "uniform"}).to_json()
    assert cut["caught"] == out["caught"] and cut["over"] is True
    text = flat(entry("infer", "scotland-yard", "--log", caught[0], cwd=cwd).stdout)
    assert f"Mr. X was caught at {out['caught']}." in text
    middle = flat(entry("infer", "scotland-yard", "--log", logs[0], "--events", "12", "--model",
                        "random-walk", "--smooth", cwd=cwd).stdout)  # fmt: skip
    assert "move ticket revealed at possible after smoothing" in middle
    assert "Mr. X may be at" in middle and "Probabilities (random-walk)" in middle
    start = flat(entry("infer", "scotland-yard", "--log", logs[0], "--events", "0", cwd=cwd).stdout)
    assert start == "After 0 events: the game has not started."
    first = flat(entry("infer", "scotland-yard", "--log", logs[0], "--events", "1", cwd=cwd).stdout)
    assert (
        "After 1 event (Mr. X's move 0): Mr. X may be at" in first
        and "Probabilities (uniform):" in first
    )


def test_contradictions_name_the_event(cwd: Path, tmp_path: Path) -> None:
    log = play_logs(cwd, 2, 1)[0]
    view = read_view_log(log, ROLES)
    index = next(i for i, e in enumerate(view.events) if e.kind == "mrx_moved" and
                 e.public["reveal"] is not None)  # fmt: skip
    hidden = infer(view, index, {"model": "uniform"}).to_json()
    game = view.game
    assert isinstance(game, ScotlandYardGame)
    outside = hidden["detectives"][0]  # a detective's station is never possible
    bad = list(view.events)
    bad[index] = Event("mrx_moved", {**view.events[index].public, "reveal": outside})
    path = tmp_path / "bad.jsonl"
    write_view_log(ViewLog(game, 1, bad), path)
    done = entry("infer", "scotland-yard", "--log", path, cwd=cwd)
    check_error(done, "bad.jsonl", f"event {index + 1} (mrx_moved)", f"revealed at {outside}")
    count = len(view.events)
    too_many = entry("infer", "scotland-yard", "--log", log, "--events", str(count + 1), cwd=cwd)
    check_error(too_many, f"the detectives' view in {log} has only {count} events")
    short = tmp_path / "short.jsonl"
    write_view_log(ViewLog(game, 1, view.events[:1]), short)
    one = entry("infer", "scotland-yard", "--log", short, "--events", "2", cwd=cwd)
    assert "1 events" not in check_error(one, "the detectives' view in", "has only 1 event")


def test_other_logs_are_refused(cwd: Path) -> None:
    done = entry("play", "fox", "--bots", "random,random", "-n", "1", "--logs", "fox", "--no-db",
                 cwd=cwd)  # fmt: skip
    assert done.returncode == 0, done.stderr
    fox = next((cwd / "fox").glob("*.jsonl"))
    check_error(entry("infer", "scotland-yard", "--log", fox, cwd=cwd),
                "fox game log, not a scotland-yard one")  # fmt: skip
    log = play_logs(cwd, 2, 1)[0]
    mrx = cwd / "mrx.jsonl"
    write_view_log(read_view_log(log, "mrx"), mrx)
    check_error(entry("infer", "scotland-yard", "--log", mrx, cwd=cwd),
                "the mrx's view, not the detectives or detective's")  # fmt: skip


TABLE_ENTRIES = ("x taxi", "d2 taxi 11", "d1 taxi 8", "x double bus black", "reveal 46",
                 "d1 taxi 9")  # fmt: skip
"""The assistant example of docs/scotland-yard.md (two detectives from 9 and 10)."""


def saved_table(folder: Path, entries: tuple[str, ...] = TABLE_ENTRIES, **options: Any) -> Path:
    """The view the assistant saves after ``TABLE_ENTRIES`` (or ``entries``) in a game of two
    detectives from 9 and 10 (and ``options``), as ``table.jsonl`` in ``folder``."""
    game = make_game("scotland-yard", {"detectives": 2, **options})
    assert isinstance(game, ScotlandYardGame)
    session = DetectivesSession(game, starts=(9, 10))
    for text in entries:
        session.enter(text)
    path = folder / "table.jsonl"
    session.save(path)
    return path


def edited(path: Path, old: str, new: str) -> Path:
    """A copy of ``path`` with the first ``old`` replaced by ``new``."""
    text = path.read_text()
    assert old in text
    copy = path.with_name("edited.jsonl")
    copy.write_text(text.replace(old, new, 1))
    return copy


def test_a_saved_view_no_game_gives_is_refused_at_its_first_impossible_event(
    cwd: Path,
) -> None:
    """Checked as the assistant's load checks it, whatever the cut."""
    table = saved_table(cwd)
    cases = [
        ('"detective":1', '"detective":0', "line 4: event 3 (detective_moved)",
         "no taxi route from 9 to 11"),  # d1 twice in round 1
        ('"leg":1', '"leg":0', "line 7: event 6 (mrx_moved)",
         "Mr. X moves once every detective of round 2 has moved"),  # Mr. X twice in a row
        ('"detectives":[9,10]', '"detectives":[9]', "line 2: event 1 (start)",
         "1 station for 2 detectives"),
    ]  # fmt: skip
    for old, new, where, why in cases:
        bad = edited(table, old, new)
        done = entry("infer", "scotland-yard", "--log", bad, "--json", cwd=cwd)
        message = check_error(done, f"edited.jsonl {where}", why)
        assert message.count("edited.jsonl") == 1
    view = read_view_log(table, ROLES)
    for cut in range(len(view.events) + 1):  # between the legs of the double move too
        assert infer(view, cut, {}).events == cut
    before = read_view_log(edited(table, '"detective":1', '"detective":0'), ROLES)
    assert infer(before, 2, {}).events == 2  # the events after the cut are not read


def test_a_saved_view_that_ends_without_a_capture_is_over(cwd: Path) -> None:
    """The assistant's view has no game_over event: infer sees the end as the table does."""
    game = make_game("scotland-yard", {"detectives": 2, "log_length": 3, "reveals": "3",
                                       "final_detective_phase": "no"})  # fmt: skip
    assert isinstance(game, ScotlandYardGame)
    session = DetectivesSession(game, starts=(9, 10))
    for text in ("x taxi", "d2 taxi 11", "d1 taxi 8", "x taxi", "d1 taxi 9", "d2 taxi 10",
                 "x taxi"):  # fmt: skip
        session.enter(text)
    tracker = session.table.tracker
    assert tracker is not None
    session.enter(f"reveal {tracker.stations()[0]}")
    assert session.table.over == "escaped"
    path = cwd / "escaped.jsonl"
    session.save(path)
    out = one_json_object(entry("infer", "scotland-yard", "--log", path, "--json", cwd=cwd).stdout)
    assert out["over"] is True and out["ending"] == "escaped" and out["caught"] is None
    view = read_view_log(path, ROLES)
    before = infer(view, len(view.events) - 1, {}).to_json()
    assert before["over"] is False and before["ending"] is None
    text = flat(entry("infer", "scotland-yard", "--log", path, cwd=cwd).stdout)
    assert "Game over: Mr. X escaped (the log is full or the last round is played)." in text


def test_a_badly_shaped_field_is_named_as_load_names_it(cwd: Path) -> None:
    bad = edited(saved_table(cwd), '"detective":1', '"detective":"x"')
    done = entry("infer", "scotland-yard", "--log", bad, cwd=cwd)
    check_error(done, "edited.jsonl line 4: event 3 (detective_moved)",
                "field 'detective' is 'x', not a whole number from 0")  # fmt: skip
