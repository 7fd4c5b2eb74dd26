"""Games against the bots in a real browser: every game and role played to its end on a phone
by taps alone (the picker's steps and buttons, and the board), with a page reload on the way
and nothing wider than the screen; typed actions; another session's game; a server restart in
the middle of a game."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.browser.conftest import PHONE, Server, artifact
from tests.web.browser.pages import (
    GAME_URL,
    over,
    play_once,
    play_through,
    settle,
    start_game,
    texts,
)

pytestmark = pytest.mark.browser

CASES = [
    ("fox", "hunter", {}),
    ("fox", "fox", {}),
    ("fugitive", "marshal", {}),
    ("fugitive", "fugitive", {}),
    ("camel-up", "player", {}),
    ("scotland-yard", "detectives", {}),
    ("scotland-yard", "mrx", {}),
    ("cluedo", "player", {"players": "3"}),
]
"""Game, the human's role and options; the other seats get the form's default bots."""


@pytest.mark.parametrize(("game", "role", "options"), CASES)
def test_a_whole_game_is_played_by_taps_on_a_phone(
    phone: Page, game: str, role: str, options: dict[str, str]
) -> None:
    page = phone
    start_game(page, game, role, options=options, seed=7)
    assert page.locator("#board svg").count() == 1
    moves = play_through(page, seed=7, fits=PHONE["width"])
    assert moves >= 1
    result = page.locator("#result").inner_text()
    assert result.startswith("Result")
    assert page.locator("#full-log").is_visible()
    assert page.locator("#log li").count() >= moves
    assert page.locator("#action-form").is_hidden()
    page.screenshot(path=artifact(f"play-{game}-{role}"), full_page=True)


def test_the_forms_bots_and_options_are_used(page: Page) -> None:
    game = start_game(
        page, "fox", "hunter", bots="1=quantum", options={"graph": "cycle:5", "days": "3"}
    )
    players = page.request.get(f"/api/play/{game}").json()["players"]
    assert [p["player"] for p in players] == ["you", "quantum"]
    assert page.locator("#board svg circle, #board svg [data-action]").count() >= 5
    play_through(page, seed=1)
    assert over(page)


def test_the_one_detective_role_gets_a_seat_per_detective(page: Page) -> None:
    game = start_game(page, "scotland-yard", "detective", options={"max_rounds": "2"})
    answer = page.request.get(f"/api/play/{game}").json()
    assert answer["options"]["seats"] == 6 and answer["role"] == "detective"
    play_through(page, seed=2)
    assert over(page)


def test_a_bad_form_names_the_problem_and_starts_nothing(page: Page) -> None:
    page.goto("/play/new?game=fox")
    page.fill("#bots", "1=no-such-bot")
    page.click("#new-game button[type=submit]")
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "no-such-bot" in page.locator("#error").inner_text()
    assert page.url.endswith("/play/new?game=fox")
    page.goto("/")
    assert page.locator("#my-games").count() == 0


def test_a_bot_option_shows_its_bound_and_a_larger_value_is_refused_by_name(page: Page) -> None:
    page.goto("/play/new?game=fox")
    page.select_option("#role", "hunter")
    page.fill('input[name="seed"]', "4")
    page.fill("#bots", "1=ismcts:iterations=9000")
    check = page.locator("#bot-check")
    assert "iterations at most 5,000" in check.locator(".hint").inner_text()
    assert check.locator(".error").inner_text() == (
        "seat 1, ismcts: iterations=9000 is too large here, iterations at most 5,000"
    )
    page.click("#new-game button[type=submit]")  # the server is the judge: it refuses
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    refusal = page.locator("#error").inner_text()
    assert "iterations=9000 of bot 'ismcts'" in refusal and "at most 5,000 " in refusal
    assert page.url.endswith("/play/new?game=fox")  # the choices stay, to be corrected
    assert page.input_value("#bots") == "1=ismcts:iterations=9000"
    assert page.input_value("#role") == "hunter"
    assert page.input_value('input[name="seed"]') == "4"
    page.fill("#bots", "1=ismcts:iterations=200")
    assert check.locator(".error").count() == 0
    page.click("#new-game button[type=submit]")
    page.wait_for_url(GAME_URL)
    settle(page)
    game = page.url.rsplit("/", 1)[1]
    players = page.request.get(f"/api/play/{game}").json()["players"]
    assert [p["player"] for p in players] == ["you", "ismcts:iterations=200"]


def test_the_script_sends_the_seat_and_seed_as_typed(page: Page) -> None:
    """A seat that is not a number is refused by name (not dropped), a bot line for a seat
    named twice is refused as the form without scripts refuses it, and a 64-bit seed reaches
    the server whole (a JavaScript number would round it)."""
    page.goto("/play/new?game=fox")
    page.select_option("#role", "hunter")
    for field, text, message, blamed in [
        ('input[name="seat"]', "abc", "seat: Input should be a valid integer", "seat"),
        ('input[name="seat"]', "7", "seat 7 does not exist", "seat"),
        ("#bots", "1=quantum\n1=random", 'bot line "1=random": seat 1 has a bot already', None),
        ("#bots", "1=no-such-bot", "unknown bot 'no-such-bot'", "bots"),
    ]:
        page.fill(field, text)
        page.click("#new-game button[type=submit]")
        page.wait_for_function("document.getElementById('error').textContent !== ''")
        assert message in page.locator("#error").inner_text()
        assert page.url.endswith("/play/new?game=fox")
        outlined = page.eval_on_selector_all(
            "[aria-invalid=true]", "nodes => nodes.map(n => n.name)"
        )
        assert outlined == ([blamed] if blamed else [])  # the field the server blames, alone
        page.fill(field, "")
    seed = 2**63 - 1
    page.fill('input[name="seed"]', str(seed))
    with page.expect_request("**/api/play") as sent:
        page.click("#new-game button[type=submit]")
    posted = sent.value.post_data_json
    assert posted is not None and int(posted["seed"]) == seed
    page.wait_for_url(GAME_URL)


def test_the_new_game_form_works_without_scripts(browser: Browser, server: Server) -> None:
    """With JavaScript off the browser sends the form itself: a refused one comes back (400)
    naming the field at fault, with the choices kept and nothing stored; a good one opens the
    game's page."""
    context = browser.new_context(base_url=server.url, java_script_enabled=False)
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        page.goto("/play/new?game=fox")
        page.select_option("#role", "hunter")
        page.fill('input[name="option:graph"]', "cycle:5")
        page.fill('input[name="seed"]', "4")
        page.fill("#bots", "1=ismcts:iterations=9000")
        with page.expect_navigation() as refused:
            page.click("#new-game button[type=submit]")
        assert refused.value is not None and refused.value.status == 400
        assert page.locator("#bot-check").inner_text() == ""  # no script ran
        error = page.locator("#error").inner_text()
        assert error.startswith("bots: option iterations=9000 of bot 'ismcts'"), error
        assert "at most 5,000 " in error
        assert page.get_attribute("#bots", "aria-invalid") == "true"
        assert page.input_value("#bots") == "1=ismcts:iterations=9000"
        assert page.input_value("#role") == "hunter"
        assert page.input_value('input[name="option:graph"]') == "cycle:5"
        assert page.input_value('input[name="seed"]') == "4"
        assert not context.cookies()  # nothing stored, so no session
        page.fill("#bots", "1=quantum")
        with page.expect_navigation(url=GAME_URL) as started:
            page.click("#new-game button[type=submit]")
        assert started.value is not None and started.value.status == 200
        game = page.url.rsplit("/", 1)[1]
        answer = page.request.get(f"/api/play/{game}").json()
        assert [p["player"] for p in answer["players"]] == ["you", "quantum"]
        assert answer["options"]["graph"] == "cycle:5" and answer["role"] == "hunter"
    finally:
        context.close()


