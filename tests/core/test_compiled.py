"""Numba on or off (``SLEUTH_NO_NUMBA``), and the notices of slow one-off preparations."""

from __future__ import annotations

import importlib
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from sleuth.core import compiled, prepare
from sleuth.core.bots import BotSpec
from tests.core import toy
from tests.signalled import marked


def _compiled_in_child(value: str | None) -> str:
    env = {k: v for k, v in os.environ.items() if k != compiled.DISABLE_VARIABLE}
    if value is not None:
        env[compiled.DISABLE_VARIABLE] = value
    script = (
        "from sleuth.core.compiled import COMPILED\n"
        "from sleuth.games.camel_up import _kernels\n"
        "print(COMPILED, hasattr(_kernels.popcount, 'py_func'), _kernels.popcount(11))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_sleuth_no_numba_chooses_the_plain_python_kernels() -> None:
    assert _compiled_in_child("1") == "False False 3"
    if compiled.COMPILED:  # Numba installed: on unless the variable says otherwise
        assert _compiled_in_child(None) == "True True 3"
        assert _compiled_in_child("0") == "True True 3"


def test_a_slow_one_off_step_is_announced_and_a_quick_one_is_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said: list[str] = []
    monkeypatch.setattr(prepare, "notify", said.append)
    monkeypatch.setattr(prepare, "NOTICE_AFTER", 0.05)
    with prepare.one_off("Quick"):
        pass
    time.sleep(0.1)
    assert said == []
    with prepare.one_off("Building the table", "once"):
        time.sleep(0.3)
    assert said[0] == "Building the table, once..."
    assert said[1].startswith("Building the table: done in 0.")
    assert len(said) == 2
    with pytest.raises(ValueError), prepare.one_off("Failing"):
        time.sleep(0.2)
        raise ValueError
    assert said[2:] == ["Failing...", said[3]] and said[3].startswith("Failing: done in")


def test_without_a_sink_nothing_is_started(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prepare, "notify", None)
    monkeypatch.setattr(prepare, "NOTICE_AFTER", 0.0)
    before = threading.active_count()
    with prepare.one_off("Silent"):
        assert threading.active_count() == before


def test_nested_preparations_are_announced_outermost_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    said: list[str] = []
    monkeypatch.setattr(prepare, "notify", said.append)
    monkeypatch.setattr(prepare, "NOTICE_AFTER", 0.1)
    with prepare.one_off("Outer"), prepare.one_off("Inner", "once"):
        with prepare._lock:  # both timers come due meanwhile, to run in either order
            time.sleep(0.3)
        time.sleep(0.1)
    assert said[:2] == ["Outer...", "Inner, once..."]
    assert [text.split(":")[0] for text in said[2:]] == ["Inner", "Outer"]


needs_numba = pytest.mark.skipif(not compiled.COMPILED, reason="Numba is not installed (or off)")


@needs_numba
def test_numba_is_imported_by_the_first_kernel_call_not_by_a_kernel_module() -> None:
    script = (
        "import sys\n"
        "from sleuth.games.fugitive.deduction import _counting\n"
        "from sleuth.games.camel_up import _kernels\n"
        "before = 'numba' in sys.modules\n"
        "print(before, _kernels.popcount(11), 'numba' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "3", "True"]


@compiled.kernel
def _halve(n: int) -> int:
    return n // 2


@compiled.kernel
def _quarter(n: int) -> int:
    return _halve(_halve(n))  # a kernel calling another, compiled as one


@needs_numba
def test_a_kernel_calling_a_kernel_compiles_and_keeps_its_python_original() -> None:
    assert _quarter(41) == 10 == _quarter.py_func(41)  # type: ignore[attr-defined]
    dispatcher = _quarter.dispatcher()  # type: ignore[attr-defined]
    assert dispatcher.signatures  # compiled, not run as Python
    assert dispatcher.py_func is _quarter.py_func  # type: ignore[attr-defined]


@needs_numba
def test_a_background_warm_up_leaves_other_threads_not_ready_until_it_ends(
    compiling: threading.Event,
) -> None:
    seen: list[bool] = []
    compiled.compile_in_background(lambda: seen.append(compiled.ready()))  # queued after
    assert not compiled.ready()
    result: list[int] = []
    caller = threading.Thread(target=lambda: result.append(_quarter(80)))
    caller.start()
    caller.join(0.3)
    assert caller.is_alive() and result == []  # a kernel called meanwhile waits
    compiling.set()
    caller.join(60)
    assert result == [20]
    assert seen == [True]  # the warm-up's own thread runs compiled
    assert compiled._idle.wait(60) and compiled.ready()


_gate = threading.Event()
"""Holds :func:`_gated_warm_up` back until set."""


def _gated_warm_up() -> None:
    _gate.wait(60)
    _halve(8)


def _failing_warm_up() -> None:
    raise ValueError


@needs_numba
def test_a_warm_up_that_ran_to_its_end_is_waited_for_next_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first run compiles: meanwhile odds come from plain Python.  A later run only loads
    the kernels from the cache, which is sooner than plain Python: a block waits for it."""
    monkeypatch.setenv("SLEUTH_CACHE_DIR", str(tmp_path))
    marker = compiled.warmed_marker(_gated_warm_up)
    assert not marker.exists()
    for warmed_before in (False, True):
        _gate.clear()
        compiled.compile_in_background(_gated_warm_up)
        try:
            with compiled.plain_until_ready():
                assert getattr(compiled._local, "plain", False) is not warmed_before
        finally:
            _gate.set()
        assert compiled._idle.wait(60)
        assert marker.exists()
    compiled.compile_in_background(_failing_warm_up)
    compiled.compile_in_background(lambda: None)
    assert compiled._idle.wait(60)
    assert [path.name.split("-")[0] for path in marker.parent.iterdir()] == [
        f"{__name__}._gated_warm_up"
    ]  # a failed warm-up and a lambda leave no marker


@needs_numba
def test_the_marker_names_this_copy_of_the_module_and_numba_s_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SLEUTH_CACHE_DIR", str(tmp_path))
    here = compiled.warmed_marker(_gated_warm_up)
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert compiled.warmed_marker(_gated_warm_up) != here


LONG_WARM_UP = """\
import os, pathlib, time
def warm_up():
    time.sleep(2.0)
    pathlib.Path(os.environ["FINISHED"]).write_text(str(os.getpid()))
"""


@needs_numba
def test_a_warm_up_left_at_exit_ends_with_its_process(tmp_path: Path) -> None:
    """The user may leave before the background compilation ends: the process ends at once,
    and nothing goes on running the warm-up (a later run compiles what is left)."""
    (tmp_path / "long_warm_up.py").write_text(LONG_WARM_UP)
    marker = tmp_path / "finished"
    token = f"SLEUTH_TEST_RUN={os.getpid()}-{time.monotonic_ns()}"
    env = {
        **os.environ,
        "FINISHED": str(marker),
        "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path]),
        token.split("=")[0]: token.split("=")[1],
    }
    script = (
        "import long_warm_up\n"
        "from sleuth.core import compiled\n"
        "compiled.compile_in_background(long_warm_up.warm_up)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert marked(token) == []
    time.sleep(2.5)
    assert not marker.exists()


SLOW_WARM_UP = """\
import os, pathlib, time
def warm_up():
    while not pathlib.Path(os.environ["COMPILED_MARKER"]).exists():
        time.sleep(0.02)
"""


def _ready_in_fork(conn: Connection) -> None:
    """A forked process: reports :func:`compiled.ready` now, then once it turns True."""
    conn.send(compiled.ready())
    deadline = time.monotonic() + 120
    while not compiled.ready() and time.monotonic() < deadline:
        time.sleep(0.02)
    conn.send(compiled.ready())


@needs_numba
def test_a_warm_up_compiled_elsewhere_leaves_this_process_and_its_forks_not_ready_until_it_ends(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``compile_elsewhere`` returns at once; until its process ends, :func:`compiled.ready` is
    False here and in a process forked meanwhile, and a kernel called waits; then each process
    loads the kernels in a background thread and becomes ready."""
    (tmp_path / "slow_warm_up.py").write_text(SLOW_WARM_UP)
    marker = tmp_path / "compiled"
    monkeypatch.setenv("COMPILED_MARKER", str(marker))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(tmp_path), *sys.path]))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(compiled, "_away", [])
    monkeypatch.setattr(compiled, "_cached", set())
    slow = importlib.import_module("slow_warm_up")
    compiled.settle()
    compiled.compile_elsewhere(slow.warm_up)
    compiled.compile_elsewhere(slow.warm_up)  # one process for it
    assert len(compiled._away) == 1 and not compiled.ready()
    context = multiprocessing.get_context("fork")
    here, there = context.Pipe()
    child = context.Process(target=_ready_in_fork, args=(there,))
    child.start()
    result: list[int] = []
    caller = threading.Thread(target=lambda: result.append(_quarter(80)))
    caller.start()
    try:
        assert here.poll(60) and here.recv() is False
        caller.join(0.3)
        assert caller.is_alive() and result == []  # a kernel called meanwhile waits
    finally:
        marker.touch()
    caller.join(60)
    assert result == [20]
    assert here.poll(120) and here.recv() is True
    child.join(60)
    assert child.exitcode == 0
    deadline = time.monotonic() + 60
    while not compiled.ready() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert compiled.ready() and not compiled._away
    compiled.compile_elsewhere(slow.warm_up)  # done: not again
    assert not compiled._away


