"""The Marshal's belief when she knows how the Fugitive plays.

The exact belief (:mod:`~sleuth.games.fugitive.belief`) weighs every world the rules allow by
a simple model of his choices.  When the Marshal knows whom she faces, a Fugitive whose move
probabilities are known (a :class:`~sleuth.games.fugitive.players.fugitives.Strategy`: the heuristic
and steady Fugitives), she can weigh each world by the probability that he played it, and a
world where he would have played otherwise is impossible.

:class:`StrategyBelief` follows her view event by event over every hand and route he can have:

- his draws branch over the cards of that pile she has never seen (equally likely; she may
  draw a card later, so it was not there for him);
- his moves branch over the strategy's moves with their probabilities;
- her moves are hers;
- a branch whose events differ from her view at any point is dropped (a pile, a pass, a
  sprint count, a guess's result, a reveal), and branches that reach the same hand and route
  are merged, their weights added.

What is left is the exact posterior over his hand and route, given her view, the strategy and
a uniform shuffle.  Invariant: every branch kept is a game the strategy plays with positive
probability that shows her exactly the events read so far.  The number of branches grows with
the cards he holds unseen; beyond ``max_states`` it gives up (:class:`SolverLimitError`).
"""

from __future__ import annotations

from collections.abc import Sequence

from sleuth.core.errors import IllegalActionError, SleuthError, SolverLimitError
from sleuth.core.events import JSON, Event, freeze, thaw
from sleuth.core.game import CHANCE
from sleuth.games.fugitive.deduction.endgame import (
    Route,
    Routes,
    manhunt_chance,
    route_sets,
    routes_of,
)
from sleuth.games.fugitive.engine.actions import SKIP, Card, Draw, FugitiveAction, Guess
from sleuth.games.fugitive.engine.cards import LAST, cards_of
from sleuth.games.fugitive.players.fugitives import Strategy
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame, FugitiveState

MAX_STATES = 100_000
"""Branches kept at once before :class:`StrategyBelief` gives up.  Reading from the start, the
opening weighs each of the 15,015 hands the setup can deal (fewer once the Marshal holds some
of those cards); at the Manhunt a few to a few thousand are usually left."""

EXPECTIMAX_ROUTES = 2_000
"""Possible sets of face-down hideouts (with their stacks) beyond which
:meth:`StrategyBelief.manhunt_guess` gives up; at the Manhunt a few tens are usual."""

_Key = tuple[int, tuple[tuple[int, tuple[int, ...], bool], ...]]


