"""Cluedo as tensors for learning agents (:class:`~sleuth.core.encoding.Encoding`).

Actions: the ids of :mod:`~sleuth.games.cluedo.action_ids` (57: ``roll``, ``passage``,
``stay``, ``end``, ``suggest``, ``accuse``, ``go ROOM``, ``show CARD``, then a suggestion or an
accusation names its suspect, weapon and room one id at a time).

Observations have the same size for every option set (seats are padded to six), so that one
agent may play any number of players.  Seats are *relative*: row ``k`` of a per-seat segment
is the seat ``k`` places clockwise from the observer (row 0 is the observer); rows past the
last seat stay zero.  Cards are in card order (C2: suspects, weapons, rooms), rooms in card
order (Hall first).  Counts ``n`` are shown as ``min(n, 3) / 3``, so every value lies in
``[0, 1]`` (the segments' bounds, those of the adapters' spaces).  See
:meth:`CluedoEncoding.describe` for the indices.

===========  =======  =========================================================================
segment      size     meaning
===========  =======  =========================================================================
rules        4        players / 6; two dice; accusations only in the room one is in
                      (``accuse_at=in_named_room``); a token on its way may turn
                      (``allow_retarget``)
seats        6        1 for each seat in the game
hand sizes   6        each seat's number of cards / 6
eliminated   6        1 for each seat that accused wrongly
turn         6        one-hot: the seat whose turn it is (the first seat of C11 from the deal
                      on; after each ``ended`` event, the next seat clockwise still playing)
progress     4        that turn so far: rolled (the token heads somewhere next), moved,
                      suggested; and 1 once the game is over
turns        1        the turns begun / ``max_turns`` (the engine's ``turn``)
refuter      6        one-hot: the seat that must show a card now, if any
suggestion   21       the three cards of that turn's suggestion, if any
hand         21       the observer's cards
face up      21       the face-up cards (``leftover=face_up``)
rooms        6 × 9    row k: 1 for the room seat k's token is in
travel       6 × 9    row k: 1 / (1 + T) for each room, T the expected turns seat k's token
                      needs to get there (M9: 1 in the room it is in)
seen         5 × 21   row k - 1: the cards seat k showed the observer
shown        5 × 21   row k - 1: the cards the observer showed seat k
passed       6 × 21   row k: the cards of the suggestions seat k could not refute (it holds
                      none of them)
refuted      6 × 21   row k: for each card, the count of the suggestions naming it that seat
                      k refuted
asked        6 × 21   row k: for each card, the count of seat k's suggestions naming it
accused      6 × 21   row k: the three cards of seat k's accusation
unrefuted    21       the cards of the suggestions nobody could refute
prefix       2 + 21   the action being built: one-hot suggest, accuse; 1 for each card named
===========  =======  =========================================================================

With ``belief=True``, the exact deduction of the observer
(:class:`~sleuth.games.cluedo.deduction.belief.CluedoBelief`, every consistent deal equally
likely) follows:

============  =======  ========================================================================
segment       size     meaning
============  =======  ========================================================================
envelope      21       P(the envelope holds the card)
holders       6 × 21   row k: P(seat k holds the card)
certainty     2        the most likely envelope's probability; 1 - its entropy / ln 324
============  =======  ========================================================================

Every value is computed from the view's events (and the game's options, which every seat
knows) alone.  The events of one view are read once: the encoding keeps what it read per view
object and reads only the events added since, starting afresh when the events are not the
ones it read (a pure function of the events either way).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from sleuth.core.encoding import Encoding, Observation, Segment, ViewReaders
from sleuth.core.events import JSON, Event, View
from sleuth.core.game import State
from sleuth.games.cluedo.action_ids import (
    ACCUSE_ID,
    ACTION_COUNT,
    NAME,
    SUGGEST_ID,
    CluedoActions,
    id_text,
)
from sleuth.games.cluedo.actions import Action
from sleuth.games.cluedo.cards import CARD_COUNT, ROOMS, SOLUTIONS, SUSPECTS
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.deduction.counting import Posterior
from sleuth.games.cluedo.movement import AtStart, InRoom, Position, travel_time
from sleuth.games.cluedo.rules import MAX_PLAYERS, CluedoGame
from sleuth.games.cluedo.view import move_token

SEATS, OTHERS, CARDS, ROOM_COUNT = MAX_PLAYERS, MAX_PLAYERS - 1, CARD_COUNT, len(ROOMS)
COUNTED = 3
"""Counts are shown as ``min(n, COUNTED) / COUNTED``."""

SEGMENTS = (
    Segment("rules", 4, "players / 6; two dice; accuse in the room one is in; tokens may turn"),
    Segment("seats", SEATS, "1 for each seat in the game (row k: k seats clockwise from me)"),
    Segment("hand sizes", SEATS, "each seat's number of cards / 6"),
    Segment("eliminated", SEATS, "1 for each seat that accused wrongly"),
    Segment("turn", SEATS, "one-hot: the seat whose turn it is"),
    Segment("progress", 4, "that turn so far: rolled, moved, suggested; the game is over"),
    Segment("turns", 1, "the turns begun / max_turns"),
    Segment("refuter", SEATS, "one-hot: the seat that must show a card now"),
    Segment("suggestion", CARDS, "the cards of that turn's suggestion"),
    Segment("hand", CARDS, "my cards"),
    Segment("face up", CARDS, "the face-up cards"),
    Segment("rooms", SEATS * ROOM_COUNT, "row k: 1 for the room seat k's token is in"),
    Segment("travel", SEATS * ROOM_COUNT, "row k: 1 / (1 + expected turns) to each room (M9)"),
    Segment("seen", OTHERS * CARDS, "row k - 1: the cards seat k showed me"),
    Segment("shown", OTHERS * CARDS, "row k - 1: the cards I showed seat k"),
    Segment("passed", SEATS * CARDS, "row k: the cards of the suggestions seat k passed on"),
    Segment("refuted", SEATS * CARDS, "row k: per card, suggestions naming it k refuted (/3)"),
    Segment("asked", SEATS * CARDS, "row k: per card, seat k's suggestions naming it (/3)"),
    Segment("accused", SEATS * CARDS, "row k: the cards of seat k's accusation"),
    Segment("unrefuted", CARDS, "the cards of the suggestions nobody could refute"),
    Segment("prefix", 2 + CARDS, "the action being built: suggest, accuse; the cards named"),
)
BELIEF_SEGMENTS = (
    Segment("envelope", CARDS, "P(the envelope holds the card), exact"),
    Segment("holders", SEATS * CARDS, "row k: P(seat k holds the card), exact"),
    Segment("certainty", 2, "the likeliest envelope's probability; 1 - entropy / ln 324"),
)
_SHAPES = {
    "rooms": (SEATS, ROOM_COUNT),
    "travel": (SEATS, ROOM_COUNT),
    "seen": (OTHERS, CARDS),
    "shown": (OTHERS, CARDS),
    "passed": (SEATS, CARDS),
    "refuted": (SEATS, CARDS),
    "asked": (SEATS, CARDS),
    "accused": (SEATS, CARDS),
    "holders": (SEATS, CARDS),
}
"""The segments read as tables (rows by relative seat)."""
ROLLED, MOVED, SUGGESTED, OVER = range(4)
"""The flags of the ``progress`` segment."""

Floats = npt.NDArray[np.float32]


def parts(values: Floats, segments: Sequence[Segment]) -> dict[str, Floats]:
    """Each segment of ``values`` (laid out as ``segments``) as a view, tables reshaped."""
    out, start = {}, 0
    for segment in segments:
        part = values[start : start + segment.size]
        out[segment.name] = part.reshape(_SHAPES[segment.name]) if segment.name in _SHAPES else part
        start += segment.size
    return out


@lru_cache(maxsize=4096)
def _travel(position: Position, dice: int, retarget: bool) -> Floats:
    """1 / (1 + expected turns) from ``position`` to each room (M9), read-only."""
    times = [travel_time(position, room, dice, retarget) for room in ROOMS]
    out = np.array([1.0 / (1.0 + t) for t in times], dtype=np.float32)
    out.flags.writeable = False
    return out


def _mark(part: Floats, cards: Sequence[JSON]) -> None:
    """Set ``part`` to 1 at each of ``cards`` (a few: one at a time is faster than NumPy's
    indexing by a list)."""
    for card in cards:
        part[card] = 1.0


class _Notes:
    """What one seat's events have shown so far, read one event at a time: ``values`` holds
    every segment but the prefix.  The same events always give the same notes."""

    def __init__(self, game: CluedoGame, seat: int, size: int) -> None:
        self.game = game
        self.seat = seat
        self.read = 0
        """Events read."""
        self.last: Event | None = None
        """The last event read (the cache checks that the view still holds it)."""
        self.values: Floats = np.zeros(size, dtype=np.float32)
        self.parts = parts(self.values, SEGMENTS[:-1])
        self.positions: list[Position] = [AtStart(s) for s in SUSPECTS]
        self.turns = 0
        """The turns begun (the engine's ``turn``: 1 from the deal on)."""
        self.out: set[int] = set()
        """The seats that accused wrongly."""
        self.asking: tuple[int, tuple[int, ...], int] | None = None
        """The open suggestion: suggester, its cards, the next seat to answer."""
        self.counts = {name: [[0] * CARDS for _ in range(SEATS)] for name in ("refuted", "asked")}
        self.belief: CluedoBelief | None = None
        self._posterior: Posterior | None = None
        self._belief_values: Floats = np.zeros(sum(s.size for s in BELIEF_SEGMENTS), np.float32)
        n = game.players
        self.parts["rules"][:] = (
            n / SEATS,
            game.dice == 2,
            game.accuse_at == "in_named_room",
            game.allow_retarget,
        )
        self.parts["seats"][:n] = 1.0
        for seat in range(n):
            self._place(seat)

    def row(self, seat: int) -> int:
        """The row of ``seat``: how many places clockwise from the observer it sits."""
        return (seat - self.seat) % self.game.players

    def update(self, events: Sequence[Event]) -> None:
        """Read the events after the :attr:`read` first."""
        for index in range(self.read, len(events)):
            self.take(events[index])

    def take(self, event: Event) -> None:
        """Read the next event."""
        self.read += 1
        self.last = event
        kind, public, p = event.kind, event.public, self.parts
        seat = int(public["seat"]) if "seat" in public else None
        if kind == "setup":
            for s, size in enumerate(public["hand_sizes"]):
                p["hand sizes"][self.row(s)] = int(size) / SEATS
            _mark(p["face up"], public["face_up"])
            self._begin(self.game.first_seat)
        elif kind == "hand" and event.private is not None:
            _mark(p["hand"], event.private["cards"])
        elif kind == "rolled":
            p["progress"][ROLLED] = 1.0
        elif kind == "moved":
            p["progress"][ROLLED], p["progress"][MOVED] = 0.0, 1.0
        elif kind == "suggested":
            assert seat is not None
            self._suggested(
                seat, (int(public["suspect"]), int(public["weapon"]), int(public["room"]))
            )
        elif kind in ("passed", "refuted", "unrefuted"):
            self._answer(kind, seat, event.private)
        elif kind == "accused":
            assert seat is not None
            _mark(
                p["accused"][self.row(seat)], (public["suspect"], public["weapon"], public["room"])
            )
            if not public["correct"]:
                p["eliminated"][self.row(seat)] = 1.0
                self.out.add(seat)
        elif kind == "ended":
            assert seat is not None
            self._ended(seat)
        elif kind == "game_over":
            p["progress"][OVER] = 1.0
        suspect = move_token(self.game, self.positions, event)
        if suspect in self.game.seat_of_suspect:
            self._place(self.game.seat_of_suspect[suspect])

    def _ended(self, seat: int) -> None:
        """``seat``'s turn ended: the next seat clockwise still playing begins one, as in the
        engine, unless the game ends there (every seat out, or the turn limit reached)."""
        n = self.game.players
        clockwise = [(seat + step) % n for step in range(1, n + 1)]
        active = [s for s in clockwise if s not in self.out]
        if active and self.turns < self.game.max_turns:
            self._begin(active[0])

    def _begin(self, seat: int) -> None:
        """A turn of ``seat`` begins."""
        p = self.parts
        self.turns += 1
        p["turn"][:] = 0.0
        p["turn"][self.row(seat)] = 1.0
        p["progress"][:OVER] = 0.0
        p["suggestion"][:] = 0.0
        p["turns"][0] = self.turns / self.game.max_turns

    def _place(self, seat: int) -> None:
        """Write the rows of ``seat``'s token."""
        position = self.positions[self.game.suspects[seat]]
        row = self.row(seat)
        rooms = self.parts["rooms"][row]
        rooms[:] = 0.0
        if isinstance(position, InRoom):
            rooms[position.room - ROOMS.start] = 1.0
        self.parts["travel"][row] = _travel(position, self.game.dice, self.game.allow_retarget)

    def _suggested(self, seat: int, cards: tuple[int, int, int]) -> None:
        p, row = self.parts, self.row(seat)
        p["progress"][SUGGESTED] = 1.0
        _mark(p["suggestion"], cards)
        self._count("asked", row, cards)
        self.asking = (seat, cards, (seat + 1) % self.game.players)
        self._refuter()

    def _answer(self, kind: str, seat: int | None, private: Mapping[str, JSON] | None) -> None:
        assert self.asking is not None
        suggester, cards, _ = self.asking
        p = self.parts
        if kind == "passed":
            assert seat is not None
            _mark(p["passed"][self.row(seat)], cards)
            self.asking = (suggester, cards, (seat + 1) % self.game.players)
        elif kind == "refuted":
            assert seat is not None
            self._count("refuted", self.row(seat), cards)
            if private is not None:  # the observer is the suggester or the refuter
                card = int(private["card"])
                if self.seat == suggester:
                    p["seen"][self.row(seat) - 1, card] = 1.0
                elif self.seat == seat:
                    p["shown"][self.row(suggester) - 1, card] = 1.0
            self.asking = None
        else:
            _mark(p["unrefuted"], cards)
            self.asking = None
        self._refuter()

    def _refuter(self) -> None:
        refuter = self.parts["refuter"]
        refuter[:] = 0.0
        if self.asking is not None:
            refuter[self.row(self.asking[2])] = 1.0

    def _count(self, name: str, row: int, cards: Sequence[int]) -> None:
        counts, part = self.counts[name][row], self.parts[name][row]
        for card in cards:
            counts[card] += 1
            part[card] = min(counts[card], COUNTED) / COUNTED

    # --- the belief --------------------------------------------------------------------------

    def belief_values(self, view: View) -> Floats:
        """The belief segments after every event of ``view`` (whose first events are those
        read)."""
        if self.belief is None:
            self.belief = CluedoBelief(self.seat)
        belief = self.belief
        for index in range(belief.events_read, len(view.events)):
            belief.update(view.events[index])
        if belief.knowledge is None:
            return self._belief_values
        posterior = belief.posterior
        if posterior is not self._posterior:
            self._posterior = posterior
            self._belief_values = self._from(posterior)
        return self._belief_values

    def _from(self, posterior: Posterior) -> Floats:
        n = self.game.players
        values: Floats = np.zeros(self._belief_values.size, dtype=np.float32)
        p = parts(values, BELIEF_SEGMENTS)
        matrix = posterior.matrix()  # cards by owner: the seats, the envelope, the table
        p["envelope"][:] = matrix[:, n]
        for seat in range(n):
            p["holders"][self.row(seat)] = matrix[:, seat]
        best = max(posterior.solution_counts().values()) / posterior.total
        p["certainty"][:] = (best, 1.0 - posterior.entropy() / math.log(SOLUTIONS))
        return values


class CluedoEncoding(Encoding[Action]):
    """The encoding of one Cluedo game (its options fix the rules segment; the sizes are the
    same for every option set)."""

    version = 2
    """2: the turn is the engine's, read from the ``ended`` events (1: the seat whose turn
    the events showed last, which lagged until the next seat rolled, moved or accused)."""

    segments = SEGMENTS
    belief_segments = BELIEF_SEGMENTS
    action_count = ACTION_COUNT
    max_prefix = 3

    def __init__(self, game: CluedoGame) -> None:
        super().__init__(game)
        self.cluedo = game
        self._base = sum(s.size for s in SEGMENTS[:-1])
        self._readers: ViewReaders[_Notes] = ViewReaders()

    def builder(self, state: State[Action]) -> CluedoActions:
        return CluedoActions(state)

    def id_text(self, action_id: int) -> str:
        return id_text(action_id)

    def observe_into(self, out: Observation, view: View, prefix: Sequence[int]) -> None:
        out[: self._base] = self._notes(view).values
        if not prefix:
            return
        verb, cards = prefix[0], prefix[1:]
        if verb not in (SUGGEST_ID, ACCUSE_ID) or len(cards) > self.max_prefix - 1:
            raise ValueError(f"{list(prefix)} is not a prefix of a suggestion or an accusation")
        if any(not NAME <= i < ACTION_COUNT for i in cards):
            raise ValueError(f"{list(prefix)}: a suggestion or an accusation names cards")
        out[self._base + (verb != SUGGEST_ID)] = 1.0
        out[[self._base + 2 + i - NAME for i in cards]] = 1.0

    def belief_into(self, out: Observation, view: View) -> None:
        out[:] = self._notes(view).belief_values(view)

    def _notes(self, view: View) -> _Notes:
        """The notes of ``view`` after all its events (:class:`ViewReaders`)."""
        return self._readers.of(view, lambda v: _Notes(self.cluedo, v.seat, self._base))
