"""Fugitive (rules F1-F30 of ``docs/fugitive.md``): the Fugitive against the Marshal.

Seats: 0 is the Fugitive, 1 the Marshal.  The game starts with chance dealing the Fugitive's
setup draws (3 cards from pile 1, 2 from pile 2).  Then:

* the Fugitive's first turn: two hideouts, no draw (F13; ``opening=one_or_two`` lets him
  ``pass`` after one; F14's dead-end check under ``exactly_2``);
* the Marshal's turn: ``draw`` 2 cards on her first turn and 1 later, each a pile choice then a
  chance ``card``; then one guess (``guess 12 15``, all-or-nothing, F21) or ``skip`` when the
  option allows it;
* the Fugitive's turn: ``draw`` 1, then a hideout or ``pass``; in the 2nd edition a pass may be
  followed by the optional ``bonus`` draw from the lowest non-empty pile (F17);
* draws are skipped when every pile is empty (F28);
* 42 ends the chase (F26): the Fugitive wins at once if the highest face-up hideout is at least
  ``manhunt_threshold``, else the Manhunt starts (F27: single guesses, the first miss loses).

Events (public unless stated): ``chose_pile`` {seat, pile, bonus}; ``drew`` {seat, pile, bonus} with
the card private to the drawer; ``placed`` {position, sprints (count), value only for 42} with
the hideout and sprint cards private to the Fugitive; ``passed``; ``declined_bonus``;
``guessed`` {numbers, hit}; ``revealed`` {position, value, sprints} for each hideout a hit
turns up; ``skipped``; ``manhunt`` {highest}; ``game_over`` {reason, winner} and ``route``
{hideouts, sprints}, the whole route shown at the end.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from sleuth.core.errors import OptionError
from sleuth.core.events import JSON, Event
from sleuth.core.game import CHANCE, TERMINAL, Game, State
from sleuth.games.fugitive.catalogue import EDITIONS as EDITIONS
from sleuth.games.fugitive.catalogue import OPENINGS as OPENINGS
from sleuth.games.fugitive.engine.actions import (
    NO_BONUS,
    PASS,
    SKIP,
    TAKE_BONUS,
    Bonus,
    Card,
    Draw,
    FugitiveAction,
    Guess,
    Pass,
    Place,
    Skip,
    parse_action,
)
from sleuth.games.fugitive.engine.cards import (
    GUESSABLE,
    LAST,
    PILE_MASKS,
    SETUP_DRAWS,
    START_HAND,
    cards_of,
    mask_of,
    sprint_total,
)
from sleuth.games.fugitive.engine.moves import Choices, Guesses, OpeningPlacements, Placements

FUGITIVE = 0
MARSHAL = 1
FUGITIVE_ONLY = frozenset((FUGITIVE,))


class Phase(Enum):
    OPENING = "opening"
    FUGITIVE_DRAW = "fugitive draws"
    FUGITIVE_PLACE = "fugitive places or passes"
    BONUS = "fugitive may take the bonus draw"
    MARSHAL_DRAW = "marshal draws"
    MARSHAL_GUESS = "marshal guesses"
    MANHUNT = "manhunt"
    OVER = "over"


@dataclass(frozen=True)
class FugitiveGame(Game[FugitiveAction]):
    """Fugitive with its rule options (the table of options in ``docs/fugitive.md``)."""

    name: ClassVar[str] = "fugitive"
    terminations: ClassVar[tuple[str, ...]] = (
        "marshal_uncovered_route", "manhunt_success", "manhunt_failed", "escape_no_manhunt",
        "max_rounds",
    )  # fmt: skip
    """The ``reason`` of the ``game_over`` event; ``max_rounds`` is a draw (both sides win)."""

    edition: str = "first"
    opening: str = "exactly_2"
    dead_end_check: bool = True
    marshal_may_skip: bool = True
    manhunt_threshold: int = 30
    max_rounds: int = 0
    """0: no limit; otherwise the game is a draw (0 / 0) after that many rounds (F29)."""

    def __post_init__(self) -> None:
        if self.edition not in EDITIONS:
            raise OptionError(f"edition must be one of {', '.join(EDITIONS)}")
        if self.opening not in OPENINGS:
            raise OptionError(f"opening must be one of {', '.join(OPENINGS)}")
        if self.max_rounds < 0:
            raise OptionError("max_rounds must be at least 0")
        if self.manhunt_threshold < 1:
            raise OptionError("manhunt_threshold must be at least 1")

    @property
    def pass_bonus_draw(self) -> bool:
        """F17: the optional draw after a pass exists in the 2nd edition only."""
        return self.edition == "second"

    @property
    def roles(self) -> tuple[str, ...]:
        return ("fugitive", "marshal")

    def options(self) -> dict[str, JSON]:
        return {
            "edition": self.edition,
            "opening": self.opening,
            "dead_end_check": self.dead_end_check,
            "marshal_may_skip": self.marshal_may_skip,
            "manhunt_threshold": self.manhunt_threshold,
            "max_rounds": self.max_rounds,
        }

    def new_initial_state(self) -> FugitiveState:
        return FugitiveState(self)

    def parse_action(self, text: str) -> FugitiveAction:
        return parse_action(text)


@dataclass
class Hideout:
    """A route card: its value, its sprint cards, and whether it is face up."""

    value: int
    sprints: tuple[int, ...]
    face_up: bool
    cleared: int = 0
    """Numbers a single guess named, and missed, while this card was face down (a bitset of
    public facts: such a number is not this hideout)."""


class FugitiveState(State[FugitiveAction]):
    """A position.  Hands and piles are card bitsets; ``route[0]`` is the start card 0."""

    def __init__(self, game: FugitiveGame) -> None:
        self.game: FugitiveGame = game
        self.piles = list(PILE_MASKS)
        self.hands = [mask_of(START_HAND), 0]
        self.route = [Hideout(0, (), True)]
        self.phase = Phase.OPENING
        self.draws_due: list[tuple[int, int | None, bool]] = [
            (FUGITIVE, pile, False)
            for pile, count in enumerate(SETUP_DRAWS, start=1)
            for _ in range(count)
        ]
        """Draws still to make this turn: (seat, pile or None if the seat chooses, bonus)."""
        self.drawing: tuple[int, int, bool] | None = None
        """A pile chosen, its card not yet turned up (chance to move)."""
        self.opening_placed = 0
        self.rounds = 0
        """Completed rounds (each ends with the Marshal's turn)."""
        self.reason: str | None = None
        self.winner: int | None = None
        self._legal: Sequence[FugitiveAction] | None = None
        """The legal actions of this position, once listed (cleared by every apply)."""

    # --- whose turn -------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.phase is Phase.OVER:
            return TERMINAL
        if self.drawing is not None or (self.draws_due and self.draws_due[0][1] is not None):
            return CHANCE
        if self.draws_due:
            return self.draws_due[0][0]
        if self.phase in (Phase.OPENING, Phase.FUGITIVE_PLACE, Phase.BONUS):
            return FUGITIVE
        return MARSHAL

    @property
    def last_hideout(self) -> int:
        return self.route[-1].value

    def face_down(self) -> list[int]:
        """Values of the face-down hideouts, in route order."""
        return [h.value for h in self.route if not h.face_up]

    def face_up_numbers(self) -> set[int]:
        """Every face-up card: revealed hideouts, their sprint cards, 0 and 42 once placed
        (42's own sprint cards stay face down, F11)."""
        out: set[int] = set()
        for h in self.route:
            if h.face_up:
                out.add(h.value)
                if h.value != LAST:
                    out.update(h.sprints)
        return out

    # --- legal actions ----------------------------------------------------------------------

    def legal_actions(self) -> Sequence[FugitiveAction]:
        if self._legal is None:
            self._legal = self._list_legal_actions()
        return self._legal

    def _list_legal_actions(self) -> Sequence[FugitiveAction]:
        player = self.current_player()
        if player == TERMINAL:
            return ()
        if player == CHANCE:
            return tuple(Card(c) for c in cards_of(self._chance_pile_mask()))
        if self.draws_due:
            return tuple(Draw(p) for p in (1, 2, 3) if self.piles[p - 1])
        if self.phase is Phase.OPENING:
            return self._opening_moves()
        if self.phase is Phase.FUGITIVE_PLACE:
            return Choices((PASS,), Placements(cards_of(self.hands[FUGITIVE]), self.last_hideout))  # type: ignore[return-value]
        if self.phase is Phase.BONUS:
            return (TAKE_BONUS, NO_BONUS)
        face_up = self.face_up_numbers()
        guessable = [n for n in GUESSABLE if n not in face_up]
        if self.phase is Phase.MANHUNT:
            return tuple(Guess((n,)) for n in guessable)
        guesses = Guesses(guessable)
        if self.game.marshal_may_skip:
            return Choices((SKIP,), guesses)  # type: ignore[return-value]
        return guesses

    def _chance_pile_mask(self) -> int:
        if self.drawing is not None:
            return self.piles[self.drawing[1] - 1]
        pile = self.draws_due[0][1]
        assert pile is not None
        return self.piles[pile - 1]

    def _opening_moves(self) -> Sequence[FugitiveAction]:
        """F13-F14: the opening placements (and ``pass`` before the second, where allowed)."""
        game = self.game
        first = self.opening_placed == 0
        opening = OpeningPlacements(
            cards_of(self.hands[FUGITIVE]),
            self.last_hideout,
            follow_up=first and game.opening == "exactly_2" and game.dead_end_check,
        )
        if not first and (game.opening == "one_or_two" or not opening.hideouts()):
            return Choices((PASS,), opening)  # type: ignore[return-value]
        return opening  # without the F14 check, a dead end ends the opening early (above)

    def is_legal(self, action: object) -> bool:
        if isinstance(action, Card):  # a card of the pile being drawn, without listing them
            card = action.card
            return (
                self.current_player() == CHANCE
                and type(card) is int
                and 0 <= card <= LAST
                and self._chance_pile_mask() >> card & 1 == 1
            )
        return action in self.legal_actions()

    # --- applying actions -------------------------------------------------------------------

    def _apply(self, action: FugitiveAction) -> list[Event]:
        self._legal = None
        if isinstance(action, Card):
            return self._turn_up(action.card)
        if isinstance(action, Draw):
            seat, _, bonus = self.draws_due.pop(0)
            self.drawing = (seat, action.pile, bonus)
            return [Event("chose_pile", {"seat": seat, "pile": action.pile, "bonus": bonus})]
        if isinstance(action, Place):
            return self._place(action)
        if isinstance(action, Pass):
            return self._pass()
        if isinstance(action, Bonus):
            return self._bonus(action.take)
        if isinstance(action, Skip):
            return [Event("skipped", {}), *self._end_marshal_turn()]
        assert isinstance(action, Guess)
        return self._guess(action.numbers)

    def illegal_reason(self, action: object) -> str | None:
        if self.is_legal(action):
            return None
        player = self.current_player()
        if player == TERMINAL:
            return "the game is over"
        if player == CHANCE:
            pile = self.drawing[1] if self.drawing is not None else self.draws_due[0][1]
            return f"not in pile {pile} (a card of that pile is to be turned up)"
        who = "the Fugitive" if player == FUGITIVE else "the Marshal"
        if self.draws_due:
            piles = ", ".join(str(a) for a in self.legal_actions())
            return f"{who} must draw first ({piles})"
        if isinstance(action, Place) and self.phase in (Phase.OPENING, Phase.FUGITIVE_PLACE):
            return _placement_problem(self, action)
        if isinstance(action, Guess) and self.phase in (Phase.MARSHAL_GUESS, Phase.MANHUNT):
            return _guess_problem(self, action)
        if action == SKIP and self.phase is Phase.MARSHAL_GUESS:
            return "the Marshal must guess (this game has marshal_may_skip off)"
        return f"not legal now ({who} to move: {self.phase.value})"

    def _turn_up(self, card: int) -> list[Event]:
        if self.drawing is not None:
            seat, pile, bonus = self.drawing
            self.drawing = None
        else:
            seat, chosen, bonus = self.draws_due.pop(0)
            assert chosen is not None
            pile = chosen
        self.piles[pile - 1] &= ~(1 << card)
        self.hands[seat] |= 1 << card
        events = [
            Event(
                "drew",
                {"seat": seat, "pile": pile, "bonus": bonus},
                {"card": card},
                frozenset((seat,)),
            )
        ]
        self._skip_empty_draws()
        return events

    def _place(self, action: Place) -> list[Event]:
        self.hands[FUGITIVE] &= ~mask_of((action.hideout, *action.sprints))
        is_last = action.hideout == LAST
        self.route.append(Hideout(action.hideout, action.sprints, face_up=is_last))
        public: dict[str, JSON] = {"position": len(self.route) - 1, "sprints": len(action.sprints)}
        if is_last:
            public["value"] = LAST
        events = [
            Event(
                "placed",
                public,
                {"value": action.hideout, "sprint_cards": action.sprints},
                FUGITIVE_ONLY,
            )
        ]
        if is_last:
            return events + self._forty_two()
        if self.phase is Phase.OPENING:
            self.opening_placed += 1
            if self.opening_placed < 2:
                return events
        return events + self._start_marshal_turn()

    def _pass(self) -> list[Event]:
        events = [Event("passed", {})]
        if self.phase is Phase.FUGITIVE_PLACE and self.game.pass_bonus_draw and any(self.piles):
            self.phase = Phase.BONUS
            return events
        return events + self._start_marshal_turn()

    def _bonus(self, take: bool) -> list[Event]:
        if not take:
            return [Event("declined_bonus", {}), *self._start_marshal_turn()]
        lowest = next(p for p in (1, 2, 3) if self.piles[p - 1])
        self.phase = Phase.MARSHAL_DRAW  # the Marshal's turn begins once the card is drawn
        self.draws_due = [(FUGITIVE, lowest, True)]
        events = [Event("chose_pile", {"seat": FUGITIVE, "pile": lowest, "bonus": True})]
        self.draws_due.extend(self._marshal_draws())
        return events

    def _marshal_draws(self) -> list[tuple[int, int | None, bool]]:
        count = 2 if self.rounds == 0 else 1  # F18
        return [(MARSHAL, None, False)] * count

    def _start_marshal_turn(self) -> list[Event]:
        self.phase = Phase.MARSHAL_DRAW
        self.draws_due = self._marshal_draws()
        self._skip_empty_draws()
        return []

    def _skip_empty_draws(self) -> None:
        """F28: with every pile empty, draws are skipped; then the turn's next step starts."""
        if not any(self.piles):
            self.draws_due = []
        if self.draws_due or self.drawing is not None:
            return
        if self.phase is Phase.MARSHAL_DRAW:
            self.phase = Phase.MARSHAL_GUESS
        elif self.phase is Phase.FUGITIVE_DRAW:
            self.phase = Phase.FUGITIVE_PLACE

    def _guess(self, numbers: tuple[int, ...]) -> list[Event]:
        hidden = {h.value: i for i, h in enumerate(self.route) if not h.face_up}
        hit = all(n in hidden for n in numbers)
        events = [Event("guessed", {"numbers": numbers, "hit": hit})]
        if not hit and len(numbers) == 1:
            for hideout in self.route:
                if not hideout.face_up:
                    hideout.cleared |= 1 << numbers[0]
        if hit:
            for n in numbers:
                hideout = self.route[hidden[n]]
                hideout.face_up = True
                events.append(
                    Event(
                        "revealed", {"position": hidden[n], "value": n, "sprints": hideout.sprints}
                    )
                )
        if self.phase is Phase.MANHUNT:
            if not hit:
                return events + self._end(FUGITIVE, "manhunt_failed")
            if not self.face_down():
                return events + self._end(MARSHAL, "manhunt_success")
            return events
        if not self.face_down():
            return events + self._end(MARSHAL, "marshal_uncovered_route")
        return events + self._end_marshal_turn()

    def _end_marshal_turn(self) -> list[Event]:
        self.rounds += 1
        if self.game.max_rounds and self.rounds >= self.game.max_rounds:
            return self._end(None, "max_rounds")
        self.phase = Phase.FUGITIVE_DRAW
        self.draws_due = [(FUGITIVE, None, False)]
        self._skip_empty_draws()
        return []

    def _forty_two(self) -> list[Event]:
        """F26: 42 is down.  The highest face-up hideout decides: escape or Manhunt."""
        highest = max((h.value for h in self.route[:-1] if h.face_up), default=0)
        if highest >= self.game.manhunt_threshold:
            return self._end(FUGITIVE, "escape_no_manhunt")
        self.phase = Phase.MANHUNT
        self.draws_due = []
        events = [Event("manhunt", {"highest": highest})]
        if not self.face_down():
            return events + self._end(MARSHAL, "manhunt_success")
        return events

    def _end(self, winner: int | None, reason: str) -> list[Event]:
        self.phase = Phase.OVER
        self.draws_due = []
        self.winner, self.reason = winner, reason
        return [
            Event("game_over", {"reason": reason, "winner": winner}),
            Event(
                "route",
                {
                    "hideouts": tuple(h.value for h in self.route[1:]),
                    "sprints": tuple(h.sprints for h in self.route[1:]),
                },
            ),
        ]

    # --- chance, results, copies ------------------------------------------------------------

    def chance_outcomes(self) -> Sequence[tuple[FugitiveAction, float]]:
        cards = cards_of(self._chance_pile_mask())
        return [(Card(c), 1.0 / len(cards)) for c in cards]

    def sample_chance(self, rng: random.Random) -> FugitiveAction:
        return Card(rng.choice(cards_of(self._chance_pile_mask())))

    def is_terminal(self) -> bool:
        return self.phase is Phase.OVER

    def returns(self) -> tuple[float, ...]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, 0.0) if self.winner == FUGITIVE else (0.0, 1.0)

    def termination(self) -> str:
        assert self.reason is not None, "the game is not over"
        return self.reason

    def outcome(self) -> str:
        who = {FUGITIVE: "fugitive wins", MARSHAL: "marshal wins", None: "draw"}[self.winner]
        return f"{who} ({self.reason}, round {self.rounds + 1})"

    def fallback_action(self) -> FugitiveAction:
        return self.legal_actions()[0]

    def __repr__(self) -> str:
        """The whole position for developers, hidden cards included: the route with face-down
        hideouts in brackets and sprint cards after ``+``, both hands, the piles' sizes."""
        route = " ".join(_hideout_text(h) for h in self.route)
        hands = ["{" + ",".join(map(str, cards_of(hand))) + "}" for hand in self.hands]
        piles = "/".join(str(pile.bit_count()) for pile in self.piles)
        seat = self.current_player()
        to_move = {FUGITIVE: "fugitive", MARSHAL: "marshal", CHANCE: "chance"}.get(seat, "nobody")
        end = ""
        if self.phase is Phase.OVER:
            winner = "nobody" if self.winner is None else ("fugitive", "marshal")[self.winner]
            end = f", winner={winner}, reason={self.reason}"
        return (
            f"FugitiveState(round={self.rounds + 1}, phase={self.phase.value!r}, "
            f"to_move={to_move}, route={route!r}, fugitive_hand={hands[FUGITIVE]}, "
            f"marshal_hand={hands[MARSHAL]}, piles={piles}{end})"
        )

    def clone(self) -> FugitiveState:
        other = FugitiveState.__new__(FugitiveState)
        other.game = self.game
        other.piles = list(self.piles)
        other.hands = list(self.hands)
        other.route = [Hideout(h.value, h.sprints, h.face_up, h.cleared) for h in self.route]
        other.phase = self.phase
        other.draws_due = list(self.draws_due)
        other.drawing = self.drawing
        other.opening_placed = self.opening_placed
        other.rounds = self.rounds
        other.reason = self.reason
        other.winner = self.winner
        other._legal = self._legal
        return other


