"""``sleuth export --parquet``: tables of the results store as Parquet files, written by DuckDB.

Each table ``T`` becomes ``DIR/T.parquet`` with the same rows and columns (lists stay lists,
JSON columns are JSON text), read back by any Parquet reader, DuckDB's ``read_parquet``
included.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb

from sleuth.arena.store import connect
from sleuth.core.errors import SleuthError


def store_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The tables of the store open on ``con``, by name."""
    rows = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND schema_name = 'main' AND NOT temporary ORDER BY table_name"
    ).fetchall()
    return [name for (name,) in rows]


def export_parquet(db: Path, folder: Path, tables: Sequence[str] = ()) -> dict[str, Path]:
    """Write each table ``tables`` names (none: every table of the store) of the results file
    ``db`` to ``folder/NAME.parquet`` (``folder`` is created if needed), and return the files
    by table.  A missing file or an unknown table is a ``SleuthError`` naming it, raised before
    anything is written."""
    if not db.is_file():
        raise SleuthError(f"no results file at {db}")
    try:
        with connect(db) as con:
            known = store_tables(con)
            unknown = [t for t in tables if t not in known]
            if unknown:
                raise SleuthError(
                    f"{db} has no table {unknown[0]!r}; its tables: {', '.join(known) or 'none'}"
                )
            chosen = list(dict.fromkeys(tables)) or known
            if not chosen:
                raise SleuthError(f"{db} holds no tables")
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise SleuthError(f"cannot write to {folder}: {exc.strerror or exc}") from None
            written = {}
            for table in chosen:
                path = folder / f"{table}.parquet"
                quoted = table.replace('"', '""')
                con.execute(f'COPY "{quoted}" TO ? (FORMAT parquet)', [str(path)])
                written[table] = path
    except duckdb.Error as exc:
        raise SleuthError(f"cannot export {db} to {folder}: {exc}") from None
    return written
