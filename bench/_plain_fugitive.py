"""The baseline for ``bench/fugitive_games.py``: a plain Fugitive engine and its random players.

Written from the rules (F1-F30 of ``docs/fugitive.md``) the way public engines
are written (``handasontam/fugitive_rl``'s ``envs/game.py`` keeps its piles as shuffled lists
and pops them): piles are shuffled lists, hands are sets, the route is three parallel lists.
It has no events, views, action objects or lazy action sequences, and checks a move only as
far as the rules need (F8 and F14 for a placement, F20 for a guess).  One ruleset: 1st edition,
the two-hideout opening with F14's dead-end check, a guess every Marshal turn, draws skipped
when every pile is empty (F28), and a draw after ``max_rounds`` rounds (F29).

:func:`random_move` is the policy of Sleuth's ``random`` bots (``sleuth.games.fugitive.bots``),
chosen step by step as M9 asks.  It draws from a uniformly chosen non-empty pile.  On the
opening it picks a uniform hideout among those it can place and then one of that hideout's
placements with the fewest sprint cards.  Later it passes one time in four (always when it
cannot place), else picks a uniform hideout and a random cheapest sprint set (a uniform split
into +1 and +2 cards, then uniform cards), one card more one time in five.  The Marshal names
one number (two, one time in ten) uniformly among those not face up, and never skips.  The
random stream is its own, so single games differ from Sleuth's while the distribution of games
is the same (``bench/fugitive_games.py`` prints both).
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

FUGITIVE, MARSHAL = 0, 1
LAST = 42
SPRINT = [0] + [1 if c % 2 else 2 for c in range(1, 42)] + [0]
"""F6-F7: a card's sprint value (odd +1, even +2); 0 and 42 are never sprint cards."""

OPENING = "opening"
FUGITIVE_DRAW = "fugitive draws"
FUGITIVE_PLACE = "fugitive places or passes"
MARSHAL_DRAW = "marshal draws"
MARSHAL_GUESS = "marshal guesses"
MANHUNT = "manhunt"
OVER = "over"

Move = tuple[Any, ...]
"""``("draw", pile)``, ``("place", hideout, sprints)``, ``("pass",)`` or ``("guess", numbers)``."""


