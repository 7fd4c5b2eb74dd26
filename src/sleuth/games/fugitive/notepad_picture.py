"""Fugitive's picture in the web app's assistant: a heat map of each position's possible
values (rows: positions; columns: 1-41), darker for likelier, face-up hideouts solid, from the
session's own deduction.

Invariant: :func:`notepad` never raises for a session in any state (an empty string before
the first hideout).
"""

from __future__ import annotations

from typing import Any

from sleuth.render.svg import HEAT, document, tag, text, title


def notepad(session: Any) -> str:
    """Each position's possible values as a heat map."""
    deduction = session.table.deduction
    slots = deduction.belief.timeline.slots
    if not slots:
        return ""
    probabilities = deduction.counts.probabilities()
    low, high = 1, 41
    cell, left, top = 14, 34, 24
    width = left + cell * (high - low + 1) + 8
    height = top + cell * len(slots) + 24
    body = []
    for value in range(low, high + 1, 5):
        x = left + cell * (value - low) + cell / 2
        body.append(text(x, top - 8, value, text_anchor="middle", font_size=10))
    for row, slot in enumerate(slots):
        y = top + cell * row
        body.append(text(left - 6, y + cell - 3, slot.position, text_anchor="end", font_size=10))
        chances = {} if slot.value is not None else probabilities.get(slot.position, {})
        top_p = max(chances.values(), default=0)
        for value in range(low, high + 1):
            x = left + cell * (value - low)
            if slot.value == value:
                shade, label = 1.0, f"position {slot.position}: {value} face up"
            elif value in chances:
                p = float(chances[value])
                shade = 0.12 + 0.88 * p / float(top_p)
                label = f"position {slot.position}: {value} ({p:.1%})"
            else:
                shade, label = 0.0, ""
            body.append(
                tag(
                    "rect",
                    title(label) if label else "",
                    x=float(x),
                    y=float(y),
                    width=cell - 1,
                    height=cell - 1,
                    fill=HEAT if shade else "#f0f2f5",
                    fill_opacity=round(shade, 3) if shade else None,
                    class_="value" if shade else None,
                    data_position=slot.position,
                    data_value=value if shade else None,
                )
            )
    body.append(
        text(
            left,
            height - 6,
            "possible hideout values by position (darker: likelier; solid: face up)",
            fill="#5b6475",
        )
    )
    return document(width, height, "".join(body), "Fugitive: possible values by position")
