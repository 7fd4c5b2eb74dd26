"""A random bot for any Sleuth game, speaking the bot protocol (docs/bot-protocol.md).

Python's standard library only.  Run it from Sleuth:

    sleuth play fox --bots 'cmd:python examples/bots/random_bot.py',random -n 10 --no-db

It reads one JSON message per line on stdin and answers on stdout: ``ready`` to each ``start``,
an ``action`` to each ``act`` (one of the legal actions listed, drawn with the decision's seed,
so that the same game plays the same), nothing to ``end``.  It keeps the view's events as a
real bot would, though it does not read them.  Anything for a person goes to stderr.
"""

import json
import random
import sys

PROTOCOL = 1


def main() -> None:
    events = []
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            events = []
            answer = {"type": "ready", "protocol": PROTOCOL, "name": "random (Python)"}
        elif kind == "act":
            assert message["first"] == len(events), "a message was missed"
            events.extend(message["events"])
            # "legal" lists every legal action, or the first 1000 when "more" is true: any is fine.
            action = random.Random(message["seed"]).choice(message["legal"])
            answer = {"type": "action", "action": action}
        elif kind == "end":
            continue
        else:
            answer = {"type": "error", "message": f"unknown message type {kind!r}"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
