"""A bot process that misbehaves as its first argument says, for tests/arena/test_external_bots.py.

``python bad_bot.py KIND [MARK]``: it speaks the protocol correctly (first legal action) until
its first decision, where KIND happens: ``crash``, ``hang``, ``garbage``, ``flood``, ``fork``,
``forkhang`` (forks, then hangs), ``memory``, ``illegal``, ``unreadable``, ``slow`` (0.6 s per
move), ``mute`` (answers nothing and keeps reading), ``network`` (prints garbage if it can
connect to the port MARK), ``spy`` (plays well, appends every message it receives to the file
MARK); ``version`` answers the handshake with protocol 99.  MARK (ignored otherwise) lets a
test find the process by its command line.
"""

import json
import os
import socket
import sys
import time

KIND = sys.argv[1]


def say(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def decide(message: dict) -> None:
    if KIND == "crash":
        sys.stderr.write("Traceback (most recent call last):\nValueError: the bot broke\n")
        sys.exit(3)
    if KIND == "hang":
        time.sleep(3600)
    if KIND == "garbage":
        print("thinking about hole 2...", flush=True)
        return
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
        say({"type": "action", "action": str(len(hog))})
        return
    if KIND == "illegal":
        say({"type": "action", "action": "hole 99"})
        return
    if KIND == "unreadable":
        say({"type": "action", "action": "dig everywhere"})
        return
    if KIND == "slow":
        time.sleep(0.6)
    if KIND == "mute":
        return
    if KIND == "network":  # MARK is a port on this machine: reaching it is the misbehaviour
        try:
            socket.create_connection(("127.0.0.1", int(sys.argv[2])), timeout=2).close()
            print("connected", flush=True)
            return
        except OSError:
            pass
    say({"type": "action", "action": message["legal"][0]})


for line in sys.stdin:
    message = json.loads(line)
    if KIND == "spy":
        with open(sys.argv[2], "a") as spied:
            spied.write(line)
    if message["type"] == "start":
        say({"type": "ready", "protocol": 99 if KIND == "version" else 1})
    elif message["type"] == "act":
        decide(message)
