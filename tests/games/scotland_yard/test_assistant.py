"""``sleuth assist scotland-yard``: the detectives' table fed the public events of random engine
games (the detectives of a round in random orders), every refused entry's message with the
session unchanged, reveals after a double's first leg, the suggestions, and undo, edit,
delete, save and load through the shared loop."""

from __future__ import annotations

import io
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from sleuth.core.bitsets import mask_of
from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.core.registry import make_game
from sleuth.core.viewlog import read_view_log
from sleuth.games.scotland_yard.assistant import (
    SUGGESTION,
    DetectivesSession,
    entry_texts,
    suggest_moves,
    where_lines,
)
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.mc import PublicRecord, decide
from sleuth.games.scotland_yard.moves import PASS, Move, Ticket, detective_moves
from sleuth.games.scotland_yard.plugins import ASSIST, infer
from sleuth.games.scotland_yard.rules import ScotlandYardGame, ScotlandYardState
from sleuth.games.scotland_yard.table import PublicTable, example_starts
from tests.cli_helpers import entry, flat

from .helpers import CLASSIC_DIR, classic_board


def make(**options: Any) -> ScotlandYardGame:
    game = make_game("scotland-yard", options)
    assert isinstance(game, ScotlandYardGame)
    return game


def random_game(game: ScotlandYardGame, seed: int) -> tuple[list[Event], list[ScotlandYardState]]:
    """A uniformly random game: its events and the state after each event."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    events: list[Event] = []
    states: list[ScotlandYardState] = []
    action = state.sample_chance(rng)
    while True:
        new = state.apply(action)
        events += new
        states += [state.clone()] * len(new)
        if state.is_terminal():
            return events, states
        action = rng.choice(state.legal_actions())


# --- feeding whole games ---------------------------------------------------------------------


def kind(text: str) -> str:
    """``start``, ``x`` (Mr. X's entries and reveals) or ``d`` (a detective's)."""
    head = text.split()[0]
    return "x" if head == "reveal" else "d" if head.startswith("d") else head


def blocks(texts: list[str]) -> list[list[str]]:
    """The entries cut into the start, Mr. X's turns (with their reveals) and the detective
    phases."""
    out: list[list[str]] = []
    for text in texts:
        if out and kind(out[-1][0]) == kind(text):
            out[-1].append(text)
        else:
            out.append([text])
    return out


def event_count(text: str) -> int:
    """How many events of the detectives' view an entry stands for."""
    return {"reveal": 0, "x": 2 if " double " in text else 1}.get(text.split()[0], 1)


def valid_order(table: PublicTable, texts: list[str], order: list[int]) -> bool:
    """Whether the detectives' entries ``texts`` can be played in ``order`` (no move onto a
    detective's station, a pass only without a move, a capture last)."""
    stations = list(table.detectives)
    for position, k in enumerate(order):
        words = texts[k].split()
        i = int(words[0][1:]) - 1
        if words[-1] == "caught" and position != len(order) - 1:
            return False
        occupied = mask_of(s for j, s in enumerate(stations) if j != i)
        if words[1] == "pass":
            tickets = table.detective_tickets[i]
            if detective_moves(table.game.board, stations[i], tickets, occupied):
                return False
            continue
        if occupied >> int(words[2]) & 1:
            return False
        stations[i] = int(words[2])
    return True


def shuffled(table: PublicTable, texts: list[str], rng: random.Random) -> list[str]:
    """The detectives' entries in a random order the rules allow (seat order at worst)."""
    for _ in range(20):
        order = rng.sample(range(len(texts)), len(texts))
        if valid_order(table, texts, order):
            return [texts[k] for k in order]
    return texts


def feed(
    game: ScotlandYardGame, seed: int, model: Any = "uniform"
) -> tuple[DetectivesSession, int]:
    """A random game's detectives' view entered into a session, the detectives of each round
    in a random order; checked against the engine and the belief after every block, and the
    true station always possible.  Returns the session and how many rounds were entered out
    of seat order."""
    events, states = random_game(game, seed)
    view = [e.seen_by(1) for e in events]
    belief = MrXBelief(game, model)
    session = DetectivesSession(game, model)
    rng = random.Random(seed)
    read = reordered = 0
    for block in blocks(entry_texts(view)):
        if kind(block[0]) == "d":
            seat_order, block = block, shuffled(session.table, block, rng)
            reordered += block != seat_order
        read += sum(event_count(text) for text in block)
        for text in block:
            assert session.enter(text) == text
            tracker = session.table.tracker
            assert tracker is not None
            if kind(text) == "d":  # Mr. X stays put while the detectives move
                assert tracker.possible >> states[read - 1].mrx & 1
        for event in view[belief.events_read : read]:
            belief.update(event)
        compare(session.table, belief, states[read - 1])
    assert read == len(view) - 1 and view[-1].kind == "game_over"
    return session, reordered


