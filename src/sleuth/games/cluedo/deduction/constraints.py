"""One observer's knowledge of a Cluedo deal, as constraints on the cards' owners.

Cards are ints ``0 .. deck.size - 1``, grouped into categories in order (the classic deck:
suspects 0-5, weapons 6-11, rooms 12-20); sets of cards are int bitsets.  The owners of a card
are the seats ``0 .. n - 1``, :data:`ENVELOPE` (one card of each category) and :data:`TABLE`
(the face-up cards, known to everyone).  Internally an owner is an *index*: seats keep their
number, the envelope is ``n`` and the table ``n + 1``.

A :class:`Knowledge` records facts as they were learned and never decides anything itself
(the constraints' ids are those of ``docs/cluedo.md``):

* ``has[o]`` / ``lacks[o]``: cards owner ``o`` surely holds / surely does not hold (one's
  hand K4, a pass K5, an unrefuted suggestion K8, a card seen shown K7, a known envelope K10);
* ``clauses``: ``(o, cards)``, owner ``o`` holds at least one of ``cards`` (a refutation, K6);
* ``failed``: card sets the envelope does not hold all of (wrong accusations, K9);
* ``shown``: ``(seat, triple, card)``, a refutation the observer saw, kept for the
  ``responder=uniform`` weighting.

One owner per card (K1), one envelope card per category (K2), exact hand sizes and the
face-up cards on the table (K3) are part of every problem.
:func:`close` derives what simple rules imply (a :class:`Closure`: known owners, allowed cards,
reduced clauses) and raises :class:`Infeasible` with a reason when those rules already find a
contradiction; the exact consequences come from counting (:mod:`.counting`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Final, Literal

from sleuth.core.bitsets import members
from sleuth.games.cluedo.cards import NAMES

__all__ = [
    "CLASSIC",
    "ENVELOPE",
    "TABLE",
    "Closure",
    "Deck",
    "Infeasible",
    "Knowledge",
    "Owner",
]

ENVELOPE: Final = "envelope"
TABLE: Final = "table"
Owner = int | Literal["envelope", "table"]
"""A card's owner as the outside world names it: a seat number, the envelope or the table."""


@dataclass(frozen=True)
class Deck:
    """A deck of ``sum(sizes)`` cards in ``len(sizes)`` categories, numbered category by
    category (the envelope holds one card of each category).  ``names`` are optional card
    names for messages."""

    sizes: tuple[int, ...] = (6, 6, 9)
    names: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not self.sizes or min(self.sizes) < 1:
            raise ValueError(f"every category needs a card: {self.sizes}")
        if self.names is not None and len(self.names) != self.size:
            raise ValueError(f"{len(self.names)} names for {self.size} cards")

    @property
    def size(self) -> int:
        return sum(self.sizes)

    @property
    def full(self) -> int:
        """The bitset of every card."""
        return (1 << self.size) - 1

    @property
    def categories(self) -> tuple[int, ...]:
        """The bitset of each category's cards."""
        out = []
        start = 0
        for size in self.sizes:
            out.append(((1 << size) - 1) << start)
            start += size
        return tuple(out)

    def category(self, card: int) -> int:
        """The category (0-based) of ``card``."""
        for index, mask in enumerate(self.categories):
            if mask >> card & 1:
                return index
        raise ValueError(f"no card {card} in a deck of {self.size}")

    @property
    def solutions(self) -> int:
        """The number of possible envelopes (324 for the classic deck)."""
        return math.prod(self.sizes)

    def solution_index(self, triple: tuple[int, ...]) -> int:
        """The envelope's index: category-local indices in mixed radix, first category most
        significant (``54*s + 9*w + r`` for the classic deck)."""
        index = 0
        start = 0
        for card, size in zip(triple, self.sizes, strict=True):
            if not start <= card < start + size:
                raise ValueError(f"card {card} is not in the envelope's category {size}")
            index = index * size + card - start
            start += size
        return index

    def solution(self, index: int) -> tuple[int, ...]:
        """The envelope with index ``index`` (inverse of :meth:`solution_index`)."""
        local = []
        for size in reversed(self.sizes):
            index, r = divmod(index, size)
            local.append(r)
        starts = [sum(self.sizes[:i]) for i in range(len(self.sizes))]
        return tuple(s + r for s, r in zip(starts, reversed(local), strict=True))

    def name(self, card: int) -> str:
        return self.names[card] if self.names is not None else f"card {card}"


