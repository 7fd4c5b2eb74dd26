"""The baseline Marshal notes: the layered graph of the source's blog ("MarshalNotes").

Written plainly, as the source's blog post describes it (with its bugs corrected, M8), so that
users can compare it with the exact engine.  Layer ``d`` holds the values hideout ``d`` may
still have; an edge runs from ``(d - 1, p)`` to ``(d, v)`` when ``p < v <= p + 3 + 2k`` (``k``
sprint cards, each assumed worth 2).  Cards known to be elsewhere and single misses remove
nodes; a reveal keeps one node in its layer; pruning then removes nodes with no way in or no way
on.  It is sound (never removes a possible value) but not complete: it ignores exact sprint
values, the cards a stack uses, pile provenance and timing, and multi-number misses.
"""

from __future__ import annotations

from collections.abc import Iterable

from sleuth.core.events import Event
from sleuth.games.fugitive.engine.cards import LAST
from sleuth.games.fugitive.rules import MARSHAL


class MarshalNotes:
    """Layer 0 is the start card; ``layers[d]`` the candidate values of hideout ``d``."""

    def __init__(self) -> None:
        self.layers: list[set[int]] = [{0}]
        self.reach: list[int] = [0]
        """Per layer, the largest jump into it (3 + 2k)."""
        self.elsewhere: set[int] = set()
        """Cards known not to be face-down hideouts: the Marshal's and every face-up card."""
        self.revealed: dict[int, int] = {}

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> MarshalNotes:
        notes = cls()
        for event in events:
            notes.apply(event)
        return notes

    def apply(self, event: Event) -> None:
        """Update the notes with one event of the Marshal's view."""
        public = event.public
        if event.kind == "drew" and public["seat"] == MARSHAL and event.private is not None:
            self.exclude(int(event.private["card"]))
        elif event.kind == "placed":
            value = public.get("value")
            self.add_hideout(int(public["sprints"]), LAST if value == LAST else None)
        elif event.kind == "guessed" and not public["hit"] and len(public["numbers"]) == 1:
            self.miss(int(public["numbers"][0]))
        elif event.kind == "revealed":
            self.reveal(int(public["position"]), int(public["value"]))
            for card in public["sprints"]:
                self.exclude(int(card))

    def add_hideout(self, sprints: int, value: int | None = None) -> None:
        """Hideout ``len(layers)`` placed with ``sprints`` sprint cards (42 when ``value``)."""
        reach = 3 + 2 * sprints
        previous = self.layers[-1]
        if value == LAST:
            layer = {LAST} if any(LAST - p <= reach for p in previous) else set()
        else:
            layer = {
                v
                for p in previous
                for v in range(p + 1, min(p + reach, LAST - 1) + 1)
                if v not in self.elsewhere
            }
        self.layers.append(layer)
        self.reach.append(reach)
        self._prune()

    def exclude(self, card: int) -> None:
        """Card ``card`` is known to be elsewhere (drawn by the Marshal, or revealed)."""
        self.elsewhere.add(card)
        for d in range(1, len(self.layers)):
            if self.revealed.get(d) != card:
                self.layers[d].discard(card)
        self._prune()

    def miss(self, number: int) -> None:
        """A single-number miss: no existing hideout is ``number`` (later ones may be)."""
        for d in range(1, len(self.layers)):
            self.layers[d].discard(number)
        self._prune()

    def reveal(self, position: int, value: int) -> None:
        """Hideout ``position`` is ``value``."""
        self.revealed[position] = value
        self.layers[position] &= {value}
        self.exclude(value)

    def _prune(self) -> None:
        """Remove nodes with no in-edge or (outside the last layer) no out-edge, to a fixpoint."""
        changed = True
        while changed:
            changed = False
            for d in range(1, len(self.layers)):
                previous, reach = self.layers[d - 1], self.reach[d]
                keep = {v for v in self.layers[d] if any(p < v <= p + reach for p in previous)}
                if d + 1 < len(self.layers):
                    following, onward = self.layers[d + 1], self.reach[d + 1]
                    keep = {v for v in keep if any(v < w <= v + onward for w in following)}
                if keep != self.layers[d]:
                    self.layers[d] = keep
                    changed = True

    def hideouts_range(self, position: int) -> list[int]:
        """The values hideout ``position`` may have, by these notes."""
        return sorted(self.layers[position])

    def route_count(self) -> int:
        """Root-to-leaf paths of the graph (routes the notes allow)."""
        paths = {0: 1}
        for d in range(1, len(self.layers)):
            reach = self.reach[d]
            paths = {
                v: sum(n for p, n in paths.items() if p < v <= p + reach) for v in self.layers[d]
            }
        return sum(paths.values())

    def value_weights(self, positions: Iterable[int]) -> dict[int, int]:
        """For each value, the root-to-leaf paths through it, summed over ``positions``."""
        forward: list[dict[int, int]] = [{0: 1}]
        for d in range(1, len(self.layers)):
            reach = self.reach[d]
            forward.append(
                {
                    v: sum(n for p, n in forward[-1].items() if p < v <= p + reach)
                    for v in self.layers[d]
                }
            )
        backward: list[dict[int, int]] = [{} for _ in self.layers]
        backward[-1] = {v: 1 for v in self.layers[-1]}
        for d in range(len(self.layers) - 2, -1, -1):
            onward, following = self.reach[d + 1], backward[d + 1]
            backward[d] = {
                v: sum(n for w, n in following.items() if v < w <= v + onward)
                for v in self.layers[d]
            }
        weights: dict[int, int] = {}
        for d in positions:
            for v in self.layers[d]:
                paths = forward[d][v] * backward[d][v]
                if paths:
                    weights[v] = weights.get(v, 0) + paths
        return weights
