"""The exact Marshal belief against brute force, the worked checks T1-T8, and soundness."""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.belief import Belief, SamplingBelief
from sleuth.core.errors import ContradictionError, SleuthError, SolverLimitError
from sleuth.core.events import Event
from sleuth.core.game import CHANCE
from sleuth.games.fugitive.belief import ExactBelief, MarshalBelief, RelaxedBelief
from sleuth.games.fugitive.deduction.timeline import Miss, Slot, Timeline, read_view
from sleuth.games.fugitive.deduction.worlds import replay_difference
from sleuth.games.fugitive.engine.actions import Guess, Place
from sleuth.games.fugitive.engine.cards import PILES, SPRINT
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame, FugitiveState
from tests.belief_walk import view_of, walk
from tests.games.fugitive.helpers import SETUP, marshal_guess_points, marshal_view, play


def brute_counts(
    timeline: Timeline,
    sprint_totals: dict[int, set[int]] | None = None,
    face_down_sets: dict[frozenset[int], int] | None = None,
    slack_weight: Callable[[int], int] = lambda slack: 1,
) -> tuple[int, dict[int, dict[int, int]]]:
    """Every route (hideouts and stacks, by depth-first search on the literal rules) times every
    ordered draw sequence that has each route card in hand in time, counted by enumeration.
    The footprint totals of hidden stacks in consistent worlds go to ``sprint_totals``, the
    world counts by set of face-down hideout values to ``face_down_sets``.  Each world counts
    ``slack_weight(s)`` for every hideout placed ``s`` footprints short of its reach."""
    slots = timeline.slots
    marshal = timeline.marshal_cards
    by_position: dict[int, dict[int, int]] = {s.position: {} for s in slots if s.value is None}
    sequences: dict[tuple[int, tuple[int, ...]], int] = {}

    def draw_sequences(pile: int, deadlines: tuple[int, ...]) -> int:
        # Cards of a pool are interchangeable, so the count depends on the deadlines only:
        # enumerate every ordered draw sequence with the first pool cards as the needed ones.
        key = (pile, deadlines)
        if key not in sequences:
            pool = [c for c in PILES[pile - 1] if c not in marshal]
            needed = list(zip(pool, deadlines, strict=False))
            if len(needed) < len(deadlines):
                sequences[key] = 0
            else:
                sequences[key] = sum(
                    all(c in seq[:d] for c, d in needed)
                    for seq in permutations(pool, timeline.fugitive_draws[pile - 1])
                )
        return sequences[key]

    def weight(route: list[tuple[int, tuple[int, ...]]]) -> int:
        hideouts = [h for h, _ in route]
        for miss in timeline.misses:
            if set(miss.numbers) <= set(hideouts[: miss.placed]):
                return 0
        out = 1
        for pile in (1, 2, 3):
            deadlines = sorted(
                slot.draws[pile - 1]
                for (h, s), slot in zip(route, slots, strict=True)
                for c in (h, *s)
                if c in PILES[pile - 1]
            )
            out *= draw_sequences(pile, tuple(deadlines))
        return out

    def extend(route: list[tuple[int, tuple[int, ...]]], used: set[int]) -> int:
        i = len(route)
        if i == len(slots):
            w = weight(route)
            last = 0
            for h, stack in route:
                reach = min(last + 3 + sum(SPRINT[c] for c in stack), 42)
                w *= slack_weight(reach - h)
                last = h
            for (h, stack), slot in zip(route, slots, strict=True):
                if w and slot.value is None:
                    by_position[slot.position][h] = by_position[slot.position].get(h, 0) + w
                if w and slot.stack is None and sprint_totals is not None:
                    footprints = sum(SPRINT[c] for c in stack)
                    sprint_totals.setdefault(slot.position, set()).add(footprints)
            if w and face_down_sets is not None:
                hidden = frozenset(
                    h for (h, _), s in zip(route, slots, strict=True) if s.value is None
                )
                face_down_sets[hidden] = face_down_sets.get(hidden, 0) + w
            return w
        slot, last = slots[i], route[-1][0] if route else 0
        total = 0
        hideouts = [slot.value] if slot.value is not None else range(last + 1, 42)
        for h in hideouts:
            if h in used or h in marshal or h <= last:
                continue
            stacks = [slot.stack] if slot.stack is not None else []
            if slot.stack is None:
                free = [c for c in range(1, 42) if c not in used and c not in marshal and c != h]
                stacks = list(combinations(free, slot.sprints))
            for stack in stacks:
                if h - last <= 3 + sum(SPRINT[c] for c in stack) and not set(stack) & used:
                    total += extend([*route, (h, stack)], used | {h, *stack})
        return total

    total = extend([], set())
    return total, by_position


