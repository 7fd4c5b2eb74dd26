"""The events of a game page name the seats as people do: ``you`` for the human's seat, the
other seats by who they are (a Cluedo seat by the suspect it plays, in the edition's names),
never as ``p0``; the human's own doings in the second person (``you show``, ``you take``)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

pytest.importorskip("fastapi")

from fastapi.testclient import TestClient

SEAT_NUMBER = re.compile(r"\bp\d\b")


def played(client: TestClient, game: str, options: dict[str, str], seed: int) -> dict[str, Any]:
    """A game played to its end through the API by random actions (no Cluedo accusation
    while another action is open) against random bots; its last answer."""
    view = client.post(
        "/api/play",
        json={"game": game, "options": options, "seed": seed, "bots": {1: "random", 2: "random"}},
    ).json()
    rng = random.Random(seed)
    while not view["over"]:
        legal = [a for a in view["legal"] if not a.startswith("accuse")] or view["legal"]
        view = client.post(
            f"/api/play/{view['id']}/action", json={"action": rng.choice(legal)}
        ).json()
    return view


def test_cluedo_events_say_you_and_the_suspects_names(client: TestClient) -> None:
    view = played(client, "cluedo", {"players": "3", "max_turns": "60"}, seed=4)
    lines = view["events"] + [line for step in view["log"] for line in step["events"]]
    assert not [line for line in lines if SEAT_NUMBER.search(line)]
    assert any(line.startswith("your hand: ") for line in lines)
    mine = [line for line in view["events"] if line.startswith("you ")]
    assert any(line.startswith("you rolled ") for line in mine)
    assert not [line for line in mine if re.match(r"you (shows|suggests|accuses|was) ", line)]
    others = ("Colonel Mustard ", "Mrs. White ")  # seats 1 and 2 (seat 0 is Miss Scarlet)
    assert any(line.startswith(others) for line in view["events"])
    assert not any(line.startswith("Miss Scarlet ") for line in view["events"])  # that is you
    assert any(re.match(r"(Colonel Mustard|Mrs\. White) shows", line) for line in lines)
    assert "you end the turn" in mine and "Colonel Mustard ends the turn" in view["events"]
    assert not [line for line in lines if line.startswith("ended")]  # no generic text


def test_camel_up_events_say_you_for_the_human(client: TestClient) -> None:
    view = played(client, "camel-up", {"players": "3"}, seed=2)
    mine = [line for line in view["events"] if line.startswith("you ")]
    assert mine and not any(line.startswith("p0 ") for line in view["events"])
    assert not [line for line in mine if line.startswith("you takes")]
    assert any(line.startswith(("p1 ", "p2 ")) for line in view["events"])
