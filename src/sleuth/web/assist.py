"""The table-side assistants in the browser (``/assist``) and their JSON API (``/api/assist``).

Every ``sleuth assist GAME`` session (and the fox puzzle of ``sleuth fox play``) as a notepad
owned by one browser session: an entry box, the history with undo, edit, delete and insert,
the session's own commands (``why CARD``, the fox's ``hint`` and ``give up``), save (download
the view log) and load (upload one), the assistant's text rendered as HTML and its picture
(drawn by the game's page plug-in: :func:`sleuth.render.notepad_svg`).  The store keeps each
notepad as its record (:mod:`sleuth.web.assist_session`); every answer is
:func:`notepad_payload`.  A refused request (a bad entry, an entry number out of range, a bad
log) is a 4xx with the assistant's own message, and the stored record is as before.

The pages work without scripts: ``/assist/ID`` is drawn from :func:`notepad_payload`, and its
forms (``POST /assist``, ``/assist/ID/entries``, ``.../undo`` and so on) call the JSON
endpoints' own functions, then send the browser back to the page (303).
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from sleuth.core.errors import SleuthError
from sleuth.core.game import Game
from sleuth.core.plugins import Switch
from sleuth.core.registry import game_spec
from sleuth.core.table import TableSession, count_entries
from sleuth.render import notepad_svg, page
from sleuth.web import assist_session as notes
from sleuth.web.live import option_help
from sleuth.web.locks import RecordLocks
from sleuth.web.pages import templates
from sleuth.web.play import refuse_other_sites
from sleuth.web.rich_html import to_html
from sleuth.web.store import NotFoundError, Store, retrying

router = APIRouter()
CACHE_SIZE = 128
"""Live notepads kept in memory (others are rebuilt from their records when asked for): more
than the notepads of the 50 concurrent sessions the web app is sized for."""
DRAWN = 4 * CACHE_SIZE
"""Renderings and pictures kept, a few states per notepad (an undo shows the state before the
last entry, drawn already; entering it again, the state drawn before the undo)."""


Body = TypeVar("Body", bound=BaseModel)


class NewNotepad(BaseModel):
    """A person's choices for a new notepad: the game, its options, the assistant's settings."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=100)
    options: dict[str, str] = Field(default_factory=dict, max_length=50)
    params: dict[str, str] = Field(default_factory=dict, max_length=50)


class Entry(BaseModel):
    """One entry's text, as the CLI assistant takes it."""

    model_config = ConfigDict(extra="forbid")

    text: str = Field(min_length=1, max_length=notes.MAX_ENTRY_TEXT)


class Undo(BaseModel):
    """How many of the last entries to take back."""

    model_config = ConfigDict(extra="forbid")

    count: int = Field(default=1, ge=1, le=notes.MAX_ENTRIES)


class Run(BaseModel):
    """One of the session's own commands (``why plum``, ``hint``, ``give up``)."""

    model_config = ConfigDict(extra="forbid")

    command: str = Field(min_length=1, max_length=notes.MAX_ENTRY_TEXT)


class Upload(BaseModel):
    """A saved view log's text (what ``save`` downloads, or a CLI ``save FILE``)."""

    model_config = ConfigDict(extra="forbid")

    log: str = Field(min_length=1, max_length=notes.MAX_LOG_TEXT)


