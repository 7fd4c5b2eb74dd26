"""The Camel Up assistant computes its advice once per state: the shared (cached) advice is
the advice a fresh computation gives, after entries, undo and a load."""

from __future__ import annotations

from pathlib import Path

from sleuth.games.camel_up.advice import Advice, advise
from sleuth.games.camel_up.assistant import CamelSession
from sleuth.games.camel_up.rules import CamelUpGame

START = "start 1:blue 2:green,orange 3:yellow,white"
ENTRIES = (START, "leg white", "tile 8 mirage", "roll orange 3", "winner")


def fresh(session: CamelSession) -> Advice:
    """The advice computed from scratch for the session's state (what the text showed
    before it was shared)."""
    return advise(session.state, rollouts=session.rollouts, seed=len(session.entries),
                  all_tiles=True)  # fmt: skip


def test_the_shared_advice_is_the_fresh_advice_in_every_state(tmp_path: Path) -> None:
    session = CamelSession(CamelUpGame(), seat=0, rollouts=300)
    for text in ENTRIES:
        session.enter(text)
        first = session.advice()
        assert session.advice() is first  # computed once for this state
        assert first == fresh(session)
    session.undo()
    assert session.advice() == fresh(session)
    session.enter("loser")  # a different last entry: the same number of entries
    assert session.advice() == fresh(session)
    path = tmp_path / "table.jsonl"
    session.save(path)
    other = CamelSession(CamelUpGame(), seat=0, rollouts=300)
    for text in ENTRIES:
        other.enter(text)
    other.advice()
    other.load(path)
    assert other.history() == session.history()
    assert other.advice() == fresh(other) == session.advice()


def test_the_picture_draws_the_odds_the_text_shows() -> None:
    from sleuth.games.camel_up.notepad_picture import notepad as camel_up

    session = CamelSession(CamelUpGame(), seat=0, rollouts=300)
    for text in ENTRIES[:4]:
        session.enter(text)
    picture = camel_up(session)
    odds = fresh(session).odds
    for p in (*odds.leg.first, *odds.win):
        assert f'data-p="{float(p):.4f}"' in picture
