"""Checks of a rules engine by random playthroughs: ends, action texts, illegal actions,
clones and events.

Each check plays one uniformly random game (chance sampled with
:meth:`~sleuth.core.game.State.sample_chance`) from a seed and raises a
:class:`~sleuth.testing.case.ConformanceError` naming the game, the seed and the step at the
first broken rule.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import re
from collections import deque
from collections.abc import Hashable, Iterable, Mapping, MutableMapping
from typing import Any

from sleuth.core.errors import ActionParseError, IllegalActionError
from sleuth.core.events import Event
from sleuth.core.game import CHANCE, TERMINAL, Game, State
from sleuth.core.rng import derive_seed
from sleuth.testing.case import Case, playthrough, random_steps
from sleuth.testing.outcomes import outcome_problem
from sleuth.testing.snapshot import Snapshot, difference, snapshot

TEXTS_PER_STEP = 200
"""Legal actions whose text round trip is checked per step (all of them when fewer)."""
PROBES_PER_STEP = 4
"""Illegal actions tried per step."""
POOL = 400
"""Actions seen earlier in the game kept as candidate illegal actions."""
JUNK_TEXTS = ("", "   ", "xyzzy", "-1", "99999", "\u00e9t\u00e9 42", "hole", "0,0,0")
"""Texts that are the text form of no action of any Sleuth game."""


def check_playthrough(case: Case, seed: int) -> None:
    """Random play reaches the end; on the way ``current_player`` is a seat or ``CHANCE`` and
    the seat to move has a legal action; at the end there are none, ``returns`` and ``wins``
    give one number per seat, and the outcome is consistent
    (:func:`~sleuth.testing.outcomes.outcome_problem`)."""
    game = case.make()
    state: State[Any] | None = None
    for step, state, _ in playthrough(case, game, seed):
        player = state.current_player()
        if player != CHANCE and not 0 <= player < game.num_players:
            raise case.fail(seed, f"current_player() is {player}, not a seat or CHANCE", step)
        if player != CHANCE and len(state.legal_actions()) == 0:
            raise case.fail(seed, f"seat {player} is to move but has no legal action", step)
    final = game.new_initial_state() if state is None else state
    if not final.is_terminal() or final.current_player() != TERMINAL:
        raise case.fail(seed, "the game stopped but is not terminal")
    if len(final.legal_actions()) != 0:
        raise case.fail(seed, "a finished game still lists legal actions")
    for name, values in (("returns", final.returns()), ("wins", final.wins())):
        if len(values) != game.num_players:
            raise case.fail(seed, f"{name}() has {len(values)} values for {game.num_players} seats")
    problem = outcome_problem(game, final)
    if problem is not None:
        raise case.fail(seed, problem)


def check_moves_show_events(case: Case, seed: int) -> None:
    """Between two decisions of a seat the game emits at least one event.  Every seat sees
    every event (private parts aside), so each decision of a seat sees a longer view than its
    last: the number of events is the decision number that seeds a bot's decision
    (:meth:`~sleuth.core.bots.Bot.ask`)."""
    game = case.make()
    events = 0
    last: dict[int, int] = {}
    for step, state, action in random_steps(case, game, seed):
        seat = state.current_player()
        if seat != CHANCE:
            if last.get(seat) == events:
                raise case.fail(
                    seed, f"seat {seat} decides twice after the same {events} events", step
                )
            last[seat] = events
        try:
            events += len(state.apply(action))
        except Exception as exc:
            raise case.fail(seed, f"legal action {action} refused: {exc!r}", step) from exc


def check_action_texts(case: Case, seed: int) -> None:
    """Every legal action (up to :data:`TEXTS_PER_STEP` a step, drawn at random) and every
    sampled chance action reads back from its text: ``parse_action(str(a)) == a``, of the same
    type; texts of no action raise ``ActionParseError``."""
    game = case.make()
    rng = random.Random(derive_seed(seed, "conformance", "texts"))
    for text in JUNK_TEXTS:
        _junk_is_refused(case, game, text, seed)
    for step, state, action in playthrough(case, game, seed):
        legal = state.legal_actions()
        picks: Iterable[int] = range(len(legal))
        if len(legal) > TEXTS_PER_STEP:
            picks = [0, len(legal) - 1, *rng.sample(range(len(legal)), TEXTS_PER_STEP - 2)]
        for a in [action, *(legal[i] for i in picks)]:
            _round_trip(case, game, a, seed, step)


def _round_trip(case: Case, game: Game[Any], action: Hashable, seed: int, step: int) -> None:
    text = str(action)
    try:
        back = game.parse_action(text)
    except Exception as exc:
        problem = f"{action!r} has text {text!r}, which does not parse: {exc!r}"
        raise case.fail(seed, problem, step) from exc
    if back != action or type(back) is not type(action):
        raise case.fail(seed, f"{action!r} has text {text!r}, which parses to {back!r}", step)


def _junk_is_refused(case: Case, game: Game[Any], text: str, seed: int) -> None:
    try:
        action = game.parse_action(text)
    except ActionParseError:
        return
    except Exception as exc:
        problem = f"parse_action({text!r}) raised {exc!r}, not ActionParseError"
        raise case.fail(seed, problem) from exc
    if str(action) != text.strip():  # a junk text that is an action must be its text form
        raise case.fail(seed, f"parse_action({text!r}) accepted it as {action!r}")


def check_illegal_actions(case: Case, seed: int) -> None:
    """At every step, actions that are not legal there (actions legal earlier in the game, the
    texts of legal actions with their numbers changed) raise ``IllegalActionError`` from
    ``apply`` and change nothing in the state (a full :func:`~sleuth.testing.snapshot`);
    ``is_legal`` agrees with ``legal_actions`` on them.  The finished game refuses every
    action of the game the same way."""
    game = case.make()
    rng = random.Random(derive_seed(seed, "conformance", "illegal"))
    seen: deque[Hashable] = deque(maxlen=POOL)
    state: State[Any] | None = None
    for step, state, action in playthrough(case, game, seed):
        legal = state.legal_actions()
        small = legal if len(legal) <= TEXTS_PER_STEP else [legal[0], legal[-1]]
        candidates = [*seen, *_altered(game, [action, *small])]
        rng.shuffle(candidates)
        probes = 0
        for probe in candidates:
            if probes == PROBES_PER_STEP:
                break
            if state.is_legal(probe):
                if state.current_player() != CHANCE and probe not in legal:
                    problem = f"is_legal() says {probe} is legal but it is not listed as legal"
                    raise case.fail(seed, problem, step)
                continue
            if state.current_player() != CHANCE and probe in legal:
                raise case.fail(seed, f"{probe} is listed as legal but is_legal() says no", step)
            _refused(case, state, probe, seed, step)
            probes += 1
        seen.extend(a for a in (action, *small) if a not in seen)
    if state is not None:
        final = state
        for probe in list(seen)[: PROBES_PER_STEP * 4]:
            if final.is_legal(probe):
                raise case.fail(seed, f"the finished game says {probe} is legal")
            _refused(case, final, probe, seed, None)


def _altered(game: Game[Any], actions: Iterable[Hashable]) -> list[Hashable]:
    """Actions parsed from the texts of ``actions`` with one number changed."""
    out: list[Hashable] = []
    for action in actions:
        text = str(action)
        for match in re.finditer(r"\d+", text):
            for number in (int(match.group()) + 1, 0, 99):
                changed = text[: match.start()] + str(number) + text[match.end() :]
                with contextlib.suppress(ActionParseError):
                    out.append(game.parse_action(changed))
    return out


def _refused(case: Case, state: State[Any], probe: Hashable, seed: int, step: int | None) -> None:
    before = snapshot(state)
    try:
        events = state.apply(probe)
    except IllegalActionError:
        changed = difference(before, snapshot(state))
        if changed is not None:
            raise case.fail(seed, f"refusing {probe} changed the state: {changed}", step) from None
        return
    except Exception as exc:
        raise case.fail(
            seed, f"illegal {probe} raised {exc!r}, not IllegalActionError", step
        ) from exc
    raise case.fail(seed, f"illegal {probe} was applied (events {events})", step)


def check_clones(case: Case, seed: int) -> None:
    """At every step a clone equals the state (a full snapshot), and applying the next action
    to either leaves the other unchanged; both then hold the same data and gave equal events."""
    for step, state, action in random_steps(case, case.make(), seed):
        before = snapshot(state)
        clone = state.clone()
        _same(case, seed, step, before, clone, "a clone differs from its original")
        clone_events = clone.apply(action)
        _same(case, seed, step, before, state, f"{action} on a clone changed the original")
        after = snapshot(clone)
        events = state.apply(action)
        _same(case, seed, step, after, clone, f"{action} on the original changed its clone")
        _same(case, seed, step, after, state, f"{action} plays differently on a clone")
        if events != clone_events:
            raise case.fail(seed, f"{action} gave {events} but {clone_events} on a clone", step)


def _same(
    case: Case, seed: int, step: int, expected: Snapshot, state: State[Any], what: str
) -> None:
    changed = difference(expected, snapshot(state))
    if changed is not None:
        raise case.fail(seed, f"{what}: {changed}", step)


def check_events(case: Case, seed: int) -> None:
    """Every event is frozen, its mappings are read-only, every value in them is immutable
    (numbers, strings, tuples, frozensets, read-only mappings), its audience is a set of
    seats, and its JSON form reads back to the same event."""
    game = case.make()
    for step, state, action in random_steps(case, game, seed):
        for event in state.apply(action):
            problem = _event_problem(event, game.num_players)
            if problem is not None:
                raise case.fail(seed, f"{action}: event {event.kind!r} {problem}", step)


def _event_problem(event: Event, seats: int) -> str | None:
    try:
        event.kind = "changed"  # type: ignore[misc]  # the refusal is what is checked
    except dataclasses.FrozenInstanceError:
        pass
    else:
        return "is not frozen"
    for part in ("public", "private"):
        fields = getattr(event, part)
        if fields is None:
            continue
        if isinstance(fields, MutableMapping) or not isinstance(fields, Mapping):
            return f"has a {part} part that can be changed ({type(fields).__name__})"
        for key, value in fields.items():
            if not _immutable(value):
                return f"has a mutable {part} field {key!r}: {value!r}"
    if not event.audience <= frozenset(range(seats)):
        return f"has an audience {sorted(event.audience)} that is not a set of seats"
    back = Event.from_json(json.loads(json.dumps(event.to_json())))
    if back.to_json() != event.to_json():
        return f"does not read back from its JSON form {event.to_json()}"
    return None


def _immutable(value: object) -> bool:
    if isinstance(value, int | float | str | bool | bytes | type(None)):
        return True
    if isinstance(value, tuple | frozenset):
        return all(_immutable(v) for v in value)
    if isinstance(value, Mapping) and not isinstance(value, MutableMapping):
        return all(_immutable(v) for v in value.values())
    return False
