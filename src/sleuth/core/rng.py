"""Seeded randomness.

Every random choice in Sleuth comes from a seed derived from a master seed and a path of
labels, so that results never depend on the order in which games run or on the number of
worker processes.  ``derive_seed(s, "game", 7)`` is the seed of game 7 of a run with master
seed ``s``; inside a match, ``derive_seed(game_seed, "bot", seat)`` and
``derive_seed(game_seed, "chance")`` seed the bots and the chance events, and a bot's decision
at a view of ``n`` events draws from ``derive_seed(bot_seed, "decision", n)``
(:meth:`sleuth.core.bots.Bot.ask`).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

SEED_BITS = 63


def derive_seed(master: int, *labels: object) -> int:
    """A 63-bit seed determined by ``master`` and ``labels`` (stable across runs and machines)."""
    text = ":".join([str(int(master)), *map(str, labels)])
    digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> (64 - SEED_BITS)


def derive_last(master: int, label: str, last: int) -> int:
    """``derive_seed(master, label, last)``, hashing ``master:label:`` once for every call
    that shares it (a bot's decisions differ only by their number): the same seeds, for
    about half the cost."""
    hasher = _prefix(master, label).copy()
    hasher.update(str(last).encode())
    return int.from_bytes(hasher.digest(), "big") >> (64 - SEED_BITS)


@lru_cache(maxsize=1024)
def _prefix(master: int, label: str) -> hashlib.blake2b:
    """A hasher fed ``master:label:``, the text :func:`derive_seed` starts with (copied,
    never updated in place)."""
    return hashlib.blake2b(f"{int(master)}:{label}:".encode(), digest_size=8)
