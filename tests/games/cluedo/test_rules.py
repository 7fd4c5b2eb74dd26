"""Cluedo's rules engine: the deal, turns, suggestions, refutations and accusations (C5-C23).

Most tests play a 4-player game with two dice (so a roll of 8 takes a token from its start
into a room) and a deal fixed by hand, :data:`DEAL`:

* envelope: Peacock, Candlestick, Study;
* seat 0 (Scarlet): Scarlet, Knife, Lounge, Kitchen, Library;
* seat 1 (Mustard): Mustard, White, Revolver, Dining Room, Ballroom;
* seat 2 (White): Plum, Rope, Wrench, Billiard Room;
* seat 3 (Green): Green, Lead Pipe, Hall, Conservatory.
"""

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
from sleuth.games.cluedo.actions import (
    Accuse,
    Dice,
    End,
    Go,
    Passage,
    Roll,
    Show,
    Stay,
    Suggest,
    parse_action,
)
from sleuth.games.cluedo.cards import ROOMS, card_named
from sleuth.games.cluedo.deal import Deal, deal_order, deal_problem, hand_sizes, shuffle_deal
from sleuth.games.cluedo.movement import AtStart, InRoom, Transit
from sleuth.games.cluedo.rules import CluedoGame, CluedoState, Phase
from sleuth.testing.snapshot import snapshot


def cards(text: str) -> tuple[int, ...]:
    return tuple(card_named(name) for name in text.split(","))


DEAL = Deal(
    (4, 7, 20),
    (
        cards("Scarlet,Knife,Lounge,Kitchen,Library"),
        cards("Mustard,White,Revolver,Dining Room,Ballroom"),
        cards("Plum,Rope,Wrench,Billiard Room"),
        cards("Green,Lead Pipe,Hall,Conservatory"),
    ),
)


def game(**options: Any) -> CluedoGame:
    made = make_game("cluedo", {"players": 4, "dice": 2, **options})
    assert isinstance(made, CluedoGame)
    return made


def dealt(deal: Deal = DEAL, **options: Any) -> tuple[CluedoState, list[Event]]:
    state = game(**options).new_initial_state()
    return state, state.apply(deal)


def play(state: CluedoState, *texts: str) -> list[Event]:
    """Apply each action text in turn; the events of all of them."""
    events: list[Event] = []
    for text in texts:
        events += state.apply(state.game.parse_action(text))
    return events


def idle(state: CluedoState, turns: int) -> None:
    """Play ``turns`` turns that roll 2, head for the first room offered, and end."""
    for _ in range(turns):
        play(state, "roll", "dice 2")
        if state.phase is Phase.HEAD:
            state.apply(state.legal_actions()[0])
        play(state, "end")


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def refused(state: CluedoState, text: str, message: str) -> None:
    """``text`` is illegal now, with ``message`` in the error, and changes nothing."""
    before = snapshot(state)
    action = state.game.parse_action(text)
    assert not state.is_legal(action)
    with pytest.raises(IllegalActionError, match=message):
        state.apply(action)
    assert snapshot(state) == before


# --- the deal ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "sizes"),
    [(3, [6, 6, 6]), (4, [5, 5, 4, 4]), (5, [4, 4, 4, 3, 3]), (6, [3] * 6)],
)
def test_hand_sizes_by_dealer_position(players: int, sizes: list[int]) -> None:
    """C7: from the dealer's left, dealer last, for every dealer."""
    for dealer in range(players):
        order = deal_order(players, dealer)
        assert order[-1] == dealer and order[0] == (dealer + 1) % players
        by_seat = hand_sizes(players, dealer, face_up=False)
        assert [by_seat[seat] for seat in order] == sizes


@pytest.mark.parametrize(("players", "size", "up"), [(3, 6, 0), (4, 4, 2), (5, 3, 3), (6, 3, 0)])
def test_face_up_leftovers(players: int, size: int, up: int) -> None:
    """C8: everyone gets the same number of cards; the rest lie face up for all to see."""
    the_game = make_game("cluedo", {"players": players, "leftover": "face_up"})
    assert isinstance(the_game, CluedoGame)
    assert the_game.hand_sizes == (size,) * players
    state = the_game.new_initial_state()
    deal = state.sample_chance(random.Random(players))
    assert isinstance(deal, Deal) and len(deal.face_up) == up
    events = state.apply(deal)
    assert events[0].public["face_up"] == deal.face_up and events[0].private is None
    assert state.face_up == deal.face_up


