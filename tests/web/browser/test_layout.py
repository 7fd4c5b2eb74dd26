"""The phone layout: every page readable at 390 px wide without zooming (the page's own width
fits the screen: no horizontal scroll), with its text at a readable size."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from tests.web.browser.conftest import PHONE, artifact
from tests.web.browser.pages import settle
from tests.web.browser.test_play import CASES

pytestmark = pytest.mark.browser

FITS = "() => document.documentElement.scrollWidth"
SMALLEST_TEXT = """() => Math.min(...[...document.querySelectorAll('body *')]
    .filter(e => !e.closest('svg') && e.offsetParent !== null
        && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))
    .map(e => parseFloat(getComputedStyle(e).fontSize)))"""
READABLE_PX = 12.0


def check_fits(page: Page, name: str) -> None:
    page.screenshot(path=artifact(f"phone-{name}"), full_page=True)
    assert page.evaluate("() => window.innerWidth") == PHONE["width"]
    assert page.evaluate(FITS) <= PHONE["width"]
    assert page.evaluate(SMALLEST_TEXT) >= READABLE_PX


@pytest.mark.parametrize("path", ["/", "/assist"])
def test_the_start_pages_fit_a_phone(phone: Page, path: str) -> None:
    phone.goto(path)
    check_fits(phone, path.strip("/") or "home")


@pytest.mark.parametrize(("game", "role", "options"), CASES)
def test_the_forms_and_boards_fit_a_phone(
    phone: Page, game: str, role: str, options: dict[str, str]
) -> None:
    phone.goto(f"/play/new?game={game}")
    check_fits(phone, f"new-{game}")
    started = phone.request.post(
        "/api/play", data={"game": game, "role": role, "options": options, "seed": 2}
    )
    assert started.ok, started.text()
    phone.goto(f"/play/{started.json()['id']}")
    settle(phone)
    board = phone.locator("#board").bounding_box()  # a big map scrolls inside the board
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= PHONE["width"]
    check_fits(phone, f"play-{game}-{role}")
