"""Every template and static file of the web app is package data (a wheel without one would
serve a broken page)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_web_file_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["sleuth"]
    package = ROOT / "src" / "sleuth"
    files = [
        path
        for folder in ("web/templates", "web/static")
        for path in (package / folder).rglob("*")
        if path.is_file()
    ]
    assert files
    for path in files:
        relative = path.relative_to(package)
        assert any(relative.match(pattern) for pattern in patterns), relative
