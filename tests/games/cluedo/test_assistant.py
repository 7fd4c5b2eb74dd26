"""``sleuth assist cluedo``: the notepad fed every seat's view of random engine games (its
deduction equals the engine view's belief), typo-tolerant names, refused entries leaving the
session unchanged, contradictions naming their entries, the advice shown, ``why``, undo, edit,
delete, insert, save and load through the shared loop, and a scripted game to its right
accusation."""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from sleuth.assist.repl import _edit
from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.core.game import CHANCE
from sleuth.core.viewlog import read_view_log
from sleuth.games.cluedo.actions import Accuse
from sleuth.games.cluedo.advice import card_to_show, outcome_probabilities
from sleuth.games.cluedo.assistant import NotepadSession, replay_view, setup_texts
from sleuth.games.cluedo.cards import NAMES, card_named
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.fuzzy import Ambiguous, Unknown
from sleuth.games.cluedo.movement import InRoom, reachable
from sleuth.games.cluedo.notepad import CARD_NAMES, Notepad
from sleuth.games.cluedo.proofs import proof
from sleuth.games.cluedo.rules import CluedoGame, CluedoState
from sleuth.games.cluedo.sat import from_events
from tests.cli_helpers import check_error, entry, flat

SETUP = ["players Ann, Bob, Cy, Dan", "me Ann", "hand plum knife hall lounge study"]
"""Four seats; Ann (me, seat 0) holds five cards (Dan deals: Ann and Bob get the extras)."""


def session(*texts: str) -> NotepadSession:
    s = NotepadSession(CluedoGame(players=4), SETUP)
    for text in texts:
        s.enter(text)
    return s


def shown(s: NotepadSession) -> str:
    console = Console(file=io.StringIO(), width=140)
    console.print(s.render())
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def random_game(players: int, seed: int, **options: object) -> tuple[CluedoGame, list[Event],
                                                                      CluedoState]:  # fmt: skip
    """A random engine game (random moves and suggestions, accusations now and then)."""
    game = CluedoGame(players=players, **options)  # type: ignore[arg-type]
    rng = random.Random(seed)
    state = game.new_initial_state()
    events: list[Event] = []
    action = state.sample_chance(rng)
    while True:
        events += state.apply(action)
        if state.is_terminal() or len(events) > 250:
            return game, events, state
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
            continue
        legal = list(state.legal_actions())
        calm = [a for a in legal if not isinstance(a, Accuse)]
        action = rng.choice(legal if not calm or rng.random() < 0.02 else calm)


# --- the notepad's deduction is the engine view's --------------------------------------------


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [(3, 1, {}), (4, 2, {}), (5, 3, {"dealer": 1}), (6, 4, {}), (4, 5, {"leftover": "face_up"})],
)
def test_random_games_replay_to_the_engine_views_deduction(
    players: int, seed: int, options: dict[str, object]
) -> None:
    game, events, state = random_game(players, seed, **options)
    seat = seed % players
    view = [e.seen_by(seat) for e in events]
    belief = CluedoBelief(seat)
    for event in view:
        belief.update(event)
    s = replay_view(game, seat, view)
    pad = s.pad
    assert pad.posterior.deals == belief.posterior.deals
    assert (pad.posterior.matrix() == belief.posterior.matrix()).all()
    assert pad.belief is not None and pad.belief.admits(state)
    assert pad.over == state.is_terminal()
    # every entry is in the form the notepad writes: entering the history again rebuilds it
    again = NotepadSession(game, s.history())
    assert again.pad.events == pad.events and again.history() == s.history()
    assert "Notepad" in shown(s)


# --- names -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("plum", "Plum"),
        ("Prof. Plum", "Plum"),
        ("col mustard", "Mustard"),
        ("dagger", "Knife"),
        ("spanner", "Wrench"),
        ("pea", "Peacock"),
        ("pipe", "Lead Pipe"),
        ("billi", "Billiard Room"),
        ("libary", "Library"),
        ("candlestik", "Candlestick"),
        ("kitchn", "Kitchen"),
        ("ball room", "Ballroom"),
    ],
)
def test_card_names_forgive_aliases_prefixes_and_typos(text: str, card: str) -> None:
    assert CARD_NAMES["classic"].one(text) == card_named(card)


