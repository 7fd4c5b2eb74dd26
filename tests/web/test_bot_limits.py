"""Bot options in the web app: every numeric option of every bot of every registered game has
a bound there (a person waits for each move, and a request's thread cannot be stopped), the
defaults are accepted, and the command line keeps taking any value its parser accepts."""

from __future__ import annotations

import sqlite3
from collections.abc import Hashable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.compiled import COMPILED
from sleuth.core.errors import OptionError
from sleuth.core.events import View
from sleuth.core.options import OptionSpec, interactive_limit, parse_int
from sleuth.core.registry import GameSpec, game_specs
from sleuth.web.live import SLOWEST, ChoiceError, new_log
from tests.cli_helpers import entry

HUGE = 10**20
"""More than any option's bound (a 64-bit seed included)."""


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _numeric(bot: BotSpec) -> list[OptionSpec]:
    return [o for o in bot.options if interactive_limit(o) is not None]


def _seats(spec: GameSpec, bot: BotSpec) -> tuple[int, int]:
    """A seat of the default game that ``bot`` can play, and another seat for the human."""
    roles = spec.make({}).roles
    seat = next(s for s, role in enumerate(roles) if role in bot.roles)
    return seat, 0 if seat else 1


def _every_bot() -> Iterator[tuple[GameSpec, BotSpec]]:
    for spec in game_specs():
        for bot in spec.bots:
            yield spec, bot


def test_every_bot_plays_a_seat_of_its_default_game() -> None:
    """The walks below reach every bot through the default game of its own game."""
    for spec, bot in _every_bot():
        _seats(spec, bot)  # raises StopIteration if a bot had no seat there


def test_a_huge_value_of_any_numeric_option_is_refused_and_nothing_stored(
    client: TestClient, store: Path
) -> None:
    walked = 0
    for spec, bot in _every_bot():
        seat, human = _seats(spec, bot)
        for option in _numeric(bot):
            name = f"{bot.name}:{option.name}={HUGE}"
            answer = client.post(
                "/api/play",
                json={"game": spec.name, "seat": human, "bots": {str(seat): name}, "seed": 1},
            )
            assert answer.status_code == 400, (spec.name, name, answer.text)
            error = answer.json()["error"]
            assert repr(bot.name) in error and option.name in error, error
            assert "at most" in error, error
            walked += 1
    assert walked >= 40  # the built-in bots have this many numeric options
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT count(*) FROM records").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM sessions").fetchone() == (0,)


def test_the_refusal_names_the_bound() -> None:
    with pytest.raises(ChoiceError) as refused:
        new_log("cluedo", {}, 0, None, {1: "sleuth:samples=1000000000"}, 1)
    assert refused.value.field == "bots"
    assert isinstance(refused.value.__cause__, OptionError)
    assert str(refused.value) == (
        "option samples=1000000000 of bot 'sleuth' of cluedo: at most 20,000 when a person "
        "waits for each move (the command line takes more)"
    )
    with pytest.raises(ChoiceError, match=r"iterations=1000000000 .* at most 5,000 "):
        new_log("fox", {}, 1, None, {0: "ismcts:iterations=1000000000"}, 1)


def test_every_bot_with_its_defaults_named_is_accepted() -> None:
    for spec, bot in _every_bot():
        seat, human = _seats(spec, bot)
        name = bot.name + "".join(f":{o.name}={_text(o.default)}" for o in bot.options)
        log = new_log(spec.name, {}, human, None, {seat: name}, 1)
        assert log["bots"][seat].split(":")[0] == bot.name


def test_every_bot_at_all_its_bounds_is_accepted_and_declares_a_bounded_move() -> None:
    """The bounds go together: a bot with every numeric option at its bound is accepted, and
    (with the compiled kernels the budgets assume) declares at most the web's slowest move."""
    for spec, bot in _every_bot():
        limits = {o.name: interactive_limit(o) for o in _numeric(bot)}
        name = bot.name + "".join(f":{key}={_text(value)}" for key, value in limits.items())
        configured = spec.bot(name, interactive=True)
        if COMPILED:
            assert (configured.budget() or 0.0) <= SLOWEST, (spec.name, name)
        above = {key: value for key, value in limits.items() if value != 2**63 - 1}
        for key, value in above.items():
            over = int(value) + 1 if isinstance(value, int) else float(value) * 1.5 + 1
            with pytest.raises(OptionError, match="at most"):
                spec.bot(f"{bot.name}:{key}={over}", interactive=True)


def test_the_command_line_keeps_taking_big_values(tmp_path: Path) -> None:
    for spec, bot in _every_bot():
        for option in _numeric(bot):
            try:
                option.parse(HUGE)
            except ValueError:
                continue  # the option's own range (a probability), for every command
            spec.bot(f"{bot.name}:{option.name}={HUGE}")  # no interactive limit
    result = entry(
        "play", "fox", "--bots", "ismcts:iterations=1000000:seconds=0.01,random", "-n", "1",
        "--no-db", "--workers", "1", cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


def test_the_games_api_lists_each_bound(client: TestClient) -> None:
    cluedo = next(g for g in client.get("/api/games").json() if g["name"] == "cluedo")
    sleuth = next(b for b in cluedo["bots"] if b["name"] == "sleuth")
    most = {o["name"]: o["most"] for o in sleuth["options"]}
    assert most == {"samples": 20000, "rescore": 10, "threshold": 1, "rush": 1, "spare": 1}
    velma = next(b for b in cluedo["bots"] if b["name"] == "velma")
    assert {o["name"]: o["most"] for o in velma["options"]}["sampler"] is None


def test_a_bot_declaring_a_longer_move_than_the_web_allows_is_refused(
    client: TestClient,
) -> None:
    answer = client.post("/api/play", json={"game": "cluedo", "bots": {"1": "velma:sampler=exact"}})
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "bot 'velma:sampler=exact' of cluedo may take 120 s a move: the web app allows at most "
        f"{SLOWEST:g} s (the command line takes it)"
    )


class _Counter(Bot):
    def __init__(self, game: Any, seat: int, seed: int, steps: int) -> None:
        super().__init__(game, seat, seed)
        self.steps = steps

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return legal[0]


def test_an_option_without_a_declared_bound_may_only_lower_its_default() -> None:
    """A plug-in's numeric option that declares no interactive bound is bounded by its
    default, so a bot nobody reviewed for the web cannot be made slower there."""
    bot = BotSpec(
        "counter",
        ("hunter",),
        _Counter,
        "counts",
        options=(OptionSpec("steps", 50, "", parse_int(1)),),
    )
    assert bot.configured({"steps": "10"}, "fox", interactive=True).name == "counter:steps=10"
    assert bot.configured({"steps": "50"}, "fox", interactive=True).name == "counter:steps=50"
    with pytest.raises(OptionError, match="steps=51 of bot 'counter' of fox: at most 50 "):
        bot.configured({"steps": "51"}, "fox", interactive=True)
    assert bot.configured({"steps": "5000"}, "fox").name == "counter:steps=5000"
