"""Ways into the ``sleuth`` command line for tests, and what its answers must look like.

Three ways in: the real console script in a subprocess (:func:`sleuth`: exit codes, stderr, no
traceback, stdin for ``fox play``); the same entry point, ``sleuth.cli.main``, called in this
process (:func:`entry`: fast, and any exception other than ``SystemExit`` escapes and fails the
test); and Typer's ``CliRunner`` (:func:`invoke`) for happy paths.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from sleuth.cli import main
from sleuth.cli.app import app

SCRIPT = Path(sys.executable).with_name("sleuth")
COMMAND = (
    [str(SCRIPT)]
    if SCRIPT.exists()
    else [sys.executable, "-c", "from sleuth.cli import main; main()"]
)


def sleuth(*args: str | Path, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run the console script as a user would (stdout and stderr are pipes, not a terminal)."""
    return subprocess.run(
        [*COMMAND, *map(str, args)],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def entry(*args: str | Path, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Like :func:`sleuth`, but calls the console script's entry point in this process (fast).

    Any exception other than ``SystemExit`` escapes and fails the test: that is the in-process
    equivalent of a traceback.
    """
    saved = sys.argv, sys.stdin, sys.stdout, sys.stderr, Path.cwd()
    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["sleuth", *map(str, args)]
    sys.stdin, sys.stdout, sys.stderr = io.StringIO(stdin), out, err
    os.chdir(cwd)
    try:
        try:
            main()
            code: Any = 0
        except SystemExit as exc:
            code = exc.code
    finally:
        sys.argv, sys.stdin, sys.stdout, sys.stderr = saved[:4]
        os.chdir(saved[4])
    code = 0 if code is None else code if isinstance(code, int) else 1
    return subprocess.CompletedProcess(
        ["sleuth", *map(str, args)], code, out.getvalue(), err.getvalue()
    )


def flat(text: str) -> str:
    """Text with every run of whitespace made one space (Rich may wrap long lines)."""
    return " ".join(text.split())


def invoke(*args: str | Path, stdin: str | None = None) -> Any:
    result = CliRunner().invoke(app, [str(a) for a in args], input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, result.output
    return result


def one_json_object(stdout: str) -> dict[str, Any]:
    """The single JSON object that is the whole of ``stdout``."""
    lines = stdout.splitlines()
    assert len(lines) == 1, stdout
    obj = json.loads(lines[0])
    assert isinstance(obj, dict)
    return obj


def check_error(done: subprocess.CompletedProcess[str], *culprits: str) -> str:
    """A failed command: exit code 2, a clear message naming the culprits, no traceback."""
    message = flat(done.stderr)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
    assert message, "no message on stderr"
    for culprit in culprits:
        assert culprit in message, (culprit, message)
    return message
