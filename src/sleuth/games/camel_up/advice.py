"""Expected coins of every legal action for the player to move (the greedy EV of rule §7).

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

from collections.abc import Mapping
from dataclasses import dataclass

from sleuth.games.camel_up.actions import CamelAction, LegBet, OverallBet, PlaceTile, Roll
from sleuth.games.camel_up.odds import GameOdds, LegOdds, game_odds, leg_odds
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

    def ranked(self) -> list[tuple[CamelAction, float]]:
        """The evaluated actions, best first."""
        valued = [(a, v) for a, v in self.values.items() if v is not None]
        return sorted(valued, key=lambda item: -item[1])


def advise(
    state: CamelState, rollouts: int = 2_000, seed: int = 0, all_tiles: bool = False
) -> Advice:
    """The advice for the seat to move in ``state`` (which must be a player's turn);
    ``all_tiles`` evaluates every tile placement, not only those within reach."""
    game = state.game
    order = state.order
    assert order is not None and not state.is_terminal()
    odds = game_odds(order, state.dice, state.tiles, game.edition, rollouts=rollouts, seed=seed)
    seat = state.seat
    values: dict[CamelAction, float | None] = {}
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
            values[action] = card_value(state, seat, action.pile, game.racer_id(action.camel),
                                        odds)  # fmt: skip
        elif isinstance(action, PlaceTile):
            index = action.space - 1
            if index not in reach and not all_tiles:
                values[action] = None
                continue
            tiles = {i: s for i, s in state.tiles.items() if i != own}
            tiles[index] = SIDE_VALUE[action.side]
            leg = leg_odds(order, state.dice, tiles, game.edition)
            change = _leg_holdings(state, seat, leg) - base_legs
            values[action] = leg.tile_hits.get(index, 0.0) + change - own_hits
    best = max(values, key=lambda a: _rank(values[a]))
    return Advice(odds, values, best)


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


def card_value(state: CamelState, seat: int, pile: str, camel: int, odds: GameOdds) -> float:
    """The expected payout of ``seat`` putting its ``camel`` card on ``pile`` now."""
    right = odds.win[camel] if pile == "winner" else odds.last[camel]
    cards = state.piles[0 if pile == "winner" else 1]
    # The distribution of the number of right cards ahead of the new one, given it is right.
    ahead = [1.0]
    for _, named in cards:
        p = right if named == HIDDEN else float(named == camel)
        grown = [0.0] * (len(ahead) + 1)
        for k, weight in enumerate(ahead):
            grown[k] += weight * (1 - p)
            grown[k + 1] += weight * p
        ahead = grown
    payout = sum(
        weight * (OVERALL_LADDER[k] if k < len(OVERALL_LADDER) else 1)
        for k, weight in enumerate(ahead)
    )
    return right * payout - (1 - right)
