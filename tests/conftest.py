"""Fixtures shared by the test modules."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from sleuth.core import compiled
from sleuth.core.log import write_log
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec


@pytest.fixture(autouse=True)
def _compiled_kernels_settled() -> Iterator[None]:
    """No compilation a test started elsewhere (a Fugitive bot's warm-up:
    :func:`sleuth.core.compiled.compile_elsewhere`) runs on into the next test, which may count
    on the compiled kernels."""
    yield
    compiled.settle()


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    """An empty working folder, so that stray output files would be noticed."""
    folder = tmp_path / "cwd"
    folder.mkdir()
    return folder


@pytest.fixture
def game_log(tmp_path: Path) -> Path:
    """The full log of a short Fugitive game between the random players."""
    spec = game_spec("fugitive")
    record = run_match(spec.make({"max_rounds": 8}), [spec.bot("random")] * 2, seed=5)
    path = tmp_path / "game.jsonl"
    write_log(record, path)
    return path


@pytest.fixture
def compiling() -> Iterator[threading.Event]:
    """A background warm-up (:func:`sleuth.core.compiled.compile_in_background`) that runs
    until the event is set, as if Numba were compiling; set at the end in any case.  Skips
    without Numba."""
    if not compiled.COMPILED:
        pytest.skip("Numba is not installed (or is turned off)")
    release = threading.Event()
    compiled.compile_in_background(release.wait)
    yield release
    release.set()
    assert compiled._idle.wait(120)
