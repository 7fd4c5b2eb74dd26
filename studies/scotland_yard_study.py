"""The Scotland Yard strength study: every detective player against every Mr. X player.

    python studies/scotland_yard_study.py run --games 1000                  # built-in board
    python studies/scotland_yard_study.py run --games 1000 --map DIR        # and a classic map
    python studies/scotland_yard_study.py report [--map DIR]                # Markdown tables

``run`` plays each pairing of :data:`DETECTIVES` x :data:`MRX` (seats fixed: Mr. X in seat 0,
one seat moving every detective) on Sleuth's own board, and on the board folder ``--map`` names
(the classic London map, for example; or ``$SLEUTH_SCOTLAND_YARD_MAP``), up to ``--games``
games each.  Games already in the database count: an interrupted run resumes, and a larger
``--games`` tops every pairing up with new seeds.  Classic edition, five detectives, every core
(``--workers``).  ``report`` prints the matrix of the detectives' win rates with 95% Wilson
intervals and the CPU seconds each side thought per move, then Mr. X's win rate by start station
(from the deal stored as each game's first action).  Both write to ``--out DIR`` (default
``study-output/``; the database is ``DIR/scotland-yard-study.duckdb`` unless ``--db`` names
another file).
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

import duckdb
from _args import add_output_options, output_paths, positive, say_nothing_to_play
from _stored import play_stored, stoppable

from sleuth.arena import store
from sleuth.arena.stats import wilson_interval
from sleuth.games.scotland_yard import SPEC
from sleuth.games.scotland_yard.rules import BUILTIN, MAP_ENV, resolve_map

SEED = 2026
NAME = "scotland-yard-study"
SEARCH = "ismcts:iterations=300"
"""MCTS at a fixed number of simulations (about 0.1 s a move on one core, less than the source's
Monte Carlo detective needs written plainly): a fixed effort keeps the games alike when the
machine is busy, and the report gives the time each move took."""
DETECTIVES = ("random", "mc", SEARCH)
"""The detective players: the source's Monte Carlo detective at its defaults, and MCTS."""
MRX = ("random", "heuristic", SEARCH)
MATCHED = "ismcts:iterations=1000"
"""MCTS detectives given about the time a move of the source's Monte Carlo detective written
plainly (about 110 ms against 145 ms), on the classic map, against the players that think."""


def boards(map_folder: str | None) -> list[str]:
    """The ``map`` options of the study: the built-in board, and the given folder if any."""
    folder = map_folder or os.environ.get(MAP_ENV)
    return [BUILTIN] + ([resolve_map(folder)] if folder else [])


def _canonical(bot: str) -> str:
    return SPEC.bot(bot).name


Key = tuple[str, str, str, str]
"""(map, edition, Mr. X bot, detectives bot), bots as stored (canonical names)."""


def _done(db: Path) -> dict[Key, list[tuple[object, ...]]]:
    """The stored games by :data:`Key`: (wins, deal, thinking) of each."""
    out: dict[Key, list[tuple[object, ...]]] = defaultdict(list)
    if not db.exists():
        return out
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "select options, bots, wins, actions[1], thinking from games "
            "where game = 'scotland-yard'"
        ).fetchall()
    for options, bots, wins, deal, thinking in rows:
        values = json.loads(options)
        key = (values["map"], values["edition"], bots[0], bots[1])
        out[key].append((wins, deal, json.loads(thinking) if thinking else None))
    return out


def experiments(map_folder: str | None) -> list[tuple[str, str, str, str]]:
    """Every (map, edition, Mr. X bot, detectives bot) of the study: the matrix in the classic
    edition on each board; on the given map, the time-matched search detectives (:data:`MATCHED`)
    against the Mr. X players that think, and the 2014 edition (whose 13 Mr. X start cards the
    published per-station figures use) between the heuristic Mr. X and `mc` detectives."""
    out = [
        (board, "classic", mrx, detectives)
        for board in boards(map_folder)
        for detectives in DETECTIVES
        for mrx in MRX
    ]
    classic = boards(map_folder)[1:]
    out += [(board, "classic", mrx, MATCHED) for board in classic for mrx in MRX[1:]]
    out += [(board, "2014", "heuristic", "mc") for board in classic]
    return out


