"""The Camel Up placement study: does a camel's starting place influence where it finishes,
and how much does the seat order matter?

    python studies/camel_up_study.py run --games 100000   # ~1 min; into study-output/
    python studies/camel_up_study.py report               # tables; study-output/camel-up-study.png

``run`` plays 1st-edition games between four random bots (the source's RandomBot, through the
fast kernel :func:`sleuth.games.camel_up.simulate.play_random_game`, which plays exactly the
games of ``sleuth play camel-up --bots random,random,random,random``), game ``i`` with the seed
``derive_seed(2026, "game", i)``, seats fixed (the same bot in every seat).  It stores games as
they finish; Ctrl-C or SIGTERM stops it within a second keeping them, and it resumes: games
already in the database are not played again, and a larger ``--games`` tops the study up.
``report`` prints Markdown tables (95% Wilson intervals) and writes the plot
``camel-up-study.png``.  Both write to ``--out DIR`` (default ``study-output/``, ignored by git;
the database is ``DIR/camel-up-study.duckdb`` unless ``--db`` names another file), so that a
run never overwrites the committed figure in ``docs/img``.  The exact baseline is the race
alone (no desert tiles, no players), averaged over every random start of rule K5, from the
exact whole-race table.
"""

from __future__ import annotations

import argparse
import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
from _args import add_output_options, output_paths, positive
from _plots import pyplot
from _stored import map_stoppable, stop_study, stoppable

from sleuth.arena import store
from sleuth.arena.stats import wilson_interval
from sleuth.core.rng import derive_seed
from sleuth.games.camel_up.odds import game_odds
from sleuth.games.camel_up.rules import CamelUpGame
from sleuth.games.camel_up.simulate import play_random_game
from sleuth.games.camel_up.track import arrangement, racing_order

SEED = 2026
PLAYERS = 4
CHUNK = 250
"""Games a worker plays at a time (about a quarter of a second): a stop waits for them."""
NAME = "camel-up-study"
"""The name of the database and the plot in the output folder."""
SCHEMA = """
CREATE TABLE IF NOT EXISTS placement (
    game_index INTEGER PRIMARY KEY, seed BIGINT, start_order INTEGER[], finish_order INTEGER[],
    start_spaces INTEGER[], wins DOUBLE[], tiles_placed INTEGER, tile_hits INTEGER,
    turns INTEGER, legs INTEGER, capped BOOLEAN
)
"""
"""``start_order`` and ``finish_order`` list the camel ids from last to first (K20);
``start_spaces[c]`` is camel ``c``'s starting space; ``wins`` the win share of each seat."""
PLACES = ("5th (rearmost)", "4th", "3rd", "2nd", "1st (front)")


def play_chunk(indices: list[int]) -> list[tuple[Any, ...]]:
    """Play some games of the study; one row of the ``placement`` table each."""
    game = CamelUpGame(players=PLAYERS)
    rows = []
    for index in indices:
        seed = derive_seed(SEED, "game", index)
        played = play_random_game(game, seed)
        final = played.final
        spaces = [0] * 5
        for code in played.start:
            spaces[code & 7] = (code >> 3) + 1
        rows.append(
            (
                index, seed, list(racing_order(played.start)),
                list(racing_order(final.order or ())), spaces, list(final.wins()),
                played.tiles_placed, played.tile_hits, final.turns, final.leg, final.capped,
            )
        )  # fmt: skip
    return rows


def _chunks(games: int, have: set[int]) -> Iterator[list[int]]:
    """The indices below ``games`` not in ``have``, :data:`CHUNK` at a time, made as they are
    read (a large ``--games`` costs nothing up front)."""
    todo = (i for i in range(games) if i not in have)
    while chunk := list(itertools.islice(todo, CHUNK)):
        yield chunk


def run(db: Path, games: int, workers: int) -> None:
    db.parent.mkdir(parents=True, exist_ok=True)
    try:
        con = store.connect(db)  # refuses a file that is not a DuckDB database
    except duckdb.Error as exc:
        raise SystemExit(f"error: cannot store results in {db}: {exc}") from None
    with con, stoppable() as stop:
        con.execute(SCHEMA)
        have = {i for (i,) in con.execute("SELECT game_index FROM placement").fetchall()}
        played = 0
        for rows in map_stoppable(play_chunk, _chunks(games, have), workers, stop):
            columns = [list(column) for column in zip(*rows, strict=True)]
            selects = ", ".join(f"UNNEST(?) AS c{i}" for i in range(len(columns)))
            con.execute(f"INSERT INTO placement SELECT {selects}", columns)
            played += len(rows)
        if stop.requested:
            stop_study(stop, f"{played} new games stored, {len(have) + played} in {db}")
        if played:
            print(f"played {played} games; {len(have) + played} in {db}")


def exact_baseline() -> tuple[list[float], list[float]]:
    """P(win) and P(last) by starting place, last to first, for the race alone (no tiles),
    averaged over the 3^5 equally likely die rolls of K5 (the stacking order does not matter:
    camels are named by their place)."""
    win = [0.0] * 5
    last = [0.0] * 5
    for rolls in itertools.product(range(3), repeat=5):
        sizes = [rolls.count(space) for space in range(3)]
        camels = iter(range(5))
        stacks = {space: [next(camels) for _ in range(n)] for space, n in enumerate(sizes) if n}
        odds = game_odds(arrangement(stacks))
        for place in range(5):
            win[place] += odds.win[place] / 3**5
            last[place] += odds.last[place] / 3**5
    return win, last


