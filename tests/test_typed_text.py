"""Every interactive entry and every option survives any text: a table session's ``enter``
(every game's, and the fox puzzle of ``sleuth fox play``), the shared loop's own commands,
each game's ``-o`` options and each assistant's settings either accept the text or refuse it
with a :class:`~sleuth.core.errors.SleuthError`, leaving the session as it was.

The texts are arbitrary, and each entry form of the session's help with its numbers replaced
by awkward ones: more digits than Python converts (4,300), digits of other scripts (``'٣'``,
which ``int`` reads, and ``'²'``, which ``str.isdigit`` accepts and ``int`` refuses), signs.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Iterator
from functools import cache
from io import StringIO
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from sleuth.assist.repl import run_repl
from sleuth.core.errors import SleuthError
from sleuth.core.registry import game_spec, game_specs
from sleuth.core.table import TableSession
from sleuth.web.assist_session import Assistant, assistants
from tests.cli_helpers import entry

HUGE = "9" * 5000
AWKWARD = [HUGE, "0" * 4400 + "7", "1" * 31, "²", "٣", "-1", "+2", "0", "1e9", "", "9" * 30]
NAMES = sorted(assistants())


def _forms(session: TableSession) -> list[str]:
    """The entry forms of the session's help: each line's first column, split at ' / '."""
    forms = []
    for line in session.entry_help.splitlines():
        found = re.match(r"(\S.*?)(\s{2,}|$)", line)
        if found and not line.startswith("("):
            forms += [f.strip() for f in found[1].split(" / ")]
    return forms


def _fresh(name: str) -> TableSession:
    helper = assistants()[name]
    game = game_spec(name).make({})
    if helper.prepare is not None:
        helper.prepare(game)
    return helper.make(game, {p.name: p.default for p in helper.params})


@cache
def _session(name: str, setup: bool) -> TableSession:
    """A session of ``name``: new, or (``setup``) after every form of its help that is
    accepted in turn (a game under way: the setup entered, a few moves)."""
    session = _fresh(name)
    if setup:
        for form in _forms(session):
            with contextlib.suppress(SleuthError):
                session.enter(form)
    return session


def _numbers(form: str) -> st.SearchStrategy[str]:
    """``form`` with each of its numbers replaced by an awkward one or any short text."""
    parts = re.split(r"\d+", form)
    number = st.one_of(st.sampled_from(AWKWARD), st.text(max_size=4), st.integers(0, 250).map(str))
    return st.lists(number, min_size=len(parts) - 1, max_size=len(parts) - 1).map(
        lambda values: "".join(p + v for p, v in zip(parts, [*values, ""], strict=True))
    )


def _texts(session: TableSession) -> st.SearchStrategy[str]:
    return st.one_of(st.text(), st.sampled_from(_forms(session)).flatmap(_numbers))


@pytest.mark.parametrize("setup", [False, True], ids=["new", "under way"])
@pytest.mark.parametrize("name", NAMES)
def test_an_entry_is_accepted_or_refused_with_the_session_unchanged(name: str, setup: bool) -> None:
    session = _session(name, setup)
    before = session.history()

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=_texts(session))
    def check(text: str) -> None:
        try:
            session.enter(text)
        except SleuthError:
            assert session.history() == before
        else:
            session.undo()
            assert session.history() == before

    check()


@pytest.mark.parametrize("name", NAMES)
def test_a_huge_number_in_every_form_is_refused(name: str) -> None:
    """Each number of every form, in a new session and in one under way, replaced by 5,000
    digits: refused with a SleuthError (the number itself is named where it is read)."""
    for setup in (False, True):
        session = _session(name, setup)
        before = session.history()
        for form in _forms(session):
            for at in range(len(re.findall(r"\d+", form))):
                parts = re.split(r"(\d+)", form)
                parts[2 * at + 1] = HUGE
                with pytest.raises(SleuthError):
                    session.enter("".join(parts))
                assert session.history() == before


def _loop_output(session: TableSession, lines: list[str]) -> str:
    out = StringIO()
    feed: Iterator[str] = iter([*lines, "quit"])
    run_repl(session, Console(file=out, width=200, color_system=None), lambda _: next(feed))
    return out.getvalue()


COMMAND_WORDS = ["undo", "edit", "edit!", "delete", "delete!", "insert", "insert!", "history"]


@settings(max_examples=100, deadline=None)
@given(
    lines=st.lists(
        st.tuples(st.sampled_from(COMMAND_WORDS), st.sampled_from(AWKWARD), st.text()).map(
            " ".join
        ),
        max_size=4,
    )
)
def test_the_loop_commands_refuse_any_number(lines: list[str]) -> None:
    session = _fresh("fox")
    session.enter("1")
    out = _loop_output(session, lines)
    assert "did not expect" not in out
    assert session.history() == ["inspect 1"] or len(session.history()) <= 2


class _Broken:
    """A session whose entries fail with an error that is not a SleuthError (a bug)."""

    title, entry_help, commands, finished = "broken", "x  an entry", (), False

    def __init__(self) -> None:
        self.entries = ["first"]

    def enter(self, text: str) -> str:
        raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")

    def undo(self) -> str:
        return self.entries.pop()

    def history(self) -> list[str]:
        return list(self.entries)

    def render(self) -> str:
        return f"{len(self.entries)} entries"

    def save(self, path: Any) -> None: ...

    def load(self, path: Any) -> None: ...

    def leave(self) -> str:
        return "bye"


def test_an_unexpected_error_is_reported_and_the_loop_reads_on() -> None:
    session = _Broken()
    out = _loop_output(session, [HUGE, "history"])
    assert "error: '" + "9" * 60 + "...' raised an error Sleuth did not expect (ValueError" in out
    assert "  1  first" in out  # the loop read on: the entries are still there
    assert out.rstrip().endswith("bye")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize("spec", game_specs(), ids=lambda s: s.name)
def test_a_game_option_is_accepted_or_refused(spec: Any, data: st.DataObject) -> None:
    option = data.draw(st.sampled_from(spec.options))
    text = data.draw(st.one_of(st.text(), st.sampled_from(AWKWARD)))
    if option.name in ("graph", "map") and (text.strip() in ("", ".", "/") or "/" in text):
        return  # names a file or folder: its own tests
    with contextlib.suppress(SleuthError):
        spec.make({option.name: text})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
@pytest.mark.parametrize(
    "name", [n for n in NAMES if any(p.kind is str for p in assistants()[n].params)]
)
def test_an_assistant_setting_is_accepted_or_refused(name: str, data: st.DataObject) -> None:
    helper: Assistant = assistants()[name]
    param = data.draw(st.sampled_from([p for p in helper.params if p.kind is str]))
    text = data.draw(st.one_of(st.text(min_size=1), st.sampled_from(AWKWARD[:-2])))
    game = game_spec(name).make({})
    values = {p.name: p.default for p in helper.params} | {param.name: text}
    if param.choices and text not in param.choices:
        return  # the command line and the web app refuse it before the assistant sees it
    try:
        if helper.check is not None:
            helper.check(game, values)
        helper.make(game, values)
    except SleuthError:
        pass


@pytest.mark.parametrize(
    "args",
    [
        ["play", "fox", "--bots", "random,random", "--no-db", "-n", HUGE],
        ["play", "fox", "--bots", "random,random", "--no-db", "-n", "1", "--seed", HUGE],
        ["play", "fox", "--bots", "random,random", "--no-db", "-n", "1", "-o", f"k={HUGE}"],
        ["play", "fox", "--bots", f"random,ismcts:iterations={HUGE}", "--no-db", "-n", "1"],
        ["fox", "solve", "--graph", f"path:{HUGE}"],
        ["fox", "solve", "-k", HUGE],
        ["assist", "scotland-yard", "--starts", f"9,{HUGE}"],
        ["assist", "cluedo", "--players", HUGE],
    ],
    ids=lambda a: " ".join(w[:12] for w in a),
)
def test_a_huge_number_on_the_command_line_is_a_clear_error(args: list[str], tmp_path: Any) -> None:
    done = entry(*args, cwd=tmp_path)  # an exception other than SystemExit fails the test
    assert done.returncode == 2, done.stdout[-500:]
    assert "Traceback" not in done.stderr and ("error" in done.stderr or "Error" in done.stderr)


@settings(max_examples=150, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("spec", game_specs(), ids=lambda s: s.name)
def test_an_action_text_is_read_or_refused(spec: Any, data: st.DataObject) -> None:
    """``Game.parse_action``, behind the web app's moves and the logs: any text, and the
    text form of a legal action with its numbers made awkward."""
    game = spec.make({})
    state, forms = game.new_initial_state(), []
    rng = random.Random(0)
    while len(forms) < 20 and not state.is_terminal():  # the first moves' forms, chance's too
        chance = state.current_player() < 0
        action = state.sample_chance(rng) if chance else state.fallback_action()
        forms.append(str(action))
        state.apply(action)
    text = data.draw(st.one_of(st.text(), st.sampled_from(forms).flatmap(_numbers)))
    with contextlib.suppress(SleuthError):
        game.parse_action(text)
