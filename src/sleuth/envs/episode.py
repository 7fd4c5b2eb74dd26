"""One game played one action id at a time: the engine under every ``sleuth.envs`` adapter.

An :class:`Episode` holds the true state, every seat's view, and the builder of the action
the seat to move is choosing.  Chance is drawn from the episode's seed (as the match runner
draws it: the same seed gives the same dice, deals and shuffles), so an adapter never shows a
chance node to an agent; the OpenSpiel adapter, which does, plays the state itself.

Invariants: :meth:`observe` reads a seat's view only; :attr:`seat` is the seat to move (None
once the game is over) and the mask is that of its builder; a refused id changes nothing.
The mask of a decision is made once (kept until an id is chosen); every observation and mask
returned is a new array, the caller's to keep.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from sleuth.core.encoding import ActionBuilder, Encoding, Mask, Observation
from sleuth.core.events import Event, View, freeze
from sleuth.core.game import CHANCE, Game, State
from sleuth.core.rng import derive_seed


class Episode:
    """A game from its start, stepped by action ids (see the module docstring)."""

    def __init__(self, encoding: Encoding[Any], seed: int, belief: bool = False) -> None:
        self.encoding = encoding
        self.game: Game[Any] = encoding.game
        self.belief = belief
        self.state: State[Any] = self.game.new_initial_state()
        self._chance = random.Random(derive_seed(seed, "chance"))
        info = freeze(self.game.public_info())
        self._seen: list[list[Event]] = [[] for _ in range(self.game.num_players)]
        self.views = [
            View(s, self.game.roles[s], info, self._seen[s]) for s in range(self.game.num_players)
        ]
        self.actions: list[tuple[int, Hashable]] = []
        """Every action played, with its seat (chance included, as seat -1)."""
        self._builder: ActionBuilder[Any] | None = None
        self._mask: tuple[ActionBuilder[Any], int, Mask] | None = None
        """The mask of the builder with a prefix of that length (made once per decision)."""
        self._no_ids = encoding.mask_of(())
        self._settle()

    @property
    def over(self) -> bool:
        return self.state.is_terminal()

    @property
    def seat(self) -> int | None:
        """The seat choosing an action, or None when the game is over."""
        return None if self.over else self.state.current_player()

    @property
    def builder(self) -> ActionBuilder[Any]:
        """The builder of the action being chosen (only while the game goes on), made when
        first asked for: a seat played by whole actions (a Gymnasium opponent) needs none."""
        if self._builder is None:
            if self.over:
                raise RuntimeError("the game is over")
            self._builder = self.encoding.builder(self.state)
        return self._builder

    def observe(self, seat: int) -> Observation:
        """``seat``'s observation: its view, and its ids chosen so far if it is to move."""
        prefix: Sequence[int] = self.builder.prefix if seat == self.seat else ()
        return self.encoding.observe(self.views[seat], prefix, self.belief)

    def mask(self, seat: int) -> Mask:
        """The legal ids of ``seat``: the builder's when it is to move, else none."""
        if seat != self.seat:
            return self._no_ids.copy()
        builder = self.builder
        kept = self._mask
        if kept is None or kept[0] is not builder or kept[1] != len(builder.prefix):
            kept = self._mask = (builder, len(builder.prefix), self.encoding.mask(builder))
        return kept[2].copy()

    def step(self, action_id: int) -> Hashable | None:
        """Choose one id for the seat to move; return the action once it is complete and
        played (then chance is drawn until a seat is to move or the game ends).  An id the mask
        refuses raises :class:`~sleuth.core.errors.IllegalActionError`, changing nothing."""
        action: Hashable | None = self.builder.push(int(action_id))
        if action is None:
            return None
        self._play(action)
        self._settle()
        return action

    def play(self, action: Hashable) -> None:
        """Play a whole action for the seat to move (a bot's), checked by the engine."""
        if self._builder is not None and self._builder.prefix:
            raise RuntimeError("an action is half built: finish it with step() first")
        self._play(action)
        self._settle()

    def wins(self) -> tuple[float, ...]:
        """Each seat's win share once the game is over (0 for every seat before)."""
        if not self.over:
            return (0.0,) * self.game.num_players
        return self.state.wins()

    def _play(self, action: Hashable) -> None:
        seat = self.state.current_player()
        events = self.state.apply(action)
        self.actions.append((seat, action))
        for s, seen in enumerate(self._seen):
            seen.extend(e if e.private is None else e.seen_by(s) for e in events)

    def _settle(self) -> None:
        """Draw chance until a seat is to move or the game is over; forget the builder of the
        last action (:attr:`builder` makes the next one)."""
        while not self.state.is_terminal() and self.state.current_player() == CHANCE:
            self._play(self.state.sample_chance(self._chance))
        self._builder = None
