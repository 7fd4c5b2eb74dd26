"""The fixed-size action encoding: ids and texts round-trip, every legal action has one id
sequence the masks accept, every walk along the masks ends in a legal action, the masks use
only the mover's information, and the belief-narrowed guess mask keeps every true hideout."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from sleuth.core.errors import ActionParseError, IllegalActionError
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.games.fugitive.belief import ExactBelief
from sleuth.games.fugitive.bots import RandomPlayer
from sleuth.games.fugitive.deduction.worlds import history
from sleuth.games.fugitive.engine.actions import Guess, Place, parse_action
from sleuth.games.fugitive.engine.encoding import (
    ACTION_COUNT,
    DONE,
    ActionBuilder,
    decode,
    encode,
    id_text,
    parse_id,
)
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame, FugitiveState, Phase
from tests.games.fugitive.helpers import SETUP, play


def states_of(seed: int, game: FugitiveGame) -> list[tuple[FugitiveState, list[Event]]]:
    """Copies of every state of a random game (chance included), with the events so far."""
    rng = random.Random(seed)
    players = [RandomPlayer(game, 0, seed), RandomPlayer(game, 1, seed + 1)]
    state, events, out = game.new_initial_state(), [], []
    while not state.is_terminal():
        out.append((state.clone(), list(events)))
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = players[player].act(View(player, "", {}, []), state.legal_actions())
        events += state.apply(action)  # type: ignore[arg-type]
    out.append((state.clone(), list(events)))
    return out


GAMES = [
    FugitiveGame(max_rounds=12),
    FugitiveGame(edition="second", opening="one_or_two", max_rounds=12),
    FugitiveGame(dead_end_check=False, marshal_may_skip=False, max_rounds=12),
]
SHORT = FugitiveGame(max_rounds=6)
"""Random games of six rounds, for tests that build exact beliefs (long ones sprint a lot)."""


def build(state: FugitiveState, ids: tuple[int, ...]) -> object:
    builder = ActionBuilder(state)
    results = [builder.push(i) for i in ids]
    assert all(r is None for r in results[:-1])
    return results[-1]


def reachable(builder: ActionBuilder, limit: int = 2000) -> set[object]:
    """Every action the masks lead to from the builder's prefix (depth-first)."""
    found: set[object] = set()
    for action_id in builder.legal_ids():
        prefix = list(builder.prefix)
        action = builder.push(action_id)
        if action is not None:  # a complete action starts the prefix over: restore it
            found.add(action)
            builder.prefix = prefix
        else:
            found |= reachable(builder, limit)
            builder.pop()
        assert len(found) <= limit, "too many actions to list"
    return found


def test_every_id_has_a_text_that_parses_back() -> None:
    texts = [id_text(i) for i in range(ACTION_COUNT)]
    assert len(set(texts)) == ACTION_COUNT
    assert [parse_id(t) for t in texts] == list(range(ACTION_COUNT))
    assert parse_id("  Hideout   9 ") == parse_id("hideout 9")


@pytest.mark.parametrize(
    "text", ["", "hideout", "hideout 43", "sprint 42", "name 0", "card 43", "draw 4", "jump 3"]
)
def test_bad_id_text_is_a_parse_error(text: str) -> None:
    with pytest.raises(ActionParseError, match=repr(text)):
        parse_id(text)


def test_ids_out_of_range_are_errors() -> None:
    with pytest.raises(ActionParseError, match="175"):
        id_text(ACTION_COUNT)


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("hideout 9 sprint 4 6", [15, 52, 54, DONE]),
        ("guess 12 15", [101, 104, DONE]),
        ("draw 2", [1]),
        ("card 17", [149]),
        ("pass", [3]),
        ("hideout 42", [48, DONE]),
    ],
)
def test_documented_sequences(text: str, ids: list[int]) -> None:
    action = parse_action(text)
    assert list(encode(action)) == ids
    assert decode(ids) == action


@pytest.mark.parametrize(
    "ids",
    [
        [],
        [DONE],
        [15, 54, 52, DONE],  # sprint cards out of order
        [15, 52, 52, DONE],
        [15, 52],  # not finished
        [101, 15, DONE],
        [104, 101, DONE],
        [1, 2],
    ],
)
def test_malformed_sequences_are_parse_errors(ids: list[int]) -> None:
    with pytest.raises(ActionParseError):
        decode(ids)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("game", GAMES, ids=["first", "second", "no-checks"])
def test_legal_actions_encode_through_the_masks_and_walks_end_in_legal_actions(
    seed: int, game: FugitiveGame
) -> None:
    rng = random.Random(seed)
    for state, _ in states_of(seed, game):
        legal = state.legal_actions()
        builder = ActionBuilder(state)
        if state.is_terminal():
            assert builder.legal_ids() == [] and not builder.mask().any()
            continue
        for _ in range(3):  # completeness: legal actions pass the masks
            action = legal[rng.randrange(len(legal))]
            assert build(state, encode(action)) == action
        for _ in range(3):  # soundness: every walk along the masks is a legal action
            action = None
            while action is None:
                ids = builder.legal_ids()
                assert ids, f"dead end after {builder.prefix}"
                assert builder.mask().sum() == len(ids)
                action = builder.push(rng.choice(ids))
            assert state.is_legal(action), action


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game", GAMES, ids=["first", "second", "no-checks"])
def test_masks_reach_exactly_the_legal_actions_when_they_are_few(
    seed: int, game: FugitiveGame
) -> None:
    checked = 0
    for state, _ in states_of(seed, game):
        legal = state.legal_actions()
        if state.is_terminal() or len(legal) > 1000:
            continue
        assert reachable(ActionBuilder(state)) == set(legal)
        checked += 1
    assert checked > 10


