"""Camel Up as tensors for learning agents (:class:`~sleuth.core.encoding.Encoding`).

Actions: one id per action (46 for every option set).  Id ``0`` is ``roll``; ``1 + c`` is
``leg <c>`` for racing camel ``c`` (0-4, the edition's order); ``4 + 2 × i + side`` is ``tile
<i + 1> oasis`` (side 0) or ``mirage`` (side 1) on track index ``i`` = 1..15 (spaces 2-16,
ids 6-35); ``36 + c`` is ``winner <c>`` and ``41 + c`` is ``loser <c>``.  Chance (the start,
the dice) has no ids.

Observations, from the seat's view alone (its table as
:class:`~sleuth.games.camel_up.belief.TableTracker` replays it, once for all the seats:
:mod:`~sleuth.games.camel_up.reading`): ``P`` players, ``C`` camels (5, or 7 with the 2nd
edition's crazy camels white and black, last), ``D`` dice (5, or 6 with the grey die, last).
Rows "by seat" start with the observer and go round in turn order (row ``r`` is seat ``seat + r
mod P``). See :meth:`CamelUpEncoding.describe` for the indices.

=================  =========  ==================================================================
segment            size       meaning
=================  =========  ==================================================================
seat               P          one-hot: the observer's seat (seat 0 starts)
to move            P          one-hot by seat: the player to move (none before the start, over)
phase              3          one-hot: before the start, racing, race over
leg                1          the leg number ``l`` as ``l / (l + 10)`` (no rule bounds the legs)
turns              1          player turns taken divided by the turn cap (T4)
camel spaces       C × 16     row c: one-hot of camel c's track index (0 = space 1; clamped to
                              0..15 once the race is over)
camel stacks       C × 2      row c: camels under it, camels on top of it, each / (C − 1)
racing rank        5          each racing camel's place from the back (K20) / 4: 1 leads
dice               D          1 for each die still in the pyramid
leg tickets        5          each racing camel's top leg ticket / 5 (0: none left)
tiles              3 × 16     by track index: an oasis, a mirage, the observer's own tile
money              P          by seat: money ``m`` as ``m / (|m| + 50)`` (0.5 at 50 coins; below
                              0 only with ``money_floor=False``)
leg bets           P × 5      by seat, then racing camel: the leg tickets held this leg / 12
pyramid tickets    P          by seat: pyramid tickets taken this leg / 5
overall cards      2 × P      winner pile, loser pile; by seat: cards placed there / 5
own cards          2 × 5      winner pile, loser pile; by racing camel: 1 / (1 + cards placed
                              before it) where the observer's card on that camel lies, else 0
card hints         2 × 5      winner pile, loser pile; by racing camel: the others' hidden cards
                              placed there while that camel led (winner) or was last (loser),
                              / (5 × (P − 1)), the others' cards: what their timing says about
                              them
=================  =========  ==================================================================

Every value lies in ``[0, 1]`` (the segments' bounds, those of the adapters' spaces) but
``money`` with ``money_floor=False``, in ``(-1, 1)``.  Counts the rules do not bound (money,
legs) are squashed as ``x / (|x| + scale)``: increasing, 0.5 at ``scale``, never 1.

With ``belief=True`` the race's odds follow (:func:`~sleuth.games.camel_up.odds.game_odds` on
the public position: exact, but for the 2nd edition's later legs, estimated by
:data:`RACE_ROLLOUTS` rollouts of a fixed seed), all zeros before the start and the result
(0 or 1) once the race is over:

=================  =========  ==================================================================
leg first          5          P(each racing camel leads when this leg is scored)
leg second         5          P(each racing camel is second then)
race ends          1          P(the race ends in this leg)
race winner        5          P(each racing camel wins the race)
race loser         5          P(each racing camel is last at the end)
=================  =========  ==================================================================

Speed: the public side of a game's events is replayed once for all its seats and each view is
read incrementally (the events it added since the last call: :mod:`~sleuth.games.camel_up.
reading`), and the odds of a position are cached, so an observation costs a few events' replay
shared by the seats.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence

from sleuth.core.encoding import Encoding, ListedActions, Observation, Segment, ViewReaders
from sleuth.core.events import View
from sleuth.core.game import CHANCE, TERMINAL, State
from sleuth.games.camel_up.actions import ROLL, CamelAction
from sleuth.games.camel_up.odds import GameOdds, game_odds
from sleuth.games.camel_up.reading import SeatReading, SharedTables
from sleuth.games.camel_up.rules import HIDDEN, CamelUpGame
from sleuth.games.camel_up.track import DICE, MIRAGE, TRACK_LENGTH, Arrangement, racing_order

RACERS = 5
ACTIONS = 46
LEG, TILE, WINNER, LOSER = 1, 4, 36, 41
"""First ids: ``LEG + c``, ``TILE + 2 × index + side`` (index 1..15), ``WINNER + c``, ``LOSER +
c``."""
RACE_ROLLOUTS = 300
"""Rollouts behind the 2nd edition's race odds (a standard error of at most 0.03 each)."""
MONEY_SCALE, LEG_SCALE, LEG_BET_SCALE = 50, 10, 12


