"""The notepad's "This turn" line is the ``sleuth`` player's own decision (one function,
:func:`~sleuth.games.cluedo.advice.plan_turn`): the notepad and a player given the same
events and the same room worths do the same thing at the start of a turn (passage, stay or
roll), after a roll (where to head), in a room just entered (suggest) and when the case is
solved (accuse, or head for the room where the rules want it); bad input changes nothing."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Hashable
from math import exp
from typing import cast

import pytest
from rich.console import Console

from sleuth.core.errors import SleuthError
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.games.cluedo.actions import (
    END,
    PASSAGE,
    ROLL,
    STAY,
    Accuse,
    Action,
    Go,
    Show,
    Suggest,
)
from sleuth.games.cluedo.advice import (
    AccusationAdvice,
    AdviceError,
    Turn,
    TurnPhase,
    TurnPlan,
    accusation_advice,
    place_worth,
    plan_turn,
    rival_progress,
    rolling_worth,
)
from sleuth.games.cluedo.assistant import NotepadSession, entry_texts
from sleuth.games.cluedo.cards import ROOMS, SUSPECTS, WEAPONS, card_named
from sleuth.games.cluedo.movement import AtStart, InRoom, Transit, passage, reachable
from sleuth.games.cluedo.rules import ACCUSATIONS, CluedoGame
from sleuth.games.cluedo.sleuth_player import SleuthPlayer
from sleuth.games.cluedo.table import (
    accusation,
    accusation_now,
    divides,
    room_table,
    turn_line,
    turn_plan,
)
from tests.cli_helpers import flat

SETUP = ["players Ann, Bob, Cy, Dan", "me Ann", "hand plum knife hall lounge study"]
"""Four seats; Ann (me, seat 0, Miss Scarlet's token) holds five cards."""
KITCHEN, STUDY, LOUNGE = card_named("Kitchen"), card_named("Study"), card_named("Lounge")


def session(*texts: str, **options: str | int) -> NotepadSession:
    s = NotepadSession(CluedoGame(players=4, **options), SETUP)  # type: ignore[arg-type]
    for text in texts:
        s.enter(text)
    return s


def worths(s: NotepadSession, gains: dict[str, float] | None) -> None:
    """Draw the notepad's advice; with ``gains``, make these the rooms' worths (every other
    room: nothing)."""
    room_table(s.pad)
    if gains is not None:
        s.pad.cache["worth"] = {r: gains.get(s.pad.card_name(r), 0.0) for r in ROOMS}


def legal(s: NotepadSession) -> tuple[Hashable, ...]:
    """The actions the rules allow me now, as the engine would list them."""
    pad = s.pad
    turn = pad.turn()
    assert turn is not None
    accusations = ACCUSATIONS if pad.game.accuse_at == "anywhere" else tuple(
        a for a in ACCUSATIONS if turn.position == InRoom(a.room)
    )  # fmt: skip
    if turn.phase == "head":
        assert turn.roll is not None
        return tuple(Go(r) for r in reachable(turn.position, turn.roll))
    if turn.phase == "act":
        assert isinstance(turn.position, InRoom)
        here = turn.position.room
        suggestions = tuple(Suggest(x, w, here) for x in SUSPECTS for w in WEAPONS)
        return (*suggestions, *accusations, END)
    moves: list[Hashable] = [ROLL]
    if isinstance(turn.position, InRoom) and passage(turn.position.room) is not None:
        moves.append(PASSAGE)
    if turn.may_stay:
        moves.append(STAY)
    return (*moves, *accusations)


def player_action(s: NotepadSession) -> Hashable:
    """What a ``sleuth`` player in my seat does on the notepad's events, scoring the rooms as
    the notepad did (its samples and worths)."""
    pad = s.pad
    assert pad.me is not None
    player = SleuthPlayer(pad.game, pad.me, 1)
    view = View(pad.me, "player", {}, list(pad.events))
    player.observe(view)
    samples, worth = pad.cache["samples"], pad.cache["worth"]
    player._scored = (player.belief.posterior, samples, worth)  # type: ignore[assignment]
    return player.act(view, legal(s))


def carried_out(plan: TurnPlan | None) -> Hashable:
    """The action the plan names (the room's suggestion aside)."""
    assert plan is not None
    if plan.action == "go":
        assert plan.room is not None
        return Go(plan.room)
    return {"end": END, "passage": PASSAGE, "stay": STAY, "roll": ROLL}.get(plan.action, plan)


def agrees(s: NotepadSession, gains: dict[str, float] | None = None) -> TurnPlan:
    """The notepad's plan, checked against the player's action."""
    worths(s, gains)
    plan = turn_plan(s.pad)
    assert plan is not None
    action = player_action(s)
    if plan.action == "suggest":
        assert isinstance(action, Suggest) and action.room == plan.room
    elif plan.action == "accuse":
        assert isinstance(action, Accuse) and action.room == plan.room
    else:
        assert action == carried_out(plan)
    return plan


AFTER_MY_SUGGESTION = ["I am in the study", "I suggest green candlestick study", "Bob passes",
                       "Cy shows me candlestick"]  # fmt: skip
"""My turn ended in the Study, a corner room: the next one begins there."""


@pytest.mark.parametrize(
    ("gains", "expected"),
    [(None, None), ({"Kitchen": 1.0}, "passage"), ({"Library": 1.0}, "roll")],
)
def test_at_the_start_of_a_turn_it_is_the_players_move(
    gains: dict[str, float] | None, expected: str | None
) -> None:
    s = session(*AFTER_MY_SUGGESTION)
    assert s.pad.turn() == Turn(InRoom(STUDY), "move")
    plan = agrees(s, gains)
    assert set(plan.worth) == {"roll", "passage"}
    if expected is not None:
        assert plan.action == expected
    line = flat(turn_line(s.pad))
    if plan.action == "passage":
        kitchen = next(a for a in room_table(s.pad) if a.room == KITCHEN)
        cards = f"{s.pad.card_name(kitchen.suspect)}, {s.pad.card_name(kitchen.weapon)}"
        assert line.startswith(
            f"This turn: take the secret passage to the Kitchen and suggest {cards} there "
            f"(it {divides(kitchen.gain)}). What a turn divides the envelopes left by: passage "
            f"{exp(plan.worth['passage']):.2f}, roll {exp(plan.worth['roll']):.2f} on average."
        )
    else:
        assert line == (
            "This turn: roll, then enter 'I rolled N' for where to go. What a turn divides the "
            f"envelopes left by: roll {exp(plan.worth['roll']):.2f} on average, passage "
            f"{exp(plan.worth['passage']):.2f}."
        )


def test_the_worths_weighed_are_the_players_formulas() -> None:
    s = session(*AFTER_MY_SUGGESTION)
    worths(s, {"Kitchen": 0.6, "Lounge": 0.3})
    plan = turn_plan(s.pad)
    assert plan is not None
    worth = s.pad.cache["worth"]
    assert isinstance(worth, dict)
    assert plan.worth["passage"] == worth[KITCHEN] == 0.6  # the passage leads there: no travel
    assert plan.worth["roll"] == rolling_worth(InRoom(STUDY), worth, 1)
    assert 0 < plan.worth["roll"] < 0.6 and plan.action == "passage"


@pytest.mark.parametrize(("gains", "expected"), [({"Kitchen": 1.0}, "stay"), (None, None)])
def test_summoned_it_may_stay_and_suggest(
    gains: dict[str, float] | None, expected: str | None
) -> None:
    s = session("Bob suggests scarlet rope kitchen", "Cy shows")  # Miss Scarlet is my token
    assert s.pad.position == InRoom(KITCHEN) and s.pad.summoner == 1
    assert s.pad.turn() == Turn(InRoom(KITCHEN), "move", may_stay=True)
    plan = agrees(s, gains)
    assert set(plan.worth) == {"roll", "passage", "stay"}
    if expected is not None:
        assert plan.action == expected
    if plan.action == "stay":
        line = flat(turn_line(s.pad))
        assert line.startswith(
            "Your next turn (the last turn entered is Bob's): stay in the Kitchen (Bob summoned "
            "your token, Miss Scarlet) and suggest "
        )
        assert f"envelopes left by: stay {exp(plan.worth['stay']):.2f}, roll " in line
    # entering the token's place ends the summons
    s.enter("I am in the kitchen")
    assert s.pad.summoner is None and s.pad.turn() == Turn(InRoom(KITCHEN), "act", may_suggest=True)


@pytest.mark.parametrize(("roll", "gains"), [(4, None), (4, {"Hall": 1.0}), (2, {"Hall": 1.0})])
def test_after_the_roll_it_heads_where_the_player_goes(
    roll: int, gains: dict[str, float] | None
) -> None:
    s = session("I am in the lounge", "I suggest green rope lounge", "Bob shows me rope",
                f"I rolled {roll}")  # fmt: skip
    assert s.pad.turn() == Turn(InRoom(LOUNGE), "head", roll=roll)
    plan = agrees(s, gains)
    assert plan.action == "go" and plan.room is not None
    line = flat(turn_line(s.pad))
    name = s.pad.card_name(plan.room)
    if plan.reached == InRoom(plan.room):
        assert line.startswith(f"This turn: go to the {name} (your {roll} reaches it) and suggest ")
    else:
        assert isinstance(plan.reached, Transit)
        assert line.startswith(
            f"This turn: head for the {name} to suggest there: your {roll} leaves you "
            f"{plan.reached.left} squares short ("
        )
    assert plan.reached == reachable(InRoom(LOUNGE), roll)[plan.room]


def test_in_a_room_just_entered_it_suggests_here() -> None:
    s = session("I am in the kitchn")
    plan = agrees(s)
    assert plan == TurnPlan("suggest", KITCHEN)
    kitchen = next(a for a in room_table(s.pad) if a.room == KITCHEN)
    cards = f"{s.pad.card_name(kitchen.suspect)}, {s.pad.card_name(kitchen.weapon)}"
    assert turn_line(s.pad) == (
        f"This turn: suggest {cards} here in the Kitchen (it {divides(kitchen.gain)})."
    )
    # once I have suggested there, the Kitchen is a round trip away in the table too
    s.enter("I suggest green rope kitchen")
    s.enter("Bob shows me rope")
    assert s.pad.turn() == Turn(InRoom(KITCHEN), "move")
    again = next(a for a in room_table(s.pad) if a.room == KITCHEN)
    assert again.turns > 1
    assert agrees(s).action in ("roll", "passage")


SOLVED = ["I suggest green rope kitchen", "nobody"]
"""Nobody holds Mr. Green, the Rope or the Kitchen, and neither do I: the envelope's."""


def test_certain_it_accuses_at_once() -> None:
    s = session("I am in the kitchen", *SOLVED)
    plan = agrees(s)
    assert plan == TurnPlan("accuse", KITCHEN)
    assert turn_line(s.pad) == "This turn: accuse Mr. Green, Rope, Kitchen: it is certain."
    console = Console(file=io.StringIO(), width=140)
    console.print(s.render())
    out = flat(console.file.getvalue())  # type: ignore[attr-defined]
    assert "This turn: accuse Mr. Green, Rope, Kitchen" in out
    assert "Accuse now: Mr. Green, Rope, Kitchen is certain." in out


def test_where_the_rules_want_the_accusation_in_its_room_it_heads_there() -> None:
    summoned = ["Bob suggests scarlet knife study", "Cy passes", "Dan passes", "I show knife"]
    s = session("I am in the kitchen", *SOLVED, *summoned, accuse_at="in_named_room")
    assert s.pad.turn() == Turn(InRoom(STUDY), "move", may_stay=True)
    plan = agrees(s)  # the Study's passage leads to the Kitchen
    assert plan.action == "passage" and plan.room == KITCHEN and plan.accuse_in == KITCHEN
    assert plan.worth == {"roll": plan.worth["roll"], "passage": 1.0, "stay": 0.5}
    assert flat(turn_line(s.pad)).startswith(
        "Your next turn (the last turn entered is Bob's): take the secret passage to the Kitchen "
        "and accuse there. What a turn divides the envelopes left by: passage 2.72, roll "
    )
    s.enter("I am in the kitchen")
    assert agrees(s) == TurnPlan("accuse", KITCHEN)
    ballroom = session("I am in the kitchen", *SOLVED, "I am in the ballroom",
                       accuse_at="in_named_room")  # fmt: skip
    plan = agrees(ballroom)  # just entered the Ballroom: no suggestion, the Kitchen next
    assert plan == TurnPlan("end", accuse_in=KITCHEN)
    assert turn_line(ballroom.pad) == (
        "This turn: make no suggestion and head for the Kitchen next turn: the accusation is "
        "made there."
    )
    # the passage out of the Study to the Kitchen is the quickest way to the Ballroom
    far = session("I suggest green rope ballroom", "nobody", *summoned, accuse_at="in_named_room")
    plan = agrees(far)
    assert plan.action == "passage" and plan.room == KITCHEN
    assert plan.accuse_in == card_named("Ballroom")
    assert flat(turn_line(far.pad)).startswith(
        "Your next turn (the last turn entered is Bob's): take the secret passage to the Kitchen "
        "and head on for the Ballroom to accuse there. What a turn divides the envelopes left "
        "by: passage "
    )


GREEN_ROPE_KITCHEN = "accuse Mr. Green, Rope, Kitchen: it is certain"


@pytest.mark.parametrize(
    ("entries", "dice", "roll", "anywhere", "in_named_room"),
    [
        (
            ["I am in the ballroom"],
            2,
            7,
            "move anywhere with your 7 (the Kitchen, say), then ",
            "go to the Kitchen (your 7 reaches it) and accuse there.",
        ),
        (
            [],
            1,
            4,
            "move anywhere with your 4 (towards the Ballroom, say), then ",
            "head for the Ballroom, then on to the Kitchen, to accuse there: your 4 leaves you 3 "
            "squares short of the Ballroom (3.9 more turns expected to the Kitchen).",
        ),
        (
            ["I am in the library"],
            1,
            6,
            "move anywhere with your 6 (towards the Study, say), then ",
            "head for the Study, then on to the Kitchen, to accuse there: your 6 leaves you 1 "
            "square short of the Study (2.0 more turns expected to the Kitchen).",
        ),
    ],
)
def test_after_a_roll_the_line_says_where_the_accusation_may_be_made(
    entries: list[str], dice: int, roll: int, anywhere: str, in_named_room: str
) -> None:
    """Certain after my roll, I must move before accusing: with accuse_at=anywhere the
    accusation follows wherever the move ends (the plan still heads for its room: the same
    move under both settings); with in_named_room it waits for the Kitchen."""
    texts = ["I am in the kitchen", *SOLVED, *entries, f"I rolled {roll}"]
    free = session(*texts, dice=dice)
    named = session(*texts, dice=dice, accuse_at="in_named_room")
    plan, waiting = agrees(free), agrees(named)
    assert plan.action == waiting.action == "go"
    assert (plan.room, plan.reached, plan.worth) == (waiting.room, waiting.reached, waiting.worth)
    assert plan.then_accuse and plan.accuse_in is None
    assert not waiting.then_accuse and waiting.accuse_in == KITCHEN
    assert turn_line(free.pad) == (
        f"This turn: {anywhere}{GREEN_ROPE_KITCHEN}; an accusation may be made from any place."
    )
    assert turn_line(named.pad) == f"This turn: {in_named_room}"
    named.enter("I am in the kitchen" if plan.reached == InRoom(KITCHEN) else "I am in the study")
    free.enter("I am in the study")  # wherever the move ends, the accusation is made there
    assert turn_line(free.pad) == f"This turn: {GREEN_ROPE_KITCHEN}."
    if plan.reached == InRoom(KITCHEN):
        assert turn_line(named.pad) == f"This turn: {GREEN_ROPE_KITCHEN}."
    else:
        assert turn_line(named.pad).startswith("This turn: make no suggestion and head for the")


def test_the_notepads_rivals_are_the_players() -> None:
    s = session("Bob suggests white rope library", "Cy passes", "Dan passes", "I pass",
                "Cy suggests peacock wrench hall", "Dan shows")  # fmt: skip
    pad = s.pad
    assert pad.me is not None
    player = SleuthPlayer(pad.game, pad.me, 1)
    player.observe(View(pad.me, "player", {}, list(pad.events)))
    # Bob ruled out three of the 13 cards he did not know, Cy was shown one of her 14
    assert rival_progress(pad.events, pad.me) == player.rivals() == 3 / 13


def test_without_my_tokens_place_it_asks_for_it() -> None:
    """(During Bob's turn the line is for my next turn, and says so; my own entry makes it
    this turn's.)"""
    s = session("Bob suggests plum rope library", "Cy shows")
    assert s.pad.turn() is None and turn_plan(s.pad) is None
    assert turn_line(s.pad).startswith(
        "Your next turn (the last turn entered is Bob's): say where your token is ('I am in Hall'"
    )
    s.enter("I am at start")
    assert turn_line(s.pad).startswith("This turn: roll")
    assert s.pad.turn() == Turn(AtStart(SUSPECTS[0]), "move")
    plan = agrees(s)
    assert plan.action == "roll" and set(plan.worth) == {"roll"}


def test_a_refused_entry_leaves_the_line_as_it_was() -> None:
    s = session("I am in the lounge", "I rolled 4")
    before = turn_line(s.pad)
    for bad in ("I rolled 9", "Bob rolled 3", "I am in the garden"):
        with pytest.raises(SleuthError):
            s.enter(bad)
        assert turn_line(s.pad) == before and s.pad.turn() == Turn(InRoom(LOUNGE), "head", roll=4)


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda: Turn(InRoom(KITCHEN), "head"), "a roll is given when heading"),
        (lambda: Turn(InRoom(KITCHEN), "move", roll=3), "a roll is given when heading"),
        (lambda: Turn(AtStart(0), "move", may_stay=True), "staying is a choice"),
        (lambda: Turn(InRoom(KITCHEN), "move", may_suggest=True), "a suggestion is made"),
        (lambda: Turn(InRoom(KITCHEN), "fly"), "phase 'fly'"),  # type: ignore[arg-type]
        (lambda: Turn(InRoom(KITCHEN), "head", roll=0), "a roll of 0: a roll is at least 1"),
        (lambda: Turn(AtStart(0), "head", roll=-2), "a roll of -2"),
        (
            lambda: plan_turn(Turn(InRoom(KITCHEN)), dict, dice=1, accuse_at="nowhere"),
            "accuse_at='nowhere'",
        ),
        (
            lambda: plan_turn(Turn(InRoom(KITCHEN), "head", roll=7), dict, dice=1),
            r"a roll of 7 is impossible with one die \(1 to 6\)",
        ),
        (
            lambda: plan_turn(Turn(AtStart(0), "head", roll=1), dict, dice=2),
            r"a roll of 1 is impossible with two dice \(2 to 12\)",
        ),
        (
            lambda: plan_turn(Turn(AtStart(0), "head", roll=13), dict, dice=2),
            r"a roll of 13 is impossible with two dice",
        ),
        (lambda: plan_turn(Turn(InRoom(KITCHEN)), dict, dice=3), "3 dice: the game is played"),
        (
            lambda: plan_turn(Turn(InRoom(KITCHEN)), lambda: {KITCHEN: 1.0}, dice=1),
            r"the rooms' worth names cards \[15\], not the nine rooms",
        ),
    ],
)
def test_bad_turns_are_named(make: object, words: str) -> None:
    assert callable(make)
    with pytest.raises(AdviceError, match=words):
        make()


