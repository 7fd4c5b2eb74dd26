"""Load test: many browser sessions playing and assisting at once against ``sleuth serve``.

The server is the real command (``sleuth serve --workers N``: N uvicorn processes on one
store) on a free loopback port with a fresh store, once for each N of ``--workers`` (a comma
list); the sessions are httpx async clients in this process, each with its own cookie (its own
browser session).  Each session loops until the time is up (every other
session starting with a notepad): it plays a game against the default bots (``POST
/api/play``, then uniformly random listed actions until the game ends or ``ACTIONS`` were
played, reloading the page and its answer once, and looking again while the bots move),
then keeps a notepad of one of the assistants (``POST /api/assist``, then ``--entries``
entries of a recorded game, taking back the last one after every ``UNDO_EVERY`` and entering
it again, reloading the notepad once).
Between two requests a session waits a random think time (uniform on 0 to twice ``--think``
seconds): a person at a table types an entry every few seconds, and a page sends one request
per click.

The entries are those that a seat's view of a seeded game between the random bots gives
(each game's own ``entry_texts``), and random inspections for the fox puzzle; so every
request is valid and any 4xx or 5xx answer (or a failed connection) counts as an error.

The baseline is one session alone first, against the same server, with no think time: it
plays each game once and keeps each assistant's notepad once; "vs alone" divides the p95
under load by the p95 alone.

The targets (issue 39): at a 1 s think time, the p95 of every kind of request under
:data:`TARGET_MS` with no errors; with no think time (``--think 0``), the throughput grows
with the workers and no request takes more than :data:`LONGEST_S`.  Each run prints a
verdict line per target, and the requests per second and longest request of each worker count.

Besides the latencies it prints what the server spends: its CPU time (every process of
``sleuth serve``: the workers, and the bots moving in their background threads, from
``/proc``) per request answered under load, and per request of each kind in the lone session
(the CPU the server used while that request was in flight: the requests are one at a time
there, but a bot moving in the background meanwhile is counted too; what the bots used between
requests is shown apart).  And the machine's load average before and after each run: other
work on the machine shares its CPUs with the server, so a reader can judge the times.
Bounded in count and time: at most ``--users`` sessions, ``--seconds`` of load, a timeout on
every request, and the server stopped at the end.

    .venv/bin/python bench/web_load.py [--quick] [--users 50] [--seconds 60] [--think 1.0]
        [--workers 1,2]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from pathlib import Path
from typing import Any

import httpx2 as httpx

from _report import print_table
from sleuth.core.events import Event
from sleuth.core.game import Game
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec
from sleuth.games.camel_up.assistant import entry_texts as camel_up_entries
from sleuth.games.cluedo.assistant import NotepadSession
from sleuth.games.cluedo.assistant import entry_texts as cluedo_entries
from sleuth.games.cluedo.rules import CluedoGame
from sleuth.games.fugitive.assistant.table import entry_texts as fugitive_entries
from sleuth.games.scotland_yard.assistant import entry_texts as scotland_yard_entries

PLAYED = ("fox", "fugitive", "camel-up", "scotland-yard", "cluedo")
"""The games played against the bots (the human's first role, the default bots)."""
ACTIONS = 30
WAIT_FOR_BOTS = 0.05
"""Seconds a session waits before it looks again at a game whose bots are still moving (they
move in the background: an answer never waits for them)."""
"""A game against the bots stops after this many human actions (or at its end)."""
ENTRIES = 40
"""A notepad stops after this many entries (or at the end of its game)."""
UNDO_EVERY = 10
KEEPALIVE = 2.0
"""Seconds an idle connection is kept: below the server's 5 s, so that the client never sends
on a connection the server is closing (a browser retries then; httpx does not)."""
TIMEOUT = 60.0
"""Seconds a request may take before it counts as an error."""
UPDATES = ("assist: entry", "assist: undo")
"""The assistant updates (kinds starting so), whose p95 has a target."""
TARGET_MS = 200.0
"""The p95 of every kind of request at a 1 s think time must be under this (milliseconds)."""
LONGEST_S = 2.0
"""With no think time, no request may take longer than this (seconds)."""


@dataclass
class Tally:
    """Latencies (seconds) by kind of request, and the errors seen."""

    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    cpu: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    """The server's CPU seconds while each request was in flight, by kind (lone session only:
    under load the requests overlap)."""


TICK = os.sysconf("SC_CLK_TCK")


def server_cpu(pid: int) -> float:
    """CPU seconds (user and system) used so far by the process ``pid`` and every process
    under it (``sleuth serve --workers N`` runs its workers as child processes), from
    ``/proc``: their threads, ended ones included.  Linux only."""
    parents: dict[int, int] = {}
    used: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
        except OSError:  # ended meanwhile
            continue
        parents[int(entry.name)] = int(fields[1])
        used[int(entry.name)] = (int(fields[11]) + int(fields[12])) / TICK
    tree, found = {pid}, True
    while found:
        below = {child for child, parent in parents.items() if parent in tree} - tree
        found = bool(below)
        tree |= below
    return sum(used.get(process, 0.0) for process in tree)


def random_events(name: str, seed: int) -> tuple[Game[Any], list[Event]]:
    """A seeded game of ``name`` (default options) between its random bots, and its events."""
    spec = game_spec(name)
    game = spec.make({})
    record = run_match(game, [spec.bot("random")] * game.num_players, seed)
    return game, [event for step in record.steps for event in step.events]


def scripts(seed: int, count: int) -> dict[str, list[str]]:
    """Each assistant's first ``count`` entries: a seat's view of a recorded random game (the
    detectives in Scotland Yard, the Marshal in Fugitive, seat 0 in Camel Up and Cluedo)."""
    _, events = random_events("scotland-yard", seed)
    scotland_yard = scotland_yard_entries([e.seen_by(1) for e in events])
    _, events = random_events("fugitive", seed)
    fugitive = fugitive_entries([e.seen_by(1) for e in events if e.kind != "route"])
    _, events = random_events("camel-up", seed)
    camel_up = camel_up_entries([e.seen_by(0) for e in events])
    game, events = random_events("cluedo", seed)
    assert isinstance(game, CluedoGame)
    session = NotepadSession(game)
    cluedo = []
    for _, text in cluedo_entries(game, 0, [e.seen_by(0) for e in events], session):
        session.enter(text)
        cluedo.append(text)
    rng = random.Random(seed)
    return {
        "fox": [str(rng.randrange(5)) for _ in range(count)],  # the puzzle on path:5
        "fugitive": fugitive[:count],
        "scotland-yard": scotland_yard[:count],
        "camel-up": camel_up[:count],
        "cluedo": cluedo[:count],
    }


class User:
    """One browser session: its own client (cookie), its own random choices."""

    def __init__(
        self,
        url: str,
        seed: int,
        think: float,
        until: float,
        tally: Tally,
        entries: dict[str, list[str]],
        cpu: Callable[[], float] | None = None,
    ):
        limits = httpx.Limits(keepalive_expiry=KEEPALIVE)
        self.client = httpx.AsyncClient(base_url=url, timeout=TIMEOUT, limits=limits)
        self.rng = random.Random(seed)
        self.think = think
        self.until = until
        """The end of the load (a ``time.monotonic`` instant): no request starts after it."""
        self.tally = tally
        self.entries = entries
        self.cpu = cpu
        """The server's CPU seconds so far, to charge each request with (one session alone)."""

    def late(self) -> bool:
        return time.monotonic() >= self.until

    async def call(self, kind: str, method: str, url: str, body: object = None) -> Any:
        """One request, timed; the answer's JSON (None for a page or an error)."""
        if self.think:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
        used = self.cpu() if self.cpu is not None else 0.0
        start = time.perf_counter()
        try:
            response = await self.client.request(method, url, json=body)
        except httpx.HTTPError as exc:
            self.tally.errors[kind].append(f"{type(exc).__name__}: {exc}")
            return None
        self.tally.times[kind].append(time.perf_counter() - start)
        if self.cpu is not None:
            self.tally.cpu[kind].append(self.cpu() - used)
        if response.status_code >= 400:
            self.tally.errors[kind].append(f"{response.status_code} {url}: {response.text[:200]}")
            return None
        is_json = response.headers.get("content-type", "").startswith("application/json")
        return response.json() if is_json else None

    async def play(self, game: str) -> None:
        answer = await self.call(
            "play: new", "POST", "/api/play", {"game": game, "seed": self.rng.randrange(10**6)}
        )
        for count in range(ACTIONS):
            if answer is None or answer["over"] or self.late():
                return
            if count == ACTIONS // 2:
                await self.call("page", "GET", f"/play/{answer['id']}")
                answer = await self.call("play: get", "GET", f"/api/play/{answer['id']}")
                continue
            if not answer["your_turn"]:  # the bots move in the background: look again
                await asyncio.sleep(WAIT_FOR_BOTS)
                answer = await self.call("play: get", "GET", f"/api/play/{answer['id']}")
                continue
            action = self.rng.choice(answer["legal"])
            answer = await self.call(
                "play: action", "POST", f"/api/play/{answer['id']}/action", {"action": action}
            )

    async def assist(self, game: str) -> None:
        answer = await self.call("assist: new", "POST", "/api/assist", {"game": game})
        for count, text in enumerate(self.entries[game], start=1):
            if answer is None or answer["finished"] or self.late():
                return
            notepad = answer["id"]
            answer = await self.call(
                f"assist: entry {game}", "POST", f"/api/assist/{notepad}/entries", {"text": text}
            )
            if answer is not None and count % UNDO_EVERY == 0:
                await self.call(f"assist: undo {game}", "POST", f"/api/assist/{notepad}/undo")
                answer = await self.call(
                    f"assist: entry {game}",
                    "POST",
                    f"/api/assist/{notepad}/entries",
                    {"text": text},
                )
            if count == len(self.entries[game]) // 2:
                await self.call("page", "GET", f"/assist/{notepad}")
                answer = await self.call("assist: get", "GET", f"/api/assist/{notepad}")

    async def tour(self) -> None:
        """Play each game once and keep each assistant's notepad once, in turn."""
        async with self.client:
            for game in PLAYED:
                await self.play(game)
            for game in sorted(self.entries):
                await self.assist(game)

    async def run(self, assist_first: bool) -> None:
        """Play and assist in turn until the time is up."""
        async with self.client:
            await self.call("page", "GET", "/")
            if assist_first:
                await self.assist(self.rng.choice(sorted(self.entries)))
            while not self.late():
                await self.play(self.rng.choice(PLAYED))
                if not self.late():
                    await self.assist(self.rng.choice(sorted(self.entries)))


async def alone(url: str, entries: dict[str, list[str]], cpu: Callable[[], float]) -> Tally:
    """One session's tour with no think time, each request charged with the server's CPU
    time while it was in flight (``cpu``: the server's CPU seconds so far)."""
    tally = Tally()
    await User(url, 0, 0.0, float("inf"), tally, entries, cpu).tour()
    return tally


async def load(
    url: str, users: int, seconds: float, think: float, entries: dict[str, list[str]]
) -> Tally:
    tally = Tally()
    until = time.monotonic() + seconds
    sessions = [User(url, seed, think, until, tally, entries) for seed in range(users)]
    await asyncio.gather(*(s.run(assist_first=n % 2 == 1) for n, s in enumerate(sessions)))
    return tally


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(store: Path, workers: int) -> tuple[subprocess.Popen[bytes], str]:
    """``sleuth serve --workers N`` on a free loopback port, once it answers."""
    port = free_port()
    sleuth = Path(sys.executable).with_name("sleuth")
    command = [str(sleuth), "serve", "--port", str(port), "--store", str(store)]
    command += ["--workers", str(workers)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(
                f"sleuth serve exited: {server.stderr.read().decode() if server.stderr else ''}"
            )
        try:
            if httpx.get(url, timeout=2).status_code == 200:
                return server, url
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("sleuth serve did not answer within 60 s")


def percentile(values: Sequence[float], q: int) -> float:
    """The ``q``-th percentile (1 to 99) of ``values``, linearly interpolated."""
    if len(values) < 2:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def worker_counts(text: str) -> list[int]:
    """The worker counts of ``--workers`` (``1,2``); an error naming the bad one."""
    counts = []
    for part in text.split(","):
        if not part.strip().isdigit() or int(part) < 1:
            raise SystemExit(f"--workers: {part.strip()!r} is not a whole number of at least 1")
        counts.append(int(part))
    return counts


@dataclass
class Run:
    """One worker count's measurements: the lone session and the load, the server's CPU
    seconds during each, and the machine's load average (1 minute) before and after."""

    workers: int
    lone: Tally
    loaded: Tally
    lone_cpu: float
    load_cpu: float
    busy_before: float
    busy_after: float


def measure(args: argparse.Namespace, workers: int, entries: dict[str, list[str]]) -> Run:
    """The lone session, then the load, against a fresh ``sleuth serve --workers N``."""
    busy_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder) / "web.sqlite3", workers)
        try:
            used = server_cpu(server.pid)
            lone = asyncio.run(alone(url, entries, lambda: server_cpu(server.pid)))
            lone_cpu = server_cpu(server.pid) - used
            used += lone_cpu
            loaded = asyncio.run(load(url, args.users, args.seconds, args.think, entries))
            load_cpu = server_cpu(server.pid) - used
        finally:
            server.terminate()
            server.wait(timeout=30)
    return Run(workers, lone, loaded, lone_cpu, load_cpu, busy_before, os.getloadavg()[0])


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


