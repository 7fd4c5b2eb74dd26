"""The Marshal at a real table: what she types, turned into her view's events and checked.

:class:`MarshalTable` holds the entries of one game, each the text she typed (in a canonical
form) and the events it stands for, exactly as the rules engine would show them to her.  An
entry is accepted only if

1. it parses (:data:`ENTRY_HELP` lists the forms);
2. it is that player's turn for it (the turn order is public: :class:`PublicTurns` follows
   it from the entries);
3. some complete world is still consistent with all entries (the exact belief, or the relaxed
   one when the exact one is too big); and
4. the rules engine, replaying such a world, produces exactly the events of the entries
   (checked whenever the exact belief is available).

Anything else raises :class:`~sleuth.core.errors.SleuthError` with a message naming the entry,
and the table is unchanged.  :func:`entry_texts` turns a Marshal's view back into entries, so a
saved view log loads by re-entering it.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from sleuth.core.errors import ContradictionError, SleuthError, SolverLimitError
from sleuth.core.events import Event
from sleuth.core.numbers import whole_number
from sleuth.core.viewlog import event_fields
from sleuth.games.fugitive.belief import MAX_STATES
from sleuth.games.fugitive.deduction.advice import Deduction
from sleuth.games.fugitive.deduction.worlds import view_problem
from sleuth.games.fugitive.engine.cards import LAST, PILE_OF, PILES, SETUP_DRAWS
from sleuth.games.fugitive.engine.turns import PublicTurns
from sleuth.games.fugitive.rules import (
    FUGITIVE,
    FUGITIVE_ONLY,
    MARSHAL,
    FugitiveGame,
    Phase,
)

ENTRY_HELP = """\
draw 2 17                  you drew card 17 from pile 2
fugitive draw 1            the Fugitive drew from pile 1 (also: f draw 1)
hideout 2                  the Fugitive placed a hideout with 2 sprint cards (hideout: none)
42 1                       the Fugitive placed 42 with 1 sprint card
pass / bonus / no bonus    the Fugitive passed; 2nd edition: took the bonus draw, or not
guess 12 15 miss           you named 12 and 15 and missed
guess 12 15 hit            a hit; where asked, add what it revealed: the position and
                           sprint cards, e.g. 'guess 12 15 hit; 12 at 3; 15 at 4 sprint 6 9'
skip                       you made no guess"""

SETUP_EVENTS = tuple(
    Event("drew", {"seat": FUGITIVE, "pile": pile, "bonus": False}, None, FUGITIVE_ONLY)
    for pile, count in enumerate(SETUP_DRAWS, start=1)
    for _ in range(count)
)
"""The Fugitive's setup draws as the Marshal sees them (every game starts with them)."""


@dataclass(frozen=True)
class Entry:
    """One accepted entry: its canonical text and the Marshal-view events it stands for."""

    text: str
    events: tuple[Event, ...]


_GUESSED_NUMBERS = re.compile(r"^(\s*guess\b[^;]*?)\b(hit|miss)\b")
"""A guess up to its outcome, where commas separate the numbers named, not details."""


