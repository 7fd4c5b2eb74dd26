"""``sleuth infer cluedo``: the answer for a seat of a played game against the exact belief
read directly, certain facts against the counts, the text notepad, the responder weighting,
and impossible events named."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path

import pytest

from sleuth.core.events import Event
from sleuth.core.viewlog import read_view_log, write_view_log
from sleuth.games.cluedo import sat
from sleuth.games.cluedo.cards import EDITIONS
from sleuth.games.cluedo.cards import NAMES as NAMES_SHORT
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from tests.cli_helpers import check_error, entry, flat, one_json_object

NAMES = EDITIONS["classic"].display


@pytest.fixture(scope="module")
def game_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One game of three random players, played from the command line."""
    folder = tmp_path_factory.mktemp("cluedo")
    logs = folder / "logs"
    done = entry("play", "cluedo", "--bots", "random,random,random", "-n", "1", "--seed", "4",
                 "--logs", logs, cwd=folder)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (path,) = logs.glob("*.jsonl")
    return path


def _belief(log: Path, seat: int, cut: int, responder: str = "any") -> CluedoBelief:
    view = read_view_log(log, "player", seat=seat)
    belief = CluedoBelief(seat, responder)  # type: ignore[arg-type]
    for event in view.events[:cut]:
        belief.update(event)
    return belief