def compare(table: PublicTable, belief: MrXBelief, state: ScotlandYardState) -> None:
    """The table agrees with the belief read from the same events and with the engine."""
    tracker, expected = table.tracker, belief.tracker
    assert tracker is not None and expected is not None
    if not belief.over:
        assert tracker.possible == expected.possible
        assert tracker.history == expected.history
    assert tracker.possible >> state.mrx & 1
    assert table.detectives == state.detectives
    assert table.detective_tickets == state.detective_tickets
    assert table.mrx_tickets == state.mrx_tickets
    assert table.entries == state.entries


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    edition=st.sampled_from(["classic", "2014", "bristol"]),
    detectives=st.integers(1, 5),
    model=st.sampled_from(["uniform", "random-walk"]),
)
def test_random_games_are_accepted_whole(
    seed: int, edition: str, detectives: int, model: Any
) -> None:
    game = make(edition=edition, detectives=detectives)
    session, _ = feed(game, seed, model)
    _, states = random_game(game, seed)
    final = states[-1]
    reason = final.termination()
    if reason == "cornered":  # the detectives know only if every possible station is stuck
        assert session.table.over in (None, "cornered")
    else:
        assert session.finished and session.table.over == reason


def test_random_games_on_the_classic_map() -> None:
    classic_board()
    for seed in range(6):
        feed(make(map=str(CLASSIC_DIR)), seed)


def test_every_ending_comes_up() -> None:
    """Over many seeds, the table ends games as the engine does: caught, blocked, escaped."""
    seen = set()
    reordered = 0
    for seed in range(40):
        session, shuffles = feed(make(detectives=3), seed)
        seen.add(session.table.over)
        reordered += shuffles
    assert {"caught", "blocked", "escaped"} <= seen
    assert reordered > 100  # most rounds were entered out of seat order


# --- a hand-made table -----------------------------------------------------------------------


@pytest.fixture
def game() -> ScotlandYardGame:
    """Two detectives on the built-in board."""
    return make(detectives=2)


def starts(game: ScotlandYardGame) -> tuple[int, int]:
    cards = sorted(game.profile.detective_cards)
    return cards[0], cards[1]


def session_at(game: ScotlandYardGame, *texts: str) -> DetectivesSession:
    session = DetectivesSession(game, starts=starts(game))
    for text in texts:
        session.enter(text)
    return session


def shown(session: DetectivesSession) -> str:
    """The session's render as plain text."""
    console = Console(file=io.StringIO(), width=200)
    console.print(session.render())
    return flat(console.file.getvalue())  # type: ignore[attr-defined]


def shown_lines(session: DetectivesSession) -> str:
    """The session's render as plain text, its lines kept."""
    console = Console(file=io.StringIO(), width=200)
    console.print(session.render())
    return console.file.getvalue()  # type: ignore[attr-defined]


def snapshot(session: DetectivesSession) -> tuple[object, ...]:
    table = session.table
    tracker = table.tracker
    return (
        session.history(),
        list(table.events),
        None if tracker is None else (tracker.possible, tuple(tracker.history)),
        table.detectives,
        table.detective_tickets,
        table.mrx_tickets,
        table.moved,
        table.awaiting,
        shown(session),
    )


def refused(session: DetectivesSession, text: str, *parts: str) -> None:
    before = snapshot(session)
    with pytest.raises(SleuthError) as caught:
        session.enter(text)
    for part in parts:
        assert part in str(caught.value), (part, str(caught.value))
    assert snapshot(session) == before


