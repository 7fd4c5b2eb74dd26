#!/usr/bin/env python3
"""Set up Sleuth in ./.venv and run a task.  Needs only Python 3.11+ with pip.

    python3 dev.py demo     # set up, then play three Fox in a Hole tournaments (results tables)
    python3 dev.py test     # set up, then run ruff, mypy, lint-imports and the whole test suite
    python3 dev.py plain    # install Sleuth plainly in .venv-plain, then run the CLI smoke tests

Setting up creates ``.venv`` (a virtual environment in this folder) and installs Sleuth in it,
editable, with its development tools and optional extras.  It is skipped when
``pyproject.toml`` has not changed since the last install, so the second run starts at once.
Extra arguments after ``test`` or ``plain`` go to pytest (for example
``python3 dev.py test -m "not slow"``).

``plain`` is what a user gets from ``pip install``: ``.venv-plain`` holds Sleuth installed from
this folder as a package (not editable, no extras) and pytest, nothing else; the smoke tests
(:data:`PLAIN_TESTS`, without the slow ones) run with that environment's ``sleuth`` on the PATH.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".sleuth-install-stamp"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
TORCH = "2.13.0"
"""The PyTorch of the learn extra that setup installs: the CPU build where pip finds one (a
wheel index or folder of its configuration), which must come before the extra pulls a torch."""
PLAIN = ROOT / ".venv-plain"
PLAIN_BIN = PLAIN / BIN.name
PLAIN_TESTS = ("tests/test_docs_examples.py", "tests/test_cli_help.py", "tests/test_cli_startup.py")
"""The CLI smoke tests run on the plain install: every documented command, the help, and what
each start imports."""


def run(*args: str | Path) -> None:
    print("+", " ".join(map(str, args)), flush=True)
    subprocess.run([str(a) for a in args], cwd=ROOT, check=True)


def make_venv(folder: Path) -> Path:
    """Create the virtual environment ``folder`` unless it exists, with an up-to-date pip;
    return its ``bin`` folder."""
    bin_dir = folder / BIN.name
    if (bin_dir / "python").exists():
        return bin_dir
    print(f"creating virtual environment {folder}", flush=True)
    try:
        venv.create(folder, with_pip=True)
    except (OSError, subprocess.CalledProcessError):
        # Some Linux distributions ship Python without ensurepip (Debian's python3-venv):
        # make the environment without pip and install pip into it with this Python's pip.
        print(f"no ensurepip here: using this Python's pip for {folder.name}", flush=True)
        venv.create(folder, with_pip=False, clear=True)
    if (bin_dir / "pip").exists():
        run(bin_dir / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    else:
        run(
            sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "--quiet", "pip"
        )
    return bin_dir


def setup() -> None:
    """Create .venv and install Sleuth with its dev extras, unless already up to date."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and (BIN / "sleuth").exists():
        return
    make_venv(VENV)
    pip = (BIN / "python", "-m", "pip", "install", "--quiet")
    try:  # the learn extra's PyTorch: its CPU build first (a bare `torch` would fetch CUDA's)
        run(*pip, f"torch=={TORCH}")
        extras = "dev,learn"
    except subprocess.CalledProcessError:
        print(f"torch {TORCH} could not be installed: the learning tests will be skipped")
        extras = "dev"
    run(*pip, "-e", f".[{extras}]")
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
    run(BIN / "lint-imports", "--no-cache")  # the layers and no-circle contracts (pyproject)
    run(BIN / "python", "-m", "pytest", "-n", "auto", *args)


def plain(args: list[str]) -> None:
    """Install Sleuth as a user would (``pip install .``: not editable, no extras) in
    .venv-plain, then run the CLI smoke tests with that environment's ``sleuth``."""
    bin_dir = make_venv(PLAIN)
    shutil.rmtree(ROOT / "build", ignore_errors=True)  # setuptools would ship stale modules
    pip = (bin_dir / "python", "-m", "pip", "install", "--quiet")
    run(*pip, ".", "pytest")  # the dependencies; then this folder's code, always fresh:
    run(*pip, "--no-deps", "--force-reinstall", ".")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    env.pop("VIRTUAL_ENV", None)
    command = [bin_dir / "python", "-m", "pytest", "-p", "no:cacheprovider", "-m", "not slow"]
    print("+", " ".join(map(str, [*command, *PLAIN_TESTS, *args])), flush=True)
    subprocess.run([*map(str, command), *PLAIN_TESTS, *args], cwd=ROOT, env=env, check=True)


TASKS = {"demo": demo, "test": test, "plain": plain, "setup": lambda args: None}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TASKS:
        sys.exit(f"usage: python3 dev.py {{{'|'.join(TASKS)}}} [args...]")
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py may be started by an older python3
        sys.exit(f"Sleuth needs Python 3.11 or newer; this is {sys.version.split()[0]}")
    if sys.argv[1] != "plain":  # the plain install needs nothing of .venv
        setup()
    try:
        TASKS[sys.argv[1]](sys.argv[2:])
    except subprocess.CalledProcessError as exc:
        sys.exit(exc.returncode)


if __name__ == "__main__":
    main()
