"""A bound on request bodies, checked before anything reads or validates them.

A body longer than its bound is refused with 413 and ``{"error": "..."}`` before the app sees
the request (so nothing is stored); a declared ``Content-Length`` over the bound is refused
without reading the body at all. An uploaded view log (``POST .../load``) may take
:data:`UPLOAD_BYTES`; every other body (an action, an entry, a command, a new game's choices)
:data:`BODY_BYTES`.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from sleuth.web import assist_session as notes

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]

BODY_BYTES = 64 * 1024
"""Bytes of any request body but an upload's (an entry's text is at most 500 characters)."""
UPLOAD_BYTES = 2 * notes.MAX_LOG_TEXT + BODY_BYTES
"""Bytes of an upload's body: room for a log of the longest text allowed with its quotes
escaped in JSON (the text's own length is checked when the body is validated)."""


def body_limit(path: str) -> int:
    """The bound on the body of a request for ``path``."""
    return UPLOAD_BYTES if path.endswith("/load") else BODY_BYTES


class BodyLimit:
    """ASGI middleware reading each HTTP request's body (up to its bound) before the app runs,
    answering 413 when it is longer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = body_limit(scope["path"])
        declared = dict(scope.get("headers") or []).get(b"content-length", b"")
        # Compared by length first: int() refuses texts of more than 4,300 digits.
        digits = declared.lstrip(b"0")
        if declared.isdigit() and (len(digits) > len(str(limit)) or int(digits or b"0") > limit):
            await _too_large(send, limit)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _too_large(send, limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


async def _too_large(send: Send, limit: int) -> None:
    text = json.dumps({"error": f"the request body is too large: at most {limit} bytes"})
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(text)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": text.encode()})
