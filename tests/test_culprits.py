"""Refusals that name what was wrong (issue 35, section 6): a typed station that is no station
of the board (before any preparation), a suspect named twice, ``k`` over the board's holes, a
file that is not a Sleuth log, a word that is no card, a die the edition does not have, a
number that is not a hole."""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from sleuth.core.errors import LogError, OptionError, SleuthError
from sleuth.core.log import replay_log
from sleuth.core.registry import make_game
from sleuth.core.viewlog import read_view_log
from sleuth.games.cluedo.notepad_picture import notepad as cluedo_picture
from sleuth.games.cluedo.table import room_table
from sleuth.games.scotland_yard import assistant as sy_assistant
from sleuth.games.scotland_yard.table import example_starts
from sleuth.web.assist_session import assistants, new_record
from tests.cli_helpers import entry, flat


def _session(name: str, options: dict[str, str] | None = None) -> object:
    helper = assistants()[name]
    game = make_game(name, options or {})
    return helper.make(game, {p.name: p.default for p in helper.params})


def test_a_start_that_is_no_station_is_named_before_the_kernels_are_prepared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def prepared() -> None:
        raise AssertionError("prepared before the starts were checked")

    monkeypatch.setattr(sy_assistant.rollouts, "warm_up", prepared)
    done = entry("assist", "scotland-yard", "--starts", "9,10,999", cwd=tmp_path)
    assert done.returncode == 2
    assert flat(done.stderr) == "error: starts 9,10,999: 999 is not a station of the board (1..200)"
    with pytest.raises(SleuthError, match=r"^starts 9,10,999: 999 is not a station of the board"):
        new_record("scotland-yard", {}, {"starts": "9,10,999"})  # the web app's notepad


def test_a_start_typed_as_an_entry_names_the_station_too() -> None:
    session = _session("scotland-yard")
    with pytest.raises(SleuthError, match=r"^'start 9,10,999': 999 is not a station of the board"):
        session.enter("start 9,10,999")  # type: ignore[attr-defined]


def test_a_suspect_named_twice_is_named() -> None:
    with pytest.raises(OptionError, match=r"^suspects: Plum is named twice"):
        make_game("cluedo", {"suspects": "Plum,Plum,Green"})


def test_k_over_the_holes_of_the_board_is_refused_naming_k_and_the_bound(tmp_path: Path) -> None:
    with pytest.raises(OptionError, match=r"^k=99: at most 5, the holes of the board path:5$"):
        make_game("fox", {"graph": "path:5", "k": "99"})
    assert make_game("fox", {"graph": "path:5", "k": "5"}).options()["k"] == 5
    done = entry("play", "fox", "--bots", "random,random", "-n", "1", "--no-db", "-o", "k=99",
                 cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2 and "k=99: at most 5" in done.stderr


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('{"a": 1}\n', "a JSON object with no Sleuth format"),
        ("hello\n", "invalid JSON"),
        ("[1, 2]\n", "not a JSON object"),
    ],
)
def test_a_file_that_is_not_a_log_is_said_to_be_none(tmp_path: Path, text: str, found: str) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text(text)
    for read in (replay_log, lambda p: read_view_log(p, "marshal")):
        with pytest.raises(LogError) as error:
            read(path)
        message = str(error.value)
        assert "line 1: not a Sleuth log: a log's first line is its header, such as " in message
        assert '{"type": "header", "format": "sleuth-log", "game": "fox", ...}' in message
        assert message.endswith(found) or found in message
    done = entry("replay", path, cwd=tmp_path)
    assert done.returncode != 0 and "not a Sleuth log" in done.stderr


def test_a_log_with_a_bad_header_is_still_named_by_its_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"type": "header", "format": "sleuth-log", "version": 9}) + "\n")
    with pytest.raises(LogError, match=r"line 1: bad header: version"):
        replay_log(path)


