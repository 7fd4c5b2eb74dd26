"""Velma's belief: a forbidden-locations matrix, logs of what was seen, and a pool of
hypothetical deals (sampled by her hybrid sampler, or enumerated once they are few).

This is the method of the Velma program as its author describes it, with its constants, and
with its sampler's bias kept on purpose (Sleuth's exact deduction is the separate
:mod:`~sleuth.games.cluedo.deduction`).  From one seat's view:

* **Forbidden matrix** ``forbidden[o, c]``: owner ``o`` (each seat, then the envelope) cannot
  hold card ``c``.  Own hand: every other card is forbidden to oneself, one's cards to every
  other owner.  A pass forbids the three cards to the passer; when a passed card is then
  forbidden to every seat, it must be in the envelope, so the rest of its category is
  forbidden to the envelope.  A card shown to oneself is forbidden to every owner but the one
  who showed it.  Face-up cards (not in the original program) are forbidden to every owner.
* **Logs**: the cards seen (who showed which), the unseen answers (who answered which
  suggestion), the wrong accusations.
* **Hypotheses**: complete deals, as the owner of each card (``int8 [N, 21]``: seats
  ``0..n-1``, :attr:`VelmaBelief.envelope` ``= n``, ``n + 1`` for a face-up card) and the
  envelope's solution number ``54 s + 9 w + r``.  Each event deletes the hypotheses it
  contradicts and the pool is refilled to ``target`` by the sampler (:meth:`_attempt`):

  1. deal oneself one's hand, and each seen card to the seat that showed it;
  2. for each unseen answer in log order not yet satisfied, give the answerer a random one
     of the three cards that is still undealt and not forbidden to them (if they have room;
     else start again);
  3. draw the envelope's suspect, room and weapon uniformly from the undealt cards not
     forbidden to it (none left: start again);
  4. shuffle the other cards and give each to the first seat, oneself first then clockwise,
     that may hold it and has room (none: start again);
  5. start again if the envelope is a wrong accusation.

  Every hypothesis kept satisfies every logged fact, but the deals are not equally likely:
  steps 2 and 3 ignore how many ways each choice can be completed, and step 4 fills the seats
  in order.  That bias is Velma's and is measured in the tests and ``docs/cluedo.md``.
* **Enumeration switch**: an estimate of the number of deals (envelope choices left, times,
  for each seat from the dealer on, C(min(cards left, cards not forbidden to it), places
  left)), which ignores the unseen answers and so never falls below the true count.  Below
  ``enumerate_below`` the pool becomes every consistent deal, once (the published program's
  enumeration could list a deal several times and crashed on unseen answers: here each deal
  is listed once, so the pool is then exactly the set of consistent deals), and later events
  only delete.

Invariant: every hypothesis in the pool satisfies the forbidden matrix, the hand sizes, every
unseen answer and every wrong accusation logged; after the switch the pool is exactly the
set of such deals, each once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from itertools import product

import numpy as np
import numpy.typing as npt

from sleuth.games.cluedo import _velma_kernels as kernels
from sleuth.games.cluedo.cards import CARD_COUNT, ROOMS, SUSPECTS, WEAPONS, category

UNDEALT = -1
"""An owner code for a card not dealt yet (while a hypothesis is built)."""
CATEGORIES = (SUSPECTS, ROOMS, WEAPONS)
"""The envelope is drawn in the original program's order: suspect, room, weapon."""
_POP8 = np.array([bin(i).count("1") for i in range(256)], dtype=np.int16)

Owners = npt.NDArray[np.int8]
Envelopes = npt.NDArray[np.int16]
Draw = Callable[[int], tuple[Owners, Envelopes]]
"""Draws ``k`` hypotheses from another sampler (the exact one): owners and envelopes."""


def envelope_numbers(owners: Owners, envelope: int) -> Envelopes:
    """Each hypothesis's envelope as its solution number ``54 s + 9 w + r``."""
    inside = owners == envelope
    s = inside[:, SUSPECTS.start : SUSPECTS.stop].argmax(1)
    w = inside[:, WEAPONS.start : WEAPONS.stop].argmax(1)
    r = inside[:, ROOMS.start : ROOMS.stop].argmax(1)
    numbers: Envelopes = (54 * s + 9 * w + r).astype(np.int16)
    return numbers


def _popcount(masks: npt.NDArray[np.int32]) -> npt.NDArray[np.int16]:
    counts: npt.NDArray[np.int16] = _POP8[masks & 255] + _POP8[(masks >> 8) & 255]
    counts += _POP8[(masks >> 16) & 255]
    return counts


