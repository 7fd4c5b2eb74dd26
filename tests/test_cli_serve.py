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


def test_serve_with_workers_runs_that_many_processes_on_the_one_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("fastapi")
    import uvicorn

    from sleuth.web import app as web_app

    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append((app, kw)))
    for name in (web_app.STORE_VARIABLE, web_app.FORGET_VARIABLE):
        monkeypatch.delenv(name, raising=False)
    store = tmp_path / "web.sqlite3"
    result = entry("serve", "--workers", "3", "--store", store, "--forget-after", "7", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    ((app, options),) = calls
    assert app == web_app.FACTORY and options["factory"] and options["workers"] == 3
    assert store.exists() and "3 processes" in result.stdout
    built = web_app.app_from_environment()  # what each worker process builds
    assert built.state.store.path == store and built.state.store.forget_after == 7 * 86400.0
    refused = entry("serve", "--workers", "0", cwd=tmp_path)
    assert refused.returncode == 2 and "--workers" in refused.stderr and len(calls) == 1


def test_serve_with_two_workers_serves_a_game_from_two_processes(tmp_path: Path) -> None:
    """The real command: two uvicorn worker processes under one parent, both answering."""
    pytest.importorskip("fastapi")
    import socket
    import time

    import httpx2 as httpx

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    sleuth = Path(sys.executable).with_name("sleuth")
    command = [str(sleuth), "serve", "--workers", "2", "--port", str(port),
               "--store", str(tmp_path / "web.sqlite3")]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                if httpx.get(url, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        workers = [
            pid
            for pid in Path("/proc").iterdir()
            if pid.name.isdigit() and _parent(pid) == server.pid
        ]
        assert len(workers) >= 2, workers  # uvicorn's workers (and its spawn helper)
        with httpx.Client(base_url=url, timeout=30) as client:
            game = client.post("/api/play", json={"game": "fox", "options": {"graph": "path:3"}})
            assert game.status_code == 201, game.text
            record = game.json()["id"]
            for _ in range(6):  # each request on a fresh connection: either worker may answer
                answer = client.get(f"/api/play/{record}", headers={"connection": "close"})
                assert answer.status_code == 200 and answer.json()["id"] == record
    finally:
        server.terminate()
        server.wait(timeout=30)


def _parent(process: Path) -> int | None:
    """The parent process id of the process ``/proc/PID`` (None once it is gone)."""
    try:
        return int((process / "stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None
