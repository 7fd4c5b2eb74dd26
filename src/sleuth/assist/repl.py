"""The read-eval-print loop shared by every table-side assistant.

A game plugs in a :class:`TableSession`: it turns one typed entry into recorded facts (or
refuses it with a :class:`~sleuth.core.errors.SleuthError`, changing nothing), takes back the
last entry, renders what can be deduced, and saves and loads its view log.  The loop adds the
commands every assistant has:

========================  =================================================
``help``                  the commands and the game's entry forms
``show``                  the deduction again
``history``               the entries so far, numbered
``undo [N]``              take back the last entry (or the last N)
``save FILE``             write the view log (JSONL) to FILE
``load FILE``             replace the session by the one saved in FILE
``quit`` (or end of input)  leave
========================  =================================================
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from rich.console import Console, RenderableType

from sleuth.core.errors import SleuthError

COMMANDS = """\
help / show / history      these forms / the deduction again / the entries so far
undo [N]                   take back the last entry (or the last N)
save FILE / load FILE      write the view log to FILE / continue from a saved one
quit                       leave (end of input too)"""


class TableSession(Protocol):
    """What a game provides to the loop."""

    entry_help: str

    def enter(self, text: str) -> str:
        """Record one entry; return its canonical text (a SleuthError changes nothing)."""
        ...

    def undo(self) -> str:
        """Take back the last entry; return its text."""
        ...

    def history(self) -> list[str]: ...

    def render(self) -> RenderableType: ...

    def save(self, path: Path) -> None: ...

    def load(self, path: Path) -> None:
        """Replace the session by a saved one (unchanged if the file is bad)."""
        ...


def run_repl(session: TableSession, console: Console, read: Callable[[str], str] = input) -> None:
    """Read entries until ``quit`` or the end of input, showing the deduction after each."""
    console.print(session.render())
    while True:
        try:
            line = read("> ").strip()
        except EOFError:
            return
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        try:
            if word in ("quit", "exit", "help", "show", "history") and rest.strip():
                raise SleuthError(f"{word!r} takes nothing after it")
            if word in ("quit", "exit"):
                return
            if word == "help":
                console.print(session.entry_help + "\n" + COMMANDS)
            elif word == "show":
                console.print(session.render())
            elif word == "history":
                for number, text in enumerate(session.history(), start=1):
                    console.print(f"{number:3}  {text}")
            elif word == "undo":
                for text in _undo(session, rest.strip()):
                    console.print(f"took back: {text}")
                console.print(session.render())
            elif word in ("save", "load"):
                if not rest.strip():
                    raise SleuthError(f"{word} needs a file name: {word} FILE")
                path = Path(rest.strip())
                if word == "save":
                    session.save(path)
                    console.print(f"saved {_entries(len(session.history()))} to {path}")
                else:
                    session.load(path)
                    console.print(f"loaded {_entries(len(session.history()))} from {path}")
                    console.print(session.render())
            else:
                console.print(f"ok: {session.enter(line)}")
                console.print(session.render())
        except SleuthError as exc:
            console.print(f"error: {exc}")


def _undo(session: TableSession, count_text: str) -> list[str]:
    """Take back the last ``count_text`` entries (1 if empty), all or none."""
    if not count_text:
        count = 1
    elif count_text.isascii() and count_text.isdigit() and int(count_text) > 0:
        count = int(count_text)
    else:
        raise SleuthError(f"'undo {count_text}': write 'undo' or 'undo N' (N a positive number)")
    entries = len(session.history())
    if count > entries:
        raise SleuthError(f"'undo {count}': there are only {_entries(entries)}")
    return [session.undo() for _ in range(count)]


def _entries(count: int) -> str:
    return f"{count} entr{'y' if count == 1 else 'ies'}"
