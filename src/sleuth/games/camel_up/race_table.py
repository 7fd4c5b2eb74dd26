"""The whole-race table of the 1st edition (O5, O6), built once and cached on disk.

A *shape* is a canonical start-of-leg state of the race without desert tiles: a non-decreasing
5-tuple of track indices 0..15, one per racing camel in reading order (C4).  Camels on the same
index are stacked in tuple order, so the shape fixes the arrangement once the camels are
labelled by reading order: label ``j`` is the ``j``-th camel from the back.  There are
C(20, 5) = 15,504 shapes.

For each shape the table stores the exact joint distribution P(winner = label a, loser =
label b) of the rest of the race, when every leg starts with all five dice and no tiles; the
marginals are P(win) and P(last).  :func:`build_table` solves all shapes by backward induction
over canonical mid-leg states (see :func:`sleuth.games.camel_up._kernels.solve_race`); it takes
under a second with Numba and about two minutes in plain Python.

The table is cached as ``camel-up-race-table.npz`` in Sleuth's cache folder
(:func:`sleuth.core.cache.cache_dir`) with its format version
and a SHA-256 checksum of the data; :func:`race_table` loads it, or builds and saves it when it
is missing, corrupt or of another version.  Delete the file to force a rebuild.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import os
import tempfile
import warnings
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from sleuth.core.cache import cache_dir
from sleuth.core.compiled import COMPILED, settle
from sleuth.core.errors import PositionError
from sleuth.core.prepare import one_off
from sleuth.games.camel_up.track import RACERS, TRACK_LENGTH

TABLE_VERSION = 1
"""Bump when the table's meaning or layout changes: older cache files are then rebuilt."""
FILE_NAME = "camel-up-race-table.npz"
SHAPES = math.comb(TRACK_LENGTH + RACERS - 1, RACERS)
"""15,504: the non-decreasing 5-tuples of indices 0..15."""

Shape = tuple[int, ...]
_BINOMIAL = tuple(
    tuple(math.comb(q, k) for k in range(RACERS + 1)) for q in range(TRACK_LENGTH + RACERS - 1)
)
"""C(q, k) for the colex rank of a shape: sum over j of C(shape[j] + j, j + 1)."""


@dataclass(frozen=True, eq=False)
class RaceTable:
    """P(winner = a, loser = b) for every shape, as a read-only float64 array ``joint`` of shape
    (15,504, 5, 5) indexed by :func:`shape_rank` and then by labels (a == b has probability 0;
    each row sums to 1)."""

    joint: npt.NDArray[np.float64]

    def row(self, shape: Sequence[int]) -> npt.NDArray[np.float64]:
        """The (5, 5) joint distribution of ``shape``, by labels."""
        row: npt.NDArray[np.float64] = self.joint[shape_rank(shape)]
        return row

    def win(self, shape: Sequence[int]) -> tuple[float, ...]:
        """P(label j wins the race), j = 0 (last) .. 4 (leader)."""
        return tuple(float(x) for x in self.row(shape).sum(axis=1))

    def last(self, shape: Sequence[int]) -> tuple[float, ...]:
        """P(label j is the loser), j = 0 (last) .. 4 (leader)."""
        return tuple(float(x) for x in self.row(shape).sum(axis=0))


def shape_rank(shape: Sequence[int]) -> int:
    """The row of ``shape`` in the table (0..15503); :class:`PositionError` if it is not a
    non-decreasing 5-tuple of indices 0..15."""
    values = tuple(shape)
    if (
        len(values) != RACERS
        or any(not 0 <= p < TRACK_LENGTH for p in values)
        or any(a > b for a, b in itertools.pairwise(values))
    ):
        raise PositionError(f"{values} is not a shape: 5 non-decreasing indices in 0..15")
    return sum(_BINOMIAL[p + j][j + 1] for j, p in enumerate(values))


def shape_of(rank: int) -> Shape:
    """The shape in row ``rank`` (the inverse of :func:`shape_rank`)."""
    return tuple(int(p) for p in _shapes()[rank])


@functools.cache
def _shapes() -> npt.NDArray[np.int64]:
    """Every shape, row ``rank`` holding the shape of that rank (read-only, (15,504, 5))."""
    increasing = np.array(list(itertools.combinations(range(len(_BINOMIAL)), RACERS)))
    ranks = np.array(_BINOMIAL)[increasing, np.arange(1, RACERS + 1)].sum(axis=1)
    table = np.empty((SHAPES, RACERS), np.int64)
    table[ranks] = increasing - np.arange(RACERS)
    table.setflags(write=False)
    return table


def build_table() -> RaceTable:
    """Solve every shape exactly (no cache involved)."""
    from sleuth.games.camel_up import _kernels  # imports Numba (about 0.4 s): only when needed

    joint = _kernels.solve_race(_shapes())
    joint.setflags(write=False)
    return RaceTable(joint)


def table_path() -> Path:
    """The cache file of the table."""
    return cache_dir() / FILE_NAME


def _checksum(joint: npt.NDArray[np.float64]) -> str:
    digest = hashlib.sha256(f"camel-up-race-table v{TABLE_VERSION}\n".encode())
    digest.update(np.ascontiguousarray(joint, dtype="<f8").tobytes())
    return digest.hexdigest()


def save_table(table: RaceTable, path: Path) -> None:
    """Write ``table`` to ``path`` atomically (a temporary file, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, suffix=".tmp", delete=False) as handle:
        np.savez(
            handle,
            version=np.array(TABLE_VERSION),
            sha256=np.array(_checksum(table.joint)),
            joint=table.joint,
        )
    os.replace(handle.name, path)


def load_table(path: Path) -> RaceTable | None:
    """The table stored at ``path``, or None if the file is missing, unreadable, of another
    version or fails its checksum."""
    try:
        with np.load(path, allow_pickle=False) as data:
            if int(data["version"]) != TABLE_VERSION:
                return None
            joint = np.ascontiguousarray(data["joint"], dtype=np.float64)
            if joint.shape != (SHAPES, RACERS, RACERS) or str(data["sha256"]) != _checksum(joint):
                return None
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    joint.setflags(write=False)
    return RaceTable(joint)


def load_or_build(path: Path) -> RaceTable:
    """The table cached at ``path``; built and saved there first if need be.  A cache folder
    that cannot be written only costs a warning (the table is still returned)."""
    table = load_table(path)
    if table is None:
        speed = "seconds with Numba" if COMPILED else "a minute or two without Numba"
        with one_off("Building the Camel Up race table", f"once ({speed}), cached in {path}"):
            table = build_table()
        try:
            save_table(table, path)
        except OSError as error:
            warnings.warn(f"could not cache the Camel Up race table: {error}", stacklevel=2)
    return table


@functools.cache
def race_table() -> RaceTable:
    """The table of this process: loaded from (or built into) :func:`table_path` on first use.
    While a background warm-up runs (:func:`sleuth.core.compiled.compile_in_background`, the
    assistant's, which builds the table) another thread waits for it, then loads the file."""
    settle()
    return load_or_build(table_path())
