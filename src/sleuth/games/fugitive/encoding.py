"""Fugitive as tensors for learning agents (:class:`~sleuth.core.encoding.Encoding`).

Actions: the step-by-step ids of :mod:`sleuth.games.fugitive.engine.encoding` (175 of them,
:data:`~sleuth.games.fugitive.engine.encoding.ACTION_COUNT`), the same for both seats.  A
placement is its hideout, its sprint cards in increasing order, then ``done``; a guess is its
numbers in increasing order, then ``done``; the other actions are one id each:

=================  ======================  =========================================
ids                text                    meaning
=================  ======================  =========================================
0-2                ``draw 1``..``draw 3``  take the next card of that pile
3                  ``pass``                no hideout this turn
4, 5               ``bonus``/``no bonus``  2nd edition, after a pass
6                  ``skip``                the Marshal guesses nothing
7-48               ``hideout 1``..``42``   starts a placement
49-89              ``sprint 1``..``41``    adds a sprint card, in increasing order
90-130             ``name 1``..``41``      adds a number to a guess, in increasing order
131                ``done``                ends a placement or a guess
132-174            ``card 0``..``card 42`` chance's (drawn by the episode: never in a mask)
=================  ======================  =========================================

Observations, from the seat's view alone (``R`` = 42 route positions, the most a route can
have; "by card" rows have 43 entries, entry ``c`` for card ``c``; see
:meth:`FugitiveEncoding.describe` for the indices):

=================  =====  ========================================================================
segment            size   meaning
=================  =====  ========================================================================
seat               2      one-hot: the observer is the Fugitive, the Marshal
to move            2      one-hot: the Fugitive, the Marshal (zeros once the game is over)
phase              8      one-hot: opening, Fugitive draws, Fugitive places, bonus, Marshal draws,
                          Marshal guesses, Manhunt, over
options            5      2nd edition, ``one_or_two`` opening, dead-end check, Marshal may skip
                          (each 0/1), the Manhunt threshold / 42
clock              2      rounds played / 50 (at most 1), rounds left before the round limit / 50
                          (at most 1; 1 without a limit)
piles              3      cards left in piles 1-3, each / the pile's size
draws              6      the Fugitive's draws from piles 1-3 (setup included), then the Marshal's,
                          each / the pile's size
hands              2      cards in the Fugitive's hand, in the Marshal's, each / 42
route placed       R      1 for each position placed
route face up      R      1 for each position whose hideout is face up
route values       R      each face-up hideout's value / 42
route sprints      R      each position's number of sprint cards / 5 (at most 8.2)
route timing       R × 3  row k: the Fugitive's draws from piles 1-3 when position k + 1 was
                          placed, each / the pile's size (what pile provenance reads)
face-up hideouts   43     by card: 1 for each face-up hideout (0 and 42 once placed)
face-up sprints    43     by card: 1 for each face-up sprint card
single misses      43     by card: the positions placed when a guess of that number alone last
                          missed, / 42 (it is none of them)
multi misses       43     by card: 1 − 2^−k, ``k`` missed guesses of several numbers naming it
own hand           43     by card: 1 for each card in the observer's hand
own hideouts       43     by card: 1 for each of the Fugitive's hideouts (his observation only)
own sprints        43     by card: 1 for each of his sprint cards (his observation only)
prefix hideout     43     by card: 1 at the hideout of the placement being built
prefix cards       43     by card: 1 for each sprint card or number chosen so far
=================  =====  ========================================================================

With ``belief=True`` the exact deduction follows (:class:`~sleuth.games.fugitive.belief.
ExactBelief`, uniform model), by number 1-41.  For the Marshal it is her own belief (her hand
included); for the Fugitive it is the same deduction from the public events only (the
Marshal's cards unknown), which is what anyone watching could conclude: how exposed he is.

=================  =====  ========================================================================
hideout odds       41     P(number n is a face-down hideout now)
possible           41     1 where some consistent world has n face down (naming any other number
                          is a sure miss: a learner may narrow its guess mask to these)
belief kind        3      one-hot: exact; relaxed (past :data:`BELIEF_STATES` states, or
                          :data:`PLAIN_STATES` where the kernel cannot count it, the
                          :class:`~sleuth.games.fugitive.belief.RelaxedBelief` gives sound
                          candidates and approximate odds); none (past as many again: zero odds,
                          and only the numbers face up or in the Marshal's hand ruled out)
=================  =====  ========================================================================

Everything is read from the view's events: the turn order by
:class:`~sleuth.games.fugitive.engine.turns.PublicTurns` (the assistant's), the route and the
guesses by the deduction's :class:`~sleuth.games.fugitive.deduction.timeline.Timeline`, the
seat's own cards from its private fields.  Each view's reading is kept and extended by the
events added since; the belief is counted once per distinct timeline (cached) by the compiled
programme, or its plain-Python twin while Numba compiles in the background.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from sleuth.core.compiled import compile_in_background
from sleuth.core.encoding import Encoding, Observation, Segment, ViewReaders
from sleuth.core.errors import SolverLimitError
from sleuth.core.events import Event, View
from sleuth.core.game import State
from sleuth.games.fugitive.belief import Counts, ExactBelief, RelaxedBelief, warm_up
from sleuth.games.fugitive.deduction.timeline import Miss, Slot, Timeline
from sleuth.games.fugitive.engine.actions import FugitiveAction
from sleuth.games.fugitive.engine.cards import LAST, PILES, SETUP_DRAWS, START_HAND, cards_of
from sleuth.games.fugitive.engine.encoding import (
    ACTION_COUNT,
    DONE,
    HIDEOUT,
    NAME,
    SPRINT_CARD,
    ActionBuilder,
    id_text,
)
from sleuth.games.fugitive.engine.turns import PublicTurns
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame, FugitiveState, Phase

POSITIONS = LAST
"""Route positions an observation has room for: hideouts rise from 0 to at most 42."""
CARDS = LAST + 1
"""Entries of a "by card" row: cards 0-42."""
ROUNDS = 50
"""The clock's scale in rounds."""
SPRINT_SCALE = 5
"""What a position's sprint-card count is divided by."""
BELIEF_STATES = 100_000
"""States the exact belief may use per observation before the relaxed one stands in (and the
relaxed one before none does)."""
PLAIN_STATES = 2_000
"""The same where the compiled programme cannot count the belief (more missed guesses of
several numbers than it packs, :meth:`~sleuth.games.fugitive.belief.ExactBelief.fits_kernel`):
the plain programme is some hundred times slower per state."""
PHASES = tuple(Phase)
SETUP = sum(SETUP_DRAWS)
"""The setup draws that start every view (before the turn order starts)."""
PILE_SIZES = tuple(len(pile) for pile in PILES)

