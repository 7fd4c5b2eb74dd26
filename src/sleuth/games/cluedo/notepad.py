"""What one player at a real Cluedo table knows, entry by entry: the state behind the notepad
(``sleuth assist cluedo``).

A :class:`Notepad` takes the entries the player types (:data:`ENTRY_FORMS`): first the setup
(seats clockwise, whose seat is "me", the dealer, hand sizes, face-up cards, my hand), then
what happens (suggestions and their answers, accusations, where my token is and my rolls).
Names are typo-tolerant (:mod:`.fuzzy`).  Each entry becomes events of the player's view of
the game, as the engine would show them to that seat (``setup`` with the seat names added,
``hand``, ``suggested``, ``passed``, ``refuted``, ``unrefuted``, ``accused``, ``game_over``,
``moved``, ``rolled``), read by an exact :class:`~.deduction.CluedoBelief`.  There is no
entry for the end of a turn, and no ``ended`` event: it teaches the deduction nothing, and the
next entry shows that a new turn began (the notepad's view leaves out the others' rolls and
moves, and their ends of turns with them).

An answer may skip the seats before it: ``Dan shows`` after ``Bob suggests ...`` means that
every seat between Bob and Dan passed (the answers go clockwise).  The last pass, or
``nobody``, ends the suggestion unrefuted.

An entry that the rules or the facts refuse raises a :class:`~sleuth.core.errors.SleuthError`
naming it (and, when the facts contradict each other, a minimal set of earlier entries that
contradict it: :mod:`.proofs` over the SAT view of :mod:`.sat`); :meth:`Notepad.play` may
leave the notepad half changed then, so callers play on a :meth:`Notepad.copy`.

Invariants between entries: ``events[i]`` came from entry ``sources[i]`` (from 1); the belief
has read every event; ``asking`` is the suggestion still waiting for answers, if any; the
events from the ``setup`` on exist only once the setup is complete (``hand`` entered).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from sleuth.core.errors import ContradictionError, SleuthError
from sleuth.core.events import Event
from sleuth.core.numbers import whole_number
from sleuth.games.cluedo.advice import Turn
from sleuth.games.cluedo.cards import (
    CARD_COUNT,
    EDITIONS,
    SUSPECTS,
    Category,
    category,
    names_of,
)
from sleuth.games.cluedo.deal import DEALT, hand_sizes
from sleuth.games.cluedo.deduction.belief import CluedoBelief
from sleuth.games.cluedo.deduction.counting import Posterior
from sleuth.games.cluedo.fuzzy import Ambiguous, Match, Unknown, Vocabulary, segment
from sleuth.games.cluedo.movement import AtStart, InRoom, Position
from sleuth.games.cluedo.rules import MAX_PLAYERS, MIN_PLAYERS, CluedoGame

ENTRY_FORMS = """\
players Ann, Bob, Cy, Dan     the seats clockwise (or 'players 4': named by their suspects)
me Ann                        which seat is yours
dealer Dan                    who dealt (default: the last seat; it sets the hand sizes)
sizes 5, 5, 4, 4              hand sizes, clockwise (default: by the dealer, C7)
face up Rope, Study           the cards left face up (with -o leftover=face_up)
hand Plum, Knife, Hall        your cards: the setup is complete
Bob suggests Plum Knife Hall  a suggestion (any order; 'I suggest ...' for yours)
Cy passes                     Cy holds none of the three
Dan shows                     Dan showed a card to the suggester (the seats before passed)
Dan shows me Rope             ... to you: the card you saw
I show Knife                  you showed a card (to the suggester)
nobody                        nobody could show a card
Bob accuses Plum Knife Hall wrong    an accusation and its verdict (wrong or right)
I accuse Plum Knife Hall wrong, envelope Green Rope Study   ... yours, and what you saw
envelope Green Rope Study     the game ended unsolved and the envelope was opened
I am in Hall                  where your token is ('I am at start'): the advice uses it
I rolled 7                    your roll: the advice marks the rooms it reaches"""

SETUP_WORDS = ("players", "me", "dealer", "sizes", "face", "hand")
SUGGEST = frozenset(("suggest", "suggests", "suggested", "ask", "asks", "asked"))
PASS = frozenset(("pass", "passes", "passed"))
SHOW = frozenset(("show", "shows", "showed", "shown", "refute", "refutes", "refuted"))
ACCUSE = frozenset(("accuse", "accuses", "accused"))
BE = frozenset(("am", "is"))
ROLL = frozenset(("roll", "rolls", "rolled", "throw", "threw"))
VERBS = SUGGEST | PASS | SHOW | ACCUSE | BE | ROLL
NOBODY = frozenset(("nobody", "none", "noone"))
MYSELF = frozenset(("i", "me", "myself", "you"))
WRONG = frozenset(("wrong", "incorrect", "false", "no", "fails", "failed"))
RIGHT = frozenset(("right", "correct", "true", "yes", "wins", "won"))
DETERMINERS = frozenset(("a", "one", "card", "the"))

CARD_NAMES = {
    edition.name: Vocabulary(
        [(name, card) for card in range(CARD_COUNT) for name in names_of(card)],
        edition.display,
        "card",
    )
    for edition in EDITIONS.values()
}
"""Every edition's names of every card (any edition's name is read in any game), by edition:
what a message lists is the edition's own names."""


