"""Scotland Yard for the search layer: world sampling, playouts, move filtering and classes.

Worlds.  Mr. X sees everything: his sampler replays his view into the one true state.  The
detectives' sampler (:class:`DetectiveSampler`) reads the public events into the tracker
(``docs/scotland-yard.md``, "Where Mr. X can be"), so every world puts Mr. X on a station of
its possible set *P* (never outside it, never on a detective).  His current station is drawn
from *P* uniformly (``model=uniform``) or biased by location categories (``model=categories``,
the default; Nijssen & Winands): each station's category is its distance to the nearest
detective, and each category has a weight: a prior (:data:`PRIOR`) updated by this game's
reveals (how often the revealed station fell in each category, against how often a uniform
draw from the set just before the reveal would have).  The prior is flat: one measured against
the heuristic Mr. X (far stations up to 8 times likelier than next to a detective) caught him
no more often in 40-game trials, and a flat one assumes nothing about the opponent.  The path
that led there is drawn backwards through the tracker's history: at each entry a uniformly random
station of the set then that one ticket move leads from, so every world replays exactly to the
view; :meth:`DetectiveSampler.sample_state` builds that world directly from the public state.

Playouts.  The "random" policy moves Mr. X uniformly among his single moves (double moves are
left to the tree) and each detective uniformly among his legal moves.  The heuristic of
epsilon-greedy playouts (:mod:`~sleuth.games.scotland_yard.tactics`): Mr. X moves to the station
farthest from the nearest detective; a detective steps towards Mr. X's station in the world.
At a depth limit (the default, :data:`SEARCH_DEFAULTS`) the position is scored by
:meth:`ScotlandYardSearchModel.evaluate` from the detectives' distances to Mr. X.

Move filtering (Mr. X, after inejc/scotland-yard's reading of Nijssen): one ticket per
destination, the transport ticket he holds most of, or black when black is the only way or when
it hides him much better (:func:`~sleuth.games.scotland_yard.tactics.hides`, judged on
:func:`~sleuth.games.scotland_yard.tactics.log_possible`) -- never on a reveal entry, before
the first reveal or from a station with only taxi edges; double moves only when a detective is
within :data:`DOUBLE_NEAR` moves, each leg with the transport ticket he holds most of (black
only where nothing else goes).  Without the filter his search, whose detectives know where he
is, would value black and a transport ticket alike and spend black tickets at random.  The
filter reads Mr. X's own state only (he sees everything); if it leaves nothing, every legal move
is a candidate.  To the detectives Mr. X's moves fall into classes by what they show: the
tickets and any station revealed.  A capture is credited to the seat of the detective who made
it (for the coalition reduction ``r`` with a seat per detective).
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from itertools import accumulate
from typing import Any

from sleuth.core.bitsets import mask_of, members
from sleuth.core.errors import SleuthError
from sleuth.core.events import Event, View
from sleuth.core.game import Game, State
from sleuth.core.searchmodel import SearchModel, WorldSampler, replay_history
from sleuth.games.scotland_yard.belief import MrXBelief
from sleuth.games.scotland_yard.catalogue import DEFAULT_SEARCH_MODEL as DEFAULT_MODEL
from sleuth.games.scotland_yard.catalogue import IMPLEMENTATIONS as IMPLEMENTATIONS
from sleuth.games.scotland_yard.catalogue import SEARCH_DEFAULTS as SEARCH_DEFAULTS
from sleuth.games.scotland_yard.catalogue import SEARCH_ITERATION_COST, SEARCH_OPTIONS
from sleuth.games.scotland_yard.moves import (
    PASS,
    Action,
    DoubleMove,
    Move,
    Start,
    Ticket,
    single_moves,
)
from sleuth.games.scotland_yard.playouts import escape_share, playout
from sleuth.games.scotland_yard.rules import (
    MRX,
    TO_MRX,
    ScotlandYardGame,
    ScotlandYardState,
    board_for,
)
from sleuth.games.scotland_yard.tactics import (
    FAR,
    Tables,
    detective_greedy,
    hides,
    log_possible,
    mrx_greedy,
    mrx_ticket,
    tables,
)
from sleuth.games.scotland_yard.tracker import Tracker

CATEGORIES = 5
"""Location categories: the distance to the nearest detective, 1 .. 4, and 5 or more."""
PRIOR = (1.0, 1.0, 1.0, 1.0, 1.0)
"""Each category's prior weight (how much likelier than a uniform draw Mr. X is found there)."""
PRIOR_STRENGTH = 1.0
"""How many uniform draws' worth of evidence the prior counts for, against this game's reveals."""
DOUBLE_NEAR = 2
"""Mr. X considers double moves only when a detective is at most this far (C8)."""


