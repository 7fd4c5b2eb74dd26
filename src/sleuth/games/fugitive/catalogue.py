"""What Fugitive is — its options, roles and bots — without the engine.

``sleuth games`` reads :data:`GAME` without importing the rules, the belief (NumPy, Numba) or
the players; the engine makes the playable game from the same declaration
(:mod:`sleuth.games.fugitive.spec`), and its modules take the names below from here.
"""

from __future__ import annotations

from typing import Any

from sleuth.core.bots import BotInfo
from sleuth.core.errors import OptionError
from sleuth.core.options import parse_choice, parse_options
from sleuth.core.registry import (
    GameInfo,
    OptionSpec,
    parse_bool,
    parse_float,
    parse_int,
    parse_option_texts,
)
from sleuth.search.catalogue import policy_bot_info, search_bot_infos

ROLES = ("fugitive", "marshal")
OPENINGS = ("exactly_2", "one_or_two")
EDITIONS = ("first", "second")

MODELS = {"uniform": 1, "thrifty": 2, "frugal": 4}
"""Fugitive models: how much a world weighs.  Under ``uniform`` every consistent world counts
once (a uniform shuffle and an uninformed Fugitive, E3).  Under ``thrifty`` a hideout placed
``s`` footprints short of what its sprint cards reach (its slack) weighs ``2 ** (8 - min(s,
8))``: each footprint wasted halves a world's weight, as for a Fugitive who goes as far as his
cards take him and rarely over-pays.  ``frugal`` is the same with base 4 (each footprint
wasted quarters the weight).  The value is the base of that power (see
:mod:`sleuth.games.fugitive.belief`)."""
DEFAULT_MODEL = "frugal"
"""The model the belief Marshal plays with unless told otherwise (the strongest measured)."""
GUESS_MODES = ("gamble", "certain", "argmax", "reveal")
"""How the Marshal picks a guess
(see :meth:`~sleuth.games.fugitive.deduction.advice.Deduction.advice`)."""
DRAW_POLICIES = ("frontier", "low", "high", "random")
"""How the belief and notes Marshals choose the pile they draw from."""
OPPONENTS = ("heuristic", "steady")
"""The Fugitives (with their default options) a belief Marshal can be told she faces."""
BLUFF = 0.25
"""The heuristic Fugitive's default chance of paying one sprint card more than needed."""
DEAD_CARDS = 1
"""The steady Fugitive's default number of dead cards added as sprint cards."""
POLICY_DRAWS = ("next", "low", "high", "random")
"""The ``policy`` Fugitive's pile choices: the pile of his next hideouts (as ``heuristic``),
the lowest or highest non-empty pile, or one at random."""

DECOY_AIMS = ("route", "position")
"""What the ``decoy`` Fugitive keeps unlikely in the Marshal's odds: every face-down hideout
(``route``) or the new hideout at its position (``position``)."""

BELIEF_BUDGET = 30.0
"""Seconds per move the bots that count worlds declare (belief, elusive, decoy): a move usually
takes a few milliseconds, but a wide-open 2nd-edition position (``belief:guess=certain:
draw=low`` leaves many hideouts face down) counts millions of states three times, up to
1.4 s measured on an idle machine with Numba; the plain programme, up to
:data:`~sleuth.games.fugitive.players.marshals.STATE_BUDGET` states a move, takes seconds
(5.7 s measured on a busy machine).  Any move may run the plain programme, with Numba too: on
the first run after an install the kernel compiles in another process meanwhile (and on a later
run, loads in a background thread for a second), so the budget is the plain programme's, and
whether a move forfeits does not depend on when the kernel became ready (it was 5 s with
Numba)."""
OPPONENT_BUDGET = 30.0
"""Seconds per move of a belief Marshal who knows her opponent (``opponent=heuristic``): she
weighs each possible route by his strategy, seconds on long games."""
BELIEF_OVERHEAD = BELIEF_BUDGET
"""Seconds a search decision may take outside the tree on a wide-open position: counting the
Marshal's worlds and asking the belief Marshal for her root move, with either programme (as
:data:`BELIEF_BUDGET`; up to 1.4 s measured compiled on an idle machine)."""


