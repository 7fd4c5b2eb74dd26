"""The detectives' tracker: the exact set of stations where Mr. X can be, from public events.

A :class:`Tracker` follows the possible-locations procedure of ``docs/scotland-yard.md``: it
starts from the start stations minus the detectives' stations, and reads, in order, Mr. X's
legs (the ticket shown), reveals, detective moves and a capture.  Sets of stations are int
bitsets over a :class:`~sleuth.games.scotland_yard.board.Board` (bit ``s`` = station ``s``).

Invariants, while Mr. X is free:

* **sound**: Mr. X's true station is in :attr:`Tracker.possible` whenever the events read come
  from a game;
* **exact**: every station of ``possible`` ends some path of Mr. X that agrees with every event
  read (tickets, stations free of detectives when he moved, misses, reveals);
* ``possible`` is never empty and holds no detective's station; after a reveal it is that one
  station.  After a capture it is the capture station (a detective stands there).

Events that no path explains (no station reachable with the ticket shown, a reveal outside
``possible``, a miss at Mr. X's last possible station) raise
:class:`~sleuth.core.errors.ContradictionError` saying what failed; the tracker is then left as
it was before that call.  Callers name the event (see :mod:`sleuth.core.belief`).

Probabilities name their model, an assumption rather than a rule: ``uniform`` (each possible
station alike) or ``random-walk`` (Mr. X picks uniformly among the stations the ticket shown
reaches; its weights are kept, as floats renormalised after each step, only when the tracker is
made with that model).
"""

from __future__ import annotations

import random
import weakref
from collections.abc import Sequence
from typing import Final, Literal

from sleuth.core.bitsets import mask_of, members
from sleuth.core.errors import ContradictionError
from sleuth.games.scotland_yard.board import Board, Transport

Model = Literal["uniform", "random-walk"]
MODELS: Final[tuple[Model, ...]] = ("uniform", "random-walk")
LEG_TICKETS: Final = ("taxi", "bus", "underground", "black")
"""The tickets a log entry can show; black goes along any edge, ferries included."""

SPARSE: Final = 8
"""Sets with at most this many stations are expanded station by station; larger ones a byte
(8 stations) at a time through :attr:`LegTables.chunks`."""


class LegTables:
    """Where each leg ticket goes from each station, precomputed for one board.

    ``single[ticket][s]`` is the bitset of the stations one ``ticket`` move from ``s``;
    ``chunks[ticket][i][b]`` is the union of ``single[ticket][8 * i + j]`` over the bits ``j``
    of the byte ``b``.  Edges are undirected, so :meth:`reach` also gives predecessors.
    """

    def __init__(self, board: Board) -> None:
        single = {
            "taxi": board.neighbours[Transport.TAXI],
            "bus": board.neighbours[Transport.BUS],
            "underground": board.neighbours[Transport.UNDERGROUND],
            "black": board.any_neighbours,
        }
        self.nbytes = board.n // 8 + 1
        self.single: dict[str, tuple[int, ...]] = single
        self.chunks: dict[str, tuple[tuple[int, ...], ...]] = {
            ticket: tuple(_chunk(row, 8 * i) for i in range(self.nbytes))
            for ticket, row in single.items()
        }

    def reach(self, stations: int, ticket: str) -> int:
        """The stations one ``ticket`` move from any of ``stations`` (``ticket`` must be one of
        :data:`LEG_TICKETS`)."""
        out = 0
        if stations.bit_count() <= SPARSE:
            row = self.single[ticket]
            while stations:
                low = stations & -stations
                out |= row[low.bit_length() - 1]
                stations ^= low
            return out
        for table, byte in zip(
            self.chunks[ticket], stations.to_bytes(self.nbytes, "little"), strict=True
        ):
            if byte:
                out |= table[byte]
        return out


def _chunk(row: tuple[int, ...], first: int) -> tuple[int, ...]:
    """The 256 unions of ``row[first .. first + 7]`` (stations past the row reach nothing)."""
    table = [0] * 256
    for byte in range(1, 256):
        low = byte & -byte
        s = first + low.bit_length() - 1
        table[byte] = table[byte & (byte - 1)] | (row[s] if s < len(row) else 0)
    return tuple(table)


_TABLES: dict[int, tuple[weakref.ref[Board], LegTables]] = {}


def leg_tables(board: Board) -> LegTables:
    """The :class:`LegTables` of ``board``, built once per board object."""
    cached = _TABLES.get(id(board))
    if cached is not None and cached[0]() is board:
        return cached[1]
    tables = LegTables(board)
    key = id(board)
    _TABLES[key] = (weakref.ref(board, lambda _: _TABLES.pop(key, None)), tables)
    return tables


def show(stations: int, limit: int = 12) -> str:
    """A bitset as text for messages: ``{13, 34, 94}`` (at most ``limit`` stations shown)."""
    found = members(stations)
    text = ", ".join(map(str, found[:limit]))
    more = f", ... ({len(found)} stations)" if len(found) > limit else ""
    return "{" + text + more + "}"


