"""Take the screenshots shown in docs/web.md (``docs/img/web-*.png``) from a real session.

Starts ``sleuth serve`` on a free loopback port with a fresh store, drives Debian's Chromium
through Playwright (as the browser tests do), plays and assists a little with fixed seeds, and
saves each page as it then looks.  Run from the repository root, with the dev extra:

    python -m tests.web.browser.screenshots [--out docs/img] [NAME ...]

With names (``web-phone-play-cluedo``), only those are taken.  The phone's shots
(``web-phone-play-*``, one per game) are taken at 390 x 844 CSS pixels with touch, and played
by taps alone.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from tests.web.browser.harness import Server, launch_chromium
from tests.web.browser.pages import enter, open_notepad, play_once, send, settle, start_game
from tests.web.browser.tables import entries

DESKTOP = ViewportSize(width=1200, height=820)
PHONE = ViewportSize(width=390, height=844)


def play_fox(page: Page) -> None:
    start_game(page, "fox", "hunter", options={"graph": "grid:3x4", "days": "12"}, seed=4)
    rng = random.Random(4)
    for _ in range(3):
        play_once(page, rng)


def play_scotland_yard(page: Page) -> None:
    start_game(page, "scotland-yard", "detectives", seed=11)
    rng = random.Random(11)
    for _ in range(4):
        play_once(page, rng)
    page.locator("#board").scroll_into_view_if_needed()


def play_camel_up(page: Page) -> None:
    start_game(page, "camel-up", "player", seed=5)
    rng = random.Random(5)
    for _ in range(6):
        play_once(page, rng)


def assist_fox(page: Page) -> None:
    open_notepad(page, "fox", {"graph": "cycle:7", "days": "10"})
    for hole in (0, 2, 4):
        send(page, f'#board [data-action="inspect {hole}"]', r"/entries$")
    send(page, "#commands button:has-text('give up')", r"/command$")


def assist_camel_up(page: Page) -> None:
    open_notepad(page, "camel-up")
    for text in entries("camel-up", seed=2, count=9):
        enter(page, text)


def phone_fox(page: Page) -> None:
    start_game(page, "fox", "hunter", options={"graph": "grid:3x4", "days": "12"}, seed=4)
    rng = random.Random(4)
    for _ in range(2):
        play_once(page, rng)


def phone_fugitive(page: Page) -> None:
    """The Fugitive's placement by taps: a hideout chosen, then a sprint card; done is next."""
    start_game(page, "fugitive", "fugitive", seed=8)
    rng, moves = random.Random(8), 0
    while moves < 4 or not page.locator("#actions a.step").count():  # to a placement
        play_once(page, rng)
        moves += 1
    for which in ("last", "first"):  # the highest hideout, then the lowest sprint card
        steps = page.locator("#actions a.step")
        step = steps.last if which == "last" else steps.first
        wanted = step.get_attribute("data-pick")
        step.tap()
        page.wait_for_function(f"document.getElementById('actions').dataset.prefix === '{wanted}'")
    page.locator("#moves").scroll_into_view_if_needed()
    page.evaluate("() => window.scrollBy(0, -250)")


def phone_camel_up(page: Page) -> None:
    start_game(page, "camel-up", "player", seed=5)
    rng = random.Random(5)
    for _ in range(4):
        play_once(page, rng)


def phone_scotland_yard(page: Page) -> None:
    """The detectives' map fitted to the phone, then zoomed to station 100 found by number."""
    start_game(page, "scotland-yard", "detectives", seed=11)
    rng = random.Random(11)
    for _ in range(2):
        play_once(page, rng)
    page.fill(".find-part input", "100")
    page.tap(".find-part button")
    page.locator(".zoom-bar").scroll_into_view_if_needed()


def phone_cluedo(page: Page) -> None:
    """A Cluedo accusation tapped up to its room, the events naming the seats."""
    start_game(page, "cluedo", "player", options={"players": "3"}, seed=6)
    rng = random.Random(6)
    for _ in range(6):
        play_once(page, rng)
    settle(page)
    accuse = page.locator("#actions a.step", has_text="accuse")
    if accuse.count():
        for _ in range(3):
            step = page.locator("#actions a.step").first if _ else accuse.first
            wanted = step.get_attribute("data-pick")
            step.tap()
            page.wait_for_function(
                f"document.getElementById('actions').dataset.prefix === '{wanted}'"
            )
    page.locator("#moves").scroll_into_view_if_needed()


SHOTS: dict[str, tuple[ViewportSize, Callable[[Page], None]]] = {
    "web-play-fox": (DESKTOP, play_fox),
    "web-play-scotland-yard": (DESKTOP, play_scotland_yard),
    "web-play-camel-up": (DESKTOP, play_camel_up),
    "web-assist-fox": (DESKTOP, assist_fox),
    "web-assist-camel-up": (DESKTOP, assist_camel_up),
    "web-phone-play-fox": (PHONE, phone_fox),
    "web-phone-play-fugitive": (PHONE, phone_fugitive),
    "web-phone-play-camel-up": (PHONE, phone_camel_up),
    "web-phone-play-scotland-yard": (PHONE, phone_scotland_yard),
    "web-phone-play-cluedo": (PHONE, phone_cluedo),
}
"""Each screenshot: the window size and the steps before it is taken."""


def take(browser: Browser, server: Server, out: Path, names: list[str]) -> None:
    for name, (size, steps) in SHOTS.items():
        if names and name not in names:
            continue
        phone = size == PHONE
        context = browser.new_context(
            base_url=server.url, viewport=size, is_mobile=phone, has_touch=True
        )
        context.set_default_timeout(120_000)  # the bots may take long on a busy machine
        page = context.new_page()
        steps(page)
        page.screenshot(path=out / f"{name}.png")
        print(f"{out / name}.png")
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img"), help="folder of the PNGs")
    parser.add_argument("names", nargs="*", help=f"only these shots, of {', '.join(SHOTS)}")
    args = parser.parse_args()
    unknown = [name for name in args.names if name not in SHOTS]
    if unknown:
        parser.error(f"no shot named {', '.join(unknown)}")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "web.sqlite3")
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                take(browser, server, args.out, args.names)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
