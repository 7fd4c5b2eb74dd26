"""An assistant's rendering (Rich renderables) as HTML elements, without laying out text.

A notepad's rendering is what ``sleuth assist`` prints: a :class:`~rich.console.Group` of
:class:`~rich.text.Text` lines, :class:`~rich.table.Table` s and
:class:`~rich.columns.Columns`.  Rich's own HTML export lays every table out in character
cells first (measuring each cell at several widths) and then writes the terminal's text in a
``pre``: most of an entry's CPU in the web app (a Cluedo notepad: 50 ms of 100).  Here each
renderable becomes the element the browser lays out itself: a Text a ``p`` (its line breaks
kept), a Table a ``table`` (its title a ``caption``, its header a ``thead``, a section's end a
``tr`` of class ``end``, a column's justification its cells' alignment), Columns a ``div`` of
class ``columns`` whose children wrap, a Group its children in order.  A ``str`` is read as
Rich reads one (console markup), a Text's spans and styles are Rich's own (each run of one
style a ``span`` with Rich's HTML style).  Every text is escaped.  Anything else (a renderable
from another package's assistant) is laid out by Rich as before, in a ``pre``.

Invariant: the text of the elements is the text of the renderables, in the order Rich prints
it (no word is lost or added; only the layout's padding, rules and wrapping are the browser's).
"""

from __future__ import annotations

import html
from io import StringIO

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.style import Style, StyleType
from rich.table import Table
from rich.text import Text

WIDTH = 100
"""Columns of the terminal text of a renderable this module does not know (Rich lays it out)."""
_CONSOLE = Console(file=StringIO(), width=WIDTH, color_system="truecolor", highlight=False)
"""Resolves styles (its theme's names) and reads markup; it prints nothing."""


def to_html(shown: RenderableType) -> str:
    """``shown`` (an assistant's rendering: a plain ``str``, or Rich renderables) as HTML, in
    one ``div`` of class ``rich``."""
    body = _paragraph(Text(shown)) if isinstance(shown, str) else _element(shown)
    return f'<div class="rich">{body}</div>'


def _element(shown: RenderableType) -> str:
    if isinstance(shown, str):
        return _paragraph(_markup(shown))
    if isinstance(shown, Text):
        return _paragraph(shown)
    if isinstance(shown, Group):
        return "".join(_element(part) for part in shown.renderables)
    if isinstance(shown, Columns):
        return f'<div class="columns">{"".join(_element(p) for p in shown.renderables)}</div>'
    if isinstance(shown, Table):
        return _table(shown)
    return _laid_out(shown)


def _markup(text: str) -> Text:
    """A ``str`` as Rich prints one: its console markup read."""
    return _CONSOLE.render_str(text, highlight=False)


def _paragraph(text: Text) -> str:
    return f"<p>{_spans(text)}</p>"


def _spans(text: Text) -> str:
    """The text of ``text``, escaped, each run of one style in a ``span`` with that style."""
    base = _CONSOLE.get_style(text.style) if text.style else Style.null()
    out = []
    for segment in text.render(_CONSOLE):  # the spans' styles (the base style is not in them)
        style = base + segment.style if segment.style else base
        words = html.escape(segment.text)
        css = style.get_html_style()
        out.append(f'<span style="{css}">{words}</span>' if css else words)
    return "".join(out)


def _cell(shown: RenderableType) -> str:
    """A table cell's content: a Text or str inline, any other renderable as an element."""
    if isinstance(shown, str):
        return _spans(_markup(shown))
    if isinstance(shown, Text):
        return _spans(shown)
    return _element(shown)


def _table(table: Table) -> str:
    parts = ["<table>"]
    if table.title is not None:
        parts.append(f"<caption>{_cell(table.title)}</caption>")
    columns = table.columns
    if table.show_header:
        heads = "".join(f"<th{_align(c.justify)}>{_cell(c.header)}</th>" for c in columns)
        parts.append(f"<thead><tr>{heads}</tr></thead>")
    parts.append("<tbody>")
    tds = [[f"<td{_align(c.justify, c.style)}>{_cell(cell)}</td>" for cell in c.cells]
           for c in columns]  # fmt: skip
    for index, row in enumerate(table.rows):
        attributes = _align("", row.style) + (' class="end"' if row.end_section else "")
        parts.append(f"<tr{attributes}>{''.join(column[index] for column in tds)}</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


def _align(justify: str, style: StyleType | None = None) -> str:
    """A cell's (or row's) attributes: its justification as a class, its style inline."""
    out = f' class="{justify}"' if justify in ("right", "center") else ""
    css = _CONSOLE.get_style(style).get_html_style() if style else ""
    return out + (f' style="{css}"' if css else "")


def _laid_out(shown: RenderableType) -> str:
    """A renderable this module does not know, laid out by Rich as the terminal shows it."""
    console = Console(
        file=StringIO(), record=True, width=WIDTH, color_system="truecolor", highlight=False
    )
    console.print(shown)
    return console.export_html(inline_styles=True, code_format="<pre>{code}</pre>")