def test_the_default_dealer_is_the_last_seat_and_the_option_moves_the_extra_cards() -> None:
    assert game().hand_sizes == (5, 5, 4, 4)
    assert game(dealer=0).hand_sizes == (4, 5, 5, 4)
    assert game(dealer=1).hand_sizes == (4, 4, 5, 5)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_shuffled_deals_are_valid_and_read_back_from_their_text(players: int) -> None:
    rng = random.Random(players)
    for dealer in range(players):
        for face_up in (False, True):
            sizes = hand_sizes(players, dealer, face_up)
            deal = shuffle_deal(rng, sizes, dealer)
            assert deal_problem(deal, sizes) is None
            assert parse_action(str(deal)) == deal


def test_the_deal_deals_from_the_dealers_left() -> None:
    """With one card more than a round, the dealer's left-hand neighbour gets the extra."""
    for dealer in range(4):
        deal = shuffle_deal(random.Random(dealer), hand_sizes(4, dealer, False), dealer)
        assert len(deal.hands[(dealer + 1) % 4]) == 5 and len(deal.hands[dealer]) == 4


def test_every_envelope_card_can_be_drawn() -> None:
    rng = random.Random(7)
    drawn = {c for _ in range(400) for c in shuffle_deal(rng, (6, 6, 6), 2).envelope}
    assert drawn == set(range(21))


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        (Deal((4, 7, 20), DEAL.hands[:3]), "deals 3 hands to 4 players"),
        (Deal((4, 7, 20), (DEAL.hands[1], DEAL.hands[0], *DEAL.hands[2:])), None),
        (
            Deal((4, 7, 20), (DEAL.hands[0], DEAL.hands[2], DEAL.hands[1], DEAL.hands[3])),
            "seat 1 gets 4 cards, not 5",
        ),
        (Deal((4, 7, 20), (*DEAL.hands[:3], cards("Green,Lead Pipe,Hall,Plum"))), "dealt twice"),
        (Deal((7, 4, 20), DEAL.hands), "a suspect, a weapon and a room, in that order"),
    ],
)
def test_a_deal_of_the_wrong_shape_is_refused(deal: Deal, message: str | None) -> None:
    state = game().new_initial_state()
    assert state.current_player() == CHANCE
    if message is None:
        assert state.is_legal(deal)
        return
    with pytest.raises(IllegalActionError, match=message):
        state.apply(deal)
    assert state.phase is Phase.DEAL


def test_the_deal_tells_each_seat_its_own_hand_only() -> None:
    state, events = dealt()
    assert kinds(events) == ["setup", "hand", "hand", "hand", "hand"]
    setup = events[0]
    assert dict(setup.public) == {
        "players": 4,
        "dealer": 3,
        "hand_sizes": (5, 5, 4, 4),
        "face_up": (),
    }
    for seat, event in enumerate(events[1:]):
        assert event.public == {"seat": seat} and event.audience == {seat}
        assert event.private == {"cards": DEAL.hands[seat]}
        for other in range(4):
            shown = event.seen_by(other).private
            assert shown == ({"cards": DEAL.hands[seat]} if other == seat else None)
    assert state.envelope == (4, 7, 20)
    assert state.current_player() == 0 and state.phase is Phase.MOVE and state.turn == 1
    refused(state, str(DEAL), "the cards were dealt already")


def test_miss_scarlets_player_starts_or_the_first_suspect_in_card_order() -> None:
    """C11."""
    assert game().first_seat == 0
    other = game(suspects="Plum,Green,Mrs. White,Peacock")
    assert other.suspects == (5, 3, 2, 4) and other.first_seat == 2
    assert other.new_initial_state().clone().to_move == 2
    assert other.options()["suspects"] == "Plum,Green,White,Peacock"


