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
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence
from itertools import islice
from typing import Any

from sleuth.core.errors import ActionParseError, SleuthError
from sleuth.core.events import JSON, Event, View, thaw
from sleuth.core.game import Game

CMD_PREFIX = "cmd:"
"""A bot name that starts so names a command to run (``cmd:python my_bot.py``)."""
PROTOCOL_VERSION = 1
"""The version Sleuth speaks; a bot's ``ready`` must name the same."""
MAX_LISTED = 1000
"""The most legal actions an ``act`` lists (a Fugitive hand can have billions: the first ones
in the game's order are listed, and ``more`` says there are others)."""


class ProtocolError(SleuthError):
    """A bot process that broke the protocol, crashed, overran a limit or misbehaved: the
    message names the cause (its seat forfeits with it)."""


def encode(message: dict[str, JSON]) -> bytes:
    """One message as a line of compact JSON."""
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def start_message(game: Game[Any], rules_version: str, seat: int, seed: int) -> bytes:
    """The handshake of a game: what a view log's header holds, the public facts, a seed."""
    return encode(
        {
            "type": "start",
            "protocol": PROTOCOL_VERSION,
            "game": game.name,
            "rules_version": rules_version,
            "options": game.options(),
            "seat": seat,
            "role": game.roles[seat],
            "info": thaw(game.public_info()),
            "seed": seed,
        }
    )


def events_json(events: Sequence[Event], seat: int) -> list[JSON]:
    """View log event lines (without their ``type``) of ``events`` as ``seat`` sees them."""
    return [event.seen_by(seat).to_json() for event in events]


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


def check_ready(message: dict[str, JSON]) -> None:
    """A ``ready`` message speaking :data:`PROTOCOL_VERSION`, else a :class:`ProtocolError`."""
    version = message.get("protocol")
    if version != PROTOCOL_VERSION:
        raise ProtocolError(
            f"speaks protocol version {version!r}; Sleuth speaks {PROTOCOL_VERSION}"
        )


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
