"""Benchmark: the first and the second run of each assistant and of ``sleuth play``, as a new
user meets them right after ``pip install .``, and of the Fugitive commands that count worlds
(``play`` with the belief Marshal, ``infer``).

A fresh virtual environment gets a plain install of this repository (no extras; pip reuses its
cache, and building the wheel is not part of any figure).  Each command then runs twice in a
new process, with Numba's and Sleuth's cache folders (``NUMBA_CACHE_DIR``, ``SLEUTH_CACHE_DIR``)
empty before its first run and of its own, so that every command's first run is a first run
after an install whatever ran before it.  An assistant reads its input from a pipe: ``quit``
(how long until it takes entries), or its first entry then ``quit`` (how long until the first
answer when the entry is typed at once).  The second run comes right after the first, with
the caches the first left: an assistant compiles in a background thread that ends with its
process (:mod:`sleuth.core.compiled`), so what a first run did not finish, the second compiles
again.  Seconds are wall clock, from starting the process to its end.  ``--only camel-up``
measures the commands of one game (a word of the command).

``--quick`` skips the fresh environment (this interpreter, with fresh cache folders: the same
first run for Numba and Sleuth) and runs two light commands, for the test suite.

    .venv/bin/python bench/first_run.py [--quick] [--only GAME] [--keep-venv DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

from _report import print_table

ROOT = Path(__file__).resolve().parents[1]
QUIT = "quit\n"
SEATS = {"cluedo": "random,random,random"} | dict.fromkeys(
    ("fox", "fugitive", "camel-up", "scotland-yard"), "random,random"
)
"""The random bots of each game's ``sleuth play`` (the fewest seats)."""
MANHUNT = ROOT / "examples" / "fugitive-manhunt.jsonl"
"""A Marshal's view log shipped with the repository, for ``sleuth infer fugitive``."""
COMMANDS: dict[str, tuple[list[str], str]] = {
    "assist fugitive": (["assist", "fugitive"], QUIT),
    "assist fugitive, 1st entry": (["assist", "fugitive"], "hideout 1\n" + QUIT),
    "assist camel-up": (["assist", "camel-up"], QUIT),
    "assist camel-up, 1st entry": (
        ["assist", "camel-up"],
        "start 1:blue 2:green,orange 3:yellow,white\n" + QUIT,
    ),
    "assist scotland-yard": (["assist", "scotland-yard"], QUIT),
    "assist scotland-yard, 1st entry": (
        ["assist", "scotland-yard"],
        "start 9,10,15,17,19\n" + QUIT,
    ),
    "assist cluedo": (["assist", "cluedo"], QUIT),
    "assist cluedo, 1st entry": (
        ["assist", "cluedo"],
        "players 4\nme Plum\nhand Knife, Hall, Rope, Study\n" + QUIT,
    ),
    **{
        f"play {game}": (["play", game, "--bots", SEATS[game], "-n", "2", "--no-db"], "")
        for game in ("fox", "fugitive", "camel-up", "scotland-yard", "cluedo")
    },
    "play fugitive, heuristic v belief": (
        ["play", "fugitive", "--bots", "heuristic,belief", "-n", "2", "--no-db"],
        "",
    ),
    "infer fugitive": (["infer", "fugitive", "--log", str(MANHUNT), "--events", "40"], ""),
}
"""Each measured command: its arguments and what it reads on stdin."""
QUICK = ("assist cluedo", "play fox")


def fresh_environment(folder: Path) -> Path:
    """A new virtual environment in ``folder`` with this repository installed (no extras);
    its Python."""
    venv.create(folder, with_pip=True)
    python = folder / ("Scripts" if os.name == "nt" else "bin") / "python"
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", str(ROOT)],
        check=True, timeout=1800, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    return python


def run(python: Path, args: list[str], stdin: str, env: dict[str, str], cwd: Path) -> float:
    """Wall-clock seconds of ``sleuth ARGS`` fed ``stdin`` (a failure stops the benchmark)."""
    start = time.perf_counter()
    done = subprocess.run(
        [python, "-c", "from sleuth.cli import main; main()", *args],
        input=stdin, text=True, env=env, cwd=cwd, capture_output=True, timeout=1800,
    )  # fmt: skip
    took = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"sleuth {' '.join(args)} failed:\n{done.stderr}")
    return took


def measure(python: Path, names: tuple[str, ...], work: Path) -> list[list[str]]:
    """The table rows: each command's first and second run."""
    rows = []
    for index, name in enumerate(names):
        args, stdin = COMMANDS[name]
        caches = work / f"caches-{index}"
        env = {
            **os.environ,
            "NUMBA_CACHE_DIR": str(caches / "numba"),
            "SLEUTH_CACHE_DIR": str(caches / "sleuth"),
            "COLUMNS": "100",
        }
        first = run(python, args, stdin, env, work)
        second = run(python, args, stdin, env, work)
        rows.append([f"sleuth {name}", f"{first:.1f}", f"{second:.1f}", f"{first / second:.1f}"])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="this interpreter, two commands")
    parser.add_argument(
        "--keep-venv", type=Path, help="make the fresh environment here and keep it"
    )
    parser.add_argument("--only", help="only the commands with this word (a game: camel-up)")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        if args.quick:
            python, names, where = Path(sys.executable), QUICK, "this environment"
        else:
            target = args.keep_venv or work / "venv"
            names = tuple(
                n for n in COMMANDS if args.only is None or args.only in n.replace(",", "").split()
            )
            if not names:
                sys.exit(f"--only {args.only}: no command has that word")
            python = fresh_environment(target)
            where = f"a fresh virtual environment ({target})"
        rows = measure(python, names, work)
    after = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {load:.1f} before and {after:.1f} after; {where}, empty caches before "
        "each command's first run; wall clock"
    )
    print_table(["command", "first s", "second s", "first/second"], rows)


if __name__ == "__main__":
    main()