def test_ties_go_to_the_passage_then_the_roll_and_the_first_room() -> None:
    flat_worth = dict.fromkeys(ROOMS, 0.0)
    assert plan_turn(Turn(InRoom(STUDY), "move", may_stay=True), lambda: flat_worth,
                     dice=1).action == "passage"  # fmt: skip
    assert plan_turn(Turn(InRoom(card_named("Hall")), "move", may_stay=True), lambda: flat_worth,
                     dice=1).action == "roll"  # fmt: skip
    head = plan_turn(Turn(InRoom(STUDY), "head", roll=6), lambda: flat_worth, dice=1)
    assert head.room == min(reachable(InRoom(STUDY), 6))
    assert (
        head.worth
        == {"go": place_worth(head.reached or InRoom(STUDY), flat_worth, 1)}
        == {"go": 0.0}
    )


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 8)])
def test_along_engine_games_the_notepad_plans_what_the_player_plays(
    players: int, seed: int
) -> None:
    """Seat 0 is a ``sleuth`` player; its view is entered into a notepad as it happens.  At
    each of its moves from a room (where the notepad knows the token's place), the notepad's
    turn is the engine's (phase, roll, may stay, may suggest) and its plan, on the player's
    own room worths and accusation advice, is the action the player took; after its
    suggestion, when the player ends the turn, the notepad already plans the next one."""
    game = CluedoGame(players=players, max_turns=45)
    player = SleuthPlayer(game, 0, seed, samples=200, rescore=1)
    s = NotepadSession(game)
    rng = random.Random(seed)
    state = game.new_initial_state()
    events: list[Event] = []
    entered = 0
    checked = {"move": 0, "head": 0, "act": 0, "end": 0}
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            action: Action = state.sample_chance(rng)
        elif seat != 0:
            action = rng.choice([a for a in state.legal_actions() if not isinstance(a, Accuse)])
        else:
            legal = state.legal_actions()
            for _, text in entry_texts(game, 0, events[entered:], s):
                s.enter(text)
            entered = len(events)
            view = View(0, "player", {}, list(events))
            action = cast(Action, player.act(view, legal))
            here, turn = state.position(0), s.pad.turn()
            phase: TurnPhase = (
                "head" if isinstance(legal[0], Go) else "move" if ROLL in legal else "act"
            )
            suggest = any(isinstance(a, Suggest) for a in legal)
            if isinstance(legal[0], Show) or isinstance(here, Transit) or turn is None:
                pass  # a refutation, or a place the notepad's entries cannot say
            elif phase == "act" and not suggest:  # the turn's end: the notepad plans the next
                assert turn.phase == "move"
                plan = plan_turn(
                    turn, player._worth, dice=game.dice, accusation=player.accusation()
                )
                assert (plan.action == "accuse") == isinstance(action, Accuse) != (action == END)
                checked["end"] += 1
            else:
                assert turn == Turn(
                    here,
                    phase,
                    roll=state.roll if phase == "head" else None,
                    may_stay=STAY in legal,
                    may_suggest=suggest,
                )
                plan = plan_turn(
                    turn, player._worth, dice=game.dice, accusation=player.accusation()
                )
                if plan.action == "suggest":
                    assert isinstance(action, Suggest) and action.room == plan.room
                elif plan.action == "accuse":
                    assert isinstance(action, Accuse)
                else:
                    assert action == carried_out(plan)
                checked[phase] += 1
        events += [e.seen_by(0) for e in state.apply(action)]
    assert min(checked.values()) >= 2, checked