ENDLESS_WARM_UP = """\
import os, pathlib, time
def warm_up():
    pathlib.Path(os.environ["PID_FILE"]).write_text(str(os.getpid()))
    while True:
        time.sleep(0.02)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@needs_numba
@pytest.mark.parametrize("end", ["exit", "kill"])
def test_a_warm_up_compiled_elsewhere_ends_with_the_command(tmp_path: Path, end: str) -> None:
    """The process of ``compile_elsewhere`` does not outlive the command that started it,
    whether it exits or is killed (SIGKILL: nothing of it can clean up)."""
    (tmp_path / "endless_warm_up.py").write_text(ENDLESS_WARM_UP)
    pid_file = tmp_path / "pid"
    env = {
        **os.environ,
        "PID_FILE": str(pid_file),
        "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path]),
    }
    script = (
        "import os, pathlib, time, endless_warm_up\n"
        "from sleuth.core import compiled\n"
        "compiled.compile_elsewhere(endless_warm_up.warm_up)\n"
        "started = pathlib.Path(os.environ['PID_FILE'])\n"
        "while not started.exists() or not started.read_text():\n"
        "    time.sleep(0.02)\n"
        f"time.sleep({0 if end == 'exit' else 600})\n"
    )
    command = subprocess.Popen([sys.executable, "-c", script], env=env)
    deadline = time.monotonic() + 60
    while not pid_file.exists() or not pid_file.read_text():
        assert time.monotonic() < deadline, "the warm-up never started"
        time.sleep(0.02)
    elsewhere = int(pid_file.read_text())
    if end == "kill":
        command.kill()
    command.wait(60)
    deadline = time.monotonic() + 10
    while _alive(elsewhere) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(elsewhere)


def test_a_bot_s_warm_up_notice_does_not_say_each_run_compiles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A warm-up that loads from the cache takes over a second on a busy machine: its notice
    says it loads, not that it happens once (it came back on every run)."""
    said: list[str] = []
    monkeypatch.setattr(prepare, "notify", said.append)
    monkeypatch.setattr(prepare, "NOTICE_AFTER", 0.05)
    spec = BotSpec("slow", ("first",), toy.Caller, "loads", warm_up=lambda: time.sleep(0.3))
    spec.warm()
    assert said[0] == (
        "Preparing bot 'slow', loading its compiled code and tables (made once after an install)..."
    )


