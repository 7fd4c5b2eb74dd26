"""Cluedo advice: suggestion gains against a fully exact oracle (answer probabilities from
exact counts of the refuter's holdings), the screen against a plain per-sample loop, room
rates and turns, the refutation policy's cases, accusations and bad input."""

from __future__ import annotations

import itertools
import math
import random
from functools import cache

import numpy as np
import pytest

from sleuth.core.errors import SleuthError
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.games.cluedo.advice import (
    accusation_advice,
    best_suggestion,
    candidates_left,
    card_to_show,
    draw,
    exact_gain,
    outcome_probabilities,
    room_gains,
    room_screens,
    rooms_advice,
)
from sleuth.games.cluedo.cards import NAMES, ROOMS
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.deduction.constraints import Infeasible, Knowledge
from sleuth.games.cluedo.deduction.counting import Posterior
from sleuth.games.cluedo.movement import AtStart, InRoom, Transit, expected_throws, travel_time

CARD = {name: card for card, name in enumerate(NAMES)}
KITCHEN, LOUNGE = CARD["Kitchen"], CARD["Lounge"]


@cache
def posterior(players: int, answers: int, seed: int = 2) -> Posterior:
    """Seat 0's posterior after ``answers`` answers of a random game."""
    game = make_game("cluedo", {"players": players, "max_turns": 200})
    record = run_match(game, [game_spec("cluedo").bot("random")] * players, seed, time_limit=None)
    belief = CluedoBelief(0)
    seen = 0
    for step in record.steps:
        for event in step.events:
            belief.update(event.seen_by(0))
            seen += event.kind in ("refuted", "unrefuted")
        if seen >= answers and belief.knowledge is not None:
            break
    return belief.posterior


def exact(knowledge: Knowledge) -> Posterior | None:
    try:
        return Posterior(knowledge)
    except Infeasible:
        return None


def oracle_answers(
    post: Posterior, seat: int, players: int, triple: tuple[int, int, int]
) -> tuple[list[float], list[Knowledge]]:
    """Every answer's exact probability (the refuter's exact holdings counted, its card
    uniform among them) and the knowledge after it, in :func:`outcome_probabilities` order."""
    knowledge = post.knowledge
    cards = sum(1 << c for c in triple)
    probabilities, after = [0.0], [knowledge]
    for step in range(1, players):
        p = (seat + step) % players
        chances = dict.fromkeys(triple, 0.0)
        for size in (1, 2, 3):
            for held in itertools.combinations(triple, size):
                mask = sum(1 << c for c in held)
                q = exact(knowledge.with_has(p, mask).with_lacks(p, cards & ~mask))
                for card in held:
                    chances[card] += (q.total if q else 0) / post.total / size
        for card in triple:
            probabilities.append(chances[card])
            after.append(knowledge.with_has(p, 1 << card))
        knowledge = knowledge.with_lacks(p, cards)
    none = exact(knowledge)
    probabilities[0] = none.total / post.total if none else 0.0
    after[0] = knowledge
    return probabilities, after


def oracle_gain(post: Posterior, seat: int, players: int, triple: tuple[int, int, int]) -> float:
    probabilities, after = oracle_answers(post, seat, players, triple)
    expected = 0.0
    for p, knowledge in zip(probabilities, after, strict=True):
        if p:
            q = exact(knowledge)
            assert q is not None
            expected += p * q.entropy()
    return post.entropy() - expected


TRIPLES = [(0, 6, KITCHEN), (2, 8, KITCHEN), (5, 11, LOUNGE), (3, 9, 12)]


@pytest.mark.parametrize("players", [3, 5])
def test_answer_probabilities_and_gains_match_the_exact_oracle(players: int) -> None:
    post = posterior(players, 4)
    samples = draw(post, 0, players, random.Random(1), 6000)
    for triple in TRIPLES:
        probabilities, _ = oracle_answers(post, 0, players, triple)
        assert math.isclose(sum(probabilities), 1.0)
        estimated = outcome_probabilities(samples, triple)
        assert np.abs(estimated - probabilities).max() < 0.03, triple
        assert math.isclose(estimated.sum(), 1.0)
        gain = exact_gain(post, 0, players, triple, samples)
        assert abs(gain - oracle_gain(post, 0, players, triple)) < 0.04, triple