SEGMENTS = (
    Segment("seat", 2, "one-hot: the Fugitive, the Marshal"),
    Segment("to move", 2, "one-hot: the Fugitive, the Marshal (zeros once over)"),
    Segment("phase", len(PHASES), "one-hot: the phase of the turn"),
    Segment("options", 5, "2nd edition, one_or_two, dead-end check, may skip; threshold / 42"),
    Segment("clock", 2, "rounds played / 50, rounds left / 50 (each at most 1)"),
    Segment("piles", 3, "cards left in piles 1-3 / pile size"),
    Segment("draws", 6, "the Fugitive's, then the Marshal's draws from piles 1-3 / pile size"),
    Segment("hands", 2, "cards in the Fugitive's hand, in the Marshal's, / 42"),
    Segment("route placed", POSITIONS, "1 for each position placed"),
    Segment("route face up", POSITIONS, "1 for each position face up"),
    Segment("route values", POSITIONS, "each face-up hideout / 42"),
    Segment("route sprints", POSITIONS, "sprint cards per position / 5", high=(CARDS - 2) / 5),
    Segment("route timing", POSITIONS * 3, "row k: his draws from piles 1-3 then / pile size"),
    Segment("face-up hideouts", CARDS, "by card: face-up hideouts"),
    Segment("face-up sprints", CARDS, "by card: face-up sprint cards"),
    Segment("single misses", CARDS, "by card: positions placed at its last single miss / 42"),
    Segment("multi misses", CARDS, "by card: 1 - 2^-k, k missed multi-number guesses naming it"),
    Segment("own hand", CARDS, "by card: the observer's hand"),
    Segment("own hideouts", CARDS, "by card: the Fugitive's hideouts (his observation only)"),
    Segment("own sprints", CARDS, "by card: his sprint cards (his observation only)"),
    Segment("prefix hideout", CARDS, "by card: the hideout of the placement being built"),
    Segment("prefix cards", CARDS, "by card: sprint cards or numbers chosen so far"),
)
BELIEF_SEGMENTS = (
    Segment("hideout odds", LAST - 1, "P(n is a face-down hideout), n = 1..41"),
    Segment("possible", LAST - 1, "1 where some consistent world has n face down"),
    Segment("belief kind", 3, "one-hot: exact, relaxed (sound, approximate odds), none"),
)
START = {s.name: sum(x.size for x in SEGMENTS[:i]) for i, s in enumerate(SEGMENTS)}
"""Each segment's first index."""

