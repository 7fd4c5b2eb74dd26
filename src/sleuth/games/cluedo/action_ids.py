"""Cluedo's actions as integer ids for learning agents, with the builder of each action.

A suggestion or an accusation names three cards out of 324 triples, so it is built step by
step: its verb, then one ``name`` id per card (suspect, weapon, room).  Every other action is
one id.  The chance actions (the deal, the dice) need no ids: the episode draws them.

=========  ===================  ===============================================================
ids        text                 meaning
=========  ===================  ===============================================================
0-3        ``roll``,            one step each
           ``passage``,
           ``stay``, ``end``
4, 5       ``suggest``,         start a suggestion, an accusation
           ``accuse``
6-14       ``go Hall`` ..       one step: head for that room after a roll (rooms in card order)
           ``go Study``
15-35      ``show Scarlet`` ..  one step: show that card (cards in card order, C2)
           ``show Study``
36-56      ``Scarlet`` ..       name that card in the suggestion or accusation being built:
           ``Study``            the suspect, then the weapon, then the room
=========  ===================  ===============================================================

So ``accuse Plum Rope Kitchen`` is ``[5, 41, 45, 51]``.  A suggestion names its room too, though
only the room one is in may follow (one step with a single legal id): every action then has
exactly one sequence, and the texts of its ids joined by spaces are the action's own text form
(:func:`encode`, :func:`decode`, :func:`id_text`).

Invariants of :class:`CluedoActions`: every id of :meth:`~CluedoActions.legal_ids` extends the
prefix to at least one legal action of the state, and the actions reachable are exactly the
state's legal actions; :meth:`~CluedoActions.ids_of` gives a legal action's sequence
(:func:`encode`); a refused id, or an action that is not legal, raises
:class:`~sleuth.core.errors.IllegalActionError` and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from sleuth.core.encoding import ActionBuilder
from sleuth.core.errors import ActionParseError, IllegalActionError
from sleuth.core.game import CHANCE, TERMINAL, State
from sleuth.games.cluedo.actions import (
    END,
    PASSAGE,
    ROLL,
    STAY,
    Accuse,
    Action,
    Go,
    Show,
    Suggest,
)
from sleuth.games.cluedo.cards import CARD_COUNT, NAMES, ROOMS

ROLL_ID, PASSAGE_ID, STAY_ID, END_ID = 0, 1, 2, 3
SUGGEST_ID, ACCUSE_ID = 4, 5
GO = 6
"""``GO + room - 12``: head for ``room``."""
SHOW = GO + len(ROOMS)
"""``SHOW + card``: show ``card``."""
NAME = SHOW + CARD_COUNT
"""``NAME + card``: name ``card`` in the suggestion or accusation being built."""
ACTION_COUNT = NAME + CARD_COUNT

_SINGLE: dict[int, Action] = {ROLL_ID: ROLL, PASSAGE_ID: PASSAGE, STAY_ID: STAY, END_ID: END}
_SINGLE_ID = {action: action_id for action_id, action in _SINGLE.items()}
_VERBS = {SUGGEST_ID: "suggest", ACCUSE_ID: "accuse"}
_TRIPLE_TYPES: dict[int, type[Suggest | Accuse]] = {SUGGEST_ID: Suggest, ACCUSE_ID: Accuse}
_TRIPLE_KINDS = frozenset(_TRIPLE_TYPES.values())


def id_text(action_id: int) -> str:
    """The text of one id (``roll``, ``accuse``, ``go Kitchen``, ``show Rope``, ``Plum``)."""
    if action_id in _SINGLE:
        return str(_SINGLE[action_id])
    if action_id in _VERBS:
        return _VERBS[action_id]
    if GO <= action_id < SHOW:
        return f"go {NAMES[action_id - GO + ROOMS.start]}"
    if SHOW <= action_id < NAME:
        return f"show {NAMES[action_id - SHOW]}"
    if NAME <= action_id < ACTION_COUNT:
        return NAMES[action_id - NAME]
    raise ValueError(f"{action_id} is not a Cluedo action id (0-{ACTION_COUNT - 1})")


def encode(action: Action) -> tuple[int, ...]:
    """The id sequence of ``action`` (a seat's action: not the deal nor the dice)."""
    if isinstance(action, Go):
        return (GO + action.room - ROOMS.start,)
    if isinstance(action, Show):
        return (SHOW + action.card,)
    if isinstance(action, Suggest | Accuse):
        verb = SUGGEST_ID if isinstance(action, Suggest) else ACCUSE_ID
        return (verb, *(NAME + card for card in action.cards))
    if action in _SINGLE_ID:
        return (_SINGLE_ID[action],)
    raise ActionParseError(f"{action} is chance's, not a seat's: it has no action ids")


def decode(ids: Sequence[int]) -> Action:
    """The action whose id sequence is ``ids`` (the inverse of :func:`encode`)."""
    shown = " ".join(id_text(i) for i in ids)  # rejects ids out of range, naming them
    if len(ids) == 1 and ids[0] in _SINGLE:
        return _SINGLE[ids[0]]
    if len(ids) == 1 and GO <= ids[0] < SHOW:
        return Go(ids[0] - GO + ROOMS.start)
    if len(ids) == 1 and SHOW <= ids[0] < NAME:
        return Show(ids[0] - SHOW)
    if len(ids) == 4 and ids[0] in _VERBS and all(i >= NAME for i in ids[1:]):
        s, w, r = (i - NAME for i in ids[1:])
        try:
            return Suggest(s, w, r) if ids[0] == SUGGEST_ID else Accuse(s, w, r)
        except ValueError:
            pass
    raise ActionParseError(
        f"{shown!r} is not an action's id sequence (one step, or suggest or accuse followed by "
        "a suspect, a weapon and a room)"
    )


class CluedoActions(ActionBuilder[Action]):
    """The ids chosen so far towards the next action of a Cluedo state (module docstring)."""

    def __init__(self, state: State[Action]) -> None:
        self.prefix = []
        seat = state.current_player()
        legal = () if seat in (CHANCE, TERMINAL) else state.legal_actions()
        self._legal = legal
        self._single = {encode(a)[0]: a for a in legal if type(a) not in _TRIPLE_KINDS}
        kinds = {type(a) for a in legal}
        self._verbs = [verb for verb, kind in _TRIPLE_TYPES.items() if kind in kinds]
        self._triples: list[tuple[int, ...]] = []
        """The card triples of the legal actions of the verb chosen (once one is)."""

    def legal_ids(self) -> list[int]:
        if not self.prefix:
            return sorted([*self._single, *self._verbs])
        chosen = tuple(i - NAME for i in self.prefix[1:])
        depth = len(chosen)
        follow = {t[depth] for t in self._triples if t[:depth] == chosen}
        return [NAME + card for card in sorted(follow)]

    def push(self, action_id: int) -> Action | None:
        action_id = int(action_id)  # an agent's argmax is a NumPy integer
        legal = self.legal_ids()
        if action_id not in legal:
            name = id_text(action_id) if 0 <= action_id < ACTION_COUNT else str(action_id)
            so_far = " ".join(id_text(i) for i in self.prefix) or "nothing"
            allowed = ", ".join(id_text(i) for i in legal[:12])
            more = ", ..." if len(legal) > 12 else ""
            raise IllegalActionError(
                f"{name!r} cannot follow {so_far!r} here (allowed: {allowed or 'none'}{more})"
            )
        if not self.prefix and action_id in self._single:
            return self._single[action_id]
        if not self.prefix:
            kind = _TRIPLE_TYPES[action_id]
            self._triples = [a.cards for a in self._legal if isinstance(a, kind)]
        self.prefix.append(action_id)
        if len(self.prefix) < 4:
            return None
        action = decode(self.prefix)
        self.prefix = []
        return action

    def ids_of(self, action: Action) -> tuple[int, ...]:
        if action not in self._legal:
            raise IllegalActionError(f"{action}: not a legal action here")
        return encode(action)
