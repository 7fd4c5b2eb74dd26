"""A SAT view of Cluedo deduction (PySAT): certain facts as a cross-check of exact counting,
and the events behind a certain fact or a contradiction.

One boolean ``x[c, o]`` per card and owner (seats, envelope, table).  The rules are hard
clauses: every card has exactly one owner (K1), the envelope exactly one card of each
category (K2), the table exactly the face-up cards (K3).  Everything learned is guarded by the
*selector* of the step it came from (an event, or the hand sizes of the setup), a fresh
variable ``s`` added as ``¬s`` to each of the step's clauses:

* the hand sizes (K3): exactly ``k`` of a seat's variables (PySAT's sequential counter);
* ``has`` / ``lacks`` (K4, K5, K7, K8, K10): unit clauses; ``clauses`` (a refutation not
  seen, K6): one clause over the three cards; ``failed`` (a wrong accusation, K9):
  ``¬a ∨ ¬b ∨ ¬c`` on the envelope.

A fact is certain when the knowledge with its negation is unsatisfiable.  Solving under the
selectors as assumptions, the steps behind an unsatisfiable set are a subset of the selectors;
:func:`explain` and :func:`conflict` return a *smallest* such set (a smallest unsatisfiable
subset over the selectors, by PySAT's OptUx), named.  Most facts need no search: the rules
alone prove them (no step), or one step does, found by unit propagation under that step's
selector (sound: what propagates is implied; a single step that proves a fact without
propagating it still gets the exact search, so every answer is a smallest set).  One solver,
fed each step as it comes, answers every question (assumptions select the steps).
Probabilities come from counting (:mod:`.deduction.counting`), never from here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pysat.card import CardEnc, EncType
from pysat.examples.optux import OptUx
from pysat.formula import WCNF, IDPool
from pysat.solvers import Solver

from sleuth.core.bitsets import members
from sleuth.core.events import Event
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.deduction.constraints import Knowledge, Owner

__all__ = [
    "Fact",
    "SatKnowledge",
    "certain_facts",
    "conflict",
    "event_steps",
    "explain",
    "from_events",
]

Fact = tuple[int, Owner, bool]
"""``(card, owner, holds)``: ``owner`` holds ``card`` (True) or does not (False)."""

SIZES = "hand sizes"
"""The label of the hand sizes' step when no event is named."""


@dataclass(frozen=True)
class Step:
    """What one step (an event) added to the knowledge, as facts on owner indices."""

    label: str
    has: tuple[tuple[int, int], ...] = ()
    lacks: tuple[tuple[int, int], ...] = ()
    clauses: tuple[tuple[int, int], ...] = ()
    failed: tuple[int, ...] = ()


def _diff(label: str, before: Knowledge | None, after: Knowledge) -> Step:
    """The facts ``after`` holds beyond ``before`` (the knowledge is append-only)."""

    def new(now: tuple[int, ...], old: tuple[int, ...] | None) -> tuple[tuple[int, int], ...]:
        return tuple(
            (c, o)
            for o, mask in enumerate(now)
            for c in members(mask & ~(0 if old is None else old[o]))
        )

    return Step(
        label,
        new(after.has, None if before is None else before.has),
        new(after.lacks, None if before is None else before.lacks),
        after.clauses[0 if before is None else len(before.clauses) :],
        after.failed[0 if before is None else len(before.failed) :],
    )


