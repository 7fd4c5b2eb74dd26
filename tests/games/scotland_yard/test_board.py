"""Boards: the loader's errors, the classic map's counts, distances against a NetworkX oracle,
and the built-in board (connected, start cards 2 apart, reproduced by its generator)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import networkx as nx
import pytest

from sleuth.core.bitsets import members
from sleuth.core.errors import SleuthError
from sleuth.games.scotland_yard.board import (
    BUILTIN_DIR,
    DETECTIVE_TRANSPORTS,
    Board,
    BoardError,
    Transport,
    builtin_board,
    from_rows,
    load_board,
)
from sleuth.games.scotland_yard.generate import START_CARDS, generate, write_board

ROOT = Path(__file__).resolve().parents[3]
CLASSIC_DIR = ROOT.parent / "shared" / "data" / "scotland-yard"


@pytest.fixture(scope="module")
def classic() -> Board:
    if not (CLASSIC_DIR / "edges.csv").exists():
        pytest.skip(f"the classic map is not at {CLASSIC_DIR} (it is not part of the repository)")
    return load_board(CLASSIC_DIR)


@pytest.fixture(params=["builtin", "classic"])
def any_board(request: pytest.FixtureRequest) -> Board:
    if request.param == "classic":
        board: Board = request.getfixturevalue("classic")
        return board
    return builtin_board()


# --- the loader's errors ------------------------------------------------------------------

STATIONS = "id,x,y\n1,0,0\n2,10,0\n3,,\n"
EDGES = "u,v,transport\n1,2,taxi\n2,3,bus\n"


def write(
    folder: Path, stations: str = STATIONS, edges: str = EDGES, starts: str | None = None
) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "stations.csv").write_text(stations)
    (folder / "edges.csv").write_text(edges)
    if starts is not None:
        (folder / "starts.csv").write_text(starts)
    return folder


def test_small_board_loads(tmp_path: Path) -> None:
    board = load_board(write(tmp_path, starts="station\n3\n1\n"))
    assert board.n == 3
    assert board.coordinates == ((0, 0), (10, 0), None)
    assert board.edges == ((1, 2, Transport.TAXI), (2, 3, Transport.BUS))
    assert board.start_cards == (3, 1)
    assert board.neighbours[Transport.TAXI][2] == 1 << 1
    assert board.any_neighbours[2] == (1 << 1) | (1 << 3)
    assert board.distances[1, 3] == 2
    assert not board.distances.flags.writeable


@pytest.mark.parametrize(
    ("edges", "starts", "message"),
    [
        ("u,v,transport\n1,2,taxi\n2,3,boat\n", None, r"edges\.csv:3: unknown transport 'boat'"),
        (
            "u,v,transport\n1,2,taxi\n2,2,bus\n2,3,bus\n",
            None,
            r"edges\.csv:3: self-loop: bus edge from station 2",
        ),
        (
            "u,v,transport\n1,2,taxi\n2,3,bus\n3,9,taxi\n",
            None,
            r"edges\.csv:4: .*unknown station 9",
        ),
        (
            "u,v,transport\n1,2,taxi\n2,3,bus\n3,2,bus\n",
            None,
            r"edges\.csv:4: duplicate edge: bus 2-3",
        ),
        ("u,v,transport\n1,2,taxi\n2,x3,bus\n", None, r"edges\.csv:3: bad number 'x3' in column v"),
        ("u,v,transport\n1,2,taxi\n", None, r"station 3 is disconnected"),
        ("u,v,transport\n1,2,taxi\n2,3,ferry\n", None, r"station 3 is disconnected"),
        ("u,v\n1,2\n", None, r"edges\.csv:1: missing column\(s\) transport"),
        (EDGES, "station\n1\n4\n", r"starts\.csv:3: start card 4: unknown station"),
        (EDGES, "station\n1\n1\n", r"starts\.csv:3: start card 1: appears twice"),
    ],
)
def test_bad_edges_and_starts(tmp_path: Path, edges: str, starts: str | None, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        load_board(write(tmp_path, edges=edges, starts=starts))


@pytest.mark.parametrize(
    ("stations", "message"),
    [
        ("id,x,y\n1,0,0\n2,1.5,0\n3,,\n", r"stations\.csv:3: bad number '1\.5' in column x"),
        ("id,x,y\n1,0,0\n3,0,0\n2,,\n", r"stations\.csv:3: station 3 out of order"),
        ("id,x,y\n", r"stations\.csv: no stations"),
        ("id,x\n1,0\n", r"stations\.csv:1: missing column\(s\) y"),
    ],
)
def test_bad_stations(tmp_path: Path, stations: str, message: str) -> None:
    with pytest.raises(BoardError, match=message):
        load_board(write(tmp_path, stations=stations))


def test_a_file_without_the_header_is_named_but_not_quoted(tmp_path: Path) -> None:
    """The first line of a file that is no board file (any file a map option names) is not
    shown: the message names the file and the columns it lacks."""
    folder = write(tmp_path, stations="root:x:0:0:secret-hash\n1,2,3\n")
    with pytest.raises(BoardError) as refused:
        load_board(folder)
    assert str(refused.value) == (
        f"{folder / 'stations.csv'}:1: missing column(s) id, x, y: the first line must name "
        "the columns id,x,y"
    )


def test_missing_files(tmp_path: Path) -> None:
    with pytest.raises(BoardError, match="no such board folder"):
        load_board(tmp_path / "nowhere")
    (tmp_path / "stations.csv").write_text(STATIONS)
    with pytest.raises(BoardError, match=r"no such file: .*edges\.csv"):
        load_board(tmp_path)


def test_from_rows_errors_are_sleuth_errors() -> None:
    assert issubclass(BoardError, SleuthError)
    with pytest.raises(BoardError, match="self-loop: taxi edge from station 1"):
        from_rows(2, [(1, 1, Transport.TAXI)])
    with pytest.raises(BoardError, match="start card 5: unknown station"):
        from_rows(2, [(1, 2, Transport.TAXI)], start_cards=[5])


# --- the classic map ----------------------------------------------------------------------


def test_classic_counts(classic: Board) -> None:
    assert classic.n == 199
    counts = Counter(t for _, _, t in classic.edges)
    assert counts == {
        Transport.TAXI: 345,
        Transport.BUS: 99,
        Transport.UNDERGROUND: 20,
        Transport.FERRY: 3,
    }
    assert len({(u, v) for u, v, _ in classic.edges}) == 436
    assert members(classic.stations_with(Transport.FERRY)) == [108, 115, 157, 194]
    assert members(classic.stations_with(Transport.UNDERGROUND)) == [
        1,
        13,
        46,
        67,
        74,
        79,
        89,
        93,
        111,
        128,
        140,
        153,
        163,
        185,
    ]
    assert bin(classic.stations_with(Transport.BUS)).count("1") == 62
    assert classic.stations_with(Transport.TAXI) == classic.all_stations
    assert int(classic.distances.max()) == 10
    assert classic.start_cards == ()


# --- distances against NetworkX -----------------------------------------------------------


def test_distances_match_networkx(any_board: Board) -> None:
    graph = nx.Graph()
    graph.add_nodes_from(range(1, any_board.n + 1))
    graph.add_edges_from((u, v) for u, v, t in any_board.edges if t in DETECTIVE_TRANSPORTS)
    dist = any_board.distances
    assert (dist == dist.T).all()
    for source, row in nx.all_pairs_shortest_path_length(graph):
        for target in range(1, any_board.n + 1):
            assert dist[source, target] == row[target], (source, target)


def test_neighbours_match_edges(any_board: Board) -> None:
    for t in Transport:
        expected: dict[int, set[int]] = {s: set() for s in range(1, any_board.n + 1)}
        for u, v, tt in any_board.edges:
            if tt == t:
                expected[u].add(v)
                expected[v].add(u)
        for s in range(1, any_board.n + 1):
            assert set(members(any_board.neighbours[t][s])) == expected[s]
    for s in range(1, any_board.n + 1):
        assert any_board.any_neighbours[s] == any_board.reach(1 << s, Transport)


# --- the built-in board -------------------------------------------------------------------


def connected(board: Board, transports: tuple[Transport, ...]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(range(1, board.n + 1))
    graph.add_edges_from((u, v) for u, v, t in board.edges if t in transports)
    return nx.is_connected(graph)


def test_builtin_is_connected_as_the_rules_need() -> None:
    board = builtin_board()
    assert connected(board, (Transport.TAXI,))
    assert connected(board, DETECTIVE_TRANSPORTS)
    assert connected(board, tuple(Transport))
    for t in (Transport.BUS, Transport.UNDERGROUND, Transport.FERRY):
        sub = nx.Graph([(u, v) for u, v, tt in board.edges if tt == t])
        assert nx.is_connected(sub), t
    assert all(bin(board.any_neighbours[s]).count("1") >= 2 for s in range(1, board.n + 1))


def test_builtin_start_cards_two_apart() -> None:
    board = builtin_board()
    cards = board.start_cards
    assert len(cards) == len(set(cards)) == START_CARDS
    assert min(int(board.distances[a, b]) for a in cards for b in cards if a != b) >= 2


def test_builtin_figures_comparable_to_classic() -> None:
    board = builtin_board()
    assert 180 <= board.n <= 220
    counts = Counter(t for _, _, t in board.edges)
    assert counts == {
        Transport.TAXI: 345,
        Transport.BUS: 99,
        Transport.UNDERGROUND: 20,
        Transport.FERRY: 3,
    }
    assert bin(board.stations_with(Transport.BUS)).count("1") == 62
    assert bin(board.stations_with(Transport.UNDERGROUND)).count("1") == 14
    assert 8 <= int(board.distances.max()) <= 12
    assert all(xy is not None for xy in board.coordinates)


def test_generator_reproduces_committed_board(tmp_path: Path) -> None:
    board = generate()
    assert board == builtin_board()
    write_board(board, tmp_path)
    for name in ("stations.csv", "edges.csv", "starts.csv"):
        assert (tmp_path / name).read_bytes() == (BUILTIN_DIR / name).read_bytes(), name
    assert generate(seed=1) != board


def figures(board: Board) -> tuple[float, int, int, int]:
    """Mean and largest number of distinct neighbours, taxi-only and all-ticket diameters."""
    degree = [bin(board.any_neighbours[s]).count("1") for s in range(1, board.n + 1)]
    taxi = nx.Graph([(u, v) for u, v, t in board.edges if t == Transport.TAXI])
    return sum(degree) / board.n, max(degree), nx.diameter(taxi), int(board.distances.max())


def test_builtin_degrees_and_diameters_near_classic(classic: Board) -> None:
    mean, top, taxi_diameter, diameter = figures(builtin_board())
    c_mean, c_top, c_taxi_diameter, c_diameter = figures(classic)
    assert abs(mean - c_mean) <= 0.1 * c_mean
    assert abs(top - c_top) <= 3
    assert abs(taxi_diameter - c_taxi_diameter) <= 6
    assert abs(diameter - c_diameter) <= 2
