"""A position typed by a person: the JSON state of ``sleuth camel-up odds --state``.

Required: ``track`` (printed space -> camels bottom to top) and ``to_move`` (the colours of the
dice still in the pyramid; ``grey`` for the 2nd edition's grey die).  Optional: ``edition``
(1), ``tiles`` (space -> ``oasis``/``mirage``, alias ``cheering``/``booing``), ``players`` (4),
``my_tile`` (the space of the mover's own tile, one of ``tiles``), ``leg_tickets`` (colour ->
tickets left in its stack this leg; all by default), ``piles`` (``{"winner": n, "loser": m}``:
hidden cards of other players already placed) and ``my_cards`` (the colours the mover has
already bet on overall, wherever those cards lie).  The mover is seat 0; every other field
starts fresh.

Every mistake is a :class:`~sleuth.core.errors.PositionError` naming the field and the value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from sleuth.core.errors import OptionError, PositionError
from sleuth.core.numbers import whole_number
from sleuth.games.camel_up.actions import CRAZY_NAMES, SIDE_ALIASES
from sleuth.games.camel_up.rules import HIDDEN, SIDE_VALUE, CamelState, CamelUpGame
from sleuth.games.camel_up.track import GREY_DIE, TRACK_LENGTH, arrangement, tile_blocks

FIELDS = frozenset(
    ("edition", "track", "to_move", "tiles", "players", "my_tile", "leg_tickets", "piles",
     "my_cards")
)  # fmt: skip


def read_position(text: str) -> CamelState:
    """The state described by ``text``: a JSON object, or the path of a file holding one."""
    source = "--state"
    stripped = text.strip()
    if not stripped.startswith(("{", "[", '"')):
        path = Path(text)
        try:
            stripped = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise PositionError(f"{text}: not a JSON object and not a readable file "
                                f"({exc.strerror or exc})") from None  # fmt: skip
        except UnicodeDecodeError:
            raise PositionError(f"{text}: not a text file") from None
        source = str(path)
    try:
        obj = json.loads(stripped)
    except json.JSONDecodeError as exc:
        raise PositionError(f"{source}: not valid JSON: {exc}") from None
    if not isinstance(obj, dict):
        raise PositionError(f"{source}: the state must be a JSON object")
    return position(obj)


def position(obj: Mapping[str, Any]) -> CamelState:
    """The state of a parsed JSON object (see the module docstring)."""
    unknown = sorted(set(obj) - FIELDS)
    if unknown:
        raise PositionError(f"unknown field {unknown[0]!r}; fields: {', '.join(sorted(FIELDS))}")
    for required in ("track", "to_move"):
        if required not in obj:
            raise PositionError(f"the state needs {required!r}")
    for field, default in (("edition", 1), ("players", 4)):
        value = obj.get(field, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise PositionError(f"{field} must be a whole number, not {value!r}")
    try:
        game = CamelUpGame(edition=obj.get("edition", 1), players=obj.get("players", 4))
    except OptionError as exc:
        raise PositionError(str(exc)) from None
    state = game.new_initial_state()
    state.start(_track(game, obj["track"]))
    state.dice = _dice(game, obj["to_move"])
    _place_tiles(state, obj.get("tiles", {}), obj.get("my_tile"))
    _tickets(state, obj.get("leg_tickets", {}))
    _piles(state, obj.get("piles", {}), obj.get("my_cards", []))
    return state


def _camel(game: CamelUpGame, name: object, where: str) -> int:
    camel = game.camel_ids.get(name) if isinstance(name, str) else None
    if camel is None:
        known = ", ".join(game.camel_ids)
        raise PositionError(f"{where}: unknown camel {name!r} (edition {game.edition}: {known})")
    return camel


def _space(key: object, where: str) -> int:
    text = str(key)
    if isinstance(key, bool) or not (isinstance(key, int) or (text.isascii() and text.isdigit())):
        raise PositionError(f"{where}: {key!r} is not a space number")
    space = key if isinstance(key, int) else whole_number(text)
    if not 1 <= space <= TRACK_LENGTH:
        raise PositionError(f"{where}: space {space} is off the track (1-{TRACK_LENGTH})")
    return space


def _track(game: CamelUpGame, track: object) -> tuple[int, ...]:
    if not isinstance(track, dict):
        raise PositionError("track: expected an object of space -> [camels, bottom to top]")
    stacks: dict[int, list[int]] = {}
    where: dict[int, int] = {}
    for key, names in track.items():
        space = _space(key, "track")
        if not isinstance(names, list):
            raise PositionError(f"track: space {space} must list its camels, bottom to top")
        for name in names:
            camel = _camel(game, name, f"track, space {space}")
            if camel in where:
                raise PositionError(
                    f"track: {name} is on space {where[camel]} and on space {space}"
                )
            where[camel] = space
            stacks.setdefault(space - 1, []).append(camel)
    missing = [n for n, c in game.camel_ids.items() if c not in where]
    if missing:
        raise PositionError(f"track: {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
                            "missing")  # fmt: skip
    return arrangement(stacks)


def _dice(game: CamelUpGame, to_move: object) -> int:
    if not isinstance(to_move, list):
        raise PositionError("to_move: expected a list of dice colours")
    mask = 0
    for name in to_move:
        if name == "grey" and game.edition == 2:
            die = GREY_DIE
        elif isinstance(name, str) and name in game.racers:
            die = game.racers.index(name)
        else:
            extra = ", grey" if game.edition == 2 else ""
            hint = " (the grey die moves them)" if name in CRAZY_NAMES and game.edition == 2 else ""
            raise PositionError(
                f"to_move: no {name!r} die{hint}; dice: {', '.join(game.racers)}{extra}"
            )
        if mask >> die & 1:
            raise PositionError(f"to_move: the {name} die is listed twice")
        mask |= 1 << die
    left = bin(mask).count("1")
    if left <= (1 if game.edition == 2 else 0):
        raise PositionError(
            f"to_move: {left} dice left: that leg is over (list the dice still in the pyramid)"
        )
    return mask


def _place_tiles(state: CamelState, tiles: object, my_tile: object) -> None:
    if not isinstance(tiles, dict):
        raise PositionError("tiles: expected an object of space -> oasis or mirage")
    spaces = sorted(_space(key, "tiles") for key in tiles)
    sides = {_space(key, "tiles"): side for key, side in tiles.items()}
    occupied = {(code >> 3) + 1 for code in state.order or ()}
    for space in spaces:
        side = SIDE_ALIASES.get(str(sides[space]))
        if side is None:
            raise PositionError(f"tiles: space {space} has {sides[space]!r}, not oasis or mirage")
        if space == 1:
            raise PositionError("tiles: no tile may lie on space 1")
        if space in occupied:
            raise PositionError(f"tiles: the tile on space {space} is under a camel")
        if space - 1 in sides:
            raise PositionError(f"tiles: the tiles on spaces {space - 1} and {space} are adjacent")
        state.tiles[space - 1] = SIDE_VALUE[side]
    mine = None if my_tile is None else _space(my_tile, "my_tile")
    if mine is not None:
        if mine not in sides:
            raise PositionError(f"my_tile: there is no tile on space {mine}")
        _own(state, 0, mine - 1)
    owners = [s for s in spaces if s != mine]
    if len(owners) > state.game.players - 1:
        raise PositionError(
            f"tiles: {len(owners)} tiles of other players, but only {state.game.players - 1} "
            "other players (set players)"
        )
    for seat, space in enumerate(owners, start=1):
        _own(state, seat, space - 1)
    state.blocked = tile_blocks(state.tiles)


def _own(state: CamelState, seat: int, index: int) -> None:
    state.tile_owner[index] = seat
    state.tile_of[seat] = index


def _tickets(state: CamelState, tickets: object) -> None:
    if not isinstance(tickets, dict):
        raise PositionError("leg_tickets: expected an object of camel -> tickets left")
    stack = len(state.game.tickets)
    for name, left in tickets.items():
        camel = _camel(state.game, name, "leg_tickets")
        if camel >= 5 or not isinstance(left, int) or not 0 <= left <= stack:
            raise PositionError(f"leg_tickets: {name} must have 0-{stack} tickets left")
        state.taken[camel] = stack - left
        if left == 0:
            state.open_legs &= ~(1 << camel)


def _piles(state: CamelState, piles: object, mine: object) -> None:
    if not isinstance(piles, dict) or set(piles) - {"winner", "loser"}:
        raise PositionError('piles: expected {"winner": n, "loser": m} (hidden cards placed)')
    others = state.game.players - 1
    most = others * len(state.game.racers)
    counts = [piles.get(pile, 0) for pile in ("winner", "loser")]
    for pile, count in zip(("winner", "loser"), counts, strict=True):
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise PositionError(f"piles: {pile} must be a number of cards, not {count!r}")
    if sum(counts) > most:
        raise PositionError(
            f"piles: {sum(counts)} hidden cards, but the {others} other players hold {most}"
        )
    dealt = 0  # the hidden cards go round the other seats, so none holds more than its own
    for index, count in enumerate(counts):
        for _ in range(count):
            state.piles[index].append((1 + dealt % others, HIDDEN))
            dealt += 1
    if not isinstance(mine, list):
        raise PositionError("my_cards: expected a list of camel colours")
    for name in mine:
        camel = _camel(state.game, name, "my_cards")
        if camel >= 5:
            raise PositionError(f"my_cards: {name} is a crazy camel: no card names it")
        if state.cards[0] >> camel & 1:
            raise PositionError(f"my_cards: {name} is listed twice (you have one card a camel)")
        state.cards[0] |= 1 << camel
