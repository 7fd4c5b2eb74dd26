"""The decoy Fugitive (issue 38): whole games are legal and repeat with the seed, and on a
hand-built position it takes the placement the belief Marshal's posterior, counted from her
real view after each option, rates least likely."""

from __future__ import annotations

import pytest

from sleuth.core.errors import OptionError
from sleuth.core.events import Event, View
from sleuth.core.match import run_match
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.belief import ExactBelief
from sleuth.games.fugitive.engine.actions import Card, Place
from sleuth.games.fugitive.engine.cards import LAST
from sleuth.games.fugitive.players.decoy import DecoyFugitive
from sleuth.games.fugitive.players.fugitives import own_cards, payment, placement_score
from sleuth.games.fugitive.players.policy import padded
from sleuth.games.fugitive.rules import FUGITIVE, MARSHAL, FugitiveGame, FugitiveState

SPECS = ("decoy", "decoy:aim=position:weight=40:stride=3:draw=low", "decoy:model=uniform:pad=0")


def fugitive_moves(spec: str, marshal: str, seed: int, edition: str) -> list[object]:
    """The Fugitive's moves in a game of ``spec`` against ``marshal``; no forfeit (the match
    runner checks every move against the rules)."""
    game = FugitiveGame(edition=edition, max_rounds=50)
    record = run_match(game, [SPEC.bot(spec), SPEC.bot(marshal)], seed, time_limit=None)
    assert not record.forfeits, record.forfeits
    return [step.action for step in record.steps if step.seat == FUGITIVE]


@pytest.mark.parametrize("edition", ["first", "second"])
@pytest.mark.parametrize("spec", SPECS)
def test_whole_games_are_legal_and_repeat_with_the_seed(spec: str, edition: str) -> None:
    for seed, marshal in ((0, "candidates"), (1, "belief"), (2, "random")):
        moves = fugitive_moves(spec, marshal, seed, edition)
        assert moves == fugitive_moves(spec, marshal, seed, edition)
    assert fugitive_moves(spec, "candidates", 0, edition) != fugitive_moves(
        spec, "candidates", 3, edition
    )


def second_opening_placement() -> tuple[FugitiveState, list[Event]]:
    """A hand-built position: the Fugitive drew 6, 8 and 11 from pile 1 and 20 and 24 from pile 2
    and placed 3 first; he is to place his second hideout, and the Marshal has drawn nothing
    (so her whole view is public: the decoy's imitation of it is exact)."""
    game = FugitiveGame(max_rounds=50)
    state = game.new_initial_state()
    events: list[Event] = []
    for card in (6, 8, 11, 20, 24):
        events += state.apply(Card(card))
    events += state.apply(Place(3, ()))
    assert state.current_player() == FUGITIVE
    return state, events


def marshal_odds(state: FugitiveState, events: list[Event], place: Place, aim: str) -> float:
    """The belief Marshal's (``frugal``) odds of the Fugitive's route right after ``place``,
    counted from her own view of the real game (the engine's events), as the decoy's
    docstring defines them for ``aim``."""
    view = [e.seen_by(MARSHAL) for e in [*events, *state.clone().apply(place)]]
    counts = ExactBelief.from_events(view, model="frugal").counts()
    if aim == "position":
        return counts.by_position[2].get(place.hideout, 0) / counts.total
    return sum(float(counts.hideout_probability(v)) for v in (3, place.hideout))


@pytest.mark.parametrize("aim", ["position", "route"])
def test_it_places_where_the_marshals_posterior_least_expects_it(aim: str) -> None:
    state, events = second_opening_placement()
    view = View(FUGITIVE, "fugitive", {}, [e.seen_by(FUGITIVE) for e in events])
    hand, last = own_cards(view)
    legal = state.legal_actions()
    options = {
        padded(sorted(hand), last, h, extra)
        for h in range(last + 1, LAST)
        if h in hand
        for extra in range(3)
    }
    options = {p for p in options if p in legal}  # the hideouts his hand can reach
    odds = {p: marshal_odds(state, events, p, aim) for p in options}
    assert len(set(odds.values())) > 2  # the options really differ in her eyes

    bot = DecoyFugitive(SPEC.make({"max_rounds": 50}), FUGITIVE, 0, weight=1e6, aim=aim,
                        model="frugal", candidates=16, pad=2, stride=0, draw="next")  # fmt: skip
    chosen = bot.act(view, legal)
    assert chosen in odds
    assert odds[chosen] == pytest.approx(min(odds.values()))

    # without weighing her odds it plays the cheapest best placement, another one here
    plain = DecoyFugitive(SPEC.make({"max_rounds": 50}), FUGITIVE, 0, weight=0, aim=aim,
                          model="frugal", candidates=16, pad=2, stride=0, draw="next")  # fmt: skip
    cheapest = [payment(sorted(hand), last, p.hideout, bluff=False) for p in options]
    best = max(sorted(cheapest, key=lambda p: p.hideout), key=lambda p: placement_score(p, last))
    assert best in options
    assert plain.act(view, legal) == best
    assert odds[plain.act(view, legal)] > odds[chosen]


def test_bad_options_are_refused_by_name() -> None:
    with pytest.raises(OptionError, match="aim"):
        SPEC.bot("decoy:aim=everything")
    with pytest.raises(OptionError, match="weight"):
        SPEC.bot("decoy:weight=-1")
