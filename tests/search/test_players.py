"""The search players: known answers, seeds, budgets, tree reuse, teams and options."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest

from sleuth.core.errors import OptionError, SolverLimitError
from sleuth.core.events import Event, View
from sleuth.core.game import Game, State
from sleuth.core.options import OptionSpec, parse_float
from sleuth.core.registry import game_spec, make_game
from sleuth.games.fox.catalogue import SEARCH_ITERATION_COST as FOX_COST
from sleuth.games.fox.search import FoxSearchModel
from sleuth.games.fugitive.catalogue import SEARCH_ITERATION_COST as FUGITIVE_COST
from sleuth.games.fugitive.search import BELIEF_OVERHEAD
from sleuth.search import players, tree
from sleuth.search.players import (
    SEARCH_MARGIN,
    DeterminizedPlayer,
    ISMCTSPlayer,
    SearchError,
    search_bots,
)
from sleuth.search.rewards import Rewards
from sleuth.search.tree import SearchSettings, TreeSearch
from tests.core.toy import HighCard
from tests.search.toys import HighCardModel, Nim, NimModel


def _view(game: Game[Any], events: list[Event], seat: int) -> View:
    return View(seat, game.roles[seat], game.public_info(), [e.seen_by(seat) for e in events])


def _after(game: Game[Any], actions: list[Any]) -> tuple[State[Any], list[Event]]:
    state = game.new_initial_state()
    events: list[Event] = []
    for action in actions:
        events += state.apply(action)
    return state, events


def _decide(
    player: type, game: Game[Any], model: Any, actions: list[Any], seed: int = 0, **settings: Any
) -> Any:
    state, events = _after(game, actions)
    seat = state.current_player()
    bot = player(game, seat, seed, model, SearchSettings(**settings))
    return bot.act(_view(game, events, seat), state.legal_actions())


@pytest.mark.parametrize("player", [ISMCTSPlayer, DeterminizedPlayer])
@pytest.mark.parametrize(("heap", "winning"), [(5, 1), (6, 2), (7, 3), (9, 1), (11, 3)])
def test_nim_winning_move(player: type, heap: int, winning: int) -> None:
    for seed in range(3):
        assert _decide(player, Nim(heap), NimModel(), [], seed, iterations=3000) == winning


def test_highcard_second_seat_calls_a_call_with_the_top_card_and_folds_the_bottom() -> None:
    # Seat 1 holds 4 (beats or ties anything: call) or 1 (loses to every call but a tie: with
    # seat 0's call uniform over cards the expected win share is 1/8 against 0 for folding).
    game = HighCard(4)
    for card, answer in ((4, "call"), (1, "call")):
        move = _decide(
            ISMCTSPlayer, game, HighCardModel(), ["deal 2", f"deal {card}", "call"], iterations=500
        )
        assert move == answer
    assert (
        _decide(ISMCTSPlayer, game, HighCardModel(), ["deal 4", "deal 1"], iterations=500) == "call"
    )


def test_fox_middle_first_on_a_three_hole_path() -> None:
    # P3 over two days: inspecting the middle hole first catches any fox (it is there now, or in
    # an end hole and must step into the middle); an end hole first does not.
    game = make_game("fox", {"graph": "path:3", "days": "2"})
    for seed in range(4):
        move = _decide(
            ISMCTSPlayer,
            game,
            FoxSearchModel(),
            [game.parse_action("hole 0")],
            seed,
            iterations=2000,
        )
        assert str(move) == "inspect 1"


def test_same_seed_same_decision_and_seeds_matter() -> None:
    game = make_game("fox", {"graph": "cycle:6", "days": "8"})
    start = [game.parse_action("hole 2")]
    first = [
        _decide(ISMCTSPlayer, game, FoxSearchModel(), start, s, iterations=60) for s in range(8)
    ]
    again = [
        _decide(ISMCTSPlayer, game, FoxSearchModel(), start, s, iterations=60) for s in range(8)
    ]
    assert first == again
    assert len(set(first)) > 1  # on a symmetric board, different seeds break ties differently


def test_time_budget_runs_at_least_one_simulation() -> None:
    game = make_game("fox", {"graph": "path:5"})
    state, events = _after(game, [game.parse_action("hole 1")])
    bot = ISMCTSPlayer(game, 0, 1, FoxSearchModel(), SearchSettings(seconds=0.05))
    assert bot.act(_view(game, events, 0), state.legal_actions()) in state.legal_actions()
    assert bot.search.iterations >= 1


def test_tree_is_reused_when_the_game_reaches_a_searched_information_set() -> None:
    game = make_game("fox", {"graph": "path:5", "days": "6"})
    for reuse in (True, False):
        state, events = _after(game, [game.parse_action("hide")])
        bot = ISMCTSPlayer(
            game, 0, 3, FoxSearchModel(), SearchSettings(iterations=400, reuse=reuse)
        )
        for _ in range(3):
            move = bot.act(_view(game, events, 0), state.legal_actions())
            events += state.apply(move)
            assert not state.is_terminal()
            events += state.apply(game.parse_action("hide"))  # keeps every hole open
        assert bot.reused == (2 if reuse else 0)


def test_coalition_reduction_reaches_the_tree() -> None:
    # Three-seat Nim, seats 0 and 2 against seat 1.  From 5 objects seat 0 takes 1: seat 1 must
    # leave 1 to 3, and seat 2 takes them all.  The team always wins, but seat 0 only through its
    # teammate, so that move is worth 1 to it without a coalition reduction and 1 - r with one.
    game = Nim(5, 3, teams=True)
    state, events = _after(game, [])
    for r in (0.0, 0.4):
        settings = SearchSettings(iterations=3000, coalition_reduction=r)
        bot = ISMCTSPlayer(game, 0, 0, NimModel(), settings)
        assert bot.act(_view(game, events, 0), state.legal_actions()) == 1
        assert bot.root is not None
        edge = bot.root.edges[1]
        assert edge.reward / edge.visits == pytest.approx(1.0 - r, abs=0.05)


def test_rewards_of_teams() -> None:
    # seats 0 and 2 are side "a", a team; seat 1 is side "b", alone
    rewards = Rewards(((0, 2), (1,)), ("a", "b", "a"), coalition_reduction=0.25)
    assert rewards((1.0, 0.0, 1.0), credited=2) == [0.75, 0.0, 1.0]
    assert rewards((0.0, 1.0, 0.0), credited=1) == [0.0, 1.0, 0.0]
    assert rewards((1.0, 0.0, 1.0)) == [1.0, 0.0, 1.0]
    assert rewards((0.5, 0.5, 0.5)) == [0.5, 0.5, 0.5]  # a tie: the side's share, not 1
    # two sides of two seats each that tie share one win: 1/2 each, not a capped 1
    pairs = Rewards(((0, 2), (1, 3)), ("a", "b", "a", "b"))
    assert pairs((0.5, 0.5, 0.5, 0.5)) == [0.5, 0.5, 0.5, 0.5]
    assert pairs((0.0, 1.0, 0.0, 1.0), credited=3) == [0.0, 1.0, 0.0, 1.0]
    # a team of two one-seat sides gets both sides' shares
    allies = Rewards(((0, 1), (2,)), ("x", "y", "z"))
    assert allies((0.5, 0.5, 0.0)) == [1.0, 1.0, 0.0]
    assert allies((1 / 3, 1 / 3, 1 / 3)) == pytest.approx([2 / 3, 2 / 3, 1 / 3])
    assert Rewards(((0,), (1,)), ("p", "q"))((0.5, 0.5), credited=0) == [0.5, 0.5]
    with pytest.raises(ValueError, match="every seat exactly once"):
        Rewards(((0, 1), (1,)), ("p", "q"))
    with pytest.raises(ValueError, match="between 0 and 1"):
        Rewards(((0,),), ("p",), coalition_reduction=1.5)
    with pytest.raises(ValueError, match="side of each of 2 seats"):
        Rewards(((0,), (1,)), ("p",))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ismcts:iterations=0", "option iterations='0' of bot 'ismcts' of fox: must be at least 1"),
        ("ismcts:bogus=1", "unknown option 'bogus' for bot 'ismcts' of fox"),
        ("ismcts:policy=greedy", "expected one of random, heuristic"),
        ("ismcts:c", "is not of the form name=value"),
        ("dmcts:reuse=false", "unknown option 'reuse' for bot 'dmcts'"),
        (
            "solver:iterations=5",
            "unknown option 'iterations' for bot 'solver' of fox; known options: none",
        ),
    ],
)
def test_bad_bot_options(name: str, message: str) -> None:
    with pytest.raises(OptionError, match=message.replace("(", r"\(").replace(")", r"\)")):
        game_spec("fox").bot(name)


def test_configured_bot_name_and_settings() -> None:
    spec = game_spec("fox").bot("ismcts:iterations=20:c=0.3:policy=heuristic:depth=4")
    assert spec.name == "ismcts:iterations=20:c=0.3:policy=heuristic:depth=4"
    bot = spec.make(make_game("fox", {}), 0, 5)
    assert isinstance(bot, ISMCTSPlayer)
    assert bot.settings == SearchSettings(
        iterations=20, seconds=0.0, exploration=0.3, policy="heuristic", depth=4
    )
    plain = game_spec("fox").bot("dmcts").make(make_game("fox", {}), 1, 5)
    assert isinstance(plain, DeterminizedPlayer)
    assert plain.settings == SearchSettings()  # no time stop: the same moves at any load


class _Clock:
    """Stands in for the ``time`` module of the search: ``perf_counter`` moves ``tick``
    seconds per reading, and :meth:`wait` moves it as a slow step would (no real waiting)."""

    def __init__(self, tick: float) -> None:
        self.now = 0.0
        self.tick = tick

    def perf_counter(self) -> float:
        self.now += self.tick
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    """The search's clock, 1 ms per reading."""
    fake = _Clock(0.001)
    monkeypatch.setattr(players, "time", fake)
    monkeypatch.setattr(tree, "time", fake)
    return fake


