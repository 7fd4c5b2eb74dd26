"""The FastAPI application: sessions, templates, static files, error pages and the routers.

Every request but a static file's belongs to a browser session (:mod:`sleuth.web.sessions`):
the ``sleuth_session`` cookie (HttpOnly, SameSite=Lax) names it; a request without a known one
gets a fresh session, stored (and its cookie set) only when the request creates a game or
notepad. Sessions not seen for ``forget_after_days`` are forgotten with their records: when
the app starts, and on a request at most once an hour (:meth:`Store.sweep_due`).
Errors never leak a traceback: a :class:`~sleuth.core.errors.SleuthError` or a request that
fails validation is a 4xx with ``{"error": "..."}`` (a page when the browser asked for HTML),
and a record of another session is a 404 like an unknown one (a change that another process's
change of the same record kept beating is a 409). A request body over its bound
(:mod:`sleuth.web.limits`) is a 413 before anything else runs.
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

import sleuth
from sleuth.core.errors import SleuthError
from sleuth.web import assist, play
from sleuth.web import warm as warming
from sleuth.web.head import HeadAsGet
from sleuth.web.limits import BodyLimit
from sleuth.web.live import ChoiceError
from sleuth.web.pages import templates
from sleuth.web.sessions import COOKIE as COOKIE  # the cookie's name, read here too
from sleuth.web.sessions import SessionCookie
from sleuth.web.store import ConflictError, NotFoundError, Store

HERE = Path(__file__).parent


FORGET_AFTER_DAYS = 30.0
"""Days a browser session may go unused before it is forgotten with its games and notepads
(``sleuth serve --forget-after``)."""


def create_app(
    store: Path,
    forget_after_days: float | None = FORGET_AFTER_DAYS,
    clock: Callable[[], float] = time.time,
    warm: bool = False,
) -> FastAPI:
    """The web app keeping its sessions in the SQLite file ``store`` (created when missing),
    forgetting those unused for ``forget_after_days`` (None: never); ``clock`` is the store's
    time.  With ``warm`` (every process of ``sleuth serve``), the app loads every game when it
    starts, before it takes a request (:mod:`sleuth.web.warm`)."""
    app = FastAPI(
        title="Sleuth",
        version=sleuth.__version__,
        description="Play hidden-information board games against Sleuth's bots, and use its "
        "table-side assistants.",
        docs_url=None,  # FastAPI's own pages load their scripts from a CDN: /api lists the API
        redoc_url=None,
        lifespan=_warming if warm else None,
    )
    forget_after = None if forget_after_days is None else forget_after_days * 86400.0
    app.state.store = Store(store, forget_after, clock)
    play.install(app, app.state.store)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")
    app.include_router(play.router)
    app.include_router(assist.router)
    app.add_middleware(SessionCookie, store=app.state.store)
    app.add_middleware(BodyLimit)  # a body over its bound reaches nothing
    app.add_middleware(HeadAsGet)  # outermost: a HEAD is its GET, without the body
    app.add_exception_handler(SleuthError, _sleuth_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)

    @app.get("/", include_in_schema=False)
    def home(request: Request) -> Response:
        return templates.TemplateResponse(request, "home.html", play.home_context(request))

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        """The icon, for a browser that asks for it where no page names it (a JSON answer)."""
        return RedirectResponse("/static/favicon.svg", status_code=308)

    @app.get("/api", include_in_schema=False)
    def api_page(request: Request) -> Response:
        """The JSON API's endpoints, from the OpenAPI schema (served at /openapi.json), each
        with the first paragraph of its description on one line."""
        endpoints = [
            {"method": method.upper(), "path": path, "summary": op.get("summary", ""),
             "text": _first_paragraph(op.get("description") or "")}
            for path, operations in app.openapi()["paths"].items()
            for method, op in operations.items()
        ]  # fmt: skip
        return templates.TemplateResponse(request, "api.html", {"endpoints": endpoints})

    return app


STORE_VARIABLE = "SLEUTH_WEB_STORE"
FORGET_VARIABLE = "SLEUTH_WEB_FORGET_AFTER_DAYS"
FACTORY = "sleuth.web.app:app_from_environment"
"""What each process of ``sleuth serve --workers N`` imports and calls to build its app."""


def set_environment(store: Path, forget_after_days: float | None) -> None:
    """Put the app's settings where :func:`app_from_environment` reads them (the environment,
    which the worker processes inherit)."""
    os.environ[STORE_VARIABLE] = str(store)
    os.environ[FORGET_VARIABLE] = "" if forget_after_days is None else repr(forget_after_days)


def app_from_environment() -> FastAPI:
    """The app of one worker process of ``sleuth serve --workers N``: on the store and with the
        forgetting that :func:`set_environment` put in the environment (every worker on the one
        store file, which is safe for several processes: :mod:`sleuth.web.store`), loading every
    game before it takes a request."""
    days = os.environ.get(FORGET_VARIABLE, "")
    return create_app(Path(os.environ[STORE_VARIABLE]), float(days) if days else None, warm=True)


@asynccontextmanager
async def _warming(app: FastAPI) -> AsyncIterator[None]:
    """The app's life: every game loaded before the first request (:mod:`sleuth.web.warm`)."""
    await run_in_threadpool(warming.warm_games)
    yield


