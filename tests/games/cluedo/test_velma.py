"""Velma's method: the forbidden matrix's rules on hand-made events, the sampler's hypotheses
against every logged fact, its bias against the exact distribution (and the exact sampler's
lack of it), the enumeration against exact counts, the entropy scores by hand and against a
plain per-hypothesis oracle, remoteness, the policies, and whole games without forfeits."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

import numpy as np
import pytest

from sleuth.core.events import Event, View
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game
from sleuth.games.cluedo import _velma_kernels as kernels
from sleuth.games.cluedo.actions import END, PASSAGE, ROLL, Accuse, Go, Show, Suggest
from sleuth.games.cluedo.bots import LogicPlayer
from sleuth.games.cluedo.cards import NAMES, ROOMS, SUSPECTS, WEAPONS, solution_index
from sleuth.games.cluedo.catalogue import velma_budget as move_budget
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.movement import AtStart, InRoom, Transit
from sleuth.games.cluedo.rules import ACCUSATIONS, CluedoGame
from sleuth.games.cluedo.velma import VelmaPlayer
from sleuth.games.cluedo.velma_hypotheses import VelmaBelief, warm_up
from sleuth.games.cluedo.velma_scoring import (
    ROOM_SPANS,
    _histogram,
    answer_counts,
    answer_order,
    entropy,
    room_analysis,
    spans_from,
    throws,
)

CARD = {name: card for card, name in enumerate(NAMES)}
MY_HAND = ("Scarlet", "Mustard", "Knife", "Candlestick", "Hall", "Lounge")


def c(*names: str) -> tuple[int, ...]:
    return tuple(CARD[n] for n in names)


def game(players: int = 3, **options: str) -> CluedoGame:
    made = make_game("cluedo", {"players": players, **options})
    assert isinstance(made, CluedoGame)
    return made


def velma(players: int = 3, seat: int = 0, **options: object) -> VelmaPlayer:
    return VelmaPlayer(game(players), seat, 1, **options)  # type: ignore[arg-type]


def observe(player: VelmaPlayer, events: Sequence[Event]) -> VelmaBelief:
    player.observe(View(player.seat, "player", {}, list(events)))
    assert player.belief is not None
    return player.belief


def setup(
    sizes: tuple[int, ...] = (6, 6, 6),
    hand: tuple[int, ...] = c(*MY_HAND),
    face_up: tuple[int, ...] = (),
) -> list[Event]:
    n = len(sizes)
    events = [
        Event("setup", {"players": n, "dealer": n - 1, "hand_sizes": sizes, "face_up": face_up})
    ]
    events.append(Event("hand", {"seat": 0}, {"cards": hand}, frozenset({0})))
    return events + [Event("hand", {"seat": s}) for s in range(1, n)]


def suggested(seat: int, *names: str) -> Event:
    s, w, r = c(*names)
    return Event("suggested", {"seat": seat, "suspect": s, "weapon": w, "room": r})


def passed(seat: int) -> Event:
    return Event("passed", {"seat": seat})


def refuted(seat: int, card: str | None = None, suggester: int = 0) -> Event:
    if card is None:
        return Event("refuted", {"seat": seat})
    return Event("refuted", {"seat": seat}, {"card": CARD[card]}, frozenset({seat, suggester}))


# The spec's example: (a) seat 1 suggests Plum/Rope/Kitchen, seat 2 answers unseen; (b) seat 0
# suggests White/Wrench/Study, seat 1 passes, seat 2 shows the Study.
EVENT_A = [suggested(1, "Plum", "Rope", "Kitchen"), refuted(2)]
EVENT_B = [suggested(0, "White", "Wrench", "Study"), passed(1), refuted(2, "Study")]


# --- the forbidden matrix --------------------------------------------------------------------


def test_own_hand_forbids_the_rest_to_oneself_and_ones_cards_to_everyone_else() -> None:
    belief = observe(velma(), setup())
    mine = list(c(*MY_HAND))
    others = [card for card in range(21) if card not in mine]
    assert belief.forbidden[0, others].all() and not belief.forbidden[0, mine].any()
    assert belief.forbidden[1:, mine].all() and not belief.forbidden[1:, others].any()


def test_a_pass_forbids_the_three_cards_to_the_passer_only() -> None:
    belief = observe(velma(), [*setup(), suggested(1, "Plum", "Rope", "Kitchen"), passed(2)])
    plum_rope_kitchen = list(c("Plum", "Rope", "Kitchen"))
    assert belief.forbidden[2, plum_rope_kitchen].all()
    assert not belief.forbidden[1, plum_rope_kitchen].any()
    assert not belief.forbidden[3, plum_rope_kitchen].any()  # seat 1 may hold them


def test_a_card_every_seat_lacks_is_the_envelopes_so_its_category_is_not() -> None:
    events = [*setup(), suggested(0, "Plum", "Rope", "Kitchen"), passed(1), passed(2)]
    events.append(Event("unrefuted", {}))
    belief = observe(velma(), events)
    for card in c("Plum", "Rope", "Kitchen"):
        rest = [x for x in range(21) if x != card and NAMES[x] in _category_names(card)]
        assert belief.forbidden[3, rest].all() and not belief.forbidden[3, card]
    assert belief.enumerated and set(np.unique(belief.envelopes)) == {
        solution_index(*c("Plum", "Rope", "Kitchen"))
    }


def _category_names(card: int) -> set[str]:
    for cat in (SUSPECTS, WEAPONS, ROOMS):
        if card in cat:
            return {NAMES[x] for x in cat}
    raise AssertionError(card)


def test_a_seen_card_is_forbidden_to_every_owner_but_the_one_who_showed_it() -> None:
    belief = observe(velma(), [*setup(), *EVENT_B])
    study = CARD["Study"]
    assert not belief.forbidden[2, study]
    assert belief.forbidden[[0, 1, 3], study].all()
    assert belief.seen == [(2, study)]


def test_face_up_cards_are_nobodys_and_a_pass_on_them_forbids_nothing_to_the_envelope() -> None:
    face_up = c("Wrench", "Study")
    events = setup((4, 4, 4, 4), c("Scarlet", "Knife", "Hall", "Lounge"), face_up)
    events += [suggested(1, "Plum", "Wrench", "Study"), passed(2), passed(3)]
    belief = observe(velma(4, hypotheses=500, enumerate_below=0), events)
    assert belief.forbidden[:, list(face_up)].all()
    assert not belief.forbidden[4, c("Rope", "Kitchen")].any()
    assert (belief.owners[:, list(face_up)] == belief.table).all()


def test_unseen_answers_and_wrong_accusations_are_logged() -> None:
    accused = Event("accused", {"seat": 1, "suspect": 5, "weapon": 9, "room": 15, "correct": False})
    belief = observe(velma(), [*setup(), *EVENT_A, accused])
    assert belief.unseen == [(2, c("Plum", "Rope", "Kitchen"))]
    assert belief.wrong == [solution_index(*c("Plum", "Rope", "Kitchen"))]
    assert not (belief.envelopes == belief.wrong[0]).any()


# --- the sampler: every hypothesis satisfies every logged fact ------------------------------


def view_of(players: int, seed: int, turns: int, seat: int = 0, **options: str) -> list[Event]:
    """Seat ``seat``'s view of a game between random players, ``turns`` turns long."""
    played = game(players, max_turns=str(turns), **options)
    random_bot = game_spec("cluedo").bot("random")
    record = run_match(played, [random_bot] * players, seed=seed, time_limit=None)
    events = [e.seen_by(seat) for step in record.steps for e in step.events]
    return [e for e in events if e.kind != "game_over"]