CLASSIC: Final = Deck((6, 6, 9), NAMES)
"""The 21 cards with their fixed indices (suspects 0-5, weapons 6-11, rooms 12-20)."""


class Infeasible(Exception):
    """No deal satisfies the knowledge; the message says which simple rule found it."""


@dataclass(frozen=True)
class Knowledge:
    """Facts about a deal, owner indices as in the module docstring (``has`` and ``lacks``
    have one entry per seat and one for the envelope, the envelope last).

    Invariants: ``sum(hand_sizes) + |table| + len(deck.sizes) == deck.size`` (every card has
    a place); every bitset lies inside the deck.  Each ``with_*`` method returns a new
    knowledge with one more fact (nothing is checked there: see :func:`close`).
    """

    hand_sizes: tuple[int, ...]
    deck: Deck = CLASSIC
    table: int = 0
    has: tuple[int, ...] = ()
    lacks: tuple[int, ...] = ()
    clauses: tuple[tuple[int, int], ...] = ()
    failed: tuple[int, ...] = ()
    shown: tuple[tuple[int, int, int], ...] = ()

    def __post_init__(self) -> None:
        n = len(self.hand_sizes)
        if n < 1 or min(self.hand_sizes) < 0:
            raise ValueError(f"bad hand sizes {self.hand_sizes}")
        placed = sum(self.hand_sizes) + self.table.bit_count() + len(self.deck.sizes)
        if placed != self.deck.size or self.table & ~self.deck.full:
            raise ValueError(
                f"hand sizes {self.hand_sizes}, {self.table.bit_count()} face-up cards and the "
                f"envelope do not make a deck of {self.deck.size}"
            )
        if not self.has:
            object.__setattr__(self, "has", (0,) * (n + 1))
        if not self.lacks:
            object.__setattr__(self, "lacks", (0,) * (n + 1))
        if len(self.has) != n + 1 or len(self.lacks) != n + 1:
            raise ValueError("has and lacks need one entry per seat and one for the envelope")

    @property
    def players(self) -> int:
        return len(self.hand_sizes)

    @property
    def envelope(self) -> int:
        """The envelope's owner index."""
        return len(self.hand_sizes)

    def index(self, owner: Owner) -> int:
        """The owner index of ``owner``."""
        if owner == ENVELOPE:
            return self.players
        if owner == TABLE:
            return self.players + 1
        if isinstance(owner, int) and 0 <= owner < self.players:
            return owner
        raise ValueError(f"no owner {owner!r} with {self.players} seats")

    def owner(self, index: int) -> Owner:
        """The owner with index ``index`` (inverse of :meth:`index`)."""
        if index == self.players:
            return ENVELOPE
        if index == self.players + 1:
            return TABLE
        return index

    def _check(self, cards: int) -> int:
        if cards & ~self.deck.full or cards < 0:
            raise ValueError(f"cards {members(cards)} are not all in the deck")
        return cards

    def with_has(self, owner: Owner, cards: int) -> Knowledge:
        """``owner`` (a seat or the envelope) holds every card of ``cards``."""
        o = self._holder(owner)
        has = list(self.has)
        has[o] |= self._check(cards)
        return replace(self, has=tuple(has))

    def with_lacks(self, owner: Owner, cards: int) -> Knowledge:
        """``owner`` (a seat or the envelope) holds none of ``cards``."""
        o = self._holder(owner)
        lacks = list(self.lacks)
        lacks[o] |= self._check(cards)
        return replace(self, lacks=tuple(lacks))

    def with_clause(self, owner: Owner, cards: int) -> Knowledge:
        """``owner`` holds at least one of ``cards``."""
        return replace(self, clauses=(*self.clauses, (self._holder(owner), self._check(cards))))

    def with_failed(self, cards: int) -> Knowledge:
        """The envelope does not hold all of ``cards`` (a wrong accusation)."""
        return replace(self, failed=(*self.failed, self._check(cards)))

    def with_shown(self, seat: int, triple: int, card: int) -> Knowledge:
        """``seat`` showed ``card`` of the suggested ``triple`` to the observer."""
        if not triple >> card & 1:
            raise ValueError(f"card {card} is not one of the suggested cards {members(triple)}")
        known = self.with_has(seat, 1 << card)
        return replace(known, shown=(*self.shown, (self._holder(seat), self._check(triple), card)))

    def admits(self, hands: tuple[int, ...], envelope: int) -> bool:
        """True if the deal (each seat's hand and the envelope, as bitsets) satisfies every
        fact: a direct check, fact by fact."""
        owned = (*hands, envelope)
        if len(hands) != self.players or envelope & self.table:
            return False
        if [h.bit_count() for h in hands] != list(self.hand_sizes):
            return False
        if [(envelope & c).bit_count() for c in self.deck.categories] != [1] * len(self.deck.sizes):
            return False
        union = self.table
        for cards in owned:
            if union & cards:
                return False
            union |= cards
        return (
            union == self.deck.full
            and all(has & ~cards == 0 for has, cards in zip(self.has, owned, strict=True))
            and all(lacks & cards == 0 for lacks, cards in zip(self.lacks, owned, strict=True))
            and all(owned[o] & cards for o, cards in self.clauses)
            and all(envelope & cards != cards for cards in self.failed)
        )

    def _holder(self, owner: Owner) -> int:
        o = self.index(owner)
        if o > self.players:
            raise ValueError("facts about the table are fixed at setup")
        return o


