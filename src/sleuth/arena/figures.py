"""The plots of ``sleuth report``, drawn by Matplotlib (the ``report`` extra) as PNG bytes.

Each function draws one figure of one run (:class:`~sleuth.arena.report.RunReport`) with the
Agg back end (no display needed) and returns the PNG file's bytes.  Importing this module
imports Matplotlib: :func:`sleuth.arena.report_page.check_extra` says what to install when it
is missing.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # after choosing the back end

from sleuth.arena.report import RunReport
from sleuth.arena.tournament import Standing

DPI = 100


def figures(run: RunReport) -> dict[str, bytes]:
    """Every figure of ``run`` by name, as PNG bytes: ``win-rates`` and ``lengths`` when it
    has finished games, ``thinking`` when their moves' times are stored, and ``ratings`` for
    a league."""
    drawn = {}
    if run.games:
        drawn["win-rates"] = win_rates(run)
        drawn["lengths"] = lengths(run)
    if any(s.thinking > 0 for s in run.by_side):
        drawn["thinking"] = thinking(run)
    if run.ratings:
        drawn["ratings"] = ratings(run)
    return drawn


def win_rates(run: RunReport) -> bytes:
    """Win rate per bot and side, and per bot and seat, with their Wilson 95% intervals."""
    seats = [s.standing for s in run.by_seat]
    labels = [
        f"{s.bot} (seat {seat.seat}, {s.role})" for seat, s in zip(run.by_seat, seats, strict=True)
    ]
    fig, (by_side, by_seat) = _figure(2, len(run.by_side) + len(seats))
    _rate_bars(by_side, run.by_side, [f"{s.bot} ({s.side})" for s in run.by_side], "per side")
    _rate_bars(by_seat, seats, labels, "per seat")
    return _png(fig)


def lengths(run: RunReport) -> bytes:
    """The distribution of game lengths (actions by players), with the mean and median."""
    fig, (ax,) = _figure(1, 6)
    counts = run.lengths.counts
    ax.bar(list(counts), list(counts.values()), width=1.0, color="tab:blue", alpha=0.8)
    ax.axvline(
        run.lengths.mean, color="black", linestyle="--", label=f"mean {run.lengths.mean:.1f}"
    )
    median = run.lengths.quartiles[1]
    ax.axvline(median, color="tab:red", linestyle=":", label=f"median {median:g}")
    ax.set_xlabel("game length (actions by players)")
    ax.set_ylabel("games")
    ax.set_title(f"{run.game}: game lengths over {run.games} games")
    ax.legend()
    return _png(fig)


def thinking(run: RunReport) -> bytes:
    """CPU milliseconds per move per bot and side (the mean and the longest move)."""
    rows = run.by_side
    fig, (ax,) = _figure(1, len(rows))
    y = list(range(len(rows)))
    ax.plot([s.ms_per_move for s in rows], y, "o", color="tab:green", label="mean per move")
    ax.plot([1000 * s.longest for s in rows], y, "k|", markersize=14, label="longest move")
    ax.grid(axis="x", alpha=0.3)
    ax.set_yticks(y, [f"{s.bot} ({s.side})" for s in rows])
    ax.invert_yaxis()
    ax.set_xscale("log")  # bots differ by orders of magnitude
    ax.margins(x=0.1)
    ax.set_xlabel("CPU milliseconds (log scale)")
    ax.set_title(f"{run.game}: thinking time per move")
    ax.legend(loc="best")
    return _png(fig)


def ratings(run: RunReport) -> bytes:
    """A league's ratings: each bot's ``mu`` with a bar from ``mu - 3 sigma`` to
    ``mu + 3 sigma``."""
    rows = run.ratings
    fig, (ax,) = _figure(1, len(rows))
    y = list(range(len(rows)))
    ax.errorbar([r.mu for r in rows], y, xerr=[3 * r.sigma for r in rows], fmt="o", capsize=4)
    ax.set_yticks(y, [r.bot for r in rows])
    ax.invert_yaxis()
    ax.set_xlabel("OpenSkill mu, bars: mu ± 3 sigma")
    ax.set_title(f"{run.game}: league ratings")
    return _png(fig)


def _rate_bars(ax: Any, rows: Sequence[Standing], labels: Sequence[str], title: str) -> None:
    y = list(range(len(rows)))
    rates = [s.win_rate for s in rows]
    low = [s.win_rate - s.ci95[0] for s in rows]
    high = [s.ci95[1] - s.win_rate for s in rows]
    ax.barh(y, rates, xerr=[low, high], capsize=3, color="tab:orange", alpha=0.85)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (bars: 95% interval)")
    ax.set_title(f"win rate {title}")


def _figure(panels: int, rows: int) -> tuple[Any, list[Any]]:
    """A figure of ``panels`` stacked axes, tall enough for ``rows`` labelled bars."""
    height = max(2.5, 0.35 * rows + 1.5)
    fig, axes = plt.subplots(panels, 1, figsize=(8, height), squeeze=False)
    return fig, list(axes[:, 0])


def _png(fig: Any) -> bytes:
    out = io.BytesIO()
    fig.tight_layout()
    fig.savefig(out, format="png", dpi=DPI)
    plt.close(fig)
    return out.getvalue()
