"""The baseline of ``fugitive_opponent.py``: a plain particle filter (not a benchmark itself).

It answers the question :class:`~sleuth.games.fugitive.deduction.opponent.StrategyBelief` answers
(how
likely is each set of face-down hideouts, given the Marshal's view and the Fugitive's
strategy) the way such filters are usually written: ``particles`` games are played forward in
step with her view by the rules engine, the Fugitive's moves by the bot itself (its ``act`` on
a view of its own) and his draws from the cards she has never seen; a game whose events differ
from hers is dropped, and when fewer than half remain the survivors are copied back up to
``particles``.  Its answer is an estimate, and it can lose every particle.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence

from sleuth.core.bots import Bot
from sleuth.core.events import JSON, Event, View, freeze, thaw
from sleuth.core.game import CHANCE
from sleuth.games.fugitive.engine.actions import SKIP, Card, Draw, FugitiveAction, Guess
from sleuth.games.fugitive.engine.cards import LAST, PILES
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame, FugitiveState


class _Particle:
    def __init__(self, state: FugitiveState, bot: Bot) -> None:
        self.state = state
        self.bot = bot
        self.seen: list[Event] = []  # the Fugitive's view
        self.drawn: set[int] = set()
        self.index = 0  # events of the Marshal's view shown so far

    def copy(self, rng: random.Random) -> _Particle:
        other = _Particle(self.state.clone(), copy.copy(self.bot))
        other.bot.rng = random.Random(rng.random())
        other.seen, other.drawn, other.index = list(self.seen), set(self.drawn), self.index
        return other


def face_down_sets(
    game: FugitiveGame, events: Sequence[Event], bot: Bot, particles: int, rng: random.Random
) -> dict[frozenset[int], float]:
    """The estimated probability of each set of face-down hideout values; empty when every
    particle was lost."""
    view = [(e.kind, freeze(thaw(e.public))) for e in events]
    theirs = {
        int(e.private["card"])
        for e in events
        if e.kind == "drew" and e.public["seat"] == MARSHAL and e.private is not None
    }
    alive = [_Particle(game.new_initial_state(), copy.copy(bot)) for _ in range(particles)]
    for particle in alive:
        particle.bot.rng = random.Random(rng.random())
    while alive and any(p.index < len(view) for p in alive):
        alive = [p for p in alive if _step(p, events, view, theirs, rng)]
        if alive and len(alive) < particles // 2:
            alive = [rng.choice(alive).copy(rng) for _ in range(particles)]
    sets: dict[frozenset[int], float] = {}
    for p in alive:
        route = p.state.route[1:]
        key = frozenset(h.value for h in route if not h.face_up and h.value != LAST)
        sets[key] = sets.get(key, 0.0) + 1.0 / len(alive)
    return sets


def _step(
    p: _Particle,
    events: Sequence[Event],
    view: list[tuple[str, JSON]],
    theirs: set[int],
    rng: random.Random,
) -> bool:
    """Play one action of ``p``; False when its events differ from the view."""
    if p.index >= len(view):
        return True
    state, (kind, public) = p.state, view[p.index]
    seat = state.current_player()
    action: FugitiveAction
    if seat == CHANCE and public["seat"] == MARSHAL:
        action = Card(int(events[p.index].private["card"]))  # type: ignore[index]
    elif seat == CHANCE:
        pool = [c for c in PILES[int(public["pile"]) - 1] if c not in theirs | p.drawn]
        if not pool:
            return False
        action = Card(rng.choice(pool))
        p.drawn.add(action.card)
    elif seat == FUGITIVE:
        legal = state.legal_actions()
        action = p.bot.act(View(FUGITIVE, "fugitive", {}, p.seen), legal)  # type: ignore[assignment]
    elif kind == "chose_pile":
        action = Draw(int(public["pile"]))
    elif kind == "guessed":
        action = Guess(tuple(public["numbers"]))
    elif kind == "skipped":
        action = SKIP
    else:
        return False
    produced = state.apply_trusted(action)
    for event in produced:
        if p.index == len(view):
            break
        if (event.kind, event.public) != view[p.index]:
            return False
        p.index += 1
    p.seen += [e.seen_by(FUGITIVE) for e in produced]
    return True