class MarshalTable:
    """A Marshal's record of one game at a real table (see the module docstring)."""

    def __init__(self, game: FugitiveGame, seed: int = 0, model: str = "uniform") -> None:
        self.game = game
        self.model = model
        """The Fugitive model of the odds (:data:`~sleuth.games.fugitive.belief.MODELS`)."""
        self.entries: list[Entry] = []
        self._rng = random.Random(seed)
        self._deduction = self._deduce(list(SETUP_EVENTS))
        self._turns = PublicTurns(game)

    @property
    def events(self) -> list[Event]:
        """The Marshal's view so far (the setup draws included)."""
        return [*SETUP_EVENTS, *(e for entry in self.entries for e in entry.events)]

    @property
    def deduction(self) -> Deduction:
        """What the events so far let her deduce (exact, or relaxed if too big)."""
        return self._deduction

    @property
    def over(self) -> bool:
        return self._deduction.belief.timeline.over

    def enter(self, text: str) -> Entry:
        """Record one entry; a :class:`SleuthError` naming it leaves the table unchanged."""
        entry = self._parse(text)
        events = [*self.events, *entry.events]
        try:
            deduction = self._deduce(events)
        except ContradictionError:
            raise SleuthError(
                f"{entry.text!r}: no game is consistent with this and the entries before it "
                "(check the numbers; 'undo' takes back earlier entries)"
            ) from None
        turns = PublicTurns(self.game, events[len(SETUP_EVENTS) :])
        if turns.round_limit_reached:  # the engine ends the game: no entry says so
            entry = Entry(entry.text, (*entry.events, _over("max_rounds", None)))
            events.append(entry.events[-1])
            deduction = self._deduce(events)  # game_over changes no count
        self._replay(events, deduction)
        self.entries.append(entry)
        self._deduction, self._turns = deduction, turns
        return entry

    def undo(self) -> Entry:
        """Take back the last entry (a :class:`SleuthError` when there is none)."""
        if not self.entries:
            raise SleuthError("nothing to undo")
        last = self.entries.pop()
        events = self.events
        self._deduction = self._deduce(events)
        self._turns = PublicTurns(self.game, events[len(SETUP_EVENTS) :])
        return last

    def _deduce(self, events: list[Event]) -> Deduction:
        """The exact deduction, or the relaxed one when it is too big."""
        # beyond MAX_STATES states the table falls back on the relaxed belief, and the engine's
        # replay waits until a later entry makes the exact belief small again
        deduction = Deduction.within(events, self.game.manhunt_threshold, MAX_STATES, self.model)
        if deduction is None:
            raise SolverLimitError("the deduction is too big even for the relaxed belief")
        return deduction

    # --- checking ---------------------------------------------------------------------------

    def _replay(self, events: list[Event], deduction: Deduction) -> None:
        """Refuse the last entry unless a concrete game consistent with ``events``, replayed
        by the rules engine, shows exactly ``events``; skipped when only the relaxed belief is
        available (it cannot sample worlds).

        A sampled world may break a rule the belief does not model (F14's dead-end check on
        the first opening hideout), so several are tried before the last entry is refused."""
        if not deduction.exact:
            return
        problem = view_problem(self.game, events, deduction.belief, self._rng)
        if problem is not None:
            raise SleuthError(f"{_last_entry(events)}: {problem[1]}")

    # --- parsing ----------------------------------------------------------------------------

    def _parse(self, text: str) -> Entry:
        text = _GUESSED_NUMBERS.sub(  # "guess 12, 15 hit": those commas only list numbers
            lambda m: m[1].replace(",", " ") + m[2], text.lower(), count=1
        )
        parts = [p.split() for p in text.replace(",", ";").split(";")]
        words, details = parts[0], [p for p in parts[1:] if p]
        if not words:
            raise SleuthError("empty entry (type 'help' for the forms)")
        if self.over:
            raise SleuthError(f"{text.strip()!r}: the game is over ('undo' takes entries back)")
        if details and words[0] != "guess":
            raise SleuthError(f"{text.strip()!r}: only a guess takes '; ...' details")
        head = words[0]
        if head == "draw":
            return self._marshal_draw(words)
        if head in ("fugitive", "f", "he") or (head == "draws" and len(words) == 2):
            return self._fugitive_draw(words)
        if head in ("hideout", "h", str(LAST)):
            return self._placement(words)
        if words == ["pass"]:
            if self._turns.phase is Phase.OPENING and self._turns.opening_placed == 0:
                raise SleuthError("'pass': the Fugitive must place his first hideout (F13)")
            if self._turns.phase is Phase.OPENING and not _may_stop_opening(self._turns):
                raise SleuthError(
                    "'pass': the Fugitive places exactly two opening hideouts (F13, F14; "
                    "opening=one_or_two lets him stop after one)"
                )
            return self._single("pass", Event("passed", {}), Phase.FUGITIVE_PLACE, Phase.OPENING)
        if words == ["skip"]:
            if not self.game.marshal_may_skip and self._turns.phase is Phase.MARSHAL_GUESS:
                raise SleuthError("'skip': this game has marshal_may_skip off: you must guess")
            return self._single("skip", Event("skipped", {}), Phase.MARSHAL_GUESS)
        if words == ["no", "bonus"]:
            return self._single("no bonus", Event("declined_bonus", {}), Phase.BONUS)
        if words == ["bonus"]:
            return self._bonus()
        if head == "guess":
            return self._guess(words, details)
        raise SleuthError(f"{text.strip()!r}: not an entry; the forms are:\n{ENTRY_HELP}")

    def _turn(self, text: str, seat: int, *phases: Phase, draw: bool = False) -> None:
        """Refuse ``text`` unless ``seat`` is to move in one of ``phases`` (a draw or not)."""
        turns = self._turns
        if turns.mover() == seat and turns.phase in phases and turns.expects_draw() == draw:
            return
        raise SleuthError(f"{text!r}: not now; {_expected(turns)}")

    def _marshal_draw(self, words: list[str]) -> Entry:
        pile, card = _numbers(words[1:], "draw PILE CARD", 2, repr(" ".join(words)))
        text = f"draw {pile} {card}"
        if pile not in (1, 2, 3):
            raise SleuthError(f"{text!r}: the piles are 1, 2 and 3")
        if not 0 < card <= LAST or PILE_OF[card] != pile:
            low, high = PILES[pile - 1][0], PILES[pile - 1][-1]
            raise SleuthError(f"{text!r}: card {card} is not in pile {pile} ({low}-{high})")
        if card in self._deduction.belief.timeline.marshal_cards:
            raise SleuthError(f"{text!r}: you already drew {card}")
        self._turn(text, MARSHAL, Phase.MARSHAL_DRAW, draw=True)
        self._nonempty(text, pile)
        return _draw_entry(text, MARSHAL, pile, card=card)

    def _fugitive_draw(self, words: list[str]) -> Entry:
        rest = [w for w in words[1:] if w not in ("draw", "draws", "drew")]
        (pile,) = _numbers(rest, "fugitive draw PILE", 1, repr(" ".join(words)))
        text = f"fugitive draw {pile}"
        if pile not in (1, 2, 3):
            raise SleuthError(f"{text!r}: the piles are 1, 2 and 3")
        self._turn(text, FUGITIVE, Phase.FUGITIVE_DRAW, draw=True)
        self._nonempty(text, pile)
        return _draw_entry(text, FUGITIVE, pile)

    def _nonempty(self, text: str, pile: int) -> None:
        """Refuse a draw from an empty pile."""
        if not self._turns.piles[pile - 1]:
            left = [str(p) for p in (1, 2, 3) if self._turns.piles[p - 1]]
            raise SleuthError(f"{text!r}: pile {pile} is empty (cards left in: {', '.join(left)})")

    def _bonus(self) -> Entry:
        self._turn("bonus", FUGITIVE, Phase.BONUS)
        # a bonus turn comes only while some pile has cards (F17)
        pile = next(p for p in (1, 2, 3) if self._turns.piles[p - 1])
        return _draw_entry("bonus", FUGITIVE, pile, bonus=True)

    def _single(self, text: str, event: Event, *phases: Phase) -> Entry:
        seat = MARSHAL if event.kind == "skipped" else FUGITIVE
        self._turn(text, seat, *phases)
        return Entry(text, (event,))

    def _placement(self, words: list[str]) -> Entry:
        is_last = words[0] == str(LAST)
        rest = [w for w in words[1:] if w not in ("sprint", "sprints", "with")]
        form = f"{words[0]} SPRINTS"
        (sprints,) = _numbers(rest, form, 1, repr(" ".join(words))) if rest else (0,)
        text = ("42" if is_last else "hideout") + (f" {sprints}" if sprints else "")
        self._turn(text, FUGITIVE, Phase.OPENING, Phase.FUGITIVE_PLACE)
        position = len(self._deduction.belief.timeline.slots) + 1
        public: dict[str, object] = {"position": position, "sprints": sprints}
        if is_last:
            public["value"] = LAST
        events = [Event("placed", public, None, FUGITIVE_ONLY)]
        if is_last:
            events += self._after_42()
        return Entry(text, tuple(events))

    def _after_42(self) -> list[Event]:
        """F26-F27: escape at once, or the Manhunt (won at once if nothing is face down)."""
        slots = self._deduction.belief.timeline.slots
        highest = max((s.value for s in slots if s.value is not None), default=0)
        if highest >= self.game.manhunt_threshold:
            return [_over("escape_no_manhunt", FUGITIVE)]
        events = [Event("manhunt", {"highest": highest})]
        if all(s.value is not None for s in slots):
            events.append(_over("manhunt_success", MARSHAL))
        return events

    def _guess(self, words: list[str], details: list[list[str]]) -> Entry:
        if len(words) < 3 or words[-1] not in ("hit", "miss"):
            named = " ".join(words[1:]) or "12 15"
            raise SleuthError(
                f"{' '.join(words)!r}: write 'guess {named} hit' or 'guess {named} miss'"
            )
        numbers = _numbers(words[1:-1], "guess NUMBERS hit|miss", None, repr(" ".join(words)))
        hit = words[-1] == "hit"
        shown = "guess " + " ".join(map(str, numbers)) + (" hit" if hit else " miss")
        timeline = self._deduction.belief.timeline
        self._turn(shown, MARSHAL, Phase.MARSHAL_GUESS, Phase.MANHUNT)
        if len(set(numbers)) != len(numbers):
            raise SleuthError(f"{shown!r}: a number is repeated")
        if timeline.manhunt and len(numbers) != 1:
            raise SleuthError(f"{shown!r}: in the Manhunt you name one number at a time")
        outside = [n for n in numbers if not 1 <= n < LAST]
        if outside:
            raise SleuthError(f"{shown!r}: only 1-41 can be named, not {_listed(outside)}")
        guessable = set(self._deduction.guessable())
        bad = [n for n in numbers if n not in guessable]
        if bad:
            raise SleuthError(f"{shown!r}: {_listed(bad)} cannot be named (face up)")
        events = [Event("guessed", {"numbers": tuple(sorted(numbers)), "hit": hit})]
        if not hit:
            if details:
                raise SleuthError(f"{shown!r}: a miss reveals nothing, so takes no details")
            if timeline.manhunt:
                events.append(_over("manhunt_failed", FUGITIVE))
            return Entry(shown, tuple(events))
        reveals = self._reveals(shown, sorted(numbers), details)
        clauses = []
        for number, (position, stack) in sorted(reveals.items(), key=lambda kv: kv[1][0]):
            events.append(
                Event("revealed", {"position": position, "value": number, "sprints": stack})
            )
            cards = " sprint " + " ".join(map(str, stack)) if stack else ""
            clauses.append(f"{number} at {position}{cards}")
        face_down = sum(1 for s in timeline.slots if s.value is None)
        if face_down == len(numbers):
            reason = "manhunt_success" if timeline.manhunt else "marshal_uncovered_route"
            events.append(_over(reason, MARSHAL))
        return Entry("; ".join([shown, *clauses]), tuple(events))

    def _reveals(
        self, shown: str, numbers: list[int], details: list[list[str]]
    ) -> dict[int, tuple[int, tuple[int, ...]]]:
        """Each hit number's position and sprint cards, from the details or deduced."""
        given: dict[int, tuple[int | None, tuple[int, ...] | None]] = {}
        for words in details:  # one number's clauses merge: '3 at 2; 3 sprint 4' is '3 at 2 ...'
            number, position, stack = _reveal_clause(shown, words)
            if number not in numbers:
                raise SleuthError(f"{shown!r}: {number} was not named")
            had_position, had_stack = given.get(number, (None, None))
            if (position and had_position) or (stack is not None and had_stack is not None):
                raise SleuthError(
                    f"{shown!r}: {number} is described twice "
                    f"(write one clause: '; {number} at POSITION sprint CARDS')"
                )
            given[number] = (position or had_position, had_stack if stack is None else stack)
        slots = {s.position: s for s in self._deduction.belief.timeline.slots}
        positions = self._positions(shown, numbers, given)
        out: dict[int, tuple[int, tuple[int, ...]]] = {}
        for number, position in zip(numbers, positions, strict=True):
            slot = slots.get(position)
            if slot is None or slot.value is not None:
                raise SleuthError(f"{shown!r}: position {position} is not a face-down hideout")
            stack = given.get(number, (None, None))[1]
            if stack is None:
                if slot.sprints:
                    suggestion = _with_clause(shown, given, number, position, "CARDS")
                    numbers_for = "number" if slot.sprints == 1 else "numbers"
                    raise SleuthError(
                        f"{shown!r}: {number} at {position} has {_sprint_cards(slot.sprints)}: "
                        f"write '{suggestion}' with the card {numbers_for} for CARDS"
                    )
                stack = ()
            outside = [card for card in stack if not 1 <= card < LAST]
            if outside:
                raise SleuthError(
                    f"{shown!r}: sprint cards are 1-41, not {_listed(sorted(set(outside)))}"
                )
            repeated = next((card for card in stack if stack.count(card) > 1), None)
            if repeated is not None:
                raise SleuthError(f"{shown!r}: sprint card {repeated} is named twice")
            mine = sorted(set(stack) & self._deduction.belief.timeline.marshal_cards)
            if mine:
                raise SleuthError(f"{shown!r}: {', '.join(map(str, mine))} is in your hand")
            if number in stack:
                raise SleuthError(f"{shown!r}: {number} cannot be its own sprint card")
            if len(stack) != slot.sprints:
                raise SleuthError(
                    f"{shown!r}: position {position} has {_sprint_cards(slot.sprints)}, "
                    f"not {len(stack)}"
                )
            out[number] = (position, tuple(sorted(stack)))
        return out

    def _positions(
        self, shown: str, numbers: list[int], details: dict[int, tuple[int | None, Stack | None]]
    ) -> list[int]:
        """The positions of the hit ``numbers`` (increasing): the given ones, the others
        deduced when exactly one assignment fits (hideouts rise along the route, and each
        number must be possible at its position).  When several fit, the error suggests
        each whole entry that names the first unsure number's position."""
        given = {n: p for n, (p, _) in details.items() if p}
        candidates = self._deduction.counts.candidates()
        options = [
            [given[n]] if n in given else [p for p, vs in candidates.items() if n in vs]
            for n in numbers
        ]
        fits = _assignments(options, 2)
        if len(fits) == 1:
            return list(fits[0])
        unsure = next(
            (n for n, o in zip(numbers, options, strict=True) if len(o) > 1 and n not in given),
            numbers[0],
        )
        if not fits:
            nowhere = [n for n, o in zip(numbers, options, strict=True) if not o]
            if nowhere:
                raise SleuthError(
                    f"{shown!r}: {_listed(nowhere)} cannot be a face-down hideout "
                    "(check 'Not hideouts now' in the notepad)"
                )
            where = " or ".join(map(str, options[numbers.index(unsure)]))
            raise SleuthError(f"{shown!r}: {unsure} fits {where}, but not with the others")
        index = numbers.index(unsure)
        places = [  # the positions of ``unsure`` with which the others fit
            p
            for p in options[index]
            if _assignments([*options[:index], [p], *options[index + 1 :]], 1)
        ]
        sprints = {s.position: s.sprints for s in self._deduction.belief.timeline.slots}
        stack = details.get(unsure, (None, None))[1]
        suggestions = [
            _with_clause(shown, details, unsure, p, "CARDS" if sprints[p] and stack is None else "")
            for p in places
        ]
        cards = (
            " (CARDS: the sprint cards under it)" if any("CARDS" in t for t in suggestions) else ""
        )
        raise SleuthError(
            f"{shown!r}: {unsure} could be at {' or '.join(map(str, places))}: write "
            + " or ".join(f"'{t}'" for t in suggestions)
            + cards
        )


