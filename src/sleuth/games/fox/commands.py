"""``sleuth fox``: the exact solver, game values, and a terminal game against the quantum fox.

The game's command-line layer: only the command line imports this module (``SPEC.commands``
names its ``app``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

import typer
from rich.table import Table

from sleuth.assist.repl import run_repl
from sleuth.cli.common import console, print_json
from sleuth.games.fox.graph import parse_graph
from sleuth.games.fox.hunt import FoxSession
from sleuth.games.fox.rules import FoxGame
from sleuth.games.fox.solver import DEFAULT_MAX_SECONDS, DEFAULT_MAX_STATES, solve

app = typer.Typer(
    help="Fox in a Hole: solve boards, compute game values, play the quantum fox.",
    no_args_is_help=True,
)

GraphOption = Annotated[
    str,
    typer.Option(
        "--graph",
        "-g",
        help="path:N, cycle:N, star:N, grid:RxC, spider:a,b,.., "
        "binary-tree:H, edges:0-1,1-2,.. or an edge-list file.",
    ),
]
KOption = Annotated[int, typer.Option("--k", "-k", min=1, help="Holes inspected per day.")]
LazyOption = Annotated[bool, typer.Option("--lazy", help="The fox may stay in its hole.")]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]


def _ratio(p: float) -> str:
    guess = Fraction(p).limit_denominator(1000)
    return f"{p:.6f}" + (f" (= {guess})" if abs(float(guess) - p) < 1e-9 else "")


@app.command("solve")
def solve_command(
    graph: GraphOption = "path:5",
    k: KOption = 1,
    lazy: LazyOption = False,
    max_states: Annotated[
        int, typer.Option("--max-states", min=1, help="Give up after this many beliefs.")
    ] = DEFAULT_MAX_STATES,
    max_seconds: Annotated[
        float, typer.Option("--max-seconds", min=0.001, help="Give up after this many seconds.")
    ] = DEFAULT_MAX_SECONDS,
    as_json: JsonOption = False,
) -> None:
    """Fewest days that guarantee a catch, with one optimal inspection sequence, or a proof
    that no sequence works."""
    board = parse_graph(graph)
    solution = solve(board, k=k, lazy=lazy, max_states=max_states, max_seconds=max_seconds)
    strategy = [list(day) for day in solution.strategy] if solution.strategy else None
    if as_json:
        print_json({"winnable": solution.winnable, "days": solution.days, "strategy": strategy})
        return
    title = f"{board.spec} ({board.n} holes, k={k}{', lazy fox' if lazy else ''})"
    if not solution.winnable:
        size = len(solution.certificate or ())
        console.print(
            f"{title}: no inspection sequence is sure to catch the fox. Proof: a family of "
            f"{size} possible-hole sets that the fox can never be forced out of "
            f"({solution.states_explored} beliefs explored).",
            highlight=False,
        )
        return
    console.print(
        f"{title}: the fox is caught within {solution.days} days, for example:", highlight=False
    )
    for day, holes in enumerate(strategy or [], start=1):
        console.print(f"  day {day:>2}: inspect {', '.join(map(str, holes))}", highlight=False)


@app.command("value")
def value_command(
    days: Annotated[int, typer.Option("--days", "-T", min=1, help="Day limit T.")],
    graph: GraphOption = "path:5",
    k: KOption = 1,
    lazy: LazyOption = False,
    as_json: JsonOption = False,
) -> None:
    """The hunter's optimal catch probability within T days, with optimal mixed strategies for
    both sides (a linear program; small boards only)."""
    board = parse_graph(graph)
    from sleuth.games.fox.values import game_value  # imports scipy: slow, so only when needed

    value = game_value(board, days, k=k, lazy=lazy)
    if as_json:
        print_json(
            {
                "p_catch": value.p_catch,
                "hunter": [{"p": p, "strategy": [list(d) for d in seq]} for seq, p in value.hunter],
                "fox": [{"p": p, "walk": list(walk)} for walk, p in value.fox],
            }
        )
        return
    console.print(
        f"{board.spec}, {days} days, k={k}{', lazy fox' if lazy else ''}: "
        f"P(catch) = {_ratio(value.p_catch)}",
        highlight=False,
    )
    hunter = Table("probability", "inspections (one group per day)", title="hunter's optimal mix")
    for seq, p in value.hunter:
        hunter.add_row(f"{p:.4f}", "  ".join(",".join(map(str, d)) for d in seq))
    fox = Table("probability", "walk (hole each morning)", title="fox's optimal mix")
    for walk, p in value.fox:
        fox.add_row(f"{p:.4f}", " ".join(map(str, walk)))
    console.print(hunter)
    console.print(fox)


@app.command("play")
def play_command(
    graph: GraphOption = "path:5",
    k: KOption = 1,
    lazy: LazyOption = False,
    days: Annotated[
        int,
        typer.Option("--days", min=0, help="Day limit after which the fox escapes (0: 4 x holes)."),
    ] = 0,
    show: Annotated[
        bool,
        typer.Option("--show", help="Mark the holes the fox may be in ('marks' toggles it)."),
    ] = False,
) -> None:
    """Hunt the adversarial ("quantum") fox in the terminal.

    Type the holes to inspect each day (e.g. `2`, or `1,3` with --k 2). The board is drawn
    after every day; `help` lists the commands: `hint`, `marks`, `give up`, `show`,
    `history`, `undo`, `edit N ENTRY`, `delete N`, `save FILE`, `load FILE`, `quit`."""
    game = FoxGame(parse_graph(graph), k=k, lazy=lazy, days=days or None)
    run_repl(FoxSession(game, marks=show), console)
