"""The Fugitive table as one seat sees it: the route of hideouts (face-down or revealed, with
their sprint card counts), the three piles and the seat's own hand.  The Fugitive sees his own
face-down values and sprint cards; the Marshal sees ``?`` (her deduction is the assistant's
job: ``/assist``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sleuth.core.events import Event, View
from sleuth.core.game import Game
from sleuth.core.plugins import named
from sleuth.games.fugitive.engine.cards import PILES, START_HAND
from sleuth.games.fugitive.rules import MARSHAL
from sleuth.render.svg import document, tag, text

WORDS = ("the Fugitive", "the Marshal")
"""How the events call seat 0 and seat 1."""

PER_ROW = 5
CARD_W, CARD_H, GAP = 56, 78, 14
WIDTH = PER_ROW * (CARD_W + GAP) + GAP


def svg(game: Game[Any], view: View, legal: Sequence[str]) -> str:
    """The table from ``view`` alone."""
    route = _route(view.events)
    body = [text(GAP, 18, "The route", font_weight=700)]
    y = 28
    for index, hideout in enumerate(route):
        x = GAP + (index % PER_ROW) * (CARD_W + GAP)
        top = y + (index // PER_ROW) * (CARD_H + 46)
        body.append(_card(x, top, index, hideout))
    y += ((len(route) - 1) // PER_ROW + 1) * (CARD_H + 46) + 10
    body.append(text(GAP, y + 14, "Piles (cards left)", font_weight=700))
    left = _piles_left(view.events)
    for pile, count in enumerate(left):
        x = GAP + pile * 120
        body.append(
            tag(
                "g",
                tag(
                    "rect",
                    x=x,
                    y=y + 22,
                    width=100,
                    height=40,
                    rx=6,
                    fill="#e9edf5",
                    stroke="#1d2330",
                )
                + text(x + 50, y + 47, f"pile {pile + 1}: {count}", text_anchor="middle"),
                class_="pile",
                data_action=f"draw {pile + 1}" if f"draw {pile + 1}" in legal else None,
            )
        )
    y += 80
    hand = _hand(view)
    body.append(text(GAP, y + 14, f"Your hand ({len(hand)} cards)", font_weight=700))
    for index, card in enumerate(hand):
        x = GAP + (index % 7) * 46
        top = y + 22 + (index // 7) * 40
        body.append(
            tag(
                "g",
                tag("rect", x=x, y=top, width=40, height=34, rx=4, fill="#fff7e0", stroke="#1d2330")
                + text(x + 20, top + 22, card, text_anchor="middle"),
                class_="hand-card",
            )
        )
    y += 30 + ((len(hand) - 1) // 7 + 1) * 40
    return document(WIDTH, y, "".join(body), "Fugitive: the route, the piles and your hand")


def _card(x: float, y: float, position: int, hideout: dict[str, Any]) -> str:
    value = hideout["value"]
    up = hideout["up"]
    fill = "#ffffff" if up else "#c9d3e6"
    label = "?" if value is None else str(value)
    parts = [
        tag("rect", x=x, y=y, width=CARD_W, height=CARD_H, rx=6, fill=fill, stroke="#1d2330"),
        text(x + CARD_W / 2, y + CARD_H / 2 + 8, label, text_anchor="middle", font_size=22),
        text(x + 4, y + 14, position, font_size=10, fill="#5b6475"),
    ]
    sprints = hideout["sprints"]
    if sprints:
        shown = " ".join(map(str, hideout["sprint_cards"])) if hideout["sprint_cards"] else ""
        parts.append(
            text(
                x + CARD_W / 2,
                y + CARD_H + 14,
                f"+{sprints} {shown}".strip(),
                text_anchor="middle",
                font_size=11,
            )
        )
    state = "face-up" if up else "face-down"
    return tag("g", "".join(parts), class_=f"hideout {state}", data_position=position)


def _route(events: Sequence[Event]) -> list[dict[str, Any]]:
    """The route as the seat sees it: position 0 is the start, 0, face up."""
    route: list[dict[str, Any]] = [{"value": 0, "up": True, "sprints": 0, "sprint_cards": ()}]
    for event in events:
        public = event.public
        if event.kind == "placed":
            value = public.get("value")
            cards: tuple[int, ...] = ()
            if event.private is not None:
                value = event.private["value"]
                cards = tuple(event.private["sprint_cards"])
            route.append(
                {
                    "value": value,
                    "up": "value" in public,
                    "sprints": public["sprints"],
                    "sprint_cards": cards,
                }
            )
        elif event.kind == "revealed":
            hideout = route[int(public["position"])]
            hideout["value"], hideout["up"] = public["value"], True
        elif event.kind == "route":
            for index, value in enumerate(public["hideouts"], start=1):
                route[index]["value"], route[index]["up"] = value, True
    return route


def _piles_left(events: Sequence[Event]) -> list[int]:
    left = [len(pile) for pile in PILES]
    for event in events:
        if event.kind == "drew":
            left[int(event.public["pile"]) - 1] -= 1
    return left


def _hand(view: View) -> list[int]:
    """The seat's own cards: what it drew (its private draws), and for the Fugitive his start
    hand, less what he placed."""
    hand = set() if view.seat == MARSHAL else set(START_HAND)
    for event in view.events:
        if event.private is None:
            continue
        if event.kind == "drew":
            hand.add(int(event.private["card"]))
        elif event.kind == "placed":
            hand.discard(int(event.private["value"]))
            hand.difference_update(event.private["sprint_cards"])
    return sorted(hand)


def describe(
    game: Game[Any], event: Event, viewer: int | None, names: Sequence[str | None]
) -> str | None:
    """The Fugitive's events in words (the Fugitive and the Marshal after their people's
    ``names``)."""
    public = event.public
    who = {seat: named(word, seat, names) for seat, word in enumerate(WORDS)}
    if event.kind == "drew":
        card = f" the {event.private['card']}" if event.private else " a card"
        bonus = " (bonus)" if public["bonus"] else ""
        return f"{who[int(public['seat'])]} drew{card} from pile {public['pile']}{bonus}"
    if event.kind == "chose_pile":
        return f"{who[int(public['seat'])]} draws from pile {public['pile']}"
    if event.kind == "placed":
        if event.private is not None:
            sprint = " ".join(map(str, event.private["sprint_cards"]))
            also = f" with sprint cards {sprint}" if sprint else ""
            return f"hideout {public['position']}: {event.private['value']}{also}"
        value = f" {public['value']}" if "value" in public else " face down"
        return f"hideout {public['position']}:{value} with {public['sprints']} sprint cards"
    if event.kind == "guessed":
        numbers = " ".join(map(str, public["numbers"]))
        return f"{who[1]} guessed {numbers}: {'hit' if public['hit'] else 'miss'}"
    if event.kind == "revealed":
        return f"hideout {public['position']} revealed: {public['value']}"
    if event.kind == "passed":
        return f"{who[0]} passed"
    if event.kind == "skipped":
        return f"{who[1]} made no guess"
    if event.kind == "manhunt":
        return f"42 is down: the Manhunt begins (highest face-up hideout {public['highest']})"
    if event.kind == "game_over":
        winner = "nobody" if public["winner"] is None else who[int(public["winner"])]
        return f"game over: {winner} wins ({public['reason'].replace('_', ' ')})"
    if event.kind == "route":
        return "the route: " + " ".join(map(str, public["hideouts"]))
    return None
