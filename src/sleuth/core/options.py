"""Named options with defaults and parsers, for games (``-o k=2``) and bots (``ismcts:c=0.5``)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sleuth.core.errors import OptionError
from sleuth.core.events import JSON
from sleuth.core.numbers import is_too_long, shorten, too_long


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, default, help text and a parser from text to value.

    ``parse`` receives either the text given by the user or an already typed value (from a
    log header) and returns the canonical value, raising ``ValueError`` with a reason.
    ``parse_canonical``, if given, accepts canonical values only and never touches the file
    system; it is used for options read from untrusted input such as a log header (a user may
    name a file on the command line, a log must not make Sleuth read one).
    ``file_values``, if given, tells which values name a file or folder (:meth:`names_file`).
    """

    name: str
    default: JSON
    help: str
    parse: Callable[[Any], JSON]
    parse_canonical: Callable[[Any], JSON] | None = None
    interactive_max: float | None = None
    """For a numeric option: the largest value allowed when a person waits for each move (the
    web app), chosen so that a move there takes seconds, not minutes; at least the default.
    None: the default is the largest (:func:`interactive_limit`).  The command line takes any
    value ``parse`` accepts."""
    file_values: Callable[[Any], bool] | None = None
    """For an option some of whose values name a file or folder (a Fox board's edge-list file,
    a Scotland Yard map folder): true for exactly the values that ``parse`` reads as a path,
    those whose parsing may look at the file system; None: no value does.  A value standing
    for the machine's own default (Scotland Yard's empty map: the folder its operator set in
    the environment, else the built-in board) names none.  A program that must not read the
    files its users name (the web app) refuses these values before anything is parsed
    (:meth:`names_file`)."""

    def names_file(self, value: Any) -> bool:
        """Whether ``value`` (a text, or a typed value as a log header gives it) names a file
        or folder: read without touching the file system (:attr:`file_values`)."""
        return self.file_values is not None and self.file_values(value)

    def __post_init__(self) -> None:
        limit = interactive_limit(self)
        if limit is not None and limit < self.default:
            raise ValueError(
                f"option {self.name}: interactive_max={self.interactive_max} is below the "
                f"default {self.default}, so the default itself would be refused in the web app"
            )


def parse_options(
    options: tuple[OptionSpec, ...], texts: Mapping[str, Any], owner: str, canonical: bool = False
) -> dict[str, JSON]:
    """Every option's value: from ``texts`` when given there, else its default.

    Unknown names and unparsable values raise :class:`OptionError` naming ``owner`` and the
    option.  With ``canonical=True`` options use their ``parse_canonical`` parser if they have one.
    """
    known = {o.name: o for o in options}
    for name in texts:
        if name not in known:
            listed = ", ".join(known) or "none"
            raise OptionError(f"unknown option {name!r} for {owner}; known options: {listed}")
    values: dict[str, JSON] = {}
    for option in options:
        raw = texts.get(option.name, option.default)
        parse = option.parse_canonical if canonical and option.parse_canonical else option.parse
        try:
            values[option.name] = parse(raw)
        except (ValueError, TypeError) as exc:
            shown = repr(shorten(raw, 60) if isinstance(raw, str) else raw)
            raise OptionError(f"option {option.name}={shown} of {owner}: {exc}") from exc
    return values


def interactive_limit(option: OptionSpec) -> float | None:
    """The largest value of ``option`` allowed when a person waits for each move: its
    :attr:`~OptionSpec.interactive_max`, else its default (an option that does not declare
    how far it may go may only make its bot cheaper); None for an option that is not numeric."""
    if isinstance(option.default, bool) or not isinstance(option.default, int | float):
        return None
    return option.default if option.interactive_max is None else option.interactive_max


def check_interactive(
    options: tuple[OptionSpec, ...], values: Mapping[str, JSON], owner: str
) -> None:
    """Raise :class:`OptionError` naming ``owner``, the option and its bound if a numeric value
    in ``values`` is over its :func:`interactive_limit`, or naming the option if its value
    names a file (:meth:`OptionSpec.names_file`: a program where a person waits for each move
    is the web app, which reads no files its users name; a ``ppo`` bot's model)."""
    for option in options:
        limit = interactive_limit(option)
        value = values.get(option.name)
        if option.names_file(value):
            raise OptionError(
                f"option {option.name}={str(value)[:200]!r} of {owner} names a file: the web "
                "app reads no files"
            )
        if limit is None or isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if value > limit:
            raise OptionError(
                f"option {option.name}={value} of {owner}: at most {limit_text(limit)} when a "
                "person waits for each move (the command line takes more)"
            )


def limit_text(limit: float) -> str:
    """An option's interactive limit as people read it, in the web app's refusals and on its
    new-game form alike: thousands separated, a whole float without its ``.0`` (``5000`` is
    "5,000", ``10.0`` is "10", ``0.5`` is "0.5"); an int's digits are exact at any size."""
    if isinstance(limit, float) and limit.is_integer():
        limit = int(limit)
    return f"{limit:,}"


def parse_bool(raw: Any) -> bool:
    """Parse true/false, yes/no, 1/0 (any case) or a bool."""
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    raise ValueError("expected true or false")


def parse_int(minimum: int) -> Callable[[Any], int]:
    """A parser for integers of at least ``minimum``."""

    def parse(raw: Any) -> int:
        if isinstance(raw, bool):
            raise ValueError("expected an integer")
        if isinstance(raw, str) and is_too_long(raw):
            raise ValueError(too_long(raw.strip()))
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise ValueError("expected an integer") from None
        if value < minimum:
            raise ValueError(f"must be at least {minimum}")
        return value

    return parse


def parse_float(minimum: float, maximum: float | None = None) -> Callable[[Any], float]:
    """A parser for numbers in ``[minimum, maximum]``."""

    def parse(raw: Any) -> float:
        if isinstance(raw, bool):
            raise ValueError("expected a number")
        try:
            value = float(raw)
        except (TypeError, ValueError):
            raise ValueError("expected a number") from None
        if not math.isfinite(value):
            raise ValueError("expected a finite number")
        if value < minimum:
            raise ValueError(f"must be at least {minimum:g}")
        if maximum is not None and value > maximum:
            raise ValueError(f"must be at most {maximum:g}")
        return value

    return parse


def parse_choice(choices: tuple[str, ...]) -> Callable[[Any], str]:
    """A parser for one of ``choices`` (case-insensitive; ``-`` reads as ``_``)."""

    def parse(raw: Any) -> str:
        text = str(raw).strip().lower().replace("-", "_")
        if text not in choices:
            raise ValueError(f"expected one of {', '.join(choices)}")
        return text

    return parse
