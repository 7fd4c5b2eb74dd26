"""What the notepad shows after every entry (``sleuth assist cluedo``): Rich renderables built
from a :class:`~.notepad.Notepad`.

* before the setup is complete: the seats and cards entered so far, and the next question;
* then: the seats and hand sizes, the number of deals that fit and how many equally likely
  envelopes they leave (the envelope's entropy, read as a count: :func:`envelopes_left`);
  what the table waits for (a suggestion's next answer) and, when I hold one of its cards,
  which to show and why (:func:`~.advice.card_to_show`); the notepad matrix (a card by owner:
  ✓ has, ✗ lacks, else the exact probability); a bar chart of the envelope per category; the
  most likely envelopes; the envelopes left after each entry; the best suggestion for each
  room (:func:`room_table`: gain per expected turn from my token's place when it is entered,
  else every room ranked by gain alone; a gain is shown as the factor it divides the
  envelopes left by, :func:`divides`); what to do this turn (or on my next turn, during
  another's) (:func:`turn_line`: the ``sleuth``
  player's own decision, :func:`~.advice.plan_turn`); and whether to accuse
  (:func:`~.advice.accusation_advice`, with the rivals' progress read off the entries).
* brief (``--brief``): only the lines a player acts on: the status, what the table waits for
  (and which card to show), what to do this turn and whether to accuse.

Advice draws samples with a random stream seeded by the number of events, so the same entries
always show the same advice.
"""

from __future__ import annotations

import math
import random

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from sleuth.core.bitsets import members
from sleuth.games.cluedo.advice import (
    AccusationAdvice,
    Samples,
    SuggestionAdvice,
    TurnPlan,
    accusation_advice,
    candidates_left,
    card_to_show,
    draw,
    outcome_probabilities,
    plan_turn,
    rival_progress,
    room_screens,
    rooms_advice,
    screened_worth,
)
from sleuth.games.cluedo.cards import CARD_COUNT, NAMES, SOLUTIONS, SUSPECTS, Category
from sleuth.games.cluedo.cells import cell
from sleuth.games.cluedo.deduction.constraints import ENVELOPE, TABLE, Owner
from sleuth.games.cluedo.movement import InRoom, Transit, travel_time
from sleuth.games.cluedo.notepad import Notepad

TOP = 5
"""Envelopes listed, most likely first."""
BAR = 20
"""Width of a full bar (probability 1) in characters."""
SPARKS = "▁▂▃▄▅▆▇█"
HISTORY = 40
"""Entries the entropy line shows at most (the latest)."""
MAX_ENTROPY = math.log(SOLUTIONS)
RESCORE = 1
"""Suggestions per room scored with exact entropies (the advice's default, 3, takes up to a
second with 6 players; 1 keeps every answer well under half a second)."""


def render(pad: Notepad, brief: bool = False) -> RenderableType:
    """Everything the notepad shows now, or with ``brief`` the lines a player acts on (see
    the module docstring)."""
    if not pad.started:
        return _setup(pad)
    parts: list[RenderableType] = [Text(_status(pad))]
    waiting = _waiting(pad)
    if not pad.over and len(pad.eliminated) == pad.players:
        waiting = "Everyone has accused wrongly: enter the envelope when it is opened."
    if waiting:
        parts.append(Text(waiting, style="bold"))
    if brief:
        if not pad.over and pad.me not in pad.eliminated:
            parts += [Text(turn_line(pad), style="bold"), accusation(pad)]
        return Group(*parts)
    parts.append(matrix(pad))
    clauses = one_of(pad)
    if clauses:
        parts.append(Text(clauses))
    parts += [Columns([bars(pad, kind) for kind in Category]), top(pad)]
    parts.append(Text(entropy_line(pad)))
    if not pad.over and pad.me not in pad.eliminated:
        parts.append(suggestions(pad))
        parts.append(Text(turn_line(pad), style="bold"))
        parts.append(accusation(pad))
    return Group(*parts)


def accusation_now(pad: Notepad) -> AccusationAdvice:
    """The accusation advice of the ``sleuth`` player in my seat (the rivals' progress read
    off the entries), cached on the notepad: the accusation line and the turn plan use it."""
    cached = pad.cache.get("accusation")
    if isinstance(cached, AccusationAdvice):
        return cached
    assert pad.me is not None
    advice = accusation_advice(pad.posterior, rivals=rival_progress(pad.events, pad.me))
    pad.cache["accusation"] = advice
    return advice


