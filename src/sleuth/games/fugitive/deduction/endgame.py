"""The end of the hunt, played exactly: the Manhunt's best guesses and the guess before 42.

Both start from a distribution over the Fugitive's face-down hideouts (:data:`Routes`), from
the Marshal's own odds (:meth:`Deduction.routes
<sleuth.games.fugitive.deduction.advice.Deduction.routes>`) or from a known opponent's strategy
(:meth:`StrategyBelief.routes <sleuth.games.fugitive.deduction.opponent.StrategyBelief.routes>`).

- **The Manhunt** (F27) is a one-player problem: she names single numbers, a hit shows that
  hideout's position and sprint cards, a miss loses.  :func:`manhunt_chance` is its exact
  expectimax: the chance of winning with the best guesses, and the best first number.
- **Before 42** the danger is that 42 comes next.  A face-up hideout at or above the threshold
  then lets 42 win at once (F26), a face-down one is left to the Manhunt.  Naming every
  face-down hideout wins at once when it hits and, when it misses, rules that route out for
  the Manhunt (the only cost of a miss is the turn).  :func:`chance_if_42_next` scores a guess
  by the chance of winning the game if 42 is placed right after it: an immediate win, or the
  Manhunt that follows what the guess showed.  :func:`best_before_42` picks the best of the
  usual candidates (:func:`guess_options`).

Invariant: a :data:`Routes` is canonical (sorted, probabilities summing to 1, every route with
as many face-down hideouts), so that equal sub-problems are solved once.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from sleuth.core.errors import SolverLimitError

Hideout = tuple[int, int, tuple[int, ...]]
"""A face-down hideout: (position in the route, value, its sprint cards; () when unknown)."""
Route = tuple[Hideout, ...]
"""The face-down hideouts of a route (42 aside), by position."""
Routes = tuple[tuple[Route, float], ...]
"""Each possible route with its probability, canonical (see the module docstring)."""

BEFORE_42_ROUTES = 300
"""Possible routes beyond which :func:`best_before_42` is not tried (a few tens are usual when
42 is near; beyond that a guess is a long shot whatever it is)."""

EXPECTIMAX_NODES = 5_000
"""Sub-problems one decision may solve before giving up (:class:`Expectimax`).  Near 42
against the heuristic Fugitive a few tens are usual."""
EXPECTIMAX_SCANS = 2_000_000
"""Hideouts one decision may scan before giving up (:class:`Expectimax`): solving a
sub-problem scans every hideout of its routes once per number it tries, so a sub-problem of
300 long routes costs as much as thousands of small ones.  About a second on an idle machine;
the most seen in 600 games against the heuristic Fugitive was a third of it."""

TIE = 1e-9
"""Chances closer than this are a tie (they are sums of floats)."""

OPTIONS_ROUTES = 4
"""The whole routes :func:`guess_options` considers naming: this many of the likeliest."""


def routes_of(weights: Mapping[Route, float]) -> Routes:
    """The canonical :data:`Routes` of unnormalised route weights."""
    total = sum(weights.values())
    return tuple(sorted((route, w / total) for route, w in weights.items() if w > 0))


def route_sets(routes: Routes) -> dict[frozenset[int], float]:
    """The probability of each set of face-down values (stacks and positions forgotten)."""
    sets: dict[frozenset[int], float] = {}
    for route, p in routes:
        values = frozenset(value for _, value, _ in route)
        sets[values] = sets.get(values, 0.0) + p
    return sets


class Expectimax:
    """The Manhunt's expectimax, remembering the sub-problems it has solved (the routes left
    after some hits) so that the options of one decision share them.  A hideout the same in
    every route (a sure hit that shows nothing new) is set aside first, so certain hideouts
    cost nothing.  It gives up with :class:`SolverLimitError` beyond ``max_nodes``
    sub-problems or ``max_scans`` hideouts scanned (its work, counted before a sub-problem is
    solved, so that the work done never exceeds it): long routes with many uncertain hideouts
    can need millions of sub-problems, and a player on a clock cannot wait."""

    def __init__(
        self, max_nodes: int = EXPECTIMAX_NODES, max_scans: int = EXPECTIMAX_SCANS
    ) -> None:
        self.max_nodes = max_nodes
        self.max_scans = max_scans
        self.solved: dict[Routes, tuple[float, int | None]] = {}
        self.scans = 0
        """Hideouts scanned so far (at most ``max_scans``)."""

    def manhunt(self, routes: Routes) -> tuple[float, int | None]:
        """See :func:`manhunt_chance`."""
        if not routes:
            raise ValueError("no possible route to play the Manhunt on")
        certain: set[Hideout] = set(routes[0][0])
        for route, _ in routes[1:]:
            certain.intersection_update(route)
        if certain:  # name them first: sure hits that narrow nothing
            narrowed = routes_of({tuple(h for h in r if h not in certain): p for r, p in routes})
            return self.manhunt(narrowed)[0], min(value for _, value, _ in certain)
        if not routes[0][0]:
            return 1.0, None
        found = self.solved.get(routes)
        if found is not None:
            return found
        if len(self.solved) >= self.max_nodes:
            raise SolverLimitError(
                f"the Manhunt's expectimax needs over {self.max_nodes:,} sub-problems"
            )
        numbers = sorted({value for route, _ in routes for _, value, _ in route})
        self.scans += len(numbers) * len(routes) * len(routes[0][0])  # routes are as long
        if self.scans > self.max_scans:
            raise SolverLimitError(
                f"the Manhunt's expectimax needs over {self.max_scans:,} hideout scans"
            )
        best: tuple[float, int | None] = (-1.0, None)
        for number in numbers:
            shown: dict[Hideout, dict[Route, float]] = {}
            for route, p in routes:
                for hideout in route:
                    if hideout[1] == number:  # a hit shows its position and stack
                        rest = tuple(h for h in route if h[0] != hideout[0])
                        after = shown.setdefault(hideout, {})
                        after[rest] = after.get(rest, 0.0) + p
            chance = sum(
                sum(left.values()) * self.manhunt(routes_of(left))[0] for left in shown.values()
            )
            if chance > best[0] + TIE:
                best = (chance, number)
        self.solved[routes] = best
        return best

    def if_42_next(self, guess: Iterable[int], routes: Routes, threshold: int) -> float:
        """See :func:`chance_if_42_next`."""
        named = frozenset(guess)
        if not named:
            return self.manhunt(routes)[0]
        won = 0.0
        missed: dict[Route, float] = {}
        shown: dict[Route, dict[Route, float]] = {}
        for route, p in routes:
            values = {value for _, value, _ in route}
            if not named <= values:
                missed[route] = p
            elif named == values:
                won += p
            elif max(named) < threshold:
                hit = tuple(h for h in route if h[1] in named)
                rest = tuple(h for h in route if h[1] not in named)
                after = shown.setdefault(hit, {})
                after[rest] = after.get(rest, 0.0) + p
        for left in [missed, *shown.values()]:
            if left:
                won += sum(left.values()) * self.manhunt(routes_of(left))[0]
        return won


def manhunt_chance(routes: Routes, max_nodes: int = EXPECTIMAX_NODES) -> tuple[float, int | None]:
    """The chance of winning the Manhunt from ``routes`` with the best guesses, and the best
    first number (ties to the lower; None when nothing is face down: won).  A
    :class:`SolverLimitError` beyond ``max_nodes`` sub-problems (:class:`Expectimax`)."""
    return Expectimax(max_nodes).manhunt(routes)


def chance_if_42_next(
    guess: Iterable[int], routes: Routes, threshold: int, max_nodes: int = EXPECTIMAX_NODES
) -> float:
    """The chance of winning if she names ``guess`` now and 42 is placed right after it.

    A hit naming every face-down hideout wins at once (F25); a hit that shows a hideout at or
    above ``threshold`` loses to 42 (F26); any other hit shows the named hideouts and their
    stacks, and a miss rules out every route holding them all; the Manhunt then follows
    (:func:`manhunt_chance`).  (It leaves out what 42's own sprint count would show, so it
    slightly underestimates the Manhunt.)"""
    return Expectimax(max_nodes).if_42_next(guess, routes, threshold)


def guess_options(routes: Routes, threshold: int) -> set[tuple[int, ...]]:
    """The guesses worth scoring before 42: the :data:`OPTIONS_ROUTES` likeliest whole routes,
    the certain hideouts below ``threshold`` (a sure step), and each other possible number
    below it together with them (a gamble)."""
    sets = route_sets(routes)
    options = {
        tuple(sorted(s)) for s in sorted(sets, key=lambda s: (-sets[s], sorted(s)))[:OPTIONS_ROUTES]
    }
    marginal: dict[int, float] = {}
    for values, p in sets.items():
        for value in values:
            marginal[value] = marginal.get(value, 0.0) + p
    sure = {n for n, p in marginal.items() if p > 1 - 1e-9 and n < threshold}
    if sure:
        options.add(tuple(sorted(sure)))
    for number, p in marginal.items():
        if number < threshold and p <= 1 - 1e-9:
            options.add(tuple(sorted({number, *sure})))
    options.discard(())
    return options


def reaches(routes: Routes, threshold: int) -> bool:
    """Some possible face-down hideout is at or above ``threshold``: what is not pinned down
    when 42 comes is left to the Manhunt."""
    return any(value >= threshold for route, _ in routes for _, value, _ in route)


def best_before_42(
    routes: Routes,
    threshold: int,
    preferred: tuple[int, ...] = (),
    max_nodes: int = EXPECTIMAX_NODES,
) -> tuple[tuple[int, ...], float]:
    """The guess with the best :func:`chance_if_42_next` among :func:`guess_options` and
    ``preferred``, and that chance; the whole route when only one is possible (a sure win at
    once).  Ties (within :data:`TIE`) go to ``preferred`` (the usual advice, whose worth if 42
    does not come next this score leaves out: a sure step shows sprint cards) unless it cannot
    hit, then to fewer numbers (naming more rarely pays on a tie: measured against the
    heuristic Fugitive, preferring the guess likelier to win at once lost more games), then to
    the lower ones.  The options share one :class:`Expectimax` (and its budget)."""
    sets = route_sets(routes)
    if len(sets) == 1:
        return tuple(sorted(next(iter(sets)))), 1.0
    options = guess_options(routes, threshold)
    if preferred:
        options.add(preferred)
    solver = Expectimax(max_nodes)
    scored = {option: solver.if_42_next(option, routes, threshold) for option in options}
    kept = preferred if any(set(preferred) <= values for values in sets) else None
    best = min(options, key=lambda o: (-scored[o], len(o), o))
    if kept and scored[kept] >= scored[best] - TIE:
        best = kept
    return best, scored[best]
