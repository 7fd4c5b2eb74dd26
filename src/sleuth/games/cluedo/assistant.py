"""The notepad behind ``sleuth assist cluedo``: one player at a real Cluedo table types what
happens and sees, after every entry, what can be deduced and what to do.

A :class:`NotepadSession` keeps one :class:`~.notepad.Notepad` per entry (the state is always
the replay of the entries: ``undo`` is a pop, the shared loop's ``edit``, ``delete`` and
``insert`` replay :meth:`NotepadSession.history`).  It renders with :mod:`.table` and adds
the command ``why CARD``: a smallest set of entries that proves where the card is, or what is
known of it (:mod:`.sat`).

A saved view log is the player's view of the game (the ``setup`` event carries the seat names
besides the engine's fields); :func:`entry_texts` turns such a view, or a seat's view of a full
game log, back into entries, so loading is re-entering.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import RenderableType

from sleuth.core.compiled import compile_in_background
from sleuth.core.errors import SleuthError
from sleuth.core.events import Event
from sleuth.core.game import Game
from sleuth.core.plugins import AssistPlugin, Param
from sleuth.core.seatview import ViewLog
from sleuth.core.table import Command, count_entries
from sleuth.core.viewlog import (
    EventFieldError,
    enter_entries,
    event_fields,
    loading,
    read_view_log,
    same_events,
    whole,
    wholes,
    write_view_log,
)
from sleuth.games.cluedo.advice import warm_up
from sleuth.games.cluedo.cards import NAMES, SUSPECTS
from sleuth.games.cluedo.cells import percent
from sleuth.games.cluedo.deal import hand_sizes
from sleuth.games.cluedo.deduction.constraints import ENVELOPE, TABLE, Owner
from sleuth.games.cluedo.movement import AtStart, InRoom, parse_position
from sleuth.games.cluedo.notepad import ENTRY_FORMS, ImpossibleEntry, Notepad
from sleuth.games.cluedo.rules import MAX_PLAYERS, MIN_PLAYERS, CluedoGame
from sleuth.games.cluedo.table import render


def prepare(game: Game[Any]) -> None:
    """Load (or compile) the counting and advice kernels in the background while the user
    types the first entries (the first answer waits for whatever is left)."""
    compile_in_background(warm_up)


class NotepadSession:
    """One player's notepad at a real table, for :func:`sleuth.assist.repl.run_repl`; it ends
    (``finished``) when an accusation is right or the envelope is opened (``envelope ...``)."""

    entry_help = ENTRY_FORMS

    def __init__(self, game: CluedoGame, setup: Sequence[str] = (), brief: bool = False) -> None:
        """A session on ``game`` (its options: edition, dice, leftover, accusation rule); the
        ``setup`` texts are its first entries.  A ``brief`` session shows only the lines a
        player acts on after each entry (``full`` shows the whole notepad once)."""
        self.game = game
        self.brief = brief
        self._pads = [Notepad(game)]
        """The notepad before the first entry, then after each one; only the last keeps what
        the display computed from it (its advice and samples, tens of kilobytes a state)."""
        self._texts: list[str] = []
        self._undone: list[tuple[str, Notepad]] = []
        """The entries taken back since the last new one, with their notepads, the latest
        last: entering one of them again takes its notepad back, with what its display
        computed (its advice), instead of a copy that would compute it again."""
        for text in setup:
            self.enter(text)

    @property
    def pad(self) -> Notepad:
        """The notepad after every entry so far."""
        return self._pads[-1]

    @property
    def finished(self) -> bool:
        return self.pad.over

    @property
    def commands(self) -> tuple[Command, ...]:
        return (
            Command(
                ("why",),
                "where CARD is, and the entries that prove it",
                self.why,
                "CARD",
                changes=False,
            ),
            Command(
                ("full",),
                "the whole notepad (after --brief's short display)",
                self.full,
                changes=False,
            ),
        )

    def enter(self, text: str) -> str:
        pad = self.pad.copy()
        try:
            canonical = pad.play(text)
        except ImpossibleEntry as impossible:  # quote the entries it contradicts
            raise ImpossibleEntry(impossible.entries, self._texts) from None
        if self._undone and self._undone[-1][0] == canonical:
            pad = self._undone.pop()[1]  # the same entry after the same ones: the same state
        else:
            self._undone.clear()
        self.pad.cache.clear()
        self._pads.append(pad)
        self._texts.append(canonical)
        return canonical

    def undo(self) -> str:
        if not self._texts:
            raise SleuthError("nothing to undo")
        text = self._texts.pop()
        self._undone.append((text, self._pads.pop()))
        return text

    def history(self) -> list[str]:
        return list(self._texts)

    @property
    def title(self) -> str:
        g = self.game
        die = "die" if g.dice == 1 else "dice"
        return (
            f"Cluedo notepad ({g.edition.name} edition, {g.dice} {die}). Type what happens, one "
            "entry per line; names may be short or misspelt."
        )

    def leave(self) -> str:
        return f"Left the notepad after {count_entries(len(self._texts))}."

    def render(self) -> RenderableType:
        return render(self.pad, self.brief)

    def full(self) -> RenderableType:
        """The whole notepad, brief or not."""
        return render(self.pad)

    # --- why ------------------------------------------------------------------------------

    def why(self, text: str) -> str:
        """Where the card named ``text`` is and a smallest set of entries proving it, or its
        possible owners with what is certain about it."""
        pad = self.pad
        if not pad.started:
            raise SleuthError("nothing is deduced before the setup is complete")
        card = self.pad.card_names.one(text)
        post = pad.posterior
        name = pad.card_name(card)
        owners = post.owners(card)
        from sleuth.games.cluedo.proofs import proof  # PySAT loads only when it is needed
        from sleuth.games.cluedo.sat import from_events

        assert pad.me is not None
        kb = from_events(pad.me, pad.events)
        if len(owners) == 1:
            (owner,) = owners
            return f"{name}: {self._holds(owner)}, {self._because(proof(kb, (card, owner, True)))}"
        odds = ", ".join(f"{self._owner(o)} {percent(p)}" for o, p in owners.items())
        lines = [f"{name}: not certain yet ({odds})."]
        k = post.knowledge
        for o in range(k.players + (2 if k.table else 1)):
            owner = k.owner(o)
            if owner not in owners:
                labels = proof(kb, (card, owner, False))
                lines.append(f"  not {self._owner(owner)}: {self._because(labels)}")
        return "\n".join(lines)

    def _owner(self, owner: Owner) -> str:
        if owner == ENVELOPE:
            return "the envelope"
        if owner == TABLE:
            return "face up"
        assert isinstance(owner, int)
        return "you" if owner == self.pad.me else self.pad.names[owner]

    def _holds(self, owner: Owner) -> str:
        if owner == ENVELOPE:
            return "in the envelope"
        if owner == TABLE:
            return "face up"
        assert isinstance(owner, int)
        return "you hold it" if owner == self.pad.me else f"{self.pad.names[owner]} holds it"

    def _because(self, labels: list[str]) -> str:
        """The entries behind SAT steps' labels, in words."""
        entries = sorted({self.pad.entry_of(label) for label in labels})
        if not entries:
            return "by the rules alone"
        return f"because of {'; '.join(self._quote(n) for n in entries)}"

    def _quote(self, number: int) -> str:
        """Entry ``number`` as ``why`` quotes it: an answer that names no card (a pass, a card
        shown to another, nobody) with the suggestion it answered."""
        text = self._texts[number - 1]
        if text.endswith((" pass", " passes", " shows a card", "nobody shows")):
            asked = next(
                (k for k in range(number - 1, 0, -1) if " suggest" in self._texts[k - 1]), None
            )
            if asked is not None:
                return f"entry {number} ({text}, to entry {asked}: {self._texts[asked - 1]})"
        return f"entry {number} ({text})"

    # --- files ----------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        pad = self.pad
        if not pad.started or pad.me is None:
            raise SleuthError(f"nothing to save before the setup is complete: {pad.setup_prompt()}")
        write_view_log(ViewLog(pad.game, pad.me, pad.events), path)

    def load(self, path: Path) -> None:
        view = read_view_log(path, "player", "cluedo")
        assert isinstance(view.game, CluedoGame)  # read_view_log checked the game's name
        with loading(view):
            session = replay_view(view.game, view.seat, view.events)
            same_events(view, session.pad.events)
        self.game, self._pads, self._texts = session.game, session._pads, session._texts
        self._undone = []


