"""The Fugitive Marshal's assistant: the notepad and the table session behind
``sleuth assist fugitive`` (and the notepad of ``sleuth infer fugitive``)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from rich.console import Group
from rich.table import Table
from rich.text import Text

from sleuth.core.errors import SleuthError, SolverLimitError
from sleuth.core.events import JSON
from sleuth.core.seatview import ViewLog
from sleuth.core.table import Command, count_entries
from sleuth.core.viewlog import (
    EventFieldError,
    enter_entries,
    loading,
    read_view_log,
    same_events,
    write_view_log,
)
from sleuth.games.fugitive.assistant.table import (
    ENTRY_HELP,
    SETUP_EVENTS,
    MarshalTable,
    entry_sources,
)
from sleuth.games.fugitive.deduction.advice import Advice, Deduction
from sleuth.games.fugitive.deduction.endgame import BEFORE_42_ROUTES, best_before_42, reaches
from sleuth.games.fugitive.deduction.opponent import StrategyBelief
from sleuth.games.fugitive.deduction.worlds import describe_difference, first_mismatch
from sleuth.games.fugitive.engine.cards import LAST
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame, Phase

SHOWN_VALUES = 8
"""Values listed per position in the text notepad, most likely first."""


SHOWN_ROUTES = 8
"""Face-down routes listed under a known Fugitive strategy, most likely first."""


def opponent_json(belief: StrategyBelief, name: str) -> dict[str, JSON]:
    """The routes under a known strategy (``infer --opponent``'s JSON): every set of face-down
    hideouts with its probability, most likely first, the best guess if 42 comes next, and
    the best Manhunt guess."""
    sets = belief.face_down_sets()
    ranked = sorted(sets.items(), key=lambda kv: (-kv[1], sorted(kv[0])))
    return {
        "strategy": name,
        "routes": [{"hideouts": sorted(s), "probability": p} for s, p in ranked],
        "guess_before_42": _before_42_json(belief),
        "manhunt_guess": _manhunt_json(belief),
    }


def _before_42_json(belief: StrategyBelief) -> JSON:
    """Before the Manhunt, while some face-down hideout may be at or above the threshold and
    none face up is: the guess that wins most often if 42 comes next under his strategy, and
    how often; else None (also beyond
    :data:`~sleuth.games.fugitive.deduction.endgame.BEFORE_42_ROUTES`
    routes or the expectimax's budget)."""
    if not belief.states:
        return None
    state = belief.states[0][0]  # the phase and the face-up hideouts are the same in all
    threshold = belief.game.manhunt_threshold
    if state.phase in (Phase.MANHUNT, Phase.OVER) or any(
        h.face_up and threshold <= h.value < LAST for h in state.route[1:]
    ):
        return None
    routes = belief.routes()
    if len(routes) > BEFORE_42_ROUTES or not reaches(routes, threshold):
        return None
    try:
        numbers, chance = best_before_42(routes, threshold)
    except SolverLimitError:
        return None
    return {"numbers": list(numbers), "wins": chance}


def _manhunt_json(belief: StrategyBelief) -> JSON:
    """In an uncertain Manhunt, the guess that wins it most often and how often; else None."""
    if not belief.states or belief.states[0][0].phase is not Phase.MANHUNT:
        return None
    try:
        number, chance = belief.manhunt_guess()
    except (ValueError, SolverLimitError):  # nothing face down, or too many routes
        return None
    return {"number": number, "wins": chance}


def opponent_notes(belief: StrategyBelief, name: str) -> Group:
    """The routes under a known strategy, as rich renderables."""
    found = opponent_json(belief, name)
    table = Table(title=f"Face-down hideouts if he is the {name} Fugitive", title_justify="left")
    table.add_column("hideouts")
    table.add_column("probability", justify="right")
    routes = found["routes"]
    for route in routes[:SHOWN_ROUTES]:
        table.add_row(
            " ".join(map(str, route["hideouts"])) or "none", _percent(route["probability"])
        )
    lines: list[Table | Text] = [table]
    if len(routes) > SHOWN_ROUTES:
        lines.append(Text(f"... {len(routes)} sets in all"))
    ahead = found["guess_before_42"]
    if ahead is not None:
        numbers = " ".join(map(str, ahead["numbers"]))
        lines.append(Text(f"Best guess if 42 comes next: {numbers} (wins {ahead['wins']:.1%})"))
    guess = found["manhunt_guess"]
    if guess is not None:
        lines.append(Text(f"Best Manhunt guess: {guess['number']} (wins {guess['wins']:.1%})"))
    return Group(*lines)


END_REASONS = {
    "marshal_uncovered_route": "the Marshal uncovered every hideout and wins",
    "escape_no_manhunt": "42 went down with a face-up hideout at or above the Manhunt "
    "threshold, so the Fugitive escapes",
    "manhunt_success": "the Marshal won the Manhunt",
    "manhunt_failed": "the Marshal missed in the Manhunt, so the Fugitive escapes",
    "max_rounds": "the round limit was reached: a draw",
}
"""What each ``game_over`` reason means, as the notepad's last line says it."""


def _hits(advice: Advice) -> str:
    """The chance that the guess hits: each number a hideout, at whichever position (the
    route table gives each position's chances apart)."""
    what = "a hideout" if len(advice.numbers) == 1 else "all hideouts"
    return f"{what} with p = {float(advice.probability):.1%}"


def notepad(deduction: Deduction) -> Group:
    """The Marshal's notepad as rich renderables."""
    table = Table(title="Route (positions after 0)", title_justify="left")
    table.add_column("pos", justify="right")
    table.add_column("sprints", justify="right")
    table.add_column("possible values (probability)")
    table.add_column("footprints", justify="right")
    probabilities = deduction.counts.probabilities()
    for slot in deduction.belief.timeline.slots:
        if slot.value is not None:
            stack = "" if slot.stack is None else " ".join(map(str, slot.stack))
            shown = f"{slot.value} face up" + (f" (sprint cards {stack})" if stack else "")
            table.add_row(str(slot.position), str(slot.sprints), shown, "")
            continue
        values = sorted(probabilities[slot.position].items(), key=lambda kv: (-kv[1], kv[0]))
        listed = ", ".join(f"{v} ({_percent(p)})" for v, p in values[:SHOWN_VALUES])
        if len(values) > SHOWN_VALUES:
            listed += f", ... ({len(values)} values)"
        totals = deduction.counts.sprint_totals.get(slot.position, [])
        span = _ranges(totals) if len(totals) < 3 else f"{totals[0]}-{totals[-1]}"
        table.add_row(str(slot.position), str(slot.sprints), listed, span)
    lines: list[Table | Text] = [table]
    certain = deduction.counts.certain()
    lines.append(Text(f"Certain hideouts: {', '.join(map(str, certain)) or 'none'}"))
    lines.append(Text(f"Not hideouts now: {_ranges(deduction.not_hideouts()) or 'none'}"))
    advice = deduction.advice()
    if advice is not None and advice.numbers:
        lines.append(Text(f"Suggested: {advice} ({advice.reason}; {_hits(advice)})"))
    elif advice is not None:
        lines.append(Text(f"Suggested: no guess ({advice.reason})"))
    worlds = "consistent worlds" if deduction.belief.model == "uniform" else "weighted worlds"
    lines.append(Text(f"{deduction.counts.total:,} {worlds}; odds assume {deduction.assumption}."))
    if deduction.belief.timeline.over:
        reason = deduction.belief.timeline.end_reason
        lines.append(Text(f"Game over: {END_REASONS.get(reason or '', 'it has ended')}."))
    elif deduction.belief.timeline.manhunt:
        lines.append(Text("Manhunt: name one number at a time."))
    return Group(*lines)


def _percent(p: Fraction) -> str:
    return "<1%" if 0 < p < Fraction(1, 200) else f"{float(p):.0%}"


def _ranges(numbers: list[int]) -> str:
    """``1-3, 7, 9-10`` for [1, 2, 3, 7, 9, 10]."""
    parts: list[str] = []
    start = previous = None
    for n in [*numbers, None]:
        if n is not None and previous is not None and n == previous + 1:
            previous = n
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = n
    return ", ".join(parts)


class FugitiveSession:
    """A Marshal's game at a real table, for :func:`sleuth.assist.repl.run_repl` (``finished``
    at the game's end, after which the table refuses new entries until one is taken back)."""

    title = "Marshal's assistant for Fugitive: type what happens at the table, one entry a line."
    entry_help = ENTRY_HELP
    commands: tuple[Command, ...] = ()

    @property
    def finished(self) -> bool:
        return self.table.over

    def __init__(self, game: FugitiveGame, model: str = "uniform") -> None:
        self.model = model
        self.table = MarshalTable(game, model=model)

    def enter(self, text: str) -> str:
        return self.table.enter(text).text

    def undo(self) -> str:
        return self.table.undo().text

    def history(self) -> list[str]:
        return [entry.text for entry in self.table.entries]

    def leave(self) -> str:
        return f"Left the assistant after {count_entries(len(self.table.entries))}."

    def render(self) -> Group:
        return notepad(self.table.deduction)

    def save(self, path: Path) -> None:
        write_view_log(ViewLog(self.table.game, MARSHAL, self.table.events), path)

    def load(self, path: Path) -> None:
        view = read_view_log(path, "marshal", "fugitive")
        assert isinstance(view.game, FugitiveGame)  # read_view_log checked the game's name
        with loading(view):
            for index, setup in enumerate(SETUP_EVENTS):
                if index >= len(view.events):
                    raise SleuthError("the view does not start with the setup draws")
                if view.events[index] != setup:
                    kind = view.events[index].kind
                    raise EventFieldError(index, kind, "not the setup draw the rules show here")
            table = MarshalTable(view.game, model=self.model)
            enter_entries(view.events, entry_sources(view.events), table.enter)
            mismatch = first_mismatch(table.events, view.events)  # fields the entries do not carry
            if mismatch is not None:
                event = view.events[mismatch]
                reason = describe_difference(table.events[mismatch], event)
                raise EventFieldError(mismatch, event.kind, f"{dict(event.public)}: {reason}")
            same_events(view, table.events)  # a saved view: nothing more, nothing else
        self.table = table
