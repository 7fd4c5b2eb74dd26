"""The Camel Up odds assistant behind ``sleuth assist camel-up``.

A person at a real table types the moves as they happen, in turn order from seat 0; the
session keeps the table as *their* seat sees it (other players' overall cards hidden) and shows
the leg and race odds and the best actions of the player to move after every entry.

Entries (turn order is implied: each entry is the move of the seat to move):

========================================  ==================================================
``start 1:blue 2:green,orange 3:...``     the starting stacks, bottom to top (first entry)
``roll blue 2``                           the seat rolled: blue's die showing 2 (2nd edition:
                                          ``roll white 2`` is the grey die showing a white 2)
``leg blue``                              took blue's top leg ticket
``tile 10 oasis``                         put (or moved) their desert tile
``winner blue`` / ``loser blue``          *your* overall card (on your turn)
``winner`` / ``loser``                    another player's hidden overall card
``reveal winner blue green``              at the end: the camels of a pile's cards as they
                                          are turned up, in pile order (then it is scored)
========================================  ==================================================
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text

from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.core.seatview import ViewLog
from sleuth.core.table import Command, count_entries
from sleuth.core.viewlog import (
    enter_entries,
    event_fields,
    loading,
    read_view_log,
    same_events,
    write_view_log,
)
from sleuth.games.camel_up.actions import PILES, ROLL, Die, OverallBet, Start
from sleuth.games.camel_up.advice import Advice, advise
from sleuth.games.camel_up.rules import HIDDEN, CamelState, CamelUpGame, describe_stacks
from sleuth.games.camel_up.track import racing_order

ENTRY_HELP = """\
(each entry is the move of the seat to move: seats are counted from 0, and seat 0 starts)
start 1:blue 2:green,orange 3:yellow,white   the starting stacks, bottom to top
roll blue 2                a roll: blue's die showing 2 (2nd edition: roll white 2 = grey die)
leg blue                   the top leg ticket of blue
tile 10 oasis              a desert tile on space 10 (oasis or mirage)
winner blue / loser blue   your own overall card, on your turn
winner / loser             another player's hidden overall card
reveal winner blue green   at the end: a pile's cards as turned up, first card first"""


