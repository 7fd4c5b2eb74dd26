"""A few helpers to write SVG as text: every attribute and text is escaped here."""

from __future__ import annotations

from functools import cache
from html import escape

Attr = str | int | float | None


@cache
def _attribute(name: str) -> str:
    """The SVG attribute a keyword names (``class_``: ``class``, ``data_action``:
    ``data-action``)."""
    return name.rstrip("_").replace("_", "-")


def _attrs(attrs: dict[str, Attr]) -> str:
    """The attributes as text, None left out, a float with one decimal; a text escaped (a
    number's text has nothing to escape, so it is written as it is)."""
    parts = []
    for name, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, float):
            text = f"{value:.1f}"
        elif isinstance(value, int):
            text = str(value)
        else:
            text = escape(str(value))
        parts.append(f' {_attribute(name)}="{text}"')
    return "".join(parts)


def tag(name: str, body: str = "", **attrs: Attr) -> str:
    """``<name attrs>body</name>`` (``class_`` is ``class``, ``data_action`` is
    ``data-action``); ``body`` is SVG already, not escaped again."""
    return f"<{name}{_attrs(attrs)}>{body}</{name}>" if body else f"<{name}{_attrs(attrs)}/>"


def title(words: object) -> str:
    """A ``<title>`` element (the tooltip of its parent, or the picture's name) holding
    ``words`` (escaped: a tooltip may quote what a user typed, such as a player's name)."""
    return tag("title", escape(str(words)))


def text(x: float, y: float, words: object, **attrs: Attr) -> str:
    """A text element at ``(x, y)`` holding ``words`` (escaped)."""
    return tag("text", escape(str(words)), x=float(x), y=float(y), **attrs)


def document(
    width: float,
    height: float,
    body: str,
    label: str,
    min_width: int | None = None,
    find: str | None = None,
) -> str:
    """The whole picture, scaled to its container (``label`` names it for screen readers);
    with ``min_width`` (pixels) a big picture keeps a readable size and scrolls on a narrow
    screen (the stylesheet applies it there); with ``find``, the word for the picture's
    numbered parts (``data-find``: "station"), the page offers to find one by its number
    (saying the word: "no station 999")."""
    return tag(
        "svg",
        title(label) + body,
        data_find_word=find,
        class_=None if min_width is None else "scrolls",
        style=None if min_width is None else f"--min-width: {min_width}px",
        xmlns="http://www.w3.org/2000/svg",
        viewBox=f"0 0 {width:.0f} {height:.0f}",
        role="img",
        font_family="system-ui, sans-serif",
        font_size=12,
    )


HEAT = "#c0392b"
"""The colour of certainty in the assistants' heat maps and bars (lighter: less likely)."""
