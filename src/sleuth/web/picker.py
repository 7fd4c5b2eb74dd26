"""The game page's tap picker: the human's action built one tap at a time.

A game whose actions are combinatorial (a Fugitive hideout with any set of sprint cards, a
Marshal's guess, a Cluedo accusation, a Scotland Yard double move) cannot list them all as
buttons.  Its :class:`~sleuth.core.encoding.Encoding` already builds each action from a short
sequence of ids, each with a text (``hideout 9``, ``sprint 4``, ``done``), and its
:class:`~sleuth.core.encoding.ActionBuilder` says which ids may follow the ones chosen: the
page offers those as buttons, and the tap that completes an action plays it.  A game with no
encoding gets one step per legal action (its text form), at most :data:`SHOWN` of them.

Invariants: every choice offered extends the prefix to at least one legal action (the
builder's own promise); a choice's ``action`` is set exactly when choosing it completes an
action, and is then that legal action's text form (which the game parses back); a prefix that
is not a path of the builder is a :class:`PickError` naming the first id at fault.  Only the
seat to move reads its legal actions, which its view already allows it to know.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass
from itertools import islice
from typing import Any

from sleuth.core.encoding import ActionBuilder, Encoding
from sleuth.core.errors import SleuthError
from sleuth.core.game import State
from sleuth.core.registry import GameSpec

SHOWN = 1000
"""At most this many choices are offered at one step (the text box takes any action)."""
LONGEST = 64
"""The most ids a prefix may hold (every built-in game's actions take at most 42)."""


class PickError(SleuthError, ValueError):
    """A prefix that cannot be read or does not lead towards a legal action."""


@dataclass(frozen=True)
class Choice:
    """One button of the picker: the id, its text, and the action it completes (None when
    more taps follow)."""

    id: int
    text: str
    action: str | None


@dataclass(frozen=True)
class Pick:
    """The picker after the ids of ``prefix`` (their texts are ``steps``): the ``choices`` that
    may follow, and how many more there are than are listed (``more``)."""

    prefix: tuple[int, ...]
    steps: tuple[str, ...]
    choices: tuple[Choice, ...]
    more: int

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


NOTHING = Pick((), (), (), 0)
"""The picker when the human is not to move."""


def parse_prefix(text: str) -> tuple[int, ...]:
    """The ids of a prefix written as ``15,52`` (empty: none); a PickError names a bad one."""
    if not text.strip():
        return ()
    parts = text.split(",")
    if len(parts) > LONGEST:
        raise PickError(f"pick: at most {LONGEST} ids, not {len(parts)}")
    ids = []
    for part in parts:
        word = part.strip()
        if not (word.isascii() and word.isdigit() and len(word) <= 6):
            raise PickError(f"pick: {part!r} is not an action id")
        ids.append(int(word))
    return tuple(ids)


def pick(spec: GameSpec, state: State[Any], prefix: Sequence[int] = ()) -> Pick:
    """The picker of the seat to move in ``state`` after the ids of ``prefix``."""
    if spec.encoding is None:
        return _listed(state.legal_actions(), prefix)
    encoding = spec.encoding_for(state.game)
    builder = _after(encoding, state, prefix)
    steps = tuple(encoding.id_text(i) for i in prefix)
    legal = builder.legal_ids()
    choices = []
    for action_id in legal[:SHOWN]:
        done = builder.push(action_id)
        choices.append(
            Choice(action_id, encoding.id_text(action_id), None if done is None else str(done))
        )
        if builder.prefix != list(prefix):  # the push went on, or an action started over
            builder = _after(encoding, state, prefix)
    return Pick(tuple(prefix), steps, tuple(choices), len(legal) - len(choices))


def _after(encoding: Encoding[Any], state: State[Any], prefix: Sequence[int]) -> ActionBuilder[Any]:
    """A fresh builder of ``state`` with the ids of ``prefix`` pushed, none completing."""
    builder = encoding.builder(state)
    for depth, action_id in enumerate(prefix):
        if action_id not in builder.legal_ids():
            so_far = " ".join(encoding.id_text(i) for i in prefix[:depth]) or "the start"
            raise PickError(f"pick: id {action_id} cannot follow {so_far} here")
        if builder.push(action_id) is not None:
            raise PickError(f"pick: id {action_id} completes an action, so nothing follows it")
    return builder


def _listed(legal: Sequence[Hashable], prefix: Sequence[int]) -> Pick:
    """A game without an encoding: one step per legal action, numbered in the game's order."""
    if prefix:
        raise PickError("pick: this game's actions take one step, so nothing follows it")
    choices = tuple(Choice(i, str(a), str(a)) for i, a in enumerate(islice(legal, SHOWN)))
    return Pick((), (), choices, len(legal) - len(choices))
