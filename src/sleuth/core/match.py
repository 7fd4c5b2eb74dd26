"""The match runner: bots propose, the rules engine disposes.

:func:`run_match` plays one game between bots.  Every action a bot returns is checked against
the legal actions the engine computed and then applied by the engine, which checks it again.
A bot that raises, returns an illegal action or exceeds the per-move time limit forfeits with a
recorded reason; the runner itself never raises because of a bot.

Time limits count CPU time, so that a machine's load cannot make a bot forfeit: a move is
measured by the CPU time of the thread that asks the bot (``time.thread_time()``), and a bot
still thinking is interrupted (where signals can be used: the main thread of a POSIX process,
as in ``sleuth play``'s workers) after :func:`hard_stops`: five times its limit of CPU time,
or a wall-clock time far above it (:data:`WALL_FACTOR`, for a bot that waits without
computing).  The forfeit's reason names which.  One lazily armed SIGALRM timer serves both
stops (see :class:`_Stops`): a move costs two readings of the thread's CPU clock and no system
call for the timer; its signal handler is installed once for all the matches of a
:func:`hard_stopping` block (a tournament), else once per match.  Bots that stop on a wall
clock of their own (a search's ``seconds=``) still play differently under load; the built-in
bots' defaults do not.

An action a bot returns that is one of the objects the engine listed as legal is applied as
it is (the engine checks it again); any other object is parsed back from its text form, so
that only the engine's own action objects are applied (see :func:`_ask`).  What is the same
in every match of a seating (the frozen game information, the limits) is made once by a
:class:`MatchRunner`; :func:`run_match` keeps the last one it made while it is called with the
same game, bots and limit.

Bots whose decisions are made elsewhere, many games' together (a bot process of protocol
version 2: :class:`~sleuth.core.bots.Batch`), are not called in place: a match is a generator
that yields each such decision, and :func:`play_many` keeps several matches in flight and asks
all their waiting decisions at once; :meth:`MatchRunner.play` answers each by itself.

Determinism: with the same game, bots and seed, the sequence of actions and events is the same
bit for bit (bots are seeded with ``derive_seed(seed, "bot", seat)``, chance with
``derive_seed(seed, "chance")``).
"""

from __future__ import annotations

import math
import random
import signal
import threading
import time
from collections.abc import Generator, Hashable, Iterable, Iterator, MutableSequence, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import repeat
from operator import is_
from typing import Any

from sleuth.core.bots import Ask, Batch, Bot, BotInfo, BotSpec
from sleuth.core.errors import IllegalActionError
from sleuth.core.events import Event, View, freeze
from sleuth.core.game import CHANCE, Game, State
from sleuth.core.outcome import FORFEIT, Outcome, side_wins
from sleuth.core.rng import derive_last, derive_seed


class DefaultLimit(float):
    """The runner's default per-move limit: a float (seconds) that a bot's declared move budget
    (:meth:`~sleuth.core.bots.BotSpec.budget`) raises for that bot's seat.  Any other float
    passed as a time limit is one the user chose, and applies to every seat as given."""

    def __repr__(self) -> str:
        return f"DefaultLimit({float(self)!r})"


DEFAULT_TIME_LIMIT: float = DefaultLimit(1.0)
"""CPU seconds a bot may use per move before it forfeits, unless it declares a larger budget."""
SETUP_LIMIT = 60.0
"""CPU seconds a bot may use to start (its constructor) before it is interrupted and forfeits."""
WALL_FACTOR = 30.0
"""A bot still busy after this many times its limit in wall-clock seconds (and at least
:data:`WALL_LEAST`) is interrupted, though it used little CPU: it waits for something (a sleep, a
blocked read) that may never come.  Far above what load does to a move within its limit."""
WALL_LEAST = 60.0
"""The least wall-clock seconds before a waiting bot is interrupted (see :data:`WALL_FACTOR`)."""
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
    """CPU seconds each seat's bot used for each move it was asked for (its thread's CPU time:
    what the limit counts)."""

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
    """Raised inside a bot that overran a hard stop (BaseException: bots can't eat it).
    ``cpu``: True when the stop was its CPU time, False when its wall-clock time."""

    def __init__(self, cpu: bool) -> None:
        super().__init__()
        self.cpu = cpu


