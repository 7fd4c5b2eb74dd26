"""Fugitive's encoding (sleuth.games.fugitive.encoding): the check kit on every option set, the
public segments against the engine's state along random games, the belief segments against the
exact belief read directly, the prefix, the ids against the engine's actions, the incremental
reading against a fresh one, and the docs' tables against the layout."""

from __future__ import annotations

import math
import pickle
import random
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sleuth.core.errors import IllegalActionError
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.envs.episode import Episode
from sleuth.games.fugitive.belief import ExactBelief, warm_up
from sleuth.games.fugitive.encoding import (
    BELIEF_SEGMENTS,
    CARDS,
    POSITIONS,
    SEGMENTS,
    FugitiveEncoding,
)
from sleuth.games.fugitive.engine.actions import Guess, Place, parse_action
from sleuth.games.fugitive.engine.cards import LAST, PILES, cards_of
from sleuth.games.fugitive.engine.encoding import (
    ACTION_COUNT,
    DONE,
    HIDEOUT,
    NAME,
    SPRINT_CARD,
    encode,
    parse_id,
)
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame, FugitiveState, Phase
from sleuth.testing.case import Case
from sleuth.testing.encoding import check_encoding

CASES = [
    {},
    {"edition": "second", "opening": "one_or_two"},
    {"dead_end_check": False, "marshal_may_skip": False, "manhunt_threshold": 20},
]
AT = {s.name: sum(x.size for x in SEGMENTS[:i]) for i, s in enumerate(SEGMENTS)}
SIZE = sum(s.size for s in SEGMENTS)
N = LAST - 1
"""Numbers a belief segment covers (1-41)."""


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    """The belief's kernel compiled (or loaded) before any test times or counts with it."""
    warm_up()


@pytest.mark.parametrize("options", CASES, ids=str)
@pytest.mark.parametrize("seed", range(2))
def test_kit(options: dict[str, Any], seed: int) -> None:
    check_encoding(Case.of("fugitive", options), seed)


@pytest.mark.parametrize("options", CASES, ids=str)
def test_kit_with_belief(options: dict[str, Any]) -> None:
    """With the belief segments, on games cut at 8 rounds (the belief costs most late in long
    random games)."""
    check_encoding(Case.of("fugitive", {**options, "max_rounds": 8}), 0, belief=True)


def test_the_size_is_the_same_for_every_option_set() -> None:
    sizes = {FugitiveEncoding(Case.of("fugitive", o).make()).size(b) for o in CASES for b in (0, 1)}
    assert sizes == {SIZE, SIZE + 2 * N + 3}


# --- the public segments against the engine ----------------------------------------------------


def ones(obs: np.ndarray[Any, Any], name: str, size: int = CARDS) -> list[int]:
    """The offsets of the ones in segment ``name``."""
    return [int(i) for i in np.flatnonzero(obs[AT[name] : AT[name] + size] == 1.0)]


