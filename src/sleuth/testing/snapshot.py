"""Full snapshots of a game state, to tell whether anything in it changed.

A snapshot flattens a state into ``{path: value}``: every attribute (``__slots__`` and
``__dict__``, through nested objects, lists, tuples, dicts and sets) down to its scalar leaves,
for example ``{"money[2]": 3, "route[1].value": 17, ...}``.  Two snapshots are equal exactly
when the two states hold equal data, and :func:`difference` names the first path that differs.

Conventions (they are what the conformance kit expects of a state):

* attributes whose name starts with ``_`` are caches of values derived from the others
  (``_legal``, the listed legal actions) and are left out: a cache may be filled by a query
  and emptied by a clone without the state changing;
* the state's :class:`~sleuth.core.game.Game` is immutable and shared: it is recorded by its
  name and options, not walked.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import Any

from sleuth.core.game import Game

Snapshot = dict[str, Any]

_SCALARS = (int, float, str, bytes, bool, type(None))


def snapshot(state: object) -> Snapshot:
    """Every piece of data in ``state`` by its path (see the module docstring)."""
    out: Snapshot = {}
    _walk(state, "state", out, set())
    return out


def difference(before: Snapshot, after: Snapshot) -> str | None:
    """The first path whose value differs between two snapshots, as text; None if equal."""
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path, "<absent>"), after.get(path, "<absent>")
        if old != new or type(old) is not type(new):
            return f"{path} was {old!r}, is {new!r}"
    return None


def _attributes(value: object) -> list[tuple[str, Any]]:
    names: list[str] = []
    for cls in type(value).__mro__:
        slots = cls.__dict__.get("__slots__", ())
        names += [slots] if isinstance(slots, str) else list(slots)
    names += list(getattr(value, "__dict__", {}))
    return [
        (name, getattr(value, name))
        for name in dict.fromkeys(names)
        if not name.startswith("_") and hasattr(value, name)
    ]


def _walk(value: object, path: str, out: Snapshot, seen: set[int]) -> None:
    if isinstance(value, _SCALARS):
        out[path] = value
        return
    if isinstance(value, Enum):
        out[path] = f"{type(value).__name__}.{value.name}"
        return
    if isinstance(value, Game):
        out[path] = f"<game {value.name} {value.options()}>"
        return
    if id(value) in seen:
        out[path] = "<cycle>"
        return
    seen = seen | {id(value)}
    kind = type(value).__name__
    if isinstance(value, Mapping):
        out[path] = f"<{kind} of {len(value)}>"
        for key in sorted(value, key=repr):
            _walk(value[key], f"{path}[{key!r}]", out, seen)
    elif isinstance(value, list | tuple):
        out[path] = f"<{kind} of {len(value)}>"
        for index, item in enumerate(value):
            _walk(item, f"{path}[{index}]", out, seen)
    elif isinstance(value, set | frozenset):
        out[path] = f"<{kind} {sorted(map(repr, value))}>"
    else:
        attributes = _attributes(value)
        if not attributes:  # an opaque value: its text stands for it
            out[path] = f"<{kind} {value!r}>"
            return
        out[path] = f"<{kind}>"
        for name, item in attributes:
            _walk(item, f"{path}.{name}", out, seen)
