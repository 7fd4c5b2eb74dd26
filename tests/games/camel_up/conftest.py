"""Fixtures of the Camel Up tests: the race table, built once per session in a private cache."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from sleuth.games.camel_up.race_table import RaceTable, race_table


@pytest.fixture(scope="session", autouse=True)
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Point ``SLEUTH_CACHE_DIR`` at a temporary folder for the whole session, so that tests
    never read or write the user's cache."""
    folder = str(tmp_path_factory.mktemp("sleuth-cache"))
    previous = os.environ.get("SLEUTH_CACHE_DIR")
    os.environ["SLEUTH_CACHE_DIR"] = folder
    race_table.cache_clear()
    yield folder
    race_table.cache_clear()
    if previous is None:
        del os.environ["SLEUTH_CACHE_DIR"]
    else:
        os.environ["SLEUTH_CACHE_DIR"] = previous


@pytest.fixture(scope="session")
def table(cache_dir: str) -> RaceTable:
    """The whole-race table of this session (built into the session's cache on first use)."""
    return race_table()
