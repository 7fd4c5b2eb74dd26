"""Rule ids cited anywhere are defined in the repository's docs, and nothing points outside it.

A rule id is a capital letter and a number ("K21"); a range ("F1-F30", "K14–K19") cites every id
in it.  Which letters are rule ids depends on the game: Fox in a Hole uses X, A and O, Fugitive
F, D, E, T and M, Camel Up C, K, E, V and T, with its exact-odds O ids on a page of their own,
Scotland Yard S, O and C, Cluedo C, M, K, E, O and U.  So the game of a file is read from its
path (``fox``, ``fugitive``, ``camel_up``/``camel-up``, ``scotland_yard``/``scotland-yard``,
``cluedo`` in it), and each of its ids is looked up on that game's page, where ids are defined
by list items that start with the bold id (``- **K21** ...``).  A file whose path names no game
must not cite an id with any of these letters (add it to ``PATH_GAMES`` instead), so no
citation goes unchecked.
Words that merely look like ids under another game's letters (a cycle "C4" in a Fox test, the
graph "P5") are not rule ids of that game and are not checked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SCANNED = ("src", "tests", "bench", "studies")
"""The folders whose files' citations are checked (besides the games' own docs pages)."""


@dataclass(frozen=True)
class Game:
    """A game, the path words that mark its files, and the docs page of each of its id letters."""

    name: str
    path_words: tuple[str, ...]
    pages: Mapping[str, str]


GAMES = (
    Game("fox", ("fox",), dict.fromkeys("XAO", "fox.md")),
    Game("fugitive", ("fugitive",), dict.fromkeys("FDETM", "fugitive.md")),
    Game(
        "camel-up",
        ("camel_up", "camel-up"),
        {**dict.fromkeys("CKEVT", "camel-up.md"), "O": "camel-up-odds.md"},
    ),
    Game(
        "scotland-yard",
        ("scotland_yard", "scotland-yard"),
        dict.fromkeys("SOC", "scotland-yard.md"),
    ),
    Game("cluedo", ("cluedo",), dict.fromkeys("CMKEOU", "cluedo.md")),
)
PATH_GAMES = {
    "bench/_networkx_notes.py": "fugitive",
    "studies/learn_marshal.py": "fugitive",
    "tests/envs/test_learned.py": "fugitive",
}
"""Files that belong to one game although their path does not say which."""

LETTERS = {letter for game in GAMES for letter in game.pages}
CITED = re.compile(r"\b([A-Z])(\d{1,2})\b(?:\s*[-–]\s*\1(\d{1,2})\b)?")
DEFINED = re.compile(r"^\s*- \*\*([A-Z]\d{1,2})\*\*", re.MULTILINE)


def cited_ids(text: str) -> set[str]:
    """Every id the text cites, each range expanded to all the ids in it."""
    ids: set[str] = set()
    for match in CITED.finditer(text):
        letter, first, last = match.group(1), int(match.group(2)), match.group(3)
        ids.update(f"{letter}{n}" for n in range(first, int(last or first) + 1))
    return ids


def defined_ids(page: str) -> list[str]:
    """The ids a docs page defines, in order (a list, so that duplicates show)."""
    return DEFINED.findall(page)


def game_of(relative: str) -> Game | None:
    """The game a file belongs to, from its path relative to the repository; None if no game.

    A path that names two games is an error: its ids could be either game's."""
    if relative in PATH_GAMES:
        return next(game for game in GAMES if game.name == PATH_GAMES[relative])
    found = [game for game in GAMES if any(word in relative for word in game.path_words)]
    if len(found) > 1:
        raise ValueError(f"{relative} names several games: {[game.name for game in found]}")
    return found[0] if found else None


def undefined_citations(files: Iterable[tuple[str, str]], pages: Mapping[str, str]) -> list[str]:
    """One line per cited id that its game's page does not define, or that no game can claim.

    ``files`` are (path relative to the repository, text); ``pages`` maps a page name to its
    text."""
    defined = {name: set(defined_ids(text)) for name, text in pages.items()}
    problems = []
    for relative, text in files:
        game = game_of(relative)
        for rule in sorted(cited_ids(text), key=lambda r: (r[0], int(r[1:]))):
            letter = rule[0]
            if game is None:
                if letter in LETTERS:
                    problems.append(f"{relative}: cites {rule} but its path names no game")
            elif letter in game.pages and rule not in defined[game.pages[letter]]:
                problems.append(f"{relative}: {rule} is not defined in docs/{game.pages[letter]}")
    return problems