def test_a_word_that_is_no_card_is_named() -> None:
    session = _session("cluedo")
    for line in ("players 3", "me Scarlet", "hand Plum, Knife, Hall, Rope, Study, Green"):
        session.enter(line)  # type: ignore[attr-defined]
    with pytest.raises(SleuthError, match=r"^'🦊' is no card$"):
        session.enter("I suggest 🦊 knife hall")  # type: ignore[attr-defined]
    assert session.enter("I suggest Plum - Knife & Hall")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("edition", "start", "message"),
    [
        ("1", "start 1:blue 2:green,orange 3:yellow,white",
         "there is no red die in the 1st edition: its dice are blue, green, orange, yellow, "
         "white"),
        ("2", "start 1:blue 2:green,red 3:yellow,purple 16:black,white",
         "there is no orange die in the 2nd edition: its dice are blue, green, red, yellow, "
         "purple and the grey die (white, black)"),
    ],
)  # fmt: skip
def test_a_die_the_edition_does_not_have_is_named_before_its_value(
    edition: str, start: str, message: str
) -> None:
    session = _session("camel-up", {"edition": edition})
    session.enter(start)  # type: ignore[attr-defined]
    colour = message.split()[3]
    with pytest.raises(SleuthError, match=re.escape(message)):
        session.enter(f"roll {colour} 9")  # type: ignore[attr-defined]


def test_a_number_that_is_not_a_hole_is_named() -> None:
    session = _session("fox")
    for text in ("inspect -1", "-1", "2.5"):
        with pytest.raises(SleuthError, match=r"^'(-1|2\.5)' is not a hole \(holes 0\.\.4\)$"):
            session.enter(text)  # type: ignore[attr-defined]


def test_scotland_yard_names_mr_x_moves_apart_from_the_assistants_entries() -> None:
    """Mr. X's travel log has *moves* (some of them reveal moves); the assistant's typed lines
    are *entries*: no message calls one by the other's name."""
    session: Any = _session("scotland-yard", {"reveals": "1,3", "detectives": "2"})
    assert "Mr. X shows himself after his moves 1, 3 of 24" in session.title
    session.enter(f"start {example_starts(session.game)}")
    with pytest.raises(SleuthError, match=r"no reveal is due: Mr. X has not moved yet \(reveal"):
        session.enter("reveal 45")
    session.enter("x taxi")
    shown = flat(_text(session.render()))
    assert "Round 1, Mr. X's move 1 of 24." in shown
    assert "Mr. X's move 1 is a reveal move: where did he show himself?" in shown
    with pytest.raises(SleuthError, match=r"Mr. X's move 1 is a reveal move: first enter where"):
        session.enter("d1 pass")
    with pytest.raises(SleuthError, match=r"^Mr. X's move 1 waits for its reveal"):
        session.save(Path("unused.jsonl"))
    assert not re.search(r"\b[Ee]ntr(y|ies)\b", shown + session.title.replace("one entry", ""))


def _text(renderable: Any) -> str:
    console = Console(file=io.StringIO(), width=200, color_system=None)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_the_cluedo_notepad_speaks_of_envelopes_left_not_of_nats() -> None:
    """The table sees its uncertainty as a number of equally likely envelopes (e^H) and a
    suggestion's worth as the factor it divides them by (e^gain); the exact entropy stays
    for ``sleuth infer cluedo --json``."""
    session: Any = _session("cluedo")
    setup = ["players 3", "me Scarlet", "hand Plum, Knife, Hall, Rope, Study, Green"]
    for line in [*setup, "I am in Hall", "Mustard suggests Peacock Wrench Lounge", "White passes"]:
        session.enter(line)
    shown = flat(_text(session.render()))
    assert "nats" not in shown and "ntropy" not in shown
    left = round(math.exp(session.pad.posterior.entropy()))
    assert f"about {left:,} equally likely envelopes left (of 324)" in shown
    best = room_table(session.pad)[0]
    assert f"should divide the envelopes left by {math.exp(best.gain):.1f}" in shown or (
        "should halve the envelopes left" in shown
    )
    assert "Your next turn (the last turn entered is Mustard's): " in shown
    assert "This turn" not in shown
    picture = re.sub(r"<[^>]+>", " ", cluedo_picture(session))  # the web page's words
    assert "nats" not in picture and "ntropy" not in picture
    assert f"equally likely envelopes left by entry; now about {left:,}" in picture
    assert f"divides them by {math.exp(best.gain):.1f}" in picture
    session.enter("nobody")
    session.enter("I suggest Peacock Wrench Hall")
    assert "This turn: " in flat(_text(session.render()))