@dataclass(frozen=True)
class Closure:
    """What the simple rules derive from a knowledge (owner indices, envelope last).

    ``known[o]``: cards surely held by owner ``o`` (the table's are ``table``); ``allowed[o]``:
    cards ``o`` may hold (``known[o]`` included); ``need[o]``: cards of ``o`` not yet known;
    ``unknown``: cards whose owner is not known; ``clauses``: ``(o, cards)`` over unknown
    cards allowed to ``o``, none yet satisfied and each of two cards or more; ``failed``: sets
    of two cards or more, unknown and allowed to the envelope, that it may not hold together;
    ``open_categories``: the categories whose envelope card is unknown.  Invariant:
    ``sum(need) == |unknown|``, and each unknown card is allowed to two owners or more.
    """

    knowledge: Knowledge
    known: tuple[int, ...]
    allowed: tuple[int, ...]
    need: tuple[int, ...]
    unknown: int
    clauses: tuple[tuple[int, int], ...]
    failed: tuple[int, ...]
    open_categories: tuple[int, ...]

    def owner_of(self, card: int) -> int | None:
        """The owner index of ``card`` if it is known (``players + 1`` for the table)."""
        if self.knowledge.table >> card & 1:
            return self.knowledge.players + 1
        for o, mask in enumerate(self.known):
            if mask >> card & 1:
                return o
        return None


