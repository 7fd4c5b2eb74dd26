"""Cluedo's encoding (sleuth.games.cluedo.encoding, action_ids): the kit on every kind of table,
a hand-traced game read by index, the belief segments against the deduction itself, other
deals behind the same view, and every action of long games reached by its ids."""

from __future__ import annotations

import math
import pickle
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sleuth.core.bitsets import members
from sleuth.core.errors import ActionParseError, IllegalActionError
from sleuth.core.events import Event, View, freeze
from sleuth.core.game import CHANCE
from sleuth.envs.episode import Episode
from sleuth.games.cluedo.action_ids import (
    ACCUSE_ID,
    ACTION_COUNT,
    NAME,
    SHOW,
    SUGGEST_ID,
    CluedoActions,
    decode,
    encode,
    id_text,
)
from sleuth.games.cluedo.actions import Accuse, Action, Deal, Dice, Show, parse_action
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.encoding import BELIEF_SEGMENTS, SEGMENTS, CluedoEncoding, parts
from sleuth.games.cluedo.rules import CluedoGame, CluedoState
from sleuth.games.cluedo.spec import SPEC
from sleuth.testing.case import Case
from sleuth.testing.encoding import check_encoding

CASES = [
    Case.of("cluedo", {"players": 3}),
    Case.of("cluedo", {"players": 6, "edition": "uk"}),
    Case.of("cluedo", {"players": 4, "accuse_at": "in_named_room", "allow_retarget": True}),
    Case.of("cluedo", {"players": 5, "leftover": "face_up", "dice": 2, "dealer": 0}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.spec.name}-{c.options}")
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("belief", [False, True])
def test_kit(case: Case, seed: int, belief: bool) -> None:
    check_encoding(case, seed, belief)


def test_the_size_is_the_same_for_every_option_set() -> None:
    sizes = {CluedoEncoding(case.make()).size(b) for case in CASES for b in (False, True)}
    assert sizes == {968, 968 + 21 + 126 + 2}


# --- the ids -----------------------------------------------------------------------------------


def test_every_id_has_its_own_text_and_ids_out_of_range_are_refused() -> None:
    texts = [id_text(i) for i in range(ACTION_COUNT)]
    assert len(set(texts)) == ACTION_COUNT
    assert texts[:6] == ["roll", "passage", "stay", "end", "suggest", "accuse"]
    for bad in (-1, ACTION_COUNT):
        with pytest.raises(ValueError, match=f"{bad} is not a Cluedo action id"):
            id_text(bad)


def test_the_ids_of_an_action_read_as_its_text() -> None:
    accusation = parse_action("accuse Plum Rope Kitchen")
    assert encode(accusation) == (ACCUSE_ID, NAME + 5, NAME + 9, NAME + 15) == (5, 41, 45, 51)
    for text in ("roll", "passage", "stay", "end", "go Dining Room", "show Lead Pipe",
                 "suggest White Wrench Study", "accuse Plum Rope Kitchen"):  # fmt: skip
        action = parse_action(text)
        ids = encode(action)
        assert " ".join(id_text(i) for i in ids) == text
        assert decode(ids) == action


@pytest.mark.parametrize(
    ("ids", "message"),
    [
        ((SUGGEST_ID, NAME + 5, NAME + 9), "is not an action's id sequence"),
        ((ACCUSE_ID, NAME + 9, NAME + 5, NAME + 15), "is not an action's id sequence"),
        ((NAME + 5,), "is not an action's id sequence"),
        ((0, 0), "is not an action's id sequence"),
        ((99,), "99 is not a Cluedo action id"),
    ],
)
def test_sequences_of_no_action_are_refused(ids: tuple[int, ...], message: str) -> None:
    with pytest.raises((ActionParseError, ValueError), match=message):
        decode(ids)


def test_chance_actions_have_no_ids() -> None:
    with pytest.raises(ActionParseError, match="chance's"):
        encode(Dice(4))


def test_a_refused_id_names_what_is_allowed_and_changes_nothing() -> None:
    state, _ = traced([])
    builder = CluedoActions(state)
    assert builder.legal_ids() == [0, ACCUSE_ID]  # roll; or accuse: nobody was summoned
    with pytest.raises(IllegalActionError, match="'show Scarlet' cannot follow 'nothing'"):
        builder.push(SHOW)
    assert builder.push(ACCUSE_ID) is None
    assert builder.legal_ids() == [NAME + s for s in range(6)]
    with pytest.raises(IllegalActionError, match=r"'Rope' cannot follow 'accuse' here"):
        builder.push(NAME + 9)
    assert builder.prefix == [ACCUSE_ID]
    builder.push(NAME + 5)
    builder.push(NAME + 9)
    assert builder.push(NAME + 15) == Accuse(5, 9, 15)
    assert builder.prefix == []


def test_the_builder_gives_the_ids_of_each_legal_action_and_refuses_others() -> None:
    """ids_of of every legal action, pushed into a fresh builder, builds that action; an
    action that is not legal here (a suggestion outside a room) is refused by name."""
    state, _ = traced(TRACE[:3])  # seat 0 is in the Lounge: suggest, accuse or end
    legal = state.legal_actions()
    assert len(legal) > 300
    for action in legal:
        builder = CluedoActions(state)
        ids = builder.ids_of(action)
        assert ids == encode(action)
        assert [builder.push(i) for i in ids][-1] == action
    builder = CluedoActions(state)
    with pytest.raises(IllegalActionError, match="suggest White Wrench Hall: not a legal action"):
        builder.ids_of(parse_action("suggest White Wrench Hall"))
    assert builder.prefix == [] and builder.legal_ids() == CluedoActions(state).legal_ids()


def test_an_accusation_in_the_named_room_names_only_the_room_one_is_in() -> None:
    state, _ = traced(TRACE[:3], accuse_at="in_named_room")  # seat 0 is in the Lounge
    builder = CluedoActions(state)
    for action_id in (ACCUSE_ID, NAME + 5, NAME + 9):
        builder.push(action_id)
    assert builder.legal_ids() == [NAME + 13]


# --- a hand-traced game ------------------------------------------------------------------------

DEAL = Deal(
    (5, 9, 15),  # Plum, Rope, Kitchen
    ((0, 6, 12, 13, 14, 16), (1, 7, 8, 17, 18, 19), (2, 3, 4, 10, 11, 20)),
)
TRACE = [
    "roll", "dice 8", "go Lounge",  # seat 0 (Scarlet) enters the Lounge: 8 pips
    "suggest White Wrench Lounge",  # summons White (seat 2); seat 1 passes
    "show Wrench",  # seat 2 refutes, to seat 0 only
    "end",
    "roll", "dice 3", "go Dining Room",  # seat 1 (Mustard) stops on the way: 5 to go
    "end",
    "accuse Plum Rope Hall",  # seat 2 (White, in the Lounge) accuses wrongly
    "passage",  # seat 0 goes from the Lounge to the Conservatory
    "suggest Green Candlestick Conservatory",  # seat 1 refutes at once
    "show Candlestick",
]  # fmt: skip


def traced(texts: list[str], deal: Deal = DEAL, **options: Any) -> tuple[CluedoState, list[View]]:
    """The state and the three views after the deal and ``texts`` (two dice, 100 turns)."""
    game = CluedoGame(players=3, dice=2, max_turns=100, **options)
    state = game.new_initial_state()
    seen: list[list[Event]] = [[], [], []]
    for action in [deal, *(parse_action(t) for t in texts)]:
        for event in state.apply(action):
            for seat, events in enumerate(seen):
                events.append(event.seen_by(seat))
    info = freeze(game.public_info())
    return state, [View(seat, "player", info, seen[seat]) for seat in range(3)]


def cells(values: np.ndarray, segments: tuple[Any, ...]) -> dict[str, list[Any]]:
    """Each segment's nonzero entries: indices of a vector, (row, column) pairs of a table,
    with their values."""
    out: dict[str, list[Any]] = {}
    for name, part in parts(values, segments).items():
        at = [tuple(int(i) for i in index) for index in np.argwhere(part)]
        out[name] = [(i[0] if len(i) == 1 else i, round(float(part[i]), 4)) for i in at]
    return out


def test_a_traced_game_read_by_index() -> None:
    state, views = traced(TRACE)
    encoding = CluedoEncoding(state.game)
    starts = {row["name"]: row["start"] for row in encoding.describe()["segments"]}
    me = encoding.observe(views[0])
    assert me[starts["turns"]] == pytest.approx(4 / 100)  # seats 0, 1, 2, 0
    assert me[starts["hand"] + 16] == 1.0 and me[starts["hand"] + 17] == 0.0
    assert me[starts["seen"] + 21 + 11] == 1.0  # seat 2, two places on: the Wrench
    notes = cells(me[: starts["prefix"]], SEGMENTS[:-1])
    third = round(1 / 3, 4)
    assert {name: notes[name] for name in notes if name != "travel"} == {
        "rules": [(0, 0.5), (1, 1.0)],  # three players, two dice
        "seats": [(0, 1.0), (1, 1.0), (2, 1.0)],
        "hand sizes": [(0, 1.0), (1, 1.0), (2, 1.0)],
        "eliminated": [(2, 1.0)],
        "turn": [(0, 1.0)],
        "progress": [(1, 1.0), (2, 1.0)],  # moved (by the passage), suggested
        "turns": [(0, 0.04)],
        "refuter": [],
        "suggestion": [(3, 1.0), (7, 1.0), (17, 1.0)],
        "hand": [(c, 1.0) for c in (0, 6, 12, 13, 14, 16)],
        "face up": [],
        "rooms": [((0, 5), 1.0), ((2, 1), 1.0)],  # me in the Conservatory, White in the Lounge
        "seen": [((0, 7), 1.0), ((1, 11), 1.0)],  # Candlestick from seat 1, Wrench from seat 2
        "shown": [],
        "passed": [((1, c), 1.0) for c in (2, 11, 13)],
        "refuted": [((1, c), third) for c in (3, 7, 17)] + [((2, c), third) for c in (2, 11, 13)],
        "asked": [((0, c), third) for c in (2, 3, 7, 11, 13, 17)],
        "accused": [((2, c), 1.0) for c in (5, 9, 12)],
        "unrefuted": [],
    }
    travel = parts(me, SEGMENTS)["travel"]
    assert travel[0, 5] == 1.0 and travel[2, 1] == 1.0  # in the room: no turn to go
    assert 0 < travel[1, 2] < 1 and travel[1, 2] > travel[1, 3]  # Dining Room nearer than Kitchen
    assert not travel[3:].any()
    # The refuter's view: seat 0 is two places clockwise from seat 1.
    second = cells(encoding.observe(views[1]), SEGMENTS)
    assert second["shown"] == [((1, 7), 1.0)] and second["seen"] == []
    assert second["rooms"] == [((1, 1), 1.0), ((2, 5), 1.0)]
    assert second["hand"] == [(c, 1.0) for c in (1, 7, 8, 17, 18, 19)]
    # The third seat saw the Wrench it showed, not the Candlestick.
    third_seat = cells(encoding.observe(views[2]), SEGMENTS)
    assert third_seat["shown"] == [((0, 11), 1.0)] and third_seat["seen"] == []


@pytest.mark.parametrize(("players", "seed"), [(3, 5), (6, 6)])
def test_the_turn_is_the_engines_at_every_step(players: int, seed: int) -> None:
    """Every seat's ``turn`` segment is the engine's seat to move (a refuter aside: the turn
    stays the suggester's) and ``turns`` the engine's turn, from the deal to the end, wrong
    accusations and the last seat still playing included (each turn's ``ended`` event starts
    the next seat's turn at once, not when that seat first rolls, moves or accuses)."""
    game = CluedoGame(players=players, max_turns=40)
    encoding = CluedoEncoding(game)
    rng = random.Random(seed)
    state = game.new_initial_state()
    seen: list[list[Event]] = [[] for _ in range(players)]  # the views' events, growing
    views = [View(seat, "player", game.public_info(), seen[seat]) for seat in range(players)]
    lone = 0
    while True:
        if state.turn:
            for seat in range(players):
                got = parts(encoding.observe(views[seat]), SEGMENTS)
                turn = [0.0] * 6
                turn[(state.to_move - seat) % players] = 1.0
                assert list(got["turn"]) == turn, (seat, state)
                assert got["turns"][0] == pytest.approx(state.turn / game.max_turns)
        if state.is_terminal():
            break
        lone += sum(state.eliminated) == players - 1
        if state.current_player() == CHANCE:
            action = state.sample_chance(rng)
        else:  # seats accuse (wrongly, at 1 in 324) early, until one seat is left
            legal = list(state.legal_actions())
            out = sum(state.eliminated) == players - 1
            accusations = [a for a in legal if isinstance(a, Accuse)]
            eager = accusations and not out and rng.random() < 0.3
            action = rng.choice(
                accusations if eager else [a for a in legal if a not in accusations]
            )
        for event in state.apply(action):
            for seat in range(players):
                seen[seat].append(event.seen_by(seat))
    assert lone > 10  # the last seat played on alone


def test_the_open_suggestion_and_its_refuter() -> None:
    state, views = traced(TRACE[:4])  # seat 1 passed; seat 2 is to show a card
    encoding = CluedoEncoding(state.game)
    assert state.current_player() == 2
    for seat in range(3):
        notes = cells(encoding.observe(views[seat]), SEGMENTS)
        assert notes["refuter"] == [((2 - seat) % 3, 1.0)]
        assert notes["suggestion"] == [(2, 1.0), (11, 1.0), (13, 1.0)]
        assert notes["progress"] == [(1, 1.0), (2, 1.0)]
    assert CluedoActions(state).legal_ids() == [SHOW + 2, SHOW + 11]


def test_the_prefix_is_written_and_a_prefix_of_no_action_is_refused() -> None:
    state, views = traced(TRACE[:3])
    encoding = CluedoEncoding(state.game)
    prefix = parts(encoding.observe(views[0], [ACCUSE_ID, NAME + 5]), SEGMENTS)["prefix"]
    assert list(np.flatnonzero(prefix)) == [1, 2 + 5]
    for bad in ([NAME + 5], [SUGGEST_ID, 0], [ACCUSE_ID, NAME, NAME + 6, NAME + 12]):
        with pytest.raises(ValueError, match="suggestion or an accusation"):
            encoding.observe(views[0], bad)


def test_the_belief_segments_are_the_deductions_marginals() -> None:
    state, views = traced(TRACE)
    encoding = CluedoEncoding(state.game)
    for seat in range(3):
        obs = encoding.observe(views[seat], belief=True)
        assert_belief(encoding, views[seat], obs)
    seen = parts(encoding.observe(views[0], belief=True)[-149:], BELIEF_SEGMENTS)
    assert seen["holders"][0, 6] == 1.0 and seen["holders"][1, 7] == 1.0  # my Knife; the shown
    assert seen["envelope"][[12, 13, 14, 16]].sum() == 0.0  # my rooms


def assert_belief(encoding: CluedoEncoding, view: View, obs: np.ndarray) -> None:
    """The belief segments of ``obs`` hold the exact deduction of ``view``, computed afresh."""
    posterior = CluedoBelief.from_view(encoding.game, view).posterior
    matrix = posterior.matrix()
    n = encoding.cluedo.players
    got = parts(obs[-sum(s.size for s in BELIEF_SEGMENTS) :], BELIEF_SEGMENTS)
    np.testing.assert_allclose(got["envelope"], matrix[:, n], rtol=1e-6)
    for seat in range(n):
        np.testing.assert_allclose(
            got["holders"][(seat - view.seat) % n], matrix[:, seat], rtol=1e-6
        )
    assert not got["holders"][n:].any()
    best = posterior.top(1)[0][1]
    assert got["certainty"][0] == pytest.approx(best, rel=1e-6)


# --- long games, by ids ------------------------------------------------------------------------


def bot_action(state: CluedoState, rng: random.Random) -> Action:
    """A random legal action that rarely accuses (as people play: games last long)."""
    legal = list(state.legal_actions())
    calm = [a for a in legal if not isinstance(a, Accuse)]
    if not calm or rng.random() < 0.003:
        return rng.choice(legal)
    return rng.choice(calm)


def bot_game(options: dict[str, Any], seed: int, belief: bool) -> Iterator[Episode]:
    """An episode of ``bot_action`` players, each action played id by id (every id allowed by
    the mask, the action returned the one chosen); yields the episode before each action."""
    game = SPEC.make(options)
    encoding = CluedoEncoding(game)
    episode = Episode(encoding, seed, belief)
    rng = random.Random(seed)
    while not episode.over:
        yield episode
        action = bot_action(episode.state, rng)
        ids = encode(action)
        assert decode(ids) == action and " ".join(map(id_text, ids)) == str(action)
        seat = episode.seat
        assert seat is not None
        for action_id in ids[:-1]:
            assert episode.mask(seat)[action_id] == 1, str(action)
            assert episode.step(action_id) is None
        assert episode.mask(seat)[ids[-1]] == 1, str(action)
        assert episode.step(ids[-1]) == action


def fresh(view: View) -> View:
    return View(view.seat, view.role, view.game_info, tuple(view.events))


@pytest.mark.parametrize(
    ("options", "seed"),
    [({"players": 3, "max_turns": 150}, 1), ({"players": 6, "max_turns": 100, "dice": 2}, 2)],
)
def test_long_games_by_ids_with_observations_as_if_read_afresh(
    options: dict[str, Any], seed: int
) -> None:
    """Every action of long games is reached by its ids; the observations the encoding keeps
    per view equal those of a fresh copy of the view, and the belief is the deduction's."""
    steps = 0
    for episode in bot_game(options, seed, belief=True):
        steps += 1
        if steps % 41:
            continue
        encoding = episode.encoding
        assert isinstance(encoding, CluedoEncoding)
        for seat, view in enumerate(episode.views):
            kept = episode.observe(seat)
            assert kept.tobytes() == encoding.observe(fresh(view), (), True).tobytes()
            if steps % 3 == 0:
                assert_belief(encoding, view, kept)
    assert steps > 250


# --- other deals behind the same view ----------------------------------------------------------


def other_world(episode: Episode, seat: int, rng: random.Random) -> tuple[CluedoState, View]:
    """The episode's actions replayed on another deal that ``seat``'s exact deduction allows,
    each refuter showing the card shown if it holds it, else another it holds: the state, and
    ``seat``'s view of it."""
    view = episode.views[seat]
    deal = CluedoBelief.from_view(episode.game, view).sample(rng)
    other = Deal(
        (deal.envelope[0], deal.envelope[1], deal.envelope[2]),
        tuple(tuple(members(hand)) for hand in deal.hands),
        tuple(members(deal.table)),
    )
    state = episode.game.new_initial_state()
    assert isinstance(state, CluedoState)
    seen: list[Event] = []
    for mover, action in episode.actions:
        if mover == CHANCE and isinstance(action, Deal):
            action = other
        elif isinstance(action, Show) and not state.is_legal(action):
            action = state.legal_actions()[0]
        seen += [e.seen_by(seat) for e in state.apply(action)]
    return state, View(seat, view.role, view.game_info, tuple(seen))


@pytest.mark.parametrize(
    ("options", "seed"),
    [({"players": 3, "max_turns": 60}, 3), ({"players": 5, "max_turns": 60}, 4)],
)
def test_other_deals_behind_a_view_give_the_same_observation_and_mask(
    options: dict[str, Any], seed: int
) -> None:
    """The non-interference check for Cluedo (which has no search sampler for the kit's): at
    decisions spread over long games, deals drawn from the mover's exact deduction, with the
    same actions, give it a view with the same events and so byte-identical observations
    (belief included) and masks; some of them differ from the true deal."""
    rng = random.Random(seed)
    differ = checked = 0
    for step, episode in enumerate(bot_game(options, seed, belief=True)):
        if step % 29 or episode.builder.prefix:
            continue
        seat = episode.seat
        assert seat is not None
        encoding = episode.encoding
        truth = episode.state
        assert isinstance(truth, CluedoState)
        for _ in range(2):
            state, view = other_world(episode, seat, rng)
            assert list(view.events) == list(episode.views[seat].events)
            assert encoding.observe(view, (), True).tobytes() == episode.observe(seat).tobytes()
            mask = encoding.mask(encoding.builder(state))
            assert mask.tobytes() == episode.mask(seat).tobytes()
            differ += state.hands != truth.hands or state.envelope != truth.envelope
            checked += 1
    assert checked >= 10 and differ >= checked // 2


# --- the docs ----------------------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "cluedo.md"


def learning_rows() -> list[list[str]]:
    """The table rows of docs/cluedo.md's section "For learning agents", split into cells."""
    section = DOCS.read_text(encoding="utf-8").split("## For learning agents", 1)[1]
    rows = [line.strip("|").split("|") for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row] for row in rows if not set(row[0]) <= set("- ")]