Stack = tuple[int, ...]
"""The sprint cards under a hideout."""


def _assignments(options: list[list[int]], limit: int) -> list[tuple[int, ...]]:
    """Up to ``limit`` increasing choices of one position from each of ``options``."""
    fits: list[tuple[int, ...]] = []

    def extend(chosen: tuple[int, ...]) -> None:
        if len(fits) >= limit:
            return
        if len(chosen) == len(options):
            fits.append(chosen)
            return
        for p in options[len(chosen)]:
            if not chosen or p > chosen[-1]:
                extend((*chosen, p))

    extend(())
    return fits


def _with_clause(
    shown: str,
    details: dict[int, tuple[int | None, Stack | None]],
    number: int,
    position: int,
    cards: str,
) -> str:
    """The entry ``shown`` with its details and ``number``'s clause completed: at
    ``position``, on its given sprint cards or else on ``cards`` (a placeholder, or none)."""
    clauses = dict(details)
    stack = clauses.get(number, (None, None))[1]
    clauses[number] = (position, stack)
    parts = [shown]
    for n, (at, under) in clauses.items():
        sprint = " ".join(map(str, under)) if under else (cards if n == number else "")
        parts.append(f"{n}" + (f" at {at}" if at else "") + (f" sprint {sprint}" if sprint else ""))
    return "; ".join(parts)


