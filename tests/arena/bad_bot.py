"""A bot process that misbehaves as its first argument says, for tests/arena/test_external_bots.py.

``python bad_bot.py KIND [MARK]``: it speaks the protocol correctly (first legal action) until
its first decision, where KIND happens: ``crash``, ``hang``, ``garbage``, ``flood``, ``fork``,
``forkhang`` (forks, then hangs), ``memory``, ``illegal``, ``unreadable``, ``slow`` (0.6 s per
move), ``mute`` (answers nothing and keeps reading), ``network`` (prints garbage if it can
connect to the port MARK), ``spy`` (plays well, appends every message it receives to the file
MARK); ``version`` answers the handshake with protocol 99.  MARK (ignored otherwise) lets a
test find the process by its command line.  ``v2:KIND`` speaks protocol version 2 (``slow``
then sleeps 0.3 s per decision of a batch; the others misbehave at the batch of its first
decision, ``illegal`` and ``unreadable`` in every answer).
"""

import json
import os
import socket
import sys
import time

SPEAKS_V2 = sys.argv[1].startswith("v2:")
KIND = sys.argv[1].removeprefix("v2:")


def say(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def decide(message: dict) -> str | None:
    """The action text of one decision, after KIND's misbehaviour (None: no answer)."""
    if KIND == "crash":
        sys.stderr.write("Traceback (most recent call last):\nValueError: the bot broke\n")
        sys.exit(3)
    if KIND == "hang":
        time.sleep(3600)
    if KIND == "garbage":
        print("thinking about hole 2...", flush=True)
        return None
    if KIND == "flood":
        sys.stdout.write("x" * (3 << 20))
        sys.stdout.flush()
        time.sleep(3600)
    if KIND in ("fork", "forkhang") and os.fork() == 0:
        time.sleep(3600)
    if KIND == "forkhang":
        time.sleep(3600)
    if KIND == "memory":
        hog = bytearray(4 << 30)
        return str(len(hog))
    if KIND == "illegal":
        return "hole 99"
    if KIND == "unreadable":
        return "dig everywhere"
    if KIND == "slow":
        time.sleep(0.3 if SPEAKS_V2 else 0.6)
    if KIND == "mute":
        return None
    if KIND == "network":  # MARK is a port on this machine: reaching it is the misbehaviour
        try:
            socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=2).close()
            print("connected", flush=True)
            return None
        except OSError:
            pass
    return message["legal"][0]


def batch(message: dict) -> None:
    """Version 2: one answer per decision of the batch, unless a decision gave none."""
    answers = []
    for item in message["items"]:
        if item["type"] == "act":
            action = decide(item)
            if action is None:
                return
            answers.append({"id": item["id"], "action": action})
    say({"type": "answers", "answers": answers})


for line in sys.stdin:
    message = json.loads(line)
    if KIND == "spy":
        with open(sys.argv[2], "a") as spied:
            spied.write(line)
    if message["type"] == "start":
        say({"type": "ready", "protocol": 99 if KIND == "version" else 2 if SPEAKS_V2 else 1})
    elif message["type"] == "batch":
        batch(message)
    elif message["type"] == "act":
        action = decide(message)
        if action is not None:
            say({"type": "action", "action": action})
