"""One row per action: the source's game-log table, from a stored game (T1).

:func:`action_rows` replays a game from its options, seed, bots and action texts (as the results
store keeps them) and yields one row per player action, after a row 0 for the starting
position.  A roll and the die it drew make one row; a forced roll after the turn cap (T4) is a
row of kind ``forced roll``.  Each row describes the action and the table *after* it: every
camel's space and stack height (0 = bottom), every player's money and desert tile, and both
overall piles as they stand, with their camels (the log is written after the game, so the
hidden cards can be shown).  Every row also carries the game's result: ``capped`` (T4) and
``winners``, the seats that share the win.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sleuth.core.errors import IllegalActionError
from sleuth.games.camel_up.actions import CRAZY_NAMES, RACERS, Die, LegBet, OverallBet, PlaceTile
from sleuth.games.camel_up.rules import CamelState, CamelUpGame
from sleuth.games.camel_up.track import MIRAGE, stacks

CAMEL_NAMES = tuple(dict.fromkeys(RACERS[1] + RACERS[2] + CRAZY_NAMES))
"""Every camel name of both editions (a camel absent from a game has empty columns)."""
ACTION_COLUMNS = (
    "run_id", "game_index", "seed", "row", "turn", "leg", "seat", "bot", "action", "kind",
    "camel", "pile", "die", "value", "distance", "tile_space", "tile_side", "tile_hit",
    "tile_owner",
)  # fmt: skip
RESULT_COLUMNS = ("winner_bets", "loser_bets", "capped", "winners")


def columns(players: int) -> list[str]:
    """The CSV header for games of at most ``players`` seats."""
    camels = [f"{name}_{what}" for name in CAMEL_NAMES for what in ("space", "height")]
    seats = [f"player{p}_{what}" for p in range(players) for what in ("money", "tile_space",
                                                                        "tile_side")]  # fmt: skip
    return [*ACTION_COLUMNS, *camels, *seats, *RESULT_COLUMNS]


def action_rows(
    game: CamelUpGame,
    seed: int,
    bots: Sequence[str],
    actions: Sequence[str],
    ids: dict[str, Any] | None = None,
) -> Iterator[dict[str, Any]]:
    """The rows of one game (see the module docstring); ``ids`` adds ``run_id``/``game_index``.

    A malformed action list raises ``IllegalActionError`` naming the action."""
    state = game.new_initial_state()
    rows: list[dict[str, Any]] = []
    pending: dict[str, Any] | None = None
    row: dict[str, Any]
    for number, text in enumerate(actions):
        try:
            action = game.parse_action(text)
            seat, leg, turns = state.seat, state.leg, state.turns
            forced = isinstance(action, Die) and not state.rolling
            events = state.apply(action)
        except (IllegalActionError, ValueError) as exc:
            raise IllegalActionError(f"action {number} ({text!r}): {exc}") from None
        if state.order is not None and number == 0:
            rows.append(_row(state, {"row": 0, "action": text, "kind": "start", "turn": 0}))
            continue
        if isinstance(action, Die):
            forced_row: dict[str, Any] = {"action": "roll", "kind": "forced roll"}
            row = pending if pending is not None else forced_row
            if forced:
                row.update(seat=seat, leg=leg, turn=turns + 1)
            die = next(e for e in events if e.kind == "die").public
            row.update(
                camel=die["camel"],
                die="grey" if game.edition == 2 and die["colour"] in CRAZY_NAMES else die["colour"],
                value=die["value"],
                distance=die["to"] - die["from"],
                tile_hit=die["tile"],
                tile_owner=die["owner"],
            )
            rows.append(_row(state, row))
            pending = None
            continue
        row = {"seat": seat, "leg": leg, "turn": turns + 1, "action": text}
        if isinstance(action, LegBet):
            row.update(kind="leg bet", camel=action.camel)
        elif isinstance(action, PlaceTile):
            row.update(kind="tile", tile_space=action.space, tile_side=action.side)
        elif isinstance(action, OverallBet):
            row.update(kind="overall bet", camel=action.camel, pile=action.pile)
        else:
            row.update(kind="roll")
            pending = row
            continue
        rows.append(_row(state, row))
    if not state.is_terminal():
        raise IllegalActionError(f"the {len(actions)} actions do not finish the game")
    name = game.camel_name
    piles = [[f"{seat}:{name(camel)}" for seat, camel in pile] for pile in state.piles]
    winners = " ".join(str(seat) for seat, share in enumerate(state.wins()) if share > 0)
    for index, row in enumerate(rows):
        sizes = row.pop("pile_sizes")
        row.update(
            winner_bets=" ".join(piles[0][: sizes[0]]),
            loser_bets=" ".join(piles[1][: sizes[1]]),
            capped=state.capped,
            winners=winners,
            row=index,
            seed=seed,
            **(ids or {}),
        )
        if row.get("seat") is not None:
            row["bot"] = bots[row["seat"]]
        yield row


def _row(state: CamelState, row: dict[str, Any]) -> dict[str, Any]:
    """``row`` completed with the table after the action."""
    game = state.game
    for index, camels in stacks(state.order or ()).items():
        for height, camel in enumerate(camels):
            name = game.camel_name(camel)
            row[f"{name}_space"] = index + 1
            row[f"{name}_height"] = height
    for seat in range(game.players):
        row[f"player{seat}_money"] = state.money[seat]
        index = state.tile_of[seat]
        if index >= 0:
            row[f"player{seat}_tile_space"] = index + 1
            row[f"player{seat}_tile_side"] = "mirage" if state.tiles[index] == MIRAGE else "oasis"
    row["pile_sizes"] = (len(state.piles[0]), len(state.piles[1]))
    return row