class CamelSession:
    """One seat's game at a real table, for :func:`sleuth.assist.repl.run_repl` (it goes on
    after the game's end, so that entries can still be taken back)."""

    entry_help = ENTRY_HELP
    commands: tuple[Command, ...] = ()
    finished = False

    def __init__(self, game: CamelUpGame, seat: int = 0, rollouts: int = 20_000) -> None:
        if not 0 <= seat < game.players:
            raise SleuthError(f"seat {seat} is not one of the {game.players} seats (0-based)")
        self.game = game
        self.seat = seat
        self.rollouts = rollouts
        self.entries: list[str] = []
        self.events: list[Event] = []
        self.state = game.new_initial_state()
        self._advice: tuple[tuple[str, ...], int, Advice] | None = None
        """The last advice computed, with the entries and rollouts it was computed for."""

    def enter(self, text: str) -> str:
        trial = self.state.clone()
        canonical, events = self._play(trial, text)
        self.state = trial
        self.entries.append(canonical)
        self.events += [e.seen_by(self.seat) for e in events]
        return canonical

    def _play(self, state: CamelState, text: str) -> tuple[str, list[Event]]:
        """Play one entry on ``state``; return its canonical text and the events."""
        words = text.strip().lower().split()
        if not words:
            raise SleuthError("an empty entry")
        if words[0] == "reveal":
            return self._reveal(state, words)
        if state.is_terminal():
            raise SleuthError(f"{text.strip()!r}: the game is over ('undo' takes entries back)")
        if state.order is None and words[0] != "start":
            raise SleuthError(f"first enter the starting stacks: {_start_example(self.game)}")
        if words[0] == "start":
            action = self.game.parse_action(text)
            return str(action), state.apply(action)
        if words[0] == "roll":
            if len(words) != 3:
                raise SleuthError("a roll is entered with its die: roll blue 2")
            die = self.game.parse_action(f"die {words[1]} {words[2]}")
            events = [] if _forced_roll(state) else state.apply(ROLL)
            events += state.apply(die)
            return f"roll {words[1]} {words[2]}", events
        if words[0] in PILES and len(words) == 1:
            if state.seat == self.seat:
                raise SleuthError(f"it is your turn: name your card ({words[0]} blue)")
            return words[0], state.apply_hidden_bet(words[0])
        action = self.game.parse_action(text)
        if isinstance(action, Start | Die):
            raise SleuthError(f"{text!r}: enter rolls as 'roll blue 2'")
        if isinstance(action, OverallBet) and state.seat != self.seat:
            wrong = action.camel not in self.game.camel_ids
            named = f" (and {action.camel!r} is not a camel of this edition)" if wrong else ""
            raise SleuthError(
                f"seat {state.seat}'s card is hidden from you: enter just {action.pile!r}{named}"
            )
        return str(action), state.apply(action)

    def _reveal(self, state: CamelState, words: list[str]) -> tuple[str, list[Event]]:
        """``reveal PILE CAMEL ...``: the pile's cards as turned up at the end."""
        if len(words) < 2 or words[1] not in PILES:
            raise SleuthError("write 'reveal winner CAMELS' or 'reveal loser CAMELS'")
        unknown = [w for w in words[2:] if w not in self.game.camel_ids]
        if unknown:
            raise SleuthError(f"unknown camel {unknown[0]!r}")
        camels = [self.game.camel_ids[w] for w in words[2:]]
        return " ".join(words), state.turn_up(words[1], camels)

    def undo(self) -> str:
        if not self.entries:
            raise SleuthError("nothing to undo")
        last = self.entries[-1]
        self._replay(self.entries[:-1])
        return last

    def _replay(self, entries: list[str]) -> None:
        state = self.game.new_initial_state()
        events: list[Event] = []
        for number, text in enumerate(entries, start=1):
            try:
                _, new = self._play(state, text)
            except SleuthError as exc:
                raise SleuthError(f"entry {number} ({text!r}): {exc}") from None
            events += [e.seen_by(self.seat) for e in new]
        self.state, self.entries, self.events = state, list(entries), events

    def history(self) -> list[str]:
        return list(self.entries)

    @property
    def title(self) -> str:
        return (
            f"Camel Up odds assistant: you are seat {self.seat} of {self.game.players} "
            f"(seats are counted from 0, and seat 0 moves first). Type the moves in turn order."
        )

    def leave(self) -> str:
        return f"Left the assistant after {count_entries(len(self.entries))}."

    def render(self) -> Group:
        state = self.state
        if state.order is None:
            return Group(Text(f"You are seat {self.seat} of {self.game.players}. Enter the "
                              f"starting stacks: {_start_example(self.game)}"))  # fmt: skip
        hidden = [  # at the end: the piles whose cards must still be turned up
            pile
            for pile, cards in zip(PILES, state.piles, strict=True)
            if state.is_terminal() and any(camel == HIDDEN for _, camel in cards)
        ]
        money = "Money before the overall bets" if hidden else "Money"
        lines = [
            Text(f"Leg {state.leg}: {describe_stacks(self.game, state.order)}"),
            Text(f"Dice in the pyramid: {', '.join(state.dice_colours())}; tiles: "
                 + (", ".join(f"{i + 1} {'oasis' if s > 0 else 'mirage'} (seat "
                              f"{state.tile_owner[i]})" for i, s in sorted(state.tiles.items()))
                    or "none")),
            Text(f"{money}: " + ", ".join(f"seat {s}{' (you)' if s == self.seat else ''} {m}"
                                          for s, m in enumerate(state.money))),
        ]  # fmt: skip
        if state.is_terminal():
            del lines[1]  # the dice and tiles no longer matter
        if state.is_terminal():
            if hidden:
                ranking = racing_order(state.order)
                lines.append(Text(
                    f"Game over: winner {self.game.camel_name(ranking[-1])}, loser "
                    f"{self.game.camel_name(ranking[0])}. Enter the overall cards as they are "
                    f"turned up, first card first: "
                    + "; ".join(f"reveal {pile} CAMELS ({len(state.piles[PILES.index(pile)])} "
                                "cards)" for pile in hidden)))  # fmt: skip
                return Group(*lines)
            lines.append(Text(f"Game over: {state.outcome()}. {self._winners(state)}"))
            return Group(*lines)
        if _forced_roll(state):
            lines.append(Text(f"Turn {self.game.turn_cap} has passed: every turn is a forced "
                              "roll (T4). Enter it: roll COLOUR N", style="bold"))  # fmt: skip
            return Group(*lines)
        advice = self.advice()
        who = "your turn" if state.seat == self.seat else f"seat {state.seat} to move"
        lines.append(Text(who, style="bold"))
        return Group(*lines, render_advice(state, advice))

    def _winners(self, state: CamelState) -> str:
        """Who won the finished game: the richest seat, or the seats that share the win."""
        richest = max(state.money)
        names = [
            f"seat {s} (you)" if s == self.seat else f"seat {s}"
            for s, money in enumerate(state.money)
            if money == richest
        ]
        if len(names) == 1:
            return f"{names[0].capitalize()} wins with {richest} coins."
        tied = f"{', '.join(names[:-1])} and {names[-1]}"
        return f"{tied.capitalize()} share the win with {richest} coins (K28)."

    def advice(self) -> Advice:
        """The advice shown for the current state (the odds and every action's value, seeded
        by the number of entries), computed once per state: the text and the web app's
        picture share it.  Only for a state where a player is to move."""
        key = tuple(self.entries)
        cached = self._advice
        if cached is not None and cached[0] == key and cached[1] == self.rollouts:
            return cached[2]
        state = self.state
        advice = advise(state, rollouts=self.rollouts, seed=len(self.entries), all_tiles=True)
        self._advice = (key, self.rollouts, advice)
        return advice

    def save(self, path: Path) -> None:
        write_view_log(ViewLog(self.game, self.seat, self.events), path)

    def load(self, path: Path) -> None:
        view = read_view_log(path, "player", "camel-up")
        assert isinstance(view.game, CamelUpGame)  # read_view_log checked the game's name
        with loading(view):
            session = CamelSession(view.game, view.seat, self.rollouts)
            enter_entries(view.events, entry_sources(view.events), session.enter)
            same_events(view, session.events)
        self.game, self.seat = session.game, session.seat
        self.state, self.entries, self.events = session.state, session.entries, session.events
        self._advice = None