def words_of(text: str) -> list[str]:
    """The lower-case words of an entry, a comma a word of its own."""
    text = text.lower().replace("i'm", "i am").replace(",", " , ").replace(":", " ")
    return [w.strip(".!?;") for w in text.split() if w.strip(".!?;")]


class ImpossibleEntry(SleuthError):
    """An entry that no deal fits together with the earlier ``entries`` (numbers from 1, a
    smallest such set); the session that keeps the entries' texts quotes them."""

    def __init__(self, entries: list[int], texts: list[str] | None = None) -> None:
        self.entries = entries
        named = [f"entry {n}" + ("" if texts is None else f" ({texts[n - 1]})") for n in entries]
        super().__init__("impossible: no deal fits this entry together with " + _and(named))


@dataclass(frozen=True)
class Asking:
    """A suggestion waiting for its answers: who made it, its three cards (suspect, weapon,
    room), and the seats still to answer, in order."""

    suggester: int
    cards: tuple[int, int, int]
    waiting: tuple[int, ...]


class Notepad:
    """One player's facts at a real table (see the module docstring)."""

    def __init__(self, game: CluedoGame) -> None:
        self.base = game
        """The game of the ``-o`` options: edition, dice, leftover, accusation rule."""
        self.game = game
        """The game of the seats entered (``base`` until then)."""
        self.names: tuple[str, ...] = ()
        self._seats = Vocabulary([], (), "player")
        self._typed = ""
        """The entry being played, as typed (seat names keep their case)."""
        self.me: int | None = None
        self.dealer: int | None = None
        """The dealer if entered (else the game's default)."""
        self.sizes: tuple[int, ...] | None = None
        """The hand sizes if entered (else the dealer's defaults)."""
        self.face_up: tuple[int, ...] | None = None
        self.hand: tuple[int, ...] | None = None
        self.entries = 0
        self.events: list[Event] = []
        self.sources: list[int] = []
        self.belief: CluedoBelief | None = None
        self.asking: Asking | None = None
        self.eliminated: set[int] = set()
        self.shown: dict[int, frozenset[int]] = {}
        """Seat -> the cards I have shown that seat."""
        self.position: Position | None = None
        """My token's place: the room or start entered, the room of my suggestion, or the room
        another's suggestion of my suspect moved it to (C18); None until one of these."""
        self.roll: int | None = None
        """My roll since my token's place was last entered."""
        self.entered = False
        """My token entered its room by the latest entry about it (``I am in ROOM``): I may
        suggest there now."""
        self.summoner: int | None = None
        """The seat whose suggestion moved my token since my last entry about it (I may
        stay), else None."""
        self.turn_of: int | None = None
        """The seat whose turn the latest entry of a turn belongs to: a suggestion's or an
        accusation's seat, mine for my roll or my token's place; None before any (the
        advice then speaks of "this turn" only when it is mine)."""
        self.entropy: list[tuple[int, float]] = []
        """(entry number, the envelope's entropy after it) for each entry since the setup."""
        self.winner: int | None = None
        self.over = False
        self.cache: dict[str, object] = {}
        """What the display computed from this state (its advice); a copy starts empty."""

    def copy(self) -> Notepad:
        """An independent notepad in the same state (the belief's posterior is shared: it is
        read-only)."""
        twin = copy.copy(self)
        twin.events = list(self.events)
        twin.sources = list(self.sources)
        twin.belief = copy.copy(self.belief)
        twin.eliminated = set(self.eliminated)
        twin.shown = dict(self.shown)
        twin.entropy = list(self.entropy)
        twin.cache = {}
        return twin

    # --- what is known ---------------------------------------------------------------------

    @property
    def edition_names(self) -> tuple[str, ...]:
        return self.base.edition.display

    def card_name(self, card: int) -> str:
        return self.edition_names[card]

    @property
    def card_names(self) -> Vocabulary:
        """The names a card is typed by, shown in this game's edition."""
        return CARD_NAMES[self.base.edition.name]

    def cards_text(self, cards: tuple[int, ...] | list[int]) -> str:
        return ", ".join(self.card_name(c) for c in cards)

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def started(self) -> bool:
        """True once the setup is complete (the deduction runs)."""
        return self.belief is not None

    @property
    def posterior(self) -> Posterior:
        if self.belief is None:
            raise SleuthError("the setup is not complete: enter your hand first")
        return self.belief.posterior

    def seat_name(self, seat: int) -> str:
        return self.names[seat]

    def who(self, seat: int) -> str:
        """A seat as the subject of a sentence: ``I`` for mine."""
        return "I" if seat == self.me else self.names[seat]

    def turn(self) -> Turn | None:
        """Where my turn stands (None until my token's place is known): heading for a room
        after my roll; acting in a room just entered (I may suggest there); else at the start
        of a turn, free to stay when summoned."""
        if self.position is None:
            return None
        if self.roll is not None:
            return Turn(self.position, "head", roll=self.roll)
        if self.entered:
            return Turn(self.position, "act", may_suggest=True)
        return Turn(self.position, "move", may_stay=self.summoner is not None)

    @property
    def dealer_seat(self) -> int:
        n = self.players
        return self.dealer if self.dealer is not None else n - 1

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        if self.sizes is not None:
            return self.sizes
        face_up = self.base.leftover == "face_up" or bool(self.face_up)
        return hand_sizes(self.players, self.dealer_seat, face_up)

    @property
    def face_up_count(self) -> int:
        """How many cards lie face up (C8): the leftovers with ``leftover=face_up``, else
        those entered (none by default)."""
        if self.face_up is not None:
            return len(self.face_up)
        if self.sizes is not None:
            return DEALT - sum(self.sizes)
        return DEALT % self.players if self.base.leftover == "face_up" else 0

    def awaiting(self) -> str | None:
        """The setup entry still needed, or None once the setup is complete."""
        if not self.names:
            return "players"
        if self.me is None:
            return "me"
        if self.face_up is None and self.face_up_count:
            return "face"
        if self.hand is None:
            return "hand"
        return None

    # --- entries ---------------------------------------------------------------------------

    def play(self, text: str) -> str:
        """Take in one entry; return its canonical text (see the module docstring)."""
        words = words_of(text)
        self._typed = text.strip()
        if not words:
            raise SleuthError("an empty entry (type 'help' for the forms)")
        if self.over:
            raise SleuthError(f"{text.strip()!r}: the game is over ('undo' takes entries back)")
        number = self.entries + 1
        head = words[0]
        if head == "why":
            raise SleuthError("'why CARD' explains a card: name it, e.g. 'why rope'")
        if words[:2] == ["face", "up"] or head in ("faceup", "face-up"):
            words = ["face", *words[2 if head == "face" else 1 :]]
            head = "face"
        awaited = self.awaiting()
        if head in SETUP_WORDS and not (len(words) > 1 and words[1] in VERBS):
            canonical = self._setup(head, words[1:])
        elif awaited is not None:
            if any(w in VERBS for w in words) or words[0] in NOBODY:
                raise SleuthError(f"{text.strip()!r}: {self.setup_prompt()}")
            canonical = self._setup(awaited, words)  # the bare answer to the question asked
        else:
            canonical = self._event_entry(words, text.strip())
        self.entries = number
        if self.belief is not None and self.sources and self.sources[-1] == number:
            self.entropy.append((number, self.belief.posterior.entropy()))
        return canonical

    def setup_prompt(self) -> str:
        """The question of the setup entry still needed."""
        awaited = self.awaiting()
        if awaited == "players":
            return "who plays? Name the seats clockwise: 'players Ann, Bob, Cy'"
        if awaited == "me":
            return f"which seat is yours? 'me NAME' ({', '.join(self.names)})"
        if awaited == "face":
            return f"which {self.face_up_count} cards lie face up? 'face up CARD, CARD'"
        if awaited == "hand":
            size = self.hand_sizes[self.me or 0]
            return f"which {size} cards are in your hand? 'hand CARD, CARD, ...'"
        return "the setup is complete"

    # --- the setup --------------------------------------------------------------------------

    def _setup(self, head: str, words: list[str]) -> str:
        if self.started:
            where = next(n for n, s in zip(self.sources, self.events, strict=True)
                         if s.kind == "setup")  # fmt: skip
            raise SleuthError(
                f"the setup was complete at entry {where}: 'edit N ...' changes a setup entry"
            )
        if head != "players" and not self.names:
            raise SleuthError(f"first name the seats: {self.setup_prompt()}")
        canonical = getattr(self, f"_set_{head}")(words)
        assert isinstance(canonical, str)
        if self.awaiting() is None:
            self._start()
        return canonical

    def _set_players(self, words: list[str]) -> str:
        if self.names:
            raise SleuthError("the seats are named already: 'edit N' changes them")
        text = self._typed
        if text.lower().startswith("players"):
            text = text[len("players") :]
        if len(words) == 1 and words[0].isascii() and words[0].isdigit():
            n = whole_number(words[0])
            self._check_count(n)
            played = self.base.suspects if self.base.players == n else SUSPECTS[:n]
            names = tuple(self.card_name(s).split()[-1] for s in played)  # Scarlett in the UK
        else:
            names = tuple(_capital(" ".join(n.split())) for n in text.split(",") if n.strip())
            if len(names) == 1:
                names = tuple(_capital(n) for n in text.split())
            self._check_count(len(names))
            keys = {n.lower() for n in names}
            if len(keys) < len(names):
                raise SleuthError(f"'players {text.strip()}': two seats have the same name")
            if keys & (MYSELF | NOBODY | VERBS):
                bad = sorted(keys & (MYSELF | NOBODY | VERBS))[0]
                raise SleuthError(
                    f"'players {text.strip()}': {bad!r} cannot name a seat (a word of the entries)"
                )
        self.names = names
        options: dict[str, Any] = {
            "players": len(names),
            "leftover": self.base.leftover,
            "dice": self.base.dice,
            "accuse_at": self.base.accuse_at,
            "allow_retarget": self.base.allow_retarget,
            "edition": self.base.edition.name,
            "max_turns": self.base.max_turns,
        }
        base = self.base
        if base.players == len(names):
            options.update(suspects=base.suspects, dealer=base.dealer)
            self.dealer = base.dealer if base.dealer != len(names) - 1 else None
        else:  # the seats' options, if given, were given for another number of seats
            given = [name for name, default in (("suspects", tuple(SUSPECTS[: base.players])),
                                                ("dealer", base.players - 1))
                     if getattr(base, name) != default]  # fmt: skip
            if given:
                raise SleuthError(
                    f"the option {given[0]} was given for {base.players} seats, but "
                    f"{len(names)} are named: add -o players={len(names)}"
                )
        self.game = CluedoGame(**options)
        self._seats = Vocabulary([(name, seat) for seat, name in enumerate(names)], names, "player")
        return "players " + ", ".join(names)

    @staticmethod
    def _check_count(n: int) -> None:
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise SleuthError(f"{n} seats: Cluedo is for {MIN_PLAYERS} to {MAX_PLAYERS} players")

    def _set_me(self, words: list[str]) -> str:
        self.me = self._seat_named(words, allow_me=False)
        return f"me {self.names[self.me]}"

    def _set_dealer(self, words: list[str]) -> str:
        self.dealer = self._seat_named(words)
        self._rebuild()
        return f"dealer {self.names[self.dealer]}"

    def _set_sizes(self, words: list[str]) -> str:
        numbers = [w for w in words if w != ","]
        if not all(w.isascii() and w.isdigit() for w in numbers) or len(numbers) != self.players:
            raise SleuthError(
                f"'sizes {', '.join(numbers)}': {self.players} hand sizes, clockwise from "
                f"{self.names[0]}"
            )
        sizes = tuple(whole_number(w) for w in numbers)
        face_up = len(self.face_up) if self.face_up is not None else None
        if face_up is not None and sum(sizes) + face_up != DEALT:
            raise SleuthError(f"hand sizes {sum(sizes)} and {face_up} face-up cards: the "
                              f"{DEALT} cards outside the envelope (C9)")  # fmt: skip
        if sum(sizes) > DEALT or min(sizes) < 1:
            raise SleuthError(f"hand sizes {', '.join(numbers)}: each at least 1, at most "
                              f"{DEALT} cards in all (C9)")  # fmt: skip
        self.sizes = sizes
        return "sizes " + ", ".join(numbers)

    def _set_face(self, words: list[str]) -> str:
        cards = self._cards(words, "face up")
        wanted = DEALT - sum(self.sizes) if self.sizes is not None else DEALT % self.players
        if len(cards) != wanted:
            lie = "1 lies" if wanted == 1 else f"{wanted} lie"
            raise SleuthError(f"{_count(len(cards), 'face-up card')} named: {lie} face up with "
                              f"{self.players} players and these hand sizes")  # fmt: skip
        self.face_up = tuple(sorted(cards))
        self._rebuild()
        return "face up " + self.cards_text(self.face_up)

    def _set_hand(self, words: list[str]) -> str:
        if self.me is None:
            raise SleuthError(f"first say which seat is yours: {self.setup_prompt()}")
        if self.face_up is None and self.face_up_count:
            raise SleuthError(f"first the face-up cards: {self.setup_prompt()}")
        cards = self._cards(words, "hand")
        size = self.hand_sizes[self.me]
        if len(cards) != size:
            raise SleuthError(f"{_count(len(cards), 'card')} named: your hand holds {size} "
                              f"('sizes ...' if the hand sizes differ)")  # fmt: skip
        overlap = set(cards) & set(self.face_up or ())
        if overlap:
            raise SleuthError(f"{self.cards_text(sorted(overlap))} lies face up, not in your hand")
        self.hand = tuple(sorted(cards))
        return "hand " + self.cards_text(self.hand)

    def _rebuild(self) -> None:
        """The game of the seats with the dealer and leftover rule entered."""
        leftover = "face_up" if self.face_up or self.base.leftover == "face_up" else "deal"
        self.game = CluedoGame(
            players=self.players,
            suspects=self.game.suspects,
            dealer=self.dealer_seat,
            leftover=leftover,
            dice=self.game.dice,
            accuse_at=self.game.accuse_at,
            allow_retarget=self.game.allow_retarget,
            edition=self.game.edition.name,
            max_turns=self.game.max_turns,
        )

    def _start(self) -> None:
        """The setup is complete: the ``setup`` and ``hand`` events."""
        assert self.me is not None and self.hand is not None
        sizes = self.hand_sizes
        face_up = self.face_up or ()
        if sum(sizes) + len(face_up) != DEALT:
            raise SleuthError(
                f"hand sizes {', '.join(map(str, sizes))} and {len(face_up)} face-up cards: "
                f"the {DEALT} cards outside the envelope (C9)"
            )
        self._rebuild()
        public = {
            "players": self.players,
            "dealer": self.dealer_seat,
            "hand_sizes": sizes,
            "face_up": face_up,
            "names": self.names,
        }
        me = self.me
        events = [Event("setup", public)] + [
            Event("hand", {"seat": seat}, {"cards": self.hand}, frozenset((me,)))
            if seat == me
            else Event("hand", {"seat": seat})
            for seat in range(self.players)
        ]
        self.belief = CluedoBelief(me)
        self._record(events)

    # --- what happens -----------------------------------------------------------------------

    def _event_entry(self, words: list[str], text: str) -> str:
        if words[0] == "envelope":
            return self._envelope(words[1:])
        if words[0] in NOBODY:
            return self._nobody(words[1:], text)
        verb = next((i for i, w in enumerate(words) if w in VERBS and i > 0), None)
        if verb is None:
            raise SleuthError(f"{text!r}: no verb found (suggests, passes, shows, accuses; "
                              "'help' lists the forms)")  # fmt: skip
        seat = self._seat_named(words[:verb])
        word, rest = words[verb], words[verb + 1 :]
        if word in SUGGEST:
            return self._suggest(seat, rest)
        if word in PASS:
            if rest:
                raise SleuthError(f"{text!r}: nothing comes after 'passes'")
            return self._answer(seat, None, shows=False)
        if word in SHOW:
            return self._show(seat, rest)
        if word in ACCUSE:
            return self._accuse(seat, rest)
        if word in ROLL:
            return self._roll(seat, rest)
        return self._position(seat, rest)

    def _roll(self, seat: int, rest: list[str]) -> str:
        if seat != self.me:
            raise SleuthError("only your own roll is entered: 'I rolled 7'")
        self._open()  # a turn begins once the last suggestion is answered
        if self.position is None:
            raise SleuthError("first say where your token is: 'I am in Hall' or 'I am at start'")
        low, top = self.game.dice, 6 * self.game.dice
        digits = len(rest) == 1 and rest[0].isascii() and rest[0].isdigit()
        roll = whole_number(rest[0]) if digits else None
        if roll is None or not low <= roll <= top:
            raise SleuthError(f"a roll is a number from {low} to {top}: 'I rolled {top // 2}'")
        self.roll, self.turn_of = roll, seat
        self.entered, self.summoner = False, None
        self._record([Event("rolled", {"seat": seat, "roll": self.roll})])
        return f"I rolled {self.roll}"

    def _open(self) -> None:
        """Refuse a new suggestion, accusation, roll or move while a suggestion waits for
        answers (an entry typed out of turn is most often an answer forgotten)."""
        if self.asking is not None:
            first = self.names[self.asking.waiting[0]]
            suggester = self.asking.suggester
            whose = "your" if suggester == self.me else f"{self.names[suggester]}'s"
            raise SleuthError(
                f"{whose} suggestion waits for its answers: "
                f"'{first} shows', '{first} passes' or 'nobody'"
            )

    def _suggest(self, seat: int, rest: list[str]) -> str:
        self._open()
        if seat in self.eliminated:
            if seat == self.me:
                raise SleuthError("you accused wrongly and take no more turns")
            raise SleuthError(f"{self.names[seat]} accused wrongly and takes no more turns")
        s, w, r = self._triple(rest)
        n = self.players
        waiting = tuple((seat + step) % n for step in range(1, n))
        self.asking, self.turn_of = Asking(seat, (s, w, r), waiting), seat
        public = {"seat": seat, "suspect": s, "weapon": w, "room": r}
        self._record([Event("suggested", public)])
        assert self.me is not None
        if seat == self.me or s == self.game.suspects[self.me]:  # I am in r, or summoned to it
            self.position, self.roll, self.entered = InRoom(r), None, False
            self.summoner = None if seat == self.me else seat
        verb = "suggest" if seat == self.me else "suggests"
        return f"{self.who(seat)} {verb} {self.cards_text([s, w, r])}"

    def _show(self, seat: int, rest: list[str]) -> str:
        rest = [w for w in rest if w not in DETERMINERS]
        to: int | None = None
        if "to" in rest:
            at = rest.index("to")
            to = self._seat_named(rest[at + 1 :])
            rest = rest[:at]
        elif rest and rest[0] not in MYSELF and self._names_a_seat_only(rest):
            named = self._seats.match(rest[0])  # 'Bob shows Ann Rope': Ann by her name
            if named is not None:
                (to,) = named.items
                rest = ["me", *rest[1:]] if to == self.me else rest[1:]
        if rest and rest[0] in MYSELF:
            rest = rest[1:]
            if self.asking is not None and self.asking.suggester != self.me:
                raise SleuthError(f"{self.who(self.asking.suggester)} made the suggestion: "
                                  f"'{self.names[seat]} shows'")  # fmt: skip
        card = None
        if rest:
            cards = self._cards(rest, "shows", among=frozenset(self._question().cards))
            if len(cards) != 1:
                raise SleuthError(f"{' '.join(rest)!r}: name the one card shown")
            card = cards[0]
        if to is not None and self.asking is not None and to != self.asking.suggester:
            raise SleuthError(f"{self.names[self.asking.suggester]} made the suggestion, "
                              f"not {self.names[to]}")  # fmt: skip
        return self._answer(seat, card, shows=True)

    def _names_a_seat_only(self, words: list[str]) -> bool:
        """Whether ``words`` begin with a seat's exact name that is not a card's shown alone
        (``Ann Rope``, ``Bob``; not ``Scarlet`` when a seat and the card are both so called)."""
        named = self._seats.match(words[0])
        if named is None or named.cost != 0 or len(named.items) != 1:
            return False
        card = self.card_names.match(words[0])
        return len(words) > 1 or card is None or card.cost != 0

    def _question(self) -> Asking:
        """The suggestion waiting for answers (an error when there is none)."""
        if self.asking is None:
            raise SleuthError("no suggestion waits for an answer: enter the suggestion first "
                              "('Bob suggests Plum Knife Hall')")  # fmt: skip
        return self.asking

    def _nobody(self, rest: list[str], text: str) -> str:
        if rest and not all(w in SHOW | PASS | DETERMINERS | {"could", "can"} for w in rest):
            raise SleuthError(f"{text!r}: 'nobody' stands alone")
        if self.asking is None and self.events and self.events[-1].kind == "unrefuted":
            raise SleuthError("nobody could show, and that is entered already: every player "
                              "asked passed")  # fmt: skip
        asking = self._question()
        return self._answer(asking.waiting[-1], None, shows=False, nobody=True)

    def _answer(self, seat: int, card: int | None, shows: bool, nobody: bool = False) -> str:
        """``seat`` passes or shows (``card``, if seen): every seat before it in the answering
        order passed."""
        asking = self._question()
        me, triple = self.me, asking.cards
        assert me is not None and self.hand is not None
        if seat not in asking.waiting:
            why = "made the suggestion" if seat == asking.suggester else "answered already"
            raise SleuthError(f"{self.names[seat]} {why}: "
                              f"{self.names[asking.waiting[0]]} answers next")  # fmt: skip
        at = asking.waiting.index(seat)
        passing = asking.waiting[: at + (0 if shows else 1)]
        mine = [c for c in triple if c in self.hand]
        if me in passing and mine:
            first = "" if seat == me or nobody else f" before {self.names[seat]}"
            held = _and([self.card_name(c) for c in mine])
            raise SleuthError(f"you hold {held}, so you answer{first}: "
                              f"'I show {self.card_name(mine[0])}'")  # fmt: skip
        events = [Event("passed", {"seat": p}) for p in passing]
        if not shows:
            self.asking = None if at + 1 == len(asking.waiting) else \
                Asking(asking.suggester, triple, asking.waiting[at + 1 :])  # fmt: skip
            if self.asking is None:
                events.append(Event("unrefuted", {}))
            self._record(events)
            if nobody:
                return "nobody shows"
            return f"{self.who(seat)} {'pass' if seat == me else 'passes'}"
        suggester = asking.suggester
        if seat == me:
            if card is None:
                raise SleuthError(f"which card do you show? 'I show {self.card_name(mine[0])}'"
                                  if mine else "you hold none of the three: 'I pass'")  # fmt: skip
            if card not in self.hand:
                raise SleuthError(f"you do not hold {self.card_name(card)}")
        elif suggester == me:
            if card is None:
                raise SleuthError(f"which card did {self.names[seat]} show you? "
                                  f"'{self.names[seat]} shows me CARD'")  # fmt: skip
        elif card is not None:
            raise SleuthError(f"only {self.names[suggester]} sees the card {self.names[seat]} "
                              f"shows: '{self.names[seat]} shows'")  # fmt: skip
        if card is not None and card not in triple:
            raise SleuthError(f"{self.card_name(card)} was not suggested "
                              f"({self.cards_text(list(triple))})")  # fmt: skip
        self.asking = None
        if card is None:
            events.append(Event("refuted", {"seat": seat}))
        else:
            events.append(
                Event("refuted", {"seat": seat}, {"card": card}, frozenset((suggester, seat)))
            )
        self._record(events)
        if seat == me:
            assert card is not None
            self.shown[suggester] = self.shown.get(suggester, frozenset()) | {card}
            return f"I show {self.card_name(card)} to {self.names[suggester]}"
        if card is not None:
            return f"{self.names[seat]} shows me {self.card_name(card)}"
        return f"{self.names[seat]} shows a card"

    def _accuse(self, seat: int, rest: list[str]) -> str:
        self._open()
        if seat in self.eliminated:
            who = "you" if seat == self.me else self.names[seat]
            raise SleuthError(f"{who} accused wrongly already")
        seen: tuple[int, int, int] | None = None
        if "envelope" in rest:
            at = rest.index("envelope")
            if seat != self.me:
                raise SleuthError("only the accuser sees the envelope: leave it out")
            seen, rest = self._triple(rest[at + 1 :]), rest[:at]
        rest = [w for w in rest if w != ","]
        if not rest or rest[-1] not in WRONG | RIGHT:
            raise SleuthError("say how it ended: '... accuses Plum Knife Hall wrong' (or right)")
        correct = rest[-1] in RIGHT
        s, w, r = self._triple(rest[:-1])
        if seen is not None and (seen == (s, w, r)) != correct:
            raise SleuthError(f"the envelope you saw, {self.cards_text(list(seen))}, does not "
                              f"match the verdict")  # fmt: skip
        public = {"seat": seat, "suspect": s, "weapon": w, "room": r, "correct": correct}
        self.turn_of = seat
        events = [
            Event("accused", public)
            if seen is None
            else Event("accused", public, {"envelope": seen}, frozenset((seat,)))
        ]
        if correct:
            events.append(Event("game_over", {"winner": seat, "envelope": (s, w, r)}))
        self._record(events)
        if correct:
            self.winner, self.over = seat, True
        else:
            self.eliminated.add(seat)
        verb = "accuse" if seat == self.me else "accuses"
        verdict = "right" if correct else "wrong"
        end = "" if seen is None else f", envelope {self.cards_text(list(seen))}"
        return f"{self.who(seat)} {verb} {self.cards_text([s, w, r])} {verdict}{end}"

    def _envelope(self, words: list[str]) -> str:
        """The game ended without a right accusation and the envelope was opened."""
        self._open()
        triple = self._triple(words)
        self._record([Event("game_over", {"winner": None, "envelope": triple})])
        self.over = True
        return f"envelope {self.cards_text(list(triple))}"

    def _position(self, seat: int, rest: list[str]) -> str:
        if seat != self.me:
            raise SleuthError("only your own token's place is entered: 'I am in Hall'")
        self._open()
        rest = [w for w in rest if w not in ("in", "at", "the", "on")]
        if rest in (["start"], ["the", "start"]):
            position: Position = AtStart(self.game.suspects[seat])
            where = "at start"
        else:
            room = self._cards(rest, "I am in", kind=Category.ROOM)
            if len(room) != 1:
                raise SleuthError("name one room: 'I am in Hall'")
            position = InRoom(room[0])
            where = f"in {self.card_name(room[0])}"
        self.position, self.roll, self.turn_of = position, None, seat
        self.entered, self.summoner = isinstance(position, InRoom), None
        public = {"seat": seat, "roll": None, "position": str(position)}
        self._record([Event("moved", public)])
        return f"I am {where}"

    # --- names ------------------------------------------------------------------------------

    def _seat_named(self, words: list[str], allow_me: bool = True) -> int:
        text = " ".join(w for w in words if w != ",")
        if not text:
            raise SleuthError("name a player")
        if allow_me and text in MYSELF:
            if self.me is None:
                raise SleuthError(f"first say which seat is yours: {self.setup_prompt()}")
            return self.me
        return self._seats.one(text)

    def _cards(
        self,
        words: list[str],
        what: str,
        among: frozenset[int] | None = None,
        kind: Category | None = None,
    ) -> list[int]:
        """The cards a list of words names (each piece one card), in order, no repeats."""
        if not [w for w in words if w != ","]:
            raise SleuthError(f"'{what}': name the cards")
        pieces = segment(self.card_names, words)
        cards = []
        for text, found in pieces:
            items = found.items
            if kind is not None:
                items = frozenset(c for c in items if category(c) == kind) or items
            if among is not None and len(items) > 1:
                items = (items & among) or items
            if len(items) > 1:
                raise Ambiguous(self.card_names.ambiguous(text, items))
            (card,) = items
            if kind is not None and category(card) != kind:
                raise SleuthError(f"{self.card_name(card)} is a {category(card).word}, "
                                  f"not a {kind.word}")  # fmt: skip
            if card in cards:
                raise SleuthError(f"'{what}': {self.card_name(card)} is named twice")
            cards.append(card)
        return cards

    def _triple(self, words: list[str]) -> tuple[int, int, int]:
        """A suspect, a weapon and a room in any order (ambiguous pieces settled by the
        categories the others leave)."""
        pieces = segment(self.card_names, words)
        if not pieces:
            raise SleuthError("name a suspect, a weapon and a room, e.g. 'Plum Knife Hall'")
        if len(pieces) != 3:
            named = ", ".join(t for t, _ in pieces)
            raise SleuthError(f"name a suspect, a weapon and a room (not {len(pieces)} cards: "
                              f"{named})")  # fmt: skip
        return _resolve(pieces, self.card_names)

    # --- the belief ------------------------------------------------------------------------

    def _record(self, events: list[Event]) -> None:
        """Feed ``events`` (from the entry being played) to the belief; on a contradiction,
        raise naming the entries that contradict each other."""
        belief = self.belief
        assert belief is not None
        number = self.entries + 1
        for event in events:
            self.events.append(event)
            self.sources.append(number)
            try:
                belief.update(event)
            except ContradictionError as exc:
                self._contradiction(str(exc))

    def _contradiction(self, message: str) -> None:
        """Raise the error for an entry no deal fits: :class:`ImpossibleEntry` naming the
        earlier entries it contradicts (a smallest set, by SAT), or the belief's ``message``."""
        from sleuth.games.cluedo.proofs import proof  # PySAT loads only when it is needed
        from sleuth.games.cluedo.sat import from_events

        me = self.me
        assert me is not None
        reason = message.split(": ", 1)[-1]
        labels = proof(from_events(me, self.events), None)
        entries = sorted({self.entry_of(label) for label in labels} - {self.entries + 1})
        if not entries:
            raise SleuthError(f"impossible: {reason}")
        raise ImpossibleEntry(entries)

    def entry_of(self, label: str) -> int:
        """The entry number behind a SAT step's label (``event 12 (refuted)``)."""
        index = int(label.split()[1]) - 1
        return self.sources[index]


