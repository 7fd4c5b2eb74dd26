"""The deal: the envelope, the hands by dealer position and the face-up leftovers (C5-C9).

:class:`Deal` is the game's first chance action, with a text form that round-trips
(``deal Plum,Rope,Kitchen / Scarlet,Knife,... / ... / face up: Wrench,Lounge``: the envelope,
then each seat's hand in seat order, then the face-up cards if any).  :func:`shuffle_deal`
deals as people do; :func:`deal_problem` says why a given deal is not one the rules allow.

Invariant of a valid deal: the envelope, the hands and the face-up cards partition the 21
cards; the envelope holds one card of each category; the hand sizes are :func:`hand_sizes`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from sleuth.games.cluedo.cards import (
    CARD_COUNT,
    NAMES,
    ROOMS,
    SUSPECTS,
    WEAPONS,
    Category,
    card_named,
    category,
)

DEALT = CARD_COUNT - 3
"""Cards dealt after the envelope is filled: 18."""
KINDS = (Category.SUSPECT, Category.WEAPON, Category.ROOM)
"""The envelope's categories, in order."""


def deal_order(players: int, dealer: int) -> tuple[int, ...]:
    """The seats in the order they receive cards: from the dealer's left, dealer last (C7)."""
    return tuple((dealer + 1 + i) % players for i in range(players))


def hand_sizes(players: int, dealer: int, face_up: bool) -> tuple[int, ...]:
    """Each seat's hand size (C7): with q = 18 // n and r = 18 % n, the r seats right after
    the dealer get q + 1, the others q; with ``face_up`` (C8) everyone gets q."""
    q, r = divmod(DEALT, players)
    sizes = [q] * players
    if not face_up:
        for seat in deal_order(players, dealer)[:r]:
            sizes[seat] += 1
    return tuple(sizes)


@dataclass(frozen=True, slots=True)
class Deal:
    """The result of the shuffle and deal: ``envelope`` (suspect, weapon, room), each seat's
    hand and the face-up cards (hands and face-up cards kept sorted)."""

    envelope: tuple[int, int, int]
    hands: tuple[tuple[int, ...], ...]
    face_up: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "hands", tuple(tuple(sorted(h)) for h in self.hands))
        object.__setattr__(self, "face_up", tuple(sorted(self.face_up)))

    def __str__(self) -> str:
        parts = [_cards(self.envelope), *(_cards(h) for h in self.hands)]
        if self.face_up:
            parts.append("face up: " + _cards(self.face_up))
        return "deal " + " / ".join(parts)


def _cards(cards: tuple[int, ...]) -> str:
    return ",".join(NAMES[c] for c in cards)


def parse_deal(body: str) -> Deal:
    """The deal whose text form is ``"deal " + body``; a ``ValueError`` names the bad part."""
    parts = [p.strip() for p in body.split("/")]
    face_up: tuple[int, ...] = ()
    if parts and parts[-1].lower().startswith("face up:"):
        face_up = _parse_cards(parts.pop()[len("face up:") :])
    if len(parts) < 2:
        raise ValueError("a deal lists the envelope and then each hand, separated by /")
    envelope = _parse_cards(parts[0])
    if len(envelope) != 3:
        raise ValueError(f"the envelope holds 3 cards, not {len(envelope)}")
    for card, kind in zip(envelope, KINDS, strict=True):
        if category(card) != kind:
            raise ValueError("the envelope lists a suspect, a weapon and a room, in that order")
    hands = tuple(_parse_cards(p) for p in parts[1:])
    return Deal((envelope[0], envelope[1], envelope[2]), hands, face_up)


def _parse_cards(text: str) -> tuple[int, ...]:
    names = [t.strip() for t in text.split(",")]
    if not all(names):
        raise ValueError(f"{text.strip()!r}: a card name is empty")
    return tuple(card_named(name) for name in names)


def deal_problem(deal: Deal, sizes: tuple[int, ...]) -> str | None:
    """Why ``deal`` is not a deal of the game whose hand sizes are ``sizes`` (None if it is);
    the face-up cards are the 18 - sum(sizes) leftovers."""
    if len(deal.envelope) != 3 or any(
        not 0 <= c < CARD_COUNT or category(c) != kind
        for c, kind in zip(deal.envelope, KINDS, strict=False)
    ):
        return "the envelope holds a suspect, a weapon and a room, in that order (C5)"
    if len(deal.hands) != len(sizes):
        return f"deals {len(deal.hands)} hands to {len(sizes)} players"
    for seat, (hand, size) in enumerate(zip(deal.hands, sizes, strict=True)):
        if len(hand) != size:
            return f"seat {seat} gets {len(hand)} cards, not {size} (C7)"
    if len(deal.face_up) != DEALT - sum(sizes):
        return f"{len(deal.face_up)} face-up cards, not {DEALT - sum(sizes)} (C8)"
    every = [*deal.envelope, *(c for h in deal.hands for c in h), *deal.face_up]
    if sorted(every) != list(range(CARD_COUNT)):
        twice = sorted({NAMES[c] for c in every if every.count(c) > 1})
        return f"cards dealt twice: {', '.join(twice)}"
    return None


def shuffle_deal(rng: random.Random, sizes: tuple[int, ...], dealer: int) -> Deal:
    """Deal as people do (C5, C7, C8): one random card of each category into the envelope;
    the other 18 shuffled and dealt one at a time from the dealer's left while every hand
    has room, the rest face up."""
    envelope = (rng.choice(SUSPECTS), rng.choice(WEAPONS), rng.choice(ROOMS))
    rest = [c for c in range(CARD_COUNT) if c not in envelope]
    rng.shuffle(rest)
    players = len(sizes)
    hands: list[list[int]] = [[] for _ in range(players)]
    order = deal_order(players, dealer)
    dealt = sum(sizes)
    for i, card in enumerate(rest[:dealt]):
        hands[order[i % players]].append(card)
    return Deal(envelope, tuple(tuple(h) for h in hands), tuple(rest[dealt:]))