def hard_stops(limit: float | None) -> tuple[float, float] | None:
    """The CPU seconds and wall-clock seconds after which a bot still busy under a per-move
    ``limit`` (CPU seconds; None: no limit, no stop) is interrupted: five times the limit (at
    least one second more) of CPU time, or :data:`WALL_FACTOR` times it (at least
    :data:`WALL_LEAST`) of wall-clock time."""
    if limit is None:
        return None
    return max(5 * limit, limit + 1.0), max(WALL_FACTOR * limit, WALL_LEAST)


class _Stops:
    """The hard stops of the bot code the runner calls, by one real-time timer (SIGALRM, main
    thread only), armed lazily so that a call costs no system call for it.

    A call may use ``cpu`` seconds of its thread's CPU time and wait ``wall`` seconds.  When the
    timer fires during a call, the handler raises :class:`BotTimeout` if either stop has passed,
    and otherwise re-arms the timer for the soonest either could pass (CPU time runs no faster
    than the wall clock, so the CPU stop comes no sooner than the CPU time left).  A timer
    pending from an earlier call is kept when it fires no later than that; one that fires
    between calls is ignored.  Invariant: while a call runs, a timer is pending that fires no
    later than the call's first possible stop."""

    __slots__ = ("cpu", "cpu_from", "fires_at", "started", "wall")

    def __init__(self) -> None:
        self.started: float | None = None
        """The running call's start (``perf_counter``); None between calls."""
        self.cpu_from = 0.0
        """The running call's thread CPU time at its start (``thread_time``)."""
        self.cpu = self.wall = 0.0
        self.fires_at = math.inf
        """When the pending timer fires (``perf_counter``; inf: none pending)."""

    def begin(self, cpu_from: float, stops: tuple[float, float]) -> None:
        """Start a call whose thread had used ``cpu_from`` seconds of CPU time, and that may
        use ``stops[0]`` more or wait ``stops[1]`` seconds (:func:`hard_stops`; end the call
        by setting :attr:`started` to None)."""
        now = time.perf_counter()
        self.started, self.cpu_from = now, cpu_from
        self.cpu, self.wall = stops
        soonest = min(stops)
        if self.fires_at > now + soonest:
            self._arm(now, soonest)

    def _arm(self, now: float, seconds: float) -> None:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        self.fires_at = now + seconds

    def on_alarm(self, signum: int, frame: object) -> None:
        self.fires_at = math.inf
        if self.started is None:
            return  # between calls: the next call arms the timer
        now = time.perf_counter()
        cpu_left = self.cpu - (time.thread_time() - self.cpu_from)
        wall_left = self.started + self.wall - now
        if cpu_left <= 0:
            raise BotTimeout(cpu=True)
        if wall_left <= 0:
            raise BotTimeout(cpu=False)
        self._arm(now, min(cpu_left, wall_left))


_session: list[_Stops] = []
"""The hard stops of the :func:`hard_stopping` block the main thread is in (empty: none)."""


@contextmanager
def hard_stopping() -> Iterator[None]:
    """Install the hard stops' signal handler once for every match the main thread plays in
    the block (a tournament's games: the handler's installation is fixed work, not each
    match's); outside such a block each match installs and removes it.  A timer still pending
    when the block ends is cancelled and the previous handler restored.  Nested blocks share
    the outer one's; elsewhere than in the main thread (or without ``setitimer``) the block
    does nothing."""
    with _hard_stopping() as stops:
        if stops is None or _session:
            yield
            return
        _session.append(stops)
        try:
            yield
        finally:
            _session.pop()


