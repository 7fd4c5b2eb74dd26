"""Marshal players: the belief Marshal (exact deduction), the graph-notes Marshal (the
source's layered graph) and the candidate-list random Marshal (the same notes, a uniform
choice), with a shared draw policy.

Both read only the Marshal's view.  The belief Marshal asks :class:`Deduction` for a guess in
one of the modes of :data:`GUESS_MODES`, looking one turn ahead when 42 may come next
(``lookahead``); told whom she faces (``opponent``, a Fugitive whose move probabilities are
known), she plays that look ahead and the Manhunt from :class:`StrategyBelief` instead.
The notes Marshal guesses what the baseline notes allow: a value forced in some layer, else the
value on the most paths of the graph; the candidates Marshal, a value drawn uniformly from the
candidates the notes leave.

Draw policies (``draw=``): ``frontier`` draws from the pile holding the numbers just above the
expected last hideout as she saw it at her latest guess or skip (:meth:`_Marshal.expected_last`,
read from her view: a Marshal rebuilt mid-game draws as the one that never stopped), where the
Fugitive goes next (a drawn card is one he can never use);
``low`` and ``high`` always draw from the lowest or highest non-empty pile (``high`` is the
"roadblock" the source asks about); ``random`` picks a pile uniformly.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any

from sleuth.core.bots import Bot
from sleuth.core.errors import SleuthError, SolverLimitError
from sleuth.core.events import Event, View
from sleuth.core.game import Game
from sleuth.games.fugitive.belief import DEFAULT_MODEL
from sleuth.games.fugitive.catalogue import DRAW_POLICIES as DRAW_POLICIES
from sleuth.games.fugitive.deduction.advice import LOOKAHEAD_MODES, Deduction
from sleuth.games.fugitive.deduction.endgame import Routes, manhunt_chance
from sleuth.games.fugitive.deduction.mixture import MixtureBelief, floored
from sleuth.games.fugitive.deduction.notes import MarshalNotes
from sleuth.games.fugitive.deduction.opponent import MAX_STATES as MIX_STATES
from sleuth.games.fugitive.deduction.opponent import StrategyBelief
from sleuth.games.fugitive.engine.actions import SKIP, Draw, Guess
from sleuth.games.fugitive.engine.cards import LAST, PILE_OF
from sleuth.games.fugitive.players.fugitives import Strategy
from sleuth.games.fugitive.rules import MARSHAL

STATE_BUDGET = 200_000
"""States the belief Marshal gives the exact programme, then the relaxed one, before it falls
back to the graph notes: a few tens of milliseconds compiled, seconds for the plain programme
(without Numba).  The same with or without Numba, since both programmes visit the same states
(:data:`~sleuth.games.fugitive.belief.Key`): she is the same player either way."""
FRONTIER_STEP = 3
"""The frontier is this far above the expected last hideout (one step without sprints)."""


class _Marshal(Bot):
    """Shared by both Marshals: the draw policy, and guessing through :meth:`choose`."""

    def __init__(self, game: Game[Any], seat: int, seed: int, draw: str) -> None:
        super().__init__(game, seat, seed)
        self.draw = draw
        self._expected: dict[int, float] = {}
        """:meth:`expected_last` at each of her guesses so far, by the number of events she
        had seen then (a cache: each value is :meth:`estimate` of those events)."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        if isinstance(legal[0], Draw):
            return self._draw([a for a in legal if isinstance(a, Draw)], view)
        numbers = self.choose(view)
        if numbers is None:
            return SKIP if SKIP in legal else self._harmless_miss(view, legal)
        return Guess(numbers)

    def choose(self, view: View) -> tuple[int, ...] | None:
        """The numbers to name, or None to make no guess."""
        raise NotImplementedError

    def estimate(self, events: Sequence[Event]) -> float:
        """The expected value of the last hideout after ``events`` (0 before any)."""
        raise NotImplementedError

    def expected_last(self, view: View) -> float:
        """The expected value of the last hideout as she saw it at her latest guess or skip
        in ``view`` (0 before her first): :meth:`estimate` of the events before it."""
        at = next(
            (i for i in range(len(view.events) - 1, -1, -1) if view.events[i].kind in _HER_CALLS),
            None,
        )
        if at is None:
            return 0.0
        if at not in self._expected:
            self._expected[at] = self.estimate(view.events[:at])
        return self._expected[at]

    def _draw(self, piles: list[Draw], view: View) -> Draw:
        if self.draw == "random" or len(piles) == 1:
            return self.rng.choice(piles)
        if self.draw == "low":
            return piles[0]
        if self.draw == "high":
            return piles[-1]
        target = min(round(self.expected_last(view)) + FRONTIER_STEP, LAST - 1)
        wanted = max(PILE_OF[target], 1)
        return min(piles, key=lambda d: (abs(d.pile - wanted), d.pile))

    def _harmless_miss(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        """When a guess is forced but none is wanted: name a card in her own hand."""
        own = sorted(
            int(e.private["card"])
            for e in view.events
            if e.kind == "drew" and e.public["seat"] == MARSHAL and e.private is not None
        )
        for card in own:
            if Guess((card,)) in legal:
                return Guess((card,))
        return legal[0]


_HER_CALLS = ("guessed", "skipped")
"""The kinds of the first event of her guesses and skips (only she guesses or skips)."""


class BeliefMarshal(_Marshal):
    """Guesses from the exact belief (see :meth:`Deduction.advice` for the modes); from the
    relaxed belief when the exact one would take too long (long routes with many sprint
    cards), and from the graph notes when even that would."""

    def __init__(
        self,
        game: Game[Any],
        seat: int,
        seed: int,
        guess: str,
        draw: str,
        manhunt: bool = True,
        model: str = DEFAULT_MODEL,
        opponent: Strategy | None = None,
        lookahead: bool = True,
        mix: Sequence[tuple[float, Strategy]] | None = None,
        mix_name: str | None = None,
    ) -> None:
        super().__init__(game, seat, seed, draw)
        self.mode = guess
        self.model = model
        """How the odds weigh the worlds (see :data:`~sleuth.games.fugitive.belief.MODELS`)."""
        self.manhunt = manhunt
        """Leave numbers at the Manhunt threshold face down (aim for the Manhunt); False: name
        them like any other (aim to uncover the route before 42)."""
        self.notes = NotesMarshal(game, seat, seed, draw)
        self.opponent = opponent
        """The Fugitive's strategy when she knows it: the Manhunt, and the look ahead when 42
        may come next, are then played from :class:`StrategyBelief`, read from her whole
        view at each decision that needs it."""
        self._opponent_at: tuple[int, StrategyBelief | None] | None = None
        """The last view's length and its :meth:`_opponent_belief` (a cache: the Manhunt
        guess and the look ahead of one decision share it)."""
        self.lookahead = lookahead
        """Look one turn ahead when 42 may come next (see :meth:`Deduction.advice`); False:
        the advice's own choice, without looking ahead."""
        self.mix = tuple(mix) if mix else None
        """The Fugitive's mix of strategies when she is told it (``model=robust`` or
        ``model=policy/...``): every guess, her look ahead, her Manhunt and her draws then
        follow her odds :func:`~sleuth.games.fugitive.deduction.mixture.floored` by
        :class:`MixtureBelief` (``model``, the counting belief's model, is the floor's)."""
        self.mix_name = mix_name
        """The ``model`` that names the mix (its beliefs after an opening are then kept:
        :class:`MixtureBelief`)."""
        self._mixture: MixtureBelief | None = None
        """The mix's belief, read from her view as it grows (made again for another view)."""

    def _deduction(self, events: Sequence[Event]) -> Deduction | None:
        """Her deduction after ``events``; None when it would take too long."""
        threshold: int = self.game.manhunt_threshold  # type: ignore[attr-defined]
        if not self.manhunt:
            threshold = LAST + 1  # no number is held back
        return Deduction.within(events, threshold, STATE_BUDGET, self.model)

    def _odds(self, events: Sequence[Event]) -> Deduction | None:
        """:meth:`_deduction`, its odds floored by the mix's when she is told one (her own
        when the mix's belief grows too big)."""
        deduction = self._deduction(events)
        if deduction is None or self.mix is None:
            return deduction
        if self._mixture is None or list(events[: len(self._mixture.events)]) != (
            self._mixture.events
        ):
            self._mixture = MixtureBelief(self.game, self.mix, MIX_STATES, self.mix_name)  # type: ignore[arg-type]
        try:
            self._mixture.update(events)
        except SolverLimitError:
            return deduction
        return floored(deduction, self._mixture.posterior())

    def estimate(self, events: Sequence[Event]) -> float:
        """From her deduction, or the notes' when it would take too long."""
        deduction = self._odds(events)
        if deduction is None:
            return self.notes.estimate(events)
        return _expected_last(deduction)

    def choose(self, view: View) -> tuple[int, ...] | None:
        deduction = self._odds(view.events)
        if deduction is None:
            self._expected[len(view.events)] = self.notes.estimate(view.events)
            return self.notes.choose(view)
        self._expected[len(view.events)] = _expected_last(deduction)
        counts = deduction.counts
        if deduction.belief.timeline.manhunt and len(counts.certain()) < len(counts.by_position):
            number = self._manhunt_guess(view, deduction)
            if number is not None:
                return (number,)
        routes = None
        looks = self.lookahead and self.mode in LOOKAHEAD_MODES
        if looks and self.opponent is not None and deduction.near_42():
            routes = self._opponent_routes(view)  # None: her own odds
        advice = deduction.advice(self.mode, self.lookahead, routes)
        return advice.numbers if advice is not None and advice.numbers else None

    def _opponent_belief(self, view: View) -> StrategyBelief | None:
        """The known opponent's :class:`StrategyBelief` after ``view``; None without one, or
        when the view shows he did not play it (she then keeps to her own odds: so for the
        rest of the game, since the view keeps showing it) or leaves too many hands and
        routes."""
        if self.opponent is None:
            return None
        if self._opponent_at is None or self._opponent_at[0] != len(view.events):
            belief = StrategyBelief(self.game, self.opponent)  # type: ignore[arg-type]
            kept: StrategyBelief | None = belief
            try:
                belief.update(view.events)
            except (SleuthError, SolverLimitError):
                kept = None
            self._opponent_at = (len(view.events), kept)
        return self._opponent_at[1]

    def _opponent_routes(self, view: View) -> Routes | None:
        """The face-down hideouts' odds under the known opponent's strategy; None when there
        is no :meth:`_opponent_belief`."""
        belief = self._opponent_belief(view)
        return None if belief is None else belief.routes()

    def _manhunt_guess(self, view: View, deduction: Deduction) -> int | None:
        """With a known opponent: the number that wins the Manhunt most often under his
        strategy (:meth:`StrategyBelief.manhunt_guess`); with a known mix, under her floored
        odds (``deduction``'s routes: :func:`manhunt_chance`); None without either (or see
        :meth:`_opponent_belief`), or when that is too long to weigh."""
        if self.mix is not None:
            try:
                return manhunt_chance(deduction.routes())[1]
            except SolverLimitError:
                return None
        belief = self._opponent_belief(view)
        if belief is None:
            return None
        try:
            return belief.manhunt_guess()[0]
        except SolverLimitError:
            return None  # too long to weigh on a clock: her own odds, this time


def _expected_last(deduction: Deduction) -> float:
    slots = deduction.belief.timeline.slots
    if not slots:
        return 0.0
    last = slots[-1]
    if last.value is not None:
        return float(last.value)
    values = deduction.counts.probabilities()[last.position]
    return float(sum(Fraction(v) * p for v, p in values.items()))


class NotesMarshal(_Marshal):
    """Guesses from the baseline layered graph: a value forced in a face-down layer (below
    the threshold, or any when the whole route is forced), else the value on the most
    root-to-leaf paths, counted over face-down layers."""

    def estimate(self, events: Sequence[Event]) -> float:
        """The mean of the values the notes leave for the last hideout."""
        return _notes_last(MarshalNotes.from_events(events))

    def choose(self, view: View) -> tuple[int, ...] | None:
        notes = MarshalNotes.from_events(view.events)
        self._expected[len(view.events)] = _notes_last(notes)
        threshold = self.game.manhunt_threshold  # type: ignore[attr-defined]
        manhunt = any(e.kind == "manhunt" for e in view.events)
        hidden = [d for d in range(1, len(notes.layers)) if d not in notes.revealed]
        hidden = [d for d in hidden if notes.layers[d] != {LAST}]
        if not hidden:
            return None
        values = notes.layers
        forced = sorted({min(values[d]) for d in hidden if len(values[d]) == 1})
        if len(forced) == len(hidden):
            return tuple(forced[:1]) if manhunt else tuple(forced)
        if not manhunt:
            forced = [n for n in forced if n < threshold]
        if forced:
            return tuple(forced[:1]) if manhunt else tuple(forced)
        weights = notes.value_weights(hidden)
        return self.pick(sorted(n for n in weights if manhunt or n < threshold), weights)

    def pick(self, pool: list[int], weights: dict[int, int]) -> tuple[int] | None:
        """The one number to name when nothing is forced: among ``pool`` (the values of the
        face-down layers on some path that she may name now, sorted), the value on the most
        paths (``weights``; ties to the lower); None when ``pool`` is empty."""
        ranked = sorted(pool, key=lambda n: (-weights[n], n))
        return (ranked[0],) if ranked else None


class CandidatesMarshal(NotesMarshal):
    """The candidate-list random Marshal: the notes Marshal's certain hideouts (named as she
    finds them) and pile choice, but when nothing is forced one number chosen uniformly from
    the notes' candidate list (every value a face-down hideout may have, below the Manhunt
    threshold before the Manhunt), with no skill in the choice.  Her choices depend only on
    her seed and her view."""

    def pick(self, pool: list[int], weights: dict[int, int]) -> tuple[int] | None:
        """A uniform member of ``pool``, whatever its ``weights`` (None when it is empty)."""
        return (self.rng.choice(pool),) if pool else None


def _notes_last(notes: MarshalNotes) -> float:
    """The mean of the values ``notes`` leave for the last hideout (0 before any)."""
    last = notes.layers[-1]
    return sum(last) / max(len(last), 1)