def violations(owners: np.ndarray, events: Sequence[Event], seat: int) -> list[str]:
    """The facts of ``events`` (seat ``seat``'s view) that some hypothesis breaks."""
    setup_event = events[0]
    n = int(setup_event.public["players"])
    envelope, table = n, n + 1
    out = []
    sizes = setup_event.public["hand_sizes"]
    for s in range(n):
        if not ((owners == s).sum(1) == sizes[s]).all():
            out.append(f"seat {s} hand size")
    for cat in (SUSPECTS, WEAPONS, ROOMS):
        if not ((owners[:, cat.start : cat.stop] == envelope).sum(1) == 1).all():
            out.append("envelope category")
    face_up = list(setup_event.public["face_up"])
    if not (owners[:, face_up] == table).all():
        out.append("face up")
    asking: tuple[int, list[int]] = (0, [])
    for e in events:
        if e.kind == "hand" and e.private is not None:
            if not (owners[:, list(e.private["cards"])] == seat).all():
                out.append("own hand")
        elif e.kind == "suggested":
            asking = (e.public["seat"], [e.public[k] for k in ("suspect", "weapon", "room")])
        elif e.kind == "passed" and (owners[:, asking[1]] == e.public["seat"]).any():
            out.append("pass")
        elif e.kind == "refuted":
            holder = e.public["seat"]
            if not (owners[:, asking[1]] == holder).any(1).all():
                out.append("answer")
            if e.private is not None and not (owners[:, e.private["card"]] == holder).all():
                out.append("seen card")
        elif e.kind == "accused" and not e.public["correct"]:
            triple = [e.public[k] for k in ("suspect", "weapon", "room")]
            if (owners[:, triple] == envelope).all(1).any():
                out.append("wrong accusation")
    return out