SEARCH_DEFAULTS = {"iterations": 300}
"""Fugitive's defaults of the common search options: 300 simulations a move, about half a
second of CPU time on one core (1,000 took 1-2 s, each simulation samples a world from the
exact belief), what a move cost with the half-second time stop the search bots used to have."""
SEARCH_ITERATION_COST = 5e-3
"""CPU seconds a search bot's simulation may take (up to 4.4 ms measured on a loaded machine,
a world sampled from a wide-open belief); its move budget is its iterations times this, plus
:data:`BELIEF_OVERHEAD`."""


def _belief_budget(opponent: str, **_: Any) -> float:
    return BELIEF_BUDGET if opponent == "none" else OPPONENT_BUDGET


SEARCH_OPTIONS = (
    OptionSpec(
        "model",
        DEFAULT_MODEL,
        "as the Marshal, the Fugitive model her worlds are drawn with: frugal, thrifty "
        "(little wasted reach) or uniform",
        parse_choice(tuple(MODELS)),
    ),
)
"""The game's own options of its search bots (:attr:`FugitiveSearchModel.options`)."""

POLICY_OPTIONS = (
    OptionSpec(
        "slack",
        0.0,
        "footprints of sprint reach paid beyond the jump (a fraction mixes the two "
        "nearest whole numbers)",
        parse_float(0.0, 10.0),
        interactive_max=10.0,
    ),
    OptionSpec(
        "stride",
        0,
        "the longest jump it makes (0: no limit)",
        parse_int(0),
        interactive_max=42,
    ),
    OptionSpec(
        "sprints",
        -1,
        "at most this many sprint cards a placement (-1: no limit)",
        parse_int(-1),
        interactive_max=41,
    ),
    OptionSpec(
        "bluff",
        0.0,
        "chance of paying one sprint card more",
        parse_float(0.0, 1.0),
        interactive_max=1.0,
    ),
    OptionSpec(
        "draw",
        "next",
        "pile choice: next (toward its next hideouts), low, high or random",
        parse_choice(POLICY_DRAWS),
    ),
)
"""The ``policy`` Fugitive's options (also read by the belief Marshal's ``policy`` model)."""


def parse_model(raw: Any) -> str:
    """The belief Marshal's Fugitive model: one of :data:`MODELS`, ``robust`` (the edition's
    robust mix) or ``policy`` with its options after slashes (``policy/stride=3/draw=low``).
    Canonical: the policy's options other than their defaults, in their order."""
    text = str(raw).strip().lower().replace("-", "_")
    if text in MODELS or text == "robust":
        return text
    name, _, rest = text.partition("/")
    if name != "policy":
        raise ValueError(f"expected one of {', '.join(MODELS)}, robust or policy/OPTION=VALUE/...")
    try:
        texts = parse_option_texts(rest.split("/")) if rest else {}
        values = parse_options(POLICY_OPTIONS, texts, "the policy model")
    except OptionError as exc:
        raise ValueError(str(exc)) from None
    changed = [f"{o.name}={values[o.name]}" for o in POLICY_OPTIONS if values[o.name] != o.default]
    return "/".join(["policy", *changed])


