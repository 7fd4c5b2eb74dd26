"""A phone's touch: a big map fits the screen and zooms (buttons, a pinch of two fingers) and
finds a station by its number; every page loads with a favicon and no error in the browser's
console."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page

from tests.web.browser.conftest import PHONE, Server
from tests.web.browser.pages import enter, open_notepad, settle
from tests.web.browser.tables import entries

pytestmark = pytest.mark.browser

ZOOM = "() => Number(document.getElementById('board').dataset.zoom || 1)"
WIDTHS = """() => { const board = document.getElementById('board');
    return [board.querySelector('svg').getBoundingClientRect().width, board.clientWidth,
            board.scrollWidth, document.documentElement.scrollWidth]; }"""


def pinch(page: Page, apart: float) -> None:
    """Two fingers on the board's middle, moved from 40 px apart to ``apart`` px apart."""
    box = page.locator("#board").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + min(box["height"], 300) / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, gap: float) -> None:
        points = (
            [] if kind == "touchEnd" else [{"x": x - gap / 2, "y": y}, {"x": x + gap / 2, "y": y}]
        )
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 40)
    for step in range(1, 6):
        touch("touchMove", 40 + (apart - 40) * step / 5)
    touch("touchEnd", apart)


def test_the_map_fits_a_phone_zooms_and_finds_a_station(phone: Page) -> None:
    started = phone.request.post(
        "/api/play", data={"game": "scotland-yard", "role": "detectives", "seed": 2}
    )
    assert started.ok, started.text()
    phone.goto(f"/play/{started.json()['id']}")
    settle(phone)
    fitted, panel, scrolled, page = phone.evaluate(WIDTHS)
    assert fitted <= panel and scrolled <= panel and page <= PHONE["width"]  # it fits
    phone.tap(".zoom-bar [aria-label='zoom in']")
    assert phone.evaluate(ZOOM) == pytest.approx(1.5)
    svg, panel, scrolled, page = phone.evaluate(WIDTHS)
    assert svg == pytest.approx(1.5 * fitted, rel=0.01) and scrolled > panel
    assert page <= PHONE["width"]  # the panel pans inside itself, the page stays put
    pinch(phone, 160)
    assert phone.evaluate(ZOOM) > 2.5
    phone.tap(".zoom-bar [aria-label='fit the width']")
    assert phone.evaluate(ZOOM) == 1
    phone.fill(".find-part input", "100")
    phone.tap(".find-part button")
    found = phone.locator('#board g[data-station="100"]')
    assert "found" in (found.get_attribute("class") or "").split()
    assert phone.evaluate(ZOOM) == 3  # zoomed to it, and it is in the panel's view
    place, panel_box = found.bounding_box(), phone.locator("#board").bounding_box()
    assert place is not None and panel_box is not None
    assert panel_box["x"] <= place["x"] <= panel_box["x"] + panel_box["width"] - place["width"]
    assert panel_box["y"] <= place["y"] <= panel_box["y"] + panel_box["height"] - place["height"]
    phone.fill(".find-part input", "999")
    phone.tap(".find-part button")
    assert phone.locator(".find-part [role=status]").inner_text() == "no station 999"
    assert phone.locator("#error").inner_text() == ""  # not taken for an action


def test_a_small_picture_has_no_zoom(phone: Page) -> None:
    started = phone.request.post("/api/play", data={"game": "fox", "role": "hunter", "seed": 2})
    phone.goto(f"/play/{started.json()['id']}")
    settle(phone)
    assert phone.locator(".zoom-bar").count() == 1 and phone.locator(".zoom-bar").is_hidden()


GAMES = ["fox", "fugitive", "camel-up", "scotland-yard", "cluedo"]
SMALLEST_ODDS = """() => { const svg = document.querySelector('#board svg');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return Math.min(...[...svg.querySelectorAll('text')].map(t =>
        scale * parseFloat(getComputedStyle(t).fontSize))); }"""


