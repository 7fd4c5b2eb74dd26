"""Checks through the match runner: views, logs, seeds and every registered bot.

Matches are played by :func:`~sleuth.core.match.run_match` exactly as tournaments play them,
with uniformly random bots in the seats a check does not put a particular bot in.
"""

from __future__ import annotations

import tempfile
from collections.abc import MutableSequence
from pathlib import Path
from typing import Any

from sleuth.core.bots import Bot, BotSpec
from sleuth.core.events import Event, View, freeze
from sleuth.core.game import CHANCE
from sleuth.core.log import replay_log, write_log
from sleuth.core.match import MatchRecord, run_match
from sleuth.core.rng import derive_seed
from sleuth.testing.case import Case, partner_bots, random_bots, recording_bots
from sleuth.testing.snapshot import difference, snapshot

BOT_TIME_LIMIT = 60.0
"""Seconds per move a registered bot gets in :func:`check_bot`: generous, so that only a bot
that fails (or hangs) forfeits, not one that is slow on a loaded machine."""
REBUILDS = 3
"""Points of a game at which :func:`check_rebuilt_bot` builds every bot afresh."""


def require_whole_game(case: Case, seed: int, record: MatchRecord) -> None:
    """Fail unless ``record`` is a whole game: no forfeit, and a final state that is terminal."""
    if record.forfeits:
        f = record.forfeits[0]
        raise case.fail(seed, f"{f.bot} in seat {f.seat} forfeited: {f.reason}", f.step)
    if record.final_state is None or not record.final_state.is_terminal():
        raise case.fail(seed, "the match ended before the game did")


def check_views(case: Case, seed: int) -> None:
    """Every view a bot is given (each move and the final one) is its seat's view: the
    game's public facts and, for every event of the game so far, the event with its private
    part only where the seat is in its audience."""
    game = case.make()
    bots, made = recording_bots(case.spec, game.num_players)
    record = run_match(game, bots, seed, time_limit=None)
    require_whole_game(case, seed, record)
    events = [e for step in record.steps for e in step.events]
    for bot in made:
        seat = bot.seat
        for view in bot.views:
            if view.seat != seat or view.role != game.roles[seat]:
                raise case.fail(seed, f"seat {seat} got the view of {view.seat} ({view.role})")
            shown = list(view.events)
            for index, (got, event) in enumerate(zip(shown, events, strict=False)):
                problem = _leak(got, event, seat)
                if problem is not None:
                    raise case.fail(seed, f"event {index} ({event.kind}) {problem}")
            if len(shown) > len(events):
                raise case.fail(seed, f"seat {seat} saw {len(shown)} events of {len(events)}")
        final = bot.views[-1] if bot.views else None
        if final is None or len(final.events) != len(events):
            raise case.fail(seed, f"seat {seat}'s final view does not hold every event")


def _leak(got: Event, event: Event, seat: int) -> str | None:
    """What is wrong with ``got``, the copy of ``event`` in ``seat``'s view, if anything."""
    if got.kind != event.kind or got.public != event.public or got.audience != event.audience:
        return f"reached seat {seat} altered: {got.to_json()} for {event.to_json()}"
    if got.private is not None and seat not in event.audience:
        fields = sorted(got.private)
        return f"shows seat {seat} the private {fields} of seats {sorted(event.audience)}"
    if event.private is not None and seat in event.audience and got.private != event.private:
        return f"hides from seat {seat} the private part it may see"
    return None


def check_log_replay(case: Case, seed: int) -> None:
    """The log of a random match replays (:func:`~sleuth.core.log.replay_log` re-applies every
    action and compares every event) to the same outcome, wins, length and final state."""
    game = case.make()
    record = run_match(game, random_bots(case.spec, game.num_players), seed, time_limit=None)
    require_whole_game(case, seed, record)
    with tempfile.TemporaryDirectory(prefix="sleuth-conformance-") as folder:
        path = Path(folder) / "game.jsonl"
        write_log(record, path)
        try:
            replay = replay_log(path)
        except Exception as exc:
            raise case.fail(seed, f"its log does not replay: {exc}") from exc
    if (replay.outcome, replay.wins, replay.steps) != (
        record.outcome,
        record.wins,
        len(record.steps),
    ):
        raise case.fail(
            seed,
            f"the log replays to {replay.outcome!r} {replay.wins} in {replay.steps} steps, "
            f"the match was {record.outcome!r} {record.wins} in {len(record.steps)}",
        )
    assert record.final_state is not None
    changed = difference(snapshot(record.final_state), snapshot(replay.state))
    if changed is not None:
        raise case.fail(seed, f"the replayed final state differs: {changed}")


