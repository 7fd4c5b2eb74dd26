"""The SAT view against exact counting: the same certain facts along random games (every
seat, hand-made knowledge on small decks); explanations that prove their fact and are
smallest (brute force over subsets); contradictions reduced to the smallest set of events."""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections import Counter

import pytest
from pysat.examples.optux import OptUx
from pysat.formula import WCNF

from sleuth.core.errors import ContradictionError
from sleuth.core.events import Event
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.games.cluedo import sat
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.deduction.constraints import Deck, Knowledge
from sleuth.games.cluedo.deduction.counting import Posterior


def _counted(post: Posterior) -> set[sat.Fact]:
    """The certain facts by counting: a count of 0 or of the whole total."""
    k = post.knowledge
    owners = k.players + 2
    return {
        (card, k.owner(o), n == post.total)
        for card in range(k.deck.size)
        for o in range(owners)
        if (n := post.count(card, k.owner(o))) in (0, post.total)
    }


def _views(players: int, seed: int) -> list[list[Event]]:
    spec = game_spec("cluedo")
    record = run_match(spec.make({"players": players}), [spec.bot("random")] * players, seed=seed)
    events = [e for step in record.steps for e in step.events]
    return [[e.seen_by(seat) for e in events] for seat in range(players)]


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (4, 2), (6, 3)])
def test_certain_facts_equal_counting_along_random_games(players: int, seed: int) -> None:
    rng = random.Random(seed)
    views = _views(players, seed)
    checked = 0
    for seat, events in enumerate(views):
        belief = CluedoBelief(seat)
        cuts = set(rng.sample(range(1, len(events) + 1), 6)) | {len(events)}
        for i, event in enumerate(events, start=1):
            belief.update(event)
            if i in cuts and belief.knowledge is not None:
                assert set(sat.certain_facts(belief.knowledge)) == _counted(belief.posterior)
                checked += 1
    assert checked >= 6 * players


def _random_knowledge(rng: random.Random) -> Knowledge:
    """Random facts about a true deal of a small deck (so always consistent)."""
    deck = Deck((2, 2, 3))
    cards = list(range(deck.size))
    rng.shuffle(cards)
    envelope = [rng.choice(list(range(0, 2))), rng.choice([2, 3]), rng.choice([4, 5, 6])]
    rest = [c for c in range(deck.size) if c not in envelope]
    rng.shuffle(rest)
    table = rest[:1] if rng.random() < 0.3 else []
    rest = rest[len(table) :]
    hands = [rest[0:2], rest[2:]]
    k = Knowledge((2, len(rest) - 2), deck=deck, table=sum(1 << c for c in table))
    owned = [*hands, envelope]
    for _ in range(rng.randint(0, 5)):
        o = rng.randrange(3)
        kind = rng.randrange(4)
        if kind == 0 and owned[o]:
            k = k.with_has(o if o < 2 else "envelope", 1 << rng.choice(owned[o]))
        elif kind == 1:
            c = rng.choice([c for c in range(deck.size) if c not in owned[o]])
            k = k.with_lacks(o if o < 2 else "envelope", 1 << c)
        elif kind == 2 and o < 2 and owned[o]:
            picks = {rng.choice(owned[o]), rng.randrange(deck.size)}
            k = k.with_clause(o, sum(1 << c for c in picks))
        else:
            wrong = [rng.choice([0, 1]), rng.choice([2, 3]), rng.choice([4, 5, 6])]
            if wrong != envelope:
                k = k.with_failed(sum(1 << c for c in wrong))
    return k


def test_certain_facts_equal_counting_on_small_decks() -> None:
    rng = random.Random(7)
    for _ in range(200):
        k = _random_knowledge(rng)
        assert set(sat.certain_facts(k)) == _counted(Posterior(k))


def test_explanations_prove_their_fact_and_are_smallest() -> None:
    events = _views(3, 5)[0]
    cut = next(i for i, e in enumerate(events) if e.kind == "refuted") + 40
    events = events[:cut]
    belief = CluedoBelief(0)
    for event in events:
        belief.update(event)
    assert belief.knowledge is not None
    facts = sorted(sat.certain_facts(belief.knowledge), key=str)
    kb = sat.from_events(0, events)
    assert 8 <= len(kb.labels) <= 30
    sizes: Counter[int] = Counter()
    for fact in random.Random(3).sample(facts, 12):
        labels = sat.explain(0, events, fact)
        assert len(set(labels)) == len(labels) and set(labels) <= set(kb.labels)
        # the named events alone prove the fact; no set of fewer events does (brute force)
        assert kb.proves(fact, labels)
        if labels:
            for smaller in itertools.combinations(kb.labels, len(labels) - 1):
                assert not kb.proves(fact, smaller)
        sizes[len(labels)] += 1
    assert max(sizes) >= 2, sizes
    # a fact that is not certain has no explanation
    uncertain = next(
        (c, 1, True) for c in range(21) if (c, 1, True) not in facts and (c, 1, False) not in facts
    )
    with pytest.raises(ValueError, match="not certain"):
        sat.explain(0, events, uncertain)


