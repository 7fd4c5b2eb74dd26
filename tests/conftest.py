"""Fixtures shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleuth.core.log import write_log
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec


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
