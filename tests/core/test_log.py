from __future__ import annotations

import json
from pathlib import Path

import pytest

from sleuth.core.errors import LogError
from sleuth.core.log import replay_log, write_log
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from tests.core import toy  # noqa: F401  (registers the test game)


def record_of(game: str, bots: list[str], seed: int, **options: object) -> object:
    spec = game_spec(game)
    return run_match(make_game(game, options), [spec.bot(b) for b in bots], seed)


@pytest.fixture
def fox_log(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    write_log(record_of("fox", ["random", "random"], 11), path)  # type: ignore[arg-type]
    return path


def lines_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def write_lines(path: Path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))


def test_log_replays_to_the_same_final_state(tmp_path: Path) -> None:
    for seed in range(10):
        record = record_of("fox", ["random", "random"], seed)
        path = tmp_path / f"{seed}.jsonl"
        write_log(record, path)  # type: ignore[arg-type]
        replay = replay_log(path)
        assert replay.wins == record.wins  # type: ignore[attr-defined]
        assert replay.steps == len(record.steps)  # type: ignore[attr-defined]
        final = record.final_state  # type: ignore[attr-defined]
        assert (replay.state.fox, replay.state.day, replay.state.caught) == (
            final.fox,
            final.day,
            final.caught,
        )


def test_log_header_and_visibility(fox_log: Path) -> None:
    lines = lines_of(fox_log)
    header = lines[0]
    assert header["format"] == "sleuth-log" and header["version"] == 1
    assert header["game"] == "fox" and header["options"]["graph"] == "path:5"
    assert [s["role"] for s in header["seats"]] == ["hunter", "fox"]
    moved = [e for line in lines[1:-1] for e in line["events"] if e["kind"] == "fox_moved"]
    assert moved and all(e["to"] == [1] and "holes" in e["private"] for e in moved)
    assert lines[-1]["type"] == "end"


def test_logs_with_chance_and_forfeits_replay(tmp_path: Path) -> None:
    path = tmp_path / "hc.jsonl"
    write_log(record_of("highcard", ["caller", "peeker"], 4), path)  # type: ignore[arg-type]
    assert replay_log(path).steps >= 3
    write_log(record_of("highcard", ["caller", "raise"], 4), path)  # type: ignore[arg-type]
    replay = replay_log(path)
    assert replay.forfeited == {1}
    assert replay.wins == (1.0, 0.0)


def test_same_seed_same_log_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_log(record_of("fox", ["random", "random"], 9), a)  # type: ignore[arg-type]
    write_log(record_of("fox", ["random", "random"], 9), b)  # type: ignore[arg-type]
    assert a.read_bytes() == b.read_bytes()


def tamper(path: Path, index: int, change: object) -> None:
    lines = lines_of(path)
    change(lines[index])  # type: ignore[operator]
    write_lines(path, lines)


@pytest.mark.parametrize(
    ("line", "change", "message"),
    [
        (1, lambda line: line.update(action="hole 99"), "line 2: action 'hole 99'"),
        (2, lambda line: line.update(action="dance"), "line 3: action 'dance'"),
        (2, lambda line: line["events"][0]["public"].update(holes=[4]), "line 3: events differ"),
        (2, lambda line: line.update(seat=1), "line 3: seat 1 acted but it was seat 0's turn"),
        (2, lambda line: line.update(step=7), "line 3: step 7 out of order"),
        (1, lambda line: line["events"][0].update(to=[0]), "line 2: events differ"),
        (0, lambda line: line.update(version=2), "line 1: bad header: version"),
        (0, lambda line: line.update(game="chess"), "line 1: unknown game 'chess'"),
        (0, lambda line: line["options"].update(k=0), "line 1: option k=0"),
        (0, lambda line: line.update(rules_version="0"), "log written for fox rules version 0"),
        (-1, lambda line: line.update(wins=[0.5, 0.5]), "does not match the replayed game"),
        (-1, lambda line: line.update(outcome="escaped for 99 days"), "logged outcome"),
        (-1, lambda line: line.update(returns=[0.0, 1.0]), "does not match the replayed game"),
        (-1, lambda line: line.update(length=3), "length 3 but"),
        (1, lambda line: line.pop("events"), "line 2: step.events: Field required"),
        (1, lambda line: line.update(type="move"), "line 2"),
    ],
)
def test_tampered_logs_are_rejected_naming_the_line(
    fox_log: Path, line: int, change: object, message: str
) -> None:
    tamper(fox_log, line, change)
    with pytest.raises(LogError) as info:
        replay_log(fox_log)
    assert message in str(info.value)
    assert str(fox_log) in str(info.value)


def test_a_log_cannot_make_sleuth_read_a_file(fox_log: Path, tmp_path: Path) -> None:
    secret = tmp_path / "edges.txt"
    secret.write_text("0 1\n")
    tamper(fox_log, 0, lambda line: line["options"].update(graph=str(secret)))
    with pytest.raises(LogError, match="not a canonical graph spec") as info:
        replay_log(fox_log)
    assert "0 1" not in str(info.value)


def test_forfeit_lines_must_name_the_seat_to_move(fox_log: Path) -> None:
    lines = lines_of(fox_log)
    header, first = lines[0], lines[1]  # step 0 is the fox's (seat 1)
    bad = {"type": "forfeit", "step": 0, "seat": 0, "bot": "random", "reason": "made up"}
    write_lines(fox_log, [header, bad, first])
    with pytest.raises(LogError, match="line 2: forfeit of seat 0 at step 0 is out of place"):
        replay_log(fox_log)


def test_malformed_json_truncated_and_empty_logs(fox_log: Path, tmp_path: Path) -> None:
    text = fox_log.read_text().splitlines()
    fox_log.write_text("\n".join([*text[:2], "{not json", *text[3:]]) + "\n")
    with pytest.raises(LogError, match=r"line 3: invalid JSON"):
        replay_log(fox_log)
    fox_log.write_text("\n".join(text[:-1]) + "\n")
    with pytest.raises(LogError, match="without an end line"):
        replay_log(fox_log)
    fox_log.write_text("\n".join([*text, text[1]]) + "\n")
    with pytest.raises(LogError, match="lines after the end line"):
        replay_log(fox_log)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    with pytest.raises(LogError, match="empty log"):
        replay_log(empty)
    with pytest.raises(LogError, match="cannot read"):
        replay_log(tmp_path / "missing.jsonl")


def test_a_view_log_or_a_header_that_is_no_object_is_named(tmp_path: Path) -> None:
    view = tmp_path / "marshal.jsonl"
    view.write_text(json.dumps({"type": "header", "format": "sleuth-view", "game": "fox"}) + "\n")
    with pytest.raises(LogError, match=r"line 1: this is one seat's view log.*sleuth infer"):
        replay_log(view)
    view.write_text("[1, 2]\n")
    with pytest.raises(
        LogError, match=r"line 1: not a Sleuth log: .* this one is not a JSON object$"
    ):
        replay_log(view)
