"""The baseline for ``bench/fugitive_belief.py``: the source blog's Marshal notes, on NetworkX.

Written plainly after the blog post's description (the baseline notes of ``docs/fugitive.md``): a
``networkx.DiGraph`` with nodes (depth, value), ``add_new_hideout``, ``eliminate_vals``,
``hideout_revealed`` and ``_remove_unreachable_nodes``, plus a ``hideouts_range`` array.  The blog's
bugs are corrected as rule M8 of ``docs/fugitive.md`` asks: the hideout counter moves once per
hideout, the sprint reach is ``3 + 2 * n_sprint``, and single misses remove values only from the
layers that exist at that moment.  Not part of the package: NetworkX is a development extra.
"""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx
import numpy as np

from sleuth.core.events import Event

MAX_HIDEOUTS = 44
LAST = 42
MARSHAL = 1


class NetworkxNotes:
    def __init__(self) -> None:
        self.graph = nx.DiGraph()
        self.graph.add_node((0, 0))
        self.hideouts_range = np.zeros((MAX_HIDEOUTS, LAST + 1), dtype=np.int8)
        self.hideouts_range[0, 0] = 1
        self.n_hideouts = 1
        self.seen: set[int] = set()

    def apply(self, event: Event) -> None:
        public = event.public
        if event.kind == "drew" and public["seat"] == MARSHAL and event.private is not None:
            card = int(event.private["card"])
            self.seen.add(card)
            self.eliminate_vals([card])
        elif event.kind == "placed":
            self.add_new_hideout(int(public["sprints"]), public.get("value") == LAST)
        elif event.kind == "guessed" and not public["hit"] and len(public["numbers"]) == 1:
            self.eliminate_vals([int(public["numbers"][0])])
        elif event.kind == "revealed":
            self.hideout_revealed(int(public["position"]), int(public["value"]))
            cards = [int(c) for c in public["sprints"]]
            self.seen.update(cards)
            self.eliminate_vals(cards)

    def add_new_hideout(self, n_sprint: int, is_42: bool) -> None:
        prev_depth = self.n_hideouts - 1
        new_depth = self.n_hideouts
        nodes_from_prev_depth = [node for node in self.graph.nodes() if node[0] == prev_depth]
        for prev_node in nodes_from_prev_depth:
            prev_value = prev_node[1]
            if is_42:
                if LAST - prev_value <= 3 + 2 * n_sprint:
                    self.graph.add_edge(prev_node, (new_depth, LAST))
                    self.hideouts_range[new_depth, LAST] = 1
                continue
            max_new_value = min(prev_value + 3 + 2 * n_sprint + 1, LAST)
            for new_value in range(prev_value + 1, max_new_value):
                if new_value in self.seen:
                    continue
                self.graph.add_edge(prev_node, (new_depth, new_value))
                self.hideouts_range[new_depth, new_value] = 1
        self.n_hideouts += 1
        self._remove_unreachable_nodes()

    def eliminate_vals(self, vals: Iterable[int]) -> None:
        vals = list(vals)
        nodes_to_remove = [
            (d, v) for d, v in self.graph.nodes() if v in vals and d > 0 and not self._fixed(d, v)
        ]
        self.graph.remove_nodes_from(nodes_to_remove)
        for d, v in nodes_to_remove:
            self.hideouts_range[d, v] = 0
        self._remove_unreachable_nodes()

    def _fixed(self, depth: int, value: int) -> bool:
        """A revealed hideout keeps its node (the blog would remove it too)."""
        return bool(self.hideouts_range[depth].sum() == 1 and self.hideouts_range[depth, value])

    def hideout_revealed(self, depth: int, hideout: int) -> None:
        nodes_to_remove = [(d, v) for d, v in self.graph.nodes() if d == depth and v != hideout]
        self.graph.remove_nodes_from(nodes_to_remove)
        self.hideouts_range[depth, :] = 0
        self.hideouts_range[depth, hideout] = 1
        self.seen.add(hideout)
        self.eliminate_vals([hideout])

    def _remove_unreachable_nodes(self) -> None:
        for depth in range(1, self.n_hideouts):
            nodes_at_depth = [node for node in self.graph.nodes() if node[0] == depth]
            for node in nodes_at_depth:
                if self.graph.in_degree(node) == 0:
                    self.graph.remove_node(node)
                    self.hideouts_range[node[0], node[1]] = 0
        for depth in range(self.n_hideouts - 2, 0, -1):
            nodes_at_depth = [node for node in self.graph.nodes() if node[0] == depth]
            for node in nodes_at_depth:
                if self.graph.out_degree(node) == 0:
                    self.graph.remove_node(node)
                    self.hideouts_range[node[0], node[1]] = 0

    def candidates(self, depth: int) -> set[int]:
        return {int(v) for v in np.flatnonzero(self.hideouts_range[depth])}
