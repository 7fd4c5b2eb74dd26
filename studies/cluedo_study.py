"""The Cluedo strength study: one ``sleuth`` seat against ``velma`` seats and against ``logic``
seats, and one ``velma`` seat against ``logic`` seats, with 3 to 6 players.

    python studies/cluedo_study.py run --games 2000              # every setting
    python studies/cluedo_study.py run --games 200 --only "3 sleuth v velma"
    python studies/cluedo_study.py report                        # Markdown tables

``run`` plays each setting of :func:`settings` up to ``--games`` games.  The single seat
rotates round the table (game i puts it in seat i mod n), and game i of every setting has the
same seed, so the settings meet the same deals and dice as far as the players' choices let
them (paired seeds).  Games are stored as they finish: an interrupted run resumes, and a
larger ``--games`` tops every setting up with new seeds.  ``--only`` takes settings as
``"N A v B"``, comma-separated.  ``report`` prints the single seat's win rate against its fair
share 1/n with 95% Wilson intervals, and each player's mean turns to certainty.

Turns to certainty are not recorded during play (Velma keeps no exact belief): ``report``
replays each stored game from its actions and follows Sleuth's exact deduction from every
seat's view; a seat's count is the number of its own moves made when only one envelope
remained possible for it, read before any correct accusation or the end of the game reveals
the envelope (seats that never got there, or accused wrongly first, are counted apart).  It
measures how much each player's play taught it, whatever its own belief made of it.  The
replays (on every core, ``--workers``) are kept in the database's ``certainty`` table, so each
game is replayed once.
Both commands write to ``--out DIR`` (default ``study-output/``; the database is
``DIR/cluedo-study.duckdb`` unless ``--db`` names another file).
"""

from __future__ import annotations

import argparse
import json
import os
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path
from statistics import mean
from typing import Any

import duckdb
from _args import add_output_options, output_paths, positive, say_nothing_to_play
from _stored import map_stoppable, play_stored, stop_study, stoppable

from sleuth.arena import store
from sleuth.arena.stats import wilson_interval
from sleuth.core.registry import game_spec, make_game
from sleuth.games.cluedo.deduction.belief import CluedoBelief

SEED = 2025
NAME = "cluedo-study"
PLAYERS = (3, 4, 5, 6)
PAIRINGS = (("sleuth", "velma"), ("sleuth", "logic"), ("velma", "logic"))
"""(the single seat, the other seats)."""

REPLAYS = 200
"""Games replayed between two writes of the ``certainty`` table (an interrupted report keeps
what it replayed)."""
REPLAY_CHUNK = 8
"""Games a worker replays at a time: a stop waits for them."""

Setting = tuple[int, str, str]
"""(players, the single seat's bot, the others' bot), bots canonical."""


def settings() -> list[Setting]:
    return [(n, a, b) for n in PLAYERS for a, b in PAIRINGS]


def _canonical(bot: str) -> str:
    return game_spec("cluedo").bot(bot).name


def _setting(options: dict[str, Any], bots: list[str]) -> tuple[Setting, int]:
    """The setting of a stored game, and the single seat."""
    single = next(s for s, bot in enumerate(bots) if bots.count(bot) == 1)
    other = bots[(single + 1) % len(bots)]
    return (int(options["players"]), bots[single], other), single


Row = tuple[str, int, list[str], list[float], list[str], dict[str, Any]]
"""(run id, game index, bots, wins, actions, game options) of a stored game."""


def _stored(db: Path, forfeited: bool = False) -> dict[Setting, list[Row]]:
    """The stored games by setting: those played to their end, or with ``forfeited`` those a
    forfeit ended (a bot that failed, or a move cut short when the run was stopped)."""
    out: dict[Setting, list[Row]] = defaultdict(list)
    if not db.exists():
        return out
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute(
            "select run_id, game_index, options, bots, wins, actions from games "
            "where game = 'cluedo' and (coalesce(termination, '') = 'forfeit') = ?",
            [forfeited],
        ).fetchall()
    for run_id, index, options, bots, wins, actions in rows:
        values = json.loads(options)
        setting, _ = _setting(values, list(bots))
        out[setting].append((run_id, index, list(bots), list(wins), list(actions), values))
    return out


