"""The game page's tap picker (:mod:`sleuth.web.picker`): every legal action, and nothing else,
is reached by tapping its steps, on every game; the last tap's choice names the action; a bad
prefix is refused by name; and the API serves it to the human's seat alone, on its turn."""

from __future__ import annotations

import random
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.core.game import CHANCE, State
from sleuth.core.registry import game_spec
from sleuth.web.picker import LONGEST, PickError, parse_prefix, pick
from tests.tally import SPEC as TALLY

GAMES = [
    ("fox", {}),
    ("fugitive", {}),
    ("camel-up", {}),
    ("scotland-yard", {}),
    ("cluedo", {"players": "3"}),
]


def states(name: str, options: dict[str, str], seed: int, count: int) -> list[State[Any]]:
    """The first ``count`` positions of a seeded random game where a seat is to move."""
    spec = game_spec(name)
    state, rng, found = spec.make(options).new_initial_state(), random.Random(seed), []
    while not state.is_terminal() and len(found) < count:
        if state.current_player() == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        found.append(state.clone())
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return found


def completions(name: str, state: State[Any], prefix: tuple[int, ...] = ()) -> list[str]:
    """Every action the picker completes from ``prefix`` on (the whole tree below it)."""
    found = []
    for choice in pick(game_spec(name), state, prefix).choices:
        if choice.action is not None:
            found.append(choice.action)
        else:
            found += completions(name, state, (*prefix, choice.id))
    return found


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_the_taps_reach_exactly_the_legal_actions(name: str, options: dict[str, str]) -> None:
    """Where the legal actions are few enough to walk the whole tree: its completed actions
    are the legal ones, each once; elsewhere (a Fugitive hand) random walks reach only legal
    actions, each named as the game writes it, and every step offers a choice."""
    spec, walked = game_spec(name), 0
    for state in states(name, options, seed=3, count=40):
        legal = state.legal_actions()
        if len(legal) <= 2000:
            reached = completions(name, state)
            assert sorted(reached) == sorted(str(a) for a in legal)
            walked += 1
            continue
        rng = random.Random(len(legal))
        for _ in range(20):
            prefix: tuple[int, ...] = ()
            while True:
                step = pick(spec, state, prefix)
                assert step.choices and step.steps == tuple(
                    spec.encoding_for(state.game).id_text(i) for i in prefix
                )
                choice = rng.choice(step.choices)
                if choice.action is not None:
                    action = state.game.parse_action(choice.action)
                    assert state.is_legal(action) and str(action) == choice.action
                    break
                prefix = (*prefix, choice.id)
    assert walked >= 3


def test_a_fugitive_hideout_is_chosen_then_its_sprint_cards_then_done() -> None:
    """The Fugitive's placement by taps: a hideout, sprint cards in increasing order, done;
    the Marshal's guess: skip, or numbers then done."""
    spec = game_spec("fugitive")
    found = states("fugitive", {}, seed=5, count=60)
    big = next(s for s in found if s.current_player() == 0 and len(s.legal_actions()) > 100)
    top = pick(spec, big)
    assert {c.text.split()[0] for c in top.choices} == {"hideout"}
    assert all(c.action is None for c in top.choices)
    hideout = top.choices[0]  # the lowest: reached without a sprint card
    after = pick(spec, big, (hideout.id,))
    assert after.steps == (hideout.text,)
    done = next(c for c in after.choices if c.text == "done")
    assert done.action == hideout.text  # no sprint card: the hideout alone
    sprint = next(c for c in after.choices if c.text.startswith("sprint"))
    then = pick(spec, big, (hideout.id, sprint.id))
    finished = next(c for c in then.choices if c.text == "done")
    assert finished.action == f"{hideout.text} {sprint.text}"
    assert big.is_legal(big.game.parse_action(finished.action))
    guess = next(s for s in found if s.current_player() == 1 and len(s.legal_actions()) > 5000)
    top = pick(spec, guess)
    assert {c.text.split()[0] for c in top.choices} == {"name", "skip"}
    name = next(c for c in top.choices if c.text.startswith("name"))
    done = next(c for c in pick(spec, guess, (name.id,)).choices if c.text == "done")
    assert done.action is not None and guess.is_legal(guess.game.parse_action(done.action))


