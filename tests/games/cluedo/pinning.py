"""Helpers of the pinning tests (``test_velma_pinned.py``, ``test_sleuth_pinned.py``): seeded
games whose every decision was recorded from the code before a speed-up, replayed after it."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sleuth.core.events import View


def digest(*parts: bytes) -> str:
    """A short hash of ``parts``, each length-prefixed (so that splitting them differently
    changes it)."""
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(8, "little"))
        h.update(part)
    return h.hexdigest()[:16]


@contextmanager
def recording(player_class: Any, record: Callable[[Any, Hashable], None]) -> Iterator[None]:
    """While inside, every ``player_class.act`` calls ``record(player, action)`` after
    deciding; the method is restored on leaving, also after an error."""
    act = player_class.act

    def recorded(self: Any, view: View, legal: Sequence[Hashable]) -> Hashable:
        action: Hashable = act(self, view, legal)
        record(self, action)
        return action

    player_class.act = recorded
    try:
        yield
    finally:
        player_class.act = act


def first_difference(got: list[Any], want: list[Any]) -> str:
    """Where two recordings part, for the assertion message."""
    for i, (a, b) in enumerate(zip(got, want, strict=False)):
        if a != b:
            return f"first difference at {i}: {a} != {b}"
    return f"lengths {len(got)} != {len(want)}"