def run(db: Path, games: int, workers: int | None, only: str | None) -> None:
    db.parent.mkdir(parents=True, exist_ok=True)
    store.prepare(db)
    wanted = None if only is None else {w.strip() for w in only.split(",")}
    done = _stored(db)
    anything = False
    for n, single, others in settings():
        if wanted is not None and f"{n} {single} v {others}" not in wanted:
            continue
        key = (n, _canonical(single), _canonical(others))
        played = len(done.get(key, ()))
        if played >= games:
            continue
        anything = True
        print(f"{datetime.now(UTC):%H:%M:%S} {n} players: {single} v {others} ...", flush=True)
        bots, options = [single] + [others] * (n - 1), {"players": n}
        play_stored(db, "cluedo", bots, options, games - played, SEED + played, workers)
        done = _stored(db)
    if not anything:
        say_nothing_to_play(games)


def turns_to_certainty(options: dict[str, Any], actions: list[str]) -> list[int | None]:
    """Each seat's own moves made when its exact deduction first allowed one envelope only
    (None: not before the envelope was revealed, or after its wrong accusation), replaying a
    game of the given options from its actions."""
    game = make_game("cluedo", options)
    players = game.num_players
    state = game.new_initial_state()
    beliefs = [CluedoBelief(seat) for seat in range(players)]
    moves = [0] * players
    out: list[int | None] = [None] * players
    following = [True] * players
    for text in actions:
        for event in state.apply_trusted(game.parse_action(text)):
            if event.kind == "game_over" or (event.kind == "accused" and event.public["correct"]):
                return out
            if event.kind == "accused":
                following[int(event.public["seat"])] = False
            if event.kind == "moved":
                moves[int(event.public["seat"])] += 1
            for seat, belief in enumerate(beliefs):
                if not following[seat]:
                    continue
                before = belief.knowledge
                belief.update(event.seen_by(seat))
                if belief.knowledge is not before and len(belief.posterior.solution_counts()) == 1:
                    out[seat], following[seat] = moves[seat], False
    return out


def _replay_all(
    jobs: list[tuple[str, int, dict[str, Any], list[str]]],
) -> list[tuple[str, int, list[Any]]]:
    return [
        (run_id, index, turns_to_certainty(options, actions))
        for run_id, index, options, actions in jobs
    ]


def _certainty(
    db: Path, stored: dict[Setting, list[Row]], workers: int | None
) -> dict[tuple[str, int], list[Any]]:
    """Turns to certainty by (run id, game index), replaying (on ``workers`` processes) the
    games not replayed yet.  The database is opened for writing only to store each batch of
    replays, so that a ``run`` going on meanwhile is locked out for moments only."""
    known: dict[tuple[str, int], list[Any]] = {}
    with duckdb.connect(str(db), read_only=True) as con:
        tables = {t for (t,) in con.execute("show tables").fetchall()}
        if "certainty" in tables:
            for run_id, index, turns in con.execute("select * from certainty").fetchall():
                known[run_id, index] = list(turns)
    jobs = [
        (run_id, index, options, actions)
        for rows in stored.values()
        for run_id, index, _, _, actions, options in rows
        if (run_id, index) not in known
    ]
    chunks = (jobs[start : start + REPLAY_CHUNK] for start in range(0, len(jobs), REPLAY_CHUNK))
    done: list[tuple[str, int, list[Any]]] = []
    with stoppable() as stop:
        for replayed in map_stoppable(_replay_all, chunks, workers or os.cpu_count() or 1, stop):
            done += replayed
            if len(done) >= REPLAYS:
                _keep(db, done, known)
        _keep(db, done, known)
        if stop.requested:
            stop_study(stop, f"{len(known)} of {len(known) + len(jobs) - len(done)} replays kept")
    return known