def squashed(count: int, scale: int) -> float:
    """``count / (|count| + scale)``: strictly between -1 and 1, 0.5 at ``scale``, increasing
    (the reading of a count no rule bounds, such as money or the leg number)."""
    return count / (abs(count) + scale)


@functools.lru_cache(maxsize=4096)
def _odds(
    order: Arrangement, dice: int, tiles: tuple[tuple[int, int], ...], edition: int
) -> GameOdds:
    """The odds of one public position (a pure function of it: the rollouts' seed is fixed)."""
    return game_odds(order, dice, dict(tiles), edition, rollouts=RACE_ROLLOUTS, seed=0)


@functools.lru_cache(maxsize=4096)
def _track(order: Arrangement, start: int) -> tuple[tuple[int, float], ...]:
    """The nonzero (index, value) of the camel spaces, stacks and racing ranks of an
    arrangement, for segments from ``start`` on (cached: arrangements recur from seat to seat
    and from turn to turn until a die moves a camel)."""
    camels = len(order)
    stacks, ranks = start + 16 * camels, start + 18 * camels
    heights = Counter(min(max(code >> 3, 0), TRACK_LENGTH - 1) for code in order)
    seen: Counter[int] = Counter()
    out = []
    for code in order:
        camel = code & 7
        index = min(max(code >> 3, 0), TRACK_LENGTH - 1)
        under = seen[index]
        seen[index] += 1
        out.append((start + camel * 16 + index, 1.0))
        out.append((stacks + 2 * camel, under / (camels - 1)))
        out.append((stacks + 2 * camel + 1, (heights[index] - under - 1) / (camels - 1)))
    out += [(ranks + c, place / (RACERS - 1)) for place, c in enumerate(racing_order(order))]
    return tuple(out)


