"""The bot protocol.

A bot is created for one seat of one game with a seed.  On its turn it receives its
:class:`~sleuth.core.events.View` (never the state) and the legal actions, and returns one of
them.  The match runner checks the returned action against the rules engine whatever the bot
did, so a bot that consults the engine itself is validated twice.

A bot is a function of what it is given: its decisions depend only on the game (with its
options), its seat and seed, its options, the view and the legal actions.  A bot rebuilt
halfway through a game (the web app after a restart) and handed the same view decides as the
one that never stopped.  Runners ask through :meth:`Bot.ask`, which restarts the bot's random
streams for each decision; whatever else a bot keeps between decisions must be a cache of
what its views hold (see :meth:`Bot.ask`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.core.options import OptionSpec, check_interactive, parse_options
from sleuth.core.prepare import one_off
from sleuth.core.rng import derive_last


class Bot(ABC):
    """A player for one seat.  Subclasses keep any belief they need between calls, as a
    cache of their views (see :meth:`ask`)."""

    move_limit: float | None = None
    """The seconds per move the match runner holds this bot's seat to (set before its first
    move; None: no limit).  A bot in another process enforces it on the wall clock."""

    batch: Batch | None = None
    """Where this bot's decisions are made together with other games' (a bot process that
    speaks version 2 of the bot protocol); None: the runner calls :meth:`ask`."""

    rng: random.Random
    """The bot's random stream: ``random.Random(seed)`` until :meth:`reseed` restarts it.
    Made when first read or reseeded (seeding a generator costs about an engine step, and
    :meth:`ask` reseeds it before every decision anyway): the same stream as one made in the
    constructor."""

    def __init__(self, game: Game[Any], seat: int, seed: int) -> None:
        self.game = game
        self.seat = seat
        self.seed = seed

    if not TYPE_CHECKING:  # for the type checker, every other attribute stays an error

        def __getattr__(self, name: str) -> Any:
            """:attr:`rng` on its first read, from :attr:`seed` (any other missing attribute,
            or ``rng`` before the constructor has set the seed, is an AttributeError)."""
            if name != "rng" or "seed" not in self.__dict__:
                raise AttributeError(name)
            self.rng = random.Random(self.seed)
            return self.rng

    def ask(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        """The bot's action for this decision: :meth:`act` after :meth:`reseed` with
        :func:`decision_seed` (what the match runner and the web app call).

        Invariant: the decision depends only on the bot's game, seat, seed and options, on
        ``view`` and on ``legal``, not on the decisions this object made before; so a bot
        built afresh at any point of a game and asked with the same view answers the same.
        The decision number is the number of events in ``view``: a game emits at least one
        event between two decisions of a seat (the conformance kit checks it), so each
        decision of a seat has its own number, which a rebuilt bot reads from its view alone.
        A bot may keep what it computed from earlier views (a belief read incrementally, a
        cache) as long as it equals what the current view alone would give.
        """
        self.reseed(decision_seed(self.seed, view))
        return self.act(view, legal)

    def reseed(self, seed: int) -> None:
        """Restart the bot's random streams from ``seed`` (:meth:`ask` calls it before each
        decision).  A bot with other generators than :attr:`rng` (a NumPy one) restarts them
        too; a generator lent to a search or a belief must be this same object, reseeded in
        place, not a copy."""
        rng = self.__dict__.get("rng")
        if rng is None:
            self.rng = random.Random(seed)  # as made and then reseeded, with one seeding
        else:
            rng.seed(seed)

    @abstractmethod
    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        """Choose an action from ``legal`` knowing only ``view`` (runners call :meth:`ask`)."""

    def game_over(self, view: View) -> None:  # noqa: B027 - an optional hook
        """Called once when the game has ended, with the final view (reveals included)."""


@dataclass(frozen=True)
class Ask:
    """A decision a :class:`Batch` makes: the bot's, at ``view``, among ``legal``, within
    ``limit`` seconds (None: no limit)."""

    bot: Bot
    view: View
    legal: Sequence[Hashable]
    limit: float | None


class Batch(ABC):
    """Decisions of bots of several games made in one exchange: the match runner plays several
    games in flight (:func:`sleuth.core.match.play_many`) and hands every pending decision of
    one batch's bots to :meth:`post` at once, then :meth:`collect` s the answers (the
    exchanges of several batches overlap: each is posted before any is collected).
    Invariant: a decision depends only on its own :class:`Ask` (its bot's game, seat and seed,
    view and legal actions), never on the other decisions of the exchange, so that games
    played together play as played alone."""

    @abstractmethod
    def post(self, asks: Sequence[Ask]) -> None:
        """Ask for ``asks``' decisions (at most one exchange posted and not collected)."""

    @abstractmethod
    def collect(self) -> list[Hashable | Exception]:
        """Each posted ask's action (one of its legal actions, or one the game parses), or
        the exception its bot forfeits with, in the order they were posted."""

    @abstractmethod
    def flush(self) -> None:
        """Deliver what waits to be sent (the end of games) now that no game is in flight."""

    def decide(self, asks: Sequence[Ask]) -> list[Hashable | Exception]:
        """:meth:`post` then :meth:`collect`: one exchange by itself."""
        self.post(asks)
        return self.collect()


def decision_seed(seed: int, view: View) -> int:
    """The seed of a bot's decision at ``view``: ``derive_seed(seed, "decision", n)`` with
    ``n`` the number of events in the view (see :meth:`Bot.ask`)."""
    return derive_last(seed, "decision", len(view.events))