def test_options_are_canonical_and_rebuild_the_game() -> None:
    the_game = game(edition="uk", leftover="face_up", accuse_at="in-named-room")
    options = the_game.options()
    assert options["dice"] == 2 and options["dealer"] == 3
    assert make_game("cluedo", options).options() == options
    assert make_game("cluedo", {"edition": "uk"}).options()["dice"] == 2
    assert make_game("cluedo", {}).options()["dice"] == 1


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 2}, "at least 3"),
        ({"players": 7}, "at most 6"),
        ({"dice": 3}, "expected one of 1, 2"),
        ({"dealer": 4}, "dealer=4"),
        ({"suspects": "Plum,Plum,Green,White"}, "suspects: Plum is named twice"),
        ({"players": 4, "suspects": "Plum,Green,White"}, "3 named for 4 players: .* players=3"),
        ({"suspects": "Plum,Rope,Green,White"}, "Rope is a weapon, not a suspect"),
        ({"edition": "swedish"}, "classic, uk"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        game(**options)


# --- moving -----------------------------------------------------------------------------------


def test_a_roll_then_a_chosen_room() -> None:
    state, _ = dealt()
    assert state.legal_actions()[:1] == (Roll(),)
    assert Passage() not in state.legal_actions() and Stay() not in state.legal_actions()
    assert play(state, "roll") == [] and state.current_player() == CHANCE
    assert [a for a, _ in state.chance_outcomes()] == [Dice(t) for t in range(2, 13)]
    events = play(state, "dice 8")
    assert kinds(events) == ["rolled"] and events[0].public == {"seat": 0, "roll": 8}
    assert state.legal_actions() == tuple(Go(r) for r in ROOMS)
    events = play(state, "go Lounge")
    assert [dict(e.public) for e in events] == [{"seat": 0, "roll": 8, "position": "Lounge"}]
    assert state.position(0) == InRoom(13) and state.phase is Phase.ACT


def test_a_token_short_of_its_room_is_on_its_way_and_then_goes_on_by_itself() -> None:
    state, _ = dealt()
    events = play(state, "roll", "dice 3", "go Hall")
    assert events[-1].public["position"] == "start Scarlet -> Hall (9 to go, 3 walked)"
    assert not any(isinstance(a, Suggest) for a in state.legal_actions())
    play(state, "end", "roll", "dice 2", "go Lounge", "end")  # seat 1
    play(state, "roll", "dice 2", "go Ballroom", "end", "roll", "dice 2", "go Ballroom", "end")
    events = play(state, "roll", "dice 12")
    assert kinds(events) == ["rolled", "moved"] and events[-1].public["position"] == "Hall"
    assert state.phase is Phase.ACT and Suggest(0, 6, 12) in state.legal_actions()


def test_ending_a_turn_is_an_event_everyone_sees() -> None:
    """C12: ``end`` makes one public ``ended`` event naming the seat, and the next seat
    clockwise begins its turn."""
    state, _ = dealt()
    events = play(state, "roll", "dice 8", "go Lounge", "end")
    assert kinds(events) == ["rolled", "moved", "ended"]
    ended = events[-1]
    assert dict(ended.public) == {"seat": 0} and ended.private is None and not ended.audience
    assert all(ended.seen_by(seat) == ended for seat in range(4))
    assert state.current_player() == 1 and state.turn == 2 and state.phase is Phase.MOVE


def test_retargeting_lets_a_token_on_its_way_choose_again() -> None:
    state, _ = dealt(allow_retarget=True)
    play(state, "roll", "dice 3", "go Hall", "end")
    play(state, *["roll", "dice 2", "go Hall", "end"] * 3)
    play(state, "roll", "dice 4")
    assert state.phase is Phase.HEAD and len(state.legal_actions()) == 9
    events = play(state, "go Lounge")  # back 3, then 8: 11 to go, 4 walked
    assert events[0].public["position"] == "start Scarlet -> Lounge (7 to go, 7 walked)"


def test_movement_refusals_name_the_rule() -> None:
    state, _ = dealt()
    refused(state, "passage", "a secret passage leaves from a room")
    refused(state, "stay", "C17")
    refused(state, "go Hall", "roll first")
    refused(state, "suggest Plum Rope Hall", r"moves first: roll, passage or stay \(C12\)")
    refused(state, "end", "moves first")
    refused(state, "show Rope", "no suggestion is waiting")
    refused(state, "dice 4", "nobody is rolling the dice")
    play(state, "roll")
    refused(state, "go Hall", "has rolled: the dice decide next")
    refused(state, "dice 13", "two dice cannot show 13")
    refused(state, "dice 1", "two dice cannot show 1")
    play(state, "dice 8")
    refused(state, "accuse Plum Rope Hall", "rolled 8: choose where to go first")
    play(state, "go Lounge")
    refused(state, "roll", r"has moved this turn already \(C12\)")
    refused(state, "passage", "has moved this turn already")
    refused(state, "suggest Plum Rope Hall", r"names the room the token is in, the Lounge \(C16\)")


def test_the_passage_is_a_whole_move_and_the_room_just_left_is_closed() -> None:
    state, _ = dealt()
    play(state, "roll", "dice 8", "go Lounge", "end")
    play(state, *["roll", "dice 2", "go Hall", "end"] * 3)
    assert Passage() in state.legal_actions() and Stay() not in state.legal_actions()
    refused(state, "stay", "only in a room another's suggestion moved one to")
    refused(state, "suggest Plum Rope Lounge", "moves first")
    play(state, "roll", "dice 3")
    refused(state, "go Lounge", r"may not go back into the Lounge it leaves \(C13\)")
    state2, _ = dealt()
    play(state2, "roll", "dice 8", "go Lounge", "end")
    play(state2, *["roll", "dice 2", "go Hall", "end"] * 3)
    events = play(state2, "passage")
    assert [dict(e.public) for e in events] == [
        {"seat": 0, "roll": None, "position": "Conservatory"}
    ]
    assert Suggest(0, 6, 17) in state2.legal_actions()


# --- suggestions and refutations --------------------------------------------------------------


def in_lounge() -> CluedoState:
    """Seat 0 has just entered the Lounge and may suggest."""
    state, _ = dealt()
    play(state, "roll", "dice 8", "go Lounge")
    return state


def test_refutation_goes_clockwise_to_the_first_holder_who_chooses_a_card() -> None:
    state = in_lounge()
    events = play(state, "suggest Plum Rope Lounge")
    assert kinds(events) == ["suggested", "passed"]
    assert dict(events[0].public) == {"seat": 0, "suspect": 5, "weapon": 9, "room": 13}
    assert events[1].public == {"seat": 1}
    assert state.current_player() == 2 and state.phase is Phase.REFUTE
    assert state.legal_actions() == (Show(5), Show(9))
    refused(state, "show Lounge", "seat 2 \\(Mrs. White\\) does not hold Lounge")
    refused(state, "show Knife", r"Knife was not suggested \(Plum, Rope, Lounge\)")
    refused(state, "end", "must first show one of the suggested cards")
    refused(state, "accuse Plum Rope Lounge", "must first show")
    events = play(state, "show Rope")
    assert kinds(events) == ["refuted"] and events[0].public == {"seat": 2}
    assert events[0].private == {"card": 9} and events[0].audience == {0, 2}
    assert [events[0].seen_by(s).private for s in range(4)] == [
        {"card": 9},
        None,
        {"card": 9},
        None,
    ]
    assert state.current_player() == 0 and state.phase is Phase.ACT
    refused(state, "suggest Green Rope Lounge", r"one suggestion per turn \(C16\)")
    assert state.legal_actions()[-1] == End()


def test_an_unrefuted_suggestion_asks_everyone() -> None:
    state = in_lounge()
    events = play(state, "suggest Peacock Candlestick Lounge")
    assert kinds(events) == ["suggested", "passed", "passed", "passed", "unrefuted"]
    assert [e.public.get("seat") for e in events[1:4]] == [1, 2, 3]
    assert state.current_player() == 0 and state.phase is Phase.ACT


def test_refutation_wraps_around_the_table_and_never_asks_the_suggester() -> None:
    state, _ = dealt()
    play(state, "roll", "dice 2", "go Hall", "end", "roll", "dice 2", "go Hall", "end")
    play(state, "roll", "dice 8", "go Ballroom")  # seat 2, White
    events = play(state, "suggest Scarlet Revolver Ballroom")
    assert kinds(events) == ["suggested", "passed"] and events[1].public == {"seat": 3}
    assert state.current_player() == 0 and state.legal_actions() == (Show(0),)
    play(state, "show Scarlet")
    play(state, "end", "roll", "dice 10", "go Conservatory")  # seat 3, Green
    events = play(state, "suggest Plum Candlestick Conservatory")
    assert kinds(events) == ["suggested", "passed", "passed"]
    assert [e.public["seat"] for e in events[-2:]] == [0, 1] and state.current_player() == 2


def test_a_suggestion_moves_the_named_tokens_into_the_room() -> None:
    """C18, for a played suspect and for one nobody plays."""
    state = in_lounge()
    play(state, "suggest Plum Wrench Lounge", "show Plum")
    assert state.positions[5] == InRoom(13) and state.weapon_rooms[11 - 6] == 13
    assert state.summoned == [False] * 4  # Plum is nobody's
    play(state, "end")
    play(state, "roll", "dice 8", "go Dining Room", "suggest Green Rope Dining Room", "show Rope")
    assert state.positions[3] == InRoom(14) and state.summoned == [False, False, False, True]


def test_summoned_players_may_stay_and_suggest_in_the_same_room_again() -> None:
    """C17: nobody suggests twice in one room without leaving it, unless summoned there."""
    state = in_lounge()
    play(state, "suggest Plum Rope Lounge", "show Plum", "end")
    play(state, "roll", "dice 8", "go Lounge", "suggest Scarlet Knife Lounge")  # seat 1
    assert state.current_player() == 0 and state.summoned[0]
    play(state, "show Knife", "end")
    idle(state, 2)
    assert state.current_player() == 0 and Stay() in state.legal_actions()
    events = play(state, "stay")
    assert [dict(e.public) for e in events] == [{"seat": 0, "roll": None, "position": "Lounge"}]
    assert Suggest(5, 9, 13) in state.legal_actions()
    play(state, "suggest Plum Rope Lounge", "show Rope", "end")
    assert not state.summoned[0]
    idle(state, 3)
    assert state.current_player() == 0 and Stay() not in state.legal_actions()


def test_summoning_a_token_on_its_way_puts_it_in_the_room() -> None:
    state, _ = dealt()
    play(state, "roll", "dice 3", "go Hall", "end")
    assert isinstance(state.position(0), Transit)
    play(state, "roll", "dice 8", "go Lounge", "suggest Scarlet Knife Lounge", "show Knife", "end")
    assert state.position(0) == InRoom(13)
    idle(state, 2)
    assert state.current_player() == 0 and Stay() in state.legal_actions()


# --- accusations ------------------------------------------------------------------------------


def test_a_right_accusation_wins_and_the_envelope_is_shown() -> None:
    state, _ = dealt()
    events = play(state, "accuse Peacock Candlestick Study")
    assert kinds(events) == ["accused", "game_over"]
    accused, over = events
    assert dict(accused.public) == {
        "seat": 0, "suspect": 4, "weapon": 7, "room": 20, "correct": True,
    }  # fmt: skip
    assert accused.private == {"envelope": (4, 7, 20)} and accused.audience == {0}
    assert dict(over.public) == {"winner": 0, "envelope": (4, 7, 20)}
    assert state.current_player() == TERMINAL and state.legal_actions() == ()
    assert state.termination() == "solved" and state.winners() == ("player0",)
    assert state.returns() == (1.0, 0.0, 0.0, 0.0) and state.wins() == (1.0, 0.0, 0.0, 0.0)
    assert "Miss Scarlet" in state.outcome() and "Peacock" in state.outcome()
    refused(state, "roll", "the game is over")


def test_a_wrong_accuser_is_eliminated_but_keeps_refuting() -> None:
    """C21: one accusation each; the eliminated player is skipped but still shows cards."""
    state, _ = dealt()
    events = play(state, "accuse Scarlet Knife Hall")
    assert kinds(events) == ["accused", "ended"] and events[0].public["correct"] is False
    assert dict(events[1].public) == {"seat": 0} and not events[1].audience  # C21 ends the turn
    assert events[0].seen_by(1).private is None and events[0].seen_by(0).private is not None
    assert state.eliminated == [True, False, False, False] and state.current_player() == 1
    play(state, "roll", "dice 2", "go Hall", "end", "roll", "dice 2", "go Hall", "end")
    play(state, "roll", "dice 8", "go Ballroom")  # seat 3, Green
    play(state, "suggest Scarlet Revolver Ballroom")
    assert state.current_player() == 0 and state.legal_actions() == (Show(0),)
    events = play(state, "show Scarlet", "end")
    assert events[0].audience == {3, 0}
    assert state.current_player() == 1 and state.turn == 5  # seat 0 is skipped


def test_nobody_wins_when_every_accusation_fails() -> None:
    """C23: the last player left plays on, and nobody wins by default."""
    state, _ = dealt()
    play(state, "accuse Scarlet Knife Hall", "accuse Scarlet Knife Hall")
    play(state, "accuse Plum Knife Hall")
    assert state.current_player() == 3
    turn = state.turn
    events = play(state, "roll", "dice 2", "go Hall", "end")
    assert state.current_player() == 3 and not state.is_terminal()  # alone, still playing
    assert kinds(events)[-1] == "ended" and state.turn == turn + 1  # its own next turn
    events = play(state, "accuse Green Rope Study")
    assert kinds(events) == ["accused", "ended", "game_over"]
    assert events[-1].public["winner"] is None
    assert state.termination() == "all_wrong" and state.winners() == ()
    assert state.wins() == (0.0,) * 4 and state.returns() == (0.0,) * 4
    assert state.outcome().startswith("nobody won: every accusation was wrong")


def test_accusations_may_be_limited_to_the_room_one_is_in() -> None:
    state, _ = dealt(accuse_at="in_named_room")
    assert not any(isinstance(a, Accuse) for a in state.legal_actions())
    refused(state, "accuse Plum Rope Hall", "names the room one is in \\(not in a room\\)")
    play(state, "roll", "dice 8", "go Lounge")
    accusations = [a for a in state.legal_actions() if isinstance(a, Accuse)]
    assert len(accusations) == 36 and {a.room for a in accusations} == {13}
    refused(state, "accuse Plum Rope Hall", "in the Lounge")


def test_the_turn_limit_ends_the_game_with_no_winner() -> None:
    state, _ = dealt(max_turns=3)
    play(state, *["roll", "dice 2", "go Hall", "end"] * 2)
    events = play(state, "roll", "dice 2", "go Hall", "end")
    assert kinds(events)[-2:] == ["ended", "game_over"] and state.termination() == "turn_limit"
    assert state.winners() == () and "turn limit 3" in state.outcome()


# --- texts ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("roll", Roll()),
        ("dice 7", Dice(7)),
        ("go Dining Room", Go(14)),
        ("passage", Passage()),
        ("stay", Stay()),
        ("suggest Plum Lead Pipe Billiard Room", Suggest(5, 10, 18)),
        ("show Lead Pipe", Show(10)),
        ("accuse Scarlet Wrench Study", Accuse(0, 11, 20)),
        ("end", End()),
    ],
)
def test_action_texts_round_trip(text: str, action: object) -> None:
    assert parse_action(text) == action and str(action) == text


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("SUGGEST plum lead pipe dining room", Suggest(5, 10, 14)),
        ("suggest Professor Plum, Lead Piping, Dining Room", Suggest(5, 10, 14)),
        ("accuse Rev. Green Spanner Billiard Room", Accuse(3, 11, 18)),
        ("accuse Mr. Green, Dagger, Ballroom", Accuse(3, 6, 16)),
        ("  go  lounge ", Go(13)),
        ("show Miss Scarlett", Show(0)),
        ("End", End()),
    ],
)
def test_actions_are_read_with_aliases_case_and_commas(text: str, action: object) -> None:
    assert parse_action(text) == action


