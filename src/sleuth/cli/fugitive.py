"""Fugitive at the command line: the Marshal's notepad (``sleuth infer fugitive``)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Group
from rich.table import Table
from rich.text import Text

from sleuth.cli.common import console, print_json
from sleuth.core.errors import SleuthError
from sleuth.core.viewlog import read_view_log
from sleuth.games.fugitive.advice import ASSUMPTION, Deduction

SHOWN_VALUES = 8
"""Values listed per position in the text notepad, most likely first."""


def notepad(deduction: Deduction) -> Group:
    """The Marshal's notepad as rich renderables."""
    table = Table(title="Route (positions after 0)", title_justify="left")
    table.add_column("pos", justify="right")
    table.add_column("sprints", justify="right")
    table.add_column("possible values (probability)")
    table.add_column("footprints", justify="right")
    probabilities = deduction.counts.probabilities()
    for slot in deduction.belief.timeline.slots:
        if slot.value is not None:
            stack = "" if slot.stack is None else " ".join(map(str, slot.stack))
            shown = f"{slot.value} face up" + (f" (sprint cards {stack})" if stack else "")
            table.add_row(str(slot.position), str(slot.sprints), shown, "")
            continue
        values = sorted(probabilities[slot.position].items(), key=lambda kv: (-kv[1], kv[0]))
        listed = ", ".join(f"{v} ({_percent(p)})" for v, p in values[:SHOWN_VALUES])
        if len(values) > SHOWN_VALUES:
            listed += f", ... ({len(values)} values)"
        totals = deduction.counts.sprint_totals.get(slot.position, [])
        span = _ranges(totals) if len(totals) < 3 else f"{totals[0]}-{totals[-1]}"
        table.add_row(str(slot.position), str(slot.sprints), listed, span)
    lines: list[Table | Text] = [table]
    certain = deduction.counts.certain()
    lines.append(Text(f"Certain hideouts: {', '.join(map(str, certain)) or 'none'}"))
    lines.append(Text(f"Not hideouts now: {_ranges(deduction.not_hideouts()) or 'none'}"))
    advice = deduction.advice()
    if advice is not None and advice.numbers:
        lines.append(
            Text(f"Suggested: {advice} ({advice.reason}, p = {float(advice.probability):.1%})")
        )
    elif advice is not None:
        lines.append(Text(f"Suggested: no guess ({advice.reason})"))
    lines.append(Text(f"{deduction.counts.total:,} consistent worlds; odds assume {ASSUMPTION}."))
    if deduction.belief.timeline.over:
        lines.append(Text("The game is over."))
    elif deduction.belief.timeline.manhunt:
        lines.append(Text("Manhunt: name one number at a time."))
    return Group(*lines)


def _percent(p: Fraction) -> str:
    return "<1%" if 0 < p < Fraction(1, 200) else f"{float(p):.0%}"


def _ranges(numbers: list[int]) -> str:
    """``1-3, 7, 9-10`` for [1, 2, 3, 7, 9, 10]."""
    parts: list[str] = []
    start = previous = None
    for n in [*numbers, None]:
        if n is not None and previous is not None and n == previous + 1:
            previous = n
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = n
    return ", ".join(parts)


def infer_command(
    log: Annotated[
        Path,
        typer.Option(
            "--log", help="The Marshal's view log (as the assistant saves it) or a full game log."
        ),
    ],
    events: Annotated[
        int | None,
        typer.Option("--events", min=0, help="Use only the first N events of the view."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The Marshal's exact deduction: each face-down hideout's possible values with their
    probabilities, certain hideouts, numbers ruled out, and the suggested guess."""
    view = read_view_log(log, "marshal")
    seen = view.events if events is None else view.events[:events]
    if view.game.name != "fugitive":
        raise SleuthError(f"{log}: a {view.game.name} log, not a Fugitive one")
    deduction = Deduction.from_events(seen, view.game.manhunt_threshold)  # type: ignore[attr-defined]
    if as_json:
        print_json({"events": len(seen), **deduction.to_json()})
        return
    console.print(notepad(deduction))
