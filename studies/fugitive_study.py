"""The Fugitive balance study: run the tournaments, then report.

    python studies/fugitive_study.py run --games 2000   # ~40 min; into study-output/
    python studies/fugitive_study.py report             # tables; study-output/fugitive-study.png

``run`` plays every experiment of :data:`EXPERIMENTS` up to ``--games`` games (1,000 by
default), counting the games already in the database, where it stores them as they finish:
Ctrl-C or SIGTERM stops the whole run keeping every finished game, the same command resumes,
and a larger ``--games`` tops every experiment up with new games (seed 2026 plus the games
already played).  1st edition unless the experiment says otherwise, ``max_rounds=50``, seats
fixed by role, five seconds of CPU time a move, every core (``--workers``).
``report`` prints one Markdown table per question (the Marshal's win rate with its 95% Wilson
interval; a draw counts half) and writes the plot ``fugitive-study.png``; a missing database is
an error.  Both write to ``--out DIR`` (default ``study-output/``, ignored by git; the
database is ``DIR/fugitive-study.duckdb`` unless ``--db`` names another file), so that a run
never overwrites the committed figure in ``docs/img``.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import duckdb
from _args import add_output_options, output_paths, positive, say_nothing_to_play
from _plots import pyplot
from _stored import play_stored, stoppable

from sleuth.arena import store
from sleuth.arena.stats import wilson_interval
from sleuth.games.fugitive import SPEC

SEED = 2026
BASE_OPTIONS = {"max_rounds": 50}
TIME_LIMIT = 5.0
NAME = "fugitive-study"
"""The name of the database and the plot in the output folder."""


@dataclass(frozen=True)
class Experiment:
    question: str
    label: str
    fugitive: str
    marshal: str
    options: tuple[tuple[str, str], ...] = ()

    @property
    def bots(self) -> list[str]:
        return [self.fugitive, self.marshal]

    @property
    def all_options(self) -> dict[str, object]:
        return {**BASE_OPTIONS, **dict(self.options)}


QUESTIONS = {
    "model": "Which Fugitive model should the Marshal's odds assume? (belief Marshal against "
    "the heuristic Fugitive)",
    "draw": "Which pile should the Marshal draw from? (belief Marshal against the heuristic "
    "Fugitive)",
    "guess": "Single or multi-number guesses? (belief Marshal's guess modes against the "
    "heuristic Fugitive)",
    "manhunt": "Aim for the Manhunt, or uncover? (belief Marshal against the heuristic Fugitive)",
    "fugitive": "Which hideouts and sprints should the Fugitive play? (against the belief Marshal)",
    "bluff": "Does bluffing help? (heuristic Fugitive's over-payment rate against the belief "
    "Marshal)",
    "edition": "1st against 2nd edition (the 2nd adds the optional draw after a pass)",
}

H, B = "heuristic", "belief:model=thrifty"
"""The study's players.  The Marshal's model is pinned to ``thrifty``, her default when the study
was run (it is ``frugal`` since), so that the commands reproduce the published tables."""
EXPERIMENTS = (
    Experiment("model", "thrifty (default)", H, B),
    Experiment("model", "uniform", H, "belief:model=uniform"),
    Experiment("draw", "frontier (default)", H, B),
    Experiment("draw", "low", H, f"{B}:draw=low"),
    Experiment("draw", "high (roadblock)", H, f"{B}:draw=high"),
    Experiment("draw", "random", H, f"{B}:draw=random"),
    Experiment("guess", "gamble: certain + most likely (default)", H, B),
    Experiment("guess", "reveal: most hideouts on average", H, f"{B}:guess=reveal"),
    Experiment("guess", "argmax: one number", H, f"{B}:guess=argmax"),
    Experiment("guess", "certain only", H, f"{B}:guess=certain"),
    Experiment("manhunt", "hold numbers >= 30 back (default)", H, B),
    Experiment("manhunt", "name them like any other", H, f"{B}:manhunt=false"),
    Experiment("fugitive", "heuristic (pile choice, hand, bluff 0.25)", H, B),
    Experiment("fugitive", "steady, no dead cards", "steady:dead_cards=0", B),
    Experiment("fugitive", "steady, 1 dead card (L1-like)", "steady", B),
    Experiment("fugitive", "steady, 2 dead cards", "steady:dead_cards=2", B),
    Experiment("bluff", "never", "heuristic:bluff=0", B),
    Experiment("bluff", "a quarter of placements (default)", H, B),
    Experiment("bluff", "half", "heuristic:bluff=0.5", B),
    Experiment("bluff", "always", "heuristic:bluff=1", B),
    Experiment("edition", "heuristic v belief, 1st", H, B),
    Experiment("edition", "heuristic v belief, 2nd", H, B, (("edition", "second"),)),
    Experiment("edition", "steady v belief, 1st", "steady", B),
    Experiment("edition", "steady v belief, 2nd", "steady", B, (("edition", "second"),)),
)


def _key(bots: list[str], options: dict[str, object]) -> str:
    canonical = [SPEC.bot(b).name for b in bots]  # as stored: heuristic:bluff=0.0
    return json.dumps([canonical, sorted((k, str(v)) for k, v in options.items())])


def _done(db: Path) -> dict[str, tuple[int, float]]:
    """(games, Marshal wins) by experiment key, over every run in the database."""
    if not db.exists():
        return {}
    out: dict[str, tuple[int, float]] = {}
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "select bots, options, count(*), sum(wins[2]) from games where game = 'fugitive' "
            "group by all"
        ).fetchall()
    for bots, options, games, wins in rows:
        options = {k: v for k, v in json.loads(options).items() if k in ("edition", "max_rounds")}
        if options.get("edition") == "first":
            del options["edition"]
        key = _key(list(bots), options)
        before = out.get(key, (0, 0.0))
        out[key] = (before[0] + games, before[1] + wins)
    return out


def _experiment_key(e: Experiment) -> str:
    return _key(e.bots, e.all_options)


def run(db: Path, games: int, workers: int | None) -> None:
    db.parent.mkdir(parents=True, exist_ok=True)
    store.prepare(db)
    done = _done(db)
    todo = [e for e in EXPERIMENTS if done.get(_experiment_key(e), (0, 0.0))[0] < games]
    if not todo:
        say_nothing_to_play(games)
    for e in todo:
        played = done.get(_experiment_key(e), (0, 0.0))[0]
        if played >= games:  # played meanwhile (several questions share a pairing)
            continue
        print(f"{datetime.now(UTC):%H:%M:%S} {' v '.join(e.bots)} {e.all_options} ...", flush=True)
        seed = SEED + played  # a top-up batch gets its own seed, so its games are new ones
        play_stored(
            db, "fugitive", e.bots, e.all_options, games - played, seed, workers,
            time_limit=TIME_LIMIT,
        )  # fmt: skip
        done = _done(db)


def report(db: Path, image: Path) -> None:
    if not db.exists():
        raise SystemExit(f"error: {db} does not exist: play the study first (run --db {db})")
    done = _done(db)
    bars: list[tuple[str, list[str], list[float], list[tuple[float, float]]]] = []
    for question, title in QUESTIONS.items():
        print(f"### {title}\n")
        print("| setting | bots | games | Marshal wins | 95% interval |")
        print("|---|---|---:|---:|---|")
        labels, rates, errors = [], [], []
        for e in (e for e in EXPERIMENTS if e.question == question):
            games, wins = done.get(_experiment_key(e), (0, 0.0))
            if not games:
                print(f"| {e.label} | {' v '.join(e.bots)} | not run | | |")
                continue
            low, high = wilson_interval(wins, games)
            rate = wins / games
            print(
                f"| {e.label} | `{e.fugitive}` v `{e.marshal}` | {games:,} | {rate:.2%} | "
                f"{low:.2%}–{high:.2%} |"
            )
            labels.append(e.label)
            rates.append(100 * rate)
            errors.append((100 * (rate - low), 100 * (high - rate)))
        print()
        bars.append((title, labels, rates, errors))
    plt = pyplot()
    if plt is None:
        return
    figure, axes = plt.subplots(len(QUESTIONS), 1, figsize=(8, 2.2 * len(QUESTIONS)))
    for axis, (title, labels, rates, errors) in zip(axes, bars, strict=True):
        axis.barh(labels, rates, xerr=list(zip(*errors, strict=True)) or None, color="#4c72b0")
        axis.set_xlim(min([*rates, 80]) - 5, 100)
        axis.invert_yaxis()
        axis.set_title(title, fontsize=8, loc="left")
        axis.tick_params(labelsize=7)
    axes[-1].set_xlabel("Marshal win rate, % (95% Wilson interval)")
    figure.tight_layout()
    image.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(image, dpi=110)
    print(f"plot: {image}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("run", "report"))
    add_output_options(parser, NAME)
    parser.add_argument("--games", type=positive, default=1000, help="per experiment (run)")
    parser.add_argument("--workers", type=positive, default=None, help="default: every core")
    args = parser.parse_args()
    db, image = output_paths(args, NAME)
    if args.command == "run":
        with stoppable():  # the first Ctrl-C or SIGTERM stops the whole study
            run(db, args.games, args.workers)
    else:
        report(db, image)


if __name__ == "__main__":
    main()
