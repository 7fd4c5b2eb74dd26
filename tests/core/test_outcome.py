"""Sides and structured outcomes: default sides, side wins, forfeits, every game's
terminations, and logs with and without the structured end line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sleuth.core.errors import LogError
from sleuth.core.log import log_lines, replay_lines, replay_log
from sleuth.core.match import run_match
from sleuth.core.outcome import FORFEIT, Outcome, default_sides, side_seats, side_wins
from sleuth.core.registry import game_spec
from tests.core.toy import SPEC as HIGHCARD
from tests.hideseek import HideSeek

DATA = Path(__file__).parent / "data"


def test_default_sides_are_roles_or_role_and_seat() -> None:
    assert default_sides(("hunter", "fox")) == ("hunter", "fox")
    assert default_sides(("player",) * 3) == ("player0", "player1", "player2")
    assert default_sides(("leader", "member", "member")) == ("leader", "member1", "member2")
    with pytest.raises(ValueError, match="clashing"):
        default_sides(("player", "player", "player1"))


def test_existing_games_keep_one_side_per_seat() -> None:
    for name, sides in (
        ("fox", ("hunter", "fox")),
        ("fugitive", ("fugitive", "marshal")),
        ("camel-up", ("player0", "player1", "player2", "player3")),
    ):
        assert game_spec(name).make().sides() == sides


def test_a_side_wins_whole_and_ties_between_sides_share() -> None:
    sides = HideSeek().sides()
    assert side_seats(sides) == {"hider": (0,), "detectives": (1, 2, 3, 4, 5)}
    assert side_wins(sides, ("detectives",)) == (0.0,) + (1.0,) * 5
    assert side_wins(sides, ("hider", "detectives")) == (0.5,) * 6
    assert side_wins(sides, ()) == (0.0,) * 6
    with pytest.raises(ValueError, match="'robbers'"):
        side_wins(sides, ("robbers",))


def test_outcome_checks_its_invariants() -> None:
    Outcome("caught", ("hunter",), (1.0, 0.0), (1.0, 0.0), "caught on day 2")
    for bad, match in (
        (("two words", ("a",), (1.0,), (1.0,)), "one word"),
        (("", (), (1.0,), (0.0,)), "one word"),
        (("won", ("a", "a"), (1.0,), (1.0,)), "twice"),
        (("won", ("a",), (1.0, 0.0), (1.0,)), "one per seat"),
        (("won", ("a",), (2.0,), (2.0,)), "between 0 and 1"),
    ):
        with pytest.raises(ValueError, match=match):
            Outcome(*bad, "text")  # type: ignore[arg-type]


def test_every_seat_of_the_winning_side_gets_a_full_win() -> None:
    game = HideSeek()
    state = game.new_initial_state()
    for action in ("hide 2", "search 0", "search 2"):
        state.apply(action)
    assert state.is_terminal()
    assert state.result() == Outcome(
        "found", ("detectives",), (0.0,) + (1.0,) * 5, (0.0,) + (1.0,) * 5,
        "found in hole 2 by detective 2",
    )  # fmt: skip


def test_a_forfeit_gives_the_other_sides_the_win() -> None:
    game = HideSeek()
    assert game.forfeit_winners(frozenset({3})) == ("hider",)
    assert game.forfeit_wins(frozenset({3})) == (1.0,) + (0.0,) * 5
    assert game.forfeit_wins(frozenset({0})) == (0.0,) + (1.0,) * 5
    assert game.forfeit_wins(frozenset({0, 1})) == (0.0,) * 6
    # one seat a side: as before, the seats that did not forfeit share one win
    camels = game_spec("camel-up").make({"players": 3})
    assert camels.forfeit_wins(frozenset({1})) == (0.5, 0.0, 0.5)


@pytest.mark.parametrize(
    ("name", "options", "bots"),
    [
        ("fox", {"graph": "path:4"}, ("random", "random")),
        ("fugitive", {"max_rounds": 6}, ("random", "random")),
        ("camel-up", {"players": 3, "turn_cap": 30}, ("random",) * 3),
    ],
)
def test_every_game_ends_with_a_termination_it_declares(
    name: str, options: dict[str, object], bots: tuple[str, ...]
) -> None:
    spec = game_spec(name)
    game = spec.make(options)
    seen: set[str] = set()
    for seed in range(12):
        record = run_match(game, [spec.bot(b) for b in bots], seed)
        result = record.result
        assert result is not None and not record.forfeits
        assert result.termination in game.terminations
        assert record.final_state is not None and result == record.final_state.result()
        seen.add(result.termination)
        sides = game.sides()
        for seat, share in enumerate(result.wins):
            assert (share > 0) == (sides[seat] in result.winners)
        assert (result.text, result.wins) == (record.outcome, record.wins)
    assert len(seen) >= 1


def test_a_forfeit_is_the_termination_of_the_game_it_ends() -> None:
    spec = HIGHCARD
    record = run_match(spec.make(), [spec.bot("raise"), spec.bot("caller")], seed=1)
    assert record.result is not None
    assert (record.result.termination, record.result.winners) == (FORFEIT, ("second",))
    end = list(log_lines(record))[-1]
    assert (end["termination"], end["winners"]) == ("forfeit", ["second"])


def test_the_end_line_carries_the_structured_outcome_and_replays() -> None:
    spec = game_spec("hideseek")
    record = run_match(spec.make(), [spec.bot("random")] * 6, seed=4)
    lines = [json.dumps(line) for line in log_lines(record)]
    end = json.loads(lines[-1])
    assert record.result is not None
    assert end["termination"] == record.result.termination in ("found", "hidden")
    assert end["winners"] == list(record.result.winners)
    assert replay_lines(lines).result == record.result
    for field, wrong in (("termination", "escaped"), ("winners", ["nobody"])):
        tampered = [*lines[:-1], json.dumps({**end, field: wrong})]
        with pytest.raises(LogError, match=f"line {len(lines)}: logged {field}"):
            replay_lines(tampered)


def test_a_log_written_before_the_structured_outcome_still_replays() -> None:
    path = DATA / "fox-log-before-outcome.jsonl"
    end = json.loads(path.read_text().splitlines()[-1])
    assert "termination" not in end and "winners" not in end  # the old end line
    replay = replay_log(path)
    assert replay.result == Outcome(
        "caught", ("hunter",), (1.0, 0.0), (1.0, 0.0), "caught on day 3"
    )
    assert (replay.outcome, replay.wins) == ("caught on day 3", (1.0, 0.0))