def report(args: argparse.Namespace, run: Run) -> tuple[float, float]:
    """Print the table, the server's CPU per request and the verdicts of one worker count;
    its requests per second and its longest request (seconds)."""
    lone, loaded = run.lone, run.loaded
    print(
        f"\n{args.users} sessions for {args.seconds:.0f} s (think time {args.think} s mean) "
        f"against sleuth serve --workers {run.workers} on loopback; load average "
        f"{run.busy_before:.1f} before, {run.busy_after:.1f} after"
    )
    rows = []
    over = []
    for kind in sorted(set(loaded.times) | set(lone.times)):
        times = [1000 * t for t in loaded.times.get(kind, [])]
        single = [1000 * t for t in lone.times.get(kind, [])]
        shown = [f"{percentile(times, q):.0f}" if times else "-" for q in (50, 95, 99)]
        alone_p95 = f"{percentile(single, 95):.0f}" if single else "-"
        ratio = percentile(times, 95) / percentile(single, 95) if times and single else None
        failed = str(len(loaded.errors.get(kind, [])))
        longest = f"{max(times):.0f}" if times else "-"
        spent = lone.cpu.get(kind, [])
        cpu = f"{1000 * statistics.fmean(spent):.1f}" if spent else "-"
        if times and percentile(times, 95) >= TARGET_MS:
            over.append(kind)
        rows.append(
            [kind, str(len(times)), failed, *shown, longest, alone_p95,
             f"{ratio:.1f}" if ratio else "-", cpu]
        )  # fmt: skip
    print_table(
        ["request", "count", "errors", "p50 ms", "p95 ms", "p99 ms", "max ms", "p95 alone",
         "vs alone", "cpu ms alone"],
        rows,
    )  # fmt: skip
    errors = sum(len(e) for e in loaded.errors.values()) + sum(len(e) for e in lone.errors.values())
    done = sum(len(ts) for ts in loaded.times.values())
    alone_done = sum(len(ts) for ts in lone.times.values())
    between = run.lone_cpu - sum(sum(c) for c in lone.cpu.values())
    longest = max((t for ts in loaded.times.values() for t in ts), default=0.0)
    throughput = done / args.seconds
    print(f"throughput: {throughput:.1f} requests/s; longest request {longest:.2f} s")
    print(
        f"server CPU under load: {1000 * run.load_cpu / max(done, 1):.1f} ms per request "
        f"({run.load_cpu:.1f} s for {done} requests, the bots' moves included); alone: "
        f"{1000 * run.lone_cpu / max(alone_done, 1):.1f} ms per request ({run.lone_cpu:.1f} s "
        f"for {alone_done}, of which {max(between, 0.0):.1f} s between requests: bots moving)"
    )
    print(
        f"target: every kind's p95 under {TARGET_MS:.0f} ms with no errors (at a 1 s think "
        f"time): {verdict(not over and not errors)}"
        + (f" (over: {', '.join(over)})" if over else "")
    )
    if args.think == 0:
        print(
            f"target: no request over {LONGEST_S:g} s (no think time): "
            f"{verdict(longest <= LONGEST_S and not errors)}"
        )
    print(f"errors: {errors}")
    for kind, problems in sorted({**lone.errors, **loaded.errors}.items()):
        for problem in problems[:3]:
            print(f"  {kind}: {problem}")
    return throughput, longest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 sessions for 3 s (a smoke test)")
    parser.add_argument("--users", type=int, default=50, help="concurrent browser sessions")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of load")
    parser.add_argument("--think", type=float, default=1.0, help="mean think time (s)")
    parser.add_argument("--entries", type=int, default=ENTRIES, help="entries per notepad")
    parser.add_argument(
        "--workers", default="1", help="server processes, or a comma list of counts to compare"
    )
    args = parser.parse_args()
    counts = worker_counts(args.workers)
    if args.quick:
        args.users, args.seconds, args.think, args.entries = 3, 3.0, 0.05, 4
    entries = scripts(seed=1, count=args.entries)
    print(
        f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f} before the runs"
    )
    summary = []
    throughputs = []
    for workers in counts:
        run = measure(args, workers, entries)
        throughput, longest = report(args, run)
        throughputs.append(throughput)
        done = sum(len(ts) for ts in run.loaded.times.values())
        summary.append(
            [str(workers), f"{throughput:.1f}", f"{longest:.2f}",
             f"{1000 * run.load_cpu / max(done, 1):.1f}",
             f"{run.busy_before:.1f} / {run.busy_after:.1f}"]
        )  # fmt: skip
    if len(counts) > 1:
        print()
        print_table(
            ["workers", "requests/s", "longest s", "cpu ms/request", "load before/after"], summary
        )
        grows = all(b > a for a, b in pairwise(throughputs))
        order = " < " if grows else ", "
        print(
            f"target: throughput grows with the workers (no think time): {verdict(grows)} "
            f"({order.join(f'{t:.1f}' for t in throughputs)} requests/s)"
            + ("" if args.think == 0 else f" (this run's think time is {args.think} s)")
        )


if __name__ == "__main__":
    main()