class PlainFugitive:
    """One game: the piles, both hands, the route, whose turn it is and the result."""

    def __init__(self, rng: random.Random, max_rounds: int = 50) -> None:
        self.piles = [list(range(4, 15)), list(range(15, 29)), list(range(29, 42))]
        for pile in self.piles:
            rng.shuffle(pile)
        self.hands: list[set[int]] = [{1, 2, 3, LAST}, set()]
        self.hands[FUGITIVE].update(self.piles[0].pop() for _ in range(3))
        self.hands[FUGITIVE].update(self.piles[1].pop() for _ in range(2))
        self.route = [0]
        self.sprints: list[tuple[int, ...]] = [()]
        self.face_up = [True]
        self.shown: set[int] = set()
        """Numbers face up in 1-41: revealed hideouts and their sprint cards (F20)."""
        self.max_rounds = max_rounds
        self.rounds = 0
        self.turn = OPENING
        self.draws_left = 0
        self.winner: int | None = None
        self.reason = ""

    def to_move(self) -> int:
        return FUGITIVE if self.turn in (OPENING, FUGITIVE_DRAW, FUGITIVE_PLACE) else MARSHAL

    def open_piles(self) -> list[int]:
        return [n for n in (1, 2, 3) if self.piles[n - 1]]

    def guessable(self) -> list[int]:
        return [n for n in range(1, 42) if n not in self.shown]

    # --- placing ---------------------------------------------------------------------------

    def placeable(self) -> list[int]:
        """Hideouts the hand can place with some sprint set: all its other cards at most (F8)."""
        last = self.route[-1]
        hand = self.hands[FUGITIVE]
        total = sum(SPRINT[c] for c in hand)
        return sorted(h for h in hand if h > last and h - last <= 3 + total - SPRINT[h])

    def sprint_cards(self, hideout: int) -> list[int]:
        """The hand's cards that can go under ``hideout`` (not itself, not 42)."""
        return sorted(c for c in self.hands[FUGITIVE] if c != hideout and c != LAST)

    def is_legal_placement(self, hideout: int, sprints: tuple[int, ...]) -> bool:
        hand = self.hands[FUGITIVE]
        last = self.route[-1]
        if hideout not in hand or hideout <= last or len(set(sprints)) != len(sprints):
            return False
        if any(c not in hand or c in (hideout, LAST) for c in sprints):
            return False
        if hideout - last > 3 + sum(SPRINT[c] for c in sprints):
            return False
        if self.turn == OPENING and len(self.route) == 1:  # F14: a second hideout must remain
            rest = [c for c in hand if c != hideout and c not in sprints]
            total = sum(SPRINT[c] for c in rest)
            return any(h > hideout and h - hideout <= 3 + total - SPRINT[h] for h in rest)
        return True

    def place(self, hideout: int, sprints: tuple[int, ...]) -> None:
        if self.turn not in (OPENING, FUGITIVE_PLACE):
            raise ValueError(f"not the Fugitive's placement ({self.turn})")
        if not self.is_legal_placement(hideout, sprints):
            raise ValueError(f"illegal placement {hideout} {sprints}")
        self.hands[FUGITIVE].difference_update((hideout, *sprints))
        self.route.append(hideout)
        self.sprints.append(sprints)
        self.face_up.append(hideout == LAST)  # F11: 42 goes face up
        if hideout == LAST:
            self._forty_two()
        elif self.turn != OPENING or len(self.route) == 3:
            self._start_marshal_turn()

    def pass_turn(self) -> None:
        if self.turn != FUGITIVE_PLACE:
            raise ValueError(f"the Fugitive cannot pass now ({self.turn})")
        self._start_marshal_turn()

    def _forty_two(self) -> None:
        """F26: the highest face-up hideout decides between escape and Manhunt."""
        highest = max(v for v, up in zip(self.route, self.face_up, strict=True) if up and v != LAST)
        if highest >= 30:
            self._end(FUGITIVE, "escape_no_manhunt")
        elif False not in self.face_up:
            self._end(MARSHAL, "manhunt_success")
        else:
            self.turn = MANHUNT

    # --- drawing ---------------------------------------------------------------------------

    def draw(self, pile: int) -> None:
        if self.turn not in (FUGITIVE_DRAW, MARSHAL_DRAW) or not self.piles[pile - 1]:
            raise ValueError(f"cannot draw from pile {pile} ({self.turn})")
        self.hands[self.to_move()].add(self.piles[pile - 1].pop())
        self.draws_left -= 1
        self._next_draw()

    def _next_draw(self) -> None:
        """F28: with every pile empty, the draws are skipped."""
        if self.draws_left and self.open_piles():
            return
        self.draws_left = 0
        self.turn = FUGITIVE_PLACE if self.turn == FUGITIVE_DRAW else MARSHAL_GUESS

    def _start_marshal_turn(self) -> None:
        self.turn = MARSHAL_DRAW
        self.draws_left = 2 if self.rounds == 0 else 1  # F18
        self._next_draw()

    # --- guessing --------------------------------------------------------------------------

    def guess(self, numbers: tuple[int, ...]) -> bool:
        """F21: all or nothing; F27: single numbers in the Manhunt, the first miss loses."""
        if self.turn not in (MARSHAL_GUESS, MANHUNT) or not numbers:
            raise ValueError(f"cannot guess now ({self.turn})")
        if self.turn == MANHUNT and len(numbers) != 1:
            raise ValueError("one number at a time in the Manhunt")
        if any(not 1 <= n <= 41 or n in self.shown for n in numbers):
            raise ValueError(f"cannot name {numbers}")
        positions = [self.route.index(n) if n in self.route else 0 for n in numbers]
        hit = all(not self.face_up[i] for i in positions)  # position 0: the face-up start
        if hit:
            for i in positions:
                self.face_up[i] = True
                self.shown.add(self.route[i])
                self.shown.update(self.sprints[i])
        if self.turn == MANHUNT:
            if not hit:
                self._end(FUGITIVE, "manhunt_failed")
            elif False not in self.face_up:
                self._end(MARSHAL, "manhunt_success")
        elif False not in self.face_up:
            self._end(MARSHAL, "marshal_uncovered_route")
        else:
            self.rounds += 1
            if self.rounds >= self.max_rounds:
                self._end(None, "max_rounds")
            else:
                self.turn = FUGITIVE_DRAW
                self.draws_left = 1
                self._next_draw()
        return hit

    def _end(self, winner: int | None, reason: str) -> None:
        self.turn = OVER
        self.winner = winner
        self.reason = reason

    def play(self, move: Move) -> None:
        kind = move[0]
        if kind == "draw":
            self.draw(move[1])
        elif kind == "place":
            self.place(move[1], move[2])
        elif kind == "pass":
            self.pass_turn()
        else:
            self.guess(move[1])