def accusation(pad: Notepad) -> Text:
    """Whether to accuse now, the most likely envelope and the risk."""
    advice = accusation_now(pad)
    cards = pad.cards_text([advice.suspect, advice.weapon, advice.room])
    if advice.probability == 1.0:
        return Text(f"Accuse now: {cards} is certain.", style="bold green")
    verb = "Accuse now" if advice.accuse else "Do not accuse yet"
    risk = f"a {1 - advice.probability:.0%} risk of elimination"
    race = ": a rival is close to solving it" if advice.accuse else ""
    return Text(
        f"{verb}: the likeliest envelope, {cards}, has {advice.probability:.1%} ({risk}){race}."
    )


def _names(pad: Notepad, text: str) -> str:
    """``text`` (the advice's sentence, short names) with the edition's names: ``the Plum``
    becomes ``Professor Plum``, ``the Knife`` ``the Dagger`` in the UK edition."""
    for card in range(CARD_COUNT):
        shown = pad.card_name(card)
        if NAMES[card] != shown:
            short = f"the {NAMES[card]}"
            text = text.replace(short, shown if card in SUSPECTS else f"the {shown}")
    return text


def _setup(pad: Notepad) -> RenderableType:
    lines = ["Setup (type the answer, or the whole entry):"]
    if pad.names:
        lines.append(f"  seats clockwise: {', '.join(pad.names)}")
    if pad.me is not None:
        lines.append(f"  you: {pad.names[pad.me]}")
    if pad.names:
        sizes = ", ".join(f"{n} {s}" for n, s in zip(pad.names, pad.hand_sizes, strict=True))
        lines.append(f"  dealer: {pad.names[pad.dealer_seat]}; hand sizes: {sizes}")
    if pad.face_up:
        lines.append(f"  face up: {pad.cards_text(pad.face_up)}")
    lines.append(pad.setup_prompt()[0].upper() + pad.setup_prompt()[1:])
    return Text("\n".join(lines))


def _status(pad: Notepad) -> str:
    post = pad.posterior
    seats = ", ".join(
        f"{name}{' (you)' if seat == pad.me else ''}{' (out)' if seat in pad.eliminated else ''}"
        f" {size}"
        for seat, (name, size) in enumerate(zip(pad.names, pad.hand_sizes, strict=True))
    )
    end = ""
    if pad.over:
        end = (
            f" Game over: {pad.names[pad.winner]} solved it."
            if pad.winner is not None
            else " Game over: nobody solved it."
        )
    deals = "1 deal fits" if post.deals == 1 else f"{post.deals:,} deals fit"
    return (
        f"Seats and hand sizes: {seats}. {deals} what you know: "
        f"{envelopes_left(post.entropy())} (of {SOLUTIONS}).{end}"
    )


def envelopes_left(entropy: float) -> str:
    """The envelope's uncertainty as a player reads it: ``entropy`` (nats) is that of
    ``e ** entropy`` equally likely envelopes ("about 90 equally likely envelopes left")."""
    if entropy < 1e-9:
        return "the envelope is known"
    count = max(1, round(math.exp(entropy)))
    return f"about {count:,} equally likely envelope{'s' if count > 1 else ''} left"


def divides(gain: float) -> str:
    """What an expected drop of ``gain`` nats does to the envelopes left: it divides their
    number (read as :func:`envelopes_left`) by ``e ** gain``, "halves" it near 2."""
    factor = math.exp(gain)
    if 1.9 <= factor < 2.1:
        return "should halve the envelopes left"
    return f"should divide the envelopes left by {factor:.1f}"


