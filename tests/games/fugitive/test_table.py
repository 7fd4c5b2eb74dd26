"""The Marshal's table: typed entries become exactly the events the rules engine shows her,
along whole games of both editions; bad entries are refused with a message naming them and
change nothing; undo, and the positions of hit numbers deduced when they are certain."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from sleuth.core.errors import SleuthError
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.games.fugitive.assistant.notepad import notepad
from sleuth.games.fugitive.assistant.table import MarshalTable, entry_texts
from sleuth.games.fugitive.belief import RelaxedBelief
from sleuth.games.fugitive.bots import RandomPlayer
from sleuth.games.fugitive.deduction.advice import Deduction
from sleuth.games.fugitive.players.fugitives import HeuristicFugitive
from sleuth.games.fugitive.players.marshals import BeliefMarshal
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame

OPENING = ["hideout", "hideout 1", "draw 1 5", "draw 2 20"]
"""h1 has no sprint card, h2 one; the Marshal holds 5 and 20."""


def marshal_view(seed: int, game: FugitiveGame, strong: bool) -> list[Event]:
    """The Marshal's view of a whole game (the final route, which no table shows, left out)."""
    rng = random.Random(seed)
    if strong:
        players = [
            HeuristicFugitive(game, 0, seed, 0.25),
            BeliefMarshal(game, 1, seed, "gamble", "frontier", model="uniform"),
        ]
    else:
        players = [RandomPlayer(game, 0, seed), RandomPlayer(game, 1, seed + 1)]
    state, events = game.new_initial_state(), []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            view = View(player, "", {}, [e.seen_by(player) for e in events])
            action = players[player].act(view, state.legal_actions())  # type: ignore[union-attr]
        events += state.apply(action)  # type: ignore[arg-type]
    return [e.seen_by(MARSHAL) for e in events if e.kind != "route"]


GAMES = {
    "first": FugitiveGame(),
    "second": FugitiveGame(edition="second", opening="one_or_two"),
    "round-limit": FugitiveGame(max_rounds=6),
}


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("seed", range(3))
def test_entering_a_whole_game_gives_exactly_the_marshals_view(seed: int, name: str) -> None:
    game = GAMES[name]
    view = marshal_view(seed, game, strong=True)
    table = MarshalTable(game, seed)
    for text in entry_texts(view):
        assert table.enter(text).text == text
    assert table.events == view
    assert table.over
    with pytest.raises(SleuthError, match="the game is over"):
        table.enter("skip")


@pytest.mark.parametrize("edition", ["first", "second"])
@pytest.mark.parametrize("seed", range(4))
def test_entering_random_play_gives_exactly_the_marshals_view(seed: int, edition: str) -> None:
    """Random players sprint with many cards: short games keep the exact belief small."""
    game = FugitiveGame(edition=edition, max_rounds=3)
    view = marshal_view(seed, game, strong=False)
    table = MarshalTable(game, seed)
    for text in entry_texts(view):
        table.enter(text)
    assert table.events == view


