"""The new-game page shows every bot option, and the largest value of each numeric one in the
web app, from the same data ``GET /api/games`` serves (walked over the registry, so a new bot
or option is covered without a change here)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.core.options import interactive_limit, limit_text
from sleuth.core.registry import game_specs


class BotTable(HTMLParser):
    """The bot table of a new-game page: for each bot row (``tr[data-bot]``), each option's
    span (``.bot-option``) as its attributes plus the text of its ``.most`` part (None when
    it has none)."""

    def __init__(self) -> None:
        super().__init__()
        self.bots: dict[str, dict[str, dict[str, str | None]]] = {}
        self._bot: str | None = None
        self._option: dict[str, str | None] | None = None
        self._in_most = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag == "tr" and "data-bot" in found:
            self._bot = found["data-bot"] or ""
            self.bots[self._bot] = {}
        elif tag == "span" and "bot-option" in classes and self._bot is not None:
            self._option = {**found, "most-text": None}
            self.bots[self._bot][found["data-option"] or ""] = self._option
        elif tag == "span" and "most" in classes and self._option is not None:
            self._in_most = True
            self._option["most-text"] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "span" and self._in_most:
            self._in_most = False
        elif tag == "span":
            self._option = None
        elif tag == "tr":
            self._bot = None

    def handle_data(self, data: str) -> None:
        if self._in_most and self._option is not None:
            self._option["most-text"] = (self._option["most-text"] or "") + data


def bot_table(client: TestClient, game: str) -> dict[str, dict[str, dict[str, str | None]]]:
    page = client.get(f"/play/new?game={game}")
    assert page.status_code == 200, page.text
    table = BotTable()
    table.feed(page.text)
    return table.bots


def test_the_form_shows_every_bot_option_and_its_bound_as_the_api_gives_it(
    client: TestClient,
) -> None:
    api = {g["name"]: g for g in client.get("/api/games").json()}
    bounded = 0
    for spec in game_specs():
        table = bot_table(client, spec.name)
        assert list(table) == [b.name for b in spec.bots], spec.name
        served = {b["name"]: {o["name"]: o for o in b["options"]} for b in api[spec.name]["bots"]}
        for bot in spec.bots:
            assert list(table[bot.name]) == [o.name for o in bot.options], (spec.name, bot.name)
            for option in bot.options:
                shown = table[bot.name][option.name]
                limit = interactive_limit(option)
                assert served[bot.name][option.name]["most"] == limit
                where = (spec.name, bot.name, option.name)
                if limit is None:
                    assert "data-most" not in shown and shown["most-text"] is None, where
                    continue
                assert shown["data-most"] == str(limit), where  # the digits, exactly
                assert shown["most-text"] == f"at most {limit_text(limit)}", where
                bounded += 1
    assert bounded >= 40  # the built-in bots have this many numeric options


def test_a_bound_past_float_precision_is_written_exactly(client: TestClient) -> None:
    """Velma's seed is bounded by the largest 64-bit seed: the page carries its digits, not a
    float's rounding of them (the form's script compares whole numbers exactly)."""
    velma = bot_table(client, "cluedo")["velma"]["seed"]
    assert velma["data-most"] == str(2**63 - 1)
    assert velma["most-text"] == "at most 9,223,372,036,854,775,807"


def test_a_refusal_writes_the_bound_as_the_form_does(client: TestClient) -> None:
    """For every bot option bounded in the web app only, a value just over its bound is
    refused with the bound written exactly as the form's bot table writes it ("at most 5,000"
    in both)."""
    compared = 0
    for spec in game_specs():
        roles = spec.make({}).roles
        table = bot_table(client, spec.name)
        for bot in spec.bots:
            seat = next(s for s, role in enumerate(roles) if role in bot.roles)
            for option in bot.options:
                limit = interactive_limit(option)
                if limit is None or limit == 2**63 - 1:  # a seed: nothing is over it
                    continue
                over = limit + 1 if isinstance(limit, int) else limit * 1.5 + 1
                try:
                    option.parse(over)
                except ValueError:
                    continue  # the option's own range ends at the bound (a probability)
                answer = client.post(
                    "/api/play",
                    json={
                        "game": spec.name,
                        "seat": 0 if seat else 1,
                        "bots": {str(seat): f"{bot.name}:{option.name}={over}"},
                    },
                )
                assert answer.status_code == 400, answer.text
                refused = re.search(r": (at most \S+) when a person waits", answer.json()["error"])
                assert refused is not None, answer.json()
                shown = table[bot.name][option.name]["most-text"]
                assert refused.group(1) == shown, (spec.name, bot.name, option.name)
                compared += 1
    assert compared >= 40


@pytest.mark.parametrize(
    ("most", "text"),
    [(5000, "5,000"), (10.0, "10"), (0.5, "0.5"), (1.0, "1"), (100000, "100,000"), (16, "16")],
)
def test_limit_text(most: float, text: str) -> None:
    assert limit_text(most) == text


def test_the_form_of_an_unknown_game_is_refused_by_name(client: TestClient) -> None:
    page = client.get("/play/new?game=no-such-game", headers={"Accept": "text/html"})
    assert page.status_code == 400
    assert "unknown game &#39;no-such-game&#39;" in page.text
    assert 'id="bot-list"' not in page.text
