"""The assistants in a real browser: open each from /assist, type entries, undo, edit a past
entry, reload the page and go on; the fox puzzle by clicking holes; save and load through the
page; the phone-width layout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser.conftest import Server, artifact

pytestmark = pytest.mark.browser

NOTEPAD_URL = re.compile(r"/assist/[A-Za-z0-9_-]+$")
SETTLED = """() => document.getElementById('status').textContent !== ''
    && !document.getElementById('notepad').classList.contains('busy')"""

CASES = {
    "fox": ({}, ["2", "3", "3"]),
    "fugitive": ({}, ["hideout 1", "hideout 2", "draw 2 17"]),
    "camel-up": (
        {"rollouts": "500"},
        ["start 1:blue 2:green,orange 3:yellow,white", "roll blue 2", "leg blue"],
    ),
    "scotland-yard": ({"starts": "9,10,15,17,19"}, ["x taxi", "d1 taxi 8", "d2 taxi 11"]),
    "cluedo": (
        {"players": "Ann, Bob, Cy, Dan", "me": "Ann", "hand": "Plum, Knife, Hall, Rope, Study"},
        ["Bob suggests Green Rope Study", "Cy passes", "Dan shows"],
    ),
}
"""Per assistant: the settings typed in its form and three entries."""


def open_notepad(page: Page, game: str, params: dict[str, str]) -> str:
    """Open a notepad of ``game`` from the /assist page; its id (its page is open)."""
    page.goto("/assist")
    form = page.locator(f'form.new-notepad[data-game="{game}"]')
    for name, value in params.items():
        form.locator(f'[name="param:{name}"]').fill(value)
    form.locator("button[type=submit]").click()
    page.wait_for_url(NOTEPAD_URL)
    settle(page)
    return page.url.rsplit("/", 1)[1]


def settle(page: Page) -> None:
    page.wait_for_function(SETTLED)


def type_entry(page: Page, text: str) -> None:
    with page.expect_response(re.compile(r"/entries$")) as answer:
        page.fill("#entry-text", text)
        page.press("#entry-text", "Enter")
    assert answer.value.ok, answer.value.text()
    settle(page)


def history(page: Page) -> list[str]:
    return page.locator("#history .entry").all_inner_texts()


@pytest.mark.parametrize("game", list(CASES))
def test_each_assistant_in_the_browser(page: Page, game: str) -> None:
    params, entries = CASES[game]
    open_notepad(page, game, params)
    first = len(history(page))
    for text in entries:
        type_entry(page, text)
    assert len(history(page)) == first + 3
    assert page.locator("#rendering div.rich").count() == 1
    assert page.locator("#board svg").count() >= 1
    shown = page.locator("#rendering").inner_text()
    # undo, then enter the same again: the same rendering
    page.click("#undo")
    page.wait_for_function(f"() => document.querySelectorAll('#history li').length === {first + 2}")
    settle(page)
    type_entry(page, entries[-1])
    assert page.locator("#rendering").inner_text() == shown
    # a refused entry: the assistant's message, nothing changed
    page.fill("#entry-text", "no such entry at all")
    page.press("#entry-text", "Enter")
    page.wait_for_function("() => document.getElementById('error').textContent !== ''")
    assert len(history(page)) == first + 3
    # reload: the notepad is kept by the server
    page.reload()
    settle(page)
    assert len(history(page)) == first + 3
    assert page.locator("#rendering").inner_text() == shown
    page.screenshot(path=artifact(f"assist-{game}"), full_page=True)


def test_edit_and_delete_a_past_entry(page: Page) -> None:
    open_notepad(page, "fox", {})
    for text in ["1", "2", "3"]:
        type_entry(page, text)
    item = page.locator('#history li[data-entry="2"]')
    item.locator("button", has_text="edit").click()
    item.locator("input").fill("4")
    with page.expect_response(re.compile(r"/entries/2$")):
        item.locator("button[type=submit]").click()
    settle(page)
    assert history(page) == ["inspect 1", "inspect 4", "inspect 3"]
    with page.expect_response(re.compile(r"/entries/1$")):
        page.locator('#history li[data-entry="1"] button', has_text="delete").click()
    settle(page)
    assert history(page) == ["inspect 4", "inspect 3"]


def test_the_fox_puzzle_by_clicking(page: Page) -> None:
    open_notepad(page, "fox", {})
    assert page.locator("#board .possible").count() == 5
    for hole in (1, 2, 3):
        with page.expect_response(re.compile(r"/entries$")):
            page.locator(f'#board [data-hole="{hole}"]').click()
        settle(page)
    assert history(page) == ["inspect 1", "inspect 2", "inspect 3"]
    page.uncheck("#show-possible")  # the marks switch hides the possible holes
    assert page.locator("#board").evaluate("b => b.classList.contains('hide-possible')")
    page.check("#show-possible")
    with page.expect_response(re.compile(r"/command$")):
        page.locator("#commands button", has_text="give up").click()
    settle(page)
    assert "the fox's walk" in page.locator("#board").inner_text()
    assert page.locator("#entry-form").is_hidden()
    page.screenshot(path=artifact("assist-fox-given-up"), full_page=True)


def test_save_then_load_in_another_notepad(page: Page, tmp_path: Path) -> None:
    open_notepad(page, "fox", {})
    for text in ["1", "2"]:
        type_entry(page, text)
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "fox.jsonl"
    download.value.save_as(saved)
    open_notepad(page, "fox", {})
    assert history(page) == []
    with page.expect_response(re.compile(r"/load$")):
        page.set_input_files("#load-file", str(saved))
    settle(page)
    assert history(page) == ["inspect 1", "inspect 2"]


def test_phone_width(browser: Browser, server: Server) -> None:
    context = browser.new_context(base_url=server.url, viewport={"width": 390, "height": 844})
    page = context.new_page()
    params, entries = CASES["scotland-yard"]
    open_notepad(page, "scotland-yard", params)
    for text in entries:
        type_entry(page, text)
    wide = page.evaluate("() => document.documentElement.scrollWidth")
    assert wide <= 390, f"the page is {wide} px wide at a 390 px screen"
    page.screenshot(path=artifact("assist-phone-scotland-yard"), full_page=True)
    context.close()


def test_a_station_click_completes_the_entry_and_notepads_can_be_forgotten(page: Page) -> None:
    open_notepad(page, "scotland-yard", CASES["scotland-yard"][0])
    type_entry(page, "x taxi")
    page.fill("#entry-text", "d1 taxi")
    page.locator('#board g.station[data-station="8"]').click()
    assert page.input_value("#entry-text") == "d1 taxi 8"
    with page.expect_response(re.compile(r"/entries$")):
        page.press("#entry-text", "Enter")
    settle(page)
    assert history(page)[-1] == "d1 taxi 8"
    page.goto("/assist")
    assert page.locator("#my-notepads li").count() == 1
    with page.expect_response(re.compile(r"/api/assist/[^/]+$")):
        page.locator("#my-notepads button.forget").click()
    page.reload()
    assert page.locator("#my-notepads li").count() == 0
