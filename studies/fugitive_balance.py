"""The Fugitive balance study (issue 38): both sides' pools, every pairing, the matrix game.

    python studies/fugitive_balance.py run --games 100 --workers 1   # into study-output/
    python studies/fugitive_balance.py matrix                        # tables, value, plot
    python studies/fugitive_balance.py run --quick                   # a tiny pool, 2 games

``run`` plays every pairing of a Fugitive of :data:`FUGITIVES` with a Marshal of
:data:`MARSHALS` up to ``--games`` games in each edition named by ``--edition`` (both by
default), counting the games already in the database, where it stores them as they finish:
Ctrl-C or SIGTERM stops the whole run keeping every finished game, the same command resumes,
and a larger ``--games`` tops every pairing up with new games (seed 2026 plus the games already
played).  ``max_rounds=50``, seats fixed by role, thirty seconds of CPU time a move.
``matrix`` prints, per edition whose pairings are all played, the Fugitive's win rate (a draw
counts half) in each pairing with its 95% Wilson interval, each Fugitive's worst case (his
lowest over the Marshals) and each Marshal's (her highest), then the restricted zero-sum game
solved as a linear programme: both sides' equilibrium mixes and the value (the Fugitive's
win rate) with a 95% bootstrap interval (each entry's games resampled); and writes the plot
``fugitive-balance-EDITION.png`` (matplotlib, the ``report`` extra).  ``--quick`` uses
:data:`QUICK_FUGITIVES` and :data:`QUICK_MARSHALS` (2 games a pairing unless ``--games``);
``--fugitive BOT`` and ``--marshal BOT`` (each repeatable) name the side's pool instead.
Both write to ``--out DIR`` (default ``study-output/``; the database is
``DIR/fugitive-balance.duckdb`` unless ``--db`` names another file).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import duckdb
import numpy as np
from _args import add_output_options, output_paths, positive, say_nothing_to_play
from _plots import pyplot
from _stored import play_stored, stoppable

from sleuth.arena import store
from sleuth.arena.equilibrium import bootstrap_value, solve_zero_sum
from sleuth.arena.oracle import best_response, double_oracle
from sleuth.arena.stats import wilson_interval
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.catalogue import EDITIONS
from sleuth.games.fugitive.players.robust import MEMBERS

SEED = 2026
OPTIONS = {"max_rounds": 50}
TIME_LIMIT = 30.0
"""CPU seconds a move may take: the belief Marshal's declared budget (a move takes
milliseconds; a wide-open position without Numba, seconds)."""
NAME = "fugitive-balance"
"""The name of the database and the plots in the output folder."""
QUICK_GAMES = 2

MARSHALS = (
    "belief",  # gamble guesses, frontier draws, the frugal model
    "belief:guess=certain",
    "belief:guess=argmax",
    "belief:guess=reveal",
    "belief:draw=low",
    "belief:draw=high",
    "belief:draw=random",
    "belief:model=thrifty",
    "belief:model=uniform",
    "belief:model=uniform:guess=argmax",  # the uniform Marshal: greedy, no opponent model
    "notes",
    "candidates",
    "ismcts:iterations=30",
    "dmcts:iterations=30",
)
"""The Marshal pool: the belief Marshal in each guess mode, draw policy and Fugitive model
(one option changed at a time), the uniform Marshal (the most likely number, every consistent
world weighed once), the source's notes, the candidate-list random Marshal, and both search
Marshals at a modest budget."""
FUGITIVES = (
    "random",
    "steady",
    "steady:dead_cards=0",
    "heuristic:bluff=0",
    "heuristic",  # bluff 0.25
    "heuristic:bluff=0.5",
    "elusive:caution=0.5",
    "elusive",  # caution 1
    "elusive:caution=4",
)
"""The Fugitive pool: random, steady (dead-card levels), heuristic (bluff levels) and elusive
(caution levels)."""
QUICK_MARSHALS = ("candidates", "notes")
QUICK_FUGITIVES = ("random", "steady")
FAMILY = (
    "policy:stride=3",  # the first attempt's equilibrium (both editions)
    "policy:stride=3:bluff=0.3",  # its best response to belief (2nd edition)
    "policy:draw=low",  # in its 2nd-edition mix
    "policy:stride=4",
    "decoy",  # the decoys: placements her odds least expect
    "decoy:weight=50",
    "decoy:stride=3",
    "decoy:model=thrifty:weight=50",
)
"""The Fugitives the double oracle (``psro``) chooses among: the ``policy`` Fugitives that
were in the first attempt's equilibria or best responses (its other ten members, wasted reach
and few sprint cards, were beaten by these against every Marshal that mattered), and the
``decoy`` Fugitives, which read the belief Marshal's odds (her default ``frugal`` model, or
``thrifty``, the other model of the pool) to place where she least expects."""
ORACLE_MARSHALS = (
    "belief",
    "belief:guess=argmax",
    "belief:model=thrifty",
    "belief:model=uniform",
    "belief:model=uniform:guess=argmax",
    "notes",
    "candidates",
)
"""The Marshals the double oracle answers with: the pool without the search Marshals (10-20 s
a game) and the belief Marshal's draw and rarer guess variants."""
QUICK_FAMILY = ("policy", "policy:stride=2")