TimelineKey = tuple[Any, ...]
"""What the belief reads of a :class:`Timeline`, hashable (see :func:`_timeline_key`)."""


class _Reader:
    """One view's reading, extended event by event (a pure function of the events read)."""

    def __init__(self, game: FugitiveGame, seat: int) -> None:
        self.seat = seat
        self.timeline = Timeline()
        """The deduction's facts; the Marshal's cards only in her own view."""
        self.turns = PublicTurns(game)
        self.marshal_draws = [0, 0, 0]
        self.hand = sum(1 << c for c in START_HAND) if seat == FUGITIVE else 0
        """The observer's cards (a bitset)."""
        self.hideouts = 0
        self.sprints = 0
        """The Fugitive's own hideouts and sprint cards (bitsets; his view only)."""
        self.single: dict[int, int] = {}
        """Each number a single guess missed: the positions placed at its last such miss."""
        self.multi: dict[int, int] = {}
        """Each number named by missed guesses of several numbers: how many."""
        self.read = 0
        self.last: Event | None = None
        """The last event read: the view's list must still hold it there (append only)."""
        self.changed = True
        """Whether the timeline changed since the belief was last read."""
        self.belief: Observation | None = None
        self.vector: Observation | None = None
        """The observation's segments (the prefix's zero) once made; None after new events."""

    def update(self, events: Sequence[Event]) -> None:
        for event in events[self.read :]:
            self._read(event)
            self.read += 1
            self.last = event

    def _read(self, event: Event) -> None:
        public, private = event.public, event.private
        self.vector = None
        if self.read >= SETUP:
            self.turns.feed((event,))
        kind = event.kind
        if kind == "drew":
            if public["seat"] == MARSHAL:
                self.marshal_draws[int(public["pile"]) - 1] += 1
            if private is not None:
                self.hand |= 1 << int(private["card"])
            if public["seat"] == MARSHAL and private is None:
                return  # another's card: the public belief does without it
        elif kind == "placed" and private is not None:
            cards = (int(private["value"]), *map(int, private["sprint_cards"]))
            self.hideouts |= 1 << cards[0]
            for card in cards[1:]:
                self.sprints |= 1 << card
            for card in cards:
                self.hand &= ~(1 << card)
        elif kind == "guessed" and not public["hit"]:
            numbers = list(public["numbers"])
            if len(numbers) == 1:
                self.single[numbers[0]] = len(self.timeline.slots)
            else:
                for n in numbers:
                    self.multi[n] = self.multi.get(n, 0) + 1
        self.timeline.apply(event)
        self.changed = True