def _sy_game(game: Game[Any]) -> ScotlandYardGame:
    assert isinstance(game, ScotlandYardGame)
    return game


def _sy_state(state: State[Any]) -> ScotlandYardState:
    assert isinstance(state, ScotlandYardState)
    return state


Reveal = tuple[int, tuple[int, ...], int]
"""A reveal as the detectives saw it: the entry, their stations then, Mr. X's station."""


def public_reveals(events: Sequence[Event]) -> list[Reveal]:
    """The reveals among ``events`` (public fields only), in order."""
    detectives: list[int] = []
    found: list[Reveal] = []
    for event in events:
        public = event.public
        if event.kind == "start":
            detectives = list(public["detectives"])
        elif event.kind == "detective_moved":
            detectives[public["detective"]] = public["station"]
        elif event.kind == "mrx_moved" and public["reveal"] is not None:
            found.append((int(public["entry"]), tuple(detectives), int(public["reveal"])))
    return found


def category_weights(t: Tables, tracker: Tracker, reveals: Sequence[Reveal]) -> list[float]:
    """Each category's weight: :data:`PRIOR` updated by ``reveals`` (see the module
    docstring).  Every weight is positive."""
    hits = [0.0] * CATEGORIES
    expected = [0.0] * CATEGORIES
    for entry, detectives, station in reveals:
        blocked = mask_of(detectives)
        before = members(
            tracker.tables.reach(tracker.history[entry - 1], tracker.tickets[entry - 1]) & ~blocked
        )
        for s in before:
            expected[category(t, s, detectives)] += 1.0 / len(before)
        hits[category(t, station, detectives)] += 1.0
    return [
        (PRIOR_STRENGTH * PRIOR[c] + hits[c]) / (PRIOR_STRENGTH + expected[c])
        for c in range(CATEGORIES)
    ]


def category(t: Tables, station: int, detectives: Sequence[int]) -> int:
    """The category (0-based) of ``station``: its distance to the nearest detective, capped."""
    row = t.dist[station]
    return min(min((row[d] for d in detectives), default=CATEGORIES), CATEGORIES) - 1


class DetectiveSampler:
    """Worlds of the detectives' view: Mr. X on a possible station, reached by a consistent path
    (see the module docstring)."""

    def __init__(self, game: ScotlandYardGame, view: View, model: str) -> None:
        self.game = game
        self.events = view.events
        tracker = MrXBelief.from_view(game, view).tracker
        if tracker is None or tracker.caught is not None:
            raise SleuthError("the detectives sample worlds only while Mr. X is free")
        self.tracker = tracker
        self.tables = tables(game.board)
        self.stations = members(tracker.possible)
        if model == "categories":
            weights = category_weights(self.tables, tracker, public_reveals(self.events))
            detectives = tracker.detectives
            self.cum: list[float] | None = list(
                accumulate(weights[category(self.tables, s, detectives)] for s in self.stations)
            )
        else:
            self.cum = None
        template, _ = replay_history(game, self.sample_history(random.Random(0)))
        self.template = _sy_state(template)

    def path(self, rng: random.Random) -> list[int]:
        """Mr. X's station at the start and after each entry, ending at a station of ``P``."""
        if self.cum is None:
            station = rng.choice(self.stations)
        else:
            station = rng.choices(self.stations, cum_weights=self.cum)[0]
        return self.tracker.sample_path(rng, station)

    def sample_history(self, rng: random.Random) -> list[Action]:
        walk = self.path(rng)
        history: list[Action] = []
        first: Move | None = None
        for event in self.events:
            public = event.public
            if event.kind == "start":
                history.append(Start(walk[0], tuple(public["detectives"])))
            elif event.kind == "mrx_moved":
                move = Move(walk[public["entry"]], Ticket(public["ticket"]))
                if public["leg"] == 1:
                    first = move
                    continue
                history.append(move if first is None else DoubleMove(first, move))
                first = None
            elif event.kind == "detective_moved":
                history.append(Move(public["station"], Ticket(public["ticket"])))
            elif event.kind == "detective_passed":
                history.append(PASS)
        return history

    def sample_state(self, rng: random.Random) -> ScotlandYardState:
        walk = self.path(rng)
        state = self.template.clone()
        state.mrx = walk[-1]
        state.log = [(ticket, walk[k]) for k, (ticket, _) in enumerate(state.log, start=1)]
        return state