def _waiting(pad: Notepad) -> str:
    """What the table waits for, and which card to show if I may be asked."""
    asking = pad.asking
    if asking is None:
        return ""
    line = (
        f"{pad.who(asking.suggester)} asked about {pad.cards_text(list(asking.cards))}: "
        f"{pad.names[asking.waiting[0]]} answers next."
    )
    me = pad.me
    assert me is not None and pad.hand is not None
    mine = [c for c in asking.cards if c in pad.hand]
    if me in asking.waiting and mine:
        seen = pad.shown.get(asking.suggester, frozenset())
        left = candidates_left(pad.posterior, asking.suggester, seen)
        advice = card_to_show(mine, asking.suggester, pad.shown, candidates_left=left,
                              who=pad.names[asking.suggester])  # fmt: skip
        line += f" When asked, show {pad.card_name(advice.card)}: {_names(pad, advice.reason)}."
    elif me in asking.waiting:
        line += " You hold none of them: you pass."
    return line


def _owners(pad: Notepad) -> list[Owner]:
    k = pad.posterior.knowledge
    return [*range(pad.players), ENVELOPE, *([TABLE] if k.table else [])]


def matrix(pad: Notepad) -> Table:
    """The notepad: a row per card, a column per owner; ✓ has, ✗ lacks, else the exact
    probability."""
    post = pad.posterior
    owners = _owners(pad)
    heads = [pad.names[o] + ("*" if o == pad.me else "") if isinstance(o, int) else o
             for o in owners]  # fmt: skip
    grid = Table("card", *heads, title="Notepad (✓ has, ✗ lacks; * you)", box=None)
    for card in range(CARD_COUNT):
        cells = [cell(post, card, o) for o in owners]
        grid.add_row(pad.card_name(card), *cells,
                     end_section=card + 1 in (6, 12))  # fmt: skip
    return grid


def one_of(pad: Notepad) -> str:
    """The "one of" marks still open: an owner shown to hold one of several cards, none of
    them known to be that owner's yet."""
    post = pad.posterior
    k = post.knowledge
    marks = []
    for o, cards in dict.fromkeys(k.clauses):
        owner = k.owner(o)
        possible = [c for c in members(cards) if post.count(c, owner)]
        if len(possible) > 1 and all(post.count(c, owner) < post.total for c in possible):
            marks.append(f"{pad.names[o] if isinstance(owner, int) else owner}: "
                         f"{' / '.join(pad.card_name(c) for c in possible)}")  # fmt: skip
    return "One of (a shown card): " + "; ".join(marks) if marks else ""


def bars(pad: Notepad, kind: Category) -> Table:
    """The chance that each card of ``kind`` is in the envelope, as bars."""
    post = pad.posterior
    grid = Table(title=f"Envelope: {kind.word}", box=None, show_header=False)
    for card in kind.cards:
        p = post.probability(card, ENVELOPE)
        full = round(p * BAR)
        bar = "█" * full + "·" * (BAR - full)
        grid.add_row(pad.card_name(card), Text(bar, style="cyan"), f"{p:.0%}")
    return grid


def top(pad: Notepad) -> Table:
    grid = Table("suspect", "weapon", "room", "probability", title="Most likely envelopes",
                 box=None)  # fmt: skip
    for (s, w, r), p in pad.posterior.top(TOP):
        grid.add_row(pad.card_name(s), pad.card_name(w), pad.card_name(r), f"{p:.1%}")
    return grid


def entropy_line(pad: Notepad) -> str:
    """The envelope's entropy after each entry since the setup, as a spark line, with the
    first and last as the number of equally likely envelopes they are worth."""
    values = [h for _, h in pad.entropy[-HISTORY:]]
    sparks = "".join(SPARKS[min(len(SPARKS) - 1, int(h / MAX_ENTROPY * len(SPARKS)))]
                     for h in values)  # fmt: skip
    first, last = pad.entropy[max(0, len(pad.entropy) - HISTORY)], pad.entropy[-1]
    return (
        f"Envelopes left by entry (as if equally likely): {sparks}  {_count(first[1])} at entry "
        f"{first[0]} -> {_count(last[1])} at entry {last[0]}"
    )


def _count(entropy: float) -> str:
    return f"{max(1, round(math.exp(entropy))):,}"


