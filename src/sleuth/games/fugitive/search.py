"""Fugitive for the search players (``ismcts`` and ``dmcts`` for either seat).

World samplers:

- **the Marshal's**: complete worlds from the exact belief (:meth:`ExactBelief.sample`), in
  proportion to their weights under the bot's Fugitive model (option ``model``, by default the
  belief Marshal's ``frugal``; ``uniform`` draws every consistent world equally often), turned
  back into a history by :func:`history`; when they are too many to sample, she plays the
  belief Marshal's move with the same model (:meth:`FugitiveSearchModel.unsampled_action`);
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

Rollouts play the random players' hierarchical policy (:func:`random_move`), or with
``policy=heuristic`` mostly :meth:`FugitiveSearchModel.heuristic_action`: the heuristic
Fugitive's draws and placements (:func:`place_or_pass`, from the world's true hand), and for
the Marshal a quick guess from public facts and her hand (:func:`quick_guess`).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, cast

from sleuth.core.events import View
from sleuth.core.game import Game, State
from sleuth.core.searchmodel import SearchModel
from sleuth.games.fugitive.belief import DEFAULT_MODEL, ExactBelief, start_warm_up
from sleuth.games.fugitive.bots import random_move
from sleuth.games.fugitive.catalogue import BELIEF_OVERHEAD as BELIEF_OVERHEAD
from sleuth.games.fugitive.catalogue import SEARCH_ITERATION_COST, SEARCH_OPTIONS
from sleuth.games.fugitive.deduction.worlds import fugitive_history, history
from sleuth.games.fugitive.engine.actions import (
    PASS,
    SKIP,
    TAKE_BONUS,
    Bonus,
    Draw,
    FugitiveAction,
    Guess,
    Place,
)
from sleuth.games.fugitive.engine.cards import LAST, cards_of, mask_of
from sleuth.games.fugitive.engine.moves import Choices, Guesses, Placements
from sleuth.games.fugitive.players.fugitives import (
    BLUFF,
    payment,
    place_or_pass,
    toward_next_hideouts,
    unseen_cards,
)
from sleuth.games.fugitive.players.marshals import BeliefMarshal
from sleuth.games.fugitive.rules import MARSHAL, FugitiveState, Phase

SAMPLER_STATES = 100_000
"""States the Marshal's sampler lets the exact belief use (a few seconds); beyond, the sampler
raises SolverLimitError and the search Marshal plays the belief Marshal's move instead
(:meth:`FugitiveSearchModel.unsampled_action`)."""


class _Replayer:
    """Shared by both samplers: a state from a history."""

    game: Game[Any]

    def sample_history(self, rng: random.Random) -> list[FugitiveAction]:
        raise NotImplementedError

    def sample_state(self, rng: random.Random) -> State[Any]:
        state = cast(FugitiveState, self.game.new_initial_state())
        for action in self.sample_history(rng):
            state.apply_trusted(action)  # tests replay the same histories with the check
        return state


class MarshalSampler(_Replayer):
    """Worlds consistent with the Marshal's view, drawn from the exact belief in proportion to
    their weights under the Fugitive ``model`` (uniformly under ``uniform``)."""

    def __init__(self, game: Game[Any], view: View, model: str = DEFAULT_MODEL) -> None:
        self.game = game
        self.events = list(view.events)
        self.belief = ExactBelief.from_events(self.events, SAMPLER_STATES, model)

    def sample_history(self, rng: random.Random) -> list[FugitiveAction]:
        return history(self.belief.sample(rng), self.events)


class FugitiveSampler(_Replayer):
    """The Marshal's cards, drawn uniformly from the cards the Fugitive has not seen."""

    def __init__(self, game: Game[Any], view: View) -> None:
        self.game = game
        self.events = list(view.events)
        self.marshal_draws = [0, 0, 0]
        for event in self.events:
            if event.kind == "drew" and event.public["seat"] == MARSHAL:
                self.marshal_draws[int(event.public["pile"]) - 1] += 1
        self.unseen = unseen_cards(self.events)

    def sample_history(self, rng: random.Random) -> list[FugitiveAction]:
        cards = [
            rng.sample(pool, n) for pool, n in zip(self.unseen, self.marshal_draws, strict=True)
        ]
        return fugitive_history(self.events, cards)