def check_same_seed(case: Case, seed: int) -> None:
    """Two matches with the same game, bots and seed are the same game: the same actions,
    events, returns, wins and outcome."""
    records = []
    for _ in range(2):
        game = case.make()
        records.append(run_match(game, random_bots(case.spec, game.num_players), seed, None))
    first, second = (_trace(r) for r in records)
    for step, (a, b) in enumerate(zip(first, second, strict=False)):
        if a != b:
            raise case.fail(seed, f"the same seed played {a} then {b}", step)
    if len(first) != len(second) or _result(records[0]) != _result(records[1]):
        raise case.fail(
            seed, f"the same seed ended {_result(records[0])} then {_result(records[1])}"
        )


def _trace(record: MatchRecord) -> list[tuple[int, str, list[dict[str, Any]]]]:
    return [(s.seat, str(s.action), [e.to_json() for e in s.events]) for s in record.steps]


def _result(record: MatchRecord) -> tuple[Any, ...]:
    return record.returns, record.wins, record.outcome, len(record.steps)


def check_bot(
    case: Case, bot: str | BotSpec, seed: int, time_limit: float | None = BOT_TIME_LIMIT
) -> None:
    """The bot ``bot`` (a registered name, options allowed: ``ismcts:iterations=50``) plays a
    whole game without forfeiting in every seat whose role it can play, against
    :func:`~sleuth.testing.case.partner_bots`, with ``time_limit`` seconds per move."""
    _whole_games_seated(case, bot, seed, time_limit)


def _whole_games_seated(
    case: Case, bot: str | BotSpec, seed: int, time_limit: float | None
) -> list[tuple[list[BotSpec], MatchRecord]]:
    """For every seat whose role ``bot`` can play: the seats' bots (``bot`` there,
    :func:`~sleuth.testing.case.partner_bots` elsewhere) and their match, checked whole."""
    spec = case.spec.bot(bot) if isinstance(bot, str) else bot
    game = case.make()
    seats = [s for s, role in enumerate(game.roles) if role in spec.roles]
    if not seats:
        raise case.fail(seed, f"bot {spec.name} plays none of the roles {game.roles}")
    played = []
    for seat in seats:
        bots = partner_bots(case, game)
        bots[seat] = spec
        record = run_match(case.make(), bots, seed, time_limit)
        require_whole_game(case, seed, record)
        played.append((bots, record))
    return played


def check_rebuilt_bot(
    case: Case,
    bot: str | BotSpec,
    seed: int,
    rebuilds: int = REBUILDS,
    time_limit: float | None = BOT_TIME_LIMIT,
) -> None:
    """A bot built afresh partway through a game continues it as the bot that never stopped
    (:meth:`~sleuth.core.bots.Bot.ask`).  In every seat whose role ``bot`` can play, against
    :func:`~sleuth.testing.case.partner_bots`, a match is played; then its game is played
    again with every seat's bot rebuilt (same seat, same seed) at ``rebuilds`` points spread
    over the seats' decisions (before every decision when the game has fewer), chance
    replaying the match's outcomes: every decision from the first rebuild on must be the
    match's."""
    for bots, record in _whole_games_seated(case, bot, seed, time_limit):
        _replay_rebuilding(case, bots, seed, record, rebuilds)


def _replay_rebuilding(
    case: Case, bots: list[BotSpec], seed: int, record: MatchRecord, rebuilds: int
) -> None:
    """Play ``record``'s game again, rebuilding every bot at ``rebuilds`` decisions; fail at
    the first decision that differs from the record's."""
    game = case.make()
    decisions = [i for i, step in enumerate(record.steps) if step.seat != CHANCE]
    if not decisions:
        return
    points = {decisions[len(decisions) * (k + 1) // (rebuilds + 1)] for k in range(rebuilds)}

    def build() -> list[Bot]:
        return [b.make(game, s, derive_seed(seed, "bot", s)) for s, b in enumerate(bots)]

    players: list[Bot] = []
    state = game.new_initial_state()
    info = freeze(game.public_info())
    views = [View(s, role, info, []) for s, role in enumerate(game.roles)]
    rebuilt = None
    for index, step in enumerate(record.steps):
        if index in points:
            players, rebuilt = build(), index
        if step.seat != CHANCE and players:
            legal = state.legal_actions()
            asked = tuple(legal) if isinstance(legal, MutableSequence) else legal
            action = players[step.seat].ask(views[step.seat], asked)
            if action != step.action:
                raise case.fail(
                    seed,
                    f"{bots[step.seat].name} in seat {step.seat}, rebuilt at step {rebuilt}, "
                    f"played {action} where the bot that never stopped played {step.action}",
                    index,
                )
        events = state.apply(step.action)
        for s, view in enumerate(views):
            seen = view.events
            assert isinstance(seen, list)
            seen.extend(e if e.private is None else e.seen_by(s) for e in events)