def check_against(state: FugitiveState, seat: int, obs: np.ndarray[Any, Any]) -> None:
    """``obs``, ``seat``'s observation, holds what the engine's ``state`` says."""
    assert ones(obs, "seat", 2) == [seat]
    over = state.is_terminal()
    assert ones(obs, "to move", 2) == ([] if over else [state.current_player()])
    assert ones(obs, "phase", len(Phase)) == [list(Phase).index(state.phase)]
    assert obs[AT["clock"]] == pytest.approx(min(state.rounds, 50) / 50)
    piles = [pile.bit_count() / len(cards) for pile, cards in zip(state.piles, PILES, strict=True)]
    assert obs[AT["piles"] : AT["piles"] + 3] == pytest.approx(piles)
    hands = [hand.bit_count() / LAST for hand in state.hands]
    assert obs[AT["hands"] : AT["hands"] + 2] == pytest.approx(hands)
    route = state.route[1:]
    assert ones(obs, "route placed", POSITIONS) == list(range(len(route)))
    shown = [over or h.face_up for h in state.route]  # the route is shown at the end
    assert ones(obs, "route face up", POSITIONS) == [k for k in range(len(route)) if shown[k + 1]]
    values = obs[AT["route values"] : AT["route values"] + len(route)]
    assert values * LAST == pytest.approx(
        [h.value if shown[k + 1] else 0 for k, h in enumerate(route)]
    )
    sprints = obs[AT["route sprints"] : AT["route sprints"] + len(route)]
    assert sprints * 5 == pytest.approx([len(h.sprints) for h in route])
    hideouts = sorted(h.value for h, up in zip(state.route, shown, strict=True) if up)
    assert ones(obs, "face-up hideouts") == hideouts
    sprint_cards = {c for h, up in zip(state.route, shown, strict=True) if up for c in h.sprints}
    if not over:  # 42's sprint cards stay face down until the end (F11)
        sprint_cards -= set(state.route[-1].sprints if state.route[-1].value == LAST else ())
    assert ones(obs, "face-up sprints") == sorted(sprint_cards)
    assert ones(obs, "own hand") == cards_of(state.hands[seat])
    mine = seat == FUGITIVE
    assert ones(obs, "own hideouts") == ([h.value for h in route] if mine else [])
    assert ones(obs, "own sprints") == (sorted(c for h in route for c in h.sprints) if mine else [])
    for name in ("prefix hideout", "prefix cards"):
        assert ones(obs, name) == []


@pytest.mark.parametrize("options", CASES, ids=str)
def test_public_and_own_segments_are_the_engines_state(options: dict[str, Any]) -> None:
    """Every seat's segments, read from its view at every step of random games, are the true
    state's: whose turn, the phase, the round, the piles and hands, the route, the face-up
    cards, and the seat's own cards (the engine is the oracle of the rules the reading
    follows)."""
    encoding = FugitiveEncoding(Case.of("fugitive", {**options, "max_rounds": 15}).make())
    for seed in range(2):
        episode = Episode(encoding, seed)
        rng = random.Random(seed)
        while True:
            state = episode.state
            assert isinstance(state, FugitiveState)
            for seat in (FUGITIVE, MARSHAL):
                check_against(state, seat, episode.observe(seat))
            if episode.over:
                break
            ids = episode.builder.legal_ids()
            while episode.step(ids[rng.randrange(len(ids))]) is None:
                ids = episode.builder.legal_ids()


def test_misses_and_the_prefix_are_read_by_index() -> None:
    """A hand-traced turn: the Marshal's missed guesses fill the miss rows, and the ids she
    chooses towards a guess, and the Fugitive's towards a placement, show in the prefix
    segments of the seat choosing only."""
    encoding = FugitiveEncoding(FugitiveGame(marshal_may_skip=False))
    episode = Episode(encoding, seed=1)
    rng = random.Random(1)
    while episode.seat != MARSHAL or episode.builder.legal_ids()[0] < NAME:
        ids = episode.builder.legal_ids()  # the opening and the Marshal's draws, at random
        episode.step(ids[rng.randrange(len(ids))])
    state = episode.state
    assert isinstance(state, FugitiveState)
    hidden = set(state.face_down())
    a, b = [n for n in range(5, 42) if n not in hidden and n not in state.face_up_numbers()][:2]
    episode.step(NAME + a - 1)
    obs = episode.observe(MARSHAL)
    assert ones(obs, "prefix cards") == [a] and ones(obs, "prefix hideout") == []
    assert ones(episode.observe(FUGITIVE), "prefix cards") == []
    episode.step(NAME + b - 1)
    assert ones(episode.observe(MARSHAL), "prefix cards") == [a, b]
    assert episode.step(DONE) == Guess((a, b))
    for seat in (FUGITIVE, MARSHAL):
        obs = episode.observe(seat)
        assert obs[AT["multi misses"] + a] == obs[AT["multi misses"] + b] == 0.5
        assert ones(obs, "prefix cards") == []
    while episode.seat != FUGITIVE or episode.builder.legal_ids()[-1] < HIDEOUT:
        ids = episode.builder.legal_ids()  # his draw
        episode.step(ids[rng.randrange(len(ids))])
    hideout = next(i for i in episode.builder.legal_ids() if i >= HIDEOUT)
    episode.step(hideout)
    obs = episode.observe(FUGITIVE)
    assert ones(obs, "prefix hideout") == [hideout - HIDEOUT + 1]
    assert ones(episode.observe(MARSHAL), "prefix hideout") == []
    later = [i for i in episode.builder.legal_ids() if SPRINT_CARD <= i < NAME]
    if later:
        episode.step(later[0])
        assert ones(episode.observe(FUGITIVE), "prefix cards") == [later[0] - SPRINT_CARD + 1]