def await_turn_without_scripts(page: Page) -> None:
    """Wait until the human may move or the game is over: while a bot thinks, the page without
    scripts reloads itself (``<meta http-equiv="refresh">``) until it is the human's turn."""
    expect(page.locator("#status")).to_have_text(
        re.compile(r"your move$|^game over$"), timeout=20_000
    )


def test_a_game_is_played_to_its_end_without_scripts(browser: Browser, server: Server) -> None:
    """With JavaScript off the game's page is the server's: a typed illegal action comes back
    (400) with the reason and the action kept, then each listed action clicked is a form the
    browser sends itself, to the end, whose page shows the result and the full log."""
    context = browser.new_context(base_url=server.url, java_script_enabled=False)
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        asked: list[str] = []
        page.on("request", lambda sent: asked.append(sent.url))
        page.goto("/play/new?game=fox")
        page.select_option("#role", "hunter")
        page.fill('input[name="option:graph"]', "cycle:5")
        page.fill('input[name="seed"]', "4")
        page.fill("#bots", "1=random")
        with page.expect_navigation(url=GAME_URL):
            page.click("#new-game button[type=submit]")
        await_turn_without_scripts(page)  # the fox, a bot, moves first in the background
        assert page.locator("#status").inner_text() == "you are the hunter: your move"
        assert page.locator("#board svg").count() == 1
        events = texts(page, "#events li")
        page.fill("#action-text", "inspect 9")
        with page.expect_navigation() as refused:
            page.click("#action-form button[type=submit]")
        assert refused.value is not None and refused.value.status == 400
        assert page.locator("#error").inner_text() == "inspect 9: holes are numbered 0..4"
        assert page.input_value("#action-text") == "inspect 9"
        assert texts(page, "#events li") == events
        moves = 0
        while page.locator("#result").is_hidden():
            assert moves < 10, "a fox on five holes is caught within ten days"
            with page.expect_navigation(url=GAME_URL) as played:
                page.locator("#actions button[name=action]").first.click()
            assert played.value is not None and played.value.status == 200
            assert page.locator("#error").inner_text() == ""
            moves += 1
            await_turn_without_scripts(page)
        assert moves >= 1
        assert page.locator("#result").inner_text().startswith("Result")
        assert page.locator("#full-log").is_visible()
        assert page.locator("#log li").count() >= moves
        assert page.locator("#action-form").is_hidden()
        assert not [url for url in asked if "/api/" in url]  # every move was a form
    finally:
        context.close()