@contextmanager
def _hard_stopping() -> Iterator[_Stops | None]:
    """The hard stops of a match: the :func:`hard_stopping` block's, else a signal handler
    installed for the match; None where signals can't be used (no ``setitimer``, or not the
    main thread): bots are then measured, never interrupted."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield None
        return
    if _session:
        yield _session[0]
        return
    stops = _Stops()
    previous = signal.signal(signal.SIGALRM, stops.on_alarm)
    try:
        yield stops
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextmanager
def _stopped_after(seconds: float, stops: _Stops | None) -> Iterator[None]:
    """Raise ``BotTimeout`` in the code of the block once it has used ``seconds`` of CPU time
    or waited :data:`WALL_FACTOR` times that (at least :data:`WALL_LEAST`)."""
    armed = stops is not None and seconds <= MAX_TIMER
    if stops is not None and armed:
        stops.begin(time.thread_time(), (seconds, max(WALL_FACTOR * seconds, WALL_LEAST)))
    try:
        yield
    finally:
        if stops is not None:
            stops.started = None


def _stop_text(exc: BotTimeout, stops: tuple[float, float]) -> str:
    """How a hard stop is named in a forfeit's reason."""
    cpu, wall = stops
    return f"{cpu:g} s of CPU time" if exc.cpu else f"{wall:g} s of wall-clock time"


