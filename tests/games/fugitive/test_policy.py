"""The parameterised Fugitive (``policy``) and the robust Fugitive (``robust``, issue 38): whole
games are legal and repeat with the seed, each parameter shapes the placements as stated, and
the robust Fugitive draws one member of its family a game by its seed, as often as its
weight."""

from __future__ import annotations

from collections import Counter

import pytest

from sleuth.core.errors import OptionError
from sleuth.core.match import run_match
from sleuth.core.rng import derive_seed
from sleuth.games.fugitive import SPEC
from sleuth.games.fugitive.engine.actions import Place
from sleuth.games.fugitive.engine.cards import LAST, SPRINT
from sleuth.games.fugitive.players import robust as robust_module
from sleuth.games.fugitive.players.decoy import DecoyFugitive
from sleuth.games.fugitive.players.policy import PolicyFugitive, padded
from sleuth.games.fugitive.players.robust import RobustFugitive, member
from sleuth.games.fugitive.rules import FUGITIVE, FugitiveGame

FAMILY = (
    "policy",
    "policy:slack=1.5:bluff=0.3",
    "policy:stride=2:draw=low",
    "policy:sprints=0:draw=high",
    "policy:slack=3:sprints=1:draw=random",
)


def placements(spec: str, seed: int, edition: str = "first") -> list[tuple[int, Place]]:
    """Each placement of a game of ``spec`` against the candidates Marshal, after its last
    hideout; no forfeit (the match runner checks every move against the rules)."""
    game = FugitiveGame(edition=edition, max_rounds=50)
    record = run_match(game, [SPEC.bot(spec), SPEC.bot("candidates")], seed, time_limit=None)
    assert not record.forfeits, record.forfeits
    out, last = [], 0
    for step in record.steps:
        if step.seat == FUGITIVE and isinstance(step.action, Place):
            out.append((last, step.action))
            last = step.action.hideout
    return out


@pytest.mark.parametrize("edition", ["first", "second"])
@pytest.mark.parametrize("spec", FAMILY)
def test_whole_games_are_legal_and_repeat_with_the_seed(spec: str, edition: str) -> None:
    for seed in range(4):
        assert placements(spec, seed, edition) == placements(spec, seed, edition)
    assert placements(spec, 0, edition) != placements(spec, 1, edition)


def test_the_parameters_shape_the_placements() -> None:
    for seed in range(6):
        game = placements("policy:sprints=0", seed)
        assert all(not p.sprints for _, p in game[2:] if p.hideout != LAST)  # after the opening

    # slack: the footprints paid beyond each jump after the opening grow with it (the hand
    # may run short of cards, so this is on average)
    def surplus(spec: str) -> float:
        paid = [
            3 + sum(SPRINT[c] for c in p.sprints) - (p.hideout - last)
            for seed in range(6)
            for last, p in placements(spec, seed)[2:]
            if p.hideout != LAST
        ]
        return sum(paid) / len(paid)

    assert surplus("policy:slack=2") >= surplus("policy") + 0.5


def test_padding_covers_the_jump_and_the_slack_as_far_as_the_hand_allows() -> None:
    hand = [4, 5, 6, 9, 12, 13]
    # the jump needs 3 footprints: even dead cards first, as the heuristic Fugitive pays
    assert padded(hand, 3, 9, 0) == Place(9, (4, 6))
    assert padded(hand, 3, 9, 2) == Place(9, (4, 6, 5))  # 5 footprints
    everything = padded(hand, 3, 9, 40)  # more than the hand holds: every card but 9 and 42
    assert sorted(everything.sprints) == [4, 5, 6, 12, 13]
    assert padded(hand, 6, 9, 0) == Place(9, ())  # within 3: nothing to pay


def test_the_stride_keeps_jumps_short() -> None:
    for seed in range(6):
        for last, place in placements("policy:stride=2:sprints=0", seed)[2:]:
            if place.hideout != LAST:
                assert place.hideout - last <= 2 or not place.sprints, (last, place)


def test_bad_options_are_refused_by_name() -> None:
    with pytest.raises(OptionError, match="draw"):
        SPEC.bot("policy:draw=sideways")
    with pytest.raises(OptionError, match="sprints"):
        member("policy:sprints=-2")
    assert member("policy:slack=1") == (PolicyFugitive, {**member("policy")[1], "slack": 1.0})
    assert member("policy")[1]["draw"] == "next"
    assert member("decoy:weight=50")[0] is DecoyFugitive
    with pytest.raises(OptionError, match=r"'heuristic'.*policy or decoy"):
        member("heuristic")


def test_the_robust_fugitive_draws_one_policy_a_game_by_its_seed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    mix = ((0.25, "policy:stride=2"), (0.75, "decoy:draw=low"))
    monkeypatch.setitem(robust_module.MIXES, "first", mix)
    game = FugitiveGame(max_rounds=50)
    chosen = Counter(RobustFugitive(game, FUGITIVE, seed).member for seed in range(800))
    assert set(chosen) == {"policy:stride=2", "decoy:draw=low"}
    assert 150 <= chosen["policy:stride=2"] <= 250, chosen  # about 200
    assert all(RobustFugitive(game, FUGITIVE, s).member == RobustFugitive(game, FUGITIVE, s).member
               for s in range(20))  # fmt: skip
    # it plays the pure policy drawn, move for move
    for seed in range(4):
        record = run_match(game, [SPEC.bot("robust"), SPEC.bot("candidates")], seed, None)
        bot = RobustFugitive(game, FUGITIVE, derive_seed(seed, "bot", FUGITIVE))
        assert bot.member in dict((o, w) for w, o in mix)
        pure_bots = [SPEC.bot(bot.member), SPEC.bot("candidates")]
        pure = run_match(game, pure_bots, seed, None)
        assert [s.action for s in record.steps] == [s.action for s in pure.steps]


@pytest.mark.parametrize("edition", ["first", "second"])
def test_every_edition_has_a_mix_of_valid_policies(edition: str) -> None:
    mix = robust_module.MIXES[edition]
    assert sum(w for w, _ in mix) == pytest.approx(1.0) and all(w > 0 for w, _ in mix)
    for _, spec in mix:
        member(spec)
