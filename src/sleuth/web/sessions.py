"""The browser session of each request: the ``sleuth_session`` cookie.

Every request but a static file's belongs to a browser session, whose id the app reads in
``request.state.session``.  Static files need no session and are served without one.  A
request without a known session gets a fresh unguessable id that is stored only when the
request creates a record (:meth:`Store.create` stores the session with it); only then does the
response set the cookie (HttpOnly, SameSite=Lax).  Until then the fresh session owns nothing:
its lists are empty and its reads 404, exactly as a stored session without records, so a
cookie-less page view stores nothing.  A known session is marked seen (:meth:`Store.touch`);
first, when a sweep is due, idle sessions are forgotten.

:class:`SessionCookie` is plain ASGI middleware: it passes the response through as it comes
(Starlette's ``BaseHTTPMiddleware`` copies every response through a stream of its own, a cost
paid by every request).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import cookie_parser
from starlette.responses import Response

from sleuth.web.limits import ASGIApp, Message, Receive, Send
from sleuth.web.store import Store, new_id

COOKIE = "sleuth_session"
SAFE = ("GET", "HEAD", "OPTIONS")
"""Methods that create nothing, so their answer never sets the cookie."""


class SessionCookie:
    """ASGI middleware putting the browser session's id in ``request.state.session`` (and
    the cookie of a new session that the request stored in the response)."""

    def __init__(self, app: ASGIApp, store: Store) -> None:
        self.app = app
        self.store = store

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"].startswith("/static/"):
            await self.app(scope, receive, send)
            return
        store = self.store
        if store.sweep_due():
            await run_in_threadpool(store.forget_idle)
        session = _cookie(scope)
        known = bool(session) and await run_in_threadpool(store.touch, session)
        if not known:
            session = new_id()
        scope.setdefault("state", {})["session"] = session
        if known or scope["method"] in SAFE:
            await self.app(scope, receive, send)
            return

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start" and await run_in_threadpool(
                store.has_session, session
            ):
                message = {**message, "headers": [*message.get("headers", []), _set(session)]}
            await send(message)

        await self.app(scope, receive, with_cookie)


def _cookie(scope: MutableMapping[str, Any]) -> str:
    """The session cookie the request sent ("" when none), read as Starlette reads cookies
    (every ``Cookie`` header, the last one naming it winning)."""
    cookies: dict[str, str] = {}
    for name, value in scope.get("headers") or []:
        if name == b"cookie":
            cookies.update(cookie_parser(value.decode("latin-1")))
    return cookies.get(COOKIE, "")


def _set(session: str) -> tuple[bytes, bytes]:
    """The ``Set-Cookie`` header of ``session`` (as Starlette's ``set_cookie`` writes it)."""
    response = Response()
    response.set_cookie(COOKIE, session, httponly=True, samesite="lax", max_age=10 * 365 * 86400)
    return response.raw_headers[-1]
