"""Shared output helper for the benchmark scripts (not a benchmark itself)."""

from __future__ import annotations


def print_table(header: list[str], rows: list[list[str]]) -> None:
    """Print rows under a header: the first column left-aligned, the others right-aligned."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, ["-" * w for w in widths], *rows]:
        cells = [c.rjust(w) for c, w in zip(row, widths, strict=True)]
        cells[0] = row[0].ljust(widths[0])
        print("  ".join(cells))