def test_ambiguous_and_unknown_names_list_the_candidates() -> None:
    with pytest.raises(Ambiguous) as p:
        CARD_NAMES["classic"].one("p")
    assert str(p.value) == (
        "'p' could be Mrs. Peacock, Professor Plum, Revolver or Lead Pipe: type more of the name"
    )  # the Revolver is also the Pistol
    with pytest.raises(Ambiguous) as b:
        CARD_NAMES["classic"].one("b")
    assert "Ballroom" in str(b.value) and "Billiard Room" in str(b.value)
    with pytest.raises(Unknown, match="no card is called 'zebra'"):
        CARD_NAMES["classic"].one("zebra")
    s = session()
    # in a suggestion the other cards settle an ambiguous piece by its category
    assert s.enter("Bob suggests green l kitchen") == "Bob suggests Mr. Green, Lead Pipe, Kitchen"
    s.enter("nobody")
    with pytest.raises(Ambiguous, match=r"'l' could be Lounge or Library"):
        s.enter("Bob suggests plum knife l")
    # players: case, prefixes and typos too
    assert s.enter("bobb suggests scarlett, the rope, in the dining room").startswith(
        "Bob suggests Miss Scarlet, Rope, Dining Room"
    )
    assert s.enter("c passes") == "Cy passes"
    with pytest.raises(SleuthError, match="no player is called 'xavier'"):
        s.enter("xavier passes")


# --- entries the notepad refuses -------------------------------------------------------------


BAD = [
    ("Bob suggests plum knife", "name a suspect, a weapon and a room"),
    ("Bob suggests", r"^name a suspect, a weapon and a room, e\.g\. 'Plum Knife Hall'$"),
    ("Bob suggests plum knife rope", "name one suspect, one weapon and one room"),
    ("Bob suggests plum knife zzz", "no card is called 'zzz'"),
    ("Cy passes", "no suggestion waits for an answer"),
    ("Bob hums", "no verb found"),
    ("Bob accuses plum knife hall", "say how it ended"),
    ("hand rope wrench", "the setup was complete at entry 3"),
    ("Bob is in Hall", "only your own token's place"),
]
"""(entry, part of the message) right after the setup."""
BAD_DURING = [
    ("Bob passes", "Bob made the suggestion: Cy answers next"),
    ("Dan shows me Rope", "Bob made the suggestion"),
    ("Dan shows Rope", "only Bob sees the card Dan shows"),
    ("Ann passes", "you hold Professor Plum, so you answer"),
    ("nobody", "you hold Professor Plum"),
    ("Bob suggests green rope hall", "Bob's suggestion waits for its answers"),
    ("I show rope", "you do not hold Rope"),
    ("I show knife", "Knife was not suggested"),
]
"""... while Bob's suggestion of Plum, Rope, Library waits for answers (I hold Plum)."""


def test_bad_entries_change_nothing() -> None:
    s = session()
    for text, message in BAD:
        before = (s.history(), s.pad)
        with pytest.raises(SleuthError, match=message):
            s.enter(text)
        assert (s.history(), s.pad) == before, text
    s.enter("Bob suggests plum rope library")
    for text, message in BAD_DURING:
        before = (s.history(), s.pad, list(s.pad.events))
        with pytest.raises(SleuthError, match=message):
            s.enter(text)
        assert (s.history(), s.pad, list(s.pad.events)) == before, text
    # the answers go clockwise, and an answer implies the passes before it
    assert s.enter("Dan passes") == "Dan passes"
    assert [e.kind for e in s.pad.events[-2:]] == ["passed", "passed"]  # Cy, then Dan
    with pytest.raises(SleuthError, match="Cy answered already: Ann answers next"):
        s.enter("Cy shows")
    assert s.enter("I show plum") == "I show Professor Plum to Bob"
    assert s.pad.shown == {1: frozenset({card_named("Plum")})}


def test_a_new_entry_while_my_suggestion_waits_says_it_is_mine() -> None:
    """The refusal speaks of "your suggestion", not "I's suggestion"."""
    s = session("I suggest green rope kitchen")
    for text in ("Bob suggests plum knife hall", "Bob accuses plum knife hall wrong"):
        with pytest.raises(SleuthError) as bad:
            s.enter(text)
        assert str(bad.value) == (
            "your suggestion waits for its answers: 'Bob shows', 'Bob passes' or 'nobody'"
        )


def test_after_my_wrong_accusation_the_refusals_speak_to_me() -> None:
    s = session("I accuse green rope kitchen wrong, envelope white wrench kitchen")
    with pytest.raises(SleuthError) as bad:
        s.enter("I suggest plum knife hall")
    assert str(bad.value) == "you accused wrongly and take no more turns"  # not "Ann ... takes"
    with pytest.raises(SleuthError) as bad:
        s.enter("I accuse plum knife hall wrong")
    assert str(bad.value) == "you accused wrongly already"
    s.enter("Bob accuses plum knife hall wrong")
    with pytest.raises(SleuthError, match=r"^Bob accused wrongly and takes no more turns$"):
        s.enter("Bob suggests plum knife hall")


def test_my_suggestion_needs_the_card_i_saw() -> None:
    s = session("I suggest green rope kitchen")
    with pytest.raises(SleuthError, match="which card did Bob show you"):
        s.enter("Bob shows")
    assert s.enter("bob shows me the rope") == "Bob shows me Rope"
    assert s.pad.posterior.owners(card_named("Rope")) == {1: 1.0}


