"""A web request never makes the server read a file, nor tells whether one exists.

A folder of the server holds a board file whose first line is a secret.  Its path, and the
path of the file itself, are sent as every file-naming game option (each game declares which
of its options' values name files: :meth:`~sleuth.core.options.OptionSpec.names_file`) through
every entry point: a new game and a new notepad (JSON and forms), an uploaded log's header
(JSON and form), an entry, a command and a played action.  While the server answers, a spy
records every file under the folder that the process opens, lists or looks up: it must stay
empty, no answer may hold the secret, and the answer for the real folder is the answer for a
folder that does not exist (the path aside).  The options are refused with the option named.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.core.errors import OptionError, SleuthError
from sleuth.core.registry import game_spec, game_specs
from tests.web.pages import PAGE
from tests.web.test_assist import SETUPS
from tests.web.test_plain_form import the_form

SECRET = "TOP-SECRET-first-line-7f3a"
"""The first line of the server's board file that no answer may show."""
ABSENT = "absent-board"
"""The name of a folder beside the secret's that does not exist (as long as the secret's)."""
ERROR = re.compile(r'<p class="error"[^>]*role="alert">(.*?)</p>', re.S)
"""A page's error paragraph (the message of a refused form)."""
_WATCHED: list[tuple[tuple[str, ...], list[str]]] = []
"""The armed spies: (folders, the paths under them touched)."""


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _WATCHED and event in ("open", "os.listdir", "os.scandir") and args:
        _touched(args[0])


def _touched(path: object) -> None:
    if isinstance(path, str | bytes | os.PathLike):
        text = os.fsdecode(path)
        for folders, seen in _WATCHED:
            if text.startswith(folders):
                seen.append(text)


sys.addaudithook(_audit)  # a hook cannot be removed: it records only while a spy is armed


@pytest.fixture
def secret() -> Iterator[Path]:
    """A folder of the server holding a board file (``stations.csv``) whose first line is
    :data:`SECRET` (in a temporary folder with a short path, which messages show whole)."""
    with tempfile.TemporaryDirectory() as parent:
        folder = Path(parent) / "server-board"
        folder.mkdir()
        (folder / "stations.csv").write_text(f"{SECRET}\n1,2,3\n", encoding="utf-8")
        (folder / "edges.csv").write_text(f"{SECRET}\n", encoding="utf-8")
        yield folder


