"""Camel Up's own commands: ``sleuth camel-up odds`` (exact odds and the value of every
action) and ``sleuth export camel-up`` (one CSV row per action).

The game's own commands as data (:class:`~sleuth.core.plugins.CommandsPlugin`): the command line
builds them and prints their answers, and only it imports this module (``SPEC.commands``
names :data:`COMMANDS`)."""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import duckdb

from sleuth.core.errors import SleuthError
from sleuth.core.plugins import AS_JSON, Answer, CommandsPlugin, GameCommand, Param
from sleuth.core.registry import game_spec
from sleuth.games.camel_up.advice import advise
from sleuth.games.camel_up.assistant import odds_json, render_advice
from sleuth.games.camel_up.export import action_rows, columns
from sleuth.games.camel_up.plugins import prepare
from sleuth.games.camel_up.position import read_position
from sleuth.games.camel_up.rules import CamelUpGame

STATE_EXAMPLE = (
    '{"track": {"4": ["blue"], "5": ["green", "orange"], "7": ["yellow"], "8": ["white"]}, '
    '"to_move": ["blue", "white"], "tiles": {"10": "oasis"}}'
)
"""The position in ``odds --help`` (a test runs it): every camel placed, two dice left."""


def _odds(values: Mapping[str, Any]) -> Answer:
    position = read_position(values["state"])
    prepare(position.game)
    advice = advise(position, rollouts=values["rollouts"], seed=values["seed"], all_tiles=True)
    return Answer(render_advice(position, advice), odds_json(position, advice))


def _export(values: Mapping[str, Any]) -> Answer:
    db: Path = values["db"]
    csv_path: Path = values["csv"]
    run: str | None = values["run"]
    if not db.is_file():
        raise SleuthError(f"no results file at {db}")
    query = (
        "SELECT run_id, game_index, seed, options, bots, actions FROM games "
        "WHERE game = 'camel-up' AND (? IS NULL OR starts_with(run_id, ?)) "
        "ORDER BY run_id, game_index"
    )
    try:
        with duckdb.connect(str(db), read_only=True) as con:
            stored = con.execute(query, [run, run]).fetchall()
    except duckdb.Error as exc:
        raise SleuthError(f"cannot read results from {db}: {exc}") from None
    if not stored:
        which = f" of run {run}" if run else ""
        raise SleuthError(f"{db} holds no Camel Up games{which}")
    missing = [f"{r[0][:8]}/{r[1]}" for r in stored if not r[5]]
    if missing:
        raise SleuthError(
            f"{len(missing)} games were stored without their actions (by an older version), "
            f"e.g. {missing[0]}; play them again to export them"
        )
    spec = game_spec("camel-up")
    players = max(json.loads(r[3])["players"] for r in stored)
    rows = 0
    try:
        with csv_path.open("w", newline="") as out:
            writer = csv.DictWriter(out, columns(players))
            writer.writeheader()
            for run_id, index, seed, options, bots, actions in stored:
                game = spec.make(json.loads(options), canonical=True)
                assert isinstance(game, CamelUpGame)
                ids = {"run_id": run_id, "game_index": index}
                for row in action_rows(game, seed, bots, actions, ids):
                    writer.writerow(row)
                    rows += 1
    except OSError as exc:
        raise SleuthError(f"cannot write {csv_path}: {exc.strerror or exc}") from None
    return Answer(f"{rows} rows from {len(stored)} games written to {csv_path}")


COMMANDS = CommandsPlugin(
    help="Camel Up tools: exact odds and advice.",
    commands=(
        GameCommand(
            "odds",
            "Exact leg and race odds of a position, and the expected coins of every legal action "
            "of the player to move.",
            _odds,
            (
                Param(
                    "state",
                    "The position: a JSON object or a file holding one, such as "
                    f"examples/camel-up-state.json, or {STATE_EXAMPLE} (all fields in "
                    "docs/camel-up.md).",
                    required=True,
                ),
                AS_JSON,
                Param(
                    "rollouts",
                    "2nd edition: rollouts for later legs.",
                    kind=int,
                    default=20_000,
                    minimum=1,
                ),
                Param("seed", "2nd edition: the rollouts' seed.", kind=int, default=0),
            ),
        ),
    ),
    export=GameCommand(
        "camel-up",
        "Write one CSV row per action of every stored Camel Up game (the source's game logs, "
        "merged): the action, the die, every camel's space and stack height, every player's "
        "money and tile, the overall piles and the result.",
        _export,
        (
            Param("db", "The DuckDB results file of `sleuth play`.", kind=Path, required=True),
            Param("csv", "The CSV file to write.", kind=Path, required=True),
            Param("run", "Only this run (its id or a prefix of it)."),
        ),
    ),
)
"""``sleuth camel-up odds`` and ``sleuth export camel-up``."""
