"""The first ``sleuth play`` with the belief Marshal and the first ``sleuth infer fugitive``
after an install answer from the plain programme while the kernel compiles elsewhere, with
the compiled programme's answers (they compiled it in the foreground for some 20 s)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from sleuth.core import bots, compiled
from sleuth.core.registry import game_spec
from tests.cli_helpers import entry, one_json_object


@dataclass
class Held:
    """Compilation made slow (see :func:`held_kernels`)."""

    release: threading.Event = field(default_factory=threading.Event)
    calls: list[str] = field(default_factory=list)
    """The kernels the main thread called once released."""


@pytest.fixture
def held_kernels(monkeypatch: pytest.MonkeyPatch) -> Iterator[Held]:
    """A process that has not compiled nor loaded the Fugitive kernel yet, whose compilation
    lasts until ``release`` is set: until then a kernel called by a thread other than the main
    one waits (a background warm-up compiling), and one called by the main thread (a move or an
    answer, which should not wait) fails the test at once.  Worker processes forked meanwhile
    inherit the same.  Skips without Numba."""
    if not compiled.COMPILED:
        pytest.skip("Numba is not installed (or is turned off)")
    held = Held()
    original = compiled.Kernel.__call__

    def call(self: compiled.Kernel, *args: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            held.release.wait(300)
        elif not held.release.is_set():
            raise AssertionError(f"{self!r} was called while its compilation went on")
        else:
            held.calls.append(self.py_func.__name__)
        return original(self, *args)

    monkeypatch.setattr(compiled.Kernel, "__call__", call)
    monkeypatch.setattr(compiled, "_away", [])
    monkeypatch.setattr(compiled, "_cached", set())
    monkeypatch.setattr(bots, "_WARMED", set())
    try:
        yield held
    finally:
        held.release.set()
        compiled.settle()


def test_the_first_play_with_the_belief_marshal_does_not_wait_for_its_kernel(
    held_kernels: Held, cwd: Path
) -> None:
    """The README's ``sleuth play fugitive --bots heuristic,belief``: its games (on worker
    processes) play while the kernel compiles, and are the games the compiled programme
    plays, byte for byte."""
    command = ["play", "fugitive", "--bots", "heuristic,belief", "-n", "4", "--seed", "2"]
    first = entry(*command, "--logs", "first", "--no-db", cwd=cwd)
    assert first.returncode == 0, first.stderr
    assert "forfeits 0" in first.stdout  # a move that called the kernel would have forfeited
    held_kernels.release.set()
    compiled.settle()
    again = entry(*command, "--logs", "compiled", "--no-db", "--workers", "1", cwd=cwd)
    assert again.returncode == 0, again.stderr
    assert "count_worlds" in held_kernels.calls  # this time the moves ran compiled
    logs = sorted(path.name for path in (cwd / "first").glob("*.jsonl"))
    assert len(logs) == 4
    for name in logs:
        assert (cwd / "first" / name).read_bytes() == (cwd / "compiled" / name).read_bytes()


def test_the_first_infer_does_not_wait_for_its_kernel(
    held_kernels: Held, game_log: Path, cwd: Path
) -> None:
    """``sleuth infer fugitive`` answers from the plain programme while the kernel compiles:
    the same notes as the compiled programme's."""
    command = ["infer", "fugitive", "--log", game_log, "--model", "frugal", "--json"]
    first = entry(*command, cwd=cwd)
    assert first.returncode == 0, first.stderr
    held_kernels.release.set()
    compiled.settle()
    again = entry(*command, cwd=cwd)
    assert again.returncode == 0, again.stderr
    assert "count_worlds" in held_kernels.calls
    assert one_json_object(again.stdout) == one_json_object(first.stdout)


COUNTING = ("belief", "belief:guess=certain:draw=low", "elusive", "decoy", "ismcts", "dmcts")
"""The Fugitive bots that count worlds with the exact belief."""
BUDGETS = f"""\
import json
from sleuth.core.registry import game_spec
print(json.dumps([game_spec("fugitive").bot(name).budget() for name in {COUNTING!r}]))
"""


def test_the_bots_that_count_worlds_declare_the_plain_programme_s_budget() -> None:
    """Any of their moves may run the plain programme, Numba or not (while the kernel compiles
    or loads): their per-move limits are the same without Numba, so whether a move forfeits
    does not depend on when the kernel was ready (with Numba they declared 5 s)."""
    if not compiled.COMPILED:
        pytest.skip("Numba is not installed (or is turned off)")
    env = {**os.environ, compiled.DISABLE_VARIABLE: "1"}
    done = subprocess.run(
        [sys.executable, "-c", BUDGETS], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    here = [game_spec("fugitive").bot(name).budget() for name in COUNTING]
    assert json.loads(done.stdout) == here