class FugitiveSearchModel(SearchModel[FugitiveAction]):
    """See the module docstring.  ``world_model`` (option ``model``) weighs the Marshal's
    worlds, and her root move and fallback move use it as the belief Marshal's odds; the
    Fugitive's sampler does not read it."""

    options = SEARCH_OPTIONS
    overhead = BELIEF_OVERHEAD
    iteration_cost = SEARCH_ITERATION_COST

    def __init__(self, world_model: str = DEFAULT_MODEL) -> None:
        self.world_model = world_model

    def configured(self, **values: Any) -> FugitiveSearchModel:
        return FugitiveSearchModel(values.get("model", self.world_model))

    def sampler(self, game: Game[FugitiveAction], view: View) -> _Replayer:
        if view.seat == MARSHAL:
            return MarshalSampler(game, view, self.world_model)
        return FugitiveSampler(game, view)

    def warm_up(self) -> None:
        start_warm_up()  # the samplers count worlds with the exact belief, either programme

    def unsampled_action(
        self,
        game: Game[FugitiveAction],
        view: View,
        legal: Sequence[FugitiveAction],
        rng: random.Random,
    ) -> FugitiveAction | None:
        """The Marshal's worlds can be too many to sample (long routes, many sprint cards): she
        then plays the belief Marshal's move, which falls back on the relaxed belief."""
        if view.seat != MARSHAL:
            return None
        return cast(
            FugitiveAction, self._belief_marshal(game, rng.randrange(2**32)).act(view, legal)
        )

    def root_moves(
        self, game: Game[FugitiveAction], view: View, legal: Sequence[FugitiveAction]
    ) -> Sequence[FugitiveAction]:
        """The Marshal about to guess also tries the belief Marshal's guess (with the same
        model), which may name several numbers where the candidates name one: every certain
        hideout with the most likely other, or the likeliest whole route.  None when she would
        make no guess."""
        rest = legal.rest if isinstance(legal, Choices) else legal
        if view.seat != MARSHAL or not isinstance(rest, Guesses):
            return ()
        numbers = self._belief_marshal(game, 0).choose(view)
        return (Guess(numbers),) if numbers else ()

    def _belief_marshal(self, game: Game[FugitiveAction], seed: int) -> BeliefMarshal:
        """The belief Marshal with this model's odds (her default guess and draw policies)."""
        return BeliefMarshal(game, MARSHAL, seed, "gamble", "frontier", model=self.world_model)

    def rollout_action(self, state: State[FugitiveAction], rng: random.Random) -> FugitiveAction:
        return cast(FugitiveAction, random_move(state.legal_actions(), rng))

    def heuristic_action(
        self, state: State[FugitiveAction], rng: random.Random
    ) -> FugitiveAction | None:
        fugitive_state = cast(FugitiveState, state)
        legal = state.legal_actions()
        if isinstance(legal[0], Bonus):
            return TAKE_BONUS
        rest = legal.rest if isinstance(legal, Choices) else legal
        if state.current_player() == MARSHAL:
            if isinstance(rest, Guesses) or isinstance(legal[-1], Guess):
                return quick_guess(fugitive_state)
            return None  # her draw: the random policy's
        last = fugitive_state.last_hideout
        if isinstance(legal[0], Draw):
            return toward_next_hideouts([a for a in legal if isinstance(a, Draw)], last)
        if isinstance(rest, Placements):
            can_pass = PASS in legal
            return place_or_pass(list(rest.hand), last, rest.hideouts(), can_pass, rng, BLUFF)
        return None  # the opening: the random policy's

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


def quick_guess(state: FugitiveState) -> Guess | None:
    """The rollout Marshal's guess, from public facts and her hand only: for the first
    face-down hideout, the highest number below the next face-up hideout and within reach of
    its sprint cards (at two footprints each) that is not in her hand, not a revealed sprint
    card, and that no single miss ruled out; None when there is none."""
    route = state.route
    first = next((i for i, h in enumerate(route) if not h.face_up), None)
    if first is None:
        return None
    hideout = route[first]
    bound = route[first - 1].value
    ceiling = next((h.value for h in route[first:] if h.face_up), LAST)
    reach = min(ceiling - 1, bound + 3 + 2 * len(hideout.sprints))
    excluded = state.hands[MARSHAL] | hideout.cleared
    for other in route:
        if other.face_up and other.value != LAST:  # 42's sprint cards stay face down (F11)
            excluded |= mask_of(other.sprints)
    for number in range(reach, bound, -1):
        if not excluded >> number & 1:
            return Guess((number,))
    return None


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