class _Live:
    """Live sessions by notepad id (an LRU) with the record each was built from, the
    renderings and pictures drawn lately by notepad id and record state (an LRU), and one lock
    per notepad id while it is used.  Each is keyed by the whole stored record, so a record
    another process changed is never answered from a stale copy (``sleuth serve --workers``);
    the message a form's change leaves for the next page is in the store, which every
    process reads (:meth:`Store.say`)."""

    def __init__(self) -> None:
        self.sessions: OrderedDict[str, tuple[str, TableSession]] = OrderedDict()
        self.drawn: OrderedDict[tuple[str, bytes], tuple[str, str]] = OrderedDict()
        self.locks = RecordLocks()
        self.guard = threading.Lock()

    @contextmanager
    def hold(self, record_id: str) -> Iterator[None]:
        """Hold the notepad's lock (one change at a time per notepad)."""
        with self.locks.hold(record_id):
            yield

    def session(self, record_id: str, record: dict[str, Any]) -> TableSession:
        """The live session of ``record``: the cached one if it was built for this very
        record, else the cached one brought up to it (:func:`_followed`: another process
        changed the notepad's entries), else one rebuilt from the record."""
        key = json.dumps(record, sort_keys=True)
        with self.guard:
            cached = self.sessions.get(record_id)
        if cached is not None and cached[0] == key:
            return cached[1]
        session = None if cached is None else _followed(json.loads(cached[0]), cached[1], record)
        if session is None:
            session = notes.rebuild(record)
        self.keep(record_id, record, session)
        return session

    def pictures(
        self, record_id: str, record: dict[str, Any], session: TableSession
    ) -> tuple[str, str]:
        """The session's rendering as HTML and its picture, drawn once per record state
        (while it is among the :data:`DRAWN` latest)."""
        state = hashlib.sha256(json.dumps(record, sort_keys=True).encode()).digest()
        key = (record_id, state)
        with self.guard:
            drawn = self.drawn.get(key)
            if drawn is not None:
                self.drawn.move_to_end(key)
                return drawn
        html, svg = rendered_html(session), notepad_svg(record["game"], session)
        with self.guard:
            self.drawn[key] = (html, svg)
            while len(self.drawn) > DRAWN:
                self.drawn.popitem(last=False)
        return html, svg

    def forget(self, record_id: str) -> None:
        """Drop the live session (the next request rebuilds it from the stored record)."""
        with self.guard:
            self.sessions.pop(record_id, None)

    def keep(self, record_id: str, record: dict[str, Any], session: TableSession) -> None:
        with self.guard:
            self.sessions[record_id] = (json.dumps(record, sort_keys=True), session)
            self.sessions.move_to_end(record_id)
            while len(self.sessions) > CACHE_SIZE:
                self.sessions.popitem(last=False)


def _followed(
    old: dict[str, Any], session: TableSession, record: dict[str, Any]
) -> TableSession | None:
    """``session``, built for the record ``old``, brought up to ``record`` when the two differ
    in their entries only and no command ended either: the entries after their common start
    taken back and the new ones entered (:func:`notes.rewrite`, the session's own cheap undo),
    instead of a replay of every entry.  None (rebuild it) otherwise, or if an entry is
    refused (``session`` then as it was)."""
    rest = [{k: v for k, v in r.items() if k != "entries"} for r in (old, record)]
    if rest[0] != rest[1] or record["ended_by"] is not None:
        return None
    try:
        return notes.rewrite(record, session, record["entries"])
    except SleuthError:
        return None


def _store(request: Request) -> Store:
    store: Store = request.app.state.store
    return store


def _live(request: Request) -> _Live:
    live: _Live | None = getattr(request.app.state, "assist_live", None)
    if live is None:
        live = request.app.state.assist_live = _Live()
    return live


def rendered_html(session: TableSession) -> str:
    """The session's rendering as HTML elements (:func:`sleuth.web.rich_html.to_html`)."""
    return to_html(session.render())


def assistants_info() -> list[dict[str, Any]]:
    """What the new-notepad form offers: each assistant, its game's options and its settings."""
    out = []
    for name, helper in notes.assistants().items():
        spec = game_spec(name)
        out.append(
            {
                "game": name,
                "help": helper.help,
                "options": [
                    {"name": o.name, "default": _text(o.default), "help": option_help(o)}
                    for o in spec.options
                ],
                "params": [
                    {
                        "name": p.name,
                        "default": "" if p.default is None else _text(p.default),
                        "help": p.help,
                        "choices": list(p.choices),
                    }
                    for p in helper.params
                ],
            }
        )
    return out


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def notepad_payload(
    record_id: str,
    record: dict[str, Any],
    session: TableSession,
    message: str = "",
    live: _Live | None = None,
) -> dict[str, Any]:
    """Everything the page shows about a notepad (its pictures from ``live``'s cache when
    they were drawn for this very record)."""
    name = record["game"]
    if live is None:
        html, svg = rendered_html(session), notepad_svg(name, session)
    else:
        html, svg = live.pictures(record_id, record, session)
    return {
        "id": record_id,
        "game": name,
        "options": record["options"],
        "params": record["params"],
        "title": session.title,
        "entry_help": session.entry_help,
        "commands": [
            {"usage": c.usage(), "names": list(c.names), "argument": c.argument, "help": c.help}
            for c in notes.commands(name, session)
        ],
        "entries": session.history(),
        "finished": session.finished,
        "ended_by": record["ended_by"],
        "html": html,
        "svg": svg,
        "switches": [{"name": s.name, "label": s.label} for s in _switches(name)],
        "message": message,
    }