def test_the_camel_up_odds_read_on_a_phone(phone: Page) -> None:
    """Every number and name of the odds chart is drawn at 12 px or more on a phone."""
    open_notepad(phone, "camel-up")
    for text in entries("camel-up", seed=2, count=3):
        enter(phone, text)
    assert phone.locator("#board svg .odds").count() == 20
    assert phone.evaluate(SMALLEST_ODDS) >= 12
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_an_assistants_setup_is_on_screen_without_a_tap(phone: Page) -> None:
    """Every setting of every new-notepad form is visible as the page opens (none folded into
    a closed section): the Cluedo players, your seat and hand, the Scotland Yard starts."""
    phone.goto("/assist")
    fields = phone.locator("form.new-notepad [name^='param:'], form.new-notepad [name^='option:']")
    assert fields.count() >= 30
    hidden = [f.get_attribute("name") for f in fields.all() if not f.is_visible()]
    assert hidden == []
    for game, name in [("cluedo", "param:hand"), ("scotland-yard", "param:starts")]:
        assert phone.locator(f'form[data-game="{game}"] [name="{name}"]').is_visible()
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.fixture
def watched(browser: Browser, server: Server) -> Iterator[tuple[Page, list[str]]]:
    """A phone's page and the errors its console reports (failed loads among them)."""
    context = browser.new_context(
        base_url=server.url, viewport=PHONE, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(60_000)
    tab, problems = context.new_page(), []
    tab.on(
        "console", lambda m: problems.append(f"{tab.url}: {m.text}") if m.type == "error" else None
    )
    tab.on("pageerror", lambda error: problems.append(f"{tab.url}: {error}"))
    yield tab, problems
    context.close()


def test_every_page_has_a_favicon_and_a_quiet_console(watched: tuple[Page, list[str]]) -> None:
    page, problems = watched
    paths = ["/", "/assist", "/api", *[f"/play/new?game={g}" for g in GAMES]]
    for game in GAMES:
        started = page.request.post(
            "/api/play", data={"game": game, "seed": 1, "bots": {}, "options": {}}
        )
        assert started.ok, started.text()
        paths.append(f"/play/{started.json()['id']}")
    for path in paths:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        icon = page.locator("link[rel=icon]").get_attribute("href")
        assert icon is not None, path
        assert page.request.get(icon).ok
    for game in GAMES:
        open_notepad(page, game)
        page.wait_for_load_state("networkidle")
    assert page.request.get("/favicon.ico").ok  # where no page names it
    assert problems == []


CAMEL_UP_LAYOUT = """() => {
    const board = document.getElementById('board'), svg = board.querySelector('svg');
    const actions = document.getElementById('actions');
    const buttons = [...actions.querySelectorAll('button')];
    const camels = [...svg.querySelectorAll('g.camel rect')].map(r => Number(r.getAttribute('y')));
    return { panel: board.getBoundingClientRect().height,
             picture: svg.getBoundingClientRect().height,
             hidden: actions.scrollHeight - actions.clientHeight,
             lowest: Math.max(...buttons.map(b => b.getBoundingClientRect().bottom)),
             box: document.getElementById('action-form').getBoundingClientRect().top,
             headroom: Math.min(...camels) - 30 };
}"""


def test_camel_up_on_a_desk_shows_every_button_and_no_empty_board(page: Page) -> None:
    """The board's panel is as tall as its picture (not as the side column), the picture has
    room for the tallest stack and no more, and every action button shows above the text box
    (none clipped in a scroll box)."""
    started = page.request.post(
        "/api/play",
        data={"game": "camel-up", "seed": 5, "bots": {"1": "random", "2": "random", "3": "random"}},
    )
    page.goto(f"/play/{started.json()['id']}")
    settle(page)
    shown = page.evaluate(CAMEL_UP_LAYOUT)
    assert shown["panel"] <= shown["picture"] + 20
    assert shown["hidden"] == 0 and shown["lowest"] <= shown["box"]
    assert 0 <= shown["headroom"] <= 24


ROWS = """() => [...document.querySelectorAll('#actions form.group')].map(row =>
    [...row.querySelectorAll('[data-action], a.step')].map(c => c.textContent.trim()))"""


def test_the_script_draws_the_pickers_rows_as_the_server_does(phone: Page) -> None:
    """Cluedo's rooms, at an accusation's last step, in one row; the rows the script draws
    (after back) are the server's."""
    started = phone.request.post(
        "/api/play",
        data={
            "game": "cluedo",
            "options": {"players": "3"},
            "seed": 3,
            "bots": {"1": "random", "2": "random"},
        },
    )
    game = started.json()
    deadline = time.monotonic() + 60
    while not game["your_turn"] and time.monotonic() < deadline:  # the deal, in the background
        time.sleep(0.1)
        game = phone.request.get(f"/api/play/{game['id']}").json()
    prefix = [next(c["id"] for c in game["pick"]["choices"] if c["text"] == "accuse")]
    for _ in range(2):  # a suspect, then a weapon
        ids = ",".join(map(str, prefix))
        prefix.append(
            phone.request.get(f"/api/play/{game['id']}/pick?ids={ids}").json()["choices"][0]["id"]
        )
    picked = ",".join(map(str, prefix))
    phone.goto(f"/play/{game['id']}?pick={picked}")
    settle(phone)
    rooms = phone.evaluate(ROWS)
    assert len(rooms) == 1 and len(rooms[0]) == 9
    phone.goto(f"/play/{game['id']}")
    settle(phone)
    served = phone.evaluate(ROWS)
    phone.locator("#actions a.step", has_text="accuse").tap()
    phone.wait_for_function("document.getElementById('actions').dataset.prefix !== ''")
    phone.locator("#actions a.back").tap()
    phone.wait_for_function("document.getElementById('actions').dataset.prefix === ''")
    assert phone.evaluate(ROWS) == served == [["roll", "accuse …"]]