# --- the belief segments -----------------------------------------------------------------------


def public(view: View) -> list[Event]:
    """The Fugitive's view without the Marshal's draws (whose cards he does not see)."""
    return [e for e in view.events if not (e.kind == "drew" and e.public["seat"] == MARSHAL)]


def odds(events: list[Event]) -> tuple[list[float], list[int]]:
    """P(n is a face-down hideout) for n = 1..41, and the possible n, read from the exact
    belief directly."""
    counts = ExactBelief.from_events(events).counts()
    probability = [float(counts.hideout_probability(n)) for n in range(1, LAST)]
    return probability, sorted(set().union(*map(set, counts.candidates().values())))


def test_belief_segments_are_the_exact_belief() -> None:
    """At every step of random games cut at 10 rounds: the Marshal's belief segments are her
    exact belief's odds and candidates; the Fugitive's are the same deduction from the public
    events, hold his true face-down hideouts, and equal hers until she holds a card."""
    game = FugitiveGame(max_rounds=10)
    encoding = FugitiveEncoding(game)
    checked = 0
    for seed in range(2):
        episode = Episode(encoding, seed, belief=True)
        rng = random.Random(seed)
        while not episode.over:
            state = episode.state
            assert isinstance(state, FugitiveState)
            marshal, fugitive = episode.observe(MARSHAL), episode.observe(FUGITIVE)
            for obs, events in ((marshal, list(episode.views[MARSHAL].events)),
                                (fugitive, public(episode.views[FUGITIVE]))):  # fmt: skip
                belief = obs[SIZE:]
                if belief[2 * N] == 1.0:  # exact
                    probability, possible = odds(events)
                    assert belief[:N] == pytest.approx(probability, rel=1e-6, abs=1e-12)
                    assert [n + 1 for n in np.flatnonzero(belief[N : 2 * N])] == possible
                    checked += 1
            truth = [n for n in state.face_down() if n != LAST]
            assert all(fugitive[SIZE + N + n - 1] == 1.0 for n in truth)
            if not state.hands[MARSHAL]:
                assert fugitive[SIZE:].tobytes() == marshal[SIZE:].tobytes()
            ids = episode.builder.legal_ids()
            episode.step(ids[rng.randrange(len(ids))])
    assert checked > 50


# --- ids and actions ---------------------------------------------------------------------------


def test_every_id_has_its_own_text_which_parses_back() -> None:
    encoding = FugitiveEncoding(FugitiveGame())
    assert encoding.action_count == ACTION_COUNT == 175
    texts = [encoding.id_text(i) for i in range(ACTION_COUNT)]
    assert len(set(texts)) == ACTION_COUNT
    assert [parse_id(t) for t in texts] == list(range(ACTION_COUNT))
    with pytest.raises(ValueError, match="175 is not an action id"):
        encoding.id_text(175)


