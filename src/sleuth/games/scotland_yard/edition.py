"""Editions of Scotland Yard and the options that change the rules (O1-O8, C2).

A :class:`Profile` holds every rule setting of one game, resolved: an edition's defaults
(:data:`EDITIONS`: ``classic``, ``2014``, ``bristol``) with any option the user set on top.
Invariants (checked by :meth:`Profile.check`): 1-5 detectives; ticket counts at least 0; reveal
entries within the log; the start stations, when fixed, are distinct.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sleuth.core.errors import OptionError
from sleuth.core.numbers import whole_number

CLASSIC_CARDS = (13, 26, 29, 34, 50, 53, 91, 94, 103, 112, 117, 132, 138, 141, 155, 174, 197, 198)
"""The 18 start cards of the classic edition (S8), stations of the London board."""
DETECTIVE_CARDS_2014 = (13, 26, 29, 34, 50, 53, 91, 94, 103, 112, 117, 123, 138, 141, 155, 174)
"""The 2014 edition's 16 detective start cards (S9)."""
MRX_CARDS_2014 = (35, 45, 51, 71, 78, 104, 106, 127, 132, 146, 166, 170, 172)
"""The 2014 edition's 13 Mr. X start cards (S9)."""
MAX_DETECTIVES = 5
UNLIMITED = 1 << 30
"""The count of a ticket kind Mr. X takes from an unlimited supply (2014, S6); never spent."""


@dataclass(frozen=True)
class Profile:
    """Every rule setting of one game (see ``docs/scotland-yard.md``, options O1-O8).

    ``mrx_tickets`` are taxi, bus, underground, black, double; ``detective_tickets`` taxi,
    bus, underground.  ``mrx_unlimited``: Mr. X's taxi, bus and underground tickets come from an
    unlimited supply (2014).  ``mrx_cards`` / ``detective_cards`` are the start cards each side
    draws from (the same cards for both in the classic edition: Mr. X draws first).
    """

    edition: str
    detectives: int
    detective_tickets: tuple[int, int, int]
    mrx_tickets: tuple[int, int, int, int, int]
    mrx_unlimited: bool
    tickets_to_mrx: bool
    mrx_cards: tuple[int, ...]
    detective_cards: tuple[int, ...]
    shared_cards: bool
    mrx_start: int
    detective_starts: tuple[int, ...]
    reveals: frozenset[int]
    log_length: int
    max_rounds: int
    final_detective_phase: bool

    def check(self, stations: int) -> None:
        """Raise :class:`OptionError` naming the first setting that cannot be played on a board
        of ``stations`` stations."""
        if not 1 <= self.detectives <= MAX_DETECTIVES:
            raise OptionError(f"detectives={self.detectives}: between 1 and {MAX_DETECTIVES}")
        if min(self.detective_tickets) < 0 or min(self.mrx_tickets) < 0:
            raise OptionError("ticket counts cannot be negative")
        if self.log_length < 1:
            raise OptionError(f"log_length={self.log_length}: at least 1")
        outside = sorted(r for r in self.reveals if not 1 <= r <= self.log_length)
        if outside:
            raise OptionError(f"reveal entry {outside[0]} is not in the log (1..{self.log_length})")
        if self.max_rounds < 0:
            raise OptionError(f"max_rounds={self.max_rounds}: 0 (no limit) or more")
        fixed = [s for s in (self.mrx_start, *self.detective_starts) if s]
        for station in (*self.mrx_cards, *self.detective_cards, *fixed):
            if not 1 <= station <= stations:
                raise OptionError(f"start station {station} is not on this board (1..{stations})")
        if len(set(fixed)) != len(fixed):
            raise OptionError("two pawns cannot start on the same station")
        if self.detective_starts and len(self.detective_starts) != self.detectives:
            raise OptionError(
                f"detective_starts names {len(self.detective_starts)} stations for "
                f"{self.detectives} detectives"
            )
        if not self.detective_starts:
            free = set(self.detective_cards) - {self.mrx_start}
            need = self.detectives + (self.shared_cards and not self.mrx_start)
            if len(free) < need:
                raise OptionError(f"{len(free)} start cards are too few for {need} pawns")
        if not self.mrx_start and not set(self.mrx_cards) - set(self.detective_starts):
            raise OptionError("no start card left for Mr. X")


@dataclass(frozen=True)
class EditionDefaults:
    """What an edition sets when the user leaves an option out."""

    detective_tickets: tuple[int, int, int]
    mrx_tickets: tuple[int, int, int] | None
    """Mr. X's taxi, bus, underground (None: unlimited supply)."""
    black: int | None
    """Mr. X's black tickets (None: one per detective)."""
    tickets_to_mrx: bool
    split_cards: bool
    """Detectives and Mr. X draw from the 2014 edition's separate card sets."""


EDITIONS = {
    "classic": EditionDefaults((10, 8, 4), (4, 3, 3), None, True, False),
    "2014": EditionDefaults((11, 8, 4), None, 5, False, True),
    "bristol": EditionDefaults((11, 8, 4), (4, 3, 3), 5, True, False),
}
DOUBLES = 2