def test_t1_t2_opening_candidates() -> None:
    _, events = play(*SETUP, "hideout 2", "hideout 3")
    counts = ExactBelief.from_events(marshal_view(events)).counts()
    assert counts.candidates() == {1: [1, 2, 3], 2: [2, 3, 4, 5, 6]}
    _, events = play(*SETUP, "hideout 2", "hideout 3", "draw 1", "card 5", "draw 1", "card 6")
    counts = ExactBelief.from_events(marshal_view(events)).counts()
    assert counts.candidates()[2] == [2, 3, 4]


def test_t3_no_pile_3_card_without_a_pile_3_draw() -> None:
    _, events = play(*SETUP, "hideout 3 sprint 16", "hideout 8 sprint 2", "draw 1", "card 10",
                     "draw 2", "card 20")  # fmt: skip
    candidates = ExactBelief.from_events(marshal_view(events)).counts().candidates()
    assert max(max(v) for v in candidates.values()) < 29


def test_t7_a_multi_number_miss_becomes_a_single_exclusion() -> None:
    # Miss on {4, 9}; later 4 is revealed at a position placed before the miss: 9 was not one.
    timeline = Timeline(fugitive_draws=[3, 2, 0])
    timeline.slots = [Slot(1, 1, (3, 2, 0), value=4, stack=(5,)), Slot(2, 1, (3, 2, 0))]
    timeline.misses = [Miss((4, 9), 2)]
    assert 9 not in ExactBelief(timeline).counts().candidates()[2]
    timeline.misses = []
    assert 9 in ExactBelief(timeline).counts().candidates()[2]


@pytest.mark.parametrize(
    ("seed", "turns", "max_sprints"),
    [*((seed, 0, 1) for seed in range(8)), *((seed, 2, 0) for seed in range(4))],
)
def test_exact_counts_equal_brute_force_on_small_games(
    seed: int, turns: int, max_sprints: int
) -> None:
    rng = random.Random(seed)
    state, events = _small_game(rng, turns, max_sprints)
    timeline = read_view(marshal_view(events))
    sprint_totals: dict[int, set[int]] = {}
    sets: dict[frozenset[int], int] = {}
    total, by_position = brute_counts(timeline, sprint_totals, sets)
    belief = ExactBelief(timeline)
    counts = belief.counts()
    assert counts.total == total
    assert counts.by_position == {p: v for p, v in by_position.items()}
    assert counts.sprint_totals == {p: sorted(v) for p, v in sprint_totals.items()}  # E4
    assert belief.face_down_sets(counts) == {s: Fraction(n, total) for s, n in sets.items()}
    for model, base in (("thrifty", 2), ("frugal", 4)):
        weighted_total, weighted = brute_counts(
            timeline, slack_weight=lambda s, base=base: base ** (8 - min(s, 8))
        )
        modelled = ExactBelief(timeline, model=model).counts()
        assert modelled.total == weighted_total and modelled.by_position == weighted
        assert modelled.candidates() == counts.candidates()  # the model changes odds, not sets
    truth = {i: h.value for i, h in enumerate(state.route) if i and not h.face_up}
    for position, value in truth.items():
        assert value in counts.by_position[position]