def _key(fugitive: str, marshal: str, edition: str) -> tuple[str, str, str]:
    """A pairing as the store names it (canonical bot specs: heuristic:bluff=0.0)."""
    return SPEC.bot(fugitive).name, SPEC.bot(marshal).name, edition


def played(db: Path) -> dict[tuple[str, str, str], tuple[int, int, int]]:
    """(games, Fugitive wins, draws) by pairing key, over every run in the database."""
    if not db.exists():
        return {}
    out: dict[tuple[str, str, str], tuple[int, int, int]] = {}
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "select bots, options, count(*), count(*) filter (where wins[1] = 1), "
            "count(*) filter (where wins[1] = 0.5) from games where game = 'fugitive' "
            "group by all"
        ).fetchall()
    for bots, options, games, wins, draws in rows:
        key = (bots[0], bots[1], json.loads(options)["edition"])
        before = out.get(key, (0, 0, 0))
        out[key] = (before[0] + games, before[1] + wins, before[2] + draws)
    return out


def run(
    db: Path,
    games: int,
    workers: int | None,
    editions: Sequence[str],
    fugitives: Sequence[str],
    marshals: Sequence[str],
) -> None:
    db.parent.mkdir(parents=True, exist_ok=True)
    store.prepare(db)
    done = played(db)
    pairings = [(f, m, e) for e in editions for m in marshals for f in fugitives]
    todo = [p for p in pairings if done.get(_key(*p), (0, 0, 0))[0] < games]
    if not todo:
        say_nothing_to_play(games)
    for fugitive, marshal, edition in todo:
        before = done.get(_key(fugitive, marshal, edition), (0, 0, 0))[0]
        options = {**OPTIONS, "edition": edition}
        print(f"{datetime.now(UTC):%H:%M:%S} {fugitive} v {marshal}, {edition} ...", flush=True)
        play_stored(
            db, "fugitive", [fugitive, marshal], options, games - before, SEED + before,
            workers, time_limit=TIME_LIMIT,
        )  # fmt: skip
        done = played(db)