def _rate(hits: float, n: int) -> str:
    low, high = wilson_interval(hits, n)
    return f"{hits / n:.2%} ({low:.2%}–{high:.2%})"


def report(db: Path, image: Path) -> None:
    if not db.exists():
        raise SystemExit(f"error: {db} does not exist: play the study first (run --db {db})")
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "SELECT start_order, finish_order, wins, tile_hits, turns, legs, capped "
            "FROM placement ORDER BY game_index"
        ).fetchall()
    n = len(rows)
    if not n:
        raise SystemExit(f"{db} has no games: run the study first")
    win_exact, last_exact = exact_baseline()
    print(f"{n:,} games, 1st edition, {PLAYERS} random bots, seats fixed, seed {SEED}.\n")
    print("### Does the starting place influence the final standing?\n")
    print("| starting place | P(win) observed | exact, race only | P(last) observed | exact |")
    print("|---|---|---|---|---|")
    won = [0] * 5
    lost = [0] * 5
    by_tiles: dict[bool, list[int]] = {False: [0] * 6, True: [0] * 6}
    for start, finish, _, hits, *_ in rows:
        place = {camel: i for i, camel in enumerate(start)}
        won[place[finish[-1]]] += 1
        lost[place[finish[0]]] += 1
        counts = by_tiles[hits > 0]
        counts[place[finish[-1]]] += 1
        counts[5] += 1
    for place in range(5):
        print(
            f"| {PLACES[place]} | {_rate(won[place], n)} | {win_exact[place]:.2%} "
            f"| {_rate(lost[place], n)} | {last_exact[place]:.2%} |"
        )
    print("\n### Do desert tiles change it? (P(win) by starting place)\n")
    print("| starting place | no tile was hit | a tile was hit |")
    print("|---|---|---|")
    for place in range(5):
        cells = [
            _rate(by_tiles[hit][place], by_tiles[hit][5]) if by_tiles[hit][5] else "—"
            for hit in (False, True)
        ]
        print(f"| {PLACES[place]} | {cells[0]} | {cells[1]} |")
    print(f"\n(no tile hit in {by_tiles[False][5]:,} games, at least one in {by_tiles[True][5]:,})")
    print("\n### How much does the seat order matter?\n")
    print("| seat | win share |")
    print("|---|---|")
    shares = [sum(r[2][seat] for r in rows) for seat in range(PLAYERS)]
    for seat in range(PLAYERS):
        print(f"| {seat} | {_rate(shares[seat], n)} |")
    turns = sum(r[4] for r in rows) / n
    legs = sum(r[5] for r in rows) / n
    capped = sum(r[6] for r in rows)
    print(f"\nMean {turns:.1f} turns and {legs:.2f} legs per game; {capped} games capped.")
    _plot(image, won, lost, win_exact, last_exact, shares, n)


def _plot(
    image: Path,
    won: list[int],
    lost: list[int],
    win_exact: list[float],
    last_exact: list[float],
    shares: list[float],
    n: int,
) -> None:
    plt = pyplot()
    if plt is None:
        return
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    places = range(5)
    for counts, exact, label, colour, shift in (
        (won, win_exact, "P(win)", "tab:blue", -0.15),
        (lost, last_exact, "P(last)", "tab:red", 0.15),
    ):
        rates = [c / n for c in counts]
        bounds = [wilson_interval(c, n) for c in counts]
        errors = [[r - lo for r, (lo, _) in zip(rates, bounds, strict=True)],
                  [hi - r for r, (_, hi) in zip(rates, bounds, strict=True)]]  # fmt: skip
        left.errorbar([p + shift for p in places], rates, yerr=errors, fmt="o", color=colour,
                      label=f"{label}, observed (95% CI)", capsize=3)  # fmt: skip
        left.scatter([p + shift for p in places], exact, marker="_", s=300, color="black",
                     zorder=3)  # fmt: skip
    left.scatter([], [], marker="_", s=300, color="black", label="exact, race only")
    left.set_xticks(list(places), [p.split()[0] for p in PLACES])
    left.set_xlabel("starting place")
    left.set_ylabel("probability")
    left.set_title(f"Starting place and final standing ({n:,} games)")
    left.axhline(0.2, color="grey", lw=0.5, ls="--")
    left.legend(fontsize=8)
    seats = range(len(shares))
    rates = [s / n for s in shares]
    bounds = [wilson_interval(s, n) for s in shares]
    right.bar(list(seats), rates, color="tab:green")
    right.errorbar(list(seats), rates, yerr=[[r - lo for r, (lo, _) in zip(rates, bounds,
                   strict=True)], [hi - r for r, (_, hi) in zip(rates, bounds, strict=True)]],
                   fmt="none", color="black", capsize=4)  # fmt: skip
    right.axhline(1 / len(shares), color="grey", lw=0.5, ls="--")
    right.set_xticks(list(seats), [f"seat {s}" for s in seats])
    right.set_ylabel("win share")
    right.set_title("Seat order, four random bots")
    figure.tight_layout()
    image.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(image, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description="The Camel Up placement study: run, then report.")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser("run", help="play the study's games (resumes)")
    add_output_options(play, NAME)
    play.add_argument("--games", type=positive, default=100_000)
    play.add_argument("--workers", type=positive, default=os.cpu_count() or 1)
    show = sub.add_parser("report", help="print the tables and write the plot")
    add_output_options(show, NAME)
    args = parser.parse_args()
    db, image = output_paths(args, NAME)
    if args.command == "run":
        run(db, args.games, args.workers)
    else:
        report(db, image)


if __name__ == "__main__":
    main()
