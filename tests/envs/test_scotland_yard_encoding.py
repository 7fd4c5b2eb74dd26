"""Scotland Yard's encoding (sleuth.games.scotland_yard.encoding): the check kit on editions,
boards and seatings, a hand-traced game read by index, the belief segments against the
detectives' belief, the action ids against the engine's moves, and the incremental reading
against a fresh one."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sleuth.core.belief import read_events
from sleuth.core.errors import IllegalActionError
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.envs.episode import Episode
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.encoding import ScotlandYardEncoding
from sleuth.games.scotland_yard.moves import PASS, DoubleMove, Move, Ticket, parse_action
from sleuth.testing.case import Case
from sleuth.testing.encoding import check_encoding
from tests.games.scotland_yard.helpers import CLASSIC_DIR

SMALL_STATIONS = "id,x,y\n" + "".join(f"{s},{s * 10},0\n" for s in range(1, 9))
SMALL_EDGES = "u,v,transport\n" + "".join(
    [f"{s},{s % 8 + 1},taxi\n" for s in range(1, 9)]
    + [f"{u},{v},bus\n" for u, v in ((1, 3), (3, 5), (5, 7), (1, 7))]
    + ["1,5,underground\n", "2,6,ferry\n"]
)
"""A board of 8 stations: a taxi ring, a bus square, one underground line, one ferry."""


@pytest.fixture(scope="module")
def small_board(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("small-board")
    (folder / "stations.csv").write_text(SMALL_STATIONS)
    (folder / "edges.csv").write_text(SMALL_EDGES)
    return folder


def case_of(options: dict[str, Any], small_board: Path) -> Case:
    """The case of ``options``, where ``map`` may be ``small`` (the board above) or
    ``classic`` (the classic map, outside the repository: skipped when absent)."""
    options = dict(options)
    if options.get("map") == "small":
        options["map"] = str(small_board)
    elif options.get("map") == "classic":
        if not (CLASSIC_DIR / "edges.csv").exists():
            pytest.skip(f"classic Scotland Yard map not found at {CLASSIC_DIR}")
        options["map"] = str(CLASSIC_DIR)
    return Case.of("scotland-yard", options)


CASES = [
    {},  # Sleuth's own board, classic edition, one seat for the five detectives
    {"edition": "2014", "seats": "6"},  # unlimited tickets; a seat per detective
    {"edition": "bristol", "detectives": "3", "seats": "4", "reveals": "1,2,5", "log_length": "9"},
    {"map": "classic", "detectives": "2", "final_detective_phase": "no"},
    {"map": "small", "detectives": "2", "log_length": "6", "reveals": "3"},
    {
        "map": "small",
        "detectives": "3",
        "seats": "4",
        "max_rounds": "4",
        "mrx_tickets": "2/1/1/1/1",
    },
]


@pytest.mark.parametrize("options", CASES, ids=str)
@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("belief", [False, True])
def test_encoding(options: dict[str, Any], seed: int, belief: bool, small_board: Path) -> None:
    check_encoding(case_of(options, small_board), seed, belief)


# --- a hand-traced game ------------------------------------------------------------------------

TRACED = {
    "detectives": "2",
    "mrx_start": "1",
    "detective_starts": "22,41",
    "reveals": "2",
    "log_length": "4",
}
"""On Sleuth's own board: Mr. X at 1 (taxi 2, 21; bus 4, 21; underground 7, 66), the detectives
at 22 (taxi 2, 23, 42) and 41 (taxi 21, 42, 61); 21 has taxi 1, 41 and bus 1, 4, 42; 23 has
taxi 3, 22, 42.  Classic tickets: Mr. X 4/3/3/2/2 (black = detectives), detectives 10/8/4, spent
detective tickets go to Mr. X."""


def traced() -> tuple[ScotlandYardEncoding, Episode, dict[str, int]]:
    game = Case.of("scotland-yard", TRACED).make()
    encoding = ScotlandYardEncoding(game)
    at = {row["name"]: row["start"] for row in encoding.describe()["segments"]}
    return encoding, Episode(encoding, seed=0, belief=True), at


def ones(obs: np.ndarray[Any, Any], start: int, size: int) -> list[int]:
    """The offsets of the ones in ``obs[start : start + size]``."""
    return [int(i) for i in np.flatnonzero(obs[start : start + size])]


def test_a_hand_traced_game_read_by_index() -> None:
    encoding, episode, at = traced()
    n = 200
    episode.play(parse_action("bus 21"))  # entry 1
    episode.play(parse_action("taxi 23"))  # d1: Mr. X receives the taxi ticket
    episode.play(parse_action("taxi 61"))  # d2
    mrx = episode.observe(0)
    assert ones(mrx, at["to move"], 3) == [0]
    assert mrx[at["clock"] : at["clock"] + 4].tolist() == [2 / 4, 1 / 4, 1 / 4, 1 / 4]
    # Mr. X starts the double move: its prefix shows in his observation.
    episode.step(encoding.double_id)
    assert ones(episode.observe(0), at["prefix"], 1 + n + 4) == [0]
    episode.step(encoding.move_id(Move(41, Ticket.TAXI)))
    assert ones(episode.observe(0), at["prefix"], 1 + n + 4) == [0, 1 + 40, 1 + n + 0]
    assert encoding.builder(episode.state).prefix == []  # a fresh builder starts over
    assert episode.builder.legal_ids() == sorted(
        encoding.move_id(Move(s, Ticket(t)))
        for t, s in [("taxi", 21), ("taxi", 42), ("black", 21), ("black", 42)]
    )  # from 41: taxi 21, 42 and 61 (d2 stands there), and black along the same edges
    episode.step(encoding.move_id(Move(42, Ticket.TAXI)))  # entries 2 (reveal: 41) and 3
    assert episode.actions[-1] == (0, DoubleMove(Move(41, Ticket.TAXI), Move(42, Ticket.TAXI)))

    for seat in (0, 1):
        obs = episode.observe(seat)
        assert ones(obs, at["seat"], 2) == [seat]
        assert ones(obs, at["to move"], 3) == [1]  # detective 1
        assert obs[at["clock"] : at["clock"] + 4].tolist() == [2 / 4, 3 / 4, 0.0, 1 / 4]
        assert ones(obs, at["detectives"], n) == [23 - 1]
        assert ones(obs, at["detectives"] + n, n) == [61 - 1]
        tickets = obs[at["detective tickets"] : at["detective tickets"] + 6]
        assert tickets == pytest.approx([0.9, 1.0, 1.0, 0.9, 1.0, 1.0])  # one taxi each, of 10
        # taxi 4 + 2 received - 2 spent, of 4 + 2 x 10; bus 3 - 1 of 3 + 2 x 8; underground
        # 3 of 3 + 2 x 4; black 2 of 2; double 1 of 2.
        expected = [4 / 24, 2 / 19, 3 / 11, 1.0, 0.5]
        assert obs[at["mrx tickets"] : at["mrx tickets"] + 5] == pytest.approx(expected)
        log = obs[at["log"] : at["log"] + 20].reshape(4, 5).tolist()
        assert log == [[0, 1, 0, 0, 0], [1, 0, 0, 0, 1], [1, 0, 0, 0, 1], [0, 0, 0, 0, 0]]
        assert ones(obs, at["last reveal"], n) == [41 - 1]
        assert ones(obs, at["mrx station"], n) == ([42 - 1] if seat == 0 else [])
        assert ones(obs, at["prefix"], 1 + n + 4) == []
        # The tracker: one taxi move from 41 (taxi 21, 42, 61), less the detectives' 61.
        assert ones(obs, at["possible"], n) == [21 - 1, 42 - 1]
        assert obs[at["random walk"] + 20] == obs[at["random walk"] + 41] == 0.5

    episode.play(parse_action("taxi 42"))  # d1 catches Mr. X
    assert episode.over
    for seat in (0, 1):
        obs = episode.observe(seat)
        assert ones(obs, at["to move"], 3) == []
        assert ones(obs, at["detectives"], n) == [42 - 1]
        assert ones(obs, at["possible"], n) == [42 - 1]
        assert obs[at["random walk"] + 41] == 1.0


def test_a_refused_id_names_itself_and_changes_nothing() -> None:
    encoding, episode, _ = traced()
    builder = episode.builder
    with pytest.raises(IllegalActionError, match=r"action id 0 is not legal here"):
        builder.push(0)  # taxi 1: Mr. X stands there
    builder.push(encoding.double_id)
    taxi_2 = encoding.move_id(Move(2, Ticket.TAXI))
    with pytest.raises(IllegalActionError, match=r"\(after double\)"):
        builder.push(encoding.pass_id)
    assert builder.prefix == [encoding.double_id]
    builder.push(taxi_2)
    with pytest.raises(IllegalActionError, match=r"after double taxi 2"):
        builder.push(taxi_2)  # no taxi goes from 2 to 2
    assert builder.prefix == [encoding.double_id, taxi_2]


# --- ids and actions ---------------------------------------------------------------------------


def test_id_texts_are_the_moves_they_stand_for() -> None:
    encoding = ScotlandYardEncoding(Case.of("scotland-yard", {}).make())
    assert encoding.action_count == 4 * 200 + 2
    for action_id in range(encoding.double_id):
        move = parse_action(encoding.id_text(action_id))
        assert isinstance(move, Move)
        assert encoding.ids_of(move) == (action_id,)
    assert encoding.id_text(encoding.double_id) == "double"
    assert parse_action(encoding.id_text(encoding.pass_id)) == PASS
    assert encoding.ids_of(PASS) == (encoding.pass_id,)
    double = parse_action("double bus 46 black 79")
    assert encoding.ids_of(double) == (800, 200 + 45, 600 + 78)
    for bad in (-1, encoding.action_count):
        with pytest.raises(ValueError, match=rf"{bad} is not a Scotland Yard action id \(0-801\)"):
            encoding.id_text(bad)
    with pytest.raises(ValueError, match="chance"):
        encoding.ids_of(parse_action("start 9 10,15"))
    for leg in (Move(201, Ticket.TAXI), Move(0, Ticket.BUS), Move(5, Ticket.DOUBLE)):
        with pytest.raises(ValueError, match=f"{leg}: not a leg on this board"):
            encoding.ids_of(leg)


@pytest.mark.parametrize(
    "options", [{}, {"map": "small", "detectives": "3", "seats": "4"}], ids=str
)
def test_every_action_of_random_games_is_built_by_its_ids(
    options: dict[str, Any], small_board: Path
) -> None:
    """Uniformly random actions (doubles are most of Mr. X's): each one's ids, pushed into the
    builder of its state, are each allowed in turn and give back the action."""
    case = case_of(options, small_board)
    game = case.make()
    encoding = case.spec.encoding_for(game)
    doubles = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            builder = encoding.builder(state)
            ids = encoding.ids_of(action)
            for step, action_id in enumerate(ids):
                assert action_id in builder.legal_ids()
                built = builder.push(action_id)
                assert (built is None) == (step < len(ids) - 1)
            assert built == action
            doubles += isinstance(action, DoubleMove)
            state.apply(action)
    assert doubles


def test_the_builder_gives_the_ids_of_legal_actions_only(small_board: Path) -> None:
    """The builder's ids_of is the encoding's for a legal action (a double move too) and
    refuses by name an action its state does not allow, changing nothing."""
    case = case_of({"map": "small", "detectives": "2"}, small_board)
    game = case.make()
    encoding = case.spec.encoding_for(game)
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(0)))
    builder = encoding.builder(state)
    legal = state.legal_actions()
    assert any(isinstance(a, DoubleMove) for a in legal)
    for action in legal:
        assert builder.ids_of(action) == encoding.ids_of(action)
    stranger = next(Move(s, Ticket.TAXI) for s in range(1, 9) if Move(s, Ticket.TAXI) not in legal)
    with pytest.raises(IllegalActionError, match=f"{stranger}: not a legal action here"):
        builder.ids_of(stranger)
    assert builder.prefix == [] and builder.legal_ids() == encoding.builder(state).legal_ids()


# --- belief and incremental reading ---------------------------------------------------------


def fresh(view: View, upto: int | None = None) -> View:
    """A copy of ``view`` (its first ``upto`` events) whose events are new objects: it shares
    no reading with the original."""
    events = [Event(e.kind, dict(e.public), e.private, e.audience) for e in view.events[:upto]]
    return View(view.seat, view.role, view.game_info, events)


@pytest.mark.parametrize("options", [{}, {"edition": "2014", "seats": "6"}], ids=str)
def test_observations_are_the_readings_of_fresh_views(options: dict[str, Any]) -> None:
    """At random steps of a random game (all seats observed at every step), each seat's
    observation (its view read incrementally, shared with the other seats) is that of a fresh
    copy of its view read from the start, and its belief segments are the detectives' belief
    read directly; a snapshot of an earlier point still reads as it did then."""
    case = Case.of("scotland-yard", options)
    game = case.make()
    encoding = case.spec.encoding_for(game)
    episode = Episode(encoding, seed=3, belief=True)
    rng = random.Random(3)
    n = game.board.n
    size = encoding.size()
    earlier: list[tuple[int, int, bytes]] = []
    while True:
        checked = rng.random() < 0.3  # reading from the start at every step is quadratic
        for seat, view in enumerate(episode.views):
            obs = encoding.observe(view, (), belief=True)
            if not checked:
                continue
            assert obs.tobytes() == encoding.observe(fresh(view), (), belief=True).tobytes()
            direct = MrXBelief(game, "random-walk")
            read_events(direct, view.events)
            assert direct.tracker is not None
            probabilities = direct.tracker.probabilities()
            assert ones(obs, size, n) == [s - 1 for s in probabilities]
            assert [s + 1 for s in ones(obs, size, n)] == MrXBelief.from_view(game, view).possible()
            for s, p in probabilities.items():
                assert obs[size + n + s - 1] == pytest.approx(p, rel=1e-6)
            if rng.random() < 0.1:
                earlier.append((seat, len(view.events), obs.tobytes()))
        if episode.over:
            break
        ids = episode.builder.legal_ids()
        episode.step(ids[rng.randrange(len(ids))])
    assert earlier
    for seat, count, obs_then in earlier:
        view = episode.views[seat]
        snapshot = View(seat, view.role, view.game_info, tuple(view.events[:count]))
        assert encoding.observe(snapshot, (), belief=True).tobytes() == obs_then


@pytest.mark.parametrize(
    "options",
    [
        {},  # its games end caught and escaped
        {"edition": "2014", "seats": "6"},  # blocked
        {
            "map": "small",
            "detectives": "3",
            "seats": "4",
            "max_rounds": "4",
            "mrx_tickets": "2/1/1/1/1",
        },
    ],  # the last: cornered
    ids=str,
)
def test_public_segments_are_the_engines_state(options: dict[str, Any], small_board: Path) -> None:
    """Every seat's public segments, read from its view, are the true state's: whose turn, the
    round, the entries, every pawn's station but Mr. X's and every ticket count (the engine is
    the oracle of the rules the reading follows).  Mr. X's station is in his own observation
    only."""
    case = case_of(options, small_board)
    game = case.make()
    encoding = case.spec.encoding_for(game)
    at = {row["name"]: row["start"] for row in encoding.describe()["segments"]}
    p, n = game.profile, game.board.n
    d, length = p.detectives, p.log_length
    for seed in range(3):
        episode = Episode(encoding, seed=seed)
        rng = random.Random(seed)
        while True:
            state = episode.state
            for seat in range(game.num_players):
                obs = episode.observe(seat)
                mover = (
                    [] if state.is_terminal() else [0 if state.to_move < 0 else 1 + state.to_move]
                )
                assert ones(obs, at["to move"], 1 + d) == mover
                clock = obs[at["clock"] : at["clock"] + 2]
                assert clock == pytest.approx([state.round / length, state.entries / length])
                stations = [ones(obs, at["detectives"] + i * n, n) for i in range(d)]
                assert stations == [[s - 1] for s in state.detectives]
                tickets = obs[at["detective tickets"] : at["mrx tickets"]].reshape(d, 3)
                scale = np.array(p.detective_tickets, np.float32)
                assert tickets * scale == pytest.approx(np.array(state.detective_tickets))
                mrx = obs[at["mrx tickets"] : at["mrx tickets"] + 5]
                held = [c for c, u in zip(state.mrx_tickets, mrx, strict=True) if u != 1.0]
                assert held == [
                    round(u * m) for u, m in zip(mrx, most(game), strict=True) if u != 1.0
                ]
                assert ones(obs, at["mrx station"], n) == ([state.mrx - 1] if seat == 0 else [])
            if episode.over:
                break
            ids = episode.builder.legal_ids()
            episode.step(ids[rng.randrange(len(ids))])


def most(game: Any) -> list[int]:
    """The most tickets of each kind Mr. X can hold (the ``mrx tickets`` scale)."""
    p = game.profile
    gifts = [p.detectives * c if p.tickets_to_mrx else 0 for c in p.detective_tickets]
    return [p.mrx_tickets[k] + gifts[k] for k in range(3)] + list(p.mrx_tickets[3:])
