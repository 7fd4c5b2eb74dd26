"""Fixtures of the browser tests: ``sleuth serve`` in a subprocess, headless Chromium (see
:mod:`tests.web.browser.harness`).

The session's server has a fresh store and is stopped when the tests end.  Without Playwright
or Chromium every test here is skipped with the reason.  Each test gets a fresh browser
context (a new browser session: its own cookies); a failing test leaves a screenshot of its
page in :data:`ARTIFACTS`.
"""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright", reason="the browser tests need playwright (the dev extra)")

from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright

from tests.web.browser.harness import CHROMIUM, launch_chromium
from tests.web.browser.harness import Server as Server  # for the tests' type hints

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = Path(os.environ.get("SLEUTH_ARTIFACTS", ROOT / "tmp" / "artifacts")) / "browser"
"""Screenshots of the browser tests (the pages they end on, and every failure)."""


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium (the tests skip, saying why, when it is missing)."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set SLEUTH_CHROMIUM)")
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve") / "web.sqlite3")
    running.start()
    yield running
    running.stop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item,
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """Keep each phase's report on the test item, so a fixture can see a failure."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def artifact(name: str) -> Path:
    """The path of the screenshot ``name`` in :data:`ARTIFACTS` (the folder is made)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / f"{name}.png"


PHONE = ViewportSize(width=390, height=844)


@pytest.fixture
def phone(browser: Browser, server: Server, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A phone's browser in a fresh context: 390 x 844 CSS pixels, touch, mobile viewport
    rules; its script errors fail the test, as the ``page`` fixture's do."""
    yield from _tab(
        browser.new_context(
            base_url=server.url,
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            device_scale_factor=2,
        ),
        request,
    )


@pytest.fixture
def page(browser: Browser, server: Server, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page in a fresh browser context (a new session), with the server as base URL: a
    desktop's window with a touch screen (the tests play by taps)."""
    yield from _tab(
        browser.new_context(
            base_url=server.url, viewport={"width": 1280, "height": 900}, has_touch=True
        ),
        request,
    )


def _tab(context: BrowserContext, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A tab of ``context`` (closed at the end): a screenshot of it when the test failed, and
    its script errors fail the test."""
    context.set_default_timeout(20_000)
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda error: problems.append(str(error)))
    yield tab
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        tab.screenshot(path=artifact(f"failed-{request.node.name}"), full_page=True)
    context.close()
    assert not problems, f"script errors in the page: {problems}"
