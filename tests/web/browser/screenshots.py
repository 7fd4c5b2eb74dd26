"""Take the screenshots shown in docs/web.md (``docs/img/web-*.png``) from a real session.

Starts ``sleuth serve`` on a free loopback port with a fresh store, drives Debian's Chromium
through Playwright (as the browser tests do), plays and assists a little with fixed seeds, and
saves each page as it then looks.  Run from the repository root, with the dev extra:

    python -m tests.web.browser.screenshots [--out docs/img]
"""

from __future__ import annotations

import argparse
import random
import tempfile
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from tests.web.browser.harness import Server, launch_chromium
from tests.web.browser.pages import enter, open_notepad, play_once, send, start_game
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


def phone_fugitive(page: Page) -> None:
    start_game(page, "fugitive", "marshal", seed=8)
    rng = random.Random(8)
    for _ in range(8):
        play_once(page, rng)


SHOTS: dict[str, tuple[ViewportSize, Callable[[Page], None]]] = {
    "web-play-fox": (DESKTOP, play_fox),
    "web-play-scotland-yard": (DESKTOP, play_scotland_yard),
    "web-play-camel-up": (DESKTOP, play_camel_up),
    "web-assist-fox": (DESKTOP, assist_fox),
    "web-assist-camel-up": (DESKTOP, assist_camel_up),
    "web-phone-play-fugitive": (PHONE, phone_fugitive),
}
"""Each screenshot: the window size and the steps before it is taken."""


def take(browser: Browser, server: Server, out: Path) -> None:
    for name, (size, steps) in SHOTS.items():
        phone = size == PHONE
        context = browser.new_context(
            base_url=server.url, viewport=size, is_mobile=phone, has_touch=True
        )
        page = context.new_page()
        steps(page)
        page.screenshot(path=out / f"{name}.png")
        print(f"{out / name}.png")
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/img"), help="folder of the PNGs")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder) / "web.sqlite3")
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                take(browser, server, args.out)
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
