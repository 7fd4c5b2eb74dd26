"""Cluedo players.

``random`` plays random legal actions, sensibly: it moves with a random one of roll, passage
and stay; with a roll it enters a random room the roll reaches, else heads for the room it is
closest to; it makes a random suggestion whenever it may, else ends its turn; when refuting it
shows a random one of the cards it may show.  It never accuses: it keeps no notes, so any
accusation would be a guess (1 in 324 at the start) that ends its game.  Games between random
players therefore end at the turn limit (``max_turns``), with no winner.

``logic`` plays like ``random`` but keeps Sleuth's exact deduction, and accuses as soon as
only one envelope is possible (heading for its room first under ``accuse_at=in_named_room``).
``velma`` is the Velma program's method (:mod:`~sleuth.games.cluedo.velma`), ``sleuth``
Sleuth's own player (:mod:`~sleuth.games.cluedo.sleuth_player`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from sleuth.core.bots import Bot
from sleuth.core.events import View
from sleuth.games.cluedo.actions import (
    PASSAGE,
    ROLL,
    Accuse,
    End,
    Go,
    Passage,
    Roll,
    Show,
    Stay,
    Suggest,
)
from sleuth.games.cluedo.catalogue import GAME
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.movement import InRoom, Transit, passage, reachable
from sleuth.games.cluedo.rules import CluedoGame
from sleuth.games.cluedo.sleuth_player import SLEUTH
from sleuth.games.cluedo.velma import VELMA
from sleuth.games.cluedo.view import token_positions


class RandomPlayer(Bot):
    """Random legal actions that make sense; never an accusation (see the module docstring)."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        shows = [a for a in legal if isinstance(a, Show)]
        if shows:
            return self.rng.choice(shows)
        moves = [a for a in legal if isinstance(a, Roll | Passage | Stay)]
        if moves:
            return self.rng.choice(moves)
        goes = [a for a in legal if isinstance(a, Go)]
        if goes:
            return self._head(view, goes)
        suggestions = [a for a in legal if isinstance(a, Suggest)]
        if suggestions:
            return self.rng.choice(suggestions)
        ends = [a for a in legal if isinstance(a, End)]
        if ends:
            return ends[0]
        return self.rng.choice([a for a in legal if not isinstance(a, Accuse)])

    def _head(self, view: View, goes: list[Go]) -> Go:
        """A random room the roll reaches, else the room with the fewest squares left."""
        game = self.game
        assert isinstance(game, CluedoGame)
        here, roll = token_positions(game, view.events)[game.suspects[self.seat]], _roll(view)
        targets = reachable(here, roll, game.allow_retarget)
        inside = [g for g in goes if isinstance(targets.get(g.room), InRoom)]
        if inside:
            return self.rng.choice(inside)

        def left(go: Go) -> int:
            target = targets[go.room]
            return target.left if isinstance(target, Transit) else 0

        nearest = min(left(g) for g in goes)
        return self.rng.choice([g for g in goes if left(g) == nearest])


class LogicPlayer(RandomPlayer):
    """``random``'s play with exact deduction: it accuses as soon as it is certain."""

    def __init__(self, game: CluedoGame, seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        self.belief = CluedoBelief(seat)

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        for event in view.events[self.belief.events_read :]:
            self.belief.update(event)
        if self.belief.knowledge is not None and not self.belief.over:
            solutions = self.belief.posterior.solution_counts()
            if len(solutions) == 1:
                (solution,) = solutions
                return self._towards(Accuse(*solution), view, legal)
        return super().act(view, legal)

    def _towards(self, accusation: Accuse, view: View, legal: Sequence[Hashable]) -> Hashable:
        """The accusation if it may be made here, else a step towards its room."""
        if accusation in legal:
            return accusation
        if Go(accusation.room) in legal:
            return Go(accusation.room)
        if ROLL in legal:
            game = self.game
            assert isinstance(game, CluedoGame)
            here = token_positions(game, view.events)[game.suspects[self.seat]]
            through = passage(here.room) if isinstance(here, InRoom) else None
            return PASSAGE if PASSAGE in legal and through == accusation.room else ROLL
        return super().act(view, legal)


def _roll(view: View) -> int:
    """The roll of the seat's current turn: the last ``rolled`` event."""
    for event in reversed(view.events):
        if event.kind == "rolled":
            return int(event.public["roll"])
    raise ValueError("no roll in the view")


BOTS = (
    GAME.bot("random").implemented(RandomPlayer),
    GAME.bot("logic").implemented(LogicPlayer),
    VELMA,
    SLEUTH,
)
"""The bots, as the game's catalogue declares them."""
