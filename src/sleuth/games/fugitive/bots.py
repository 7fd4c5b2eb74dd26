"""Fugitive players.

``random`` chooses hierarchically, never uniformly over atomic actions (M9).  The Fugitive
picks a pile uniformly; then passes one time in four (always when it cannot place); otherwise
a uniform hideout among those it can place, paid with a random cheapest sprint set, one card
more one time in five (a bluff).  The Marshal picks a pile uniformly, then names one number
(two, one time in ten) uniformly among those she may name; she never skips.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.compiled import COMPILED
from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.core.options import OptionSpec, parse_bool, parse_choice, parse_float, parse_int
from sleuth.games.fugitive.belief import DEFAULT_MODEL, MODELS, warm_up
from sleuth.games.fugitive.deduction.advice import GUESS_MODES
from sleuth.games.fugitive.engine.actions import PASS, Bonus, Draw, Guess
from sleuth.games.fugitive.engine.moves import Choices, Guesses, OpeningPlacements, Placements
from sleuth.games.fugitive.players.elusive import ElusiveFugitive
from sleuth.games.fugitive.players.fugitives import (
    BLUFF,
    DEAD_CARDS,
    HeuristicFugitive,
    SteadyFugitive,
    Strategy,
)
from sleuth.games.fugitive.players.marshals import DRAW_POLICIES, BeliefMarshal, NotesMarshal
from sleuth.games.fugitive.rules import FUGITIVE


class RandomPlayer(Bot):
    """Random play for either seat, chosen step by step (see the module docstring)."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return random_move(legal, self.rng)


def random_move(legal: Sequence[Hashable], rng: random.Random) -> Hashable:
    """The random players' move among ``legal`` (also the search players' rollout policy)."""
    rest = legal.rest if isinstance(legal, Choices) else legal
    if isinstance(rest, OpeningPlacements):  # a uniform hideout, a uniform cheapest placement
        hideouts = rest.hideouts()
        if not hideouts or (PASS in legal and rng.random() < 0.25):
            return PASS
        return rng.choice(rest.fewest_sprints(rng.choice(hideouts)))
    if isinstance(legal[0], Draw | Bonus):
        return rng.choice(legal)
    if isinstance(rest, Guesses):
        size = 2 if len(rest.numbers) > 1 and rng.random() < 0.1 else 1
        return Guess(tuple(rng.sample(rest.numbers, size)))
    if isinstance(legal[-1], Guess):  # the Manhunt: single numbers, listed
        return rng.choice(legal)
    assert isinstance(rest, Placements), f"unexpected legal actions {legal!r}"
    hideouts = rest.hideouts()
    if not hideouts or (PASS in legal and rng.random() < 0.25):
        return PASS
    return rest.cheapest(rng.choice(hideouts), rng, extra=int(rng.random() < 0.2))


def _random_player(game: Game[Any], seat: int, seed: int) -> Bot:
    return RandomPlayer(game, seat, seed)


OPPONENTS = ("heuristic", "steady")
"""The Fugitives (with their default options) a belief Marshal can be told she faces."""


def known_strategy(name: str, game: Game[Any]) -> Strategy:
    """The strategy of the Fugitive bot ``name`` of :data:`OPPONENTS`, with its default
    options."""
    if name == "heuristic":
        return HeuristicFugitive(game, FUGITIVE, 0, BLUFF)
    if name == "steady":
        return SteadyFugitive(game, FUGITIVE, 0, DEAD_CARDS)
    raise ValueError(f"no known strategy {name!r} (known: {', '.join(OPPONENTS)})")


def _belief_marshal(game: Game[Any], seat: int, seed: int, opponent: str, **options: Any) -> Bot:
    strategy = None if opponent == "none" else known_strategy(opponent, game)
    return BeliefMarshal(game, seat, seed, opponent=strategy, **options)


BELIEF_BUDGET = 5.0 if COMPILED else 30.0
"""Seconds per move the bots that count worlds declare (belief, elusive): a move usually takes
a few milliseconds, but a wide-open 2nd-edition position (``belief:guess=certain:draw=low``
leaves many hideouts face down) counts millions of states three times, up to 1.4 s measured
on an idle machine with Numba.  Without it the same player runs the plain programme, up to
:data:`~sleuth.games.fugitive.players.marshals.STATE_BUDGET` states a move: seconds (5.7 s measured
on a busy machine)."""
OPPONENT_BUDGET = 30.0
"""Seconds per move of a belief Marshal who knows her opponent (``opponent=heuristic``): she
weighs each possible route by his strategy, seconds on long games."""


