"""Property: on random boards, options, bots and seeds, a written log replays to the same game."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.core.log import replay_log, write_log
from sleuth.core.match import run_match
from sleuth.core.registry import game_spec, make_game


@st.composite
def edge_specs(draw: st.DrawFn) -> str:
    """A random connected graph on 1..8 holes: a random tree plus a few extra edges."""
    n = draw(st.integers(2, 8))
    edges = {(draw(st.integers(0, v - 1)), v) for v in range(1, n)}
    for _ in range(draw(st.integers(0, 3))):
        u, v = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
        if u != v:
            edges.add((min(u, v), max(u, v)))
    return "edges:" + ",".join(f"{u}-{v}" for u, v in sorted(edges))


@settings(max_examples=60, deadline=None)
@given(
    graph=edge_specs(),
    k=st.integers(1, 2),
    lazy=st.booleans(),
    days=st.integers(1, 12),
    bots=st.sampled_from([("random", "random"), ("solver", "quantum"), ("solver", "random")]),
    seed=st.integers(0, 2**32),
)
def test_logs_replay_to_the_same_game(
    graph: str, k: int, lazy: bool, days: int, bots: tuple[str, str], seed: int
) -> None:
    game = make_game("fox", {"graph": graph, "k": k, "lazy": lazy, "days": days})
    spec = game_spec("fox")
    record = run_match(game, [spec.bot(b) for b in bots], seed)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.jsonl"
        write_log(record, path)
        replay = replay_log(path)
    final = record.final_state
    assert final is not None
    assert replay.steps == len(record.steps)
    assert replay.wins == record.wins
    assert (replay.state.fox, replay.state.day, replay.state.caught, replay.state.evenings) == (
        final.fox,
        final.day,
        final.caught,
        final.evenings,
    )