class _Recorder(CluedoBelief):
    """A belief that takes every event's knowledge unchecked (no counting), so that a
    contradictory log still yields each event's facts."""

    def _learn(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge


def event_steps(seat: int, events: Sequence[Event]) -> tuple[Knowledge, list[Step]]:
    """The setup's knowledge and one step per event that adds facts, labelled like the
    belief's errors (``event 12 (refuted)``).  Malformed events raise the belief's error;
    contradictions do not (that is what :func:`conflict` is for)."""
    recorder = _Recorder(seat)
    steps: list[Step] = []
    setup: Knowledge | None = None
    for i, event in enumerate(events):
        before = recorder.knowledge
        recorder.update(event)
        after = recorder.knowledge
        if after is None:
            continue
        label = f"event {i + 1} ({event.kind})"
        if before is None:
            setup = after
            steps.append(Step(label))  # the hand sizes' step
        elif after != before:
            steps.append(_diff(label, before, after))
    if setup is None:
        raise ValueError("the events have no setup")
    return setup, steps


class SatKnowledge:
    """The rules of a deal with the seat count, face-up cards and deck of ``base`` (hard),
    plus labelled steps (each guarded by its selector).  The first step carries the hand
    sizes; :meth:`add` appends the rest."""

    def __init__(self, base: Knowledge, sizes_label: str = SIZES) -> None:
        self.base = base
        n = base.players
        self.owners = n + 2
        self.pool = IDPool(start_from=base.deck.size * self.owners + 1)
        self.hard: list[list[int]] = []
        self.labels: list[str] = []
        self.selectors: list[int] = []
        self.guarded: list[list[int]] = []
        deck = base.deck
        for card in range(deck.size):
            row = [self.var(card, o) for o in range(self.owners)]
            self._exactly(self.hard, row, 1)
            self.hard.append([row[n + 1] if base.table >> card & 1 else -row[n + 1]])
        for category in deck.categories:
            self._exactly(self.hard, [self.var(c, n) for c in members(category)], 1)
        sizes = self._select(sizes_label)
        for seat, size in enumerate(base.hand_sizes):
            row = [self.var(c, seat) for c in range(deck.size)]
            self._exactly(self.guarded, row, size, sizes)
        self._solver: Solver | None = None
        self._implied: dict[int, int] | None = None

    def var(self, card: int, owner: int) -> int:
        """The variable of ``owner`` (an index) holding ``card``."""
        return 1 + card * self.owners + owner

    def literal(self, fact: Fact) -> int:
        card, owner, holds = fact
        v = self.var(card, self.base.index(owner))
        return v if holds else -v

    def _select(self, label: str) -> int:
        selector: int = self.pool.id(("step", len(self.labels)))
        self.labels.append(label)
        self.selectors.append(selector)
        return selector

    def _exactly(self, out: list[list[int]], lits: list[int], k: int, guard: int = 0) -> None:
        encoded = CardEnc.equals(lits, bound=k, vpool=self.pool, encoding=EncType.seqcounter)
        out.extend([*clause, -guard] if guard else list(clause) for clause in encoded.clauses)

    def add(self, step: Step) -> None:
        """Append a step's facts under a new selector."""
        s = self._select(step.label)
        env = self.base.envelope
        clauses = [[self.var(c, o), -s] for c, o in step.has]
        clauses += [[-self.var(c, o), -s] for c, o in step.lacks]
        clauses += [[*(self.var(c, o) for c in members(cards)), -s] for o, cards in step.clauses]
        clauses += [[*(-self.var(c, env) for c in members(cards)), -s] for cards in step.failed]
        self.guarded.extend(clauses)
        if self._solver is not None:
            self._solver.append_formula(clauses)
        self._implied = None

    def solver(self) -> Solver:
        """The one solver over the rules and every step so far (steps added later join it);
        callers choose steps by assuming their selectors."""
        if self._solver is None:
            self._solver = Solver(name="g3", bootstrap_with=self.hard + self.guarded)
        return self._solver

    def implied(self) -> dict[int, int]:
        """Each literal that one step alone implies by unit propagation (with the rules),
        mapped to the first such step's index."""
        if self._implied is None:
            solver = self.solver()
            self._implied = {}
            for i, s in enumerate(self.selectors):
                consistent, literals = solver.propagate(assumptions=[s])
                for lit in literals if consistent else ():
                    self._implied.setdefault(lit, i)
        return self._implied

    def _smallest(self, extra: list[int]) -> list[str] | None:
        """A smallest set of steps that with ``extra`` (unit literals) is unsatisfiable, or
        None when all of them together are satisfiable."""
        if self.solver().solve(assumptions=[*self.selectors, *extra]):
            return None
        formula = WCNF()
        for clause in self.hard + self.guarded:
            formula.append(clause)
        for lit in extra:
            formula.append([lit])
        for s in self.selectors:
            formula.append([s], weight=1)
        with OptUx(formula) as optux:
            chosen = optux.compute()
        return [self.labels[i - 1] for i in sorted(chosen)]

    def certain(self) -> list[Fact]:
        """Every fact true in every model of all the steps (has and lacks, by card then
        owner); raises ValueError when the steps contradict each other."""
        out: list[Fact] = []
        solver = self.solver()
        if not solver.solve(assumptions=self.selectors):
            raise ValueError("the knowledge is contradictory")
        model = set(solver.get_model() or ())
        for card in range(self.base.deck.size):
            for o in range(self.owners):
                v = self.var(card, o)
                holds = v in model
                if not solver.solve(assumptions=[*self.selectors, -v if holds else v]):
                    out.append((card, self.base.owner(o), holds))
        return out

    def explain(self, fact: Fact) -> list[str]:
        """A smallest set of steps that proves ``fact`` (empty when the rules alone do);
        raises ValueError when the fact is not certain."""
        lit = self.literal(fact)
        solver = self.solver()
        if solver.solve(assumptions=[*self.selectors, -lit]):
            raise ValueError(f"not certain: {fact}")
        if not solver.solve(assumptions=[-lit]):
            return []
        step = self.implied().get(lit)
        if step is not None:
            return [self.labels[step]]
        labels = self._smallest([-lit])
        assert labels is not None
        return labels

    def proves(self, fact: Fact, labels: Sequence[str]) -> bool:
        """True if the steps named ``labels`` alone (with the rules) prove ``fact``."""
        chosen = [
            s for s, label in zip(self.selectors, self.labels, strict=True) if label in labels
        ]
        return not self.solver().solve(assumptions=[*chosen, -self.literal(fact)])

    def conflict(self) -> list[str] | None:
        """A smallest set of steps that contradict each other, or None when they agree."""
        return self._smallest([])


def _one_step(knowledge: Knowledge) -> SatKnowledge:
    kb = SatKnowledge(knowledge)
    kb.add(_diff("facts", None, knowledge))
    return kb


def certain_facts(knowledge: Knowledge) -> list[Fact]:
    """Every certain fact of ``knowledge`` (with exact hand sizes), by card then owner."""
    return _one_step(knowledge).certain()


def from_events(seat: int, events: Sequence[Event]) -> SatKnowledge:
    """The knowledge of ``seat``'s view, one step per event that adds facts."""
    setup, steps = event_steps(seat, events)
    kb = SatKnowledge(setup, steps[0].label)
    for step in steps[1:]:
        kb.add(step)
    return kb


def explain(seat: int, events: Sequence[Event], fact: Fact) -> list[str]:
    """The events of ``seat``'s view that prove ``fact`` (a smallest set, named)."""
    return from_events(seat, events).explain(fact)


def conflict(seat: int, events: Sequence[Event]) -> list[str] | None:
    """A smallest set of events of ``seat``'s view that no deal explains together, named; None
    when some deal explains them all."""
    return from_events(seat, events).conflict()