# --- the random players ---------------------------------------------------------------------


def random_move(game: PlainFugitive, rng: random.Random) -> Move:
    turn = game.turn
    if turn in (FUGITIVE_DRAW, MARSHAL_DRAW):
        return ("draw", rng.choice(game.open_piles()))
    if turn == MARSHAL_GUESS:
        numbers = game.guessable()
        size = 2 if len(numbers) > 1 and rng.random() < 0.1 else 1
        return ("guess", tuple(rng.sample(numbers, size)))
    if turn == MANHUNT:
        return ("guess", (rng.choice(game.guessable()),))
    if turn == OPENING:
        return random_opening(game, rng)
    hideouts = game.placeable()
    if not hideouts or rng.random() < 0.25:
        return ("pass",)
    hideout = rng.choice(hideouts)
    extra = int(rng.random() < 0.2)
    return ("place", hideout, cheapest_sprints(game, hideout, rng, extra))


def random_opening(game: PlainFugitive, rng: random.Random) -> Move:
    """A uniform hideout among those with a legal opening placement, then a uniform one of its
    placements with the fewest sprint cards (the hand is small, so they are listed).  F14's
    check leaves a legal placement at both steps."""
    options = {}
    for hideout in game.placeable():
        cards = game.sprint_cards(hideout)
        for size in range(len(cards) + 1):
            sets = [s for s in combinations(cards, size) if game.is_legal_placement(hideout, s)]
            if sets:
                options[hideout] = sets
                break
    hideout = rng.choice(sorted(options))
    return ("place", hideout, rng.choice(options[hideout]))


def cheapest_sprints(
    game: PlainFugitive, hideout: int, rng: random.Random, extra: int
) -> tuple[int, ...]:
    """A random set of as few sprint cards as reach ``hideout``, plus ``extra`` more when the
    hand has them: a uniform split into +1 and +2 cards among those of that size, then
    uniform cards."""
    cards = game.sprint_cards(hideout)
    ones = [c for c in cards if SPRINT[c] == 1]
    twos = [c for c in cards if SPRINT[c] == 2]
    need = hideout - game.route[-1] - 3
    splits = [
        (a, b) for a in range(len(ones) + 1) for b in range(len(twos) + 1) if a + 2 * b >= need
    ]
    fewest = min(a + b for a, b in splits)
    size = max(a + b for a, b in splits if a + b <= fewest + extra)
    a, b = rng.choice([(a, b) for a, b in splits if a + b == size])
    return (*rng.sample(ones, a), *rng.sample(twos, b))


def play_random_game(rng: random.Random, max_rounds: int = 50) -> tuple[PlainFugitive, int]:
    """One game between the random players; the final game and the number of moves made."""
    game = PlainFugitive(rng, max_rounds)
    moves = 0
    while game.turn != OVER:
        game.play(random_move(game, rng))
        moves += 1
    return game, moves
