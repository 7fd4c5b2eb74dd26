"""Camel Up rules: golden cases for the numbered rules and every common mistake listed in
``docs/camel-up.md``, bad input, visibility, and random playthroughs."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.errors import ActionParseError, IllegalActionError, OptionError
from sleuth.core.events import Event
from sleuth.core.game import CHANCE, TERMINAL
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.games.camel_up.actions import OverallBet, PlaceTile, parse_action
from sleuth.games.camel_up.rules import CamelState, CamelUpGame, describe_stacks
from sleuth.games.camel_up.simulate import play_random_game
from sleuth.games.camel_up.track import arrangement, racing_order

GAME = CamelUpGame()
START = "start 1:blue 2:green,orange 3:yellow,white"


def play(game: CamelUpGame, *moves: str) -> tuple[CamelState, list[Event]]:
    state = game.new_initial_state()
    events: list[Event] = []
    for text in moves:
        events += state.apply(game.parse_action(text))
    return state, events


def test_action_texts_round_trip() -> None:
    state, _ = play(GAME, START)
    for action in state.legal_actions():
        assert GAME.parse_action(str(action)) == action
    assert parse_action("tile 5 cheering") == PlaceTile(5, "oasis")
    for text in ("fly", "tile x oasis", "tile 5 sideways", "die blue", "start 1-blue"):
        with pytest.raises(ActionParseError):
            parse_action(text)


def test_stacks_past_the_finish_or_before_the_start_are_named_so() -> None:
    order = arrangement({-1: [5], 3: [0], 16: [1, 2], 18: [3]})
    expected = "start-1:[white] 4:[blue] finish+1:[green,red] finish+3:[yellow]"
    assert describe_stacks(CamelUpGame(edition=2), order) == expected


def test_start_places_camels_and_a_hand_traced_roll() -> None:
    state, events = play(GAME, START, "roll", "die orange 2")
    expected = "1:[blue] 2:[green] 3:[yellow,white] 4:[orange]"
    assert describe_stacks(GAME, state.order or ()) == expected
    die = events[-1]
    assert die.kind == "die" and die.public["from"] == 2 and die.public["to"] == 4
    assert state.pyramid == [1, 0, 0, 0] and state.current_player() == 1
    assert state.dice_colours() == ["blue", "green", "yellow", "white"]


def test_mistake_1_everyone_starts_with_3() -> None:
    assert GAME.new_initial_state().money == [3, 3, 3, 3]


def _score_overall(cards: list[tuple[int, str]], pile: str) -> list[int]:
    """Money won by each of 8 seats when blue wins and white is last, with ``cards`` on
    ``pile``; seat 0 rolls the finishing die (+1 pyramid ticket)."""
    game = CamelUpGame(players=8, money_floor=False)
    state, _ = play(game, START)
    for seat, camel in cards:
        state.seat = seat
        state.apply(OverallBet(pile, camel))
    state.seat = 0
    state.order = arrangement({0: [4], 5: [1, 2, 3], 15: [0]})
    state.apply(game.parse_action("roll"))
    before = state.money[:]
    events = state.apply(game.parse_action("die blue 1"))
    assert state.is_terminal() and [e.kind for e in events][-2:] == ["overall_scored"] * 2
    return [after - b for after, b in zip(state.money, before, strict=True)]


def test_mistake_2_ladder_8_5_3_2_1_1_and_wrong_cards() -> None:
    cards = [(s, "blue") for s in range(6)] + [(6, "green")]
    gains = _score_overall(cards, "winner")
    assert gains[:7] == [8 + 1, 5, 3, 2, 1, 1, -1]


def test_mistake_6_loser_pile_judged_against_the_loser() -> None:
    gains = _score_overall([(1, "white"), (2, "blue"), (3, "white")], "loser")
    assert gains[1:4] == [8, -1, 5]


def test_mistake_5_lone_leg_tile_and_lone_overall_card_are_settled() -> None:
    state, _ = play(GAME, START, "leg green")
    for colour in ("blue", "green", "orange", "yellow", "white"):
        state.apply(GAME.parse_action("roll"))
        state.apply(GAME.parse_action(f"die {colour} 1"))
    assert describe_stacks(GAME, state.order or ()) == "4:[orange,blue,yellow] 5:[white,green]"
    assert state.money[0] == 3 + 5 + 1  # the lone 5-ticket on the leader, one pyramid ticket
    assert _score_overall([(0, "blue")], "winner")[0] == 8 + 1


def test_mistake_3_tiles_cleared_at_leg_end_and_placeable_again() -> None:
    state, _ = play(GAME, START, "tile 10 oasis", "tile 12 mirage")
    for colour in ("blue", "green", "orange", "yellow", "white"):
        state.apply(GAME.parse_action("roll"))
        state.apply(GAME.parse_action(f"die {colour} 1"))
    assert state.tiles == {} and state.tile_of == [-1] * 4 and state.leg == 2
    state.seat = 0
    state.apply(GAME.parse_action("tile 10 mirage"))
    assert state.tiles == {9: -1}


def test_mistake_4_leg_tickets_run_out() -> None:
    state, events = play(GAME, START, "leg blue", "leg blue", "leg blue")
    assert [e.public["value"] for e in events[1:]] == [5, 3, 2]
    with pytest.raises(IllegalActionError, match="no blue leg ticket"):
        state.apply(GAME.parse_action("leg blue"))
    second = CamelUpGame(edition=2)
    start2 = "start 1:blue 2:green,red 3:yellow,purple 14:white 16:black"
    state, events = play(second, start2, "leg red", "leg red", "leg red", "leg red")
    assert [e.public["value"] for e in events[1:]] == [5, 3, 2, 2]
    with pytest.raises(IllegalActionError):
        state.apply(second.parse_action("leg red"))


def test_mistake_7_the_first_die_drawn_is_uniform() -> None:
    counts: Counter[str] = Counter()
    for seed in range(10_000):
        state, _ = play(GAME, START, "roll")
        action = state.sample_chance(random.Random(seed))
        counts[str(action).split()[1]] += 1
    chi2 = sum((c - 2000) ** 2 / 2000 for c in counts.values())
    assert len(counts) == 5 and chi2 < 18.47  # χ² with 4 d.o.f., p = 0.001


def test_mistake_8_bots_that_never_roll_are_capped() -> None:
    game = CamelUpGame(turn_cap=40)
    state = game.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        tiles = [a for a in state.legal_actions() if isinstance(a, PlaceTile)]
        state.apply(rng.choice(tiles))
    assert state.capped and "(capped)" in state.outcome()


def test_mistake_10_tiles_past_the_finish_or_flipped_in_place_are_illegal() -> None:
    state, _ = play(GAME, START, "tile 10 oasis", "roll", "die blue 1", "tile 16 mirage")
    for text, reason in (
        ("tile 17 oasis", "spaces 2-16"),
        ("tile 1 oasis", "spaces 2-16"),
        ("tile 11 oasis", "next to another tile"),
        ("tile 2 oasis", "camel on it"),
        ("tile 16 oasis", "already has a tile"),
    ):
        with pytest.raises(IllegalActionError, match=reason):
            state.apply(GAME.parse_action(text))
    state.seat = 0
    with pytest.raises(IllegalActionError, match="move it elsewhere"):
        state.apply(GAME.parse_action("tile 10 mirage"))
    flipping = CamelUpGame(tile_flip_in_place=True)
    state, _ = play(flipping, START, "tile 10 oasis")
    state.seat = 0
    state.apply(flipping.parse_action("tile 10 mirage"))
    assert state.tiles == {9: -1}


def test_mistake_13_oasis_on_the_last_space_ends_the_game() -> None:
    state, _ = play(GAME, START)
    state.order = tuple(code + 12 * 8 if code & 7 == 0 else code for code in state.order or ())
    state.apply(GAME.parse_action("tile 16 oasis"))
    state.apply(GAME.parse_action("roll"))
    events = state.apply(GAME.parse_action("die blue 3"))  # 13 + 3 = space 16, oasis: finish
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert events[0].public["tile"] == 16 and events[0].public["owner"] == 0
    assert state.money[:2] == [3 + 1, 3 + 1]  # seat 0's tile, seat 1's pyramid ticket
    assert [e.kind for e in events] == ["die", "leg_scored", "game_over", "overall_scored",
                                        "overall_scored"]  # fmt: skip


def test_mistake_15_a_placed_tile_can_be_moved() -> None:
    state, events = play(GAME, START, "tile 10 oasis", "roll", "die blue 1", "roll",
                         "die green 1", "tile 6 mirage")  # fmt: skip
    state.seat = 0
    events = state.apply(GAME.parse_action("tile 12 mirage"))
    assert events[0].public["moved_from"] == 10 and state.tiles == {5: -1, 11: -1}


def test_mistake_16_crazy_camel_lands_on_top_and_leg_ends_at_five_dice() -> None:
    game = CamelUpGame(edition=2, players=3)
    state, _ = play(game, "start 1:blue 2:green,red 3:yellow,purple 14:white 16:black")
    state.apply(game.parse_action("roll"))
    state.apply(game.parse_action("die black 2"))  # black: 16 -> 14, on top of white
    assert describe_stacks(game, state.order or ()).endswith("14:[white,black]")
    for colour in ("blue", "green", "red", "yellow"):
        assert state.leg == 1
        state.apply(game.parse_action("roll"))
        state.apply(game.parse_action(f"die {colour} 1"))
    assert state.leg == 2 and len(state.dice_colours()) == 6
    # Rule 2 of E5: black sits directly on white, so a white face moves black.
    state.apply(game.parse_action("roll"))
    state.apply(game.parse_action("die white 1"))
    assert describe_stacks(game, state.order or ()).endswith("13:[black] 14:[white]")


def test_overall_bet_camel_is_seen_only_by_the_bettor() -> None:
    _, events = play(GAME, START, "loser green")
    (bet,) = events[1:]
    assert bet.public == {"seat": 0, "pile": "loser", "position": 1}
    assert bet.seen_by(0).private == {"camel": "green"}
    assert bet.seen_by(1).private is None


def test_bad_input_names_the_culprit_and_changes_nothing() -> None:
    state, _ = play(GAME, START, "winner blue")
    state.seat = 0
    before = repr((state.order, state.money, state.piles, state.seat, state.turns))
    for text, reason in (
        ("leg pink", "not a racing camel"),
        ("die blue 2", "not chance's"),
        ("winner teal", "not a racing camel"),
        ("start 1:blue", "not chance"),
    ):
        with pytest.raises(IllegalActionError, match=reason):
            state.apply(GAME.parse_action(text))
    with pytest.raises(IllegalActionError, match="already played its blue card"):
        state.apply(GAME.parse_action("loser blue"))
    assert repr((state.order, state.money, state.piles, state.seat, state.turns)) == before
    with pytest.raises(IllegalActionError, match="crazy camel"):
        play(CamelUpGame(edition=2), "start 1:blue 2:green,red 3:yellow,purple 14:white 16:black",
             "leg white")  # fmt: skip
    for options, reason in (({"edition": "3"}, "edition"), ({"players": "9"}, "2-8 players"),
                            ({"edition": "2", "players": "2"}, "3-8 players")):  # fmt: skip
        with pytest.raises(OptionError, match=reason):
            make_game("camel-up", options)


def test_bad_starts_are_refused() -> None:
    for text, reason in (
        ("start 1:blue,blue 2:green,orange 3:yellow", "blue is placed twice: the start must"),
        ("start 1:blue 2:green,orange 3:yellow", "white is missing: the start must place each"),
        ("start 1:blue 2:green 3:yellow", "orange and white are missing"),
        ("start 1:blue 2:green,orange 3:yellow,pink", "'pink' is not a camel of this edition"),
        ("start 1:blue 2:green,orange 5:yellow,white", "starts on space 1-3"),
        ("start 2:blue 1:green,orange 3:yellow,white", "increasing order"),
    ):
        with pytest.raises(IllegalActionError, match=reason):
            play(GAME, text)


def _invariants(state: CamelState) -> None:
    game = state.game
    order = state.order or ()
    assert sorted(code & 7 for code in order) == list(range(len(game.camel_ids)))
    indices = [code >> 3 for code in order]
    assert indices == sorted(indices)
    if game.money_floor:
        assert min(state.money) >= 0
    tiles = sorted(state.tiles)
    assert all(b - a > 1 for a, b in itertools.pairwise(tiles))
    assert not set(tiles) & set(indices)
    assert all(state.tile_of[s] == i for i, s in state.tile_owner.items())
    assert len(state.dice_colours()) >= (2 if game.edition == 2 else 1) or state.over


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([1, 2]), st.integers(3, 8))
def test_random_playthroughs_keep_every_invariant(seed: int, edition: int, players: int) -> None:
    game = CamelUpGame(edition=edition, players=players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            assert all(state.is_legal(a) for a in legal)
            action = rng.choice(legal)
        copy = state.clone()
        state.apply(action)
        _invariants(state)
        assert copy.turns <= state.turns
    assert state.turns <= game.turn_cap + 60
    ranking = racing_order(state.order or ())
    assert max(code >> 3 for code in state.order or ()) >= 16 or min(
        code >> 3 for code in state.order or ()) < 0 or state.capped  # fmt: skip
    assert len(ranking) == 5


@pytest.mark.parametrize(
    "options",
    [{}, {"edition": "2", "players": "5"}, {"players": "2", "tile_flip_in_place": "true"}],
)
def test_fast_random_games_are_the_games_the_match_runner_plays(options: dict[str, str]) -> None:
    game = make_game("camel-up", options)
    assert isinstance(game, CamelUpGame)
    spec = game_spec("camel-up")
    for seed in range(25):
        record = run_match(game, [spec.bot("random")] * game.players, seed, time_limit=None)
        state = play_random_game(game, seed).final
        assert tuple(float(m) for m in state.money) == record.returns
        assert state.turns == record.length and state.outcome() == record.outcome


def test_repr_shows_the_whole_position_at_the_start_mid_game_and_the_end() -> None:
    state = GAME.new_initial_state()
    assert repr(state) == (
        "CamelState(edition=1, leg=1, to_move=chance, track='not started', "
        "pyramid='blue,green,orange,yellow,white', tiles='', money=[3, 3, 3, 3], "
        "overall={'winner': [], 'loser': []})"
    )
    for text in ("start 1:yellow 2:white,orange 3:blue,green", "leg blue", "tile 6 mirage"):
        state.apply(parse_action(text))
    for text in ("winner green", "roll", "die orange 2"):
        state.apply(parse_action(text))
    assert repr(state) == (
        "CamelState(edition=1, leg=1, to_move=seat 0, "
        "track='1:[yellow] 2:[white] 3:[blue,green] 4:[orange]', "
        "pyramid='blue,green,yellow,white', tiles='6:mirage', money=[3, 3, 3, 3], "
        "overall={'winner': ['2:green'], 'loser': []})"
    )
    state = GAME.new_initial_state()
    rng = random.Random(3)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    text = repr(state)
    assert text.startswith("CamelState(edition=1, leg=") and ", to_move=nobody, " in text
    assert f"money={state.money}" in text
