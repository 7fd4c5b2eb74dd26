"""Games with friends in a real browser: two browser contexts (two people, each with their own
cookies) play one game of each kind to the end, each through their own link; each person's
page shows the other's moves without a reload (server-sent events), and whose turn it is.
First each names their seat, and the friend hands their seat to a bot and takes it back: the
other page shows each change without a reload, and the names in its events."""

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


BOB = "Bob <i>"
"""The friend's name: plain text, which no page may read as markup."""


def _turn(page: Page) -> str:
    return page.locator("#game").get_attribute("data-turn") or ""


def _shows(page: Page, words: str) -> None:
    """Wait until the page's line of players says ``words`` (arrived by the event stream)."""
    page.wait_for_function(
        "words => document.getElementById('players').textContent.includes(words)", arg=words
    )


def _names_and_a_seat_taken_back(starter: Page, guest: Page, friend: str) -> None:
    """Each person names their seat (the other page shows it without a reload); the friend
    hands their seat to a bot by the page's form and takes it back by its button, and the
    starter's page shows the bot, then the friend's name again."""
    for page, name, other in ((starter, "Alice", guest), (guest, BOB, starter)):
        page.fill("#name-text", name)
        page.click("#naming button")
        _shows(other, f": {name}")
    assert starter.locator("#players i").count() == 0  # the name is text, not markup
    assert guest.locator("#reclaim").is_hidden()
    guest.select_option("#hand-over select", friend)
    guest.fill('#hand-over input[name="bot"]', "random")
    guest.click("#hand-over button")
    guest.wait_for_url(GAME_URL)
    assert guest.locator("#reclaim").is_visible()
    _shows(starter, ": random")
    guest.click("#reclaim button")
    guest.wait_for_function("() => document.getElementById('reclaim').hidden")
    assert f"seat {friend} " in guest.locator("#players").inner_text()
    _shows(guest, ": you")
    _shows(starter, f": {BOB}")


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
        starter.fill("#name", "Al")  # names typed at the start, changed on the pages below
        starter.fill("#names", f"{friend}=Bo")
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
        assert guest.input_value("#name-text") == "Bo" and ": Al" in texts(guest, "#players")[0]
        for page in (starter, guest):
            page.wait_for_function(IDLE)
        _names_and_a_seat_taken_back(starter, guest, friend)
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
        for page in (starter, guest):  # the other person's name in the events
            other = "Alice" if page is guest else BOB
            assert any(other in line for line in texts(page, "#events li")), other
        for page, before in zip(pages, reloads, strict=True):
            assert page.evaluate("performance.getEntriesByType('navigation').length") == before
        starter.screenshot(path=artifact(f"friends-{game}"), full_page=True)
    finally:
        for context in contexts:
            context.close()