def test_contradictions_name_the_entries_behind_them() -> None:
    s = session(
        "I suggest green rope kitchen", "Bob shows me Rope", "Dan suggests white rope kitchen"
    )
    history, pad = s.history(), s.pad
    with pytest.raises(SleuthError) as bad:
        s.enter("Bob passes")  # I pass first (I hold none of them); Bob holds the Rope
    assert str(bad.value) == (
        "impossible: no deal fits this entry together with entry 5 (Bob shows me Rope)"
    )
    assert (s.history(), s.pad) == (history, pad)
    # Cy showed a card none of the three of which may be Cy's: my hand and Bob's answers
    s = session("Bob suggests plum rope kitchen", "Cy shows", "I suggest white knife hall")
    s.enter("Bob passes")
    with pytest.raises(SleuthError) as bad:
        s.enter("Cy shows me plum")
    assert "Professor Plum was not suggested" in str(bad.value)
    s.enter("Cy passes")
    s.enter("Dan passes")  # White is the envelope's, the Knife and the Hall mine
    s.enter("Dan suggests white knife library")
    with pytest.raises(SleuthError) as bad:
        s.enter("nobody")
    assert str(bad.value) == "you hold Knife, so you answer: 'I show Knife'"


# --- what the notepad shows -------------------------------------------------------------------


def test_the_setup_asks_for_what_is_missing() -> None:
    s = NotepadSession(CluedoGame())
    assert "Name the seats clockwise" in shown(s)
    assert s.enter("Ann, Bob, Cy") == "players Ann, Bob, Cy"
    assert "Which seat is yours? 'me NAME' (Ann, Bob, Cy)" in shown(s)
    with pytest.raises(SleuthError, match="which seat is yours"):
        s.enter("Bob suggests plum knife hall")
    assert s.enter("cy") == "me Cy"
    assert "Which 6 cards are in your hand" in shown(s)
    with pytest.raises(SleuthError, match="3 cards named: your hand holds 6"):
        s.enter("plum knife hall")
    assert s.enter("plum, knife, hall, rope, study, green").startswith("hand Mr. Green, Profess")
    assert s.pad.started and s.pad.me == 2
    # names keep their case; a word of the entries names no seat
    named = NotepadSession(CluedoGame(), ["Players McCoy, ann, Bob Lee", "me bob lee"])
    assert named.history() == ["players McCoy, Ann, Bob Lee", "me Bob Lee"]
    with pytest.raises(SleuthError, match="'nobody' cannot name a seat"):
        NotepadSession(CluedoGame(), ["players Ann, nobody, Cy"])
    # face-up cards: asked for when the rule leaves some
    f = NotepadSession(CluedoGame(players=4, leftover="face_up"), ["players 4", "me Mustard"])
    assert "Which 2 cards lie face up" in shown(f)
    with pytest.raises(SleuthError) as bad:
        f.enter("rope")
    assert str(bad.value) == (  # not "1 face-up cards"
        "1 face-up card named: 2 lie face up with 4 players and these hand sizes"
    )
    with pytest.raises(SleuthError, match=r"^1 card named: your hand holds 4"):
        NotepadSession(CluedoGame(players=4), ["players 4", "me Mustard", "sizes 4, 4, 4, 4",
                                               "face up rope, study", "hand plum"])  # fmt: skip
    f.enter("rope, study")
    assert f.enter("plum knife hall lounge") == "hand Professor Plum, Knife, Hall, Lounge"
    assert f.pad.posterior.owners(card_named("Rope")) == {"table": 1.0}
    # hand sizes and the dealer
    d = NotepadSession(CluedoGame(), ["players Ann, Bob, Cy, Dan", "dealer Ann", "me Bob"])
    assert d.pad.hand_sizes == (4, 5, 5, 4)
    d.enter("sizes 5,5,4,4")
    assert d.pad.hand_sizes == (5, 5, 4, 4)
    with pytest.raises(SleuthError) as bad:
        d.enter("sizes 6,6,6")
    assert str(bad.value) == "'sizes 6, 6, 6': 4 hand sizes, clockwise from Ann"  # not "6 , 6"


def test_seat_options_for_another_number_of_seats_are_refused() -> None:
    """``-o suspects`` or ``-o dealer`` given for the default 3 seats while 4 are named was
    dropped silently (the seats played the default suspects: a summons of mine went unseen)."""
    for options, word in (({"suspects": (5, 3, 1)}, "suspects"), ({"dealer": 0}, "dealer")):
        s = NotepadSession(CluedoGame(**options))  # type: ignore[arg-type]
        with pytest.raises(SleuthError) as bad:
            s.enter("players Ann, Bob, Cy, Dan")
        assert str(bad.value) == (
            f"the option {word} was given for 3 seats, but 4 are named: add -o players=4"
        )
        assert s.history() == []
    same = NotepadSession(CluedoGame(players=4, suspects=(5, 3, 1, 2)), SETUP)
    assert same.pad.game.suspects == (5, 3, 1, 2)
    assert NotepadSession(CluedoGame(), SETUP).pad.game.suspects == (0, 1, 2, 3)