def psro(
    db: Path,
    games: int,
    workers: int | None,
    edition: str,
    fugitives: Sequence[str],
    marshals: Sequence[str],
) -> None:
    """The double oracle between the Fugitive pool ``fugitives`` and the Marshal pool
    ``marshals`` in ``edition``: each entry it needs played up to ``games`` games into the
    database (so a stopped search resumes), then the equilibrium, each side's best response
    and exploitability, and the robust Fugitive's mix."""
    db.parent.mkdir(parents=True, exist_ok=True)
    store.prepare(db)

    def entry(i: int, j: int) -> float:
        key = _key(fugitives[i], marshals[j], edition)
        before = played(db).get(key, (0, 0, 0))[0]
        if before < games:
            print(f"{datetime.now(UTC):%H:%M:%S} {fugitives[i]} v {marshals[j]}, {edition} ...",
                  flush=True)  # fmt: skip
            play_stored(
                db, "fugitive", [fugitives[i], marshals[j]], {**OPTIONS, "edition": edition},
                games - before, SEED + before, workers, time_limit=TIME_LIMIT,
            )  # fmt: skip
        total, wins, draws = played(db)[key]
        return (wins + draws / 2) / total

    found = double_oracle(entry, len(fugitives), len(marshals))
    print(f"\n## {edition} edition: the double oracle, {games:,} games an entry\n")
    print(f"iterations: {len(found.values)}; the restricted game's value at each: "
          + ", ".join(f"{v:.1%}" for v in found.values))  # fmt: skip
    print(f"value (the Fugitive's win rate): {found.equilibrium.value:.2%}; converged: "
          f"{'yes' if found.converged else 'no'}")  # fmt: skip
    print(f"Fugitive's exploitability (a Marshal of the pool gains): {found.column_gain:.2%}; "
          f"Marshal's (a Fugitive of the pool gains): {found.row_gain:.2%}")  # fmt: skip
    sides = (
        ("Fugitive", fugitives, found.row_mix(len(fugitives))),
        ("Marshal", marshals, found.column_mix(len(marshals))),
    )
    for side, names, mix in sides:
        support = ", ".join(f"`{names[i]}` {mix[i]:.1%}" for i in np.argsort(-mix) if mix[i] > 1e-6)
        print(f"{side}'s equilibrium mix: {support}")
    print("\nbest Fugitive of the pool against each Marshal measured against every one:")
    for j in found.columns:
        i, rate = best_response(entry, len(fugitives), [j], [1.0], rows=True)
        print(f"- `{marshals[j]}`: `{fugitives[i]}` {rate:.1%}")
    row_mix = found.row_mix(len(fugitives))
    j, rate = best_response(entry, len(marshals), found.rows, list(found.equilibrium.rows), False)
    print(f"best Marshal of the pool against the Fugitive's mix: `{marshals[j]}` ({rate:.1%})")
    weights = [(round(float(row_mix[i]), 3), fugitives[i]) for i in np.argsort(-row_mix)]
    mix_text = ", ".join(
        f'({w}, "{f}")' for w, f in weights if w > 0 and f.partition(":")[0] in MEMBERS
    )
    print(f'the robust Fugitive\'s mix (robust.MIXES["{edition}"]): ({mix_text},)\n')


def matrix(
    db: Path, image: Path, fugitives: Sequence[str], marshals: Sequence[str], samples: int
) -> None:
    if not db.exists():
        raise SystemExit(f"error: {db} does not exist: play the study first (run --db {db})")
    done = played(db)
    for edition in EDITIONS:
        counts = np.array(
            [[done.get(_key(f, m, edition), (0, 0, 0)) for m in marshals] for f in fugitives]
        )
        games, wins, draws = counts[..., 0], counts[..., 1], counts[..., 2]
        if not games.any():
            continue
        if not games.all():
            f, m = np.argwhere(games == 0)[0]
            print(f"## {edition} edition: not every pairing is played ({fugitives[f]} v "
                  f"{marshals[m]} is not); run the study first\n")  # fmt: skip
            continue
        rates = (wins + draws / 2) / games
        _print_matrix(edition, fugitives, marshals, rates, wins + draws / 2, games)
        _print_equilibrium(fugitives, marshals, rates, wins, draws, games, samples)
        _plot(image.with_name(f"{NAME}-{edition}.png"), edition, fugitives, marshals, rates)


def _print_matrix(
    edition: str,
    fugitives: Sequence[str],
    marshals: Sequence[str],
    rates: np.ndarray,
    scores: np.ndarray,
    games: np.ndarray,
) -> None:
    print(f"## {edition} edition: the Fugitive's win rate, {games.min():,}–{games.max():,} "
          "games a pairing (95% Wilson interval)\n")  # fmt: skip
    print(f"| Fugitive \\ Marshal | {' | '.join(f'`{m}`' for m in marshals)} | worst |")
    print(f"|---|{'---:|' * len(marshals)}---:|")
    for i, fugitive in enumerate(fugitives):
        cells = []
        for j in range(len(marshals)):
            low, high = wilson_interval(float(scores[i, j]), int(games[i, j]))
            cells.append(f"{rates[i, j]:.1%} ({low:.1%}–{high:.1%})")
        print(f"| `{fugitive}` | {' | '.join(cells)} | {rates[i].min():.1%} |")
    worst = " | ".join(f"{rates[:, j].max():.1%}" for j in range(len(marshals)))
    print(f"| worst for the Marshal | {worst} | |\n")