def test_the_search_stops_at_whichever_of_iterations_and_seconds_comes_first(
    clock: _Clock,
) -> None:
    game = make_game("fox", {"graph": "path:5"})
    state, events = _after(game, [game.parse_action("hide")])
    timed = ISMCTSPlayer(
        game, 0, 1, FoxSearchModel(), SearchSettings(iterations=10**9, seconds=0.1)
    )
    timed.act(_view(game, events, 0), state.legal_actions())
    assert 90 <= timed.search.iterations <= 100  # a reading per iteration, 1 ms each
    counted = ISMCTSPlayer(game, 0, 1, FoxSearchModel(), SearchSettings(iterations=9, seconds=60))
    counted.act(_view(game, events, 0), state.legal_actions())
    assert counted.search.iterations == 9


def test_search_bots_declare_their_iterations_work_or_time_stop_plus_a_margin() -> None:
    spec = game_spec("fox")
    assert spec.bot("ismcts").budget() == pytest.approx(1000 * FOX_COST + SEARCH_MARGIN)
    assert spec.bot("dmcts:iterations=3000").budget() == pytest.approx(
        3000 * FOX_COST + SEARCH_MARGIN
    )
    assert spec.bot("ismcts:iterations=100000:seconds=4").budget() == 4 + SEARCH_MARGIN
    assert spec.bot("ismcts:seconds=4").budget() == pytest.approx(1000 * FOX_COST + SEARCH_MARGIN)
    fugitive = game_spec("fugitive")  # counting the Marshal's worlds is the model's overhead
    assert fugitive.bot("ismcts").budget() == pytest.approx(
        300 * FUGITIVE_COST + BELIEF_OVERHEAD + SEARCH_MARGIN
    )