def test_every_triple_reads_back_from_its_text() -> None:
    for s in range(6):
        for w in range(6, 12):
            for r in ROOMS:
                for action in (Suggest(s, w, r), Accuse(s, w, r)):
                    assert parse_action(str(action)) == action


def test_deal_texts_round_trip_with_face_up_cards() -> None:
    deal = Deal((4, 7, 20), (*DEAL.hands[:2], DEAL.hands[2][:3]), (18, 0, 3))
    text = str(deal)
    assert text.endswith(" / face up: Scarlet,Green,Billiard Room")
    assert text.startswith("deal Peacock,Candlestick,Study / Scarlet,Knife,Lounge,")
    assert parse_action(text) == deal


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("suggest Plumb Rope Hall", "close names: Professor Plum"),
        ("go Knife", "Knife is a weapon, not a room"),
        ("accuse Plum Rope", "name|not a suspect, a weapon and a room|no room"),
        ("suggest Plum, Rope", "2 names: name a suspect, a weapon and a room"),
        ("fly Hall", "is not a Cluedo action"),
        ("roll 4", "is not a Cluedo action"),
        ("deal Plum,Rope,Kitchen", "the envelope and then each hand"),
        ("deal Rope,Plum,Kitchen / Hall", "a suspect, a weapon and a room, in that order"),
    ],
)
def test_bad_texts_are_refused_with_clear_messages(text: str, message: str) -> None:
    with pytest.raises(ActionParseError, match=message):
        parse_action(text)


