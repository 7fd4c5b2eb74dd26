"""The whole-race table of the 1st edition (O5, O6), built once and cached on disk.

A *shape* is a canonical start-of-leg state of the race without desert tiles: a non-decreasing
5-tuple of track indices 0..15, one per racing camel in reading order (C4).  Camels on the same
index are stacked in tuple order, so the shape fixes the arrangement once the camels are
labelled by reading order: label ``j`` is the ``j``-th camel from the back.  There are
C(20, 5) = 15,504 shapes.

For each shape the table stores the exact joint distribution P(winner = label a, loser =
label b) of the rest of the race, when every leg starts with all five dice and no tiles; the
marginals are P(win) and P(last).  :func:`build_table` solves all shapes by backward induction
over canonical mid-leg states with NumPy (:func:`solve_race`, about 2 s; no compiler, so a first
run after an install builds it as fast with Numba as without).

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
import threading
import warnings
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from sleuth.core.cache import cache_dir
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
    joint = solve_race(_shapes())
    joint.setflags(write=False)
    return RaceTable(joint)


FULL = (1 << RACERS) - 1
"""All five racing dice: a fresh leg."""


def solve_race(shapes: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """P(winner = label a, loser = label b) from the start of a fresh tile-free 1st-edition
    leg, for every shape (row ``r`` of ``shapes`` is the shape of rank ``r``, and so is row
    ``r`` of the result): the table's rows (O5, O6).

    Mid-leg states are canonical too: a shape and the set of labels whose die is still in the
    pyramid (a 5-bit mask; mask 0, leg over, is the next leg's mask 31).  A move raises the
    position sum, so solving the states of each sum, highest first, finds every successor
    solved; each successor's distribution is mapped back through the relabelling of its reading
    order.  That is 15,504 × 31 states and 3.7 million transitions, against about 160 million
    moves for a separate merged enumeration of every shape's leg.  The states of one sum are
    solved together, one (camel, die value) at a time over all of them and all their masks, so
    each state's sum of 1/(3·dice) × successor takes its terms in the same order as a loop over
    camels and then values would (the same floats on every machine)."""
    size = shapes.shape[0]
    labels = np.arange(RACERS)
    masks = np.arange(FULL + 1)
    scale = np.zeros(FULL + 1)
    scale[1:] = 1.0 / (3 * np.array([m.bit_count() for m in range(1, FULL + 1)]))
    binomial = np.array(_BINOMIAL)
    # The top of the stack of each label: the last label on its index.
    top = (shapes[:, None, :] <= shapes[:, :, None]).sum(axis=2) - 1
    moves = []
    for camel in range(RACERS):
        dice = masks[(masks >> camel) & 1 == 1]  # the masks in which its die can be drawn
        carried = (labels >= camel) & (labels <= top[:, camel, None])
        for steps in range(1, 4):
            target = shapes[:, camel] + steps
            landed = np.where(carried, target[:, None], shapes)
            # perm[w] = the label that comes w-th after the move (the unit on top of its stack)
            perm = np.argsort(landed * 2 + carried, axis=1, kind="stable")
            # (a finished unit's index is clipped: its successor is not looked up)
            after = np.minimum(np.take_along_axis(landed, perm, axis=1), TRACK_LENGTH - 1)
            successor = binomial[after + labels, labels + 1].sum(axis=1)
            left = (dice[None, :, None] >> perm[:, None, :]) & 1 & (perm != camel)[:, None, :]
            rest = (left << labels).sum(axis=2)  # the dice left, by new label
            rest[rest == 0] = FULL
            back = np.argsort(perm, axis=1)  # the new label of each label
            cells = (back[:, :, None] * RACERS + back[:, None, :]).reshape(size, -1)
            finish = top[:, camel] * RACERS + perm[:, 0]  # (winner, loser) when it finishes
            moves.append(
                (
                    dice,
                    target >= TRACK_LENGTH,
                    finish,
                    successor[:, None] * (FULL + 1) + rest,
                    cells,
                )
            )
    value = np.zeros((size * (FULL + 1), RACERS * RACERS))
    sums = shapes.sum(axis=1)
    for total in range(int(sums.max()), -1, -1):
        rows = np.flatnonzero(sums == total)
        out = np.zeros((rows.size, FULL + 1, RACERS * RACERS))
        for dice, finished, finish, then, cells in moves:
            ends = finished[rows]
            won = np.flatnonzero(ends)
            out[won[:, None], dice, finish[rows[won], None]] += scale[dice]
            going = np.flatnonzero(~ends)
            relabelled = np.take_along_axis(
                value[then[rows[going]]], cells[rows[going], None, :], axis=2
            )
            out[going[:, None], dice] += scale[dice][None, :, None] * relabelled
        value.reshape(size, FULL + 1, -1)[rows] = out
    return value.reshape(size, FULL + 1, RACERS, RACERS)[:, FULL].copy()


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
        with one_off("Building the Camel Up race table", f"once (seconds), cached in {path}"):
            table = build_table()
        try:
            save_table(table, path)
        except OSError as error:
            warnings.warn(f"could not cache the Camel Up race table: {error}", stacklevel=2)
    return table


_building = threading.Lock()


@functools.cache
def race_table() -> RaceTable:
    """The table of this process: loaded from (or built into) :func:`table_path` on first use.
    A thread that asks while another builds it (an assistant's background warm-up) waits for
    that build and loads the file it saved (building calls no kernel: nothing else is awaited
    under the lock)."""
    with _building:
        return load_or_build(table_path())
