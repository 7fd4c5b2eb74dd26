"""JSONL game logs: writing, validating and replaying.

A log is one JSON object per line:

1. a header ``{"type": "header", "format": "sleuth-log", "version": 1, "game": ..., ...}``;
2. one ``{"type": "step", ...}`` line per applied action, with every event it caused and that
   event's visibility (``to``: the seats that may read its ``private`` part);
3. a ``{"type": "forfeit", ...}`` line where a bot forfeited;
4. one final ``{"type": "end", ...}`` line with the outcome: its text, returns and win shares,
   and the structured ``termination`` and ``winners`` (sides).  Logs written before those two
   fields existed have none and still replay; they are then checked where present.

:func:`replay_log` rebuilds the game from the header and re-applies every action with the rules
engine; the events it produces must equal the logged ones and the end line must match the
final state.  Any difference is a :class:`~sleuth.core.errors.LogError` naming the line.
The format is documented in ``docs/file-formats.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

import sleuth
from sleuth.core.errors import LogError, SleuthError
from sleuth.core.events import JSON
from sleuth.core.game import CHANCE, Game, State
from sleuth.core.match import Forfeit, MatchRecord, final_result
from sleuth.core.outcome import Outcome
from sleuth.core.registry import game_spec

LOG_FORMAT = "sleuth-log"
VIEW_FORMAT = "sleuth-view"
"""The format of one seat's view log (:mod:`sleuth.core.viewlog`)."""
LOG_VERSION = 1


class StrictModel(BaseModel):
    """A JSON line model: no extra fields, no type coercion."""

    model_config = ConfigDict(extra="forbid", strict=True)


class SeatLine(StrictModel):
    seat: int
    role: str
    bot: str


class HeaderLine(StrictModel):
    type: Literal["header"]
    format: Literal["sleuth-log"]
    version: Literal[1]
    game: str
    rules_version: str
    options: dict[str, Any]
    seed: int
    seats: list[SeatLine]
    sleuth: str


class EventLine(StrictModel):
    kind: str
    public: dict[str, Any]
    private: dict[str, Any] | None = None
    to: list[int] = Field(default_factory=list)


class StepLine(StrictModel):
    type: Literal["step"]
    step: int
    seat: int
    action: str
    events: list[EventLine]


class ForfeitLine(StrictModel):
    type: Literal["forfeit"]
    step: int
    seat: int
    bot: str
    reason: str


class EndLine(StrictModel):
    type: Literal["end"]
    outcome: str
    returns: list[float]
    wins: list[float]
    length: int
    termination: str | None = None
    """Absent from logs written before the structured outcome existed."""
    winners: list[str] | None = None


_BODY = TypeAdapter(Annotated[StepLine | ForfeitLine | EndLine, Field(discriminator="type")])


def header_of(record: MatchRecord) -> dict[str, JSON]:
    game = record.game
    return {
        "type": "header",
        "format": LOG_FORMAT,
        "version": LOG_VERSION,
        "game": game.name,
        "rules_version": game_spec(game.name).rules_version,
        "options": game.options(),
        "seed": record.seed,
        "seats": [
            {"seat": s, "role": role, "bot": bot}
            for s, (role, bot) in enumerate(zip(game.roles, record.bots, strict=False))
        ],
        "sleuth": sleuth.__version__,
    }


def log_lines(record: MatchRecord) -> Iterator[dict[str, JSON]]:
    """The JSON objects of the log of ``record``, in order."""
    yield header_of(record)
    forfeits = sorted(record.forfeits, key=lambda f: f.step)
    pending = 0
    for index, step in enumerate(record.steps):
        while pending < len(forfeits) and forfeits[pending].step <= index:
            yield _forfeit_line(forfeits[pending])
            pending += 1
        yield {
            "type": "step",
            "step": index,
            "seat": step.seat,
            "action": str(step.action),
            "events": [e.to_json() for e in step.events],
        }
    for forfeit in forfeits[pending:]:
        yield _forfeit_line(forfeit)
    result = record.result
    assert result is not None, "the match is not over"
    yield {
        "type": "end",
        "outcome": result.text,
        "termination": result.termination,
        "winners": list(result.winners),
        "returns": list(result.returns),
        "wins": list(result.wins),
        "length": record.length,
    }


def _forfeit_line(f: Forfeit) -> dict[str, JSON]:
    return {"type": "forfeit", "step": f.step, "seat": f.seat, "bot": f.bot, "reason": f.reason}


def write_log(record: MatchRecord, path: Path) -> None:
    """Write the full JSONL log of a match to ``path``."""
    with path.open("w", encoding="utf-8") as out:
        for line in log_lines(record):
            out.write(json.dumps(line, separators=(",", ":")) + "\n")