class VelmaBelief:
    """Velma's knowledge from ``seat``'s view of a game with ``hand_sizes`` (by seat), dealt by
    ``dealer``, with ``face_up`` cards.  ``target`` hypotheses are kept while the estimate is
    at least ``enumerate_below``; ``rng`` drives the sampler; ``draw``, if given, replaces the
    sampler (refills come from it, with no rejection).  Call :meth:`own_hand` first."""

    def __init__(
        self,
        seat: int,
        hand_sizes: Sequence[int],
        dealer: int,
        face_up: Sequence[int],
        target: int,
        enumerate_below: int,
        rng: np.random.Generator,
        draw: Draw | None = None,
    ) -> None:
        n = len(hand_sizes)
        self.seat, self.players, self.dealer = seat, n, dealer
        self.envelope = n
        """The envelope's owner code (and row of :attr:`forbidden`)."""
        self.table = n + 1
        """The owner code of a face-up card."""
        self.sizes = np.array(hand_sizes, dtype=np.int16)
        self.face_up = tuple(face_up)
        self.target, self.enumerate_below = target, enumerate_below
        self.rng, self.draw = rng, draw
        self.forbidden = np.zeros((n + 1, CARD_COUNT), dtype=bool)
        self.forbidden[:, list(self.face_up)] = True
        self.hand: tuple[int, ...] = ()
        self.seen: list[tuple[int, int]] = []
        """(seat that showed, card), for the cards shown to this seat."""
        self.unseen: list[tuple[int, tuple[int, int, int]]] = []
        """(seat that answered, the three cards), for answers this seat did not see."""
        self.wrong: list[int] = []
        """The solution numbers of the wrong accusations."""
        self.owners: Owners = np.empty((0, CARD_COUNT), dtype=np.int8)
        self.envelopes: Envelopes = np.empty(0, dtype=np.int16)
        self.enumerated = False
        """True once the pool is every consistent deal."""
        self.version = 0
        """Changes whenever the pool does."""
        self.attempts = 0
        """Sampler attempts so far (accepted or not)."""
        self._rate = 1.0
        order = [(seat + k) % n for k in range(n)]
        self._fill_order = np.array(order, dtype=np.int8)
        """Step 4's seat order: this seat first, then clockwise."""

    # --- events ------------------------------------------------------------------------------

    def own_hand(self, cards: Sequence[int]) -> None:
        """This seat's hand: the forbidden matrix's first facts, then the first pool."""
        self.hand = tuple(sorted(cards))
        mine = np.zeros(CARD_COUNT, dtype=bool)
        mine[list(self.hand)] = True
        others = [o for o in range(self.players + 1) if o != self.seat]
        self.forbidden[np.ix_(np.array(others), np.flatnonzero(mine))] = True
        self.forbidden[self.seat, ~mine] = True
        self._rebuild()

    def passed(self, seat: int, cards: tuple[int, int, int]) -> None:
        """``seat`` could not answer a suggestion of ``cards``."""
        self.forbidden[seat, list(cards)] = True
        for card in cards:
            if card not in self.face_up and self.forbidden[: self.players, card].all():
                rest = [c for c in category(card).cards if c != card]
                self.forbidden[self.envelope, rest] = True
        self._keep(~(self.owners[:, list(cards)] == seat).any(1))

    def shown(self, seat: int, card: int) -> None:
        """``seat`` showed ``card`` to this seat."""
        self.seen.append((seat, card))
        self.forbidden[:, card] = True
        self.forbidden[seat, card] = False
        self._keep(self.owners[:, card] == seat)

    def answered(self, seat: int, cards: tuple[int, int, int]) -> None:
        """``seat`` showed one of ``cards`` to another seat."""
        self.unseen.append((seat, cards))
        self._keep((self.owners[:, list(cards)] == seat).any(1))

    def accused_wrongly(self, solution: int) -> None:
        """An accusation of solution number ``solution`` was wrong."""
        self.wrong.append(solution)
        self._keep(self.envelopes != solution)

    def _keep(self, rows: npt.NDArray[np.bool_]) -> None:
        """Delete the hypotheses not in ``rows``, then rebuild the pool."""
        if not rows.all():
            self.owners, self.envelopes = self.owners[rows], self.envelopes[rows]
            self.version += 1
        self._rebuild()

    # --- the pool ------------------------------------------------------------------------------

    @property
    def count(self) -> int:
        return len(self.owners)

    def solution_counts(self) -> npt.NDArray[np.int64]:
        """How many hypotheses have each of the 324 envelopes."""
        return np.bincount(self.envelopes, minlength=324)

    def estimate(self) -> int:
        """The original program's estimate of the number of consistent deals (see the module
        docstring); it ignores the unseen answers and never falls below the true count."""
        n, forbidden = self.players, self.forbidden
        spaces = [int(h) for h in self.sizes]
        cards_left = int(self.sizes.sum())
        for card in range(CARD_COUNT):
            allowed = np.flatnonzero(~forbidden[:, card])
            if len(allowed) == 1 and allowed[0] < n:
                cards_left -= 1
                spaces[allowed[0]] -= 1
        total = 1
        for cat in CATEGORIES:
            total *= len(cat) - int(forbidden[self.envelope, cat.start : cat.stop].sum())
        for k in range(n):
            seat = (self.dealer + k) % n
            free = CARD_COUNT - int(forbidden[seat].sum())
            total *= math.comb(min(cards_left, free), spaces[seat])
            cards_left -= spaces[seat]
        return total

    def _rebuild(self) -> None:
        """Switch to enumeration when the estimate is low enough, else refill the pool."""
        if self.enumerated:
            return
        if self.estimate() < self.enumerate_below:
            self.owners = self.enumerate()
            self.envelopes = envelope_numbers(self.owners, self.envelope)
            self.enumerated = True
            self.version += 1
            return
        missing = self.target - self.count
        if missing <= 0:
            return
        if self.draw is not None:
            owners, envelopes = self.draw(missing)
        else:
            owners, envelopes = self._sample(missing)
        self.owners = np.concatenate([self.owners, owners])
        self.envelopes = np.concatenate([self.envelopes, envelopes])
        self.version += 1

    # --- the hybrid sampler ----------------------------------------------------------------

    def _sample(self, k: int) -> tuple[Owners, Envelopes]:
        """``k`` hypotheses from the sampler, in batches sized by the acceptance rate so far.
        A pool that the sampler cannot fill within ``50 k`` attempts is left short."""
        owners: list[Owners] = []
        envelopes: list[Envelopes] = []
        need, budget = k, 50 * k
        while need > 0 and budget > 0:
            batch = min(budget, max(256, min(250_000, int(1.2 * need / self._rate) + 64)))
            budget -= batch
            o, e = self._attempt(batch)
            self._rate = max(len(o) / batch, 1e-3)
            owners.append(o[:need])
            envelopes.append(e[:need])
            need -= len(owners[-1])
        return np.concatenate(owners), np.concatenate(envelopes)

    def _attempt(self, b: int) -> tuple[Owners, Envelopes]:
        """``b`` independent runs of steps 1-5; the hypotheses of the runs that succeed (a run
        that fails is dropped, which is starting it again).  Compiled when Numba is there, else
        :meth:`_attempt_vectorised`: the same draws in law, not the same random stream."""
        self.attempts += b
        if not kernels.COMPILED:
            return self._attempt_vectorised(b)
        return self._attempt_compiled(b)

    def _start(self) -> Owners:
        """Step 1: the owners every run starts from."""
        start = np.full(CARD_COUNT, UNDEALT, dtype=np.int8)
        start[list(self.face_up)] = self.table
        start[list(self.hand)] = self.seat
        for seat, card in self.seen:
            start[card] = seat
        return start

    def _attempt_compiled(self, b: int) -> tuple[Owners, Envelopes]:
        """Steps 1-5 one run at a time (:func:`~._velma_kernels.attempts`)."""
        return kernels.attempts(
            b,
            int(self.rng.integers(2**32)),
            self._start(),
            np.array([seat for seat, _ in self.unseen], dtype=np.int64),
            np.array([cards for _, cards in self.unseen], dtype=np.int64).reshape(-1, 3),
            self.forbidden,
            self.sizes.astype(np.int64),
            self.envelope,
            self._fill_order.astype(np.int64),
            np.array(self.wrong, dtype=np.int64),
        )

    def _attempt_vectorised(self, b: int) -> tuple[Owners, Envelopes]:
        """Steps 1-5 for ``b`` runs at once with NumPy, dropping each run where it fails."""
        n, rng, forbidden = self.players, self.rng, self.forbidden
        start = self._start()
        own = np.tile(start, (b, 1))
        counts = np.tile([(start == s).sum() for s in range(n)], (b, 1)).astype(np.int16)
        for seat, triple in self.unseen:  # step 2
            cards = np.array(triple)
            held = own[:, cards]
            need = ~(held == seat).any(1)
            free = (held == UNDEALT) & ~forbidden[seat, cards]
            ok = ~need | (free.any(1) & (counts[:, seat] < self.sizes[seat]))
            if not ok.all():
                own, counts, need, free = own[ok], counts[ok], need[ok], free[ok]
            rows = np.flatnonzero(need)
            pick = cards[np.where(free[rows], rng.random((len(rows), 3)), -1.0).argmax(1)]
            own[rows, pick] = seat
            counts[rows, seat] += 1
        for cat in CATEGORIES:  # step 3
            cards = np.arange(cat.start, cat.stop)
            free = (own[:, cards] == UNDEALT) & ~forbidden[self.envelope, cards]
            ok = free.any(1)
            if not ok.all():
                own, counts, free = own[ok], counts[ok], free[ok]
            pick = cards[np.where(free, rng.random(free.shape), -1.0).argmax(1)]
            own[np.arange(len(own)), pick] = self.envelope
        own = self._fill(own, counts)  # step 4
        solutions = envelope_numbers(own, self.envelope)
        if self.wrong:  # step 5
            ok = ~np.isin(solutions, self.wrong)
            own, solutions = own[ok], solutions[ok]
        return own, solutions

    def _fill(self, own: Owners, counts: npt.NDArray[np.int16]) -> Owners:
        """Step 4: the undealt cards in a random order, each to the first seat (in fill order)
        allowed it with room; the runs where a card finds no seat are dropped."""
        undealt = own == UNDEALT
        keys = np.where(undealt, self.rng.random(own.shape), 2.0)
        order = np.argsort(keys, axis=1)
        left = undealt.sum(1)
        seats = self._fill_order
        allowed = ~self.forbidden[seats.astype(np.intp)].T  # [card, seat in fill order]
        sizes = self.sizes[seats]
        filled = counts[:, seats]
        for k in range(int(left.max(initial=0))):
            card = order[:, k]
            active = k < left
            room = allowed[card] & (filled < sizes)
            ok = ~active | room.any(1)
            if not ok.all():
                own, order, left, filled = own[ok], order[ok], left[ok], filled[ok]
                card, active, room = card[ok], active[ok], room[ok]
            rows = np.flatnonzero(active)
            first = room[rows].argmax(1)
            filled[rows, first] += 1
            own[rows, card[rows]] = seats[first]
        return own

    # --- enumeration -------------------------------------------------------------------------

    def enumerate(self) -> Owners:
        """Every deal satisfying the forbidden matrix, the hand sizes, the unseen answers and
        the wrong accusations, each once.  Cards whose owner is known are placed, then each
        envelope the matrix allows, then the other cards one at a time to each seat that may
        hold them and has room (partial deals that can no longer fill some seat are dropped);
        the unseen answers and wrong accusations filter the result."""
        n, forbidden = self.players, self.forbidden
        base = np.full(CARD_COUNT, UNDEALT, dtype=np.int8)
        base[list(self.face_up)] = self.table
        for card in range(CARD_COUNT):
            allowed = np.flatnonzero(~forbidden[:, card])
            if card not in self.face_up and len(allowed) == 1:
                base[card] = allowed[0]
        choices = []
        for cat in CATEGORIES:
            known = [c for c in cat if base[c] == self.envelope]
            free = [c for c in cat if base[c] == UNDEALT and not forbidden[self.envelope, c]]
            choices.append(known or free)
        triples = np.array(list(product(*choices)), dtype=np.intp).reshape(-1, 3)
        own = np.tile(base, (len(triples), 1))
        own[np.arange(len(triples))[:, None], triples] = self.envelope
        counts = np.stack([(own == s).sum(1) for s in range(n)], axis=1).astype(np.int16)
        bits = (1 << np.arange(CARD_COUNT)).astype(np.int32)
        left = ((own == UNDEALT) * bits).sum(1).astype(np.int32)
        allowed_masks = [int((~forbidden[s] * bits).sum()) for s in range(n)]
        for dealt in np.flatnonzero(base == UNDEALT):
            todo = own[:, dealt] == UNDEALT
            parts = [(own[~todo], counts[~todo], left[~todo])]
            for seat in np.flatnonzero(~forbidden[:n, dealt]):
                take = todo & (counts[:, seat] < self.sizes[seat])
                o, c = own[take], counts[take]
                o[:, dealt] = seat
                c[:, seat] += 1
                parts.append((o, c, left[take] & ~np.int32(1 << int(dealt))))
            own = np.concatenate([p[0] for p in parts])
            counts = np.concatenate([p[1] for p in parts])
            left = np.concatenate([p[2] for p in parts])
            fits = np.ones(len(own), dtype=bool)
            for s, mask in enumerate(allowed_masks):
                fits &= self.sizes[s] - counts[:, s] <= _popcount(left & mask)
            own, counts, left = own[fits], counts[fits], left[fits]
        keep = np.ones(len(own), dtype=bool)
        for answerer, triple in self.unseen:
            keep &= (own[:, list(triple)] == answerer).any(1)
        if self.wrong:
            keep &= ~np.isin(envelope_numbers(own, self.envelope), self.wrong)
        return own[keep]


def warm_up() -> None:
    """Compile Velma's kernels, the sampler's and the scoring's histogram (or load them from
    Numba's cache), for the argument types her moves pass, before a timed move."""
    if kernels.COMPILED:
        belief = VelmaBelief(0, (6, 6, 6), 2, (), 1, 0, np.random.default_rng(0))
        belief.own_hand(range(6))
        order = np.full((1, CARD_COUNT), 3, dtype=np.uint8)  # as answer_order gives (3 seats)
        kernels.histogram(order, belief.envelopes[:1], 3, ROOMS.start, 17)
