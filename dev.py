#!/usr/bin/env python3
"""Set up Sleuth in ./.venv and run a task.  Needs only Python 3.11+ with pip.

    python3 dev.py demo     # set up, then play three Fox in a Hole tournaments (results tables)
    python3 dev.py test     # set up, then run ruff, mypy and the whole test suite

Setting up creates ``.venv`` (a virtual environment in this folder) and installs Sleuth in it,
editable, with its development tools and optional extras.  It is skipped when
``pyproject.toml`` has not changed since the last install, so the second run starts at once.
Extra arguments after ``test`` go to pytest (for example ``python3 dev.py test -m "not slow"``).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".sleuth-install-stamp"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def run(*args: str | Path) -> None:
    print("+", " ".join(map(str, args)), flush=True)
    subprocess.run([str(a) for a in args], cwd=ROOT, check=True)


def setup() -> None:
    """Create .venv and install Sleuth with its dev extras, unless already up to date."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older python3
        sys.exit(f"Sleuth needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and (BIN / "sleuth").exists():
        return
    if not (BIN / "python").exists():
        print(f"creating virtual environment {VENV}", flush=True)
        try:
            venv.create(VENV, with_pip=True)
        except (OSError, subprocess.CalledProcessError):
            # Some Linux distributions ship Python without ensurepip (Debian's python3-venv):
            # make the environment without pip and install into it with this Python's pip.
            print("no ensurepip here: using this Python's pip for .venv", flush=True)
            venv.create(VENV, with_pip=False, clear=True)
    if (BIN / "pip").exists():
        run(BIN / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip")
        run(BIN / "python", "-m", "pip", "install", "--quiet", "-e", ".[dev]")
    else:
        pip = (sys.executable, "-m", "pip", "--python", BIN / "python")
        run(*pip, "install", "--quiet", "pip")
        run(BIN / "python", "-m", "pip", "install", "--quiet", "-e", ".[dev]")
    STAMP.write_text(wanted)


def demo(args: list[str]) -> None:
    """The exact solver against the adversarial fox, a random hunter against it, and the
    solver's fallback (a random-walk filter) against a real fox on an unwinnable cycle."""
    sleuth = BIN / "sleuth"
    run(sleuth, "play", "fox", "--bots", "solver,quantum", "--games", "1000", *args)
    run(sleuth, "play", "fox", "--bots", "random,quantum", "--games", "1000", *args)
    run(sleuth, "play", "fox", "--bots", "solver,random", "--games", "1000",
        "--option", "graph=cycle:8", "--option", "days=8", *args)  # fmt: skip


def test(args: list[str]) -> None:
    run(BIN / "ruff", "check", "src", "tests", "bench", "studies", "dev.py")
    run(BIN / "ruff", "format", "--check", "src", "tests", "bench", "studies", "dev.py")
    run(BIN / "mypy")
    run(BIN / "python", "-m", "pytest", "-n", "auto", *args)


TASKS = {"demo": demo, "test": test, "setup": lambda args: None}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TASKS:
        sys.exit(f"usage: python3 dev.py {{{'|'.join(TASKS)}}} [args...]")
    setup()
    try:
        TASKS[sys.argv[1]](sys.argv[2:])
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode)


if __name__ == "__main__":
    main()