def test_the_screen_equals_a_plain_loop_over_the_samples() -> None:
    players = 4
    post = posterior(players, 3)
    samples = draw(post, 0, players, random.Random(5), 300)
    gains = room_gains(samples, KITCHEN)

    def corrected(counts: dict[tuple[int, int], float], total: float) -> float:
        h = -sum(c / total * math.log(c / total) for c in counts.values())
        return h + (len(counts) - 1) / (2 * total)

    def categories(envelope: int) -> tuple[int, int, int]:
        return envelope // 54, envelope // 9 % 6, envelope % 9

    def sum_entropy(envelopes: list[int]) -> float:
        out = 0.0
        for cat in range(3):
            counts: dict[tuple[int, int], float] = {}
            for e in envelopes:
                key = (cat, categories(e)[cat])
                counts[key] = counts.get(key, 0) + 1
            out += corrected(counts, len(envelopes))
        return out

    envelopes = [int(e) for e in samples.envelopes]
    for s, w in ((0, 0), (1, 4), (5, 2)):
        triple = (s, 6 + w, KITCHEN)
        answers: dict[int, list[int]] = {}
        weights: dict[int, float] = {}
        for i, row in enumerate(samples.order):
            first = min(int(row[c]) for c in triple)
            if first == players:
                answers.setdefault(0, []).append(envelopes[i])
                weights[0] = weights.get(0, 0) + 1
                continue
            held = [j for j, c in enumerate(triple) if row[c] == first]
            for j in held:
                slot = 1 + 3 * (first - 1) + j
                answers.setdefault(slot, []).append(envelopes[i])
                weights[slot] = weights.get(slot, 0) + 1 / len(held)
        expected = sum(weights[a] / len(envelopes) * sum_entropy(e) for a, e in answers.items())
        assert math.isclose(gains[s, w], sum_entropy(envelopes) - expected, abs_tol=1e-9)


def test_samples_see_the_seats_clockwise_and_nobody_for_own_cards() -> None:
    post = posterior(3, 0)
    mine = post.knowledge.has[0]
    samples = draw(post, 1, 3, random.Random(0), 50)
    for deal_order in samples.order:
        for card in range(21):
            if mine >> card & 1:
                assert deal_order[card] == 2  # seat 0 is two seats after seat 1
            assert 1 <= deal_order[card] <= 3


def test_best_suggestion_is_the_exact_best_when_every_suggestion_is_rescored() -> None:
    post = posterior(3, 3)
    samples = draw(post, 0, 3, random.Random(3), 2000)
    best = best_suggestion(post, 0, 3, KITCHEN, random.Random(0), samples=samples, rescore=36)
    gains = {
        (s, w): exact_gain(post, 0, 3, (s, w, KITCHEN), samples)
        for s in range(6)
        for w in range(6, 12)
    }
    assert math.isclose(best.gain, max(gains.values()))
    assert gains[best.suspect, best.weapon] == max(gains.values())
    assert best.room == KITCHEN and best.turns == 0 and best.rate == best.gain
    quick = best_suggestion(post, 0, 3, KITCHEN, random.Random(0), samples=samples)
    assert quick.gain >= 0.9 * best.gain  # the screen keeps a near-best suggestion


def test_a_solved_case_gains_nothing() -> None:
    post = posterior(3, 10**6)  # the whole game: the envelope is revealed at the end
    assert post.entropy() == 0
    advice = best_suggestion(post, 0, 3, KITCHEN, random.Random(0))
    assert advice.gain == 0 and advice.rate == 0


def test_rooms_are_ranked_by_gain_per_expected_turn() -> None:
    post = posterior(4, 2)
    rng = random.Random(0)
    samples = draw(post, 0, 4, rng, 500)
    here = InRoom(KITCHEN)
    advice = rooms_advice(post, 0, 4, here, 2, rng, samples=samples)
    assert sorted(a.room for a in advice) == list(ROOMS)
    rates = [a.rate for a in advice]
    assert rates == sorted(rates, reverse=True)
    by_room = {a.room: a for a in advice}
    for a in advice:
        assert math.isclose(a.rate, a.gain / max(a.turns, 1))
    assert by_room[CARD["Study"]].turns == 1  # the secret passage
    assert by_room[LOUNGE].turns == travel_time(here, LOUNGE, 2)
    round_trip = min(2 * travel_time(here, r, 2) for r in ROOMS if r != KITCHEN)
    assert math.isclose(by_room[KITCHEN].turns, round_trip)
    now = rooms_advice(post, 0, 4, here, 2, rng, samples=samples, suggest_here=True)
    assert {a.room: a.turns for a in now}[KITCHEN] == 0
    start = rooms_advice(post, 0, 4, AtStart(0), 1, rng, samples=samples)
    assert all(a.turns == travel_time(AtStart(0), a.room, 1) for a in start)
    screens = room_screens(samples)  # screened already: the same advice
    assert rooms_advice(post, 0, 4, here, 2, rng, samples=samples, screens=screens) == advice


def test_rooms_after_a_roll_count_from_where_it_leaves_the_token() -> None:
    post = posterior(4, 2)
    rng = random.Random(0)
    samples = draw(post, 0, 4, rng, 500)
    lounge = InRoom(LOUNGE)
    advice = rooms_advice(post, 0, 4, lounge, 1, rng, samples=samples, roll=4)
    rates = [(-a.rate, a.room) for a in advice]
    assert rates == sorted(rates)
    turns = {a.room: a.turns for a in advice}
    assert turns[CARD["Dining Room"]] == 0  # 4 away: the roll reaches it
    assert turns[CARD["Hall"]] == travel_time(Transit(lounge, CARD["Hall"], 4, 4), CARD["Hall"], 1)
    assert math.isclose(turns[CARD["Hall"]], expected_throws(4, 1))  # 4 short of 8
    # the Lounge, which the roll makes the token leave: this turn, then back from a room
    back = min(travel_time(InRoom(r), LOUNGE, 1) for r in ROOMS if r != LOUNGE)
    assert turns[LOUNGE] == 1 + back == 2  # the Conservatory's passage
    unknown = rooms_advice(post, 0, 4, None, 1, rng, samples=samples)
    assert all(a.turns == 0 and a.rate == a.gain for a in unknown)
    assert [a.gain for a in unknown] == sorted((a.gain for a in unknown), reverse=True)