@pytest.mark.parametrize(
    ("players", "seed", "turns"), [(3, 1, 30), (4, 2, 40), (5, 3, 60), (6, 4, 80)]
)
def test_sampled_hypotheses_satisfy_every_fact_along_random_games(
    players: int, seed: int, turns: int
) -> None:
    events = view_of(players, seed, turns, seat=1, leftover="face_up" if players == 5 else "deal")
    player = velma(players, seat=1, hypotheses=3000, enumerate_below=0)
    for end in range(len(events) // 3, len(events) + 1, len(events) // 3):
        belief = observe(player, events[:end])
        assert belief.count == 3000 and not belief.enumerated
        assert violations(belief.owners, events[:end], 1) == []
        assert (belief.envelopes == _envelopes(belief.owners, belief.envelope)).all()


def _envelopes(owners: np.ndarray, envelope: int) -> np.ndarray:
    out = []
    for row in owners:
        s, w, r = (next(x for x in cat if row[x] == envelope) for cat in (SUSPECTS, WEAPONS, ROOMS))
        out.append(solution_index(s, w, r))
    return np.array(out)


def test_a_wrong_accusation_is_never_an_envelope_of_the_pool() -> None:
    s, w, r = c("White", "Rope", "Kitchen")
    accused = Event("accused", {"seat": 2, "suspect": s, "weapon": w, "room": r, "correct": False})
    belief = observe(velma(hypotheses=20_000, enumerate_below=0), [*setup(), accused])
    assert belief.count == 20_000 and solution_index(s, w, r) not in belief.envelopes


# --- the sampler's bias ------------------------------------------------------------------------


def exact_distribution(events: Sequence[Event], seat: int = 0) -> np.ndarray:
    belief = CluedoBelief(seat)
    for e in events:
        belief.update(e)
    return belief.posterior.solution_probabilities()


def total_variation(counts: np.ndarray, exact: np.ndarray) -> float:
    return 0.5 * float(np.abs(counts / counts.sum() - exact).sum())


def test_the_velma_sampler_is_biased_and_the_exact_one_is_not() -> None:
    """The spec's example after (a) and (b): 10,702 deals.  Velma's 100,000 hypotheses are
    0.23 away from the exact envelope distribution in total variation (measured: 0.2326, the
    Velma program's documented bias on another case is 0.073), far above the noise of 20,000
    exact samples (about 0.03); P(White) is 0.484 exactly, much lower in the
    pool: the envelope's suspect is drawn uniformly among those not known elsewhere."""
    events = [*setup(), *EVENT_A, *EVENT_B]
    exact = exact_distribution(events)
    biased = observe(velma(hypotheses=100_000, enumerate_below=0), events)
    fair = observe(velma(hypotheses=20_000, enumerate_below=0, sampler="exact"), events)
    assert biased.count == 100_000 and fair.count == 20_000
    assert total_variation(biased.solution_counts(), exact) > 0.15
    assert total_variation(fair.solution_counts(), exact) < 0.05
    white = [solution_index(CARD["White"], w, r) for w in WEAPONS for r in ROOMS]
    assert exact[white].sum() == pytest.approx(0.4840, abs=1e-4)
    assert biased.solution_counts()[white].sum() / biased.count < 0.40


# --- the enumeration -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "deals", "h"),
    [([], 103_488, 4.7185), (EVENT_A, 83_034, 4.6964), (EVENT_A + EVENT_B, 10_702, 4.2890)],
)
def test_the_enumeration_is_the_spec_examples_deals(
    extra: list[Event], deals: int, h: float
) -> None:
    events = [*setup(), *extra]
    belief = observe(velma(), events)
    assert belief.enumerated and belief.count == deals
    assert len(np.unique(belief.owners, axis=0)) == deals
    counts = belief.solution_counts()
    assert float(entropy(counts.astype(np.float64))) == pytest.approx(h, abs=1e-4)
    assert np.allclose(counts / deals, exact_distribution(events))