def test_entries_out_of_turn(game: ScotlandYardGame) -> None:
    fresh = DetectivesSession(game)
    refused(fresh, "x taxi", "first enter the detectives' start stations")
    a, b = starts(game)
    refused(fresh, f"start {a}", "1 station for 2 detectives")
    alone = make(detectives=1)
    refused(DetectivesSession(alone), f"start {a},{b}", "2 stations for 1 detective (")
    refused(fresh, f"start {a},{a}", "same station")
    refused(fresh, f"start {a},999", "999 is not a station")
    off_card = next(s for s in range(1, 200) if s not in game.profile.detective_cards)
    refused(fresh, f"start {a},{off_card}", f"{off_card} is not on a detective start card")
    refused(fresh, "start 1,x", "'x' is not a station number")
    session = session_at(game)
    refused(session, f"start {a},{b}", "entered already")
    refused(session, "d1 pass", "Mr. X is to move (round 1)")
    refused(session, "hello", "not an entry")
    refused(session, "", "an empty entry")
    refused(session, "x", "write Mr. X's ticket")
    refused(session, "x taxi bus", "write Mr. X's ticket")
    refused(session, "x double taxi", "write Mr. X's ticket")
    refused(session, "x ferry", "'ferry' is not a ticket")
    refused(session, "reveal 45", "no reveal is due: Mr. X has not moved yet")
    session.enter("x taxi")
    refused(session, "x taxi", "still to move: d1, d2")
    refused(session, "reveal 45", "no reveal is due: Mr. X's move 1 is not a reveal move")
    refused(session, "d3 pass", "there is no detective 3")
    refused(session, "d1 taxi", "write 'd1 TICKET STATION'")
    move = session.table.legal_moves(0)[0]
    session.enter(f"d1 {move}")
    refused(session, f"d1 {session.table.legal_moves(0)[0]}", "d1 has had his turn in round 1")
    refused(session, "x bus", "still to move: d2")


def test_impossible_detective_moves(game: ScotlandYardGame) -> None:
    session = session_at(game, "x taxi")
    board = game.board
    a, b = session.table.detectives
    refused(session, f"d1 black {b}", "only Mr. X has black tickets")
    refused(session, f"d1 taxi {board.n + 1}", f"{board.n + 1} is not a station")
    far = next(s for s in range(1, board.n + 1) if board.distances[a, s] > 1)
    refused(session, f"d1 taxi {far}", f"no taxi route from {a} to {far}")
    refused(session, "d1 pass", "d1 can move (", "so he may not pass")
    # d1 onto d2's station: move d2 next to d1 first, in a game where they start close
    near = make(detectives=2, detective_starts=f"{a},{_neighbour(game, a)}")
    close = DetectivesSession(near, starts=near.profile.detective_starts)
    close.enter("x taxi")
    c, d = close.table.detectives
    ticket = next(t for t in ("taxi", "bus", "underground")
                  if _targets(near, c, t) >> d & 1)  # fmt: skip
    refused(close, f"d1 {ticket} {d}", f"d2 stands on {d} (S14)")
    broke = make(detectives=2, detective_tickets="0/0/0")
    stuck = DetectivesSession(broke, starts=starts(broke))
    stuck.enter("x taxi")
    assert stuck.finished and stuck.table.over == "blocked"
    assert "no detective can move, so Mr. X wins (S27)" in shown(stuck)
    refused(stuck, "d1 pass", "the game is over")


def _targets(game: ScotlandYardGame, station: int, ticket: str) -> int:
    from sleuth.games.scotland_yard.moves import ticket_targets

    return ticket_targets(game.board, station, Ticket(ticket))


def _neighbour(game: ScotlandYardGame, station: int) -> int:
    return min(s for s in range(1, game.board.n + 1) if _targets(game, station, "taxi") >> s & 1)


def test_tickets_run_out() -> None:
    poor = make(detectives=2, mrx_tickets="4/3/3/1/1", detective_tickets="2/0/0", reveals="20")
    session = DetectivesSession(poor, starts=starts(poor))
    refused(
        session, "x double black black", "both legs need black tickets, and Mr. X has only 1 left"
    )
    session.enter("x black")
    refused(session, "d1 bus 1", "d1 has no bus ticket left (S7)")
    refused(session, "d1 underground 1", "d1 has no underground ticket left (S7)")
    for i in (0, 1):
        session.enter(f"d{i + 1} {session.table.legal_moves(i)[0]}")
    refused(session, "x black", "Mr. X has no black ticket left")
    assert session.table.mrx_tickets == [6, 3, 3, 0, 1]  # two taxis handed to him (S5)
    session.enter("x double taxi taxi")
    for i in (1, 0):
        session.enter(f"d{i + 1} {session.table.legal_moves(i)[0]}")
    refused(session, "x double taxi taxi", "Mr. X has no double ticket left")
    session.enter("x taxi")  # neither detective has a ticket left: Mr. X wins (S27)
    assert session.finished and session.table.over == "blocked"
    short = make(detectives=1, log_length=2, reveals="2")
    late = DetectivesSession(short, starts=starts(short)[:1])
    late.enter("x taxi")
    late.enter(f"d1 {late.table.legal_moves(0)[0]}")
    refused(
        late, "x double taxi taxi", "a double move needs two free lines in Mr. X's travel log (C3)"
    )