def _cuts(log: Path, seat: int) -> list[int]:
    """Cuts after the deal, after the first answered suggestion, midway and at the end."""
    events = read_view_log(log, "player", seat=seat).events
    hands = max(i for i, e in enumerate(events) if e.kind == "hand") + 1
    answered = next(i for i, e in enumerate(events) if e.kind in ("refuted", "unrefuted")) + 1
    return [hands, answered, len(events) // 2, len(events)]


@pytest.mark.parametrize("seat", [0, 2])
def test_json_is_the_exact_belief(game_log: Path, cwd: Path, seat: int) -> None:
    for cut in _cuts(game_log, seat):
        done = entry("infer", "cluedo", "--log", game_log, "--seat", str(seat),
                     "--events", str(cut), "--json", cwd=cwd)  # fmt: skip
        out = one_json_object(done.stdout)
        post = _belief(game_log, seat, cut).posterior
        assert out["events"] == cut and out["seat"] == seat
        assert isinstance(out["deals"], int) and out["deals"] == post.deals >= 1
        # the JSON text holds the integer itself, not a float
        assert f'"deals": {post.deals},' in done.stdout
        owners = ["seat 0", "seat 1", "seat 2", "envelope"]
        assert set(out["owners"]) == set(NAMES)
        for card, row in enumerate(NAMES):
            probs = out["owners"][row]
            assert sum(probs.values()) == pytest.approx(1)
            for o, owner in enumerate(owners):
                expected = Fraction(post.count(card, o if o < 3 else "envelope"), post.total)
                assert probs.get(owner, 0) == pytest.approx(float(expected))
        has = {(f["card"], f["owner"]) for f in out["certain"] if f["fact"] == "has"}
        assert has == {(NAMES[c], f"seat {o}" if isinstance(o, int) else o)
                       for c, o in post.certain()}  # fmt: skip
        lacks = {(f["card"], f["owner"]) for f in out["certain"] if f["fact"] == "lacks"}
        assert lacks == {(row, owner) for row in NAMES for owner in owners
                         if owner not in out["owners"][row]}  # fmt: skip
        own = read_view_log(game_log, "player", seat=seat).events
        hand = next(e for e in own if e.kind == "hand" and e.private is not None)
        assert {(NAMES[c], f"seat {seat}") for c in hand.private["cards"]} <= has  # type: ignore[index]
        assert out["entropy"] == pytest.approx(post.entropy())
        triples = out["solutions"]
        assert 1 <= len(triples) <= 10
        assert [t["probability"] for t in triples] == sorted(
            (t["probability"] for t in triples), reverse=True
        )
        for t, (triple, p) in zip(triples, post.top(10), strict=True):
            assert (t["suspect"], t["weapon"], t["room"]) == tuple(NAMES[c] for c in triple)
            assert t["probability"] == pytest.approx(p)


def test_the_end_knows_the_envelope(game_log: Path, cwd: Path) -> None:
    out = one_json_object(entry("infer", "cluedo", "--log", game_log, "--json", cwd=cwd).stdout)
    events = read_view_log(game_log, "player", seat=0).events
    over = events[-1]
    assert over.kind == "game_over"
    envelope = {NAMES[c] for c in over.public["envelope"]}
    assert {f["card"] for f in out["certain"] if f["owner"] == "envelope" and f["fact"] == "has"} \
        == envelope  # fmt: skip
    assert out["entropy"] == pytest.approx(0)
    assert len(out["solutions"]) == 1 and out["solutions"][0]["probability"] == 1


def test_before_the_deal_and_the_text_notepad(game_log: Path, cwd: Path) -> None:
    out = one_json_object(
        entry("infer", "cluedo", "--log", game_log, "--events", "0", "--json", cwd=cwd).stdout
    )
    assert out["deals"] is None and out["owners"] == {} and out["events"] == 0
    text = flat(entry("infer", "cluedo", "--log", game_log, "--events", "0", cwd=cwd).stdout)
    assert text == "Seat 0 of 3, after 0 events: the cards have not been dealt."
    cut = _cuts(game_log, 1)[1]
    text = entry("infer", "cluedo", "--log", game_log, "--seat", "1", "--events", str(cut),
                 cwd=cwd).stdout  # fmt: skip
    post = _belief(game_log, 1, cut).posterior
    assert f"Seat 1 of 3, after {cut} events: {post.deals:,} consistent deals" in flat(text)
    assert "Notepad" in text and "Most likely envelopes" in text
    rows = {line.split("│")[1].strip(): line.split("│")[2:-1] for line in text.splitlines()
            if line.count("│") == 6}  # fmt: skip
    assert set(rows) == set(NAMES)
    for card, name in enumerate(NAMES):
        for o, cell in enumerate(rows[name]):
            p = post.fraction(card, o if o < 3 else "envelope")
            assert cell.strip() == ("✓" if p == 1 else "✗" if p == 0 else cell.strip())
            if 0 < p < 1:
                assert cell.strip().endswith("%") and cell.strip() not in ("0%", "100%")


def test_uniform_responder(game_log: Path, cwd: Path) -> None:
    cut = _cuts(game_log, 0)[2]
    args = ("infer", "cluedo", "--log", game_log, "--events", str(cut), "--json")
    any_ = one_json_object(entry(*args, cwd=cwd).stdout)
    uniform = one_json_object(entry(*args, "--responder", "uniform", cwd=cwd).stdout)
    post = _belief(game_log, 0, cut, "uniform").posterior
    assert uniform["responder"] == "uniform" and any_["responder"] == "adversarial"
    assert uniform["deals"] == any_["deals"]  # the same deals, weighed differently
    assert uniform["entropy"] == pytest.approx(post.entropy())
    check_error(entry(*args, "--responder", "lazy", cwd=cwd), "lazy")


def test_an_impossible_event_is_named(game_log: Path, tmp_path: Path, cwd: Path) -> None:
    """Seat 0's view where another seat refutes seat 0's suggestion with a card seat 0 holds;
    then one where the card shown was not even suggested."""
    view = read_view_log(game_log, "player", seat=0)
    hand = next(e for e in view.events if e.kind == "hand" and e.private is not None)
    mine = set(hand.private["cards"])  # type: ignore[index]
    index, card = next(
        (i + 1, c)
        for i, e in enumerate(view.events)
        if e.kind == "suggested" and e.public["seat"] == 0 and view.events[i + 1].kind == "refuted"
        for c in mine & {e.public["suspect"], e.public["weapon"], e.public["room"]}
    )
    good = list(view.events)
    view.events[index] = dataclasses.replace(view.events[index], private={"card": card})
    path = tmp_path / "bad.jsonl"
    write_view_log(view, path)
    assert json.loads(path.read_text().splitlines()[0])["type"] == "header"
    error = check_error(entry("infer", "cluedo", "--log", path, cwd=cwd))
    assert f"bad.jsonl: event {index + 1} (refuted): " in error
    together = sat.conflict(0, view.events[: index + 1])
    # two events suffice: the hand (or a pass) and the refutation
    assert together is not None and len(together) == 2
    assert together[1] == f"event {index + 1} (refuted)"
    assert error.endswith(f"; together: {', '.join(together)}")
    ok = entry("infer", "cluedo", "--log", path, "--events", str(index), "--json", cwd=cwd)
    assert one_json_object(ok.stdout)["events"] == index
    unsuggested = next(c for c in range(21) if c not in _triple(good[index - 1]))
    good[index] = dataclasses.replace(good[index], private={"card": unsuggested})
    write_view_log(dataclasses.replace(view, events=good), path)
    error = check_error(entry("infer", "cluedo", "--log", path, cwd=cwd))
    assert f"event {index + 1} (refuted): {NAMES_SHORT[unsuggested]} was not suggested" in error
    assert "together" not in error


def _triple(event: Event) -> tuple[int, ...]:
    return tuple(int(event.public[k]) for k in ("suspect", "weapon", "room"))


def test_explain(game_log: Path, cwd: Path) -> None:
    """``--explain``: each certain fact with events that prove it (checked by the SAT view)
    and no fewer that do (a proof without one of them fails)."""
    cut = _cuts(game_log, 2)[2]
    args = ("infer", "cluedo", "--log", game_log, "--seat", "2", "--events", str(cut))
    out = one_json_object(entry(*args, "--json", "--explain", cwd=cwd).stdout)
    plain = one_json_object(entry(*args, "--json", cwd=cwd).stdout)
    assert [{k: v for k, v in f.items() if k != "because"} for f in out["certain"]] == plain[
        "certain"
    ]
    kb = sat.from_events(2, read_view_log(game_log, "player", seat=2).events[:cut])
    index = {name: card for card, name in enumerate(NAMES)}
    for f in out["certain"][::7]:
        owner = f["owner"].removeprefix("seat ")
        fact = (index[f["card"]], int(owner) if owner.isdigit() else owner, f["fact"] == "has")
        assert kb.proves(fact, f["because"])
        for left_out in f["because"]:
            assert not kb.proves(fact, [x for x in f["because"] if x != left_out])
    text = flat(entry(*args, "--explain", cwd=cwd).stdout)
    assert "Why: each card whose owner is known" in text and "(hand)" in text


def test_the_text_names_the_seats(game_log: Path, cwd: Path) -> None:
    """The text's columns name each seat as the view does: a notepad's save by its players'
    names, a game log by the suspects the seats play; JSON keeps ``seat N``."""
    script = "Bob suggests scarlet wrench kitchen\nCy shows\nsave table.jsonl\n"
    setup = ["--players", "Ann,Bob,Cy", "--me", "Ann", "--hand", "plum knife hall rope study green"]
    assert entry("assist", "cluedo", *setup, cwd=cwd, stdin=script).returncode == 0
    text = entry("infer", "cluedo", "--log", "table.jsonl", "--explain", cwd=cwd).stdout
    header = next(line for line in text.splitlines() if "Ann" in line)
    assert [part.strip() for part in header.split("┃")[2:5]] == ["Ann", "Bob", "Cy"]
    assert "│ seat 0 Ann" in text  # the Why table's owner
    out = one_json_object(
        entry("infer", "cluedo", "--log", "table.jsonl", "--json", cwd=cwd).stdout
    )
    assert set(out["owners"]["Rope"]) == {"seat 0"}
    lines = entry("infer", "cluedo", "--log", game_log, cwd=cwd).stdout.splitlines()
    at = next(n for n, line in enumerate(lines) if "seat 0" in line)
    names = [part.strip() for part in lines[at + 1].split("┃")[2:5]]  # under the seat numbers
    assert names == ["Miss Scarlet", "Colonel Mustard", "Mrs. White"]