def room_table(pad: Notepad) -> list[SuggestionAdvice]:
    """The notepad's room table: the best suggestion for each room from my token's place
    (:func:`~.advice.rooms_advice`, the best :data:`RESCORE` of each room scored exactly: gain
    per expected turn from where my token is, after my roll if I have rolled, else by gain
    alone), cached on the notepad with the samples and each room's screened worth
    (:func:`~.advice.screened_worth`, for :func:`turn_plan`).  The room I am in counts 0 turns
    when I have just entered it or was summoned there."""
    cached = pad.cache.get("rooms")
    if cached is not None:
        return cached  # type: ignore[return-value]
    post, me = pad.posterior, pad.me
    assert me is not None
    rng = random.Random(len(pad.events))
    samples = draw(post, me, pad.players, rng)
    screens = room_screens(samples)
    out = rooms_advice(
        post, me, pad.players, pad.position, pad.game.dice, rng, samples=samples,
        screens=screens, suggest_here=pad.entered or pad.summoner is not None, roll=pad.roll,
        retarget=pad.game.allow_retarget, rescore=RESCORE,
    )  # fmt: skip
    pad.cache["rooms"], pad.cache["samples"] = out, samples
    pad.cache["worth"] = screened_worth(screens)
    return out


def answers(pad: Notepad, advice: SuggestionAdvice) -> str:
    """The chance of each answer to a suggestion of mine (nobody, or the first seat clockwise
    holding one of its cards), estimated on the advice's samples."""
    samples = pad.cache["samples"]
    assert isinstance(samples, Samples) and pad.me is not None
    odds = outcome_probabilities(samples, (advice.suspect, advice.weapon, advice.room))
    parts = [f"nobody {odds[0]:.0%}"]
    for step in range(1, pad.players):
        seat = (pad.me + step) % pad.players
        parts.append(f"{pad.names[seat]} {sum(odds[1 + 3 * (step - 1) : 4 + 3 * (step - 1)]):.0%}")
    cards = pad.cards_text([advice.suspect, advice.weapon, advice.room])
    return f"Who would show a card for {cards}: {', '.join(parts)}."


def suggestions(pad: Notepad) -> Group:
    advice = room_table(pad)
    moving = pad.position is not None
    heads = ["room", "suggest", "divides them by", *(["turns", "a turn"] if moving else [])]
    where = f" from {pad.position}" if moving else " (enter 'I am in ROOM' for travel times)"
    if pad.roll is not None:
        where += f" with a roll of {pad.roll} (0 turns: you can enter it now)"
    grid = Table(*heads, title=f"Best suggestion by room{where}", box=None)
    for a in advice:
        row = [pad.card_name(a.room), f"{pad.card_name(a.suspect)}, {pad.card_name(a.weapon)}",
               f"{math.exp(a.gain):.2f}"]  # fmt: skip
        if moving:
            row += [f"{a.turns:.1f}", f"{math.exp(a.rate):.2f}"]
        grid.add_row(*row)
    return Group(grid, Text(answers(pad, advice[0])))


def turn_plan(pad: Notepad) -> TurnPlan | None:
    """What the ``sleuth`` player would do in my place now (:func:`~.advice.plan_turn`, on the
    notepad's samples and accusation advice), cached on the notepad; None until my token's
    place is known."""
    if "turn" in pad.cache:
        return pad.cache["turn"]  # type: ignore[return-value]
    turn = pad.turn()
    plan = None
    if turn is not None:
        room_table(pad)  # the samples and the rooms' worth
        worth = pad.cache["worth"]
        assert isinstance(worth, dict)
        game = pad.game
        plan = plan_turn(
            turn, lambda: worth, dice=game.dice, retarget=game.allow_retarget,
            accuse_at=game.accuse_at, accusation=accusation_now(pad),
        )  # fmt: skip
    pad.cache["turn"] = plan
    return plan


def turn_line(pad: Notepad) -> str:
    """The plan of :func:`turn_plan` in a sentence: what to do this turn, the suggestion to
    make (the room's row of :func:`room_table`) and what each choice weighed is worth.  It
    begins "This turn:" while the turn entered last is mine (or none is entered yet), else
    "Your next turn" and whose turn was entered last: advice shown during another player's
    turn is for mine."""
    advice = _advice(pad)
    turn = pad.turn_of
    if turn is None or turn == pad.me:
        return f"This turn: {advice}"
    return f"Your next turn (the last turn entered is {pad.names[turn]}'s): {advice}"


