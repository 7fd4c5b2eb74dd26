"""Cluedo's plug-in: one seat's exact deduction after a log (``sleuth infer cluedo``),
registered by ``SPEC``.

``infer`` reads the seat's view (its own hand and the cards shown to it; the others' stay
hidden) into a :class:`~.deduction.CluedoBelief` and answers with the exact number of
consistent deals, every certain fact, each card's owners with their probabilities, the most
likely envelopes and the envelope's entropy.  Owners are named ``seat N``, ``envelope`` and
``table`` (the face-up cards).  An event no deal explains is an error naming it, and with it
the smallest set of events that contradict each other (:mod:`.sat`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from sleuth.core.errors import ContradictionError
from sleuth.core.events import JSON
from sleuth.core.plugins import InferPlugin, PagePlugin, Param
from sleuth.core.seatview import ViewLog
from sleuth.games.cluedo import notepad_picture, picture
from sleuth.games.cluedo.cells import cell
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.deduction.constraints import Owner
from sleuth.games.cluedo.deduction.counting import Posterior, Responder
from sleuth.games.cluedo.rules import CluedoGame

Fact = tuple[int, Owner, bool]
"""``(card, owner, holds)``, as in :mod:`.sat`."""

TOP = 10
"""How many envelopes the answer lists."""

RESPONDERS: dict[str, Responder] = {"adversarial": "any", "uniform": "uniform"}
"""``--responder``: ``adversarial`` assumes nothing about which card a refuter shows (every
consistent deal counts once); ``uniform`` weighs deals as if refuters chose at random."""


def owner_name(owner: Owner) -> str:
    """``seat 2``, ``envelope`` or ``table``."""
    return f"seat {owner}" if isinstance(owner, int) else owner


@dataclass(frozen=True)
class SeatDeduction:
    """A seat's deduction after the first ``events`` events of its view (``posterior`` is
    None before the ``setup`` event)."""

    def certain(self) -> list[Fact]:
        """Every certain fact, by counting (card, then owner)."""
        post = self.posterior
        if post is None:
            return []
        return [
            (c, o, n == post.total)
            for c in range(post.knowledge.deck.size)
            for o in self._owners(post)
            if (n := post.count(c, o)) in (0, post.total)
        ]

    events: int
    seat: int
    game: CluedoGame
    responder: str
    posterior: Posterior | None
    because: Mapping[Fact, tuple[str, ...]] | None = None
    """With ``--explain``: for each certain fact, a smallest set of events proving it."""
    names: tuple[str, ...] = ()
    """The seats' names for the text (the notepad's, else their suspects'); JSON names seats
    by number."""

    def _owner_label(self, owner: Owner, between: str = " ") -> Text:
        """A seat with its name (``seat 0 Ann``), the envelope or the table, as plain text."""
        if isinstance(owner, int) and owner < len(self.names):
            return Text(f"seat {owner}{between}{self.names[owner]}")
        return Text(owner_name(owner))

    def _name(self, card: int) -> str:
        return self.game.edition.display[card]

    def _owners(self, posterior: Posterior) -> list[Owner]:
        """The seats, the envelope, and the table when cards lie face up."""
        k = posterior.knowledge
        last = k.players + 2 if k.table else k.players + 1
        return [k.owner(o) for o in range(last)]

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "events": self.events,
            "seat": self.seat,
            "responder": self.responder,
        }
        post = self.posterior
        if post is None:
            out.update(deals=None, certain=[], owners={}, solutions=[], entropy=None)
            return out
        cards = range(post.knowledge.deck.size)
        out["deals"] = post.deals
        certain: list[JSON] = []
        for fact in self.certain():
            c, o, holds = fact
            entry: dict[str, JSON] = {
                "card": self._name(c),
                "owner": owner_name(o),
                "fact": "has" if holds else "lacks",
            }
            if self.because is not None:
                entry["because"] = list(self.because[fact])
            certain.append(entry)
        out["certain"] = certain
        out["owners"] = {
            self._name(c): {owner_name(o): p for o, p in post.owners(c).items()} for c in cards
        }
        out["solutions"] = [
            {
                "suspect": self._name(s),
                "weapon": self._name(w),
                "room": self._name(r),
                "probability": p,
            }
            for (s, w, r), p in post.top(TOP)
        ]
        out["entropy"] = post.entropy()
        return out

    def render(self) -> Group:
        you = f"Seat {self.seat} of {self.game.players}, after {self.events} events"
        post = self.posterior
        if post is None:
            return Group(Text(f"{you}: the cards have not been dealt."))
        owners = self._owners(post)
        lines: list[Text | Table] = [
            Text(
                f"{you}: {post.deals:,} consistent deals, envelope entropy "
                f"{post.entropy():.3f} nats"
                + (
                    " (refuters weighed as choosing at random)"
                    if self.responder == "uniform"
                    else ""
                )
            )
        ]
        pad = Table("card", title="Notepad")
        for owner in owners:
            pad.add_column(self._owner_label(owner, "\n"))
        for card in range(post.knowledge.deck.size):
            cells = [cell(post, card, o) for o in owners]
            pad.add_row(self._name(card), *cells)
        lines.append(pad)
        top = Table("suspect", "weapon", "room", "probability", title="Most likely envelopes")
        for (s, w, r), p in post.top(TOP):
            top.add_row(self._name(s), self._name(w), self._name(r), f"{p:.1%}")
        lines.append(top)
        if self.because is not None:
            why = Table("card", "owner", "proved by", title="Why: each card whose owner is known")
            for c, o, holds in self.certain():
                if holds:
                    reason = ", ".join(self.because[c, o, holds]) or "the rules alone"
                    why.add_row(self._name(c), self._owner_label(o), reason)
            lines.append(why)
        return Group(*lines)


def infer(view: ViewLog, events: int | None, params: Mapping[str, Any]) -> SeatDeduction:
    """The seat's exact deduction after the first ``events`` events of ``view`` (all by
    default); raises the belief's ``ContradictionError`` naming an impossible event."""
    game = view.game
    assert isinstance(game, CluedoGame)  # read_view_log checked the game's name
    end = len(view.events) if events is None else events
    responder = params["responder"]
    belief = CluedoBelief(view.seat, RESPONDERS[responder])
    for event in view.events[:end]:
        try:
            belief.update(event)
        except ContradictionError as exc:
            raise ContradictionError(_with_conflict(str(exc), view, belief.read)) from None
    names = seat_names(view, game)
    if belief.knowledge is None:
        return SeatDeduction(end, view.seat, game, responder, None, names=names)
    out = SeatDeduction(end, view.seat, game, responder, belief.posterior, names=names)
    if not params["explain"]:
        return out
    from sleuth.games.cluedo.sat import from_events  # PySAT loads only when it is needed

    kb = from_events(view.seat, view.events[:end])
    because = {fact: tuple(kb.explain(fact)) for fact in out.certain()}
    return dataclasses.replace(out, because=because)


