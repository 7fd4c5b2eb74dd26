"""The Mr. X tracker: the conformance cases T12-T16 on the classic map, contradictions, and a
brute-force oracle (every path of Mr. X that agrees with the events, enumerated) on small random
boards for the possible sets, their history, the smoothed sets, the random-walk weights and the
paths drawn."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.bitsets import mask_of, members
from sleuth.core.errors import ContradictionError
from sleuth.games.scotland_yard.board import (
    DETECTIVE_TRANSPORTS,
    Board,
    Edge,
    Transport,
    builtin_board,
    from_rows,
)
from sleuth.games.scotland_yard.tracker import (
    LEG_TICKETS,
    SPARSE,
    Tracker,
    leg_tables,
    show,
)
from tests.games.scotland_yard.helpers import classic_board

CLASSIC_CARDS = (13, 26, 29, 34, 50, 53, 91, 94, 103, 112, 117, 132, 138, 141, 155, 174, 197, 198)
"""The classic start cards (rule S8 of docs/scotland-yard.md)."""
T12_DETECTIVES = (26, 29, 50, 53, 91)


def t12_tracker() -> Tracker:
    return Tracker(classic_board(), mask_of(CLASSIC_CARDS), T12_DETECTIVES)


# --- conformance cases T12-T16 --------------------------------------------------------------


def test_t12_start_set_is_the_cards_nobody_drew() -> None:
    tracker = t12_tracker()
    assert tracker.stations() == [13, 34, 94, 103, 112, 117, 132, 138, 141, 155, 174, 197, 198]
    assert tracker.entry == 0
    assert tracker.history == [tracker.possible]


@pytest.mark.parametrize(
    ("ticket", "expected"),
    [
        ("underground", [46, 67, 89]),
        ("bus", [14, 22, 23, 46, 52, 63, 74, 77, 93]),
        ("taxi", 44),
        ("black", 52),
    ],
)
def test_t12_first_entry(ticket: str, expected: list[int] | int) -> None:
    tracker = t12_tracker()
    tracker.mrx_leg(ticket)
    if isinstance(expected, int):
        assert tracker.size == expected
    else:
        assert tracker.stations() == expected
    assert tracker.entry == 1
    assert tracker.tickets == [ticket]
    assert tracker.possible & tracker.occupied == 0


def test_t13_black_ticket_takes_the_ferry() -> None:
    board = classic_board()
    detectives = (115, 133, 142, 170, 185)
    tracker = Tracker(board, board.all_stations, detectives)
    tracker.mrx_leg("taxi")
    tracker.reveal(157)
    tracker.mrx_leg("black")
    assert tracker.stations() == [156, 158, 194]
    # The wrong variant (black = taxi, bus or underground only) loses the ferry to 194.
    ferryless = board.reach(1 << 157, DETECTIVE_TRANSPORTS) & ~mask_of(detectives)
    assert members(ferryless) == [156, 158]


def test_t14_double_move_then_a_miss() -> None:
    tracker = Tracker(classic_board(), 1 << 104, (117,))
    tracker.mrx_leg("taxi")
    tracker.mrx_leg("taxi")
    assert tracker.stations() == [69, 103, 104, 118, 127]
    tracker.detective_moved(0, 104, captured=False)
    assert tracker.stations() == [69, 103, 118, 127]
    assert tracker.detectives == [104]
    assert tracker.history[-1] == tracker.possible
    assert members(tracker.history[1]) == [86, 116]


def test_t15_reveal_between_the_legs_of_a_double_move() -> None:
    board = classic_board()
    tracker = Tracker(board, board.all_stations, (117,))
    tracker.mrx_leg("taxi")
    tracker.mrx_leg("taxi")
    tracker.mrx_leg("taxi")  # entry 3, the first leg of the double move
    tracker.reveal(104)
    tracker.mrx_leg("taxi")  # entry 4
    assert tracker.stations() == [86, 116]
    assert members(tracker.history[3]) == [104]


def test_t16_random_walk() -> None:
    tracker = Tracker(classic_board(), 1 << 104, (117,), "random-walk")
    tracker.mrx_leg("taxi")
    assert tracker.probabilities() == pytest.approx({86: 0.5, 116: 0.5}, abs=1e-12)
    tracker.mrx_leg("taxi")
    sixth = 1 / 6
    expected = {69: sixth, 103: sixth, 104: 1 / 3, 118: sixth, 127: sixth}
    assert tracker.probabilities() == pytest.approx(expected, abs=1e-12)
    tracker.detective_moved(0, 104, captured=False)  # a miss renormalises the rest
    assert tracker.probabilities() == pytest.approx(dict.fromkeys([69, 103, 118, 127], 0.25))
    tracker.reveal(69)
    assert tracker.probabilities() == {69: 1.0}


def test_uniform_probabilities_and_samples() -> None:
    tracker = t12_tracker()
    tracker.mrx_leg("bus")
    assert tracker.probabilities() == pytest.approx(dict.fromkeys(tracker.stations(), 1 / 9))
    draws = tracker.sample(random.Random(5), 9000)
    assert set(draws) == set(tracker.stations())
    assert all(800 < draws.count(s) < 1200 for s in tracker.stations())


def test_random_walk_samples_follow_the_weights() -> None:
    tracker = Tracker(classic_board(), 1 << 104, (117,), "random-walk")
    tracker.mrx_leg("taxi")
    tracker.mrx_leg("taxi")
    draws = tracker.sample(random.Random(3), 6000)
    assert set(draws) == {69, 103, 104, 118, 127}
    assert 1800 < draws.count(104) < 2200  # weight 1/3
    assert 800 < draws.count(69) < 1200  # weight 1/6


def test_capture_ends_the_game_at_the_capture_station() -> None:
    tracker = Tracker(classic_board(), 1 << 104, (117,))
    tracker.mrx_leg("taxi")
    tracker.detective_moved(0, 116, captured=True)
    assert tracker.stations() == [116]
    assert tracker.caught == 116
    assert tracker.detectives == [116]
    with pytest.raises(ContradictionError, match="caught at 116"):
        tracker.mrx_leg("taxi")
    with pytest.raises(ContradictionError, match="caught at 116"):
        tracker.detective_moved(0, 117, captured=False)


def test_reveal_log_checks_the_log_and_pins_every_entry() -> None:
    tracker = Tracker(classic_board(), 1 << 104, (117,))
    tracker.mrx_leg("taxi")
    tracker.mrx_leg("black")
    tracker.reveal_log([("taxi", 86), ("black", 69)])
    assert [members(h) for h in tracker.history] == [[104], [86], [69]]
    assert tracker.stations() == [69]


@pytest.mark.parametrize(
    ("log", "message"),
    [
        ([("taxi", 86)], "the log has 1 entries, not 2"),
        ([("bus", 86), ("black", 69)], "Mr. X's move 1 shows bus, but taxi was played"),
        (
            [("taxi", 87), ("black", 69)],
            r"Mr. X's move 1 says 87, but Mr. X could only be at \{86,",
        ),
        ([("taxi", 116), ("black", 69)], "Mr. X's move 2: no black move goes from 116 to 69"),
    ],
)
def test_reveal_log_rejects_a_log_that_disagrees(log: list[tuple[str, int]], message: str) -> None:
    tracker = Tracker(classic_board(), 1 << 104, (117,))
    tracker.mrx_leg("taxi")
    tracker.mrx_leg("black")
    before = list(tracker.history)
    with pytest.raises(ContradictionError, match=message):
        tracker.reveal_log(log)
    assert tracker.history == before


def test_smoothing_on_the_classic_map() -> None:
    """From 104 (detective at 117): taxi, taxi, then revealed at 69.  Only 86 leads to 69."""
    tracker = Tracker(classic_board(), 1 << 104, (117,))
    tracker.mrx_leg("taxi")
    tracker.mrx_leg("taxi")
    tracker.reveal(69)
    assert [members(b) for b in tracker.smoothed()] == [[104], [86], [69]]


# --- contradictions -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([("leg", "taxi")], r"a taxi move from \{104\} reaches no station free of detectives"),
        ([("reveal", 104), ("reveal", 5)], r"revealed at 5, but he can only be at \{104\}"),
        ([("reveal", 0)], r"revealed at 0"),
        ([("miss", 0, 104)], "d1 missed Mr. X at 104, the only station he can be at"),
        ([("catch", 1, 5)], r"caught at 5, but he can only be at \{104\}"),
        ([("leg", "double")], "unknown ticket 'double'"),
        ([("miss", 7, 5)], "there is no detective 8 \\(d1 to d"),
        ([("miss", 0, 200)], r"200 is not a station \(stations are 1\.\.199\)"),
    ],
)
def test_contradictions_name_what_failed_and_change_nothing(
    steps: list[tuple[object, ...]], message: str
) -> None:
    tracker = Tracker(classic_board(), 1 << 104, (86, 116))
    *before, last = steps
    for step in before:
        apply(tracker, step)
    snapshot = (tracker.possible, list(tracker.history), list(tracker.detectives), tracker.entry)
    with pytest.raises(ContradictionError, match=message):
        apply(tracker, last)
    assert (tracker.possible, tracker.history, tracker.detectives, tracker.entry) == snapshot


def apply(tracker: Tracker, step: tuple[object, ...]) -> None:
    kind, *args = step
    if kind == "leg":
        tracker.mrx_leg(str(args[0]))
    elif kind == "reveal":
        tracker.reveal(int(str(args[0])))
    else:
        tracker.detective_moved(int(str(args[0])), int(str(args[1])), kind == "catch")


def test_a_ticket_mr_x_cannot_use_says_whether_a_route_exists() -> None:
    """No route of the ticket at all, or only routes onto detectives (with the article the
    ticket takes: 'an underground move')."""
    board = builtin_board()
    for ticket in ("taxi", "bus", "underground"):
        row = board.neighbours[Transport(ticket)]
        station = next(s for s in range(1, board.n + 1) if row[s])
        blocked = Tracker(board, 1 << station, tuple(members(row[station])))
        article = "an" if ticket == "underground" else "a"
        with pytest.raises(ContradictionError, match=f"^{article} {ticket} move from "):
            blocked.mrx_leg(ticket)
    for ticket in ("bus", "underground"):  # every station has a taxi edge
        row = board.neighbours[Transport(ticket)]
        station = next(s for s in range(1, board.n + 1) if not row[s])
        nowhere = Tracker(board, 1 << station, ())
        message = rf"^Mr. X can only be at \{{{station}\}}, and no {ticket} route leaves it$"
        with pytest.raises(ContradictionError, match=message):
            nowhere.mrx_leg(ticket)


def test_no_free_start_station_is_a_contradiction() -> None:
    with pytest.raises(ContradictionError, match=r"no start station is free: every one of \{5\}"):
        Tracker(classic_board(), 1 << 5, (5, 6))


def test_bad_arguments_are_value_errors() -> None:
    board = classic_board()
    with pytest.raises(ValueError, match="not stations"):
        Tracker(board, 1 << 200, ())
    with pytest.raises(ValueError, match="unknown model 'bayes'"):
        Tracker(board, 1 << 5, (), "bayes")  # type: ignore[arg-type]


def test_copy_is_independent() -> None:
    tracker = Tracker(classic_board(), 1 << 104, (117,), "random-walk")
    twin = tracker.copy()
    twin.mrx_leg("taxi")
    twin.detective_moved(0, 86, captured=False)
    assert tracker.stations() == [104] and tracker.entry == 0 and tracker.detectives == [117]
    assert tracker.weights == {104: 1.0}
    assert twin.stations() == [116] and twin.tables is tracker.tables


def test_show_cuts_long_sets() -> None:
    assert show(mask_of([3, 1])) == "{1, 3}"
    assert show(mask_of(range(1, 21)), limit=3) == "{1, 2, 3, ... (20 stations)}"


# --- the leg tables ---------------------------------------------------------------------------


@given(st.sets(st.integers(1, 199), max_size=199), st.sampled_from(LEG_TICKETS))
def test_leg_tables_reach_as_the_board_does(stations: set[int], ticket: str) -> None:
    """Small sets (station by station) and large ones (a byte at a time) alike."""
    board = classic_board()
    transports = list(Transport) if ticket == "black" else [Transport(ticket)]
    mask = mask_of(stations)
    assert leg_tables(board).reach(mask, ticket) == board.reach(mask, transports)


def test_leg_tables_are_built_once_per_board() -> None:
    board = classic_board()
    assert leg_tables(board) is leg_tables(board)
    assert SPARSE < 199


# --- brute force on small random boards -------------------------------------------------------


def random_board(rng: random.Random) -> Board:
    """3..7 stations: a random tree of taxi, bus and underground edges (so the board is
    connected), plus a few extra edges of any transport, ferries included."""
    n = rng.randint(3, 7)
    detective = [Transport.TAXI, Transport.BUS, Transport.UNDERGROUND]
    edges: set[Edge] = set()
    for v in range(2, n + 1):
        edges.add((rng.randint(1, v - 1), v, rng.choice(detective)))
    for _ in range(rng.randint(0, 2 * n)):
        u, v = sorted(rng.sample(range(1, n + 1), 2))
        edges.add((u, v, rng.choice(list(Transport))))
    return from_rows(n, edges)


Event = tuple[object, ...]
"""("leg", ticket), ("reveal", station) or ("move", detective, station, captured)."""


def random_events(
    rng: random.Random, board: Board, detectives: list[int], start: int
) -> list[Event]:
    """Events of a plausible game: a hidden Mr. X walks from ``start`` and the events tell the
    truth about him, but for a rare lie (to provoke contradictions); they stop at a capture."""
    where, held = start, list(detectives)
    out: list[Event] = []
    for _ in range(rng.randint(1, 12)):
        lie = rng.random() < 0.04
        roll = rng.random()
        moves = [
            (t, q)
            for t in LEG_TICKETS
            for q in members(leg_tables(board).single[t][where] & ~mask_of(held))
        ]
        if roll < 0.5 and (moves or lie):
            if lie:
                ticket = rng.choice(LEG_TICKETS)
            else:
                ticket, where = rng.choice(moves)
            out.append(("leg", ticket))
        elif roll < 0.65:
            out.append(("reveal", rng.randint(1, board.n) if lie else where))
        else:
            i = rng.randrange(len(held))
            others = [s for s in range(1, board.n + 1) if s != where] or [where]
            station = where if rng.random() < 0.05 else rng.choice(others)
            captured = (station == where) != lie
            held[i] = station
            out.append(("move", i, station, captured))
            if station == where:
                break
    return out


def neighbours(board: Board, station: int, ticket: str) -> list[int]:
    """The oracle's moves, read from the edge list (black: any transport, ferries too)."""
    out = set()
    for u, v, t in board.edges:
        if ticket == "black" or t.value == ticket:
            if u == station:
                out.add(v)
            if v == station:
                out.add(u)
    return sorted(out)