@functools.cache
def _compile_once() -> None:
    """Compile (or load) the belief's kernel in the background, once per process: the plain
    programme gives the same counts meanwhile, so no observation waits for Numba."""
    compile_in_background(warm_up)


@functools.lru_cache(maxsize=4096)
def _belief(key: TimelineKey) -> Observation:
    """The belief segments of one timeline (see the module docstring): exact within
    :data:`BELIEF_STATES` states, else relaxed within as many, else none; a pure function of
    the timeline (both programmes stop at the same states, compiled or not)."""
    marshal_cards, draws, slots, misses = key
    timeline = Timeline(set(marshal_cards), list(draws))
    timeline.slots = [Slot(i + 1, *fields) for i, fields in enumerate(slots)]
    timeline.misses = list(misses)
    out = np.zeros(sum(s.size for s in BELIEF_SEGMENTS), np.float32)
    kind = 2 * (LAST - 1)  # the first entry of "belief kind"
    states = BELIEF_STATES if ExactBelief(timeline).fits_kernel() else PLAIN_STATES
    for belief in (ExactBelief, RelaxedBelief):
        try:
            counts = belief(timeline, states).counts()
        except SolverLimitError:
            kind += 1
            continue
        _write_odds(out, counts)
        break
    else:  # only what no count is needed for: numbers face up or held are no hideout
        known = set(marshal_cards)
        for slot in timeline.slots:
            known.update((slot.value or 0, *(slot.stack or ())))
        for number in range(1, LAST):
            out[LAST - 1 + number - 1] = float(number not in known)
    out[kind] = 1.0
    out.setflags(write=False)
    return out


def _write_odds(out: Observation, counts: Counts) -> None:
    """The odds and the possible numbers of ``counts`` into the first 82 entries of ``out``."""
    hits = [0] * LAST
    for values in counts.by_position.values():
        for value, count in values.items():
            hits[value] += count
    n = LAST - 1
    for value in range(1, LAST):
        if hits[value]:
            out[value - 1] = hits[value] / counts.total
            out[n + value - 1] = 1.0


def _timeline_key(timeline: Timeline) -> TimelineKey:
    """What the belief reads of ``timeline``: the Marshal's cards, the Fugitive's draws, each
    slot's public facts and the misses."""
    slots = tuple((s.sprints, s.draws, s.value, s.stack) for s in timeline.slots)
    misses: tuple[Miss, ...] = tuple(timeline.misses)
    return (
        tuple(sorted(timeline.marshal_cards)),
        tuple(timeline.fugitive_draws),
        slots,
        misses,
    )