def mrx_history(view: View) -> list[Action]:
    """Every action of the game so far, from Mr. X's view (he sees them all)."""
    history: list[Action] = []
    first: Move | None = None
    for event in view.events:
        public, private = event.public, event.private
        if event.kind == "start":
            assert private is not None, "Mr. X sees his start station"
            history.append(Start(private["mrx"], tuple(public["detectives"])))
        elif event.kind == "mrx_moved":
            assert private is not None, "Mr. X sees his own moves"
            move = Move(private["station"], Ticket(public["ticket"]))
            if public["leg"] == 1:
                first = move
                continue
            history.append(move if first is None else DoubleMove(first, move))
            first = None
        elif event.kind == "detective_moved":
            history.append(Move(public["station"], Ticket(public["ticket"])))
        elif event.kind == "detective_passed":
            history.append(PASS)
    return history


def mrx_state(game: ScotlandYardGame, view: View) -> ScotlandYardState:
    """The true state, rebuilt from Mr. X's view."""
    state, _ = replay_history(game, mrx_history(view))
    return _sy_state(state)


class MrXSampler:
    """Mr. X knows the whole state: his view replays to the one world there is."""

    def __init__(self, game: ScotlandYardGame, view: View) -> None:
        self.history = mrx_history(view)
        self.state, _ = replay_history(game, self.history)

    def sample_history(self, rng: random.Random) -> list[Action]:
        return list(self.history)

    def sample_state(self, rng: random.Random) -> State[Action]:
        return self.state.clone()


def mrx_candidates(state: ScotlandYardState) -> Sequence[Action]:
    """Mr. X's filtered moves (see the module docstring): one ticket per destination, double
    moves only near a detective.  Never empty in a state where he has a legal move."""
    legal = state.legal_actions()
    game = state.game
    t = tables(game.board)
    reveals = game.profile.reveals
    entry = state.entries + 1
    station, tickets = state.mrx, state.mrx_tickets
    hiding = (
        tickets[Ticket.BLACK.slot] > 0
        and entry not in reveals
        and entry >= min(reveals, default=0)
        and not t.plain_only_taxi[station]
    )
    possible = log_possible(state) if hiding else 0
    black_for: dict[Ticket, bool] = {}
    single: dict[int, Ticket] = {}
    for action in legal:
        if isinstance(action, Move) and action.station not in single:
            ticket = mrx_ticket(t, station, action.station, tickets)
            if hiding and ticket is not Ticket.BLACK:
                if ticket not in black_for:
                    black_for[ticket] = hides(state, possible, ticket)
                if black_for[ticket]:
                    ticket = Ticket.BLACK
            single[action.station] = ticket
    kept: list[Action] = [a for a in legal if isinstance(a, Move) and single[a.station] is a.ticket]
    if min((t.dist[station][d] for d in state.detectives), default=FAR) <= DOUBLE_NEAR:
        second: dict[Move, list[int]] = {}
        for action in legal:
            if isinstance(action, DoubleMove):
                first = action.first
                if single[first.station] is not first.ticket:
                    continue
                rest = second.get(first)
                if rest is None:
                    rest = second[first] = list(tickets)
                    rest[first.ticket.slot] -= 1
                leg = action.second
                if mrx_ticket(t, first.station, leg.station, rest) is leg.ticket:
                    kept.append(action)
    return kept if kept else legal


def detective_candidates(state: ScotlandYardState) -> Sequence[Action]:
    """The legal moves of the detective to move, as :meth:`ScotlandYardState.legal_actions`
    lists them, from a per-board cache (:attr:`Tables.detective_moves`): one tuple object per
    station, tickets held and neighbours occupied."""
    return _detective_entry(state)[0]


def detective_classes(state: ScotlandYardState) -> Mapping[Hashable, Sequence[Action]]:
    """The detective's legal moves each in a class of its own (everyone sees them), in the
    order of :func:`detective_candidates`, from the same cache (not to be changed)."""
    return _detective_entry(state)[1]


def _detective_entry(
    state: ScotlandYardState,
) -> tuple[tuple[Action, ...], dict[Hashable, tuple[Action]]]:
    t = tables(state.game.board)
    i = state.to_move
    station = state.detectives[i]
    tickets = state.detective_tickets[i]
    occupied = 0
    for j, d in enumerate(state.detectives):
        if j != i:
            occupied |= 1 << d
    held = (tickets[0] > 0) | (tickets[1] > 0) << 1 | (tickets[2] > 0) << 2
    key = (station, held, occupied & t.legs[3][station])
    entry = t.detective_moves.get(key)
    if entry is None:
        moves: tuple[Action, ...] = state.detective_moves(i) or (PASS,)
        classes: dict[Hashable, tuple[Action]] = {move: (move,) for move in moves}
        entry = t.detective_moves[key] = (moves, classes)
    return entry


