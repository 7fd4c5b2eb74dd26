"""The match runner: bots propose, the rules engine disposes.

:func:`run_match` plays one game between bots.  Every action a bot returns is checked against
the legal actions the engine computed and then applied by the engine, which checks it again.
A bot that raises, returns an illegal action or exceeds the per-move time limit forfeits with a
recorded reason; the runner itself never raises because of a bot.

Determinism: with the same game, bots and seed, the sequence of actions and events is the same
bit for bit (bots are seeded with ``derive_seed(seed, "bot", seat)``, chance with
``derive_seed(seed, "chance")``).
"""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Hashable, Iterator, MutableSequence, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sleuth.core.bots import Bot, BotInfo, BotSpec
from sleuth.core.errors import IllegalActionError
from sleuth.core.events import Event, View, freeze
from sleuth.core.game import CHANCE, Game, State
from sleuth.core.outcome import FORFEIT, Outcome, side_wins
from sleuth.core.rng import derive_seed


class DefaultLimit(float):
    """The runner's default per-move limit: a float (seconds) that a bot's declared move budget
    (:meth:`~sleuth.core.bots.BotSpec.budget`) raises for that bot's seat.  Any other float
    passed as a time limit is one the user chose, and applies to every seat as given."""

    def __repr__(self) -> str:
        return f"DefaultLimit({float(self)!r})"


DEFAULT_TIME_LIMIT: float = DefaultLimit(1.0)
"""Seconds a bot may take per move before it forfeits, unless it declares a larger budget."""
SETUP_LIMIT = 60.0
"""Seconds a bot may take to start (its constructor) before it is interrupted and forfeits."""
MAX_TIMER = 1e6
"""Longer limits are not enforced by a timer (``setitimer`` cannot hold arbitrary values)."""
BOT_FAILURES = (Exception, SystemExit)
"""What a bot may raise without stopping the match (``KeyboardInterrupt`` still stops it)."""


@dataclass(frozen=True)
class Step:
    """One applied action: who played it (a seat or ``CHANCE``) and the events it caused."""

    seat: int
    action: Hashable
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Forfeit:
    """A seat that lost by misbehaving: which bot, before which step, and why."""

    seat: int
    bot: str
    step: int
    reason: str


@dataclass
class MatchRecord:
    """The complete record of one match (enough to write a log and a results row)."""

    game: Game[Any]
    seed: int
    bots: tuple[str, ...]
    steps: list[Step] = field(default_factory=list)
    forfeits: list[Forfeit] = field(default_factory=list)
    result: Outcome | None = None
    """The structured outcome, set when the match is over (see :func:`final_result`)."""
    duration: float = 0.0
    final_state: State[Any] | None = None
    thinking: list[list[float]] = field(default_factory=list)
    """Seconds each seat's bot took for each move it was asked for."""

    @property
    def returns(self) -> tuple[float, ...]:
        """Each seat's return (empty before the match is over)."""
        return self.result.returns if self.result else ()

    @property
    def wins(self) -> tuple[float, ...]:
        """Each seat's win share (empty before the match is over)."""
        return self.result.wins if self.result else ()

    @property
    def outcome(self) -> str:
        """The outcome in words (empty before the match is over)."""
        return self.result.text if self.result else ""

    @property
    def length(self) -> int:
        """Number of actions played by seats (chance outcomes are not counted)."""
        return sum(1 for s in self.steps if s.seat != CHANCE)


class BotTimeout(BaseException):
    """Raised inside a bot that overran its hard time limit (BaseException: bots can't eat it)."""


