"""The baseline for ``fugitive_endgame.py``: the Manhunt expectimax and the guess before 42
written plainly, as a textbook expectimax over the list of possible routes: no merging of
routes that become the same once a hideout is shown, and no memory of positions already
solved.  Same answers as :mod:`sleuth.games.fugitive.deduction.endgame` (the benchmark checks
it)."""

from __future__ import annotations

from sleuth.games.fugitive.deduction.endgame import Route, guess_options

Weighted = list[tuple[Route, float]]


def manhunt_chance(routes: Weighted) -> float:
    """The chance of winning the Manhunt with the best guesses from ``routes`` (weights need
    not sum to 1: the answer is relative to their total)."""
    total = sum(p for _, p in routes)
    if not routes[0][0]:
        return 1.0
    best = 0.0
    for number in sorted({value for route, _ in routes for _, value, _ in route}):
        won = 0.0
        for shown in {h for route, _ in routes for h in route if h[1] == number}:
            left = [(tuple(h for h in r if h != shown), p) for r, p in routes if shown in r]
            won += sum(p for _, p in left) * manhunt_chance(left)
        best = max(best, won / total)
    return best


def chance_if_42_next(guess: tuple[int, ...], routes: Weighted, threshold: int) -> float:
    named = set(guess)
    won = 0.0
    missed = [(r, p) for r, p in routes if not named <= {v for _, v, _ in r}]
    if missed:
        won += sum(p for _, p in missed) * manhunt_chance(missed)
    hits = [(r, p) for r, p in routes if named <= {v for _, v, _ in r}]
    for route, p in hits:
        if named == {v for _, v, _ in route}:
            won += p
    if max(named) >= threshold:
        return won
    for shown in {tuple(h for h in r if h[1] in named) for r, _ in hits}:
        left = [
            (tuple(h for h in r if h not in shown), p)
            for r, p in hits
            if set(shown) <= set(r) and named != {v for _, v, _ in r}
        ]
        if left:
            won += sum(p for _, p in left) * manhunt_chance(left)
    return won


def best_before_42(
    routes: Weighted, threshold: int, preferred: tuple[int, ...] = ()
) -> tuple[tuple[int, ...], float]:
    """The best guess before 42 among the same options as the fast version."""
    options = guess_options(tuple(routes), threshold)
    if preferred:
        options.add(preferred)
    scored = {o: chance_if_42_next(o, routes, threshold) for o in options}
    best = min(scored, key=lambda o: (-scored[o], len(o), o))
    if preferred and scored[preferred] >= scored[best] - 1e-9:
        best = preferred
    return best, scored[best]