def test_a_double_move_with_a_reveal_after_each_leg(game: ScotlandYardGame) -> None:
    g = make(detectives=2, reveals="1,2", log_length=4)
    session = DetectivesSession(g, starts=starts(g))
    tracker = session.table.tracker
    assert tracker is not None
    start = tracker.stations()
    session.enter("x double taxi taxi")
    table = session.table
    assert table.awaiting is not None and table.awaiting.entry == 1
    assert table.events[-1].kind == "start"  # the legs wait for their reveals
    assert "Mr. X's move 1 is a reveal move" in shown(session)
    refused(session, "d1 pass", "Mr. X's move 1 is a reveal move: first enter")
    refused(session, "x taxi", "Mr. X's move 1 is a reveal move")
    held = table.detectives[0]
    refused(session, f"reveal {held}", f"Mr. X is revealed at {held}, but he can only be at")
    first = next(s for s in table.tracker.stations() if any(  # type: ignore[union-attr]
        _targets(g, s, "taxi") >> q & 1 and q not in table.detectives
        for q in range(1, g.board.n + 1)))  # fmt: skip
    session.enter(f"reveal {first}")
    table = session.table
    assert table.awaiting is not None and table.awaiting.entry == 2
    assert table.events[-1].public == {"entry": 1, "ticket": "taxi", "leg": 1, "reveal": first}
    tracker = table.tracker
    assert tracker is not None
    expected = _targets(g, first, "taxi") & ~mask_of(table.detectives)
    assert tracker.possible == expected and tracker.history[1] == 1 << first
    second = tracker.stations()[-1]
    session.enter(f"reveal {second}")
    assert session.table.events[-1].public["reveal"] == second
    assert session.table.to_move == [0, 1]
    assert session.history()[1:] == ["x double taxi taxi", f"reveal {first}", f"reveal {second}"]
    assert entry_texts(session.table.events) == session.history()
    assert start  # the start set was not empty
    refused(session, "reveal 3", "no reveal is due")


def test_a_second_leg_made_impossible_by_a_reveal_names_the_leg() -> None:
    g = make(detectives=2, reveals="1")
    session = DetectivesSession(g, starts=starts(g))
    session.enter("x double taxi bus")
    tracker = session.table.tracker
    assert tracker is not None
    stranded = next(s for s in tracker.stations() if not _targets(g, s, "bus"))
    refused(
        session,
        f"reveal {stranded}",
        f"'reveal {stranded}': the second leg (bus, move 2): Mr. X can only be at {{{stranded}}}, "
        "and no bus route leaves it",
    )


def test_a_capture_ends_the_session_and_a_miss_must_say_so(game: ScotlandYardGame) -> None:
    g = make(detectives=2, reveals="1")
    session = DetectivesSession(g, starts=starts(g))
    session.enter("x taxi")
    tracker = session.table.tracker
    assert tracker is not None
    # reveal Mr. X next to detective 1, if some possible station is next to him
    d1 = session.table.detectives[0]
    near = [s for s in tracker.stations() if _targets(g, d1, "taxi") >> s & 1]
    if not near:
        pytest.skip("no possible station next to detective 1 on this board")
    session.enter(f"reveal {near[0]}")
    # the suggestion is the capture, the entry to type; none after it, as the game ends
    assert suggest_moves(session.table) == {0: Move(near[0], Ticket.TAXI)}
    assert re.search(rf"\n *d1 +{d1} .*to move +taxi {near[0]} caught *\n", shown_lines(session))
    refused(
        session,
        f"d1 taxi {near[0]}",
        f"d1 missed Mr. X at {near[0]}, the only station he can be at: if he was caught, "
        f"write 'd1 taxi {near[0]} caught'",
    )
    other = next(s for s in range(1, g.board.n + 1)
                 if _targets(g, d1, "taxi") >> s & 1 and s != near[0]
                 and s not in session.table.detectives)  # fmt: skip
    refused(session, f"d1 taxi {other} caught", f"Mr. X is caught at {other}")
    session.enter(f"d1 taxi {near[0]} caught")
    assert session.finished and session.table.over == "caught"
    assert f"d1 caught Mr. X at {near[0]}" in shown(session)
    refused(session, "d2 pass", "the game is over")
    assert session.undo() == f"d1 taxi {near[0]} caught" and not session.finished