class StrategyBelief:
    """The Fugitive's possible hands and routes, weighted, after the Marshal's events so far
    (see the module docstring).  :meth:`update` reads further events of the same view."""

    def __init__(
        self, game: FugitiveGame, strategy: Strategy, max_states: int = MAX_STATES
    ) -> None:
        self.game = game
        self.strategy = strategy
        self.max_states = max_states
        self.states: list[tuple[FugitiveState, float]] = [(game.new_initial_state(), 1.0)]
        """Each branch with its weight (relative: only ratios matter)."""
        self._pending: dict[_Key, tuple[Event, ...]] = {}
        """Per branch, the events of its last action that the view has not shown yet (a view
        cut partway through an action); they must come next."""
        self.events: list[Event] = []
        """The events read so far."""
        self._view: list[tuple[str, JSON]] = []
        """Their kinds and public fields, as the rules engine makes them (for comparison)."""
        self._furthest = 0
        """The furthest event of the view some branch has been compared with (while reading)."""

    def copy(self) -> StrategyBelief:
        """This belief as read so far, to read on apart: the branches' states are shared,
        since reading clones a state before it changes it."""
        out = StrategyBelief(self.game, self.strategy, self.max_states)
        out.states, out._pending = list(self.states), dict(self._pending)
        out.events, out._view = list(self.events), list(self._view)
        return out

    def update(self, events: Sequence[Event]) -> None:
        """Read ``events``, the Marshal's whole view so far (the events already read must be
        its beginning).  A view the strategy cannot produce is a :class:`SleuthError` naming
        the first event no game of his shows, more than ``max_states`` branches a
        :class:`SolverLimitError`; either way the belief is left as it was."""
        if list(events[: len(self.events)]) != self.events:
            raise SleuthError("the events already read are not the beginning of this view")
        new = list(events[len(self.events) :])
        if not new:
            return
        read = len(self._view)
        self._view += [(e.kind, freeze(thaw(e.public))) for e in new]
        self.events += new
        try:
            self.states, self._pending = self._read_from(read, events)
        except SleuthError:
            del self._view[read:], self.events[read:]
            raise

    def _read_from(
        self, read: int, events: Sequence[Event]
    ) -> tuple[list[tuple[FugitiveState, float]], dict[_Key, tuple[Event, ...]]]:
        """:meth:`_advance` from event ``read`` on, with its failures as SleuthErrors."""
        try:
            marshal_cards = {
                int(e.private["card"])
                for e in events
                if e.kind == "drew" and e.public["seat"] == MARSHAL and e.private is not None
            }
            states, pending = self._advance(read, marshal_cards)
        except SleuthError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:  # a field bad or missing
            raise SleuthError(
                f"a malformed event among these: bad or missing field {exc}"
            ) from None
        if not states:
            shown = min(self._furthest, len(events) - 1)
            event = events[shown]
            raise SleuthError(
                f"event {shown + 1} ({event.kind} {dict(event.public)}): no game of this "
                "Fugitive strategy shows it after the events before it"
            )
        return states, pending

    def _advance(
        self, read: int, marshal_cards: set[int]
    ) -> tuple[list[tuple[FugitiveState, float]], dict[_Key, tuple[Event, ...]]]:
        """The branches that show the view from event ``read`` on, and their pending events;
        :attr:`_furthest` is left at the furthest event some branch was compared with (the
        culprit when none is left).  Branches whose Fugitive held a card she has drawn since
        are dropped first: it was never his.  The states of :attr:`states` are copied first,
        so that an error leaves them as they were."""
        end = len(self._view)
        frontier = []
        for state, weight in self.states:
            if _holds(state, marshal_cards):
                continue
            reached, rest = self._match(self._pending.get(_key(state), ()), read)
            if reached >= 0:
                frontier.append((state.clone(), weight, reached, rest))
        finished: dict[_Key, tuple[FugitiveState, float]] = {}
        pending: dict[_Key, tuple[Event, ...]] = {}
        self._furthest = read
        while frontier:
            grown: dict[_Key, tuple[FugitiveState, float, int, tuple[Event, ...]]] = {}
            for state, weight, index, rest in frontier:
                children = (
                    [(state, 1.0, index, rest)]
                    if index == end
                    else self._children(state, index, marshal_cards)
                )
                for child, p, reached, left in children:
                    key = _key(child)
                    if reached == end:
                        known = finished.get(key)
                        finished[key] = (child, weight * p + (known[1] if known else 0.0))
                        if left:
                            pending[key] = left
                    else:
                        seen = grown.get(key)
                        total = weight * p + (seen[1] if seen else 0.0)
                        grown[key] = (child, total, reached, ())
            if len(grown) + len(finished) > self.max_states:
                raise SolverLimitError(
                    f"the Fugitive's strategy leaves over {self.max_states:,} hands and routes"
                )
            frontier = list(grown.values())
        return list(finished.values()), pending

    def _children(
        self, state: FugitiveState, index: int, marshal_cards: set[int]
    ) -> list[tuple[FugitiveState, float, int, tuple[Event, ...]]]:
        """The branches one action after ``state``, which has shown the view up to ``index``:
        each with its probability, how far into the view it reaches, and the events of the
        action beyond the view's end."""
        kind, public = self._view[index]
        seat = state.current_player()
        moves: list[tuple[float, FugitiveAction]]
        if seat == CHANCE:
            if public.get("seat") == MARSHAL:  # her card: checked against the rules
                card = self.events[index].private["card"]  # type: ignore[index]
                return self._checked(state, Card(int(card)), index)
            pile_number = int(public["pile"])
            if pile_number not in (1, 2, 3):
                raise SleuthError(f"pile {pile_number}: the piles are 1, 2 and 3")
            pile = state.piles[pile_number - 1]  # any card of it she has never seen
            moves = [(1.0, Card(c)) for c in cards_of(pile) if c not in marshal_cards]
        elif seat == FUGITIVE:
            hand = cards_of(state.hands[FUGITIVE])
            moves = self.strategy.strategy(hand, state.last_hideout, state.legal_actions())
        elif seat == MARSHAL:
            return self._checked(state, _marshal_action(kind, public), index)
        else:
            return []  # the game is over before the view is
        children = []
        for p, action in moves:
            if p <= 0:
                continue
            child = state.clone() if len(moves) > 1 else state
            reached, left = self._match(child.apply_trusted(action), index)
            if reached >= 0:
                children.append((child, p, reached, left))
        return children

    def _checked(
        self, state: FugitiveState, action: FugitiveAction, index: int
    ) -> list[tuple[FugitiveState, float, int, tuple[Event, ...]]]:
        """The Marshal's action or card after ``state``, checked against the rules (an
        :class:`~sleuth.core.errors.IllegalActionError` names it): the view gives it, so
        every branch must allow it."""
        try:
            produced = state.apply(action)
        except IllegalActionError as exc:
            event = self.events[index]
            raise SleuthError(
                f"event {index + 1} ({event.kind} {dict(event.public)}): {exc}"
            ) from None
        reached, left = self._match(produced, index)
        return [(state, 1.0, reached, left)] if reached >= 0 else []

    def _match(self, events: Sequence[Event], index: int) -> tuple[int, tuple[Event, ...]]:
        """How far into the view ``events`` reach from ``index`` (-1 if they differ from it),
        and those beyond its end."""
        for n, event in enumerate(events):
            if index == len(self._view):
                return index, tuple(events[n:])
            self._furthest = max(self._furthest, index)
            if (event.kind, event.public) != self._view[index]:
                return -1, ()
            index += 1
        return index, ()

    def routes(self) -> Routes:
        """The probability of each set of face-down hideouts (42 aside) with their positions
        and sprint cards (the hands behind them no longer matter at the end of the hunt)."""
        weights: dict[Route, float] = {}
        for state, weight in self.states:
            route = tuple(
                (position, h.value, h.sprints)
                for position, h in enumerate(state.route)
                if position and not h.face_up and h.value != LAST
            )
            weights[route] = weights.get(route, 0.0) + weight
        return routes_of(weights)

    def manhunt_guess(self) -> tuple[int, float]:
        """The Manhunt's best guess under his strategy and its chance of winning it
        (:func:`~sleuth.games.fugitive.deduction.endgame.manhunt_chance`).  A ValueError when no
        face-down hideout is left, a :class:`SolverLimitError` beyond
        :data:`EXPECTIMAX_ROUTES` possible sets of them or the expectimax's budget
        (:data:`~sleuth.games.fugitive.deduction.endgame.EXPECTIMAX_NODES`)."""
        routes = self.routes()
        if not routes or not routes[0][0]:
            raise ValueError("no face-down hideout is left to guess")
        if len(routes) > EXPECTIMAX_ROUTES:
            raise SolverLimitError(
                f"{len(routes):,} sets of face-down hideouts: over {EXPECTIMAX_ROUTES:,} for "
                "the exact Manhunt"
            )
        chance, number = manhunt_chance(routes)
        assert number is not None
        return number, chance

    def face_down_sets(self) -> dict[frozenset[int], float]:
        """The probability of each set of face-down hideout values (42 left out)."""
        return route_sets(self.routes())


def _marshal_action(kind: str, public: JSON) -> FugitiveAction:
    """The Marshal's action behind an event of her view."""
    if kind == "chose_pile":
        return Draw(int(public["pile"]))
    if kind == "guessed":
        return Guess(tuple(public["numbers"]))
    if kind == "skipped":
        return SKIP
    raise SleuthError(f"a {kind!r} event where the Marshal is to act")


def _holds(state: FugitiveState, cards: set[int]) -> bool:
    """The Fugitive has had one of ``cards`` (in his hand or on his route)."""
    had = set(cards_of(state.hands[FUGITIVE]))
    for hideout in state.route:
        had.add(hideout.value)
        had.update(hideout.sprints)
    return not had.isdisjoint(cards)


def _key(state: FugitiveState) -> _Key:
    """What tells two branches apart: his hand and route (the piles follow from them)."""
    route = tuple((h.value, h.sprints, h.face_up) for h in state.route)
    return state.hands[FUGITIVE], route
