"""Advice from the exact deduction: which suggestion, which room, which card to show, whether
to accuse.  Shared by the ``sleuth`` player and the notepad at the table.

**Suggestions.**  A suggestion's *gain* is the expected drop of the envelope's entropy (nats,
the 324 envelopes) over the answer's outcomes: nobody refutes, or seat p refutes (the seats
between pass) showing card c.  The refuter picks the card uniformly among the suggested cards
it holds; after "p showed c" the deduction knows that the passers lack all three and that p
holds c, and the entropy after the answer is that of the posterior with those facts.  The
answers' probabilities are estimated on ``samples`` deals drawn exactly uniformly from the
posterior (:meth:`~.deduction.counting.Posterior.samples`); each answer's entropy is exact
(the posterior conditioned on it, :func:`exact_gain`: at most ``3 (players - 1) + 1``
conditioned posteriors, a millisecond or so each, cached).  That is too slow for all 36
suggestions of every room, so :func:`room_gains` screens them first on the samples, all 36 of
a room at once, vectorised (the drop of the sum of the three categories' entropies, whose
small histograms the samples estimate well), and the ``rescore`` best are scored exactly.

**Rooms** (:func:`rooms_advice`, the notepad's room table).  A room's best suggestion is
worth its gain per expected turn: ``turns`` is the travel time (M9 of ``docs/cluedo.md``:
expected throws, passages) from where the token is (after the turn's roll, from where the
roll leaves it), 0 when the suggestion can be made now, and ``rate = gain / max(turns, 1)``
(a suggestion made this turn or after one throw costs one turn).  Leaving a room and coming
back costs the quickest round trip through another room.

**Refutation** (:func:`card_to_show`): re-show a card this suggester has seen from us; else a
card shown to someone else already (it may spread, but it reveals nothing new to them); else
the card whose reveal lowers the suggester's uncertainty least: the one of the category in
which the suggester has the most candidates left (a category of m equally likely candidates
loses ``ln(m / (m - 1))`` nats when one is ruled out, least for the largest m).

**Accusation** (:func:`accusation_advice`): the most likely envelope; accuse when it is
certain, or when its probability reaches a threshold that falls from ``threshold`` (no rival
close) to ``rush`` (a rival about to know) with the rivals' progress
(:func:`rival_progress`).

**The turn** (:func:`plan_turn`, the ``sleuth`` player's move and the notepad's "This turn"
line): accuse when the accusation advice says so and the rules allow it now; else head for
the accusation's room as if only that room were worth anything: under
``accuse_at=in_named_room`` the accusation waits for that room (``TurnPlan.accuse_in``);
under ``anywhere`` it waits only after a roll, for the move the rules want first, and any
place will do (``TurnPlan.then_accuse``).  Otherwise each room is worth its best screened
gain (:func:`screened_worth`), and ending this turn at a place P is worth the best, over
rooms R, of ``worth(R) / (1 + T(P, R))`` (:func:`place_worth`: the suggestion costs a turn,
T the expected travel time, 0 in R itself).  At the start of a turn rolling is worth the
average over the dice of the best place each roll reaches (:func:`rolling_worth`), the
secret passage and staying (after a summons) the room they leave the token in; the highest
wins (ties: passage, roll, stay).  After the roll it heads for the best place the roll
reaches (ties: the first room in card order); in a room just entered it suggests, else it
ends the turn.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

import numpy as np
import numpy.typing as npt

from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.games.cluedo import _advice_kernels as kernels
from sleuth.games.cluedo.cards import CARD_COUNT, NAMES, ROOMS, SUSPECTS, WEAPONS
from sleuth.games.cluedo.catalogue import RESCORE as RESCORE
from sleuth.games.cluedo.catalogue import RUSH as RUSH
from sleuth.games.cluedo.catalogue import SAMPLES as SAMPLES
from sleuth.games.cluedo.catalogue import THRESHOLD as THRESHOLD
from sleuth.games.cluedo.deduction.constraints import CLASSIC, Infeasible, Knowledge
from sleuth.games.cluedo.deduction.counting import Posterior
from sleuth.games.cluedo.deduction.counting import warm_up as warm_up_counting
from sleuth.games.cluedo.movement import (
    InRoom,
    Position,
    passage,
    reachable,
    roll_distribution,
    travel_time,
)

__all__ = [
    "AccusationAdvice",
    "Samples",
    "ShowAdvice",
    "SuggestionAdvice",
    "Turn",
    "TurnAction",
    "TurnPhase",
    "TurnPlan",
    "accusation_advice",
    "best_suggestion",
    "card_to_show",
    "draw",
    "place_worth",
    "plan_turn",
    "rival_progress",
    "rolling_worth",
    "room_gains",
    "room_screens",
    "rooms_advice",
    "screened_worth",
    "turns_to",
    "warm_up",
]

Floats = npt.NDArray[np.float64]


class AdviceError(SleuthError, ValueError):
    """Advice asked for something the game does not allow (the message names it)."""


@dataclass(frozen=True)
class SuggestionAdvice:
    """The best suggestion in ``room`` and its worth (see the module docstring)."""

    room: int
    suspect: int
    weapon: int
    gain: float
    """Expected drop of the envelope's entropy (nats) from the answer."""
    turns: float
    """Expected turns before this suggestion can be made (0: now)."""
    rate: float
    """``gain / max(turns, 1)``: the ranking key."""


