"""HEAD requests, answered as GET without the body.

FastAPI's routes answer only the methods they declare, so ``HEAD /play/new`` was a 405 and a
link checker (or ``curl -I``) took every page for broken.  :class:`HeadAsGet` runs a HEAD
request as the GET it stands for and sends its status and headers (``Content-Length``
included, as HTTP asks) with an empty body.  GET handlers change nothing that matters, so
the HEAD does not either.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from sleuth.web.limits import ASGIApp, Message, Receive, Send


class HeadAsGet:
    """ASGI middleware: a HEAD request is the GET request with the body left out."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)
