"""The whole-race table (O5, O6): shapes, the table's invariants, and its on-disk cache."""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path

import numpy as np
import pytest

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


def test_threads_asking_for_the_table_at_once_build_it_once(
    table: RaceTable, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The assistant's background warm-up and its first odds may ask for the table together:
    one builds it, the other waits and loads the file (building calls no kernel, so waiting
    for it cannot wait for a compilation)."""
    builds: list[int] = []

    def build() -> RaceTable:
        builds.append(1)
        time.sleep(0.3)
        return table

    monkeypatch.setattr(module, "build_table", build)
    monkeypatch.setenv("SLEUTH_CACHE_DIR", str(tmp_path))
    race_table.cache_clear()
    try:
        got: list[RaceTable] = []
        askers = [threading.Thread(target=lambda: got.append(race_table())) for _ in range(2)]
        for asker in askers:
            asker.start()
        for asker in askers:
            asker.join(60)
        assert len(builds) == 1 and len(got) == 2
        assert all(np.array_equal(t.joint, table.joint) for t in got)
    finally:  # the session's table again for the other tests
        race_table.cache_clear()
        monkeypatch.setattr(module, "load_or_build", lambda path: table)
        assert race_table() is table