def test_suggestions_are_the_mc_detectives_moves() -> None:
    """In seat order, each suggestion is the plain Monte Carlo detective's decision on the
    position its own public record reads from the same events, the suggestions before it
    played as misses."""
    for seed in range(3):
        game = make()
        events, _ = random_game(game, seed)
        texts = entry_texts([e.seen_by(1) for e in events])
        cut = next(k for k in range(12, len(texts)) if texts[k - 1].startswith("x"))
        session = DetectivesSession(game)
        for text in texts[:cut]:
            session.enter(text)
        table = session.table
        suggested = suggest_moves(table)
        assert list(suggested) == table.to_move == list(range(5))
        tracker = table.tracker
        assert tracker is not None
        record = PublicRecord(game)
        for event in table.events:
            record.read(event)
        possible = tracker.possible
        params = replace(SUGGESTION, seed=len(table.events))
        for i, move in suggested.items():
            expected = decide(record.position(possible), params).move
            assert move == (PASS if expected is None else expected)
            if isinstance(move, Move):
                moved = {"detective": i, "ticket": str(move.ticket), "station": move.station}
                record.read(Event("detective_moved", {**moved, "captured": False}))
                possible &= ~(1 << move.station)
            else:
                record.read(Event("detective_passed", {"detective": i}))
        assert suggest_moves(table) == suggested  # the same position, the same suggestions
        assert str(suggested[0]) in shown(session)


def test_suggestions_out_of_seat_order_are_legal(game: ScotlandYardGame) -> None:
    session = session_at(game, "x taxi")
    session.enter(f"d2 {session.table.legal_moves(1)[0]}")
    suggested = suggest_moves(session.table)
    assert list(suggested) == [0]
    assert suggested[0] in session.table.legal_moves(0)
    stuck = session.table.copy()
    stuck.detective_tickets[0] = [0, 0, 0]
    assert suggest_moves(stuck) == {0: PASS}
    session.enter(f"d1 {session.table.legal_moves(0)[0]}")
    assert suggest_moves(session.table) == {}  # Mr. X is to move


# --- the loop: undo, edit, save, load --------------------------------------------------------


def test_undo_edit_save_and_load_round_trips(cwd: Path) -> None:
    game = make()
    events, _ = random_game(game, 3)
    texts = entry_texts([e.seen_by(1) for e in events])
    texts = texts[: max(n for n in range(3, 16) if kind(texts[n - 1]) == "d")]
    a, b = texts[0].split()[1], texts[1:]
    script = "\n".join([*b, "history", "undo", "save table.jsonl", "quit", ""])
    done = entry("assist", "scotland-yard", "--starts", a, cwd=cwd, stdin=script)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert f"ok: {b[0]}" in out and f"took back: {b[-1]}" in out
    assert f"saved {len(texts) - 1} entries to table.jsonl" in out
    view = read_view_log(cwd / "table.jsonl", ("detectives",))
    assert entry_texts(view.events) == texts[:-1]
    # infer reads the saved view and finds the set the session showed
    session = DetectivesSession(game, starts=tuple(map(int, a.split(","))))
    for text in b[:-1]:
        session.enter(text)
    tracker = session.table.tracker
    assert tracker is not None
    assert list(infer(view, None, {"model": "uniform"}).possible) == tracker.stations()
    again = entry("assist", "scotland-yard", "--load", "table.jsonl", cwd=cwd,
                  stdin=f"history\n{b[-1]}\nhistory\n")  # fmt: skip
    assert again.returncode == 0, again.stderr
    assert f"{len(texts) - 1:3}  {b[-2]}" in again.stdout and f"ok: {b[-1]}" in again.stdout
    both = entry("assist", "scotland-yard", "--load", "table.jsonl", "--starts", a, cwd=cwd)
    assert both.returncode == 2 and "leave out --starts" in both.stderr