@pytest.mark.parametrize("options", CASES, ids=str)
def test_every_action_of_random_games_is_built_by_its_ids(options: dict[str, Any]) -> None:
    """Uniformly random legal actions (placements with many sprint cards, guesses of many
    numbers): each one's ids, pushed into the builder of its state, are each allowed in turn
    and give back the action; an illegal action's ids are refused by name."""
    game = Case.of("fugitive", {**options, "max_rounds": 12}).make()
    encoding = FugitiveEncoding(game)
    built = 0
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
            builder = encoding.builder(state)
            ids = builder.ids_of(action)
            assert ids == encode(action)
            for step, action_id in enumerate(ids):
                assert action_id in builder.legal_ids()
                done = builder.push(action_id)
                assert (done is None) == (step < len(ids) - 1)
            assert done == action
            built += len(ids) > 2
            state.apply(action)
    assert built
    with pytest.raises(IllegalActionError, match="hideout 40: not a legal action here"):
        encoding.builder(game.new_initial_state()).ids_of(Place(40))


def test_a_placement_s_ids_read_as_its_text() -> None:
    assert encode(parse_action("hideout 9 sprint 4 6")) == (HIDEOUT + 8, 52, 54, DONE)


# --- the reading -------------------------------------------------------------------------------


def fresh(view: View) -> View:
    """A copy of ``view`` whose events are new objects: it shares no reading with it."""
    events = [Event(e.kind, dict(e.public), e.private, e.audience) for e in view.events]
    return View(view.seat, view.role, view.game_info, events)


def test_observations_are_the_readings_of_fresh_views() -> None:
    """At random steps of a random game, each seat's observation (its view read
    incrementally) is that of a fresh copy of its view read from the start; a snapshot of an
    earlier point still reads as it did then; a pickled encoding reads them again."""
    encoding = FugitiveEncoding(FugitiveGame(edition="second", max_rounds=10))
    episode = Episode(encoding, seed=5, belief=True)
    rng = random.Random(5)
    earlier: list[tuple[int, int, bytes]] = []
    while True:
        for seat, view in enumerate(episode.views):
            obs = encoding.observe(view, (), belief=True)
            if rng.random() < 0.2:
                assert obs.tobytes() == encoding.observe(fresh(view), (), True).tobytes()
                earlier.append((seat, len(view.events), obs.tobytes()))
        if episode.over:
            break
        ids = episode.builder.legal_ids()
        episode.step(ids[rng.randrange(len(ids))])
    assert earlier
    copy = pickle.loads(pickle.dumps(encoding))
    for seat, count, obs_then in earlier:
        view = episode.views[seat]
        snapshot = View(seat, view.role, view.game_info, tuple(view.events[:count]))
        assert copy.observe(snapshot, (), belief=True).tobytes() == obs_then


# --- the docs ----------------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "fugitive.md"


def learning_rows() -> list[list[str]]:
    """The table rows of docs/fugitive.md's section "For learning agents", split into cells."""
    section = DOCS.read_text(encoding="utf-8").split("## For learning agents", 1)[1]
    section = section.split("\n## ", 1)[0]
    rows = [line.strip("|").split("|") for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row] for row in rows if not set(row[0]) <= set("- ")]


def size(text: str) -> int:
    """A size as the docs write it: ``43``, ``R × 3`` (R = 42)."""
    return math.prod(int(f.strip().replace("R", str(POSITIONS))) for f in text.split("×"))


def test_the_docs_tables_are_the_layout_and_the_ids() -> None:
    rows = learning_rows()
    segments = [(row[0], size(row[1])) for row in rows if re.fullmatch(r"[\dR ×]+", row[1])]
    assert segments == [(s.name, s.size) for s in (*SEGMENTS, *BELIEF_SEGMENTS)]
    encoding = FugitiveEncoding(FugitiveGame())
    for ids, texts, _ in (row for row in rows if row[0][0].isdigit()):
        first, _, last = ids.replace("–", ",").replace(", ", ",").partition(",")
        listed = re.findall(r"`([^`]+)`", texts)
        assert listed[0] == encoding.id_text(int(first))
        assert listed[-1] == encoding.id_text(int(last.split(",")[-1] or first))
