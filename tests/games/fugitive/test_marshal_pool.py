"""The Marshal pool's members beyond belief and notes (issue 38): the candidate-list random
Marshal (``candidates``) and the uniform Marshal (``belief:model=uniform:guess=argmax``): their
guesses are legal and among the candidates, the random one's choices follow her seed alone,
and a hand-traced position."""

from __future__ import annotations

from collections import Counter

import pytest

from sleuth.arena.tournament import run_tournament
from sleuth.core.events import View
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.belief import ExactBelief
from sleuth.games.fugitive.deduction.notes import MarshalNotes
from sleuth.games.fugitive.engine.actions import SKIP, Guess
from sleuth.games.fugitive.engine.cards import LAST
from sleuth.games.fugitive.rules import MARSHAL, FugitiveGame
from tests.games.fugitive.helpers import SETUP, marshal_guess_points, marshal_view, play

UNIFORM = "belief:model=uniform:guess=argmax"
"""The uniform Marshal: the most likely number, every consistent world weighed once."""


def marshal(spec: str, seed: int = 0, game: FugitiveGame | None = None):  # type: ignore[no-untyped-def]
    return SPEC.bot(spec).make(game or FugitiveGame(), MARSHAL, seed)


def her_view(events: list) -> View:  # type: ignore[type-arg]
    return View(MARSHAL, "marshal", {}, marshal_view(events))


def test_a_hand_traced_position() -> None:
    # h1 and h2 placed without sprints, the Marshal holds 5 and 6: the notes leave h1 in
    # {1, 2, 3} and h2 in {2, 3, 4}, and every value lies on 3 of the 6 paths
    state, events = play(*SETUP, "hideout 2", "hideout 3", "draw 1", "card 5", "draw 1", "card 6")
    notes = MarshalNotes.from_events(marshal_view(events))
    assert notes.layers[1:] == [{1, 2, 3}, {2, 3, 4}]
    assert notes.value_weights([1, 2]) == {1: 3, 2: 3, 3: 3, 4: 3}
    view = her_view(events)
    legal = state.legal_actions()
    assert marshal("notes").act(view, legal) == Guess((1,))  # the tie goes to the lower
    chosen = Counter(marshal("candidates", seed).act(view, legal) for seed in range(400))
    assert set(chosen) == {Guess((n,)) for n in (1, 2, 3, 4)}  # each candidate, none else
    assert all(70 <= count <= 130 for count in chosen.values()), chosen  # about 100 each
    # exactly: 1, 2 and 3 are as likely (7/12), 4 less (it must be the card 4 of pile 1 in
    # his hand): the uniform Marshal names the lowest of the three; the frugal belief Marshal
    # weighs routes that use their whole reach more and names 4
    for seed in range(5):  # her seed alone decides
        assert marshal("candidates", seed).act(view, legal) == marshal("candidates", seed).act(
            view, legal
        )
    assert marshal(UNIFORM).act(view, legal) == Guess((1,))
    assert marshal("belief:guess=argmax").act(view, legal) == Guess((4,))


@pytest.mark.parametrize("spec", ["candidates", UNIFORM])
@pytest.mark.parametrize("seed", [3, 19, 21])  # 19 and 21 reach hideouts the notes force
def test_guesses_are_legal_and_among_the_candidates(spec: str, seed: int) -> None:
    game = FugitiveGame(max_rounds=8)
    bot = marshal(spec, seed, game)
    asked = 0
    for state, seen in marshal_guess_points(seed, max_rounds=8):
        action = bot.act(View(MARSHAL, "marshal", {}, seen), state.legal_actions())
        assert action in state.legal_actions()
        if action == SKIP:
            continue
        assert isinstance(action, Guess)
        candidates = ExactBelief.from_events(seen).counts().candidates()
        possible = {v for values in candidates.values() for v in values}
        notes = MarshalNotes.from_events(seen)
        noted = {v for d in range(1, len(notes.layers)) for v in notes.layers[d]}
        pool = possible if spec == UNIFORM else noted
        assert set(action.numbers) <= pool, (action, pool)
        hidden = [
            notes.layers[d]
            for d in range(1, len(notes.layers))
            if d not in notes.revealed and notes.layers[d] != {LAST}
        ]
        forced = [min(values) for values in hidden if len(values) == 1]
        if (
            spec == "candidates" and forced and (len(forced) == len(hidden) or min(forced) < 30)
        ):  # the notes' certain hideouts, as notes names them
            notes_bot = marshal("notes", seed, game)
            assert action == notes_bot.act(
                View(MARSHAL, "marshal", {}, seen), state.legal_actions()
            )
        asked += 1
    assert asked > 0


def test_the_random_marshals_games_depend_only_on_the_seed() -> None:
    def outcomes(seed: int) -> list[tuple[object, ...]]:
        result = run_tournament("fugitive", ["random", "candidates"], 6, seed, {}, workers=1)
        return [row.actions for row in result.rows]

    assert outcomes(5) == outcomes(5)
    assert outcomes(5) != outcomes(6)