def test_edit_and_delete_replay_the_later_entries() -> None:
    game = make(detectives=2)
    session = DetectivesSession(game, starts=starts(game))
    session.enter("x taxi")
    m1 = session.table.legal_moves(0)[0]
    session.enter(f"d1 {m1}")
    m2 = session.table.legal_moves(1)[-1]
    session.enter(f"d2 {m2}")
    session.enter("x bus")
    # replaying in the loop's way: take back entries 2.., enter 'x black' and the rest again
    later = session.history()[2:]
    for _ in range(len(later) + 1):
        session.undo()
    session.enter("x black")
    for text in later:
        session.enter(text)
    assert session.history()[1] == "x black"
    assert session.table.mrx_tickets[3] == game.profile.mrx_tickets[3] - 1


def test_edit_through_the_loop(cwd: Path) -> None:
    game = make(detectives=2)
    a, b = starts(game)
    session = DetectivesSession(game, starts=(a, b))
    session.enter("x taxi")
    m1 = session.table.legal_moves(0)[0]
    script = f"x taxi\nd1 {m1}\nedit 2 x bus\nedit 2 x ferry\ndelete 3\nhistory\n"
    done = entry("assist", "scotland-yard", "-o", "detectives=2", "--starts", f"{a},{b}",
                 cwd=cwd, stdin=script)  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    if "edited entry 2: x taxi -> x bus" not in out:  # a bus move impossible from the starts
        assert "error: nothing changed" in out
    assert "error: nothing changed: new entry 2 (x ferry)" in out
    assert f"deleted entry 3: d1 {m1}" in out


def test_bad_files_and_a_pending_reveal_are_refused(cwd: Path) -> None:
    game = make(detectives=1, reveals="1")
    a = starts(game)[0]
    script = "x taxi\nsave a.jsonl\nload nothing.jsonl\nhistory\n"
    done = entry("assist", "scotland-yard", "-o", "detectives=1", "-o", "reveals=1",
                 "--starts", str(a), cwd=cwd, stdin=script)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "error: Mr. X's move 1 waits for its reveal" in done.stdout
    assert "error: nothing.jsonl: cannot read" in done.stdout
    assert not (cwd / "a.jsonl").exists()
    bad = entry("assist", "scotland-yard", "--starts", "1,2", cwd=cwd)
    assert bad.returncode == 2 and "error: starts 1,2: 2 stations for 5 detectives" in bad.stderr


def test_full_game_logs_load_for_either_seating(cwd: Path) -> None:
    for bots, options in ((2, []), (4, ["-o", "detectives=3"])):
        args = ["--bots", ",".join(["random"] * bots), "-n", "1", "--no-db", "--seed", "5"]
        done = entry("play", "scotland-yard", *args, *options, "--logs", f"l{bots}", cwd=cwd)
        assert done.returncode == 0, done.stderr
        log = next((cwd / f"l{bots}").glob("*.jsonl"))
        loaded = entry("assist", "scotland-yard", "--load", log, cwd=cwd, stdin="history\n")
        assert loaded.returncode == 0, loaded.stderr
        assert "Game over" in loaded.stdout or "  2  x " in loaded.stdout


def test_the_banner_and_the_table() -> None:
    game = make()
    session = DetectivesSession(game)
    assert session.title.startswith("Scotland Yard detectives' assistant: 5 detectives")
    assert "Enter the detectives' start stations" in shown(session)
    assert "x double bus black" in session.entry_help and "d3 pass" in session.entry_help
    assert session.leave() == "Left the assistant after 0 entries."
    assert "; Mr. X shows himself after his moves 3, 8, 13, 18, 24 of 24. " in session.title
    hidden = DetectivesSession(make(detectives=1, reveals="", log_length=10))
    assert hidden.title.startswith("Scotland Yard detectives' assistant: 1 detective, ")
    assert "; Mr. X never shows himself in his travel log of 10 moves. " in hidden.title


def test_the_start_examples_fit_the_built_in_board() -> None:
    game = make()
    session = DetectivesSession(game)
    form = session.entry_help.splitlines()[0].split()[:2]  # 'start STATIONS'
    assert form == ["start", example_starts(game)]
    session.enter(" ".join(form))
    session.enter("x taxi")
    move = next(line.split()[:3] for line in session.entry_help.splitlines() if line[:2] == "d1")
    session.enter(" ".join(move))  # the detective's example move fits the example starts
    starts = next(param.help for param in ASSIST.params if param.name == "starts")
    assert f"e.g. {example_starts(game)} " in starts and f"'start {example_starts(game)}'" in starts