@pytest.mark.parametrize("game", ["fox", "fugitive", "scotland-yard"])
def test_search_bots_stop_on_work_by_default(game: str) -> None:
    """No time stop by default: a move's search is its iterations, whatever the load."""
    for name in ("ismcts", "dmcts"):
        bot = game_spec(game).bot(name).make(make_game(game, {}), 0, 5)
        assert isinstance(bot, players.SearchPlayer)
        assert bot.settings.seconds == 0


class _SlowSampling(NimModel):
    """Building the sampler takes 0.3 s of the fake clock (like counting a hard position's
    worlds)."""

    def __init__(self, clock: _Clock) -> None:
        self.clock = clock

    def sampler(self, game: Game[int], view: View) -> Any:
        self.clock.wait(0.3)
        return super().sampler(game, view)


@pytest.mark.parametrize("player", [ISMCTSPlayer, DeterminizedPlayer])
def test_the_time_budget_counts_the_sampling_too(player: type, clock: _Clock) -> None:
    game = Nim(30)
    settings = SearchSettings(iterations=10**9, seconds=0.3)
    bot = player(game, 0, 0, _SlowSampling(clock), settings)
    bot.act(_view(game, [], 0), game.new_initial_state().legal_actions())
    # The sampling used the whole budget: one simulation per searched world, not 0.3 s more
    # of search (300 simulations at 1 ms a reading).
    worlds = bot.worlds if isinstance(bot, DeterminizedPlayer) else 1
    assert bot.search.iterations == worlds