def _switches(name: str) -> tuple[Switch, ...]:
    """The switches of the picture of the game called ``name`` (its page plug-in's)."""
    plugin = page(name)
    return () if plugin is None else plugin.switches


def _change(
    request: Request,
    record_id: str,
    change: Callable[[dict[str, Any], TableSession], tuple[dict[str, Any], TableSession, str]],
) -> dict[str, Any]:
    """Apply ``change`` to the notepad (it returns the new record, its live session and a
    message, or raises a SleuthError); store the new record only when it succeeds."""
    store = _store(request)
    live = _live(request)
    store.get(request.state.session, "notepad", record_id)  # a 404 before a lock is made

    def attempt() -> dict[str, Any]:
        with live.hold(record_id):
            record, version = store.get_versioned(request.state.session, "notepad", record_id)
            session = live.session(record_id, record)
            try:
                new, session, message = change(record, session)
                store.put(request.state.session, "notepad", record_id, new, version)
            except BaseException:
                # The change may have edited the cached session in place (half-way, or fully
                # but not stored): drop it, so the next request rebuilds from the stored record.
                live.forget(record_id)
                raise
            live.keep(record_id, new, session)
            return notepad_payload(record_id, new, session, message, live)

    return retrying(attempt)


def _with_entries(
    record: dict[str, Any], session: TableSession, entries: list[str]
) -> tuple[dict[str, Any], TableSession]:
    """The record with ``entries`` and its session (all or nothing)."""
    if len(entries) > notes.MAX_ENTRIES:
        raise SleuthError(f"a notepad holds at most {notes.MAX_ENTRIES} entries")
    try:
        session = notes.rewrite(record, session, entries)
    except SleuthError as exc:
        raise SleuthError(f"nothing changed: {exc}") from None
    return {**record, "entries": session.history(), "ended_by": None}, session


@router.get("/api/assist")
def api_assistants() -> list[dict[str, Any]]:
    """Every assistant with its game's options and its own settings."""
    return assistants_info()


@router.post("/api/assist", status_code=201)
def api_new(choice: NewNotepad, request: Request) -> dict[str, Any]:
    """Open a notepad for a game at a real table."""
    record = notes.new_record(choice.game, choice.options, choice.params)
    session = notes.rebuild(record)
    record_id = _store(request).create(request.state.session, "notepad", record)
    _live(request).keep(record_id, record, session)
    return notepad_payload(record_id, record, session, live=_live(request))


@router.get("/api/assist/{record_id}")
def api_notepad(record_id: str, request: Request) -> dict[str, Any]:
    """The notepad: its entries, the assistant's rendering and the game's picture."""
    return notepad_view(request, record_id)


def notepad_view(request: Request, record_id: str, message: str = "") -> dict[str, Any]:
    """The :func:`notepad_payload` of this session's notepad ``record_id`` as stored, with
    ``message``; another session's notepad is a NotFoundError."""
    store = _store(request)
    store.get(request.state.session, "notepad", record_id)  # a 404 before a lock is made
    with _live(request).hold(record_id):  # read under the lock: no change lands in between
        record = store.get(request.state.session, "notepad", record_id)
        session = _live(request).session(record_id, record)
        return notepad_payload(record_id, record, session, message, _live(request))


