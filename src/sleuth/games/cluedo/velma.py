"""``velma``: the Velma program's way of playing Cluedo, constants included.

Belief: :class:`~sleuth.games.cluedo.velma_hypotheses.VelmaBelief` (forbidden matrix, logs,
100,000 hypotheses from its biased sampler, every deal once the estimate is below 500,000).
With ``sampler=exact`` the refills are drawn instead from Sleuth's exact deduction, exactly
uniformly, so that inference and policy can be judged apart.

Policy, on its own turn (scores from :mod:`~sleuth.games.cluedo.velma_scoring`):

* each room it might enter gets the best of its 36 suggestions (lowest expected entropy after
  the answer, against an adversarial responder; ties at random) and the score expected
  entropy + remoteness, the remoteness under that suggestion's expected room distribution;
  a position outside rooms scores the current entropy + its remoteness under the current
  room distribution;
* move: for each roll, the best place the roll can take it; rolling scores the average over
  the rolls (the game's dice), the passage and staying (when allowed) the room they lead to;
  the lowest score wins (passage, then roll, then stay on ties); after the roll it goes to
  the best place;
* in a room it may suggest in, it makes that room's best suggestion;
* it accuses when the most likely envelope has probability above ``threshold`` (0.79) and,
  with ``accuse_in_room`` (the program's habit, the default), only just after suggesting in
  that envelope's room; otherwise as soon as it may;
* refuting, it shows a card it has already shown this suggester (the most shown of them), else
  the card it has shown most (ties: the lowest card).

Velma keeps no belief once eliminated (she only refutes then).

Her random streams restart before each event she reads (from her seed, her ``seed`` option and
the event's number) and a tie between suggestions is broken by a stream of its own (the
belief's version and the room), so that her hypotheses and choices are functions of her view:
a Velma rebuilt mid-game plays as the one that never stopped.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from sleuth.core.bots import Bot
from sleuth.core.events import Event, View
from sleuth.core.rng import derive_seed
from sleuth.games.cluedo.actions import END, PASSAGE, ROLL, STAY, Accuse, Go, Show, Suggest
from sleuth.games.cluedo.cards import CARD_COUNT, ROOMS, solution_cards, solution_index
from sleuth.games.cluedo.catalogue import ENUMERATE_BELOW, GAME, HYPOTHESES, SAMPLERS
from sleuth.games.cluedo.catalogue import VELMA_THRESHOLD as THRESHOLD
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.movement import InRoom, Position, passage, reachable, roll_distribution
from sleuth.games.cluedo.rules import CluedoGame
from sleuth.games.cluedo.velma_hypotheses import Envelopes, Owners, VelmaBelief, warm_up
from sleuth.games.cluedo.velma_scoring import (
    ROOM_SPANS,
    answer_order,
    entropy,
    room_analysis,
    spans_from,
)
from sleuth.games.cluedo.view import last_roll, token_positions


class VelmaPlayer(Bot):
    """Velma for one seat (see the module docstring); options as in ``docs/cluedo.md``."""

    def __init__(
        self,
        game: CluedoGame,
        seat: int,
        seed: int,
        hypotheses: int = HYPOTHESES,
        enumerate_below: int = ENUMERATE_BELOW,
        threshold: float = THRESHOLD,
        sampler: str = "velma",
        accuse_in_room: bool = True,
        salt: int = 0,
    ) -> None:
        super().__init__(game, seat, seed)
        if sampler not in SAMPLERS:
            raise ValueError(f"sampler={sampler}: one of {', '.join(SAMPLERS)}")
        self.cluedo = game
        self.hypotheses, self.enumerate_below = hypotheses, enumerate_below
        self.threshold, self.accuse_in_room = threshold, accuse_in_room
        self.salt = salt
        self.np_rng = np.random.default_rng([seed, salt])
        self.rng = random.Random(f"{seed}/{salt}")
        self.exact = CluedoBelief(seat) if sampler == "exact" else None
        self.belief: VelmaBelief | None = None
        self.read = 0
        self.out = False
        """Eliminated (or the game is over): no belief is kept any more."""
        self.asking: tuple[int, tuple[int, int, int]] = (seat, (0, 0, 0))
        """The last suggestion: suggester and cards."""
        self.shown_to: list[set[int]] = [set() for _ in range(game.players)]
        self.shown = [0] * CARD_COUNT
        """How often this seat has shown each of its cards."""
        self._analysed: dict[int, tuple[float, Any, tuple[int, int]]] = {}
        self._analysed_at = -1
        self._order: npt.NDArray[np.uint8] | None = None

    # --- reading the view ---------------------------------------------------------------------

    def reseed(self, seed: int) -> None:
        """Restart both streams (the belief's NumPy one in place) from ``seed`` and the salt."""
        self.rng.seed(derive_seed(seed, "velma", self.salt))
        self.np_rng.bit_generator.state = np.random.PCG64([seed, self.salt]).state

    def observe(self, view: View) -> None:
        """Read the events of ``view`` not read yet, each with the streams restarted from its
        number."""
        events = view.events
        while self.read < len(events):
            event = events[self.read]
            self.reseed(derive_seed(self.seed, "event", self.read))
            self.read += 1
            if self.exact is not None and not self.out:
                self.exact.update(event)
            self._event(event)

    def _event(self, event: Event) -> None:
        kind, public = event.kind, event.public
        if kind == "setup":
            self.belief = VelmaBelief(
                self.seat,
                tuple(public["hand_sizes"]),
                int(public["dealer"]),
                tuple(public["face_up"]),
                self.hypotheses,
                self.enumerate_below,
                self.np_rng,
                None if self.exact is None else self._draw_exact,
            )
        elif kind == "suggested":
            cards = (int(public["suspect"]), int(public["weapon"]), int(public["room"]))
            self.asking = (int(public["seat"]), cards)
        elif kind == "refuted" and int(public["seat"]) == self.seat:
            assert event.private is not None
            card = int(event.private["card"])
            self.shown_to[self.asking[0]].add(card)
            self.shown[card] += 1
        if self.out or self.belief is None:
            return
        self._learn(self.belief, event)

    def _learn(self, belief: VelmaBelief, event: Event) -> None:
        kind, public = event.kind, event.public
        suggester, cards = self.asking
        if kind == "hand" and int(public["seat"]) == self.seat:
            assert event.private is not None
            belief.own_hand(tuple(event.private["cards"]))
        elif kind == "passed":
            belief.passed(int(public["seat"]), cards)
        elif kind == "refuted":
            seat = int(public["seat"])
            if suggester == self.seat:
                assert event.private is not None
                belief.shown(seat, int(event.private["card"]))
            elif seat != self.seat:
                belief.answered(seat, cards)
        elif kind == "accused":
            triple = (int(public["suspect"]), int(public["weapon"]), int(public["room"]))
            if not public["correct"]:
                belief.accused_wrongly(solution_index(*triple))
            self.out = self.out or int(public["seat"]) == self.seat or bool(public["correct"])
        elif kind == "game_over":
            self.out = True

    def _draw_exact(self, k: int) -> tuple[Owners, Envelopes]:
        """``k`` deals drawn exactly uniformly by the exact deduction, as hypotheses."""
        assert self.exact is not None and self.belief is not None
        deals = self.exact.posterior.samples(self.rng, k)
        n, envelope = self.cluedo.players, self.belief.envelope
        hands = np.array([d.hands for d in deals], dtype=np.int64).reshape(k, n)
        holds = (hands[:, :, None] >> np.arange(CARD_COUNT)) & 1
        owners = np.where(holds.any(1), holds.argmax(1), self.belief.table).astype(np.int8)
        triples = np.array([d.envelope for d in deals], dtype=np.intp).reshape(k, 3)
        owners[np.arange(k)[:, None], triples] = envelope
        solutions = [solution_index(*d.envelope) for d in deals]
        return owners, np.array(solutions, dtype=np.int16)

    # --- acting -------------------------------------------------------------------------------

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        self.observe(view)
        first = legal[0]
        if isinstance(first, Show):
            return self._refute([a.card for a in legal if isinstance(a, Show)])
        here = token_positions(self.cluedo, view.events)[self.cluedo.suspects[self.seat]]
        if isinstance(first, Go):
            return self._head(here, last_roll(view), [a for a in legal if isinstance(a, Go)])
        suggestions = [a for a in legal if isinstance(a, Suggest)]
        if not self.accuse_in_room or not (suggestions or ROLL in legal):
            accusation = self._accusation(here, legal)
            if accusation is not None:
                return accusation
        if ROLL in legal:
            return self._move(here, legal)
        if suggestions:
            return self._suggest(suggestions[0].room)
        return END

    def _refute(self, cards: list[int]) -> Show:
        again = [c for c in cards if c in self.shown_to[self.asking[0]]]
        return Show(max(again or cards, key=lambda c: (self.shown[c], -c)))

    def _accusation(self, here: Position, legal: Sequence[Hashable]) -> Accuse | None:
        """The accusation Velma makes now, if any (see the module docstring)."""
        belief = self.belief
        if belief is None or not belief.count:
            return None
        counts = belief.solution_counts()
        best = int(counts.argmax())
        if counts[best] / belief.count <= self.threshold:
            return None
        accusation = Accuse(*solution_cards(best))
        if self.accuse_in_room and here != InRoom(accusation.room):
            return None
        return accusation if accusation in legal else None

    def _move(self, here: Position, legal: Sequence[Hashable]) -> Hashable:
        """Roll, passage or stay: the lowest expected score (see the module docstring)."""
        if PASSAGE not in legal and STAY not in legal:
            return ROLL
        retarget = self.cluedo.allow_retarget
        rolling = sum(
            p * min(self._score(pos) for pos in reachable(here, t, retarget).values())
            for t, p in roll_distribution(self.cluedo.dice)
        )
        assert isinstance(here, InRoom)
        through = passage(here.room)
        by_passage = self._score(InRoom(through)) if PASSAGE in legal and through else np.inf
        staying = self._score(here) if STAY in legal else np.inf
        if by_passage <= staying and by_passage <= rolling:
            return PASSAGE
        return ROLL if rolling <= staying else STAY

    def _head(self, here: Position, roll: int, goes: list[Go]) -> Go:
        targets = reachable(here, roll, self.cluedo.allow_retarget)
        return min(goes, key=lambda go: self._score(targets[go.room]))

    def _suggest(self, room: int) -> Suggest:
        suspect, weapon = self._analysis(room)[2]
        return Suggest(suspect, weapon, room)

    # --- scores -------------------------------------------------------------------------------

    def _score(self, position: Position) -> float:
        """Expected entropy + remoteness of being at ``position`` after moving."""
        if isinstance(position, InRoom):
            expected, rooms, _ = self._analysis(position.room)
            return expected + float(rooms @ ROOM_SPANS[position.room - ROOMS.start])
        counts = self._belief().solution_counts().astype(np.float64)
        rooms = counts.reshape(36, 9).sum(0)
        remote = spans_from(position, self.cluedo.allow_retarget) @ (rooms / rooms.sum())
        return float(entropy(counts)) + float(remote)

    def _analysis(self, room: int) -> tuple[float, Any, tuple[int, int]]:
        """The room's best suggestion: (expected entropy, expected room distribution,
        (suspect, weapon)), cached until the pool changes (ties broken by the pool's version
        and the room, so the cache gives what a fresh analysis would)."""
        belief = self._belief()
        if self._analysed_at != belief.version:
            self._analysed, self._analysed_at = {}, belief.version
            self._order = answer_order(belief.owners, self.seat, belief.players)
        if room not in self._analysed:
            assert self._order is not None
            expected, rooms = room_analysis(self._order, belief.envelopes, belief.players, room)
            ties = np.argwhere(expected == expected.min())
            tie = random.Random(derive_seed(self.seed, self.salt, "tie", belief.version, room))
            s, w = ties[tie.randrange(len(ties))]
            self._analysed[room] = (float(expected[s, w]), rooms[s, w], (int(s), 6 + int(w)))
        return self._analysed[room]

    def _belief(self) -> VelmaBelief:
        if self.belief is None or not self.belief.count:
            raise RuntimeError("Velma has no hypotheses to score with")
        return self.belief


def _velma(game: CluedoGame, seat: int, seed: int, /, **options: Any) -> VelmaPlayer:
    """The bot spec's factory: the ``seed`` option is Velma's ``salt``."""
    salt = options.pop("seed")
    return VelmaPlayer(game, seat, seed, salt=salt, **options)


VELMA = GAME.bot("velma").implemented(_velma, warm_up)
"""The bot, as the game's catalogue declares it."""
