"""Bots in other processes and languages: ``--bots 'cmd:python my_bot.py',random``.

A ``cmd:COMMAND`` bot (:func:`command_bot`) runs ``COMMAND`` (split as a shell would, run
without one) and speaks the JSON-lines protocol of :mod:`sleuth.core.botwire` with it.  The
process (:mod:`sleuth.core.botprocess`) is confined by resource limits, sees its seat's view
alone, and is reused for the seat's next game in the same worker; a process that answers the
handshake in version 2 of the protocol plays its seat number in every game of the worker at
once (:class:`SharedProcess`), the runner asking it every waiting decision in one line.  Every
misbehaviour (no answer within the move's limit of wall-clock time, a crash, garbage, a flood, a
fork, a limit hit, another protocol version) raises :class:`~sleuth.core.botwire.ProtocolError`
naming the cause: the match runner records it as the seat's forfeit and the tournament goes on.
Plug-ins register such a bot under a name of their own with :func:`command_bot` too.
"""

from __future__ import annotations

import math
import os
import shlex
import shutil
import time
import weakref
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sleuth.core import botprocess
from sleuth.core.botprocess import Limits
from sleuth.core.bots import Ask, Batch, Bot, BotSpec, decision_seed
from sleuth.core.botwire import (
    CMD_PREFIX,
    MAX_LISTED,
    ProtocolError,
    act_item,
    act_message,
    batch_message,
    end_item,
    end_message,
    listed_wanted,
    read_action,
    read_answers,
    read_choice,
    read_reply,
    ready_version,
    start_item,
    start_message,
)
from sleuth.core.errors import OptionError
from sleuth.core.events import JSON, View
from sleuth.core.game import Game


class ExternalBot(Bot):
    """A seat played by a bot process: the handshake when built, one message per decision,
    the end of the game in :meth:`game_over`.

    A process that answers the handshake in version 1 plays this game alone (it returns to the
    pool after :meth:`game_over`; a bot dropped without it, having forfeited or its game
    abandoned, kills its process).  One that answers in version 2 becomes the seat's
    :class:`SharedProcess` for every game of this command, limits and seat number in this
    process: the bot's :attr:`batch`, asked by the runner with other games' decisions.
    Invariant: a process receives only the views of one seat number, each game's its own."""

    def __init__(
        self,
        game: Game[Any],
        seat: int,
        seed: int,
        argv: tuple[str, ...],
        limits: Limits,
        rules_version: str,
    ) -> None:
        super().__init__(game, seat, seed)
        self.sent = 0
        """Events of the view already sent to the process (version 1)."""
        self._kill: weakref.finalize[Any, Any]
        key = (argv, limits, seat)
        shared = _SHARED.get(key)
        if shared is not None and shared.failure is None and shared.process.alive:
            self.batch = self.shared = shared
            self.game_id = shared.start(game, rules_version, seat, seed)
            self._kill = weakref.finalize(self, shared.abandon, self.game_id)
            return
        self.process = botprocess.take(argv, limits)
        self._kill = weakref.finalize(self, self.process.kill)
        with self._failing():
            self.process.new_game()
            deadline = time.monotonic() + limits.start
            self.process.send(start_message(game, rules_version, seat, seed), deadline)
            ready = read_reply(self.process.receive(deadline), "ready")
            version = ready_version(ready)
            listed = listed_wanted(ready) if version == 2 else MAX_LISTED
            self.process.check_alone()
        if version == 2:
            self._kill.detach()
            self.batch = self.shared = _SHARED[key] = SharedProcess(self.process, key, listed)
            self.game_id = self.shared.begun()
            self._kill = weakref.finalize(self, self.shared.abandon, self.game_id)

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        if self.batch is not None:  # asked outside a match runner: a batch of one
            answer = self.batch.decide([Ask(self, view, legal, self.move_limit)])[0]
            if isinstance(answer, Exception):
                raise answer
            return answer
        limit = self.move_limit
        deadline = time.monotonic() + (math.inf if limit is None else limit)
        with self._failing():
            message = act_message(view, self.sent, legal, decision_seed(self.seed, view))
            self.process.send(message, deadline)
            self.sent = len(view.events)
            action = read_action(self.game, read_reply(self.process.receive(deadline), "action"))
            self.process.check_alone()
        return action

    def game_over(self, view: View) -> None:
        self._kill.detach()
        if self.batch is not None:
            self.shared.end(self.game_id, view)
            return
        with self._failing():
            deadline = time.monotonic() + self.process.limits.start
            self.process.send(end_message(view, self.sent), deadline)
            self.process.check_alone()
        botprocess.give_back(self.process)

    @contextmanager
    def _failing(self) -> Iterator[None]:
        """Kill the process when the block raises, whatever it raised: the game is lost to it."""
        try:
            yield
        except BaseException:
            self.process.kill()
            raise