def test_seats_named_after_their_suspects_are_named_after_the_ones_they_play() -> None:
    """``players 4`` and an engine log (no names) with ``-o suspects``: not the defaults."""
    named = NotepadSession(CluedoGame(players=4, suspects=(5, 3, 1, 2)), ["players 4", "me plum"])
    assert named.history() == ["players Plum, Green, Mustard, White", "me Plum"]
    game, events, _ = random_game(3, 1, suspects=(5, 3, 4))  # an engine log has no names
    loaded = replay_view(game, 0, [e.seen_by(0) for e in events])
    assert loaded.history()[:2] == ["players Plum, Green, Peacock", "me Plum"]


def test_the_notepad_shows_the_deduction_and_the_advice() -> None:
    s = session("Bob suggests plum rope library", "Cy passes")
    out = flat(shown(s))
    assert "Ann (you) 5, Bob 5, Cy 4, Dan 4" in out
    assert "Bob asked about Professor Plum, Rope, Library: Dan answers next." in out
    advice = card_to_show([card_named("Plum")], 1, {})
    reason = advice.reason.replace("the Plum", "Professor Plum")
    assert f"When asked, show Professor Plum: {reason}" in out
    assert "Best suggestion by room (enter 'I am in ROOM' for travel times)" in out
    assert "Do not accuse yet" in out and "Envelopes left by entry (as if equally likely)" in out
    s.enter("Dan passes")
    s.enter("I show plum")
    s.enter("I am in the kitchn")
    out = flat(shown(s))
    assert "Best suggestion by room from Kitchen" in out and "a turn" in out
    rooms = s.pad.cache["rooms"]
    assert isinstance(rooms, list) and len(rooms) == 9
    assert rooms[0].rate == max(r.rate for r in rooms)
    kitchen = next(r for r in rooms if r.room == card_named("Kitchen"))
    assert kitchen.turns == 0 and kitchen.rate == kitchen.gain
    best = rooms[0]
    odds = outcome_probabilities(s.pad.cache["samples"], (best.suspect, best.weapon, best.room))  # type: ignore[arg-type]
    assert "Who would show a card for " in out and f"nobody {odds[0]:.0%}, Bob " in out
    assert odds.sum() == pytest.approx(1.0)
    s.enter("I rolled 4")
    assert "from Kitchen with a roll of 4" in flat(shown(s))
    reach = reachable(InRoom(card_named("Kitchen")), 4)
    for a in s.pad.cache["rooms"]:  # type: ignore[attr-defined]
        assert (a.turns == 0) == (reach.get(a.room) == InRoom(a.room)), a
    with pytest.raises(SleuthError, match="a roll is a number from 1 to 6"):
        s.enter("I rolled 9")
    two_dice = NotepadSession(CluedoGame(players=4, dice=2), SETUP)
    two_dice.enter("I am in Kitchen")
    with pytest.raises(SleuthError, match="a roll is a number from 2 to 12"):
        two_dice.enter("I rolled 1")
    assert two_dice.pad.roll is None
    two_dice.enter("I rolled 12")
    assert two_dice.pad.roll == 12
    assert session("Bob suggests plum rope library", "Cy shows").pad.events[-1].kind == "refuted"
    marks = flat(shown(session("Bob suggests plum rope library", "Cy shows")))
    assert "One of (a shown card): Cy: Rope / Library" in marks


def test_why_gives_the_entries_that_prove_a_fact() -> None:
    s = session("I suggest green rope kitchen", "Bob shows me Rope")
    assert s.why("rope") == "Rope: Bob holds it, because of entry 5 (Bob shows me Rope)"
    assert s.why("study").startswith("Study: you hold it, because of entry 3 (hand ")
    lines = s.why("green").splitlines()
    assert lines[0].startswith("Mr. Green: not certain yet (")
    assert lines[1:] == [
        "  not you: because of entry 3 (hand Professor Plum, Knife, Hall, Lounge, Study)"
    ]
    with pytest.raises(Unknown):
        s.why("zebra")
    passed = session("Bob suggests green wrench kitchen", "Cy passes", "Dan shows")
    assert passed.why("wrench").splitlines()[2] == (  # a pass names the suggestion it answered
        "  not Cy: because of entry 5 (Cy passes, to entry 4: Bob suggests Mr. Green, Wrench, "
        "Kitchen)"
    )
    # each proof holds, and no entry of it can be left out
    kb = from_events(0, s.pad.events)
    rope = (card_named("Rope"), 1, True)
    assert kb.proves(rope, ["event 7 (refuted)"]) and not kb.proves(rope, [])


# --- a whole game, and the loop -----------------------------------------------------------


