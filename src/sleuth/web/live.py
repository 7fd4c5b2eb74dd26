"""A game between people and Sleuth's bots, rebuilt from its log.

The log (what the store keeps) is a JSON object: ``game``, canonical ``options``, the seat of
the person who started it (``seat``), ``bots`` (a bot name for every seat a bot plays, None
for each seat a person plays: the starter's and their friends'), the ``names`` people gave
their seats (a name or None by seat; public, shown on every page of the game), the ``seed``, every
``action`` played so far as its text form (chance outcomes and bot moves included) and the
``forfeits``.  :class:`LiveGame` replays it with the rules engine; a person's move is
:meth:`LiveGame.play`, and chance and the bots move one :meth:`LiveGame.step` at a time
(:mod:`sleuth.web.mover` takes those steps in the background, never a request).

Determinism: the chance outcome after ``n`` actions is drawn with
``derive_seed(seed, "chance", n)`` and a seat's bot is seeded with ``derive_seed(seed, "bot",
seat)``, so a game rebuilt after a restart goes on as the stored log says.  A bot rebuilt after
a restart starts from the whole view so far (bots read their view, never the state) and makes
the decisions the bot that never stopped would have made (:meth:`~sleuth.core.bots.Bot.ask`).

A bot that raises, answers an illegal action or thinks longer than five times its move budget
(at least one second more) forfeits, as in the arena: the game ends, or the seat's moves are
played by the game's fallback when the game goes on after a forfeit.
"""

from __future__ import annotations

import random
import time
from collections.abc import Hashable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.errors import OptionError, SleuthError
from sleuth.core.events import Event, View, freeze
from sleuth.core.game import CHANCE, Game, State
from sleuth.core.match import BOT_FAILURES, DEFAULT_TIME_LIMIT, Forfeit, final_result, seat_limits
from sleuth.core.options import OptionSpec, parse_options
from sleuth.core.outcome import Outcome
from sleuth.core.registry import GameSpec, game_spec
from sleuth.core.rng import derive_seed

MAX_OPTION_TEXT = 500
"""The longest option or bot text the web app accepts."""
QUICK = 2.0
"""Seconds per move a default bot may declare (see :func:`default_bot`)."""
SLOWEST = 60.0
"""The most seconds per move a bot of a web game may declare (its ``move_budget``, the
``s/move`` of ``sleuth games``): the people wait for the bots' moves, and a thread cannot be
stopped once a move has started.  Each bot option is also bounded by its own interactive limit
(:func:`sleuth.core.options.interactive_limit`)."""
MOST_SEATS = 16
"""The most seats tried for a role that the game's default seat count lacks."""
MAX_NAME = 40
"""The longest name a person may give their seat (in characters)."""


class ChoiceError(SleuthError, ValueError):
    """A new game's choice that cannot be used: the message says why (as the error behind
    it said), and :attr:`field` names the new-game form's field at fault: ``game``, ``role``,
    ``seat``, ``option:NAME``, ``options`` (no single option is at fault, their combination
    is), ``bots`` or ``seed``; or ``action``, a played action that cannot be read or is
    illegal."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def refuse_files(spec: GameSpec, values: Mapping[str, Any]) -> None:
    """The web app's one rule on files: a ChoiceError blaming ``option:NAME`` for the first
    option in ``values`` whose value names a file or folder, as the game declares
    (:meth:`~sleuth.core.options.OptionSpec.names_file`: the Fox board's edge-list file, the
    Scotland Yard map folder), decided from the values alone before any is parsed, so that a
    web request never makes the server read a file, nor tells whether one exists.

    Every place where a client's option values reach a game calls it first: a new game
    (:func:`new_log`), a new notepad and an uploaded log's header
    (:mod:`sleuth.web.assist_session`).  The one such value let through is the option's
    default as this server reads it (the map folder its operator set in the environment,
    which a log saved here carries): it is read for every game anyway.  Unknown names are
    left to the game's own refusal."""
    known = {option.name: option for option in spec.options}
    for name, value in values.items():
        option = known.get(name)
        if option is None or not option.names_file(value) or value == option.parse(option.default):
            continue
        raise ChoiceError(
            f"option:{name}",
            f"option {name}={str(value)[:200]!r} of {spec.name} names a file or folder: the "
            "web app reads no files",
        )


