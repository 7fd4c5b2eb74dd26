"""One store file written by several processes at once, as the workers of ``sleuth serve
--workers N`` write it: every write lands, none is lost, and a change made from a version
another process has replaced is refused, not lost."""

from __future__ import annotations

import multiprocessing
from pathlib import Path
from typing import Any

import pytest

from sleuth.web.store import ConflictError, Store

PROCESSES = 4
ROUNDS = 40


def _writer(path: str, fresh: str, number: int, start: Any, answers: Any) -> None:
    """Open a fresh store file and the shared one (all at once), then create, change, read
    and delete records of a session of its own, and add one to the shared counter ``ROUNDS``
    times, each change made from the version it read (again when another process got there
    first)."""
    start.wait()
    Store(Path(fresh))
    store = Store(Path(path))
    session = store.new_session()
    kept = []
    for round_ in range(ROUNDS):
        record = store.create(session, "game", {"writer": number, "round": round_, "moves": []})
        version = 0
        for move in range(3):
            data, version = store.get_versioned(session, "game", record)
            data["moves"].append(move)
            version = store.put(session, "game", record, data, version)
        store.say(session, "game", record, f"{number}/{round_}")
        if round_ % 2:
            store.delete(session, "game", record)
        else:
            kept.append(record)
        while True:  # the shared counter: read, add one, write back unless it changed
            data, version = store.get_versioned("shared", "notepad", "counter")
            try:
                store.put("shared", "notepad", "counter", {"n": data["n"] + 1}, version)
                break
            except ConflictError:
                continue
        store.touch(session)
    answers.put((number, [session, *kept]))


def test_several_processes_write_one_store_at_once(tmp_path: Path) -> None:
    path = tmp_path / "web.sqlite3"
    setup = Store(path)
    with setup._connect() as db:  # the shared counter, owned by a session "shared"
        db.execute("INSERT INTO sessions VALUES ('shared', 0, 1e18)")
        db.execute(
            "INSERT INTO records VALUES ('counter', 'shared', 'notepad', '{\"n\": 0}', 0, 0, 0)"
        )
    fresh = tmp_path / "fresh.sqlite3"  # a file the processes create at once
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    queue = context.Queue()
    writers = [
        context.Process(target=_writer, args=(str(path), str(fresh), n, start, queue))
        for n in range(PROCESSES)
    ]
    for writer in writers:
        writer.start()
    start.set()
    answers = [answer for _, answer in sorted(queue.get(timeout=120) for _ in writers)]
    for writer in writers:
        writer.join(timeout=60)
        assert writer.exitcode == 0
    data, version = setup.get_versioned("shared", "notepad", "counter")
    assert data == {"n": PROCESSES * ROUNDS} and version == PROCESSES * ROUNDS  # none lost
    for number, (session, *kept) in enumerate(answers):
        records = setup.list(session, "game")
        assert [r for r, _ in records] == kept
        for round_, (record, data) in zip(range(0, ROUNDS, 2), records, strict=True):
            assert data == {"writer": number, "round": round_, "moves": [0, 1, 2]}
            assert setup.get_versioned(session, "game", record)[1] == 3
            assert setup.take_message(session, "game", record) == f"{number}/{round_}"
    assert Store(fresh).list("nobody", "game") == []


def test_a_change_from_a_replaced_version_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    one, other = Store(tmp_path / "web.sqlite3"), Store(tmp_path / "web.sqlite3")
    session = one.new_session()
    record = one.create(session, "game", {"actions": []})
    assert other.put(session, "game", record, {"actions": ["a"]}, version=0) == 1
    with pytest.raises(ConflictError, match="changed meanwhile"):
        one.put(session, "game", record, {"actions": ["b"]}, version=0)
    assert one.get_versioned(session, "game", record) == ({"actions": ["a"]}, 1)