def _optux_size(kb: sat.SatKnowledge, fact: sat.Fact) -> int:
    """The size of a smallest set of steps proving ``fact``, by PySAT's OptUx over every
    step (the exact search, with no shortcut)."""
    formula = WCNF()
    for clause in [*kb.hard, *kb.guarded, [-kb.literal(fact)]]:
        formula.append(clause)
    for s in kb.selectors:
        formula.append([s], weight=1)
    with OptUx(formula) as optux:
        return len(optux.compute())


@pytest.mark.parametrize(("players", "seed"), [(4, 8), (6, 9)])
def test_shortcut_explanations_are_as_small_as_the_exact_search(players: int, seed: int) -> None:
    """Every certain fact's explanation (no step, one step found by propagation, else the
    search) proves it and is exactly as small as the exact search's over all steps."""
    events = _views(players, seed)[1]
    cut = [i for i, e in enumerate(events) if e.kind == "refuted"][12]
    kb = sat.from_events(1, events[:cut])
    facts = kb.certain()
    sizes: Counter[int] = Counter()
    for fact in facts:
        labels = kb.explain(fact)
        assert kb.proves(fact, labels)
        assert len(labels) == _optux_size(kb, fact), fact
        sizes[len(labels)] += 1
    assert sizes[0] and sizes[1] and max(sizes) >= 2, sizes


def test_explanation_by_hand() -> None:
    """Seat 0 holds Scarlet and every weapon but the Knife; it suggests (Scarlet, Knife,
    Hall), seat 1 passes and seat 2 shows a card."""
    events = [
        Event("setup", {"players": 3, "dealer": 2, "hand_sizes": [6, 6, 6], "face_up": []}),
        Event("hand", {"seat": 0}, {"cards": [0, 7, 8, 9, 10, 11]}, frozenset({0})),
        Event("suggested", {"seat": 0, "suspect": 0, "weapon": 6, "room": 12}),
        Event("passed", {"seat": 1}),
        Event("refuted", {"seat": 2}),
    ]
    # seat 1 lacks the Knife: it passed on it, and the envelope holds it (a tie: either one)
    assert sat.explain(0, events, (6, 1, False)) in (["event 2 (hand)"], ["event 4 (passed)"])
    # the envelope's weapon is the Knife: my hand has every other weapon
    assert sat.explain(0, events, (6, "envelope", True)) == ["event 2 (hand)"]
    # seat 2 holds Knife or Hall, and the Knife is the envelope's: seat 2 holds the Hall
    assert sat.explain(0, events, (12, 2, True)) == ["event 2 (hand)", "event 5 (refuted)"]
    # whether seat 1 holds Mrs. White is not certain: nothing to explain
    with pytest.raises(ValueError, match="not certain"):
        sat.explain(0, events, (2, 1, True))


def test_contradictions_are_the_smallest_set_of_events() -> None:
    """Seat 0 suggests Peacock, then Plum, and nobody refutes either: two suspects it does not
    hold (its hand is full) in the envelope."""
    events = [
        Event("setup", {"players": 3, "dealer": 2, "hand_sizes": [6, 6, 6], "face_up": []}),
        Event("hand", {"seat": 0}, {"cards": [0, 1, 2, 3, 12, 13]}, frozenset({0})),
        Event("suggested", {"seat": 0, "suspect": 4, "weapon": 6, "room": 14}),
        Event("passed", {"seat": 1}),
        Event("passed", {"seat": 2}),
        Event("unrefuted", {}),
        Event("suggested", {"seat": 0, "suspect": 5, "weapon": 7, "room": 15}),
        Event("passed", {"seat": 1}),
        Event("passed", {"seat": 2}),
        Event("unrefuted", {}),
    ]
    assert sat.conflict(0, events[:8]) is None
    assert sat.conflict(0, events) == [
        "event 1 (setup)",
        "event 2 (hand)",
        "event 4 (passed)",
        "event 5 (passed)",
        "event 8 (passed)",
        "event 9 (passed)",
    ]
    # the counting engine stops at the last of them
    belief = CluedoBelief(0)
    with pytest.raises(ContradictionError, match=r"^event 9 \(passed\)"):
        for event in events:
            belief.update(event)


def test_a_tampered_game_log_names_its_conflict() -> None:
    """A random game's view where a refuter shows seat 0 a card seat 0 holds."""
    events = _views(3, 8)[0]
    hand = next(e for e in events if e.kind == "hand" and e.private is not None)
    mine = list(hand.private["cards"])  # type: ignore[index]
    index = next(
        i
        for i, e in enumerate(events)
        if e.kind == "suggested"
        and e.public["seat"] == 0
        and mine[0] in _triple(e)
        and events[i + 1].kind == "refuted"
    )
    events = list(events)
    events[index + 1] = dataclasses.replace(events[index + 1], private={"card": mine[0]})
    hand_label = next(f"event {i + 1} (hand)" for i, e in enumerate(events) if e is hand)
    assert sat.conflict(0, events[: index + 2]) == [hand_label, f"event {index + 2} (refuted)"]
    assert sat.conflict(0, events[: index + 1]) is None


def _triple(event: Event) -> tuple[int, ...]:
    return tuple(int(event.public[k]) for k in ("suspect", "weapon", "room"))
