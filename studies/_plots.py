"""The studies' plots: matplotlib (the ``report`` extra) when it is installed, else a note
that the report's tables are complete without it."""

from __future__ import annotations

import sys
from types import ModuleType


def pyplot() -> ModuleType | None:
    """``matplotlib.pyplot`` drawing to files (the Agg back end), or None, having said on
    stderr that the plot is left out, when matplotlib is not installed."""
    try:
        import matplotlib
    except ImportError:
        print(
            "no plot: it needs matplotlib, which the 'report' extra installs "
            "(pip install '.[report]' in Sleuth's folder); the tables above are complete",
            file=sys.stderr,
        )
        return None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt
