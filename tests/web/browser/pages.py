"""Steps the browser tests (and the screenshot script) share: start a game from the form, wait
for the page to settle, play it through by clicking legal actions (buttons, and the board's
clickable parts); open an assistant's notepad and type entries."""

from __future__ import annotations

import json
import random
import re

from playwright.sync_api import Page

GAME_URL = re.compile(r"/play/(?!new)[A-Za-z0-9_-]+$")
SETTLED = """() => document.getElementById('status').textContent !== ''
    && !document.getElementById('game').classList.contains('busy')
    && document.getElementById('game').dataset.turn !== 'theirs'"""
"""The page is at the person's turn (or at the end), with no request pending: the bots' and
chance's moves have arrived (they move in the background)."""
MAX_MOVES = 400
"""A game against random bots ends well before this many human actions (else the test fails)."""


def start_game(
    page: Page,
    game: str,
    role: str,
    *,
    bots: str = "",
    options: dict[str, str] | None = None,
    seed: int = 1,
) -> str:
    """Fill the new-game form of ``game`` and start; the game's id (its page is open)."""
    page.goto(f"/play/new?game={game}")
    page.select_option("#role", role)
    page.fill("#bots", bots)
    for name, value in (options or {}).items():
        page.fill(f'input[name="option:{name}"]', value)
    page.fill('input[name="seed"]', str(seed))
    page.click("#new-game button[type=submit]")
    page.wait_for_url(GAME_URL)
    settle(page)
    return page.url.rsplit("/", 1)[1]


def settle(page: Page) -> None:
    """Wait until the game page is at its person's turn or over, with no request pending."""
    page.wait_for_function(SETTLED)


def over(page: Page) -> bool:
    return page.locator("#result").is_visible()


def texts(page: Page, selector: str) -> list[str]:
    return page.locator(selector).all_inner_texts()


def legal(page: Page) -> list[str]:
    """The legal actions the page lists as buttons."""
    return [
        action
        for action in page.locator("#actions button").evaluate_all(
            "buttons => buttons.map(b => b.dataset.action)"
        )
        if action is not None
    ]


IDLE = "() => !document.getElementById('game').classList.contains('busy')"
"""The page has no request pending (whoever is to move)."""


def play_once(page: Page, rng: random.Random, settled: str = SETTLED) -> str:
    """Click one legal action: a clickable part of the board now and then, else a listed
    button (no Cluedo accusation while another action is open), then wait until the page is
    ``settled`` (by default: at its person's turn again); the action clicked."""
    listed = legal(page)
    assert listed, "the human is to move but no action is listed"
    board = page.locator("#board [data-action]")
    if board.count() and rng.random() < 0.3:
        target = board.nth(rng.randrange(board.count()))
        action = target.get_attribute("data-action") or ""
        assert action in listed, f"the board offers {action!r}, not a listed action"
    else:
        action = rng.choice([a for a in listed if not a.startswith("accuse")] or listed)
        target = page.locator(f"#actions button[data-action={json.dumps(action)}]")
    with page.expect_response(re.compile(r"/api/play/[^/]+/action$")) as answer:
        target.first.click()
    assert answer.value.ok, answer.value.text()
    page.wait_for_function(settled)
    assert page.locator("#error").inner_text() == ""
    return action


def play_through(page: Page, seed: int, reload_at: int = 3) -> int:
    """Play the open game to its end, reloading the page after ``reload_at`` actions (the
    page must come back as it was); the number of actions played."""
    rng = random.Random(seed)
    moves = 0
    while not over(page):
        assert moves < MAX_MOVES, f"no end after {MAX_MOVES} actions"
        if moves == reload_at:
            before = texts(page, "#events li"), legal(page)
            page.reload()
            settle(page)
            assert (texts(page, "#events li"), legal(page)) == before
        play_once(page, rng)
        moves += 1
    return moves


NOTEPAD_URL = re.compile(r"/assist/[A-Za-z0-9_-]+$")
NOTEPAD_SETTLED = """() => document.getElementById('status').textContent !== ''
    && !document.getElementById('notepad').classList.contains('busy')"""


def open_notepad(page: Page, game: str, options: dict[str, str] | None = None) -> str:
    """Open a new notepad of ``game`` from the /assist page, with these game options typed in
    its form (the others at their defaults); its id."""
    page.goto("/assist")
    form = page.locator(f'form.new-notepad[data-game="{game}"]')
    if options:
        form.locator("summary").click()
    for name, value in (options or {}).items():
        form.locator(f'[name="option:{name}"]').fill(value)
    form.locator("button[type=submit]").click()
    page.wait_for_url(NOTEPAD_URL)
    settle_notepad(page)
    return page.url.rsplit("/", 1)[1]


def settle_notepad(page: Page) -> None:
    """Wait until the notepad page shows an answer and no request is pending."""
    page.wait_for_function(NOTEPAD_SETTLED)


def history(page: Page) -> list[str]:
    return page.locator("#history li .entry").all_inner_texts()


def send(page: Page, click: str, url: str) -> None:
    """Click ``click`` and wait for the answer to the request it sends (to a URL matching
    ``url``); the page must show no error."""
    with page.expect_response(re.compile(url)) as answer:
        page.click(click)
    assert answer.value.ok, answer.value.text()
    settle_notepad(page)
    assert page.locator("#error").inner_text() == ""


def enter(page: Page, text: str) -> None:
    before = len(history(page))
    page.fill("#entry-text", text)
    send(page, "#entry-form button[type=submit]", r"/entries$")
    assert len(history(page)) == before + 1
    assert page.locator("#entry-text").input_value() == ""
