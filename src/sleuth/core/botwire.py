"""The bot protocol's messages: JSON lines between Sleuth and a bot in another process.

Sleuth writes one JSON object per line to the bot's stdin and reads one per line from its
stdout (``docs/bot-protocol.md`` is the reference, with a full exchange):

1. ``start`` (a game begins): the protocol version, the game, its rules version and options,
   the seat and its role, the game's public facts and a seed for the bot's own randomness; the
   bot answers ``ready`` with the version it speaks;
2. ``act`` (the seat's turn): the events of the seat's view it has not been sent yet (view log
   event lines: its own view only, private parts of other seats removed), the index of the
   first of them, the legal actions as text in the game's order (the first
   :data:`MAX_LISTED` when there are more, with ``more`` true) and the decision's seed; the
   bot answers ``action`` with the text of its action, read by the game's own parser;
3. ``end`` (the game is over): the last events; no answer.  The bot then reads the next
   ``start`` (the process is reused for the next game) or the end of its input (it exits).

A bot may answer ``error`` with a message instead; anything else is a :class:`ProtocolError`
naming what was sent and what was expected.  Invariant: a message sent to the bot holds only
what :class:`~sleuth.core.events.View` of its seat holds.

Version 2 (offered in every ``start``'s ``versions``; a bot that answers ``ready`` with
``protocol`` 2 speaks it from its next line on): one process plays one seat of many games at
once.  Sleuth writes a ``batch`` of items, each naming its game by ``id``: the ``start``,
``act`` and ``end`` messages of version 1 (an ``act`` with ``count``, the number of legal
actions, and only as many of their texts as the bot's ``ready`` asked for in ``listed``); the
bot answers every batch with one ``answers`` line, one answer per ``act`` in order, each an
``index`` among the legal actions, an ``action`` text or an ``error`` for that game alone.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from itertools import islice
from types import MappingProxyType
from typing import Any

from sleuth.core.errors import ActionParseError, SleuthError
from sleuth.core.events import JSON, Event, View, thaw
from sleuth.core.game import Game

CMD_PREFIX = "cmd:"
"""A bot name that starts so names a command to run (``cmd:python my_bot.py``)."""
VERSIONS = (1, 2)
"""The versions Sleuth speaks: a ``start`` offers them, a bot's ``ready`` names one."""
MAX_LISTED = 1000
"""The most legal actions an ``act`` lists (a Fugitive hand can have billions: the first ones
in the game's order are listed, and ``more`` says there are others)."""


class ProtocolError(SleuthError):
    """A bot process that broke the protocol, crashed, overran a limit or misbehaved: the
    message names the cause (its seat forfeits with it)."""


def encode(message: dict[str, JSON]) -> bytes:
    """One message as a line of compact JSON; read-only mappings (an event's fields) are
    written as objects, tuples as arrays."""
    return (json.dumps(message, separators=(",", ":"), default=_plain) + "\n").encode()


def _plain(value: object) -> JSON:
    """A read-only mapping as the dict JSON writes (the encoder's hook for other types)."""
    if type(value) is MappingProxyType or isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def start_item(
    game: Game[Any], rules_version: str, seat: int, seed: int, game_id: int
) -> dict[str, JSON]:
    """The start of game ``game_id``: what a view log's header holds, the public facts, a
    seed (a version 2 ``batch`` item as it is)."""
    return {
        "type": "start",
        "id": game_id,
        "game": game.name,
        "rules_version": rules_version,
        "options": game.options(),
        "seat": seat,
        "role": game.roles[seat],
        "info": thaw(game.public_info()),
        "seed": seed,
    }


def start_message(
    game: Game[Any], rules_version: str, seat: int, seed: int, game_id: int = 0
) -> bytes:
    """The version 1 handshake of a game, which offers :data:`VERSIONS` (``protocol`` 1 for
    the bots written before ``versions`` was)."""
    item = start_item(game, rules_version, seat, seed, game_id)
    return encode({"type": "start", "protocol": 1, "versions": list(VERSIONS), **item})


def events_json(events: Sequence[Event], seat: int) -> list[JSON]:
    """View log event lines (without their ``type``) of ``events`` as ``seat`` sees them, for
    :func:`encode` (their fields as the events hold them: :meth:`Event.to_json` once written)."""
    lines: list[JSON] = []
    for event in events:  # a field's copy: the encoder's hook only for nested mappings
        line: dict[str, JSON] = {"kind": event.kind, "public": dict(event.public)}
        if event.private is not None and seat in event.audience:
            line["private"] = dict(event.private)
        if event.audience:
            line["to"] = sorted(event.audience)
        lines.append(line)
    return lines


def act_message(view: View, sent: int, legal: Sequence[Hashable], seed: int) -> bytes:
    """A decision: the view's events from index ``sent`` on, the legal actions as text (the
    first :data:`MAX_LISTED`, read lazily, and whether there are ``more``) and the decision's
    seed."""
    listed = [str(action) for action in islice(legal, MAX_LISTED + 1)]
    return encode(
        {
            "type": "act",
            "first": sent,
            "events": events_json(view.events[sent:], view.seat),
            "legal": listed[:MAX_LISTED],
            "more": len(listed) > MAX_LISTED,
            "seed": seed,
        }
    )


