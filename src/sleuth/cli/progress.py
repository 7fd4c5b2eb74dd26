"""Progress of a long run on stderr: a transient bar on a terminal, a line now and then
elsewhere (a log file, a pipe, a CI job), so that a run whose output is not a terminal still
says that it is going."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sleuth.cli.common import errors

LINE_EVERY = 10.0
"""Seconds between two progress lines when stderr is not a terminal (none in a shorter run)."""


@contextmanager
def progress(
    description: str, total: int, completed: int = 0, bar: bool = True
) -> Iterator[Callable[[int], None]]:
    """Yield ``advance(n)``, to be called as ``n`` more of ``total`` games finish.

    On a terminal it moves a transient Rich bar (none unless ``bar``); when stderr is not a
    terminal it prints ``description: N of TOTAL games (P%), S s`` at most every
    :data:`LINE_EVERY` seconds, the first after that long."""
    if errors.is_terminal:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=errors,
            disable=not bar,
            transient=True,
        ) as shown:
            task = shown.add_task(description, total=total, completed=completed)
            yield lambda n: shown.advance(task, n)
        return
    started = last = time.monotonic()
    done = completed

    def advance(n: int) -> None:
        nonlocal done, last
        done += n
        now = time.monotonic()
        if now - last >= LINE_EVERY:
            last = now
            errors.print(
                f"{description}: {done:,} of {total:,} games ({done / total:.1%}), "
                f"{now - started:.0f} s",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )

    yield advance
