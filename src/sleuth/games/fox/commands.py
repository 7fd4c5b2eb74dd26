"""``sleuth fox``: the exact solver, game values, and a terminal game against the quantum fox.

The game's own commands as data (:class:`~sleuth.core.plugins.CommandsPlugin`): the command line
builds them and prints their answers, and only it imports this module (``SPEC.commands``
names :data:`COMMANDS`)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rich.console import Group
from rich.table import Table

from sleuth.core.plugins import AS_JSON, Answer, CommandsPlugin, GameCommand, Param
from sleuth.games.fox.graph import FoxGraph, parse_graph
from sleuth.games.fox.hunt import FoxSession
from sleuth.games.fox.rules import FoxGame
from sleuth.games.fox.solver import DEFAULT_MAX_SECONDS, DEFAULT_MAX_STATES, solve

GRAPH = Param(
    "graph",
    "path:N, cycle:N, star:N, grid:RxC, spider:a,b,.., binary-tree:H, edges:0-1,1-2,.. or an "
    "edge-list file.",
    default="path:5",
    short="-g",
)
K = Param("k", "Holes inspected per day.", kind=int, default=1, minimum=1, short="-k")
LAZY = Param("lazy", "The fox may stay in its hole.", kind=bool)


def _ratio(p: float) -> str:
    guess = Fraction(p).limit_denominator(1000)
    return f"{p:.6f}" + (f" (= {guess})" if abs(float(guess) - p) < 1e-9 else "")


def _board(values: Mapping[str, Any]) -> tuple[FoxGraph, int, bool]:
    return parse_graph(values["graph"]), values["k"], bool(values["lazy"])


def _solve(values: Mapping[str, Any]) -> Answer:
    board, k, lazy = _board(values)
    solution = solve(
        board, k=k, lazy=lazy, max_states=values["max_states"], max_seconds=values["max_seconds"]
    )
    strategy = [list(day) for day in solution.strategy] if solution.strategy else None
    found = {"winnable": solution.winnable, "days": solution.days, "strategy": strategy}
    title = f"{board.spec} ({board.n} holes, k={k}{', lazy fox' if lazy else ''})"
    if not solution.winnable:
        size = len(solution.certificate or ())
        text = (
            f"{title}: no inspection sequence is sure to catch the fox. Proof: a family of "
            f"{size} possible-hole sets that the fox can never be forced out of "
            f"({solution.states_explored} beliefs explored)."
        )
        return Answer(text, found)
    lines = [f"{title}: the fox is caught within {solution.days} days, for example:"]
    for day, holes in enumerate(strategy or [], start=1):
        lines.append(f"  day {day:>2}: inspect {', '.join(map(str, holes))}")
    return Answer("\n".join(lines), found)


def _value(values: Mapping[str, Any]) -> Answer:
    board, k, lazy = _board(values)
    days = values["days"]
    from sleuth.games.fox.values import game_value  # imports scipy: slow, so only when needed

    value = game_value(board, days, k=k, lazy=lazy)
    found = {
        "p_catch": value.p_catch,
        "hunter": [{"p": p, "strategy": [list(d) for d in seq]} for seq, p in value.hunter],
        "fox": [{"p": p, "walk": list(walk)} for walk, p in value.fox],
    }
    title = f"{board.spec}, {days} days, k={k}{', lazy fox' if lazy else ''}: "
    hunter = Table("probability", "inspections (one group per day)", title="hunter's optimal mix")
    for seq, p in value.hunter:
        hunter.add_row(f"{p:.4f}", "  ".join(",".join(map(str, d)) for d in seq))
    fox = Table("probability", "walk (hole each morning)", title="fox's optimal mix")
    for walk, p in value.fox:
        fox.add_row(f"{p:.4f}", " ".join(map(str, walk)))
    return Answer(Group(title + f"P(catch) = {_ratio(value.p_catch)}", hunter, fox), found)


def _play(values: Mapping[str, Any]) -> FoxSession:
    board, k, lazy = _board(values)
    game = FoxGame(board, k=k, lazy=lazy, days=values["days"] or None)
    return FoxSession(game, marks=bool(values["show"]))


COMMANDS = CommandsPlugin(
    help="Fox in a Hole: solve boards, compute game values, play the quantum fox.",
    commands=(
        GameCommand(
            "solve",
            "Fewest days that guarantee a catch, with one optimal inspection sequence, or a "
            "proof that no sequence works.",
            _solve,
            (
                GRAPH,
                K,
                LAZY,
                Param(
                    "max_states",
                    "Give up after this many beliefs.",
                    kind=int,
                    default=DEFAULT_MAX_STATES,
                    minimum=1,
                ),
                Param(
                    "max_seconds",
                    "Give up after this many seconds.",
                    kind=float,
                    default=DEFAULT_MAX_SECONDS,
                    minimum=0.001,
                ),
                AS_JSON,
            ),
        ),
        GameCommand(
            "value",
            "The hunter's optimal catch probability within T days, with optimal mixed "
            "strategies for both sides (a linear program; small boards only).",
            _value,
            (
                Param("days", "Day limit T.", kind=int, minimum=1, short="-T", required=True),
                GRAPH,
                K,
                LAZY,
                AS_JSON,
            ),
        ),
        GameCommand(
            "play",
            'Hunt the adversarial ("quantum") fox in the terminal.\n\n'
            "Type the holes to inspect each day (e.g. `2`, or `1,3` with --k 2). The board is "
            "drawn after every day; `help` lists the commands: `hint`, `marks`, `give up`, "
            "`show`, `history`, `undo`, `edit N ENTRY`, `delete N`, `save FILE`, `load FILE`, "
            "`quit`.",
            _play,
            (
                GRAPH,
                K,
                LAZY,
                Param(
                    "days",
                    "Day limit after which the fox escapes (0: 4 x holes).",
                    kind=int,
                    default=0,
                    minimum=0,
                ),
                Param("show", "Mark the holes the fox may be in ('marks' toggles it).", kind=bool),
            ),
        ),
    ),
)
"""``sleuth fox solve``, ``value`` and ``play``."""
