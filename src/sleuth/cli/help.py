"""How options read in ``--help``: one place that names the values every command takes.

Typer (0.26 and later) prints a type after every option, flags included: ``--help <bool>``,
``--json <bool>``, as if they took a value, and ``--option <list[str]>`` for a repeatable
``name=value``.  :class:`SleuthGroup`, the root group of ``sleuth``, walks every command once when
the command line is built and gives each option that has no metavar of its own a readable one:

- a flag (``--help``, ``--json``, ``--no-db``, ...) shows none;
- ``--option``/``-o``, in every command that has it, shows ``NAME=VALUE``.

It also gives each command without a short help the first paragraph of its help on one line:
Typer keeps a docstring's line breaks in the list of commands, so a long first sentence would
break where the source line did.  For the same reason the help's paragraphs of plain prose are
joined into one line each, for the terminal to wrap (:func:`reflow`); a paragraph with a list
item or an indented line keeps its lines.

Any other option keeps what Typer shows (``<int>``, ``<path>``, ``<uniform|thrifty|frugal>``),
and an explicit ``metavar=`` in a command's declaration always wins.
"""

from __future__ import annotations

import inspect
from typing import Any

import typer
from typer.core import TyperGroup

REPEATED_OPTION_METAVAR = "NAME=VALUE"
"""The value of ``--option``/``-o``: one game option, repeated for more."""


def tidy_help(command: Any) -> None:
    """Give the options of ``command`` and of every sub-command below it the metavars described
    in this module's docstring; options with a metavar already are left as they are."""
    for param in command.params:
        if getattr(param, "metavar", "") is not None:
            continue
        if getattr(param, "is_flag", False):
            param.metavar = ""
        elif "--option" in getattr(param, "opts", ()):
            param.metavar = REPEATED_OPTION_METAVAR
    if command.short_help is None and command.help:
        first = inspect.cleandoc(command.help).partition("\f")[0].split("\n\n")[0]
        command.short_help = " ".join(first.split())
    if command.help:
        command.help = reflow(command.help)
    help_option = command.get_help_option(typer.Context(command))
    if help_option is not None and help_option.metavar is None:
        help_option.metavar = ""  # Typer caches this option, so the change is the one printed
    for sub in getattr(command, "commands", {}).values():
        tidy_help(sub)


def reflow(text: str) -> str:
    """``text`` (a docstring) with each paragraph of plain prose on one line; a paragraph with
    a line that starts a list item (``-``, ``*``, ``1.``) or is indented keeps its lines, and
    what follows a form feed (Click's cut) is kept as it is."""
    shown, cut, rest = inspect.cleandoc(text).partition("\f")
    paragraphs = []
    for paragraph in shown.split("\n\n"):
        lines = paragraph.splitlines()
        structured = any(
            line.startswith((" ", "-", "*", "|")) or line.split(" ", 1)[0].rstrip(".").isdigit()
            for line in lines
        )
        paragraphs.append(paragraph if structured else " ".join(line.strip() for line in lines))
    return "\n\n".join(paragraphs) + cut + rest


class SleuthGroup(TyperGroup):
    """The root ``sleuth`` group: Typer's group, with :func:`tidy_help` applied to the whole
    command tree once it is built."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tidy_help(self)