def _small_game(
    rng: random.Random, turns: int, max_sprints: int
) -> tuple[FugitiveState, list[Event]]:
    """A random opening and ``turns`` more turns, with at most ``max_sprints`` sprint cards per
    hideout when the hand allows, and one- or two-number guesses."""
    game = FugitiveGame()
    state = game.new_initial_state()
    events: list[Event] = []
    rounds = 0
    while not state.is_terminal() and rounds <= turns:
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions()
            cheap = [
                a for a in legal[:3000] if not isinstance(a, Place) or len(a.sprints) <= max_sprints
            ]
            cheap = cheap or [legal[0]]
            if isinstance(cheap[0], Guess) or any(isinstance(a, Guess) for a in cheap[:2]):
                numbers = [n for n in range(1, 20) if Guess((n,)) in legal]
                action = Guess(tuple(rng.sample(numbers, rng.choice((1, 1, 2)))))
            else:
                action = rng.choice(cheap)
        events += state.apply(action)
        rounds = state.rounds
    return state, events


@pytest.mark.slow
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_beliefs_always_contain_the_truth_along_random_games(seed: int) -> None:
    for state, seen in marshal_guess_points(seed, max_rounds=4):
        counts = ExactBelief.from_events(seen).counts()
        for i, h in enumerate(state.route):
            if i and not h.face_up:
                assert h.value in counts.by_position[i]


def test_joint_probability_is_not_a_product_of_marginals() -> None:
    _, events = play(*SETUP, "hideout 2", "hideout 3")
    timeline = read_view(marshal_view(events))
    belief = ExactBelief(timeline)
    marginals = belief.counts().probabilities()
    joint = belief.joint((2, 3))
    fixed = read_view(marshal_view(events))
    fixed.slots[0].value, fixed.slots[0].stack = 2, ()
    fixed.slots[1].value, fixed.slots[1].stack = 3, ()
    assert joint == Fraction(ExactBelief(fixed).total(), belief.total())  # h1 = 2 and h2 = 3
    assert joint != marginals[1][2] * marginals[2][3]  # M6
    assert belief.joint((1,)) == marginals[1][1]
    assert belief.joint((4, 5)) == 0  # two hideouts above 3 would need h1 >= 4


def test_e2_certain_hideouts_and_fixed_positions() -> None:
    # h1 = 3 revealed, h2 placed with no sprint card: 4, 5 or 6, and the Marshal holds 5 and 6.
    timeline = Timeline(marshal_cards={5, 6}, fugitive_draws=[3, 2, 0])
    timeline.slots = [Slot(1, 0, (3, 2, 0), value=3, stack=()), Slot(2, 0, (3, 2, 0))]
    counts = ExactBelief(timeline).counts()
    assert counts.certain() == [4]
    assert counts.fixed_positions() == {2: 4}
    assert counts.hideout_probability(4) == 1
    timeline.marshal_cards = {6}
    counts = ExactBelief(timeline).counts()
    assert counts.certain() == []
    assert counts.fixed_positions() == {}
    assert counts.hideout_probability(4) + counts.hideout_probability(5) == 1


def test_e5_a_contradiction_names_the_first_event_without_worlds() -> None:
    _, events = play(*SETUP, "hideout 2", "hideout 3", "draw 1", "card 5", "draw 2", "card 17")
    seen = marshal_view(events)
    impossible = Event("revealed", {"position": 1, "value": 9, "sprints": []})
    later = Event("guessed", {"numbers": [40], "hit": False})
    with pytest.raises(ContradictionError, match=f"event {len(seen) + 1} \\(revealed"):
        ExactBelief.from_events([*seen, impossible, later]).counts()
    with pytest.raises(ContradictionError, match=f"event {len(seen) + 1} \\(revealed"):
        # the exact belief needs more than 10 states here: the relaxed one bisects on its own
        RelaxedBelief.from_events([*seen, impossible, later], max_states=10).counts()
    with pytest.raises(ContradictionError, match=f"event {len(seen) + 1} \\(revealed"):
        ExactBelief.from_events([*seen, impossible, later]).candidates()
    with pytest.raises(ContradictionError, match="no world"):
        ExactBelief(read_view([*seen, impossible])).total() or ExactBelief(
            read_view([*seen, impossible])
        ).joint((1,))


