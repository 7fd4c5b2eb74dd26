"""The CPU of one web assistant entry, by game and by part, before and after the text change.

In one process (warmed as every ``sleuth serve`` process is: :func:`sleuth.web.warm.warm_games`),
each assistant's notepad takes the entries of ``bench/web_load.py`` (a seat's view of a seeded
random game; the fox puzzle's random inspections), one by one, as the web app answers an
entry: the entry itself (``enter``), the assistant's rendering (``render``: its advice, odds
and tables as Rich renderables), that rendering as the page's HTML, and the notepad's picture.
The HTML is made both ways from the same renderable: **before**, Rich lays every table out in
character cells and exports the terminal's text (what ``web/assist.py`` did until the
``web/rich_html.py`` change), **after**, :func:`sleuth.web.rich_html.to_html` (elements the
browser lays out).  Each part is the process's CPU time (``time.process_time``), averaged over
the entries; "entry" is the sum of the parts, the CPU that one ``POST /api/assist/ID/entries``
spends beyond the HTTP and the store's few milliseconds.

    .venv/bin/python bench/web_assist_cpu.py [--quick] [--entries 40]
"""

from __future__ import annotations

import argparse
import time
from io import StringIO
from itertools import pairwise

from rich.console import Console, RenderableType
from rich.text import Text

from _report import print_table
from sleuth.render import notepad_svg
from sleuth.web import assist_session as notes
from sleuth.web.rich_html import to_html
from sleuth.web.warm import warm_games
from web_load import scripts

GAMES = ("fox", "fugitive", "scotland-yard", "camel-up", "cluedo")
SEED = 1
"""The seed of the recorded games whose entries are typed (web_load.py's first session's)."""


def rich_export(shown: RenderableType) -> str:
    """The rendering as HTML the way the web app made it before: Rich's layout, exported."""
    console = Console(
        file=StringIO(), record=True, width=100, color_system="truecolor", highlight=False
    )
    console.print(Text(shown) if isinstance(shown, str) else shown)
    return console.export_html(
        inline_styles=True, code_format='<pre class="rich"><code>{code}</code></pre>'
    )


def measure(game: str, entries: list[str]) -> tuple[int, dict[str, float]]:
    """The entries typed (up to the game's end) and the mean CPU ms of each part per entry."""
    session = notes.rebuild(notes.new_record(game, {}, {}))
    spent = dict.fromkeys(("enter", "render", "before", "after", "picture"), 0.0)
    typed = 0
    for text in entries:
        if session.finished:
            break
        start = time.process_time()
        session.enter(text)
        entered = time.process_time()
        shown = session.render()
        rendered = time.process_time()
        rich_export(shown)
        before = time.process_time()
        to_html(shown)
        after = time.process_time()
        notepad_svg(game, session)
        drawn = time.process_time()
        instants = (start, entered, rendered, before, after, drawn)
        for part, (a, b) in zip(spent, pairwise(instants), strict=True):
            spent[part] += b - a
        typed += 1
    return typed, {part: 1000 * total / max(typed, 1) for part, total in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="five entries each (smoke test)")
    parser.add_argument("--entries", type=int, default=40, help="entries per notepad")
    args = parser.parse_args()
    count = 5 if args.quick else args.entries
    if count < 1:
        parser.error(f"--entries {count}: at least one entry is needed")
    start = time.process_time()
    warm_games()
    print(f"warm-up: {time.process_time() - start:.1f} s of CPU; entries per notepad: {count}")
    typed = scripts(SEED, count)
    rows = []
    for game in GAMES:
        n, ms = measure(game, typed[game])
        common = ms["enter"] + ms["render"] + ms["picture"]
        old, new = common + ms["before"], common + ms["after"]
        rows.append(
            [
                game,
                str(n),
                f"{ms['enter']:.1f}",
                f"{ms['render']:.1f}",
                f"{ms['before']:.1f}",
                f"{ms['after']:.1f}",
                f"{ms['picture']:.1f}",
                f"{old:.1f}",
                f"{new:.1f}",
                f"{old / new:.2f}x" if new > 0 else "-",
            ]
        )
    print_table(
        [
            "game",
            "entries",
            "enter ms",
            "render ms",
            "text before ms",
            "text after ms",
            "picture ms",
            "entry before ms",
            "entry after ms",
            "before/after",
        ],
        rows,
    )


if __name__ == "__main__":
    main()
