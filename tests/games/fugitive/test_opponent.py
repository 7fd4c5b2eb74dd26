"""The Marshal who knows her opponent: the Fugitives' stated strategies, the posterior over his
hand and route under one (:class:`StrategyBelief`), and the belief Marshal's ``opponent``."""

from __future__ import annotations

import itertools
import random
from collections.abc import Hashable, Sequence
from dataclasses import replace
from functools import partial
from math import comb, isclose

import pytest

from sleuth.core.errors import OptionError, SleuthError, SolverLimitError
from sleuth.core.events import Event, View
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.deduction.endgame import manhunt_chance
from sleuth.games.fugitive.deduction.opponent import StrategyBelief
from sleuth.games.fugitive.engine.cards import PILES
from sleuth.games.fugitive.engine.moves import OpeningPlacements
from sleuth.games.fugitive.players.fugitives import (
    BLUFF,
    HeuristicFugitive,
    SteadyFugitive,
    Strategy,
    own_cards,
    place_or_pass_odds,
)
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame, FugitiveState

GAME = SPEC.make({"max_rounds": 50})
assert isinstance(GAME, FugitiveGame)

LOST_MANHUNT = 2074875347339480242
"""A game seed (from ``sleuth play fugitive --bots heuristic,belief -n 100000 --seed 99``) where
the belief Marshal's own odds lose the Manhunt: 33 and 32 are both possible, her model prefers
32, the heuristic Fugitive's strategy 33 (0.90 against 0.10 at her second guess)."""