def option_help(option: OptionSpec) -> str:
    """A game option's help as the web app's forms show it: for an option some of whose
    values name files, followed by what :func:`refuse_files` does with them."""
    return option.help + (" (the web app reads no files)" if option.file_values is not None else "")


def seat_name(text: str | None, field: str) -> str | None:
    """A person's name for their seat as the log keeps it: ``text`` without the spaces around
    it, None when that is empty.  A ChoiceError blaming ``field`` for a name longer than
    :data:`MAX_NAME` characters, one that is not a line of printable text (a line break, a
    control character), or ``you``, which every page says for its own seat.  The name is
    kept as plain text: each page escapes it where it shows it."""
    name = (text or "").strip()
    if not name:
        return None
    if len(name) > MAX_NAME:
        raise ChoiceError(
            field, f"the name {name[:MAX_NAME]!r}... is longer than {MAX_NAME} characters"
        )
    if not name.isprintable():
        raise ChoiceError(field, f"the name {name!r} is not one line of printable text")
    if name.casefold() == "you":
        raise ChoiceError(
            field, "the name 'you' is what each page calls its own seat: choose another"
        )
    return name


@contextmanager
def blame(field: str) -> Iterator[None]:
    """Re-raise a SleuthError raised inside as a :class:`ChoiceError` blaming ``field``."""
    try:
        yield
    except ChoiceError:
        raise
    except SleuthError as exc:
        raise ChoiceError(field, str(exc)) from exc


@dataclass(frozen=True)
class Step:
    """One applied action: the seat (or CHANCE) that played it, its text and its events."""

    seat: int
    action: str
    events: tuple[Event, ...]


