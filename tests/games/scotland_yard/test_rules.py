"""The rules engine: conformance cases T5-T11 and T17 on the classic map, every ending, the
options, visibility, and bad input (rules S1-S30, O1-O8, C1-C8 of docs/scotland-yard.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.errors import ActionParseError, IllegalActionError, OptionError
from sleuth.core.events import Event
from sleuth.core.game import CHANCE, TERMINAL
from sleuth.core.registry import make_game
from sleuth.games.scotland_yard.board import BoardError
from sleuth.games.scotland_yard.edition import (
    CLASSIC_CARDS,
    DETECTIVE_CARDS_2014,
    MRX_CARDS_2014,
    UNLIMITED,
)
from sleuth.games.scotland_yard.moves import (
    PASS,
    DoubleMove,
    Move,
    Start,
    Ticket,
    parse_action,
)
from sleuth.games.scotland_yard.rules import ScotlandYardGame, ScotlandYardState

from .helpers import CLASSIC_DIR, classic_board


def classic_game(**options: Any) -> ScotlandYardGame:
    classic_board()  # skips when the map is absent
    game = make_game("scotland-yard", {"map": str(CLASSIC_DIR), **options})
    assert isinstance(game, ScotlandYardGame)
    return game


def dealt(game: ScotlandYardGame, seed: int = 0) -> ScotlandYardState:
    state = game.new_initial_state()
    state.apply(state.sample_chance(random.Random(seed)))
    return state


def fixed(mrx: int, detectives: str, **options: Any) -> ScotlandYardState:
    """A classic-map game with fixed start stations, dealt."""
    n = len(detectives.split(","))
    game = classic_game(detectives=n, mrx_start=mrx, detective_starts=detectives, **options)
    return dealt(game)


def count(state: ScotlandYardState) -> tuple[int, int]:
    moves = state.legal_actions()
    doubles = sum(isinstance(m, DoubleMove) for m in moves)
    return len(moves) - doubles, doubles


# --- conformance cases T5-T11 -------------------------------------------------------------


def test_t5_start_cards_two_apart() -> None:
    dist = classic_board().distances
    pairs = [(a, b) for a in CLASSIC_CARDS for b in CLASSIC_CARDS if a < b]
    assert min(dist[a, b] for a, b in pairs) == 2
    assert {(a, b) for a, b in pairs if dist[a, b] == 2} == {(13, 34), (26, 29)}
    assert min(dist[d, x] for d in DETECTIVE_CARDS_2014 for x in MRX_CARDS_2014) == 2
    assert dist[13, 45] == dist[117, 104] == 2


def test_t6_mrx_moves_at_104() -> None:
    state = fixed(104, "117", mrx_tickets="4/3/3/5/2")
    assert state.current_player() == 0
    assert count(state) == (4, 54)
    singles = [str(m) for m in state.legal_actions() if isinstance(m, Move)]
    assert singles == ["taxi 86", "black 86", "taxi 116", "black 116"]
    home = [m for m in state.legal_actions() if isinstance(m, DoubleMove)]
    assert sum(m.second.station == 104 for m in home) == 8


@pytest.mark.parametrize(
    ("tickets", "log_length", "expected"),
    [
        ("4/3/3/5/2", 1, (4, 0)),  # T7: one free entry left, as with 23 of 24 filled (C3)
        ("4/3/3/0/2", 24, (2, 14)),  # T7: no black tickets
        ("0/0/0/2/1", 24, (2, 13)),  # T7: black 2 + double 1
        ("0/0/0/1/1", 24, (2, 0)),  # T7: black 1 + double 1
        ("1/3/3/0/1", 24, (2, 8)),  # T8: the second leg cannot be a taxi
    ],
)
def test_t7_t8_ticket_limits(tickets: str, log_length: int, expected: tuple[int, int]) -> None:
    state = fixed(104, "117", mrx_tickets=tickets, log_length=log_length, reveals="1")
    assert count(state) == expected


def test_t7_after_23_entries() -> None:
    state = fixed(104, "117", mrx_tickets="4/3/3/5/2")
    state.entries = 23
    state._legal = None
    assert count(state) == (4, 0)


def test_t9_cornered_at_his_first_turn() -> None:
    state = fixed(104, "86,116")
    assert state.is_terminal() and state.current_player() == TERMINAL
    result = state.result()
    assert result.termination == "cornered" and result.winners == ("detectives",)
    assert state.returns() == (0.0, 1.0)


def test_t10_ferry_only_with_black() -> None:
    state = fixed(194, "1", mrx_tickets="0/0/0/1/0")
    assert [str(m) for m in state.legal_actions()] == [
        "black 157",
        "black 192",
        "black 193",
        "black 195",
    ]
    assert count(fixed(194, "1", mrx_tickets="5/0/0/0/0")) == (3, 0)
    detective = fixed(1, "194", mrx_tickets="1/0/0/0/0")
    detective.apply(detective.legal_actions()[0])
    assert [str(m) for m in detective.legal_actions()] == ["taxi 192", "taxi 193", "taxi 195"]


@pytest.mark.parametrize(
    ("edition", "tickets", "moves", "destinations"),
    [("classic", "10/8/4", 13, 12), ("2014", "11/8/4", 13, 12), ("classic", "10/8/0", 10, None)],
)
def test_t11_detective_at_128(
    edition: str, tickets: str, moves: int, destinations: int | None
) -> None:
    state = fixed(1, "128", edition=edition, detective_tickets=tickets)
    state.apply(state.legal_actions()[0])  # Mr. X moves away from 1
    legal = state.legal_actions()
    assert len(legal) == moves
    if destinations is not None:
        assert len({m.station for m in legal if isinstance(m, Move)}) == destinations
        assert {str(m) for m in legal} >= {"taxi 142", "bus 142"}


def test_t11_stuck_detective_passes() -> None:
    state = fixed(1, "104,13", detective_tickets="0/8/4")
    state.apply(state.legal_actions()[0])
    assert state.to_move == 0 and state.legal_actions() == (PASS,)
    events = state.apply(PASS)
    assert [e.kind for e in events] == ["detective_passed"]
    assert state.detectives[0] == 104 and state.to_move == 1


# --- endings ------------------------------------------------------------------------------


def test_capture_ends_the_game_at_once() -> None:
    state = fixed(104, "117,13")
    state.apply(parse_action("taxi 116"))
    events = state.apply(parse_action("taxi 116"))
    assert [e.kind for e in events] == ["detective_moved", "game_over"]
    assert events[0].public["captured"] is True
    assert state.is_terminal() and state.result().termination == "caught"
    assert state.winners() == ("detectives",) and state.returns() == (0.0, 1.0)


def test_all_detectives_stuck_mrx_wins() -> None:
    state = fixed(1, "104", detective_tickets="0/8/4")
    events = state.apply(state.legal_actions()[0])
    assert events[-1].kind == "game_over" and events[-1].public["termination"] == "blocked"
    assert state.winners() == ("mrx",)


def test_log_full_after_final_phase_and_without_it() -> None:
    for final, kinds in ((True, ["mrx_moved"]), (False, ["mrx_moved", "game_over"])):
        state = fixed(1, "198", log_length=1, reveals="1", final_detective_phase=final)
        events = state.apply(state.legal_actions()[0])
        assert [e.kind for e in events] == kinds
        if final:
            assert not state.is_terminal()
            state.apply(state.legal_actions()[0])
        assert state.result().termination == "escaped" and state.winners() == ("mrx",)


def test_round_limit() -> None:
    state = fixed(1, "198", max_rounds=2)
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
    assert state.round <= 2
    if state.result().termination == "escaped":
        assert state.round == 2


def test_double_move_reveals_after_first_leg() -> None:
    state = fixed(104, "13", reveals="1,2")
    events = state.apply(parse_action("double taxi 116 taxi 104"))
    assert [(e.kind, e.public["entry"], e.public["leg"], e.public["reveal"]) for e in events] == [
        ("mrx_moved", 1, 1, 116),
        ("mrx_moved", 2, 2, 104),
    ]
    assert state.mrx_tickets[Ticket.DOUBLE.slot] == 1 and state.entries == 2


# --- tickets, editions, options -------------------------------------------------------------


def test_classic_tickets_go_to_mrx() -> None:
    state = fixed(104, "117,13")
    state.apply(parse_action("taxi 86"))
    assert state.mrx_tickets == [3, 3, 3, 2, 2]
    state.apply(parse_action("taxi 129"))
    assert state.mrx_tickets == [4, 3, 3, 2, 2]
    assert state.detective_tickets[0] == [9, 8, 4]


def test_2014_edition_tickets_and_cards() -> None:
    game = classic_game(edition="2014")
    p = game.profile
    assert p.detective_tickets == (11, 8, 4) and not p.tickets_to_mrx and p.mrx_unlimited
    assert p.mrx_tickets[3:] == (5, 2) and p.mrx_tickets[0] == UNLIMITED
    for seed in range(20):
        state = dealt(game, seed)
        assert state.mrx in MRX_CARDS_2014
        assert set(state.detectives) <= set(DETECTIVE_CARDS_2014)
        move = next(m for m in state.legal_actions() if isinstance(m, Move))
        before = list(state.mrx_tickets)
        state.apply(move)
        if move.ticket is not Ticket.BLACK:
            assert state.mrx_tickets == before


def test_classic_deal_uses_the_18_cards_mrx_first() -> None:
    game = classic_game()
    assert game.profile.mrx_tickets == (4, 3, 3, 5, 2)
    assert classic_game(detectives=3).profile.mrx_tickets[3] == 3
    for seed in range(30):
        state = dealt(game, seed)
        stations = [state.mrx, *state.detectives]
        assert len(set(stations)) == 6 and set(stations) <= set(CLASSIC_CARDS)


def test_options_round_trip() -> None:
    for options in ({}, {"edition": "2014", "detectives": 3, "seats": 4}, {"edition": "bristol"}):
        game = classic_game(**options)
        again = make_game("scotland-yard", game.options())
        assert again.options() == game.options()
    builtin = make_game("scotland-yard")
    assert builtin.options()["map"] == "builtin"
    assert make_game("scotland-yard", builtin.options()).options() == builtin.options()


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"detectives": 6}, "between 1 and 5"),
        ({"seats": 3}, "seats=3"),
        ({"bobbies": 1}, "only 0"),
        ({"mrx_tickets": "4/3/3"}, "expected 5 counts"),
        ({"detective_tickets": "a/8/4"}, "'a' is not a ticket count"),
        ({"reveals": "3,30"}, "reveal entry 30"),
        ({"detective_starts": "1,2"}, "names 2 stations for 5 detectives"),
        ({"mrx_start": 5, "detectives": 1, "detective_starts": "5"}, "same station"),
        ({"mrx_start": 900}, "not on this board"),
        ({"edition": "1999"}, "classic, 2014, bristol"),
    ],
)
def test_bad_options(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        make_game("scotland-yard", options)


def test_missing_map_folder(tmp_path: Any) -> None:
    with pytest.raises(BoardError, match="no such board folder"):
        make_game("scotland-yard", {"map": str(tmp_path / "nowhere")})


def test_map_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    classic_board()
    monkeypatch.setenv("SLEUTH_SCOTLAND_YARD_MAP", str(CLASSIC_DIR))
    game = make_game("scotland-yard")
    assert isinstance(game, ScotlandYardGame) and game.board.n == 199


# --- seats, turns, bad actions --------------------------------------------------------------


def test_seat_per_detective_turn_order() -> None:
    state = fixed(104, "13,26,29", seats=4)
    assert state.game.roles == ("mrx", "detective", "detective", "detective")
    assert state.game.sides() == ("mrx", "detectives", "detectives", "detectives")
    state.apply(state.legal_actions()[0])
    seats = []
    for _ in range(3):
        seats.append(state.current_player())
        state.apply(state.legal_actions()[0])
    assert seats == [1, 2, 3] and state.current_player() == 0


def test_team_seat_moves_every_detective() -> None:
    state = fixed(104, "13,26,29")
    assert state.game.roles == ("mrx", "detectives")
    state.apply(state.legal_actions()[0])
    for detective in range(3):
        assert state.current_player() == 1 and state.to_move == detective
        state.apply(state.legal_actions()[0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("taxi 116", "held by a detective"),
        ("bus 86", "no bus route from 104 to 86"),
        ("taxi 500", "not on the board"),
        ("pass", "may not pass"),
        ("double taxi 86 underground 116", "second leg: no underground route from 86 to 116"),
        ("double taxi 116 taxi 104", "first leg: station 116 is held"),
        ("start 1 2", "dealt already"),
    ],
)
def test_illegal_mrx_actions_change_nothing(text: str, message: str) -> None:
    state = fixed(104, "116")
    before = repr(state)
    with pytest.raises(IllegalActionError, match=message):
        state.apply(parse_action(text))
    assert repr(state) == before


def test_illegal_detective_actions() -> None:
    state = fixed(104, "108,116", detective_tickets="0/8/4")
    state.apply(parse_action("taxi 86"))
    for text, message in [
        ("black 117", "only Mr. X has black"),
        ("double taxi 1 taxi 2", "only Mr. X has double"),
        ("taxi 117", "no taxi ticket left"),
        ("bus 116", "held by a detective"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            state.apply(parse_action(text))


def test_no_tickets_of_mrx_left() -> None:
    state = fixed(104, "117", mrx_tickets="0/3/3/1/0")
    with pytest.raises(IllegalActionError, match="no taxi ticket left"):
        state.apply(parse_action("taxi 86"))
    with pytest.raises(IllegalActionError, match="no double ticket left"):
        state.apply(parse_action("double taxi 86 taxi 104"))


@pytest.mark.parametrize("text", ["taxi", "fly 3", "taxi x", "double taxi 3", "start 1", "walk"])
def test_unparsable_actions(text: str) -> None:
    with pytest.raises(ActionParseError):
        parse_action(text)


def test_bad_deals() -> None:
    state = classic_game(detectives=2).new_initial_state()
    assert state.current_player() == CHANCE
    for start, message in [
        (Start(13, (26,)), "deals 1 detectives"),
        (Start(2, (26, 29)), "not one of Mr. X's start cards"),
        (Start(13, (26, 13)), "two pawns"),
        (Start(13, (26, 5)), "not one of the detectives' start cards"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            state.apply(start)
    with pytest.raises(IllegalActionError, match="not been dealt"):
        state.apply(parse_action("taxi 3"))


# --- T17 and more: properties of random games -------------------------------------------------


def play_random(game: ScotlandYardGame, seed: int) -> tuple[ScotlandYardState, list[Event]]:
    rng = random.Random(seed)
    state = game.new_initial_state()
    events = state.apply(state.sample_chance(rng))
    moves = [0] * game.profile.detectives
    while not state.is_terminal():
        legal = state.legal_actions()
        check_position(state, legal)
        action = rng.choice(legal)
        assert parse_action(str(action)) == action
        if state.to_move >= 0 and isinstance(action, Move):
            moves[state.to_move] += 1
        events += state.apply(action)
    limit = 23 if game.profile.edition == "2014" else 22
    assert max(moves) <= limit
    assert state.round <= game.profile.log_length
    return state, events


def check_position(state: ScotlandYardState, legal: Any) -> None:
    assert len(set(state.detectives)) == len(state.detectives)
    assert state.mrx not in state.detectives
    assert min(state.mrx_tickets) >= 0 and min(min(t) for t in state.detective_tickets) >= 0
    assert len(set(legal)) == len(legal)
    if state.to_move == -1 and state.mrx_tickets[Ticket.BLACK.slot] > 0:
        singles = [m for m in legal if isinstance(m, Move)]
        assert {m.station for m in singles if m.ticket is Ticket.BLACK} == {
            m.station for m in singles
        }
    if state.game.profile.edition == "classic":
        initial = sum(state.game.profile.detective_tickets) * state.game.profile.detectives
        initial += sum(state.game.profile.mrx_tickets)
        doubles = state.game.profile.mrx_tickets[4] - state.mrx_tickets[4]
        held = sum(map(sum, state.detective_tickets)) + sum(state.mrx_tickets)
        assert held + state.entries + doubles == initial


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    edition=st.sampled_from(["classic", "2014", "bristol"]),
    detectives=st.integers(1, 5),
)
def test_random_games_keep_every_invariant(seed: int, edition: str, detectives: int) -> None:
    game = classic_game(edition=edition, detectives=detectives)
    state, events = play_random(game, seed)
    over = events[-1]
    assert over.kind == "game_over" and [e.kind for e in events].count("game_over") == 1
    assert over.public["winner"] == state.winners()[0]
    assert [tuple(x) for x in over.public["log"]] == [(str(t), s) for t, s in state.log]
    check_views(game, events)


def check_views(game: ScotlandYardGame, events: list[Event]) -> None:
    """The detectives' view shows Mr. X's station only at reveals and at the end (S18, S23)."""
    for event in events:
        seen = event.seen_by(1)
        assert seen.private is None
        if event.kind == "mrx_moved":
            reveal = seen.public["reveal"]
            assert (reveal is not None) == (seen.public["entry"] in game.profile.reveals)
            assert reveal is None or reveal == event.private["station"]  # type: ignore[index]
        assert event.seen_by(0) == event


def test_builtin_board_games() -> None:
    game = make_game("scotland-yard", {"seats": 6})
    assert isinstance(game, ScotlandYardGame)
    for seed in range(5):
        state, events = play_random(game, seed)
        assert state.mrx in set(range(1, game.board.n + 1))
        assert set(events[0].public["detectives"]) <= set(game.board.start_cards)


def public_shape(action: object) -> object:
    """What the detectives learn of a Mr. X move: its tickets and whether it is a double."""
    if isinstance(action, DoubleMove):
        return ("double", action.first.ticket, action.second.ticket)
    assert isinstance(action, Move)
    return (action.ticket,)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_detectives_cannot_tell_hidden_twins_apart(seed: int) -> None:
    """Differential check: a second game in which Mr. X takes other stations with the same
    tickets, where every detective makes the same moves, looks the same to the detectives until
    a reveal, a capture or a move that is legal in one game only (no public field leaks him)."""
    game = classic_game(reveals="")
    rng = random.Random(seed)
    first, second = game.new_initial_state(), game.new_initial_state()
    deal = first.sample_chance(rng)
    assert isinstance(deal, Start)
    other = [c for c in CLASSIC_CARDS if c not in (deal.mrx, *deal.detectives)]
    seen: tuple[list[Event], list[Event]] = ([], [])
    seen[0].extend(e.seen_by(1) for e in first.apply(deal))
    seen[1].extend(e.seen_by(1) for e in second.apply(Start(rng.choice(other), deal.detectives)))
    while not first.is_terminal() and not second.is_terminal():
        action = rng.choice(first.legal_actions())
        if first.to_move == -1:
            twins = [a for a in second.legal_actions() if public_shape(a) == public_shape(action)]
            if not twins:
                break
            twin = rng.choice(twins)
        elif second.is_legal(action) and first.mrx != getattr(action, "station", 0):
            twin = action
        else:
            break
        events = (first.apply(action), second.apply(twin))
        if any(e.kind == "game_over" for e in events[0] + events[1]):
            break
        for mine, events_of in zip(seen, events, strict=True):
            mine.extend(e.seen_by(1) for e in events_of)
        assert seen[0] == seen[1]