class StrategyCheck:
    """Records, for a Fugitive bot, any move its ``act`` makes that its stated strategy gives
    no probability, and how often it took the second of two different moves (a bluff)."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.second_moves: list[bool] = []

    def check(self, bot: Strategy, view: View, legal: Sequence[Hashable], move: object) -> None:
        hand, last = own_cards(view)
        mixed = bot.strategy(sorted(hand), last, legal)
        if not isclose(sum(p for p, _ in mixed), 1.0):
            self.problems.append(f"probabilities of {mixed} do not sum to 1")
        if not any(p > 0 and a == move for p, a in mixed):
            self.problems.append(f"{move} not in {mixed}")
        if len(mixed) == 2 and mixed[0][1] != mixed[1][1]:
            self.second_moves.append(move == mixed[1][1])


class CheckedHeuristic(HeuristicFugitive):
    def __init__(self, game: FugitiveGame, seat: int, seed: int, check: StrategyCheck) -> None:
        super().__init__(game, seat, seed, BLUFF)
        self.recorder = check

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        move = super().act(view, legal)
        self.recorder.check(self, view, legal, move)
        return move


class CheckedSteady(SteadyFugitive):
    def __init__(self, game: FugitiveGame, seat: int, seed: int, check: StrategyCheck) -> None:
        super().__init__(game, seat, seed, 1)
        self.recorder = check

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        move = super().act(view, legal)
        self.recorder.check(self, view, legal, move)
        return move


class OneStreamHeuristic(HeuristicFugitive):
    """The heuristic Fugitive drawing from one random stream for the whole game, as bots did
    when the seeds of these tests were found (each decision now restarts the stream: see
    :meth:`~sleuth.core.bots.Bot.ask`): the same strategy, in the games those seeds name."""

    def __init__(self, game: FugitiveGame, seat: int, seed: int) -> None:
        super().__init__(game, seat, seed, BLUFF)

    def reseed(self, seed: int) -> None:
        """Keep the one stream."""


def marshal_events(
    seed: int, marshal: str = "belief:lookahead=false"
) -> tuple[list[Event], FugitiveState]:
    """The Marshal's view of a whole game of the heuristic Fugitive (:class:`OneStreamHeuristic`)
    against ``marshal`` (by default the belief Marshal without her look ahead, who let these
    seeds reach a Manhunt she lost)."""
    fugitive = replace(SPEC.bot("heuristic"), factory=OneStreamHeuristic, options=())
    record = run_match(GAME, [fugitive, SPEC.bot(marshal)], seed, None)
    assert not record.forfeits, record.forfeits
    events = [e.seen_by(MARSHAL) for step in record.steps for e in step.events]
    state = record.final_state
    assert isinstance(state, FugitiveState)
    return events, state


def manhunt_cut(events: list[Event]) -> int:
    return next(i for i, e in enumerate(events) if e.kind == "manhunt") + 1


@pytest.mark.parametrize(
    ("name", "bot"), [("heuristic", CheckedHeuristic), ("steady", CheckedSteady)]
)
@pytest.mark.parametrize("options", [{}, {"edition": "second", "opening": "one_or_two"}])
def test_each_fugitive_states_every_move_it_makes(
    name: str, bot: type[CheckedHeuristic | CheckedSteady], options: dict[str, str]
) -> None:
    game = SPEC.make({"max_rounds": 50, **options})
    check = StrategyCheck()
    spec = replace(SPEC.bot(name), factory=partial(bot, check=check), options=())
    for seed in range(30):
        marshal = SPEC.bot("random" if seed % 2 else "belief")
        assert not run_match(game, [spec, marshal], seed, None).forfeits
    assert check.problems == []
    if name == "heuristic":  # its bluff, one time in four
        assert len(check.second_moves) > 100
        assert abs(sum(check.second_moves) / len(check.second_moves) - BLUFF) < 0.1
    else:
        assert check.second_moves == []  # steady is sure of every move


def test_the_bluff_is_a_second_choice_with_its_probability() -> None:
    hand = [1, 2, 3, 9, 12, 42]
    assert place_or_pass_odds(hand, 0, [3, 9], True, 0.25) == [
        (0.75, place_or_pass_odds(hand, 0, [3, 9], True, 0.0)[0][1]),
        (0.25, place_or_pass_odds(hand, 0, [3, 9], True, 1.0)[1][1]),
    ]
    assert place_or_pass_odds(hand, 39, [42], True, 0.25)[0][0] == 1.0  # 42 at once, no bluff


def test_the_steady_fugitive_states_its_one_move() -> None:
    steady = SteadyFugitive(GAME, FUGITIVE, 0, 1)
    state = GAME.new_initial_state()
    for card in (7, 8, 9, 15, 16):
        state.apply(GAME.parse_action(f"card {card}"))
    legal = state.legal_actions()
    assert isinstance(legal, OpeningPlacements)
    ((p, move),) = steady.strategy([1, 2, 3, 7, 8, 9, 15, 16, 42], 0, legal)
    assert p == 1.0 and move in legal


@pytest.mark.slow
def test_after_the_opening_the_odds_are_those_of_every_dealt_hand() -> None:
    """Oracle: every hand the setup can deal, weighted by the probability that the heuristic
    Fugitive's opening shows the same sprint counts, counted directly."""
    events, _ = marshal_events(3)
    opening = [e for e in events[:7] if e.kind == "placed"]
    counts = tuple(int(e.public["sprints"]) for e in opening)
    fugitive = HeuristicFugitive(GAME, FUGITIVE, 0, BLUFF)
    expected: dict[frozenset[int], float] = {}
    hands = itertools.product(
        itertools.combinations(PILES[0], 3), itertools.combinations(PILES[1], 2)
    )
    for ones, twos in hands:
        state = GAME.new_initial_state()
        for card in (*ones, *twos):
            state.apply_trusted(GAME.parse_action(f"card {card}"))
        for first_p, first in fugitive.strategy(
            sorted((1, 2, 3, 42, *ones, *twos)), 0, state.legal_actions()
        ):
            after = state.clone()
            after.apply_trusted(first)
            hand = sorted(
                c for c in (1, 2, 3, 42, *ones, *twos) if c not in (first.hideout, *first.sprints)
            )  # type: ignore[union-attr]
            for second_p, second in fugitive.strategy(hand, first.hideout, after.legal_actions()):  # type: ignore[union-attr]
                if (len(first.sprints), len(second.sprints)) == counts:  # type: ignore[union-attr]
                    route = frozenset((first.hideout, second.hideout))  # type: ignore[union-attr]
                    expected[route] = expected.get(route, 0.0) + first_p * second_p
    total = sum(expected.values())
    belief = StrategyBelief(GAME, fugitive)
    belief.update(events[:7])
    found = belief.face_down_sets()
    assert found.keys() == expected.keys()
    for route, weight in expected.items():
        assert isclose(found[route], weight / total)
    assert comb(11, 3) * comb(14, 2) == 15015  # the hands weighed


