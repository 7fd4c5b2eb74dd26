"""Fugitive players: the heuristic Fugitive (hand management, pile choice, bluffing) and the
steady Fugitive (simple and predictable, for comparison with published figures).

The heuristic Fugitive

reads only its own view (its hand and route are in its private events) and decides:

- **Draw**: from the pile holding the numbers just above its last hideout, the cards it can
  place next; when that pile is empty, the nearest non-empty one.  It always takes the 2nd
  edition's bonus draw (a card is never a cost).
- **Place or pass**: 42 as soon as it can be placed (the Marshal then needs every face-down
  hideout without a miss).  Otherwise each placeable hideout ``h`` is scored by the distance it
  covers minus the cost of its sprint cards: a card below ``h`` can never be a hideout again,
  so paying with it is cheap (``dead_cost``); a card above ``h`` is a future hideout
  (``live_cost``).  It passes when the best placement costs a live card and the hand is
  short, keeping cards to build a route later.
- **Bluff**: with probability ``bluff`` it adds one more sprint card than needed, cheapest
  first, so the number of sprint cards says less about the jump.

Both Fugitives also state their move probabilities (``strategy``: a :class:`Strategy`), so that
a Marshal who knows whom she faces can weigh each world by how likely he was to play it
(:mod:`sleuth.games.fugitive.deduction.opponent`).  A test checks that every move ``act`` makes has
a
positive probability there, and that the bluff comes about as often as stated.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Sequence
from typing import Any, Protocol

from sleuth.core.bots import Bot
from sleuth.core.events import Event, View
from sleuth.core.game import Game
from sleuth.games.fugitive.catalogue import BLUFF as BLUFF
from sleuth.games.fugitive.catalogue import DEAD_CARDS as DEAD_CARDS
from sleuth.games.fugitive.engine.actions import (
    PASS,
    TAKE_BONUS,
    Bonus,
    Draw,
    FugitiveAction,
    Pass,
    Place,
)
from sleuth.games.fugitive.engine.cards import LAST, PILE_OF, PILES, SPRINT, START_HAND
from sleuth.games.fugitive.engine.moves import Choices, OpeningPlacements, Placements
from sleuth.games.fugitive.rules import FUGITIVE

DEAD_COST = 0.5
LIVE_COST = 3.0
SHORT_HAND = 5
"""Below this many cards, the Fugitive would rather pass than pay with a future hideout."""


Mixed = list[tuple[float, FugitiveAction]]
"""A mixed move: each action with its probability (the probabilities sum to 1)."""


class Strategy(Protocol):
    """A Fugitive whose moves depend only on his hand, his last hideout and the legal actions,
    with known probabilities."""

    def strategy(self, hand: list[int], last: int, legal: Sequence[Hashable]) -> Mixed:
        """The moves :meth:`~sleuth.core.bots.Bot.act` makes with ``hand`` (sorted) after
        ``last`` among ``legal``, each with its probability."""
        ...


def unseen_cards(events: Iterable[Event]) -> list[list[int]]:
    """Per pile, the cards the Fugitive has not seen: all but his own draws (the Marshal's
    cards are among them)."""
    seen = {
        int(e.private["card"])
        for e in events
        if e.kind == "drew" and e.public["seat"] == FUGITIVE and e.private is not None
    }
    return [[c for c in pile if c not in seen] for pile in PILES]


def own_cards(view: View) -> tuple[set[int], int]:
    """The Fugitive's hand and last hideout, read from his own view."""
    hand = set(START_HAND)
    last = 0
    for event in view.events:
        if event.private is None or view.seat not in event.audience:
            continue
        if event.kind == "drew" and event.public["seat"] == FUGITIVE:
            hand.add(int(event.private["card"]))
        elif event.kind == "placed":
            last = int(event.private["value"])
            hand.discard(last)
            hand.difference_update(int(c) for c in event.private["sprint_cards"])
    return hand, last


