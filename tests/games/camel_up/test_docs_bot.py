"""The bot of one's own in docs/camel-up.md runs as written: its block is executed whole."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[3] / "docs" / "camel-up.md"


def test_the_documented_bot_plays_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    blocks = re.findall(r"```python\n(.*?)```", DOCS.read_text(), re.DOTALL)
    (example,) = [b for b in blocks if "class LegHunter" in b]
    exec(compile(example, str(DOCS), "exec"), {"__name__": "docs_example"})
    printed = capsys.readouterr().out
    assert re.search(r"money \d+/\d+/\d+ \(", printed), printed  # the outcome, then the wins
