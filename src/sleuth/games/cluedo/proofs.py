"""Minimal proofs over the SAT view of a seat's events (:mod:`.sat`), fast enough for the
notepad at the table (``why CARD``, and the entries behind a contradiction).

:func:`proof` shrinks the solver's unsatisfiable core by deletion: the set it returns is
minimal (leaving out any one step breaks the proof) but not always smallest; a smallest one
(:meth:`~.sat.SatKnowledge.explain`, by OptUx) may take many seconds on a long game.
"""

from __future__ import annotations

from pysat.solvers import Solver

from sleuth.games.cluedo.sat import Fact, SatKnowledge


def proof(kb: SatKnowledge, fact: Fact | None) -> list[str]:
    """The labels of a minimal set of ``kb``'s steps that prove ``fact`` (that contradict each
    other when ``fact`` is None): leaving out any one of them breaks the proof.  Found by
    deletion from the solver's core, a few solver calls a step, where a smallest set
    (:meth:`~.sat.SatKnowledge.explain`) may take seconds on a long game."""
    extra = [] if fact is None else [-kb.literal(fact)]
    with Solver(name="g3", bootstrap_with=kb.hard + kb.guarded) as solver:
        if solver.solve(assumptions=[*kb.selectors, *extra]):
            raise ValueError("the steps agree" if fact is None else f"not certain: {fact}")
        first = set(solver.get_core() or ())
        core = [s for s in kb.selectors if s in first]
        i = 0
        while i < len(core):
            trial = core[:i] + core[i + 1 :]
            if solver.solve(assumptions=[*trial, *extra]):
                i += 1
            else:
                kept = set(solver.get_core() or ())
                core = [s for s in trial if s in kept]
    label = dict(zip(kb.selectors, kb.labels, strict=True))
    return [label[s] for s in core]