def relaxed_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the table see only the relaxed belief, as when the exact one is too big."""

    def relaxed(events: list[Event], threshold: int, _: int, model: str) -> Deduction:
        belief = RelaxedBelief.from_events(events, 10**7, model)
        return Deduction(belief, belief.counts(), threshold)

    monkeypatch.setattr(Deduction, "within", relaxed)


@pytest.mark.parametrize("seed", range(3))
def test_with_only_the_relaxed_belief_the_turn_order_and_round_limit_still_hold(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    relaxed_only(monkeypatch)
    game = GAMES["round-limit"]
    view = marshal_view(seed, game, strong=True)
    table = MarshalTable(game, seed)
    assert not table.deduction.exact
    texts = entry_texts(view)
    for text in texts:
        with pytest.raises(SleuthError, match="not now"):
            table.enter(
                "skip" if text.startswith(("hideout", "42", "fugitive", "pass")) else "pass"
            )
        table.enter(text)
    assert table.events == view and table.over


@pytest.mark.parametrize("relaxed", [False, True])
def test_the_last_round_ends_by_the_guess_or_by_the_round_limit(
    relaxed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if relaxed:
        relaxed_only(monkeypatch)
    for last, reason in (("guess 1 2 hit", "marshal_uncovered_route"), ("skip", "max_rounds")):
        table = MarshalTable(FugitiveGame(max_rounds=1))
        for text in ["hideout", "hideout", "draw 1 5", "draw 2 20", last]:
            table.enter(text)
        kinds = [e.kind for e in table.events]
        assert table.over and kinds.count("game_over") == 1
        assert table.events[-1].public["reason"] == reason


def both_draw_from_pile_1(card: int | None) -> list[str]:
    """A round where both draw from pile 1 (her card ``card``; None: she has not drawn yet)."""
    return ["skip", "fugitive draw 1", "pass", *([f"draw 1 {card}"] if card else [])]


def table_after(*entries: str) -> MarshalTable:
    table = MarshalTable(FugitiveGame())
    for text in entries:
        table.enter(text)
    return table


@pytest.mark.parametrize(
    ("entries", "bad", "message"),
    [
        ([], "jump 3", "'jump 3': not an entry"),
        ([], "", "empty entry"),
        ([], "draw 1 5", "'draw 1 5': not now; the Fugitive places his opening"),
        ([], "pass", "'pass': the Fugitive must place his first hideout"),
        (OPENING[:1], "pass", "'pass': the Fugitive places exactly two opening hideouts"),
        (OPENING[:2], "draw 1 17", "card 17 is not in pile 1 (4-14)"),
        (OPENING[:2], "draw 4 17", "the piles are 1, 2 and 3"),
        (OPENING[:2], "draw 1 x", "'draw 1 x': expected numbers: draw PILE CARD"),
        (OPENING[:2], "draw 1", "'draw 1': expected 2 numbers: draw PILE CARD"),
        ([], "hideout x", "'hideout x': expected numbers: hideout SPRINTS"),
        (OPENING, "guess 3 miss hit", "'guess 3 miss hit': expected numbers"),
        (OPENING, "guess 3 hit; 3 at x", "'guess 3 hit': '3 at x': expected numbers"),
        (OPENING, "guess 3 hit; 3 at 0", "'3 at 0': positions count from 1 (0 is the start)"),
        (OPENING[:3], "draw 1 5", "you already drew 5"),
        (OPENING[:2], "fugitive draw 1", "not now; you draw"),
        (OPENING, "guess 3 3 hit", "a number is repeated"),
        (OPENING, "guess 3 hit; 4 at 2", "4 was not named"),
        (OPENING, "guess 2 miss; 2 at 1", "a miss reveals nothing"),
        (OPENING, "guess 7", "'guess 7': write 'guess 7 hit' or 'guess 7 miss'"),
        (
            OPENING,
            "guess 4 hit",
            "4 at 2 has 1 sprint card: write 'guess 4 hit; 4 at 2 sprint "
            "CARDS' with the card number for CARDS",
        ),
        (OPENING, "guess 4 hit; 4 sprint 1 2", "position 2 has 1 sprint card, not 2"),
        (OPENING, "guess 2 hit", "2 could be at 1 or 2"),
        (OPENING, "guess 12 hit", "12 cannot be a face-down hideout"),
        (OPENING, "guess 1 2 hit; 2 at 1", "1 fits 1, but not with the others"),
        (OPENING, "guess 50 miss", "only 1-41 can be named, not 50"),
        (OPENING, "guess 3 hit; 3 at 1; 3 at 2", "3 is described twice"),
        (OPENING, "guess 3 hit; 3 sprint 4; 3 at 2 sprint 6", "3 is described twice"),
        (
            OPENING,
            "guess 3 hit",
            "write 'guess 3 hit; 3 at 1' or 'guess 3 hit; 3 at 2 sprint CARDS'",
        ),
        (OPENING, "guess 3 hit; 3 at 2", "write 'guess 3 hit; 3 at 2 sprint CARDS' with the"),
        (OPENING, "guess 3 hit; 3 at 5", "position 5 is not a face-down hideout"),
        (OPENING, "guess 1 hit; 1 on 1", "write '; NUMBER at POSITION"),
        (OPENING, "guess 1 hit; 1 at 1; 3", "3 was not named"),
        (OPENING, "guess 3 hit; 3 at 2 sprint 5", "5 is in your hand"),
        (OPENING, "guess 3 hit; 3 at 2 sprint 3", "3 cannot be its own sprint card"),
        (OPENING, "guess 3 hit; 3 at 2 sprint 99", "'guess 3 hit': sprint cards are 1-41, not 99"),
        (OPENING, "guess 3 hit; 3 at 2 sprint 42", "sprint cards are 1-41, not 42"),
        (OPENING, "guess 4 hit; 4 sprint 0", "sprint cards are 1-41, not 0"),
        ([*OPENING, "skip", "fugitive draw 1"], "42 1", "no game is consistent"),  # too far
        (
            [*OPENING, "skip", "fugitive draw 1", "hideout 2", "draw 1 6"],
            "guess 7 hit; 7 at 3 sprint 8 8",
            "'guess 7 hit': sprint card 8 is named twice",
        ),
        (OPENING, "hideout", "not now; you guess"),
        (  # pile 1 (4-14): 3 setup cards, then 5 and 6-8 are hers and 4 draws are his
            [*OPENING, *(e for c in (6, 7, 8, None) for e in both_draw_from_pile_1(c))],
            "draw 1 9",
            "'draw 1 9': pile 1 is empty (cards left in: 2, 3)",
        ),
        ([*OPENING, "skip"], "hideout", "not now; the Fugitive draws"),
        (
            [*OPENING, "guess 1 hit", "fugitive draw 1", "pass", "draw 1 6"],
            "guess 1 miss",
            "1 cannot be named (face up)",
        ),
    ],
)
def test_bad_entries_name_the_problem_and_change_nothing(
    entries: list[str], bad: str, message: str
) -> None:
    table = table_after(*entries)
    before, deduction = table.events, table.deduction
    with pytest.raises(SleuthError) as caught:
        table.enter(bad)
    assert message in str(caught.value)
    assert table.events == before and table.deduction is deduction


def test_positions_are_deduced_when_only_one_assignment_fits() -> None:
    table = table_after(*OPENING)
    entry = table.enter("guess 1 4 hit; 4 sprint 3")  # 1 can only be h1, so 4 is h2
    assert entry.text == "guess 1 4 hit; 1 at 1; 4 at 2 sprint 3"
    assert [e.kind for e in entry.events] == ["guessed", "revealed", "revealed", "game_over"]
    assert table.over
    console = Console(file=io.StringIO(), width=100)
    console.print(notepad(table.deduction))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "Game over: the Marshal uncovered every hideout and wins." in text


def test_undo_restores_the_previous_deduction() -> None:
    table = table_after(*OPENING)
    counts = table.deduction.counts
    table.enter("guess 2 miss")
    assert table.deduction.counts != counts
    assert table.undo().text == "guess 2 miss"
    assert table.deduction.counts == counts and len(table.entries) == len(OPENING)
    for _ in OPENING:
        table.undo()
    with pytest.raises(SleuthError, match="nothing to undo"):
        table.undo()


def test_42_starts_the_manhunt_where_one_number_at_a_time_is_named() -> None:
    game = GAMES["first"]
    views = (marshal_view(seed, game, strong=True) for seed in range(40))
    view = next(v for v in views if any(e.kind == "manhunt" for e in v))
    texts = entry_texts(view)
    table = MarshalTable(game)
    start = next(i for i, t in enumerate(texts) if t.startswith("42"))
    for text in texts[: start + 1]:
        table.enter(text)
    assert table.deduction.belief.timeline.manhunt and not table.over
    with pytest.raises(SleuthError, match="one number at a time"):
        table.enter("guess 1 3 hit")
    for text in texts[start + 1 :]:
        table.enter(text)
    assert table.events == view and table.over


def test_commas_list_a_guess_s_numbers_and_separate_its_details() -> None:
    listed = table_after(*OPENING, "guess 1, 2 miss")
    assert [entry.text for entry in listed.entries][-1] == "guess 1 2 miss"
    assert listed.events == table_after(*OPENING, "guess 1 2 miss").events
    with pytest.raises(SleuthError, match="position 5 is not a face-down hideout"):
        table_after(*OPENING).enter("guess 3 hit, 3 at 5")  # the comma starts the details


@pytest.mark.parametrize(
    "game",
    [FugitiveGame(opening="one_or_two"), FugitiveGame(dead_end_check=False)],
    ids=["one_or_two", "exactly_2 without the dead-end check"],
)
def test_a_pass_after_his_first_opening_hideout_where_the_rules_allow_it(
    game: FugitiveGame,
) -> None:
    table = MarshalTable(game)
    table.enter("hideout 5")  # e.g. 1 with 2-6: then no card is left within his reach
    assert table.enter("pass").text == "pass"
    assert table.events[-1].kind == "passed"


FORMS = {
    "PILE": r"\d+",
    "CARD": r"\d+",
    "SPRINTS": r"\d+",
    "NUMBERS": r"\d+(?: \d+)*",
    "NUMBER": r"\d+",
}
"""The placeholders of the turn hints ('draw PILE CARD'), as patterns."""

PROBES = ("hideout", "fugitive draw 1", "skip", "no bonus", "bonus", "draw 3 41")
"""Entries of every kind, at least one of them out of turn at any moment."""


def _turn_forms(table: MarshalTable) -> list[str]:
    """The entry forms the turn hint ('not now; ...') names, from probes out of turn."""
    for probe in PROBES:
        try:
            table.enter(probe)
        except SleuthError as exc:
            if "not now; " in str(exc):
                return re.findall(r"'([^']+)'", str(exc).split("not now; ", 1)[1])
        else:
            table.undo()
    return []


def _suggestions(message: str) -> list[str]:
    """The whole entries an error suggests ('... write 'A' or 'B' ...')."""
    assert ": write " in message, message
    return re.findall(r"'(guess [^']*)'", message.split(": write ", 1)[1])


def _filled(suggestion: str, truth: dict[str, str]) -> str | None:
    """``suggestion`` with CARDS replaced by the true sprint cards of its number, or None when
    it puts a number where it was not (``truth``: number -> its true clause)."""
    head, *clauses = suggestion.split("; ")
    out = [head]
    for clause in clauses:
        number = clause.split()[0]
        real = truth[number]
        if clause.endswith(" sprint CARDS"):
            clause = clause.removesuffix(" sprint CARDS") + real[len(real.split(" sprint")[0]) :]
        if not real.startswith(clause.split(" sprint")[0]):
            return None
        out.append(clause)
    return "; ".join(out)


@pytest.mark.parametrize("name", ["first", "second"])
@pytest.mark.parametrize("seed", range(2))
def test_every_hint_typed_back_is_accepted(seed: int, name: str) -> None:
    """Along whole games: the turn hint names the form of the entry that comes next; a guess
    without its outcome is told both whole entries; a hit typed bare is told, step by step,
    whole entries that the table accepts once their placeholders hold the true values (never
    'described twice'), ending in the very entry the game's view gives."""
    game = GAMES[name]
    table = MarshalTable(game, seed)
    checked = hits = 0
    for text in entry_texts(marshal_view(seed, game, strong=True)):
        forms = _turn_forms(table)
        if forms:
            patterns = [re.escape(f).replace(r"hit\|miss", "(?:hit|miss)") for f in forms]
            for word, pattern in FORMS.items():
                patterns = [p.replace(word, pattern) for p in patterns]
            typed = text.split(";")[0].replace("hideout", "hideout 0", text == "hideout")
            typed = "42 0" if typed == "42" else typed
            assert any(re.fullmatch(p, typed) for p in patterns), (text, forms)
            checked += 1
        if not text.startswith("guess"):
            table.enter(text)
            continue
        bare = text.split(";")[0].removesuffix(" hit").removesuffix(" miss")
        with pytest.raises(SleuthError) as told:
            table.enter(bare)
        assert _suggestions(str(told.value)) == [f"{bare} hit", f"{bare} miss"]
        truth = {c.split()[0]: c for c in text.split("; ")[1:]}
        typed = text.split(";")[0]
        for _ in range(4):
            try:
                entry = table.enter(typed)
                break
            except SleuthError as exc:
                assert "described twice" not in str(exc)
                filled = [_filled(s, truth) for s in _suggestions(str(exc))]
                typed = next(f for f in filled if f is not None)
                hits += 1
        else:
            pytest.fail(f"the hints for {text!r} went round in circles")
        assert entry.text == text
    assert table.over and checked > 10 and hits > 0
