"""Checks of a finished game's structured outcome and of the log's end line that carries it.

:func:`outcome_problem` judges the :class:`~sleuth.core.outcome.Outcome` of a finished state
against the game's declared terminations and sides; :func:`check_playthrough
<sleuth.testing.engine.check_playthrough>` applies it to every random playthrough, and
:func:`check_outcome` to a match, together with its log's end line.
"""

from __future__ import annotations

import json
from typing import Any

from sleuth.core.game import Game, State
from sleuth.core.log import log_lines, replay_lines
from sleuth.core.match import run_match
from sleuth.core.outcome import Outcome, side_seats
from sleuth.testing.case import Case, random_bots
from sleuth.testing.matches import require_whole_game

TOLERANCE = 1e-9
"""How far the winning sides' shares may sum from 1 (float rounding of 1/k)."""


def outcome_problem(game: Game[Any], state: State[Any]) -> str | None:
    """What is wrong with the outcome of the finished ``state``, or None.

    ``state.result()`` must hold: a termination among ``game.terminations`` and equal to
    ``state.termination()``; returns equal to ``state.returns()``; winners that are side names
    of ``game.sides()`` (one per seat) and equal to ``state.winners()``; win shares equal to
    ``state.wins()`` in which every seat of a side has the same share, positive for a winning
    side and 0 for any other, and the winning sides' shares sum to 1 (none won: all 0).
    """
    try:
        result = state.result()
    except Exception as exc:
        return f"result() raised {exc!r}"
    if result.termination not in game.terminations:
        return (
            f"termination {result.termination!r} is not one of the game's terminations "
            f"{list(game.terminations)}"
        )
    sides = game.sides()
    if len(sides) != game.num_players:
        return f"sides() names {len(sides)} sides for {game.num_players} seats"
    unknown = [w for w in result.winners if w not in sides]
    if unknown:
        return f"winners {unknown} are not sides of the game ({list(dict.fromkeys(sides))})"
    for name, got, expected in (
        ("termination", result.termination, state.termination()),
        ("returns", result.returns, tuple(state.returns())),
        ("winners", result.winners, tuple(state.winners())),
        ("wins", result.wins, tuple(state.wins())),
    ):
        if got != expected:
            return f"result().{name} is {got!r} but {name}() gives {expected!r}"
    return _shares_problem(result, sides)


def _shares_problem(result: Outcome, sides: tuple[str, ...]) -> str | None:
    """What is wrong with ``result``'s win shares given the seats' ``sides``, or None."""
    total = 0.0
    for side, seats in side_seats(sides).items():
        shares = [result.wins[s] for s in seats]
        if len(set(shares)) > 1:
            return f"the seats {list(seats)} of side {side!r} have unequal win shares {shares}"
        if side in result.winners and shares[0] <= 0.0:
            return f"winning side {side!r} has win share 0"
        if side not in result.winners and shares[0] != 0.0:
            return f"side {side!r} did not win but has win share {shares[0]:g}"
        total += shares[0] if side in result.winners else 0.0
    if result.winners and abs(total - 1.0) > TOLERANCE:
        return f"the winning sides {list(result.winners)} share {total:g} wins, not 1"
    return None


def check_outcome(case: Case, seed: int) -> None:
    """A match of random bots ends with a consistent outcome (:func:`outcome_problem`) that
    is the match record's, its log's end line reads back as that same
    :class:`~sleuth.core.outcome.Outcome`, and the log replays to it."""
    game = case.make()
    record = run_match(game, random_bots(case.spec, game.num_players), seed, time_limit=None)
    require_whole_game(case, seed, record)
    assert record.final_state is not None and record.result is not None
    problem = outcome_problem(game, record.final_state)
    if problem is not None:
        raise case.fail(seed, problem)
    again = record.final_state.result()
    if again != record.result:
        raise case.fail(seed, f"the match recorded {record.result} but result() now gives {again}")
    lines = [json.dumps(line) for line in log_lines(record)]
    end = json.loads(lines[-1])
    try:
        logged = Outcome(
            end["termination"],
            tuple(end["winners"]),
            tuple(end["returns"]),
            tuple(end["wins"]),
            end["outcome"],
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise case.fail(seed, f"the log's end line {lines[-1]} holds no outcome: {exc}") from exc
    if logged != record.result:
        raise case.fail(seed, f"the log's end line reads back as {logged}, not {record.result}")
    try:
        replayed = replay_lines(lines, source="the match's log").result
    except Exception as exc:
        raise case.fail(seed, f"its log does not replay: {exc}") from exc
    if replayed != record.result:
        raise case.fail(seed, f"the log replays to {replayed}, the match was {record.result}")
