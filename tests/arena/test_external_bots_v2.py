"""Bot protocol version 2: one process plays its seat in many games at once, and those games
play as they play one by one, in version 1 and in Sleuth's process (record for record); each
game's view reaches the process apart from the others'; a broken process forfeits every game it
had in flight, a bad answer its game alone; a batch has the sum of its decisions' limits."""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Hashable, Sequence
from pathlib import Path
from typing import Any

import pytest

from sleuth.arena.tournament import run_tournament
from sleuth.core.botprocess import BotProcess, Limits
from sleuth.core.bots import Bot, BotSpec
from sleuth.core.botwire import ProtocolError, read_answers, read_choice
from sleuth.core.events import View
from sleuth.core.game import Game
from sleuth.core.match import MatchRecord, MatchRunner, play_many
from sleuth.core.registry import game_spec, make_game
from tests.arena.test_external_bots import BAD, EVERY_GAME, PY, PY_BOT, PY_BOT_V1, bad, gone

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")


class Uniform(Bot):
    """In Sleuth's process, what the example bot does: an index drawn with the decision's
    seed among all the legal actions (``rng`` is ``random.Random(the decision's seed)``)."""

    def act(self, view: View, legal: Sequence[Hashable]) -> Hashable:
        return legal[self.rng.randrange(len(legal))]


def uniform(game: Game[Any], seat: int, seed: int) -> Bot:
    return Uniform(game, seat, seed)


def played(record: MatchRecord) -> tuple[object, ...]:
    """What a record says happened (all but the measured times)."""
    return (
        [(step.seat, str(step.action), step.events) for step in record.steps],
        record.forfeits,
        record.result,
    )


@pytest.mark.parametrize("name", list(EVERY_GAME))
def test_games_in_flight_in_one_process_play_as_one_by_one_in_version_1_and_in_process(
    name: str,
) -> None:
    """16 games in flight through one version 2 process per seat, against the same games one
    by one (version 1, and a bot in Sleuth's process drawing as the example bot does). Fugitive
    is not compared with version 1, which lists the first 1000 of a hand's actions only."""
    spec, game = game_spec(name), make_game(name, EVERY_GAME[name])
    seats = game.num_players
    local = BotSpec("uniform", game.roles, uniform, "")
    seeds = range(16)
    v2 = MatchRunner(game, [spec.bot(PY_BOT)] * seats, 5.0)
    started: list[BotProcess] = []
    original = BotProcess.__init__

    def counting(self: BotProcess, argv: tuple[str, ...], limits: Limits) -> None:
        original(self, argv, limits)
        started.append(self)

    BotProcess.__init__ = counting  # type: ignore[method-assign]
    try:
        flying = dict(play_many(((v2, seed) for seed in seeds), 16))
    finally:
        BotProcess.__init__ = original  # type: ignore[method-assign]
    assert len(started) <= seats, "one process per seat served every game in flight"
    in_process = MatchRunner(game, [local] * seats, 5.0)
    expected = [played(in_process.play(seed)) for seed in seeds]
    assert [played(flying[i]) for i in range(len(seeds))] == expected
    assert all(not flying[i].forfeits for i in flying)
    if name != "fugitive":
        v1 = MatchRunner(game, [spec.bot(PY_BOT_V1)] * seats, 5.0)
        assert [played(v1.play(seed)) for seed in seeds] == expected


