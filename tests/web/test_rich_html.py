"""An assistant's rendering as HTML elements (sleuth.web.rich_html): the words Rich prints, none
lost or added, escaped, with Rich's styles, and no table laid out in character cells."""

from __future__ import annotations

import html
import re
from collections import Counter
from io import StringIO
from typing import Any

import pytest

pytest.importorskip("fastapi")

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from sleuth.web.assist import rendered_html
from sleuth.web.rich_html import to_html
from tests.web.test_assist import SETUPS, _direct

BOX = re.compile(r"^[\u2500-\u257f]+$")
"""A word made of box-drawing characters only: a table's rules in the terminal."""


def terminal_words(shown: Any) -> Counter[str]:
    """The words Rich prints for ``shown`` (wide enough that no word is wrapped), rules aside."""
    console = Console(file=StringIO(), record=True, width=2000, color_system=None)
    console.print(Text(shown) if isinstance(shown, str) else shown)
    return Counter(w for w in console.export_text().split() if not BOX.match(w))


def page_words(markup: str) -> Counter[str]:
    """The words a browser shows for ``markup`` (its tags dropped, its entities read)."""
    return Counter(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


@pytest.mark.parametrize("game", list(SETUPS))
def test_every_word_rich_prints_is_on_the_page(game: str) -> None:
    options, params, entries = SETUPS[game]
    for count in range(len(entries) + 1):
        session = _direct(game, options, params, entries[:count])
        shown = session.render()
        assert page_words(to_html(shown)) == terminal_words(shown)


def test_no_table_is_laid_out_in_character_cells(monkeypatch: pytest.MonkeyPatch) -> None:
    """The web page's rendering leaves the layout to the browser: Rich's measuring of a table's
    columns (most of a Cluedo entry's CPU once) is never called."""

    def refused(*args: object, **kwargs: object) -> None:
        raise AssertionError("a table was laid out in character cells")

    monkeypatch.setattr(Table, "_calculate_column_widths", refused)
    options, params, entries = SETUPS["cluedo"]
    shown = rendered_html(_direct("cluedo", options, params, entries))
    assert "<table>" in shown and "Most likely envelopes" in shown


def test_styles_escaping_and_markup() -> None:
    table = Table("a<b", "[bold]n[/bold]", title="T & U", box=None)
    table.add_column("right", justify="right")
    table.add_row(Text("<i>", style="bold green"), "[red]x[/red]", "1", end_section=True)
    shown = to_html(Group(Text("<script>alert(1)</script>"), table, "[dim]<x>[/dim]"))
    assert "<script>" not in shown and "&lt;script&gt;alert(1)&lt;/script&gt;" in shown
    assert "<caption>T &amp; U</caption>" in shown and "<th>a&lt;b</th>" in shown
    assert '<th><span style="font-weight: bold">n</span></th>' in shown  # a str is markup
    assert "font-weight: bold" in shown.split("&lt;i&gt;")[0].rsplit("<td>", 1)[1]
    assert '<th class="right">right</th>' in shown and '<tr class="end">' in shown
    assert "[red]" not in shown and "color: #800000" in shown
    assert "[dim]" not in shown and "&lt;x&gt;" in shown
    assert to_html("[bold]plain[/bold]") == '<div class="rich"><p>[bold]plain[/bold]</p></div>'


def test_a_renderable_it_does_not_know_is_laid_out_by_rich() -> None:
    shown = to_html(Group(Text("before"), Panel("in a <panel>")))
    assert shown.startswith('<div class="rich"><p>before</p><pre>')
    assert "in a &lt;panel&gt;" in shown and "╭" in shown
