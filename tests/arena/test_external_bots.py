"""Bots in other processes (``cmd:COMMAND``): every kind of misbehaviour forfeits that bot's game
with its cause and the tournament goes on; the example bots play whole games of every game;
the same seed plays the same games; the bot sees its own view alone; no process outlives a
game, a tournament or a killed tournament."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from sleuth.arena.tournament import run_tournament
from sleuth.core import botprocess
from sleuth.core.botprocess import BotProcess, Limits
from sleuth.core.botwire import MAX_LISTED, act_message
from sleuth.core.errors import OptionError
from sleuth.core.events import Event, View
from sleuth.core.external import command_bot
from sleuth.core.match import MatchRunner, play_many, run_match
from sleuth.core.registry import game_spec, make_game

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

ROOT = Path(__file__).resolve().parents[2]
BAD = Path(__file__).with_name("bad_bot.py")
PY = sys.executable
PY_BOT = f"cmd:{PY} {ROOT / 'examples/bots/random_bot.py'}"
PY_BOT_V1 = f"{PY_BOT} --protocol 1"
NODE_BOT = f"cmd:node {ROOT / 'examples/bots/random_bot.js'}"
SLEUTH = str(Path(sys.executable).with_name("sleuth"))
EVERY_GAME = {
    "fox": {}, "camel-up": {}, "scotland-yard": {}, "cluedo": {},
    "fugitive": {"max_rounds": 50},  # the first 1000 of a hand's actions can go on for ever
}  # fmt: skip


def bad(kind: str, mark: str = "") -> str:
    return f"cmd:{PY} {BAD} {kind} {mark}".rstrip()


def marked(mark: str) -> list[int]:
    """The live processes whose command line holds ``mark``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes()
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if mark.encode() in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def gone(mark: str, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while marked(mark):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("crash", "exited with code 3; its last error output: 'ValueError: the bot broke'"),
        ("hang", "did not answer within its limit (wall-clock time)"),
        ("mute", "did not answer within its limit (wall-clock time)"),
        ("slow", "did not answer within its limit (wall-clock time)"),
        ("garbage", "printed a line that is not JSON: 'thinking about hole 2...'"),
        ("flood", f"printed a line longer than {Limits().line} bytes"),
        ("fork", "started another process (pid "),
        ("memory", "exited with code 1; its last error output: 'MemoryError'"),
        (
            "version",
            "could not start: ProtocolError: speaks protocol version 99; Sleuth speaks 1 and 2",
        ),
        ("illegal", "returned an illegal action: FoxMove(hole=99)"),
        ("unreadable", "sent an action the game cannot read: 'dig everywhere'"),
    ],
)
def test_a_bad_bot_forfeits_its_games_with_the_cause_and_the_others_complete(
    kind: str, reason: str
) -> None:
    mark = uuid.uuid4().hex
    limit = 0.3 if kind in ("hang", "mute", "slow") else 5.0  # a loaded machine's margin
    tournament = run_tournament(
        "fox", [bad(kind, mark), "random"], 4, seed=3, workers=1, time_limit=limit
    )
    assert len(tournament.rows) == 4 and tournament.complete
    for row in tournament.rows:
        # the bad bot loses at its first decision; games where it never moved have no forfeit
        for forfeit in row.forfeits:
            assert forfeit["bot"] == bad(kind, mark)
            assert reason in str(forfeit["reason"]), forfeit["reason"]
    assert sum(len(row.forfeits) for row in tournament.rows) >= 2
    assert gone(mark), "a bot process outlived the tournament"


def test_a_bot_process_cannot_take_the_memory_the_limit_denies() -> None:
    bot = command_bot("hog", f"{PY} {BAD} memory", ("hunter", "fox"), limits=Limits(memory=1 << 29))
    record = run_match(make_game("fox"), [bot, game_spec("fox").bot("random")], 1, 5.0)
    assert [f.reason for f in record.forfeits] == [
        "raised ProtocolError: exited with code 1; its last error output: 'MemoryError'"
    ]


def test_the_per_move_limit_is_the_runners_and_a_slow_bot_within_it_plays() -> None:
    fox = game_spec("fox")
    record = run_match(make_game("fox"), [fox.bot(bad("slow")), fox.bot("random")], 1, 3.0)
    assert record.forfeits == [] and record.result is not None