class FugitiveEncoding(Encoding[FugitiveAction]):
    """The encoding of one Fugitive game (the same sizes for every option set)."""

    version = 1

    segments = SEGMENTS
    belief_segments = BELIEF_SEGMENTS
    action_count = ACTION_COUNT
    max_prefix = LAST - 1

    def __init__(self, game: FugitiveGame) -> None:
        super().__init__(game)
        self.fugitive_game = game
        self._readers: ViewReaders[_Reader] = ViewReaders()
        self._options = [
            float(game.edition == "second"),
            float(game.opening == "one_or_two"),
            float(game.dead_end_check),
            float(game.marshal_may_skip),
            min(game.manhunt_threshold, LAST) / LAST,
        ]

    def builder(self, state: State[FugitiveAction]) -> ActionBuilder:
        assert isinstance(state, FugitiveState)
        return ActionBuilder(state)

    def id_text(self, action_id: int) -> str:
        return id_text(action_id)

    def _reader(self, view: View) -> _Reader:
        """``view``'s reading up to its last event (:class:`ViewReaders`)."""
        return self._readers.of(view, lambda v: _Reader(self.fugitive_game, v.seat))

    def observe_into(self, out: Observation, view: View, prefix: Sequence[int]) -> None:
        reader = self._reader(view)
        if reader.vector is None:
            reader.vector = self._vector(reader)
        out[:] = reader.vector
        for action_id in prefix:
            if HIDEOUT <= action_id < SPRINT_CARD:
                out[START["prefix hideout"] + action_id - HIDEOUT + 1] = 1.0
            elif SPRINT_CARD <= action_id < NAME:
                out[START["prefix cards"] + action_id - SPRINT_CARD + 1] = 1.0
            elif NAME <= action_id < DONE:
                out[START["prefix cards"] + action_id - NAME + 1] = 1.0

    def _vector(self, reader: _Reader) -> Observation:
        """The segments of ``reader``'s events, the prefix's left zero (read-only: kept until
        the view shows more events)."""
        game = self.fugitive_game
        turns, timeline = reader.turns, reader.timeline
        at = START
        index: list[int] = []  # entries set in one NumPy call (one per entry is slower)
        value: list[float] = []
        index += [at["seat"] + reader.seat, at["phase"] + PHASES.index(turns.phase)]
        value += [1.0, 1.0]
        mover = turns.mover()
        if mover is not None:
            index.append(at["to move"] + mover)
            value.append(1.0)
        index += range(at["options"], at["options"] + 5)
        value += self._options
        left = game.max_rounds - turns.rounds if game.max_rounds else ROUNDS
        index += [at["clock"], at["clock"] + 1]
        value += [min(turns.rounds, ROUNDS) / ROUNDS, min(max(left, 0), ROUNDS) / ROUNDS]
        for p, size in enumerate(PILE_SIZES):
            index += [at["piles"] + p, at["draws"] + p, at["draws"] + 3 + p]
            value += [
                turns.piles[p] / size,
                timeline.fugitive_draws[p] / size,
                reader.marshal_draws[p] / size,
            ]
        placed = 0
        ones = [at["face-up hideouts"]]  # the start card 0
        for k, slot in enumerate(timeline.slots):
            placed += 1 + slot.sprints
            ones.append(at["route placed"] + k)
            index.append(at["route sprints"] + k)
            value.append(slot.sprints / SPRINT_SCALE)
            index += range(at["route timing"] + 3 * k, at["route timing"] + 3 * k + 3)
            value += [d / size for d, size in zip(slot.draws, PILE_SIZES, strict=True)]
            if slot.value is not None:
                ones += [at["route face up"] + k, at["face-up hideouts"] + slot.value]
                index.append(at["route values"] + k)
                value.append(slot.value / LAST)
            ones += [at["face-up sprints"] + card for card in slot.stack or ()]
        hand = len(START_HAND) + sum(timeline.fugitive_draws) - placed
        index += [at["hands"], at["hands"] + 1]
        value += [hand / LAST, sum(reader.marshal_draws) / LAST]
        for card, positions in reader.single.items():
            index.append(at["single misses"] + card)
            value.append(positions / LAST)
        for card, count in reader.multi.items():
            index.append(at["multi misses"] + card)
            value.append(1.0 - 0.5**count)
        ones += [at["own hand"] + card for card in cards_of(reader.hand)]
        ones += [at["own hideouts"] + card for card in cards_of(reader.hideouts)]
        ones += [at["own sprints"] + card for card in cards_of(reader.sprints)]
        vector = np.zeros(START["prefix hideout"] + 2 * CARDS, np.float32)
        vector[index] = value
        vector[ones] = 1.0
        vector.setflags(write=False)
        return vector

    def belief_into(self, out: Observation, view: View) -> None:
        reader = self._reader(view)
        if reader.changed or reader.belief is None:
            _compile_once()
            reader.belief = _belief(_timeline_key(reader.timeline))
            reader.changed = False
        out[:] = reader.belief


__all__ = ["BELIEF_SEGMENTS", "SEGMENTS", "FugitiveEncoding"]
