"""Bad saved logs for every table-side assistant (``sleuth assist GAME --load FILE``, and the
``load FILE`` command of the shared loop, ``sleuth fox play`` included): each corrupted file is
one clear error naming the file and where it goes wrong, never a traceback, and a failed
``load`` keeps the session as it was."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.core.viewlog import EventFieldError, event_fields, whole, wholes
from tests.cli_helpers import check_error, entry, flat


class Assistant(NamedTuple):
    command: tuple[str, ...]
    """The command, without the options a log's header gives (``--load`` refuses them)."""
    setup: tuple[str, ...]
    """Options that start a session (its setup), for the ``load FILE`` runs."""
    entries: tuple[str, ...]
    kind: str
    """An event kind the loader turns into an entry, and one of its fields."""
    field: str


ASSISTANTS = {
    "fox": Assistant(("fox", "play", "--graph", "path:5"), (), ("2", "3"), "inspected", "holes"),
    "fugitive": Assistant(
        ("assist", "fugitive"), (), ("hideout 1", "hideout 2", "draw 2 17"), "placed", "sprints"
    ),
    "camel-up": Assistant(
        ("assist", "camel-up", "--rollouts", "100"),
        (),
        ("start 1:blue 2:green,orange 3:yellow,white", "roll blue 2", "leg blue"),
        "die",
        "colour",
    ),
    "scotland-yard": Assistant(
        ("assist", "scotland-yard"),
        ("--starts", "9,10,15,17,19"),
        ("x taxi", "d1 taxi 8", "d2 taxi 11"),
        "detective_moved",
        "detective",
    ),
    "cluedo": Assistant(
        ("assist", "cluedo"),
        ("--players", "Ann, Bob, Cy, Dan", "--me", "Ann", "--hand", "Plum,Knife,Hall,Rope,Study"),
        ("Bob suggests Green Rope Study", "Cy passes", "Dan shows"),
        "suggested",
        "suspect",
    ),
}

Records = list[dict[str, Any]]
Corrupt = Callable[[Records, int, str], tuple[str, list[str]]]
"""A corruption: from a good log's records, the index of the event line to spoil and the
assistant's field, the bad file's text and what its error must say (``{line}``, the spoiled
line's number, and ``{event}``, its event's number, are filled in)."""


def _text(records: Records) -> str:
    return "".join(json.dumps(r) + "\n" for r in records)


def _with(records: Records, at: int, change: Callable[[dict[str, Any]], None]) -> str:
    spoiled = json.loads(json.dumps(records))
    change(spoiled[at])
    return _text(spoiled)


def _set(field: str, value: object) -> Callable[[dict[str, Any]], None]:
    return lambda line: line["public"].__setitem__(field, value)


CORRUPTIONS: dict[str, Corrupt] = {
    "empty file": lambda r, at, f: ("", ["empty log"]),
    "blank lines only": lambda r, at, f: ("\n \n", ["empty log"]),
    "truncated last line": lambda r, at, f: (
        _text(r)[:-9],
        [f"line {len(r)}: invalid JSON"],
    ),
    "header only, then garbage": lambda r, at, f: (
        _text(r[:1]) + "{not json\n",
        ["line 2: invalid JSON"],
    ),
    "a line that is not an event": lambda r, at, f: (
        _with(r, at, lambda line: line.pop("kind")),
        ["line {line}", "kind"],
    ),
    "a JSON list for an event": lambda r, at, f: (
        _text([*r[:at], [1, 2], *r[at + 1 :]]),  # type: ignore[list-item]
        ["line {line}"],
    ),
    "a missing field": lambda r, at, f: (
        _with(r, at, lambda line: line["public"].pop(f)),
        ["line {line}: event {event}", f"{f!r}"],
    ),
    "a field of the wrong type": lambda r, at, f: (
        _with(r, at, _set(f, {"a": [1]})),
        ["line {line}: event {event}|entry"],
    ),
    "a field out of range": lambda r, at, f: (
        _with(r, at, _set(f, 99)),
        ["99|100|out of range", "line {line}: event {event}|entry"],
    ),
    "true for a number": lambda r, at, f: (
        _with(r, at, lambda line: line["public"].__setitem__("seat", True)),
        ["event {event}"],
    ),
    "an unknown event kind": lambda r, at, f: (
        _with(r, at, lambda line: line.__setitem__("kind", "bogus")),
        ["bogus|entry"],
    ),
    "public fields that are not an object": lambda r, at, f: (
        _with(r, at, lambda line: line.__setitem__("public", [1])),
        ["line {line}"],
    ),
    "an event twice": lambda r, at, f: (_text([*r[: at + 1], *r[at:]]), ["event|entry"]),
}


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Records]:
    """A good saved log of each assistant (its setup and entries), as JSON records."""
    folder = tmp_path_factory.mktemp("saved")
    out = {}
    for name, a in ASSISTANTS.items():
        script = "".join(f"{text}\n" for text in a.entries) + "save good.jsonl\n"
        done = entry(*a.command, *a.setup, cwd=folder, stdin=script)
        assert done.returncode == 0 and "saved" in done.stdout, done.stdout + done.stderr
        out[name] = [json.loads(line) for line in (folder / "good.jsonl").read_text().splitlines()]
    return out


