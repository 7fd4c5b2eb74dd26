"""The whole-race table (O5, O6): shapes, the table's invariants, and its on-disk cache."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sleuth.core.compiled import COMPILED
from sleuth.core.errors import PositionError
from sleuth.games.camel_up import race_table as module
from sleuth.games.camel_up.race_table import (
    FILE_NAME,
    SHAPES,
    TABLE_VERSION,
    RaceTable,
    load_or_build,
    load_table,
    race_table,
    save_table,
    shape_of,
    shape_rank,
    table_path,
)


def test_shapes_are_the_15504_non_decreasing_tuples() -> None:
    assert SHAPES == math.comb(20, 5) == 15_504
    seen = set()
    for rank in range(SHAPES):
        shape = shape_of(rank)
        assert list(shape) == sorted(shape) and shape[0] >= 0 and shape[-1] <= 15
        assert shape_rank(shape) == rank
        seen.add(shape)
    assert len(seen) == SHAPES


@pytest.mark.parametrize(
    "shape", [(0, 1, 2, 3), (0, 1, 2, 3, 16), (-1, 0, 0, 0, 0), (3, 2, 4, 5, 6)]
)
def test_a_bad_shape_is_rejected(shape: tuple[int, ...]) -> None:
    with pytest.raises(PositionError, match="is not a shape"):
        shape_rank(shape)


def test_every_row_is_a_distribution_over_distinct_winner_and_loser(table: RaceTable) -> None:
    joint = table.joint
    assert joint.shape == (SHAPES, 5, 5) and not joint.flags.writeable
    assert np.all(joint >= 0)
    assert np.allclose(joint.sum(axis=(1, 2)), 1, atol=1e-12, rtol=0)
    assert np.all(joint[:, np.arange(5), np.arange(5)] == 0)


def test_a_camel_alone_on_the_last_space_is_likely_to_win(table: RaceTable) -> None:
    # Label 4 leads on 15 alone: it wins unless a unit passes it first (this leg or later).
    win = table.win((0, 0, 0, 0, 15))
    assert win[4] > 0.5 and abs(sum(win) - 1) < 1e-12
    assert table.last((0, 0, 0, 0, 15))[4] == 0


def test_the_session_table_is_cached_in_the_session_folder(
    table: RaceTable, cache_dir: str
) -> None:
    assert table_path() == Path(cache_dir) / FILE_NAME
    assert table_path().exists()
    assert race_table() is table
    cached = load_table(table_path())
    assert cached is not None and np.array_equal(cached.joint, table.joint)


def test_save_and_load_round_trip(table: RaceTable, tmp_path: Path) -> None:
    path = tmp_path / "deep" / FILE_NAME
    save_table(table, path)
    loaded = load_table(path)
    assert loaded is not None and np.array_equal(loaded.joint, table.joint)
    assert list(path.parent.iterdir()) == [path]  # no temporary file left behind


def rewrite(path: Path, **changes: object) -> None:
    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    arrays.update(changes)  # type: ignore[arg-type]
    with path.open("wb") as handle:
        np.savez(handle, **arrays)


def test_a_missing_corrupt_tampered_or_outdated_file_is_not_loaded(
    table: RaceTable, tmp_path: Path
) -> None:
    path = tmp_path / FILE_NAME
    assert load_table(path) is None
    path.write_bytes(b"not a table")
    assert load_table(path) is None
    save_table(table, path)
    path.write_bytes(path.read_bytes()[:1000])  # truncated
    assert load_table(path) is None
    save_table(table, path)
    tampered = table.joint.copy()
    tampered[7, 0, 1] += 1e-9
    rewrite(path, joint=tampered)
    assert load_table(path) is None
    save_table(table, path)
    rewrite(path, version=np.array(TABLE_VERSION + 1))
    assert load_table(path) is None


def test_load_or_build_rebuilds_a_bad_file_and_saves_it(
    table: RaceTable, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    builds: list[int] = []

    def build() -> RaceTable:
        builds.append(1)
        return table

    monkeypatch.setattr(module, "build_table", build)
    path = tmp_path / FILE_NAME
    path.write_bytes(b"garbage")
    assert load_or_build(path) is table and len(builds) == 1
    assert load_or_build(path) is not table and len(builds) == 1  # loaded from the file
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    with pytest.warns(UserWarning, match="could not cache"):
        assert load_or_build(blocked / FILE_NAME) is table
    assert len(builds) == 2


@pytest.mark.slow
def test_the_pure_python_build_gives_the_same_table(table: RaceTable, tmp_path: Path) -> None:
    """Without Numba the same kernels run as plain Python (about two minutes)."""
    script = (
        "import sys; from pathlib import Path; sys.modules['numba'] = None\n"
        "from sleuth.games.camel_up import _kernels, race_table as r\n"
        "assert not _kernels.COMPILED\n"
        "r.save_table(r.build_table(), Path(sys.argv[1]))\n"
    )
    path = tmp_path / FILE_NAME
    root = Path(__file__).resolve().parents[3]
    env = {**os.environ, "PYTHONPATH": str(root / "src")}
    subprocess.run([sys.executable, "-c", script, str(path)], env=env, timeout=1800, check=True)
    built = load_table(path)
    assert built is not None
    assert np.max(np.abs(built.joint - table.joint)) <= 1e-12


ASK_WHILE_WARMING = """\
import threading
from sleuth.core import compiled
from sleuth.games.camel_up.bots import warm_up_first
from sleuth.games.camel_up.race_table import race_table, table_path
release = threading.Event()
compiled.compile_in_background(release.wait)
compiled.compile_in_background(warm_up_first)  # builds the table, after the held one
asking = threading.Thread(target=race_table, daemon=True)
asking.start()
asking.join(0.5)
print(asking.is_alive())
release.set()
asking.join(600)
print(asking.is_alive(), table_path().exists())
"""


@pytest.mark.skipif(not COMPILED, reason="Numba is not installed (or is turned off)")
def test_asking_for_the_table_while_a_warm_up_builds_it_waits_for_it(tmp_path: Path) -> None:
    """The assistant builds the table in its background warm-up; the first odds, asked for
    meanwhile, wait for it and load the file it saved (they once took a lock there and then
    waited for the warm-up, which waited for the lock: the assistant hung)."""
    env = {**os.environ, "SLEUTH_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", ASK_WHILE_WARMING],
        env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", "True"]  # waited, then got the table