def _first_paragraph(docstring: str) -> str:
    """A docstring's first paragraph as one line of text (its ``code`` as `code`)."""
    return " ".join(docstring.split("\n\n")[0].split()).replace("``", "`")


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
"""The content types of a form a browser sends without a script."""


def _wants_html(request: Request) -> bool:
    """Whether the browser asked for a page: a page's GET, or a form sent without a script."""
    if "text/html" not in request.headers.get("accept", ""):
        return False
    sent = request.headers.get("content-type", "").split(";")[0].strip().lower()
    return request.method == "GET" or (request.method == "POST" and sent in FORM_TYPES)


def _error(request: Request, status: int, message: str, field: str | None = None) -> Response:
    """``{"error": message}`` (with ``"field"`` when a new game's choice is at fault), or a page
    with the message for a browser asking for a page."""
    if _wants_html(request):
        context = {"status": status, "message": message}
        return templates.TemplateResponse(request, "error.html", context, status_code=status)
    answer = {"error": message} if field is None else {"error": message, "field": field}
    return JSONResponse(answer, status_code=status)


async def _sleuth_error(request: Request, exc: Exception) -> Response:
    field = exc.field if isinstance(exc, ChoiceError) else None
    status = (
        404 if isinstance(exc, NotFoundError) else 409 if isinstance(exc, ConflictError) else 400
    )
    return _error(request, status, str(exc), field)


async def _validation_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, RequestValidationError)
    problems = []
    fields: set[str | None] = set()
    for error in exc.errors():
        if error.get("type") == "json_invalid":  # its loc is the body and the offset
            offset = error.get("loc", ("body", 0))[-1]
            reason = error.get("ctx", {}).get("error", "invalid")
            problems.append(f"malformed JSON at character {int(offset) + 1}: {reason}")
            fields.add(None)
            continue
        # where in the request: a body field, or a path or query parameter, by its own name
        where = [str(part) for part in error.get("loc", ())[1:]]
        fields.add(where[0] if where else None)
        text = ".".join(where) or "the request body"
        problems.append(f"{text}: {error.get('msg', 'invalid')}{_json_hint(request, where)}")
    blamed = fields.pop() if len(fields) == 1 else None  # the one field at fault, if one is
    return _error(request, 422, "; ".join(problems) or "invalid request", blamed)


def _json_hint(request: Request, where: list[str]) -> str:
    """For a problem with the body as a whole that was not sent as JSON, what to send."""
    sent = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if where or sent == "application/json":
        return ""
    return f" (send a JSON object as application/json{f', not {sent}' if sent else ''})"


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error(request, exc.status_code, str(exc.detail))