def _listed(numbers: Sequence[int]) -> str:
    return ", ".join(map(str, numbers))


def _reveal_clause(shown: str, words: list[str]) -> tuple[int, int | None, tuple[int, ...] | None]:
    """``12 at 3 sprint 4 6`` → (12, 3, (4, 6)); position and sprint cards are optional."""
    form = "'; NUMBER at POSITION sprint CARDS' (position and sprint cards optional)"
    if not words or not (words[0].isascii() and words[0].isdigit()):
        raise SleuthError(f"{shown!r}: after the guess, write {form}")
    clause = " ".join(words)
    culprit = f"{shown!r}: {clause!r}"
    number, rest = whole_number(words[0]), words[1:]
    position: int | None = None
    stack: tuple[int, ...] | None = None
    if rest[:1] == ["at"]:
        (position,) = _numbers(rest[1:2], form, 1, culprit)
        if position == 0:
            raise SleuthError(f"{culprit}: positions count from 1 (0 is the start)")
        rest = rest[2:]
    if rest[:1] == ["sprint"] or rest[:1] == ["sprints"]:
        stack = _numbers(rest[1:], form, None, culprit)
        rest = []
    if rest:
        raise SleuthError(f"{culprit}: write {form}")
    return number, position, stack


def _numbers(words: Sequence[str], form: str, count: int | None, culprit: str) -> tuple[int, ...]:
    """The whole numbers ``words`` (``count`` of them, or any number); otherwise an error
    that starts with ``culprit`` (the entry, quoted) and shows ``form``."""
    if not words or not all(w.isascii() and w.isdigit() for w in words):
        raise SleuthError(f"{culprit}: expected numbers: {form}")
    if count is not None and len(words) != count:
        expected = "1 number" if count == 1 else f"{count} numbers"
        raise SleuthError(f"{culprit}: expected {expected}: {form}")
    return tuple(whole_number(w) for w in words)