# --- random games keep the invariants ---------------------------------------------------------


def check_invariants(state: CluedoState) -> None:
    players = state.game.players
    every = [*state.envelope, *state.face_up]
    for hand in state.hands:
        every += [c for c in range(21) if hand >> c & 1]
    assert sorted(every) == list(range(21))
    assert [bin(h).count("1") for h in state.hands] == list(state.game.hand_sizes)
    if state.is_terminal():
        return
    assert not state.eliminated[state.to_move]
    assert state.legal_actions() or state.current_player() == CHANCE
    if state.phase is Phase.REFUTE:
        assert state.suggestion is not None and state.refuter is not None
        held = [c for c in state.suggestion if state.hands[state.refuter] >> c & 1]
        assert state.legal_actions() == tuple(Show(c) for c in held) and held
        between = range(1, (state.refuter - state.to_move) % players)
        for step in between:
            seat = (state.to_move + step) % players
            assert not any(state.hands[seat] >> c & 1 for c in state.suggestion)
    for position in state.positions:
        assert isinstance(position, AtStart | InRoom | Transit)
        if isinstance(position, Transit):
            assert position.left >= 1 and position.walked >= 1


def check_event(event: Event, state: CluedoState, suggester: int) -> None:
    """Private parts go to the seats the rules allow, and are true."""
    if event.kind == "hand":
        seat = event.public["seat"]
        assert event.audience == {seat}
        assert event.private is not None
        assert sum(1 << c for c in event.private["cards"]) == state.hands[seat]
    elif event.kind == "refuted":
        refuter = event.public["seat"]
        assert event.audience == {suggester, refuter}
        assert event.private is not None
        assert state.hands[refuter] >> event.private["card"] & 1
    elif event.kind == "accused":
        assert event.audience == {event.public["seat"]}
    else:
        assert event.private is None


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 6),
    dice=st.sampled_from([1, 2]),
    leftover=st.sampled_from(["deal", "face_up"]),
    accuse_at=st.sampled_from(["anywhere", "in_named_room"]),
    retarget=st.booleans(),
)
def test_random_games_keep_the_invariants(
    seed: int, players: int, dice: int, leftover: str, accuse_at: str, retarget: bool
) -> None:
    options = {
        "players": players, "dice": dice, "leftover": leftover, "accuse_at": accuse_at,
        "allow_retarget": retarget, "max_turns": 80,
    }  # fmt: skip
    the_game = make_game("cluedo", options)
    assert isinstance(the_game, CluedoGame)
    state = the_game.new_initial_state()
    rng = random.Random(seed)
    state.apply(state.sample_chance(rng))
    while not state.is_terminal():
        check_invariants(state)
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = list(state.legal_actions())
            calm = [a for a in legal if not isinstance(a, Accuse)]
            action = rng.choice(legal if rng.random() < 0.01 or not calm else calm)
            assert parse_action(str(action)) == action
        suggester = state.to_move
        before = state.turn
        for event in state.apply(action):
            check_event(event, state, suggester)
        assert state.turn in (before, before + 1)
    check_invariants(state)
    assert state.termination() in the_game.terminations
    assert (state.termination() == "solved") == bool(state.winners())
    if state.termination() == "all_wrong":
        assert all(state.eliminated)
