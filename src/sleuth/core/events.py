"""Events, their visibility, and the per-seat views built from them.

Every state change a rules engine makes is described by one or more :class:`Event`.  An event
is always known to exist by every seat (board games have no secret turns); its ``public`` fields
are seen by everyone, its ``private`` fields only by the seats in ``audience``.  A seat's
:class:`View` is the sequence of events as that seat sees them: events whose audience excludes
the seat arrive with ``private`` set to ``None``.

Invariants:

* an event's ``public`` and ``private`` mappings are read-only, and engines put only immutable
  values in them (numbers, strings, tuples);
* ``private is None`` if and only if the event carries no secret (or it is a redacted copy);
* an event with a secret has a non-empty ``audience``;
* :meth:`Event.seen_by` never reveals a private field to a seat outside the audience.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

JSON = Any
"""A value that :func:`json.dumps` accepts (dicts, lists, str, int, float, bool, None)."""


_SCALARS = (int, str, float, bool, type(None))
_NOTHING: Mapping[str, Any] = MappingProxyType({})
"""An event's public fields when it has none (read-only, so one object serves every event)."""


def freeze(value: JSON) -> JSON:
    """A read-only copy of a JSON value: mappings become ``MappingProxyType``, lists tuples."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, dict | MappingProxyType):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        if all(isinstance(v, _SCALARS) for v in value):
            return tuple(value)
        return tuple(freeze(v) for v in value)
    if isinstance(value, Mapping):
        return MappingProxyType({k: freeze(v) for k, v in value.items()})
    return value


def thaw(value: JSON) -> JSON:
    """The plain JSON form (dicts and lists) of a value made by :func:`freeze`."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """One thing that happened in a game, with who may see which part of it.

    ``kind`` names the event (``"inspected"``), ``public`` holds what every seat learns,
    ``private`` what only the seats in ``audience`` learn.
    """

    kind: str
    public: Mapping[str, JSON] = field(default_factory=dict)
    private: Mapping[str, JSON] | None = None
    audience: frozenset[int] = frozenset()

    def __init__(
        self,
        kind: str,
        public: Mapping[str, JSON] = _NOTHING,
        private: Mapping[str, JSON] | None = None,
        audience: frozenset[int] = frozenset(),
    ) -> None:
        if private is not None and not audience:
            raise ValueError(f"event {kind!r} has a secret but no audience")
        # Views of several seats and the match record share one event: its fields are made
        # read-only so that no bot can change what another seat sees or what the log records.
        # (Values inside must be immutable too: engines emit tuples, not lists.)  Each field
        # is set once (an engine makes an event per action: this is on its hot path).
        setter = object.__setattr__
        setter(self, "kind", kind)
        setter(self, "public", MappingProxyType(public) if type(public) is dict else public)
        setter(self, "private", MappingProxyType(private) if type(private) is dict else private)
        setter(self, "audience", audience)

    def seen_by(self, seat: int) -> Event:
        """The event as ``seat`` sees it: private fields removed unless the seat may see them."""
        if self.private is None or seat in self.audience:
            return self
        return Event(self.kind, self.public, None, self.audience)

    def to_json(self) -> dict[str, JSON]:
        """A JSON object for logs; :meth:`from_json` inverts it."""
        out: dict[str, JSON] = {"kind": self.kind, "public": thaw(self.public)}
        if self.private is not None:
            out["private"] = thaw(self.private)
        if self.audience:
            out["to"] = sorted(self.audience)
        return out

    @staticmethod
    def from_json(obj: Mapping[str, JSON]) -> Event:
        """Rebuild an event written by :meth:`to_json`."""
        private = obj.get("private")
        return Event(
            kind=str(obj["kind"]),
            public=dict(obj.get("public", {})),
            private=None if private is None else dict(private),
            audience=frozenset(int(s) for s in obj.get("to", ())),
        )


@dataclass(frozen=True)
class View:
    """What one seat knows: the public facts about the game and the events it has seen.

    ``events`` grows as the match goes on (the match runner appends to it); a bot that keeps
    an incremental belief remembers how many events it has already read.
    """

    seat: int
    role: str
    game_info: Mapping[str, JSON]
    events: Sequence[Event]