@pytest.mark.parametrize(
    ("players", "seed", "turns"), [(3, 5, 20), (4, 6, 60), (4, 7, 90), (5, 8, 120)]
)
def test_the_enumeration_equals_exact_counting_along_random_games(
    players: int, seed: int, turns: int
) -> None:
    events = view_of(players, seed, turns)
    player = velma(players, hypotheses=200, enumerate_below=400_000)
    exact = CluedoBelief(0)
    checked = 0
    for end, e in enumerate(events, 1):
        exact.update(e)
        belief = observe(player, events[:end])
        if end > players + 1:
            assert belief.estimate() >= exact.posterior.deals
        if belief.enumerated and e.kind in ("passed", "refuted", "unrefuted"):
            assert belief.count == exact.posterior.deals
            counts = belief.solution_counts()
            assert np.allclose(counts / counts.sum(), exact.posterior.solution_probabilities())
            checked += 1
    assert checked > 0
    assert violations(player.belief.owners, events, 0) == []  # type: ignore[union-attr]


# --- scores --------------------------------------------------------------------------------------


def pool(rows: list[tuple[dict[int, int], int]], players: int = 3) -> tuple[np.ndarray, np.ndarray]:
    """Hypotheses given by the holders of a few cards (the rest are seat 0's) and envelopes."""
    owners = np.zeros((len(rows), 21), dtype=np.int8)
    for i, (holders, _) in enumerate(rows):
        for card, seat in holders.items():
            owners[i, card] = seat
    return answer_order(owners, 0, players), np.array([e for _, e in rows], dtype=np.int16)


PLUM, ROPE, KITCHEN = c("Plum", "Rope", "Kitchen")
S, W = PLUM, ROPE - WEAPONS.start


def test_expected_entropy_by_hand_when_no_one_has_a_choice_to_make() -> None:
    order, envelopes = pool(
        [({PLUM: 1}, 10), ({PLUM: 1, ROPE: 1}, 20), ({}, 30), ({KITCHEN: 2}, 40)]
    )
    expected, _ = room_analysis(order, envelopes, 3, KITCHEN)
    # seat 1 shows Plum in two hypotheses (entropy ln 2 after), Rope alone in none; no answer
    # and seat 2's Kitchen leave one hypothesis each (entropy 0)
    assert expected[S, W] == pytest.approx(2 * math.log(2) / 4)


def test_the_responder_shows_the_card_that_leaves_the_most_entropy() -> None:
    rows = [({PLUM: 1}, 10), ({PLUM: 1, ROPE: 1}, 20), ({ROPE: 1}, 30), ({ROPE: 1}, 40)]
    order, envelopes = pool(rows)
    expected, rooms = room_analysis(order, envelopes, 3, KITCHEN)
    # H(Plum) = ln 2 over {1, 2}; H(Rope) = ln 3 over {2, 3, 4}: seat 1 shows the Rope in
    # hypothesis 2, so Plum is shown once (entropy ln 2) and the Rope three times (ln 3)
    assert expected[S, W] == pytest.approx((math.log(2) + 3 * math.log(3)) / 4)
    # the room distribution: each answer's room counts weighted by how often it is given
    room_of = {10: 10 % 9, 20: 20 % 9, 30: 30 % 9, 40: 40 % 9}
    weights = np.zeros(9)
    for e in (10, 20):
        weights[room_of[e]] += 1 * 1
    for e in (20, 30, 40):
        weights[room_of[e]] += 1 * 3
    assert np.allclose(rooms[S, W], weights / weights.sum())