def _describe(exc: BaseException) -> str:
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def run_match(
    game: Game[Any],
    bots: Sequence[BotSpec],
    seed: int,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> MatchRecord:
    """Play one game; ``bots[s]`` plays seat ``s``.  ``time_limit`` is CPU seconds per move
    (None: no limit); by default :data:`DEFAULT_TIME_LIMIT`, raised for each seat to the move
    budget its bot declares (:func:`seat_limits`).

    A bot whose move used more CPU time than its limit forfeits after the move returns; a bot
    still busy at :func:`hard_stops` (five times the limit of CPU time, or a wall-clock time far
    above it) is interrupted, where the platform allows.  Neither depends on the machine's
    load: the record is the same on an idle and a busy machine for bots that do not read a
    clock themselves.  Many matches of one seating: :class:`MatchRunner`.
    """
    runner = _last_runner[0] if _last_runner else None
    if runner is None or not runner.serves(game, bots, time_limit):
        runner = MatchRunner(game, bots, time_limit)
        _last_runner[:] = [runner]
    return runner.play(seed)


class MatchRunner:
    """Plays matches of one game between one seating of bots under one time limit:
    ``MatchRunner(game, bots, time_limit).play(seed)`` is ``run_match(game, bots, seed,
    time_limit)``, record for record.

    What is the same in every match is done once, when the runner is made: the bots' warm-up,
    the frozen public information every view shares (read-only, so matches may share it), each
    seat's limit and hard stops.  A tournament keeps one runner per seating, and plays inside
    :func:`hard_stopping` so that no match installs a signal handler of its own.
    """

    __slots__ = ("bots", "game", "info", "limits", "stops_of", "time_limit")

    def __init__(
        self,
        game: Game[Any],
        bots: Sequence[BotSpec],
        time_limit: float | None = DEFAULT_TIME_LIMIT,
    ) -> None:
        if len(bots) != game.num_players:
            raise ValueError(f"{game.name} needs {game.num_players} bots, got {len(bots)}")
        for bot in bots:
            bot.warm()  # untimed: compiled kernels load (or compile) before the game starts
        self.game = game
        self.bots = tuple(bots)
        self.info = freeze(game.public_info())
        self.time_limit = time_limit
        self.limits = seat_limits(bots, time_limit)
        self.stops_of = [hard_stops(limit) for limit in self.limits]

    def serves(self, game: Game[Any], bots: Sequence[BotSpec], time_limit: float | None) -> bool:
        """Whether this runner plays ``run_match(game, bots, ..., time_limit)``: the same game
        and bot objects, and a limit of the same type and value (a :class:`DefaultLimit` is
        not the float it equals)."""
        return (
            game is self.game
            and len(bots) == len(self.bots)
            and all(map(is_, bots, self.bots))
            and type(time_limit) is type(self.time_limit)
            and time_limit == self.time_limit
        )

    def play(self, seed: int) -> MatchRecord:
        """Play one match with ``seed`` (see :func:`run_match`)."""
        if _session:  # inside hard_stopping(): its handler serves, no context per match
            return _alone(self._steps(seed, _session[0]))
        with _hard_stopping() as stops:
            return _alone(self._steps(seed, stops))

    def _steps(self, seed: int, stops: _Stops | None) -> Steps:
        """The match with ``seed``, played up to each decision of a batched bot (a bot with a
        :attr:`~sleuth.core.bots.Bot.batch`): it yields the decision's :class:`Ask` and is sent
        back the answer (an action, or the exception the bot forfeits with) and the CPU seconds
        of this thread it cost; it returns the record.  Other bots are asked in place."""
        game, bots, limits, stops_of = self.game, self.bots, self.limits, self.stops_of
        record = MatchRecord(game=game, seed=seed, bots=tuple(b.name for b in bots))
        thinking = record.thinking = [[] for _ in bots]
        started = time.perf_counter()
        state = game.new_initial_state()
        chance_rng: random.Random | None = None  # made on the first chance event
        events_of: list[list[Event]] = [[] for _ in bots]
        views = [View(s, game.roles[s], self.info, events_of[s]) for s in range(len(bots))]
        forfeited: set[int] = set()
        steps = record.steps
        is_terminal, current_player, apply = state.is_terminal, state.current_player, state.apply

        players = _start_bots(game, bots, seed, stops, record.forfeits)
        forfeited.update(f.seat for f in record.forfeits)
        for player, limit in zip(players, limits, strict=True):
            if player is not None:
                player.move_limit = limit

        while not is_terminal():
            if forfeited and not game.continues_after_forfeit:
                break
            seat = current_player()
            if seat == CHANCE:
                if chance_rng is None:
                    chance_rng = random.Random(derive_seed(seed, "chance"))
                action = state.sample_chance(chance_rng)
                events = tuple(apply(action))
            elif seat in forfeited:
                action = state.fallback_action()
                events = tuple(apply(action))
            else:
                player = players[seat]
                assert player is not None
                if player.batch is None:
                    action, problem, used = _ask(
                        player, state, views[seat], limits[seat], stops_of[seat], stops
                    )
                else:
                    given = offered(state.legal_actions())
                    answer, used = yield Ask(player, views[seat], given, limits[seat])
                    if isinstance(answer, Exception):
                        action, problem = None, f"raised {_describe(answer)}"
                    else:
                        action, problem, used = _judged(state, given, answer, limits[seat], used)
                thinking[seat].append(used)
                if problem is None:
                    events, problem = _apply_checked(state, action)
                if problem is not None:
                    forfeited.add(seat)
                    record.forfeits.append(Forfeit(seat, bots[seat].name, len(steps), problem))
                    continue
            steps.append(Step(seat, action, events))
            _deliver(events, events_of)

        _tell_game_over(players, views, forfeited, stops_of, stops)

        record.result = final_result(game, state, record.forfeits)
        record.final_state = state
        record.duration = time.perf_counter() - started
        return record


Steps = Generator[Ask, tuple[Hashable | Exception, float], MatchRecord]
"""A match in progress (:meth:`MatchRunner._steps`): it yields the decisions of its batched
bots, is sent their answers, and returns its record."""


def _alone(steps: Steps) -> MatchRecord:
    """Play a match by itself: each batched decision is a batch of one, and the batches it
    used deliver what waits (the game's end) once it is over."""
    batches: list[Batch] = []
    try:
        ask = next(steps)
        while True:
            batch = ask.bot.batch
            assert batch is not None
            if batch not in batches:
                batches.append(batch)
            began = time.thread_time()
            answer = batch.decide([ask])[0]
            ask = steps.send((answer, time.thread_time() - began))
    except StopIteration as done:
        record: MatchRecord = done.value
    for batch in batches:
        batch.flush()
    return record


def play_many(
    matches: Iterable[tuple[MatchRunner, int]], in_flight: int
) -> Iterator[tuple[int, MatchRecord]]:
    """Play ``matches`` (a runner and a seed each), up to ``in_flight`` of them at once,
    yielding each one's position in ``matches`` and its record as it ends.

    A match runs until a batched bot must decide (a bot process of protocol version 2); more
    matches start until ``in_flight`` of them wait, then every waiting decision is asked at
    once, in one exchange per :class:`~sleuth.core.bots.Batch` (all of them posted before any
    answer is read, so that the bot processes work at the same time).  A match without batched bots
    runs to its end as soon as it starts.  Invariant: each record is the record
    :meth:`MatchRunner.play` makes with the same runner and seed (a batch's decisions depend on
    their own game alone); only the measured times differ, and a record's ``duration`` is the
    wall-clock time its own moves took, with its share of each exchange it was in."""
    if _session:
        yield from _interleave(matches, in_flight, _session[0])
        return
    with _hard_stopping() as stops:
        yield from _interleave(matches, in_flight, stops)


@dataclass
class _Waiting:
    """A match in flight at a batched decision, and the wall-clock seconds it has taken."""

    index: int
    steps: Steps
    ask: Ask
    own: float


def _interleave(
    matches: Iterable[tuple[MatchRunner, int]], in_flight: int, stops: _Stops | None
) -> Iterator[tuple[int, MatchRecord]]:
    upcoming = enumerate(matches)
    waiting: list[_Waiting] = []
    ended: list[tuple[int, MatchRecord]] = []
    batches: list[Batch] = []

    def advance(index: int, steps: Steps, answer: tuple[Hashable | Exception, float] | None,
                own: float) -> None:  # fmt: skip
        began = time.perf_counter()
        try:
            ask = steps.send(answer)  # type: ignore[arg-type]  # None starts the match
        except StopIteration as done:
            record: MatchRecord = done.value
            record.duration = own + time.perf_counter() - began
            ended.append((index, record))
            return
        waiting.append(_Waiting(index, steps, ask, own + time.perf_counter() - began))

    starting = True
    while True:
        while starting and len(waiting) < in_flight:
            upcoming_match = next(upcoming, None)
            if upcoming_match is None:
                starting = False
                break
            index, (runner, seed) = upcoming_match
            advance(index, runner._steps(seed, stops), None, 0.0)
            yield from ended
            ended.clear()
        if not waiting:
            break
        groups: dict[Batch, list[_Waiting]] = {}
        for entry in waiting:
            batch = entry.ask.bot.batch
            assert batch is not None
            groups.setdefault(batch, []).append(entry)
        waiting = []
        cpu, wall = time.thread_time(), time.perf_counter()
        for batch, entries in groups.items():  # every exchange posted, then each collected
            if batch not in batches:
                batches.append(batch)
            batch.post([entry.ask for entry in entries])
        answered = [
            (entry, answer)
            for batch, entries in groups.items()
            for entry, answer in zip(entries, batch.collect(), strict=True)
        ]
        cpu = (time.thread_time() - cpu) / len(answered)
        wall = (time.perf_counter() - wall) / len(answered)
        for entry, answer in answered:
            advance(entry.index, entry.steps, (answer, cpu), entry.own + wall)
        yield from ended
        ended.clear()
    for batch in batches:
        batch.flush()


_last_runner: list[MatchRunner] = []
"""The runner :func:`run_match` made last (kept while it is called with the same game, bots
and limit: the fixed work of a runner done once for a loop of matches)."""


def _deliver(events: tuple[Event, ...], events_of: list[list[Event]]) -> None:
    """Append ``events`` to every seat's view as that seat sees them (a public event as is)."""
    for event in events:
        if event.private is None:
            for seen in events_of:
                seen.append(event)
        else:
            for seat, seen in enumerate(events_of):
                seen.append(event.seen_by(seat))


def seat_limits(bots: Sequence[BotSpec | BotInfo], time_limit: float | None) -> list[float | None]:
    """Each seat's CPU seconds per move: ``time_limit`` as given (None: no limit), except that
    the default limit (a :class:`DefaultLimit`) is raised to the budget the seat's bot declares."""
    if not isinstance(time_limit, DefaultLimit):
        return [time_limit] * len(bots)
    return [max(float(time_limit), bot.budget() or 0.0) for bot in bots]


def _start_bots(
    game: Game[Any],
    bots: Sequence[BotSpec],
    seed: int,
    stops: _Stops | None,
    forfeits: list[Forfeit],
) -> list[Bot | None]:
    """Build each seat's bot; a bot that fails or overruns :data:`SETUP_LIMIT` (CPU seconds,
    or the wall-clock time :data:`WALL_FACTOR` times it) forfeits."""
    players: list[Bot | None] = []
    setup = (SETUP_LIMIT, max(WALL_FACTOR * SETUP_LIMIT, WALL_LEAST))
    for seat, spec in enumerate(bots):
        try:
            if stops is not None:  # inline, not _stopped_after(): once per seat and match
                stops.begin(time.thread_time(), setup)
            try:
                players.append(spec.make(game, seat, derive_last(seed, "bot", seat)))
            finally:
                if stops is not None:
                    stops.started = None
            continue
        except BotTimeout as exc:
            wall = max(WALL_FACTOR * SETUP_LIMIT, WALL_LEAST)
            problem = f"could not start within {_stop_text(exc, (SETUP_LIMIT, wall))}"
        except BOT_FAILURES as exc:
            problem = f"could not start: {_describe(exc)}"
        players.append(None)
        forfeits.append(Forfeit(seat, spec.name, 0, problem))
    return players


def _tell_game_over(
    players: list[Bot | None],
    views: list[View],
    forfeited: set[int],
    stops_of: Sequence[tuple[float, float] | None],
    stops: _Stops | None,
) -> None:
    """Give every bot still in the game its final view; a failure there changes nothing."""
    for seat, player in enumerate(players):
        if player is None or seat in forfeited or type(player).game_over is Bot.game_over:
            continue
        limits = stops_of[seat]
        try:
            if limits is None:
                player.game_over(views[seat])
                continue
            with _stopped_after(limits[0], stops):
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


def offered(legal: Sequence[Hashable]) -> Sequence[Hashable]:
    """The legal actions as a bot is given them: a list copied into a tuple (the bot cannot
    change the state's), an immutable sequence as it is (a game's lazy sequence, such as a
    Fugitive hand's million placements, keeps its type, which its bots read)."""
    kind = type(legal)
    if kind is tuple:  # the common cases first: the ABC check costs more than the copy
        return legal
    if kind is list:
        return tuple(legal)
    return tuple(legal) if isinstance(legal, MutableSequence) else legal


def _ask(
    player: Bot,
    state: State[Any],
    view: View,
    time_limit: float | None,
    hard: tuple[float, float] | None,
    stops: _Stops | None,
) -> tuple[Hashable, str | None, float]:
    """Ask a bot for its move; return ``(action, None, cpu)`` or ``(None, reason to forfeit,
    cpu)``, ``cpu`` the CPU seconds of this thread the bot used."""
    given = offered(state.legal_actions())
    if hard is not None and hard[0] > MAX_TIMER:
        stops = None
    t0 = time.thread_time()
    try:
        if stops is not None and hard is not None:  # inline, not _stopped_after(): hot path
            stops.begin(t0, hard)
        try:
            action = player.ask(view, given)
        finally:
            if stops is not None:
                stops.started = None
    except BotTimeout as exc:
        stopped = _stop_text(exc, hard) if hard is not None else "a hard stop"
        reason = f"interrupted after {stopped} (limit {time_limit:g} s per move)"
        return None, reason, time.thread_time() - t0
    except BOT_FAILURES as exc:
        return None, f"raised {_describe(exc)}", time.thread_time() - t0
    used = time.thread_time() - t0
    return _judged(state, given, action, time_limit, used)


def _judged(
    state: State[Any],
    given: Sequence[Hashable],
    action: Hashable,
    time_limit: float | None,
    used: float,
) -> tuple[Hashable, str | None, float]:
    """A bot's answer among ``given`` after ``used`` CPU seconds: ``(action, None, used)`` with
    the engine's own action object, or ``(None, reason to forfeit, used)``."""
    if time_limit is not None and used > time_limit:
        return None, f"used {used:.3f} s of CPU time (limit {time_limit:g} s per move)", used
    if isinstance(given, tuple) and any(map(is_, given, repeat(action))):
        return action, None, used  # one of the engine's own listed action objects
    try:
        # Not a listed object: the engine's own action object, parsed back from the text form
        # (an object that merely compares equal to a legal action, True for 1 or 1.0 for 1, is
        # not accepted).
        canonical = state.game.parse_action(str(action))
        ok = state.is_legal(canonical) and canonical == action and type(canonical) is type(action)
    except Exception:
        ok = False
    if not ok:
        return None, f"returned an illegal action: {action!r}", used
    return canonical, None, used
