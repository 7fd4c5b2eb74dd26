"""Every study's ``run`` stops on the first Ctrl-C or SIGTERM: the whole study (not only the
setting being played), within seconds, keeping every finished game in its database, saying how
many it kept and that the same command goes on from there, with the signal's exit code, no
traceback and no process left behind."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import duckdb
import pytest

from tests.signalled import SIGNALS, check_nothing_left, start

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]

STUDIES = Path(__file__).resolve().parents[1] / "studies"
SETTING_LINE = re.compile(r"^\d\d:\d\d:\d\d .* \.\.\.$", re.MULTILINE)
"""The line a study prints as each setting begins."""


def stored(db: Path, table: str) -> int:
    with duckdb.connect(str(db), read_only=True) as con:
        row = con.execute(f"SELECT count(*) FROM {table}").fetchone()
    assert row is not None
    return int(row[0])


@pytest.mark.parametrize(
    ("script", "how"),
    [
        ("fugitive_study.py", "ctrl-c"),
        ("fugitive_study.py", "sigterm"),
        ("fugitive_balance.py", "ctrl-c"),
        ("cluedo_study.py", "ctrl-c"),
        ("scotland_yard_study.py", "sigterm"),
    ],
)
def test_a_study_of_settings_stops_as_a_whole_and_keeps_its_games(
    tmp_path: Path, script: str, how: str
) -> None:
    run = start(
        [sys.executable, STUDIES / script, "run", "--games", "2000", "--workers", "2"], cwd=tmp_path
    )
    run.wait_for(lambda: SETTING_LINE.search(run.stdout) is not None, within=60)
    time.sleep(2)  # some games finish
    run.stop(how)
    code, took = run.finish(within=60)
    assert code == SIGNALS[how][1], run.stderr
    assert took < 10, f"took {took:.1f} s to stop"
    assert "Traceback" not in run.stderr
    assert len(SETTING_LINE.findall(run.stdout)) == 1, "the next setting began"
    message = " ".join(run.stderr.split())
    kept = re.search(r"stopped by (Ctrl-C|SIGTERM): (\d+) games of this setting stored", message)
    assert kept and kept.group(1) == ("Ctrl-C" if how == "ctrl-c" else "SIGTERM"), message
    db = next((tmp_path / "study-output").glob("*.duckdb"))
    assert stored(db, "games") == int(kept.group(2))
    assert f"the same command goes on from there: python {STUDIES / script} run" in message
    check_nothing_left(run)


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_the_camel_up_study_stops_within_a_second_and_keeps_its_games(
    tmp_path: Path, how: str
) -> None:
    db = tmp_path / "study-output" / "camel-up-study.duckdb"
    command = [sys.executable, STUDIES / "camel_up_study.py", "run", "--games", "10000000"]
    run = start([*command, "--workers", "2"], cwd=tmp_path)
    run.wait_for(lambda: db.exists(), within=30)
    time.sleep(3)  # some chunks of games are stored
    run.stop(how)
    code, took = run.finish(within=60)
    assert code == SIGNALS[how][1], run.stderr
    assert took < 3, f"took {took:.1f} s to stop"
    assert "Traceback" not in run.stderr and "KeyboardInterrupt" not in run.stderr
    message = " ".join(run.stderr.split())
    kept = re.search(r"(\d+) new games stored, (\d+) in ", message)
    assert kept and int(kept.group(1)) == int(kept.group(2)) == stored(db, "placement") > 0
    assert "the same command goes on from there" in message
    check_nothing_left(run)
    # the same command goes on: it plays only the games that are not stored
    again = start([*command[:-1], str(stored(db, "placement") + 300), "--workers", "1"], tmp_path)
    code, _ = again.finish(within=120)
    assert code == 0, again.stderr
    assert again.stdout.startswith("played 300 games")
