"""A game's page belongs to the game: a game installed from another package (a tiny
distribution with a ``sleuth.games`` entry point, put on ``sys.path``) gets its board drawn
and its events in its own words in the web app, through its ``PagePlugin``, with no code of
its own in ``sleuth.web`` or ``sleuth.render``."""

from __future__ import annotations

import importlib.metadata
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from sleuth.core import registry

ENTRY_POINTS = """\
[sleuth.games]
cardpage = card_page_game:SPEC
"""

GAME = """\
import dataclasses
from sleuth.core.plugins import PagePlugin
from sleuth.render.svg import document, tag, text
from tests.core import toy

class CardPage(toy.HighCard):
    name = "cardpage"

def board(game, view, legal):
    mine = [e.private["card"] for e in view.events if e.kind == "dealt" and e.private]
    body = "".join(text(10, 20, f"my card {card}", class_="my-card") for card in mine)
    body += "".join(tag("rect", x=10, y=30, width=20, height=20, data_action=a) for a in legal)
    return document(100, 60, body, "cardpage table")

def describe(game, event, viewer, names):
    if event.kind == "said":
        return f"seat {event.public['seat']} says {event.public['word']} out loud"
    return None

SPEC = dataclasses.replace(
    toy.SPEC, name="cardpage", description="a game from a plug-in, with its page",
    build=lambda values: CardPage(values["cards"]), page=PagePlugin(board, describe),
)
"""


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The distribution on ``sys.path``; the registry's state is restored afterwards."""
    info = tmp_path / "card_page_game-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: card-page-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(ENTRY_POINTS)
    (tmp_path / "card_page_game.py").write_text(GAME)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    monkeypatch.setattr(registry, "_REFUSED", set())
    assert "cardpage" in {p.name for p in importlib.metadata.entry_points(group="sleuth.games")}
    yield
    sys.modules.pop("card_page_game", None)


def test_a_game_from_another_package_gets_its_drawn_page(
    installed: None, client: TestClient
) -> None:
    started = client.post("/api/play", json={"game": "cardpage", "seat": 0, "seed": 3})
    assert started.status_code == 201, started.text
    game = started.json()
    assert game["your_turn"] and game["legal"] == ["call", "fold"]
    # the board is the plug-in's, from the human seat's view: its own card and clickable actions
    assert 'class="my-card"' in game["svg"] and game["svg"].count("my card") == 1
    for action in ("call", "fold"):
        assert f'data-action="{action}"' in game["svg"]
    played = client.post(f"/api/play/{game['id']}/action", json={"action": "call"}).json()
    assert "seat 0 says call out loud" in played["events"]  # the plug-in's words
    assert any(text.startswith("dealt") for text in played["events"])  # the generic words
    page = client.get(f"/play/{game['id']}")
    assert page.status_code == 200 and 'class="my-card"' in page.text


def test_a_game_without_a_page_plays_with_no_picture_and_generic_words(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.core import toy

    assert toy.SPEC.page is None
    monkeypatch.setitem(registry._REGISTERED, "highcard", toy.SPEC)
    game = client.post("/api/play", json={"game": "highcard", "seat": 0, "seed": 3}).json()
    assert game["svg"] == "" and game["events"][0].startswith("dealt: to 0, card ")
