"""The ``sleuth`` Cluedo player: legal, unforfeited play in whole games of 3-6 players, the
right accusation once certain (heading for the room when the rules want it made there), its
moves and suggestions by gain per turn, and its choice of card to show."""

from __future__ import annotations

from random import Random

import pytest

from sleuth.core.events import Event, View
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.games.cluedo.actions import END, PASSAGE, ROLL, STAY, Accuse, Go, Show, Suggest
from sleuth.games.cluedo.advice import AdviceError, best_suggestion
from sleuth.games.cluedo.bots import BOTS
from sleuth.games.cluedo.cards import NAMES, ROOMS
from sleuth.games.cluedo.rules import ACCUSATIONS, CluedoGame
from sleuth.games.cluedo.sleuth_player import SleuthPlayer

CARD = {name: card for card, name in enumerate(NAMES)}
MY_HAND = ("Scarlet", "Mustard", "Knife", "Candlestick", "Hall", "Lounge")


def c(*names: str) -> tuple[int, ...]:
    return tuple(CARD[n] for n in names)


def game(players: int = 3, **options: str) -> CluedoGame:
    made = make_game("cluedo", {"players": players, **options})
    assert isinstance(made, CluedoGame)
    return made


def setup(sizes: tuple[int, ...] = (6, 6, 6)) -> list[Event]:
    n = len(sizes)
    events = [Event("setup", {"players": n, "dealer": n - 1, "hand_sizes": sizes, "face_up": ()})]
    events.append(Event("hand", {"seat": 0}, {"cards": c(*MY_HAND)}, frozenset({0})))
    return events + [Event("hand", {"seat": s}) for s in range(1, n)]


def suggested(seat: int, *names: str) -> Event:
    s, w, r = c(*names)
    return Event("suggested", {"seat": seat, "suspect": s, "weapon": w, "room": r})


def refuted(seat: int, card: str, suggester: int) -> Event:
    return Event("refuted", {"seat": seat}, {"card": CARD[card]}, frozenset({seat, suggester}))


def view(events: list[Event]) -> View:
    return View(0, "player", {}, events)


SOLVED = [
    *setup(),
    suggested(0, "Plum", "Rope", "Kitchen"),
    Event("passed", {"seat": 1}),
    Event("passed", {"seat": 2}),
    Event("unrefuted", {}),
]
"""Seat 0 knows the envelope: Plum, Rope, Kitchen (nobody could refute them)."""
PLUM_ROPE_KITCHEN = Accuse(*c("Plum", "Rope", "Kitchen"))


def test_it_is_registered_with_its_options_and_budget() -> None:
    spec = next(b for b in BOTS if b.name == "sleuth")
    assert spec.budget() == 10.0
    configured = game_spec("cluedo").bot("sleuth:samples=200:threshold=0.9")
    assert configured.name == "sleuth:samples=200:threshold=0.9"
    assert SleuthPlayer(game(), 0, 1, threshold=0.5).rush == 0.5  # at most the threshold


def test_rivals_progress_counts_what_their_suggestions_taught_them() -> None:
    events = [
        *setup(),
        suggested(1, "White", "Rope", "Kitchen"),
        Event("passed", {"seat": 2}),
        Event("passed", {"seat": 0}),
        Event("unrefuted", {}),  # seat 1 rules out three of the 12 cards it did not know
        suggested(2, "Scarlet", "Rope", "Kitchen"),
        refuted(0, "Scarlet", 2),  # seat 2 is shown one
    ]
    player = SleuthPlayer(game(), 0, 1)
    player.observe(view(events[:3]))
    assert player.rivals() == 0
    player.observe(view(events))
    assert player.rivals() == 3 / 12
    wrong = Event("accused", {"seat": 1, "suspect": 2, "weapon": 9, "room": 15, "correct": False})
    player.observe(view([*events, wrong]))
    assert player.rivals() == 1 / 12  # seat 1 is out of the race


def test_certain_it_accuses_at_once() -> None:
    player = SleuthPlayer(game(), 0, 1)
    assert player.act(view(SOLVED), (ROLL, PASSAGE, *ACCUSATIONS)) == PLUM_ROPE_KITCHEN


def test_certain_it_heads_for_the_room_named_where_the_rules_want_it() -> None:
    moved = Event("moved", {"seat": 0, "roll": None, "position": "Study"})
    player = SleuthPlayer(game(accuse_at="in_named_room"), 0, 1)
    assert player.act(view([*SOLVED, moved]), (ROLL, PASSAGE)) == PASSAGE  # Study -> Kitchen
    rolled = Event("rolled", {"seat": 0, "roll": 6})  # one die, the classic edition's
    library = Event("moved", {"seat": 0, "roll": None, "position": "Library"})
    goes = tuple(Go(r) for r in ROOMS if r != CARD["Library"])
    choice = player.act(view([*SOLVED, moved, library, rolled]), goes)
    # from the Library a 6 reaches the Billiard Room (then the Ballroom and the Kitchen:
    # E(6) + E(7) = 4.683 throws), or stops 1 short of the Hall (then the Study and its
    # passage: E(1) + E(4) + 1 = 3.588), or 1 short of the Study (then its passage: 1 + 1)
    assert choice == Go(CARD["Study"])