GAME = GameInfo(
    name="fugitive",
    rules_version="3",  # 2: 42's sprint cards stay face down; 3: F14 off, a dead end may pass
    description="Fugitive: a route of hidden hideouts 0-42 against the Marshal's guesses",
    roles=ROLES,
    options=(
        OptionSpec(
            "edition",
            "first",
            "rules edition: first, or second (optional bonus draw after a pass)",
            parse_choice(EDITIONS),
        ),
        OptionSpec(
            "opening",
            "exactly_2",
            "first turn: exactly_2 hideouts, or one_or_two",
            parse_choice(OPENINGS),
        ),
        OptionSpec(
            "dead_end_check",
            True,
            "exactly_2: the first opening hideout must leave a legal second one (F14)",
            parse_bool,
        ),
        OptionSpec("marshal_may_skip", True, "the Marshal may make no guess on a turn", parse_bool),
        OptionSpec(
            "manhunt_threshold",
            30,
            "42 wins at once if a face-up hideout is at least this; else the Manhunt",
            parse_int(1),
        ),
        OptionSpec(
            "max_rounds",
            0,
            "rounds before a draw (0: no limit; 50 for search and RL)",
            parse_int(0),
        ),
    ),
    bots=(
        BotInfo(
            "random",
            ROLES,
            "hierarchical random play: pile, place or pass, hideout, cheapest sprint; 1-2 numbers",
        ),
        BotInfo(
            "heuristic",
            ("fugitive",),
            "hand management, pile choice toward the next hideouts, bluffing with extra sprint "
            "cards",
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
        BotInfo(
            "elusive",
            ("fugitive",),
            "the heuristic Fugitive, choosing placements the belief Marshal finds hardest to guess",
            (
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
            BELIEF_BUDGET,
        ),
        BotInfo(
            "steady",
            ("fugitive",),
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
        BotInfo(
            "policy",
            ("fugitive",),
            "the heuristic Fugitive with its choices as parameters: wasted reach, stride, "
            "sprint cards, bluff, pile",
            POLICY_OPTIONS,
        ),
        BotInfo(
            "decoy",
            ("fugitive",),
            "places where the belief Marshal's odds, worked out from the public record, least "
            "expect it (issue 38)",
            (
                OptionSpec(
                    "weight",
                    10.0,
                    "footprints of progress given up to take the Marshal's odds of the route "
                    "from 1 to 0",
                    parse_float(0.0),
                    interactive_max=1000.0,
                ),
                OptionSpec(
                    "aim",
                    "route",
                    "the odds minimised: route (of every face-down hideout) or position (of the "
                    "new hideout at its position)",
                    parse_choice(DECOY_AIMS),
                ),
                OptionSpec(
                    "model",
                    DEFAULT_MODEL,
                    "the Fugitive model of the belief Marshal whose odds it reads",
                    parse_choice(tuple(MODELS)),
                ),
                OptionSpec(
                    "candidates",
                    4,
                    "best heuristic hideouts weighed",
                    parse_int(1),
                    interactive_max=16,
                ),
                OptionSpec(
                    "pad",
                    2,
                    "each hideout also padded with sprint reach of 1 to this many footprints",
                    parse_int(0),
                    interactive_max=6,
                ),
                *(o for o in POLICY_OPTIONS if o.name in ("stride", "draw")),
            ),
            BELIEF_BUDGET,
        ),
        BotInfo(
            "robust",
            ("fugitive",),
            "the robust Fugitive: one policy or decoy Fugitive a game, drawn by its seed from the "
            "edition's equilibrium mix (issue 38)",
        ),
        BotInfo(
            "belief",
            ("marshal",),
            "guesses from the exact belief (modes certain, argmax, gamble, reveal)",
            (
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
                    "Fugitive model for the odds: frugal or thrifty (little wasted reach), "
                    "uniform; robust (the robust Fugitive's mix) or policy/OPTION=VALUE/... (one "
                    "policy Fugitive): each route weighed by its chance under that play",
                    parse_model,
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
            _belief_budget,
        ),
        BotInfo(
            "notes",
            ("marshal",),
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
        BotInfo(
            "candidates",
            ("marshal",),
            "the candidate-list random Marshal: the notes' certain hideouts, else one number "
            "uniformly from the notes' candidates",
            (
                OptionSpec(
                    "draw",
                    "frontier",
                    "draw policy: frontier, low, high or random",
                    parse_choice(DRAW_POLICIES),
                ),
            ),
        ),
        policy_bot_info(("marshal",), BELIEF_BUDGET),
        *search_bot_infos(
            ROLES, SEARCH_OPTIONS, BELIEF_OVERHEAD, SEARCH_DEFAULTS, SEARCH_ITERATION_COST
        ),
    ),
)
"""Fugitive as ``sleuth games`` lists it (the spec is made from it)."""
