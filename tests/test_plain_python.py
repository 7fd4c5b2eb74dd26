"""Documented examples without Numba (``SLEUTH_NO_NUMBA=1``): slower, and still no forfeit.

The bots that think declare move budgets that cover the plain-Python kernels (Camel Up's
``ev`` 30 s a move instead of 2 s); these runs check them on the README's examples, in small
game counts.  The first builds the Camel Up race table in the module's cache folder (with
NumPy: seconds, with or without Numba).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import COMMAND, one_json_object


@pytest.fixture(scope="module")
def plain_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    cache = tmp_path_factory.mktemp("cache")
    return {**os.environ, "SLEUTH_NO_NUMBA": "1", "SLEUTH_CACHE_DIR": str(cache)}


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [
        "play camel-up --bots ev,random,random,random -n 3",
        "play fugitive --bots steady,belief:guess=certain:draw=low -n 6 -o edition=second",
    ],
)
def test_readme_examples_do_not_forfeit_without_numba(
    command: str, plain_env: dict[str, str], tmp_path: Path
) -> None:
    done = subprocess.run(
        [*COMMAND, *command.split(), "--no-db", "--json", "-w", "1"],
        cwd=tmp_path,
        env=plain_env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    summary = one_json_object(done.stdout)
    assert summary["forfeits"] == 0, json.dumps(summary)
    probe = "from sleuth.core.compiled import COMPILED; print(COMPILED)"
    check = subprocess.run(
        [sys.executable, "-c", probe], env=plain_env, capture_output=True, text=True, timeout=60
    )
    assert check.stdout.strip() == "False"  # the runs above had no Numba
