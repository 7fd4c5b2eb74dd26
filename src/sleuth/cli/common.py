"""Helpers shared by the CLI commands: error reporting and JSON output."""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import Any, TextIO

import typer
from rich.console import Console
from rich.markup import escape

from sleuth.core import prepare
from sleuth.core.errors import SleuthError
from sleuth.core.registry import PluginWarning

console = Console(markup=False, emoji=False, highlight=False, soft_wrap=True)
"""Standard output. Markup is off: user text (paths, specs) is printed as it is."""
errors = Console(stderr=True, emoji=False)
DEFAULT_DB = Path("sleuth.duckdb")
"""The results file of ``play``, ``league``, ``compare``, ``report`` and ``export``."""


_show_warning = warnings.showwarning


def _show_plugin_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """A broken game plug-in is one ``warning: ...`` line on stderr; other warnings as usual."""
    if issubclass(category, PluginWarning):
        errors.print(f"warning: {message}", markup=False, highlight=False, soft_wrap=True)
    else:
        _show_warning(message, category, filename, lineno, file, line)


warnings.showwarning = _show_plugin_warning


def print_json(obj: Any) -> None:
    """Print exactly one JSON object on stdout."""
    sys.stdout.write(json.dumps(obj) + "\n")


def notice(text: str) -> None:
    """Tell the user on stderr about a slow one-off preparation (:mod:`sleuth.core.prepare`)."""
    errors.print(text, style="dim", markup=False, highlight=False, soft_wrap=True)


def run_app(app: typer.Typer) -> int:
    """Run the Typer app; a Sleuth error becomes one clear line on stderr and exit code 2.

    Usage errors are reported by Typer itself (exit code 2); ``SystemExit`` passes through.
    Slow one-off preparations (compiling kernels, building tables) are announced on stderr.
    """
    prepare.notify = notice
    try:
        app()
    except SleuthError as exc:
        errors.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
        return 2
    return 0
