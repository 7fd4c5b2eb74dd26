"""The browser tests' harness, also used by the screenshot script: ``sleuth serve`` in a
subprocess on a free loopback port, and how to launch Debian's Chromium through Playwright.

The server is the real command (``sleuth serve --port P --store FILE``) with its output in a
file beside the store; :meth:`Server.stop` leaves no process behind.  Chromium is Debian's
``chromium`` package (``/usr/bin/chromium``, or the file named by ``SLEUTH_CHROMIUM``) driven
by Playwright from PyPI: browsers are never downloaded.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx
from playwright.sync_api import Browser, Playwright

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
START_SECONDS = 60.0


def launch_chromium(playwright: Playwright) -> Browser:
    """Debian's Chromium, headless, through Playwright."""
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


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