SCRIPT = [
    "Bob suggests scarlet wrench kitchen",
    "Cy shows",
    "I suggest green candlestick ballroom",
    "Bob passes",
    "Cy shows me candlestick",
    "Cy suggests mustard revolver dining",
    "Dan shows",
    "I suggest white lead pipe conservatory",
    "nobody",
]
"""Ann holds Plum, Knife, Hall, Lounge, Study: after her second suggestion nobody refutes
and she holds none of White, Lead Pipe, Conservatory, so they are the envelope."""


def test_a_scripted_game_ends_with_the_right_accusation() -> None:
    s = session(*SCRIPT)
    out = flat(shown(s))
    assert "Accuse now: Mrs. White, Lead Pipe, Conservatory is certain." in out
    assert s.why("conservatory").startswith(
        "Conservatory: in the envelope, because of entry 3 (hand"
    )
    assert s.enter("I accuse white pipe conservatory right") == (
        "I accuse Mrs. White, Lead Pipe, Conservatory right"
    )
    assert s.finished and "Game over: Ann solved it." in flat(shown(s))


def test_one_deal_left_is_said_in_the_singular() -> None:
    """Bob lacks nine cards, so he holds the other six; Cy lacks the envelope's three."""
    hand = "hand plum knife hall rope study green"
    s = NotepadSession(CluedoGame(), ["players Ann, Bob, Cy", "me Ann", hand])
    for room in ("lounge", "ballroom", "conservatory", "billiard", "library"):
        for text in (f"Cy suggests scarlet candlestick {room}", "nobody"):
            s.enter(text.replace("scarlet candlestick", "peacock wrench", room != "lounge"))
    s.enter("Bob suggests scarlet candlestick lounge")
    s.enter("nobody")
    assert s.pad.posterior.deals == 1
    assert "1 deal fits what you know" in flat(shown(s))  # not "1 deals fit"


