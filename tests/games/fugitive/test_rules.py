"""Fugitive rules: golden cases for the numbered rules and the common mistakes of
``docs/fugitive.md`` (its Rules section), bad input, visibility, and random playthroughs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.errors import ActionParseError, IllegalActionError, OptionError
from sleuth.core.events import Event
from sleuth.core.game import CHANCE
from sleuth.core.log import replay_log, write_log
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.games.fugitive.engine.actions import Card, Guess, Place, parse_action
from sleuth.games.fugitive.engine.cards import SPRINT, cards_of
from sleuth.games.fugitive.engine.moves import (
    OpeningPlacements,
    Placements,
    has_follow_up,
    with_follow_up,
)
from sleuth.games.fugitive.rules import (
    FUGITIVE,
    MARSHAL,
    FugitiveGame,
    FugitiveState,
    Hideout,
    Phase,
)

SETUP = ["card 12", "card 13", "card 14", "card 15", "card 17"]
"""Setup draws giving F14's example hand {1, 2, 3, 12, 13, 14, 15, 17, 42}."""


def play(game: FugitiveGame, *moves: str) -> tuple[FugitiveState, list[Event]]:
    state = game.new_initial_state()
    events: list[Event] = []
    for text in moves:
        events += state.apply(game.parse_action(text))
    return state, events


def hand(state: FugitiveState, seat: int) -> list[int]:
    return cards_of(state.hands[seat])


def test_setup_f2_f3() -> None:
    state, events = play(FugitiveGame(), *SETUP)
    assert hand(state, FUGITIVE) == [1, 2, 3, 12, 13, 14, 15, 17, 42]
    assert [bin(p).count("1") for p in state.piles] == [8, 12, 13]
    assert state.hands[MARSHAL] == 0 and state.current_player() == FUGITIVE
    assert [e.public["pile"] for e in events] == [1, 1, 1, 2, 2]
    assert all(e.private is not None and e.audience == {FUGITIVE} for e in events)


def test_setup_draws_come_from_the_right_piles() -> None:
    state = FugitiveGame().new_initial_state()
    assert state.current_player() == CHANCE
    assert {str(a) for a in state.legal_actions()} == {f"card {c}" for c in range(4, 15)}
    with pytest.raises(IllegalActionError, match="card 20"):
        state.apply(parse_action("card 20"))


def test_sprint_values_f6_f7() -> None:
    assert SPRINT[1] == 1 and SPRINT[2] == 2 and SPRINT[41] == 1 and SPRINT[40] == 2
    assert SPRINT[0] == 0 and SPRINT[42] == 0
    assert sum(SPRINT[1:42]) == 61


def test_t10_opening_dead_end_rejected_under_exactly_2_accepted_under_one_or_two() -> None:
    dead_end = parse_action("hideout 3 sprint 1 2")
    strict, _ = play(FugitiveGame(), *SETUP)
    assert not strict.is_legal(dead_end)
    with pytest.raises(IllegalActionError, match="no legal second hideout"):
        strict.apply(dead_end)
    assert strict.is_legal(parse_action("hideout 3")) and strict.is_legal(parse_action("hideout 2"))
    loose, _ = play(FugitiveGame(opening="one_or_two"), *SETUP)
    loose.apply(dead_end)
    assert str(loose.legal_actions()[0]) == "pass"  # may stop after one
    loose.apply(parse_action("pass"))
    assert loose.current_player() == MARSHAL and loose.phase is Phase.MARSHAL_DRAW
    off, _ = play(FugitiveGame(dead_end_check=False), *SETUP)
    assert off.is_legal(dead_end)
    off.apply(dead_end)  # without the check the dead end happens: the opening ends early
    assert list(off.legal_actions()) == [parse_action("pass")]
    off.apply(parse_action("pass"))
    assert off.current_player() == MARSHAL