@pytest.mark.parametrize("seed", [LOST_MANHUNT, 445582381743035112])
def test_the_true_route_is_always_kept_and_each_world_shows_the_view(seed: int) -> None:
    events, final = marshal_events(seed)
    cut = manhunt_cut(events)
    belief = StrategyBelief(GAME, HeuristicFugitive(GAME, FUGITIVE, 0, BLUFF))
    truth_hand = final.hands[FUGITIVE]
    truth_route = [(h.value, h.sprints) for h in final.route]
    belief.update(events[:cut])
    assert isclose(sum(belief.face_down_sets().values()), 1.0)
    kept = [(s.hands[FUGITIVE], [(h.value, h.sprints) for h in s.route]) for s, _ in belief.states]
    assert (truth_hand, truth_route) in kept
    placed = sum(e.kind == "placed" for e in events[:cut])
    revealed = {
        int(e.public["position"]): e.public["value"] for e in events[:cut] if e.kind == "revealed"
    }
    for state, weight in belief.states:
        assert weight > 0 and len(state.route) == placed + 1
        assert {p: state.route[p].value for p in revealed} == revealed


def test_reading_in_steps_equals_reading_at_once_even_partway_through_an_action() -> None:
    events, _ = marshal_events(LOST_MANHUNT)
    cut = manhunt_cut(events)
    at_once = StrategyBelief(GAME, HeuristicFugitive(GAME, FUGITIVE, 0, BLUFF))
    at_once.update(events[: cut + 3])
    in_steps = StrategyBelief(GAME, HeuristicFugitive(GAME, FUGITIVE, 0, BLUFF))
    for end in (cut - 7, cut, cut + 1, cut + 3):  # cut + 1: a guess whose reveal is still due
        in_steps.update(events[:end])
    assert in_steps.face_down_sets() == pytest.approx(at_once.face_down_sets())
    sets = at_once.face_down_sets()
    assert max(sets, key=sets.__getitem__) == frozenset({33})


def test_knowing_the_heuristic_fugitive_wins_a_game_her_odds_lose() -> None:
    _, lost = marshal_events(LOST_MANHUNT)
    assert lost.winner == FUGITIVE and lost.reason == "manhunt_failed"
    _, won = marshal_events(LOST_MANHUNT, "belief:opponent=heuristic")
    assert won.winner == MARSHAL and won.reason == "marshal_uncovered_route"  # before 42


def test_a_view_the_strategy_cannot_show_is_refused_and_the_marshal_falls_back() -> None:
    events, _ = marshal_events(LOST_MANHUNT)
    cut = manhunt_cut(events)
    steady = StrategyBelief(GAME, SteadyFugitive(GAME, FUGITIVE, 0, 1))
    with pytest.raises(SleuthError, match=r"event 6 \(placed .*: no game of this Fugitive strat"):
        steady.update(events[:cut])
    # told the wrong opponent, she plays her own odds: the same game as without one
    assert marshal_events(LOST_MANHUNT, "belief:opponent=steady:lookahead=false")[0] == events


def test_refused_events_leave_the_belief_as_it_was() -> None:
    events, _ = marshal_events(LOST_MANHUNT)
    cut = manhunt_cut(events)
    belief = StrategyBelief(GAME, HeuristicFugitive(GAME, FUGITIVE, 0, BLUFF))
    belief.update(events[:cut])
    before = belief.face_down_sets()
    with pytest.raises(SleuthError, match="not the beginning of this view"):
        belief.update(events[1 : cut + 2])
    assert events[cut + 1].kind == "revealed"
    wrong = Event("revealed", {**events[cut + 1].public, "sprints": (40,)})
    with pytest.raises(SleuthError, match=rf"event {cut + 2} \(revealed .*: no game of this"):
        belief.update([*events[: cut + 1], wrong])
    assert belief.events == events[:cut] and belief.face_down_sets() == before
    belief.update(events[: cut + 2])  # still usable
    assert belief.face_down_sets() != before


def test_too_many_hands_is_a_solver_limit() -> None:
    events, _ = marshal_events(LOST_MANHUNT)
    belief = StrategyBelief(GAME, HeuristicFugitive(GAME, FUGITIVE, 0, BLUFF), max_states=1_000)
    with pytest.raises(SolverLimitError, match="over 1,000 hands and routes"):
        belief.update(events[:7])


def test_only_known_fugitives_can_be_her_opponent() -> None:
    with pytest.raises(OptionError, match="opponent"):
        SPEC.bot("belief:opponent=elusive")