class Tracker:
    """Mr. X's possible stations after each log entry, from public events only.

    ``possible`` is the current set; ``entry`` the number of log entries read; ``history[k]``
    the set after entry ``k`` and the detective moves that followed it (``history[0]``: before
    entry 1), so ``history[-1] == possible``.  ``tickets[k - 1]`` is the ticket of entry
    ``k``.  ``detectives`` are the detectives' current stations, ``occupied`` their bitset;
    ``caught`` is the capture station once there is one.
    """

    def __init__(
        self,
        board: Board,
        start_set: int,
        detectives: Sequence[int],
        model: Model = "uniform",
    ) -> None:
        if start_set & ~board.all_stations:
            raise ValueError(f"start set {show(start_set & ~board.all_stations)}: not stations")
        if model not in MODELS:
            raise ValueError(f"unknown model {model!r} (known: {', '.join(MODELS)})")
        for station in detectives:
            _check_station(board, station)
        self.board = board
        self.model: Model = model
        self.tables = leg_tables(board)
        self.detectives = list(detectives)
        self.occupied = mask_of(self.detectives)
        self.possible = start_set & ~self.occupied
        if not self.possible:
            raise ContradictionError(
                f"no start station is free: every one of {show(start_set)} holds a detective"
            )
        self.entry = 0
        self.history = [self.possible]
        self.tickets: list[str] = []
        self.caught: int | None = None
        self.weights: dict[int, float] | None = None
        """The ``random-walk`` probabilities (station -> weight, summing to 1, support =
        ``possible``); None under the ``uniform`` model."""
        if model == "random-walk":
            share = 1.0 / self.possible.bit_count()
            self.weights = dict.fromkeys(members(self.possible), share)

    def copy(self) -> Tracker:
        """An independent tracker in the same state (the board and its tables are shared)."""
        twin = object.__new__(Tracker)
        twin.__dict__.update(self.__dict__)
        twin.detectives = list(self.detectives)
        twin.history = list(self.history)
        twin.tickets = list(self.tickets)
        twin.weights = None if self.weights is None else dict(self.weights)
        return twin

    @property
    def size(self) -> int:
        """How many stations are possible."""
        return self.possible.bit_count()

    def stations(self) -> list[int]:
        """The possible stations, in increasing order."""
        return members(self.possible)

    # --- events ---------------------------------------------------------------------------

    def mrx_leg(self, ticket: str) -> None:
        """Mr. X fills the next log entry with ``ticket`` (one leg; a double move is two).

        ``possible`` becomes every station one ``ticket`` move from a possible station that
        holds no detective."""
        if self.caught is not None:
            raise self._over("Mr. X cannot move")
        try:
            reach = self.tables.reach(self.possible, ticket)
        except KeyError:
            known = ", ".join(LEG_TICKETS)
            raise ContradictionError(
                f"unknown ticket {ticket!r} in the log (known: {known})"
            ) from None
        if not reach:
            them = "it" if self.size == 1 else "any of them"
            raise ContradictionError(
                f"Mr. X can only be at {show(self.possible)}, and no {ticket} route leaves {them}"
            )
        after = reach & ~self.occupied
        if not after:
            move = f"{'an' if ticket[0] in 'aeiou' else 'a'} {ticket} move"
            raise ContradictionError(
                f"{move} from {show(self.possible)} reaches no station free of "
                f"detectives (they hold {show(self.occupied)})"
            )
        if self.weights is not None:
            self.weights = self._walk(self.weights, ticket)
        self.tickets.append(ticket)
        self.entry += 1
        self.possible = after
        self.history.append(after)

    def reveal(self, station: int) -> None:
        """Mr. X is shown at ``station`` (a reveal entry, or the end of the game)."""
        if station < 1 or not self.possible >> station & 1:
            raise ContradictionError(
                f"Mr. X is revealed at {station}, but he can only be at {show(self.possible)}"
            )
        self._point(station)

    def detective_moved(self, detective: int, station: int, captured: bool) -> None:
        """Detective ``detective`` (0-based) moved to ``station``; ``captured`` says whether
        Mr. X was there.  A miss removes ``station`` from ``possible``; a capture is
        :meth:`capture`."""
        if self.caught is not None:
            raise self._over("no detective moves after a capture")
        if not 0 <= detective < len(self.detectives):
            raise ContradictionError(  # named from 1, as the docs and the assistant name them
                f"there is no detective {detective + 1} (d1 to d{len(self.detectives)})"
            )
        _check_station(self.board, station)
        if captured:
            self.capture(station)
        elif self.possible == 1 << station:
            raise ContradictionError(
                f"d{detective + 1} missed Mr. X at {station}, the only station he can be at"
            )
        self.detectives[detective] = station
        self.occupied = mask_of(self.detectives)
        if captured:
            return
        self.possible &= ~(1 << station)
        self.history[-1] = self.possible
        if self.weights is not None and station in self.weights:
            del self.weights[station]
            self.weights = _normalised(self.weights)

    def capture(self, station: int) -> None:
        """Mr. X was caught at ``station``: the game is over and ``possible`` is that station."""
        if self.caught is not None:
            raise self._over("Mr. X cannot be caught twice")
        if station < 1 or not self.possible >> station & 1:
            raise ContradictionError(
                f"Mr. X is caught at {station}, but he can only be at {show(self.possible)}"
            )
        self._point(station)
        self.caught = station

    def reveal_log(self, log: Sequence[tuple[str, int]]) -> None:
        """The whole log, shown at the end of the game: ``log[k - 1]`` is entry ``k``'s
        (ticket, station).  Checks it against every entry read (same tickets, each station
        possible at its entry and one such move from the one before) and sets each entry's
        set in ``history`` to its station."""
        if len(log) != self.entry:
            raise ContradictionError(f"the log has {len(log)} entries, not {self.entry}")
        previous = 0
        for k, (ticket, station) in enumerate(log, start=1):
            if ticket != self.tickets[k - 1]:
                raise ContradictionError(
                    f"Mr. X's move {k} shows {ticket}, but {self.tickets[k - 1]} was played"
                )
            if station < 1 or not self.history[k] >> station & 1:
                raise ContradictionError(
                    f"Mr. X's move {k} says {station}, but Mr. X could only be at "
                    f"{show(self.history[k])}"
                )
            if previous and not self.tables.single[ticket][previous] >> station & 1:
                raise ContradictionError(
                    f"Mr. X's move {k}: no {ticket} move goes from {previous} to {station}"
                )
            previous = station
        for k, (_, station) in enumerate(log, start=1):
            self.history[k] = 1 << station
        if log:
            self._point(log[-1][1])

    # --- queries --------------------------------------------------------------------------

    def smoothed(self) -> list[int]:
        """``B_k`` for every entry ``k = 0 .. entry``: the stations of ``history[k]`` from
        which Mr. X can still reach the current ``possible`` through every later event
        (backward smoothing): ``B_entry = possible`` and ``B_k`` = the stations of
        ``history[k]`` one ``tickets[k]`` move from ``B_{k+1}``.  Edges are undirected, so that
        is a move *to* ``B_{k+1}``; the stations the detectives held at entry ``k + 1`` need
        no removing, as ``B_{k+1}`` is within ``history[k + 1]``, which holds none of them.
        """
        back = [0] * len(self.history)
        back[-1] = self.possible
        for k in range(self.entry - 1, -1, -1):
            back[k] = self.history[k] & self.tables.reach(back[k + 1], self.tickets[k])
        return back

    def probabilities(self) -> dict[int, float]:
        """Station -> probability under the tracker's :attr:`model`, in station order."""
        if self.weights is None:
            share = 1.0 / self.size
            return dict.fromkeys(self.stations(), share)
        return dict(sorted(self.weights.items()))

    def sample(self, rng: random.Random, k: int = 1) -> list[int]:
        """``k`` stations drawn independently from ``possible``: uniformly under ``uniform``,
        by weight under ``random-walk``."""
        if self.weights is None:
            return rng.choices(self.stations(), k=k)
        return rng.choices(list(self.weights), weights=list(self.weights.values()), k=k)

    def sample_path(self, rng: random.Random, end: int | None = None) -> list[int]:
        """One path of Mr. X that agrees with every event read: his start station, then his
        station after each entry (the last one is ``end`` if given, which must be possible,
        else drawn as :meth:`sample` draws; each earlier one uniformly among the stations of
        ``history`` one move before the next).  Every station of ``history[k]`` has such a
        predecessor in ``history[k - 1]``, so the walk back never gets stuck."""
        if end is not None and not self.possible >> end & 1:
            raise ValueError(
                f"a path cannot end at {end}: Mr. X can only be at {show(self.possible)}"
            )
        path = self.sample(rng) if end is None else [end]
        for k in range(self.entry - 1, -1, -1):
            before = self.history[k] & self.tables.single[self.tickets[k]][path[-1]]
            path.append(rng.choice(members(before)))
        path.reverse()
        return path

    # --- internals ------------------------------------------------------------------------

    def _over(self, what: str) -> ContradictionError:
        return ContradictionError(f"{what}: he was caught at {self.caught}")

    def _point(self, station: int) -> None:
        self.possible = 1 << station
        self.history[-1] = self.possible
        if self.weights is not None:
            self.weights = {station: 1.0}

    def _walk(self, weights: dict[int, float], ticket: str) -> dict[int, float]:
        """One ``random-walk`` step: each station's weight is split evenly among the free
        stations its ``ticket`` reaches (a station that reaches none loses its weight)."""
        row = self.tables.single[ticket]
        free = ~self.occupied
        out: dict[int, float] = {}
        for station, weight in weights.items():
            targets = row[station] & free
            if not targets:
                continue
            share = weight / targets.bit_count()
            while targets:
                low = targets & -targets
                q = low.bit_length() - 1
                out[q] = out.get(q, 0.0) + share
                targets ^= low
        return _normalised(out)


def _normalised(weights: dict[int, float]) -> dict[int, float]:
    total = sum(weights.values())
    return {s: w / total for s, w in weights.items()}


def _check_station(board: Board, station: int) -> None:
    if not 1 <= station <= board.n:
        raise ContradictionError(f"{station} is not a station (stations are 1..{board.n})")