class HeuristicFugitive(Bot):
    """See the module docstring."""

    def __init__(self, game: Game[Any], seat: int, seed: int, bluff: float) -> None:
        super().__init__(game, seat, seed)
        self.bluff = bluff

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        if isinstance(legal[0], Bonus):
            return TAKE_BONUS
        hand, last = own_cards(view)
        if isinstance(legal[0], Draw):
            return toward_next_hideouts([a for a in legal if isinstance(a, Draw)], last)
        rest = legal.rest if isinstance(legal, Choices) else None
        if isinstance(rest, Placements):
            return self._place_or_pass(sorted(hand), last, rest.hideouts(), can_pass=True)
        options = sorted({a.hideout for a in legal if isinstance(a, Place)})  # the opening
        choice = self._place_or_pass(sorted(hand), last, options, can_pass=PASS in legal)
        if choice in legal:
            return choice
        assert isinstance(choice, Place)
        return self.rng.choice(
            [a for a in legal if isinstance(a, Place) and a.hideout == choice.hideout]
        )

    def _place_or_pass(
        self, hand: list[int], last: int, hideouts: Sequence[int], can_pass: bool
    ) -> Place | Pass:
        return place_or_pass(hand, last, hideouts, can_pass, self.rng, self.bluff)

    def strategy(self, hand: list[int], last: int, legal: Sequence[Hashable]) -> Mixed:
        """:meth:`act`'s moves with their probabilities (see :class:`Strategy`)."""
        if isinstance(legal, OpeningPlacements):  # asked first: indexing would list them all
            return self._opening_odds(hand, last, legal, legal.hideouts())
        if isinstance(legal[0], Bonus):
            return [(1.0, TAKE_BONUS)]
        if isinstance(legal[0], Draw):
            return [(1.0, toward_next_hideouts([a for a in legal if isinstance(a, Draw)], last))]
        rest = legal.rest if isinstance(legal, Choices) else None
        if isinstance(rest, Placements):
            return self._odds(hand, last, rest.hideouts(), True)
        options = sorted({a.hideout for a in legal if isinstance(a, Place)})
        return self._opening_odds(hand, last, legal, options)

    def _odds(self, hand: list[int], last: int, hideouts: Sequence[int], can_pass: bool) -> Mixed:
        """:meth:`_place_or_pass`'s choices with their probabilities."""
        return place_or_pass_odds(hand, last, hideouts, can_pass, self.bluff)

    def _opening_odds(
        self, hand: list[int], last: int, legal: Sequence[Hashable], options: list[int]
    ) -> Mixed:
        """The opening's moves (hideouts ``options``) with their probabilities."""
        mixed: Mixed = []
        for p, choice in self._odds(hand, last, options, PASS in legal):
            if choice in legal:
                mixed.append((p, choice))
                continue
            assert isinstance(choice, Place)  # F14 refused this payment: any of that hideout
            others = (
                legal.of_hideout(choice.hideout)
                if isinstance(legal, OpeningPlacements)
                else [a for a in legal if isinstance(a, Place) and a.hideout == choice.hideout]
            )
            mixed += [(p / len(others), a) for a in others]
        return mixed


def toward_next_hideouts(piles: Sequence[Draw], last: int) -> Draw:
    """The heuristic Fugitive's draw: the pile of ``last + 2``, else the nearest (lower first)."""
    wanted = max(PILE_OF[min(last + 2, LAST - 1)], 1)
    return min(piles, key=lambda d: (abs(d.pile - wanted), d.pile))


def place_or_pass(
    hand: list[int],
    last: int,
    hideouts: Sequence[int],
    can_pass: bool,
    rng: random.Random,
    bluff: float,
) -> Place | Pass:
    """The heuristic Fugitive's placement after ``last`` among the placeable ``hideouts`` of
    ``hand`` (sorted): 42 at once, else the best :func:`placement_score`; a pass when that
    costs a live card and the hand is short; one card more with probability ``bluff``."""
    if not hideouts:
        return PASS
    if LAST in hideouts:
        return payment(hand, last, LAST, bluff=False)
    best_score, best = float("-inf"), None
    for h in hideouts:
        place = payment(hand, last, h, bluff=False)
        score = placement_score(place, last)
        if score > best_score:
            best_score, best = score, place
    assert best is not None
    pays_live = any(c > best.hideout for c in best.sprints)
    if can_pass and pays_live and len(hand) < SHORT_HAND:
        return PASS
    if rng.random() < bluff:
        return payment(hand, last, best.hideout, bluff=True)
    return best


def place_or_pass_odds(
    hand: list[int], last: int, hideouts: Sequence[int], can_pass: bool, bluff: float
) -> Mixed:
    """:func:`place_or_pass`'s choices with their probabilities: its one sure move, or the
    best placement and its bluff (which may be the same placement when no card is spare)."""
    if not hideouts:
        return [(1.0, PASS)]
    if LAST in hideouts:
        return [(1.0, payment(hand, last, LAST, bluff=False))]
    best = max(
        (payment(hand, last, h, bluff=False) for h in hideouts),
        key=lambda place: placement_score(place, last),
    )  # the first of the best, as place_or_pass
    if can_pass and any(c > best.hideout for c in best.sprints) and len(hand) < SHORT_HAND:
        return [(1.0, PASS)]
    return [(1.0 - bluff, best), (bluff, payment(hand, last, best.hideout, bluff=True))]