@pytest.fixture
def spy(secret: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The paths under the secret's folder or the absent one beside it that the process
    opens, lists or looks up (``os.stat``, ``os.lstat``: whether it exists) while the test
    runs."""
    seen: list[str] = []
    watched = ((str(secret), str(secret.parent / ABSENT)), seen)
    for name in ("stat", "lstat"):
        real = getattr(os, name)

        def looked_up(path: Any, *args: Any, _real: Any = real, **kwargs: Any) -> Any:
            _touched(path)
            return _real(path, *args, **kwargs)

        monkeypatch.setattr(os, name, looked_up)
    _WATCHED.append(watched)
    try:
        yield seen
    finally:
        _WATCHED.remove(watched)


def file_options() -> list[tuple[str, str]]:
    """Every (game, option) whose option declares values naming files."""
    return [
        (spec.name, option.name)
        for spec in game_specs()
        for option in spec.options
        if option.file_values is not None
    ]


def test_the_known_file_options_are_declared_precisely() -> None:
    assert {("fox", "graph"), ("scotland-yard", "map")} <= set(file_options())
    graph = next(o for o in game_spec("fox").options if o.name == "graph")
    for board in ("path:5", " cycle:6 ", "grid:3x4", "edges:0-1,1-2", "binary-tree:2"):
        assert not graph.names_file(board), board
    for path in ("/etc/passwd", "board.txt", "no-such-board", "../x", "path", "nope:5"):
        assert graph.names_file(path), path
    board_map = next(o for o in game_spec("scotland-yard").options if o.name == "map")
    assert not board_map.names_file("") and not board_map.names_file(" builtin ")
    for path in ("/srv/classic", "classic", "~/map", "."):
        assert board_map.names_file(path), path


def test_every_option_that_reads_a_path_declares_it(secret: Path, spy: list[str]) -> None:
    """An option not declared as naming files (a game's or a bot's) touches no file when
    given a folder's or a file's path, so a file option added without its declaration fails
    here; and a bot option that declares one (a ``ppo`` bot's model) is refused by the web
    app's bots (``interactive=True``) before anything is read."""
    for spec in game_specs():
        options = [(spec.name, o) for o in spec.options]
        options += [(f"{spec.name} bot {b.name}", o) for b in spec.bots for o in b.options]
        for owner, option in options:
            for path in (secret, secret / "stations.csv"):
                spy.clear()
                with contextlib.suppress(SleuthError, ValueError, TypeError):
                    option.parse(str(path))
                assert not spy or option.names_file(str(path)), (owner, option.name, spy)
    for spec in game_specs():
        for bot in spec.bots:
            for option in bot.options:
                if not option.names_file(str(secret)):
                    continue
                spy.clear()
                with pytest.raises(OptionError, match=f"option {option.name}=.* names a file"):
                    spec.bot(f"{bot.name}:{option.name}={secret}", interactive=True)
                assert not spy, (spec.name, bot.name, option.name, spy)


def _notepad(client: TestClient, game: str) -> dict[str, Any]:
    options, params, _ = SETUPS[game]
    answer = client.post("/api/assist", json={"game": game, "options": options, "params": params})
    assert answer.status_code == 201, answer.text
    notepad: dict[str, Any] = answer.json()
    return notepad


def _log_naming(client: TestClient, notepad: dict[str, Any], option: str, value: str) -> str:
    """The notepad's saved view log with its header's ``option`` set to ``value``."""
    lines = client.get(f"/api/assist/{notepad['id']}/save").text.splitlines()
    header = json.loads(lines[0])
    header["options"][option] = value
    return "\n".join([json.dumps(header), *lines[1:]]) + "\n"


def _error(answer: Any) -> str:
    """The refusal an answer shows: the JSON ``error``, or the page's error text."""
    if answer.headers["content-type"].startswith("application/json"):
        return str(answer.json()["error"])
    shown = [unescape(text) for text in ERROR.findall(answer.text) if text.strip()]
    assert len(shown) == 1, answer.text
    return shown[0]


Send = Callable[[TestClient, str, str, str], Any]


def _play_api(client: TestClient, game: str, option: str, value: str) -> Any:
    return client.post("/api/play", json={"game": game, "options": {option: value}, "seed": 1})


def _play_form(client: TestClient, game: str, option: str, value: str) -> Any:
    fields = {**the_form(client, game), f"option:{option}": value, "seed": "1"}
    return client.post("/play/new", data=fields, headers=PAGE, follow_redirects=False)


def _notepad_api(client: TestClient, game: str, option: str, value: str) -> Any:
    options, params, _ = SETUPS[game]
    choice = {"game": game, "options": {**options, option: value}, "params": params}
    return client.post("/api/assist", json=choice)


def _notepad_form(client: TestClient, game: str, option: str, value: str) -> Any:
    options, params, _ = SETUPS[game]
    fields = {"game": game, f"option:{option}": value}
    fields |= {f"option:{name}": text for name, text in options.items() if name != option}
    fields |= {f"param:{name}": text for name, text in params.items()}
    return client.post("/assist", data=fields, headers=PAGE, follow_redirects=False)


def _upload_api(client: TestClient, game: str, option: str, value: str) -> Any:
    notepad = _notepad(client, game)
    log = _log_naming(client, notepad, option, value)
    return client.post(f"/api/assist/{notepad['id']}/load", json={"log": log})


def _upload_form(client: TestClient, game: str, option: str, value: str) -> Any:
    notepad = _notepad(client, game)
    log = _log_naming(client, notepad, option, value).encode()
    files = {"log": ("notepad.jsonl", log, "application/x-ndjson")}
    return client.post(f"/assist/{notepad['id']}/load", files=files, headers=PAGE)


OPTION_ENTRIES: dict[str, Send] = {
    "new game (JSON)": _play_api,
    "new game (form)": _play_form,
    "new notepad (JSON)": _notepad_api,
    "new notepad (form)": _notepad_form,
    "uploaded log (JSON)": _upload_api,
    "uploaded log (form)": _upload_form,
}
"""Every entry point where a client gives game options: each sends ``option`` of ``game``
as ``value``."""


def _entry(client: TestClient, game: str, option: str, value: str) -> Any:
    return client.post(f"/api/assist/{_notepad(client, game)['id']}/entries", json={"text": value})


def _command(client: TestClient, game: str, option: str, value: str) -> Any:
    url = f"/api/assist/{_notepad(client, game)['id']}/command"
    return client.post(url, json={"command": f"load {value}"})


def _action(client: TestClient, game: str, option: str, value: str) -> Any:
    started = client.post("/api/play", json={"game": game, "seed": 1})
    return client.post(f"/api/play/{started.json()['id']}/action", json={"action": value})


TEXT_ENTRIES: dict[str, Send] = {
    "entry": _entry,
    "command": _command,
    "action": _action,
}
"""The entry points that take a text but no option: a path typed there is only a text."""


def _file_values(game: str, option: str, secret: Path) -> list[str]:
    """The secret's folder and file as values of ``option`` that name files (at least one)."""
    declared = next(o for o in game_spec(game).options if o.name == option)
    values = [str(path) for path in (secret, secret / "stations.csv")]
    named = [value for value in values if declared.names_file(value)]
    assert named, (game, option)
    return named


def _answers_alike(
    send: Send, client: TestClient, game: str, option: str, value: str, spy: list[str]
) -> Any:
    """``send`` with ``value`` and with a path that does not exist beside it: no file under
    the folder is touched, no answer shows the secret, and both answers are alike; the
    answer for ``value``."""
    missing = value.replace(secret_name := "server-board", ABSENT)
    assert len(secret_name) == len(ABSENT) and missing != value
    answer = send(client, game, option, value)
    other = send(client, game, option, missing)
    assert spy == [], (game, option, spy)
    assert SECRET not in answer.text and SECRET not in other.text
    assert answer.status_code == other.status_code
    if answer.status_code >= 400:  # alike but for the value quoted (perhaps shortened)
        assert _unquoted(_error(answer)) == _unquoted(_error(other))
    return answer


def _unquoted(error: str) -> str:
    """``error`` with every quoted text (a value echoed back) replaced by ``'…'``."""
    return re.sub(r"'[^']*'", "'…'", error)


@pytest.mark.parametrize(("game", "option"), file_options())
@pytest.mark.parametrize("where", list(OPTION_ENTRIES))
def test_a_file_option_is_refused_naming_it_and_nothing_is_read(
    client: TestClient, secret: Path, spy: list[str], game: str, option: str, where: str
) -> None:
    for value in _file_values(game, option, secret):
        answer = _answers_alike(OPTION_ENTRIES[where], client, game, option, value, spy)
        assert answer.status_code == 400, (where, answer.text)
        error = _error(answer)
        assert f"option {option}=" in error and "the web app reads no files" in error, error
        if where == "new game (JSON)":
            assert answer.json()["field"] == f"option:{option}"


@pytest.mark.parametrize(("game", "option"), file_options())
@pytest.mark.parametrize("where", list(TEXT_ENTRIES))
def test_a_path_typed_as_a_text_reads_nothing(
    client: TestClient, secret: Path, spy: list[str], game: str, option: str, where: str
) -> None:
    for value in _file_values(game, option, secret):
        _answers_alike(TEXT_ENTRIES[where], client, game, option, value, spy)


def test_a_scotland_yard_log_naming_a_server_folder_as_its_map(
    client: TestClient, secret: Path, spy: list[str]
) -> None:
    """The issue's payload: a view log whose header says ``"options": {"map": FOLDER}``,
    uploaded as JSON and as a file, is refused without reading the folder's stations.csv,
    and the notepad is unchanged."""
    notepad = _notepad(client, "scotland-yard")
    log = _log_naming(client, notepad, "map", str(secret))
    assert json.loads(log.splitlines()[0])["options"]["map"] == str(secret)
    answer = client.post(f"/api/assist/{notepad['id']}/load", json={"log": log})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == (
        f"option map={str(secret)!r} of scotland-yard names a file or folder: the web app "
        "reads no files"
    )
    files = {"log": ("notepad.jsonl", log.encode(), "application/x-ndjson")}
    page = client.post(f"/assist/{notepad['id']}/load", files=files, headers=PAGE)
    assert page.status_code == 400 and "the web app reads no files" in _error(page)
    assert SECRET not in answer.text + page.text
    assert spy == []
    assert client.get(f"/api/assist/{notepad['id']}").json()["entries"] == notepad["entries"]


def test_the_servers_own_map_folder_loads_back(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one file-naming value let through is the option's default as the server reads it
    (the map folder its operator set): a notepad saved on that map loads back."""
    from sleuth.games.scotland_yard.board import BUILTIN_DIR

    monkeypatch.setenv("SLEUTH_SCOTLAND_YARD_MAP", str(BUILTIN_DIR))
    notepad = _notepad(client, "scotland-yard")
    assert notepad["options"]["map"] == str(BUILTIN_DIR.resolve())
    saved = client.get(f"/api/assist/{notepad['id']}/save").text
    loaded = client.post(f"/api/assist/{notepad['id']}/load", json={"log": saved})
    assert loaded.status_code == 200, loaded.text
    other = client.post("/api/play", json={"game": "scotland-yard", "options": {"map": "/srv"}})
    assert other.status_code == 400 and other.json()["field"] == "option:map"


def test_the_forms_say_that_files_are_not_read(client: TestClient) -> None:
    """Both forms offer every option of every game; a file option's help says the web app
    reads no files, and only a file option's does."""
    noted = " (the web app reads no files)"
    for listed in (client.get("/api/games").json(), client.get("/api/assist").json()):
        for game in listed:
            name = game.get("name", game.get("game"))
            spec = game_spec(name)
            helps = {o["name"]: o["help"] for o in game["options"]}
            assert list(helps) == [o.name for o in spec.options]
            for option in spec.options:
                note = noted if option.file_values is not None else ""
                assert helps[option.name] == option.help + note, (name, option.name)


def test_a_whole_game_log_naming_a_server_folder_is_refused_too(
    client: TestClient, secret: Path, spy: list[str]
) -> None:
    """An upload may also be a whole game's log (the assistants read one seat's view of it):
    its header's options are refused in the same way, before it is replayed."""
    notepad = _notepad(client, "scotland-yard")
    header = {
        "type": "header",
        "format": "sleuth-log",
        "version": 1,
        "game": "scotland-yard",
        "rules_version": game_spec("scotland-yard").rules_version,
        "options": {**notepad["options"], "map": str(secret)},
        "seed": 1,
        "seats": [
            {"seat": 0, "role": "mrx", "bot": "random"},
            {"seat": 1, "role": "detectives", "bot": "random"},
        ],
        "sleuth": "1",
    }
    log = "\n\n" + json.dumps(header) + "\n"  # blank lines first: the readers skip them
    answer = client.post(f"/api/assist/{notepad['id']}/load", json={"log": log})
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"].startswith("option map=")
    assert SECRET not in answer.text and spy == []