def test_undo_edit_delete_insert_save_and_load_through_the_loop(cwd: Path) -> None:
    script = [
        *SCRIPT[:5],
        "insert 5 Dan suggests plum rope hall",  # a missed suggestion, before 'I suggest ...'
        "nobody",  # refused: I hold Plum and Hall
        "delete 5",
        "edit 4 Bob suggests scarlet wrench kitchn",
        "why candlestick",
        "undo",
        "history",
        "save table.jsonl",
        "quit",
    ]
    args = ["--players", "Ann,Bob,Cy,Dan", "--me", "ann", "--hand", "plum knife hall lounge study"]
    done = entry("assist", "cluedo", *args, cwd=cwd, stdin="\n".join(script) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "error: nothing changed: new entry 5 (Dan suggests plum rope hall)" in out
    assert "deleted entry 5" not in out
    assert "edited entry 4: Bob suggests Miss Scarlet, Wrench, Kitchen -> Bob suggests" in out
    assert "took back: Cy shows me Candlestick" in out
    assert "why candlestick" not in out and "Candlestick: Cy holds it, because of entry 8" in out
    final = [*SETUP_CANONICAL, *CANONICAL[:4]]
    assert "\n".join(f"{n:3}  {t}" for n, t in enumerate(final, 1)) in out
    assert "saved 7 entries to table.jsonl" in out
    # the saved view loads back, and it is what `sleuth infer cluedo` reads
    view = read_view_log(cwd / "table.jsonl", "player", "cluedo")
    again = replay_view(view.game, view.seat, view.events)  # type: ignore[arg-type]
    assert again.history() == final
    assert again.pad.events == session(*SCRIPT[:4]).pad.events
    loaded = entry("assist", "cluedo", "--load", "table.jsonl", cwd=cwd,
                   stdin="Cy shows me candlestick\nhistory\n")  # fmt: skip
    assert loaded.returncode == 0, loaded.stderr
    assert "  8  Cy shows me Candlestick" in loaded.stdout
    both = entry("assist", "cluedo", "--load", "table.jsonl", "--me", "Bob", cwd=cwd)
    check_error(both, "leave out --me")
    inferred = entry("infer", "cluedo", "--log", "table.jsonl", cwd=cwd)
    assert inferred.returncode == 0, inferred.stderr
    assert f"{session(*SCRIPT[:4]).pad.posterior.deals:,} consistent deals" in inferred.stdout


SETUP_CANONICAL = [
    "players Ann, Bob, Cy, Dan",
    "me Ann",
    "hand Professor Plum, Knife, Hall, Lounge, Study",
]
CANONICAL = [
    "Bob suggests Miss Scarlet, Wrench, Kitchen",
    "Cy shows a card",
    "I suggest Mr. Green, Candlestick, Ballroom",
    "Bob passes",
    "Cy shows me Candlestick",
]


def test_insert_through_the_loop(cwd: Path) -> None:
    script = ["Bob suggests green rope study", "Dan shows", "insert 5 Cy passes", "history"]
    done = entry("assist", "cluedo", "--players", "Ann,Bob,Cy,Dan", "--me", "Ann", "--hand",
                 "plum knife hall lounge dining", cwd=cwd, stdin="\n".join(script))  # fmt: skip
    assert done.returncode == 0, done.stderr
    # 'Dan shows' implied Cy's pass: entering it first changes no fact
    assert "inserted entry 5: Cy passes" in done.stdout
    assert "  5  Cy passes\n  6  Dan shows a card" in done.stdout
    script = ["Bob suggests green rope study", "Cy passes", "insert 4 Dan suggests plum rope hall",
              "I show plum", "history"]  # fmt: skip
    done = entry("assist", "cluedo", "--players", "Ann,Bob,Cy,Dan", "--me", "Ann", "--hand",
                 "plum knife hall lounge dining", cwd=cwd, stdin="\n".join(script))  # fmt: skip
    assert "error: nothing changed: entry 5 (Bob suggests" in done.stdout  # Dan's waits


def test_bad_setup_options_and_files(cwd: Path) -> None:
    bad = entry("assist", "cluedo", "--players", "Ann,Bob", cwd=cwd)
    check_error(bad, "2 seats: Cluedo is for 3 to 6 players")
    bad = entry("assist", "cluedo", "--players", "Ann,Bob,Cy", "--me", "Zed", cwd=cwd)
    check_error(bad, "no player is called 'zed'")
    done = entry("assist", "cluedo", cwd=cwd, stdin="save a.jsonl\nload none.jsonl\n")
    assert "error: nothing to save before the setup is complete" in done.stdout
    assert "error: none.jsonl: cannot read" in flat(done.stdout)
    assert setup_texts({"players": "A,B,C", "face_up": None, "hand": "x"}) == [
        "players A,B,C",
        "hand x",
    ]


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("players", 10**12, "field 'players' is 1000000000000, not a whole number from 0 to 6"),
        ("players", 0, "field 'players' is 0, below 3"),
        ("dealer", 4, "field 'dealer' is 4, not a whole number from 0 to 3"),
    ],
)
def test_a_saved_setup_with_a_bad_count_is_refused(
    tmp_path: Path, field: str, value: int, words: str
) -> None:
    """A setup event's seat count and dealer are checked before use (a huge count was a
    MemoryError, 0 a ZeroDivisionError), and the notepad is unchanged."""
    path = tmp_path / "view.jsonl"
    session("Bob suggests Green Rope Study").save(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    setup = next(line for line in lines if line.get("kind") == "setup")
    setup["public"][field] = value
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    target = session("Dan suggests Plum Rope Hall")
    before = target.history()
    with pytest.raises(SleuthError, match=re.escape(words)):
        target.load(path)
    assert target.history() == before


@pytest.mark.parametrize("value", [4, -1, "3"])
def test_a_saved_answer_by_a_seat_out_of_range_names_the_field(
    tmp_path: Path, value: object
) -> None:
    """A seat number that is not one of the game's seats is refused naming the field (4 was
    "tuple index out of range", -1 read as the last seat)."""
    path = tmp_path / "view.jsonl"
    session("Bob suggests Green Rope Study", "Dan shows").save(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    refuted = next(line for line in lines if line.get("kind") == "refuted")
    refuted["public"]["seat"] = value
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(SleuthError) as bad:
        session().load(path)
    assert f"(refuted): a field has the wrong shape (field 'seat' is {value!r}, not a whole " \
        "number from 0 to 3)" in str(bad.value)  # fmt: skip


@pytest.mark.parametrize("seat", [4, -1])
def test_a_saved_view_of_a_seat_outside_the_game_says_so(tmp_path: Path, seat: int) -> None:
    """Not "seat 4 is not the player (seats: ('player', 'player', ...))"."""
    path = tmp_path / "view.jsonl"
    session("Bob suggests Green Rope Study").save(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    lines[0]["seat"] = seat
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(SleuthError) as bad:
        session().load(path)
    assert str(bad.value).endswith(
        f"view.jsonl line 1: seat {seat} is not one of the game's seats (0 to 3)"
    )


def test_a_full_game_log_loads_as_the_first_seats_notepad(cwd: Path) -> None:
    done = entry("play", "cluedo", "--bots", "random,random,random", "-n", "1", "--seed", "3",
                 "-o", "max_turns=30", "--no-db", "--logs", "logs", cwd=cwd)  # fmt: skip
    assert done.returncode == 0, done.stderr
    log = next((cwd / "logs").glob("*.jsonl"))
    loaded = entry("assist", "cluedo", "--load", log, cwd=cwd)
    assert loaded.returncode == 0, loaded.stderr
    # the turn limit ends the game and opens the envelope: the notepad shows the end
    assert "Game over: nobody solved it." in flat(loaded.stdout)
    view = read_view_log(log, "player", "cluedo")
    assert sum(e.kind == "ended" for e in view.events) == 30  # skipped, as the others' rolls
    texts = replay_view(view.game, 0, view.events).history()  # type: ignore[arg-type]
    assert texts[:2] == ["players Scarlet, Mustard, White", "me Scarlet"]
    assert texts[2].startswith("hand ") and texts[-1].startswith("envelope ")


def test_a_notepad_saved_under_rules_version_1_loads_and_a_game_log_of_it_is_refused(
    cwd: Path,
) -> None:
    """Version 2 made every end of a turn an event: a notepad's view never held one, so a
    saved notepad of version 1 loads as it was; a full game log of version 1 lacks the events
    its replay makes, and is refused naming both versions."""
    path = cwd / "view.jsonl"
    saved = session("Bob suggests Green Rope Study", "Cy shows")
    saved.save(path)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["rules_version"] == "2"
    lines[0]["rules_version"] = "1"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    loaded = session()
    loaded.load(path)
    assert loaded.history() == saved.history()
    lines[0]["rules_version"] = "0"  # never a version of Cluedo's rules
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(SleuthError, match="log written for cluedo rules version 0, this Sleuth"):
        session().load(path)
    done = entry("play", "cluedo", "--bots", "random,random,random", "-n", "1", "--seed", "3",
                 "-o", "max_turns=5", "--no-db", "--logs", "logs", cwd=cwd)  # fmt: skip
    assert done.returncode == 0, done.stderr
    log = next((cwd / "logs").glob("*.jsonl"))
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    lines[0]["rules_version"] = "1"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    with pytest.raises(
        SleuthError, match="log written for cluedo rules version 1, this Sleuth implements "
        "version 2"
    ):  # fmt: skip
        read_view_log(log, "player", "cluedo")


def test_notepad_copies_are_independent() -> None:
    pad = session().pad
    twin = pad.copy()
    twin.play("Bob suggests plum rope library")
    assert pad.asking is None and len(pad.events) < len(twin.events)
    assert isinstance(Notepad(CluedoGame()).awaiting(), str)
    assert NAMES[card_named("dagger")] == "Knife"


def test_the_uk_edition_shows_its_names() -> None:
    s = NotepadSession(CluedoGame(edition="uk"), ["players 3", "me scarlet",
                       "hand dagger spanner piping green orchid hall"])  # fmt: skip
    assert s.history()[-1] == "hand Mrs. White, Reverend Green, Dagger, Lead Piping, Spanner, Hall"
    assert s.enter("Mustard suggests plum knife study") == (
        "Mustard suggests Professor Plum, Dagger, Study"
    )
    out = flat(shown(s))
    assert "When asked, show the Dagger:" in out or "When asked, show Dagger:" in out
    assert "Reverend Green" in out and "Lead Piping" in out
    assert s.pad.names[0] == "Scarlett"  # as her card is named in this edition
    with pytest.raises(Unknown) as unknown:
        s.why("zzz")
    listed = str(unknown.value)
    assert "Spanner" in listed and "Miss Scarlett" in listed and "Wrench" not in listed
    assert s.why("gun").startswith("Revolver: ")  # an everyday name, in every edition


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), data=st.data())
def test_edits_are_replays(seed: int, data: st.DataObject) -> None:
    """Whatever ``edit``, ``delete`` or ``insert`` does to a session, it is the session that
    its new entries make (and a refused one changes nothing)."""
    game, events, _ = random_game(3, seed)
    seat = seed % 3
    texts = replay_view(game, seat, [e.seen_by(seat) for e in events]).history()[:40]
    s = NotepadSession(game, texts)
    number = data.draw(st.integers(1, len(texts)), label="entry")
    word = data.draw(st.sampled_from(["edit", "delete", "insert"]), label="command")
    new = data.draw(st.sampled_from(texts), label="new entry") if word != "delete" else ""
    try:
        _edit(s, word, f"{number} {new}".strip())
    except SleuthError:
        assert s.history() == texts
    fresh = NotepadSession(game, s.history())
    assert fresh.pad.events == s.pad.events and fresh.history() == s.history()


@pytest.mark.parametrize("seed", [11, 12])
def test_proofs_are_minimal(seed: int) -> None:
    """Each certain fact's proof proves it, and leaving out any one of its steps does not."""
    _, events, _ = random_game(4, seed)
    view = [e.seen_by(1) for e in events][:120]
    kb = from_events(1, view)
    facts = kb.certain()
    for fact in facts[:: max(1, len(facts) // 12)]:
        labels = proof(kb, fact)
        assert kb.proves(fact, labels)
        for label in labels:
            assert not kb.proves(fact, [x for x in labels if x != label]), (fact, label)
    card, owner, holds = facts[0]
    with pytest.raises(ValueError, match="not certain"):
        proof(kb, (card, owner, not holds))


def test_the_answer_to_why_is_not_buried_under_the_notepad(cwd: Path) -> None:
    """``why`` changes nothing: the loop prints its answer alone, not followed by the whole
    notepad again (some 70 lines, which scrolled the answer out of sight)."""
    done = entry("assist", "cluedo", "--players", "Ann,Bob,Cy,Dan", "--me", "Ann", "--hand",
                 "plum knife hall lounge study", cwd=cwd, stdin="why plum\nshow\n")  # fmt: skip
    lines = done.stdout.splitlines()
    at = next(n for n, line in enumerate(lines) if "Professor Plum: you hold it" in line)
    assert lines[at + 1].startswith("> Seats and hand sizes")  # 'show' shows the notepad again


def test_the_banner_lists_why_and_insert(cwd: Path) -> None:
    done = entry("assist", "cluedo", cwd=cwd, stdin="help\nwhy\nAnn, Bob, Cy\ninsert 2 me Bob\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "why CARD" in out and "insert N NEW ENTRY" in out
    assert "error: 'why CARD' explains a card: name it, e.g. 'why rope'" in out
    assert "ok: me Bob" in out  # insert N where N is one past the last entry: a plain entry


def test_the_notepad_reads_on_after_the_game_ends(cwd: Path) -> None:
    """A right accusation ends the game but not the notepad: a mistyped 'right' is taken back
    with 'undo', and a finished game is saved (before, the notepad closed at once and the
    unsaved entries were lost)."""
    script = [
        "Bob accuses scarlet wrench kitchen right",
        "Cy suggests plum rope hall",
        "undo",
        "Bob accuses scarlet wrench kitchen wrong",
        "history",
        "save table.jsonl",
    ]
    hand = "plum knife hall rope study green"
    setup = ["--players", "Ann,Bob,Cy", "--me", "Ann", "--hand", hand]
    done = entry("assist", "cluedo", *setup, cwd=cwd, stdin="\n".join(script) + "\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.count("The game is over: 'undo', 'edit' or 'delete' takes entries back") == 1
    assert (
        "error: 'Cy suggests plum rope hall': the game is over ('undo' takes entries back)" in out
    )
    assert "took back: Bob accuses Miss Scarlet, Wrench, Kitchen right" in out
    assert "  4  Bob accuses Miss Scarlet, Wrench, Kitchen wrong" in out
    assert "saved 4 entries to table.jsonl" in out
    assert out.rstrip().endswith("Left the notepad after 4 entries.")


def test_a_shown_card_may_name_who_sees_it_first() -> None:
    """'Cy shows Ann Candlestick' (Ann is me) is 'Cy shows me Candlestick'; 'Cy shows Bob'
    names whom Cy shows a card, and a name other than the suggester's is refused."""
    mine = session("I suggest green candlestick ballroom", "Bob passes")
    assert mine.enter("Cy shows Ann candlestick") == "Cy shows me Candlestick"
    theirs = session("Bob suggests scarlet wrench kitchen")
    assert theirs.enter("Cy shows Bob a card") == "Cy shows a card"
    other = session("Bob suggests scarlet wrench kitchen")
    with pytest.raises(SleuthError, match="Bob made the suggestion, not Dan"):
        other.enter("Cy shows Dan wrench")


def test_nobody_after_everyone_passed_says_it_is_entered_already() -> None:
    s = session("Bob suggests Green Wrench Kitchen", "Cy passes", "Dan passes", "I pass")
    with pytest.raises(SleuthError, match=r"^nobody could show, and that is entered already"):
        s.enter("nobody")
    with pytest.raises(SleuthError, match=r"^no suggestion waits"):  # an answer, none asked
        session().enter("nobody")


def test_brief_shows_only_the_lines_a_player_acts_on_and_full_shows_everything(
    cwd: Path,
) -> None:
    script = "Bob suggests Green Rope Kitchen\nCy passes\nfull\n"
    args = ("--players", "Ann,Bob,Cy,Dan", "--me", "Ann", "--hand", "plum,knife,hall,rope,study")
    done = entry("assist", "cluedo", *args, "--brief", cwd=cwd, stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    after = out[out.index("ok: Cy passes (entry 5)") : out.index("> ", out.index("ok: Cy passes"))]
    lines = after.strip().splitlines()[1:]
    assert [line.split(" ")[0] for line in lines] == ["Seats", "Bob", "Your", "Do"], lines
    assert "When asked, show Rope" in after and "Most likely envelopes" not in after
    full = out[out.index("ok: Cy passes (entry 5)") + len(after) :]  # what 'full' printed
    assert "Most likely envelopes" in full and "Best suggestion by room" in full
    assert "Most likely envelopes" not in out[: out.index("ok: Cy passes")]  # brief throughout


@pytest.mark.parametrize("text", ["I rolled 4", "I am in the lounge", "I am at start"])
def test_my_roll_or_move_waits_until_the_suggestion_is_answered(text: str) -> None:
    s = session("Bob suggests Green Wrench Kitchen", "Cy passes")
    with pytest.raises(SleuthError, match=r"^Bob's suggestion waits for its answers: 'Dan shows'"):
        s.enter(text)  # most often an answer forgotten: Dan's
    s.enter("Dan shows")
    if text == "I rolled 4":
        s.enter("I am in the lounge")
    assert s.enter(text) == text.replace("the ", "").replace("lounge", "Lounge")
