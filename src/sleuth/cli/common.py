"""Helpers shared by the CLI commands: error reporting and JSON output."""

from __future__ import annotations

import json
import sys
from typing import Any

import typer
from rich.console import Console

from sleuth.core.errors import SleuthError

console = Console()
errors = Console(stderr=True)


def print_json(obj: Any) -> None:
    """Print exactly one JSON object on stdout."""
    sys.stdout.write(json.dumps(obj) + "\n")


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print ``error: message`` on stderr; return the exception to raise."""
    errors.print(f"[bold red]error:[/] {message}", highlight=False, markup=True)
    return typer.Exit(code)


def run_app(app: typer.Typer) -> int:
    """Run the Typer app; Sleuth errors become one clear line and exit code 2."""
    try:
        app(standalone_mode=False)
    except SleuthError as exc:
        errors.print(f"[bold red]error:[/] {exc}", highlight=False)
        return 2
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        errors.print("aborted")
        return 1
    except Exception as exc:  # click usage errors
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            return exc.exit_code
        raise
    return 0
