"""Games with friends in a real browser: two browser contexts (two people, each with their own
cookies) play one game of each kind to the end, each through their own link; each person's
page shows the other's moves without a reload (server-sent events), and whose turn it is."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser.conftest import Server, artifact
from tests.web.browser.pages import GAME_URL, IDLE, MAX_MOVES, play_once, texts

pytestmark = pytest.mark.browser

CASES = [
    ("fox", "hunter", {"graph": "cycle:5"}, "1"),
    ("fugitive", "marshal", {"max_rounds": "6"}, "0"),
    ("camel-up", "player", {"players": "2", "turn_cap": "30"}, "1"),
    ("scotland-yard", "detectives", {"max_rounds": "4"}, "0"),
    ("cluedo", "player", {"players": "3", "max_turns": "30"}, "1"),
]
"""Game, the starter's role, small options, and the friend's seat (the other seats: bots)."""
WAITING = """() => document.getElementById('game').dataset.turn !== 'theirs'
    && !document.getElementById('game').classList.contains('busy')"""
"""A page that is at its person's turn, or at the end."""


def _turn(page: Page) -> str:
    return page.locator("#game").get_attribute("data-turn") or ""


@pytest.mark.parametrize(("game", "role", "options", "friend"), CASES)
def test_two_people_play_a_game_to_the_end(
    browser: Browser, server: Server, game: str, role: str, options: dict[str, str], friend: str
) -> None:
    contexts = [browser.new_context(base_url=server.url, has_touch=True) for _ in range(2)]
    try:
        starter, guest = (context.new_page() for context in contexts)
        for page in (starter, guest):
            page.set_default_timeout(30_000)
        starter.goto(f"/play/new?game={game}")
        starter.select_option("#role", role)
        starter.fill("#people", friend)
        for name, value in options.items():
            starter.fill(f'input[name="option:{name}"]', value)
        starter.fill('input[name="seed"]', "5")
        starter.click("#new-game button[type=submit]")
        starter.wait_for_url(GAME_URL)
        links = dict(
            starter.locator("#links li").evaluate_all(
                "items => items.map(li => [li.textContent.split(' ')[1], li.lastChild.href])"
            )
        )
        assert len(links) == 2 and friend in links
        guest.goto(links[friend])
        assert guest.locator("#links").count() == 0  # a friend sees no other seat's link
        rng = random.Random(5)
        pages = [starter, guest]
        moves = waits = 0
        reloads = [
            page.evaluate("performance.getEntriesByType('navigation').length") for page in pages
        ]
        while True:
            for page in pages:
                page.wait_for_function(IDLE)
            turns = [_turn(page) for page in pages]
            if "over" in turns:
                for page in pages:  # the end reaches both pages
                    page.wait_for_function(WAITING)
                    assert _turn(page) == "over" and page.locator("#result").is_visible()
                break
            ready = [page for page, turn in zip(pages, turns, strict=True) if turn == "yours"]
            if not ready:  # the bots or chance are moving: their moves arrive by themselves
                waits += 1
                assert waits < 600, f"no page at its turn for a minute: {turns}"
                pages[0].wait_for_timeout(100)
                continue
            waits = 0
            assert len(ready) == 1, "two people are never to move at once"
            (page,) = ready
            other = pages[1 - pages.index(page)]
            assert "your move" in page.locator("#status").inner_text()
            assert "to move" in other.locator("#status").inner_text()
            assert other.locator("#actions button").count() == 0
            seen = len(texts(other, "#events li"))
            play_once(page, rng, settled=IDLE)
            moves += 1
            assert moves < MAX_MOVES
            if moves <= 3:  # the other page shows the move without a reload
                other.wait_for_function(
                    f"() => document.querySelectorAll('#events li').length > {seen}"
                    " || document.getElementById('game').dataset.turn !== 'theirs'"
                )
        assert moves >= 1
        for page, before in zip(pages, reloads, strict=True):
            assert page.evaluate("performance.getEntriesByType('navigation').length") == before
        starter.screenshot(path=artifact(f"friends-{game}"), full_page=True)
    finally:
        for context in contexts:
            context.close()
