"""The user cache folder: the environment override, else platformdirs' user cache folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from sleuth.core.cache import cache_dir


def test_the_environment_variable_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SLEUTH_CACHE_DIR", str(tmp_path / "here"))
    assert cache_dir() == tmp_path / "here"


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG rules are Linux's")
def test_the_platform_folder_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SLEUTH_CACHE_DIR", "")  # empty: not an override
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_dir() == tmp_path / "xdg" / "sleuth"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "sleuth"
