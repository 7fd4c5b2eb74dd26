"""The assistants in a real browser: for each game a notepad opened from the /assist page,
entries typed as at the table, undo, edit, delete, reload and go on, save (a download) and
load (an upload) into a new notepad; the fox puzzle by clicks (holes, a missed entry
inserted, hint, give up: the dodging walk drawn) and the Cluedo notepad's ``why``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.web.browser.conftest import artifact
from tests.web.browser.pages import enter, history, open_notepad, send, settle_notepad
from tests.web.browser.tables import entries

pytestmark = pytest.mark.browser

GAMES = ["fox", "fugitive", "camel-up", "scotland-yard", "cluedo"]
COUNT = 12
"""Entries typed into each notepad."""


@pytest.mark.parametrize("game", GAMES)
def test_a_notepad_takes_entries_undo_edits_reloads_and_saves(
    page: Page, game: str, tmp_path: Path
) -> None:
    texts = entries(game, seed=3, count=COUNT)
    assert len(texts) == COUNT
    notepad = open_notepad(page, game)
    half = COUNT // 2
    for text in texts[:half]:
        enter(page, text)
    typed = history(page)
    send(page, "#undo", r"/undo$")
    assert history(page) == typed[:-1]
    assert page.locator("#message").inner_text().startswith("took back")
    enter(page, texts[half - 1])
    assert history(page) == typed

    last = f'#history li[data-entry="{half}"]'
    page.click(f"{last} button:has-text('edit')")
    page.fill(f"{last} form input", texts[half - 1])
    send(page, f"{last} form button[type=submit]", rf"/entries/{half}$")
    assert history(page) == typed
    assert page.locator("#message").inner_text().startswith(f"edited entry {half}")
    send(page, f"{last} button:has-text('delete')", rf"/entries/{half}$")
    assert history(page) == typed[:-1]
    enter(page, texts[half - 1])

    rendering = page.locator("#rendering").inner_text()
    page.reload()
    settle_notepad(page)
    assert history(page) == typed
    assert page.locator("#rendering").inner_text() == rendering
    for text in texts[half:]:
        enter(page, text)
    assert page.locator("#board svg").count() >= 1
    page.screenshot(path=artifact(f"notepad-{game}"), full_page=True)

    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "notepad.jsonl"
    download.value.save_as(saved)
    lines = [json.loads(line) for line in saved.read_text().splitlines()]
    assert lines[0]["game"] == game
    full = history(page)
    rendering = page.locator("#rendering").inner_text()
    other = open_notepad(page, game)
    assert other != notepad and history(page) == []
    with page.expect_response(re.compile(r"/load$")):
        page.set_input_files("#load-file", saved)
    settle_notepad(page)
    assert page.locator("#error").inner_text() == ""
    assert history(page) == full
    assert page.locator("#rendering").inner_text() == rendering


def test_a_refused_entry_names_the_problem_and_changes_nothing(page: Page) -> None:
    open_notepad(page, "scotland-yard")
    enter(page, "start 64,129,138,161,196")
    page.fill("#entry-text", "d1 taxi 999")
    page.click("#entry-form button[type=submit]")
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "999" in page.locator("#error").inner_text()
    assert history(page) == ["start 64,129,138,161,196"]
    assert page.locator("#entry-text").input_value() == "d1 taxi 999"  # kept, to fix


def test_the_fox_puzzle_by_clicks(page: Page) -> None:
    open_notepad(page, "fox")
    for hole in (1, 2, 3):
        send(page, f'#board [data-action="inspect {hole}"]', r"/entries$")
    assert history(page) == ["inspect 1", "inspect 2", "inspect 3"]
    send(page, '#history li[data-entry="2"] button:has-text("delete")', r"/entries/2$")
    assert history(page) == ["inspect 1", "inspect 3"]
    page.click('#history li[data-entry="2"] button:has-text("insert")')
    page.fill('#history li[data-entry="2"] form input', "2")
    send(page, '#history li[data-entry="2"] form button[type=submit]', r"/entries/2$")
    assert history(page) == ["inspect 1", "inspect 2", "inspect 3"]
    assert page.locator("#message").inner_text().startswith("inserted entry 2")
    page.uncheck("#show-possible")
    assert "hide-possible" in (page.locator("#board").get_attribute("class") or "")
    page.check("#show-possible")
    send(page, "#commands button:has-text('hint')", r"/command$")
    hint = page.locator("#message").inner_text()
    assert hint.startswith("hint: inspect")
    send(page, "#commands button:has-text('give up')", r"/command$")
    assert page.locator("#message").inner_text().startswith("gave up")
    walk = page.locator("#board svg .walk").text_content() or ""
    assert walk.startswith("the fox's walk")
    assert page.locator("#board svg .walk-days").count() >= 1
    assert page.locator("#entry-form").is_hidden()
    page.screenshot(path=artifact("notepad-fox-given-up"), full_page=True)
    send(page, "#undo", r"/undo$")
    assert history(page) == ["inspect 1", "inspect 2"]
    assert page.locator("#entry-form").is_visible()


def test_the_cluedo_notepad_explains_a_card(page: Page) -> None:
    open_notepad(page, "cluedo")
    for text in entries("cluedo", seed=3, count=8):
        enter(page, text)
    page.click("#commands button:has-text('why')")
    assert page.locator("#command-text").input_value() == "why "
    page.fill("#command-text", "why plum")
    send(page, "#command-form button[type=submit]", r"/command$")
    assert "plum" in page.locator("#message").inner_text().lower()
    assert page.locator("#board svg .entropy").count() == 1
