"""The layers and the no-circle rule (docs/architecture.md, "Layers and the no-circle rule").

``lint-imports`` checks the contracts of ``pyproject.toml`` (CI runs it beside ruff and mypy).
These tests run it on Sleuth, run it on a copy of Sleuth broken on purpose (it must fail,
naming the import), and check the rule for every module, across Fugitive's subpackages too,
which the contracts check one by one: no module imports itself through other modules.  Imports
inside functions and under ``if TYPE_CHECKING:`` count like any other.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import grimp
import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")


def lint(cwd: Path, source: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the contracts of ``cwd/pyproject.toml``, on the ``sleuth`` package
    in the folder ``source`` (default: the one this Python imports)."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    return subprocess.run(
        [str(LINT), "--no-cache", "--no-logo"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_contracts_are_kept() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_a_broken_layer_and_a_circle_fail_naming_the_imports(tmp_path: Path) -> None:
    """A game that imports the command line, and a core module that imports one that imports
    it, each break a contract, and the report names the import."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    package = tmp_path / "src" / "sleuth"
    shutil.copytree(ROOT / "src" / "sleuth", package, ignore=shutil.ignore_patterns("__pycache__"))
    with (package / "games" / "fox" / "walk.py").open("a") as module:
        module.write("\nimport sleuth.cli.common  # noqa\n")
    with (package / "core" / "seatview.py").open("a") as module:
        module.write("\nimport sleuth.core.viewlog  # noqa\n")
    done = lint(tmp_path, tmp_path / "src")
    assert done.returncode == 1, done.stdout + done.stderr
    report = " ".join(done.stdout.split())
    assert "sleuth.games is not allowed to import sleuth.cli" in report
    assert "sleuth.games.fox.walk -> sleuth.cli.common" in report
    assert "No cycles are allowed in sleuth.core" in report


def test_no_module_imports_itself() -> None:
    graph = grimp.build_graph("sleuth", cache_dir=None)
    imports = nx.DiGraph()
    for module in graph.modules:
        imports.add_edges_from((module, i) for i in graph.find_modules_directly_imported_by(module))
    circles = [sorted(c) for c in nx.strongly_connected_components(imports) if len(c) > 1]
    assert circles == []


GAME_WORDS = re.compile(
    r"\b(fox|holes?|fugitive|camel|scotland|stations?|cluedo|hunter|marshal)\b", re.I
)
"""Words that belong to one game (its name, its pieces)."""
COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/|\{#.*?#\}", re.S)


def test_the_web_app_s_pages_and_scripts_hold_nothing_of_any_game() -> None:
    """What import-linter cannot see: the templates, scripts and styles of ``sleuth.web``
    (their comments aside) name no game and none of a game's pieces; a game's own page parts
    (the fox's switch of its possible holes) come from its page plug-in."""
    web = Path(__file__).parents[1] / "src" / "sleuth" / "web"
    found = []
    for path in sorted([*web.glob("templates/*"), *web.glob("static/*")]):
        code = COMMENTS.sub("", path.read_text(encoding="utf-8"))
        found += [f"{path.name}: {word}" for word in GAME_WORDS.findall(code)]
    assert not found