@dataclass(frozen=True)
class ShowAdvice:
    card: int
    reason: str
    """One sentence for a person."""


@dataclass(frozen=True)
class AccusationAdvice:
    suspect: int
    weapon: int
    room: int
    probability: float
    accuse: bool
    reason: str


@dataclass(frozen=True)
class Samples:
    """Deals drawn from a posterior, as seen from ``seat``: ``order[i, c]`` is how many seats
    clockwise after ``seat`` the holder of card ``c`` sits in deal ``i`` (1 .. players-1), or
    ``players`` when nobody would show it (``seat`` itself, the envelope, the table);
    ``envelopes[i]`` the envelope's solution index."""

    order: npt.NDArray[np.uint8]
    envelopes: npt.NDArray[np.intp]
    players: int


def draw(
    posterior: Posterior, seat: int, players: int, rng: random.Random, k: int = SAMPLES
) -> Samples:
    """``k`` deals drawn exactly uniformly from ``posterior``, seen from ``seat``."""
    _check(posterior, seat, players)
    if k < 1:
        raise AdviceError(f"{k} samples: at least one is needed")
    deals = posterior.samples(rng, k)
    hands = np.array([d.hands for d in deals], dtype=np.int64).reshape(k, players)
    holds = (hands[:, :, None] >> np.arange(CARD_COUNT)) & 1
    steps = (holds.argmax(1) - seat) % players
    answers = holds.any(1) & (steps != 0)
    order = np.where(answers, steps, players).astype(np.uint8)
    triples = np.array([d.envelope for d in deals], dtype=np.intp).reshape(k, 3)
    local = triples - (SUSPECTS.start, WEAPONS.start, ROOMS.start)
    envelopes = local @ np.array([54, 9, 1], dtype=np.intp)  # CLASSIC.solution_index
    return Samples(order, envelopes, players)