def test_a_roll_the_dice_cannot_show_is_refused_by_name() -> None:
    lounge = Event("moved", {"seat": 0, "roll": 4, "position": "Lounge"})
    goes = tuple(Go(r) for r in ROOMS if r != CARD["Lounge"])
    for dice, roll, words in [("1", 7, "one die"), ("2", 1, "two dice"), ("2", 13, "two dice")]:
        player = SleuthPlayer(game(dice=dice), 0, 1)
        rolled = Event("rolled", {"seat": 0, "roll": roll})
        with pytest.raises(AdviceError, match=f"a roll of {roll} is impossible with {words}"):
            player.act(view([*setup(), lounge, rolled]), goes)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_whole_games_are_legal_unforfeited_and_its_accusations_right(players: int) -> None:
    spec = game_spec("cluedo")
    bots = [spec.bot("sleuth:samples=400"), *[spec.bot("logic")] * (players - 1)]
    seat = players - 2
    bots[0], bots[seat] = bots[seat], bots[0]
    made = game(players, max_turns="100")
    record = run_match(made, bots, seed=players)  # the runner's time limits
    assert not record.forfeits
    accusations = [e for step in record.steps for e in step.events if e.kind == "accused"]
    mine = [e for e in accusations if e.public["seat"] == seat]
    assert all(e.public["correct"] for e in mine)  # it accuses only when certain by default
    assert record.final_state is not None and record.final_state.is_terminal()


def test_seats_of_sleuth_only_play_a_game_to_its_end() -> None:
    spec = game_spec("cluedo")
    record = run_match(game(3), [spec.bot("sleuth:samples=300")] * 3, seed=11)
    assert not record.forfeits and record.result is not None
    assert record.final_state is not None and record.final_state.termination() == "solved"


def test_in_a_room_it_makes_the_best_suggestion_and_ends_after() -> None:
    player = SleuthPlayer(game(), 0, 1)
    events = [*setup(), Event("moved", {"seat": 0, "roll": 9, "position": "Kitchen"})]
    kitchen = CARD["Kitchen"]
    suggestions = tuple(Suggest(s, w, kitchen) for s in range(6) for w in range(6, 12))
    choice = player.act(view(events), (*suggestions, *ACCUSATIONS, END))
    assert isinstance(choice, Suggest) and choice.room == kitchen
    samples = player._scores()[0]
    best = best_suggestion(player.belief.posterior, 0, 3, kitchen, Random(0), samples=samples)
    assert (choice.suspect, choice.weapon) == (best.suspect, best.weapon)
    # early on, its own suspect and weapon with the room is the most informative question:
    # the answer places the Kitchen for certain (in the envelope when nobody refutes)
    assert choice.suspect in c("Scarlet", "Mustard") and choice.weapon in c("Knife", "Candlestick")
    assert player.act(view(events), (*ACCUSATIONS, END)) == END


def scored(player: SleuthPlayer, gains: dict[str, float]) -> None:
    """Make the player's room scores these gains (every other room: nothing)."""
    samples = player._scores()[0]
    worth = {r: gains.get(NAMES[r], 0.0) for r in ROOMS}
    player._scored = (player.belief.posterior, samples, worth)


@pytest.mark.parametrize(
    ("room", "expected"), [("Study", PASSAGE), ("Kitchen", STAY), ("Ballroom", ROLL)]
)
def test_it_moves_for_the_most_gain_per_turn(room: str, expected: object) -> None:
    player = SleuthPlayer(game(), 0, 1)
    summoned = [
        *setup(),
        suggested(1, "Scarlet", "Rope", "Kitchen"),
        Event("passed", {"seat": 2}),
        refuted(0, "Scarlet", 1),
    ]
    player.observe(view(summoned))
    scored(player, {room: 1.0})
    assert player.act(view(summoned), (ROLL, PASSAGE, STAY, *ACCUSATIONS)) == expected


def test_after_the_roll_it_heads_for_the_best_place() -> None:
    player = SleuthPlayer(game(), 0, 1)
    events = [*setup(), Event("moved", {"seat": 0, "roll": 8, "position": "Lounge"})]
    player.observe(view(events))
    scored(player, {"Dining Room": 1.0, "Hall": 0.9})
    rolled = [*events, Event("rolled", {"seat": 0, "roll": 4})]
    goes = tuple(Go(r) for r in ROOMS if r != CARD["Lounge"])
    assert player.act(view(rolled), goes) == Go(CARD["Dining Room"])  # 4 away: in reach
    scored(player, {"Dining Room": 0.3, "Hall": 1.0})
    # 4 squares short of the Hall: 1 / (1 + E(4)) = 1 / 2.59 per turn, more than 0.3
    assert player.act(view(rolled), goes) == Go(CARD["Hall"])


def test_refutation_reshows_a_card_this_suggester_saw() -> None:
    events = [
        *setup(),
        suggested(1, "Plum", "Knife", "Hall"),
        Event("passed", {"seat": 2}),
        refuted(0, "Hall", 1),
        suggested(2, "Plum", "Candlestick", "Lounge"),
        refuted(0, "Candlestick", 2),
    ]
    knife, hall, candlestick, lounge = c("Knife", "Hall", "Candlestick", "Lounge")

    def shows(suggester: int, asked: tuple[str, str, str], *cards: int) -> Show:
        between = [Event("passed", {"seat": 2})] if suggester == 1 else []
        action = SleuthPlayer(game(), 0, 1).act(
            view([*events, suggested(suggester, *asked), *between]), tuple(Show(x) for x in cards)
        )
        assert isinstance(action, Show)
        return action

    assert shows(1, ("Plum", "Knife", "Hall"), knife, hall) == Show(hall)  # seen by seat 1
    assert shows(1, ("Plum", "Candlestick", "Lounge"), candlestick, lounge) == Show(candlestick)
    assert shows(2, ("Plum", "Knife", "Lounge"), knife, lounge) in (Show(knife), Show(lounge))
