"""Scotland Yard boards: stations ``1 .. n`` joined by taxi, bus, underground and ferry edges.

A :class:`Board` is immutable.  Sets of stations are Python ints used as bitsets (bit ``s`` set
= station ``s`` is in the set; bit 0 is never set).  ``neighbours[t][s]`` is the bitset of the
stations joined to ``s`` by a ``t`` edge; ``any_neighbours[s]`` is their union over all four
transports (what a black ticket reaches).  Two stations may be joined by several transports.

Invariants (checked by :func:`from_rows`, so every ``Board`` has them): stations are ``1 .. n``;
no edge joins a station to itself or appears twice with the same transport; the taxi, bus and
underground edges together connect every station (so :attr:`Board.distances` is defined for
every pair); every start card is a distinct station.

Files (:func:`load_board`, see ``docs/scotland-yard.md``): a folder with ``stations.csv``
(``id,x,y``), ``edges.csv`` (``u,v,transport``) and optionally ``starts.csv`` (``station``).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from pathlib import Path

import numpy as np
import numpy.typing as npt

from sleuth.core.errors import SleuthError
from sleuth.core.numbers import shorten

STATIONS_FILE = "stations.csv"
EDGES_FILE = "edges.csv"
STARTS_FILE = "starts.csv"
BUILTIN_DIR = Path(__file__).resolve().parent / "data"
"""The folder of the built-in board (made by :mod:`sleuth.games.scotland_yard.generate`)."""


class BoardError(SleuthError, ValueError):
    """A board file or board data that breaks an invariant; the message names the culprit and,
    for files, the file and line."""


class Transport(StrEnum):
    """The four kinds of edge.  Ferry edges can only be used with a black ticket."""

    TAXI = "taxi"
    BUS = "bus"
    UNDERGROUND = "underground"
    FERRY = "ferry"


DETECTIVE_TRANSPORTS = (Transport.TAXI, Transport.BUS, Transport.UNDERGROUND)
"""The transports with a ticket of their own; distances use these edges only."""

Coordinates = tuple[int, int] | None
Edge = tuple[int, int, Transport]
"""``(u, v, transport)`` with ``u < v``."""


@dataclass(frozen=True, eq=False)
class Board:
    """A board with stations ``1 .. n``.  Build one with :func:`from_rows` (which validates).

    ``edges`` is sorted and each has ``u < v``; ``coordinates[s - 1]`` is station ``s``'s
    position (or ``None``); ``start_cards`` are the stations of the start cards, in file order.
    Equality and hashing use all four fields.
    """

    n: int
    edges: tuple[Edge, ...]
    coordinates: tuple[Coordinates, ...]
    start_cards: tuple[int, ...]
    neighbours: dict[Transport, tuple[int, ...]] = field(init=False, repr=False)
    any_neighbours: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        table = {t: [0] * (self.n + 1) for t in Transport}
        for u, v, t in self.edges:
            table[t][u] |= 1 << v
            table[t][v] |= 1 << u
        object.__setattr__(self, "neighbours", {t: tuple(row) for t, row in table.items()})
        union = [0] * (self.n + 1)
        for s in range(1, self.n + 1):
            for t in Transport:
                union[s] |= table[t][s]
        object.__setattr__(self, "any_neighbours", tuple(union))

    def _key(self) -> tuple[object, ...]:
        return (self.n, self.edges, self.coordinates, self.start_cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def all_stations(self) -> int:
        """The bitset of every station ``1 .. n``."""
        return ((1 << (self.n + 1)) - 1) ^ 1

    def stations_with(self, transport: Transport) -> int:
        """The bitset of the stations with at least one ``transport`` edge."""
        mask = 0
        for s, row in enumerate(self.neighbours[transport]):
            if row:
                mask |= 1 << s
        return mask

    def reach(self, stations: int, transports: Iterable[Transport]) -> int:
        """The bitset of the stations one edge of ``transports`` away from any of ``stations``."""
        out = 0
        tables = [self.neighbours[t] for t in transports]
        while stations:
            low = stations & -stations
            s = low.bit_length() - 1
            for table in tables:
                out |= table[s]
            stations ^= low
        return out

    @cached_property
    def distances(self) -> npt.NDArray[np.int16]:
        """``distances[a, b]``: the fewest taxi, bus and underground edges from ``a`` to ``b``
        (ferries ignored), a read-only ``(n + 1) x (n + 1)`` array; row and column 0 are 0."""
        dist = np.zeros((self.n + 1, self.n + 1), dtype=np.int16)
        for source in range(1, self.n + 1):
            seen = frontier = 1 << source
            depth = 0
            while frontier:
                depth += 1
                frontier = self.reach(frontier, DETECTIVE_TRANSPORTS) & ~seen
                seen |= frontier
                mask = frontier
                while mask:
                    low = mask & -mask
                    dist[source, low.bit_length() - 1] = depth
                    mask ^= low
        dist.setflags(write=False)
        return dist


def _component(board: Board, transports: Sequence[Transport]) -> int:
    """The bitset of the stations reachable from station 1 along ``transports``."""
    seen = frontier = 1 << 1
    while frontier:
        frontier = board.reach(frontier, transports) & ~seen
        seen |= frontier
    return seen


def from_rows(
    n: int,
    edges: Iterable[Edge],
    coordinates: Sequence[Coordinates] | None = None,
    start_cards: Sequence[int] = (),
) -> Board:
    """A validated board; :class:`BoardError` names the first bad edge, station or card.

    Edges may be given either way round and in any order; they are stored with ``u < v``,
    sorted.  Raises on a self-loop, an unknown station, a duplicate edge, a station that taxi,
    bus and underground edges do not connect to station 1, or a bad start card.
    """
    if n < 1:
        raise BoardError(f"a board needs at least one station, not {n}")
    coords = tuple(coordinates) if coordinates is not None else (None,) * n
    if len(coords) != n:
        raise BoardError(f"{len(coords)} coordinates for {n} stations")
    seen: set[Edge] = set()
    for u, v, t in edges:
        edge = (min(u, v), max(u, v), Transport(t))
        _check_edge(n, edge, seen)
        seen.add(edge)
    cards = tuple(start_cards)
    for card in cards:
        if not 1 <= card <= n:
            raise BoardError(f"start card {card}: unknown station (stations are 1..{n})")
    if len(set(cards)) != len(cards):
        twice = next(c for c in cards if cards.count(c) > 1)
        raise BoardError(f"start card {twice} appears twice")
    board = Board(n, tuple(sorted(seen)), coords, cards)
    missing = board.all_stations & ~_component(board, DETECTIVE_TRANSPORTS)
    if missing:
        station = (missing & -missing).bit_length() - 1
        raise BoardError(
            f"station {station} is disconnected: no taxi, bus or underground path to station 1"
        )
    return board


def _check_edge(n: int, edge: Edge, seen: set[Edge]) -> None:
    u, v, t = edge
    if u == v:
        raise BoardError(f"self-loop: {t.value} edge from station {u} to itself")
    for s in (u, v):
        if not 1 <= s <= n:
            raise BoardError(f"{t.value} edge {u}-{v}: unknown station {s} (stations are 1..{n})")
    if edge in seen:
        raise BoardError(f"duplicate edge: {t.value} {u}-{v}")


def load_board(path: str | Path) -> Board:
    """The board in the folder ``path`` (``stations.csv``, ``edges.csv``, optional
    ``starts.csv``).  Errors are :class:`BoardError` naming the file, the line and the culprit."""
    try:
        folder = Path(path).expanduser()
        found = folder.is_dir()
    except (OSError, RuntimeError) as exc:  # a name too long, an unknown user's ~
        why = getattr(exc, "strerror", None) or exc
        raise BoardError(f"cannot read board folder {shorten(str(path), 60)}: {why}") from None
    if not found:
        raise BoardError(f"no such board folder: {folder}")
    coords = _read_stations(folder / STATIONS_FILE)
    n = len(coords)
    edges_file = folder / EDGES_FILE
    edges: list[Edge] = []
    seen: set[Edge] = set()
    for line, row in _rows(edges_file, ("u", "v", "transport")):
        u, v = _number(edges_file, line, row, "u"), _number(edges_file, line, row, "v")
        name = row["transport"].strip()
        try:
            transport = Transport(name)
        except ValueError:
            known = ", ".join(t.value for t in Transport)
            raise BoardError(
                f"{edges_file}:{line}: unknown transport {name!r} (known: {known})"
            ) from None
        edge = (min(u, v), max(u, v), transport)
        try:
            _check_edge(n, edge, seen)
        except BoardError as err:
            raise BoardError(f"{edges_file}:{line}: {err}") from None
        seen.add(edge)
        edges.append(edge)
    starts_file = folder / STARTS_FILE
    cards: list[int] = []
    if starts_file.exists():
        for line, row in _rows(starts_file, ("station",)):
            card = _number(starts_file, line, row, "station")
            if not 1 <= card <= n or card in cards:
                why = "appears twice" if card in cards else f"unknown station (stations are 1..{n})"
                raise BoardError(f"{starts_file}:{line}: start card {card}: {why}")
            cards.append(card)
    try:
        return from_rows(n, edges, coords, cards)
    except BoardError as err:
        raise BoardError(f"{folder}: {err}") from None


def builtin_board() -> Board:
    """Sleuth's own board (see :mod:`sleuth.games.scotland_yard.generate`), used when no map is
    configured."""
    return load_board(BUILTIN_DIR)


def _read_stations(path: Path) -> list[Coordinates]:
    coords: list[Coordinates] = []
    for line, row in _rows(path, ("id", "x", "y")):
        station = _number(path, line, row, "id")
        if station != len(coords) + 1:
            raise BoardError(
                f"{path}:{line}: station {station} out of order: ids must be 1, 2, 3, ... "
                f"(expected {len(coords) + 1})"
            )
        if row["x"].strip() == "" and row["y"].strip() == "":
            coords.append(None)
        else:
            coords.append((_number(path, line, row, "x"), _number(path, line, row, "y")))
    if not coords:
        raise BoardError(f"{path}: no stations")
    return coords


def _rows(path: Path, columns: tuple[str, ...]) -> Iterable[tuple[int, dict[str, str]]]:
    """The data rows of a CSV file with their line numbers (the header is line 1)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BoardError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise BoardError(f"cannot read {path}: {err}") from None
    reader = csv.DictReader(text.splitlines())
    header = reader.fieldnames or []
    absent = [c for c in columns if c not in header]
    if absent:
        raise BoardError(
            f"{path}:1: missing column(s) {', '.join(absent)}: the first line must name the "
            f"columns {','.join(columns)}"
        )  # the line itself is not quoted: it may be any file's, and no board's header
    for row in reader:
        if any(row.get(c) is None for c in columns):
            raise BoardError(f"{path}:{reader.line_num}: too few fields")
        yield reader.line_num, row


def _number(path: Path, line: int, row: dict[str, str], column: str) -> int:
    text = row[column].strip()
    try:
        return int(text)
    except ValueError:
        raise BoardError(f"{path}:{line}: bad number {text!r} in column {column}") from None