class CamelUpEncoding(Encoding[CamelAction]):
    """The encoding of one Camel Up game (the edition and the players fix the sizes)."""

    version = 1

    def __init__(self, game: CamelUpGame) -> None:
        super().__init__(game)
        self.camel_game = game
        p = game.players
        camels = len(game.camel_ids)
        self.action_count = ACTIONS
        actions: list[CamelAction] = [ROLL, *game.leg_actions, *game.tile_actions[2:]]
        actions += [*game.bet_actions[0], *game.bet_actions[1]]
        self.actions = tuple(actions)
        """The action of each id."""
        self._ids = {action: i for i, action in enumerate(self.actions)}
        self.segments = (
            Segment("seat", p, "one-hot: the observer's seat"),
            Segment("to move", p, "one-hot by seat from the observer's: the player to move"),
            Segment("phase", 3, "one-hot: before the start, racing, race over"),
            Segment("leg", 1, "the leg number l as l / (l + 10)"),
            Segment("turns", 1, "player turns taken / the turn cap"),
            Segment("camel spaces", camels * 16, "row c: one-hot of camel c's track index"),
            Segment("camel stacks", camels * 2, "row c: camels under it, on top, / (C - 1)"),
            Segment("racing rank", RACERS, "each racing camel's place from the back / 4"),
            Segment("dice", game.all_dice.bit_count(), "1 for each die in the pyramid"),
            Segment("leg tickets", RACERS, "each racing camel's top leg ticket / 5"),
            Segment("tiles", 3 * 16, "by track index: oasis, mirage, the observer's tile"),
            Segment("money", p, "by seat from the observer's: money m as m / (|m| + 50)",
                    low=0.0 if game.money_floor else -1.0),
            Segment("leg bets", p * RACERS, "by seat, by camel: leg tickets held / 12"),
            Segment("pyramid tickets", p, "by seat: pyramid tickets this leg / 5"),
            Segment("overall cards", 2 * p, "by pile, by seat: cards placed there / 5"),
            Segment("own cards", 2 * RACERS, "by pile, by camel: 1 / (1 + cards before it)"),
            Segment("card hints", 2 * RACERS, "by pile, by camel: others' cards placed while "
                    "it led (winner) or trailed (loser) / (5 (P - 1))"),
        )  # fmt: skip
        self.belief_segments = (
            Segment("leg first", RACERS, "P(each racing camel leads when the leg is scored)"),
            Segment("leg second", RACERS, "P(each racing camel is second then)"),
            Segment("race ends", 1, "P(the race ends in this leg)"),
            Segment("race winner", RACERS, "P(each racing camel wins the race)"),
            Segment("race loser", RACERS, "P(each racing camel is last)"),
        )
        self._start = {}
        start = 0
        for segment in self.segments:
            self._start[segment.name] = start
            start += segment.size
        self._tables = SharedTables(game)
        self._readers: ViewReaders[SeatReading] = ViewReaders()

    def action_id(self, action: CamelAction) -> int:
        """The id of one player action; a KeyError for chance's."""
        return self._ids[action]

    def builder(self, state: State[CamelAction]) -> ListedActions[CamelAction]:
        return ListedActions(state, self._ids.__getitem__)

    def id_text(self, action_id: int) -> str:
        if not 0 <= action_id < ACTIONS:
            raise ValueError(f"{action_id} is not a Camel Up action id (0-{ACTIONS - 1})")
        return str(self.actions[action_id])

    def _reader(self, view: View) -> SeatReading:
        """``view``'s table, read up to its last event (:class:`ViewReaders`)."""
        return self._readers.of(view, lambda v: SeatReading(self._tables, v.seat))

    def observe_into(self, out: Observation, view: View, prefix: Sequence[int]) -> None:
        game = self.camel_game
        reader = self._reader(view)
        state = reader.state
        at = self._start
        p = game.players
        seat = view.seat
        v = [0.0] * len(out)  # filled as a list, copied once: element writes to NumPy are slow
        v[at["seat"] + seat] = 1.0
        mover = state.current_player()
        if mover not in (CHANCE, TERMINAL):
            v[at["to move"] + (mover - seat) % p] = 1.0
        v[at["phase"] + (0 if state.order is None else 2 if state.over else 1)] = 1.0
        v[at["leg"]] = squashed(state.leg, LEG_SCALE)
        v[at["turns"]] = min(state.turns, game.turn_cap) / game.turn_cap
        if state.order is not None:
            for index, value in _track(state.order, at["camel spaces"]):
                v[index] = value
        dice = at["dice"]
        for d in DICE[state.dice]:
            v[dice + d] = 1.0
        tickets = game.tickets
        for camel, taken in enumerate(state.taken):
            if taken < len(tickets):
                v[at["leg tickets"] + camel] = tickets[taken] / 5
        tiles = at["tiles"]
        for index, side in state.tiles.items():
            v[tiles + index + (16 if side == MIRAGE else 0)] = 1.0
        own = state.tile_of[seat]
        if own >= 0:
            v[tiles + 32 + own] = 1.0
        money, pyramid = at["money"], at["pyramid tickets"]
        for r in range(p):
            other = (seat + r) % p
            v[money + r] = squashed(state.money[other], MONEY_SCALE)
            v[pyramid + r] = state.pyramid[other] / 5
        bets = at["leg bets"]
        for bettor, camel, value in state.leg_bets:
            v[bets + ((bettor - seat) % p) * RACERS + camel] += value / LEG_BET_SCALE
        placed, mine, hints = at["overall cards"], at["own cards"], at["card hints"]
        others = RACERS * (p - 1)  # the others' overall cards: one per racing camel each
        card_hints = reader.hints()
        for pile, cards in enumerate(state.piles):
            for before, (bettor, shown) in enumerate(cards):
                v[placed + pile * p + (bettor - seat) % p] += 1 / 5
                if bettor == seat:
                    camel = reader.camel(pile, before, shown)
                    if camel != HIDDEN:
                        v[mine + pile * RACERS + camel] = 1 / (1 + before)
            for camel, count in enumerate(card_hints[pile]):
                v[hints + pile * RACERS + camel] = count / others
        out[:] = v

    def belief_into(self, out: Observation, view: View) -> None:
        state = self._reader(view).state
        order = state.order
        if order is None:
            return
        if state.over:
            ranking = racing_order(order)
            out[ranking[-1]] = out[RACERS + ranking[-2]] = out[2 * RACERS] = 1.0
            out[2 * RACERS + 1 + ranking[-1]] = out[3 * RACERS + 1 + ranking[0]] = 1.0
            return
        tiles = tuple(sorted(state.tiles.items()))
        odds = _odds(order, state.dice, tiles, self.camel_game.edition)
        out[:RACERS] = odds.leg.first
        out[RACERS : 2 * RACERS] = odds.leg.second
        out[2 * RACERS] = odds.leg.game_end
        out[2 * RACERS + 1 : 3 * RACERS + 1] = odds.win
        out[3 * RACERS + 1 :] = odds.last
