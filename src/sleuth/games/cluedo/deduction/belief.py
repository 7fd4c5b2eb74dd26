"""One seat's exact deduction over the Cluedo engine's events (the core's belief protocol).

A :class:`CluedoBelief` reads the events of one seat's view and keeps a
:class:`~.constraints.Knowledge` with the facts they give and the exact
:class:`~.counting.Posterior` of it:

* ``setup`` (E1, E3): the seats, hand sizes and face-up cards (K1-K3); ``hand`` (E2): the
  seat's own cards (K4: the private part of its own ``hand`` event; the others' say nothing);
* ``suggested`` opens a suggestion (E4); the seats after the suggester answer clockwise, each
  once, in order: ``passed`` (lacks all three, K5), then ``refuted`` (holds one of them, K6,
  and the card itself when the seat sees it, K7: the suggester learns it, the refuter knew
  it) or ``unrefuted`` (every other seat lacks all three, K8);
* ``accused``: a wrong accusation (E5: the envelope is not those three, K9), a right one (E6,
  K10), and for the accuser the envelope itself (K10); ``game_over``: the envelope shown to
  everyone (K10);
* ``rolled``, ``moved`` and ``ended`` (E7) say nothing about the cards: the knowledge and the
  posterior stay the very same objects (no counting).

Invariants: sound (the true deal is always possible: :meth:`CluedoBelief.admits`) and exact
(the posterior counts every consistent deal).  An event that no deal explains, or one out of
order, raises :class:`~sleuth.core.errors.ContradictionError` naming it
(``event 12 (refuted): ...``); the belief is unusable after that.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, cast

from sleuth.core.belief import contradiction, read_events
from sleuth.core.bitsets import mask_of
from sleuth.core.errors import ContradictionError
from sleuth.core.events import JSON, Event, View
from sleuth.core.game import Game, State
from sleuth.games.cluedo.deduction.constraints import CLASSIC, ENVELOPE, Infeasible, Knowledge
from sleuth.games.cluedo.deduction.counting import Deal, Posterior, Responder
from sleuth.games.cluedo.rules import CluedoGame, CluedoState

__all__ = ["CluedoBelief"]

SILENT = frozenset(("rolled", "moved", "ended"))
"""Events that teach nothing about the cards (E7)."""
KINDS = SILENT | {
    "setup",
    "hand",
    "suggested",
    "passed",
    "refuted",
    "unrefuted",
    "accused",
    "game_over",
}


class CluedoBelief:
    """The exact deduction of seat ``seat`` (``knowledge`` and ``posterior`` are None before
    ``setup``).  ``responder`` weighs the deals by how refuters choose their card (see
    :data:`~.counting.Responder`); ``compiled`` as for :class:`~.counting.Posterior`."""

    def __init__(
        self, seat: int, responder: Responder = "any", compiled: bool | None = None
    ) -> None:
        self.seat = seat
        self.responder: Responder = responder
        self.compiled = compiled
        """The counting's implementation (None: compiled when it can, see
        :class:`~.counting.Posterior`)."""
        self.knowledge: Knowledge | None = None
        self._posterior: Posterior | None = None
        self.read = 0
        self.over = False
        """True once ``game_over`` has been read."""
        self._asking: tuple[int, tuple[int, ...], int] | None = None
        """The open suggestion: (suggester, its three cards, the next seat to answer)."""

    @classmethod
    def from_view(cls, game: Game[Any], view: View) -> CluedoBelief:
        """The belief of ``view.seat`` after every event of ``view`` (the core's protocol)."""
        if not isinstance(game, CluedoGame):
            raise TypeError(f"a CluedoBelief needs a Cluedo game, not {game.name}")
        belief = cls(view.seat)
        read_events(belief, view.events)
        return belief

    @property
    def events_read(self) -> int:
        return self.read

    @property
    def posterior(self) -> Posterior:
        """The exact posterior after the events read."""
        if self._posterior is None:
            raise ValueError("the game has not been set up: nothing to deduce yet")
        return self._posterior

    def update(self, event: Event) -> None:
        """Read the seat's next event; raises ``ContradictionError`` naming it when no deal
        explains it."""
        index, self.read = self.read, self.read + 1
        try:
            self._read(event)
        except (ContradictionError, Infeasible) as exc:
            raise contradiction(index, event, str(exc)) from None
        except (KeyError, TypeError, ValueError) as exc:
            raise contradiction(index, event, f"malformed event: {exc!r}") from None

    # --- reading events -------------------------------------------------------------------

    def _read(self, event: Event) -> None:
        kind = event.kind
        if kind not in KINDS:
            raise ContradictionError(f"unknown event kind (known: {', '.join(sorted(KINDS))})")
        if self.over:
            raise ContradictionError("the game is over")
        public = event.public
        if kind == "setup":
            self._setup(public)
            return
        knowledge = self.knowledge
        if knowledge is None:
            raise ContradictionError("the game has not been set up")
        if kind in SILENT:
            return
        if self._asking is not None and kind not in ("passed", "refuted", "unrefuted"):
            raise ContradictionError("the last suggestion has not been answered")
        if kind == "hand":
            knowledge = self._hand(knowledge, public, event.private)
        elif kind == "suggested":
            self._suggested(knowledge, public)
            return
        elif kind in ("passed", "refuted", "unrefuted"):
            knowledge = self._answer(knowledge, kind, public, event.private)
        elif kind == "accused":
            knowledge = self._accused(knowledge, public, event.private)
        else:
            knowledge = knowledge.with_has(ENVELOPE, mask_of(_cards(public["envelope"])))
            self.over = True
        self._learn(knowledge)

    def _learn(self, knowledge: Knowledge) -> None:
        """Take the new knowledge if some deal satisfies it (else Infeasible propagates); the
        last posterior's tables serve again when the counting problem has not changed."""
        if knowledge != self.knowledge:
            last = self._posterior
            self._posterior = Posterior(knowledge, self.responder, self.compiled, last)
            self.knowledge = knowledge

    def _setup(self, public: Mapping[str, JSON]) -> None:
        if self.knowledge is not None:
            raise ContradictionError("the game has been set up already")
        players = int(public["players"])
        sizes = tuple(int(h) for h in public["hand_sizes"])
        if len(sizes) != players or not 0 <= self.seat < players:
            raise ContradictionError(f"{len(sizes)} hand sizes for {players} seats")
        self._learn(Knowledge(sizes, table=mask_of(_cards(public["face_up"]))))

    def _hand(
        self, knowledge: Knowledge, public: Mapping[str, JSON], private: Mapping[str, JSON] | None
    ) -> Knowledge:
        seat = _seat(knowledge, public["seat"])
        if seat != self.seat:
            return knowledge
        if private is None:
            raise ContradictionError("the seat's own hand is hidden from it")
        cards = _cards(private["cards"])
        if len(set(cards)) != knowledge.hand_sizes[seat]:
            raise ContradictionError(
                f"{len(set(cards))} cards in a hand of {knowledge.hand_sizes[seat]}"
            )
        return knowledge.with_has(seat, mask_of(cards))

    def _suggested(self, knowledge: Knowledge, public: Mapping[str, JSON]) -> None:
        seat = _seat(knowledge, public["seat"])
        triple = _cards((public["suspect"], public["weapon"], public["room"]))
        if [knowledge.deck.category(c) for c in triple] != [0, 1, 2]:
            raise ContradictionError("a suggestion names a suspect, a weapon and a room")
        self._asking = (seat, triple, (seat + 1) % knowledge.players)

    def _answer(
        self,
        knowledge: Knowledge,
        kind: str,
        public: Mapping[str, JSON],
        private: Mapping[str, JSON] | None,
    ) -> Knowledge:
        if self._asking is None:
            raise ContradictionError("no suggestion is open")
        suggester, triple, expected = self._asking
        cards = mask_of(triple)
        n = knowledge.players
        if kind == "unrefuted":
            self._asking = None
            for seat in range(n):
                if seat != suggester:
                    knowledge = knowledge.with_lacks(seat, cards)
            return knowledge
        seat = _seat(knowledge, public["seat"])
        if seat != expected or seat == suggester:
            said = f"seat {expected} answers next" if expected != suggester else "all answered"
            raise ContradictionError(f"seat {seat} answers out of turn ({said})")
        if kind == "passed":
            self._asking = (suggester, triple, (seat + 1) % n)
            return knowledge.with_lacks(seat, cards)
        self._asking = None
        knowledge = knowledge.with_clause(seat, cards)
        if private is not None and self.seat in (suggester, seat):
            card = int(cast(int, private["card"]))
            if card not in triple:
                raise ContradictionError(f"{knowledge.deck.name(card)} was not suggested")
            if self.seat == suggester:
                return knowledge.with_shown(seat, cards, card)
            return knowledge.with_has(seat, 1 << card)
        return knowledge

    def _accused(
        self, knowledge: Knowledge, public: Mapping[str, JSON], private: Mapping[str, JSON] | None
    ) -> Knowledge:
        seat = _seat(knowledge, public["seat"])
        triple = _cards((public["suspect"], public["weapon"], public["room"]))
        correct = public["correct"]
        if not isinstance(correct, bool):
            raise TypeError(f"correct is {correct!r}, not true or false")
        if correct:
            knowledge = knowledge.with_has(ENVELOPE, mask_of(triple))
        else:
            knowledge = knowledge.with_failed(mask_of(triple))
        if private is not None and seat == self.seat:
            envelope = _cards(private["envelope"])
            if (tuple(envelope) == tuple(triple)) != correct:
                raise ContradictionError("the envelope shown does not match the verdict")
            knowledge = knowledge.with_has(ENVELOPE, mask_of(envelope))
        return knowledge

    # --- queries --------------------------------------------------------------------------

    def admits(self, state: State[Any]) -> bool:
        """True if the deal of ``state`` satisfies every fact read (always before the deal)."""
        truth = cast("CluedoState", state)
        if self.knowledge is None or not truth.envelope:
            return True
        return self.knowledge.admits(tuple(truth.hands), mask_of(truth.envelope))

    def sample(self, rng: random.Random) -> Deal:
        """One consistent deal, drawn exactly in proportion to its weight."""
        return self.posterior.sample(rng)


def _seat(knowledge: Knowledge, value: JSON) -> int:
    seat = int(value)
    if not 0 <= seat < knowledge.players:
        raise ContradictionError(f"no seat {seat} among {knowledge.players}")
    return seat


def _cards(values: JSON) -> tuple[int, ...]:
    cards = tuple(int(v) for v in values)
    for card in cards:
        if not 0 <= card < CLASSIC.size:
            raise ContradictionError(f"no card {card} in the deck")
    return cards