@contextmanager
def _alarm_handler() -> Iterator[bool]:
    """Install a SIGALRM handler for hard time limits; yields False where signals can't be used."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield False
        return

    def on_alarm(signum: int, frame: object) -> None:
        raise BotTimeout

    previous = signal.signal(signal.SIGALRM, on_alarm)
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def _deadline(seconds: float | None, can_interrupt: bool) -> Iterator[None]:
    """Raise ``BotTimeout`` in the code of the block if it runs longer than ``seconds``."""
    armed = can_interrupt and seconds is not None and 0 < seconds <= MAX_TIMER
    if armed and seconds is not None:
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def run_match(
    game: Game[Any],
    bots: Sequence[BotSpec],
    seed: int,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> MatchRecord:
    """Play one game; ``bots[s]`` plays seat ``s``.  ``time_limit`` is seconds per move (None:
    no limit); by default :data:`DEFAULT_TIME_LIMIT`, raised for each seat to the move budget
    its bot declares (:func:`seat_limits`).

    A bot exceeding its limit forfeits after its move returns; a bot still thinking at five
    times the limit (at least one second more) is interrupted, where the platform allows.
    """
    if len(bots) != game.num_players:
        raise ValueError(f"{game.name} needs {game.num_players} bots, got {len(bots)}")
    for bot in bots:
        bot.warm()  # untimed: compiled kernels load (or compile) before the game starts
    record = MatchRecord(game=game, seed=seed, bots=tuple(b.name for b in bots))
    record.thinking = [[] for _ in bots]
    started = time.perf_counter()
    state = game.new_initial_state()
    chance_rng: random.Random | None = None  # made on the first chance event
    info = freeze(game.public_info())
    events_of: list[list[Event]] = [[] for _ in bots]
    views = [View(s, game.roles[s], info, events_of[s]) for s in range(len(bots))]
    forfeited: set[int] = set()
    limits = seat_limits(bots, time_limit)
    hard_limits = [None if limit is None else max(5 * limit, limit + 1.0) for limit in limits]

    with _alarm_handler() as can_interrupt:
        players = _start_bots(game, bots, seed, can_interrupt, record.forfeits)
        forfeited.update(f.seat for f in record.forfeits)

        while not state.is_terminal():
            if forfeited and not game.continues_after_forfeit:
                break
            seat = state.current_player()
            if seat == CHANCE:
                if chance_rng is None:
                    chance_rng = random.Random(derive_seed(seed, "chance"))
                action = state.sample_chance(chance_rng)
                events = tuple(state.apply(action))
            elif seat in forfeited:
                action = state.fallback_action()
                events = tuple(state.apply(action))
            else:
                player = players[seat]
                assert player is not None
                started_move = time.perf_counter()
                action, problem = _ask(
                    player, state, views[seat], limits[seat], hard_limits[seat], can_interrupt
                )
                record.thinking[seat].append(time.perf_counter() - started_move)
                if problem is None:
                    events, problem = _apply_checked(state, action)
                if problem is not None:
                    forfeited.add(seat)
                    record.forfeits.append(
                        Forfeit(seat, bots[seat].name, len(record.steps), problem)
                    )
                    continue
            record.steps.append(Step(seat, action, events))
            for s, seen in enumerate(events_of):
                seen.extend(e if e.private is None else e.seen_by(s) for e in events)

        _tell_game_over(players, views, forfeited, hard_limits, can_interrupt)

    record.result = final_result(game, state, record.forfeits)
    record.final_state = state
    record.duration = time.perf_counter() - started
    return record


def seat_limits(bots: Sequence[BotSpec | BotInfo], time_limit: float | None) -> list[float | None]:
    """Each seat's seconds per move: ``time_limit`` as given (None: no limit), except that the
    default limit (a :class:`DefaultLimit`) is raised to the budget the seat's bot declares."""
    if not isinstance(time_limit, DefaultLimit):
        return [time_limit] * len(bots)
    return [max(float(time_limit), bot.budget() or 0.0) for bot in bots]


def _start_bots(
    game: Game[Any],
    bots: Sequence[BotSpec],
    seed: int,
    can_interrupt: bool,
    forfeits: list[Forfeit],
) -> list[Bot | None]:
    """Build each seat's bot; a bot that fails or overruns :data:`SETUP_LIMIT` forfeits."""
    players: list[Bot | None] = []
    for seat, spec in enumerate(bots):
        try:
            with _deadline(SETUP_LIMIT, can_interrupt):
                players.append(spec.make(game, seat, derive_seed(seed, "bot", seat)))
            continue
        except BotTimeout:
            problem = f"could not start within {SETUP_LIMIT:g} s"
        except BOT_FAILURES as exc:
            problem = f"could not start: {_describe(exc)}"
        players.append(None)
        forfeits.append(Forfeit(seat, spec.name, 0, problem))
    return players