WARM_UPS = {
    "fugitive": "sleuth.games.fugitive.belief:warm_up",
    "camel-up": "sleuth.games.camel_up.bots:warm_up_bots",
    "scotland-yard": "sleuth.games.scotland_yard.rollouts:warm_up",
    "cluedo": "sleuth.games.cluedo.advice:warm_up",
}
"""Each game's warm-up of all its kernels."""

COUNT_COMPILES = """\
import importlib, sys
from numba.core import event
compiles = []
class Count(event.Listener):
    def on_start(self, data):
        compiles.append(data)
    def on_end(self, data):
        pass
event.register("numba:compile", Count())
module, _, function = sys.argv[1].rpartition(":")
getattr(importlib.import_module(module), function)()
print(len(compiles))
"""


@needs_numba
@pytest.mark.parametrize("game", WARM_UPS)
def test_once_compiled_every_later_process_loads_the_kernels_from_the_cache(
    game: str, tmp_path: Path
) -> None:
    """Numba caches a kernel by its file and signature: after one process has run a game's
    warm-up (compiling what was not cached), a new process compiles nothing."""
    env = {**os.environ, "SLEUTH_CACHE_DIR": str(tmp_path)}
    counts = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", COUNT_COMPILES, WARM_UPS[game]],
            env=env, capture_output=True, text=True, timeout=900,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        counts.append(int(done.stdout))
    assert counts[1] == 0
