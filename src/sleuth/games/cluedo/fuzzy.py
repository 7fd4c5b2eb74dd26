"""Typo-tolerant names for the notepad at the table (``sleuth assist cluedo``): cards and
players, as people type them (U2 of ``docs/cluedo.md``).

A :class:`Vocabulary` maps matching keys (lower-case letters and digits only, as
:func:`~sleuth.games.cluedo.cards.card_named` compares names) to items (card ids, seats).  A
typed text matches an item

* exactly (cost 0): a name or alias, ``col. mustard`` = ``Colonel Mustard``;
* by a prefix of a key, or a whole word of a name (cost 1): ``pea``, ``pipe``, ``billi``;
* by a small misspelling (cost 2 + the edit distance): at most 1 edit in a text of up to 4
  characters, at most 2 in a longer one (Levenshtein distance, by ``rapidfuzz``).

Only the cheapest tier counts, and it must name one item: a text that fits several items
equally well is :class:`Ambiguous` (the message lists them: the user types more), one that fits
none is :class:`Unknown` (the message lists the closest names).  :func:`segment` cuts a list of
typed words into names (``lead pipe plum hall``), never across a comma.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from sleuth.core.errors import SleuthError

PREFIX_COST = 1
TYPO_COST = 2
MAX_GROUP = 3
"""The most words one name takes (``Miss Scarlett``, ``Lead Pipe``: two)."""
TITLES = frozenset(("miss", "mrs", "mr", "colonel", "col", "professor", "prof", "reverend",
                    "rev", "doctor", "dr", "room"))  # fmt: skip
"""Words of names that name nothing on their own."""
FILLERS = frozenset(("the", "in", "with", "and", "a", "an", "at", "of", "on"))
"""Words dropped from a list of cards (``plum with the knife in the hall``)."""


def key(text: str) -> str:
    """The matching key of a name: lower-case letters and digits only."""
    return "".join(c for c in text.lower() if c.isalnum())


class Unknown(SleuthError):
    """A text that names nothing."""


class Ambiguous(SleuthError):
    """A text that names several items equally well."""


@dataclass(frozen=True)
class Match:
    """The items a text fits best, at ``cost`` (one item: a match; several: ambiguous)."""

    cost: int
    items: frozenset[int]


class Vocabulary:
    """Names of items; ``display[item]`` is how an item is shown, ``what`` what an item is
    (``card``, ``player``)."""

    def __init__(self, names: Iterable[tuple[str, int]], display: Sequence[str], what: str) -> None:
        self.display = tuple(display)
        self.what = what
        self.keys: dict[str, int] = {}
        self.words: dict[str, set[int]] = {}
        for name, item in names:
            k = key(name)
            if not k:
                continue
            if self.keys.setdefault(k, item) != item:
                raise ValueError(f"the name {name!r} would name two {what}s")
            for word in name.lower().replace(".", " ").split():
                w = key(word)
                if w and w not in TITLES and w != k:
                    self.words.setdefault(w, set()).add(item)

    def match(self, text: str, among: frozenset[int] | None = None) -> Match | None:
        """The best tier of items that ``text`` fits (restricted to ``among`` if given), or
        None when it fits none."""
        k = key(text)
        if not k:
            return None

        def allowed(items: Iterable[int]) -> frozenset[int]:
            got = frozenset(items)
            return got if among is None else got & among

        exact = allowed([self.keys[k]] if k in self.keys else [])
        if exact:
            return Match(0, exact)
        prefix = allowed(
            [i for name, i in self.keys.items() if name.startswith(k)]
            + [i for word, items in self.words.items() if word.startswith(k) for i in items]
        )
        if prefix:
            return Match(PREFIX_COST, prefix)
        limit = 1 if len(k) <= 4 else 2
        pool = [*self.keys, *self.words]
        near = process.extract(k, pool, scorer=Levenshtein.distance, score_cutoff=limit, limit=None)
        best: dict[int, int] = {}
        for name, distance, _ in near:
            items = [self.keys[name]] if name in self.keys else self.words[name]
            for i in allowed(items):
                best[i] = min(best.get(i, limit + 1), int(distance))
        if not best:
            return None
        low = min(best.values())
        return Match(TYPO_COST + low, frozenset(i for i, d in best.items() if d == low))

    def one(self, text: str, among: frozenset[int] | None = None) -> int:
        """The one item ``text`` names (among ``among``); :class:`Unknown` or
        :class:`Ambiguous` otherwise, naming the candidates."""
        found = self.match(text, among)
        if found is None:
            raise Unknown(self.unknown(text, among))
        if len(found.items) > 1:
            raise Ambiguous(self.ambiguous(text, found.items))
        (item,) = found.items
        return item

    def unknown(self, text: str, among: frozenset[int] | None = None) -> str:
        """The message for a text that names nothing: the closest names, or all of them."""
        items = sorted(set(self.keys.values()) if among is None else among)
        shown = [self.display[i] for i in items]
        close = process.extract(text, shown, limit=3, score_cutoff=50)
        if close:
            listed = ", ".join(name for name, _, _ in close)
            return f"no {self.what} is called {text.strip()!r}; did you mean {listed}?"
        return f"no {self.what} is called {text.strip()!r}; the {self.what}s are: " + ", ".join(
            shown
        )

    def ambiguous(self, text: str, items: Iterable[int]) -> str:
        names = [self.display[i] for i in sorted(items)]
        either = ", ".join(names[:-1]) + " or " + names[-1]
        return f"{text.strip()!r} could be {either}: type more of the name"


def segment(vocabulary: Vocabulary, words: Sequence[str]) -> list[tuple[str, Match]]:
    """Cut ``words`` (``,`` a word of its own: a boundary) into names, cheapest first, then
    fewest names: each piece with the items it fits.  Raises :class:`Unknown` naming the
    first word that no cut fits, or a word with no letter or digit that is not ASCII
    punctuation (``'🦊'``: it would vanish into the next name); ASCII punctuation (``-``, ``&``)
    is skipped."""
    parts: list[list[str]] = [[]]
    for word in words:
        if word == ",":
            parts.append([])
        elif not key(word) and not (word.isascii() and word.isprintable()):
            raise Unknown(f"{word!r} is no {vocabulary.what}")  # not part of the next name
        elif word not in FILLERS and key(word):
            parts[-1].append(word)
    out: list[tuple[str, Match]] = []
    for part in parts:
        if part:
            out += _cut(vocabulary, part)
    return out


def _cut(vocabulary: Vocabulary, words: list[str]) -> list[tuple[str, Match]]:
    n = len(words)
    # best[i]: (cost, pieces, cut) for words[:i]; None when no cut of them fits
    best: list[tuple[int, int, list[tuple[str, Match]]] | None] = [None] * (n + 1)
    best[0] = (0, 0, [])
    for i in range(1, n + 1):
        for j in range(max(0, i - MAX_GROUP), i):
            before = best[j]
            if before is None:
                continue
            text = " ".join(words[j:i])
            found = vocabulary.match(text)
            if found is None:
                continue
            option = (before[0] + found.cost, before[1] + 1, [*before[2], (text, found)])
            now = best[i]
            if now is None or option[:2] < now[:2]:
                best[i] = option
    done = best[n]
    if done is None:
        reach = max(i for i in range(n + 1) if best[i] is not None)
        raise Unknown(vocabulary.unknown(words[reach]))
    return done[2]
