"""Fox in a Hole on any connected graph (rules X1-X9 of ``docs/fox.md``).

Seats: 0 is the hunter, 1 the fox.  The fox moves first (choosing where to hide, X2); then each
day the hunter inspects up to ``k`` holes (X3) and, if the fox survives, it moves at night (X4).

The fox is modelled as the set of holes it may be in (a bitset).  A fox action either commits
to one hole (``hole 3``) or stays uncommitted (``hide``: every hole it could reach).  An
inspection catches the fox exactly when it leaves no possible hole; otherwise the inspected
holes are removed from the set.  A fox that always commits is an ordinary fox; one that always
hides is the adversarial "quantum" fox of rule A3, which is caught exactly when the hunter's
belief becomes empty.  When the game ends a ``fox_path`` event reveals one concrete walk that
agrees with every inspection (A4): the real walk of a committed fox.

Events: ``fox_moved`` (public: the night; private to the fox: its possible holes),
``inspected`` (public: day, holes, caught), ``fox_path`` (public, at the end).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from math import comb
from types import MappingProxyType
from typing import ClassVar

from sleuth.core.errors import ActionParseError, OptionError
from sleuth.core.events import JSON, Event
from sleuth.core.game import TERMINAL, Game, State
from sleuth.core.numbers import whole_number
from sleuth.games.fox.graph import FoxGraph, holes_of
from sleuth.games.fox.walk import reconstruct_path

HUNTER = 0
FOX = 1
MAX_HUNTER_ACTIONS = 100_000
"""Largest number of distinct inspections per day the engine lists (sum of C(n, 1..k))."""


@dataclass(frozen=True, slots=True)
class Inspect:
    """The hunter inspects some holes (kept sorted). Text form: ``inspect 1,3``."""

    holes: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "holes", tuple(sorted(self.holes)))

    def __str__(self) -> str:
        return "inspect " + ",".join(map(str, self.holes))


@dataclass(frozen=True, slots=True)
class FoxMove:
    """The fox commits to ``hole`` (text ``hole 3``) or stays uncommitted (``None``: ``hide``)."""

    hole: int | None

    def __str__(self) -> str:
        return "hide" if self.hole is None else f"hole {self.hole}"


FoxAction = Inspect | FoxMove
HIDE = FoxMove(None)
FOX_ONLY = frozenset((FOX,))


class FoxGame(Game[FoxAction]):
    """Fox in a Hole on ``graph``: ``k`` inspections a day, a lazy fox or not, a ``days`` limit."""

    name: ClassVar[str] = "fox"
    terminations: ClassVar[tuple[str, ...]] = ("caught", "escaped")
    """The hunter found the fox, or the fox was never found within the days."""

    def __init__(
        self, graph: FoxGraph, k: int = 1, lazy: bool = False, days: int | None = None
    ) -> None:
        if k < 1:
            raise OptionError("k must be at least 1")
        self.graph = graph
        self.k = k
        self.lazy = lazy
        self.days = days if days else 4 * graph.n
        count = sum(comb(graph.n, size) for size in range(1, min(k, graph.n) + 1))
        if count > MAX_HUNTER_ACTIONS:
            raise OptionError(
                f"k={k} on {graph.n} holes gives {count} possible inspections a day "
                f"(limit {MAX_HUNTER_ACTIONS})"
            )

    @property
    def roles(self) -> tuple[str, ...]:
        return ("hunter", "fox")

    def options(self) -> dict[str, JSON]:
        return {"graph": self.graph.spec, "k": self.k, "lazy": self.lazy, "days": self.days}

    def new_initial_state(self) -> FoxState:
        return FoxState(self)

    @cached_property
    def _fox_moves(self) -> tuple[FoxMove, ...]:
        return tuple(FoxMove(h) for h in range(self.graph.n))

    def fox_actions(self, reach: int) -> tuple[FoxAction, ...]:
        """The fox's legal actions when it can reach the holes of ``reach``.

        Not cached on purpose: bots hold the game, so nothing derived from a state may be
        stored in it (a cache keyed by the fox's reach would tell a hunter where it is).  The
        reaches of a fox in one hole are a table of the board made whole (:attr:`_one_hole`),
        which tells nothing."""
        moves = self._fox_moves
        return (HIDE, *(moves[h] for h in holes_of(reach)))

    @cached_property
    def _one_hole(self) -> tuple[tuple[int, tuple[FoxAction, ...]], ...]:
        """For each hole h: the reach of a fox in h alone, and its legal actions then (every
        hole's at once: a table of the board, not of any state)."""
        graph, lazy = self.graph, self.lazy
        reaches = [graph.night(1 << h, lazy) for h in range(graph.n)]
        return tuple((reach, self.fox_actions(reach)) for reach in reaches)

    @cached_property
    def _hiding(self) -> tuple[FoxAction, ...]:
        """The fox's legal actions before it has hidden (any hole)."""
        return self.fox_actions(self.graph.all_holes)

    @cached_property
    def _inspection_set(self) -> frozenset[FoxAction]:
        return frozenset(self.inspections)

    @cached_property
    def _inspection_ids(self) -> dict[int, int]:
        """The bitset of holes of each object of :attr:`inspections`, by its id (the game
        keeps them alive): a table of the board."""
        masks = {}
        for action in self.inspections:
            assert isinstance(action, Inspect)
            masks[id(action)] = sum(1 << h for h in action.holes)
        return masks

    @cached_property
    def _holes_seen(self) -> tuple[Mapping[str, JSON], ...]:
        """The private part of a ``fox_moved`` event of a fox in each hole alone (read-only,
        shared by the events: a table of the board made whole, which tells nothing)."""
        return tuple(MappingProxyType({"holes": (h,)}) for h in range(self.graph.n))

    def is_inspection(self, action: object) -> bool:
        """True if ``action`` is a legal inspection (the same every day): one of the listed
        objects (found by id, without hashing it) or one equal to it."""
        return id(action) in self._inspection_ids or action in self._inspection_set

    @cached_property
    def inspections(self) -> tuple[FoxAction, ...]:
        """Every legal inspection (the same every day): sizes 1..k, lexicographic."""
        holes = range(self.graph.n)
        return tuple(
            Inspect(c)
            for size in range(1, min(self.k, self.graph.n) + 1)
            for c in combinations(holes, size)
        )

    def parse_action(self, text: str) -> FoxAction:
        words = text.strip().split(None, 1)
        if words == ["hide"]:
            return HIDE
        if len(words) == 2 and words[0] in ("hole", "inspect"):
            parts = [p for p in words[1].replace(",", " ").split() if p]
            if parts and all(p.isascii() and p.isdigit() for p in parts):
                numbers = tuple(whole_number(p) for p in parts)
                if words[0] == "inspect":
                    return Inspect(numbers)
                if len(numbers) == 1:
                    return FoxMove(numbers[0])
        raise ActionParseError(f"{text!r} is not a fox action (inspect 1,2 / hole 3 / hide)")


class FoxState(State[FoxAction]):
    """A position: the fox's possible holes, the day, and what has happened so far."""

    __slots__ = ("caught", "day", "evenings", "fox", "fox_to_move", "game", "inspections", "over")

    def __init__(self, game: FoxGame) -> None:
        self.game: FoxGame = game
        self.day = 1
        """The day of the next inspection."""
        self.fox = 0
        """Bitset of the holes the fox may be in (0 before it has hidden)."""
        self.fox_to_move = True
        self.inspections: list[int] = []
        self.evenings: list[int] = []
        """The fox's possible holes after each inspection it survived."""
        self.caught = False
        self.over = False

    def current_player(self) -> int:
        if self.over:
            return TERMINAL
        return FOX if self.fox_to_move else HUNTER

    def legal_actions(self) -> Sequence[FoxAction]:
        if self.over:
            return ()
        if not self.fox_to_move:
            return self.game.inspections
        fox = self.fox
        if fox == 0:
            return self.game._hiding
        if fox & (fox - 1) == 0:  # one hole: the board's table
            return self.game._one_hole[fox.bit_length() - 1][1]
        return self.game.fox_actions(self._fox_reach())

    def is_legal(self, action: object) -> bool:
        if self.over:
            return False
        if not self.fox_to_move:
            return self.game.is_inspection(action)
        if not isinstance(action, FoxMove):
            return False
        hole = action.hole
        if hole is None:
            return True
        n = self.game.graph.n
        return type(hole) is int and 0 <= hole < n and bool(self._fox_reach() >> hole & 1)

    def _fox_reach(self) -> int:
        fox = self.fox
        if fox == 0:
            return self.game.graph.all_holes
        if fox & (fox - 1) == 0:
            return self.game._one_hole[fox.bit_length() - 1][0]
        return self.game.graph.night(fox, self.game.lazy)

    def illegal_reason(self, action: object) -> str | None:
        if self.over:
            return "the game is over"
        if self.fox_to_move:
            if not isinstance(action, FoxMove):
                return "it is the fox's turn"
            hole = action.hole
            if hole is None:
                return None
            if type(hole) is int and 0 <= hole < self.game.graph.n:
                if self._fox_reach() >> hole & 1:
                    return None
                return "not adjacent to the fox's hole"
            return f"not on the board (holes 0..{self.game.graph.n - 1})"
        if not isinstance(action, Inspect):
            return "it is the hunter's turn"
        if self.game.is_inspection(action):
            return None
        holes = action.holes
        n, k = self.game.graph.n, self.game.k
        if not holes or len(holes) > k:
            return f"inspect between 1 and {k} holes"
        if len(set(holes)) != len(holes):
            return "a hole is repeated"
        return f"holes are numbered 0..{n - 1}"

    def _apply(self, action: FoxAction) -> list[Event]:
        if self.fox_to_move:
            return self._fox_moves(action)
        return self._inspect(action)

    def _fox_moves(self, action: FoxAction) -> list[Event]:
        assert isinstance(action, FoxMove)
        hole = action.hole
        if hole is None:
            self.fox = self._fox_reach()
            seen: Mapping[str, JSON] = {"holes": tuple(holes_of(self.fox))}
        else:
            self.fox = 1 << hole
            seen = self.game._holes_seen[hole]
        self.fox_to_move = False
        return [Event("fox_moved", {"night": self.day - 1}, seen, FOX_ONLY)]

    def _inspect(self, action: FoxAction) -> list[Event]:
        assert isinstance(action, Inspect)
        holes = action.holes
        inspected = self.game._inspection_ids.get(id(action), 0)
        if not inspected:  # not one of the listed objects
            for h in holes:
                inspected |= 1 << h
        left = self.fox & ~inspected
        self.inspections.append(inspected)
        day = self.day
        events = [Event("inspected", {"day": day, "holes": holes, "caught": left == 0})]
        if left == 0:
            self.caught = self.over = True
            events.append(self._path_event(final=self.fox & inspected))
            self.fox &= inspected
        else:
            self.fox = left
            self.evenings.append(left)
            self.day += 1
            if day >= self.game.days:
                self.over = True
                events.append(self._path_event(final=None))
            else:
                self.fox_to_move = True
        return events

    def _path_event(self, final: int | None) -> Event:
        path = reconstruct_path(self.game.graph, self.evenings, self.game.lazy, final=final)
        return Event("fox_path", {"path": tuple(path), "caught": self.caught})

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> tuple[float, ...]:
        if not self.over:
            return (0.0, 0.0)
        return (1.0, 0.0) if self.caught else (0.0, 1.0)

    def termination(self) -> str:
        return "caught" if self.caught else "escaped"

    def outcome(self) -> str:
        if self.caught:
            return f"caught on day {self.day}"
        return f"escaped for {self.day - 1} days"

    def __repr__(self) -> str:
        """The whole position for developers: the fox's possible holes included."""
        to_move = "nobody" if self.over else "fox" if self.fox_to_move else "hunter"
        fox = "{" + ",".join(map(str, holes_of(self.fox))) + "}" if self.fox else "not hidden"
        end = f", caught={self.caught}" if self.over else ""
        return (
            f"FoxState(graph={self.game.graph.spec!r}, day={self.day}, to_move={to_move}, "
            f"fox={fox}, inspections={len(self.inspections)}{end})"
        )

    def clone(self) -> FoxState:
        other = FoxState.__new__(FoxState)
        other.game = self.game
        other.day = self.day
        other.fox = self.fox
        other.fox_to_move = self.fox_to_move
        other.inspections = list(self.inspections)
        other.evenings = list(self.evenings)
        other.caught = self.caught
        other.over = self.over
        return other
