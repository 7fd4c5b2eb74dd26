"""Numba on or off (``SLEUTH_NO_NUMBA``), and the notices of slow one-off preparations."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from sleuth.core import compiled, prepare


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