def close(knowledge: Knowledge) -> Closure:
    """Apply the simple rules of K1-K3 to the facts until nothing changes; raises
    :class:`Infeasible` naming what cannot be (a card with no possible owner, a hand too full
    or too empty, an envelope category left empty, a clause or a wrong accusation that must
    fail)."""
    k = knowledge
    deck = k.deck
    env = k.envelope
    owners = env + 1
    free = deck.full & ~k.table
    known = list(k.has)
    allowed = [free & ~k.lacks[o] for o in range(owners)]
    clauses = list(k.clauses)
    failed = list(k.failed)

    def who(o: int) -> str:
        return "the envelope" if o == env else f"seat {o}"

    def cards(mask: int) -> str:
        return ", ".join(deck.name(c) for c in members(mask))

    for o in range(owners):
        if known[o] & k.table:
            raise Infeasible(f"{who(o)} holds {cards(known[o] & k.table)}, face up on the table")
    changed = True
    while changed:
        changed = False
        taken = 0
        for o in range(owners):
            if known[o] & ~allowed[o]:
                raise Infeasible(f"{who(o)} holds and lacks {cards(known[o] & ~allowed[o])}")
            if known[o] & taken:
                raise Infeasible(f"{cards(known[o] & taken)} held by two owners")
            taken |= known[o]
        once = twice = 0
        for o in range(owners):
            before = allowed[o]
            allowed[o] &= known[o] | ~taken
            changed |= allowed[o] != before
            twice |= once & allowed[o]
            once |= allowed[o]
        if free & ~once:
            raise Infeasible(f"{cards(free & ~once)} can be nowhere")
        single = once & ~twice & ~taken
        for o in range(owners):
            if allowed[o] & single:
                known[o] |= allowed[o] & single
                changed = True
        for p in range(env):
            h = k.hand_sizes[p]
            held, possible = known[p].bit_count(), allowed[p].bit_count()
            if held > h:
                raise Infeasible(f"seat {p} holds {held} cards, more than {h}")
            if possible < h:
                raise Infeasible(f"seat {p} holds {h} cards but only {possible} are possible")
            if held == h and allowed[p] != known[p]:
                allowed[p] = known[p]
                changed = True
            elif possible == h and known[p] != allowed[p]:
                known[p] = allowed[p]
                changed = True
        for category in deck.categories:
            held_here = known[env] & category
            if held_here.bit_count() > 1:
                raise Infeasible(f"the envelope holds {cards(held_here)}, one category")
            possible_here = allowed[env] & category
            if not possible_here:
                raise Infeasible("the envelope can hold no card of a category")
            if held_here and possible_here != held_here:
                allowed[env] &= ~category | held_here
                changed = True
            elif possible_here.bit_count() == 1 and not held_here:
                known[env] |= possible_here
                changed = True
        kept = []
        for o, mask in clauses:
            if mask & known[o]:
                continue
            mask &= allowed[o]
            if not mask:
                raise Infeasible(f"{who(o)} can hold none of a set it holds one of")
            if mask.bit_count() == 1:
                known[o] |= mask
                changed = True
                continue
            kept.append((o, mask))
        clauses = kept
        kept_failed = []
        for mask in failed:
            if mask & ~allowed[env]:
                continue
            rest = mask & ~known[env]
            if not rest:
                raise Infeasible(f"the envelope holds {cards(mask)}, a wrong accusation")
            if rest.bit_count() == 1:
                allowed[env] &= ~rest
                changed = True
                continue
            kept_failed.append(rest)
        failed = kept_failed
    taken = 0
    for o in range(owners):
        taken |= known[o]
    unknown = free & ~taken
    need = tuple(
        (k.hand_sizes[o] if o < env else len(deck.sizes)) - known[o].bit_count()
        for o in range(owners)
    )
    # An owner's allowed cards, once its hand is known, are exactly its known cards; with
    # every unknown card allowed to two owners or more, the needs add up to the unknown cards.
    assert sum(need) == unknown.bit_count(), "hand sizes do not fit the deck"
    return Closure(
        knowledge=k,
        known=tuple(known),
        allowed=tuple(allowed),
        need=need,
        unknown=unknown,
        clauses=tuple(dict.fromkeys(clauses)),
        failed=tuple(dict.fromkeys(failed)),
        open_categories=tuple(
            i for i, category in enumerate(deck.categories) if not known[env] & category
        ),
    )
