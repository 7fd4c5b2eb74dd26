"""Benchmark: how long ``sleuth`` takes to answer short commands, started fresh each time.

Each command runs in a new interpreter, as a user types it: ``--help``, ``games``, a tiny
``play fox`` tournament (two games on one worker, nothing stored) and ``fox solve`` on a small
board.  The baseline is the same command, in the same kind of process, after importing what
the command line imported at start-up before its commands were made on first use: every
built-in game with its own commands module, the arena and DuckDB, the log models and the
assistant loop (:data:`EAGER`).  The floor is an interpreter that imports nothing
(``python -c pass``).

Runs are interleaved (each round runs every command both ways) and the best of the rounds is
kept, so that a busy machine slows both sides alike; "vs eager" is the eager time divided by
the lazy one.

    .venv/bin/python bench/cli_startup.py [--quick] [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _report import print_table
from sleuth.core.registry import builtin_game_names, game_spec

COMMANDS = {
    "--help": ["--help"],
    "games": ["games"],
    "play fox": ["play", "fox", "--bots", "solver,quantum", "-n", "2", "-w", "1", "--no-db"],
    "fox solve": ["fox", "solve", "--graph", "path:5"],
}
QUICK = ("--help",)
"""The commands of a ``--quick`` run (one round)."""
ENTRY = "from sleuth.cli import main; main()"


def eager_modules() -> list[str]:
    """What the command line imported at start-up when it made every command then: each
    built-in game and its commands module, the arena (DuckDB with it), logs, assistants and
    the progress bar.  (Checked when written: the same modules as ``import sleuth.cli.app``
    before commit d0ed348, but for :mod:`sleuth.cli.lazy`.)"""
    modules = []
    for name in builtin_game_names():
        spec = game_spec(name)
        modules.append(_package(name) + ".spec")  # the package itself now imports nothing
        if spec.commands is not None:
            modules.append(spec.commands.partition(":")[0])
    return [
        *modules,
        "sleuth.arena.store",
        "sleuth.arena.tournament",
        "sleuth.arena.paired",
        "sleuth.core.log",
        "sleuth.core.viewlog",
        "sleuth.assist.repl",
        "rich.progress",
    ]


def _package(game: str) -> str:
    return "sleuth.games." + game.replace("-", "_")


def rounds_count(text: str) -> int:
    """``--rounds``: a whole number of at least 1 (the parser reports anything else)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def seconds(code: str, args: list[str], cwd: Path) -> float:
    """Wall-clock seconds of ``python -c CODE ARGS`` (output discarded; a failure stops)."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=True, timeout=300,
    )  # fmt: skip
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="--help only, one round")
    parser.add_argument(
        "--rounds", type=rounds_count, default=7, help="rounds (at least 1); the best is kept"
    )
    args = parser.parse_args()
    names = QUICK if args.quick else tuple(COMMANDS)
    rounds = 1 if args.quick else args.rounds
    eager = "import " + ", ".join(eager_modules()) + "; " + ENTRY
    best: dict[tuple[str, str], float] = {}
    with tempfile.TemporaryDirectory() as folder:
        cwd = Path(folder)
        for _ in range(rounds):
            best["floor", ""] = min(best.get(("floor", ""), 1e9), seconds("pass", [], cwd))
            for name in names:
                for side, code in (("lazy", ENTRY), ("eager", eager)):
                    took = seconds(code, COMMANDS[name], cwd)
                    best[side, name] = min(best.get((side, name), 1e9), took)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {load:.1f}; best of {rounds} round(s), wall clock, fresh interpreters"
    )
    print(f"python -c pass: {best['floor', '']:.3f} s")
    rows = []
    for name in names:
        lazy, full = best["lazy", name], best["eager", name]
        rows.append([f"sleuth {name}", f"{lazy:.3f}", f"{full:.3f}", f"{full / lazy:.2f}"])
    print_table(["command", "lazy s", "eager s", "vs eager"], rows)


if __name__ == "__main__":
    main()
