"""Hidden information in Cluedo's events (the docs' "Who sees what", E1-E7).

Differential check: two games whose deals differ only in cards a seat cannot see (hands of
the others, the envelope), played with the same actions, look the same to that seat event
by event, public fields included, for as long as the other deal is still consistent with
what the seat saw (the exact deduction of the first game's view admits it).  A public field
that leaked a hidden card would make the views differ while both deals still fit the seat's
knowledge.  And the card shown in a refutation reaches the suggester and the refuter only.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from sleuth.core.events import Event
from sleuth.games.cluedo.actions import Accuse, Action, Show, Suggest
from sleuth.games.cluedo.deal import Deal
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.rules import CluedoGame, CluedoState

ANSWERS = ("passed", "refuted", "unrefuted")


def twin_deal(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """``deal`` with one to three swaps of cards between two owners other than ``seat`` (the
    other seats and the envelope, which swaps only within a category): the same hand for
    ``seat``, the same face-up cards, the same hand sizes."""
    hands = [list(hand) for hand in deal.hands]
    envelope = list(deal.envelope)
    others = [s for s in range(len(hands)) if s != seat]
    for _ in range(rng.randint(1, 3)):
        a = rng.choice(others)
        if rng.random() < 0.3:  # a seat's card of some category for the envelope's one
            i = rng.randrange(len(hands[a]))
            k = kind(hands[a][i])
            hands[a][i], envelope[k] = envelope[k], hands[a][i]
            continue
        b = rng.choice([s for s in others if s != a])
        i, j = rng.randrange(len(hands[a])), rng.randrange(len(hands[b]))
        hands[a][i], hands[b][j] = hands[b][j], hands[a][i]
    suspect, weapon, room = envelope
    return Deal((suspect, weapon, room), tuple(tuple(h) for h in hands), deal.face_up)


def kind(card: int) -> int:
    """The category of a card (C2: suspects 0-5, weapons 6-11, rooms 12-20)."""
    return min(card // 6, 2)


def twin_action(action: Action, second: CluedoState, rng: random.Random) -> Action | None:
    """The second game's action: the same, except a card shown that the second game's
    refuter does not hold, which becomes one it does (the seat watching cannot see it), or
    nothing when no refutation is awaited there (its answers went another way, which the
    watching seat learns from the first game's refutation)."""
    if isinstance(action, Show) and not second.is_legal(action):
        shows = [a for a in second.legal_actions() if isinstance(a, Show)]
        return rng.choice(shows) if shows else None
    assert second.is_legal(action), action
    return action


def play_twins(players: int, seat: int, seed: int) -> tuple[Counter[str], bool]:
    """Play a random game and its twin until the twin's deal no longer fits ``seat``'s view of
    the first (or the game ends); assert that the seat's two views agree on every event before
    the one that rules the twin out.  Returns the kinds of the events compared and whether the
    twin was ruled out."""
    game = CluedoGame(players=players, max_turns=40)
    rng = random.Random(seed)
    first, second = game.new_initial_state(), game.new_initial_state()
    deal = first.sample_chance(rng)
    assert isinstance(deal, Deal)
    twin = twin_deal(deal, seat, rng)
    assert twin != deal
    belief = CluedoBelief(seat)
    views: tuple[list[Event], list[Event]] = ([], [])
    action: Action = deal
    other: Action | None = twin
    reveal: int | None = None
    """The index of the first event of the seat's view that rules the twin deal out."""
    while True:
        if other is not None:
            views[1].extend(e.seen_by(seat) for e in second.apply(other))
        for event in first.apply(action):
            views[0].append(event.seen_by(seat))
            belief.update(views[0][-1])
            if reveal is None and not belief.admits(second):
                reveal = len(views[0]) - 1
        if first.is_terminal() or reveal is not None:
            break
        if first.current_player() < 0:
            action = other = first.sample_chance(rng)
            continue
        legal = list(first.legal_actions())
        suggest = [a for a in legal if isinstance(a, Suggest)]
        calm = [a for a in legal if not isinstance(a, Accuse | Suggest)]
        if rng.random() < 0.02 or not (suggest or calm):
            action = rng.choice(legal)
        else:
            action = rng.choice(suggest or calm)
        other = twin_action(action, second, rng)
    agreed = len(views[0]) if reveal is None else reveal
    assert views[0][:agreed] == views[1][:agreed], (seed, views)
    if reveal is None:
        assert views[0] == views[1] and second.is_terminal()
    return Counter(e.kind for e in views[0][:agreed]), reveal is not None


@pytest.mark.parametrize("players", [3, 4, 6])
def test_twin_deals_look_the_same_to_a_seat_until_its_knowledge_tells_them_apart(
    players: int,
) -> None:
    compared: Counter[str] = Counter()
    outcomes: Counter[bool] = Counter()
    for seed in range(12):
        seen, ruled_out = play_twins(players, seed % players, seed)
        compared += seen
        outcomes[ruled_out] += 1
    # not vacuous: many answers compared, some of them refutations the seat did not see
    assert compared["passed"] >= 20 and compared["refuted"] >= 20, compared
    assert compared["suggested"] >= 20 and compared["moved"] >= 40, compared
    assert outcomes[True] >= 1, outcomes  # the deduction does tell twins apart in the end


def test_a_leak_fails_the_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: an engine whose refutations told everyone the refuter's hand (as a
    count of its cards of each category, say) is caught: the twin still fits the watching
    seat's knowledge while the views differ."""
    show = CluedoState._show

    def leaky(state: CluedoState, card: int) -> list[Event]:
        hand = state.hands[state.refuter or 0]
        leak = tuple(sum(1 for c in range(21) if hand >> c & 1 and kind(c) == k) for k in range(3))
        return [
            Event(e.kind, {**e.public, "kinds": leak}, e.private, e.audience)
            for e in show(state, card)
        ]

    monkeypatch.setattr(CluedoState, "_show", leaky)
    caught = 0
    for seed in range(12):
        try:
            play_twins(4, seed % 4, seed)
        except AssertionError:
            caught += 1
    assert caught >= 3


def refutations(players: int, seed: int) -> list[tuple[int, Event]]:
    """Each ``refuted`` event of a random game with the suggester's seat."""
    game = CluedoGame(players=players, max_turns=60)
    rng = random.Random(seed)
    state = game.new_initial_state()
    out: list[tuple[int, Event]] = []
    while not state.is_terminal():
        if state.current_player() < 0:
            action = state.sample_chance(rng)
        else:
            legal = list(state.legal_actions())
            suggest = [a for a in legal if isinstance(a, Suggest)]
            action = rng.choice(suggest or [a for a in legal if not isinstance(a, Accuse)])
        suggester = state.to_move
        out += [(suggester, e) for e in state.apply(action) if e.kind == "refuted"]
    return out


@pytest.mark.parametrize("players", [3, 5, 6])
def test_the_card_shown_reaches_the_suggester_and_the_refuter_only(players: int) -> None:
    shown = refutations(players, players)
    assert len(shown) >= 10
    for suggester, event in shown:
        refuter = event.public["seat"]
        assert set(event.public) == {"seat"}  # no card among the public fields
        for seat in range(players):
            private = event.seen_by(seat).private
            if seat in (suggester, refuter):
                assert private is not None and set(private) == {"card"}
            else:
                assert private is None
