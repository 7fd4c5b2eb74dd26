"""``sleuth fox play``: a game against the quantum fox on the shared interactive loop.

The fox's walks printed at the end are checked against an independent adjacency
(:func:`tests.games.fox.oracles.neighbours`) and against the inspections typed in: a walk that
dodged the hunter is never in an inspected hole on its day.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

from sleuth.core.viewlog import read_view_log
from sleuth.games.fox.graph import parse_graph
from sleuth.games.fox.hunt import draw_board
from tests.cli_helpers import entry, flat, sleuth
from tests.games.fox.oracles import neighbours

CATCH = "1\n2\n3\n1\n2\n3\n"
"""The solver's sequence on path:5: it catches the quantum fox on day 6."""


def walk(text: str, lead: str) -> list[int]:
    """The walk printed after ``lead`` (``2 → 1 → 0``)."""
    found = re.findall(re.escape(lead) + r" ([\d →]+)", flat(text))
    assert found, text
    return [int(h) for h in found[-1].split(" → ")]


def check_walk(path: list[int], spec: str, inspections: list[set[int]]) -> None:
    """``path`` is a walk on ``spec`` that was in no inspected hole on each day."""
    assert all(b in neighbours(spec)[a] for a, b in itertools.pairwise(path))
    assert all(hole not in holes for hole, holes in zip(path, inspections, strict=False))


def play(*args: str, stdin: str, cwd: Path) -> str:
    done = entry("fox", "play", *args, cwd=cwd, stdin=stdin)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "Traceback" not in done.stdout
    return done.stdout


def test_a_whole_game_through_the_console_script(cwd: Path) -> None:
    done = sleuth("fox", "play", "--graph", "path:5", cwd=cwd, stdin=CATCH + "1\n")
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    banner = flat(out.split("> ")[0])
    assert "Fox in a Hole on path:5: holes 0..4; inspect up to 1 a day" in banner
    assert "by day 20" in banner  # the default day limit: 4 x holes
    for command in ("hint", "marks", "give up", "help", "history", "undo [N]", "save FILE"):
        assert command in banner
    assert " 0 - 1 - 2 - 3 - 4" in banner  # the board
    days = re.findall(r"ok: inspect (\d) on day (\d): (not there|caught!)", out)
    assert days == [
        ("1", "1", "not there"), ("2", "2", "not there"), ("3", "3", "not there"),
        ("1", "4", "not there"), ("2", "5", "not there"), ("3", "6", "caught!"),
    ]  # fmt: skip
    path = walk(out, "Caught on day 6! One way the fox could have come:")
    assert len(path) == 6 and path[-1] == 3  # the last inspection (hole 3) found it
    check_walk(path[:-1], "path:5", [{1}, {2}, {3}, {1}, {2}])
    after = out.split(" → 3\n", 1)[1]  # the game is over: the loop says so and reads on
    assert after.startswith("The game is over: 'undo', 'edit' or 'delete' takes entries back")
    assert "error: '1': the game is over ('undo' takes entries back)" in after  # the extra line
    assert after.rstrip().endswith(
        "Left the game after its end (6 inspections). The last changes were not saved."
    )


def test_after_the_end_undo_reopens_the_game_and_save_keeps_it(cwd: Path) -> None:
    """A catch (or a give up) no longer ends the loop: the last entry can be taken back, and
    the finished game saved, then loaded whole."""
    out = play("--graph", "path:5", stdin=CATCH + "undo\n3\nsave done.jsonl\nquit\n", cwd=cwd)
    assert out.count("Caught on day 6!") == 2 and out.count("The game is over:") == 2
    assert "took back: inspect 3 (day 6)" in out and "ok: inspect 3 on day 6: caught!" in out
    assert "saved 6 entries to done.jsonl" in out and "not saved" not in out
    again = play("--graph", "path:5", stdin="load done.jsonl\n", cwd=cwd)
    assert "loaded 6 entries from done.jsonl" in again and "Caught on day 6!" in again
    given = play("--graph", "cycle:6", stdin="2\ngive up\n5\ngive up\nundo\n5\n", cwd=cwd)
    assert "error: '5': the game is over" in given
    assert "error: the game is over already" in given
    assert "took back: inspect 2 (day 1)" in given and "ok: inspect 5 on day 1" in given