def replay_view(game: CluedoGame, seat: int, events: Sequence[Event]) -> NotepadSession:
    """A session that has entered the entries of ``seat``'s view ``events``: the inverse of
    the notepad's events.  A bad event is an error naming it."""
    session = NotepadSession(game)
    enter_entries(events, entry_texts(game, seat, events, session), session.enter)
    return session


def entry_texts(
    game: CluedoGame, seat: int, events: Sequence[Event], session: NotepadSession
) -> Iterator[tuple[int, str]]:
    """The entries of ``seat``'s view ``events`` as (event index, entry text), generated as
    ``session`` takes them (an answer's text depends on the suggestion still open).  Events
    no entry gives (the others' rolls and moves, every ``ended``) give none."""
    for index, event in enumerate(events):
        with event_fields(index, event):
            public, private = event.public, event.private
            kind = event.kind
            pad = session.pad
            if kind == "setup":
                n = whole(public, "players", MAX_PLAYERS + 1)  # no huge list of hand sizes
                if n < MIN_PLAYERS:
                    raise ValueError(f"field 'players' is {n}, below {MIN_PLAYERS}")
                played = game.suspects if game.players == n else SUSPECTS[:n]
                names = public.get("names") or [NAMES[s] for s in played]
                yield index, "players " + ", ".join(map(str, names))
                yield index, f"me {names[seat]}"
                dealer = whole(public, "dealer", n)
                if dealer != n - 1:
                    yield index, f"dealer {names[dealer]}"
                sizes = tuple(int(s) for s in public["hand_sizes"])
                face_up = wholes(public, "face_up", len(NAMES))
                if sizes != hand_sizes(n, dealer, bool(face_up) or game.leftover == "face_up"):
                    yield index, "sizes " + ", ".join(map(str, sizes))
                if face_up:
                    yield index, "face up " + ", ".join(NAMES[c] for c in face_up)
            elif kind == "hand" and _seat(pad, public) == seat:
                if private is None:
                    raise EventFieldError(index, kind, "the seat's own hand is hidden")
                hand = wholes(private, "cards", len(NAMES))
                yield index, "hand " + ", ".join(NAMES[c] for c in hand)
            elif kind == "suggested":
                yield index, f"{_who(pad, public)} suggests {_cards(public)}"
            elif kind == "passed":
                yield index, f"{_who(pad, public)} passes"
            elif kind == "refuted":
                who = _who(pad, public)
                if private is None:
                    yield index, f"{who} shows"
                elif _seat(pad, public) == seat:
                    yield index, f"I show {NAMES[whole(private, 'card', len(NAMES))]}"
                else:
                    yield index, f"{who} shows me {NAMES[whole(private, 'card', len(NAMES))]}"
            elif kind == "unrefuted" and pad.asking is not None:
                yield index, "nobody"
            elif kind == "accused":
                cards = _cards(public)
                verdict = "right" if public["correct"] else "wrong"
                seen = (
                    ""
                    if private is None
                    else ", envelope "
                    + ", ".join(NAMES[c] for c in wholes(private, "envelope", len(NAMES)))
                )
                yield index, f"{_who(pad, public)} accuses {cards} {verdict}{seen}"
            elif kind == "game_over" and public["winner"] is None:
                envelope = wholes(public, "envelope", len(NAMES))
                yield index, "envelope " + ", ".join(NAMES[c] for c in envelope)
            elif kind == "rolled" and _seat(pad, public) == seat and pad.position is not None:
                yield index, f"I rolled {int(public['roll'])}"
            elif kind == "moved" and _seat(pad, public) == seat and pad.started:
                position = parse_position(str(public["position"]))
                if isinstance(position, InRoom):
                    yield index, f"I am in {NAMES[position.room]}"
                elif isinstance(position, AtStart):
                    yield index, "I am at start"


