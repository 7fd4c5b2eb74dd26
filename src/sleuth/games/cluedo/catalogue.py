"""What Cluedo is — its options, roles and bots — without the engine.

``sleuth games`` reads :data:`GAME` without importing the rules, the deduction (NumPy, Numba,
PySAT) or the players; the engine makes the playable game from the same declaration
(:mod:`sleuth.games.cluedo.spec`), and its modules take the names below from here.  The
options' parsers import the cards and rules when an option is read, not before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sleuth.core.bots import BotInfo
from sleuth.core.options import parse_choice
from sleuth.core.registry import GameInfo, OptionSpec, parse_bool, parse_float, parse_int

SLEUTH_SECONDS_PER_MOVE = 10.0
"""The sleuth bot's move budget: ten times the target of a second for a whole turn, room to
spare on a loaded machine (measured times in ``docs/cluedo.md``)."""
SAMPLES = 1000
"""Deals drawn to score suggestions: about 10-20 ms of sampling with 6 players (the advice's
default, :mod:`sleuth.games.cluedo.advice`, and the sleuth bot's)."""
THRESHOLD = 1.0
"""Accuse at this probability of the top envelope when no rival is close (1: only when
certain); tuned by self-play (``docs/cluedo.md``)."""
RUSH = 0.8
"""... and at this probability when a rival has all but solved it."""
RESCORE = 3
"""Suggestions per room whose best estimates are scored again with exact entropies."""
SLEUTH_SPARE = 0.0
"""The share of a suggestion's gain given up not to summon a rival (tuned by self-play)."""

HYPOTHESES = 100_000
ENUMERATE_BELOW = 500_000
VELMA_THRESHOLD = 0.79
SAMPLERS = ("velma", "exact")
VELMA_SECONDS_PER_MOVE = {"velma": 20.0, "exact": 120.0}
"""Seconds per move ``velma`` declares at 100,000 hypotheses, by sampler (proportionally more
or less with more or fewer, but at least 5 and 10 s: an enumerated pool can hold up to
500,000 deals whatever the option): a few times the longest moves measured on a loaded 2-core
machine (``docs/cluedo.md``)."""
VELMA_LEAST_SECONDS = {"velma": 5.0, "exact": 10.0}


def velma_budget(hypotheses: int, sampler: str, **_: Any) -> float:
    """The velma bot's :attr:`~sleuth.core.bots.BotSpec.move_budget` for its options."""
    return max(
        VELMA_LEAST_SECONDS[sampler], VELMA_SECONDS_PER_MOVE[sampler] * hypotheses / HYPOTHESES
    )


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",")] if text else []


def _players(raw: Any) -> int:
    from sleuth.games.cluedo.rules import MAX_PLAYERS, MIN_PLAYERS

    value = parse_int(MIN_PLAYERS)(raw)
    if value > MAX_PLAYERS:
        raise ValueError(f"must be at most {MAX_PLAYERS}")
    return value


def _suspects(raw: Any) -> str:
    """Canonical suspect names, comma-separated ('' for the default)."""
    from sleuth.games.cluedo.cards import NAMES, Category, card_named

    return ",".join(NAMES[card_named(n, kind=Category.SUSPECT)] for n in _names(str(raw).strip()))


def _optional_int(choices: tuple[int, ...] | None) -> Callable[[Any], int | None]:
    def parse(raw: Any) -> int | None:
        if raw is None or str(raw).strip() == "":
            return None
        value = parse_int(0)(raw)
        if choices is not None and value not in choices:
            raise ValueError(f"expected one of {', '.join(map(str, choices))}")
        return value

    return parse


def _rules_choice(name: str) -> Callable[[Any], str]:
    """One of the rules' choices ``name`` (a tuple of :mod:`sleuth.games.cluedo.rules`)."""

    def parse(raw: Any) -> str:
        from sleuth.games.cluedo import rules

        choices: tuple[str, ...] = getattr(rules, name)
        return parse_choice(choices)(raw)

    return parse


def _edition(raw: Any) -> str:
    from sleuth.games.cluedo.cards import EDITIONS

    return parse_choice(tuple(EDITIONS))(raw)


