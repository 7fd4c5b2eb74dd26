"""Games against Sleuth's bots in the browser (``/play``) and their JSON API (``/api/play``).

The server keeps each game as a log (:mod:`sleuth.web.live`) owned by one browser session;
every answer about a game is :func:`game_payload`: the human seat's view only (its events as
that seat sees them, its legal actions, the board drawn from that view), and the full log of
every seat only once the game is over.
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
from sleuth.web.live import ChoiceError, LiveGame, default_bot, new_log, option_help
from sleuth.web.locks import RecordLocks
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
from sleuth.web.store import NotFoundError, Store, retrying

router = APIRouter()
LEGAL_SHOWN = 1000
"""At most this many legal actions are listed in ``legal`` (the board's clickable parts); the
page's buttons are the tap picker's (:mod:`sleuth.web.picker`) and the text box takes any
action."""
CACHE_SIZE = 64
"""Live games kept in memory (others are rebuilt from their logs when asked for)."""


class Move(BaseModel):
    """The human's action, as its text form."""

    model_config = ConfigDict(extra="forbid")

    action: str = Field(max_length=2000)


@dataclass
class Held:
    """A live game and the version of its stored log that it is at."""

    live: LiveGame
    version: int


class _Live:
    """Live games by record id (a small LRU), each with the stored version it is at, and one
    lock per game id while it is used.

    The lock serialises the requests of this process; the version, those of all the
    processes serving one store (``sleuth serve --workers``): a cached game is used only at
    the stored log's version, and a change is stored only over the version it was made from
    (:meth:`Store.put` refuses it otherwise, and the request makes it again from the stored
    log: :func:`~sleuth.web.store.retrying`)."""

    def __init__(self) -> None:
        self.games: OrderedDict[str, Held] = OrderedDict()
        self.locks = RecordLocks()
        self.guard = threading.Lock()

    @contextmanager
    def hold(self, record: str, fetch: Callable[[], tuple[dict[str, Any], int]]) -> Iterator[Held]:
        """The live game of ``record``, held alone: the cached one if it is at the stored
        version (``fetch`` reads the log and its version once the game is held), else one
        rebuilt from that log.  It is cached again when the block ends, unless it raised
        (the game may be half changed, or changed but not stored)."""
        with self.locks.hold(record):
            log, version = fetch()
            with self.guard:
                held = self.games.pop(record, None)
            if held is None or held.version != version:
                held = Held(LiveGame(log), version)
            yield held
            with self.guard:
                self.games[record] = held
                while len(self.games) > CACHE_SIZE:
                    self.games.popitem(last=False)


HELD = "forfeited (the reason is shown when the game ends)"
"""A forfeit's reason while the game goes on: a bot's error or illegal action may name what
only it knows (a Camel Up bot's hidden bet), so it is shown with the final log."""


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _stored(request: Request, record: str) -> Callable[[], tuple[dict[str, Any], int]]:
    """Reads ``record``'s stored log and its version; a record of another session (or none)
    is a 404 now, before anything is held."""
    store, session = _store(request), request.state.session
    store.get(session, "game", record)
    return lambda: store.get_versioned(session, "game", record)


def _live(request: Request) -> _Live:
    live: _Live | None = getattr(request.app.state, "live", None)
    if live is None:
        live = request.app.state.live = _Live()
    return live


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


def game_payload(record: str, live: LiveGame) -> dict[str, Any]:
    """Everything the page shows about a game: only what the human's seat may see while the
    game is on; the full log of every seat once it is over."""
    game, view = live.game, live.view
    legal = [str(a) for _, a in zip(range(LEGAL_SHOWN), live.legal(), strict=False)]
    result = live.result()
    roles = game.roles
    payload: dict[str, Any] = {
        "id": record,
        "game": game.name,
        "options": game.options(),
        "seat": live.seat,
        "role": roles[live.seat],
        "players": [
            {"seat": s, "role": role, "player": "you" if s == live.seat else live.log["bots"][s]}
            for s, role in enumerate(roles)
        ],
        "over": result is not None,
        "your_turn": live.your_turn(),
        "to_move": None if result is not None else _mover(live),
        "events": [describe(game, e, live.seat) for e in view.events],
        "legal": legal,
        "legal_count": len(live.legal()),
        "svg": board_svg(game, view, legal),
        "pick": _pick(live).as_json(),
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
                "events": [describe(game, e, live.seat) for e in step.events],
            }
            for step in live.steps
        ]
    return payload


