"""A table-side assistant's notepad in the web app, rebuilt from its record.

The record (what the store keeps as a ``notepad``) is a JSON object: ``game``, its canonical
``options``, the assistant's ``params`` (canonical JSON values), ``base`` (the text of an
uploaded view log, or None), ``entries`` (the texts of the session's history) and ``ended_by``
(the command that ended the session, such as the fox's ``give up``, or None).

:func:`rebuild` turns a record into a live :class:`~sleuth.core.table.TableSession`: a fresh
session on the game and params (after loading ``base`` when there is one) with its history
taken back to empty, then every entry entered again in order, then ``ended_by`` run.  The
table protocol's invariant (re-entering the history into a fresh session rebuilds the same
session) makes this the session the record describes, after a reload or a restart.

Every change is made on a rebuilt copy and stored only when it succeeds, so a refused entry,
edit or load changes nothing.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sleuth.core.errors import OptionError, SleuthError, UnknownNameError
from sleuth.core.game import Game
from sleuth.core.log import JsonLines
from sleuth.core.plugins import Param, ParamValue
from sleuth.core.registry import game_spec, game_specs
from sleuth.core.table import Command, TableSession, count_entries
from sleuth.web.live import MAX_OPTION_TEXT, refuse_files

MAX_ENTRIES = 2000
"""The most entries a notepad holds."""
MAX_ENTRY_TEXT = 500
"""The longest entry or command text accepted."""
MAX_LOG_TEXT = 2_000_000
"""The largest view log an upload may hold (characters)."""
PARAM_CAPS = {"rollouts": 200_000}
"""Upper bounds the web app puts on numeric params (the server's time is shared)."""


@dataclass(frozen=True)
class Assistant:
    """One game's assistant as the web app offers it."""

    game: str
    help: str
    params: tuple[Param, ...]
    make: Callable[[Game[Any], Mapping[str, Any]], TableSession]
    prepare: Callable[[Game[Any]], None] | None = None
    check: Callable[[Game[Any], Mapping[str, Any]], None] | None = None


def assistants() -> dict[str, Assistant]:
    """Every assistant by game name: each game's ``sleuth assist`` plug-in, else the one its
    page plug-in offers (the fox puzzle of ``sleuth fox play``), without the params the page
    offers in its own way."""
    out = {}
    for spec in game_specs():
        page = spec.page
        plugin = spec.assist or (page.assistant if page is not None else None)
        if plugin is None:
            continue
        hidden = page.hidden if page is not None else ()
        params = tuple(p for p in plugin.params if p.name not in hidden)
        out[spec.name] = Assistant(
            spec.name, plugin.help, params, plugin.session, plugin.prepare, plugin.check
        )
    return out


def assistant(name: str) -> Assistant:
    """The assistant of game ``name`` (a SleuthError naming the choices otherwise)."""
    found = assistants()
    if name not in found:
        raise UnknownNameError(
            f"no assistant for {name[:MAX_OPTION_TEXT]!r}; assistants: {', '.join(found)}"
        )
    return found[name]


def param_value(param: Param, text: str) -> ParamValue:
    """The value of ``param`` typed as ``text`` (empty: its default); a SleuthError naming
    the param otherwise.  Params naming a file are refused: a web request reads no files."""
    text = text.strip()
    where = f"setting {param.name}"
    if len(text) > MAX_OPTION_TEXT:
        raise OptionError(f"{where}: longer than {MAX_OPTION_TEXT} characters")
    if not text:
        return param.default
    if param.kind is Path:
        raise OptionError(f"{where}: the web app reads no files")
    if param.choices:
        if text not in param.choices:
            raise OptionError(f"{where}: {text!r} is not one of {', '.join(param.choices)}")
        return text
    if param.kind is bool:
        if text.lower() not in ("true", "false", "yes", "no", "1", "0"):
            raise OptionError(f"{where}: write true or false, not {text!r}")
        return int(text.lower() in ("true", "yes", "1"))
    if param.kind in (int, float):
        try:
            number: int | float = param.kind(text)
        except ValueError:
            raise OptionError(f"{where}: {text!r} is not a number") from None
        if param.minimum is not None and number < param.minimum:
            raise OptionError(f"{where}: {text} is below the least value {param.minimum}")
        cap = PARAM_CAPS.get(param.name)
        if cap is not None and number > cap:
            raise OptionError(f"{where}: {text} is above the web app's limit {cap}")
        return number
    return text


def new_record(name: str, options: Mapping[str, str], params: Mapping[str, str]) -> dict[str, Any]:
    """The record of a new notepad from a person's choices; bad choices raise a SleuthError.

    A game option naming a file is refused before any is read (:func:`refuse_files`); the
    others are read as canonical values."""
    helper = assistant(name)
    spec = game_spec(name)
    for key, text in options.items():
        if len(key) > MAX_OPTION_TEXT or len(text) > MAX_OPTION_TEXT:
            raise OptionError(f"option {key[:40]!r}: longer than {MAX_OPTION_TEXT} characters")
    refuse_files(spec, options)
    game = spec.make(dict(options), canonical=True)
    known = {p.name: p for p in helper.params}
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise OptionError(
            f"{name} assistant has no setting {unknown[0][:40]!r}; settings: "
            + (", ".join(known) or "none")
        )
    values = {p.name: param_value(p, params.get(p.name, "")) for p in helper.params}
    if helper.check is not None:
        helper.check(game, values)
    if helper.prepare is not None:
        helper.prepare(game)
    first = helper.make(game, values).history()  # settings may be entries (a Cluedo hand)
    return {
        "game": name,
        "options": game.options(),
        "params": values,
        "base": None,
        "entries": first,
        "ended_by": None,
    }


def _fresh(record: Mapping[str, Any]) -> TableSession:
    """The record's session with its history taken back to empty."""
    helper = assistant(record["game"])
    game = game_spec(record["game"]).make(record["options"], canonical=True)
    if helper.prepare is not None:
        helper.prepare(game)
    session = helper.make(game, record["params"])
    if record["base"] is not None:
        load_text(session, record["base"])
    for _ in session.history():
        session.undo()
    return session


MALFORMED = (TypeError, ValueError, KeyError, IndexError, AttributeError)
"""What a game's loader may raise on a log whose lines parse but whose event fields have the
wrong shape (a number for a list): an upload is untrusted, so these are refusals too."""


def load_text(session: TableSession, text: str) -> None:
    """``session.load`` from a view log given as text (unchanged if the log is bad: a
    SleuthError naming "the uploaded log")."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        path.write_text(text, encoding="utf-8")
        try:
            session.load(path)
        except SleuthError as exc:
            raise SleuthError(str(exc).replace(str(path), "the uploaded log")) from None
        except MALFORMED as exc:
            raise SleuthError(
                f"the uploaded log: an event's fields have the wrong shape "
                f"({type(exc).__name__}: {exc})"
            ) from None


def refuse_log_files(text: str) -> None:
    """Refuse (a ChoiceError naming the option) an uploaded log whose header gives a game
    option naming a file or folder (:func:`refuse_files`), before anything is loaded: the
    header read by the log readers' own :class:`~sleuth.core.log.JsonLines` (the first
    non-blank line).  A header that is not a JSON object with a known game and an object of
    options is left for the load to name."""
    try:
        lines = JsonLines(text.splitlines(), "the uploaded log")
        fields = lines.parse(*lines.numbered[0])
        spec = game_spec(str(fields["game"]))
        options = fields["options"]
    except (SleuthError, TypeError, KeyError):
        return
    if isinstance(options, dict):
        refuse_files(spec, options)


def check_log_entries(name: str, text: str) -> None:
    """Refuse (a SleuthError) an uploaded log for game ``name`` holding more than
    :data:`MAX_ENTRIES` entries, counted from its event lines before anything is replayed
    (linear in the text; a line that is not a JSON object is left for the load to name).
    Only a game whose load replays each entry from the start (a cost quadratic in the
    entries) declares the kind of event each entry gives (its page's ``entry_event``)."""
    page = game_spec(name).page
    kind = None if page is None else page.entry_event
    if kind is None:
        return
    count = 0
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("type") == "event" and event.get("kind") == kind:
            count += 1
    if count > MAX_ENTRIES:
        raise SleuthError(
            f"the uploaded log has {count_entries(count)}: a notepad holds at most {MAX_ENTRIES}"
        )


def replay(record: Mapping[str, Any], entries: Sequence[str]) -> TableSession:
    """A fresh session of ``record`` with ``entries`` entered; if one is refused, a
    SleuthError naming it (its number and text) and the reason."""
    session = _fresh(record)
    for number, text in enumerate(entries, start=1):
        try:
            session.enter(text)
        except SleuthError as exc:
            raise SleuthError(f"entry {number} ({text}): {exc}") from None
    return session


def rewrite(
    record: Mapping[str, Any], session: TableSession, entries: Sequence[str]
) -> TableSession:
    """The record's live ``session`` with its entries made ``entries``: the entries after the
    common start taken back (the session's own cheap undo) and the new ones entered, so an
    undo or a late edit costs no replay of the whole game (a fresh replay when a command ended
    the session).  All or nothing: if an entry is refused, the session is put back as it was
    and a SleuthError names that entry (its number and text) and the reason."""
    if record["ended_by"] is not None:
        return replay(record, entries)
    old = session.history()
    keep = 0
    while keep < min(len(old), len(entries)) and old[keep] == entries[keep]:
        keep += 1
    for _ in range(len(old) - keep):
        session.undo()
    entered = 0
    try:
        for text in entries[keep:]:
            session.enter(text)
            entered += 1
    except SleuthError as exc:
        for _ in range(entered):
            session.undo()
        for text in old[keep:]:
            session.enter(text)  # entered before, so it is accepted again
        number = keep + entered + 1
        raise SleuthError(f"entry {number} ({entries[number - 1]}): {exc}") from None
    return session


def rebuild(record: Mapping[str, Any]) -> TableSession:
    """The live session the record describes (see the module's docstring)."""
    session = replay(record, record["entries"])
    if record["ended_by"] is not None:
        run_command(record["game"], session, record["ended_by"])
    return session


def commands(name: str, session: TableSession) -> list[Command]:
    """The session's own commands that the page lists (not those it offers otherwise: the
    page plug-in's ``hidden``), then the page's own (its ``commands``: the fox's ``solve``);
    none of the page's own changes the session."""
    page = game_spec(name).page
    if page is None:
        return list(session.commands)
    own = [c for c in session.commands if not set(c.names) & set(page.hidden)]
    return own + list(page.commands(session) if page.commands is not None else [])


def run_command(name: str, session: TableSession, line: str) -> str:
    """Run one of the session's commands (``why plum``, ``give up``); its answer as text."""
    line = " ".join(line.lower().split())
    found = next((c for c in commands(name, session) if c.matches(line)), None)
    bare = next((c for c in commands(name, session) if c.argument and line in c.names), None)
    if found is None and bare is not None:
        raise SleuthError(f"{line!r} needs {bare.argument}: {bare.usage().split('  ')[0]}")
    if found is None:
        forms = ", ".join(c.usage().split("  ")[0] for c in commands(name, session))
        raise SleuthError(
            f"no command {line[:60]!r} here; commands: {forms or 'none for this assistant'}"
        )
    answer = found.run(line.partition(" ")[2]) if found.argument else found.run()
    return answer if isinstance(answer, str) else _plain_text(answer)


def _plain_text(renderable: Any) -> str:
    from io import StringIO

    from rich.console import Console

    console = Console(file=StringIO(), width=100, color_system=None)
    console.print(renderable)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    return str(text).rstrip()


def edited(entries: Sequence[str], word: str, number: int, text: str = "") -> list[str]:
    """The entries after ``edit`` (replace entry ``number`` by ``text``), ``delete`` or
    ``insert`` (``text`` before entry ``number``; one past the last appends).  Entries are
    counted from 1; a number out of range is a SleuthError."""
    count = len(entries)
    top = count + (word == "insert")
    if not 1 <= number <= top:
        raise SleuthError(
            f"there is no entry {number}: there are {count_entries(count)}"
            + (f" (insert takes 1 to {top})" if word == "insert" else "")
        )
    if word != "delete" and not text.strip():
        raise SleuthError(f"{word} {number}: the new entry is empty")
    out = list(entries)
    if word == "edit":
        out[number - 1] = text
    elif word == "delete":
        del out[number - 1]
    else:
        out.insert(number - 1, text)
    return out