def _print_equilibrium(
    fugitives: Sequence[str],
    marshals: Sequence[str],
    rates: np.ndarray,
    wins: np.ndarray,
    draws: np.ndarray,
    games: np.ndarray,
    samples: int,
) -> None:
    solved = solve_zero_sum(rates)
    low, high = bootstrap_value(wins, draws, games, SEED, samples)
    print(
        f"value (the Fugitive's equilibrium win rate): {solved.value:.2%}, 95% bootstrap "
        f"interval {low:.2%}–{high:.2%} ({samples:,} resamples); the Marshal's: "
        f"{1 - solved.value:.2%}"
    )
    sides = (("Fugitive", fugitives, solved.rows), ("Marshal", marshals, solved.columns))
    for side, names, mix in sides:
        support = ", ".join(f"`{names[i]}` {mix[i]:.1%}" for i in np.argsort(-mix) if mix[i] > 1e-6)
        print(f"{side}'s equilibrium mix: {support}")
    print()


def _plot(
    image: Path, edition: str, fugitives: Sequence[str], marshals: Sequence[str], rates: np.ndarray
) -> None:
    plt = pyplot()
    if plt is None:
        return
    figure, axes = plt.subplots(figsize=(2 + 0.7 * len(marshals), 1.5 + 0.45 * len(fugitives)))
    shown = axes.imshow(100 * rates, cmap="viridis", vmin=0, vmax=100, aspect="auto")
    axes.set_xticks(range(len(marshals)), marshals, rotation=60, ha="right", fontsize=8)
    axes.set_yticks(range(len(fugitives)), fugitives, fontsize=8)
    for i in range(len(fugitives)):
        for j in range(len(marshals)):
            colour = "white" if rates[i, j] < 0.5 else "black"
            axes.text(j, i, f"{100 * rates[i, j]:.0f}", ha="center", va="center", color=colour,
                      fontsize=7)  # fmt: skip
    axes.set_title(f"Fugitive win rate, % ({edition} edition)")
    figure.colorbar(shown, ax=axes)
    figure.tight_layout()
    image.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(image, dpi=110)
    plt.close(figure)
    print(f"plot: {image}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("run", "matrix", "psro"))
    add_output_options(parser, NAME)
    parser.add_argument("--games", type=positive, default=None, help="per pairing (run)")
    parser.add_argument(
        "--edition", choices=EDITIONS, action="append", help="run: repeat for both (default)"
    )
    parser.add_argument("--quick", action="store_true", help="a tiny pool (a smoke test)")
    parser.add_argument(
        "--fugitive", action="append", metavar="BOT", help="repeat: these Fugitives, not the pool"
    )
    parser.add_argument(
        "--marshal", action="append", metavar="BOT", help="repeat: these Marshals, not the pool"
    )
    parser.add_argument("--workers", type=positive, default=None, help="default: every core")
    parser.add_argument("--samples", type=positive, default=1000, help="bootstrap (matrix)")
    args = parser.parse_args()
    db, image = output_paths(args, NAME)
    fugitives = args.fugitive or (QUICK_FUGITIVES if args.quick else FUGITIVES)
    marshals = args.marshal or (QUICK_MARSHALS if args.quick else MARSHALS)
    if args.command == "run":
        games = args.games or (QUICK_GAMES if args.quick else 100)
        with stoppable():  # the first Ctrl-C or SIGTERM stops the whole study
            run(db, games, args.workers, args.edition or EDITIONS, fugitives, marshals)
    elif args.command == "psro":
        games = args.games or (QUICK_GAMES if args.quick else 100)
        family = args.fugitive or (QUICK_FAMILY if args.quick else FAMILY)
        pool = args.marshal or (QUICK_MARSHALS if args.quick else ORACLE_MARSHALS)
        with stoppable():
            for edition in args.edition or EDITIONS:
                psro(db, games, args.workers, edition, family, pool)
    else:
        matrix(db, image, fugitives, marshals, args.samples)


if __name__ == "__main__":
    main()