def test_a_state_budget_error_names_the_belief_that_ran_out() -> None:
    _, events = play(*SETUP, "hideout 2", "hideout 3", "draw 1", "card 5", "draw 2", "card 17")
    seen = marshal_view(events)
    for belief, name in ((ExactBelief, "exact"), (RelaxedBelief, "relaxed")):
        with pytest.raises(SolverLimitError, match=f"the {name} belief needs more than 2 states"):
            belief.from_events(seen, max_states=2).counts()


def test_contradictions_are_errors() -> None:
    _, events = play(*SETUP, "hideout 2", "hideout 3")
    timeline = read_view(marshal_view(events))
    timeline.marshal_cards |= {1, 2, 3}  # the Marshal "holds" every possible first hideout
    with pytest.raises(ContradictionError):
        ExactBelief(timeline).counts()
    with pytest.raises(ContradictionError):
        ExactBelief(timeline).candidates()


@pytest.mark.parametrize("seed", range(6))
def test_the_relaxed_belief_is_sound_and_exact_without_sprint_cards(seed: int) -> None:
    rng = random.Random(seed)
    _, events = _small_game(rng, 2, max_sprints=2 if seed % 2 else 0)
    timeline = read_view(marshal_view(events))
    exact, relaxed = ExactBelief(timeline).counts(), RelaxedBelief(timeline).counts()
    assert relaxed.total >= exact.total
    for position, values in exact.by_position.items():
        assert set(values) <= set(relaxed.by_position[position])
        assert all(relaxed.by_position[position][v] >= n for v, n in values.items())
    if not any(slot.sprints for slot in timeline.slots):
        assert relaxed == exact
    with pytest.raises(SleuthError, match="cannot sample"):
        RelaxedBelief(timeline).sample(rng)


# --- the core's belief protocol ----------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_the_protocol_belief_admits_the_true_route_after_every_action(seed: int) -> None:
    game = FugitiveGame(max_rounds=6)
    belief = MarshalBelief.from_view(game, view_of(game, MARSHAL, []))
    assert isinstance(belief, Belief) and isinstance(belief, SamplingBelief)
    seen: list[Event] = []
    rng = random.Random(seed)
    for state, events in walk(game, MARSHAL, rng):
        for event in events:
            belief.update(event)
        seen += events
        assert belief.events_read == len(seen)
        if events and events[-1].kind != "drew":  # count after each turn's last step
            assert belief.admits(state), (seed, len(seen))
        if state.current_player() == MARSHAL:  # her decisions, where the samplers draw
            world = belief.sample(rng)
            assert replay_difference(game, world, seen) is None
    assert belief.admits(state)


def test_the_protocol_belief_refuses_an_impossible_event_naming_it() -> None:
    game = FugitiveGame()
    _, events = play(*SETUP, "hideout 2", "hideout 3", "draw 1", "card 5", "draw 2", "card 17")
    seen = marshal_view(events)
    belief = MarshalBelief.from_view(game, view_of(game, MARSHAL, seen))
    blind = Event("drew", {"seat": MARSHAL, "pile": 1, "bonus": False})  # her own card, unseen
    with pytest.raises(ContradictionError, match=rf"^event {len(seen) + 1} \(drew\): "):
        belief.update(blind)
    belief = MarshalBelief.from_view(game, view_of(game, MARSHAL, seen))
    belief.update(Event("revealed", {"position": 1, "value": 9, "sprints": []}))
    with pytest.raises(ContradictionError, match=rf"event {len(seen) + 1} \(revealed"):
        belief.admits(play(*SETUP, "hideout 2", "hideout 3")[0])
    with pytest.raises(SleuthError, match="seat 1's view, not 0's"):
        MarshalBelief.from_view(game, view_of(game, 0, []))