def test_each_game_in_flight_reaches_the_process_as_its_own_view_alone(tmp_path: Path) -> None:
    spied = tmp_path / "spied.jsonl"
    spec, game = game_spec("cluedo"), make_game("cluedo")
    spy = spec.bot(f"cmd:{PY} {BAD} v2:spy {spied}")
    runner = MatchRunner(game, [spy, spec.bot("random"), spec.bot("random")], 5.0)
    records = dict(play_many(((runner, seed) for seed in range(6)), 6))
    lines = [json.loads(line) for line in spied.read_text().splitlines()]
    items = [lines[0]] + [item for line in lines[1:] for item in line["items"]]
    assert max(sum(i["type"] == "act" for i in line["items"]) for line in lines[1:]) > 1
    received: dict[int, list[dict[str, object]]] = {}
    for item in items:
        if item["type"] == "start":
            assert item["id"] not in received and item["seat"] == 0
            received[item["id"]] = []
        else:
            assert item["first"] == len(received[item["id"]]), "an event was sent twice or lost"
            received[item["id"]].extend(item["events"])
    assert sorted(received) == sorted(records)  # game ids: the order the games started in
    hidden = 0
    for index, record in records.items():
        everything = [event for step in record.steps for event in step.events]
        assert received[index] == [event.seen_by(0).to_json() for event in everything]
        hidden += sum(e.private is not None and 0 not in e.audience for e in everything)
    assert hidden, "no secret of another seat: the test would prove nothing"


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("crash", "exited with code 3; its last error output: 'ValueError: the bot broke'"),
        ("hang", "did not answer within its limit (wall-clock time)"),
        ("mute", "did not answer within its limit (wall-clock time)"),
        ("garbage", "printed a line that is not JSON: 'thinking about hole 2...'"),
        ("flood", f"printed a line longer than {Limits().line} bytes"),
        ("fork", "started another process (pid "),
        ("memory", "exited with code 1; its last error output: 'MemoryError'"),
    ],
)
def test_a_broken_process_forfeits_every_game_it_had_in_flight_with_the_cause(
    kind: str, reason: str
) -> None:
    """Eight games at once, the bad bot the hunter in all: one process, one failure, eight
    forfeits naming it; the other seat's bot and the tournament go on."""
    mark = uuid.uuid4().hex
    limit = 0.3 if kind in ("hang", "mute") else 5.0
    tournament = run_tournament(
        "fox", [bad(f"v2:{kind}", mark), "random"], 8, seed=3, workers=1, time_limit=limit,
        rotate=False,
    )  # fmt: skip
    assert len(tournament.rows) == 8 and tournament.complete
    for row in tournament.rows:
        assert [f["bot"] for f in row.forfeits] == [bad(f"v2:{kind}", mark)]
        assert reason in str(row.forfeits[0]["reason"]), row.forfeits[0]["reason"]
    assert gone(mark), "a bot process outlived the tournament"


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        ("illegal", "returned an illegal action: FoxMove(hole=99)"),
        ("unreadable", "sent an action the game cannot read: 'dig everywhere'"),
    ],
)
def test_a_bad_answer_forfeits_its_game_alone_and_the_process_plays_on(
    kind: str, reason: str
) -> None:
    started: list[BotProcess] = []
    original = BotProcess.__init__

    def counting(self: BotProcess, argv: tuple[str, ...], limits: Limits) -> None:
        original(self, argv, limits)
        started.append(self)

    BotProcess.__init__ = counting  # type: ignore[method-assign]
    try:
        tournament = run_tournament(
            "fox", [bad(f"v2:{kind}"), "random"], 8, seed=3, workers=1, rotate=False
        )
    finally:
        BotProcess.__init__ = original  # type: ignore[method-assign]
    assert all(reason in str(row.forfeits[0]["reason"]) for row in tournament.rows)
    assert len(started) == 1, "the process was not killed for one game's answer"


def test_a_batch_has_the_sum_of_its_decisions_limits() -> None:
    """0.3 s per decision against a limit of 0.5 s per move: the first batch (four games'
    first decisions, 1.2 s) is within its 2 s."""
    fox = game_spec("fox")
    game = make_game("fox", {"graph": "path:3"})
    runner = MatchRunner(game, [fox.bot(bad("v2:slow")), fox.bot("random")], 0.5)
    records = dict(play_many(((runner, seed) for seed in range(4)), 4))
    assert [records[i].forfeits for i in range(4)] == [[]] * 4


def test_an_answers_line_must_answer_each_decision_of_its_game_in_order() -> None:
    with pytest.raises(ProtocolError, match="sent 1 answers to 2 decisions"):
        read_answers(b'{"type": "answers", "answers": [{"id": 0, "index": 0}]}\n', [0, 1])
    with pytest.raises(ProtocolError, match="sent an answer to another game than 1"):
        read_answers(
            b'{"type":"answers","answers":[{"id":0,"index":0},{"id":0,"index":1}]}', [0, 1]
        )
    with pytest.raises(ProtocolError, match="printed a line that is not JSON"):
        read_answers(b"[oops\n", [0])
    game = make_game("fox", {"graph": "path:3"})
    legal = game.new_initial_state().legal_actions()
    assert read_choice(game, legal, {"id": 0, "index": 2}) is legal[2]
    assert read_choice(game, legal, {"id": 0, "action": str(legal[1])}) == legal[1]
    for wrong in (4, -1, True, "1"):
        with pytest.raises(ProtocolError, match="sent an index out of the 4 legal actions"):
            read_choice(game, legal, {"id": 0, "index": wrong})
    with pytest.raises(ProtocolError, match="reported an error: no idea"):
        read_choice(game, legal, {"id": 0, "error": "no idea"})
