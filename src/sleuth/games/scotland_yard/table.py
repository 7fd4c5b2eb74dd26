"""What the detectives at a real table know, entry by entry: the public state behind the
assistant (``sleuth assist scotland-yard``).

A :class:`PublicTable` takes the entries the detectives type (:data:`ENTRY_FORMS`), checks
each against the rules as far as public facts allow, and keeps

* the detectives' stations and tickets, Mr. X's tickets (S4-S6), the log entries filled, the
  round, and which detectives have had their turn in it;
* a :class:`~sleuth.games.scotland_yard.tracker.Tracker` of Mr. X's possible stations;
* the detectives' view of the game as events (``start``, ``mrx_moved``, ``detective_moved``,
  ``detective_passed``), as the engine would show them to the detectives' seat, except that
  detective moves come in the order they were typed (C1).  A reveal entry's ``mrx_moved``
  event is written once its ``reveal`` entry is in.

Order of a round (C1): Mr. X's turn (one entry; one ``reveal`` entry after each leg that fills
a reveal entry), then each detective once, in any order.  An entry the rules or the tracker
refuse raises :class:`~sleuth.core.errors.SleuthError` naming it; :meth:`PublicTable.play`
may leave the table half changed then, so callers play on a :meth:`PublicTable.copy`.

Invariants between entries: ticket counts are never negative; no two detectives share a
station; the tracker's detectives are :attr:`PublicTable.detectives`; ``events`` hold every
entry except a leg still waiting for its reveal (:attr:`PublicTable.awaiting`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sleuth.core.bitsets import mask_of
from sleuth.core.errors import ContradictionError, SleuthError
from sleuth.core.events import Event
from sleuth.core.numbers import whole_number
from sleuth.games.scotland_yard.moves import (
    LEG_TICKETS,
    TRANSPORT_TICKETS,
    Move,
    Ticket,
    detective_moves,
    ticket_targets,
)
from sleuth.games.scotland_yard.rules import ScotlandYardGame
from sleuth.games.scotland_yard.tracker import Model, Tracker

ENTRY_FORMS = """\
start 9,10,15,17,19    the detectives' start stations, detective 1 first (the first entry)
x taxi                 Mr. X's ticket for his turn: taxi, bus, underground or black
x double bus black     a double move: its two tickets, in order
reveal 45              where Mr. X showed himself, after each of his reveal moves
d1 taxi 8              detective 1 moved by taxi to 8 (the detectives in any order)
d1 taxi 8 caught       ... and caught Mr. X there: the game is over
d3 pass                detective 3 could not move"""

MRX_WORDS = ("x", "mrx", "mr.x")
CAUGHT_WORDS = ("caught", "capture", "captured", "catch")


@dataclass(frozen=True)
class Leg:
    """One leg of Mr. X's turn: its log entry, ticket, and place in a double (0: single)."""

    entry: int
    ticket: Ticket
    leg: int