def parse_counts(size: int, unlimited_ok: int = 0) -> Callable[[Any], str]:
    """A parser for ``a/b/c...`` ticket counts (``size`` numbers; the first ``unlimited_ok`` may
    be ``inf``), or ``""`` for the edition's counts."""

    def parse(raw: Any) -> str:
        text = str(raw).strip().lower()
        if not text:
            return ""
        parts = [p.strip() for p in text.split("/")]
        if len(parts) != size:
            raise ValueError(f"expected {size} counts separated by '/'")
        for i, part in enumerate(parts):
            if part == "inf" and i < unlimited_ok:
                continue
            if not (part.isascii() and part.isdigit()):
                raise ValueError(f"{part!r} is not a ticket count")
            whole_number(part)  # not too long a number
        return "/".join(parts)

    return parse


def parse_stations(raw: Any) -> str:
    """A parser for a comma-separated list of station numbers (or ``""``)."""
    text = str(raw).strip()
    if not text:
        return ""
    parts = [p.strip() for p in text.split(",")]
    for part in parts:
        if not (part.isascii() and part.isdigit() and whole_number(part) > 0):
            raise ValueError(f"{part!r} is not a station number")
    return ",".join(parts)


def parse_edition_bool(raw: Any) -> str:
    """``""`` (the edition decides), ``yes`` or ``no``."""
    text = str(raw).strip().lower()
    if text in ("", "edition"):
        return ""
    if text in ("true", "yes", "1", "on"):
        return "yes"
    if text in ("false", "no", "0", "off"):
        return "no"
    raise ValueError("expected yes or no")


def parse_bobbies(raw: Any) -> int:
    """Only 0: the 2014 edition's Bobbies are not implemented (their rules are unverified)."""
    if str(raw).strip() != "0":
        raise ValueError("only 0 is supported: the Bobbies' rules are not verified")
    return 0


def make_profile(values: Mapping[str, Any], board_cards: tuple[int, ...], stations: int) -> Profile:
    """The profile of the parsed option ``values`` on a board of ``stations`` stations whose
    own start cards are ``board_cards`` (possibly none)."""
    edition = str(values["edition"])
    defaults = EDITIONS[edition]
    n = int(values["detectives"])
    detective_tickets = _counts(values["detective_tickets"]) or defaults.detective_tickets
    mrx_text = str(values["mrx_tickets"])
    if mrx_text:
        parts = mrx_text.split("/")
        unlimited = parts[0] == "inf"
        if unlimited and not all(p == "inf" for p in parts[:3]):
            raise OptionError("mrx_tickets: taxi, bus and underground are all inf or none is")
        counts = [UNLIMITED if p == "inf" else int(p) for p in parts]
        mrx_tickets = (counts[0], counts[1], counts[2], counts[3], counts[4])
    else:
        unlimited = defaults.mrx_tickets is None
        transport = (UNLIMITED,) * 3 if defaults.mrx_tickets is None else defaults.mrx_tickets
        black = n if defaults.black is None else defaults.black
        mrx_tickets = (*transport, black, DOUBLES)
    to_mrx = values["tickets_to_mrx"]
    mrx_cards, detective_cards, shared = _cards(defaults.split_cards, board_cards, stations)
    starts = str(values["detective_starts"])
    reveals = str(values["reveals"])
    profile = Profile(
        edition=edition,
        detectives=n,
        detective_tickets=(detective_tickets[0], detective_tickets[1], detective_tickets[2]),
        mrx_tickets=mrx_tickets,
        mrx_unlimited=unlimited,
        tickets_to_mrx=defaults.tickets_to_mrx if to_mrx == "" else to_mrx == "yes",
        mrx_cards=mrx_cards,
        detective_cards=detective_cards,
        shared_cards=shared,
        mrx_start=int(values["mrx_start"]),
        detective_starts=tuple(int(s) for s in starts.split(",")) if starts else (),
        reveals=frozenset(int(r) for r in reveals.split(",")) if reveals else frozenset(),
        log_length=int(values["log_length"]),
        max_rounds=int(values["max_rounds"]),
        final_detective_phase=bool(values["final_detective_phase"]),
    )
    profile.check(stations)
    return profile


def _counts(text: object) -> tuple[int, ...]:
    return tuple(int(p) for p in str(text).split("/")) if text else ()


def _cards(
    split: bool, board_cards: tuple[int, ...], stations: int
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """Mr. X's cards, the detectives' cards, and whether they are one shared deck (O5): the
    board's own cards if it has some; else the edition's if they are all on the board; else
    every station."""
    if board_cards:
        return board_cards, board_cards, True
    if split:
        if max(MRX_CARDS_2014 + DETECTIVE_CARDS_2014) <= stations:
            return MRX_CARDS_2014, DETECTIVE_CARDS_2014, False
    elif max(CLASSIC_CARDS) <= stations:
        return CLASSIC_CARDS, CLASSIC_CARDS, True
    everywhere = tuple(range(1, stations + 1))
    return everywhere, everywhere, True