def _pick(live: LiveGame, prefix: tuple[int, ...] = ()) -> Pick:
    """The tap picker of the human's next action after the ids of ``prefix`` (nothing when it
    is not the human's turn)."""
    return pick(live.spec, live.state, prefix) if live.your_turn() else NOTHING


def _mover(live: LiveGame) -> str:
    seat = live.state.current_player()
    return "chance" if seat == CHANCE else live.game.roles[seat]


@router.get("/api/games")
def api_games() -> list[dict[str, Any]]:
    """Every game with its roles, options and bots (with their options)."""
    return games_info()


@router.post("/api/play", status_code=201)
def api_new_game(choice: NewGame, request: Request) -> dict[str, Any]:
    """Start a game: the bots and chance move until it is the human's turn."""
    return start_game(choice, request)


def start_game(choice: NewGame, request: Request) -> dict[str, Any]:
    """Store a new game of this session from ``choice`` (a random seed when it has none) and
    let chance and the bots move until it is the human's turn; its :func:`game_payload`.
    A bad choice raises a :class:`ChoiceError` before anything is stored."""
    seed = choice.seed if choice.seed is not None else secrets.randbits(63)
    log = new_log(choice.game, choice.options, choice.seat, choice.role, choice.bots, seed)
    store = _store(request)
    record = store.create(request.state.session, "game", log)

    def start() -> dict[str, Any]:
        with _live(request).hold(record, _stored(request, record)) as held:
            held.live.advance()
            held.version = store.put(
                request.state.session, "game", record, held.live.log, held.version
            )
            return game_payload(record, held.live)

    return retrying(start)


@router.get("/api/play/{record}")
def api_game(record: str, request: Request) -> dict[str, Any]:
    """The game as the human's seat sees it."""
    with _live(request).hold(record, _stored(request, record)) as held:
        return game_payload(record, held.live)


@router.get("/api/play/{record}/pick")
def api_pick(record: str, request: Request, ids: str = "") -> dict[str, Any]:
    """The tap picker of the human's next action after the ids tapped so far (``ids=15,52``):
    ``{"prefix", "steps", "choices": [{"id", "text", "action"}], "more"}``, where a choice's
    ``action`` is the action it completes (to play), else null (more taps follow)."""
    prefix = parse_prefix(ids)
    with _live(request).hold(record, _stored(request, record)) as held:
        return _pick(held.live, prefix).as_json()


@router.post("/api/play/{record}/action")
def api_action(record: str, move: Move, request: Request) -> dict[str, Any]:
    """Play the human's action; an illegal one is a 400 and changes nothing."""
    return play_action(record, move, request)


def play_action(record: str, move: Move, request: Request) -> dict[str, Any]:
    """Play the human's action in this session's game ``record``, then let chance and the bots
    move until it is the human's turn again; its :func:`game_payload`.  A bad or illegal action
    raises a SleuthError and changes nothing; another session's game is a NotFoundError."""
    store = _store(request)

    def play() -> dict[str, Any]:
        with _live(request).hold(record, _stored(request, record)) as held:
            held.live.play(move.action)
            held.version = store.put(
                request.state.session, "game", record, held.live.log, held.version
            )
            return game_payload(record, held.live)

    return retrying(play)


@router.delete("/api/play/{record}", status_code=204)
def api_delete(record: str, request: Request) -> Response:
    """Forget a game of this session."""
    _store(request).delete(request.state.session, "game", record)
    return Response(status_code=204)


@router.get("/play/new", include_in_schema=False)
def new_page(request: Request, game: str = "fox") -> Response:
    return _new_page(request, game)


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
    """The page of this session's game ``record``: its :func:`game_payload` with the picker
    after the ids of ``prefix``, and the action ``typed`` with the ``problem`` it met (then
    the status is 400; so is a prefix the picker refuses, shown as the problem)."""
    with _live(request).hold(record, _stored(request, record)) as held:
        view = game_payload(record, held.live)
        try:
            chosen = view["pick"] if not prefix else _pick(held.live, prefix).as_json()
        except SleuthError as refused:
            problem, chosen = refused, view["pick"]
    context = {
        "view": view,
        "pick": chosen,
        "groups": choice_groups(chosen),
        "problem": "" if problem is None else str(problem),
        "typed": typed,
    }
    status = 200 if problem is None else 400
    return templates.TemplateResponse(request, "play.html", context, status_code=status)
