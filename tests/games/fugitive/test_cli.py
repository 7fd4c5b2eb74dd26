"""``sleuth infer fugitive``: the Marshal's notepad from a log."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from sleuth.core import compiled
from sleuth.core.events import Event
from sleuth.core.log import write_log
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.core.seatview import ViewLog
from sleuth.core.viewlog import read_view_log, write_view_log
from sleuth.games.fugitive.belief import ExactBelief
from sleuth.games.fugitive.deduction.advice import Deduction
from sleuth.games.fugitive.rules import MARSHAL
from tests.cli_helpers import check_error, entry, flat, one_json_object


@pytest.fixture
def view_log(game_log: Path, tmp_path: Path) -> Path:
    path = tmp_path / "marshal.jsonl"
    write_view_log(read_view_log(game_log, "marshal"), path)
    return path


def test_infer_json_from_a_view_log(view_log: Path, cwd: Path) -> None:
    done = entry("infer", "fugitive", "--log", view_log, "--events", "30", "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    out = one_json_object(done.stdout)
    events = read_view_log(view_log, "marshal").events[:30]
    deduction = Deduction.from_events(events)
    assert out["events"] == 30 and out["worlds"] == deduction.counts.total
    hidden = [p for p in out["positions"] if not p["face_up"]]
    assert hidden, "a face-down hideout after 30 events"
    for position in hidden:
        assert abs(sum(position["values"].values()) - 1) < 1e-9
        assert position["values"] == {
            str(v): float(p)
            for v, p in deduction.counts.probabilities()[position["position"]].items()
        }
    assert out["recommended"]["numbers"] == list(deduction.advice().numbers)  # type: ignore[union-attr]
    assert set(out["not_hideouts"]).isdisjoint(int(v) for p in hidden for v in p["values"])
    assert "equally likely" in out["assumption"]


def test_infer_text_from_a_full_game_log(game_log: Path, cwd: Path) -> None:
    done = entry("infer", "fugitive", "--log", game_log, "--events", "25", cwd=cwd)
    assert done.returncode == 0, done.stderr
    text = flat(done.stdout)
    headings = ("possible values", "Certain hideouts:", "Not hideouts now:", "Suggested: guess")
    for heading in headings:
        assert heading in text
    assert "consistent worlds" in text


def test_infer_bad_input(view_log: Path, tmp_path: Path, cwd: Path) -> None:
    check_error(entry("infer", "fugitive", "--log", tmp_path / "none.jsonl", cwd=cwd), "none.jsonl")
    fox = tmp_path / "fox.jsonl"
    spec = game_spec("fox")
    write_log(run_match(spec.make(), [spec.bot("solver"), spec.bot("quantum")], seed=1), fox)
    check_error(
        entry("infer", "fugitive", "--log", fox, cwd=cwd), "fox game log, not a fugitive one"
    )
    negative = entry("infer", "fugitive", "--log", view_log, "--events", "-1", cwd=cwd)
    check_error(negative, "--events")
    view = read_view_log(view_log, "marshal")
    broken = tmp_path / "broken.jsonl"
    no_position = Event("placed", {"sprints": 0})
    write_view_log(ViewLog(view.game, 1, [*view.events[:12], no_position]), broken)
    check_error(entry("infer", "fugitive", "--log", broken, cwd=cwd), "event 13", "position")
    impossible = Event("revealed", {"position": 1, "value": 41, "sprints": []})
    opening = [e for e in view.events if e.kind == "placed"][:2]
    cut = view.events.index(opening[1]) + 1
    bad = tmp_path / "bad.jsonl"
    write_view_log(ViewLog(view.game, 1, [*view.events[:cut], impossible]), bad)
    message = check_error(entry("infer", "fugitive", "--log", bad, "--json", cwd=cwd))
    assert f"event {cut + 1} (revealed" in message


def _first(events: list[Event], kind: str) -> int:
    return next(i for i, e in enumerate(events) if e.kind == kind)


def _next_hideout(events: list[Event]) -> Event:
    """The Fugitive's next hideout after ``events``, with no sprint card."""
    placed = sum(e.kind == "placed" for e in events)
    return Event("placed", {"position": placed + 1, "sprints": 0})