def test_room_analysis_equals_a_per_hypothesis_oracle() -> None:
    rng = np.random.default_rng(3)
    for players in (3, 4, 6):
        owners = rng.integers(0, players + 2, size=(300, 21)).astype(np.int8)
        envelopes = rng.integers(0, 324, size=300).astype(np.int16)
        order = answer_order(owners, 1, players)
        for room in (12, 20):
            expected, rooms = room_analysis(order, envelopes, players, room)
            for s, w in ((0, 0), (3, 5), (5, 2)):
                want, want_rooms = oracle(owners, envelopes, 1, players, (s, 6 + w, room))
                assert expected[s, w] == pytest.approx(want)
                assert np.allclose(rooms[s, w], want_rooms)


def test_the_answer_order_counts_seats_clockwise_and_refuses_unknown_owners() -> None:
    rng = np.random.default_rng(4)
    for players in range(3, 7):
        owners = rng.integers(0, players + 2, size=(500, 21)).astype(np.int8)
        for seat in range(players):
            order = answer_order(owners, seat, players)
            o = owners.astype(np.int64)
            want = np.where((o < players) & (o != seat), (o - seat) % players, players)
            assert order.dtype == np.uint8 and np.array_equal(order, want)
    assert answer_order(np.array([[1, 0, 3, 4]], dtype=np.int8), 1, 3).tolist() == [[3, 2, 3, 3]]
    for unknown in (-1, 5):  # an undealt card, or past the table's code (n + 1 = 4)
        with pytest.raises(IndexError):
            answer_order(np.array([[0, unknown]], dtype=np.int8), 0, 3)


