"""Scotland Yard as tensors for learning agents (:class:`~sleuth.core.encoding.Encoding`).

Actions (``n`` stations): one id per ``(ticket, station)`` leg, a ``double`` id, a ``pass`` id.

=================  ==========================  ==================================================
ids                text                        meaning
=================  ==========================  ==================================================
``t·n + s - 1``    ``taxi 34`` .. ``black 5``  a move to station ``s`` paid with ticket ``t``
                                               (taxi 0, bus 1, underground 2, black 3)
``4n``             ``double``                  Mr. X starts a double move: a leg id follows for
                                               each leg, first then second
``4n + 1``         ``pass``                    a stuck detective's turn (S25)
=================  ==========================  ==================================================

A single move is one id; ``double bus 46 black 79`` is ``[4n, n + 45, 3n + 78]``
(:meth:`ScotlandYardEncoding.ids_of`).  After ``double`` the mask allows only first legs that
some second leg completes, so no id leads to a dead end.  A detective's move is one id whether
one seat moves every detective (``seats=2``: the ``to move`` segment says which one) or each
has a seat.  Mr. X never passes: with no move he has lost (S26).

Observations (``S`` seats, ``D`` detectives, ``L`` log entries; see
:meth:`ScotlandYardEncoding.describe` for the indices), every value in ``[0, 1]`` (the segments'
bounds, those of the adapters' spaces: no count exceeds what it is divided by):

=================  ===========  ===================================================================
segment            size         meaning
=================  ===========  ===================================================================
seat               S            one-hot: the observing seat (0 Mr. X; then the detectives' seat or
                                seats)
to move            1 + D        one-hot: Mr. X, detective 1 .. D; zeros before the start and once
                                the game is over
clock              4            the round / ``L``; entries filled / ``L``; entries to the next
                                reveal entry / ``L`` (0 if none is left); entries since the last
                                reveal (or the start) / ``L``
detective tickets  D × 3        row ``i``: detective ``i + 1``'s taxi, bus, underground tickets /
                                his start counts
mrx tickets        5            Mr. X's taxi, bus, underground, black, double tickets / the most
                                he can hold (1 for an unlimited supply, 2014)
detectives         D × n        row ``i``: 1 at detective ``i + 1``'s station
log                L × 5        row ``k``: entry ``k + 1``'s ticket one-hot (taxi, bus,
                                underground, black), then 1 if it is a leg of a double move
last reveal        n            1 at the station where Mr. X was last shown
mrx station        n            1 at Mr. X's station: his own seat only, zeros for the detectives
prefix             1 + n + 4    1 once ``double`` is chosen; the first leg's station and ticket
                                once it is chosen (the seat to move only)
=================  ===========  ===================================================================

With ``belief=True`` two more segments of ``n``, the detectives' exact deduction
(:class:`~sleuth.games.scotland_yard.belief.MrXBelief`, "Where Mr. X can be" in
``docs/scotland-yard.md``), from public events only, so the same for every seat (it tells Mr. X
how exposed he is): ``possible`` (1 at each station Mr. X may be at) and ``random walk`` (each
station's probability under the tracker's ``random-walk`` model).

Everything is read from the view's events (:mod:`~sleuth.games.scotland_yard.reading`): the
public state by the Monte Carlo detective's :class:`~sleuth.games.scotland_yard.mc.PublicRecord`
(ticket counts, the round and whose turn it is follow the rules there), the belief by
:class:`~sleuth.games.scotland_yard.belief.MrXBelief`, Mr. X's station from his private fields.
Each view's reading is kept and extended by the events added since, and every seat of a game
shares the reading of its public events.
"""

from __future__ import annotations

from collections.abc import Sequence