@pytest.fixture(scope="module")
def kept(
    saved: dict[str, Records], tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[str]]:
    """The oracle: each good log's entries, as 'history' lists them after a load of it and a
    failed load of a missing file (a refusal that was never a traceback)."""
    folder = tmp_path_factory.mktemp("kept")
    out = {}
    for name, a in ASSISTANTS.items():
        (folder / "good.jsonl").write_text(_text(saved[name]), encoding="utf-8")
        script = "load good.jsonl\nload nothing.jsonl\nhistory\n"
        done = entry(*a.command, *a.setup, cwd=folder, stdin=script)
        _, _, after = done.stdout.partition("error: nothing.jsonl: cannot read")
        out[name] = _entries(after)
        assert len(out[name]) >= len(a.entries), done.stdout
    return out


def _has(message: str, expected: list[str]) -> None:
    """``message`` holds each expected fragment (or one of its ``|``-separated choices)."""
    for fragment in expected:
        assert any(f in message for f in fragment.split("|")), (fragment, message)


def _bad_file(
    saved: dict[str, Records], name: str, corruption: str, folder: Path
) -> tuple[Path, list[str]]:
    """The corrupted file and the fragments its error must hold."""
    records, a = saved[name], ASSISTANTS[name]
    at = next(i for i, r in enumerate(records) if r.get("kind") == a.kind)
    text, expected = CORRUPTIONS[corruption](records, at, a.field)
    path = folder / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    return path, [e.format(line=at + 1, event=at) for e in expected]


HISTORY_LINE = r"^(?:> )?\s*\d+  "
"""The start of a line of 'history' (the first follows the loop's prompt)."""


def _entries(stdout: str) -> list[str]:
    """The entries listed by ``history`` (its lines ``  N  TEXT``)."""
    return re.findall(HISTORY_LINE + "(.+)$", stdout, re.MULTILINE)


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
@pytest.mark.parametrize("name", list(ASSISTANTS))
def test_a_failed_load_is_one_error_and_keeps_the_session(
    name: str, corruption: str, saved: dict[str, Records], kept: dict[str, list[str]], cwd: Path
) -> None:
    a = ASSISTANTS[name]
    (cwd / "good.jsonl").write_text(_text(saved[name]), encoding="utf-8")
    _, expected = _bad_file(saved, name, corruption, cwd)
    done = entry(*a.command, *a.setup, cwd=cwd, stdin="load good.jsonl\nload bad.jsonl\nhistory\n")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    _, _, after = done.stdout.partition("error: ")
    assert after, f"no error for {corruption}: {done.stdout}"
    message = flat(re.split(HISTORY_LINE, after, maxsplit=1, flags=re.MULTILINE)[0])
    assert message.startswith("bad.jsonl"), message
    _has(message, expected)
    assert _entries(after) == kept[name]  # the session is as it was


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
@pytest.mark.parametrize("name", [n for n in ASSISTANTS if n != "fox"])
def test_load_option_refuses_a_bad_file(
    name: str, corruption: str, saved: dict[str, Records], cwd: Path
) -> None:
    path, expected = _bad_file(saved, name, corruption, cwd)
    done = entry(*ASSISTANTS[name].command, "--load", path.name, cwd=cwd)
    message = check_error(done).removeprefix("error: ")
    assert message.startswith("bad.jsonl"), message
    _has(message, expected)


