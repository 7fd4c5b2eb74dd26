"""Camel Up's encoding (sleuth.games.camel_up.encoding) and the sampler that checks it hides
the other players' overall cards (sleuth.games.camel_up.search)."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

from sleuth.core.errors import ContradictionError, IllegalActionError
from sleuth.core.events import Event, View
from sleuth.core.game import CHANCE
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.core.searchmodel import replay_history, view_matches
from sleuth.envs.episode import Episode
from sleuth.games.camel_up.actions import ROLL, Die, LegBet, OverallBet, PlaceTile, Start
from sleuth.games.camel_up.encoding import (
    ACTIONS,
    LEG,
    LOSER,
    TILE,
    WINNER,
    CamelUpEncoding,
    squashed,
)
from sleuth.games.camel_up.odds import game_odds
from sleuth.games.camel_up.rules import CamelState, CamelUpGame
from sleuth.games.camel_up.search import CamelUpSampler
from sleuth.testing.case import Case
from sleuth.testing.encoding import check_encoding

CASES = [
    Case.of("camel-up", {}),
    Case.of("camel-up", {"players": 2}),
    Case.of("camel-up", {"edition": 2, "players": 3}),
    Case.of("camel-up", {"edition": 2, "players": 8, "tile_flip_in_place": True}),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: str(c.options))
@pytest.mark.parametrize("seed", range(2))
def test_encoding(case: Case, seed: int) -> None:
    check_encoding(case, seed)


@pytest.mark.parametrize(
    ("case", "seed"),
    [
        (CASES[0], 0),
        (CASES[0], 1),
        (CASES[1], 2),
        pytest.param(CASES[2], 0, marks=pytest.mark.slow),  # the 2nd edition's race rollouts
    ],
    ids=lambda x: str(x.options) if isinstance(x, Case) else str(x),
)
def test_encoding_with_the_odds(case: Case, seed: int) -> None:
    check_encoding(case, seed, belief=True)


def _views(game: CamelUpGame, actions: list[Any]) -> tuple[list[View], list[Event]]:
    """Every seat's view after ``actions`` played from the start."""
    state = game.new_initial_state()
    events: list[Event] = []
    for action in actions:
        events += state.apply(action)
    info = game.public_info()
    return [
        View(s, "player", info, [e.seen_by(s) for e in events]) for s in range(game.players)
    ], events


def _at(encoding: CamelUpEncoding) -> dict[str, int]:
    rows = encoding.describe()["segments"]
    return {row["name"]: row["start"] for row in rows}


START = Start(((1, ("blue", "green")), (2, ("orange",)), (3, ("yellow", "white"))))
TRACED = [START, LegBet("blue"), OverallBet("winner", "green"), PlaceTile(5, "oasis")]
TRACED += [ROLL, Die("blue", 2)]
"""Three players: seat 0 takes blue's 5, seat 1 bets green to win (hidden), seat 2 puts an
oasis on space 5, seat 0 rolls blue 2: blue and green ride onto yellow and white on space 3."""


