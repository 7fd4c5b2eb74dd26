"""Shared helpers for the benchmark scripts (not a benchmark itself)."""

from __future__ import annotations

import argparse


def print_table(header: list[str], rows: list[list[str]]) -> None:
    """Print rows under a header: the first column left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, ["-" * w for w in widths], *rows]:
        cells = [c.rjust(w) for c, w in zip(row, widths, strict=True)]
        cells[0] = row[0].ljust(widths[0])
        print("  ".join(cells))


def search_budget(
    description: str, simulations: int, games: int, rounds: int, quick_simulations: int
) -> tuple[int, int, int, bool]:
    """The search benchmarks' options: (simulations per move, games per round and player,
    rounds, quick); ``--quick`` plays one game of ``quick_simulations`` a move, once."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="a few moves (smoke test)")
    parser.add_argument("--simulations", type=int, default=simulations, help="simulations per move")
    parser.add_argument("--games", type=int, default=games, help="games per round and player")
    parser.add_argument("--rounds", type=int, default=rounds)
    args = parser.parse_args()
    if args.quick:
        return quick_simulations, 1, 1, True
    return args.simulations, args.games, args.rounds, False