@pytest.mark.parametrize("name", [n for n in ASSISTANTS if n != "fox"])
def test_a_refused_entry_is_named_with_its_line_and_number(
    name: str, saved: dict[str, Records], cwd: Path
) -> None:
    """An event saved twice turns into an entry the table refuses (at the copy, or at the
    entry after it): the error names the file's line, the event and the entry it became (its
    number and text)."""
    records, a = saved[name], ASSISTANTS[name]
    at = next(i for i, r in enumerate(records) if r.get("kind") == a.kind)
    (cwd / "bad.jsonl").write_text(_text([*records[: at + 1], *records[at:]]), encoding="utf-8")
    done = entry(*a.command, "--load", "bad.jsonl", cwd=cwd)
    message = flat(check_error(done))
    pattern = rf"error: bad\.jsonl line \d+: event \d+ \({a.kind}\): entry \d+ \(.+\): "
    assert re.match(pattern, message), message


@pytest.mark.parametrize("name", list(ASSISTANTS))
def test_a_save_that_cannot_be_written_is_one_error_and_the_session_goes_on(
    name: str, cwd: Path
) -> None:
    a = ASSISTANTS[name]
    script = "".join(f"{text}\n" for text in a.entries) + "save no/such/folder.jsonl\nhistory\n"
    done = entry(*a.command, *a.setup, cwd=cwd, stdin=script)
    assert done.returncode == 0 and "Traceback" not in done.stdout + done.stderr
    assert "error: no/such/folder.jsonl: cannot write: " in flat(done.stdout), done.stdout
    _, _, after = done.stdout.partition("cannot write")
    assert len(_entries(after)) >= len(a.entries)  # the entries are all still there


@pytest.mark.parametrize("name", list(ASSISTANTS))
def test_a_log_of_another_game_is_refused(saved: dict[str, Records], cwd: Path, name: str) -> None:
    other = "fugitive" if name == "fox" else "fox"
    (cwd / "other.jsonl").write_text(_text(saved[other]), encoding="utf-8")
    a = ASSISTANTS[name]
    done = entry(*a.command, *a.setup, cwd=cwd, stdin="load other.jsonl\nhistory\n")
    assert done.returncode == 0 and "Traceback" not in done.stdout
    assert f"error: other.jsonl line 1: a {other} log, not a {name} one" in flat(done.stdout)


def test_the_good_logs_load(
    saved: dict[str, Records], kept: dict[str, list[str]], cwd: Path
) -> None:
    """The unspoiled logs load, with the entries the oracle lists."""
    for name, a in ASSISTANTS.items():
        (cwd / "good.jsonl").write_text(_text(saved[name]), encoding="utf-8")
        done = entry(*a.command, *a.setup, cwd=cwd, stdin="load good.jsonl\nhistory\n")
        assert f"loaded {len(kept[name])} entries from good.jsonl" in done.stdout
        assert "error" not in done.stdout, done.stdout


def test_the_line_named_is_the_file_line_with_blank_lines(
    saved: dict[str, Records], cwd: Path
) -> None:
    records, a = saved["camel-up"], ASSISTANTS["camel-up"]
    at = next(i for i, r in enumerate(records) if r.get("kind") == a.kind)
    spoiled = json.loads(json.dumps(records))
    spoiled[at]["public"].pop(a.field)
    lines = [json.dumps(r) for r in spoiled]
    (cwd / "bad.jsonl").write_text("\n\n".join(lines) + "\n", encoding="utf-8")  # every other
    done = entry(*a.command, "--load", "bad.jsonl", cwd=cwd)
    check_error(done, f"bad.jsonl line {2 * at + 1}: event {at} (die): no field 'colour'")


@given(st.one_of(st.integers(-3, 12), st.booleans(), st.floats(), st.text(max_size=3), st.none()))
def test_whole_takes_exactly_the_whole_numbers_in_range(value: object) -> None:
    fine = type(value) is int and 0 <= value < 10
    try:
        got = whole({"n": value}, "n", 10)
    except ValueError as exc:
        assert not fine and f"field 'n' is {value!r}, not a whole number from 0 to 9" == str(exc)
    else:
        assert fine and got == value


def test_a_badly_shaped_field_names_the_event_and_the_field() -> None:
    event = Event("die", {"colour": "blue"})
    missing = pytest.raises(EventFieldError, match=r"^event 4 \(die\): no field 'value'$")
    with missing, event_fields(3, event):
        event.public["value"]
    shape = pytest.raises(EventFieldError, match=r"^event 1 \(die\): a field has the wrong shape")
    with shape, event_fields(0, event):
        wholes(event.public, "colour")
    with pytest.raises(SleuthError, match=r"^as it is$"), event_fields(0, event):
        raise SleuthError("as it is")  # a refusal passes unchanged