@pytest.mark.skipif(not kernels.COMPILED, reason="Numba is not installed (or is turned off)")
def test_the_compiled_answer_counts_equal_numpys(monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled histogram counts what NumPy's does, chunks and all (70,000 hypotheses are
    two of NumPy's chunks), and its plain-Python version too; each hypothesis counts once per
    suggestion."""
    rng = np.random.default_rng(5)
    for players, rows in ((3, 70_000), (4, 2_000), (6, 2_000)):
        owners = rng.integers(0, players + 2, size=(rows, 21)).astype(np.int8)
        envelopes = rng.integers(0, 324, size=rows).astype(np.int16)
        order = answer_order(owners, players - 1, players)
        slots = (players - 1) * 8 + 1
        for room in (12, 17, 20):
            compiled = answer_counts(order, envelopes, players, room, slots)
            with monkeypatch.context() as patch:
                patch.setattr(kernels, "COMPILED", False)
                vectorised = answer_counts(order, envelopes, players, room, slots)
            assert compiled.dtype == vectorised.dtype == np.int64
            assert np.array_equal(compiled, vectorised)
            assert compiled.sum() == 36 * rows
            few = (order[:200], envelopes[:200], players, room, slots)
            plain = kernels.histogram.py_func(*few)  # type: ignore[attr-defined]
            assert np.array_equal(plain, _histogram(*few))


def test_the_sampler_kernel_refuses_more_places_than_its_slots_and_a_bad_fill_order() -> None:
    """The kernel counts the places left in the hands as bits, at most 36 of them (a game has
    18): with 37 it names the sizes instead of dealing wrong; 36 still deal.  Its seat order
    must list every seat once."""
    forbidden = np.zeros((4, 21), dtype=bool)
    no_answers = (np.empty(0, dtype=np.int64), np.empty((0, 3), dtype=np.int64))
    start, wrong = np.full(21, -1, dtype=np.int8), np.empty(0, dtype=np.int64)

    def run(sizes: list[int], order: list[int]) -> tuple[np.ndarray, np.ndarray]:
        hands, seats = np.array(sizes, dtype=np.int64), np.array(order, dtype=np.int64)
        result: tuple[np.ndarray, np.ndarray] = kernels.attempts(
            50, 1, start, *no_answers, forbidden, hands, 3, seats, wrong
        )
        return result

    owners, numbers = run([12, 12, 12], [1, 2, 0])
    assert len(owners) == len(numbers) == 50
    assert ((owners == 3).sum(1) == 3).all() and ((owners >= 0) & (owners < 3)).sum() == 50 * 18
    with pytest.raises(ValueError, match="sizes"):
        run([12, 12, 13], [0, 1, 2])
    for order in ([0, 1], [0, 1, 1], [0, 1, 3], [0, 1, -1], [0, 1, 2, 0]):
        with pytest.raises(ValueError, match="fill_order"):
            run([6, 6, 6], order)


@pytest.mark.skipif(not kernels.COMPILED, reason="Numba is not installed (or is turned off)")
def test_the_warm_up_compiles_each_kernel_for_the_types_velmas_moves_pass() -> None:
    """After :func:`warm_up`, a move compiles nothing more (which would take seconds of a timed
    move on a cold cache)."""
    compiled: list[Any] = [kernels.attempts, kernels.histogram]
    warm_up()
    warmed = [list(k.signatures) for k in compiled]
    assert all(warmed)
    player = velma(4, hypotheses=500)
    observe(player, setup((5, 5, 4, 4), c(*MY_HAND[:5])))
    player._analysis(KITCHEN)
    assert [list(k.signatures) for k in compiled] == warmed


def oracle(
    owners: np.ndarray, envelopes: np.ndarray, seat: int, players: int, cards: tuple[int, int, int]
) -> tuple[float, np.ndarray]:
    """Velma's expected entropy and room distribution, one hypothesis at a time (cards in the
    original's bit order: suspect, room, weapon)."""
    ordered = (cards[0], cards[2], cards[1])
    answers: list[tuple[int, frozenset[int]] | None] = []
    for row in owners:
        answer = None
        for step in range(1, players):
            held = frozenset(
                i for i, card in enumerate(ordered) if row[card] == (seat + step) % players
            )
            if held:
                answer = (step, held)
                break
        answers.append(answer)

    def counts(keep: list[int]) -> np.ndarray:
        return np.bincount(envelopes[keep], minlength=324).astype(np.float64)

    given: dict[tuple[int, int] | None, list[int]] = {}
    for step in range(1, players):
        h = {}
        for i in range(3):
            h[i] = float(
                entropy(
                    counts([k for k, a in enumerate(answers) if a and a[0] == step and i in a[1]])
                )
            )
        preference = sorted(range(3), key=lambda i: h[i])[::-1]
        for k, a in enumerate(answers):
            if a and a[0] == step:
                shown = next(i for i in preference if i in a[1])
                given.setdefault((step, shown), []).append(k)
    given[None] = [k for k, a in enumerate(answers) if a is None]
    expected, rooms = 0.0, np.zeros(9)
    for key, rows in given.items():
        if key is None:
            after = counts(rows)
        else:
            step, i = key
            after = counts([k for k, a in enumerate(answers) if a and a[0] == step and i in a[1]])
        expected += len(rows) * float(entropy(after))
        rooms += len(rows) * after.reshape(36, 9).sum(0)
    return expected / len(owners), rooms / rooms.sum()


def test_velmas_throws_spans_and_remoteness() -> None:
    assert [throws(d) for d in (0, 1, 2, 3, 4, 5, 9, 10)] == [
        0,
        1,
        1,
        1.028,
        1.083,
        1.165,
        1.774,
        1.932,
    ]
    assert throws(17) == pytest.approx(20.5 / 7)
    lounge, conservatory, study, kitchen, hall = c(
        "Lounge", "Conservatory", "Study", "Kitchen", "Hall"
    )
    assert ROOM_SPANS[lounge - 12, conservatory - 12] == 1.0  # the passage
    assert ROOM_SPANS[study - 12, kitchen - 12] == 1.0
    assert ROOM_SPANS[hall - 12, hall - 12] == 0.0
    # Hall -> Kitchen: 19 squares directly (2.714), or the Study (4 squares) and its passage
    assert ROOM_SPANS[hall - 12, kitchen - 12] == pytest.approx(1.083 + 1.0)
    start = spans_from(AtStart(CARD["Plum"]))  # Plum's start is 8 from the Study
    assert start[study - 12] == pytest.approx(1.610) and start[kitchen - 12] == pytest.approx(2.610)
    on_way = Transit(InRoom(hall), kitchen, 5, 14)
    assert spans_from(on_way)[kitchen - 12] == pytest.approx(1.165)
    # back to the Hall: through the Kitchen, its passage and the Study (1.165 + 1 + 1.083), or
    # with retargeting straight back over the 14 squares walked
    assert spans_from(on_way)[hall - 12] == pytest.approx(3.248)
    assert spans_from(on_way, retarget=True)[hall - 12] == pytest.approx(throws(14))


# --- policies -----------------------------------------------------------------------------------


def test_refutation_reshows_this_suggesters_card_else_the_most_shown() -> None:
    knife, hall, lounge = c("Knife", "Hall", "Lounge")
    events = setup()
    for suggester, card in ((1, "Hall"), (2, "Knife"), (2, "Knife")):
        events += [suggested(suggester, "Plum", "Knife", "Hall"), refuted(0, card, suggester)]

    def shows(suggester: int, room: str, *cards: int) -> Show:
        asked = [*events, suggested(suggester, "Plum", "Knife", room)]
        action = velma().act(View(0, "player", {}, asked), tuple(Show(x) for x in cards))
        assert isinstance(action, Show)
        return action

    assert shows(1, "Hall", knife, hall) == Show(hall)  # seat 1 has seen the Hall
    assert shows(2, "Lounge", knife, lounge) == Show(knife)  # seat 2 has seen the Knife
    assert shows(1, "Lounge", knife, lounge) == Show(knife)  # the most shown of the two


def solved_view() -> list[Event]:
    """Seat 0 knows the envelope: Plum, Rope, Kitchen (everyone passed on it); then seat 0
    rolls into the Kitchen."""
    events = [*setup(), suggested(0, "Plum", "Rope", "Kitchen"), passed(1), passed(2)]
    events.append(Event("unrefuted", {}))
    return events


def test_velma_accuses_only_after_suggesting_in_the_envelopes_room() -> None:
    accusation = Accuse(*c("Plum", "Rope", "Kitchen"))
    in_kitchen = [*solved_view(), Event("moved", {"seat": 0, "roll": 6, "position": "Kitchen"})]
    player = velma()
    view = View(0, "player", {}, in_kitchen)
    assert player.act(view, (ROLL, *ACCUSATIONS)) == ROLL
    suggestion = player.act(
        view, (*[Suggest(s, w, KITCHEN) for s in SUSPECTS for w in WEAPONS], *ACCUSATIONS, END)
    )
    assert isinstance(suggestion, Suggest)
    assert player.act(view, (*ACCUSATIONS, END)) == accusation
    in_hall = [*solved_view(), Event("moved", {"seat": 0, "roll": 6, "position": "Hall"})]
    assert velma().act(View(0, "player", {}, in_hall), (*ACCUSATIONS, END)) == END
    eager = velma(accuse_in_room=False)
    assert eager.act(View(0, "player", {}, in_hall), (ROLL, *ACCUSATIONS)) == accusation


def test_velma_moves_towards_the_envelopes_room() -> None:
    """Knowing the envelope, the Lounge's passage to the Conservatory is worse than rolling
    towards the Kitchen; after the roll Velma heads for the Kitchen."""
    in_lounge = [*solved_view(), Event("moved", {"seat": 0, "roll": 8, "position": "Lounge"})]
    view = View(0, "player", {}, in_lounge)
    player = velma()
    assert player.act(view, (ROLL, PASSAGE, *ACCUSATIONS)) == ROLL
    rolled = [*in_lounge, Event("rolled", {"seat": 0, "roll": 3})]
    goes = tuple(Go(r) for r in ROOMS if r != CARD["Lounge"])
    assert player.act(View(0, "player", {}, rolled), goes) in (Go(CARD["Dining Room"]), Go(KITCHEN))


def test_the_move_budget_follows_the_hypotheses() -> None:
    assert move_budget(hypotheses=100_000, sampler="velma") == 20.0
    assert move_budget(hypotheses=50_000, sampler="velma") == 10.0
    assert move_budget(hypotheses=20_000, sampler="velma") == 5.0
    assert move_budget(hypotheses=100_000, sampler="exact") == 120.0
    assert move_budget(hypotheses=1_000, sampler="exact") == 10.0


# --- whole games ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "setting", "options"),
    [
        (3, ":hypotheses=3000", {}),
        (4, ":hypotheses=3000", {"accuse_at": "in_named_room", "dice": "2"}),
        (5, ":hypotheses=2000:accuse_in_room=false", {"leftover": "face_up"}),
        (4, ":hypotheses=2000:sampler=exact", {}),
    ],
)
def test_velma_plays_whole_games_against_random_players(
    players: int, setting: str, options: dict[str, str]
) -> None:
    """Under the match runner's default time limits (raised to velma's move budget); random
    players never accuse, so Velma wins unless her one accusation is wrong."""
    spec = game_spec("cluedo")
    bots = [spec.bot("random")] * players
    bots[1] = spec.bot("velma" + setting)
    record = run_match(game(players, max_turns="400", **options), bots, seed=players)
    assert not record.forfeits and record.final_state is not None
    accusations = [s for s in record.steps if isinstance(s.action, Accuse)]
    assert [s.seat for s in accusations] == [1]
    assert record.final_state.winner == (1 if accusations[0].events[0].public["correct"] else None)


