"""The first run of ``sleuth assist camel-up`` after an install: its odds come at once from the
kernels' Python originals while Numba compiles them in the background, equal to the compiled
odds; quitting before the compilation ends leaves no process running."""

from __future__ import annotations

import os
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest

from sleuth.core import compiled
from sleuth.core.registry import game_spec
from sleuth.games.camel_up import odds
from sleuth.games.camel_up.advice import Advice
from sleuth.games.camel_up.assistant import CamelSession
from sleuth.games.camel_up.odds import leg_counts, leg_end_dice
from sleuth.games.camel_up.rules import CamelUpGame
from sleuth.games.camel_up.track import arrangement
from tests.cli_helpers import COMMAND
from tests.signalled import marked

ENTRIES = {
    1: (
        "start 1:blue 2:green,orange 3:yellow,white",
        "roll blue 2",
        "tile 9 oasis",
        "roll white 1",
    ),
    2: ("start 1:blue 2:green,red 3:yellow,purple 14:white,black", "roll red 3", "roll white 2"),
}
"""A few entries of each edition (few dice left: the plain-Python odds take a second)."""


def _advice(edition: int) -> Advice:
    session = CamelSession(CamelUpGame(edition=edition), seat=0, rollouts=300)
    for text in ENTRIES[edition]:
        session.enter(text)
    return session.advice()


@pytest.mark.parametrize("edition", [1, 2])
def test_the_first_odds_come_while_the_kernels_compile_and_are_the_compiled_odds(
    compiling: threading.Event, edition: int
) -> None:
    spec = game_spec("camel-up")
    assert spec.assist is not None and spec.assist.prepare is not None
    spec.assist.prepare(CamelUpGame(edition=edition))  # queued behind the held warm-up
    answers: list[Advice] = []
    meanwhile = threading.Thread(target=lambda: answers.append(_advice(edition)))
    meanwhile.start()
    meanwhile.join(120)
    assert not meanwhile.is_alive() and len(answers) == 1  # no wait for the compilation
    assert not compiled.ready()
    compiling.set()
    assert compiled._idle.wait(300) and compiled.ready()
    assert _advice(edition) == answers[0]  # the compiled kernels' odds and values, to the bit


@pytest.mark.parametrize(
    ("edition", "mask"), [(1, 0b11111), (1, 0b10110), (1, 0b1), (2, 0b111111), (2, 0b101101)]
)
def test_the_plain_python_bound_counts_the_enumeration_s_die_orders_and_values(
    edition: int, mask: int
) -> None:
    """Whether a leg runs in plain Python during the compilation is read from its size: the
    number of die orders and values, the enumeration's own denominator."""
    start = {0: [0, 1], 1: [2], 2: [3, 4], **({14: [5, 6]} if edition == 2 else {})}
    draws = mask.bit_count() - leg_end_dice(edition)
    counts = leg_counts(arrangement(start), mask, {}, edition)
    assert odds._paths(mask, draws) == counts.denominator
    assert (counts.denominator <= odds.PLAIN_PATHS) == (edition == 1 or mask != 0b111111)


@pytest.mark.skipif(not compiled.COMPILED, reason="Numba is not installed (or is turned off)")
def test_quitting_while_the_kernels_compile_leaves_no_process_running(tmp_path: Path) -> None:
    """On a cold cache the assistant compiles in the background; ``quit`` at once ends it all
    (nothing goes on compiling in a process of its own), and promptly."""
    token = f"SLEUTH_TEST_RUN={uuid.uuid4()}"
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
        "SLEUTH_CACHE_DIR": str(tmp_path / "sleuth"),
        token.split("=")[0]: token.split("=")[1],
    }
    started = time.monotonic()
    done = subprocess.run(
        [*COMMAND, "assist", "camel-up"],
        input="quit\n", env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert "Left the assistant" in done.stdout
    time.sleep(0.5)  # a process started at exit would be running by now
    assert marked(token) == []
    assert not (tmp_path / "sleuth").exists()  # it quit before the warm-up built the table
    assert took < 30
