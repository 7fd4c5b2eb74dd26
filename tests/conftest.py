"""Fixtures shared by the test modules."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    """An empty working folder, so that stray output files would be noticed."""
    folder = tmp_path / "cwd"
    folder.mkdir()
    return folder
