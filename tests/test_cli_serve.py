"""``sleuth serve``: a clear error without the web extra, the app it serves with it, and no
web import for the other commands."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import entry


@pytest.mark.parametrize("missing", ["fastapi", "python_multipart"])
def test_without_the_extra_the_error_names_the_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == missing else real(name)
    )
    result = entry("serve", cwd=tmp_path)
    assert result.returncode == 2
    assert "pip install '.[web]' in the folder of Sleuth's pyproject.toml" in " ".join(
        result.stderr.split()
    )


def test_other_commands_do_not_import_the_web_app() -> None:
    code = (
        "import sys\nfrom sleuth.cli.app import app\n"
        "assert not any(m.split('.')[0] in ('fastapi', 'uvicorn', 'starlette') "
        "or m.startswith('sleuth.web') for m in sys.modules), 'web modules imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_serve_runs_the_app_on_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("fastapi")
    import uvicorn
    from fastapi import FastAPI

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append({"app": app, **kw}))
    store = tmp_path / "web.sqlite3"
    result = entry("serve", "--port", "8123", "--store", str(store), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    (call,) = calls
    assert isinstance(call["app"], FastAPI)
    assert (call["host"], call["port"]) == ("127.0.0.1", 8123)
    assert store.exists() and "http://127.0.0.1:8123/" in result.stdout


def test_serve_forgets_idle_sessions_after_the_days_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("fastapi")
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: served.append(app))
    store = tmp_path / "web.sqlite3"
    cases: list[tuple[list[str], float | None]] = [
        ([], 30 * 86400.0),
        (["--forget-after", "7"], 7 * 86400.0),
        (["--forget-after", "0.5"], 43200.0),
        (["--forget-after", "0"], None),
    ]
    for given, seconds in cases:
        result = entry("serve", "--store", str(store), *given, cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert served.pop().state.store.forget_after == seconds
    refused = entry("serve", "--store", str(store), "--forget-after", "-1", cwd=tmp_path)
    assert refused.returncode == 2 and "--forget-after" in refused.stderr and not served
