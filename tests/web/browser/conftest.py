"""Fixtures of the browser tests: ``sleuth serve`` in a subprocess, headless Chromium.

The server is the real command (``sleuth serve --port P --store FILE``) on a free loopback
port with a fresh store, stopped when the tests end.  Chromium is Debian's ``chromium``
package (``/usr/bin/chromium``, or the file named by ``SLEUTH_CHROMIUM``) driven by Playwright
from PyPI; browsers are never downloaded.  Without Playwright or Chromium every test here is
skipped with the reason.  Each test gets a fresh browser context (a new browser session: its
own cookies); a failing test leaves a screenshot of its page in :data:`ARTIFACTS`.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("playwright", reason="the browser tests need playwright (the dev extra)")

import httpx
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

ROOT = Path(__file__).resolve().parents[3]
CHROMIUM = Path(os.environ.get("SLEUTH_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(os.environ.get("SLEUTH_ARTIFACTS", ROOT / "tmp" / "artifacts")) / "browser"
"""Screenshots of the browser tests (the pages they end on, and every failure)."""
START_SECONDS = 60.0


class Server:
    """``sleuth serve`` on a free loopback port, keeping its sessions in ``store``."""

    def __init__(self, store: Path) -> None:
        self.store = store
        self.process: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.log = store.with_suffix(".log")
        """The server's output (a file, so that a long output never blocks it)."""

    def start(self) -> None:
        """Start the server and wait until it answers (a failure names its output)."""
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        sleuth = Path(sys.executable).with_name("sleuth")
        command = [str(sleuth), "serve", "--port", str(port), "--store", str(self.store)]
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                command, stdout=output, stderr=subprocess.STDOUT, cwd=self.store.parent
            )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"sleuth serve exited early:\n{self.log.read_text()}")
            try:
                if httpx.get(f"{self.url}/", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"sleuth serve did not answer within {START_SECONDS} s")

    def stop(self) -> None:
        """Stop the server (terminate, then kill if it lingers); nothing is left running."""
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None


def free_port() -> int:
    """A TCP port free on the loopback interface just now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def launch(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless, through Playwright (skips the test when it is missing)."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set SLEUTH_CHROMIUM)")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch(playwright)
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


@pytest.fixture
def page(browser: Browser, server: Server, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A page in a fresh browser context (a new session), with the server as base URL."""
    context = browser.new_context(base_url=server.url, viewport={"width": 1280, "height": 900})
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