def test_heuristic_policy_and_depth_limit_play_legal_games() -> None:
    game = make_game("fox", {"graph": "grid:2x3", "k": "2", "days": "6"})
    rng = random.Random(0)
    for settings in (
        SearchSettings(iterations=50, policy="heuristic", epsilon=0.2),
        SearchSettings(iterations=50, depth=3),
    ):
        for seat in (0, 1):
            state = game.new_initial_state()
            events: list[Event] = []
            bot = ISMCTSPlayer(game, seat, 1, FoxSearchModel(), settings)
            while not state.is_terminal():
                if state.current_player() == seat:
                    move = bot.act(_view(game, events, seat), state.legal_actions())
                else:
                    move = rng.choice(state.legal_actions())
                assert state.is_legal(move)
                events += state.apply(move)


def test_bot_names_are_canonical_and_options_given_once() -> None:
    assert game_spec("fox").bot("ismcts:c=.50:reuse=NO").name == "ismcts:c=0.5:reuse=false"
    with pytest.raises(OptionError, match="given twice"):
        game_spec("fox").bot("ismcts:c=1:c=2")
    for bad in ("ismcts:c=inf", "ismcts:seconds=nan", "ismcts:seconds=1e999"):
        with pytest.raises(OptionError, match="finite"):
            game_spec("fox").bot(bad)
    with pytest.raises(ValueError, match="finite"):
        SearchSettings(exploration=float("inf"))


def test_determinized_player_never_spends_more_than_its_budget() -> None:
    game = make_game("fox", {"graph": "path:5"})
    state, events = _after(game, [game.parse_action("hide")])
    bot = DeterminizedPlayer(game, 0, 1, FoxSearchModel(), SearchSettings(iterations=7, worlds=50))
    assert bot.act(_view(game, events, 0), state.legal_actions()) in state.legal_actions()
    assert bot.worlds == 7 and bot.search.iterations == 7


def test_a_forced_move_is_played_without_searching() -> None:
    game = make_game("fox", {"graph": "path:2", "days": "3"})
    state, events = _after(game, [game.parse_action("hide")])
    bot = ISMCTSPlayer(game, 0, 1, FoxSearchModel(), SearchSettings(iterations=50))
    only = state.legal_actions()[:1]
    assert bot.act(_view(game, events, 0), only) == only[0]
    assert bot.search.iterations == 0


