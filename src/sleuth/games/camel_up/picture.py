"""The Camel Up table as one seat sees it: the track with its camel stacks and desert tiles,
the leg tickets left, the dice still in the pyramid, the money, this leg's bets and the
overall piles (other players' cards face down: ``?``, the seat's own with their camel).  Drawn
from the seat's table as its view rebuilds it (:class:`~sleuth.games.camel_up.belief.CamelBelief`,
which never holds another seat's hidden card)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sleuth.core.events import Event, View
from sleuth.core.game import Game
from sleuth.core.plugins import named
from sleuth.games.camel_up.belief import CamelBelief
from sleuth.games.camel_up.rules import HIDDEN, TICKETS, CamelUpGame
from sleuth.games.camel_up.track import GREY_DIE, OASIS, TRACK_LENGTH, stacks
from sleuth.render.svg import document, tag, text

COLOURS = {
    "blue": "#3a78d6",
    "green": "#3aa457",
    "orange": "#f08a24",
    "yellow": "#f2d13a",
    "white": "#f4f4f4",
    "red": "#d23c3c",
    "purple": "#8a4fc2",
    "black": "#222222",
}
SPACE = 46
WIDTH = TRACK_LENGTH * SPACE + 2 * SPACE


def svg(game: Game[Any], view: View, legal: Sequence[str]) -> str:
    """The table from ``view`` alone."""
    assert isinstance(game, CamelUpGame)
    state = CamelBelief.from_view(game, view).state
    body = [text(8, 16, f"leg {state.leg}", font_weight=700)]
    top = 30
    piles = stacks(state.order) if state.order is not None else {}
    tallest = max((len(camels) for camels in piles.values()), default=1)
    floor = top + 24 * tallest + 6  # room for the tallest stack, no more
    for index in range(TRACK_LENGTH):
        x = SPACE + index * SPACE
        tile = state.tiles.get(index)
        action = next((a for a in legal if a.startswith(f"tile {index + 1} ")), None)
        fill = "#f6ecd0" if tile is None else ("#cfe9c4" if tile == OASIS else "#f3c9c2")
        parts = [
            tag("rect", x=x, y=floor, width=SPACE - 2, height=30, fill=fill, stroke="#8a7a5a"),
            text(x + SPACE / 2 - 1, floor + 20, index + 1, text_anchor="middle"),
        ]
        if tile is not None:
            owner = state.tile_owner.get(index)
            sign = "+1" if tile == OASIS else "−1"
            parts.append(
                text(
                    x + SPACE / 2 - 1,
                    floor + 46,
                    f"{sign} p{owner}",
                    text_anchor="middle",
                    font_size=11,
                )
            )
        body.append(
            tag("g", "".join(parts), class_="space", data_space=index + 1, data_action=action)
        )
    for index, camels in piles.items():
        x = SPACE + max(-1, min(index, TRACK_LENGTH)) * SPACE
        for level, camel in enumerate(camels):
            name = game.camel_name(camel)
            y = floor - 24 * (level + 1)
            body.append(
                tag(
                    "g",
                    tag(
                        "rect",
                        x=x + 3,
                        y=y,
                        width=SPACE - 8,
                        height=22,
                        rx=5,
                        fill=COLOURS.get(name, "#999"),
                        stroke="#1d2330",
                    )
                    + text(
                        x + SPACE / 2 - 1,
                        y + 15,
                        name[:3],
                        text_anchor="middle",
                        font_size=11,
                        fill="white"
                        if name in ("black", "blue", "purple", "red", "green")
                        else "#1d2330",
                    ),
                    class_="camel",
                    data_camel=name,
                )
            )
    y = floor + 70
    body.append(text(8, y, "Leg tickets (next value)", font_weight=700))
    tickets = TICKETS[game.edition]
    for camel in range(5):
        name = game.camel_name(camel)
        left = tickets[state.taken[camel]] if state.taken[camel] < len(tickets) else None
        x = 8 + camel * 92
        body.append(
            tag(
                "g",
                tag(
                    "rect",
                    x=x,
                    y=y + 8,
                    width=84,
                    height=28,
                    rx=5,
                    fill=COLOURS.get(name, "#999"),
                    stroke="#1d2330",
                    opacity=1 if left else 0.35,
                )
                + text(
                    x + 42,
                    y + 27,
                    f"{name} {left if left else '–'}",
                    text_anchor="middle",
                    font_size=12,
                ),
                class_="ticket",
                data_action=f"leg {name}" if f"leg {name}" in legal else None,
            )
        )
    y += 56
    dice = [name for die, name in _dice_names(game) if state.dice >> die & 1]
    body.append(text(8, y, "In the pyramid: " + (", ".join(dice) or "none"), font_size=13))
    y += 24
    money = ", ".join(
        f"{'you' if seat == view.seat else f'p{seat}'} {coins}"
        for seat, coins in enumerate(state.money)
    )
    body.append(text(8, y, f"Money: {money}", font_size=13))
    y += 24
    bets = "; ".join(
        f"{'you' if seat == view.seat else f'p{seat}'} {game.camel_name(camel)} {value}"
        for seat, camel, value in state.leg_bets
    )
    body.append(text(8, y, f"This leg's bets: {bets or 'none'}", font_size=13))
    for pile, cards in zip(("winner", "loser"), state.piles, strict=True):
        y += 24
        shown = ", ".join(
            f"{'you' if seat == view.seat else f'p{seat}'}: "
            f"{'?' if camel == HIDDEN else game.camel_name(camel)}"
            for seat, camel in cards
        )
        body.append(
            text(8, y, f"Overall {pile} pile: {shown or 'empty'}", font_size=13, class_="pile")
        )
    y += 16
    return document(
        WIDTH, y, "".join(body), "Camel Up: the track, the tickets and the bets", min_width=700
    )


def _dice_names(game: CamelUpGame) -> list[tuple[int, str]]:
    dice = [(die, game.camel_name(die)) for die in range(5)]
    if game.edition == 2:
        dice.append((GREY_DIE, "grey"))
    return dice


def describe(
    game: Game[Any], event: Event, viewer: int | None, names: Sequence[str | None]
) -> str | None:
    """Camel Up's events in words (seats as p0, p1, ..., after their people's ``names``: ``Ann
    (p1)``; the ``viewer``'s as you)."""
    public = event.public

    def who(seat: int) -> str:
        return "you" if seat == viewer else named(f"p{seat}", seat, names)

    if event.kind == "overall_bet":
        camel = f" on {event.private['camel']}" if event.private else " (card face down)"
        return f"{who(public['seat'])} bet on the overall {public['pile']}{camel}"
    if event.kind == "die":
        tile = f", tile at {public['tile']}" if public["tile"] is not None else ""
        return (
            f"{who(public['seat'])} rolled {public['colour']} {public['value']}: "
            f"{public['camel']} {public['from']} → {public['to']}{tile}"
        )
    if event.kind == "leg_bet":
        return f"{who(public['seat'])} took the {public['camel']} leg ticket ({public['value']})"
    if event.kind == "tile":
        return f"{who(public['seat'])} put the {public['side']} tile on {public['space']}"
    if event.kind == "leg_scored":
        return f"leg {public['leg']} scored: {public['first']} first, {public['second']} second"
    if event.kind == "game_over":
        return f"the race is over: {public['winner']} wins, {public['loser']} is last"
    if event.kind == "roll":
        takes = "you take" if public["seat"] == viewer else f"{who(public['seat'])} takes"
        return f"{takes} a pyramid ticket" + (" (forced)" if public["forced"] else "")
    if event.kind == "start":
        spaces = "; ".join(f"{space}: {', '.join(camels)}" for space, camels in public["stacks"])
        return f"the camels start (bottom to top): {spaces}"
    if event.kind == "overall_scored":
        cards = ", ".join(
            f"{who(seat)} {camel} {amount:+d}" for seat, camel, amount in public["cards"]
        )
        return f"the overall {public['pile']} pile pays: {cards}"
    if event.kind == "capped":
        return f"the turn limit ({public['turns']}) is reached: the dice roll by themselves"
    return None