class SharedProcess(Batch):
    """A bot process of protocol version 2: one seat number of many games at once, all their
    waiting decisions asked in one ``batch`` line (:meth:`post`) and answered in one
    ``answers`` line (:meth:`collect`).

    Starts and ends of games wait for the next line sent (:meth:`flush` sends them when no game
    is in flight).  A batch has the sum of its decisions' limits of wall-clock time (no limit
    when one has none).  Whatever breaks the process (no answer in time, a crash, garbage, a
    flood, a fork, a limit) is its :attr:`failure`: the process is killed and every decision of
    its games in flight, now and later, is answered with it, so each of them forfeits naming
    the cause; a fault in one answer (an error for one game, an action the game cannot read)
    forfeits that game alone.  Invariant: every game started on the process and not yet ended
    is in :attr:`sent`."""

    def __init__(self, process: botprocess.BotProcess, key: _Key, listed: int) -> None:
        self.process, self.key, self.listed = process, key, listed
        self.next_id = 0
        self.sent: dict[int, int] = {}
        """Each game in flight: events of its view already sent."""
        self.waiting: list[JSON] = []
        """Items not yet sent (starts and ends)."""
        self.failure: ProtocolError | None = None
        self.posted: tuple[Sequence[Ask], list[int], float] = ((), [], 0.0)
        """The asks posted and not collected, their games' ids, the answer's deadline."""

    def begun(self) -> int:
        """The id of a game whose start the process has received (the handshake's)."""
        game_id, self.next_id = self.next_id, self.next_id + 1
        self.sent[game_id] = 0
        return game_id

    def start(self, game: Game[Any], rules_version: str, seat: int, seed: int) -> int:
        """A new game's id, its start waiting for the next line."""
        if not self.sent:
            self.process.new_game()  # the error output's limit counts from here
        game_id = self.begun()
        self.waiting.append(start_item(game, rules_version, seat, seed, game_id))
        return game_id

    def end(self, game_id: int, view: View | None) -> None:
        """Game ``game_id`` is over (``view`` its final view, None: the seat left it); the
        process is retired when it has no game left and has used half its CPU time."""
        sent = self.sent.pop(game_id, None)
        if sent is None or self.failure is not None:
            return
        self.waiting.append(end_item(game_id, view, sent))
        if not self.sent and self.process.cpu_seconds() >= self.process.limits.cpu / 2:
            self.flush()
            self._fail(ProtocolError("retired: it has used half its CPU time"))

    def abandon(self, game_id: int) -> None:
        """The seat left game ``game_id`` before its end (it forfeited, or the game stopped)."""
        self.end(game_id, None)

    def post(self, asks: Sequence[Ask]) -> None:
        items: list[JSON] = []
        ids: list[int] = []
        for ask in asks:
            bot = ask.bot
            assert isinstance(bot, ExternalBot) and bot.shared is self
            seed = decision_seed(bot.seed, ask.view)
            sent = self.sent.get(bot.game_id, 0)
            items.append(act_item(bot.game_id, ask.view, sent, ask.legal, seed, self.listed))
            self.sent[bot.game_id] = len(ask.view.events)
            ids.append(bot.game_id)
        limits = [ask.limit for ask in asks]
        budget = math.inf if None in limits else sum(limit or 0.0 for limit in limits)
        deadline = time.monotonic() + budget
        self.posted = (asks, ids, deadline)
        if self.failure is None:
            items, self.waiting = [*self.waiting, *items], []
            try:
                self.process.send(batch_message(items), deadline)
            except ProtocolError as exc:
                self._fail(exc)

    def collect(self) -> list[Hashable | Exception]:
        asks, ids, deadline = self.posted
        self.posted = ((), [], 0.0)
        if self.failure is None:
            try:
                answers = read_answers(self.process.receive(deadline), ids)
                self.process.check_alone()
            except ProtocolError as exc:
                self._fail(exc)
        if self.failure is not None:
            return [self.failure] * len(asks)
        choices: list[Hashable | Exception] = []
        for ask, answer in zip(asks, answers, strict=True):
            try:
                choices.append(read_choice(ask.bot.game, ask.legal, answer))
            except ProtocolError as exc:
                choices.append(exc)
        return choices

    def flush(self) -> None:
        if self.waiting and self.failure is None:
            deadline = time.monotonic() + self.process.limits.start
            try:
                self.process.send(batch_message(self.waiting), deadline)
                self.waiting = []
                read_answers(self.process.receive(deadline), [])
                self.process.check_alone()
            except ProtocolError as exc:
                self._fail(exc)

    def _fail(self, exc: ProtocolError) -> None:
        self.failure = exc
        self.waiting = []
        self.process.kill()
        if _SHARED.get(self.key) is self:
            del _SHARED[self.key]


_Key = tuple[tuple[str, ...], Limits, int]
_SHARED: dict[_Key, SharedProcess] = {}
"""The version 2 process of each command, limits and seat number (killed by
:func:`botprocess.close_all` like every other; a dead one is replaced when next needed)."""


def _forget_inherited() -> None:
    """In a forked child: the parent's processes are the parent's."""
    _SHARED.clear()


os.register_at_fork(after_in_child=_forget_inherited)


def command_argv(command: str) -> tuple[str, ...]:
    """``command`` split as a shell splits words; a command that is empty, cannot be split or
    names no program found on the PATH (or no file) is an OptionError naming it."""
    try:
        argv = tuple(shlex.split(command))
    except ValueError as exc:
        raise OptionError(f"bot command {command!r}: {exc}") from None
    if not argv:
        raise OptionError(f"bot {CMD_PREFIX!r} names no command (cmd:python my_bot.py)")
    if shutil.which(argv[0]) is None:
        raise OptionError(f"bot command {command!r}: no program {argv[0]!r} found")
    return argv


def command_bot(
    name: str,
    command: str,
    roles: tuple[str, ...],
    description: str = "",
    limits: Limits = Limits(),  # noqa: B008 - a frozen value
    rules_version: str = "1",
) -> BotSpec:
    """The bot ``name`` that runs ``command`` (see :func:`command_argv`) for ``roles``, within
    ``limits``.  ``rules_version`` is the game's, as the handshake tells the bot."""
    argv = command_argv(command)

    def make(game: Game[Any], seat: int, seed: int) -> Bot:
        return ExternalBot(game, seat, seed, argv, limits, rules_version)

    return BotSpec(name, roles, make, description or f"runs {command} (bot protocol)")