@router.post("/api/assist/{record_id}/entries")
def api_enter(record_id: str, entry: Entry, request: Request) -> dict[str, Any]:
    """Enter what just happened at the table (refused, changing nothing, when the assistant
    cannot read it or it is impossible)."""

    def change(
        record: dict[str, Any], session: TableSession
    ) -> tuple[dict[str, Any], TableSession, str]:
        if session.finished:
            raise SleuthError("the game is over: undo, edit or delete an entry to go on")
        if len(record["entries"]) >= notes.MAX_ENTRIES:
            raise SleuthError(f"a notepad holds at most {notes.MAX_ENTRIES} entries")
        answer = session.enter(entry.text)
        entries = session.history()
        return {**record, "entries": entries}, session, f"ok: {answer} (entry {len(entries)})"

    return _change(request, record_id, change)


@router.post("/api/assist/{record_id}/entries/{number}")
def api_insert(record_id: str, number: int, entry: Entry, request: Request) -> dict[str, Any]:
    """Insert a missed entry before entry ``number`` (counted from 1); the later ones are
    entered again."""
    return _edit(request, record_id, "insert", number, entry.text)


@router.put("/api/assist/{record_id}/entries/{number}")
def api_edit(record_id: str, number: int, entry: Entry, request: Request) -> dict[str, Any]:
    """Replace entry ``number``; the later ones are entered again (all or nothing)."""
    return _edit(request, record_id, "edit", number, entry.text)


@router.delete("/api/assist/{record_id}/entries/{number}")
def api_delete_entry(record_id: str, number: int, request: Request) -> dict[str, Any]:
    """Remove entry ``number``; the later ones are entered again (all or nothing)."""
    return _edit(request, record_id, "delete", number, "")


def _edit(request: Request, record_id: str, word: str, number: int, text: str) -> dict[str, Any]:
    def change(
        record: dict[str, Any], session: TableSession
    ) -> tuple[dict[str, Any], TableSession, str]:
        old = record["entries"]
        new, fresh = _with_entries(record, session, notes.edited(old, word, number, text))
        if word == "delete":
            message = f"deleted entry {number}: {old[number - 1]}"
        elif word == "edit":
            message = f"edited entry {number}: {old[number - 1]} -> {new['entries'][number - 1]}"
        else:
            message = f"inserted entry {number}: {new['entries'][number - 1]}"
        return new, fresh, message

    return _change(request, record_id, change)


@router.post("/api/assist/{record_id}/undo")
def api_undo(record_id: str, request: Request, undo: Undo | None = None) -> dict[str, Any]:
    """Take back the last entry (or the last ``count``)."""
    count = 1 if undo is None else undo.count

    def change(
        record: dict[str, Any], session: TableSession
    ) -> tuple[dict[str, Any], TableSession, str]:
        entries = record["entries"]
        if not entries:
            raise SleuthError("nothing to undo")
        if count > len(entries):
            raise SleuthError(f"'undo {count}': there are only {count_entries(len(entries))}")
        new, fresh = _with_entries(record, session, entries[: len(entries) - count])
        taken = "; ".join(reversed(entries[len(entries) - count :]))
        return new, fresh, f"took back: {taken}"

    return _change(request, record_id, change)


@router.post("/api/assist/{record_id}/command")
def api_command(record_id: str, run: Run, request: Request) -> dict[str, Any]:
    """Run one of the session's own commands; one that ends the session (``give up``) is
    kept until the entries change."""

    def change(
        record: dict[str, Any], session: TableSession
    ) -> tuple[dict[str, Any], TableSession, str]:
        was = session.finished
        answer = notes.run_command(record["game"], session, run.command)
        ended = record["ended_by"]
        if session.finished and not was:
            ended = " ".join(run.command.lower().split())
        return {**record, "ended_by": ended}, session, answer

    return _change(request, record_id, change)