def test_infer_refuses_views_the_rules_could_not_show(
    view_log: Path, tmp_path: Path, cwd: Path
) -> None:
    """Well-formed events that no game produces: each is named, with the reason."""
    view = read_view_log(view_log, "marshal")
    events = view.events
    guess = _first(events, "guessed")
    fugitive_draw = _first(events, "drew")
    private_card = Event("drew", dict(events[fugitive_draw].public), {"card": 7}, frozenset({1}))
    marshal_draw = next(
        i for i, e in enumerate(events) if e.kind == "drew" and e.public["seat"] == MARSHAL
    )
    his_draw = Event("drew", {**events[marshal_draw].public, "seat": 0})
    # A hideout before one of his guesses that some world allows (so only its turn is wrong,
    # not its cards): the first such guess of the game, which must exist.
    out_of_turn = next(
        (
            [*events[:i], hideout]
            for i, e in enumerate(events)
            if e.kind == "guessed"
            for hideout in [_next_hideout(events[:i])]
            if ExactBelief.from_events([*events[:i], hideout]).total()
        ),
        None,
    )
    assert out_of_turn is not None, "no guess before which a hideout is possible: change the seed"
    cases = {
        "unknown kind": (
            [*events[:12], Event("teleported", {})],
            "event 13 (teleported",
            "unknown",
        ),
        "number out of range": (
            [*events[:guess], Event("guessed", {"numbers": [99], "hit": False})],
            f"event {guess + 1} (guessed",
            "99 is not a whole number in 1-41",
        ),
        "hit not a boolean": (
            [*events[:guess], Event("guessed", {"numbers": [2], "hit": "no"})],
            f"event {guess + 1} (guessed",
            "hit 'no' is not true or false",
        ),
        "out of turn": ([Event("guessed", {"numbers": [3], "hit": False})], "event 1 (guessed"),
        "the Fugitive's card": (
            [*events[:fugitive_draw], private_card, *events[fugitive_draw + 1 : 12]],
            f"event {fugitive_draw + 1} (drew",
            "its 'private' field is {'card': 7}",
        ),
        "her draw given to him": (  # named, though the replay breaks only later
            [*events[:marshal_draw], his_draw, *events[marshal_draw + 1 :]],
            f"event {marshal_draw + 1} (drew",
            "the rules would show drew {'seat': 1",
        ),
        "a hideout out of turn": (
            out_of_turn,
            f"event {len(out_of_turn)} (placed",
            "a hideout: not legal now",
        ),
    }
    for name, (bad_events, *expected) in cases.items():
        bad = tmp_path / f"{name}.jsonl"
        write_view_log(ViewLog(view.game, 1, bad_events), bad)
        check_error(entry("infer", "fugitive", "--log", bad, cwd=cwd), str(bad.name), *expected)


