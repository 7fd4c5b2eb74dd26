"""Games against Sleuth's bots and with friends in the browser (``/play``) and their JSON API
(``/api/play``).

The server keeps each game as a log (:mod:`sleuth.web.live`) owned by the browser session
that started it.  A game is named by a key: the game's id, for the session that started it
(which plays the seat it chose), or a seat token, for whoever holds that seat's link (no
session needed: the token is the seat's identity; see :mod:`sleuth.web.store`).  Any other key
is not found.  Every answer about a game is :func:`game_payload`: the key's seat's view only
(its events as that seat sees them, its legal actions, the board drawn from that view), the
names people gave their seats (public: every page shows them), and the full log of every seat
only once the game is over.  A key may name its own seat (:class:`Naming`), hand it to a bot
(:class:`HandOver`; the starter any person's seat) and take it back from the bot
(:class:`Reclaim`).

No request waits for a bot: a request that leaves chance or a bot to move wakes the
:class:`~sleuth.web.mover.Mover` and answers at once; the moves then reach the pages through
:mod:`sleuth.web.stream`.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException

from sleuth.core.errors import SleuthError
from sleuth.core.game import CHANCE
from sleuth.core.options import interactive_limit
from sleuth.core.registry import game_spec, game_specs
from sleuth.render import board_svg, describe
from sleuth.web.live import MAX_NAME, ChoiceError, LiveGame, default_bot, new_log, option_help
from sleuth.web.locks import RecordLocks
from sleuth.web.mover import Mover
from sleuth.web.new_game import (
    NewGame,
    choice_from_form,
    chosen_game,
    field_label,
    form_texts,
    option_text,
)
from sleuth.web.pages import templates
from sleuth.web.picker import NOTHING, Pick, parse_prefix, pick
from sleuth.web.store import ATTEMPTS, NotFoundError, Store
from sleuth.web.stream import event_stream

router = APIRouter()
LEGAL_SHOWN = 1000
"""At most this many legal actions are listed in ``legal`` (the board's clickable parts); the
page's buttons are the tap picker's (:mod:`sleuth.web.picker`) and the text box takes any
action."""
REFRESH = 2
"""Seconds after which a game page shown without scripts reloads itself while another player
is to move (with scripts, the moves arrive as server-sent events)."""
CACHE_SIZE = 64
"""Live games kept in memory (others are rebuilt from their logs when asked for)."""
ANSWERS = 2 * CACHE_SIZE
"""Answers kept in memory (:func:`game_payload` by key and stored version): a page that looks
again while the bots have not moved yet is answered without drawing anything again."""


class Move(BaseModel):
    """A person's action, as its text form."""

    model_config = ConfigDict(extra="forbid")

    action: str = Field(max_length=2000)


class HandOver(BaseModel):
    """A person's seat handed to a bot: ``seat`` (the key's own seat when not given) and the
    bot, named as ``--bots`` names it (``ismcts:iterations=200``)."""

    model_config = ConfigDict(extra="forbid")

    seat: int | None = None
    bot: str = Field(max_length=500)


class Naming(BaseModel):
    """The name a person gives their own seat (empty: none), at most
    :data:`~sleuth.web.live.MAX_NAME` characters of one line (longer texts are refused by
    :func:`~sleuth.web.live.seat_name`, naming the field)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=500)


class Reclaim(BaseModel):
    """A seat taken back from its bot: ``seat``, the key's own seat (the only one a key takes
    back) when not given."""

    model_config = ConfigDict(extra="forbid")

    seat: int | None = None


@dataclass(frozen=True)
class Seat:
    """What a key grants: ``seat`` of game ``record``; ``starter`` when the key is the game's
    id, asked for by the session that started it (which may hand any person's seat to a bot
    and sees every seat's link)."""

    key: str
    record: str
    seat: int
    starter: bool


def seat_of(request: Request, key: str) -> Seat:
    """The seat ``key`` grants to this request: this session's game ``key`` (its starter's
    seat), else the seat whose token is ``key``; a NotFoundError otherwise, before anything is
    held."""
    store, session = _store(request), request.state.session
    try:
        return Seat(key, key, int(store.get(session, "game", key)["seat"]), starter=True)
    except NotFoundError:
        pass
    try:
        record, seat = store.seat(key)
    except NotFoundError:
        raise NotFoundError(f"no game {key!r} in this browser session, nor a seat's link") from None
    return Seat(key, record, seat, starter=False)


class _Live:
    """Live games by record id (a small LRU), with one lock per game id while it is used, and
    the latest answers by key and stored version (an LRU).

    Invariant: an answer is a function of the key's seat and the game's stored log at that
    version (a record's version grows with each write, in any process), so an answer kept for
    the version the store holds now is the answer a fresh rebuild would give."""

    def __init__(self) -> None:
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self.answers: OrderedDict[tuple[Seat, int], dict[str, Any]] = OrderedDict()
        self.locks = RecordLocks()
        self.guard = threading.Lock()

    def answer(self, seat: Seat, version: int) -> dict[str, Any] | None:
        """The answer kept for ``seat`` at ``version`` of its game (not to be changed)."""
        with self.guard:
            found = self.answers.get((seat, version))
            if found is not None:
                self.answers.move_to_end((seat, version))
            return found

    def keep(self, seat: Seat, version: int, answer: dict[str, Any]) -> None:
        with self.guard:
            self.answers[(seat, version)] = answer
            while len(self.answers) > ANSWERS:
                self.answers.popitem(last=False)

    @contextmanager
    def hold(self, record: str, store: Store) -> Iterator[tuple[LiveGame, int]]:
        """The live game of ``record`` at its stored log, held alone, with the log's version:
        the cached game brought up to the log (read once the game is held, so no other
        request of this process changes it meanwhile), else one rebuilt from it."""
        with self.locks.hold(record):
            log, version = store.read("game", record)
            with self.guard:
                live = self.games.pop(record, None)
            if live is None or not live.follow(log):
                live = LiveGame(log)
            try:
                yield live, version
            finally:
                with self.guard:
                    self.games[record] = live
                    while len(self.games) > CACHE_SIZE:
                        self.games.popitem(last=False)


CHANGED = "the game changed meanwhile (another move was played): try again"


def _save(request: Request, record: str, version: int, live: LiveGame) -> int:
    """Store the changed game (held since it was read at ``version``) and wake the mover when
    chance or a bot is to move; its new version.  A SleuthError, nothing stored, if another
    process wrote the game meanwhile."""
    stored = _stored(request, record, version, live)
    if stored is None:
        raise SleuthError(CHANGED)
    return stored


def _stored(request: Request, record: str, version: int, live: LiveGame) -> int | None:
    """The new version of the changed game (held since it was read at ``version``), stored,
    the mover woken when chance or a bot is to move; None, nothing stored, if another process
    wrote the game meanwhile."""
    if not _store(request).swap("game", record, version, live.log):
        return None
    if live.waiting():
        _mover(request).wake(record)
    return version + 1


def _seat_change(
    request: Request, seat: Seat, change: Callable[[LiveGame], None]
) -> dict[str, Any]:
    """``change`` made to the game of ``seat`` and stored; its :func:`game_payload`.  A change
    that no move makes moot (a name, a seat taken back) is made again from the stored log (at
    most :data:`~sleuth.web.store.ATTEMPTS` times) while another process's write lands first,
    as the mover of another ``sleuth serve`` worker storing a bot's move does; a SleuthError
    from ``change`` changes nothing."""
    for _ in range(ATTEMPTS):
        with _live(request).hold(seat.record, _store(request)) as (live, version):
            change(live)
            stored = _stored(request, seat.record, version, live)
            if stored is not None:
                return _payload(request, seat, live, stored)
    raise SleuthError(CHANGED)


HELD = "forfeited (the reason is shown when the game ends)"
"""A forfeit's reason while the game goes on: a bot's error or illegal action may name what
only it knows (a Camel Up bot's hidden bet), so it is shown with the final log."""


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _live(request: Request) -> _Live:
    live: _Live = request.app.state.live
    return live


def _mover(request: Request) -> Mover:
    mover: Mover = request.app.state.mover
    return mover


def install(app: Any, store: Store) -> None:
    """Give ``app`` the live games' cache and the bot mover this module's routes use."""
    app.state.live = _Live()
    app.state.mover = Mover(store, app.state.live.locks)


@cache
def games_info() -> list[dict[str, Any]]:
    """What the new-game form offers: each game's roles (those of its default options first),
    options and bots, with each numeric bot option's largest
    value here (``most``: its interactive limit; None for other options)."""
    out = []
    for spec in game_specs():
        out.append(
            {
                "name": spec.name,
                "description": spec.description,
                "roles": list(dict.fromkeys([*spec.make({}).roles, *spec.roles])),
                "defaults": {
                    role: default_bot(spec, role).name for role in dict.fromkeys(spec.roles)
                },
                "options": [
                    {"name": o.name, "default": option_text(o.default), "help": option_help(o)}
                    for o in spec.options
                ],
                "bots": [
                    {
                        "name": b.name,
                        "roles": list(b.roles),
                        "description": b.description,
                        "options": [
                            {
                                "name": o.name,
                                "default": option_text(o.default),
                                "help": o.help,
                                "most": interactive_limit(o),
                            }
                            for o in b.options
                        ],
                    }
                    for b in spec.bots
                ],
            }
        )
    return out


def home_context(request: Request) -> dict[str, Any]:
    """The home page: the games, and this session's games so far."""
    mine = []
    for record, log in _store(request).list(request.state.session, "game"):
        mine.append({"id": record, "game": log["game"], "moves": len(log["actions"])})
    return {"games": games_info(), "mine": mine}


def game_payload(seat: Seat, live: LiveGame, links: dict[int, str] | None = None) -> dict[str, Any]:
    """Everything the page shows about a game: only what ``seat`` may see while the game is
    on; the full log of every seat once it is over.  ``links``: the seat tokens of the
    people's seats, shown to the game's starter only."""
    game, view, me = live.game, live.views[seat.seat], seat.seat
    legal = [str(a) for _, a in zip(range(LEGAL_SHOWN), live.legal(me), strict=False)]
    result = live.result()
    roles, names, called = game.roles, live.names, live.called
    players = [
        {
            "seat": s,
            "role": role,
            "player": _player(live, me, s),
            "name": names[s],
            "bot": live.log["bots"][s],
        }
        for s, role in enumerate(roles)
    ]
    payload: dict[str, Any] = {
        "id": seat.key,
        "game": game.name,
        "options": game.options(),
        "seat": me,
        "role": roles[me],
        "players": players,
        "over": result is not None,
        "your_turn": live.your_turn(me),
        "waiting": live.waiting(),
        "to_move": None if result is not None else _to_move(live),
        "to_move_seat": None if result is not None else _to_move_seat(live),
        "status": _status(live, me, players),
        "moves": live.moves,
        "links": None
        if not seat.starter or links is None
        else [
            {"seat": s, "role": roles[s], "url": f"/play/{token}"}
            for s, token in sorted(links.items())
        ],
        "events": [describe(game, e, me, called) for e in view.events],
        "legal": legal,
        "legal_count": len(live.legal(me)),
        "svg": board_svg(game, view, legal),
        "pick": _pick(live, me).as_json(),
        "forfeits": [
            {"seat": f.seat, "bot": f.bot, "reason": f.reason if result is not None else HELD}
            for f in live.forfeits
        ],
        "result": None,
        "log": None,
    }
    if result is not None:
        payload["result"] = {
            "text": result.text,
            "termination": result.termination,
            "winners": list(result.winners),
            "returns": list(result.returns),
        }
        payload["log"] = [
            {
                "seat": step.seat,
                "by": "chance" if step.seat == CHANCE else roles[step.seat],
                "action": step.action,
                "events": [describe(game, e, me, called) for e in step.events],
            }
            for step in live.steps
        ]
    return payload


def _pick(live: LiveGame, seat: int, prefix: tuple[int, ...] = ()) -> Pick:
    """The tap picker of ``seat``'s next action after the ids of ``prefix`` (nothing when it
    is not that seat's turn)."""
    return pick(live.spec, live.state, prefix) if live.your_turn(seat) else NOTHING


def _to_move(live: LiveGame) -> str:
    seat = live.state.current_player()
    return "chance" if seat == CHANCE else live.game.roles[seat]


def _to_move_seat(live: LiveGame) -> int | None:
    seat = live.state.current_player()
    return None if seat == CHANCE else seat


def _player(live: LiveGame, me: int, seat: int) -> str:
    """Who plays ``seat`` as ``me`` reads it: ``you``, the name its person gave it (else ``a
    person``) or the bot's name."""
    bot = live.log["bots"][seat]
    if bot is not None:
        return str(bot)
    return "you" if seat == me else live.names[seat] or "a person"


def _status(live: LiveGame, me: int, players: list[dict[str, Any]]) -> str:
    """Whose turn it is, as every page of the game says it (to ``me``)."""
    if live.is_over():
        return "game over"
    if live.your_turn(me):
        return f"you are the {live.game.roles[me]}: your move"
    seat = live.state.current_player()
    if seat == CHANCE:
        return "chance to move"
    return f"{live.game.roles[seat]} to move (seat {seat}: {players[seat]['player']})"


@router.get("/api/games")
def api_games() -> list[dict[str, Any]]:
    """Every game with its roles, options and bots (with their options)."""
    return games_info()


@router.post("/api/play", status_code=201)
def api_new_game(choice: NewGame, request: Request) -> dict[str, Any]:
    """Start a game, answered at once: chance and the bots move in the background.

    The seats in ``people`` are played by other people: the answer's ``links`` give each
    person's seat its private link."""
    return start_game(choice, request)


def start_game(choice: NewGame, request: Request) -> dict[str, Any]:
    """Store a new game of this session from ``choice`` (a random seed when it has none), with
    a seat token for each seat a person plays when more than one person plays, and wake the
    mover; its :func:`game_payload` (with the seats' links).  A bad choice raises a
    :class:`ChoiceError` before anything is stored."""
    seed = choice.seed if choice.seed is not None else secrets.randbits(63)
    log = new_log(
        choice.game,
        choice.options,
        choice.seat,
        choice.role,
        choice.bots,
        seed,
        choice.people,
        choice.name,
        choice.names,
    )
    store, session = _store(request), request.state.session
    record = store.create(session, "game", log)
    people = [s for s, bot in enumerate(log["bots"]) if bot is None]
    if len(people) > 1:
        store.add_seats(session, record, people)
    _mover(request).wake(record)
    with _live(request).hold(record, store) as (live, version):
        return _payload(request, Seat(record, record, live.seat, starter=True), live, version)


def read_game(key: str, request: Request) -> dict[str, Any]:
    """The game as ``key``'s seat sees it (waking the mover if a bot's move is pending, as
    after a restart): the answer kept for the stored version, else drawn from the game."""
    seat = seat_of(request, key)
    store, live = _store(request), _live(request)
    version = store.version(seat.record)
    answer = None if version is None else live.answer(seat, version)
    if answer is None:
        with live.hold(seat.record, store) as (game, version):
            answer = _payload(request, seat, game, version)
    if answer["waiting"]:
        _mover(request).wake(seat.record)
    return answer


def _payload(request: Request, seat: Seat, live: LiveGame, version: int) -> dict[str, Any]:
    """:func:`game_payload` of the game held at stored ``version``, with the seats' links read
    for the starter; kept for that version."""
    links = _store(request).tokens(seat.record) if seat.starter else None
    answer = game_payload(seat, live, links)
    _live(request).keep(seat, version, answer)
    return answer


@router.get("/api/play/{record}")
def api_game(record: str, request: Request) -> dict[str, Any]:
    """The game as the seat of ``record`` sees it: a game's id (its starter's session) or a
    seat's token."""
    return read_game(record, request)


@router.get("/api/play/{record}/pick")
def api_pick(record: str, request: Request, ids: str = "") -> dict[str, Any]:
    """The tap picker of the seat's next action after the ids tapped so far (``ids=15,52``):
    ``{"prefix", "steps", "choices": [{"id", "text", "action"}], "more"}``, where a choice's
    ``action`` is the action it completes (to play), else null (more taps follow)."""
    return read_pick(record, request, parse_prefix(ids))


def read_pick(key: str, request: Request, prefix: tuple[int, ...]) -> dict[str, Any]:
    """The picker of the seat ``key`` grants, after the ids of ``prefix``."""
    seat = seat_of(request, key)
    with _live(request).hold(seat.record, _store(request)) as (live, _):
        return _pick(live, seat.seat, prefix).as_json()


@router.get("/api/play/{record}/events")
async def api_events(record: str, request: Request) -> Response:
    """The game as ``record``'s seat sees it, as server-sent events: the answer of ``GET
    /api/play/ID`` now and after each change, until the game is over."""
    seat = await run_in_threadpool(seat_of, request, record)

    def payload() -> dict[str, Any]:
        return read_game(record, request)

    return event_stream(_store(request), seat.record, payload)


@router.post("/api/play/{record}/action")
def api_action(record: str, move: Move, request: Request) -> dict[str, Any]:
    """Play an action of ``record``'s seat, answered at once; an illegal one, or one out of
    turn, is a 400 and changes nothing."""
    return play_action(record, move, request)


def play_action(key: str, move: Move, request: Request) -> dict[str, Any]:
    """Play the action of ``key``'s seat and wake the mover; its :func:`game_payload`.  A bad
    or illegal action, or one out of turn, raises a SleuthError and changes nothing; an
    unknown key is a NotFoundError."""
    seat = seat_of(request, key)
    with _live(request).hold(seat.record, _store(request)) as (live, version):
        live.play(seat.seat, move.action)
        return _payload(request, seat, live, _save(request, seat.record, version, live))


@router.post("/api/play/{record}/bot")
def api_hand_over(record: str, hand: HandOver, request: Request) -> dict[str, Any]:
    """Hand a person's seat to a bot from now on: the key's own seat, or (for the game's
    starter) any person's ``seat``; a bad bot or seat is a 400 and changes nothing."""
    return hand_over(record, hand, request)


def hand_over(key: str, hand: HandOver, request: Request) -> dict[str, Any]:
    """Let the bot of ``hand`` play its seat (the key's own when none is named; only the
    game's starter may name another) and wake the mover; its :func:`game_payload`.  A seat
    no person plays, a bot the game refuses, or another seat named by a seat's link raises a
    ChoiceError and changes nothing."""
    seat = seat_of(request, key)
    target = seat.seat if hand.seat is None else hand.seat
    if target != seat.seat and not seat.starter:
        raise ChoiceError(
            "seat", f"this link is seat {seat.seat}'s: it hands only its own seat to a bot"
        )
    with _live(request).hold(seat.record, _store(request)) as (live, version):
        live.hand_over(target, hand.bot)
        return _payload(request, seat, live, _save(request, seat.record, version, live))


@router.post("/api/play/{record}/reclaim")
def api_reclaim(record: str, body: Reclaim, request: Request) -> dict[str, Any]:
    """Take the key's own seat back from the bot it was handed to: the bot moves no more once
    this is answered (a move it was thinking of is thrown away); a seat that is not the key's,
    or that no bot plays, is a 400 and changes nothing."""
    return reclaim(record, body, request)


def reclaim(key: str, body: Reclaim, request: Request) -> dict[str, Any]:
    """Give ``key``'s seat back to its person (:meth:`~sleuth.web.live.LiveGame.reclaim`); its
    :func:`game_payload`.  Another seat named, one no bot plays, one whose bot forfeited, or a
    game that is over raises a ChoiceError blaming ``seat`` and changes nothing.

    Invariant: once this returns, the stored log names no bot for the seat, and no move of the
    bot is stored after it: the mover stores a move only if the log is still the one it moved
    from (:meth:`~sleuth.web.store.Store.swap`), and this change is a new version."""
    seat = seat_of(request, key)
    if body.seat is not None and body.seat != seat.seat:
        raise ChoiceError(
            "seat", f"this link is seat {seat.seat}'s: it takes back only its own seat"
        )
    return _seat_change(request, seat, lambda live: live.reclaim(seat.seat))


@router.post("/api/play/{record}/name")
def api_name(record: str, naming: Naming, request: Request) -> dict[str, Any]:
    """Give the key's own seat a name, which every page of the game shows (an empty one: no
    name); a name too long, of more than one line, or ``you`` is a 400 and changes nothing."""
    return rename(record, naming, request)


def rename(key: str, naming: Naming, request: Request) -> dict[str, Any]:
    """Call ``key``'s seat by the name of ``naming``; its :func:`game_payload`.  A name
    :func:`~sleuth.web.live.seat_name` refuses raises a ChoiceError blaming ``name`` and
    changes nothing."""
    seat = seat_of(request, key)
    return _seat_change(request, seat, lambda live: live.rename(seat.seat, naming.name))


@router.delete("/api/play/{record}", status_code=204)
def api_delete(record: str, request: Request) -> Response:
    """Forget a game of this session (with its seats' links)."""
    _store(request).delete(request.state.session, "game", record)
    return Response(status_code=204)


@router.get("/play/new", include_in_schema=False)
def new_page(request: Request, game: str | None = None) -> Response:
    """The new-game form of ``game`` (the first game registered when none is named)."""
    return _new_page(request, game or game_specs()[0].name)


FORM_SOURCES = ("same-origin", "none")
"""The ``Sec-Fetch-Site`` values of a form sent from this app's own page (``none``: the
person's own doing, such as a bookmark).  Unlike a JSON request, a form can be sent by another
site's page, without this session's cookie (SameSite=Lax), so its answer would set a fresh
session's cookie in place of the person's: that site's forms are refused."""


def refuse_other_sites(request: Request, what: str) -> None:
    """A 403 for a form another site's page sent (see :data:`FORM_SOURCES`; a client that
    does not say where the form comes from is served); ``what`` says where the form belongs
    ("a new game starts from this site's own form")."""
    source = request.headers.get("sec-fetch-site", "none")
    if source not in FORM_SOURCES:
        raise HTTPException(403, f"{what}, not a {source} one")


@router.post("/play/new", include_in_schema=False)
async def new_game_form(request: Request) -> Response:
    """The new-game form sent without a script (form-encoded): the game is started as
    ``POST /api/play`` starts it, then the browser is sent to its page (303).  A bad choice
    answers the form again (400) with the choices as sent, the message naming the field at
    fault, and nothing stored.  A form another site sent is refused (403, nothing stored; see
    :data:`FORM_SOURCES`; a client that does not say where the form comes from is served)."""
    refuse_other_sites(request, "a new game starts from this site's own form")
    form = await request.form()
    try:
        choice = choice_from_form(form)
        started = await run_in_threadpool(start_game, choice, request)
    except ChoiceError as problem:
        if problem.field == "game":  # no form to answer with: the error page names the game
            raise
        return _new_page(request, chosen_game(form), form_texts(form), problem)
    return RedirectResponse(f"/play/{started['id']}", status_code=303)


def _new_page(
    request: Request,
    game: str,
    sent: dict[str, str] | None = None,
    problem: ChoiceError | None = None,
) -> Response:
    """The new-game form of ``game``: blank, or filled with the texts ``sent`` and showing
    ``problem`` (then its status is 400)."""
    spec = game_spec(game)
    info = next(g for g in games_info() if g["name"] == spec.name)
    context = {
        "game": info,
        "sent": sent or {},
        "culprit": None if problem is None else problem.field,
        "max_name": MAX_NAME,
        "problem": "" if problem is None else f"{field_label(problem.field)}: {problem}",
    }
    status = 200 if problem is None else 400
    return templates.TemplateResponse(request, "new.html", context, status_code=status)


@router.get("/play/{record}", include_in_schema=False)
def game_page(record: str, request: Request, pick: str = "") -> Response:
    """The game's page, drawn by the server from :func:`game_payload` (what ``GET
    /api/play/ID`` answers), so that it is played without scripts as with them; ``pick``: the
    ids tapped so far in the picker (``15,52``; each step is a link here without scripts), a
    bad one shown as the page's error (400)."""
    try:
        prefix = parse_prefix(pick)
    except SleuthError as problem:
        return _game_page(request, record, problem)
    return _game_page(request, record, prefix=prefix)


@router.post("/play/{record}/action", include_in_schema=False)
async def action_form(record: str, request: Request) -> Response:
    """An action sent by the game page's forms without a script (form-encoded ``action``): it
    is played as ``POST /api/play/ID/action`` plays it, then the browser is sent back to the
    game's page (303).  A malformed or illegal action answers the page again (400) with the
    message and the action as sent, and changes nothing; another session's game is a 404,
    and a form another site sent is refused (403, see :data:`FORM_SOURCES`)."""
    refuse_other_sites(request, "an action is played from this site's own game page")
    form = await request.form()
    try:
        move = move_from_form(form)
        await run_in_threadpool(play_action, record, move, request)
    except NotFoundError:
        raise
    except SleuthError as problem:
        sent = form.get("action")
        typed = sent if isinstance(sent, str) else ""
        return await run_in_threadpool(_game_page, request, record, problem, typed)
    return RedirectResponse(f"/play/{record}", status_code=303)


@router.post("/play/{record}/bot", include_in_schema=False)
async def hand_over_form(record: str, request: Request) -> Response:
    """A seat handed to a bot by the game page's form (form-encoded ``seat`` and ``bot``), as
    ``POST /api/play/ID/bot`` hands it, then back to the page (303); a refused one answers the
    page again (400) with the message, and changes nothing."""

    def change(form: dict[str, str]) -> None:
        seat = form.get("seat", "").strip()
        hand = HandOver(seat=int(seat) if seat.isdigit() else None, bot=form.get("bot", ""))
        hand_over(record, hand, request)

    return await _seat_form(request, record, change, "a seat is handed to a bot")


@router.post("/play/{record}/reclaim", include_in_schema=False)
async def reclaim_form(record: str, request: Request) -> Response:
    """The key's seat taken back from its bot by the game page's button, as ``POST
    /api/play/ID/reclaim`` takes it, then back to the page (303); a refused one answers the
    page again (400) with the message, and changes nothing."""

    def change(form: dict[str, str]) -> None:
        seat = form.get("seat", "").strip()
        reclaim(record, Reclaim(seat=int(seat) if seat.isdigit() else None), request)

    return await _seat_form(request, record, change, "a seat is taken back")


@router.post("/play/{record}/name", include_in_schema=False)
async def name_form(record: str, request: Request) -> Response:
    """The key's seat's name from the game page's form (form-encoded ``name``), set as ``POST
    /api/play/ID/name`` sets it, then back to the page (303); a refused one answers the page
    again (400) with the message, and changes nothing."""

    def change(form: dict[str, str]) -> None:
        rename(record, Naming(name=form.get("name", "")), request)

    return await _seat_form(request, record, change, "a seat is named")


async def _seat_form(
    request: Request, record: str, change: Callable[[dict[str, str]], None], what: str
) -> Response:
    """A game page's form about a seat: ``change`` made from the form's texts (off the event
    loop), then back to the page (303); a refused change answers the page again (400) with
    its message and changes nothing; a form from another site is refused (``what`` is done
    from this site's own game page only)."""
    refuse_other_sites(request, f"{what} from this site's own game page")
    form = form_texts(await request.form())
    try:
        await run_in_threadpool(change, form)
    except NotFoundError:
        raise
    except (SleuthError, ValidationError) as problem:
        return await run_in_threadpool(_game_page, request, record, SleuthError(str(problem)))
    return RedirectResponse(f"/play/{record}", status_code=303)


def move_from_form(form: FormData) -> Move:
    """The action a game page's form sends (its one field, ``action``), as the JSON API would
    receive it; a SleuthError naming what is wrong: another field, none or several actions, a
    file, or a text over the bound of :class:`Move`."""
    for name in form:
        if name != "action":
            raise SleuthError(f"the form has no field {name!r}")
    actions = form.getlist("action")
    if not actions:
        raise SleuthError("no action is given")
    if len(actions) > 1:
        raise SleuthError(f"action is given {len(actions)} times")
    if not isinstance(actions[0], str):
        raise SleuthError("action is a file, not a text")
    try:
        return Move(action=actions[0])
    except ValidationError as invalid:
        raise SleuthError(f"action: {invalid.errors()[0]['msg']}") from invalid


def choice_groups(pick: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The page's rows of the picker's choices, in the order the game lists them: those whose
    text starts with one word (``tile 4 oasis``, ``tile 4 mirage``) share a row, and choices
    alone of their word next to each other share one too (a Cluedo card's names: ``Hall``,
    ``Dining Room``; ``roll``, ``accuse``).  ``picker.js`` makes the same rows."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for choice in pick["choices"]:
        groups.setdefault(choice["text"].split(" ")[0], []).append(choice)
    rows: list[list[dict[str, Any]]] = []
    alone = False  # the last row holds choices alone of their word
    for group in groups.values():
        if len(group) == 1 and alone:
            rows[-1].extend(group)
        else:
            rows.append(list(group))
            alone = len(group) == 1
    return rows


def _game_page(
    request: Request,
    record: str,
    problem: SleuthError | None = None,
    typed: str = "",
    prefix: tuple[int, ...] = (),
) -> Response:
    """The page of the game ``record`` names (a game's id or a seat's token): its
    :func:`game_payload` with the picker after the ids of ``prefix``, the bots the page's
    seats may be handed to, and the action ``typed`` with the ``problem`` it met (then the
    status is 400; so is a prefix the picker refuses, shown as the problem)."""
    view = read_game(record, request)
    try:
        chosen = view["pick"] if not prefix else read_pick(record, request, prefix)
    except SleuthError as refused:
        problem, chosen = refused, view["pick"]
    spec = game_spec(view["game"])
    context = {
        "view": view,
        "bots": [bot.name for bot in spec.bots],
        "handed": [
            p
            for p in view["players"]
            if p["bot"] is None and (view["links"] is not None or p["seat"] == view["seat"])
        ],
        "pick": chosen,
        "groups": choice_groups(chosen),
        "refresh": REFRESH,
        "max_name": MAX_NAME,
        "problem": "" if problem is None else str(problem),
        "typed": typed,
    }
    status = 200 if problem is None else 400
    return templates.TemplateResponse(request, "play.html", context, status_code=status)
