"""Expected coins of every legal action for the player to move (the greedy EV bot).

:func:`advise` takes a state as that player sees it (its own overall cards known, the others'
hidden) and returns the race odds and, for each legal action, the expected change of the
player's money that the action brings about by the end of the game, holding everything else
fixed (one ply, no opponent response):

* ``roll``: +1, the pyramid ticket (a roll does not change the expected value of bets already
  placed);
* ``leg c``: the top ticket's value v: v·P(1st) + P(2nd) − (1 − P(1st) − P(2nd)) (O4);
* ``winner c`` / ``loser c``: P(right)·E[ladder payout] − P(wrong), where the payout depends
  on how many earlier cards in the pile are right.  The player's own earlier cards are known;
  each hidden card of another player is taken to name c with the probability that c wins
  (loses), i.e. opponents are assumed to bet like the odds;
* ``tile s side``: the tile's expected landings in the rest of the leg (+1 each), plus the
  change it makes to the player's own bets, minus the landings the player's tile would have
  had where it lies.  Tiles are evaluated where a camel can reach them with one more die
  (from one space ahead of the rearmost camel of a kind to three ahead of the foremost); a
  tile further away is not evaluated (value ``None``: it can still be played).

The 1st edition's race odds are exact (:func:`~sleuth.games.camel_up.odds.game_odds`); the 2nd
edition's later legs come from seeded rollouts (``rollouts``), so its overall-bet values are
estimates.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sleuth.games.camel_up.actions import PILES, CamelAction, LegBet, OverallBet, PlaceTile, Roll
from sleuth.games.camel_up.odds import GameOdds, LegOdds, RaceOdds, game_odds, leg_odds
from sleuth.games.camel_up.rules import HIDDEN, OVERALL_LADDER, SIDE_VALUE, CamelState
from sleuth.games.camel_up.track import RACERS

ROLL_VALUE = 1.0
"""A roll's pyramid ticket; the roll itself is neutral in expectation."""


@dataclass(frozen=True)
class Advice:
    """The race odds seen by the player to move and the value of each legal action (``None``
    for tiles out of reach, see the module docstring); ``best`` has the highest value, the
    first in the engine's order on ties."""

    odds: GameOdds
    values: Mapping[CamelAction, float | None]
    best: CamelAction
    tile_legs: Mapping[PlaceTile, LegOdds]
    """The leg's odds with each evaluated tile placed (the mover's own tile lifted)."""

    def ranked(self) -> list[tuple[CamelAction, float]]:
        """The evaluated actions, best first."""
        valued = [(a, v) for a, v in self.values.items() if v is not None]
        return sorted(valued, key=lambda item: -item[1])


CardBeliefs = Mapping[tuple[int, int], Sequence[float]]
"""For hidden overall cards, keyed by (pile, position from 0): the probability that the card
names each racing camel.  A hidden card without a belief names ``c`` with the probability that
``c`` is right (wins, or is last)."""


def advise(
    state: CamelState,
    rollouts: int = 2_000,
    seed: int = 0,
    all_tiles: bool = False,
    beliefs: CardBeliefs | None = None,
) -> Advice:
    """The advice for the seat to move in ``state`` (which must be a player's turn);
    ``all_tiles`` evaluates every tile placement, not only those within reach; ``beliefs``
    say what the hidden cards name."""
    game = state.game
    order = state.order
    assert order is not None and not state.is_terminal()
    odds = game_odds(order, state.dice, state.tiles, game.edition, rollouts=rollouts, seed=seed)
    seat = state.seat
    values: dict[CamelAction, float | None] = {}
    tile_legs: dict[PlaceTile, LegOdds] = {}
    reach = _reachable(state)
    base_legs = _leg_holdings(state, seat, odds.leg)
    own = state.tile_of[seat]
    own_hits = odds.leg.tile_hits.get(own, 0.0) if own >= 0 else 0.0
    for action in state.legal_actions():
        if isinstance(action, Roll):
            values[action] = ROLL_VALUE
        elif isinstance(action, LegBet):
            camel = game.racer_id(action.camel)
            values[action] = odds.leg.ticket_ev(camel, game.tickets[state.taken[camel]])
        elif isinstance(action, OverallBet):
            pile = PILES.index(action.pile)
            camel = game.racer_id(action.camel)
            values[action] = card_value(state, pile, camel, odds, beliefs)
        elif isinstance(action, PlaceTile):
            index = action.space - 1
            if index not in reach and not all_tiles:
                values[action] = None
                continue
            tiles = {i: s for i, s in state.tiles.items() if i != own}
            tiles[index] = SIDE_VALUE[action.side]
            leg = tile_legs[action] = leg_odds(order, state.dice, tiles, game.edition)
            change = _leg_holdings(state, seat, leg) - base_legs
            values[action] = leg.tile_hits.get(index, 0.0) + change - own_hits
    best = max(values, key=lambda a: _rank(values[a]))
    return Advice(odds, values, best, tile_legs)


def _rank(value: float | None) -> float:
    return float("-inf") if value is None else value


def _reachable(state: CamelState) -> set[int]:
    """Track indices one die away from some camel, in its direction (see the docstring)."""
    reach: set[int] = set()
    for code in state.order or ():
        index, camel = code >> 3, code & 7
        steps = range(1, 4)
        reach.update(index + s if camel < RACERS else index - s for s in steps)
    return reach


def _leg_holdings(state: CamelState, seat: int, leg: LegOdds) -> float:
    """The expected payout of ``seat``'s leg tickets of this leg."""
    return sum(leg.ticket_ev(camel, value) for s, camel, value in state.leg_bets if s == seat)


def card_value(
    state: CamelState,
    pile: int,
    camel: int,
    odds: RaceOdds,
    beliefs: CardBeliefs | None = None,
    position: int | None = None,
) -> float:
    """The expected payout of a ``camel`` card at ``position`` of ``pile`` (0 winner, 1 loser;
    by default a new card on top)."""
    right = (odds.win if pile == 0 else odds.last)[camel]
    return right * payout_if_right(state, pile, camel, odds, beliefs, position) - (1 - right)


def payout_if_right(
    state: CamelState,
    pile: int,
    camel: int,
    odds: RaceOdds,
    beliefs: CardBeliefs | None = None,
    position: int | None = None,
) -> float:
    """The expected ladder payout of a right ``camel`` card at ``position`` of ``pile``, given
    what the cards ahead of it name (see :data:`CardBeliefs`)."""
    right = (odds.win if pile == 0 else odds.last)[camel]
    cards = state.piles[pile]
    # The distribution of the number of right cards ahead of this one, given it is right.
    ahead = [1.0]
    for k, (_, named) in enumerate(cards[: len(cards) if position is None else position]):
        if named != HIDDEN:
            p = float(named == camel)
        elif beliefs is not None and (pile, k) in beliefs:
            p = beliefs[pile, k][camel]
        else:
            p = right
        grown = [0.0] * (len(ahead) + 1)
        for j, weight in enumerate(ahead):
            grown[j] += weight * (1 - p)
            grown[j + 1] += weight * p
        ahead = grown
    return sum(
        weight * (OVERALL_LADDER[j] if j < len(OVERALL_LADDER) else 1)
        for j, weight in enumerate(ahead)
    )