class PublicTable:
    """The public facts of one game at a real table (see the module docstring)."""

    def __init__(self, game: ScotlandYardGame, model: Model = "uniform") -> None:
        p = game.profile
        self.game = game
        self.model: Model = model
        self.tracker: Tracker | None = None
        """None before the ``start`` entry."""
        self.detectives: list[int] = []
        self.detective_tickets = [list(p.detective_tickets) for _ in range(p.detectives)]
        self.mrx_tickets = list(p.mrx_tickets)
        self.entries = 0
        """Log entries filled (a leg waiting for its reveal counts)."""
        self.round = 0
        """The current round (from 1; 0 before the start)."""
        self.mrx_done = False
        """Mr. X has had his turn in this round (the detective phase is on)."""
        self.moved: set[int] = set()
        """The detectives (from 0) who have moved or passed in this round's detective phase."""
        self.awaiting: Leg | None = None
        """A leg that filled a reveal entry, waiting for its ``reveal`` entry."""
        self.queued: list[Leg] = []
        """The second leg of a double whose first leg waits for its reveal."""
        self.events: list[Event] = []
        self.over: str | None = None
        """How the game ended (``caught``, ``escaped``, ``blocked``, ``cornered``), or None."""
        self.caught_by: int | None = None

    def copy(self) -> PublicTable:
        """An independent table in the same state."""
        twin = object.__new__(PublicTable)
        twin.__dict__.update(self.__dict__)
        twin.tracker = None if self.tracker is None else self.tracker.copy()
        twin.detectives = list(self.detectives)
        twin.detective_tickets = [list(t) for t in self.detective_tickets]
        twin.mrx_tickets = list(self.mrx_tickets)
        twin.moved = set(self.moved)
        twin.queued = list(self.queued)
        twin.events = list(self.events)
        return twin

    # --- what the table is waiting for -----------------------------------------------------

    @property
    def to_move(self) -> list[int]:
        """The detectives (from 0) still to move in this round's detective phase (empty while
        Mr. X is to move)."""
        if not self.mrx_done or self.over is not None:
            return []
        return [i for i in range(self.game.profile.detectives) if i not in self.moved]

    @property
    def last_round(self) -> bool:
        """This round is the game's last: the log is full, or the round limit has come (S24,
        O8); once its detective phase ends without a capture, Mr. X has escaped."""
        p = self.game.profile
        return self.entries >= p.log_length or bool(p.max_rounds and self.round >= p.max_rounds)

    def legal_moves(self, detective: int) -> tuple[Move, ...]:
        """Detective ``detective``'s legal moves now, the other detectives standing where they
        are (S2, S7, S14)."""
        occupied = mask_of(s for i, s in enumerate(self.detectives) if i != detective)
        return detective_moves(
            self.game.board,
            self.detectives[detective],
            self.detective_tickets[detective],
            occupied,
        )

    # --- entries ----------------------------------------------------------------------------

    def play(self, text: str) -> str:
        """Take in one entry; return its canonical text (see the module docstring)."""
        words = text.lower().split()
        if not words:
            raise SleuthError("an empty entry (type 'help' for the forms)")
        head = words[0]
        if head == "start":
            return self._start(words)
        if self.tracker is None:
            raise SleuthError(f"{text.strip()!r}: first enter the detectives' start stations, "
                              f"e.g. 'start {example_starts(self.game)}'")  # fmt: skip
        if self.over is not None:
            raise SleuthError(f"{text.strip()!r}: the game is over ('undo' takes entries back)")
        if head == "reveal":
            return self._reveal(words)
        if self.awaiting is not None:
            raise SleuthError(
                f"{text.strip()!r}: Mr. X's move {self.awaiting.entry} is a reveal move: first "
                "enter where he showed himself ('reveal STATION')"
            )
        if head in MRX_WORDS:
            return self._mrx(words)
        if head[:1] == "d" and head[1:].isascii() and head[1:].isdigit():
            return self._detective(words)
        raise SleuthError(f"{text.strip()!r}: not an entry; the forms are:\n{ENTRY_FORMS}")

    def _start(self, words: list[str]) -> str:
        game = self.game
        if self.tracker is not None:
            raise SleuthError("the start stations were entered already (entry 1)")
        starts = parse_starts(" ".join(words[1:]))
        text = "start " + ",".join(map(str, starts))
        try:
            check_starts(game, starts)
        except SleuthError as exc:
            raise SleuthError(f"{text!r}: {exc}") from None
        try:
            self.tracker = Tracker(game.board, game.mrx_start_set(starts), starts, self.model)
        except ContradictionError as exc:
            raise SleuthError(f"{text!r}: {exc}") from None
        self.detectives = list(starts)
        self.round = 1
        self.events.append(Event("start", {"detectives": starts}))
        self._begin_mrx_turn()
        return text

    def _mrx(self, words: list[str]) -> str:
        tickets = [_leg_ticket(w, " ".join(words)) for w in words[1:] if w != "double"]
        double = words[1:2] == ["double"]
        if not tickets or len(tickets) != 1 + double or (not double and len(words) != 2):
            raise SleuthError(
                f"{' '.join(words)!r}: write Mr. X's ticket ('x taxi') or both tickets of a "
                "double move ('x double bus black')"
            )
        text = "x " + ("double " if double else "") + " ".join(tickets)
        p = self.game.profile
        if self.mrx_done:
            still = ", ".join(f"d{i + 1}" for i in self.to_move)
            raise SleuthError(
                f"{text!r}: Mr. X moves once every detective of round {self.round} has moved "
                f"or passed (still to move: {still})"
            )
        counts = list(self.mrx_tickets)
        if double:
            if counts[Ticket.DOUBLE.slot] < 1:
                raise SleuthError(f"{text!r}: Mr. X has no double ticket left")
            if self.entries + 2 > p.log_length:
                raise SleuthError(
                    f"{text!r}: a double move needs two free lines in Mr. X's travel log (C3)"
                )
            counts[Ticket.DOUBLE.slot] -= 1
        for ticket in tickets:
            if counts[ticket.slot] < 1:
                if self.mrx_tickets[ticket.slot]:  # the first leg took his last one
                    raise SleuthError(
                        f"{text!r}: both legs need {ticket} tickets, and Mr. X has only 1 left"
                    )
                raise SleuthError(f"{text!r}: Mr. X has no {ticket} ticket left")
            if not (p.mrx_unlimited and ticket is not Ticket.BLACK):
                counts[ticket.slot] -= 1
        self.mrx_tickets = counts
        legs = [1, 2] if double else [0]
        self.queued = [
            Leg(self.entries + k, ticket, leg)
            for k, (ticket, leg) in enumerate(zip(tickets, legs, strict=True), start=1)
        ]
        self._advance(text)
        return text

    def _advance(self, text: str) -> None:
        """Read the queued legs into the tracker until one fills a reveal entry (it then
        waits for its ``reveal``), then end Mr. X's turn."""
        tracker = self.tracker
        assert tracker is not None
        while self.queued:
            leg = self.queued.pop(0)
            try:
                tracker.mrx_leg(leg.ticket)
            except ContradictionError as exc:
                which = f"the second leg ({leg.ticket}, move {leg.entry}): " if leg.leg == 2 else ""
                raise SleuthError(f"{text!r}: {which}{exc}") from None
            self.entries = leg.entry
            if leg.entry in self.game.profile.reveals:
                self.awaiting = leg
                return
            self.events.append(_leg_event(leg, None))
        self._end_mrx_turn()

    def _reveal(self, words: list[str]) -> str:
        if len(words) != 2 or not (words[1].isascii() and words[1].isdigit()):
            raise SleuthError(f"{' '.join(words)!r}: write 'reveal STATION', e.g. 'reveal 45'")
        station = whole_number(words[1])
        text = f"reveal {station}"
        leg = self.awaiting
        if leg is None:
            reveals = ", ".join(map(str, sorted(self.game.profile.reveals)))
            last = (
                f"Mr. X's move {self.entries} is not a reveal move"
                if self.entries
                else "Mr. X has not moved yet"
            )
            raise SleuthError(f"{text!r}: no reveal is due: {last} (reveal moves: {reveals})")
        board = self.game.board
        if not 1 <= station <= board.n:
            raise SleuthError(f"{text!r}: {station} is not a station (1..{board.n})")
        tracker = self.tracker
        assert tracker is not None
        try:
            tracker.reveal(station)
        except ContradictionError as exc:
            raise SleuthError(f"{text!r}: {exc}") from None
        self.awaiting = None
        self.events.append(_leg_event(leg, station))
        self._advance(text)
        return text

    def _detective(self, words: list[str]) -> str:
        p = self.game.profile
        number = whole_number(words[0][1:])
        if not 1 <= number <= p.detectives:
            raise SleuthError(f"{' '.join(words)!r}: there is no detective {number} "
                              f"(d1 to d{p.detectives})")  # fmt: skip
        i = number - 1
        if words[1:] == ["pass"]:
            return self._pass(i)
        caught = len(words) == 4 and words[3] in CAUGHT_WORDS
        if len(words) != 3 + caught or not (words[2].isascii() and words[2].isdigit()):
            raise SleuthError(
                f"{' '.join(words)!r}: write 'd{number} TICKET STATION' (add 'caught' for a "
                f"capture) or 'd{number} pass'"
            )
        ticket = _leg_ticket(words[1], " ".join(words))
        station = whole_number(words[2])
        text = f"d{number} {ticket} {station}" + (" caught" if caught else "")
        self._turn(text, i)
        if ticket is Ticket.BLACK:
            raise SleuthError(f"{text!r}: only Mr. X has black tickets")
        board = self.game.board
        if not 1 <= station <= board.n:
            raise SleuthError(f"{text!r}: {station} is not a station (1..{board.n})")
        if self.detective_tickets[i][ticket.slot] < 1:
            raise SleuthError(f"{text!r}: d{number} has no {ticket} ticket left (S7)")
        origin = self.detectives[i]
        if not ticket_targets(board, origin, ticket) >> station & 1:
            raise SleuthError(f"{text!r}: no {ticket} route from {origin} to {station}")
        if station in self.detectives:
            holder = self.detectives.index(station) + 1
            raise SleuthError(f"{text!r}: d{holder} stands on {station} (S14)")
        tracker = self.tracker
        assert tracker is not None
        if not caught and tracker.possible == 1 << station:
            raise SleuthError(
                f"{text!r}: d{number} missed Mr. X at {station}, the only station he can be "
                f"at: if he was caught, write '{text} caught'"
            )
        try:
            tracker.detective_moved(i, station, caught)
        except ContradictionError as exc:
            raise SleuthError(f"{text!r}: {exc}") from None
        self.detective_tickets[i][ticket.slot] -= 1
        if p.tickets_to_mrx:
            self.mrx_tickets[ticket.slot] += 1
        self.detectives[i] = station
        public = {"detective": i, "ticket": str(ticket), "station": station, "captured": caught}
        self.events.append(Event("detective_moved", public))
        if caught:
            self.over, self.caught_by = "caught", i
            return text
        self._end_turn(i)
        return text

    def _pass(self, i: int) -> str:
        text = f"d{i + 1} pass"
        self._turn(text, i)
        moves = self.legal_moves(i)
        if moves:
            listed = ", ".join(map(str, moves[:4])) + (", ..." if len(moves) > 4 else "")
            raise SleuthError(f"{text!r}: d{i + 1} can move ({listed}), so he may not pass")
        self.events.append(Event("detective_passed", {"detective": i}))
        self._end_turn(i)
        return text

    def _turn(self, text: str, i: int) -> None:
        """Refuse ``text`` unless detective ``i`` may still move in this round."""
        if not self.mrx_done:
            raise SleuthError(
                f"{text!r}: Mr. X is to move (round {self.round}): enter his ticket first "
                "('x taxi')"
            )
        if i in self.moved:
            raise SleuthError(f"{text!r}: d{i + 1} has had his turn in round {self.round}")

    # --- turns ------------------------------------------------------------------------------

    def _begin_mrx_turn(self) -> None:
        """S26: Mr. X loses when he has no move from any station he can be at."""
        self.mrx_done = False
        tracker = self.tracker
        assert tracker is not None
        counts = self.mrx_tickets
        free = ~tracker.occupied
        if not any(
            counts[t.slot] > 0 and tracker.tables.reach(tracker.possible, t) & free
            for t in LEG_TICKETS
        ):
            self.over = "cornered"

    def _end_mrx_turn(self) -> None:
        """C2: the detectives still move after the last entry unless the game says not;
        S27: if none of them can move, Mr. X wins."""
        p = self.game.profile
        if self.entries >= p.log_length and not p.final_detective_phase:
            self.over = "escaped"
            return
        if not any(self.legal_moves(i) for i in range(p.detectives)):
            self.over = "blocked"
            return
        self.mrx_done = True
        self.moved = set()

    def _end_turn(self, i: int) -> None:
        """Detective ``i`` has had his turn; after the last one, the round ends (S24, O8)."""
        self.moved.add(i)
        p = self.game.profile
        if len(self.moved) < p.detectives:
            return
        if self.last_round:
            self.over = "escaped"
            return
        self.round += 1
        self._begin_mrx_turn()