@router.get("/api/assist/{record_id}/save")
def api_save(record_id: str, request: Request) -> Response:
    """The notepad's view log (JSON lines), as ``save FILE`` writes it, to download."""
    import tempfile
    from pathlib import Path

    store = _store(request)
    store.get(request.state.session, "notepad", record_id)  # a 404 before a lock is made
    with _live(request).hold(record_id):  # read under the lock: no change lands in between
        record = store.get(request.state.session, "notepad", record_id)
        session = _live(request).session(record_id, record)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "log.jsonl"
            session.save(path)
            text = path.read_text(encoding="utf-8")
    name = f"sleuth-{record['game']}-notepad.jsonl"
    return Response(
        text,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.post("/api/assist/{record_id}/load")
def api_load(record_id: str, upload: Upload, request: Request) -> dict[str, Any]:
    """Replace the notepad by a saved view log (its game options and settings come with it);
    a bad log changes nothing."""

    def change(
        record: dict[str, Any], session: TableSession
    ) -> tuple[dict[str, Any], TableSession, str]:
        notes.refuse_log_files(upload.log)  # before anything is read
        base = {**record, "base": upload.log, "entries": [], "ended_by": None}
        fresh = notes.rebuild({**base, "base": None})
        notes.check_log_entries(record["game"], upload.log)  # before the (costly) replay
        notes.load_text(fresh, upload.log)
        entries = fresh.history()
        if len(entries) > notes.MAX_ENTRIES:
            raise SleuthError(
                f"the uploaded log has {count_entries(len(entries))}: a notepad holds at most "
                f"{notes.MAX_ENTRIES}"
            )
        game = getattr(fresh, "game", None) or getattr(getattr(fresh, "table", None), "game", None)
        new = {**base, "entries": entries}
        if isinstance(game, Game):  # the log's options (a Fugitive session keeps its table's)
            new["options"] = game.options()
        notes.replay(new, entries)  # the stored record rebuilds this very session
        return new, fresh, f"loaded {count_entries(len(entries))}"

    return _change(request, record_id, change)


@router.delete("/api/assist/{record_id}", status_code=204)
def api_forget(record_id: str, request: Request) -> Response:
    """Forget a notepad of this session."""
    _store(request).delete(request.state.session, "notepad", record_id)
    return Response(status_code=204)


@router.get("/assist", include_in_schema=False)
def assist_home(request: Request) -> Response:
    """This session's notepads and a form per assistant to open one (it works without
    scripts: ``POST /assist``)."""
    return _home_page(request)


@router.post("/assist", include_in_schema=False)
async def new_notepad_form(request: Request) -> Response:
    """A new-notepad form sent without a script (form-encoded ``game``, ``option:NAME`` and
    ``param:NAME``; an empty setting is left at its default): the notepad is opened as
    ``POST /api/assist`` opens it, then the browser is sent to it (303).  Refused choices
    answer the page again (400) with the message and the choices as sent, and open nothing;
    a form another site sent is refused (403, see :data:`~sleuth.web.play.FORM_SOURCES`)."""
    refuse_other_sites(request, "a notepad is opened from this site's own form")
    form = await request.form()
    sent = {name: value.strip() for name, value in form.items() if isinstance(value, str)}
    try:
        choice = _model(NewNotepad, notepad_choice(form))
        opened = await run_in_threadpool(api_new, choice, request)
    except SleuthError as problem:
        return await run_in_threadpool(_home_page, request, problem, sent)
    return RedirectResponse(f"/assist/{opened['id']}", status_code=303)


def notepad_choice(form: FormData) -> dict[str, Any]:
    """A new-notepad form's fields as ``POST /api/assist``'s body (as ``assist_new.js`` sends
    it: values trimmed, empty settings left out); a SleuthError names a field that is a
    file, given twice, or none of ``game``, ``option:NAME``, ``param:NAME``."""
    choice: dict[str, Any] = {"options": {}, "params": {}}
    for name in form:
        values = form.getlist(name)
        if len(values) > 1:
            raise SleuthError(f"{name} is given {len(values)} times")
        value = values[0]
        if not isinstance(value, str):
            raise SleuthError(f"{name} is a file, not a text")
        text = value.strip()
        if name == "game":
            choice["game"] = text
        elif name.startswith("option:"):
            choice["options"][name.removeprefix("option:")] = text
        elif name.startswith("param:"):
            if text:
                choice["params"][name.removeprefix("param:")] = text
        else:
            raise SleuthError(f"the form has no field {name[:40]!r}")
    return choice


def _home_page(
    request: Request, problem: SleuthError | None = None, sent: dict[str, str] | None = None
) -> Response:
    """The ``/assist`` page: this session's notepads and a form per assistant, the one for
    ``sent["game"]`` filled as ``sent`` with the ``problem`` it met (then the status is 400)."""
    mine = [
        {"id": rid, "game": rec["game"], "entries": len(rec["entries"])}
        for rid, rec in _store(request).list(request.state.session, "notepad")
    ]
    context = {
        "assistants": assistants_info(),
        "mine": mine,
        "sent": sent or {},
        "problem": "" if problem is None else str(problem),
    }
    status = 200 if problem is None else 400
    return templates.TemplateResponse(request, "assist_home.html", context, status_code=status)


@router.get("/assist/{record_id}", include_in_schema=False)
def assist_page(record_id: str, request: Request) -> Response:
    """The notepad's page, drawn by the server from :func:`notepad_payload` (what ``GET
    /api/assist/ID`` answers, with the message the last form's change answered, shown this
    once), so that it is kept without scripts as with them."""
    _store(request).get(request.state.session, "notepad", record_id)  # another's: a 404
    message = _store(request).take_message(request.state.session, "notepad", record_id)
    return _notepad_page(request, record_id, message)


def _back_to_page(request: Request, record_id: str, message: str) -> Response:
    """Send the browser back to the notepad's page (303), which shows ``message`` once."""
    _store(request).say(request.state.session, "notepad", record_id, message)
    return RedirectResponse(f"/assist/{record_id}", status_code=303)


def _notepad_page(
    request: Request,
    record_id: str,
    message: str = "",
    problem: SleuthError | None = None,
    typed: dict[str, str] | None = None,
) -> Response:
    """The page of this session's notepad ``record_id``: its :func:`notepad_view` with
    ``message``, and the text ``typed`` in a box (by the box's name: ``entry``, ``command``,
    ``count``, or an entry's number) with the ``problem`` it met (then the status is 400)."""
    view = notepad_view(request, record_id, message)
    context = {
        "view": view,
        "problem": "" if problem is None else str(problem),
        "typed": typed or {},
    }
    status = 200 if problem is None else 400
    return templates.TemplateResponse(request, "assist.html", context, status_code=status)


def _model(kind: type[Body], fields: dict[str, Any]) -> Body:
    """``fields`` read as the JSON API reads its body; a SleuthError names the field at fault."""
    try:
        return kind(**fields)
    except ValidationError as invalid:
        problem = invalid.errors()[0]
        where = ".".join(str(part) for part in problem.get("loc", ())) or "the form"
        raise SleuthError(f"{where}: {problem['msg']}") from invalid


def form_texts(form: FormData, names: tuple[str, ...]) -> dict[str, str]:
    """The form's fields, each one of ``names`` given once as a text; a SleuthError names
    another field, a field given twice or a file."""
    texts = {}
    for name in form:
        if name not in names:
            raise SleuthError(f"the form has no field {name[:40]!r}")
        values = form.getlist(name)
        if len(values) > 1:
            raise SleuthError(f"{name} is given {len(values)} times")
        if not isinstance(values[0], str):
            raise SleuthError(f"{name} is a file, not a text")
        texts[name] = values[0]
    return texts


async def _notepad_form(
    request: Request,
    record_id: str,
    names: tuple[str, ...],
    change: Callable[[dict[str, str]], dict[str, Any]],
    box: str = "",
) -> Response:
    """A notepad page's form sent without a script (form-encoded ``names``): ``change`` makes
    the change through its JSON endpoint's own function, then the browser is sent back to the
    page with the change's message (303).  A refused change answers the page again (400) with
    the message and the text typed in ``box`` (its form's one field) kept, and changes
    nothing; another session's notepad is a 404, another site's form a 403."""
    refuse_other_sites(request, "a notepad is changed from this site's own notepad page")
    form = await request.form()
    try:
        answer = await run_in_threadpool(change, form_texts(form, names))
    except NotFoundError:
        raise
    except SleuthError as problem:
        sent = form.get(names[0]) if names else None
        typed = {box: sent} if box and isinstance(sent, str) else {}
        return await run_in_threadpool(_notepad_page, request, record_id, "", problem, typed)
    return _back_to_page(request, record_id, answer["message"])


@router.post("/assist/{record_id}/entries", include_in_schema=False)
async def entry_form(record_id: str, request: Request) -> Response:
    """An entry (``text``), entered as ``POST /api/assist/ID/entries`` enters it."""

    def change(sent: dict[str, str]) -> dict[str, Any]:
        return api_enter(record_id, _model(Entry, sent), request)

    return await _notepad_form(request, record_id, ("text",), change, "entry")


@router.post("/assist/{record_id}/entries/{number}/edit", include_in_schema=False)
async def edit_form(record_id: str, number: int, request: Request) -> Response:
    """Entry ``number`` replaced by ``text``, as ``PUT /api/assist/ID/entries/N`` does."""

    def change(sent: dict[str, str]) -> dict[str, Any]:
        return api_edit(record_id, number, _model(Entry, sent), request)

    return await _notepad_form(request, record_id, ("text",), change, str(number))


@router.post("/assist/{record_id}/entries/{number}/insert", include_in_schema=False)
async def insert_form(record_id: str, number: int, request: Request) -> Response:
    """``text`` inserted before entry ``number``, as ``POST /api/assist/ID/entries/N`` does."""

    def change(sent: dict[str, str]) -> dict[str, Any]:
        return api_insert(record_id, number, _model(Entry, sent), request)

    return await _notepad_form(request, record_id, ("text",), change, str(number))


@router.post("/assist/{record_id}/entries/{number}/delete", include_in_schema=False)
async def delete_form(record_id: str, number: int, request: Request) -> Response:
    """Entry ``number`` removed, as ``DELETE /api/assist/ID/entries/N`` removes it."""

    def change(sent: dict[str, str]) -> dict[str, Any]:
        return api_delete_entry(record_id, number, request)

    return await _notepad_form(request, record_id, (), change)


@router.post("/assist/{record_id}/undo", include_in_schema=False)
async def undo_form(record_id: str, request: Request) -> Response:
    """The last ``count`` entries (1 unless given) taken back, as ``POST
    /api/assist/ID/undo`` takes them back."""

    def change(sent: dict[str, str]) -> dict[str, Any]:
        return api_undo(record_id, request, _model(Undo, sent))

    return await _notepad_form(request, record_id, ("count",), change, "count")


@router.post("/assist/{record_id}/command", include_in_schema=False)
async def command_form(record_id: str, request: Request) -> Response:
    """One of the session's own commands (``command``), run as ``POST
    /api/assist/ID/command`` runs it."""

    def change(sent: dict[str, str]) -> dict[str, Any]:
        return api_command(record_id, _model(Run, sent), request)

    return await _notepad_form(request, record_id, ("command",), change, "command")


@router.post("/assist/{record_id}/load", include_in_schema=False)
async def load_form(record_id: str, request: Request) -> Response:
    """A saved view log uploaded as a file (multipart ``log``), loaded as ``POST
    /api/assist/ID/load`` loads its text; a bad log or file changes nothing (400)."""
    refuse_other_sites(request, "a notepad is changed from this site's own notepad page")
    form = await request.form()
    try:
        log = await _uploaded_text(form)
        answer = await run_in_threadpool(api_load, record_id, _model(Upload, {"log": log}), request)
    except NotFoundError:
        raise
    except SleuthError as problem:
        return await run_in_threadpool(_notepad_page, request, record_id, "", problem)
    return _back_to_page(request, record_id, answer["message"])


async def _uploaded_text(form: FormData) -> str:
    """The text of the form's one field, ``log``, a file in UTF-8; a SleuthError says what
    else was sent."""
    for name in form:
        if name != "log":
            raise SleuthError(f"the form has no field {name[:40]!r}")
    files = form.getlist("log")
    if len(files) != 1 or isinstance(files[0], str):
        raise SleuthError("log: send one saved log file")
    data = await files[0].read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as problem:
        raise SleuthError(f"log: the file is not UTF-8 text ({problem.reason})") from None


@router.post("/assist/{record_id}/forget", include_in_schema=False)
async def forget_form(record_id: str, request: Request) -> Response:
    """The notepad forgotten, as ``DELETE /api/assist/ID`` forgets it; then the ``/assist``
    page (303)."""
    refuse_other_sites(request, "a notepad is forgotten from this site's own page")
    await run_in_threadpool(api_forget, record_id, request)
    return RedirectResponse("/assist", status_code=303)