def test_opening_needs_two_hideouts_and_no_pass_f13() -> None:
    state, _ = play(FugitiveGame(), *SETUP, "hideout 2")
    assert not state.is_legal(parse_action("pass"))
    assert state.current_player() == FUGITIVE
    state.apply(parse_action("hideout 3"))
    assert state.current_player() == MARSHAL


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("hideout 12", "12 is 12 past 0, but the sprint reaches 3"),
        ("hideout 4", "4 not in the Fugitive's hand"),
        ("hideout 3 sprint 42", "42 and the hideout itself cannot be sprint cards"),  # M7
        ("hideout 3 sprint 3", "42 and the hideout itself"),
        ("hideout 2 sprint 9", "9 not in the Fugitive's hand"),
        ("guess 4", "not legal now"),
        ("draw 1", "not legal now"),
    ],
)
def test_illegal_opening_moves_name_the_reason_and_change_nothing(move: str, reason: str) -> None:
    state, _ = play(FugitiveGame(), *SETUP)
    before = (list(state.hands), list(state.piles), len(state.route), state.phase)
    with pytest.raises(IllegalActionError, match=reason):
        state.apply(parse_action(move))
    assert (list(state.hands), list(state.piles), len(state.route), state.phase) == before


def test_f8_f9_reach_and_overpaying() -> None:
    state, _ = play(FugitiveGame(), *SETUP, "hideout 1", "hideout 3")  # p = 3
    # the Marshal's first turn: two draws, then a (skipped) guess
    state.apply(parse_action("draw 3"))
    state.apply(parse_action("card 30"))
    state.apply(parse_action("draw 3"))
    state.apply(parse_action("card 31"))
    assert hand(state, MARSHAL) == [30, 31]
    state.apply(parse_action("skip"))
    state.apply(parse_action("draw 1"))
    state.apply(parse_action("card 4"))
    assert state.phase is Phase.FUGITIVE_PLACE
    assert state.is_legal(parse_action("hideout 4"))  # 4 - 3 <= 3
    assert state.is_legal(parse_action("hideout 4 sprint 12 13"))  # overpaying is legal (F9)
    assert not state.is_legal(parse_action("hideout 12 sprint 14 15"))  # 9 > 3 + 2 + 1
    assert not state.is_legal(parse_action("hideout 12 sprint 13"))  # 9 > 3 + 1
    assert state.is_legal(parse_action("hideout 12 sprint 2 13 14 15"))  # 9 <= 3 + 2 + 1 + 2 + 1
    assert not state.is_legal(parse_action("hideout 2"))  # not above the last hideout


def _route_state(
    game: FugitiveGame, values: list[int], face_up: set[int], held: list[int]
) -> FugitiveState:
    """A state in the middle of a game: the route ``values`` (sprint-free), the Fugitive holding
    ``held``, the Marshal to guess."""
    state = game.new_initial_state()
    state.draws_due = []
    state.route += [Hideout(v, (), v in face_up) for v in values]
    state.hands = [sum(1 << c for c in held), 0]
    state.piles = [0, 0, 0]
    state.phase = Phase.MARSHAL_GUESS
    state.rounds = 1
    return state


def test_f21_multi_number_guesses_are_all_or_nothing() -> None:
    state = _route_state(FugitiveGame(), [2, 4, 7], set(), [9, 42])
    events = state.apply(parse_action("guess 4 9"))
    assert events[0].public == {"numbers": (4, 9), "hit": False}
    assert [e.kind for e in events] == ["guessed"]  # nothing about which number failed
    assert state.face_down() == [2, 4, 7]
    state = _route_state(FugitiveGame(), [2, 4, 7], set(), [9, 42])
    events = state.apply(parse_action("guess 7 2"))
    assert [e.kind for e in events][:3] == ["guessed", "revealed", "revealed"]
    assert state.face_down() == [4]


def test_f22_sprint_cards_are_not_hideouts() -> None:
    state = _route_state(FugitiveGame(), [2], set(), [42])
    state.route[1] = Hideout(8, (5,), False)
    assert state.apply(parse_action("guess 5"))[0].public["hit"] is False


def test_f25_the_marshal_wins_when_every_hideout_is_face_up() -> None:
    state = _route_state(FugitiveGame(), [2, 4], {2}, [42])
    events = state.apply(parse_action("guess 4"))
    assert state.is_terminal() and state.winner == MARSHAL
    assert state.reason == "marshal_uncovered_route"
    assert events[-1].kind == "route" and events[-1].public["hideouts"] == (2, 4)


def test_t8_a_missed_number_may_be_placed_later() -> None:
    state = _route_state(FugitiveGame(), [2, 4], set(), [6, 42])
    state.apply(parse_action("guess 6"))
    assert state.phase is Phase.FUGITIVE_PLACE  # piles empty: the draw is skipped (F28)
    state.apply(parse_action("hideout 6"))
    assert state.face_down() == [2, 4, 6]