def _sprint_cards(count: int) -> str:
    """``1 sprint card``, ``2 sprint cards``."""
    return f"{count} sprint card" + ("" if count == 1 else "s")


def _draw_entry(
    text: str, seat: int, pile: int, bonus: bool = False, card: int | None = None
) -> Entry:
    """A pile choice and its draw, as the Marshal sees them (the card only when hers)."""
    public = {"seat": seat, "pile": pile, "bonus": bonus}
    drew = (
        Event("drew", dict(public), {"card": card}, frozenset((MARSHAL,)))
        if card is not None
        else Event("drew", dict(public), None, FUGITIVE_ONLY)
    )
    return Entry(text, (Event("chose_pile", dict(public)), drew))


def _over(reason: str, winner: int | None) -> Event:
    return Event("game_over", {"reason": reason, "winner": winner})


def _expected(turns: PublicTurns) -> str:
    """What the game waits for, in the entry forms."""
    if turns.over:
        return "the game is over"
    if turns.expects_draw() and turns.mover() == MARSHAL:
        return "you draw ('draw PILE CARD')"
    if turns.expects_draw():
        return "the Fugitive draws ('fugitive draw PILE')"
    if turns.phase is Phase.OPENING and turns.opening_placed and _may_stop_opening(turns):
        return (
            "the Fugitive places his second opening hideout or passes ('hideout SPRINTS', 'pass')"
        )
    return {
        Phase.OPENING: "the Fugitive places his opening hideouts ('hideout SPRINTS')",
        Phase.FUGITIVE_PLACE: "the Fugitive places a hideout or passes ('hideout SPRINTS', "
        "'42 SPRINTS', 'pass')",
        Phase.BONUS: "the Fugitive takes the bonus draw or not ('bonus', 'no bonus')",
        Phase.MARSHAL_GUESS: "you guess ('guess NUMBERS hit|miss'"
        + (", 'skip')" if turns.game.marshal_may_skip else "; this game has no 'skip')"),
        Phase.MANHUNT: "you name one number ('guess NUMBER hit|miss')",
    }.get(turns.phase, turns.phase.value)