def test_a_traced_game_reads_as_the_table_shows() -> None:
    game = CamelUpGame(players=3)
    encoding = CamelUpEncoding(game)
    (zero, one, two), _ = _views(game, TRACED)
    obs = encoding.observe(zero)
    at = _at(encoding)
    assert obs[at["seat"] : at["seat"] + 3].tolist() == [1, 0, 0]
    assert obs[at["to move"] : at["to move"] + 3].tolist() == [0, 1, 0]  # seat 1, next after 0
    assert obs[at["phase"] : at["phase"] + 3].tolist() == [0, 1, 0]
    assert obs[at["leg"]] == pytest.approx(1 / 11)  # leg 1 as 1 / (1 + 10)
    assert obs[at["turns"]] == pytest.approx(4 / 500)
    spaces = obs[at["camel spaces"] : at["camel stacks"]].reshape(5, 16)
    assert [int(np.flatnonzero(row)[0]) for row in spaces] == [2, 2, 1, 2, 2]
    stacks = obs[at["camel stacks"] : at["racing rank"]].reshape(5, 2)
    # space 3 bottom to top: yellow, white, blue, green
    assert stacks.tolist() == [[0.5, 0.25], [0.75, 0], [0, 0], [0, 0.75], [0.25, 0.5]]
    assert obs[at["racing rank"] : at["dice"]].tolist() == [0.75, 1, 0, 0.25, 0.5]
    assert obs[at["dice"] : at["leg tickets"]].tolist() == [0, 1, 1, 1, 1]
    assert obs[at["leg tickets"] : at["tiles"]].tolist() == pytest.approx([0.6, 1, 1, 1, 1])
    tiles = obs[at["tiles"] : at["money"]].reshape(3, 16)
    assert np.flatnonzero(tiles[0]).tolist() == [4] and not tiles[1:].any()  # seat 2's oasis
    assert encoding.observe(two)[at["tiles"] + 32 + 4] == 1  # its owner sees it as its own
    assert obs[at["money"] : at["leg bets"]].tolist() == pytest.approx([3 / 53] * 3)
    bets = obs[at["leg bets"] : at["pyramid tickets"]].reshape(3, 5)
    assert bets[0].tolist() == pytest.approx([5 / 12, 0, 0, 0, 0]) and not bets[1:].any()
    assert obs[at["pyramid tickets"] : at["overall cards"]].tolist() == pytest.approx([0.2, 0, 0])
    placed = obs[at["overall cards"] : at["own cards"]]  # winner pile, then loser pile
    assert placed.tolist() == pytest.approx([0, 0.2, 0, 0, 0, 0])
    assert not obs[at["own cards"] : at["card hints"]].any()
    hints = obs[at["card hints"] :]  # winner pile, then loser pile: white led then
    assert hints.tolist() == pytest.approx([0, 0, 0, 0, 1 / 10] + [0] * 5)  # of 2 x 5 cards
    mine = encoding.observe(one)
    assert mine[at["own cards"] : at["card hints"]].tolist() == [0, 1] + [0] * 8
    assert not mine[at["card hints"] :].any()  # its own card is no hint to itself
    assert mine[at["to move"] : at["to move"] + 3].tolist() == [1, 0, 0]
    assert mine[at["pyramid tickets"] : at["overall cards"]].tolist() == pytest.approx([0, 0, 0.2])