def _start_example(game: CamelUpGame) -> str:
    """A starting-stacks entry with the edition's racing camels."""
    a, b, c, d, e = game.racers
    return f"start 1:{a} 2:{b},{c} 3:{d},{e}"


def render_advice(state: CamelState, advice: Advice, top: int = 8) -> Group:
    """The odds table and the best actions of the player to move."""
    name = state.game.camel_name
    odds = advice.odds
    title = "Odds" + ("" if odds.exact else f" (race: {odds.rollouts:,} rollouts)")
    table = Table("camel", "leg 1st", "leg 2nd", "next ticket: EV", "wins race", "last",
                  title=title)  # fmt: skip
    ranking = sorted(range(5), key=lambda c: -odds.leg.first[c])
    tickets = state.game.tickets
    for c in ranking:
        taken = state.taken[c]
        ticket = (
            f"{tickets[taken]}: {odds.leg.ticket_ev(c, tickets[taken]):+.2f}"
            if taken < len(tickets)
            else "none left"
        )  # the top leg ticket of the camel's stack, as a player can take it now
        table.add_row(
            name(c), f"{odds.leg.first[c]:.1%}", f"{odds.leg.second[c]:.1%}", ticket,
            f"{odds.win[c]:.1%}", f"{odds.last[c]:.1%}",
        )  # fmt: skip
    best = Table("action", "expected coins", title=f"Best actions for seat {state.seat}")
    for action, value in advice.ranked()[:top]:
        best.add_row(str(action), f"{value:+.3f}")
    return Group(table, best)


def odds_json(state: CamelState, advice: Advice) -> dict[str, object]:
    """The JSON answer of ``odds --json`` (documented in docs/camel-up.md)."""
    name = state.game.camel_name
    odds = advice.odds
    return {
        "leg": {
            "first": {name(c): p for c, p in enumerate(odds.leg.first)},
            "second": {name(c): p for c, p in enumerate(odds.leg.second)},
            "game_ends": odds.leg.game_end,
        },
        "game": {
            "winner": {name(c): p for c, p in enumerate(odds.win)},
            "loser": {name(c): p for c, p in enumerate(odds.last)},
            "exact": odds.exact,
        },
        "ev": {str(action): value for action, value in advice.values.items()},
        "best": str(advice.best),
    }


def entry_texts(events: list[Event]) -> list[str]:
    """The entries that reproduce a seat's view (the inverse of what the session records); an
    event whose fields cannot be read is an :class:`~sleuth.core.viewlog.EventFieldError`."""
    return [text for _, text in entry_sources(events)]


def entry_sources(events: list[Event]) -> list[tuple[int, str]]:
    """:func:`entry_texts`, each with the index of its event."""
    entries = []
    hidden: set[str] = set()  # piles holding a card this seat did not see
    # the assistant's own log: its reveals were entered, and its scoring followed from them
    entered = any(e.kind == "overall_turned_up" for e in events)
    for index, event in enumerate(events):
        with event_fields(index, event):
            entries += [(index, text) for text in _entries_of(event, hidden, entered)]
    return entries


def _entries_of(event: Event, hidden: set[str], entered: bool) -> list[str]:
    """The entries of one event of a seat's view (see :func:`entry_texts`); a hidden overall
    card adds its pile to ``hidden``."""
    public = event.public
    if event.kind == "start":
        return [str(Start(tuple((int(s), tuple(n)) for s, n in public["stacks"])))]
    if event.kind == "die":
        return [f"roll {public['colour']} {public['value']}"]
    if event.kind == "leg_bet":
        return [f"leg {public['camel']}"]
    if event.kind == "tile":
        return [f"tile {public['space']} {public['side']}"]
    if event.kind == "overall_bet":
        if event.private is None:
            hidden.add(str(public["pile"]))
            return [str(public["pile"])]
        return [f"{public['pile']} {event.private['camel']}"]
    if event.kind == "overall_turned_up":
        return [f"reveal {public['pile']} {' '.join(public['camels'])}"]
    if event.kind == "overall_scored" and not entered and public["pile"] in hidden:
        # a whole game's log: the engine turned every card up at once
        return [f"reveal {public['pile']} {' '.join(c[1] for c in public['cards'])}"]
    return []


def _forced_roll(state: CamelState) -> bool:
    """Whether the turn cap has passed (T4): every turn is then a roll that nobody chose,
    entered as ``roll COLOUR N`` like any other, and there is no decision to advise."""
    return state.order is not None and not state.over and state.turns >= state.game.turn_cap