@pytest.mark.parametrize(("highest", "manhunt"), [(29, True), (30, False), (0, True)])
def test_t9_42_starts_the_manhunt_or_ends_the_game(highest: int, manhunt: bool) -> None:
    values = [v for v in (highest, 35, 39) if v]
    state = _route_state(FugitiveGame(), values, {highest}, [42])
    state.phase = Phase.FUGITIVE_PLACE
    events = state.apply(parse_action("hideout 42"))
    placed = events[0]
    assert placed.public["value"] == 42 and placed.public["sprints"] == 0
    if manhunt:
        assert state.phase is Phase.MANHUNT and events[1].public == {"highest": highest}
    else:
        assert state.winner == FUGITIVE and state.reason == "escape_no_manhunt"


def test_f27_manhunt_single_guesses_and_first_miss() -> None:
    state = _route_state(FugitiveGame(), [10, 20, 39], set(), [42])
    state.phase = Phase.FUGITIVE_PLACE
    state.apply(parse_action("hideout 42"))
    assert state.current_player() == MARSHAL
    with pytest.raises(IllegalActionError, match="one number at a time"):
        state.apply(parse_action("guess 10 20"))
    state.apply(parse_action("guess 20"))
    assert state.phase is Phase.MANHUNT and state.face_down() == [10, 39]
    won = state.clone()
    won.apply(parse_action("guess 10"))
    won.apply(parse_action("guess 39"))
    assert won.winner == MARSHAL and won.reason == "manhunt_success"
    state.apply(parse_action("guess 11"))
    assert state.winner == FUGITIVE and state.reason == "manhunt_failed"


def test_f11_42s_sprint_cards_stay_face_down_and_may_be_named() -> None:
    state = _route_state(FugitiveGame(), [10, 20, 37], set(), [34, 42])
    state.phase = Phase.FUGITIVE_PLACE
    events = state.apply(parse_action("hideout 42 sprint 34"))
    assert events[0].public == {"position": 4, "sprints": 1, "value": 42}
    assert 34 not in state.face_up_numbers()
    assert state.is_legal(parse_action("guess 34"))  # the legal moves must not leak the stack
    state.apply(parse_action("guess 34"))
    assert state.winner == FUGITIVE and state.reason == "manhunt_failed"


def test_f17_bonus_draw_second_edition_only_and_optional() -> None:
    first = _route_state(FugitiveGame(), [2], set(), [42])
    first.piles[1] = 1 << 20
    first.phase = Phase.FUGITIVE_PLACE
    first.apply(parse_action("pass"))
    assert first.phase is Phase.MARSHAL_DRAW  # M3: no bonus draw in the 1st edition
    second = _route_state(FugitiveGame(edition="second"), [2], set(), [42])
    second.piles[1] = (1 << 20) | (1 << 21)
    second.phase = Phase.FUGITIVE_PLACE
    declined = second.clone()
    second.apply(parse_action("pass"))
    assert [str(a) for a in second.legal_actions()] == ["bonus", "no bonus"]
    events = second.apply(parse_action("bonus"))
    assert events[0].public == {"seat": FUGITIVE, "pile": 2, "bonus": True}
    assert second.current_player() == CHANCE
    second.apply(parse_action("card 21"))
    assert 21 in hand(second, FUGITIVE) and second.current_player() == MARSHAL
    declined.apply(parse_action("pass"))
    declined.apply(parse_action("no bonus"))
    assert declined.current_player() == MARSHAL and declined.hands[FUGITIVE] == 1 << 42


def test_f18_marshal_draws_two_then_one() -> None:
    state, _ = play(FugitiveGame(), *SETUP, "hideout 1", "hideout 3")
    moves = ["draw 1", "card 4", "draw 2", "card 16"]
    for text in moves:
        assert state.current_player() in (MARSHAL, CHANCE)
        state.apply(parse_action(text))
    assert state.phase is Phase.MARSHAL_GUESS and hand(state, MARSHAL) == [4, 16]
    state.apply(parse_action("guess 5"))
    state.apply(parse_action("draw 1"))
    state.apply(parse_action("card 5"))
    state.apply(parse_action("pass"))
    state.apply(parse_action("draw 1"))
    state.apply(parse_action("card 6"))
    assert state.phase is Phase.MARSHAL_GUESS and hand(state, MARSHAL) == [4, 6, 16]