def check_starts(game: ScotlandYardGame, starts: Sequence[int]) -> None:
    """Raise a SleuthError naming the first culprit if ``starts`` cannot be the detectives'
    start stations of ``game``: a number that is no station of the board first, then a
    station twice, their count, and the edition's start cards.  Cheap: the assistant checks
    its ``--starts`` with it before any preparation."""
    p, n = game.profile, game.board.n
    outside = next((s for s in starts if not 1 <= s <= n), None)
    if outside is not None:
        raise SleuthError(f"{outside} is not a station of the board (1..{n})")
    twice = next((s for s in starts if starts.count(s) > 1), None)
    if twice is not None:
        raise SleuthError(f"two detectives cannot start on the same station ({twice})")
    if len(starts) != p.detectives:
        raise SleuthError(
            f"{_count(len(starts), 'station')} for {_count(p.detectives, 'detective')} "
            "(-o detectives=N sets their number)"
        )
    if p.detective_starts and tuple(starts) != p.detective_starts:
        fixed = ",".join(map(str, p.detective_starts))
        raise SleuthError(f"this game fixes the detectives' starts at {fixed}")
    if not p.detective_starts:
        cards = set(p.detective_cards)
        other = next((s for s in starts if s not in cards), None)
        if other is not None:
            raise SleuthError(
                f"{other} is not on a detective start card ({', '.join(map(str, sorted(cards)))})"
            )


