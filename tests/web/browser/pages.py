"""Steps the browser tests (and the screenshot script) share: start a game from the form, wait
for the page to settle, play it through by tapping (the picker's steps and buttons, and the
board's clickable parts); open an assistant's notepad and type entries."""

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
BOTS_MS = 120_000
"""How long an answer may take while the bots move (the default bots, on a loaded machine)."""


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
    page.wait_for_url(GAME_URL, timeout=BOTS_MS)
    settle(page)
    return page.url.rsplit("/", 1)[1]


def settle(page: Page) -> None:
    """Wait until the game page is at its person's turn or over, with no request pending."""
    page.wait_for_function(SETTLED, timeout=BOTS_MS)


def over(page: Page) -> bool:
    return page.locator("#result").is_visible()


def texts(page: Page, selector: str) -> list[str]:
    return page.locator(selector).all_inner_texts()


def legal(page: Page) -> list[str]:
    """The actions the page's buttons play (the picker's, at its current step)."""
    return [
        action
        for action in page.locator("#actions button").evaluate_all(
            "buttons => buttons.map(b => b.dataset.action)"
        )
        if action is not None
    ]


WIDEST = "() => document.documentElement.scrollWidth"


IDLE = "() => !document.getElementById('game').classList.contains('busy')"
"""The page has no request pending (whoever is to move)."""


def play_once(page: Page, rng: random.Random, settled: str = SETTLED) -> str:
    """Play one action by taps alone: now and then a clickable part of the board, else the
    picker's choices, a step at a time, until a tap completes an action (a Cluedo accusation
    only when nothing else is offered; a completing choice half the time one is offered past
    the first step, so that a Marshal's guess ends), then wait until the page is ``settled``
    (by default: at its person's turn again); the action played."""
    while True:
        prefix = page.locator("#actions").get_attribute("data-prefix")
        board = page.locator("#board [data-action]")
        if not prefix and board.count() and rng.random() < 0.3:
            target = board.nth(rng.randrange(board.count()))
            action = target.get_attribute("data-action") or ""
            assert action in legal(page), f"the board offers {action!r}, not a button's action"
            break
        offered = page.locator("#actions [data-action], #actions a.step").all()
        assert offered, "the human is to move but nothing is offered"
        texts = [o.inner_text() for o in offered]
        keep = [o for o, t in zip(offered, texts, strict=True) if not t.startswith("accuse")]
        done = [o for o in keep if o.get_attribute("data-action") is not None]
        pool = done if prefix and done and rng.random() < 0.5 else keep or offered
        target = rng.choice(pool)
        action = target.get_attribute("data-action") or ""
        if action:
            break
        step = target.get_attribute("data-pick")
        target.tap()
        page.wait_for_function(
            f"document.getElementById('actions').dataset.prefix === {json.dumps(step)}"
        )
    with page.expect_response(re.compile(r"/api/play/[^/]+/action$"), timeout=BOTS_MS) as answer:
        target.tap()
    assert answer.value.ok, answer.value.text()
    page.wait_for_function(settled, timeout=BOTS_MS)
    assert page.locator("#error").inner_text() == ""
    return action


def play_through(page: Page, seed: int, reload_at: int = 3, fits: int | None = None) -> int:
    """Play the open game to its end by taps, reloading the page after ``reload_at`` actions
    (the page must come back as it was) and, with ``fits``, checking after every action that
    the page is no wider than that (nothing overflows the screen); the number of actions
    played."""
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
        if fits is not None:
            assert page.evaluate(WIDEST) <= fits, f"wider than the screen after {moves} actions"
    return moves


NOTEPAD_URL = re.compile(r"/assist/[A-Za-z0-9_-]+$")
NOTEPAD_SETTLED = """() => document.getElementById('status').textContent !== ''
    && !document.getElementById('notepad').classList.contains('busy')"""


def open_notepad(page: Page, game: str, options: dict[str, str] | None = None) -> str:
    """Open a new notepad of ``game`` from the /assist page, with these game options typed in
    its form (the others at their defaults); its id."""
    page.goto("/assist")
    form = page.locator(f'form.new-notepad[data-game="{game}"]')
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
