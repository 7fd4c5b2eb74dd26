"""``sleuth``: Sleuth's own Cluedo player, exact deduction and the advice of
:mod:`~sleuth.games.cluedo.advice`.

* **Belief**: :class:`~sleuth.games.cluedo.deduction.belief.CluedoBelief`, exact.
* **Where to go**: :func:`~.advice.plan_turn` (the notepad's "This turn" line too): each
  room is worth its best suggestion's gain as the screen of :func:`~.advice.room_gains`
  estimates it (:func:`~.advice.screened_worth`: exact rescoring of every room would take too
  long), per turn: ending this turn at a position P is worth the best, over rooms R, of
  ``gain(R) / (1 + T(P, R))``, T the expected travel time (0 in R itself, where the
  suggestion is made at once).  Rolling is worth the average over the dice of the best
  place each roll reaches; the secret passage and staying (after a summons) the room they
  leave it in; the highest wins (ties: passage, roll, stay).  After the roll it heads for
  the best place the roll reaches.
* **Suggestion**: the room's best suggestion (:func:`~.advice.best_suggestion`: the
  ``rescore`` best of the screen scored again with exact entropies).
* **Accusation**: as :func:`~.advice.accusation_advice` says, whenever the rules let it (in
  the envelope's room under ``accuse_at=in_named_room``: it heads there first), the rivals'
  progress being :func:`~.advice.rival_progress` of the events seen.
* **Refutation**: :func:`~.advice.card_to_show`, with the suggester's candidates left
  estimated from its hand by our posterior and the cards we showed it.

The samples and screened room scores of a posterior are computed once and kept until the
posterior changes.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from sleuth.core.bots import Bot
from sleuth.core.events import Event, View
from sleuth.core.rng import derive_seed
from sleuth.games.cluedo.actions import END, PASSAGE, ROLL, STAY, Accuse, Go, Show, Suggest
from sleuth.games.cluedo.advice import (
    RESCORE,
    RUSH,
    SAMPLES,
    THRESHOLD,
    AccusationAdvice,
    Floats,
    Samples,
    Turn,
    TurnPlan,
    accusation_advice,
    best_suggestion,
    candidates_left,
    card_to_show,
    draw,
    plan_turn,
    rival_progress,
    room_screens,
    screened_worth,
    warm_up,
)
from sleuth.games.cluedo.catalogue import GAME
from sleuth.games.cluedo.catalogue import SLEUTH_SPARE as SPARE
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.deduction.counting import Posterior
from sleuth.games.cluedo.rules import CluedoGame
from sleuth.games.cluedo.view import last_roll, token_positions


class SleuthPlayer(Bot):
    """The ``sleuth`` bot for one seat (see the module docstring)."""

    def __init__(
        self,
        game: CluedoGame,
        seat: int,
        seed: int,
        samples: int = SAMPLES,
        rescore: int = RESCORE,
        threshold: float = THRESHOLD,
        rush: float = RUSH,
        spare: float = SPARE,
    ) -> None:
        super().__init__(game, seat, seed)
        self.cluedo = game
        self.samples, self.rescore, self.spare = samples, rescore, spare
        self.threshold, self.rush = threshold, min(rush, threshold)
        """``rush`` is at most ``threshold`` (``sleuth:threshold=0.7`` rushes at 0.7 too)."""
        self.belief = CluedoBelief(seat)
        n = game.players
        self.shown: dict[int, frozenset[int]] = {}
        """The cards this seat has shown each other seat."""
        self.suggester = seat
        self.events: Sequence[Event] = ()
        """The events of the latest view observed."""
        self.out = [False] * n
        self._scored: tuple[Posterior, Samples, dict[int, float]] | None = None
        """The posterior last scored, its samples and its rooms' worth."""
        self._learnt_at = 0
        """The number of events read when the posterior last changed: its samples are drawn
        from a stream of that number, so that they are the same whichever decision draws them
        first (a player rebuilt mid-game draws what the one that never stopped holds)."""
        self._screened: tuple[Samples, dict[int, Floats]] | None = None
        """The samples last screened and their room screens (the move and the suggestion of a
        turn share them)."""

    # --- reading the view ---------------------------------------------------------------------

    def observe(self, view: View) -> None:
        self.events = view.events
        for event in view.events[self.belief.events_read :]:
            self._note(event)
            if not self.belief.over:
                knowledge = self.belief.knowledge
                self.belief.update(event)
                if self.belief.knowledge is not knowledge:
                    self._learnt_at = self.belief.events_read

    def _note(self, event: Event) -> None:
        kind, public = event.kind, event.public
        if kind == "suggested":
            self.suggester = int(public["seat"])
        elif kind == "refuted":
            if int(public["seat"]) == self.seat and event.private is not None:
                card = int(event.private["card"])
                before = self.shown.get(self.suggester, frozenset())
                self.shown[self.suggester] = before | {card}
        elif kind == "accused" and not public["correct"]:
            self.out[int(public["seat"])] = True

    def rivals(self) -> float:
        """How close the nearest rival still playing is to solving the case, in [0, 1]
        (:func:`~.advice.rival_progress` of the events observed)."""
        return rival_progress(self.events, self.seat)

    # --- acting -------------------------------------------------------------------------------

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        self.observe(view)
        first = legal[0]
        if isinstance(first, Show):
            return self._refute([a.card for a in legal if isinstance(a, Show)])
        here = token_positions(self.cluedo, view.events)[self.cluedo.suspects[self.seat]]
        if isinstance(first, Go):
            turn = Turn(here, "head", roll=last_roll(view))
        elif ROLL in legal:
            turn = Turn(here, "move", may_stay=STAY in legal)
        else:
            turn = Turn(here, "act", may_suggest=any(isinstance(a, Suggest) for a in legal))
        game, advice = self.cluedo, self.accusation()
        plan = plan_turn(
            turn, self._worth, dice=game.dice, retarget=game.allow_retarget,
            accuse_at=game.accuse_at, accusation=advice,
        )  # fmt: skip
        return self._action(plan, advice)

    def _action(self, plan: TurnPlan, advice: AccusationAdvice | None) -> Hashable:
        """The action that carries out ``plan`` (legal: the plan follows the rules), made
        with the accusation ``advice`` it was made with."""
        if plan.action == "accuse":
            assert advice is not None  # only an accusation advice makes the plan accuse
            return Accuse(advice.suspect, advice.weapon, advice.room)
        if plan.action == "suggest":
            assert plan.room is not None
            return self._suggest(plan.room)
        if plan.action == "go":
            assert plan.room is not None
            return Go(plan.room)
        return {"end": END, "passage": PASSAGE, "stay": STAY, "roll": ROLL}[plan.action]

    def accusation(self) -> AccusationAdvice | None:
        """The accusation advice now (None once the case is closed or before the deal)."""
        if self.belief.knowledge is None or self.belief.over or self.out[self.seat]:
            return None
        return accusation_advice(
            self.belief.posterior, threshold=self.threshold, rush=self.rush, rivals=self.rivals()
        )

    def _refute(self, cards: list[int]) -> Show:
        known = self.shown.get(self.suggester, frozenset())
        left = None
        if self.belief.knowledge is not None:
            left = candidates_left(self.belief.posterior, self.suggester, known)
        return Show(card_to_show(cards, self.suggester, self.shown, candidates_left=left).card)

    def _worth(self) -> dict[int, float]:
        """What reaching each room is worth: its best suggestion's screened gain
        (:func:`~.advice.screened_worth`)."""
        return self._scores()[1]

    def _suggest(self, room: int) -> Suggest:
        posterior = self.belief.posterior
        samples = self._scores()[0]
        rivals = frozenset(
            self.cluedo.suspects[s]
            for s in range(self.cluedo.players)
            if s != self.seat and not self.out[s]
        )
        best = best_suggestion(
            posterior, self.seat, self.cluedo.players, room, self.rng, samples=samples,
            rescore=self.rescore, avoid=rivals, spare=self.spare,
            screen=self._screen(samples, room),
        )  # fmt: skip
        return Suggest(best.suspect, best.weapon, best.room)

    def _scores(self) -> tuple[Samples, dict[int, float]]:
        """Samples of the current posterior and each room's best screened gain (cached until
        the posterior changes)."""
        posterior = self.belief.posterior
        if self._scored is None or self._scored[0] is not posterior:
            rng = random.Random(derive_seed(self.seed, "samples", self._learnt_at))
            samples = draw(posterior, self.seat, self.cluedo.players, rng, self.samples)
            screens = room_screens(samples)
            self._screened = (samples, screens)
            self._scored = (posterior, samples, screened_worth(screens))
        return self._scored[1], self._scored[2]

    def _screen(self, samples: Samples, room: int) -> Floats | None:
        """The room's screen on ``samples`` if they were screened (None: not yet)."""
        if self._screened is None or self._screened[0] is not samples:
            return None
        return self._screened[1][room]


def _sleuth(game: CluedoGame, seat: int, seed: int, /, **options: Any) -> SleuthPlayer:
    return SleuthPlayer(game, seat, seed, **options)


SLEUTH = GAME.bot("sleuth").implemented(_sleuth, warm_up)
"""The bot, as the game's catalogue declares it."""
