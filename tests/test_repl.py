"""The shared loop prints a session's text as it is: square brackets are never Rich markup,
whatever the console's settings (a console with markup on, as Rich makes by default)."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from pathlib import Path

from rich.console import Console

from sleuth.assist.repl import run_repl
from sleuth.core.errors import SleuthError
from sleuth.core.table import Command, TableSession
from sleuth.games.fox.graph import path
from sleuth.games.fox.hunt import FoxSession
from sleuth.games.fox.rules import FoxGame


def _run(session: TableSession, lines: list[str]) -> str:
    """What the loop prints for ``lines`` on a console with markup and highlighting on."""
    out = StringIO()
    console = Console(file=out, width=200, color_system=None)
    assert console._markup  # the default: the loop must not rely on the caller turning it off
    feed: Iterator[str] = iter(lines)

    def read(prompt: str) -> str:
        return next(feed)

    run_repl(session, console, read)
    return out.getvalue()


def test_the_fox_board_keeps_its_brackets() -> None:
    session = FoxSession(FoxGame(path(4), days=5), marks=True, warn=False)
    out = _run(session, ["1", "show", "quit"])
    assert "The fox may be in 4 of 4 holes, [marked]." in out
    assert "[0]-[1]-[2]-[3]" in out  # the marked holes, drawn before the first inspection
    assert "ok: inspect 1 on day 1: not there (entry 1)" in out  # its number, for edit N
    assert "holes, [marked]." in out.split("ok: inspect 1")[1]


class _Brackets:
    """A session whose every text is made of square brackets (Rich markup, if read so)."""

    title = "[bold]title[/bold]"
    entry_help = "[red]x[/red]  an entry"
    finished = False

    def __init__(self) -> None:
        self.entries: list[str] = []
        self.commands = (Command(("tag",), "[i]help[/i]", self._tag),)

    def _tag(self) -> str:
        return "[link=x]command[/link]"

    def enter(self, text: str) -> str:
        if text == "bad":
            raise SleuthError("[blink]refused[/blink]")
        self.entries.append(text)
        return f"[green]{text}[/green]"

    def undo(self) -> str:
        return self.entries.pop()

    def history(self) -> list[str]:
        return list(self.entries)

    def render(self) -> str:
        return f"[on red]{len(self.entries)} entries[/on red] [marked]"

    def save(self, path: Path) -> None: ...

    def load(self, path: Path) -> None: ...

    def leave(self) -> str:
        return "[dim]bye[/dim]"


def test_every_text_of_a_session_is_printed_as_it_is() -> None:
    out = _run(_Brackets(), ["[x]", "bad", "tag", "history", "quit"])
    for text in (
        "[bold]title[/bold]",
        "[red]x[/red]  an entry",
        "[i]help[/i]",
        "[on red]0 entries[/on red] [marked]",
        "ok: [green][x][/green]",
        "[on red]1 entries[/on red] [marked]",
        "error: [blink]refused[/blink]",
        "[link=x]command[/link]",
        "  1  [x]",
        "[dim]bye[/dim] The last changes were not saved.",
    ):
        assert text in out, (text, out)


def test_load_over_unsaved_changes_asks_to_be_typed_again(tmp_path: Path) -> None:
    """'load' would drop the entries not saved: it is refused once, naming the way out, and
    done when typed again at once (any other line in between asks again)."""
    saved = tmp_path / "one.jsonl"
    session = FoxSession(FoxGame(path(4), days=5), marks=False, warn=False)
    out = _run(session, ["1", f"save {saved}", "2", f"load {saved}", "history",
                         f"load {saved}", f"load {saved}", "history", "quit"])  # fmt: skip
    refusal = (f"error: the last changes are not saved: 'save FILE' first, or 'load {saved}' "
               "again to drop them")  # fmt: skip
    assert out.count(refusal) == 2
    assert out.count(f"loaded 1 entry from {saved}") == 1
    assert out.split(f"loaded 1 entry from {saved}")[1].count("inspect 2") == 0  # dropped
    assert "not saved" not in out.split("loaded 1 entry")[1]  # the loaded game is as saved