@dataclass
class Replay:
    """The result of replaying a log: the game, its final state and the outcome."""

    game: Game[Any]
    state: State[Any]
    seed: int
    bots: tuple[str, ...]
    result: Outcome
    """The replayed outcome (equal to the logged one)."""
    steps: int
    forfeited: frozenset[int]

    @property
    def outcome(self) -> str:
        return self.result.text

    @property
    def wins(self) -> tuple[float, ...]:
        return self.result.wins


def replay_log(path: Path | str) -> Replay:
    """Validate and replay the log at ``path``; raise ``LogError`` naming the first bad line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LogError(f"{path}: cannot read: {exc}") from exc
    return replay_lines(text.splitlines(), source=str(path))


class JsonLines:
    """The non-blank lines of a JSONL file, numbered from 1, with errors naming the line."""

    def __init__(self, lines: Iterable[str], source: str) -> None:
        self.source = source
        self.numbered = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
        if not self.numbered:
            raise LogError(f"{source}: empty log (expected a header line)")

    def fail(self, line_no: int, message: str) -> LogError:
        return LogError(f"{self.source} line {line_no}: {message}")

    def header(self) -> tuple[int, dict[str, Any]]:
        """The first line's number and JSON object, if it names a Sleuth format (a game log's
        or a view log's); else a LogError saying the file is not a Sleuth log and what its
        first line should look like (a file of another kind is named so, not by the first
        field a header lacks)."""
        line_no, line = self.numbered[0]
        try:
            parsed = json.loads(line)
        except json.JSONDecodeError as exc:
            parsed, found = None, _invalid(exc)
        else:
            is_object = isinstance(parsed, dict)
            found = "a JSON object with no Sleuth format" if is_object else "not a JSON object"
        if isinstance(parsed, dict) and parsed.get("format") in (LOG_FORMAT, VIEW_FORMAT):
            return line_no, parsed
        raise self.fail(
            line_no,
            f"not a Sleuth log: a log's first line is its header, such as "
            f'{{"type": "header", "format": "{LOG_FORMAT}", "game": "fox", ...}} '
            f'("{VIEW_FORMAT}" for a view log); this one is {found}',
        )

    def parse(self, line_no: int, line: str) -> Any:
        try:
            return json.loads(line)
        except json.JSONDecodeError as exc:
            raise self.fail(line_no, _invalid(exc)) from None

    def game(
        self, line_no: int, name: str, options: dict[str, Any], version: str, view: bool = False
    ) -> Game[Any]:
        """The game a header names, checked: known game and options, this rules version (or,
        for a ``view`` log, one of the spec's ``view_rules_versions``), options written in
        canonical form."""
        try:
            spec = game_spec(name)
            game = spec.make(options, canonical=True)
        except SleuthError as exc:
            raise self.fail(line_no, str(exc)) from None
        if version != spec.rules_version and not (view and version in spec.view_rules_versions):
            raise self.fail(
                line_no,
                f"log written for {name} rules version {version}, "
                f"this Sleuth implements version {spec.rules_version}",
            )
        if game.options() != options:
            raise self.fail(
                line_no, f"options are not canonical: {options} (expected {game.options()})"
            )
        return game


def _invalid(error: json.JSONDecodeError) -> str:
    return f"invalid JSON ({error.msg.removesuffix(' at')} at column {error.colno})"


def replay_lines(lines: Iterable[str], source: str = "<log>") -> Replay:
    """Replay the lines of a log (see :func:`replay_log`)."""
    reader = JsonLines(lines, source)
    numbered, fail, parse = reader.numbered, reader.fail, reader.parse

    first_no, parsed = reader.header()
    if parsed.get("format") == VIEW_FORMAT:
        raise fail(
            first_no,
            "this is one seat's view log (as the assistant saves it), not a whole game: "
            "'sleuth infer GAME --log FILE' reads it",
        )
    try:
        header = HeaderLine.model_validate(parsed)
    except ValidationError as exc:
        raise fail(first_no, f"bad header: {first_error(exc)}") from None
    game = reader.game(first_no, header.game, header.options, header.rules_version)
    if [s.seat for s in header.seats] != list(range(game.num_players)) or [
        s.role for s in header.seats
    ] != list(game.roles):
        raise fail(first_no, f"seats must be {list(game.roles)} in seat order")

    state = game.new_initial_state()
    forfeits: list[Forfeit] = []
    steps = 0
    length = 0  # steps played by seats, not by chance
    for line_no, line in numbered[1:]:
        try:
            body = _BODY.validate_python(parse(line_no, line))
        except ValidationError as exc:
            raise fail(line_no, first_error(exc)) from None
        if isinstance(body, EndLine):
            if line_no != numbered[-1][0]:
                raise fail(numbered[-1][0], "lines after the end line")
            if body.length != length:
                raise fail(line_no, f"length {body.length} but {length} actions were replayed")
            return _finish(game, state, header, body, steps, forfeits, fail, line_no)
        if forfeits and not game.continues_after_forfeit:
            raise fail(line_no, "line after a forfeit that ended the game")
        if isinstance(body, ForfeitLine):
            if body.step != steps or body.seat != state.current_player():
                raise fail(
                    line_no,
                    f"forfeit of seat {body.seat} at step {body.step} is out of place "
                    f"(step {steps} is seat {state.current_player()}'s)",
                )
            forfeits.append(Forfeit(body.seat, body.bot, body.step, body.reason))
            continue
        if body.step != steps:
            raise fail(line_no, f"step {body.step} out of order (expected {steps})")
        _replay_step(state, body, {f.seat for f in forfeits}, fail, line_no)
        steps += 1
        length += body.seat != CHANCE
    raise fail(numbered[-1][0], "log ends without an end line (truncated?)")


def _replay_step(
    state: State[Any], body: StepLine, forfeited: set[int], fail: Any, line_no: int
) -> None:
    if state.is_terminal():
        raise fail(line_no, "step after the game is over")
    to_move = state.current_player()
    if body.seat != to_move:
        whose = "chance" if to_move == CHANCE else f"seat {to_move}"
        raise fail(line_no, f"seat {body.seat} acted but it was {whose}'s turn")
    try:
        action = state.game.parse_action(body.action)
        if to_move == CHANCE and not state.is_legal(action):
            raise fail(line_no, f"{body.action!r} is not a possible chance outcome")
        if to_move in forfeited and action != state.fallback_action():
            raise fail(line_no, f"seat {to_move} forfeited: it must play the fallback action")
        events = state.apply(action)
    except SleuthError as exc:
        if isinstance(exc, LogError):
            raise
        raise fail(line_no, f"action {body.action!r}: {exc}") from None
    logged = [e.model_dump(exclude_defaults=True) for e in body.events]
    produced = [_normalise(e.to_json()) for e in events]
    if [_normalise(e) for e in logged] != produced:
        raise fail(
            line_no,
            f"events differ from what the rules produce for {body.action!r}: "
            f"logged {json.dumps(logged)}, replay gives {json.dumps(produced)}",
        )


def _normalise(event: dict[str, JSON]) -> dict[str, JSON]:
    out = dict(event)
    out.setdefault("public", {})
    if not out.get("to"):
        out.pop("to", None)
    if out.get("private") is None:
        out.pop("private", None)
    return out


def _finish(
    game: Game[Any],
    state: State[Any],
    header: HeaderLine,
    end: EndLine,
    steps: int,
    forfeits: list[Forfeit],
    fail: Any,
    line_no: int,
) -> Replay:
    ended_by_forfeit = forfeits and not game.continues_after_forfeit
    if not ended_by_forfeit and not state.is_terminal():
        raise fail(line_no, "end line but the game is not over")
    for forfeit in forfeits:
        if forfeit.bot != header.seats[forfeit.seat].bot:
            raise fail(line_no, f"forfeit names bot {forfeit.bot!r}, not seat {forfeit.seat}'s")
    result = final_result(game, state, forfeits)
    logged = (end.outcome, _rounded(end.returns), _rounded(end.wins))
    if logged != (result.text, _rounded(result.returns), _rounded(result.wins)):
        raise fail(
            line_no,
            f"the end line does not match the replayed game: logged outcome {end.outcome!r}, "
            f"returns {end.returns}, wins {end.wins}; replay gives {result.text!r}, "
            f"returns {list(result.returns)}, wins {list(result.wins)}",
        )
    if end.termination is not None and end.termination != result.termination:
        raise fail(
            line_no,
            f"logged termination {end.termination!r} but the replay ends by {result.termination!r}",
        )
    if end.winners is not None and tuple(end.winners) != result.winners:
        raise fail(
            line_no,
            f"logged winners {end.winners} but the replay's winners are {list(result.winners)}",
        )
    return Replay(
        game=game,
        state=state,
        seed=header.seed,
        bots=tuple(s.bot for s in header.seats),
        result=result,
        steps=steps,
        forfeited=frozenset(f.seat for f in forfeits),
    )


def _rounded(values: Any) -> list[float]:
    return [round(float(v), 9) for v in values]


def first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    if not err["loc"] and err["type"] == "model_type":  # not an object: no internal names
        return "a JSON object is expected"
    where = ".".join(str(p) for p in err["loc"]) or "line"
    return f"{where}: {err['msg']}"
