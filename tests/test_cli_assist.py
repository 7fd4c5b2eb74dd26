"""``sleuth assist fugitive``: the Marshal's REPL at a real table."""

from __future__ import annotations

import json
import re
from pathlib import Path

from sleuth.core.viewlog import read_view_log
from tests.cli_helpers import entry

OPENING = "hideout\nhideout 1\ndraw 1 5\ndraw 2 20\n"


def test_entries_errors_undo_and_save(cwd: Path) -> None:
    script = OPENING + "guess 2 hit\nguess 2 miss\nhistory\nundo\nsave marshal.jsonl\nquit\n"
    done = entry("assist", "fugitive", cwd=cwd, stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "ok: draw 2 20" in out
    assert "error: 'guess 2 hit': 2 could be at 1 or 2" in out
    assert "  5  guess 2 miss" in out and "took back: guess 2 miss" in out
    assert "saved 4 entries to marshal.jsonl" in out
    assert "Suggested: guess" in out and "consistent worlds" in out
    assert re.search(r"Suggested: guess \d+ \([^;]+; a hideout with p = \d+\.\d%\)", out), out
    thrifty = entry("assist", "fugitive", "--model", "thrifty", cwd=cwd, stdin=OPENING)
    assert "weighted worlds; odds assume a thrifty Fugitive" in thrifty.stdout
    view = read_view_log(cwd / "marshal.jsonl", "marshal")
    assert [e.kind for e in view.events[-2:]] == ["chose_pile", "drew"]


def test_undo_several_and_commands_with_stray_words(cwd: Path) -> None:
    script = (
        OPENING + "undo 9\nundo two\nundo ²\nquit now\nhistory 2\nundo 2\nhistory\nsave a.jsonl\n"
    )
    done = entry("assist", "fugitive", cwd=cwd, stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "error: 'undo 9': there are only 4 entries" in out
    assert "error: 'undo two': write 'undo' or 'undo N'" in out
    assert "error: 'undo ²': write 'undo' or 'undo N'" in out
    assert "error: 'quit' takes nothing after it" in out  # the session went on
    assert "error: 'history' takes nothing after it" in out
    assert "took back: draw 2 20" in out and "took back: draw 1 5" in out
    assert "saved 2 entries to a.jsonl" in out and "  3  draw" not in out.split("undo")[-1]
    one = entry("assist", "fugitive", cwd=cwd, stdin="hideout\nsave b.jsonl\n")
    assert "saved 1 entry to b.jsonl" in one.stdout


def test_save_never_replaces_a_file_that_is_not_a_view_log(cwd: Path, game_log: Path) -> None:
    kept = game_log.read_text()
    script = OPENING + f"save {game_log}\nsave a.jsonl\nsave a.jsonl\n"
    done = entry("assist", "fugitive", cwd=cwd, stdin=script)
    assert done.returncode == 0, done.stderr
    assert f"error: {game_log} exists and is not a view log: not replaced" in done.stdout
    assert game_log.read_text() == kept
    assert done.stdout.count("saved 4 entries to a.jsonl") == 2  # a view log is replaced


def test_load_continues_a_saved_game_and_infer_reads_it(cwd: Path) -> None:
    saved = entry("assist", "fugitive", cwd=cwd, stdin=OPENING + "save a.jsonl\n")
    assert saved.returncode == 0, saved.stderr
    again = entry("assist", "fugitive", "--load", "a.jsonl", cwd=cwd, stdin="history\nskip\n")
    assert again.returncode == 0, again.stderr
    assert "  4  draw 2 20" in again.stdout and "ok: skip" in again.stdout
    inferred = entry("infer", "fugitive", "--log", "a.jsonl", cwd=cwd)
    assert inferred.returncode == 0 and "Suggested: guess" in inferred.stdout


def test_bad_files_are_clear_errors_and_lose_nothing(cwd: Path, game_log: Path) -> None:
    (cwd / "bad.jsonl").write_text("not json\n")
    script = OPENING + "load bad.jsonl\nload bad.jsonl\nload nothing.jsonl\nsave\nhistory\n"
    done = entry("assist", "fugitive", cwd=cwd, stdin=script)
    assert done.returncode == 0, done.stderr
    assert "error: bad.jsonl" in done.stdout and "error: nothing.jsonl: cannot read" in done.stdout
    assert "error: save needs a file name" in done.stdout
    assert "  4  draw 2 20" in done.stdout  # the session survived
    missing = entry("assist", "fugitive", "--load", "nothing.jsonl", cwd=cwd)
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    other = entry("assist", "fugitive", "-o", "edition=third", cwd=cwd)
    assert other.returncode == 2 and "edition" in other.stderr
    (cwd / "a.jsonl").write_text("")
    both = entry("assist", "fugitive", "--load", "a.jsonl", "-o", "edition=second", cwd=cwd)
    assert both.returncode == 2 and "leave out -o" in both.stderr
    twice = entry("assist", "fugitive", "-o", "edition=second", "-o", "edition=first", cwd=cwd)
    assert twice.returncode == 2 and "'edition' is given twice" in twice.stderr


def test_a_full_game_log_loads_as_the_marshals_view(cwd: Path, game_log: Path) -> None:
    done = entry("assist", "fugitive", "--load", str(game_log), cwd=cwd, stdin="history\n")
    assert done.returncode == 0, done.stderr
    assert "loaded" not in done.stdout and "  1  hideout" in done.stdout


def test_a_view_with_a_fugitive_card_in_it_is_refused_as_infer_refuses_it(cwd: Path) -> None:
    script = OPENING + "skip\nfugitive draw 1\nsave a.jsonl\n"
    saved = entry("assist", "fugitive", cwd=cwd, stdin=script)
    assert saved.returncode == 0, saved.stderr
    records = [json.loads(line) for line in (cwd / "a.jsonl").read_text().splitlines()]
    his_draw = records[-1]
    assert his_draw["kind"] == "drew" and his_draw["public"]["seat"] == 0
    his_draw["private"] = {"card": 6}  # a card the Marshal cannot have seen
    (cwd / "b.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    loaded = entry("assist", "fugitive", "--load", "b.jsonl", cwd=cwd)
    assert loaded.returncode == 2
    assert "its 'private' field is {'card': 6}; the rules would show None here" in loaded.stderr
    inferred = entry("infer", "fugitive", "--log", "b.jsonl", cwd=cwd)
    assert inferred.returncode == 2 and "its 'private' field is {'card': 6}" in inferred.stderr


def test_the_banner_lists_entries_and_commands_and_quit_confirms(cwd: Path) -> None:
    done = entry("assist", "fugitive", cwd=cwd, stdin="help\nhideout\nsave a.jsonl\nquit\n")
    assert done.returncode == 0, done.stderr
    banner, helped = done.stdout.split("> ")[:2]
    assert banner.startswith("Marshal's assistant for Fugitive")
    for text in (banner, helped):
        for form in ("draw 2 17", "guess 12 15 hit", "undo [N]", "save FILE / load FILE", "quit"):
            assert form in text
    assert "Left the assistant after 1 entry." in done.stdout
    assert "not saved" not in done.stdout  # saved before leaving
    unsaved = entry("assist", "fugitive", cwd=cwd, stdin="hideout\n")  # end of input
    assert "Left the assistant after 1 entry. The last changes were not saved." in unsaved.stdout


def test_what_the_user_types_is_never_read_as_markup(cwd: Path) -> None:
    done = entry("assist", "fugitive", cwd=cwd, stdin="[/x] [bold]\nhistory\n")
    assert done.returncode == 0, done.stderr
    assert "error: '[/x] [bold]': not an entry" in done.stdout
    assert "no entries yet" in done.stdout


def test_the_end_of_the_game_is_said_and_undo_reopens_it(cwd: Path) -> None:
    """When the Marshal uncovers every hideout the loop says the game is over and reads on:
    a new entry is refused, 'undo' takes the winning guess back."""
    script = OPENING + "guess 1 4 hit; 4 sprint 3\ndraw 1 6\nundo\nhistory\n"
    done = entry("assist", "fugitive", cwd=cwd, stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Game over: the Marshal uncovered every hideout and wins." in out
    assert out.count("The game is over: 'undo', 'edit' or 'delete' takes entries back") == 1
    assert "error: 'draw 1 6': the game is over ('undo' takes entries back)" in out
    assert "took back: guess 1 4 hit; 1 at 1; 4 at 2 sprint 3" in out
    assert out.rstrip().endswith(
        "Left the assistant after 4 entries. The last changes were not saved."
    )