@pytest.mark.parametrize("bot", [PY_BOT, PY_BOT_V1])
def test_the_example_python_bot_plays_whole_games_of_every_game(bot: str) -> None:
    for name, options in EVERY_GAME.items():
        spec = game_spec(name)
        game = make_game(name, options)
        record = run_match(game, [spec.bot(bot)] * game.num_players, 11, 5.0)
        assert record.forfeits == [], (name, record.forfeits)
        assert record.final_state is not None and record.final_state.is_terminal()


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed (node)")
def test_the_example_node_bot_plays_whole_games_of_every_game() -> None:
    for name, options in EVERY_GAME.items():
        spec = game_spec(name)
        game = make_game(name, options)
        record = run_match(game, [spec.bot(NODE_BOT)] * game.num_players, 11, 5.0)
        assert record.forfeits == [], (name, record.forfeits)
        assert record.final_state is not None and record.final_state.is_terminal()


@pytest.mark.parametrize("bot", [PY_BOT, PY_BOT_V1])
def test_the_same_seed_plays_the_same_games_on_any_number_of_workers(bot: str) -> None:
    bots = [bot, "random", "random"]
    one = run_tournament("camel-up", bots, 6, seed=5, workers=1)
    two = run_tournament("camel-up", bots, 6, seed=5, workers=2)
    again = run_tournament("camel-up", bots, 6, seed=5, workers=1)
    assert [r.actions for r in one.rows] == [r.actions for r in two.rows]
    assert [r.actions for r in one.rows] == [r.actions for r in again.rows]
    assert one.forfeits == 0


def test_the_bot_process_receives_its_own_view_and_nothing_else(tmp_path: Path) -> None:
    spied = tmp_path / "spied.jsonl"
    spec = game_spec("cluedo")
    game = make_game("cluedo")
    bots = [spec.bot(f"cmd:{PY} {BAD} spy {spied}"), spec.bot("random"), spec.bot("random")]
    record = run_match(game, bots, 4, 5.0)
    deadline = time.monotonic() + 10
    while '"type":"end"' not in spied.read_text():  # the bot writes it after run_match returns
        assert time.monotonic() < deadline, "the bot never received the end of the game"
        time.sleep(0.02)
    messages = [json.loads(line) for line in spied.read_text().splitlines()]
    assert messages[0]["type"] == "start" and messages[-1]["type"] == "end"
    received = [event for m in messages for event in m.get("events", [])]
    everything = [event for step in record.steps for event in step.events]
    assert received == [event.seen_by(0).to_json() for event in everything]
    hidden = [e for e in everything if e.private is not None and 0 not in e.audience]
    assert hidden, "the game had no secret of another seat: the test would prove nothing"
    assert all("private" not in seen for seen, e in zip(received, everything, strict=True)
               if e in hidden)  # fmt: skip
    assert [m["first"] for m in messages[1:]] == sorted(m["first"] for m in messages[1:])


def test_an_act_message_lists_at_most_max_listed_legal_actions_and_says_there_are_more() -> None:
    view = View(0, "hunter", {}, [Event("x")])
    few = json.loads(act_message(view, 0, ("a", "b"), 7))
    many = json.loads(act_message(view, 1, tuple(map(str, range(MAX_LISTED + 5))), 7))
    assert few == {"type": "act", "first": 0, "events": [{"kind": "x", "public": {}}],
                   "legal": ["a", "b"], "more": False, "seed": 7}  # fmt: skip
    assert many["legal"] == [str(i) for i in range(MAX_LISTED)] and many["more"] is True
    assert many["events"] == []


@pytest.mark.skipif(os.geteuid() != 0, reason="a network namespace needs root (or CAP_NET_ADMIN)")
def test_a_bot_process_has_no_network_where_the_os_allows() -> None:
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        spec = game_spec("fox")
        for seed in (1, 2):  # both seats act in one of them
            bots = [spec.bot(bad("network", str(port))), spec.bot(bad("network", str(port)))]
            record = run_match(make_game("fox"), bots, seed, 10.0)
            assert record.forfeits == [], record.forfeits
    reachable = command_bot("net", f"{PY} {BAD} network {port}", ("hunter", "fox"),
                            limits=Limits(network=True))  # fmt: skip
    with socket.create_server(("127.0.0.1", port)):
        record = run_match(make_game("fox"), [reachable, reachable], 1, 10.0)
    assert "printed a line that is not JSON: 'connected'" in record.forfeits[0].reason


def test_a_cmd_bot_is_refused_where_a_person_other_than_the_user_names_bots() -> None:
    with pytest.raises(OptionError, match="runs a command on this machine"):
        game_spec("fox").bot(PY_BOT, interactive=True)


@pytest.mark.parametrize(
    ("name", "culprit"),
    [
        ("cmd:", "names no command"),
        ("cmd:no-such-program-here --fast", "no program 'no-such-program-here' found"),
        ("cmd:python 'unclosed", "No closing quotation"),
    ],
)
def test_a_bad_command_is_an_error_naming_it_before_any_game(name: str, culprit: str) -> None:
    with pytest.raises(OptionError, match=culprit):
        run_tournament("fox", [name, "random"], 2, workers=1)