from sleuth.core.encoding import ActionBuilder, Encoding, Observation, Segment
from sleuth.core.errors import IllegalActionError
from sleuth.core.events import View
from sleuth.core.game import CHANCE, TERMINAL, State
from sleuth.games.scotland_yard.moves import (
    LEG_TICKETS,
    PASS,
    TRANSPORT_TICKETS,
    Action,
    DoubleMove,
    Move,
    Pass,
)
from sleuth.games.scotland_yard.reading import SharedReadings
from sleuth.games.scotland_yard.rules import ScotlandYardGame

TRANSPORTS = len(TRANSPORT_TICKETS)
"""Ticket kinds a detective holds: taxi, bus, underground."""


class ScotlandYardEncoding(Encoding[Action]):
    """The encoding of one Scotland Yard game (its board and options fix the sizes)."""

    version = 1

    max_prefix = 2

    def __init__(self, game: ScotlandYardGame) -> None:
        super().__init__(game)
        self.sy_game = game
        p = game.profile
        n, d, length = game.board.n, p.detectives, p.log_length
        self.slots = {ticket: i for i, ticket in enumerate(LEG_TICKETS)}
        """Each leg ticket's place in the id space (taxi 0, bus 1, underground 2, black 3)."""
        self.double_id = len(LEG_TICKETS) * n
        self.pass_id = self.double_id + 1
        self.action_count = self.pass_id + 1
        self.segments = (
            Segment("seat", game.num_players, "one-hot: the observing seat (0 Mr. X)"),
            Segment("to move", 1 + d, "one-hot: Mr. X, detective 1..D (zeros if nobody)"),
            Segment("clock", 4, "round, entries, entries to next reveal, since last reveal; / L"),
            Segment("detective tickets", d * TRANSPORTS, "row i: taxi, bus, underground left"),
            Segment("mrx tickets", 5, "taxi, bus, underground, black, double / most he can hold"),
            Segment("detectives", d * n, "row i: 1 at detective i+1's station"),
            Segment("log", length * 5, "row k: entry k+1's ticket one-hot, then double-move leg"),
            Segment("last reveal", n, "1 at the station where Mr. X was last shown"),
            Segment("mrx station", n, "1 at Mr. X's station (his own seat only)"),
            Segment(
                "prefix", 1 + n + len(LEG_TICKETS), "double chosen; first leg's station, ticket"
            ),
        )
        self.belief_segments = (
            Segment("possible", n, "1 at each station the detectives' tracker holds possible"),
            Segment("random walk", n, "each station's probability under the random-walk model"),
        )
        self.start = {
            s.name: sum(x.size for x in self.segments[:i]) for i, s in enumerate(self.segments)
        }
        """Each segment's first index."""
        self.ticket_scale = [1.0 / max(count, 1) for count in p.detective_tickets]
        """What a detective's taxi, bus and underground counts are multiplied by."""
        gifts = [d * count if p.tickets_to_mrx else 0 for count in p.detective_tickets]
        most = [p.mrx_tickets[k] + gifts[k] for k in range(TRANSPORTS)] + list(p.mrx_tickets[3:])
        self.mrx_scale = [1.0 / max(count, 1) for count in most]
        """What Mr. X's five counts are multiplied by (an unlimited supply is written 1)."""
        self.reveals = sorted(p.reveals)
        self._readings = SharedReadings(self)

    # --- actions ----------------------------------------------------------------------------

    def move_id(self, move: Move) -> int:
        """The id of one leg (a single move, a detective's move, or either leg of a double)."""
        slot, n = self.slots.get(move.ticket), self.sy_game.board.n
        if slot is None or not 1 <= move.station <= n:
            raise ValueError(f"{move}: not a leg on this board (a leg ticket, a station 1-{n})")
        return slot * n + move.station - 1

    def ids_of(self, action: Action) -> tuple[int, ...]:
        """The ids that build ``action``, in order (the inverse of the builder)."""
        if isinstance(action, Move):
            return (self.move_id(action),)
        if isinstance(action, DoubleMove):
            return (self.double_id, self.move_id(action.first), self.move_id(action.second))
        if isinstance(action, Pass):
            return (self.pass_id,)
        raise ValueError(f"{action}: the deal is chance's, not a seat's action (no ids)")

    def builder(self, state: State[Action]) -> ScotlandYardActions:
        return ScotlandYardActions(self, state)

    def id_text(self, action_id: int) -> str:
        n = self.sy_game.board.n
        if action_id == self.double_id:
            return "double"
        if action_id == self.pass_id:
            return str(PASS)
        if not 0 <= action_id < self.double_id:
            raise ValueError(f"{action_id} is not a Scotland Yard action id (0-{self.pass_id})")
        return str(Move(action_id % n + 1, LEG_TICKETS[action_id // n]))

    # --- observations -----------------------------------------------------------------------

    def observe_into(self, out: Observation, view: View, prefix: Sequence[int]) -> None:
        self._readings.of(view).write(out)
        if not prefix:
            return
        at = self.start["prefix"]
        out[at] = 1.0
        if len(prefix) > 1:
            n = self.sy_game.board.n
            first = prefix[1]
            out[at + 1 + first % n] = 1.0
            out[at + 1 + n + first // n] = 1.0

    def belief_into(self, out: Observation, view: View) -> None:
        public = self._readings.of(view).public
        if public is not None:
            out[:] = public.belief()


class ScotlandYardActions(ActionBuilder[Action]):
    """The ids towards the next action of the seat to move (see the module docstring).

    The state's legal actions are read once; double moves are grouped by their legs only once
    ``double`` is chosen.  ``_step`` maps each id that may come next to the action it completes
    (None: more ids follow)."""

    def __init__(self, encoding: ScotlandYardEncoding, state: State[Action]) -> None:
        self.prefix = []
        self.encoding = encoding
        over = state.current_player() in (CHANCE, TERMINAL)
        self._legal: Sequence[Action] = () if over else state.legal_actions()
        n, slots = encoding.sy_game.board.n, encoding.slots
        top: dict[int, Action | None] = {}
        for action in self._legal:
            if type(action) is Move:
                top[slots[action.ticket] * n + action.station - 1] = action
            elif type(action) is DoubleMove:
                top[encoding.double_id] = None
                break
            else:
                top[encoding.pass_id] = action
        self._top = self._step = top
        self._ids: list[int] | None = None
        self._grouped: dict[int, dict[int, Action | None]] | None = None

    def legal_ids(self) -> list[int]:
        if self._ids is None:
            self._ids = sorted(self._step)
        return list(self._ids)

    def push(self, action_id: int) -> Action | None:
        action_id = int(action_id)
        if action_id not in self._step:
            after = " ".join(map(self.encoding.id_text, self.prefix))
            raise IllegalActionError(
                f"action id {action_id} is not legal here" + (f" (after {after})" if after else "")
            )
        action = self._step[action_id]
        if action is not None:
            self.prefix, self._step, self._ids = [], self._top, None
            return action
        self.prefix.append(action_id)
        doubles = self._doubles()
        self._step = dict.fromkeys(doubles) if len(self.prefix) == 1 else doubles[action_id]
        self._ids = None
        return None

    def ids_of(self, action: Action) -> tuple[int, ...]:
        if action not in self._legal:
            raise IllegalActionError(f"{action}: not a legal action here")
        return self.encoding.ids_of(action)

    def _doubles(self) -> dict[int, dict[int, Action | None]]:
        """The double moves by the ids of their first leg, then of their second."""
        if self._grouped is None:
            move_id = self.encoding.move_id
            self._grouped = {}
            for action in self._legal:
                if isinstance(action, DoubleMove):
                    legs = self._grouped.setdefault(move_id(action.first), {})
                    legs[move_id(action.second)] = action
        return self._grouped


__all__ = ["ScotlandYardActions", "ScotlandYardEncoding"]