def test_a_game_without_an_encoding_gets_one_step_per_action() -> None:
    state = TALLY.make({}).new_initial_state()
    top = pick(TALLY, state)
    assert [(c.text, c.action) for c in top.choices] == [
        (a, a) for a in map(str, state.legal_actions())
    ]
    with pytest.raises(PickError, match="take one step"):
        pick(TALLY, state, (0,))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x", "'x' is not an action id"),
        ("1,,2", "'' is not an action id"),
        ("-1", "'-1' is not an action id"),
        ("1234567", "'1234567' is not an action id"),
        (",".join(["1"] * (LONGEST + 1)), f"at most {LONGEST} ids"),
    ],
)
def test_a_bad_prefix_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(PickError, match=message):
        parse_prefix(text)


def test_a_prefix_off_the_picker_or_past_an_action_is_refused_by_name() -> None:
    spec = game_spec("cluedo")
    state = states("cluedo", {"players": "3"}, seed=1, count=1)[0]
    roll = next(c for c in pick(spec, state).choices if c.text == "roll")
    with pytest.raises(PickError, match=f"id {roll.id} completes an action"):
        pick(spec, state, (roll.id, 0))
    with pytest.raises(PickError, match="id 9999 cannot follow the start"):
        pick(spec, state, (9999,))
    accuse = next(c for c in pick(spec, state).choices if c.text == "accuse")
    with pytest.raises(PickError, match="id 0 cannot follow accuse"):
        pick(spec, state, (accuse.id, 0))


def test_the_api_gives_the_picker_to_the_seat_to_move(client: TestClient) -> None:
    """``GET /api/play/ID/pick?ids=...``: the steps after an accusation's first tap; a bad
    prefix is a 400 naming it; another session's game is a 404; the game's answer holds the
    picker's start, empty once the game is over."""
    game = client.post(
        "/api/play", json={"game": "cluedo", "options": {"players": "3"}, "seed": 3}
    ).json()
    accuse = next(c for c in game["pick"]["choices"] if c["text"] == "accuse")
    assert accuse["action"] is None
    suspects = client.get(f"/api/play/{game['id']}/pick", params={"ids": str(accuse["id"])})
    assert suspects.status_code == 200, suspects.text
    body = suspects.json()
    assert body["steps"] == ["accuse"] and body["prefix"] == [accuse["id"]]
    assert len(body["choices"]) == 6 and body["more"] == 0
    bad = client.get(f"/api/play/{game['id']}/pick", params={"ids": "oops"})
    assert bad.status_code == 400 and "'oops' is not an action id" in bad.json()["error"]
    with TestClient(client.app) as stranger:
        assert stranger.get(f"/api/play/{game['id']}/pick").status_code == 404
    fox = client.post(
        "/api/play",
        json={"game": "fox", "role": "hunter", "options": {"graph": "path:2"}, "seed": 1},
    ).json()
    while not fox["over"]:
        fox = client.post(f"/api/play/{fox['id']}/action", json={"action": fox["legal"][0]}).json()
    assert fox["pick"] == {"prefix": [], "steps": [], "choices": [], "more": 0}
    assert client.get(f"/api/play/{fox['id']}/pick").json()["choices"] == []


def test_the_rows_gather_a_word_and_the_choices_alone_of_theirs() -> None:
    from sleuth.web.play import choice_groups

    texts = ["roll", "accuse", "tile 4 oasis", "tile 4 mirage", "Hall", "Dining Room", "done"]
    pick = {"choices": [{"text": t} for t in texts]}
    rows = [[c["text"] for c in row] for row in choice_groups(pick)]
    assert rows == [
        ["roll", "accuse"],
        ["tile 4 oasis", "tile 4 mirage"],
        ["Hall", "Dining Room", "done"],
    ]