def test_the_web_notepad_shows_the_line_and_outlines_its_room() -> None:
    pytest.importorskip("fastapi")  # the web extra
    from sleuth.games.cluedo.notepad_picture import notepad as cluedo
    from sleuth.web.assist import rendered_html

    s = session(*AFTER_MY_SUGGESTION)
    worths(s, {"Kitchen": 1.0})
    assert "This turn: take the secret passage to the Kitchen and suggest " in flat(
        re.sub(r"<[^>]+>", "", rendered_html(s))
    )
    outlined = re.findall(r'<rect[^>]*data-plan="this-turn"[^>]*>', cluedo(s))
    assert len(outlined) == 1 and 'data-room="Kitchen"' in outlined[0]
    rolling = session(*AFTER_MY_SUGGESTION)
    worths(rolling, {"Library": 1.0})  # a roll goes to no room yet: nothing outlined
    assert "This turn: roll, then enter" in flat(re.sub(r"<[^>]+>", "", rendered_html(rolling)))
    assert "data-plan" not in cluedo(rolling)


def test_a_rival_close_to_solving_it_hurries_both_lines_alike() -> None:
    """The accusation line and the turn line read one accusation advice: when the rivals'
    progress lowers the bar below certainty, both say to accuse, and why."""
    s = session("I am in the study", "Bob suggests white rope library", "nobody")
    pad = s.pad
    assert pad.me is not None
    progress = rival_progress(pad.events, pad.me)
    assert progress == 3 / 13
    advice = accusation_now(pad)
    assert advice == accusation_advice(pad.posterior, rivals=progress) and not advice.accuse
    hurried = AccusationAdvice(advice.suspect, advice.weapon, advice.room, 0.85, True, "rush")
    pad.cache["accusation"] = hurried  # as if the rivals' progress had lowered the bar to 85%
    cards = pad.cards_text([advice.suspect, advice.weapon, advice.room])
    assert turn_line(pad) == (
        f"Your next turn (the last turn entered is Bob's): accuse {cards}: 85% likely, and a "
        "rival is close to solving it."
    )
    assert str(accusation(pad)) == (
        f"Accuse now: the likeliest envelope, {cards}, has 85.0% (a 15% risk of elimination): "
        "a rival is close to solving it."
    )