def act_item(
    game_id: int, view: View, sent: int, legal: Sequence[Hashable], seed: int, listed: int
) -> dict[str, JSON]:
    """A version 2 decision of game ``game_id``: as :func:`act_message`, with ``count`` (the
    number of legal actions) and the texts of the first ``listed`` of them only."""
    count = len(legal)
    return {
        "type": "act",
        "id": game_id,
        "first": sent,
        "events": events_json(view.events[sent:], view.seat),
        "count": count,
        "legal": [str(action) for action in islice(legal, listed)],
        "more": count > listed,
        "seed": seed,
    }


def end_item(game_id: int, view: View | None, sent: int) -> dict[str, JSON]:
    """The end of game ``game_id`` (version 2): the view's last events from index ``sent``;
    none when the seat left the game before its end (``view`` None: it forfeited)."""
    events = [] if view is None else events_json(view.events[sent:], view.seat)
    return {"type": "end", "id": game_id, "first": sent, "events": events}


def batch_message(items: list[JSON]) -> bytes:
    """A version 2 line: every item Sleuth has for one process, in order."""
    return encode({"type": "batch", "items": items})


def read_answers(line: bytes, ids: Sequence[int]) -> list[dict[str, JSON]]:
    """The answers of an ``answers`` line to the acts of games ``ids`` (in order): one object
    naming each game; anything else is a :class:`ProtocolError` naming it."""
    answers = read_reply(line, "answers").get("answers")
    if not isinstance(answers, list) or len(answers) != len(ids):
        count = len(answers) if isinstance(answers, list) else "no list of"
        raise ProtocolError(f"sent {count} answers to {len(ids)} decisions")
    for answer, game_id in zip(answers, ids, strict=True):
        if not isinstance(answer, dict) or answer.get("id") != game_id:
            raise ProtocolError(f"sent an answer to another game than {game_id}: {answer!r:.200}")
    return answers


def read_choice(game: Game[Any], legal: Sequence[Hashable], answer: dict[str, JSON]) -> Hashable:
    """The action of one version 2 answer: the legal action at its ``index``, or its
    ``action`` text read by the game's parser; its ``error``, an index out of range or no
    choice is a :class:`ProtocolError` (legality is the match runner's to judge)."""
    if "error" in answer:
        raise ProtocolError(f"reported an error: {str(answer['error'])[:200]}")
    index = answer.get("index")
    if index is None:
        return read_action(game, answer)
    if type(index) is not int or not 0 <= index < len(legal):
        raise ProtocolError(f"sent an index out of the {len(legal)} legal actions: {index!r:.50}")
    return legal[index]


def end_message(view: View, sent: int) -> bytes:
    """The game is over: the view's last events (from index ``sent``)."""
    events = events_json(view.events[sent:], view.seat)
    return encode({"type": "end", "first": sent, "events": events})


def read_reply(line: bytes, expected: str) -> dict[str, JSON]:
    """The bot's message of type ``expected`` in ``line``; an ``error`` message, a line that is
    not a JSON object or a message of another type is a :class:`ProtocolError` naming it."""
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(f"printed a line that is not JSON: {_shown(line)}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"printed JSON that is not an object: {_shown(line)}")
    kind = message.get("type")
    if kind == "error":
        raise ProtocolError(f"reported an error: {str(message.get('message', ''))[:200]}")
    if kind != expected:
        raise ProtocolError(f"sent a message of type {kind!r} where {expected!r} was expected")
    return message


def ready_version(message: dict[str, JSON]) -> int:
    """The version a ``ready`` message speaks (one of :data:`VERSIONS`), else a
    :class:`ProtocolError`."""
    version = message.get("protocol")
    if version not in VERSIONS or type(version) is not int:
        raise ProtocolError(f"speaks protocol version {version!r}; Sleuth speaks 1 and 2")
    return version


def listed_wanted(message: dict[str, JSON]) -> int:
    """How many legal actions' texts a version 2 bot's ``ready`` asks each ``act`` to list
    (``listed``: 0 to :data:`MAX_LISTED`, that by default), else a :class:`ProtocolError`."""
    listed = message.get("listed", MAX_LISTED)
    if type(listed) is not int or not 0 <= listed <= MAX_LISTED:
        raise ProtocolError(f"asked for {listed!r:.50} listed actions (0 to {MAX_LISTED})")
    return listed


def read_action(game: Game[Any], message: dict[str, JSON]) -> Hashable:
    """The action of an ``action`` message, read by the game's parser; a missing or unreadable
    text is a :class:`ProtocolError` quoting it (legality is the match runner's to judge)."""
    text = message.get("action")
    if not isinstance(text, str):
        raise ProtocolError(f"sent an action that is not a string: {text!r:.200}")
    try:
        action: Hashable = game.parse_action(text)
    except (ActionParseError, ValueError) as exc:
        raise ProtocolError(f"sent an action the game cannot read: {text!r:.200} ({exc})") from None
    return action


def _shown(line: bytes) -> str:
    """A line as an error quotes it: at most 80 characters."""
    text = line.decode("utf-8", "replace").rstrip("\n")
    return repr(text) if len(text) <= 80 else repr(text[:80]) + f" ... ({len(line)} bytes)"
