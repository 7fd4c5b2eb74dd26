"""Camel Up for the search layer: the worlds behind one seat's view.

Everything in Camel Up is public but the camels of the other players' overall cards (V2: the
bettor, the pile and the position are public; the card is turned up at the end).  A world is
therefore the view's own history with a camel on each hidden card.  The seat's table
(:class:`~sleuth.games.camel_up.belief.TableTracker`, which checks the view through the
engine) says which cards are hidden and which camels each player is known to have played; a
player holds one card per camel, so its hidden cards name distinct camels it is not known to
have played, and every such assignment is a world.  :class:`CamelUpSampler` draws them
uniformly: each player's hidden cards, in the order placed, are a uniform random draw without
replacement from its remaining camels.  Nothing else is hidden in the 2nd edition either
(money is public, V1; the partnership cards, E10, are not implemented).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from sleuth.core.events import View
from sleuth.core.game import Game, State
from sleuth.games.camel_up.actions import PILES, CamelAction, OverallBet
from sleuth.games.camel_up.belief import TableTracker, replayed_action
from sleuth.games.camel_up.rules import HIDDEN, CamelUpGame
from sleuth.search.model import SearchModel, replay_history


class CamelUpSampler:
    """The worlds behind one view (see the module docstring).

    Invariant: every history drawn replays through the engine to events that the view's seat
    sees exactly as its view, and every world the view allows has a positive probability."""

    def __init__(self, game: CamelUpGame, view: View) -> None:
        tracker = TableTracker(game)
        table = tracker.update(view.events)  # a view that is no game is refused here
        self.game = game
        self.history: list[CamelAction | None] = []
        """The view's actions, None for each hidden card (filled in by each draw)."""
        self.hidden: list[tuple[int, int, str]] = []
        """(place in :attr:`history`, seat, pile) of each hidden card, in the order placed."""
        for event in view.events:
            if event.kind == "overall_bet" and event.private is None:
                pile = str(event.public["pile"])
                seat, camel = table.piles[PILES.index(pile)][int(event.public["position"]) - 1]
                if camel == HIDDEN:
                    self.hidden.append((len(self.history), seat, pile))
                    self.history.append(None)
                else:  # turned up at the end
                    self.history.append(OverallBet(pile, game.camel_name(camel)))
            else:
                action = replayed_action(event)
                if action is not None:
                    self.history.append(action)
        self.counts = Counter(seat for _, seat, _ in self.hidden)
        """Each player's hidden cards."""
        self.free: dict[int, list[str]] = {}
        """Each player with hidden cards: its camels that none of its known cards names."""
        for seat in self.counts:
            known = {c for pile in table.piles for s, c in pile if s == seat and c != HIDDEN}
            self.free[seat] = [name for c, name in enumerate(game.racers) if c not in known]

    def sample_history(self, rng: random.Random) -> list[CamelAction]:
        drawn = {seat: rng.sample(free, self.counts[seat]) for seat, free in self.free.items()}
        filled = {place: OverallBet(pile, drawn[seat].pop(0)) for place, seat, pile in self.hidden}
        return [filled[i] if a is None else a for i, a in enumerate(self.history)]

    def sample_state(self, rng: random.Random) -> State[CamelAction]:
        """The state of one drawn history (a replay: a few milliseconds for a whole game)."""
        state, _ = replay_history(self.game, self.sample_history(rng))
        return state


class CamelUpSearchModel(SearchModel[CamelAction]):
    """Camel Up's hooks for :mod:`sleuth.search`: the world sampler (module docstring)."""

    def sampler(self, game: Game[Any], view: View) -> CamelUpSampler:
        if not isinstance(game, CamelUpGame):
            raise TypeError(f"a Camel Up sampler needs a Camel Up game, not {game.name}")
        return CamelUpSampler(game, view)