def room_gains(samples: Samples, room: int) -> Floats:
    """A quick estimate ``[6, 6]`` of each suggestion's (suspect, weapon) worth in ``room``, by
    suspect then weapon, to screen them: the expected drop of the *sum of the three
    categories'* entropies, estimated on the samples (the Miller-Madow corrected plug-in
    entropy of each category after each answer).  Its histograms have 6, 6 and 9 bins where
    the envelope's has 324: far less biased on a thousand samples, while it ranks suggestions
    much as the envelope's entropy does (the two are equal when the categories are
    independent)."""
    if room not in ROOMS:
        raise AdviceError(f"card {room} is not a room")
    n, k = samples.players, len(samples.envelopes)
    slots = 3 * (n - 1) + 1
    envelopes = samples.envelopes
    parts = [envelopes // 54, envelopes // 9 % 6, envelopes % 9]
    sizes = (6, 6, 9)
    hists = [np.zeros(36 * slots * size) for size in sizes]
    weight = np.zeros(36 * slots)
    if kernels.COMPILED:
        kernels.answer_counts(
            samples.order, np.array(parts, dtype=np.intp), np.array(sizes, dtype=np.intp),
            SUSPECTS.start, WEAPONS.start, room, n, (hists[0], hists[1], hists[2]), weight,
        )  # fmt: skip
    else:
        _answer_counts(samples, room, parts, hists, weight)
    expected = sum(
        (_corrected_entropy(hist.reshape(36, slots, size)) * weight.reshape(36, slots)).sum(-1)
        for hist, size in zip(hists, sizes, strict=True)
    )
    now = sum(
        float(_corrected_entropy(np.bincount(part, minlength=size).astype(np.float64)))
        for part, size in zip(parts, sizes, strict=True)
    )
    gains: Floats = (now - expected / k).reshape(6, 6)
    return gains


def warm_up() -> None:
    """Load (or compile, once after an install) the counting kernels and the screen's
    (:func:`room_gains`), so that the first advice does not pay for it; nothing to compile
    without Numba."""
    warm_up_counting()
    if kernels.COMPILED:
        order = np.full((2, CARD_COUNT), 2, dtype=np.uint8)
        order[0, ROOMS.start] = 1
        room_gains(Samples(order, np.array([0, 323], dtype=np.intp), 3), ROOMS.start)


def _answer_counts(
    samples: Samples, room: int, parts: list[npt.NDArray[np.intp]], hists: list[Floats],
    weight: Floats,
) -> None:  # fmt: skip
    """NumPy's :func:`~._advice_kernels.answer_counts` (without Numba): the same sums."""
    order, n = samples.order, samples.players
    slots = 3 * (n - 1) + 1
    shape = (len(samples.envelopes), 6, 6)
    o = (
        np.broadcast_to(order[:, SUSPECTS.start : SUSPECTS.stop, None], shape),
        np.broadcast_to(order[:, None, WEAPONS.start : WEAPONS.stop], shape),
        np.broadcast_to(order[:, room, None, None], shape),
    )
    first = np.minimum(np.minimum(o[0], o[1]), o[2]).astype(np.intp)
    answered = first < n
    holding = [(oj == first) & answered for oj in o]
    shown = sum(h.astype(np.int64) for h in holding)
    pair = np.broadcast_to(np.arange(36, dtype=np.intp).reshape(1, 6, 6) * slots, shape)
    selections = [(pair[~answered], ~answered)]
    weight += np.bincount(pair[~answered], minlength=weight.size)
    for j, h in enumerate(holding):
        key = (pair + 1 + (first - 1) * 3 + j)[h]
        selections.append((key, h))
        weight += np.bincount(key, weights=1.0 / shown[h], minlength=weight.size)
    for part, size, hist in zip(parts, (6, 6, 9), hists, strict=True):
        values = np.broadcast_to(part[:, None, None], shape)
        for key, mask in selections:
            hist += np.bincount(key * size + values[mask], minlength=hist.size)


def _corrected_entropy(counts: Floats) -> Floats:
    """Plug-in entropy (nats) along the last axis with the Miller-Madow correction; 0 for an
    empty row."""
    total = counts.sum(-1, keepdims=True)
    positive = counts > 0
    p = np.where(positive, counts / np.where(total > 0, total, 1), 1.0)
    h: Floats = -(np.where(positive, p * np.log(p), 0.0)).sum(-1)
    seen = positive.sum(-1)
    n = total[..., 0]
    return h + np.where(n > 0, (seen - 1) / (2 * np.where(n > 0, n, 1)), 0.0)


def best_suggestion(
    posterior: Posterior,
    seat: int,
    players: int,
    room: int,
    rng: random.Random,
    *,
    samples: Samples | None = None,
    turns: float = 0.0,
    rescore: int = RESCORE,
    avoid: frozenset[int] = frozenset(),
    spare: float = 0.0,
    screen: Floats | None = None,
) -> SuggestionAdvice:
    """The suggestion in ``room`` with the highest gain, made ``turns`` expected turns from
    now: the ``rescore`` best by the sample estimate are scored again with exact entropies
    (:func:`exact_gain`; ties: the first in card order).  ``samples`` (from :func:`draw` for
    the same posterior and seat) saves drawing them again.

    A suggestion naming a suspect in ``avoid`` (the rivals' own tokens: it would summon them
    here, where they may stay and suggest without moving) is taken only when every other
    suggestion gains less than ``1 - spare`` times as much; the best suggestion without such
    a suspect is rescored too.  ``screen`` is the room's :func:`room_gains` on ``samples``
    when computed already."""
    if samples is None:
        samples = draw(posterior, seat, players, rng)
    _check_samples(samples, seat, players)
    if screen is not None and screen.shape != (6, 6):
        raise AdviceError(f"a room's screen is 6 suspects by 6 weapons, not {screen.shape}")
    gains = (room_gains(samples, room) if screen is None else screen).ravel()
    ranked = sorted(range(36), key=lambda i: -gains[i])
    chosen = ranked[: max(rescore, 1)]
    if avoid:
        chosen += [i for i in ranked if _triple(i, room)[0] not in avoid][:1]
    scored = [(float(gains[i]), i) for i in sorted(set(chosen))]
    if rescore > 0:
        scored = [
            (exact_gain(posterior, seat, players, _triple(i, room), samples), i)
            for i in sorted(set(chosen))
        ]
    top = max(gain for gain, _ in scored)
    spared = [
        item for item in scored if _triple(item[1], room)[0] not in avoid
        and item[0] >= (1 - spare) * top
    ]  # fmt: skip
    gain, best = max(spared or scored, key=lambda item: (item[0], -item[1]))
    s, w, r = _triple(best, room)
    gain = max(0.0, gain)
    return SuggestionAdvice(r, s, w, gain, turns, gain / max(turns, 1.0))


def _triple(pair: int, room: int) -> tuple[int, int, int]:
    return SUSPECTS.start + pair // 6, WEAPONS.start + pair % 6, room


def outcome_probabilities(samples: Samples, triple: tuple[int, int, int]) -> Floats:
    """The estimated probability of each answer to ``triple`` from the samples' seat:
    index 0 nobody refutes, ``1 + 3 (p - 1) + j`` the p-th seat clockwise shows card ``j`` of
    the triple (uniformly among those it holds)."""
    n = samples.players
    o = samples.order[:, list(triple)].astype(np.intp)
    first = o.min(1)
    answered = first < n
    holding = (o == first[:, None]) & answered[:, None]
    out = np.zeros(3 * (n - 1) + 1)
    shares = holding / np.maximum(holding.sum(1), 1)[:, None]
    for j in range(3):
        out += np.bincount(1 + (first - 1) * 3 + j, weights=shares[:, j], minlength=out.size)[
            : out.size
        ]
    out[0] = np.count_nonzero(~answered)
    return out / len(first)


def exact_gain(
    posterior: Posterior, seat: int, players: int, triple: tuple[int, int, int], samples: Samples
) -> float:
    """The gain of suggesting ``triple`` with each answer's entropy exact (the posterior
    conditioned on it, as the deduction will know it) and the answers' probabilities from the
    samples."""
    knowledge = posterior.knowledge
    probabilities = outcome_probabilities(samples, triple)
    cards = sum(1 << c for c in triple)
    expected = 0.0
    for step in range(1, players):
        p = (seat + step) % players
        for j, card in enumerate(triple):
            chance = probabilities[1 + 3 * (step - 1) + j]
            if chance > 0:
                expected += chance * _entropy(knowledge.with_has(p, 1 << card))
        knowledge = knowledge.with_lacks(p, cards)
    if probabilities[0] > 0:
        expected += probabilities[0] * _entropy(knowledge)
    return float(posterior.entropy() - expected)


@lru_cache(maxsize=4096)
def _entropy(knowledge: Knowledge) -> float:
    """The envelope's entropy under ``knowledge`` (0 if no deal satisfies it: an answer the
    samples saw but the exact deduction rules out cannot happen)."""
    try:
        return Posterior(knowledge).entropy()
    except Infeasible:
        return 0.0


def rooms_advice(
    posterior: Posterior,
    seat: int,
    players: int,
    position: Position | None,
    dice: int,
    rng: random.Random,
    *,
    samples: Samples | None = None,
    screens: Mapping[int, Floats] | None = None,
    suggest_here: bool = False,
    roll: int | None = None,
    retarget: bool = False,
    rescore: int = 1,
) -> list[SuggestionAdvice]:
    """One :class:`SuggestionAdvice` per room, best rate first (ties in room order), its
    ``turns`` counted from the token's ``position`` (the notepad's room table):

    * ``position`` None (not known): 0 turns for every room, so they rank by gain alone;
    * after this turn's ``roll`` (not yet used): 0 for a room the roll reaches, the travel time
      (M9) from where it leaves the token for a room it falls short of; a room the roll cannot
      head for (the room the token leaves; on its way, any but its target) a turn, then the
      quickest way from another room;
    * else :func:`turns_to`: a token in a room may suggest there without moving only with
      ``suggest_here`` (it entered the room this turn, or may stay after a summons),
      otherwise it must leave and come back.

    ``samples`` (from :func:`draw`) and their ``screens`` (:func:`room_screens`) save drawing
    and screening them again.  Each room's best screened suggestion alone is rescored by
    default (``rescore=1``): 9 rooms at 3 each took up to 1.8 s with 6 players on a loaded
    machine, 0.8 s at 1.  A roll that ``dice`` cannot show, or a roll without a position, is
    refused."""
    _check_roll(roll, dice)
    if roll is not None and position is None:
        raise AdviceError(f"a roll of {roll} from an unknown place: the position is needed")
    if samples is None:
        samples = draw(posterior, seat, players, rng)
    _check_samples(samples, seat, players)
    after = {} if position is None or roll is None else reachable(position, roll, retarget)
    out = []
    for room in ROOMS:
        turns = 0.0
        if room in after:
            moved = after[room]
            turns = 0.0 if moved == InRoom(room) else travel_time(moved, room, dice, retarget)
        elif after:
            turns = 1 + min(travel_time(InRoom(o), room, dice) for o in ROOMS if o != room)
        elif position is not None:
            turns = turns_to(position, room, dice, suggest_here, retarget)
        screen = None if screens is None else screens[room]
        advice = best_suggestion(
            posterior, seat, players, room, rng, samples=samples, turns=turns, rescore=rescore,
            screen=screen,
        )  # fmt: skip
        out.append(advice)
    return sorted(out, key=lambda a: (-a.rate, a.room))


def turns_to(
    position: Position, room: int, dice: int, suggest_here: bool, retarget: bool = False
) -> float:
    """Expected turns before a suggestion in ``room`` from ``position``: 0 in the room itself
    when the token may suggest there now (``suggest_here``: it entered it this turn, or stays
    after a summons), else the quickest way out through another room and back; elsewhere the
    travel time (M9)."""
    if position == InRoom(room):
        if suggest_here:
            return 0.0
        return min(
            travel_time(position, other, dice) + travel_time(InRoom(other), room, dice)
            for other in ROOMS
            if other != room
        )
    return travel_time(position, room, dice, retarget)


def card_to_show(
    matching: Sequence[int],
    suggester: int,
    shown: Mapping[int, frozenset[int]],
    *,
    candidates_left: Sequence[float] | None = None,
    who: str | None = None,
) -> ShowAdvice:
    """Which of ``matching`` (the suggested cards we hold) to show ``suggester``, and why.

    ``shown`` maps each seat to the cards we have shown it before.  ``candidates_left``
    estimates, per category (suspects, weapons, rooms), how many envelope candidates the
    suggester still has (:func:`candidates_left`); without it every category counts alike and
    the lowest card wins.  ``who`` names the suggester in the reason."""
    cards = sorted(set(matching))
    if not cards:
        raise AdviceError("no card to show: none of the suggested cards is held")
    for card in cards:
        if not 0 <= card < CARD_COUNT:
            raise AdviceError(f"no card {card} in the deck")
    name = who or f"seat {suggester}"
    seen = [c for c in cards if c in shown.get(suggester, frozenset())]
    if seen:
        return ShowAdvice(seen[0], f"{name} has seen the {NAMES[seen[0]]} from you already")
    elsewhere = {c for seat, cs in shown.items() if seat != suggester for c in cs}
    spread = [c for c in cards if c in elsewhere]
    if spread:
        return ShowAdvice(
            spread[0], f"the {NAMES[spread[0]]} has been shown before: it gives away no new card"
        )
    if len(cards) == 1:
        return ShowAdvice(cards[0], f"the {NAMES[cards[0]]} is the only card you may show")
    left = candidates_left or (1.0, 1.0, 1.0)
    card = max(cards, key=lambda c: (left[CLASSIC.category(c)], -c))
    return ShowAdvice(
        card,
        f"{name} has the most candidates left among the {_CATEGORY_NAMES[CLASSIC.category(card)]}: "
        f"the {NAMES[card]} tells them least",
    )


_CATEGORY_NAMES = ("suspects", "weapons", "rooms")


def candidates_left(
    posterior: Posterior, suggester: int, known: frozenset[int] = frozenset()
) -> tuple[float, float, float]:
    """Per category, the expected number of its cards the suggester cannot yet rule out of the
    envelope: those not in its hand (by our posterior), not face up and not in ``known`` (cards
    we know it has seen)."""
    table = posterior.knowledge.table
    out = []
    for mask in CLASSIC.categories:
        left = 0.0
        for card in range(CARD_COUNT):
            if mask >> card & 1 and not table >> card & 1 and card not in known:
                left += 1.0 - posterior.probability(card, suggester)
        out.append(left)
    return (out[0], out[1], out[2])


def accusation_advice(
    posterior: Posterior,
    *,
    threshold: float = THRESHOLD,
    rush: float = RUSH,
    rivals: float = 0.0,
) -> AccusationAdvice:
    """The most likely envelope (ties in card order) and whether to accuse it now: when it is
    certain, or when its probability reaches ``threshold - (threshold - rush) * rivals``,
    ``rivals`` in [0, 1] being how close the nearest rival is to solving the case."""
    if not 0.0 <= rivals <= 1.0:
        raise AdviceError(f"rivals={rivals}: a progress between 0 and 1")
    if not 0.0 <= rush <= threshold <= 1.0:
        raise AdviceError(f"rush={rush}, threshold={threshold}: need 0 <= rush <= threshold <= 1")
    counts = posterior.solution_counts()
    triple, count = min(counts.items(), key=lambda item: (-item[1], item[0]))
    s, w, r = triple
    probability = count / posterior.total
    names = f"{NAMES[s]}, {NAMES[w]}, {NAMES[r]}"
    if count == posterior.total:
        return AccusationAdvice(s, w, r, 1.0, True, f"certain: {names}")
    bar = rush * rivals + threshold * (1 - rivals)
    accuse = probability >= bar
    verdict = "accuse" if accuse else "wait"
    risk = f"a {1 - probability:.0%} risk of elimination"
    return AccusationAdvice(
        s, w, r, probability, accuse, f"{verdict}: {names} at {probability:.0%} ({risk})"
    )


def rival_progress(events: Sequence[Event], seat: int) -> float:
    """How close the nearest rival of ``seat`` still playing is to solving the case, in
    [0, 1], from the public events: over the other seats that have not accused wrongly, the
    largest share of the cards a seat did not know at the deal (neither its hand nor face up)
    that it has since been shown (a card per refutation of its suggestions) or had ruled out
    (three for a suggestion nobody refuted).  It cannot see which cards, so it counts high."""
    unknown: list[int] = []
    learned: dict[int, int] = {}
    out: set[int] = set()
    suggester = seat
    for event in events:
        public = event.public
        if event.kind == "setup":
            face_up = len(public["face_up"])
            unknown = [18 - int(size) - face_up for size in public["hand_sizes"]]
        elif event.kind == "suggested":
            suggester = int(public["seat"])
        elif event.kind in ("refuted", "unrefuted"):
            learned[suggester] = learned.get(suggester, 0) + (1 if event.kind == "refuted" else 3)
        elif event.kind == "accused" and not public["correct"]:
            out.add(int(public["seat"]))
    progress = [
        min(1.0, learned.get(s, 0) / max(left, 1))
        for s, left in enumerate(unknown)
        if s != seat and s not in out
    ]
    return max(progress, default=0.0)


def room_screens(samples: Samples) -> dict[int, Floats]:
    """Every room's :func:`room_gains` on the samples, by room."""
    return {room: room_gains(samples, room) for room in ROOMS}


def screened_worth(screens: Mapping[int, Floats]) -> dict[int, float]:
    """What reaching each room is worth to the turn plan: its best suggestion's screened gain
    (the largest of its :func:`room_screens`, never below 0), from the samples alone (exact
    rescoring of every room would take too long)."""
    return {room: max(0.0, float(gains.max())) for room, gains in screens.items()}


def place_worth(
    position: Position, worth: Mapping[int, float], dice: int, retarget: bool = False
) -> float:
    """The best gain per turn of ending this turn at ``position``: over the rooms R of
    ``worth``, ``worth[R] / (1 + T)``, T the expected travel time to R (0 in R itself)."""
    return max(
        gain
        / (1.0 + (0.0 if position == InRoom(room) else travel_time(position, room, dice, retarget)))
        for room, gain in worth.items()
    )


def rolling_worth(
    position: Position, worth: Mapping[int, float], dice: int, retarget: bool = False
) -> float:
    """What rolling from ``position`` is worth: the average over the dice of the best
    :func:`place_worth` among the places each roll reaches."""
    return sum(
        p
        * max(
            place_worth(pos, worth, dice, retarget)
            for pos in reachable(position, t, retarget).values()
        )
        for t, p in roll_distribution(dice)
    )


TurnPhase = Literal["move", "head", "act"]
TurnAction = Literal["accuse", "suggest", "end", "passage", "stay", "roll", "go"]


@dataclass(frozen=True)
class Turn:
    """Where a seat's turn stands: its token's ``position`` and the turn's ``phase``:
    ``move`` (the turn begins: roll, the secret passage out of a corner room, or ``may_stay``
    after a summons), ``head`` (rolled ``roll``: choose the room to head for) or ``act``
    (moved: ``may_suggest`` in the room entered this turn).  Invariant (checked): ``roll`` is
    given exactly in ``head``, a positive number; ``may_stay`` only in ``move`` and
    ``may_suggest`` only in ``act``, both in a room."""

    position: Position
    phase: TurnPhase = "move"
    roll: int | None = None
    may_stay: bool = False
    may_suggest: bool = False

    def __post_init__(self) -> None:
        if self.phase not in ("move", "head", "act"):
            raise AdviceError(f"phase {self.phase!r}: move, head or act")
        if (self.roll is not None) != (self.phase == "head"):
            raise AdviceError(f"a roll is given when heading for a room, not in {self.phase!r}")
        if self.roll is not None and self.roll < 1:
            raise AdviceError(f"a roll of {self.roll}: a roll is at least 1")
        in_room = isinstance(self.position, InRoom)
        if self.may_stay and (self.phase != "move" or not in_room):
            raise AdviceError("staying is a choice at the start of a turn in a room")
        if self.may_suggest and (self.phase != "act" or not in_room):
            raise AdviceError("a suggestion is made in a room, after moving")


@dataclass(frozen=True)
class TurnPlan:
    """What to do now (:func:`plan_turn`)."""

    action: TurnAction
    room: int | None = None
    """``accuse``: the accusation's room; ``suggest``: the room the token is in; ``passage``
    and ``stay``: the room they leave it in; ``go``: the room to head for; else None."""
    reached: Position | None = None
    """``go``: where the roll takes the token (``InRoom(room)`` when it gets there)."""
    worth: dict[str, float] = field(default_factory=dict)
    """The worth per turn of each choice weighed: at the start of a turn, ``roll`` and those
    of ``passage`` and ``stay`` the rules allow; after the roll, ``go``: the chosen place's."""
    accuse_in: int | None = None
    """The room an accusation waits for (``accuse_at=in_named_room``): the plan heads there."""
    then_accuse: bool = False
    """``go`` with the accusation due under ``accuse_at=anywhere``: the rules want the rolled
    move made first, then the accusation, from whatever place the token is in (the plan
    heads for the accusation's room, though any place would do).  Invariant: never with
    ``accuse_in``."""


def plan_turn(
    turn: Turn,
    worth: Callable[[], Mapping[int, float]],
    *,
    dice: int,
    retarget: bool = False,
    accuse_at: str = "anywhere",
    accusation: AccusationAdvice | None = None,
) -> TurnPlan:
    """The ``sleuth`` player's decision for ``turn`` (see the module docstring): ``worth``
    gives each room's worth (:func:`screened_worth`), called only when a move is weighed;
    ``accusation`` is the accusation advice now (None: no accusation, the game is over for
    this seat).  A turn's roll that ``dice`` cannot show is refused, naming both."""
    if accuse_at not in ("anywhere", "in_named_room"):
        raise AdviceError(f"accuse_at={accuse_at!r}: anywhere or in_named_room")
    _check_roll(turn.roll, dice)
    target = None
    if accusation is not None and accusation.accuse:
        here = turn.position == InRoom(accusation.room)
        if turn.phase != "head" and (accuse_at == "anywhere" or here):
            return TurnPlan("accuse", accusation.room)
        target = accusation.room
    if turn.phase == "act":
        if turn.may_suggest and target is None:
            assert isinstance(turn.position, InRoom)  # Turn's invariant
            return TurnPlan("suggest", turn.position.room)
        return TurnPlan("end", accuse_in=target)
    values = {room: float(room == target) for room in ROOMS} if target is not None else worth()
    if sorted(values) != list(ROOMS):
        raise AdviceError(f"the rooms' worth names cards {sorted(values)}, not the nine rooms")
    if turn.phase == "head":
        assert turn.roll is not None  # Turn's invariant
        targets = reachable(turn.position, turn.roll, retarget)
        scored = {room: place_worth(pos, values, dice, retarget) for room, pos in targets.items()}
        room = max(scored, key=lambda r: (scored[r], -r))
        go = {"go": scored[room]}
        if target is not None and accuse_at == "anywhere":
            return TurnPlan("go", room, targets[room], go, then_accuse=True)
        return TurnPlan("go", room, targets[room], go, target)
    options = {"roll": rolling_worth(turn.position, values, dice, retarget)}
    through = passage(turn.position.room) if isinstance(turn.position, InRoom) else None
    if through is not None:
        options["passage"] = place_worth(InRoom(through), values, dice, retarget)
    if turn.may_stay:
        options["stay"] = place_worth(turn.position, values, dice, retarget)
    by_passage, staying = options.get("passage", -1.0), options.get("stay", -1.0)
    if through is not None and by_passage >= options["roll"] and by_passage >= staying:
        return TurnPlan("passage", through, worth=options, accuse_in=target)
    if turn.may_stay and staying > options["roll"]:
        assert isinstance(turn.position, InRoom)  # Turn's invariant
        return TurnPlan("stay", turn.position.room, worth=options, accuse_in=target)
    return TurnPlan("roll", worth=options, accuse_in=target)


def _check_roll(roll: int | None, dice: int) -> None:
    """Refuse a game with other than one or two dice, and a ``roll`` (None: no roll) those
    dice cannot show."""
    if dice not in (1, 2):
        raise AdviceError(f"{dice} dice: the game is played with 1 or 2")
    low, high = dice, 6 * dice
    if roll is not None and not low <= roll <= high:
        words = "one die" if dice == 1 else "two dice"
        raise AdviceError(f"a roll of {roll} is impossible with {words} ({low} to {high})")


def _check(posterior: Posterior, seat: int, players: int) -> None:
    knowledge = posterior.knowledge
    if knowledge.deck != CLASSIC:
        raise AdviceError("advice needs the classic 21-card deck")
    if knowledge.players != players:
        raise AdviceError(f"{players} players, but the deduction has {knowledge.players} seats")
    if not 0 <= seat < players:
        raise AdviceError(f"no seat {seat} among {players}")


def _check_samples(samples: Samples, seat: int, players: int) -> None:
    if samples.players != players:
        raise AdviceError(f"samples drawn for {samples.players} players, not {players}")