GAME = GameInfo(
    name="cluedo",
    rules_version="2",  # 2: every end of a turn is a public event (ended)
    view_rules_versions=("1",),  # a notepad's saved view holds no end of turn, then or now
    description="Cluedo / Clue: find the suspect, weapon and room in the envelope (3-6 players)",
    roles=("player",),
    options=(
        OptionSpec("players", 3, "number of players (3-6); `play` sets it from --bots", _players),
        OptionSpec(
            "suspects",
            "",
            "the suspect of each seat, comma-separated (default: the first ones in card order)",
            _suspects,
        ),
        OptionSpec("dealer", "", "the dealer's seat (default: the last seat)", _optional_int(None)),
        OptionSpec(
            "leftover",
            "deal",
            "deal: some hands get one card more; face_up: the leftovers lie face up",
            _rules_choice("LEFTOVER"),
        ),
        OptionSpec("dice", "", "1 or 2 dice (default: the edition's)", _optional_int((1, 2))),
        OptionSpec(
            "accuse_at",
            "anywhere",
            "anywhere, or in_named_room (an accusation names the room one is in)",
            _rules_choice("ACCUSE_AT"),
        ),
        OptionSpec(
            "allow_retarget",
            False,
            "a token on its way to a room may head for another one",
            parse_bool,
        ),
        OptionSpec("edition", "classic", "card names: classic or uk", _edition),
        OptionSpec("max_turns", 500, "turns before the game ends with no winner", parse_int(1)),
    ),
    bots=(
        BotInfo(
            "random",
            ("player",),
            "random moves and suggestions, random card shown; never accuses",
        ),
        BotInfo(
            "logic",
            ("player",),
            "random moves and suggestions with exact deduction; accuses when certain",
        ),
        BotInfo(
            "velma",
            ("player",),
            "the Velma program's method: 100,000 sampled deals (biased sampler, every deal once "
            "fewer than 500,000), suggestions by expected entropy + remoteness, accuses above 0.79",
            (
                OptionSpec(
                    "hypotheses",
                    HYPOTHESES,
                    "hypothetical deals kept",
                    parse_int(1),
                    interactive_max=HYPOTHESES,
                ),
                OptionSpec(
                    "enumerate_below",
                    ENUMERATE_BELOW,
                    "list every deal once the estimated number falls below this",
                    parse_int(0),
                    interactive_max=ENUMERATE_BELOW,
                ),
                OptionSpec(
                    "threshold",
                    VELMA_THRESHOLD,
                    "accuse when an envelope is more likely",
                    parse_float(0, 1),
                    interactive_max=1.0,
                ),
                OptionSpec(
                    "sampler",
                    "velma",
                    "velma (its biased sampler) or exact (uniform deals from the exact deduction)",
                    parse_choice(SAMPLERS),
                ),
                OptionSpec(
                    "accuse_in_room",
                    True,
                    "accuse only just after suggesting in the envelope's room (false: when it may)",
                    parse_bool,
                ),
                OptionSpec(
                    "seed",
                    0,
                    "mixed with the seat's seed for Velma's own draws",
                    parse_int(0),
                    interactive_max=2**63 - 1,
                ),
            ),
            velma_budget,
        ),
        BotInfo(
            "sleuth",
            ("player",),
            "Sleuth's player: exact deduction, the suggestion with the most expected information "
            "per expected turn, accuses when certain (or nearly, when a rival is close)",
            (
                OptionSpec(
                    "samples",
                    SAMPLES,
                    "exact deal samples to score suggestions",
                    parse_int(1),
                    interactive_max=20_000,
                ),
                OptionSpec(
                    "rescore",
                    RESCORE,
                    "best suggestions per room scored again exactly",
                    parse_int(0),
                    interactive_max=10,
                ),
                OptionSpec(
                    "threshold",
                    THRESHOLD,
                    "accuse when the top envelope is this likely (no rival close)",
                    parse_float(0, 1),
                    interactive_max=1.0,
                ),
                OptionSpec(
                    "rush",
                    RUSH,
                    "... and when this likely with a rival about to solve it",
                    parse_float(0, 1),
                    interactive_max=1.0,
                ),
                OptionSpec(
                    "spare",
                    SLEUTH_SPARE,
                    "give up this share of a suggestion's gain not to summon a rival's token",
                    parse_float(0, 1),
                    interactive_max=1.0,
                ),
            ),
            SLEUTH_SECONDS_PER_MOVE,
        ),
    ),
    seats_option="players",
)
"""Cluedo as ``sleuth games`` lists it (the spec is made from it)."""
