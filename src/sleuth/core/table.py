"""What a game gives the table-side loop (:mod:`sleuth.assist.repl`): a :class:`TableSession`.

A session turns one typed entry into recorded facts (or refuses it with a
:class:`~sleuth.core.errors.SleuthError`, changing nothing), takes back the last entry, renders
what can be deduced, and saves and loads its view log.  It may add commands of its own
(:class:`Command`) and may end (``finished``: a game won or given up).  The protocol lives in
the core so that a game package can define its session without importing the loop.

Invariant every session keeps: re-entering the texts of :meth:`TableSession.history`, in order,
into a fresh session of the same game rebuilds the same session (the loop's ``edit`` and
``delete`` rely on it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from rich.console import RenderableType

COLUMN = 26
"""Width of the first column of a command's help line."""


@dataclass(frozen=True)
class Command:
    """A session's own command: the whole line, lower-cased and with single spaces, is one of
    ``names``; ``run`` returns the confirmation to print.  A command with an ``argument``
    (its placeholder in the help, ``CARD``) is a name, a space and the argument instead, and
    ``run`` gets the argument's text.  A command that only answers (``changes`` false, like
    ``why CARD``) leaves the session as it was, so the loop does not show it again after the
    answer, which stays in sight."""

    names: tuple[str, ...]
    help: str
    run: Callable[..., RenderableType]
    argument: str = ""
    changes: bool = True

    def usage(self) -> str:
        """The command's help line, in the loop's two-column layout."""
        shown = " ".join([*self.names[:1], *([self.argument] if self.argument else [])])
        return f"{shown:<{COLUMN}} {self.help}"

    def matches(self, line: str) -> bool:
        """Whether ``line`` (lower-cased, single spaces) calls this command."""
        if not self.argument:
            return line in self.names
        word, _, rest = line.partition(" ")
        return word in self.names and bool(rest)


class TableSession(Protocol):
    """What a game provides to the loop."""

    @property
    def title(self) -> str:
        """The banner's first line: what this tool is."""
        ...

    @property
    def entry_help(self) -> str:
        """The entry forms, one per line (shown by the banner and ``help``)."""
        ...

    @property
    def commands(self) -> Sequence[Command]:
        """The session's own commands (none for most)."""
        ...

    @property
    def finished(self) -> bool:
        """True once the game has ended: the loop says so and reads on; :meth:`enter` refuses
        new entries until an entry is taken back (undo, edit, load)."""
        ...

    def enter(self, text: str) -> str:
        """Record one entry; return its confirmation (a SleuthError changes nothing)."""
        ...

    def undo(self) -> str:
        """Take back the last entry; return its text."""
        ...

    def history(self) -> list[str]:
        """The entries so far, each in a form :meth:`enter` accepts."""
        ...

    def render(self) -> RenderableType: ...

    def save(self, path: Path) -> None: ...

    def load(self, path: Path) -> None:
        """Replace the session by a saved one (unchanged if the file is bad)."""
        ...

    def leave(self) -> str:
        """What ``quit`` (or the end of input) says, before the end."""
        ...


def count_entries(count: int) -> str:
    """``1 entry``, ``2 entries``."""
    return f"{count} entr{'y' if count == 1 else 'ies'}"
