"""Bots in other processes and languages: ``--bots 'cmd:python my_bot.py',random``.

A ``cmd:COMMAND`` bot (:func:`command_bot`) runs ``COMMAND`` (split as a shell would, run
without one) and speaks the JSON-lines protocol of :mod:`sleuth.core.botwire` with it.  The
process (:mod:`sleuth.core.botprocess`) is confined by resource limits, sees its seat's view
alone, and is reused for the seat's next game in the same worker.  Every misbehaviour (no
answer within the move's limit of wall-clock time, a crash, garbage, a flood, a fork, a limit
hit, another protocol version) raises :class:`~sleuth.core.botwire.ProtocolError` naming the
cause: the match runner records it as the seat's forfeit and the tournament goes on.
Plug-ins register such a bot under a name of their own with :func:`command_bot` too.
"""

from __future__ import annotations

import math
import shlex
import shutil
import time
import weakref
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from sleuth.core import botprocess
from sleuth.core.botprocess import Limits
from sleuth.core.bots import Bot, BotSpec, decision_seed
from sleuth.core.botwire import (
    CMD_PREFIX,
    act_message,
    check_ready,
    end_message,
    read_action,
    read_reply,
    start_message,
)
from sleuth.core.errors import OptionError
from sleuth.core.events import View
from sleuth.core.game import Game


class ExternalBot(Bot):
    """A seat played by a bot process: the handshake when built, one message per decision,
    the end of the game in :meth:`game_over` (the process then returns to the pool).  A bot
    dropped without :meth:`game_over` (it forfeited, or the game was abandoned) kills its
    process.  Invariant: the process receives only this seat's view."""

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
        self.process = botprocess.take(argv, limits)
        self._kill = weakref.finalize(self, self.process.kill)
        self.sent = 0
        """Events of the view already sent to the process."""
        with self._failing():
            self.process.new_game()
            deadline = time.monotonic() + limits.start
            self.process.send(start_message(game, rules_version, seat, seed), deadline)
            check_ready(read_reply(self.process.receive(deadline), "ready"))
            self.process.check_alone()

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
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
        with self._failing():
            deadline = time.monotonic() + self.process.limits.start
            self.process.send(end_message(view, self.sent), deadline)
            self.process.check_alone()
        self._kill.detach()
        botprocess.give_back(self.process)

    @contextmanager
    def _failing(self) -> Iterator[None]:
        """Kill the process when the block raises, whatever it raised: the game is lost to it."""
        try:
            yield
        except BaseException:
            self.process.kill()
            raise


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
