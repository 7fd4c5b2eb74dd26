"""``sleuth serve``: the web app (the ``web`` extra), served by uvicorn.

FastAPI and uvicorn are imported only when the command runs, so ``sleuth --help`` and every
other command work without the extra; without it the command fails naming the install.
"""

from __future__ import annotations

import importlib.util
import threading
import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from sleuth.cli.common import console
from sleuth.core.errors import SleuthError

MISSING = (
    "the web app needs the web extra: pip install '.[web]' in the folder of Sleuth's "
    "pyproject.toml (a clone of its repository)"
)
WEB_MODULES = ("fastapi", "uvicorn", "jinja2", "python_multipart")
"""The modules of the web extra (python_multipart reads a form sent without scripts)."""


def serve_command(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port.")] = 8000,
    open_browser: Annotated[
        bool, typer.Option("--open", help="Open the page in the web browser.")
    ] = False,
    store: Annotated[
        Path | None,
        typer.Option(
            "--store",
            help="SQLite file keeping the browser sessions' games and notepads (default: in "
            "the user data folder).",
            show_default=False,
        ),
    ] = None,
    forget_after: Annotated[
        float,
        typer.Option(
            "--forget-after",
            min=0.0,
            metavar="DAYS",
            help="Forget the browser sessions unused for this many days, with their games and "
            "notepads (0: keep them for ever).",
        ),
    ] = 30.0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            help="Server processes sharing the store (one per core serves the most requests "
            "at once).",
        ),
    ] = 1,
) -> None:
    """Serve the web app: play every game against Sleuth's bots, use the assistants."""
    if any(importlib.util.find_spec(name) is None for name in WEB_MODULES):
        raise SleuthError(MISSING)
    import uvicorn

    from sleuth.web.app import FACTORY, create_app, set_environment
    from sleuth.web.store import default_store

    path = store if store is not None else default_store()
    # the store made or upgraded once, here; the app (one process) loads the games as it starts
    app = create_app(path, forget_after or None, warm=True)
    url = f"http://{host}:{port}/"
    processes = f", {workers} processes" if workers > 1 else ""
    console.print(f"Sleuth at {url} (sessions in {path}{processes}); Ctrl+C stops it")
    if open_browser:
        threading.Timer(1.0, webbrowser.open, [url]).start()  # once the server listens
    # the game pages' event streams stay open: Ctrl+C closes them after this many seconds
    if workers == 1:
        uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
        return
    set_environment(path, forget_after or None)  # each worker process builds its app from it
    uvicorn.run(
        FACTORY, factory=True, workers=workers, host=host, port=port, log_level="warning",
        timeout_graceful_shutdown=2,
    )  # fmt: skip
