"""A random bot for any Sleuth game, speaking the bot protocol (docs/bot-protocol.md).

Python's standard library only.  Run it from Sleuth:

    sleuth play fox --bots 'cmd:python examples/bots/random_bot.py',random -n 10 --no-db

It speaks version 2 when Sleuth offers it (one process plays many games at once: each
``batch`` line it reads holds starts, decisions and ends of several games, each naming its
game by ``id``, and it answers each batch with one ``answers`` line), or version 1 with
``--protocol 1`` (one game at a time: ``ready`` to each ``start``, an ``action`` to each
``act``, nothing to ``end``).  Each decision is drawn with the decision's seed, so that the
same game plays the same whichever games it shares the process with.  It keeps each game's
events apart, as a real bot would, though it does not read them.  Anything for a person goes
to stderr.
"""

import itertools
import json
import random
import sys

PROTOCOL = 1 if sys.argv[1:] == ["--protocol", "1"] else 2


def say(answer: dict) -> None:
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()


def version_1(message: dict, events: list) -> dict | None:
    """The answer to one version 1 message (``events``: the game's view so far)."""
    kind = message["type"]
    if kind == "start":
        events.clear()
        return {"type": "ready", "protocol": 1, "name": "random (Python)"}
    if kind == "act":
        assert message["first"] == len(events), "a message was missed"
        events.extend(message["events"])
        # "legal" lists every legal action, or the first 1000 when "more" is true: any is fine.
        action = random.Random(message["seed"]).choice(message["legal"])
        return {"type": "action", "action": action}
    if kind == "end":
        return None
    return {"type": "error", "message": f"unknown message type {kind!r}"}


def version_2(batch: dict, games: dict) -> dict:
    """The answers to one version 2 batch (``games``: each game's view so far, by id)."""
    answers = []
    for item in batch["items"]:
        kind, game = item["type"], item["id"]
        if kind == "start":
            games[game] = []
        elif kind == "act":
            assert item["first"] == len(games[game]), "a message was missed"
            games[game].extend(item["events"])
            # No texts asked for ("listed": 0): an index among the "count" legal actions.
            choice = random.Random(item["seed"]).randrange(item["count"])
            answers.append({"id": game, "index": choice})
        elif kind == "end":
            del games[game]
    return {"type": "answers", "answers": answers}


def main() -> None:
    lines = iter(sys.stdin)
    first = json.loads(next(lines))  # a start, which offers the versions Sleuth speaks
    if PROTOCOL == 2 and 2 in first.get("versions", []):
        say({"type": "ready", "protocol": 2, "listed": 0, "name": "random (Python)"})
        games = {first["id"]: []}
        for line in lines:
            say(version_2(json.loads(line), games))
        return
    events: list = []
    for message in itertools.chain([first], map(json.loads, lines)):
        answer = version_1(message, events)
        if answer is not None:
            say(answer)


if __name__ == "__main__":
    main()
