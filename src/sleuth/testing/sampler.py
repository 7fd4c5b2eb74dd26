"""The soundness of a game's search sampler (:class:`~sleuth.core.searchmodel.SearchModel`).

At decisions of a real game, the sampler built from the deciding seat's view must draw only
worlds that reproduce that view, and must be able to draw the true world.  The first is
checked on every draw.  The second is checked by counting: when many draws find only a few
distinct worlds and the last half of them finds no new one, those worlds are (with
overwhelming odds) all the sampler can draw, and the true world must be among them; when the
worlds are too many for that, the decision is counted as not covered instead.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sleuth.core.errors import SolverLimitError
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE, Game, State
from sleuth.core.match import run_match
from sleuth.core.rng import derive_seed
from sleuth.core.searchmodel import SearchModel, WorldSampler, replay_history, view_matches
from sleuth.testing.case import Case, partner_bots

DRAWS = 100
"""Worlds drawn at each checked decision with few worlds."""
FEW_WORLDS = 10
"""At most this many distinct worlds, none new in the last three quarters of the draws: the
sampler is taken to draw no others, and the true world must be one of them."""
SOUNDNESS_DRAWS = 20
"""Worlds drawn (and checked against the view) at a decision with more than a few worlds."""
DECISIONS = 6
"""Decisions checked per game (spread at random over the game)."""


@dataclass(frozen=True)
class SamplerReport:
    """How many decisions were checked, and at how many the true world was shown drawable
    (the others had too many worlds to tell, or too many for the sampler: ``too_many``)."""

    decisions: int
    covered: int
    too_many: int


def check_sampler(
    case: Case, model: SearchModel[Any], seed: int, decisions: int = DECISIONS, draws: int = DRAWS
) -> SamplerReport:
    """Check ``model``'s sampler at up to ``decisions`` decisions of one game played by
    :func:`~sleuth.testing.case.partner_bots` (a game's random players play real moves:
    Fox in a Hole's random fox commits to holes, where uniform random play would sometimes
    play the quantum fox's ``hide``, which no world of the hunter's sampler is).

    Every draw is a legal history that reproduces the seat's view, its
    :meth:`~sleuth.core.searchmodel.WorldSampler.sample_state` has the seat to move with the true
    legal actions, and the true world is drawable (see the module docstring)."""
    game = case.make()
    record = run_match(game, partner_bots(case, game), seed, time_limit=None)
    rng = random.Random(derive_seed(seed, "conformance", "sampler"))
    moves = [i for i, step in enumerate(record.steps) if step.seat != CHANCE]
    chosen = set(rng.sample(moves, min(decisions, len(moves))))
    state = game.new_initial_state()
    events: list[Event] = []
    covered = too_many = 0
    for index, step in enumerate(record.steps):
        if index in chosen:
            seat = step.seat
            view = View(
                seat, game.roles[seat], game.public_info(), [e.seen_by(seat) for e in events]
            )
            try:  # the worlds may be counted when the sampler is made or at its first draw
                sampler = model.sampler(game, view)
                covered += _check_draws(
                    case, seed, index, game, state, events, view, sampler, rng, draws
                )
            except SolverLimitError:
                too_many += 1
        events.extend(state.apply(step.action))
    return SamplerReport(len(chosen), covered, too_many)


def _check_draws(
    case: Case,
    seed: int,
    step: int,
    game: Game[Any],
    truth: State[Any],
    events: Sequence[Event],
    view: View,
    sampler: WorldSampler[Any],
    rng: random.Random,
    draws: int,
) -> int:
    """1 if the true world is shown drawable at this decision, 0 if the worlds are too many."""
    seat = view.seat
    worlds: set[str] = set()
    last_new = 0
    for draw in range(draws):
        history = sampler.sample_history(rng)
        try:
            _, drawn = replay_history(game, history)
        except Exception as exc:
            problem = f"seat {seat}'s sampler drew an illegal history {history}: {exc}"
            raise case.fail(seed, problem, step) from exc
        if not view_matches(drawn, view):
            problem = f"seat {seat}'s sampler drew a world unlike its view: {history}"
            raise case.fail(seed, problem, step)
        key = _trace(drawn)
        if key not in worlds:
            worlds.add(key)
            last_new = draw
        world = sampler.sample_state(rng)
        unlike = _state_difference(world, truth)
        if unlike is not None:
            raise case.fail(seed, f"seat {seat}'s sampler drew a state that {unlike}", step)
        if len(worlds) > FEW_WORLDS and draw >= SOUNDNESS_DRAWS:
            return 0  # too many worlds to show the true one drawable by counting
    if _trace(events) in worlds:
        return 1
    if len(worlds) <= FEW_WORLDS and last_new < draws // 4:
        raise case.fail(
            seed,
            f"seat {seat}'s sampler never drew the true world: {draws} draws found only "
            f"{len(worlds)} worlds, none new after draw {last_new}",
            step,
        )
    return 0


def _state_difference(world: State[Any], truth: State[Any]) -> str | None:
    """How a sampled state differs from the true one in what its seat to move knows."""
    if world.current_player() != truth.current_player():
        return f"has seat {world.current_player()} to move, not {truth.current_player()}"
    mine, true = world.legal_actions(), truth.legal_actions()
    if len(mine) != len(true):
        return f"has {len(mine)} legal actions, the true state {len(true)}"
    for i in range(0, len(true), max(1, len(true) // 50)):  # a few places when long
        if mine[i] != true[i]:
            return f"has legal action {mine[i]} where the true state has {true[i]}"
    return None


def _trace(events: Sequence[Event]) -> str:
    """Every event with its private part: two worlds with the same trace are the same world."""
    return json.dumps([e.to_json() for e in events], sort_keys=True)
