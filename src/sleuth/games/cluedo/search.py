"""Cluedo for the search layer: the worlds behind one seat's view, drawn exactly.

What a seat does not see in Cluedo is the deal (the envelope and the other hands) and the card
shown at each refutation it takes no part in.  Everything else (rolls, moves, suggestions,
who passed and who refuted, accusations and their verdicts) is public, and whatever the deal,
the engine plays those public actions alike: a token's moves, the turn order and the phases
do not depend on the cards.  So a world is the view's own actions with a deal and, at each
refutation the seat did not see, a card shown.

:class:`CluedoSampler` reads the view once: the seat's exact deduction
(:class:`~sleuth.games.cluedo.deduction.belief.CluedoBelief`, which counts every deal
consistent with the view) and the public actions, found by playing the engine along the view
with one consistent deal and checking every event it makes against the view.  A draw takes a
deal from the deduction's posterior, **exactly uniformly among the deals consistent with the
view** (:meth:`~sleuth.games.cluedo.deduction.counting.Posterior.sample`), and at each
refutation the seat did not see, a card uniformly among the suggested cards the refuter holds
in that deal (the rules let it show any of them).

Every turn's end is in the view (the public ``ended`` event), so the view settles where the
game is: a world is in the turn, and the phase, of the view's last event, whoever is to move
(the seat itself, another seat, or the seat again when every other seat is out).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from sleuth.core.bitsets import members
from sleuth.core.errors import ContradictionError, IllegalActionError
from sleuth.core.events import Event, View
from sleuth.core.game import Game
from sleuth.core.searchmodel import SearchModel
from sleuth.games.cluedo.actions import (
    END,
    PASSAGE,
    ROLL,
    STAY,
    Accuse,
    Action,
    Dice,
    Go,
    Show,
    Suggest,
)
from sleuth.games.cluedo.deal import Deal
from sleuth.games.cluedo.deduction import counting
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.movement import reachable
from sleuth.games.cluedo.rules import CluedoGame, CluedoState, Phase


def engine_deal(deal: counting.Deal) -> Deal:
    """The engine's chance action of a deduction's deal."""
    hands = tuple(tuple(members(hand)) for hand in deal.hands)
    envelope = (deal.envelope[0], deal.envelope[1], deal.envelope[2])
    return Deal(envelope, hands, tuple(members(deal.table)))


class CluedoSampler:
    """The worlds behind one view (see the module docstring).  A view no game explains is
    refused (:class:`~sleuth.core.errors.ContradictionError` naming its event).

    Invariant: every history drawn replays through the engine to events the view's seat sees
    exactly as its view; its deal is uniform over the deals consistent with the view."""

    def __init__(self, game: CluedoGame, view: View) -> None:
        self.game = game
        self.seat = view.seat
        belief = CluedoBelief.from_view(game, view)
        self.posterior = None if belief.knowledge is None else belief.posterior
        """The exact posterior of the deal (None before the deal)."""
        self.actions: list[Action] = []
        """The view's actions after the deal (each hidden card as the first consistent deal
        showed it: every draw chooses it again)."""
        self.hidden: list[tuple[int, int, tuple[int, ...]]] = []
        """(place in :attr:`actions`, refuter, suggested cards) of each unseen refutation."""
        if self.posterior is not None:
            self._follow(view.events)

    def _follow(self, events: Sequence[Event]) -> None:
        """Find the public actions by playing the view with one consistent deal."""
        assert self.posterior is not None
        state = self.game.new_initial_state()
        deal = engine_deal(self.posterior.sample(random.Random(0)))
        at = self._check(state, deal, events, 0)
        while at < len(events):
            event = events[at]
            for action in self._actions_for(state, event, at):
                at = self._check(state, action, events, at)

    def _actions_for(self, state: CluedoState, event: Event, at: int) -> list[Action]:
        """The engine actions that make ``event`` (the view's event number ``at``) next."""
        kind, public = event.kind, event.public
        phase = state.phase
        if kind == "ended":
            return [END]
        if kind == "rolled":
            return [ROLL, Dice(int(public["roll"]))]
        if kind == "moved" and phase is Phase.HEAD:
            assert state.roll is not None
            targets = reachable(
                state.position(state.to_move), state.roll, state.game.allow_retarget
            )
            rooms = [room for room, there in targets.items() if str(there) == public["position"]]
            if not rooms:
                raise ContradictionError(f"event {at} (moved): no room the roll reaches is there")
            return [Go(rooms[0])]
        if kind == "moved":
            here = state.position(state.to_move)
            return [STAY if str(here) == public["position"] else PASSAGE]
        triple = ("suspect", "weapon", "room")
        if kind == "suggested":
            return [Suggest(*(int(public[k]) for k in triple))]
        if kind == "accused":
            return [Accuse(*(int(public[k]) for k in triple))]
        if kind == "refuted" and phase is Phase.REFUTE:
            assert state.suggestion is not None and state.refuter is not None
            if event.private is not None:
                return [Show(int(event.private["card"]))]
            held = [c for c in state.suggestion if state.hands[state.refuter] >> c & 1]
            self.hidden.append((len(self.actions) + 1, state.refuter, state.suggestion))
            return [Show(held[0])]  # the deal is consistent: the refuter holds one
        raise ContradictionError(f"event {at} ({kind}): no action of the game makes it here")

    def _check(self, state: CluedoState, action: Action, events: Sequence[Event], at: int) -> int:
        """Play ``action``; its events must be the view's from number ``at`` on."""
        try:
            made = state.apply(action)
        except IllegalActionError as exc:
            raise ContradictionError(f"event {at} ({events[at].kind}): {exc}") from None
        seen = [e.seen_by(self.seat) for e in made]
        if seen != list(events[at : at + len(seen)]):
            raise ContradictionError(f"event {at} ({events[at].kind}): not what {action} makes")
        if not isinstance(action, Deal):
            self.actions.append(action)
        return at + len(seen)

    def sample_history(self, rng: random.Random) -> list[Action]:
        if self.posterior is None:
            return []
        deal = self.posterior.sample(rng)
        history: list[Action] = [engine_deal(deal), *self.actions]
        for place, refuter, cards in self.hidden:
            history[place] = Show(rng.choice([c for c in cards if deal.hands[refuter] >> c & 1]))
        return history

    def sample_state(self, rng: random.Random) -> CluedoState:
        """The state of one drawn history, replayed without the legality checks (the history
        was checked against the engine when the view was followed)."""
        state = self.game.new_initial_state()
        for action in self.sample_history(rng):
            state.apply_trusted(action)
        return state


class CluedoSearchModel(SearchModel[Action]):
    """Cluedo's hooks for :mod:`sleuth.search`: the exact world sampler (module docstring)."""

    def sampler(self, game: Game[Any], view: View) -> CluedoSampler:
        if not isinstance(game, CluedoGame):
            raise TypeError(f"a Cluedo sampler needs a Cluedo game, not {game.name}")
        return CluedoSampler(game, view)
