"""The ``sleuth`` command line: one Typer app; each game adds its own sub-commands."""

from __future__ import annotations

import sys

from sleuth.cli.app import app
from sleuth.cli.common import run_app


def main() -> None:
    """Entry point of the ``sleuth`` console script."""
    sys.exit(run_app(app))