def test_help_lists_the_entries_and_commands(cwd: Path) -> None:
    out = play("--k", "2", stdin="help\n", cwd=cwd)
    helped = flat(out.split("> ")[1])
    assert "Entries: 2 (or: inspect 2) inspect hole 2 today" in helped
    assert "1,3 (or: 1 3) inspect holes 1 and 3 today (up to 2 a day)" in helped
    for command in ("hint", "marks", "give up", "show", "history", "undo [N]", "load FILE"):
        assert command in helped
    assert "cannot read" not in out


def test_quit_mid_game_abandons_it_without_a_path(cwd: Path) -> None:
    for ending in ("quit\n", ""):  # quit, or the end of input
        out = play(stdin="1\n2\n" + ending, cwd=cwd)
        assert "Game abandoned on day 3 (2 inspections; no result)." in flat(out)
        ending_text = out.split("> ")[-1]
        assert ending_text.startswith("Game abandoned") and "→" not in out
    out = play(stdin="quit\n", cwd=cwd)
    assert "Game abandoned on day 1 (0 inspections; no result)." in out


def test_give_up_shows_a_walk_that_dodged_every_inspection(cwd: Path) -> None:
    out = play("--graph", "cycle:6", stdin="2\n2\n5\ngive up\n", cwd=cwd)
    assert "gave up on day 4" in out
    path = walk(out, "You gave up on day 4. One path that dodged every inspection:")
    assert len(path) == 3
    check_walk(path, "cycle:6", [{2}, {2}, {5}])
    assert "Game abandoned" not in out and "Left the game after its end" in out
    early = play(stdin="give up\n", cwd=cwd)
    assert "You gave up before the first inspection." in early and "→" not in early


def test_bad_input_is_one_error_line_and_changes_nothing(cwd: Path) -> None:
    junk = "9\nabc\n1,2\n1,1\n-1\n[/x]\ninspect\nhint 2\nshow me\n\n# a comment\nhistory\n"
    out = play(stdin=junk + CATCH, cwd=cwd)
    errors = re.findall(r"error: (.*)", out)
    assert errors == [
        "hole 9 is not on the board (holes 0..4)",
        "cannot read 'abc': type the holes to inspect, such as 2 or 1,3 ('help' lists the "
        "commands)",
        "at most 1 hole may be inspected per day, got 2",
        "'1,1' names hole 1 twice",
        "'-1' is not a hole (holes 0..4)",
        "cannot read '[/x]': type the holes to inspect, such as 2 or 1,3 ('help' lists the "
        "commands)",
        "cannot read 'inspect': type the holes to inspect, such as 2 or 1,3 ('help' lists the "
        "commands)",
        "cannot read 'hint 2': type the holes to inspect, such as 2 or 1,3 ('help' lists the "
        "commands)",
        "'show' takes nothing after it",
    ]
    assert "no entries yet" in out  # the junk recorded nothing ...
    assert "ok: inspect 1 on day 1: not there" in out  # ... and used up no day
    assert "Caught on day 6!" in out


def test_undo_show_marks_and_hint_confirm_what_they_did(cwd: Path) -> None:
    script = "undo\nhint\nmarks\n1\nundo\nshow\n1\n2\nundo 2\nhistory\n" + CATCH
    out = play(stdin=script, cwd=cwd)
    assert "error: nothing to undo" in out
    assert "hint: inspect 1 (a catch is certain within 6 more days)" in out
    assert "marks on: [h] marks a hole the fox may be in" in out
    assert "Day 1 of 20. The fox may be in 5 of 5 holes, [marked].\n[0]-[1]-[2]-[3]-[4]" in out
    assert "Day 2 of 20. The fox may be in 4 of 5 holes, [marked].\n 0 -[1]-[2]-[3]-[4]" in out
    assert "took back: inspect 1 (day 1)" in out
    assert "took back: inspect 2 (day 2)\ntook back: inspect 1 (day 1)" in out
    assert "Caught on day 6!" in out  # the days taken back did not count
    marked_off = play("--show", stdin="marks\n", cwd=cwd)
    assert "marks off\nDay 1 of 20.\n 0 - 1 - 2 - 3 - 4" in marked_off