def _resolve(pieces: list[tuple[str, Match]], names: Vocabulary) -> tuple[int, int, int]:
    """The one (suspect, weapon, room) that the pieces name, one category each (an ambiguous
    piece is told with ``names``)."""
    options = set()
    for a in pieces[0][1].items:
        for b in pieces[1][1].items:
            for c in pieces[2][1].items:
                by_kind = sorted((a, b, c), key=category)
                if [category(x) for x in by_kind] == [0, 1, 2]:
                    options.add((by_kind[0], by_kind[1], by_kind[2]))
    if len(options) == 1:
        return options.pop()
    if not options:
        kinds = [sorted({category(i).word for i in m.items}) for _, m in pieces]
        said = ", ".join(f"{t!r} ({'/'.join(k)})" for (t, _), k in zip(pieces, kinds, strict=True))
        raise Unknown(f"name one suspect, one weapon and one room: {said}")
    for text, found in pieces:
        if len({c for t in options for c in t if c in found.items}) > 1:
            raise Ambiguous(names.ambiguous(text, {c for t in options for c in t} & found.items))
    raise Ambiguous("the cards are ambiguous: type more of their names")  # pragma: no cover


def _count(n: int, thing: str) -> str:
    """``n`` things, in the singular for one: ``1 card``, ``2 cards``."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _capital(name: str) -> str:
    """A seat's name as typed, its first letter a capital (``ann`` -> ``Ann``, ``McCoy`` kept)."""
    return name[:1].upper() + name[1:]


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
