"""Text in the pictures is escaped: a player name typed at the Cluedo notepad reaches the
tooltip of the suggestion chart (the "This turn" line names who summoned your token), and
comes out as text, never as markup."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

from sleuth.render.svg import document, tag, text, title

NAME = "<script>alert(1)</script>"
SHOWN = "&lt;script&gt;alert(1)&lt;/script&gt;"
SRC = Path(__file__).parents[2] / "src" / "sleuth"
PICTURES = [
    *(SRC / "web").glob("*.py"),
    *(SRC / "render").glob("*.py"),
    *(SRC / "games").glob("*/*picture.py"),
]
"""The web app's modules and every game's pictures (``picture.py``, ``notepad_picture.py``)."""


def test_the_helpers_escape_text_titles_labels_and_attributes() -> None:
    picture = document(
        10, 10, text(1, 2, NAME) + tag("rect", title(NAME), data_room=NAME), label=NAME
    )
    assert "<script" not in picture and "&amp;lt;" not in picture  # escaped once
    assert picture.count(SHOWN) == 4 and 'data-room="' + SHOWN + '"' in picture


def test_a_typed_player_name_in_a_tooltip_is_text(client: TestClient) -> None:
    notepad = client.post(
        "/api/assist",
        json={"game": "cluedo", "params": {"players": f"Ann,{NAME},Cy", "me": "Ann",
                                           "hand": "plum,knife,hall,rope,study,green"}},
    )  # fmt: skip
    assert notepad.status_code == 201, notepad.text
    record = notepad.json()["id"]
    for entry in ["I am in Lounge", f"{NAME} suggests Scarlet Wrench Library", "Cy passes",
                  "Ann passes"]:  # fmt: skip
        answer = client.post(f"/api/assist/{record}/entries", json={"text": entry})
        assert answer.status_code == 200, answer.text
    shown = answer.json()
    tips = re.findall(r"<title>([^<]*)</title>", shown["svg"])
    assert any(f"{SHOWN} summoned your token" in tip for tip in tips), tips
    for picture in (shown["svg"], shown["html"]):
        assert "<script" not in picture and "&amp;lt;" not in picture
    assert SHOWN in shown["html"]


def test_every_title_in_the_web_pictures_goes_through_the_escaping_helper() -> None:
    """``tag``'s body is markup, not escaped: a title written with it would let a typed name
    through, so the pictures write titles with ``title`` only."""
    assert len([p for p in PICTURES if p.name.endswith("picture.py")]) == 10
    for source in PICTURES:
        if source.name == "svg.py":
            continue
        code = source.read_text(encoding="utf-8")
        assert 'tag("title"' not in code and "<title" not in code, source.name