def test_marshal_may_skip_option_and_guess_range_f20() -> None:
    state = _route_state(FugitiveGame(marshal_may_skip=False), [2], {2}, [42])
    state.route.append(Hideout(5, (), False))
    assert not state.is_legal(parse_action("skip"))
    with pytest.raises(IllegalActionError, match="marshal_may_skip off"):
        state.apply(parse_action("skip"))
    with pytest.raises(IllegalActionError, match="at least one number"):
        state.apply(Guess(()))
    with pytest.raises(IllegalActionError, match="2 already face up"):
        state.apply(parse_action("guess 2 5"))
    with pytest.raises(IllegalActionError, match="only 1-41"):
        state.apply(parse_action("guess 42"))
    assert state.is_legal(Guess((5, 40)))


def test_options_out_of_range_are_refused() -> None:
    with pytest.raises(OptionError, match="manhunt_threshold"):
        FugitiveGame(manhunt_threshold=0)
    with pytest.raises(OptionError, match="max_rounds"):
        FugitiveGame(max_rounds=-1)


def test_max_rounds_is_a_draw_f29() -> None:
    state = _route_state(FugitiveGame(max_rounds=2), [2], set(), [42])
    state.rounds = 1
    state.apply(parse_action("guess 3"))
    assert state.is_terminal() and state.winner is None and state.reason == "max_rounds"
    assert state.returns() == (0.0, 0.0)


def test_placed_cards_are_private_to_the_fugitive_and_42_is_public() -> None:
    state, _ = play(FugitiveGame(), *SETUP)
    (placed,) = state.apply(parse_action("hideout 2 sprint 1"))
    assert placed.public == {"position": 1, "sprints": 1}
    assert placed.private == {"value": 2, "sprint_cards": (1,)}
    assert placed.seen_by(MARSHAL).private is None


@pytest.mark.parametrize(
    "text",
    [
        "draw 2",
        "card 17",
        "hideout 9 sprint 4 6",
        "hideout 9",
        "pass",
        "bonus",
        "no bonus",
        "guess 12 15",
        "guess 3",
        "skip",
    ],
)
def test_text_forms_round_trip(text: str) -> None:
    assert str(parse_action(text)) == text
    assert parse_action(str(parse_action(text))) == parse_action(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "draw",
        "draw two",
        "hideout",
        "hideout 9 sprint",
        "guess",
        "hideout 9 4 6",
        "card -1",
        "fold",
    ],
)
def test_bad_text_is_a_clear_parse_error(text: str) -> None:
    with pytest.raises(ActionParseError, match=r"Fugitive action|expected numbers"):
        parse_action(text)


def test_bad_options() -> None:
    with pytest.raises(Exception, match="edition"):
        make_game("fugitive", {"edition": "third"})
    with pytest.raises(Exception, match="opening"):
        make_game("fugitive", {"opening": "three"})


def _conserved(state: FugitiveState) -> bool:
    cards = [*cards_of(state.hands[0]), *cards_of(state.hands[1])]
    for pile in state.piles:
        cards += cards_of(pile)
    for h in state.route:
        cards += [h.value, *h.sprints]
    return sorted(cards) == list(range(43))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    edition=st.sampled_from(["first", "second"]),
    opening=st.sampled_from(["exactly_2", "one_or_two"]),
)
def test_random_playthroughs_keep_every_invariant(seed: int, edition: str, opening: str) -> None:
    game = FugitiveGame(edition=edition, opening=opening, max_rounds=60)
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        assert _conserved(state)
        legal = state.legal_actions()
        action = state.sample_chance(rng) if state.current_player() == CHANCE else rng.choice(legal)
        assert action in legal and parse_action(str(action)) == action
        route = [h.value for h in state.route]
        assert route == sorted(route) and len(set(route)) == len(route)
        state.apply(action)
    assert _conserved(state) and state.reason is not None


def test_random_bots_play_whole_games_without_forfeits() -> None:
    spec = game_spec("fugitive")
    game = make_game("fugitive", {})
    for seed in range(30):
        record = run_match(game, [spec.bot("random"), spec.bot("random")], seed=seed)
        assert not record.forfeits and record.final_state.is_terminal()


