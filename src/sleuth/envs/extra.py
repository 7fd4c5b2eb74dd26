"""The ``rl`` extra: what an adapter says when one of its libraries is not installed."""

from __future__ import annotations


def missing(exc: ModuleNotFoundError) -> str:
    """The message of an adapter's import when ``exc.name`` (Gymnasium, PettingZoo) is
    missing: the library and how to install the extra."""
    return (
        f"{exc.name} is not installed: the sleuth.envs adapters need the rl extra "
        "(pip install 'sleuth[rl]', or pip install -e '.[rl]' in a clone)"
    )