def observed_label(state: ScotlandYardState, action: Action) -> Hashable:
    """What the detectives see of Mr. X's ``action``: each leg's ticket and revealed station."""
    reveals = state.game.profile.reveals
    entry = state.entries
    if isinstance(action, Move):
        return ((str(action.ticket), action.station if entry + 1 in reveals else None),)
    assert isinstance(action, DoubleMove)
    first, second = action.first, action.second
    return (
        (str(first.ticket), first.station if entry + 1 in reveals else None),
        (str(second.ticket), second.station if entry + 2 in reveals else None),
    )


class ScotlandYardSearchModel(SearchModel[Action]):
    """Scotland Yard's hooks for :mod:`sleuth.search` (see the module docstring).
    ``world_model`` (option ``model``) weighs Mr. X's stations in the detectives' worlds."""

    options = SEARCH_OPTIONS
    iteration_cost = SEARCH_ITERATION_COST

    def __init__(self, world_model: str = DEFAULT_MODEL, impl: str = "fast") -> None:
        self.world_model = world_model
        self.impl = impl

    def configured(self, **values: Any) -> ScotlandYardSearchModel:
        return ScotlandYardSearchModel(
            values.get("model", self.world_model), values.get("impl", self.impl)
        )

    def warm_up(self) -> None:
        """Build the distance tables of the default board (the first search's budget would
        otherwise pay for them)."""
        tables(board_for(""))

    def sampler(self, game: Game[Action], view: View) -> WorldSampler[Action]:
        sy = _sy_game(game)
        if view.seat == MRX:
            return MrXSampler(sy, view)
        return DetectiveSampler(sy, view, self.world_model)

    def rollout_action(self, state: State[Action], rng: random.Random) -> Action:
        sy = _sy_state(state)
        if sy.to_move != TO_MRX:
            return rng.choice(state.legal_actions())
        blocked = 0
        for d in sy.detectives:
            blocked |= 1 << d
        moves = single_moves(sy.game.board, sy.mrx, sy.mrx_tickets, blocked)
        return rng.choice(moves) if moves else rng.choice(state.legal_actions())

    def heuristic_action(self, state: State[Action], rng: random.Random) -> Action | None:
        sy = _sy_state(state)
        t = tables(sy.game.board)
        if sy.to_move == TO_MRX:
            return mrx_greedy(t, sy.mrx, sy.mrx_tickets, sy.detectives, rng)
        i = sy.to_move
        occupied = 0
        for j, d in enumerate(sy.detectives):
            if j != i:
                occupied |= 1 << d
        move = detective_greedy(t, sy.detectives[i], sy.detective_tickets[i], occupied, sy.mrx, rng)
        return PASS if move is None else move

    def candidate_moves(self, state: State[Action]) -> Sequence[Action] | None:
        sy = _sy_state(state)
        if sy.to_move == TO_MRX:
            return mrx_candidates(sy)
        return detective_candidates(sy) if self.impl == "fast" else None

    def move_classes(
        self, state: State[Action], observers: frozenset[int]
    ) -> Mapping[Hashable, Sequence[Action]] | None:
        sy = _sy_state(state)
        if sy.to_move != TO_MRX:
            if self.impl == "fast":
                return detective_classes(sy)
            return {action: (action,) for action in state.legal_actions()}
        classes: dict[Hashable, list[Action]] = {}
        for action in mrx_candidates(sy):
            classes.setdefault(observed_label(sy, action), []).append(action)
        return classes

    def fast_playout(
        self,
        state: State[Action],
        rng: random.Random,
        greedy: bool,
        epsilon: float,
        left: int | None,
    ) -> tuple[Sequence[float], int | None] | None:
        sy = _sy_state(state)
        if self.impl != "fast" or not sy.round:
            return None
        return playout(sy, rng, greedy, epsilon, left)

    def evaluate(self, state: State[Action]) -> Sequence[float]:
        """Win shares at a depth limit
        (:data:`~sleuth.games.scotland_yard.playouts.EVAL_BASE`): a detective near Mr. X counts
        most, and several near him count more than one."""
        sy = _sy_state(state)
        if sy.is_terminal():
            return sy.wins()
        escape = escape_share(tables(sy.game.board).dist[sy.mrx], sy.detectives)
        return (escape,) + (1.0 - escape,) * (sy.game.num_players - 1)

    def credit(self, state: State[Action]) -> int | None:
        sy = _sy_state(state)
        if sy.termination_reason != "caught":
            return None
        return sy.game.seat_of(sy.to_move)
