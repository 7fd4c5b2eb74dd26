"""Cluedo's cards: fixed indices, solution numbers, names and aliases per edition (C1-C4)."""

from __future__ import annotations

import pytest

from sleuth.games.cluedo.cards import (
    EDITIONS,
    NAMES,
    ROOMS,
    SOLUTIONS,
    SUSPECTS,
    WEAPONS,
    CardNameError,
    Category,
    card_named,
    category,
    names_of,
    solution_cards,
    solution_index,
)


def test_the_cards_have_the_fixed_indices_of_c2() -> None:
    assert NAMES[:6] == ("Scarlet", "Mustard", "White", "Green", "Peacock", "Plum")
    assert NAMES[6:12] == ("Knife", "Candlestick", "Revolver", "Rope", "Lead Pipe", "Wrench")
    assert NAMES[12:] == (
        "Hall", "Lounge", "Dining Room", "Kitchen", "Ballroom", "Conservatory",
        "Billiard Room", "Library", "Study",
    )  # fmt: skip
    assert [category(c) for c in range(21)] == [0] * 6 + [1] * 6 + [2] * 9
    assert [list(k.cards) for k in Category] == [list(SUSPECTS), list(WEAPONS), list(ROOMS)]


def test_solution_numbers_are_54s_9w_r_and_cover_the_324_envelopes() -> None:
    seen = {solution_index(s, w, r) for s in SUSPECTS for w in WEAPONS for r in ROOMS}
    assert seen == set(range(SOLUTIONS)) and SOLUTIONS == 324
    assert solution_index(5, 9, 15) == 54 * 5 + 9 * 3 + 3
    for index in range(SOLUTIONS):
        assert solution_index(*solution_cards(index)) == index


@pytest.mark.parametrize(
    ("text", "card"),
    [
        ("Scarlet", 0),
        ("miss scarlett", 0),
        ("Col. Mustard", 1),
        ("COLONEL MUSTARD", 1),
        ("Dr. Orchid", 2),
        ("doctor orchid", 2),
        ("Mrs White", 2),
        ("Reverend Green", 3),
        ("Rev. Green", 3),
        ("mr. green", 3),
        ("Prof. Plum", 5),
        ("Dagger", 6),
        ("lead piping", 10),
        ("LeadPipe", 10),
        ("Spanner", 11),
        ("dining room", 14),
        ("Dining", 14),
        ("Ball Room", 16),
        ("billiard", 18),
    ],
)
def test_aliases_of_every_edition_are_accepted_everywhere(text: str, card: int) -> None:
    assert card_named(text) == card
    assert card_named(text, EDITIONS["uk"]) == card


def test_no_name_names_two_cards() -> None:
    owners: dict[str, set[int]] = {}
    for card in range(21):
        for name in names_of(card):
            owners.setdefault("".join(c for c in name.lower() if c.isalnum()), set()).add(card)
    assert [key for key, cards in owners.items() if len(cards) > 1] == []
    assert len(owners) > 21


def test_editions_show_their_own_names() -> None:
    classic, uk = EDITIONS["classic"].display, EDITIONS["uk"].display
    assert (classic[0], classic[3], classic[6], classic[10], classic[11]) == (
        "Miss Scarlet", "Mr. Green", "Knife", "Lead Pipe", "Wrench",
    )  # fmt: skip
    assert (uk[0], uk[3], uk[6], uk[10], uk[11]) == (
        "Miss Scarlett", "Reverend Green", "Dagger", "Lead Piping", "Spanner",
    )  # fmt: skip
    assert (EDITIONS["classic"].dice, EDITIONS["uk"].dice) == (1, 2)


@pytest.mark.parametrize(
    ("text", "kind", "message"),
    [
        ("Plumb", None, "no card is called 'Plumb'; close names: Professor Plum"),
        ("Candelstick", None, "close names: Candlestick"),
        ("Hal", Category.ROOM, "no room is called 'Hal'; close names: Hall"),
        ("Hall", Category.WEAPON, "Hall is a room, not a weapon"),
        ("Spanner", Category.SUSPECT, "Wrench is a weapon, not a suspect"),
        ("xyzzy", Category.WEAPON, "the weapons are: Knife, Candlestick, Revolver, Rope,"),
    ],
)
def test_unknown_names_are_refused_with_close_names(
    text: str, kind: Category | None, message: str
) -> None:
    with pytest.raises(CardNameError) as caught:
        card_named(text, kind=kind)
    assert message in str(caught.value)


def test_errors_use_the_editions_names() -> None:
    with pytest.raises(CardNameError, match="close names: Spanner"):
        card_named("Spaner", EDITIONS["uk"])