def _tell_game_over(
    players: list[Bot | None],
    views: list[View],
    forfeited: set[int],
    hard_limits: Sequence[float | None],
    can_interrupt: bool,
) -> None:
    """Give every bot still in the game its final view; a failure there changes nothing."""
    for seat, player in enumerate(players):
        if player is None or seat in forfeited or type(player).game_over is Bot.game_over:
            continue
        try:
            with _deadline(hard_limits[seat], can_interrupt):
                player.game_over(views[seat])
        except (BotTimeout, *BOT_FAILURES):
            pass


def final_result(game: Game[Any], state: State[Any], forfeits: Sequence[Forfeit]) -> Outcome:
    """The outcome of a match that ended in ``state``.

    A game that stops at the first forfeit ends with termination ``"forfeit"``: the winners are
    :meth:`Game.forfeit_winners` and each seat's return is its win share.  In a game that goes
    on, the termination is the game's own, a forfeited seat scores 0, and the winners are
    :meth:`State.winners_without` the forfeited seats (with the default rule, the richest of
    the others: a forfeiter's lead passes to the next seat); the text says who forfeited.
    """
    forfeited = frozenset(f.seat for f in forfeits)
    if forfeited and not game.continues_after_forfeit:
        wins = game.forfeit_wins(forfeited)
        culprits = ", ".join(f"{game.roles[f.seat]} ({f.bot})" for f in forfeits)
        return Outcome(
            FORFEIT, game.forfeit_winners(forfeited), wins, wins, f"forfeit by {culprits}"
        )
    result = state.result()
    if not forfeited:
        return result
    returns = tuple(0.0 if s in forfeited else r for s, r in enumerate(result.returns))
    winners = state.winners_without(forfeited)
    shares = side_wins(game.sides(), winners)
    wins = tuple(0.0 if s in forfeited else w for s, w in enumerate(shares))
    seats = ", ".join(f"{game.roles[s]} (seat {s})" for s in sorted(forfeited))
    text = f"{result.text}; forfeited, scoring 0: {seats}"
    return Outcome(result.termination, winners, returns, wins, text)


def _apply_checked(state: State[Any], action: Hashable) -> tuple[tuple[Event, ...], str | None]:
    """Apply a bot's action; the engine's own check is the second validation."""
    try:
        return tuple(state.apply(action)), None
    except IllegalActionError as exc:
        return (), f"returned an action the engine refused: {exc}"


def _ask(
    player: Bot,
    state: State[Any],
    view: View,
    time_limit: float | None,
    hard_limit: float | None,
    can_interrupt: bool,
) -> tuple[Hashable, str | None]:
    """Ask a bot for its move; return ``(action, None)`` or ``(None, reason to forfeit)``."""
    legal = state.legal_actions()
    t0 = time.perf_counter()
    armed = can_interrupt and hard_limit is not None and hard_limit <= MAX_TIMER
    try:
        if armed:  # inline rather than _deadline(): this is the hot path
            signal.setitimer(signal.ITIMER_REAL, hard_limit)  # type: ignore[arg-type]
        try:
            action = player.ask(view, tuple(legal) if isinstance(legal, MutableSequence) else legal)
        finally:
            if armed:
                signal.setitimer(signal.ITIMER_REAL, 0)
    except BotTimeout:
        return None, f"interrupted after {hard_limit:g} s (limit {time_limit:g} s per move)"
    except BOT_FAILURES as exc:
        return None, f"raised {_describe(exc)}"
    elapsed = time.perf_counter() - t0
    if time_limit is not None and elapsed > time_limit:
        return None, f"took {elapsed:.3f} s (limit {time_limit:g} s per move)"
    try:
        # The engine's own action object, parsed back from the text form: an object that
        # merely compares equal to a legal action (True for 1, 1.0 for 1) is not accepted.
        canonical = state.game.parse_action(str(action))
        ok = state.is_legal(canonical) and canonical == action and type(canonical) is type(action)
    except Exception:
        ok = False
    if not ok:
        return None, f"returned an illegal action: {action!r}"
    return canonical, None
