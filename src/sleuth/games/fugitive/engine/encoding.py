"""A fixed-size encoding of Fugitive actions as integer ids, with legal-action masks.

A Fugitive action can be huge (a hideout with any subset of a 20-card hand as sprint cards, a
guess naming any set of 41 numbers), so one id per action is out of the question.  Instead an
action is a short *sequence* of ids from a space of :data:`ACTION_COUNT`, built step by step;
at every step the mask says which ids may come next, and every id the mask allows can be
completed to a legal action (no dead ends).  Each action has exactly one sequence:

=================  ======================  =========================================
ids                text                    meaning
=================  ======================  =========================================
0-2                ``draw 1``..``draw 3``  one step: take the next card of that pile
3                  ``pass``                one step
4, 5               ``bonus``/``no bonus``  one step (2nd edition, after a pass)
6                  ``skip``                one step: the Marshal guesses nothing
7-48               ``hideout 1``..``42``   starts a placement
49-89              ``sprint 1``..``41``    adds a sprint card, in increasing order
90-130             ``name 1``..``41``      adds a number to a guess, in increasing order
131                ``done``                ends a placement or a guess
132-174            ``card 0``..``card 42`` one step: chance turns up that card
=================  ======================  =========================================

So ``hideout 9 sprint 4 6`` is ``[15, 52, 54, 131]`` and ``guess 12 15`` is ``[101, 104,
131]``.  Every id has a text form that parses back (:func:`id_text`, :func:`parse_id`), and
:func:`encode` and :func:`decode` are inverse on actions.

:class:`ActionBuilder` holds the steps chosen so far in one position.  Its mask uses only what
the player to move knows (her own hand, the public face-up cards).  The Marshal's guess mask
can be narrowed further to ``possible``: numbers that some consistent world makes a face-down
hideout (the source's points 1-3, and the exact belief's candidate union is the sharpest such
set).  Naming one of the others is a sure miss, so an RL agent need never learn to avoid them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from sleuth.core.encoding import ActionBuilder as CoreActionBuilder
from sleuth.core.errors import ActionParseError, IllegalActionError
from sleuth.core.game import CHANCE, TERMINAL
from sleuth.core.numbers import whole_number
from sleuth.games.fugitive.engine.actions import (
    NO_BONUS,
    PASS,
    SKIP,
    TAKE_BONUS,
    Card,
    Draw,
    FugitiveAction,
    Guess,
    Place,
)
from sleuth.games.fugitive.engine.cards import GUESSABLE, LAST, SPRINT, cards_of
from sleuth.games.fugitive.engine.moves import Placements
from sleuth.games.fugitive.rules import FUGITIVE, FugitiveState, Phase

DRAW = 0
"""``DRAW + p - 1``: draw from pile ``p``."""
PASS_ID, BONUS_ID, NO_BONUS_ID, SKIP_ID = 3, 4, 5, 6
HIDEOUT = 7
"""``HIDEOUT + h - 1``: start placing hideout ``h`` (1-42)."""
SPRINT_CARD = 49
"""``SPRINT_CARD + c - 1``: add sprint card ``c`` (1-41)."""
NAME = 90
"""``NAME + n - 1``: add number ``n`` (1-41) to the guess."""
DONE = 131
CARD = 132
"""``CARD + c``: chance turns up card ``c`` (0-42)."""
ACTION_COUNT = 175

_SINGLE: dict[int, FugitiveAction] = {
    PASS_ID: PASS,
    BONUS_ID: TAKE_BONUS,
    NO_BONUS_ID: NO_BONUS,
    SKIP_ID: SKIP,
}
_SINGLE_TEXT = {PASS_ID: "pass", BONUS_ID: "bonus", NO_BONUS_ID: "no bonus", SKIP_ID: "skip"}
_RANGES = (  # word, first id, first value, last value
    ("draw", DRAW, 1, 3),
    ("hideout", HIDEOUT, 1, 42),
    ("sprint", SPRINT_CARD, 1, 41),
    ("name", NAME, 1, 41),
    ("card", CARD, 0, 42),
)


def id_text(action_id: int) -> str:
    """The text form of one id (``draw 2``, ``hideout 9``, ``sprint 4``, ``done``, ...)."""
    if action_id in _SINGLE_TEXT:
        return _SINGLE_TEXT[action_id]
    if action_id == DONE:
        return "done"
    for word, first, low, high in _RANGES:
        if first <= action_id <= first + high - low:
            return f"{word} {action_id - first + low}"
    raise ActionParseError(f"{action_id} is not an action id (0-{ACTION_COUNT - 1})")


def parse_id(text: str) -> int:
    """The id whose text form is ``text``."""
    words = text.lower().split()
    joined = " ".join(words)
    for action_id, name in _SINGLE_TEXT.items():
        if joined == name:
            return action_id
    if joined == "done":
        return DONE
    for word, first, low, high in _RANGES:
        if len(words) == 2 and words[0] == word and words[1].isascii() and words[1].isdigit():
            value = whole_number(words[1])
            if low <= value <= high:
                return first + value - low
            raise ActionParseError(f"{text!r}: {word} takes {low}-{high}")
    raise ActionParseError(
        f"{text!r} is not an action id's text (draw 2, pass, bonus, no bonus, skip, hideout 9, "
        "sprint 4, name 12, done, card 17)"
    )


def encode(action: FugitiveAction) -> tuple[int, ...]:
    """The id sequence of ``action`` (sprint cards and named numbers in increasing order)."""
    if isinstance(action, Draw):
        return (DRAW + action.pile - 1,)
    if isinstance(action, Card):
        return (CARD + action.card,)
    if isinstance(action, Place):
        sprints = tuple(SPRINT_CARD + c - 1 for c in action.sprints)
        return (HIDEOUT + action.hideout - 1, *sprints, DONE)
    if isinstance(action, Guess):
        return (*(NAME + n - 1 for n in action.numbers), DONE)
    for action_id, single in _SINGLE.items():
        if action == single:
            return (action_id,)
    raise ActionParseError(f"{action!r} is not a Fugitive action")


def _increasing(ids: Sequence[int], low: int, high: int) -> bool:
    """Whether ``ids`` are strictly increasing and all in ``range(low, high)``."""
    return all(low <= i < high for i in ids) and all(a < b for a, b in pairwise(ids))


def decode(ids: Sequence[int]) -> FugitiveAction:
    """The action whose id sequence is ``ids`` (the inverse of :func:`encode`)."""
    shown = " ".join(id_text(i) for i in ids)  # rejects ids out of range, naming them
    if len(ids) == 1 and ids[0] in _SINGLE:
        return _SINGLE[ids[0]]
    if len(ids) == 1 and ids[0] < HIDEOUT:
        return Draw(ids[0] - DRAW + 1)
    if len(ids) == 1 and ids[0] >= CARD:
        return Card(ids[0] - CARD)
    if len(ids) >= 2 and ids[-1] == DONE:
        head, middle = ids[0], ids[1:-1]
        if HIDEOUT <= head < SPRINT_CARD and _increasing(middle, SPRINT_CARD, NAME):
            return Place(head - HIDEOUT + 1, tuple(i - SPRINT_CARD + 1 for i in middle))
        if _increasing(ids[:-1], NAME, DONE):
            return Guess(tuple(i - NAME + 1 for i in ids[:-1]))
    raise ActionParseError(
        f"{shown!r} is not an action's id sequence (a single step; or hideout, sprints in "
        "increasing order, done; or names in increasing order, done)"
    )


class ActionBuilder(CoreActionBuilder[FugitiveAction]):
    """The ids chosen so far towards the next action in ``state``, and what may follow (the
    core's :class:`~sleuth.core.encoding.ActionBuilder`, so the ``sleuth.envs`` adapters step
    it).

    Invariants: every id in :meth:`legal_ids` extends the prefix towards at least one legal
    action, and the legal actions reachable this way are exactly ``state.legal_actions()``
    (restricted to guesses of ``possible`` numbers when it is given).  The state is read, never
    changed; build a new builder after applying an action.  The ids that may follow a prefix
    are worked out once (kept until the prefix changes), a listed phase's id sequences once
    per builder.
    """

    def __init__(self, state: FugitiveState, possible: Iterable[int] | None = None) -> None:
        self.state = state
        self.possible = None if possible is None else frozenset(possible)
        """A sound superset of the face-down hideouts' values, or None for no narrowing."""
        self.prefix: list[int] = []
        self._next: list[int] | None = None
        """:meth:`legal_ids` after the prefix, once worked out (None: not yet)."""
        self._listed: list[tuple[int, ...]] | None = None
        """The id sequences of the listed legal actions (the opening's), once encoded."""

    def legal_ids(self) -> list[int]:
        """The ids that may come next, in increasing order."""
        if self._next is None:
            self._next = self._legal_ids()
        return list(self._next)

    def _legal_ids(self) -> list[int]:
        state = self.state
        player = state.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [CARD + a.card for a in state.legal_actions() if isinstance(a, Card)]
        if state.draws_due:
            return [DRAW + a.pile - 1 for a in state.legal_actions() if isinstance(a, Draw)]
        if state.phase is Phase.BONUS:
            return [BONUS_ID, NO_BONUS_ID]
        if state.phase is Phase.OPENING:
            return self._listed_next(state.legal_actions())
        if state.phase is Phase.FUGITIVE_PLACE:
            return self._placement_next()
        return self._guess_next()

    def mask(self) -> npt.NDArray[np.bool_]:
        """:meth:`legal_ids` as a boolean vector of length :data:`ACTION_COUNT`."""
        out = np.zeros(ACTION_COUNT, dtype=np.bool_)
        out[self.legal_ids()] = True
        return out

    def push(self, action_id: int) -> FugitiveAction | None:
        """Add one id; return the action once it is complete (the prefix then starts over).

        An id the mask does not allow raises :class:`IllegalActionError` and changes nothing.
        """
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
        self.prefix.append(action_id)
        self._next = None
        starts_more = HIDEOUT <= action_id < SPRINT_CARD or NAME <= action_id < DONE
        if action_id == DONE or (len(self.prefix) == 1 and not starts_more):
            action = decode(self.prefix)
            self.prefix = []
            return action
        return None

    def ids_of(self, action: FugitiveAction) -> tuple[int, ...]:
        """The ids that build the legal ``action`` from an empty prefix (:func:`encode`);
        an action this builder cannot reach raises :class:`IllegalActionError` naming it."""
        if not self.state.is_legal(action):
            reason = self.state.illegal_reason(action)
            raise IllegalActionError(f"{action}: not a legal action here ({reason})")
        if isinstance(action, Guess) and self.possible is not None:
            ruled_out = [n for n in action.numbers if n not in self.possible]
            if ruled_out:
                shown = ", ".join(map(str, ruled_out))
                raise IllegalActionError(f"{action}: {shown} not possible (the mask's narrowing)")
        return encode(action)

    def pop(self) -> int:
        """Take back the last id (an :class:`IndexError` when there is none)."""
        action_id = self.prefix.pop()
        self._next = None
        return action_id

    # --- what may come next -----------------------------------------------------------------

    def _listed_next(self, actions: Iterable[FugitiveAction]) -> list[int]:
        """The next ids of the listed actions whose sequences start with the prefix."""
        if self._listed is None:
            self._listed = [encode(action) for action in actions]
        depth = len(self.prefix)
        follow = set()
        for ids in self._listed:
            if len(ids) > depth and list(ids[:depth]) == self.prefix:
                follow.add(ids[depth])
        return sorted(follow)

    def _placement_next(self) -> list[int]:
        state = self.state
        hand = cards_of(state.hands[FUGITIVE])
        last = state.last_hideout
        if not self.prefix:
            return [PASS_ID] + [HIDEOUT + h - 1 for h in Placements(hand, last).hideouts()]
        hideout = self.prefix[0] - HIDEOUT + 1
        chosen = [i - SPRINT_CARD + 1 for i in self.prefix[1:]]
        need = hideout - last - 3 - sum(SPRINT[c] for c in chosen)
        floor = chosen[-1] if chosen else 0
        later = [c for c in hand if c > floor and c not in (hideout, LAST) and SPRINT[c]]
        out = []
        above = sum(SPRINT[c] for c in later)  # footprints of the cards above the last one taken
        for c in later:
            above -= SPRINT[c]
            if SPRINT[c] + above >= need:  # taking c leaves only the cards above c to add
                out.append(SPRINT_CARD + c - 1)
        if need <= 0:
            out.append(DONE)
        return out

    def _guess_next(self) -> list[int]:
        state = self.state
        if state.phase is Phase.MANHUNT and self.prefix:
            return [DONE]
        face_up = state.face_up_numbers()
        floor = self.prefix[-1] - NAME + 1 if self.prefix else 0
        numbers = [n for n in GUESSABLE if n > floor and n not in face_up]
        if self.possible is not None:
            numbers = [n for n in numbers if n in self.possible]
        out = [NAME + n - 1 for n in numbers]
        if self.prefix:
            out.append(DONE)
        elif state.phase is Phase.MARSHAL_GUESS and state.game.marshal_may_skip:
            out.insert(0, SKIP_ID)
        return out