def parse_starts(text: str) -> tuple[int, ...]:
    """Station numbers separated by commas or spaces (``13,26,29``)."""
    parts = text.replace(",", " ").split()
    if not parts:
        raise SleuthError("no start stations: write them as 9,10,15,17,19")
    bad = next((p for p in parts if not (p.isascii() and p.isdigit())), None)
    if bad is not None:
        raise SleuthError(f"{bad!r} is not a station number (write e.g. 9,10,15,17,19)")
    return tuple(whole_number(p) for p in parts)


def example_starts(game: ScotlandYardGame) -> str:
    """Start stations to show in an example entry: the game's fixed ones, else the first
    start cards."""
    p = game.profile
    cards = p.detective_starts or tuple(sorted(p.detective_cards))
    return ",".join(map(str, cards[: p.detectives]))


def _count(count: int, noun: str) -> str:
    """``1 station``, ``2 stations``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _leg_ticket(word: str, text: str) -> Ticket:
    if word not in LEG_TICKETS:
        raise SleuthError(
            f"{text!r}: {word!r} is not a ticket (taxi, bus, underground, black; "
            f"detectives: {', '.join(TRANSPORT_TICKETS)})"
        )
    return Ticket(word)


def _leg_event(leg: Leg, reveal: int | None) -> Event:
    public = {"entry": leg.entry, "ticket": str(leg.ticket), "leg": leg.leg, "reveal": reveal}
    return Event("mrx_moved", public)