def test_decisions_do_not_depend_on_the_hash_seed(tmp_path: Any) -> None:
    script = (
        "from sleuth.core.match import run_match\n"
        "from sleuth.core.registry import game_spec, make_game\n"
        "game = make_game('fox', {'graph': 'grid:2x3', 'k': '2'})\n"
        "spec = game_spec('fox')\n"
        "bots = [spec.bot('ismcts:iterations=150:seconds=0'),"
        " spec.bot('dmcts:iterations=150:worlds=3:seconds=0')]\n"
        "record = run_match(game, bots, seed=11, time_limit=30)\n"
        "print([str(s.action) for s in record.steps])\n"
    )
    outputs = set()
    for hash_seed in ("0", "1", "4242"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=True,
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1


class _OffClassRollout(NimModel):
    """A rollout policy that proposes a move outside the single class the tree expands."""

    def rollout_action(self, state: State[int], rng: random.Random) -> int:
        return 3


@pytest.mark.parametrize(("members", "played"), [([1, 2], {1, 2}), ([3, 2], {3})])
def test_a_single_class_edge_plays_a_move_of_its_class(
    members: list[int], played: set[int]
) -> None:
    """With one move class, the rollout's move is kept only if it belongs to the class; an
    edge is never credited with a move it does not stand for."""
    game = Nim(heap=5)
    search = TreeSearch(
        game, _OffClassRollout(), frozenset({0}), SearchSettings(), random.Random(1)
    )
    state = game.new_initial_state()
    moves = {search._move(state, "all", {"all": members}) for _ in range(20)}
    assert moves == played


class _TooManyWorlds(NimModel):
    """Nim whose sampler cannot sample (as a belief over budget), with or without a move for
    that case."""

    def __init__(self, move: int | None) -> None:
        self.move = move

    def sampler(self, game: Game[int], view: View) -> Any:
        raise SolverLimitError("too many worlds")

    def unsampled_action(
        self, game: Game[int], view: View, legal: Sequence[int], rng: random.Random
    ) -> int | None:
        return self.move


@pytest.mark.parametrize("player", [ISMCTSPlayer, DeterminizedPlayer])
def test_a_seat_that_cannot_sample_plays_the_models_move_or_raises(player: type) -> None:
    assert _decide(player, Nim(7), _TooManyWorlds(2), [], iterations=10) == 2
    with pytest.raises(SolverLimitError):
        _decide(player, Nim(7), _TooManyWorlds(None), [], iterations=10)


class _OnlyOnes(NimModel):
    """Candidates that always take 1, and optionally a root move the candidates leave out."""

    def __init__(self, root: tuple[int, ...]) -> None:
        self.root = root

    def candidate_moves(self, state: State[int]) -> Sequence[int]:
        return (1,)

    def root_moves(self, game: Game[int], view: View, legal: Sequence[int]) -> Sequence[int]:
        return self.root


@pytest.mark.parametrize("player", [ISMCTSPlayer, DeterminizedPlayer])
def test_root_moves_are_tried_besides_the_candidates(player: type) -> None:
    # Heap 6: taking 2 wins (leaves a multiple of 4); the candidates alone never take 2.
    assert _decide(player, Nim(6), _OnlyOnes(()), [], iterations=500) == 1
    assert _decide(player, Nim(6), _OnlyOnes((2,)), [], iterations=500) == 2
    assert _decide(player, Nim(6), _OnlyOnes((2, 2, 1)), [], iterations=500) == 2


@pytest.mark.parametrize("player", [ISMCTSPlayer, DeterminizedPlayer])
def test_an_illegal_root_move_is_a_search_error(player: type) -> None:
    with pytest.raises(SearchError, match="nim search model proposed an illegal move 5"):
        _decide(player, Nim(6), _OnlyOnes((5,)), [], iterations=50)


def test_each_root_move_is_one_edge_and_a_kept_root_takes_the_new_ones() -> None:
    game = Nim(9)
    bot = ISMCTSPlayer(game, 0, 0, _OnlyOnes((2, 2)), SearchSettings(iterations=200, reuse=True))
    state, events = _after(game, [])
    bot.act(_view(game, events, 0), state.legal_actions())
    assert bot.root is not None and bot.root.extra == (2,)
    edge = bot.root.edges[2]
    assert edge.avail <= 200  # listed once per visit, not once per copy
    state, events = _after(game, [1, 1])  # ours, then the opponent's (seen in the tree)
    bot.model = _OnlyOnes((3,))
    bot.act(_view(game, events, 0), state.legal_actions())
    assert bot.reused == 1 and bot.root.extra == (3,) and 3 in bot.root.edges


def test_search_model_options_may_not_shadow_the_common_ones() -> None:
    class Clashing(NimModel):
        options = (OptionSpec("c", 1.0, "clashes", parse_float(0.0)),)

    with pytest.raises(ValueError, match=r"\['c'\] clash"):
        search_bots(Clashing(), ("player0", "player1"))


def test_a_game_may_set_its_own_defaults_of_common_options() -> None:
    ismcts, dmcts = search_bots(NimModel(), ("player0", "player1"), {"policy": "heuristic"})
    for spec in (ismcts, dmcts):
        defaults = {o.name: o.default for o in spec.options}
        assert defaults["policy"] == "heuristic" and defaults["c"] == 0.7
        bot = spec.make(Nim(3), 0, 0)
        assert isinstance(bot, players.SearchPlayer) and bot.settings.policy == "heuristic"
    plain = {o.name: o.default for o in search_bots(NimModel(), ("player0", "player1"))[0].options}
    assert plain["policy"] == "random"
    with pytest.raises(ValueError, match=r"\['colour'\]: not common"):
        search_bots(NimModel(), ("player0", "player1"), {"colour": "red"})
    with pytest.raises(ValueError):
        search_bots(NimModel(), ("player0", "player1"), {"policy": "greedy"})