def _cards(public: Mapping[str, Any]) -> str:
    """The suspect, weapon and room of a suggestion or accusation, by name."""
    return ", ".join(NAMES[whole(public, k, len(NAMES))] for k in ("suspect", "weapon", "room"))


def _seat(pad: Notepad, public: Mapping[str, Any]) -> int:
    """The event's field ``seat``: one of the seats entered (else an error naming it)."""
    return whole(public, "seat", pad.players)


def _who(pad: Notepad, public: Mapping[str, Any]) -> str:
    """The event's seat as the subject of an entry (``I`` for mine)."""
    return pad.who(_seat(pad, public))


SETUP_PARAMS = (
    Param("players", "The seats clockwise, comma-separated: 'Ann,Bob,Cy' (or a number: seats "
          "named by their suspects)."),
    Param("me", "Your seat's name (or type 'me NAME')."),
    Param("dealer", "Who dealt (default: the last seat): it sets who gets the extra cards."),
    Param("sizes", "Hand sizes clockwise, e.g. 5,5,4,4 (default: by the dealer)."),
    Param("face_up", "The cards lying face up, comma-separated (with -o leftover=face_up)."),
    Param("hand", "Your cards, comma-separated: 'plum, knife, hall'."),
)  # fmt: skip
"""The setup as options: each given one is entered first (``--face-up X`` as ``face up X``)."""


def setup_texts(params: Mapping[str, Any]) -> list[str]:
    """The setup entries that the options ``params`` give, in order."""
    return [
        f"{p.name.replace('_', ' ')} {params[p.name]}"
        for p in SETUP_PARAMS
        if params.get(p.name) not in (None, "")
    ]


def _session(game: Game[Any], params: Mapping[str, Any]) -> NotepadSession:
    assert isinstance(game, CluedoGame)
    return NotepadSession(game, setup_texts(params), bool(params.get("brief")))


ASSIST = AssistPlugin(
    help="A notepad for a player at a real table: give the seats, yours and your hand (as "
    "options or when asked), then type each suggestion and its answers and each accusation; "
    "see after every entry who may hold each card, the likely envelopes, the best suggestion "
    "for each room, what to do this turn, which card to show and whether to accuse.  'why "
    "CARD' explains a fact; "
    "undo, edit, delete, insert, save FILE and load FILE work at any time.",
    session=_session,
    prepare=prepare,
    params=(
        *SETUP_PARAMS,
        Param(
            "brief",
            "After each entry only the lines you act on: which card to show, what to do this "
            "turn, whether to accuse ('full' shows the whole notepad).",
            kind=bool,
        ),
    ),
    load_sets=tuple(p.name for p in SETUP_PARAMS),
)