def size(text: str) -> int:
    """A size as the docs write it: ``21``, ``6 × 9``, ``2 + 21``."""
    return sum(math.prod(int(f) for f in term.split("×")) for term in text.split("+"))


def test_the_docs_tables_are_the_layout_and_the_ids() -> None:
    rows = learning_rows()
    encoding = CluedoEncoding(CluedoGame())
    segments = [(row[0], size(row[1])) for row in rows if row[1][0].isdigit()]
    layout = [(s.name, s.size) for s in encoding.layout(belief=True)]
    assert segments == layout
    for ids, texts, _ in (row for row in rows if row[0][0].isdigit()):
        first, _, last = ids.replace("–", ",").replace(", ", ",").partition(",")
        listed = re.findall(r"`([^`]+)`", texts)
        assert listed[0] == id_text(int(first)) and listed[-1] == id_text(int(last or first))
        if "…" not in texts:
            assert listed == [id_text(i) for i in range(int(first), int(last or first) + 1)]


def test_an_encoding_that_read_views_pickles_and_reads_them_again() -> None:
    state, views = traced(TRACE)
    encoding = CluedoEncoding(state.game)
    before = encoding.observe(views[0], belief=True)
    copy = pickle.loads(pickle.dumps(encoding))
    assert copy.observe(views[0], belief=True).tobytes() == before.tobytes()