def test_a_reveal_must_be_a_station() -> None:
    session = session_at(make(detectives=2, reveals="1"), "x taxi")
    refused(session, "reveal 999", "'reveal 999': 999 is not a station (1..200)")


@pytest.mark.parametrize("options", [{"log_length": 2, "reveals": "2"}, {"max_rounds": 2}])
def test_the_last_detective_phase_is_not_followed_by_mr_x(options: dict[str, Any]) -> None:
    game = make(detectives=2, **options)
    session = session_at(game, "x taxi")
    assert "To move: d1, d2 (in any order), then Mr. X." in shown(session)
    for i in (0, 1):
        session.enter(f"d{i + 1} {session.table.legal_moves(i)[0]}")
    session.enter("x taxi")
    tracker = session.table.tracker
    assert tracker is not None
    if session.table.awaiting is not None:
        session.enter(f"reveal {tracker.stations()[0]}")
    last = "the last moves: Mr. X escapes unless caught."
    assert f"To move: d1, d2 (in any order), {last}" in shown(session)
    session.enter(f"d1 {session.table.legal_moves(0)[0]}")
    assert f"To move: d2, {last}" in shown(session)


def test_where_mr_x_may_be_in_words() -> None:
    assert where_lines({46: 1.0}, "random-walk") == ["Mr. X is at 46."]
    assert where_lines({3: 0.5, 1: 0.5}, "uniform") == [
        "Mr. X may be at 2 stations: 1, 3",
        "Probabilities (uniform): 50.0% each",
    ]
    weights = {s: (s + 1) / 210 for s in range(20)}
    listed, odds = where_lines(weights, "random-walk")
    assert listed.startswith("Mr. X may be at 20 stations: 0, 1, 2, 3,")
    assert odds.startswith("Probabilities (random-walk), most likely first: 19 9.5%, 18 9.0%")
    assert odds.endswith("8 4.3%, ... (20 stations)")


@pytest.mark.parametrize(
    "options",
    [
        {"final_detective_phase": False, "log_length": 4, "reveals": "2,4"},
        {"max_rounds": 3},
        {"reveals": "1,2,3,4,5,6", "detectives": 2},  # doubles revealed after both legs
        {"edition": "2014", "detectives": 3, "seats": 4},
    ],
)
def test_random_games_under_other_options(options: dict[str, Any]) -> None:
    for seed in range(10):
        game = make(**options)
        session, _ = feed(game, seed)
        final = random_game(game, seed)[1][-1]
        if final.termination() != "cornered":
            assert session.table.over == final.termination()


def test_setups_the_rules_refuse() -> None:
    fixed = make(detectives=2, detective_starts="9,10")
    refused(
        DetectivesSession(fixed), "start 10,9", "this game fixes the detectives' starts at 9,10"
    )
    mrx = make(detectives=1, mrx_start=9)
    refused(DetectivesSession(mrx), "start 9", "no start station is free")
    alone = make(detectives=1, mrx_start=9, detective_starts="10")
    session = DetectivesSession(alone, starts=(10,))
    tracker = session.table.tracker
    assert tracker is not None and tracker.stations() == [9]
    missing = next(t for t in ("underground", "bus", "taxi") if not _targets(alone, 9, t))
    refused(
        session, f"x {missing}", f"Mr. X can only be at {{9}}, and no {missing} route leaves it"
    )
    refused(session, "reveal x", "write 'reveal STATION'")
    refused(session, "d0 pass", "there is no detective 0")


def test_mr_x_cornered_at_his_first_turn() -> None:
    """S26 as the engine plays it: every station next to his fixed start holds a detective."""
    board = make().board
    station = next(
        s for s in range(1, board.n + 1) if 1 <= board.any_neighbours[s].bit_count() <= 5
    )
    around = [s for s in range(1, board.n + 1) if board.any_neighbours[station] >> s & 1]
    game = make(detectives=len(around), mrx_start=station,
                detective_starts=",".join(map(str, around)))  # fmt: skip
    session = DetectivesSession(game, starts=tuple(around))
    assert session.finished and session.table.over == "cornered"
    assert "Mr. X cannot move from any station he may be at (S26)" in shown(session)
    _, states = random_game(game, 0)
    assert states[-1].termination() == "cornered"
