"""The development suite runs whole: every module that a test skips without
(``pytest.importorskip``) is installed in the development environment (the ``dev`` extra), so a
dependency renamed or dropped from ``pyproject.toml`` fails here instead of silently skipping a
suite.  Not one of the plain install's tests (``dev.py plain``), where such skips are meant."""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).parent


def modules_skipped_without() -> Iterator[tuple[Path, str]]:
    """(test file, module) for every ``importorskip("module")`` in the tests."""
    for path in sorted(TESTS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "importorskip"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                yield path, str(node.args[0].value)


def test_the_scan_finds_the_web_suites_guards() -> None:
    found = {
        (path.relative_to(TESTS).as_posix(), module) for path, module in modules_skipped_without()
    }
    assert ("web/conftest.py", "fastapi") in found
    assert ("web/browser/conftest.py", "playwright") in found


def test_every_module_a_test_skips_without_is_installed() -> None:
    missing = [
        f"{path.relative_to(TESTS)} skips without {module!r}, which is not installed"
        for path, module in modules_skipped_without()
        if importlib.util.find_spec(module) is None
    ]
    assert not missing, "\n".join(missing)
