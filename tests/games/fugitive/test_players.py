"""Fugitive players: the guess modes, the notes Marshal's path weights, the heuristic Fugitive,
and whole games without forfeits."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from sleuth.arena.tournament import run_tournament
from sleuth.core.errors import SolverLimitError
from sleuth.core.events import View
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive import belief as belief_module
from sleuth.games.fugitive import search as fugitive_search
from sleuth.games.fugitive.belief import ExactBelief
from sleuth.games.fugitive.deduction import advice as advice_module
from sleuth.games.fugitive.deduction.advice import Deduction
from sleuth.games.fugitive.deduction.notes import MarshalNotes
from sleuth.games.fugitive.deduction.timeline import Slot, Timeline
from sleuth.games.fugitive.engine.actions import PASS, Place, parse_action
from sleuth.games.fugitive.engine.cards import LAST, PILES, SPRINT
from sleuth.games.fugitive.players.fugitives import (
    HeuristicFugitive,
    SteadyFugitive,
    fewest_payment,
    own_cards,
    payment,
)
from sleuth.games.fugitive.players.marshals import BeliefMarshal
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame
from tests.games.fugitive.helpers import SETUP, play


def deduction(timeline: Timeline, threshold: int = 30) -> Deduction:
    belief = ExactBelief(timeline)
    return Deduction(belief, belief.counts(), threshold)


def two_hideouts(marshal: set[int]) -> Timeline:
    """h1 = 3 face up; h2 and h3 face down, no sprint cards."""
    timeline = Timeline(marshal_cards=marshal, fugitive_draws=[3, 2, 0])
    timeline.slots = [
        Slot(1, 0, (3, 2, 0), value=3, stack=()),
        Slot(2, 0, (3, 2, 0)),
        Slot(3, 0, (3, 2, 0)),
    ]
    return timeline


def test_guess_modes() -> None:
    # h2 is 4 for sure (the Marshal holds 5 and 6); h3 is 5..7 minus hers: 7 only? 4 < h3 <= 7.
    found = deduction(two_hideouts({5, 6}))
    assert found.counts.certain() == [4, 7]
    assert found.advice("certain").numbers == (4, 7)  # type: ignore[union-attr]
    assert found.advice("gamble").reason == "uncovers the whole route"  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="unknown guess mode 'bold'"):
        found.advice("bold")  # refused even where every mode gives the same guess
    loose = deduction(two_hideouts({6}))  # h2 in {4, 5}, h3 in {5, 7}
    probabilities = loose.hideout_probabilities()
    advice = loose.advice("argmax")
    assert advice is not None and len(advice.numbers) == 1
    assert advice.probability == max(probabilities.values())
    assert loose.advice("certain").numbers == ()  # type: ignore[union-attr]
    gamble = loose.advice("gamble")
    assert gamble is not None and gamble.numbers == advice.numbers
    reveal = loose.advice("reveal")
    assert reveal is not None
    value = len(reveal.numbers) * reveal.probability
    for pair in itertools.combinations([n for n, p in probabilities.items() if p], 2):
        assert 2 * loose.belief.joint(pair) <= value
    assert reveal.probability == loose.belief.joint(reveal.numbers)


def test_reveal_falls_back_to_the_gamble_when_the_joint_pass_is_over_budget() -> None:
    loose = deduction(two_hideouts({6}))
    gamble = loose.advice("gamble")
    loose.belief.max_states = 1  # the counts are known; the joint pass now cannot fit
    with pytest.raises(SolverLimitError):
        loose.belief.joints((4, 5))
    assert loose.advice("reveal") == gamble


def test_a_marshal_not_aiming_for_the_manhunt_names_high_numbers() -> None:
    game = FugitiveGame(manhunt_threshold=3)  # 3 is the likeliest hideout (7/10), 1 next (3/5)
    _, events = play(*SETUP, "hideout 2", "hideout 3", "draw 1", "card 4", "draw 1", "card 5")
    view = View(MARSHAL, "marshal", {}, [e.seen_by(MARSHAL) for e in events])
    holding = BeliefMarshal(game, MARSHAL, 0, "argmax", "low")
    assert holding.choose(view) == (1,)
    naming = BeliefMarshal(game, MARSHAL, 0, "argmax", "low", manhunt=False)
    assert naming.choose(view) == (3,)


def test_numbers_at_the_threshold_are_left_alone_unless_they_win() -> None:
    found = deduction(two_hideouts({6}), threshold=5)  # 5 and 7 would let 42 escape at once
    advice = found.advice("argmax")
    assert advice is not None and advice.numbers == (4,)
    gamble = found.advice("gamble", lookahead=False)
    assert gamble is not None and all(n < 5 for n in gamble.numbers)
    ahead = found.advice("gamble")  # a number of 5 or more only within a whole route
    sets = found.belief.face_down_sets(found.counts)
    assert ahead is not None and (
        all(n < 5 for n in ahead.numbers) or frozenset(ahead.numbers) in sets
    )
    certain = deduction(two_hideouts({5, 6}), threshold=5)
    assert certain.advice("certain").numbers == (4, 7)  # type: ignore[union-attr]


def test_players_on_a_clock_fall_back_to_the_relaxed_belief_then_to_nothing() -> None:
    _, events = play(*SETUP, "hideout 3 sprint 1", "hideout 9 sprint 2 8", "draw 1", "card 4")
    seen = [e.seen_by(1) for e in events]
    assert Deduction.within(seen, 30, 100_000).exact  # type: ignore[union-attr]
    relaxed = Deduction.within(seen, 30, 300)  # the exact programme needs 470 states, relaxed 132
    assert relaxed is not None and not relaxed.exact
    exact = Deduction.from_events(seen)
    for position, values in exact.counts.candidates().items():
        assert set(values) <= set(relaxed.counts.candidates()[position])
    assert Deduction.within(seen, 30, 100) is None


def test_steady_fugitive_opening_and_turns() -> None:
    state, events = play(*SETUP)
    bot = SteadyFugitive(state.game, FUGITIVE, 0, dead_cards=1)
    view = View(FUGITIVE, "fugitive", {}, [e.seen_by(FUGITIVE) for e in events])
    first = bot.act(view, state.legal_actions())
    assert first == Place(3)  # the largest hideout within 3, no sprint card
    events += state.apply(first)  # type: ignore[arg-type]
    view = View(FUGITIVE, "fugitive", {}, [e.seen_by(FUGITIVE) for e in events])
    # nothing within 3 of 3: the fewest sprint cards (one), the larger hideout, the lowest card
    assert bot.act(view, state.legal_actions()) == Place(8, (2,))


def test_numbers_at_the_threshold_are_named_once_the_piles_are_empty() -> None:
    found = deduction(two_hideouts({6}), threshold=4)  # every possible hideout is 4 or more
    assert found.advice("argmax").numbers == ()  # type: ignore[union-attr]
    empty = two_hideouts({6})
    empty.fugitive_draws = [len(PILES[0]) - 1, len(PILES[1]), len(PILES[2])]
    assert empty.piles_empty()
    advice = deduction(empty, threshold=4).advice("argmax")
    assert advice is not None and advice.numbers and advice.numbers[0] >= 4
    waiting = deduction(empty).advice("certain")  # nothing certain, and nothing will change
    assert waiting is not None and len(waiting.numbers) == 1


@pytest.mark.parametrize("piles_empty", [False, True])
def test_instead_of_waiting_or_revealing_a_high_number_the_marshal_names_a_whole_route(
    piles_empty: bool,
) -> None:
    """h2 in {4, 5}, h3 in {5, 7, 8}: four routes, each a quarter.  At threshold 4 a single
    hit would let 42 escape at once, but naming a whole route wins when it hits."""
    timeline = two_hideouts({6})
    if piles_empty:
        timeline.fugitive_draws = [len(PILES[0]) - 1, len(PILES[1]), len(PILES[2])]
    found = deduction(timeline, threshold=4)
    sets = found.belief.face_down_sets(found.counts)
    assert sets == {frozenset(s): Fraction(1, 4) for s in ({4, 5}, {4, 7}, {5, 7}, {5, 8})}
    for mode in ("gamble", "reveal"):
        advice = found.advice(mode, lookahead=False)
        assert advice is not None and advice.numbers == (4, 5)  # the lowest of the likeliest
        assert advice.probability == Fraction(1, 4) and "whole route" in advice.reason
        # Looking ahead: a miss on {4, 7} leaves {4, 5}, {5, 7}, {5, 8}, where naming 5 in the
        # Manhunt wins 2/3 (its position tells {4, 5} from the rest); a miss on {4, 5} leaves
        # {4, 7}, {5, 7}, {5, 8}, where the best number wins 1/3.  So {4, 7} wins
        # 1/4 + 3/4 * 2/3 = 3/4 if 42 comes next, {4, 5} only 1/2 ({5, 7} and {5, 8} tie with
        # {4, 7}; the lower numbers break the tie).
        ahead = found.advice(mode)
        assert ahead is not None and ahead.numbers == (4, 7)
        assert ahead.probability == Fraction(1, 4) and "42 comes next (75%)" in ahead.reason
    below = deduction(timeline).advice("gamble")  # threshold 30: the likeliest number, 5 (3/4)
    assert below is not None and below.numbers == (5,)


def test_revealed_sprint_cards_are_not_nameable() -> None:
    timeline = two_hideouts({6})
    timeline.slots[0].stack = (1,)
    found = deduction(timeline)
    assert 1 not in found.guessable() and 3 not in found.guessable()
    assert 1 not in found.not_hideouts() and 2 in found.not_hideouts()


def test_the_manhunt_follows_the_likeliest_whole_route() -> None:
    """h2 (one sprint card) and h3 (none) after 3, the Marshal holding 4 and 7: 8 is the
    likeliest number (123/193) but lies on the less likely routes; the likeliest routes
    ({5, 6}, {5, 8}, {6, 8}, {6, 9}: 35/193 each) favour 6, on three of them."""
    timeline = two_hideouts({4, 7})
    timeline.slots[1].sprints = 1
    timeline.manhunt = True
    found = deduction(timeline)
    assert found.advice("argmax").numbers == (8,)  # type: ignore[union-attr]
    route = found.likeliest_route()
    assert route is not None and route.numbers == (5, 6) and route.probability == Fraction(35, 193)
    advice = found.advice("gamble")
    assert advice is not None and advice.numbers == (6,)
    assert advice.probability == Fraction(105, 193)


def test_manhunt_names_one_number() -> None:
    timeline = two_hideouts({5, 6})
    timeline.manhunt = True
    advice = deduction(timeline).advice("gamble")
    assert advice is not None and advice.numbers == (4,) and advice.probability == 1


def test_notes_path_weights_count_paths_through_each_value() -> None:
    _, events = play(*SETUP, "hideout 2", "hideout 3 sprint 1")
    notes = MarshalNotes.from_events(events)
    weights = notes.value_weights([1, 2])
    paths = [
        (a, b) for a in notes.layers[1] for b in notes.layers[2] if 0 < a <= 3 and a < b <= a + 5
    ]
    assert sum(weights.values()) == 2 * len(paths) == 2 * notes.route_count()
    for value, n in weights.items():
        assert n == sum(path.count(value) for path in paths)


def test_heuristic_fugitive_pays_with_dead_cards_first_and_bluffs() -> None:
    game = FugitiveGame()
    bot = HeuristicFugitive(game, FUGITIVE, 0, bluff=0.0)
    place = payment([1, 2, 4, 9, 10, 14], last=3, hideout=9, bluff=False)
    assert place == Place(9, (2, 4))  # dead cards (below 9), the biggest footprints first
    bluffing = payment([1, 2, 4, 9, 10, 14], last=3, hideout=9, bluff=True)
    assert len(bluffing.sprints) == 3 and set(place.sprints) < set(bluffing.sprints)
    assert bot._place_or_pass([40, 42], 39, [40, 42], can_pass=True) == Place(42)
    assert bot._place_or_pass([4], 0, [], can_pass=True) == PASS


def test_own_cards_reads_the_fugitives_view() -> None:
    state, events = play(*SETUP, "hideout 2", "hideout 3 sprint 1")
    view = View(FUGITIVE, "fugitive", {}, [e.seen_by(FUGITIVE) for e in events])
    assert own_cards(view) == ({7, 8, 9, 15, 16, 42}, 3)
    state.apply(parse_action("draw 1"))  # the Marshal's draws are not the Fugitive's cards
    assert own_cards(view)[0] == {7, 8, 9, 15, 16, 42}


@pytest.mark.parametrize(
    ("fugitive", "marshal"),
    [
        ("heuristic", "belief"),
        ("heuristic:bluff=1", "belief:guess=reveal:draw=high"),
        ("random", "belief:guess=certain:draw=low"),
        ("heuristic", "notes:draw=random"),
        ("heuristic", "belief:guess=argmax"),
        ("steady:dead_cards=2", "belief"),
        ("heuristic:bluff=1", "belief:manhunt=false"),
    ],
)
def test_whole_games_without_forfeits(fugitive: str, marshal: str) -> None:
    # no time limit: this is about legal play; a slow reveal-mode guess is a forfeit otherwise
    result = run_tournament(
        "fugitive", [fugitive, marshal], games=4, seed=3, workers=1, time_limit=None
    )
    assert result.forfeits == 0
    assert len(result.rows) == 4


def test_second_edition_and_forced_guesses() -> None:
    options = {"edition": "second", "marshal_may_skip": False, "max_rounds": 30}
    result = run_tournament(
        "fugitive", ["heuristic", "belief:guess=certain"], games=4, seed=1, workers=1,
        options=options, time_limit=None,
    )  # fmt: skip
    assert result.forfeits == 0


@pytest.mark.slow
def test_belief_marshal_catches_the_heuristic_fugitive() -> None:
    result = run_tournament("fugitive", ["heuristic", "belief"], games=30, seed=0, workers=1)
    marshal = next(r for r in result.summary()["results"] if r["role"] == "marshal")
    assert marshal["wins"] >= 27, marshal  # about 98% over 2,000 games (docs/fugitive.md)
    assert marshal["wins"] / 30 > 0.86  # the published figure against a random Fugitive


@pytest.mark.parametrize("seed", range(20))
def test_steady_fugitive_pays_42_with_the_fewest_cards(seed: int) -> None:
    rng = random.Random(seed)
    hand = set(rng.sample(range(1, 42), rng.randint(1, 9))) | {LAST}
    last = rng.randint(30, 41)
    cards = sorted(hand - {LAST})
    feasible = [
        size
        for size in range(len(cards) + 1)
        for chosen in itertools.combinations(cards, size)
        if sum(SPRINT[c] for c in chosen) >= LAST - last - 3
    ]
    if not feasible:
        with pytest.raises(ValueError):
            fewest_payment(hand, last, LAST)
        return
    place = fewest_payment(hand, last, LAST)
    assert len(place.sprints) == min(feasible)
    assert set(place.sprints) <= hand - {LAST}
    assert LAST - last <= 3 + sum(SPRINT[c] for c in place.sprints)


def test_the_bots_that_count_worlds_warm_the_compiled_programme_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Their first move must not compile the kernels under the clock (see BotSpec.warm_up):
    their warm-up starts compiling them elsewhere (tests/games/fugitive/test_first_run.py)."""
    for name in ("belief", "elusive", "decoy"):
        assert SPEC.bot(name).warm_up is belief_module.start_warm_up
    called: list[str] = []
    monkeypatch.setattr(fugitive_search, "start_warm_up", lambda: called.append("warmed"))
    for name in ("ismcts", "dmcts"):
        warm_up = SPEC.bot(name).warm_up
        assert warm_up is not None
        warm_up()
    assert called == ["warmed", "warmed"]
    belief_module.warm_up()  # runs the compiled programme without error


