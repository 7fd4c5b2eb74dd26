"""Live updates of a game's page: server-sent events, one stream per seat.

The stream sends the seat's answer (what ``GET /api/play/ID`` answers for that key) at once,
then again each time the stored game changes (a person's move, a bot's or chance's move, a seat
handed to a bot), and ends after the answer of a game that is over, or when the game is gone.
It reads the game's version from the store every :data:`POLL` seconds, so it sees the changes
that every process serving the store writes, and holds nothing meanwhile: no lock, no thread.
A comment line every :data:`HEARTBEAT` seconds of quiet keeps proxies from closing it.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from sleuth.web.store import Store

POLL = 0.2
"""Seconds between two looks at the game's version."""
HEARTBEAT = 15.0
"""Seconds of quiet after which a comment line is sent."""
RETRY_MS = 2000
"""How long a browser waits before it connects again after a lost stream (milliseconds)."""


def event_stream(
    store: Store, record: str, payload: Callable[[], dict[str, Any]]
) -> StreamingResponse:
    """The server-sent events of game ``record``: ``payload()`` (called in a worker thread)
    as each event's data, sent now and after each change of the stored game."""
    return StreamingResponse(
        _events(store, record, payload),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _events(
    store: Store, record: str, payload: Callable[[], dict[str, Any]]
) -> AsyncIterator[str]:
    seen: int | None = None
    quiet = 0.0
    yield f"retry: {RETRY_MS}\n\n"
    while True:
        version = await run_in_threadpool(store.version, record)
        if version is None:
            return
        if version != seen:
            seen, quiet = version, 0.0
            answer = await run_in_threadpool(payload)
            yield f"data: {json.dumps(answer)}\n\n"
            if answer["over"]:
                return
        elif quiet >= HEARTBEAT:
            quiet = 0.0
            yield ": still here\n\n"
        await asyncio.sleep(POLL)
        quiet += POLL