def placement_score(place: Place, last: int) -> float:
    """The heuristic Fugitive's value of a placement after ``last``: the distance it covers
    minus its sprint cards' cost (cheap below the hideout, dear above it)."""
    cost = sum(DEAD_COST if c < place.hideout else LIVE_COST for c in place.sprints)
    return (place.hideout - last) - cost


def payment(hand: Iterable[int], last: int, hideout: int, bluff: bool) -> Place:
    """``hideout`` with the cheapest sprint cards covering the jump (one more if ``bluff`` and
    the hand has one): cards below the hideout first, the biggest footprints first."""
    need = hideout - last - 3
    pool = sorted(
        (c for c in hand if c not in (hideout, LAST)),
        key=lambda c: (c > hideout, -SPRINT[c], c if c < hideout else -c),
    )
    chosen: list[int] = []
    for card in pool:
        if need <= 0:
            break
        chosen.append(card)
        need -= SPRINT[card]
    if bluff:
        spare = [c for c in pool if c not in chosen]
        if spare:
            chosen.append(spare[0])
    return Place(hideout, tuple(chosen))


class SteadyFugitive(Bot):
    """A simple, predictable Fugitive, modelled on the description of the Fugitive-L1 player
    that the public 99.98% Marshal figure was measured against (``smsxgz/fugitive``).

    It always draws from the lowest non-empty pile and takes any bonus draw.  It places 42 as
    soon as it can (fewest sprint cards, lowest numbers first); otherwise the largest hideout
    at most 3 above the last one, never sprinting, adding up to ``dead_cards`` cards it can no
    longer place (below the last hideout, odd ones first) as sprint cards; it passes when no
    hideout is within 3.  In the opening, when no hideout is within 3, it takes the placement
    with the fewest sprint cards, the larger hideout on ties.
    """

    def __init__(self, game: Game[Any], seat: int, seed: int, dead_cards: int) -> None:
        super().__init__(game, seat, seed)
        self.dead_cards = dead_cards

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        if isinstance(legal[0], Bonus | Draw):
            return self.choose(set(), 0, legal)
        hand, last = own_cards(view)
        return self.choose(hand, last, legal)

    def strategy(self, hand: list[int], last: int, legal: Sequence[Hashable]) -> Mixed:
        """:meth:`act`'s move, which is sure (see :class:`Strategy`)."""
        move = self.choose(set(hand), last, legal)
        assert isinstance(move, FugitiveAction)
        return [(1.0, move)]

    def choose(self, hand: set[int], last: int, legal: Sequence[Hashable]) -> Hashable:
        """The move with ``hand`` after ``last`` (the class docstring's rules)."""
        if isinstance(legal[0], Bonus):
            return TAKE_BONUS
        if isinstance(legal[0], Draw):
            return legal[0]
        rest = legal.rest if isinstance(legal, Choices) else None
        if isinstance(rest, Placements):
            hideouts = rest.hideouts()
            if LAST in hideouts:
                return fewest_payment(hand, last, LAST)
            near = [h for h in hideouts if h <= last + 3]
            if not near:
                return PASS
            dead = sorted((c for c in hand if c < last), key=lambda c: (SPRINT[c], c))
            return Place(max(near), tuple(dead[: self.dead_cards]))
        places = [a for a in legal if isinstance(a, Place)]
        if not places:
            return PASS
        return min(places, key=lambda p: (len(p.sprints), -p.hideout, p.sprints))


def fewest_payment(hand: set[int], last: int, hideout: int) -> Place:
    """``hideout`` with the fewest sprint cards that cover the jump: as few even (+2) cards as
    that number allows, and the lowest-numbered cards of each parity."""
    pool = sorted(c for c in hand if c not in (hideout, LAST))
    evens = [c for c in pool if SPRINT[c] == 2]
    odds = [c for c in pool if SPRINT[c] == 1]
    need = max(0, hideout - last - 3)
    for size in range(len(pool) + 1):
        if size + min(size, len(evens)) >= need:
            even = max(need - size, 0, size - len(odds))
            return Place(hideout, (*evens[:even], *odds[: size - even]))
    raise ValueError(f"hideout {hideout} cannot be placed after {last}")