def _advice(pad: Notepad) -> str:
    """:func:`turn_line` without its first words."""
    plan = turn_plan(pad)
    if plan is None:
        return "say where your token is ('I am in Hall' or 'I am at start') to be told where to go."
    if plan.action == "accuse":
        return f"accuse {_accusation_why(pad)}."
    if plan.action == "end":
        assert plan.accuse_in is not None  # in a room just entered, the plan suggests
        return (
            f"make no suggestion and head for the {pad.card_name(plan.accuse_in)} "
            "next turn: the accusation is made there."
        )
    if plan.action == "roll":
        aim = ""
        if plan.accuse_in is not None:
            aim = f" and head for the {pad.card_name(plan.accuse_in)} to accuse there"
        return f"roll{aim}, then enter 'I rolled N' for where to go.{_weighed(plan)}"
    room = plan.room
    assert room is not None
    name = pad.card_name(room)
    if plan.action == "suggest":
        return f"{_then(pad, plan, room, f'here in the {name}')}."
    if plan.action == "passage":
        then = _then(pad, plan, room)
        return f"take the secret passage to the {name} and {then}.{_weighed(plan)}"
    if plan.action == "stay":
        assert pad.summoner is not None and pad.me is not None
        summons = f"{pad.names[pad.summoner]} summoned your token, " \
                  f"{pad.card_name(pad.game.suspects[pad.me])}"  # fmt: skip
        return f"stay in the {name} ({summons}) and {_then(pad, plan, room)}." \
               f"{_weighed(plan)}"  # fmt: skip
    assert plan.action == "go" and pad.roll is not None
    if plan.then_accuse:  # accuse_at=anywhere: the move first, then the accusation
        place = f"the {name}" if plan.reached == InRoom(room) else f"towards the {name}"
        return (
            f"move anywhere with your {pad.roll} ({place}, say), then accuse "
            f"{_accusation_why(pad)}; an accusation may be made from any place."
        )
    if plan.reached == InRoom(room):
        return f"go to the {name} (your {pad.roll} reaches it) and " \
               f"{_then(pad, plan, room)}."  # fmt: skip
    reached = plan.reached
    assert isinstance(reached, Transit)
    squares = f"{reached.left} square{'s' if reached.left > 1 else ''} short"
    if plan.accuse_in is None:
        more = travel_time(reached, room, pad.game.dice)
        return (
            f"head for the {name} to suggest there: your {pad.roll} leaves you "
            f"{squares} ({more:.1f} more turns expected)."
        )
    goal = pad.card_name(plan.accuse_in)
    more = travel_time(reached, plan.accuse_in, pad.game.dice)
    if plan.accuse_in == room:
        return (
            f"head for the {name} to accuse there: your {pad.roll} leaves you "
            f"{squares} ({more:.1f} more turns expected)."
        )
    return (
        f"head for the {name}, then on to the {goal}, to accuse there: your "
        f"{pad.roll} leaves you {squares} of the {name} ({more:.1f} more turns expected to the "
        f"{goal})."
    )


def _accusation_why(pad: Notepad) -> str:
    """The accusation to make (the advice's cards in the edition's names) and why now."""
    advice = accusation_now(pad)
    cards = pad.cards_text([advice.suspect, advice.weapon, advice.room])
    if advice.probability == 1.0:
        return f"{cards}: it is certain"
    return f"{cards}: {advice.probability:.0%} likely, and a rival is close to solving it"


def _then(pad: Notepad, plan: TurnPlan, room: int, where: str = "there") -> str:
    """The suggestion the plan makes in ``room`` (its row of :func:`room_table`), made
    ``where``, or the accusation it heads for."""
    if plan.accuse_in is not None:
        if plan.accuse_in != room:
            return f"head on for the {pad.card_name(plan.accuse_in)} to accuse there"
        return f"accuse {where}"
    best = next(a for a in room_table(pad) if a.room == room)
    cards = f"{pad.card_name(best.suspect)}, {pad.card_name(best.weapon)}"
    return f"suggest {cards} {where} (it {divides(best.gain)})"


def _weighed(plan: TurnPlan) -> str:
    """What a turn is worth by each start of turn weighed, the chosen one first."""
    order = sorted(plan.worth, key=lambda name: name != plan.action)
    worths = ", ".join(
        f"{name} {math.exp(plan.worth[name]):.2f}{' on average' if name == 'roll' else ''}"
        for name in order
    )
    return f" What a turn divides the envelopes left by: {worths}."