def run(
    db: Path,
    games: int,
    workers: int | None,
    map_folder: str | None,
    only: str | None,
    map_only: bool = False,
) -> None:
    db.parent.mkdir(parents=True, exist_ok=True)
    store.prepare(db)
    done = _done(db)
    anything = False
    for board, edition, mrx, detectives in experiments(map_folder):
        if only and f"{mrx} v {detectives}" not in only.split(","):
            continue
        if map_only and board == BUILTIN:
            continue
        key = (board, edition, _canonical(mrx), _canonical(detectives))
        played = len(done.get(key, ()))
        if played >= games:
            continue
        anything = True
        started = f"{datetime.now(UTC):%H:%M:%S}"
        print(f"{started} {board} {edition}: {mrx} v {detectives} ...", flush=True)
        bots, options = [mrx, detectives], {"map": board, "edition": edition}
        play_stored(
            db, "scotland-yard", bots, options, games - played, SEED + played, workers,
            rotate=False,
        )  # fmt: skip
        done = _done(db)
    if not anything:
        say_nothing_to_play(games)


def _per_move(rows: list[tuple[object, ...]], seat: int) -> float:
    moves = seconds = 0.0
    for _, _, thinking in rows:
        if isinstance(thinking, list) and len(thinking) > seat:
            moves += thinking[seat][0]
            seconds += thinking[seat][1]
    return seconds / moves if moves else float("nan")


def report(db: Path, map_folder: str | None) -> None:
    if not db.exists():
        raise SystemExit(f"error: {db} does not exist: play the study first (run --db {db})")
    done = _done(db)
    for board in boards(map_folder):
        name = "Sleuth's own board" if board == BUILTIN else f"the map in {Path(board).name}/"
        print(f"### Detectives' win rate on {name}\n")
        print("| detectives \\ Mr. X | " + " | ".join(f"`{m}`" for m in MRX) + " |")
        print("|---|" + "---|" * len(MRX))
        played = {(k[0], k[3]) for k in done}
        extra = [MATCHED] if (board, _canonical(MATCHED)) in played else []
        for detectives in (*DETECTIVES, *extra):
            cells = []
            for mrx in MRX:
                rows = done.get((board, "classic", _canonical(mrx), _canonical(detectives)), [])
                if not rows:
                    cells.append("not run")
                    continue
                wins = sum(float(w[1]) for w, _, _ in rows)  # type: ignore[index]
                low, high = wilson_interval(wins, len(rows))
                cells.append(
                    f"{wins / len(rows):.1%} ({low:.1%}–{high:.1%}), n={len(rows):,}; "
                    f"{_per_move(rows, 1) * 1000:.0f} / {_per_move(rows, 0) * 1000:.0f} ms"
                )
            print(f"| `{detectives}` | " + " | ".join(cells) + " |")
        print(
            "\nEach cell: detectives' win rate (95% interval), games; ms per move "
            "(detectives / Mr. X).\n"
        )
        for edition in ("classic", "2014"):
            _by_start(board, edition, done)


def _by_start(board: str, edition: str, done: dict[Key, list[tuple[object, ...]]]) -> None:
    """Mr. X's win rate by start station over the pairings played on ``board`` in ``edition``
    where neither side plays at random."""
    games: dict[int, list[float]] = defaultdict(list)
    pairings = set()
    for (key_board, key_edition, mrx, detectives), rows in done.items():
        if (key_board, key_edition) != (board, edition) or "random" in (mrx, detectives):
            continue
        pairings.add(f"`{mrx}` v `{detectives}`")
        for wins, deal, _ in rows:
            games[int(str(deal).split()[1])].append(float(wins[0]))  # type: ignore[index]
    if not games:
        return
    ranked = sorted(games.items(), key=lambda item: -sum(item[1]) / len(item[1]))
    print(f"{edition} edition, every game of {', '.join(sorted(pairings))}:\n")
    print("| Mr. X starts at | games | Mr. X wins | 95% interval |")
    print("|---:|---:|---:|---|")
    for station, results in ranked:
        low, high = wilson_interval(sum(results), len(results))
        rate = sum(results) / len(results)
        print(f"| {station} | {len(results):,} | {rate:.1%} | {low:.1%}–{high:.1%} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("run", "report"))
    add_output_options(parser, NAME)
    parser.add_argument("--games", type=positive, default=1000, help="per pairing (run)")
    parser.add_argument("--workers", type=positive, default=None, help="default: every core")
    parser.add_argument("--map", default=None, help="a second board folder (the classic map)")
    parser.add_argument("--only", default=None, help="only these pairings: 'X v D,X v D'")
    parser.add_argument(
        "--map-only", action="store_true", help="run: play on the --map board only, not ours"
    )
    args = parser.parse_args()
    db, _ = output_paths(args, NAME)
    if args.command == "run":
        with stoppable():  # the first Ctrl-C or SIGTERM stops the whole study
            run(db, args.games, args.workers, args.map, args.only, args.map_only)
    else:
        report(db, args.map)


if __name__ == "__main__":
    main()