def _belief_budget(opponent: str, **_: Any) -> float:
    return BELIEF_BUDGET if opponent == "none" else OPPONENT_BUDGET


BOTS = (
    BotSpec(
        "random",
        ("fugitive", "marshal"),
        _random_player,
        "hierarchical random play: pile, place or pass, hideout, cheapest sprint; 1-2 numbers",
    ),
    BotSpec(
        "heuristic",
        ("fugitive",),
        HeuristicFugitive,
        "hand management, pile choice toward the next hideouts, bluffing with extra sprint cards",
        (
            OptionSpec(
                "bluff",
                BLUFF,
                "chance of paying one sprint card more than needed",
                parse_float(0.0, 1.0),
                interactive_max=1.0,
            ),
        ),
    ),
    BotSpec(
        "elusive",
        ("fugitive",),
        ElusiveFugitive,
        "the heuristic Fugitive, choosing placements the belief Marshal finds hardest to guess",
        warm_up=warm_up,
        move_budget=BELIEF_BUDGET,
        options=(
            OptionSpec(
                "bluff",
                0.0,
                "chance of paying one sprint card more than needed (before the exposure check)",
                parse_float(0.0, 1.0),
                interactive_max=1.0,
            ),
            OptionSpec(
                "caution",
                1.0,
                "distance given up per hideout the Marshal's next guess reveals on average",
                parse_float(0.0),
                interactive_max=100.0,
            ),
            OptionSpec(
                "candidates",
                4,
                "best heuristic placements weighed (each cheapest and with a one-card bluff)",
                parse_int(1),
                interactive_max=16,
            ),
            OptionSpec(
                "model",
                DEFAULT_MODEL,
                "the Fugitive model of the belief Marshal it imitates",
                parse_choice(tuple(MODELS)),
            ),
        ),
    ),
    BotSpec(
        "steady",
        ("fugitive",),
        SteadyFugitive,
        "simple and predictable: lowest pile, largest hideout within 3, 42 at once",
        (
            OptionSpec(
                "dead_cards",
                DEAD_CARDS,
                "at most this many cards below the last hideout added as sprint cards",
                parse_int(0),
                interactive_max=42,
            ),
        ),
    ),
    BotSpec(
        "belief",
        ("marshal",),
        _belief_marshal,
        "guesses from the exact belief (modes certain, argmax, gamble, reveal)",
        warm_up=warm_up,
        move_budget=_belief_budget,
        options=(
            OptionSpec(
                "guess",
                "gamble",
                "guess mode: gamble, certain, argmax or reveal",
                parse_choice(GUESS_MODES),
            ),
            OptionSpec(
                "draw",
                "frontier",
                "draw policy: frontier, low, high or random",
                parse_choice(DRAW_POLICIES),
            ),
            OptionSpec(
                "manhunt",
                True,
                "leave numbers at the Manhunt threshold face down (false: name them too)",
                parse_bool,
            ),
            OptionSpec(
                "model",
                DEFAULT_MODEL,
                "Fugitive model for the odds: frugal or thrifty (little wasted reach), uniform",
                parse_choice(tuple(MODELS)),
            ),
            OptionSpec(
                "opponent",
                "none",
                "the Fugitive she knows she faces, with his default options (heuristic, "
                "steady): his strategy decides her Manhunt guesses and her look ahead",
                parse_choice(("none", *OPPONENTS)),
            ),
            OptionSpec(
                "lookahead",
                True,
                "when 42 may come next, the guess that wins most often if it does (gamble "
                "and reveal modes; false: the mode's own choice, without looking ahead)",
                parse_bool,
            ),
        ),
    ),
    BotSpec(
        "notes",
        ("marshal",),
        NotesMarshal,
        "the source's layered-graph notes: forced values, else the value on most paths",
        (
            OptionSpec(
                "draw",
                "frontier",
                "draw policy: frontier, low, high or random",
                parse_choice(DRAW_POLICIES),
            ),
        ),
    ),
)
