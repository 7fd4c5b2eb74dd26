"""Command-line options shared by the study scripts."""

from __future__ import annotations

import argparse
from pathlib import Path

DEFAULT_OUT = Path("study-output")
"""Where a study writes by default: a folder under the current directory that ``.gitignore``
lists, so that a run never overwrites the committed figures in ``docs/img``."""


def positive(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of at least 1")
    return int(text)


def add_output_options(parser: argparse.ArgumentParser, name: str) -> None:
    """Add ``--out DIR`` (default ``study-output``) and ``--db FILE`` (default
    ``DIR/<name>.duckdb``) to a study's sub-command."""
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        metavar="DIR",
        help=f"folder for the database and the plot (default: {DEFAULT_OUT}/)",
    )
    parser.add_argument(
        "--db", type=Path, default=None, metavar="FILE", help=f"default: DIR/{name}.duckdb"
    )


def output_paths(args: argparse.Namespace, name: str) -> tuple[Path, Path]:
    """The database and the plot a study's parsed ``args`` name: ``--db`` or
    ``OUT/<name>.duckdb``, and always ``OUT/<name>.png``."""
    out: Path = args.out
    db: Path = args.db if args.db is not None else out / f"{name}.duckdb"
    return db, out / f"{name}.png"


def say_nothing_to_play(games: int) -> None:
    """What ``run`` says when every setting has its ``--games`` already."""
    count = f"{games:,} game{'' if games == 1 else 's'}"
    print(f"nothing to play: every setting has its {count} (a larger --games adds more)")