def test_infer_after_the_end_shows_the_route_and_suggests_nothing(
    game_log: Path, cwd: Path
) -> None:
    done = entry("infer", "fugitive", "--log", game_log, "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    out = one_json_object(done.stdout)
    route = next(e for e in read_view_log(game_log, "marshal").events if e.kind == "route")
    assert out["over"] and out["recommended"] is None
    assert [p["value"] for p in out["positions"]] == list(route.public["hideouts"])
    text = flat(entry("infer", "fugitive", "--log", game_log, cwd=cwd).stdout)
    assert "Game over: " in text and "Suggested" not in text


def test_infer_lines_of_the_log_are_named(view_log: Path, cwd: Path) -> None:
    lines = view_log.read_text().splitlines()
    lines[2] = json.dumps({"type": "event", "kind": 3})
    view_log.write_text("\n".join(lines))
    check_error(entry("infer", "fugitive", "--log", view_log, cwd=cwd), "line 3", "kind")


def test_infer_with_the_thrifty_model_changes_odds_not_values(view_log: Path, cwd: Path) -> None:
    runs = {
        model: entry("infer", "fugitive", "--log", view_log, "--events", "30", "--json",
                     "--model", model, cwd=cwd)
        for model in ("uniform", "thrifty")
    }  # fmt: skip
    out = {model: one_json_object(done.stdout) for model, done in runs.items()}
    assert out["thrifty"]["model"] == "thrifty" and "thrifty" in out["thrifty"]["assumption"]
    for a, b in zip(out["uniform"]["positions"], out["thrifty"]["positions"], strict=True):
        assert a.get("values", {}).keys() == b.get("values", {}).keys()
    assert out["uniform"]["positions"] != out["thrifty"]["positions"]
    bad = entry("infer", "fugitive", "--log", view_log, "--model", "greedy", cwd=cwd)
    assert bad.returncode == 2 and "greedy" in bad.stderr


def test_infer_reads_a_hit_with_its_reveals(tmp_path: Path, cwd: Path) -> None:
    spec = game_spec("fugitive")
    record = run_match(spec.make({}), [spec.bot("heuristic"), spec.bot("belief")], seed=5)
    write_log(record, tmp_path / "game.jsonl")
    events = read_view_log(tmp_path / "game.jsonl", "marshal").events
    hit = next(i for i, e in enumerate(events) if e.kind == "guessed" and e.public["hit"])
    named = events[hit].public["numbers"]
    cut = str(hit + 1)  # the guess, not its reveals
    done = entry(
        "infer", "fugitive", "--log", tmp_path / "game.jsonl", "--events", cut, "--json", cwd=cwd
    )
    assert done.returncode == 0, done.stderr
    out = one_json_object(done.stdout)
    assert out["events"] == hit + 1 + len(named)  # the guess's reveals come with it
    face_up = {p["value"] for p in out["positions"] if p["face_up"]}
    assert set(named) <= face_up


MANHUNT_GAME = Path(__file__).parents[3] / "examples" / "fugitive-manhunt.jsonl"
"""The heuristic Fugitive's game, with a Manhunt, that docs/fugitive.md reads (a stored log:
its game does not change with the bots' random streams)."""


def test_infer_under_a_known_fugitive_strategy(cwd: Path) -> None:
    log = MANHUNT_GAME
    events = read_view_log(log, "marshal").events
    begins = next((i for i, e in enumerate(events) if e.kind == "manhunt"), None)
    assert begins is not None, f"{log} has no Manhunt"
    manhunt = str(begins + 1)
    args = ["infer", "fugitive", "--log", log, "--events", manhunt, "--opponent", "heuristic"]
    done = entry(*args, "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    known = one_json_object(done.stdout)["opponent"]
    assert known["strategy"] == "heuristic"
    assert [r["hideouts"] for r in known["routes"]] == [[31, 37], [31, 38], [32, 38]]
    assert all(abs(r["probability"] - 1 / 3) < 1e-9 for r in known["routes"])
    assert known["manhunt_guess"]["number"] == 38
    assert abs(known["manhunt_guess"]["wins"] - 2 / 3) < 1e-9
    text = entry(*args, cwd=cwd)
    assert "Best Manhunt guess: 38 (wins 66.7%)" in flat(text.stdout)
    assert known["guess_before_42"] is None  # the Manhunt has begun
    early = entry(*args[:4], "--events", "40", "--opponent", "heuristic", "--json", cwd=cwd)
    assert one_json_object(early.stdout)["opponent"]["manhunt_guess"] is None  # no Manhunt yet
    placed_42 = next(
        i for i, e in enumerate(events) if e.kind == "placed" and e.public.get("value") == 42
    )
    before = [*args[:4], "--events", str(placed_42), "--opponent", "heuristic"]
    ahead = one_json_object(entry(*before, "--json", cwd=cwd).stdout)["opponent"]
    guess = ahead["guess_before_42"]
    assert guess is not None and 0 < guess["wins"] <= 1 and ahead["manhunt_guess"] is None
    numbers = " ".join(map(str, guess["numbers"]))
    assert f"Best guess if 42 comes next: {numbers}" in flat(entry(*before, cwd=cwd).stdout)
    last_guess = [*args[:4], "--events", "85", "--opponent", "heuristic", "--json"]
    ahead = one_json_object(entry(*last_guess, cwd=cwd).stdout)["opponent"]["guess_before_42"]
    assert ahead["numbers"] == [31, 37] and abs(ahead["wins"] - 16 / 21) < 1e-9  # docs example
    wrong = entry(*args[:6], "--opponent", "steady", cwd=cwd)
    check_error(wrong, "--opponent steady: event 6 (placed")
    unknown = entry(*args[:6], "--opponent", "elusive", cwd=cwd)
    check_error(unknown, "elusive")


def test_the_assistant_answers_while_its_kernel_compiles(
    compiling: threading.Event, view_log: Path
) -> None:
    """``sleuth assist fugitive`` compiles its kernel in the background (its prepare returns at
    once); the notes asked meanwhile come from the plain programme, without waiting, and are
    the compiled programme's."""
    view = read_view_log(view_log, "marshal")
    spec = game_spec("fugitive")
    assert spec.assist is not None and spec.assist.prepare is not None
    spec.assist.prepare(view.game)  # queued behind the warm-up held back by `compiling`
    answers: list[object] = []

    def notes() -> None:
        answers.append(Deduction.from_events(view.events).to_json())

    meanwhile = threading.Thread(target=notes)
    meanwhile.start()
    meanwhile.join(120)
    assert not meanwhile.is_alive() and len(answers) == 1  # no wait for the compilation
    assert not compiled.ready()
    compiling.set()
    assert compiled._idle.wait(300) and compiled.ready()
    notes()
    assert answers[1] == answers[0]