BotFactory = Callable[..., Bot]
"""Builds a bot from ``(game, seat, seed)``, plus keyword options for bots that have some."""


MoveBudget = float | Callable[..., float] | None
"""A bot's declared seconds per move: a number, a function of its option values (keyword
arguments), or None (no more than the match runner's default)."""


@dataclass(frozen=True)
class BotSpec:
    """A named bot of a game, the roles it can play, how to build it, and its options.

    A bot with ``options`` is named with its settings after colons (``ismcts:iterations=500``);
    :meth:`configured` returns the spec of that configuration, named with the settings in the
    order given and their canonical values.  Options left out keep their defaults, and the
    factory always receives every option as a keyword argument.
    """

    name: str
    roles: tuple[str, ...]
    factory: BotFactory
    description: str
    options: tuple[OptionSpec, ...] = ()
    warm_up: Callable[[], None] | None = None
    """Loads what the bot's first move would otherwise wait for, such as compiled kernels
    (Numba compiles them on a cold cache: seconds, enough to forfeit a timed move).  Run at
    most once per process, untimed, by :meth:`warm`."""
    move_budget: MoveBudget = None
    """Seconds per move this bot may need when that is more than the match runner's default
    limit (:data:`sleuth.core.match.DEFAULT_TIME_LIMIT`): the runner's default is raised to it
    for this bot's seat (a limit the user gives is kept as given).  A callable receives the
    option values as keyword arguments, for budgets that depend on options; read the value
    with :meth:`budget`.  None: no more than the default."""

    def warm(self) -> None:
        """Run :attr:`warm_up` unless this process already has (the match runner calls this
        before it times any move)."""
        if self.warm_up is not None and self.warm_up not in _WARMED:
            base = self.name.split(":")[0]
            with one_off(f"Preparing bot {base!r}", LOADING):
                self.warm_up()
            _WARMED.add(self.warm_up)

    def budget(self) -> float | None:
        """The seconds per move this bot declares (:attr:`move_budget`) with its option values
        (the defaults for a spec not :meth:`configured`); None when it declares none."""
        return declared_budget(self.move_budget, self.options)

    def make(self, game: Game[Any], seat: int, seed: int) -> Bot:
        if self.options:
            return self.configured({}, game.name).make(game, seat, seed)
        return self.factory(game, seat, seed)

    def configured(
        self, texts: Mapping[str, str], game_name: str, interactive: bool = False
    ) -> BotSpec:
        """This bot with the option values in ``texts``; bad names or values raise OptionError.

        With ``interactive=True`` (a person waits for each move: the web app) a numeric value
        over its option's :func:`~sleuth.core.options.interactive_limit` is an OptionError too.
        """
        base = self.name.split(":")[0]
        owner = f"bot {base!r} of {game_name}"
        values = parse_options(self.options, texts, owner)
        if interactive:
            check_interactive(self.options, values, owner)
        name = base + "".join(f":{key}={_text(values[key])}" for key in texts)
        budget = self.move_budget(**values) if callable(self.move_budget) else self.move_budget
        return replace(
            self,
            name=name,
            factory=partial(self.factory, **values),
            options=(),
            move_budget=budget,
        )


def declared_budget(move_budget: MoveBudget, options: tuple[OptionSpec, ...]) -> float | None:
    """``move_budget`` with the default values of ``options`` (see :attr:`BotSpec.move_budget`)."""
    if callable(move_budget):
        return move_budget(**{option.name: option.default for option in options})
    return move_budget


@dataclass(frozen=True)
class BotInfo:
    """What a bot is, without how it is built: its name, roles, description, options and move
    budget, as ``sleuth games`` lists them.

    A built-in game declares its bots so in its catalogue, a module that imports no engine
    (:class:`~sleuth.core.registry.GameInfo`); the engine makes each playable bot from the
    same object (:meth:`implemented`).  Invariant: a bot's listing and the bot that plays
    share one declaration.
    """

    name: str
    roles: tuple[str, ...]
    description: str
    options: tuple[OptionSpec, ...] = ()
    move_budget: MoveBudget = None
    """As :attr:`BotSpec.move_budget`; a callable must not import an engine (listing the games
    calls it)."""

    def budget(self) -> float | None:
        """The seconds per move declared with the default option values (None: none)."""
        return declared_budget(self.move_budget, self.options)

    def implemented(
        self, factory: BotFactory, warm_up: Callable[[], None] | None = None
    ) -> BotSpec:
        """The playable bot: this declaration with the engine's ``factory`` and ``warm_up``."""
        return BotSpec(
            self.name, self.roles, factory, self.description, self.options, warm_up,
            self.move_budget,
        )  # fmt: skip

    @classmethod
    def of(cls, spec: BotSpec) -> BotInfo:
        """The declaration of a playable bot (for games that declare no catalogue)."""
        return cls(spec.name, spec.roles, spec.description, spec.options, spec.move_budget)


LOADING = "loading its compiled code and tables (made once after an install)"
"""What a slow warm-up says it does: most often it loads from Numba's cache, about a second
(more on a busy machine); only the first run after an install compiles or builds."""

_WARMED: set[Callable[[], None]] = set()
"""The warm-up functions this process has run."""


def _text(value: object) -> str:
    """The canonical text of an option value (``c=.5`` and ``c=0.50`` both name ``c=0.5``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value) if isinstance(value, float) else str(value)