def test_the_guess_mask_narrowed_to_a_few_numbers_reaches_every_subset() -> None:
    for state, _ in states_of(5, GAMES[0]):
        if state.phase is Phase.MARSHAL_GUESS and not state.draws_due:
            break
    possible = [n for n in range(1, 42) if n not in state.face_up_numbers()][:5]
    found = reachable(ActionBuilder(state, possible))
    assert len(found) == 2**5 - 1 + 1  # every non-empty subset, and skip
    guesses = [a for a in found if isinstance(a, Guess)]
    assert len(guesses) == 2**5 - 1 and all(set(a.numbers) <= set(possible) for a in guesses)


def test_a_refused_id_names_itself_and_changes_nothing() -> None:
    state = next(s for s, _ in states_of(1, GAMES[0]) if s.phase is Phase.FUGITIVE_PLACE)
    builder = ActionBuilder(state)
    hideout = builder.legal_ids()[1]
    builder.push(hideout)
    with pytest.raises(IllegalActionError, match="'skip' cannot follow 'hideout"):
        builder.push(parse_id("skip"))
    with pytest.raises(IllegalActionError, match="'999' cannot follow"):
        builder.push(999)
    assert builder.prefix == [hideout]


@pytest.mark.parametrize("seed", range(3))
def test_the_marshals_masks_are_the_same_in_every_world_she_cannot_tell_apart(seed: int) -> None:
    rng = random.Random(seed)
    game = SHORT
    for state, events in states_of(seed, game)[::3]:
        if state.current_player() != MARSHAL:
            continue
        view = [e.seen_by(MARSHAL) for e in events]
        belief = ExactBelief.from_events(view)
        world = belief.sample(rng)
        other = game.new_initial_state()
        for action in history(world, view):
            other.apply(action)
        assert ActionBuilder(other).legal_ids() == ActionBuilder(state).legal_ids()


@pytest.mark.parametrize("seed", range(4))
def test_the_belief_narrowed_guess_mask_keeps_every_face_down_hideout(seed: int) -> None:
    seen = 0
    for state, events in states_of(seed, SHORT):
        if state.phase not in (Phase.MARSHAL_GUESS, Phase.MANHUNT) or state.draws_due:
            continue
        counts = ExactBelief.from_events([e.seen_by(MARSHAL) for e in events]).counts()
        possible = set().union(*counts.candidates().values())
        named = {
            int(id_text(i).split()[1])
            for i in ActionBuilder(state, possible).legal_ids()
            if id_text(i).startswith("name")
        }
        assert set(state.face_down()) <= named <= possible
        seen += 1
    assert seen


def test_place_walks_respect_the_reach() -> None:
    """From 13, hideout 20 needs 4 footprints: both 2-footprint cards, with or without 5."""
    state = next(s for s, _ in states_of(2, GAMES[0]) if s.phase is Phase.FUGITIVE_PLACE)
    state.hands[0] = (1 << 20) | (1 << 4) | (1 << 6) | (1 << 5) | (1 << 42)
    state.route[-1].value = 13
    state._legal = None
    actions = reachable(ActionBuilder(state))
    assert (
        actions
        == set(state.legal_actions())
        == {
            parse_action("pass"),
            Place(20, (4, 6)),
            Place(20, (4, 5, 6)),
        }
    )


def test_numpy_ids_build_actions_of_plain_ints() -> None:
    """An agent's argmax is a NumPy integer; the action it builds must still serialise."""
    state, _ = play(*SETUP, "hideout 3 sprint 1", "hideout 7 sprint 2", "draw 1", "card 4",
                    "draw 1", "card 6")  # fmt: skip
    assert state.phase is Phase.MARSHAL_GUESS
    builder = ActionBuilder(state)
    action = None
    while action is None:
        action = builder.push(np.flatnonzero(builder.mask())[-1])
    assert isinstance(action, Guess)
    assert all(type(n) is int for n in action.numbers)


def test_a_builder_works_out_the_ids_after_a_prefix_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The opening's legal actions are encoded once per builder, however often the mask is
    asked for and ids are pushed (an agent's loop asks at every step, and push checks against
    it), and the ids after each prefix are those of a fresh builder."""
    from sleuth.games.fugitive.engine import encoding as engine_encoding

    game = FugitiveGame()
    state = next(
        s
        for s, _ in states_of(0, game)
        if s.phase is Phase.OPENING and s.current_player() != CHANCE and not s.draws_due
    )
    encoded = [0]

    def counted(action: Any) -> tuple[int, ...]:
        encoded[0] += 1
        return encode(action)

    builder = ActionBuilder(state)
    while True:
        monkeypatch.setattr(engine_encoding, "encode", counted)
        legal = builder.legal_ids()
        assert builder.legal_ids() == legal
        monkeypatch.setattr(engine_encoding, "encode", encode)
        fresh = ActionBuilder(state)
        for action_id in builder.prefix:
            fresh.push(action_id)
        assert fresh.legal_ids() == legal
        monkeypatch.setattr(engine_encoding, "encode", counted)
        done = builder.push(legal[-1])
        monkeypatch.setattr(engine_encoding, "encode", encode)
        if done is not None:
            break
    assert len(legal) > 0 and encoded[0] == len(state.legal_actions())