def test_card_hints_reach_1_when_every_other_card_goes_down_behind_one_leader() -> None:
    """Two players: seat 1 puts its five cards on the winner pile, hidden, while white leads
    (seat 0 takes leg tickets in between, moving no camel): the most the hints can count."""
    game = CamelUpGame(players=2)
    encoding = CamelUpEncoding(game)
    camels = ("blue", "green", "orange", "yellow", "white")
    actions: list[Any] = [START]
    for turn, camel in enumerate(camels):
        actions += [LegBet(camels[turn // 3]), OverallBet("winner", camel)]
    (zero, _), _ = _views(game, actions)
    obs = encoding.observe(zero)
    low, high = encoding.bounds()
    hints = obs[_at(encoding)["card hints"] :]
    assert hints.tolist() == [0, 0, 0, 0, 1] + [0] * 5
    assert ((low <= obs) & (obs <= high)).all()


def test_unbounded_counts_are_squashed_below_1() -> None:
    """Money and the leg number have no bound in the rules: they are read as x / (|x| + s),
    increasing and strictly inside the segment's bounds, which go below 0 for money only when
    the money floor is off."""
    values = [squashed(count, 50) for count in range(-10_000, 10_001, 7)]
    assert all(-1 < v < 1 for v in values) and values == sorted(set(values))
    assert squashed(50, 50) == 0.5 and squashed(0, 50) == 0
    for floor, low in ((True, 0.0), (False, -1.0)):
        encoding = CamelUpEncoding(CamelUpGame(players=3, money_floor=floor))
        money = {s.name: s for s in encoding.segments}["money"]
        assert (money.low, money.high) == (low, 1.0)


def test_the_odds_are_the_games_own() -> None:
    game = CamelUpGame(players=3)
    encoding = CamelUpEncoding(game)
    (zero, _, _), _ = _views(game, TRACED)
    state = game.new_initial_state()
    for action in TRACED:
        state.apply(action)
    assert state.order is not None
    odds = game_odds(state.order, state.dice, state.tiles, 1)
    tail = encoding.observe(zero, belief=True)[encoding.size() :]
    expected = [*odds.leg.first, *odds.leg.second, odds.leg.game_end, *odds.win, *odds.last]
    assert tail.tolist() == pytest.approx(expected, abs=1e-6)
    assert sum(odds.leg.first) == pytest.approx(1) and 0 < odds.leg.first[1] < 1


def test_the_odds_are_the_result_once_the_race_is_over() -> None:
    game = CamelUpGame(players=2)
    encoding = CamelUpEncoding(game)
    episode = Episode(encoding, 3, belief=True)
    rng = random.Random(3)
    while not episode.over:
        episode.step(rng.choice(episode.builder.legal_ids()))
    state = episode.state
    assert state.order is not None
    tail = episode.observe(0)[encoding.size() :]
    ranking = [code & 7 for code in state.order if code & 7 < 5]
    one_hot = np.eye(5)
    expected = [*one_hot[ranking[-1]], *one_hot[ranking[-2]], 1, *one_hot[ranking[-1]]]
    assert tail.tolist() == [*expected, *one_hot[ranking[0]]]


def test_every_id_has_a_text_that_parses_back_to_its_action() -> None:
    for options in ({}, {"edition": 2, "players": 5}):
        game = CamelUpGame(**options)
        encoding = CamelUpEncoding(game)
        actions = [game.parse_action(encoding.id_text(i)) for i in range(ACTIONS)]
        assert [encoding.action_id(a) for a in actions] == list(range(ACTIONS))
    assert encoding.id_text(0) == "roll" and encoding.id_text(LOSER + 4) == "loser purple"
    assert encoding.id_text(LEG + 2) == "leg red" and encoding.id_text(WINNER) == "winner blue"
    assert encoding.id_text(TILE + 2) == "tile 2 oasis" and encoding.id_text(35) == "tile 16 mirage"
    with pytest.raises(ValueError, match="46 is not a Camel Up action id"):
        encoding.id_text(ACTIONS)


@pytest.mark.parametrize("options", [{"players": 4}, {"edition": 2, "players": 4}])
def test_every_action_of_bots_games_is_one_legal_id(options: dict[str, Any]) -> None:
    game = CamelUpGame(**options)
    encoding = CamelUpEncoding(game)
    spec = game_spec("camel-up")
    record = run_match(game, [spec.bot("random")] * 4, 5, time_limit=None)
    state = game.new_initial_state()
    played = 0
    for step in record.steps:
        if step.seat != CHANCE:
            builder = encoding.builder(state)
            action_id = encoding.action_id(step.action)
            assert action_id in builder.legal_ids()
            assert builder.push(action_id) == step.action
            played += 1
        state.apply(step.action)
    assert played > 50


def test_a_refused_id_changes_nothing() -> None:
    game = CamelUpGame(players=3)
    state = game.new_initial_state()
    for action in TRACED:
        state.apply(action)
    builder = CamelUpEncoding(game).builder(state)
    legal = builder.legal_ids()
    with pytest.raises(IllegalActionError):
        builder.push(4 + 2 * 2)  # tile 3 oasis: camels are on space 3
    assert builder.legal_ids() == legal and builder.prefix == []


def _random_views(
    seed: int, steps: int, belief: bool = False, **options: Any
) -> tuple[CamelUpGame, Episode]:
    game = CamelUpGame(**{"players": 4, **options})
    episode = Episode(CamelUpEncoding(game), seed, belief)
    rng = random.Random(seed)
    for _ in range(steps):
        episode.step(rng.choice(episode.builder.legal_ids()))
    return game, episode


def test_cached_observations_equal_fresh_ones_as_views_grow() -> None:
    game, episode = _random_views(7, 0)
    rng = random.Random(7)
    while not episode.over:
        for seat in range(4):
            view = episode.views[seat]
            fresh = View(seat, "player", view.game_info, tuple(view.events))
            cached = episode.encoding.observe(view)
            assert cached.tobytes() == CamelUpEncoding(game).observe(fresh).tobytes()
        for _ in range(rng.randrange(1, 8)):
            if not episode.over:
                episode.step(rng.choice(episode.builder.legal_ids()))


def test_a_view_whose_events_are_replaced_is_read_afresh() -> None:
    game, episode = _random_views(8, 60)
    _, other = _random_views(9, 80)  # more events than the first view: not a shorter list
    encoding = episode.encoding
    events = list(episode.views[1].events)
    view = View(1, "player", game.public_info(), events)
    encoding.observe(view)
    events[:] = other.views[1].events  # an undo, then another game: same list, same length
    assert encoding.observe(view).tobytes() == other.observe(1).tobytes()
    del events[10:]
    short = View(1, "player", game.public_info(), tuple(events))
    assert encoding.observe(view).tobytes() == CamelUpEncoding(game).observe(short).tobytes()


def test_an_encoding_in_use_pickles_and_observes_alike() -> None:
    _, episode = _random_views(12, 40)
    encoding = episode.encoding
    before = encoding.observe(episode.views[2])
    again = pickle.loads(pickle.dumps(encoding))
    assert again.observe(episode.views[2]).tobytes() == before.tobytes()


def test_an_impossible_view_is_refused_naming_the_event() -> None:
    game = CamelUpGame(players=3)
    _, events = _views(game, TRACED)
    bad = [*events[:2], Event("leg_bet", {"seat": 1, "camel": "pink", "value": 3}), *events[2:]]
    view = View(0, "player", game.public_info(), [e.seen_by(0) for e in bad])
    with pytest.raises(ContradictionError, match=r"^event 3 \(leg_bet\).*pink"):
        CamelUpEncoding(game).observe(view)


@pytest.mark.parametrize(
    ("belief", "options"), [(False, {}), (True, {}), (True, {"edition": 2, "players": 5})]
)
def test_the_sampler_varies_the_hidden_cards_and_keeps_the_view(
    belief: bool, options: dict[str, Any]
) -> None:
    """The check kit's worlds come early in a game, before many cards are down: here many
    worlds differ in several hidden cards, and the seat's observation is the same in each."""
    game, episode = _random_views(11, 150, belief, **options)
    seat = episode.seat
    assert seat is not None
    view = episode.views[seat]
    hidden = [e for e in view.events if e.kind == "overall_bet" and e.private is None]
    assert len(hidden) >= 2
    sampler = CamelUpSampler(game, view)
    rng = random.Random(0)
    drawn = set()
    for _ in range(30):
        history = sampler.sample_history(rng)
        _, events = replay_history(game, history)
        assert view_matches(events, view)
        drawn.add(tuple(a for a in history if isinstance(a, OverallBet)))
        world = View(seat, "player", view.game_info, tuple(e.seen_by(seat) for e in events))
        observation = episode.encoding.observe(world, belief=belief)
        assert observation.tobytes() == episode.observe(seat).tobytes()
    assert len(drawn) > 5
    seats = [int(e.public["seat"]) for e in view.events if e.kind == "overall_bet"]
    for bets in drawn:  # a player has one card per camel
        for bettor in set(seats):
            camels = [bet.camel for bet, s in zip(bets, seats, strict=True) if s == bettor]
            assert len(camels) == len(set(camels))


def test_the_sampler_of_a_finished_game_replays_its_one_world() -> None:
    game, episode = _random_views(13, 0)
    rng = random.Random(13)
    while not episode.over:
        episode.step(rng.choice(episode.builder.legal_ids()))
    view = episode.views[0]
    assert any(e.kind == "overall_scored" for e in view.events)
    history = CamelUpSampler(game, view).sample_history(rng)
    assert history == [action for _, action in episode.actions]


def test_the_seats_share_one_replay_of_the_events(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every seat observing after every id, the engine replays each action once for all the
    seats of a 4-player game (it replayed it once per seat), and the observations are those
    of fresh encodings of frozen copies of the views."""
    game, episode = _random_views(5, 0)
    replayed = []
    apply = CamelState.apply

    def counted(state: CamelState, action: Any) -> Any:
        replayed.append(action)
        return apply(state, action)

    rng = random.Random(5)
    while not episode.over:
        monkeypatch.setattr(CamelState, "apply", counted)
        observed = [episode.observe(seat) for seat in range(4)]
        monkeypatch.setattr(CamelState, "apply", apply)
        for seat, view in enumerate(episode.views):
            fresh = View(seat, "player", view.game_info, tuple(view.events))
            assert observed[seat].tobytes() == CamelUpEncoding(game).observe(fresh).tobytes()
        episode.step(rng.choice(episode.builder.legal_ids()))
    played = [action for _, action in episode.actions]
    assert len(played) > 50
    assert len(replayed) <= len(played)


def test_a_seat_s_second_card_on_one_camel_is_refused_naming_the_event() -> None:
    """The seats share the public replay, which hides every card: the seat's own cards are
    still checked (one card per camel)."""
    game = CamelUpGame(players=3)
    _, events = _views(game, [*TRACED[:4], LegBet("yellow")])
    public = {"seat": 1, "pile": "loser", "position": 1}
    again = Event("overall_bet", public, {"camel": "green"}, frozenset((1,)))
    view = View(1, "player", game.public_info(), [e.seen_by(1) for e in [*events, again]])
    number = len(events) + 1
    with pytest.raises(ContradictionError, match=rf"^event {number} \(overall_bet\)"):
        CamelUpEncoding(game).observe(view)
