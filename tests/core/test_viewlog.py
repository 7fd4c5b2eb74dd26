"""View logs: round trips, views taken from full game logs, and bad files."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from sleuth.core.errors import LogError
from sleuth.core.seatview import ViewLog
from sleuth.core.viewlog import parse_view_lines, read_view_log, write_view_log


def test_a_game_log_gives_each_seat_its_own_view(game_log: Path) -> None:
    marshal = read_view_log(game_log, "marshal")
    fugitive = read_view_log(game_log, "fugitive")
    assert (marshal.seat, fugitive.seat) == (1, 0)
    assert len(marshal.events) == len(fugitive.events) > 10
    secret = [e for e in fugitive.events if e.kind == "placed"]
    assert all(e.private is not None for e in secret)
    assert all(e.private is None for e in marshal.events if e.kind == "placed")
    assert any(e.private is not None for e in marshal.events if e.kind == "drew")


def test_view_logs_round_trip(game_log: Path, tmp_path: Path) -> None:
    marshal = read_view_log(game_log, "marshal")
    path = tmp_path / "view.jsonl"
    write_view_log(marshal, path)
    again = read_view_log(path, "marshal")
    assert again.events == marshal.events
    assert again.game == marshal.game and again.seat == 1


def test_a_view_log_never_holds_another_seats_secrets(game_log: Path, tmp_path: Path) -> None:
    full = read_view_log(game_log, "fugitive")
    leaky = ViewLog(full.game, 1, full.events)  # the Marshal's log, given unfiltered events
    path = tmp_path / "view.jsonl"
    write_view_log(leaky, path)
    assert '"value"' not in "".join(
        line for line in path.read_text().splitlines() if '"placed"' in line and '"42' not in line
    )


def _lines(game_log: Path, tmp_path: Path) -> list[str]:
    path = tmp_path / "view.jsonl"
    write_view_log(read_view_log(game_log, "marshal"), path)
    return path.read_text().splitlines()


@pytest.mark.parametrize(
    ("change", "culprits"),
    [
        (lambda lines: [], ["empty log"]),
        (lambda lines: ["{", *lines[1:]], ["line 1", "invalid JSON"]),
        (lambda lines: [lines[0].replace('"seat":1', '"seat":0'), *lines[1:]], ["seat 0"]),
        (lambda lines: [lines[0].replace("sleuth-view", "x"), *lines[1:]], ["line 1", "format"]),
        (lambda lines: [lines[0].replace('"fugitive"', '"chess"', 1), *lines[1:]], ["chess"]),
        (lambda lines: [*lines[:3], '{"type": "event"}', *lines[3:]], ["line 4", "kind"]),
        (lambda lines: [*lines[:3], '{"type": "evnt", "kind": "x", "public": {}}'], ["line 4"]),
    ],
)
def test_bad_view_logs_name_the_line(
    change: Callable[[list[str]], list[str]], culprits: list[str], game_log: Path, tmp_path: Path
) -> None:
    lines = change(_lines(game_log, tmp_path))
    with pytest.raises(LogError) as caught:
        parse_view_lines(lines, "marshal", source="v.jsonl")
    for culprit in culprits:
        assert culprit in str(caught.value)


def test_the_wrong_role_or_a_tampered_game_log_is_refused(game_log: Path, tmp_path: Path) -> None:
    with pytest.raises(LogError, match="the marshal's view, not the fugitive's"):
        parse_view_lines(_lines(game_log, tmp_path), "fugitive")
    with pytest.raises(LogError, match="line 1: a fugitive log, not a camel-up one"):
        parse_view_lines(_lines(game_log, tmp_path), "player", game="camel-up")
    with pytest.raises(LogError, match="a fugitive game log, not a fox one"):
        read_view_log(game_log, "marshal", game="fox")  # a full game log with that role
    with pytest.raises(LogError, match="a fugitive game log, not a fox one"):
        read_view_log(game_log, "hunter", game="fox")  # the game is named before the role
    with pytest.raises(LogError, match="a fugitive game log, which has no hunter"):
        read_view_log(game_log, "hunter")
    lines = game_log.read_text().splitlines()
    step = json.loads(lines[3])
    step["action"] = "draw 9"
    lines[3] = json.dumps(step)
    with pytest.raises(LogError, match="line 4"):
        parse_view_lines(lines, "marshal")
