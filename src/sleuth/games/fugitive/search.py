"""Fugitive for the search players (``ismcts`` and ``dmcts`` for either seat).

World samplers:

- **the Marshal's**: uniform complete worlds from the exact belief
  (:meth:`ExactBelief.sample`), turned back into a history by :func:`history`;
- **the Fugitive's**: he sees everything except the Marshal's cards.  The sampler draws them
  as a uniform ordered draw from the cards of each pile he has not seen and replays his view.
  Every such world replays exactly, but the weights are an approximation: a real Marshal
  rarely names her own cards, so her guesses say a little about her hand.

Moves the search considers (:meth:`FugitiveSearchModel.candidate_moves`), since a hand has
up to millions of placements and a guess may name any of 2^41 sets:

- the Fugitive: pass, and for each placeable hideout its cheapest payment and a bluff with
  one card more (:func:`payment`: cards below the hideout first); in the opening, the first
  fewest-card placement of each hideout;
- the Marshal: every single number her own information allows, i.e. above the face-up hideout
  before the first face-down one and within reach of the public sprint counts, and not in her
  hand (plus ``skip`` when allowed).  The candidates depend only on what she knows, so the tree
  learns nothing hidden from them.

Rollouts play the random players' hierarchical policy (:func:`random_move`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, cast

from sleuth.core.events import View
from sleuth.core.game import Game, State
from sleuth.games.fugitive.actions import PASS, SKIP, FugitiveAction, Guess, Place
from sleuth.games.fugitive.belief import ExactBelief, warm_up
from sleuth.games.fugitive.bots import random_move
from sleuth.games.fugitive.cards import LAST, PILES, cards_of
from sleuth.games.fugitive.fugitives import payment
from sleuth.games.fugitive.moves import Choices, Guesses, Placements
from sleuth.games.fugitive.rules import MARSHAL, FugitiveState, Phase
from sleuth.games.fugitive.worlds import fugitive_history, history
from sleuth.search.model import SearchModel

SAMPLER_STATES = 100_000
"""States the Marshal's sampler lets the exact belief use (a few seconds); beyond, the search
Marshal cannot sample and raises SolverLimitError (a forfeit in a match)."""


class _Replayer:
    """Shared by both samplers: a state from a history."""

    game: Game[Any]

    def sample_history(self, rng: random.Random) -> list[FugitiveAction]:
        raise NotImplementedError

    def sample_state(self, rng: random.Random) -> State[Any]:
        state = self.game.new_initial_state()
        for action in self.sample_history(rng):
            state.apply(action)
        return state


class MarshalSampler(_Replayer):
    """Uniform worlds consistent with the Marshal's view (exact belief)."""

    def __init__(self, game: Game[Any], view: View) -> None:
        self.game = game
        self.events = list(view.events)
        self.belief = ExactBelief.from_events(self.events, SAMPLER_STATES)

    def sample_history(self, rng: random.Random) -> list[FugitiveAction]:
        return history(self.belief.sample(rng), self.events)


class FugitiveSampler(_Replayer):
    """The Marshal's cards, drawn uniformly from the cards the Fugitive has not seen."""

    def __init__(self, game: Game[Any], view: View) -> None:
        self.game = game
        self.events = list(view.events)
        seen: set[int] = set()
        self.marshal_draws = [0, 0, 0]
        for event in self.events:
            if event.kind != "drew":
                continue
            if event.public["seat"] == MARSHAL:
                self.marshal_draws[int(event.public["pile"]) - 1] += 1
            elif event.private is not None:
                seen.add(int(event.private["card"]))
        self.unseen = [[c for c in pile if c not in seen] for pile in PILES]

    def sample_history(self, rng: random.Random) -> list[FugitiveAction]:
        cards = [
            rng.sample(pool, n) for pool, n in zip(self.unseen, self.marshal_draws, strict=True)
        ]
        return fugitive_history(self.events, cards)


class FugitiveSearchModel(SearchModel[FugitiveAction]):
    """See the module docstring."""

    def sampler(self, game: Game[FugitiveAction], view: View) -> _Replayer:
        if view.seat == MARSHAL:
            return MarshalSampler(game, view)
        return FugitiveSampler(game, view)

    def warm_up(self) -> None:
        warm_up()  # the samplers count worlds with the compiled exact belief

    def rollout_action(self, state: State[FugitiveAction], rng: random.Random) -> FugitiveAction:
        return cast(FugitiveAction, random_move(state.legal_actions(), rng))

    def candidate_moves(self, state: State[FugitiveAction]) -> Sequence[FugitiveAction] | None:
        fugitive_state = cast(FugitiveState, state)
        legal = state.legal_actions()
        rest = legal.rest if isinstance(legal, Choices) else legal
        if isinstance(rest, Placements):
            hand, last = rest.hand, rest.last
            moves: list[FugitiveAction] = [PASS]
            for h in rest.hideouts():
                cheapest = payment(hand, last, h, bluff=False)
                bluff = payment(hand, last, h, bluff=True)
                moves += [cheapest] if bluff == cheapest else [cheapest, bluff]
            return moves
        if isinstance(rest, Guesses):
            numbers = _plausible(fugitive_state, rest.numbers)
            guesses: list[FugitiveAction] = [Guess((n,)) for n in numbers]
            if isinstance(legal, Choices):
                guesses.insert(0, SKIP)
            return guesses or list(legal[:1])
        if fugitive_state.phase is Phase.OPENING:
            first: dict[int, Place] = {}
            for action in legal:
                if isinstance(action, Place):
                    known = first.get(action.hideout)
                    if known is None or len(action.sprints) < len(known.sprints):
                        first[action.hideout] = action
            return [*(a for a in legal if not isinstance(a, Place)), *first.values()]
        return None

    def move_classes(
        self, state: State[FugitiveAction], observers: frozenset[int]
    ) -> Mapping[Hashable, Sequence[FugitiveAction]] | None:
        candidates = self.candidate_moves(state) or state.legal_actions()
        if state.current_player() == MARSHAL:  # her draws and guesses are public
            return {action: (action,) for action in candidates}
        if cast(FugitiveState, state).phase not in (Phase.OPENING, Phase.FUGITIVE_PLACE):
            return None
        classes: dict[Hashable, list[FugitiveAction]] = {}
        for action in candidates:
            if isinstance(action, Place):
                label: Hashable = ("placed", len(action.sprints), action.hideout == LAST)
            else:
                label = action
            classes.setdefault(label, []).append(action)
        return classes


def _plausible(state: FugitiveState, numbers: Sequence[int]) -> list[int]:
    """The numbers the Marshal's own information allows as face-down hideouts (see the module
    docstring); computed from public facts and her hand only."""
    low, bound, high = None, 0, 0
    for hideout in state.route[1:]:
        if hideout.face_up:
            bound = hideout.value
            continue
        if low is None:
            low = bound
        bound = min(LAST - 1, bound + 3 + 2 * len(hideout.sprints))
        high = max(high, bound)
    if low is None:
        return []
    hand = set(cards_of(state.hands[MARSHAL]))
    return [n for n in numbers if low < n <= high and n not in hand]