def test_a_typed_action_is_checked_by_the_server(page: Page) -> None:
    start_game(page, "fugitive", "marshal", seed=3)
    events = texts(page, "#events li")
    page.fill("#action-text", "no such action")
    page.click("#action-form button[type=submit]")
    page.wait_for_function("document.getElementById('error').textContent !== ''")
    assert "no such action" in page.locator("#error").inner_text()
    assert texts(page, "#events li") == events
    action = page.locator("#actions button").first.get_attribute("data-action") or ""
    page.fill("#action-text", action)
    page.click("#action-form button[type=submit]")
    page.wait_for_function("document.getElementById('action-text').value === ''")
    settle(page)
    assert page.locator("#error").inner_text() == ""
    assert texts(page, "#events li") != events


def test_the_home_page_lists_the_games_and_this_sessions_games(page: Page) -> None:
    page.goto("/")
    names = texts(page, ".card h2")
    assert sorted(names) == ["camel-up", "cluedo", "fox", "fugitive", "scotland-yard"]
    game = start_game(page, "camel-up", "player")
    page.goto("/")
    assert page.locator(f'#my-games a[href="/play/{game}"]').count() == 1


def test_another_session_cannot_open_a_game(page: Page, browser: Browser, server: Server) -> None:
    game = start_game(page, "scotland-yard", "detectives")
    stranger = browser.new_context(base_url=server.url)
    try:
        other = stranger.new_page()
        response = other.goto(f"/play/{game}")
        assert response is not None and response.status == 404
        api = other.request.post(f"/api/play/{game}/action", data={"action": "x"})
        assert api.status == 404
    finally:
        stranger.close()
    settle(page)
    page.reload()
    settle(page)
    assert page.locator("#error").inner_text() == ""


def test_a_game_goes_on_after_a_server_restart(browser: Browser, tmp_path: Path) -> None:
    server = Server(tmp_path / "web.sqlite3")
    server.start()
    context = browser.new_context(has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/play/new?game=fugitive")
        page.select_option("#role", "marshal")
        page.fill('input[name="seed"]', "5")
        page.click("#new-game button[type=submit]")
        page.wait_for_url(re.compile(r"/play/(?!new)[A-Za-z0-9_-]+$"))
        settle(page)
        game = page.url.rsplit("/", 1)[1]
        rng = random.Random(5)
        for _ in range(3):
            play_once(page, rng)
        events = texts(page, "#events li")
        server.stop()
        server.start()  # a new port: the browser keeps its cookie (cookies ignore ports)
        page.goto(f"{server.url}/play/{game}")
        settle(page)
        assert texts(page, "#events li") == events
        play_once(page, rng)
    finally:
        context.close()
        server.stop()