def test_game_logs_replay_with_every_event_checked(tmp_path: Path) -> None:
    spec = game_spec("fugitive")
    game = make_game("fugitive", {"edition": "second", "opening": "one_or_two"})
    for seed in range(5):
        record = run_match(game, [spec.bot("random"), spec.bot("random")], seed=seed)
        path = tmp_path / f"{seed}.jsonl"
        write_log(record, path)
        replay = replay_log(path)
        assert replay.outcome == record.outcome


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 41), min_size=4, max_size=9, unique=True),
    st.booleans(),
)
def test_the_opening_filter_agrees_with_f14_placement_by_placement(
    cards: list[int], with_42: bool
) -> None:
    """The opening list's F14 filter (all placements at once) keeps exactly the placements
    the single check accepts."""
    held = sorted(cards + [42] * with_42)
    placements = list(Placements(held, 0))
    expected = [p for p in placements if has_follow_up(held, p)]
    assert with_follow_up(held, placements) == expected


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(1, 41), min_size=4, max_size=9, unique=True),
    st.booleans(),
    st.integers(0, 12),
    st.booleans(),
)
def test_the_lazy_opening_answers_as_its_listing_does(
    cards: list[int], with_42: bool, last: int, follow_up: bool
) -> None:
    """``OpeningPlacements`` answers ``in``, its hideouts and each hideout's cheapest
    placements without listing; every answer agrees with the listed placements."""
    held = sorted(cards + [42] * with_42)
    everything = list(Placements(held, last))
    kept = [p for p in everything if not follow_up or has_follow_up(held, p)]
    lazy = OpeningPlacements(held, last, follow_up)
    assert all((p in lazy) == (p in kept) for p in everything)
    assert Place(99) not in lazy and Guess((held[0],)) not in lazy
    hideouts = sorted({p.hideout for p in kept})
    assert lazy.hideouts() == hideouts
    for h in hideouts:
        options = [p for p in kept if p.hideout == h]
        fewest = min(len(p.sprints) for p in options)
        assert lazy.fewest_sprints(h) == [p for p in options if len(p.sprints) == fewest]
    assert list(lazy) == kept and len(lazy) == len(kept)
    assert all(lazy[i] == p for i, p in enumerate(kept))


def test_a_chance_card_is_legal_exactly_when_it_is_in_the_pile_being_drawn() -> None:
    state = FugitiveGame().new_initial_state()
    assert state.current_player() == CHANCE
    pile = {a.card for a, _ in state.chance_outcomes() if isinstance(a, Card)}
    assert all(state.is_legal(Card(c)) == (c in pile) for c in range(-1, 44))
    assert not state.is_legal(Card("12"))  # type: ignore[arg-type]
    state.apply(Card(min(pile)))
    with pytest.raises(IllegalActionError, match="not in pile"):
        state.apply(Card(max(range(1, 42), key=lambda c: c not in pile)))


def test_repr_shows_the_whole_position_at_the_start_mid_game_and_the_end() -> None:
    state, _ = play(FugitiveGame(), *SETUP)
    assert repr(state) == (
        "FugitiveState(round=1, phase='opening', to_move=fugitive, route='0', "
        "fugitive_hand={1,2,3,12,13,14,15,17,42}, marshal_hand={}, piles=8/12/13)"
    )
    state.apply(parse_action("hideout 1"))
    state.apply(parse_action("hideout 3 sprint 12"))
    assert repr(state) == (
        "FugitiveState(round=1, phase='marshal draws', to_move=marshal, route='0 [1] [3+12]', "
        "fugitive_hand={2,13,14,15,17,42}, marshal_hand={}, piles=8/12/13)"
    )
    game = FugitiveGame(max_rounds=40)
    state = game.new_initial_state()
    rng = random.Random(5)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(
            state.sample_chance(rng) if state.current_player() == CHANCE else rng.choice(legal)
        )
    text = repr(state)
    winner = {FUGITIVE: "fugitive", MARSHAL: "marshal", None: "nobody"}[state.winner]
    assert text.startswith("FugitiveState(round=") and "phase='over', to_move=nobody" in text
    assert text.endswith(f", winner={winner}, reason={state.reason})")
    assert "piles=" + "/".join(str(bin(p).count("1")) for p in state.piles) in text
    assert "marshal_hand={" + ",".join(map(str, hand(state, MARSHAL))) + "}" in text