def seat_names(view: ViewLog, game: CluedoGame) -> tuple[str, ...]:
    """The seats' names: those of the view's ``setup`` event (a notepad's save names its
    players), else the suspects the seats play."""
    for event in view.events:
        if event.kind == "setup":
            names = event.public.get("names")
            if isinstance(names, list) and len(names) == game.players:
                return tuple(map(str, names))
            break
    return tuple(game.edition.display[suspect] for suspect in game.suspects)


def _with_conflict(message: str, view: ViewLog, read: int) -> str:
    """The belief's error, with the smallest set of events that contradict each other (the
    SAT view's) when the first ``read`` events hold one."""
    from sleuth.games.cluedo.sat import conflict  # PySAT loads only when it is needed

    try:
        events = conflict(view.seat, view.events[:read])
    except ContradictionError:  # a malformed event: the belief's error says it all
        return message
    return message if events is None else f"{message}; together: {', '.join(events)}"


INFER = InferPlugin(
    role="player",
    help="A seat's exact deduction at a point of a log: the number of consistent deals, the "
    "certain facts, each card's owners with probabilities (a notepad), the most likely "
    "envelopes and their entropy.",
    run=infer,
    params=(
        Param(
            "explain",
            "For each certain fact, a smallest set of events that proves it (a SAT solver's).",
            kind=bool,
        ),
        Param(
            "responder",
            "adversarial: nothing is assumed about which card a refuter shows; uniform: "
            "refuters choose at random among the suggested cards they hold.",
            default="adversarial",
            choices=tuple(RESPONDERS),
        ),
    ),
    by_seat=True,
)

PAGE = PagePlugin(
    board=picture.svg,
    describe=picture.describe,
    notepad=notepad_picture.notepad,
    hidden=("full", "brief"),  # the page always shows the whole notepad, with its picture
)
"""The game's page in the web app: the board from one seat's view, the events in words, and
the assistant's picture."""