def test_over_the_expectimax_budget_the_advice_keeps_its_own_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def over_budget(*args: object) -> None:
        raise SolverLimitError("over budget")

    found = deduction(two_hideouts({6}), threshold=4)
    assert found.advice("gamble") != found.advice("gamble", lookahead=False)
    monkeypatch.setattr(advice_module, "best_before_42", over_budget)
    assert found.advice("gamble") == found.advice("gamble", lookahead=False)


def test_no_look_ahead_once_a_face_up_hideout_would_let_42_win_at_once() -> None:
    found = deduction(two_hideouts({6}), threshold=3)  # h1 = 3 is face up: 42 escapes (F26)
    assert not found.near_42()
    assert found.advice("gamble") == found.advice("gamble", lookahead=False)
    assert deduction(two_hideouts({6}), threshold=4).near_42()


def test_the_bots_that_count_worlds_declare_a_move_budget() -> None:
    """A wide-open 2nd-edition position takes them over a second (see BELIEF_BUDGET)."""
    from sleuth.games.fugitive.catalogue import BELIEF_BUDGET, OPPONENT_BUDGET

    budget = BELIEF_BUDGET

    assert SPEC.bot("belief").budget() == budget
    assert SPEC.bot("belief:guess=certain:draw=low").budget() == budget
    assert SPEC.bot("belief:opponent=heuristic").budget() == OPPONENT_BUDGET
    assert SPEC.bot("elusive").budget() == budget
    assert SPEC.bot("decoy").budget() == budget
    assert SPEC.bot("heuristic").budget() is None and SPEC.bot("notes").budget() is None