class PathOracle:
    """Every path of Mr. X (his station after each entry, the start first) that agrees with
    the events read, each with its random-walk weight (exact fractions)."""

    def __init__(self, board: Board, start: set[int], detectives: list[int]) -> None:
        self.board = board
        self.detectives = list(detectives)
        free = sorted(start - set(detectives))
        self.paths: dict[tuple[int, ...], Fraction] = {(s,): Fraction(1, len(free)) for s in free}
        self.caught = False
        self.history = [self.ends(0)]

    def ends(self, k: int) -> set[int]:
        return {path[k] for path in self.paths}

    def read(self, event: Event) -> bool:
        """Apply one event; False when no path agrees with the events any more."""
        kind = event[0]
        if kind == "leg":
            if self.caught:
                return False
            out: dict[tuple[int, ...], Fraction] = {}
            for path, weight in self.paths.items():
                moves = [
                    q
                    for q in neighbours(self.board, path[-1], str(event[1]))
                    if q not in self.detectives
                ]
                for q in moves:
                    out[(*path, q)] = weight / len(moves)
            self.paths = out
            self.history.append(set())
        elif kind == "reveal":
            self.paths = {p: w for p, w in self.paths.items() if p[-1] == event[1]}
        else:
            _, i, station, captured = event
            if self.caught:
                return False
            self.detectives[int(str(i))] = int(str(station))
            self.paths = {p: w for p, w in self.paths.items() if (p[-1] == station) == captured}
            self.caught = bool(captured)
        if not self.paths:
            return False
        self.history[-1] = self.ends(len(self.history) - 1)
        return True

    def weights(self) -> dict[int, Fraction]:
        total = sum(self.paths.values())
        out: dict[int, Fraction] = {}
        for path, weight in self.paths.items():
            out[path[-1]] = out.get(path[-1], Fraction(0)) + weight / total
        return out


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32))
def test_tracker_agrees_with_every_path_enumerated(seed: int) -> None:
    """Exactness and soundness: after every event, the tracker's set is the set of end stations
    of the agreeing paths, and it raises exactly when none is left; its history, smoothed sets and
    random-walk weights match the paths too, and every path it draws is one of them."""
    rng = random.Random(seed)
    board = random_board(rng)
    detectives = rng.sample(range(1, board.n + 1), rng.randint(1, min(2, board.n - 1)))
    free = [s for s in range(1, board.n + 1) if s not in detectives]
    start = set(rng.sample(range(1, board.n + 1), rng.randint(1, board.n)))
    truth = rng.choice(free)
    if rng.random() < 0.9:
        start.add(truth)
    events = random_events(rng, board, detectives, truth)
    oracle = PathOracle(board, start, detectives)
    if not oracle.paths:
        with pytest.raises(ContradictionError):
            Tracker(board, mask_of(start), detectives)
        return
    tracker = Tracker(board, mask_of(start), detectives, "random-walk")
    for event in events:
        if not oracle.read(event):
            with pytest.raises(ContradictionError):
                read(tracker, event)
            return
        read(tracker, event)
        assert set(tracker.stations()) == oracle.ends(-1)
        assert [set(members(h)) for h in tracker.history] == oracle.history
        smoothed = [oracle.ends(k) for k in range(tracker.entry + 1)]
        assert [set(members(b)) for b in tracker.smoothed()] == smoothed
        assert tracker.weights is not None
        assert tracker.weights == pytest.approx({s: float(w) for s, w in oracle.weights().items()})
        assert tuple(tracker.sample_path(rng)) in oracle.paths
        if tracker.caught is None:
            assert tracker.possible & tracker.occupied == 0


def read(tracker: Tracker, event: Event) -> None:
    kind = event[0]
    if kind == "leg":
        tracker.mrx_leg(str(event[1]))
    elif kind == "reveal":
        tracker.reveal(int(str(event[1])))
    else:
        _, i, station, captured = event
        tracker.detective_moved(int(str(i)), int(str(station)), bool(captured))
