"""A person's choices for a new game: as the JSON API takes them (:class:`NewGame`), and as
the new-game page's plain HTML form sends them (:func:`choice_from_form`), read into the same
:class:`NewGame` so that both ways start a game through the same checks
(:func:`sleuth.web.live.new_log`).

The form's fields: ``game`` (hidden), ``role``, ``seat`` and ``seed`` (empty: none), ``people``
(the seats other people play, as numbers apart), ``name`` (the chooser's name, empty: none),
``names`` (the friends' names, one ``seat=name`` line each), ``bots`` (one ``seat=bot`` line
each) and
``option:NAME`` for each game option, prefilled with its
default text (:func:`option_text`).  An option whose text is its default's is left out, as the
page's script leaves it out, so that the game fills it in (and a role that needs its own seat
count gets it).
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.datastructures import FormData

from sleuth.core.registry import game_spec
from sleuth.web.live import ChoiceError, blame

OPTION_FIELD = "option:"
"""The prefix of a game option's field name in the form (``option:graph``)."""
FIELDS = ("game", "role", "seat", "seed", "people", "name", "names", "bots")
"""The form's other fields."""
WHOLE = re.compile(r"[+-]?\d{1,30}")
"""A whole number as the form takes it (a seed has at most 19 digits)."""


class NewGame(BaseModel):
    """A person's choices for a new game."""

    model_config = ConfigDict(extra="forbid")

    game: str = Field(max_length=100)
    options: dict[str, str] = Field(default_factory=dict, max_length=50)
    seat: int | None = None
    role: str | None = Field(default=None, max_length=100)
    bots: dict[int, str] = Field(default_factory=dict, max_length=20)
    seed: int | None = None
    people: list[int] = Field(default_factory=list, max_length=20)
    """Seats played by other people (each gets a private link), besides the chooser's."""
    name: str | None = Field(default=None, max_length=500)
    """The chooser's name for their seat (:func:`~sleuth.web.live.seat_name` bounds it)."""
    names: dict[int, str] = Field(default_factory=dict, max_length=20)
    """The names of the seats in ``people``, by seat."""


def option_text(value: object) -> str:
    """An option's value as the form writes it (``true``/``false`` for a bool)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def field_label(field: str) -> str:
    """How a message names the form field ``field`` (``option:graph`` is "option graph")."""
    if field.startswith(OPTION_FIELD):
        return f"option {field.removeprefix(OPTION_FIELD)}"
    return field


def form_texts(form: FormData) -> dict[str, str]:
    """The form's fields that are texts, by name (a field given twice: its last text)."""
    return {name: value for name, value in form.multi_items() if isinstance(value, str)}


def choice_from_form(form: FormData) -> NewGame:
    """The choices a submitted new-game form makes, as the JSON API would receive them.

    Raises :class:`ChoiceError` naming the field at fault: an unknown field, a field given
    twice or as a file, no or an unknown game, a seat or seed that is not a whole number, a
    bot line that is not ``seat=bot`` or names a seat twice, or a value over the bounds of
    :class:`NewGame`.  What the game itself refuses is left to
    :func:`~sleuth.web.live.new_log`, as for the JSON API.
    """
    spec = game_spec(chosen_game(form))
    for name in form:
        if name not in FIELDS and not name.startswith(OPTION_FIELD):
            raise ChoiceError(name, f"the form has no field {name!r}")
        values = form.getlist(name)
        if len(values) > 1:
            raise ChoiceError(name, f"{field_label(name)} is given {len(values)} times")
        if not isinstance(values[0], str):
            raise ChoiceError(name, f"{field_label(name)} is a file, not a text")
    texts = form_texts(form)
    defaults = {option.name: option_text(option.default).strip() for option in spec.options}
    options = {}
    for name, text in texts.items():
        if name.startswith(OPTION_FIELD):
            option = name.removeprefix(OPTION_FIELD)
            if text.strip() != defaults.get(option):
                options[option] = text.strip()
    choice = {
        "game": spec.name,
        "role": texts.get("role", "").strip() or None,
        "seat": _whole("seat", texts.get("seat", "")),
        "seed": _whole("seed", texts.get("seed", "")),
        "bots": _lines("bots", "bot", texts.get("bots", "")),
        "name": texts.get("name", "").strip() or None,
        "names": _lines("names", "name", texts.get("names", "")),
        "people": _seats("people", texts.get("people", "")),
        "options": options,
    }
    try:
        return NewGame.model_validate(choice)
    except ValidationError as invalid:
        problem = invalid.errors()[0]  # a text or a count over its bound (too many bots)
        raise ChoiceError(str(problem["loc"][0]), str(problem["msg"])) from invalid


def chosen_game(form: FormData) -> str:
    """The name of the game the form is for (its ``game`` field); a ChoiceError blaming
    ``game`` when it has none or an unknown one."""
    game = form.get("game")
    if not isinstance(game, str) or not game.strip():
        raise ChoiceError("game", "no game is chosen")
    with blame("game"):
        return game_spec(game.strip()).name


def _whole(field: str, text: str) -> int | None:
    """The whole number ``text`` of ``field``; None when it is empty."""
    text = text.strip()
    if not text:
        return None
    if WHOLE.fullmatch(text) is None:
        raise ChoiceError(field, f"{field} {text!r} is not a whole number")
    return int(text)


def _seats(field: str, text: str) -> list[int]:
    """The seat numbers in ``text``, apart by commas or spaces (a ChoiceError blaming
    ``field`` for one that is not a whole number)."""
    seats = []
    for word in text.replace(",", " ").split():
        if WHOLE.fullmatch(word) is None:
            raise ChoiceError(field, f"seat {word!r} is not a whole number")
        seats.append(int(word))
    return seats


def _lines(field: str, word: str, text: str) -> dict[int, str]:
    """The ``seat=WORD`` lines of the form's ``field`` text, by seat, blank lines skipped: the
    ``bots`` (a bot's own options follow its name after colons, as ``--bots`` takes them) or
    the friends' ``names``.  A ChoiceError blaming ``field`` for a line without ``=``, with a
    seat that is not a number or a seat given twice."""
    found: dict[int, str] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        seat_text, equals, value = line.partition("=")
        if not equals:
            raise ChoiceError(field, f"{word} line {line.strip()!r}: write seat={word}")
        seat_text = seat_text.strip()
        if WHOLE.fullmatch(seat_text) is None:
            raise ChoiceError(field, f"{word} line {line.strip()!r}: the seat is not a number")
        seat = int(seat_text)
        if seat in found:
            raise ChoiceError(
                field, f"{word} line {line.strip()!r}: seat {seat} has a {word} already"
            )
        found[seat] = value.strip()
    return found