def test_the_board_is_drawn_for_each_family() -> None:
    assert draw_board(parse_graph("grid:2x3"), {1, 5}) == " 0 -[1]- 2\n |   |   |\n 3 - 4 -[5]"
    assert draw_board(parse_graph("cycle:4"), set()) == " 0 - 1 - 2 - 3 - (back to 0)"
    assert draw_board(parse_graph("path:11"), {10}) == (
        "  0 -  1 -  2 -  3 -  4 -  5 -  6 -  7 -  8 -  9 -[10]"
    )
    tree = draw_board(parse_graph("binary-tree:2"), {0})
    assert tree.splitlines()[0] == "Each hole and its neighbours:"
    cells = re.findall(r"(\[?\d\]?): ([\d ]+?)(?=\s{2,}|$)", tree, re.MULTILINE)
    adjacency = {int(h.strip("[]")): {int(v) for v in vs.split()} for h, vs in cells}
    assert adjacency == {0: {1, 2}, 1: {0, 3, 4}, 2: {0, 5, 6}, 3: {1}, 4: {1}, 5: {2}, 6: {2}}
    assert "[0]: 1 2" in tree and "[1]" not in tree
    big = draw_board(parse_graph("path:65"), {3, 4})
    assert big == "(65 holes: too many to draw) marked: 3 4"


def test_several_holes_a_day_and_the_unwinnable_warning(cwd: Path) -> None:
    out = play("--graph", "path:7", "--k", "2", stdin="1,3\n1 3\ninspect 0,2\nquit\n", cwd=cwd)
    assert "ok: inspect 1,3 on day 1" in out and "ok: inspect 1,3 on day 2" in out
    assert "ok: inspect 0,2 on day 3" in out and "error" not in out
    warned = play("--graph", "spider:3,3,3", stdin="quit\n", cwd=cwd)
    assert "Warning: no strategy is sure to catch this fox." in warned
    assert "Warning" not in play(stdin="quit\n", cwd=cwd)


def test_the_fox_escapes_after_the_day_limit(cwd: Path) -> None:
    out = play("--days", "2", stdin="2\n2\n2\n", cwd=cwd)
    assert "escapes if it is not caught by day 2" in flat(out)
    path = walk(out, "The fox escaped: day 2 has passed. One path that dodged every inspection:")
    check_walk(path, "path:5", [{2}, {2}])
    assert len(path) == 2 and out.count("ok: inspect 2") == 2  # the third line was not read


def test_save_and_load_continue_a_game(cwd: Path) -> None:
    saved = play(stdin="1\n2\n3\nsave game.jsonl\nquit\n", cwd=cwd)
    assert "saved 3 entries to game.jsonl" in saved
    assert "Game abandoned on day 4" in saved and "not saved" not in saved
    view = read_view_log(cwd / "game.jsonl", "hunter", "fox")
    assert [e.public["holes"] for e in view.events if e.kind == "inspected"] == [[1], [2], [3]]
    assert view.game.options()["graph"] == "path:5"
    # a game on another board is replaced by the saved one, board and all
    out = play("--graph", "cycle:4", stdin="load game.jsonl\nhistory\n1\n2\n3\n", cwd=cwd)
    assert "loaded 3 entries from game.jsonl" in out
    assert "  1  inspect 1\n  2  inspect 2\n  3  inspect 3" in out
    assert "ok: inspect 1 on day 4" in out and "Caught on day 6!" in out


def test_a_tampered_or_foreign_file_is_refused_and_changes_nothing(
    cwd: Path, game_log: Path
) -> None:
    play(stdin="1\n2\nsave game.jsonl\n", cwd=cwd)
    lines = (cwd / "game.jsonl").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    records[2]["public"]["caught"] = True  # day 1 did not catch the quantum fox
    (cwd / "bad.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    script = (  # each load typed twice: the first one is refused for the unsaved inspection
        f"3\nload bad.jsonl\nload bad.jsonl\nload {game_log}\nload {game_log}\n"
        "load nothing.jsonl\nload\nhistory\nquit\n"
    )
    out = play(stdin=script, cwd=cwd)
    errors = re.findall(r"error: (.*)", out)
    assert errors[0].startswith("the last changes are not saved: 'save FILE' first, or 'load")
    assert errors[1].startswith("bad.jsonl line 3: event 2 (inspected): {'kind': 'inspected'")
    assert "a game against the quantum fox shows" in errors[1]
    assert errors[2].startswith("the last changes are not saved")
    assert errors[3] == f"{game_log}: a fugitive game log, not a fox one"
    assert errors[4].startswith("nothing.jsonl: cannot read")
    assert errors[5] == "load needs a file name: load FILE"
    assert "  1  inspect 3" in out and "Game abandoned on day 2" in out  # unchanged