def repository_files() -> list[tuple[str, str]]:
    """The scanned folders' Python and Markdown files, and the games' docs pages."""
    paths = [
        path
        for folder in SCANNED
        for pattern in ("*.py", "*.md")
        for path in (ROOT / folder).rglob(pattern)
        if path != Path(__file__).resolve()
    ]
    paths += [path for path in DOCS.glob("*.md") if game_of(f"docs/{path.name}") is not None]
    return [(path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")) for path in paths]


def game_pages() -> dict[str, str]:
    names = {name for game in GAMES for name in game.pages.values()}
    return {name: (DOCS / name).read_text(encoding="utf-8") for name in names}


def test_every_cited_rule_id_is_defined_on_its_games_page() -> None:
    assert undefined_citations(repository_files(), game_pages()) == []


@pytest.mark.parametrize("name", sorted({n for game in GAMES for n in game.pages.values()}))
def test_each_games_page_defines_its_ids_once(name: str) -> None:
    ids = defined_ids((DOCS / name).read_text(encoding="utf-8"))
    assert ids, f"docs/{name} defines no rule id"
    assert sorted({i for i in ids if ids.count(i) > 1}) == []


def test_the_checker_reports_a_missing_id_a_range_and_an_unclaimed_file() -> None:
    pages = {"fox.md": "- **X1** one\n- **X2** two\n", "fugitive.md": "- **F1** a\n"}
    pages |= {"camel-up.md": "", "camel-up-odds.md": "", "scotland-yard.md": "- **S1** a\n"}
    files = [
        ("src/sleuth/games/fox/rules.py", "X1, X2 and X3; C4 and P5 are graphs"),
        ("tests/games/scotland_yard/test_x.py", "rules S1-S2; F9 is no id here"),
        ("tests/games/fugitive/test_x.py", "rules F1–F2"),
        ("src/sleuth/core/x.py", "see K21"),
        ("src/sleuth/core/y.py", "Z95 and P5 are no rule ids"),
    ]
    assert undefined_citations(files, pages) == [
        "src/sleuth/games/fox/rules.py: X3 is not defined in docs/fox.md",
        "tests/games/scotland_yard/test_x.py: S2 is not defined in docs/scotland-yard.md",
        "tests/games/fugitive/test_x.py: F2 is not defined in docs/fugitive.md",
        "src/sleuth/core/x.py: cites K21 but its path names no game",
    ]


def test_cited_ids_expand_ranges_and_skip_longer_words() -> None:
    assert cited_ids("F1-F3, K14–K16 and E9; not F100, XF2, F2b or k21") == {
        "F1", "F2", "F3", "K14", "K15", "K16", "E9",
    }  # fmt: skip


def test_a_path_naming_two_games_is_refused() -> None:
    with pytest.raises(ValueError, match="names several games"):
        game_of("tests/test_fox_vs_fugitive.py")


OUTSIDE = re.compile(r"\bshared/")
MACHINE_PATH = re.compile(r"(?<![\w.~])/(?:work|root|home|tmp|Users)/")


def text_files(*folders: str) -> list[Path]:
    return [
        path
        for folder in folders
        for pattern in ("*.py", "*.md", "*.toml", "*.txt", "*.json", "*.jsonl")
        for path in (ROOT / folder).rglob(pattern)
    ]


def test_nothing_in_the_repository_points_to_shared() -> None:
    """src/, docs/, studies/ and the README never cite ``shared/``; tests and benchmarks only its
    data (the classic Scotland Yard map, which they read when it is there)."""
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in [*text_files("src", "docs", "bench", "studies", "tests"), ROOT / "README.md"]
        if path != Path(__file__).resolve()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if any(
            not (
                (path.is_relative_to(ROOT / "tests") or path.is_relative_to(ROOT / "bench"))
                and line[m.end() :].startswith("data")
            )
            for m in OUTSIDE.finditer(line)
        )
    ]
    assert offenders == []


def test_docs_and_bench_scripts_name_no_machines_absolute_path() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in [*text_files("docs", "bench"), ROOT / "README.md"]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if MACHINE_PATH.search(line)
    ]
    assert offenders == []


def test_the_pattern_checks_find_what_they_look_for() -> None:
    assert OUTSIDE.search("see ``shared/rules/fox.md``")
    assert not OUTSIDE.search("a shared win")
    assert MACHINE_PATH.search("    /work/main/.venv/bin/python bench/x.py")
    assert MACHINE_PATH.search("written to /tmp/logs")
    assert not MACHINE_PATH.search(".venv/bin/python bench/x.py and ~/.cache/sleuth")