def test_the_logic_player_accuses_only_when_certain_and_is_right() -> None:
    spec = game_spec("cluedo")
    wins = 0
    for seed in range(4):
        played = game(3, max_turns="300")
        record = run_match(
            played, [spec.bot("random"), spec.bot("logic"), spec.bot("random")], seed=seed
        )
        assert not record.forfeits and record.final_state is not None
        accusations = [s for s in record.steps if isinstance(s.action, Accuse)]
        assert all(s.seat == 1 and s.events[0].public["correct"] for s in accusations)
        wins += record.final_state.winner == 1
    assert wins >= 2


def test_the_compiled_and_vectorised_samplers_draw_alike() -> None:
    """Both implementations of the sampler keep every fact and draw the same distribution
    (they use different random streams): on the spec's example their envelope distributions
    are within sampling noise of each other, and both far from the exact one."""
    events = [*setup(), *EVENT_A, *EVENT_B]
    belief = observe(velma(hypotheses=10, enumerate_below=0), events)
    exact = exact_distribution(events)
    counts = []
    for draw in (belief._attempt_compiled, belief._attempt_vectorised):
        owners, envelopes = draw(60_000)
        assert len(owners) > 50_000 and violations(owners, events, 0) == []
        assert (envelopes[:500] == _envelopes(owners[:500], belief.envelope)).all()
        counts.append(np.bincount(envelopes, minlength=324))
        assert total_variation(counts[-1], exact) > 0.15
    assert total_variation(counts[0], counts[1] / counts[1].sum()) < 0.04


def test_the_logic_player_heads_for_the_envelopes_room_when_it_must_accuse_there() -> None:
    player = LogicPlayer(game(3, accuse_at="in_named_room"), 0, seed=1)
    accusation = Accuse(*c("Plum", "Rope", "Kitchen"))

    def act(position: str, *legal: Hashable) -> Hashable:
        moved = Event("moved", {"seat": 0, "roll": 4, "position": position})
        return player.act(View(0, "player", {}, [*solved_view(), moved]), legal)

    goes = tuple(Go(r) for r in ROOMS)
    assert act("Hall", *goes) == Go(KITCHEN)
    assert act("Study", ROLL, PASSAGE) == PASSAGE  # the Study's passage leads to the Kitchen
    assert act("Lounge", ROLL, PASSAGE) == ROLL
    assert act("Kitchen", *ACCUSATIONS[:3], accusation, END) == accusation
