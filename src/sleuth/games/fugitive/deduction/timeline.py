"""What the Marshal knows, read from her view: the facts the deduction engines work on.

:func:`read_view` turns the Marshal's events into a :class:`Timeline`: her cards, the
Fugitive's draws per pile, and one :class:`Slot` per route position with everything public
about it (its sprint count, when it was placed, its value and stack once revealed), plus the
guesses and their outcomes.  Only public and Marshal-only fields are read, so the same code
serves a bot, the assistant and ``sleuth infer``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.games.fugitive.engine.cards import LAST, PILE_OF, PILES
from sleuth.games.fugitive.rules import MARSHAL


@dataclass
class Slot:
    """One route position (1, 2, ...): public facts about its hideout."""

    position: int
    sprints: int
    """Number of sprint cards under it (public, F10)."""
    draws: tuple[int, int, int]
    """Cards the Fugitive had drawn from piles 1, 2, 3 when he placed it (setup included)."""
    value: int | None = None
    """Known value: 42 when announced, or a revealed hideout."""
    stack: tuple[int, ...] | None = None
    """Known sprint cards, once revealed."""


@dataclass(frozen=True)
class Miss:
    """A missed guess: not every number of ``numbers`` was among the first ``placed``
    hideouts (D4, D5)."""

    numbers: tuple[int, ...]
    placed: int


QUIET_KINDS = frozenset(("chose_pile", "passed", "declined_bonus", "skipped"))
"""Event kinds that tell the deduction nothing the others do not (the turn order's)."""


@dataclass
class Timeline:
    """The Marshal's knowledge after a sequence of events."""

    marshal_cards: set[int] = field(default_factory=set)
    fugitive_draws: list[int] = field(default_factory=lambda: [0, 0, 0])
    """Cards the Fugitive has drawn from each pile so far (the setup draws are events too)."""
    slots: list[Slot] = field(default_factory=list)
    misses: list[Miss] = field(default_factory=list)
    manhunt: bool = False
    """The Manhunt is on: single-number guesses only."""
    over: bool = False
    end_reason: str | None = None
    """The ``game_over`` event's reason once the game has ended (``marshal_uncovered_route``,
    ``escape_no_manhunt``, ``manhunt_success``, ``manhunt_failed``, ``max_rounds``)."""

    def piles_empty(self) -> bool:
        """No card is left to draw: the Fugitive's hand can only shrink."""
        drawn_by_marshal = [0, 0, 0]
        for card in self.marshal_cards:
            drawn_by_marshal[PILE_OF[card] - 1] += 1
        return all(
            len(cards) == fugitive + marshal
            for cards, fugitive, marshal in zip(
                PILES, self.fugitive_draws, drawn_by_marshal, strict=True
            )
        )

    def pools(self) -> tuple[int, int, int]:
        """How many cards of piles 1, 2 and 3 the Fugitive could have drawn (not the
        Marshal's)."""
        pool = [0, *map(len, PILES)]
        for card in self.marshal_cards:
            pool[PILE_OF[card]] -= 1
        return pool[1], pool[2], pool[3]

    def apply(self, event: Event) -> None:
        """Record one event of the Marshal's view; an unknown kind is a :class:`SleuthError`.

        ``route``, shown when the game ends, turns every hideout face up with its stack."""
        public = event.public
        kind = event.kind
        if kind == "drew":
            pile = _number(public["pile"], 1, 3, "pile")
            if public["seat"] == MARSHAL:
                if event.private is None:
                    raise SleuthError(
                        "a Marshal draw without its card: is this the Marshal's view?"
                    )
                card = _number(event.private["card"], 1, LAST - 1, "card")
                if PILE_OF[card] != pile or card in self.marshal_cards:
                    raise SleuthError(f"card {card} cannot be drawn from pile {pile} now")
                self.marshal_cards.add(card)
            else:
                self.fugitive_draws[pile - 1] += 1
        elif kind == "placed":
            sprints = _number(public["sprints"], 0, LAST - 1, "sprint count")
            slot = Slot(int(public["position"]), sprints, tuple(self.fugitive_draws))  # type: ignore[arg-type]
            if "value" in public:
                slot.value = _number(public["value"], LAST, LAST, "announced hideout")
            if slot.position != len(self.slots) + 1:
                raise SleuthError(f"hideout position {slot.position} out of order")
            self.slots.append(slot)
        elif kind == "guessed":
            numbers = tuple(_number(n, 1, LAST - 1, "guessed number") for n in public["numbers"])
            if not numbers or len(set(numbers)) != len(numbers):
                raise SleuthError("a guess names distinct numbers, at least one")
            hit = public["hit"]
            if type(hit) is not bool:
                raise SleuthError(f"hit {hit!r} is not true or false")
            if not hit:  # a hit is learnt from its "revealed" events
                self.misses.append(Miss(numbers, len(self.slots)))
        elif kind == "revealed":
            position = int(public["position"])
            if not 1 <= position <= len(self.slots):
                raise SleuthError(f"revealed position {position}: no such hideout yet")
            slot = self.slots[position - 1]
            slot.value = _number(public["value"], 1, LAST, "revealed hideout")
            slot.stack = tuple(_number(c, 1, LAST - 1, "sprint card") for c in public["sprints"])
        elif kind == "manhunt":
            self.manhunt = True
        elif kind == "game_over":
            self.over = True
            self.end_reason = str(public["reason"])
        elif kind == "route":
            hideouts, stacks = list(public["hideouts"]), list(public["sprints"])
            if not len(hideouts) == len(stacks) == len(self.slots):
                raise SleuthError(
                    f"the route shows {len(hideouts)} hideouts and {len(stacks)} stacks; "
                    f"{len(self.slots)} were placed"
                )
            for slot, value, stack in zip(self.slots, hideouts, stacks, strict=True):
                slot.value = _number(value, 1, LAST, "hideout")
                slot.stack = tuple(_number(c, 1, LAST - 1, "sprint card") for c in stack)
        elif kind not in QUIET_KINDS:
            raise SleuthError(f"unknown event kind {kind!r}")


def _number(value: object, low: int, high: int, what: str) -> int:
    """``value`` as an int in ``low..high``, else a :class:`SleuthError` naming ``what``."""
    if type(value) is not int or not low <= value <= high:  # bool is no whole number here
        raise SleuthError(f"{what} {value!r} is not a whole number in {low}-{high}")
    return value


def read_view(events: Iterable[Event]) -> Timeline:
    """The :class:`Timeline` of a sequence of the Marshal's events; a malformed event is a
    :class:`SleuthError` naming it."""
    timeline = Timeline()
    for number, event in enumerate(events, start=1):
        try:
            timeline.apply(event)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise SleuthError(
                f"event {number} ({event.kind} {dict(event.public)}): bad or missing field {exc}"
            ) from None
        except SleuthError as exc:
            raise SleuthError(
                f"event {number} ({event.kind} {dict(event.public)}): {exc}"
            ) from None
    return timeline


def first_events(events: Sequence[Event], count: int) -> list[Event]:
    """The first ``count`` events, and the reveals of a hit they end in: a hit and its
    reveals are one action, and the belief learns a hit from its reveals."""
    end = min(count, len(events))
    while 0 < end < len(events) and events[end].kind == "revealed":
        end += 1
    return list(events[:end])