def test_refutation_reshows_what_the_suggester_has_seen() -> None:
    rope, knife, hall = CARD["Rope"], CARD["Knife"], CARD["Hall"]
    shown = {1: frozenset({rope}), 2: frozenset({knife})}
    advice = card_to_show([knife, rope, hall], 1, shown, who="Bob")
    assert advice.card == rope and advice.reason == "Bob has seen the Rope from you already"
    spread = card_to_show([knife, hall], 1, shown)
    assert spread.card == knife and "shown before" in spread.reason
    only = card_to_show([hall], 3, shown)
    assert only.card == hall and "only" in only.reason


def test_refutation_otherwise_shows_the_category_with_most_candidates_left() -> None:
    plum, rope, hall = CARD["Plum"], CARD["Rope"], CARD["Hall"]
    advice = card_to_show([plum, rope, hall], 1, {}, candidates_left=(2.0, 4.5, 3.0))
    assert advice.card == rope and "weapons" in advice.reason
    assert card_to_show([hall, plum], 1, {}).card == plum  # alike: the lowest card


def test_candidates_left_counts_the_cards_the_suggester_may_not_rule_out() -> None:
    post = posterior(3, 0)
    mine = post.knowledge.has[0]
    own = [sum(1 for c in cat if mine >> c & 1) for cat in (range(6), range(6, 12), range(12, 21))]
    assert candidates_left(post, 0) == pytest.approx((6 - own[0], 6 - own[1], 9 - own[2]))
    left = candidates_left(post, 1, frozenset({0, 1}))
    held = sum(post.probability(c, 1) for c in (0, 1))
    assert sum(left) == pytest.approx((21 - 2) - (6 - held))  # seat 1 holds 6 cards


def test_accusation_when_certain_or_when_likely_enough_for_the_race() -> None:
    solved = accusation_advice(posterior(3, 10**6))
    assert solved.accuse and solved.probability == 1 and solved.reason.startswith("certain")
    post = posterior(5, 4)
    (top, p), *_ = post.top(1)
    assert 0 < p < 1
    advice = accusation_advice(post)
    assert (advice.suspect, advice.weapon, advice.room) == top and not advice.accuse
    assert math.isclose(advice.probability, p)
    assert accusation_advice(post, threshold=p, rush=p).accuse
    assert not accusation_advice(post, threshold=1.0, rush=p, rivals=0.5).accuse
    assert accusation_advice(post, threshold=1.0, rush=p, rivals=1.0).accuse


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: card_to_show([], 1, {}), "no card to show"),
        (lambda: card_to_show([25], 1, {}), "no card 25"),
        (lambda: accusation_advice(posterior(3, 0), rivals=2), "rivals=2"),
        (lambda: accusation_advice(posterior(3, 0), rush=0.9, threshold=0.5), "rush=0.9"),
        (lambda: draw(posterior(3, 0), 0, 4, random.Random(0)), "4 players"),
        (lambda: draw(posterior(3, 0), 3, 3, random.Random(0)), "no seat 3"),
        (lambda: room_gains(draw(posterior(3, 0), 0, 3, random.Random(0), 5), 3), "not a room"),
        (
            lambda: rooms_advice(
                posterior(3, 0), 0, 3, InRoom(KITCHEN), 1, random.Random(0), roll=7
            ),
            r"a roll of 7 is impossible with one die \(1 to 6\)",
        ),
        (
            lambda: rooms_advice(posterior(3, 0), 0, 3, None, 2, random.Random(0), roll=5),
            "a roll of 5 from an unknown place",
        ),
    ],
)
def test_bad_input_is_named(call: object, words: str) -> None:
    with pytest.raises(SleuthError, match=words):
        call()  # type: ignore[operator]


def test_a_rivals_suspect_is_spared_when_it_costs_little_enough() -> None:
    post = posterior(4, 3)
    samples = draw(post, 0, 4, random.Random(4), 1000)
    plain = best_suggestion(post, 0, 4, KITCHEN, random.Random(0), samples=samples)
    avoid = frozenset({plain.suspect})
    spared = best_suggestion(
        post, 0, 4, KITCHEN, random.Random(0), samples=samples, avoid=avoid, spare=1.0
    )
    assert spared.suspect not in avoid and spared.gain <= plain.gain
    triple = (spared.suspect, spared.weapon, KITCHEN)
    assert math.isclose(spared.gain, max(0.0, exact_gain(post, 0, 4, triple, samples)))
    kept = best_suggestion(
        post, 0, 4, KITCHEN, random.Random(0), samples=samples, avoid=avoid, spare=0.0
    )
    assert kept.gain >= plain.gain  # nothing given up; one more suggestion rescored
