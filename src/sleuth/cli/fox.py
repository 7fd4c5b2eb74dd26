"""``sleuth fox``: the exact solver, game values, and a terminal game against the quantum fox."""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from sleuth.cli.common import console, print_json
from sleuth.core.errors import IllegalActionError, SleuthError
from sleuth.games.fox.belief import FoxBelief
from sleuth.games.fox.graph import FoxGraph, parse_graph
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


def _show_board(board: FoxGraph, belief: FoxBelief) -> str:
    possible = set(belief.possible_holes())
    return " ".join(f"[{h}]" if h in possible else f" {h} " for h in range(board.n))


@app.command("play")
def play_command(
    graph: GraphOption = "path:5",
    k: KOption = 1,
    lazy: LazyOption = False,
    show: Annotated[
        bool, typer.Option("--show", help="Show the possible holes after each day.")
    ] = False,
) -> None:
    """Hunt the adversarial ("quantum") fox in the terminal.

    Type the holes to inspect (e.g. `2` or `1,3`), `show` to toggle the possible holes,
    `undo`, `hint` or `give up`."""
    board = parse_graph(graph)
    belief = FoxBelief(board, k=k, lazy=lazy)
    console.print(
        f"Fox in a Hole on {board.spec}: holes 0..{board.n - 1}, inspect up to {k} a day. "
        "The fox moves every night" + (" or stays" if lazy else "") + ".",
        highlight=False,
    )
    if board.n <= 24:
        try:
            if not solve(board, k=k, lazy=lazy, max_seconds=2.0).winnable:
                console.print("Warning: no strategy is sure to catch this fox.")
        except SleuthError:
            pass
    while True:
        if show:
            console.print("possible holes: " + _show_board(board, belief), highlight=False)
        try:
            text = input(f"day {belief.day}> ").strip().lower()
        except EOFError:
            text = "give up"
        if text in ("give up", "giveup", "quit", "q"):
            path = belief.fox_path()
            route = " → ".join(map(str, path)) if path else "anywhere"
            console.print(
                f"The fox got away. One path that dodged every inspection: {route}", highlight=False
            )
            return
        if text == "show":
            show = not show
            continue
        if text == "undo":
            try:
                belief.undo()
            except IllegalActionError as exc:
                console.print(str(exc), style="red")
            continue
        if text == "hint":
            _hint(board, belief, k, lazy)
            continue
        try:
            holes = [int(p) for p in text.replace(",", " ").split()]
            caught = belief.inspect(holes)
        except ValueError as exc:  # IllegalActionError is a ValueError too
            message = exc if isinstance(exc, IllegalActionError) else f"cannot read {text!r}"
            usage = "(type holes such as 2 or 1,3, or show/undo/hint/give up)"
            console.print(Text.assemble((str(message), "red"), f" {usage}"))
            continue
        if caught:
            path = belief.fox_path()
            console.print(
                f"Caught on day {belief.day - 1}! One way the fox could have come: "
                + " → ".join(map(str, path)),
                highlight=False,
            )
            return
        console.print("Not yet.")


def _hint(board: FoxGraph, belief: FoxBelief, k: int, lazy: bool) -> None:
    try:
        solution = solve(board, k=k, lazy=lazy, start=belief.morning, max_seconds=5.0)
    except SleuthError as exc:
        console.print(f"no hint: {exc}")
        return
    if solution.strategy:
        first = ", ".join(map(str, solution.strategy[0]))
        console.print(
            f"hint: inspect {first} (a catch is certain within {solution.days} more days)"
        )
    else:
        console.print("hint: from here no strategy is sure to catch the fox")
