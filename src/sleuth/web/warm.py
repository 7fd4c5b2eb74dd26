"""A server process made ready before it accepts a request.

A process's first request of a game otherwise pays for loading that game (its modules, the
compiled kernels in Numba's cache, its tables: about a second of CPU for Camel Up's odds), and
its first bot move of a kind for that bot's warm-up, while the requests behind it wait; each of
the processes of ``sleuth serve --workers N`` would pay it again.  :func:`warm_games` pays it once,
at start-up: every process of ``sleuth serve`` runs it before it takes requests
(:func:`~sleuth.web.app.create_app` with ``warm``).

Invariant: it stores nothing and changes no state that a request reads (only what is loaded
and kept in the process: modules, kernels, tables, the bots' warm-ups).
"""

from __future__ import annotations

from sleuth.core.registry import game_specs
from sleuth.render import notepad_svg
from sleuth.web import assist_session as notes
from sleuth.web.assist import rendered_html
from sleuth.web.live import LiveGame, new_log
from sleuth.web.play import Seat, game_payload


def warm_games() -> None:
    """Load every game as its first requests would: each default bot's warm-up, a new game
    between the default bots answered as its starter sees it (board, events, picker), and each
    assistant's new notepad rebuilt and drawn (text and picture)."""
    for spec in game_specs():
        live = LiveGame(new_log(spec.name, {}, None, None, {}, seed=0))
        for bot in {name for name in live.log["bots"] if name is not None}:
            spec.bot(bot).warm()
        game_payload(Seat("", "", live.seat, starter=True), live)
    for name in notes.assistants():
        session = notes.rebuild(notes.new_record(name, {}, {}))
        rendered_html(session)
        notepad_svg(name, session)
