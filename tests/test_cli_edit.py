"""``edit N NEW ENTRY`` and ``delete N`` in the shared loop, through the command line, for every
assistant on it: the Fugitive Marshal's, the Camel Up odds assistant and ``sleuth fox play``.

The oracle: after an edit the session is the one the edited entries give when typed afresh
(their saved view logs are the same file); after a refused edit it is the one before.
"""

from __future__ import annotations

from pathlib import Path

from tests.cli_helpers import entry

CAMEL = ("assist", "camel-up", "-o", "players=3")
CAMEL_START = "start 1:blue 2:green,orange 3:yellow,white\n"
FUGITIVE = ("assist", "fugitive")
FUGITIVE_OPENING = "hideout\nhideout 1\ndraw 1 5\ndraw 2 20\n"
FOX = ("fox", "play", "--graph", "path:3")


def run(command: tuple[str, ...], script: str, cwd: Path) -> str:
    done = entry(*command, cwd=cwd, stdin=script)
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr, done.stderr
    return done.stdout


def same_session(command: tuple[str, ...], edited: str, typed: str, cwd: Path) -> None:
    """The session after ``edited`` (ending with ``save a.jsonl``) is the one ``typed`` gives."""
    run(command, edited + "save a.jsonl\n", cwd)
    run(command, typed + "save b.jsonl\n", cwd)
    assert (cwd / "a.jsonl").read_text() == (cwd / "b.jsonl").read_text()


def test_fugitive_edit_and_delete(cwd: Path) -> None:
    out = run(FUGITIVE, FUGITIVE_OPENING + "edit 2 hideout 2\ndelete 3\nhistory\n", cwd)
    assert "edited entry 2: hideout 1 -> hideout 2" in out
    assert "deleted entry 3: draw 1 5" in out
    assert "  1  hideout\n  2  hideout 2\n  3  draw 2 20\n" in out
    same_session(
        FUGITIVE, FUGITIVE_OPENING + "edit 2 hideout 2\ndelete 3\n",
        "hideout\nhideout 2\ndraw 2 20\n", cwd,
    )  # fmt: skip
    same_session(FUGITIVE, FUGITIVE_OPENING + "edit 4\n", "hideout\nhideout 1\ndraw 1 5\n", cwd)


def test_fugitive_an_edit_that_makes_a_later_entry_impossible_changes_nothing(cwd: Path) -> None:
    hit = "guess 7 hit; 7 at 2 sprint 10"
    script = FUGITIVE_OPENING + f"{hit}\nedit 2 hideout\nedit 2 guess 99 hit\n"
    out = run(FUGITIVE, script + "history\n", cwd)
    assert (
        f"error: nothing changed: entry 5 ({hit}) would no longer be possible: "
        "'guess 7 hit': position 2 has 0 sprint cards, not 1"
    ) in out  # with no sprint card, 7 is out of reach of the second hideout
    assert "error: nothing changed: new entry 2 (guess 99 hit)" in out
    assert f"  2  hideout 1\n  3  draw 1 5\n  4  draw 2 20\n  5  {hit}\n" in out
    same_session(FUGITIVE, script, FUGITIVE_OPENING + f"{hit}\n", cwd)


def test_camel_up_edit_and_delete(cwd: Path) -> None:
    typed = CAMEL_START + "leg blue\nleg green\ntile 6 oasis\n"
    out = run(CAMEL, typed + "edit 3 leg orange\ndelete 2\nhistory\n", cwd)
    assert "edited entry 3: leg green -> leg orange" in out
    assert "deleted entry 2: leg blue" in out
    assert "  2  leg orange\n  3  tile 6 oasis\n" in out
    same_session(
        CAMEL, typed + "edit 3 leg orange\ndelete 2\n", CAMEL_START + "leg orange\ntile 6 oasis\n",
        cwd,
    )  # fmt: skip


def test_camel_up_an_edit_that_makes_a_later_entry_impossible_changes_nothing(cwd: Path) -> None:
    typed = CAMEL_START + "leg blue\nleg green\nleg blue\nleg blue\n"
    out = run(CAMEL, typed + "edit 3 leg blue\nedit 6 leg blue\nedit 2 roll\nhistory\n", cwd)
    assert (
        "error: nothing changed: entry 5 (leg blue) would no longer be possible: "
        "leg blue: no blue leg ticket is left this leg"
    ) in out  # blue's three tickets are gone by then
    assert "error: there is no entry 6: there are 5 entries" in out
    assert "error: nothing changed: new entry 2 (roll): a roll is entered with its die" in out
    assert "  3  leg green\n  4  leg blue\n  5  leg blue\n" in out
    same_session(CAMEL, typed + "edit 3 leg blue\n", typed, cwd)


def test_fox_play_edit_and_delete(cwd: Path) -> None:
    out = run(FOX, "0\n0\nedit 2 2\nhistory\ndelete 1\nhistory\n", cwd)
    assert "edited entry 2: inspect 0 -> inspect 2" in out
    assert "  1  inspect 0\n  2  inspect 2\n" in out
    assert "deleted entry 1: inspect 0" in out and "  1  inspect 2\n" in out
    same_session(FOX, "0\n0\nedit 2 2\ndelete 1\n", "2\n", cwd)


def test_fox_play_an_edit_that_ends_the_game_early_changes_nothing(cwd: Path) -> None:
    # on path:3, inspecting 1 leaves the fox in 0 or 2, so it must come back to 1: inspecting 1
    # again on day 2 catches it, and day 3's inspection could not happen
    out = run(FOX, "1\n0\n0\nedit 2 1\nedit x\ndelete 2 more\nhistory\n", cwd)
    assert "error: nothing changed: entry 3 (inspect 0) would no longer be possible" in out, out
    assert "error: 'edit x': write 'edit N NEW ENTRY' or 'delete N'" in out
    assert "error: 'delete 2' takes nothing after the number" in out
    assert "  1  inspect 1\n  2  inspect 0\n  3  inspect 0\n" in out
    assert "Caught" not in out
    caught = run(FOX, "1\n0\nedit 2 1\n", cwd)  # the last entry: the edit ends the game
    assert "edited entry 2: inspect 0 -> inspect 1" in caught and "Caught on day 2!" in caught


def test_edit_with_a_bang_makes_the_change_and_drops_the_entries_that_no_longer_fit(
    cwd: Path,
) -> None:
    typed = CAMEL_START + "leg blue\nleg green\nleg blue\nleg blue\ntile 6 oasis\n"
    out = run(CAMEL, typed + "edit 3 leg blue\nedit! 3 leg blue\nedit! 2 roll\nhistory\n", cwd)
    assert (
        "('edit! 3 leg blue' makes the change and drops the later entries that no longer fit)"
        in out
    )
    assert (
        "edited entry 3: leg green -> leg blue; dropped, as they no longer fit: entry 5 (leg blue)"
    ) in out  # blue's three tickets are gone by then; the tile still fits
    assert "error: nothing changed: new entry 2 (roll)" in out  # the new entry itself: refused
    assert "  2  leg blue\n  3  leg blue\n  4  leg blue\n  5  tile 6 oasis\n" in out
    same_session(
        CAMEL, typed + "edit! 3 leg blue\n", CAMEL_START + "leg blue\n" * 3 + "tile 6 oasis\n", cwd
    )
