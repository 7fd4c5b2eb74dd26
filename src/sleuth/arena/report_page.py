"""``sleuth report``: PNG plots and one self-contained HTML page of stored runs.

The page (``report.html``) needs nothing but itself to be read: its style is inline, its plots
are the same PNG files embedded as ``data:`` URIs, and its tables are HTML (rendered by Jinja2
with autoescaping, so bot specs and options are shown as typed).  Plots and page need the
``report`` extra (Matplotlib, Jinja2): :func:`check_extra` names it when it is missing, before
any work is done.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sleuth.arena.report import RunReport, read_report
from sleuth.core.errors import SleuthError

MISSING = (
    "sleuth report draws its plots with the report extra ({name} is not installed): "
    "pip install '.[report]' in the folder of Sleuth's pyproject.toml (a clone of its "
    "repository)"
)
PAGE = "report.html"


@dataclass(frozen=True)
class Written:
    """What :func:`write_report` wrote: the page, the PNG files, and the runs and games."""

    page: Path
    plots: list[Path]
    runs: int
    games: int


def check_extra() -> None:
    """A ``SleuthError`` naming the ``report`` extra when Matplotlib or Jinja2 is missing."""
    for name in ("matplotlib", "jinja2"):
        try:
            __import__(name)
        except ImportError:
            raise SleuthError(MISSING.format(name=name)) from None


def write_report(db: Path, out: Path, runs: Sequence[str] = ()) -> Written:
    """Write the plots of each run ``runs`` names (ids or prefixes; none: every run) of the
    results file ``db`` into ``out`` (``RUN8-NAME.png``, RUN8 the run id's first 8
    characters) and the page :data:`PAGE` showing them all; ``out`` is created if needed.
    Nothing is written when the file or a run cannot be read."""
    check_extra()
    from sleuth.arena.figures import figures

    reports = read_report(db, runs)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SleuthError(f"cannot write the report to {out}: {exc.strerror or exc}") from None
    plots: list[Path] = []
    sections = []
    for run in reports:
        images = {}
        for name, png in figures(run).items():
            path = out / f"{run.run_id[:8]}-{name}.png"
            _write(path, png)
            plots.append(path)
            images[name] = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        sections.append((run, images))
    page = out / PAGE
    _write(page, render(db, sections).encode("utf-8"))
    return Written(page, plots, len(reports), sum(r.games for r in reports))


def render(db: Path, sections: Sequence[tuple[RunReport, dict[str, str]]]) -> str:
    """The HTML page: one section per run with its tables and its plots (``data:`` URIs by
    figure name)."""
    import jinja2

    environment = jinja2.Environment(
        loader=jinja2.PackageLoader("sleuth.arena", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    template = environment.get_template("report.html")
    return template.render(db=db.name, sections=sections)


def _write(path: Path, data: bytes) -> None:
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise SleuthError(f"cannot write {path}: {exc.strerror or exc}") from None