def _may_stop_opening(turns: PublicTurns) -> bool:
    """Whether the Fugitive may pass after one opening hideout: the rules let him stop
    (opening=one_or_two), or a dead end may (no dead-end check)."""
    return turns.game.opening != "exactly_2" or not turns.game.dead_end_check


def _last_entry(events: list[Event]) -> str:
    texts = entry_texts(events)
    return repr(texts[-1]) if texts else "the setup"


def entry_texts(events: Sequence[Event]) -> list[str]:
    """The entries that produce a Marshal's view ``events`` (after the setup draws); an event
    whose fields cannot be read is an :class:`~sleuth.core.viewlog.EventFieldError`."""
    return [text for _, text in entry_sources(events)]


def entry_sources(events: Sequence[Event]) -> list[tuple[int, str]]:
    """:func:`entry_texts`, each with the index of the event that completes it."""
    out: list[tuple[int, str]] = []
    pending: dict[str, object] | None = None
    for index, event in enumerate(events[len(SETUP_EVENTS) :], start=len(SETUP_EVENTS)):
        with event_fields(index, event):
            public = event.public
            if event.kind == "chose_pile":
                pending = dict(public)
            elif event.kind == "drew" and pending is not None:
                if pending["bonus"]:
                    out.append((index, "bonus"))
                elif public["seat"] == MARSHAL and event.private is not None:
                    out.append((index, f"draw {public['pile']} {event.private['card']}"))
                else:
                    out.append((index, f"fugitive draw {public['pile']}"))
                pending = None
            elif event.kind == "placed":
                head = "42" if public.get("value") == LAST else "hideout"
                out.append((index, head + (f" {public['sprints']}" if public["sprints"] else "")))
            elif event.kind in ("passed", "skipped", "declined_bonus"):
                text = {"passed": "pass", "skipped": "skip"}.get(event.kind, "no bonus")
                out.append((index, text))
            elif event.kind == "guessed":
                numbers = " ".join(map(str, public["numbers"]))
                out.append((index, f"guess {numbers} {'hit' if public['hit'] else 'miss'}"))
            elif event.kind == "revealed":
                stack = public["sprints"]
                clause = f"{public['value']} at {public['position']}"
                sprint = " sprint " + " ".join(map(str, stack)) if stack else ""
                out[-1] = (out[-1][0], f"{out[-1][1]}; {clause}{sprint}")
    return out