def _keep(
    db: Path, done: list[tuple[str, int, list[Any]]], known: dict[tuple[str, int], list[Any]]
) -> None:
    """Store the replays ``done`` in the ``certainty`` table and in ``known``; empty ``done``."""
    if not done:
        return
    with duckdb.connect(str(db)) as con:
        con.execute(
            "create table if not exists certainty "
            "(run_id varchar, game_index integer, turns integer[])"
        )
        con.executemany("insert into certainty values (?, ?, ?)", done)
    known.update({(run_id, index): turns for run_id, index, turns in done})
    done.clear()


def report(db: Path, workers: int | None) -> None:
    if not db.exists():
        raise SystemExit(f"error: {db} does not exist: play the study first (run --db {db})")
    stored = _stored(db)
    forfeits = sum(len(rows) for rows in _stored(db, forfeited=True).values())
    certainty = _certainty(db, stored, workers)
    print("### The single seat's win rate\n")
    print("| players | single seat v others | games | single seat wins (95% interval) | fair share "
          "| no winner |")  # fmt: skip
    print("|---:|---|---:|---|---:|---:|")
    for setting in settings():
        n, single, others = setting
        rows = stored.get((n, _canonical(single), _canonical(others)), [])
        if not rows:
            print(f"| {n} | `{single}` v `{others}` | 0 | not run | {1 / n:.1%} | |")
            continue
        wins = sum(r[3][_setting({"players": n}, r[2])[1]] for r in rows)
        none = sum(1 for r in rows if not any(r[3]))
        low, high = wilson_interval(wins, len(rows))
        print(
            f"| {n} | `{single}` v `{others}` | {len(rows):,} | {wins / len(rows):.1%} "
            f"({low:.1%}–{high:.1%}) | {1 / n:.1%} | {none / len(rows):.1%} |"
        )
    if forfeits:
        ended = (
            "1 game ended by a forfeit is"
            if forfeits == 1
            else (f"{forfeits} games ended by a forfeit are")
        )
        print(f"\n{ended} left out (a failing bot, or a move cut short when a run was "
              "stopped).")  # fmt: skip
    print("\n### Mean turns to certainty (own moves; share of seats that got there)\n")
    print("| players | setting | single seat | other seats |")
    print("|---:|---|---|---|")
    for setting in settings():
        n, single, others = setting
        rows = stored.get((n, _canonical(single), _canonical(others)), [])
        if not rows:
            continue
        alone: list[int | None] = []
        rest: list[int | None] = []
        for run_id, index, bots, _, _, _ in rows:
            seat = _setting({"players": n}, bots)[1]
            turns = certainty[run_id, index]
            alone.append(turns[seat])
            rest.extend(t for s, t in enumerate(turns) if s != seat)
        print(f"| {n} | `{single}` v `{others}` | {_turns(alone)} | {_turns(rest)} |")


def _turns(values: list[int | None]) -> str:
    reached = [v for v in values if v is not None]
    if not reached:
        return f"never (n={len(values):,})"
    return f"{mean(reached):.1f} ({len(reached) / len(values):.0%} of {len(values):,})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("run", "report"))
    add_output_options(parser, NAME)
    parser.add_argument("--games", type=positive, default=2000, help="per setting (run)")
    parser.add_argument("--workers", type=positive, default=None, help="default: every core")
    parser.add_argument("--only", default=None, help="only these settings: 'N A v B,N A v B'")
    args = parser.parse_args()
    db, _ = output_paths(args, NAME)
    if args.command == "run":
        with stoppable():  # the first Ctrl-C or SIGTERM stops the whole study
            run(db, args.games, args.workers, args.only)
    else:
        report(db, args.workers)


if __name__ == "__main__":
    main()