def test_a_plugin_can_register_a_command_bot_under_its_own_name() -> None:
    spec = command_bot("pyrandom", f"{PY} {ROOT / 'examples/bots/random_bot.py'}", ("hunter",))
    record = run_match(make_game("fox"), [spec, game_spec("fox").bot("random")], 2)
    assert record.bots[0] == "pyrandom" and record.forfeits == []


@pytest.mark.parametrize("kind", ["none", "v2:none"])
def test_processes_are_reused_across_games_and_all_killed_at_the_end(kind: str) -> None:
    mark = uuid.uuid4().hex
    started: list[BotProcess] = []
    original = BotProcess.__init__

    def counting(self: BotProcess, argv: tuple[str, ...], limits: Limits) -> None:
        original(self, argv, limits)
        started.append(self)

    BotProcess.__init__ = counting  # type: ignore[method-assign]
    try:
        run_tournament("fox", [bad(kind, mark), "random"], 10, workers=1, rotate=False)
    finally:
        BotProcess.__init__ = original  # type: ignore[method-assign]
    assert len(started) == 1  # version 2: its ten games in flight at once
    assert started[0].games == 10 or kind == "v2:none"
    assert gone(mark, within=0.0) and not botprocess._LIVE


@pytest.mark.parametrize(
    ("how", "kind"),
    [
        (signal.SIGINT, "forkhang"),
        (signal.SIGTERM, "forkhang"),
        (signal.SIGKILL, "hang"),
        (signal.SIGINT, "v2:forkhang"),
        (signal.SIGKILL, "v2:hang"),
    ],
)
def test_no_bot_process_outlives_a_stopped_or_killed_tournament(
    how: signal.Signals, kind: str
) -> None:
    """Ctrl-C (SIGINT to the process group) and SIGTERM stop the run; SIGKILL kills it, and
    its workers then exit, their bot processes killed by the kernel with them."""
    mark = uuid.uuid4().hex
    bots = f"{bad(kind, mark)},{bad(kind, mark)}"
    run = subprocess.Popen(
        [SLEUTH, "play", "fox", "--bots", bots, "-n", "400", "-w", "2", "--time-limit", "30",
         "--no-db"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    while len(marked(mark)) < (6 if "forkhang" in kind else 4):  # in each of two workers
        assert run.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    if how == signal.SIGINT:
        os.killpg(run.pid, how)
    else:
        run.send_signal(how)
    run.wait(timeout=30)
    assert gone(mark), f"left behind: {marked(mark)}"


def documented_exchange(version: int) -> list[str]:
    """The lines of the full exchange of ``version`` in docs/bot-protocol.md, ``> `` or ``< ``
    first."""
    text = (ROOT / "docs" / "bot-protocol.md").read_text()
    block = text.split("```text\n")[version].split("```", 1)[0]
    return block.splitlines()


@pytest.mark.parametrize("version", [1, 2])
def test_the_documented_exchange_is_what_sleuth_sends_and_the_example_bot_answers(
    version: int,
) -> None:
    """Version 1: the example bot with --protocol 1 in one game; version 2: the example bot in
    two games in flight (seeds 1 and 4)."""
    lines = documented_exchange(version)
    sent = [line[2:] for line in lines if line.startswith("> ")]
    answers = [line[2:] for line in lines if line.startswith("< ")]
    assert len(sent) + len(answers) == len(lines) and answers
    written: list[str] = []
    original = BotProcess.send

    def recording(self: BotProcess, data: bytes, deadline: float) -> None:
        written.append(data.decode().rstrip("\n"))
        original(self, data, deadline)

    BotProcess.send = recording  # type: ignore[method-assign]
    try:
        spec = game_spec("fox")
        game = make_game("fox", {"graph": "path:3"})
        bot = spec.bot(PY_BOT_V1 if version == 1 else PY_BOT)
        runner = MatchRunner(game, [bot, spec.bot("random")])
        records = list(play_many([(runner, 1), (runner, 4)][:version], 2))
    finally:
        BotProcess.send = original  # type: ignore[method-assign]
    assert len(records) == version and not any(record.forfeits for _, record in records)
    assert written == sent
    argv = [PY, str(ROOT / "examples/bots/random_bot.py"), *(["--protocol", "1"] * (version == 1))]
    bot_run = subprocess.run(
        argv, input="\n".join(sent) + "\n", capture_output=True, text=True, timeout=30,
        check=True,
    )  # fmt: skip
    assert bot_run.stdout.splitlines() == answers