def new_log(
    name: str,
    options: dict[str, str],
    seat: int | None,
    role: str | None,
    bots: dict[int, str],
    seed: int,
    people: Sequence[int] = (),
    yours: str | None = None,
    names: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """The log of a new game, from a person's choices; a bad choice raises a
    :class:`ChoiceError` naming the form field at fault (the first found, in this order:
    game, the lengths of options and bots, options, role, seat, people, name, names, bots,
    seed).

    An option naming a file is refused before any is read (:func:`refuse_files`); the others
    are read as canonical values.
    ``seat`` (or else the first seat with ``role``, or else seat 0) is the human's, and must
    be a seat of ``role`` when both are given; every other
    seat in ``people`` is played by another person, and every other seat gets the bot in
    ``bots`` or :func:`default_bot` (a seat in both is refused).  A ``role`` that only some seat
    counts have (Scotland Yard's ``detective``) sets the seat-count option when it is not
    given (:func:`_seated_for`).  ``yours`` is the human's name for their seat, ``names``
    those of the seats in ``people`` (:func:`seat_name`; a seat no friend plays is refused).
    A bot option over its interactive limit, or a bot declaring more than :data:`SLOWEST`
    seconds a move, is refused: a person waits for each move.
    """
    with blame("game"):
        spec = game_spec(name)
    for culprit, key, text in [
        *((f"option:{key}", key, text) for key, text in options.items()),
        *(("bots", str(s), b) for s, b in bots.items()),
    ]:
        if len(key) > MAX_OPTION_TEXT or len(str(text)) > MAX_OPTION_TEXT:
            raise ChoiceError(culprit, f"option {key!r}: longer than {MAX_OPTION_TEXT} characters")
    refuse_files(spec, options)
    try:
        game = spec.make(options, canonical=True)
    except SleuthError as exc:
        raise ChoiceError(_option_at_fault(spec, options), str(exc)) from exc
    if role is not None and role not in game.roles:
        seated = _seated_for(spec, options, role)
        if seated is not None and spec.seats_option not in options:
            game = seated[1]
        elif seated is not None:
            raise ChoiceError(
                "role",
                f"no role {role!r} in this {name} game; its roles: {', '.join(game.roles)} "
                f"({spec.seats_option}={seated[0]} has a {role} seat)",
            )
    roles = game.roles
    if role is not None and role not in roles:
        raise ChoiceError(
            "role", f"no role {role!r} in this {name} game; its roles: {', '.join(roles)}"
        )
    if seat is None:
        seat = 0 if role is None else roles.index(role)
    if not 0 <= seat < len(roles):
        raise ChoiceError(
            "seat", f"seat {seat} does not exist: {name} has seats 0 to {len(roles) - 1}"
        )
    if role is not None and roles[seat] != role:
        own = [str(s) for s, seat_role in enumerate(roles) if seat_role == role]
        raise ChoiceError(
            "seat",
            f"seat {seat} is the {roles[seat]}'s, not a {role}'s: the {role}'s "
            f"{'seat is' if len(own) == 1 else 'seats are'} {', '.join(own)}",
        )
    for person in people:
        if not 0 <= person < len(roles) or person == seat:
            raise ChoiceError(
                "people",
                f"seat {person} is not a friend's seat: {name} has seats 0 to {len(roles) - 1}"
                f" and yours is {seat}",
            )
    given: list[str | None] = [None] * len(roles)
    given[seat] = seat_name(yours, "name")
    for friend, text in (names or {}).items():
        if friend not in people:
            raise ChoiceError("names", f"name for seat {friend}: not a friend's seat")
        given[friend] = seat_name(text, "names")
    for other in bots:
        if not 0 <= other < len(roles) or other == seat:
            raise ChoiceError("bots", f"bot for seat {other}: not a bot's seat (yours is {seat})")
        if other in people:
            raise ChoiceError("bots", f"bot for seat {other}: a person plays that seat")
        if not bots[other].strip():
            raise ChoiceError("bots", f"bot for seat {other}: no bot named (leave the seat out)")
    players: list[str | None] = []
    for s, seat_role in enumerate(roles):
        if s == seat or s in people:
            players.append(None)
            continue
        with blame("bots"):
            chosen = bots.get(s) or default_bot(spec, seat_role).name
        players.append(seat_bot(spec, game, s, chosen))
    if not -(2**63) <= seed < 2**63:
        raise ChoiceError("seed", f"seed {seed} does not fit in 64 bits")
    return {
        "game": name,
        "options": game.options(),
        "seat": seat,
        "bots": players,
        "names": given,
        "seed": seed,
        "actions": [],
        "forfeits": [],
    }


def seat_bot(spec: GameSpec, game: Game[Any], seat: int, chosen: str) -> str:
    """The canonical name of the bot ``chosen`` for ``seat`` of ``game`` in the web app; a
    ChoiceError blaming ``bots`` for an unknown bot, one that cannot play the seat's role, one
    with an option over its interactive limit, or one declaring more than :data:`SLOWEST`
    seconds a move."""
    role = game.roles[seat]
    with blame("bots"):
        bot = spec.bot(chosen, interactive=True)
    if role not in bot.roles:
        raise ChoiceError("bots", f"bot {chosen!r} cannot play the {role} (seat {seat})")
    budget = bot.budget()
    if budget is not None and budget > SLOWEST:
        raise ChoiceError(
            "bots",
            f"bot {chosen!r} of {spec.name} may take {budget:g} s a move: the web app allows "
            f"at most {SLOWEST:g} s (the command line takes it)",
        )
    return bot.name


def _option_at_fault(spec: GameSpec, options: dict[str, str]) -> str:
    """The form field of the game option that makes ``options`` refused: the first unknown
    name, else the first option (in the game's order, as :func:`parse_options` reports) whose
    value alone is refused, else the only option given; ``options`` when the fault is in
    their combination."""
    known = [option.name for option in spec.options]
    for name in options:
        if name not in known:
            return f"option:{name}"
    for name in known:
        if name in options:
            try:
                parse_options(spec.options, {name: options[name]}, spec.name, canonical=True)
            except SleuthError:
                return f"option:{name}"
    return f"option:{next(iter(options))}" if len(options) == 1 else "options"


def _seated_for(spec: GameSpec, options: dict[str, str], role: str) -> tuple[int, Game[Any]] | None:
    """The fewest seats (at most :data:`MOST_SEATS`) for which the game of ``options`` has a
    seat of ``role``, whatever ``options`` say of the seat count, with that game; None if no
    seat count has one (or the game has no seat-count option).  Scotland Yard's
    ``detective`` seats exist only with a seat per detective."""
    if spec.seats_option is None:
        return None
    for seats in range(1, MOST_SEATS + 1):
        try:
            game = spec.make({**options, spec.seats_option: seats}, canonical=True)
        except OptionError:
            continue
        if role in game.roles:
            return seats, game
    return None


def default_bot(spec: GameSpec, role: str) -> BotSpec:
    """The bot a seat of ``role`` gets when none is named: the game's first bot for the role
    that is not ``random`` and declares no move budget over :data:`QUICK` seconds (a good
    opponent that keeps the page quick), else its first bot for the role."""
    able = [bot for bot in spec.bots if role in bot.roles]
    if not able:
        raise OptionError(f"{spec.name} has no bot for the {role}")
    quick = [b for b in able if b.name != "random" and (b.budget() or 0.0) <= QUICK]
    return (quick or able)[0]


@dataclass
class LiveGame:
    """A game rebuilt from its log; :meth:`play` (a person's move) and :meth:`step` (chance's
    or a bot's) extend the log, :meth:`hand_over` gives a person's seat to a bot and
    :meth:`reclaim` takes it back, and :meth:`rename` sets a seat's name.

    Invariant: the state is the log's actions replayed, and every seat's view holds the events
    of every step as that seat sees them; a seat's bot is the one the log names now (a bot made
    for a seat is made again once the log names another)."""

    log: dict[str, Any]
    game: Game[Any] = field(init=False)
    state: State[Any] = field(init=False)
    steps: list[Step] = field(default_factory=list, init=False)
    views: list[View] = field(default_factory=list, init=False)
    forfeits: list[Forfeit] = field(default_factory=list, init=False)
    _bots: dict[int, tuple[str, Bot]] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        spec = game_spec(self.log["game"])
        self.spec = spec
        self.game = spec.make(self.log["options"], canonical=True)
        self.state = self.game.new_initial_state()
        info = freeze(self.game.public_info())
        self.views = [View(s, role, info, []) for s, role in enumerate(self.game.roles)]
        self.forfeits = [Forfeit(**f) for f in self.log["forfeits"]]
        for text in self.log["actions"]:
            self._apply(self.state.current_player(), self.game.parse_action(text))

    @property
    def seat(self) -> int:
        """The seat of the person who started the game."""
        return int(self.log["seat"])

    @property
    def people(self) -> list[int]:
        """The seats people play (their ``bots`` entry is None), in seat order."""
        return [s for s, bot in enumerate(self.log["bots"]) if bot is None]

    @property
    def names(self) -> list[str | None]:
        """The names people gave their seats, by seat (None: no name; a log from before names
        has none)."""
        return list(self.log.get("names") or [None] * len(self.game.roles))

    @property
    def called(self) -> list[str | None]:
        """The names of the seats people play now, by seat (None for a seat without a name
        and for a bot's, which is called by its bot's name): how events call the seats."""
        bots = self.log["bots"]
        return [name if bots[s] is None else None for s, name in enumerate(self.names)]

    @property
    def moves(self) -> int:
        """How many moves the log holds (actions and forfeits): it grows with every change
        of the game but a hand-over, a seat taken back and a name."""
        return len(self.log["actions"]) + len(self.log["forfeits"])

    def is_over(self) -> bool:
        return self.state.is_terminal() or (
            bool(self.forfeits) and not self.game.continues_after_forfeit
        )

    def your_turn(self, seat: int) -> bool:
        """Whether ``seat`` is a person's seat to move now."""
        return (
            not self.is_over()
            and self.state.current_player() == seat
            and self.log["bots"][seat] is None
        )

    def waiting(self) -> bool:
        """Whether chance or a bot is to move (:meth:`step` moves it), not a person."""
        if self.is_over():
            return False
        seat = self.state.current_player()
        return seat == CHANCE or self.log["bots"][seat] is not None

    def result(self) -> Outcome | None:
        """The outcome once the game is over."""
        return final_result(self.game, self.state, self.forfeits) if self.is_over() else None

    def legal(self, seat: int) -> Sequence[Hashable]:
        """``seat``'s legal actions (empty unless it is that person's turn)."""
        return self.state.legal_actions() if self.your_turn(seat) else ()

    def play(self, seat: int, text: str) -> None:
        """Play the action given as text for the person at ``seat``; a bad or illegal action,
        or one out of turn, raises a :class:`SleuthError` (a :class:`ChoiceError` blaming
        ``action`` when the action itself is at fault) and changes nothing."""
        if self.is_over():
            raise SleuthError("the game is over")
        if self.log["bots"][seat] is not None:
            raise SleuthError(f"seat {seat} is played by the bot {self.log['bots'][seat]!r}")
        if not self.your_turn(seat):
            raise SleuthError(f"it is not your turn: {self.to_move()} is to move")
        with blame("action"):
            action = self.game.parse_action(text.strip())
            reason = self.state.illegal_reason(action)
            if reason is not None:
                raise SleuthError(f"{action}: {reason}")
        self._apply(seat, action)

    def to_move(self) -> str:
        """Who is to move, in words: ``chance`` or ``the ROLE (seat N)``."""
        seat = self.state.current_player()
        return "chance" if seat == CHANCE else f"the {self.game.roles[seat]} (seat {seat})"

    def step(self) -> bool:
        """Let chance or the bot to move make one move (a bot's forfeit counts as one);
        whether anything moved (False when a person is to move or the game is over)."""
        if not self.waiting():
            return False
        seat = self.state.current_player()
        if seat == CHANCE:
            rng = random.Random(derive_seed(self.log["seed"], "chance", len(self.steps)))
            self._apply(CHANCE, self.state.sample_chance(rng))
        elif any(f.seat == seat for f in self.forfeits):
            self._apply(seat, self.state.fallback_action())
        else:
            self._bot_move(seat)
        return True

    def hand_over(self, seat: int, bot: str) -> None:
        """Let the bot ``bot`` play the person's seat ``seat`` from now on; nothing changes
        on a ChoiceError: blaming ``seat`` for a seat no person plays or a game that is over,
        ``bots`` for a bot the web app would refuse for that seat at the start
        (:func:`seat_bot`)."""
        if not 0 <= seat < len(self.game.roles) or self.log["bots"][seat] is not None:
            raise ChoiceError("seat", f"seat {seat} is not played by a person")
        if self.is_over():
            raise ChoiceError("seat", "the game is over")
        self.log["bots"][seat] = seat_bot(self.spec, self.game, seat, bot)

    def reclaim(self, seat: int) -> None:
        """Give the seat ``seat``, played by a bot since a person handed it over, back to a
        person: the bot makes no move from now on (a move it is thinking of in the mover is
        thrown away, as the log has changed: :mod:`sleuth.web.mover`).  Nothing changes on a
        ChoiceError blaming ``seat`` for a seat no bot plays, one whose bot forfeited (the seat
        has lost) or a game that is over."""
        if not 0 <= seat < len(self.game.roles) or self.log["bots"][seat] is None:
            raise ChoiceError("seat", f"seat {seat} is not played by a bot")
        if self.is_over():
            raise ChoiceError("seat", "the game is over")
        if any(f.seat == seat for f in self.forfeits):
            raise ChoiceError(
                "seat", f"seat {seat}'s bot forfeited: the seat has lost and cannot be taken back"
            )
        self.log["bots"][seat] = None

    def rename(self, seat: int, name: str | None) -> None:
        """Call the person's seat ``seat`` ``name`` from now on (None or blank: no name); a
        ChoiceError blaming ``name`` for a name :func:`seat_name` refuses, nothing changed."""
        names = self.names
        names[seat] = seat_name(name, "name")
        self.log["names"] = names

    def follow(self, log: dict[str, Any]) -> bool:
        """Bring this game up to ``log`` if ``log`` extends this game's own log (the same
        game, with more actions or forfeits, or seats handed to bots): the later actions are
        applied; whether it did (False: nothing changed, the game must be rebuilt)."""
        mine, done = self.log, len(self.log["actions"])
        same = all(log[key] == mine[key] for key in ("game", "options", "seat", "seed"))
        if not (
            same
            and log["actions"][:done] == mine["actions"]
            and log["forfeits"][: len(mine["forfeits"])] == mine["forfeits"]
        ):
            return False
        self.log = log
        self.forfeits = [Forfeit(**f) for f in log["forfeits"]]
        for text in log["actions"][done:]:
            self._apply(self.state.current_player(), self.game.parse_action(text))
        return True

    def _bot_move(self, seat: int) -> None:
        spec = self.spec.bot(self.log["bots"][seat])
        limit = seat_limits([spec], DEFAULT_TIME_LIMIT)[0] or float(DEFAULT_TIME_LIMIT)
        hard = max(5 * limit, limit + 1.0)  # CPU seconds: a busy server forfeits no bot
        problem = None
        try:
            spec.warm()
            made = self._bots.get(seat)
            if made is None or made[0] != self.log["bots"][seat]:
                made = self._bots[seat] = (
                    self.log["bots"][seat],
                    spec.make(self.game, seat, derive_seed(self.log["seed"], "bot", seat)),
                )
            bot = made[1]
            legal = self.state.legal_actions()
            started = time.thread_time()
            action = bot.ask(self.views[seat], legal)
            elapsed = time.thread_time() - started
            canonical = self.game.parse_action(str(action))
            if elapsed > hard:
                problem = f"used {elapsed:.3f} s of CPU time (limit {hard:g} s per move here)"
            elif not self.state.is_legal(canonical) or canonical != action:
                problem = f"returned an illegal action: {action!r}"
        except BOT_FAILURES as exc:
            problem = f"raised {type(exc).__name__}: {exc}"
        if problem is not None:
            forfeit = Forfeit(seat, spec.name, len(self.steps), problem)
            self.forfeits.append(forfeit)
            self.log["forfeits"].append(
                {"seat": seat, "bot": spec.name, "step": forfeit.step, "reason": problem}
            )
            return
        self._apply(seat, canonical)

    def _apply(self, seat: int, action: Hashable) -> None:
        """Apply a legal action, record it in the log (once) and in every seat's view."""
        events = tuple(self.state.apply(action))
        text = str(action)
        if len(self.steps) == len(self.log["actions"]):
            self.log["actions"].append(text)
        self.steps.append(Step(seat, text, events))
        for s, view in enumerate(self.views):
            seen = view.events
            assert isinstance(seen, list)
            seen.extend(e if e.private is None else e.seen_by(s) for e in events)