def test_every_opening_placement_of_a_hideout_without_listing_them_all() -> None:
    rng = random.Random(5)
    for _ in range(30):
        hand = sorted({1, 2, 3, 42, *rng.sample(PILES[0], 3), *rng.sample(PILES[1], 2)})
        opening = OpeningPlacements(hand, 0, follow_up=True)
        for hideout in opening.hideouts():
            listed = [p for p in opening if p.hideout == hideout]
            assert set(opening.of_hideout(hideout)) == set(listed)
            assert len(opening.of_hideout(hideout)) == len(listed)


def test_a_malformed_event_is_named_as_such() -> None:
    belief = StrategyBelief(GAME, HeuristicFugitive(GAME, FUGITIVE, 0, BLUFF))
    no_pile = Event("drew", {"seat": FUGITIVE, "bonus": False}, None, frozenset({FUGITIVE}))
    with pytest.raises(SleuthError, match=r"malformed event .* 'pile'"):
        belief.update([no_pile])
    assert belief.events == []


BETTER_THAN_THE_LIKELIEST = 2848813261847820896
"""A game seed (same run as :data:`LOST_MANHUNT`) whose Manhunt starts with routes where the
surest number of the likeliest route, 31, wins a third of the time, and 38 two thirds."""


def test_the_manhunt_guess_wins_most_often_and_says_how_often() -> None:
    events, _ = marshal_events(BETTER_THAN_THE_LIKELIEST)
    belief = StrategyBelief(GAME, HeuristicFugitive(GAME, FUGITIVE, 0, BLUFF))
    belief.update(events[: manhunt_cut(events)])
    number, chance = belief.manhunt_guess()
    assert number == 38 and chance == pytest.approx(2 / 3)
    sets = belief.face_down_sets()
    likeliest = max(sets, key=sets.__getitem__)
    assert 31 in likeliest and 38 not in likeliest  # what the surest-of-likeliest rule names


@pytest.mark.parametrize("seed", [LOST_MANHUNT, 445582381743035112, 5014867779188015600])
def test_playing_the_manhunt_guesses_out_wins_as_often_as_they_say(seed: int) -> None:
    """Oracle: draw his face-down route by weight, name the best guess again after each hit
    (with the routes that show the same), and count the wins."""
    events, _ = marshal_events(seed)
    belief = StrategyBelief(GAME, HeuristicFugitive(GAME, FUGITIVE, 0, BLUFF))
    belief.update(events[: manhunt_cut(events)])
    _, chance = belief.manhunt_guess()
    routes = belief.routes()
    rng = random.Random(seed)
    wins = 0
    for truth in rng.choices([r for r, _ in routes], [p for _, p in routes], k=3000):
        left, hidden = routes, truth
        while hidden:
            _, number = manhunt_chance(left)
            hit = [h for h in hidden if h[1] == number]
            if not hit:
                break
            position, _, stack = hit[0]
            hidden = tuple(h for h in hidden if h[0] != position)
            same = [
                (tuple(h for h in r if h[0] != position), p)
                for r, p in left
                if any(h == (position, number, stack) for h in r)
            ]
            total = sum(p for _, p in same)
            left = tuple(sorted((r, p / total) for r, p in same))
        wins += not hidden
    assert abs(wins / 3000 - chance) < 0.03


def test_her_own_moves_are_checked_against_the_rules() -> None:
    events, _ = marshal_events(LOST_MANHUNT)
    first_card = next(i for i, e in enumerate(events) if e.kind == "drew" and e.private)
    card = int(events[first_card].private["card"])  # type: ignore[index]
    other_pile = {**events[first_card].public, "pile": 3 if card < 29 else 1}
    wrong = Event("drew", other_pile, {"card": card}, frozenset({MARSHAL}))
    chose = Event("chose_pile", {**events[first_card - 1].public, "pile": other_pile["pile"]})
    belief = StrategyBelief(GAME, HeuristicFugitive(GAME, FUGITIVE, 0, BLUFF))
    with pytest.raises(SleuthError, match=rf"event {first_card + 1} \(drew .*card {card}: not in"):
        belief.update([*events[: first_card - 1], chose, wrong])
    assert belief.events == []
    guess = next(i for i, e in enumerate(events) if e.kind == "guessed")
    bad_guess = Event("guessed", {"numbers": (99,), "hit": False})
    with pytest.raises(SleuthError, match="only 1-41 can be named"):
        belief.update([*events[:guess], bad_guess])
    no_pile = Event("drew", {"seat": FUGITIVE, "pile": 9, "bonus": False}, None, frozenset({0}))
    with pytest.raises(SleuthError, match="the piles are 1, 2 and 3"):
        belief.update([no_pile])