def _hideout_text(hideout: Hideout) -> str:
    """``7``, ``[7]`` face down, ``[9+3,4]`` with its sprint cards (for ``repr``)."""
    text = str(hideout.value)
    if hideout.sprints:
        text += "+" + ",".join(map(str, hideout.sprints))
    return text if hideout.face_up else f"[{text}]"


def _placement_problem(state: FugitiveState, action: Place) -> str:
    hand = set(cards_of(state.hands[FUGITIVE]))
    p = state.last_hideout
    missing = [c for c in (action.hideout, *action.sprints) if c not in hand]
    if missing:
        return f"{', '.join(map(str, missing))} not in the Fugitive's hand"
    if action.hideout <= p:
        return f"a hideout must be higher than the last one ({p})"
    if LAST in action.sprints or action.hideout in action.sprints:
        return "42 and the hideout itself cannot be sprint cards"
    if len(set(action.sprints)) != len(action.sprints):
        return "a sprint card is repeated"
    reach = 3 + sprint_total(action.sprints)
    if action.hideout - p > reach:
        return f"{action.hideout} is {action.hideout - p} past {p}, but the sprint reaches {reach}"
    return "it would leave no legal second hideout (F14); choose another opening"


def _guess_problem(state: FugitiveState, action: Guess) -> str:
    if not action.numbers:
        return "a guess names at least one number"
    if state.phase is Phase.MANHUNT and len(action.numbers) != 1:
        return "during the Manhunt the Marshal names one number at a time"
    if len(set(action.numbers)) != len(action.numbers):
        return "a number is repeated"
    bad = [n for n in action.numbers if not 1 <= n <= 41]
    if bad:
        return f"only 1-41 can be named, not {', '.join(map(str, bad))}"
    shown = sorted(set(action.numbers) & state.face_up_numbers())
    return f"{', '.join(map(str, shown))} already face up"
