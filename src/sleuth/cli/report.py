"""``sleuth report``: plots and one self-contained HTML page of the runs in a results file.

The arena, DuckDB and the ``report`` extra (Matplotlib, Jinja2) are imported when the command
runs; without the extra it fails naming it (:func:`sleuth.arena.report_page.check_extra`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from sleuth.cli.common import DEFAULT_DB, console

DEFAULT_OUT = Path("sleuth-report")


def report_command(
    db: Annotated[
        Path, typer.Option("--db", help="DuckDB results file of `sleuth play`.")
    ] = DEFAULT_DB,
    out: Annotated[
        Path, typer.Option("--out", help="Folder for report.html and the PNG plots.")
    ] = DEFAULT_OUT,
    run: Annotated[
        list[str] | None,
        typer.Option(
            "--run",
            metavar="ID",
            help="Only this run (its id or a prefix of it; repeatable). Default: every run.",
        ),
    ] = None,
) -> None:
    """Write PNG plots and one self-contained HTML page of the stored runs.

    Per run: win rates with 95% intervals per bot and side (as `sleuth play` counts them), per
    bot over all its sides and per bot and seat; game lengths; CPU time per move per bot; a
    league's ratings.  The page embeds its plots and style: it opens with no network."""
    from sleuth.arena.report_page import write_report

    written = write_report(db, out, run or ())
    console.print(
        f"{written.runs} run{'' if written.runs == 1 else 's'} ({written.games} games) of {db}: "
        f"{written.page} and {len(written.plots)} plots in {out}"
    )
