"""Whose turn it is in Fugitive, from the public events alone.

The turn order never depends on hidden cards: pile sizes, placements, passes, bonus draws,
guesses, the Manhunt and the round limit are all public.  :class:`PublicTurns` follows a game
through the events any seat sees and says who moves next and how, exactly as
:class:`~sleuth.games.fugitive.rules.FugitiveState` would (tests compare the two along random
games).  The one move it cannot judge is whether the Fugitive may pass his second opening
hideout under ``exactly_2`` (only when his hand has no placement left); it allows both.

The Marshal's table uses it to refuse entries out of turn even when only the relaxed belief
is available, and to end a game at the round limit.
"""

from __future__ import annotations

from collections.abc import Iterable

from sleuth.core.events import Event
from sleuth.games.fugitive.engine.cards import PILES, SETUP_DRAWS
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame, Phase

FUGITIVE_PHASES = (Phase.OPENING, Phase.FUGITIVE_PLACE, Phase.BONUS)


class PublicTurns:
    """The turn order after some public events (see the module docstring).

    Invariants: ``draws_due`` lists the seats of the draws still to make this turn; the
    setup draws are already made when the first event is fed; ``phase`` is
    :attr:`Phase.OVER` exactly when a ``game_over`` event was fed or the round limit reached.
    """

    def __init__(self, game: FugitiveGame, events: Iterable[Event] = ()) -> None:
        self.game = game
        self.piles = [len(pile) - drawn for pile, drawn in zip(PILES, SETUP_DRAWS, strict=True)]
        self.phase = Phase.OPENING
        self.draws_due: list[int] = []
        self.drawing = False
        """A pile was chosen and its card is not yet turned up."""
        self.opening_placed = 0
        self.rounds = 0
        """Marshal turns ended (a round ends with hers)."""
        self.round_limit_reached = False
        """The round limit ended the game and no ``game_over`` event has said so (a guess
        that uncovers the route in the last round is followed by its own ``game_over``)."""
        self.feed(events)

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def mover(self) -> int | None:
        """The seat to move (a pile choice or a decision); None when the game is over."""
        if self.over:
            return None
        if self.draws_due:
            return self.draws_due[0]
        return FUGITIVE if self.phase in FUGITIVE_PHASES else MARSHAL

    def expects_draw(self) -> bool:
        """The seat to move must choose a pile."""
        return bool(self.draws_due) and not self.over

    def feed(self, events: Iterable[Event]) -> None:
        """Follow ``events`` (the setup draws excluded), in order."""
        for event in events:
            self._follow(event)

    def _follow(self, event: Event) -> None:
        kind, public = event.kind, event.public
        if kind == "game_over":  # the game ended for the reason it gives, not at the limit
            self._end(at_round_limit=False)
            return
        if self.over:
            return
        if kind == "chose_pile":
            if public["bonus"]:  # 2nd edition, after a pass: then the Marshal's turn
                self._start_marshal_turn(skip_now=False)
            else:
                self.draws_due.pop(0)
            self.drawing = True
        elif kind == "drew":
            self.drawing = False
            self.piles[int(public["pile"]) - 1] -= 1
            self._skip_empty_draws()
        elif kind == "placed":
            self._placed(public.get("value") is not None)
        elif kind == "passed":
            if self.phase is Phase.FUGITIVE_PLACE and self.game.pass_bonus_draw and any(self.piles):
                self.phase = Phase.BONUS
            else:
                self._start_marshal_turn()
        elif kind == "declined_bonus":
            self._start_marshal_turn()
        elif kind in ("skipped", "guessed") and self.phase is Phase.MARSHAL_GUESS:
            self._end_marshal_turn()
        elif kind == "manhunt":
            self.phase = Phase.MANHUNT

    def _placed(self, is_last: bool) -> None:
        if is_last:  # a "manhunt" or "game_over" event follows (F26)
            self.draws_due = []
            return
        if self.phase is Phase.OPENING:
            self.opening_placed += 1
            if self.opening_placed < 2:
                return
        self._start_marshal_turn()

    def _start_marshal_turn(self, skip_now: bool = True) -> None:
        self.phase = Phase.MARSHAL_DRAW
        self.draws_due = [MARSHAL] * (2 if self.rounds == 0 else 1)
        if skip_now:
            self._skip_empty_draws()

    def _end_marshal_turn(self) -> None:
        self.rounds += 1
        if self.game.max_rounds and self.rounds >= self.game.max_rounds:
            self._end(at_round_limit=True)
            return
        self.phase = Phase.FUGITIVE_DRAW
        self.draws_due = [FUGITIVE]
        self._skip_empty_draws()

    def _end(self, at_round_limit: bool) -> None:
        self.phase = Phase.OVER
        self.draws_due = []
        self.round_limit_reached = at_round_limit

    def _skip_empty_draws(self) -> None:
        """F28: with every pile empty, the draws due are skipped and the turn goes on."""
        if not any(self.piles):
            self.draws_due = []
        if self.draws_due or self.drawing:
            return
        if self.phase is Phase.MARSHAL_DRAW:
            self.phase = Phase.MARSHAL_GUESS
        elif self.phase is Phase.FUGITIVE_DRAW:
            self.phase = Phase.FUGITIVE_PLACE
