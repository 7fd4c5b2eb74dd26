"""Whole numbers in text a person typed: an entry at the table, a game option, a list of
stations on the command line.

Every parser of typed text reads its numbers with :func:`whole_number`, so that no text ends a
session with an error of Python's own: ``str.isdigit`` accepts ``'²'``, which ``int`` refuses,
and ``int`` refuses more than 4,300 digits with a ``ValueError`` that names no culprit (and
takes time that grows with the square of the length below that).
"""

from __future__ import annotations

from sleuth.core.errors import NumberTextError

MAX_DIGITS = 30
"""The most digits a typed number may have: more than any count, station, card, space or
seed of a game needs (a 64-bit seed has 20)."""


def whole_number(word: str) -> int:
    """The value of ``word`` written in the digits 0-9 (no sign, no spaces), at most
    :data:`MAX_DIGITS` of them; a :class:`~sleuth.core.errors.NumberTextError` naming the word
    otherwise (``"042"`` is 42)."""
    if not (word.isascii() and word.isdigit()):
        raise NumberTextError(f"{shorten(word)!r} is not a whole number (digits 0-9)")
    if len(word) > MAX_DIGITS:
        raise NumberTextError(too_long(word))
    return int(word)


def too_long(text: str) -> str:
    """The refusal of a number written with more than :data:`MAX_DIGITS` digits."""
    digits = sum(c.isdigit() for c in text)
    return f"{shorten(text)!r} ({digits:,} digits) is too long a number (at most {MAX_DIGITS})"


def is_too_long(text: str) -> bool:
    """Whether ``text`` has more digits than a number Sleuth reads (:data:`MAX_DIGITS`)."""
    return sum(c.isdigit() for c in text) > MAX_DIGITS


def shorten(text: str, keep: int = 20) -> str:
    """``text``, or its first ``keep`` characters and ``...`` when it is longer (a refusal
    names a culprit of thousands of characters by its start)."""
    return text if len(text) <= keep else text[:keep] + "..."
