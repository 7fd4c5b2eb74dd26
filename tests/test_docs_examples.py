"""Every command shown in README.md and docs/*.md runs as written: documented examples cannot rot.

What counts as an example:

- every command in a ```bash (or ```sh) block; a line that ends inside a quotation continues
  on the next, and a heredoc runs to its end marker; when a block shows ``$ command`` followed
  by lines without ``$``, those lines are its expected output and must match;
- ``$ sleuth ...`` and ``$ python ...`` lines in any other block (a terminal transcript);
- inline code spans that are whole commands: ``sleuth ...`` or ``python studies/...`` with an
  option and no placeholder (no ``GAME``, ``FILE``, ``[...]``, ``<...>``, ``...``);
- the ```python blocks of the README and of the pages in :data:`PYTHON_PAGES`.

Each runs with ``bash`` in a fresh temporary folder that has ``.venv`` (this interpreter's
environment), ``studies/`` and ``examples/`` of the repository; ``sleuth`` and ``python`` on the
PATH are this environment's.  Large game counts are cut (``-n``/``--games`` to at most
:data:`GAMES_CAP`, study runs to a few games); the assistants and ``sleuth fox play`` get
``quit`` as input.  An example that reads a file an earlier example of the same page makes
(``fox-logs/``, ``cu.duckdb``, ``sleuth.duckdb``, a study's database) runs that example first, in
the same folder, so every test stands alone (and under pytest-xdist).

An example fails on a non-zero exit, a traceback, a forfeit (``forfeits N`` in the text output
or ``"forfeits": N`` in JSON, N > 0), or output that differs from the output the page shows.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest
import typer

from sleuth.cli.app import app
from sleuth.cli.lazy import subcommand

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
GAMES_CAP = 10
"""The most games a rewritten ``-n``/``--games`` asks for (the docs show up to 100,000)."""
STUDY_GAMES = {
    "fugitive_study.py": 1,
    "fugitive_balance.py": 1,
    "camel_up_study.py": 300,
    "scotland_yard_study.py": 1,
    "cluedo_study.py": 1,
}
"""``--games`` of a study's ``run`` (and the balance study's ``psro``): the Fugitive study plays
17 pairings of that many games."""
SHELL_FENCES = {"bash", "sh", "shell"}
COMMAND = re.compile(r"^(\.venv/bin/)?(sleuth|python3?) ")
INTERACTIVE = re.compile(r"\bsleuth (assist|fox play)\b")
PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_]*\b|\[|<|\.\.\.")

PYTHON_PAGES = {"README.md": (), "docs/envs.md": ("gymnasium", "pettingzoo", "pyspiel")}
"""The pages whose ```python blocks run, with the libraries of an extra they need: without
them (the plain install's CI step) the blocks are skipped, saying so."""

SKIPPED = {
    "pip install": "installs packages (the rl extra of docs/envs.md is part of the dev install)",
    "python3 dev.py demo": "sets up .venv with pip; its three tournaments are `sleuth play fox` "
    "commands shown on docs/fox.md",
    "python3 dev.py test": "is CI itself (.ci/run)",
    "python bench/": "benchmarks run with --quick in tests/test_bench.py",
    "python studies/learn_camel_up.py train --steps": "a real training (10 minutes or more); "
    "--quick runs here and in tests/envs/test_learned.py",
    "python studies/learn_marshal.py train --imitate": "a real training (10 minutes or more); "
    "--quick runs here and in tests/envs/test_learned.py",
}
"""Examples that are not run here, by a part of their text, with the reason."""

EXTRA_COMMANDS = {"sleuth report ": ("matplotlib", "jinja2")}
"""Commands that need an extra, by their start, with its libraries: without them (the plain
install's CI step) their examples are skipped, saying so."""

SLOW = (
    "ismcts",
    "belief",
    "strong",
    "dmcts",
    "studies/",
    "camel-up odds",
    "assist camel-up",
    "ev,",
    "steady",
    "elusive",
    "heuristic,notes",
)
"""Examples marked slow (a few seconds or more each, even with few games), by a part of their
text."""
SHELL_EXTRAS = {"--backend ray": "ray", '"sleuth", "serve"': "uvicorn"}
"""Shell examples that need an extra, by a part of their text, with the library it installs:
without it (the plain install's CI step) they are skipped, saying so.  They are slow too (a
local Ray cluster takes seconds to start; the web app's example plays a whole game)."""


@dataclass(frozen=True)
class Example:
    """One documented example: a shell command (or a Python program) and where it is shown."""

    page: str
    line: int
    kind: str  # "shell" or "python"
    text: str
    expected: str | None = None  # the output the page shows, if it shows one
    earlier: tuple[Example, ...] = field(default=(), compare=False, repr=False)
    """The examples shown before this one on the same page, in order."""

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def _complete(command: str) -> bool:
    """Whether ``command`` is whole: no open quotation, no trailing backslash."""
    if command.rstrip().endswith("\\"):
        return False
    try:
        shlex.split(command, comments=True)
    except ValueError:
        return False
    return True


def _without_comment(line: str) -> str:
    """``line`` without a trailing ``# comment`` (a ``#`` inside quotes is kept)."""
    for mark in re.finditer(r"\s+#", line):
        before = line[: mark.start()]
        if _complete(before) and shlex.split(before) == shlex.split(line, comments=True):
            return before.rstrip()
    return line.rstrip()


def _shell_block(page: str, start: int, lines: list[str]) -> Iterator[Example]:
    """The commands of a shell block whose first line is line ``start`` of ``page``."""
    transcript = any(line.startswith("$ ") for line in lines)
    i = 0
    while i < len(lines):
        line, number = lines[i], start + i
        i += 1
        if transcript and not line.startswith("$ "):
            continue
        command = _without_comment(line.removeprefix("$ ") if transcript else line)
        if not command.strip() or command.lstrip().startswith("#"):
            continue
        heredoc = re.search(r"<<-?\s*'?(\w+)'?", command)
        while i < len(lines) and (
            (heredoc and command.splitlines()[-1].strip() != heredoc.group(1))
            or (not heredoc and not _complete(command))
        ):
            command += "\n" + lines[i]
            i += 1
        expected = None
        if transcript:
            shown = []
            while i < len(lines) and not lines[i].startswith("$ "):
                shown.append(lines[i])
                i += 1
            expected = "\n".join(shown).strip() or None
        yield Example(page, number, "shell", command, expected)


def _inline(page: str, number: int, line: str) -> Iterator[Example]:
    for span in re.findall(r"`([^`]+)`", line):
        span = span.strip()
        if not re.match(r"(sleuth|python studies/)", span) or PLACEHOLDER.search(span):
            continue
        words = span.split()
        if span == "sleuth --version" or (
            len(words) >= 4 and " -" in span and not _wants_value(words)
        ):
            yield Example(page, number, "shell", span)


def _wants_value(words: list[str]) -> bool:
    """Whether the ``sleuth`` command ``words`` ends with an option that needs a value, as a
    mention in prose does (``sleuth infer fugitive --log``)."""
    command = typer.main.get_command(app)
    for word in words[1:]:
        if hasattr(command, "list_commands"):  # a group: the word may name a command of it
            command = subcommand(command, word) or command
    last = words[-1]
    return any(
        last in getattr(param, "opts", ()) and not getattr(param, "is_flag", False)
        for param in command.params
    )


def page_examples(path: Path) -> list[Example]:
    """The examples of one page, in the order they are shown."""
    page = str(path.relative_to(ROOT))
    found: list[Example] = []
    fence: str | None = None
    block: list[str] = []
    start = 0
    for number, line in enumerate(path.read_text().splitlines(), 1):
        opening = re.match(r"\s*```\s*(\w*)\s*$", line)
        if fence is None and opening:
            fence, block, start = opening.group(1), [], number + 1
        elif fence is not None and line.strip() == "```":
            if fence in SHELL_FENCES:
                found.extend(_shell_block(page, start, block))
            elif fence == "python" and page in PYTHON_PAGES:
                found.append(Example(page, start, "python", "\n".join(block)))
            else:
                for offset, text in enumerate(block):
                    command = text.strip().removeprefix("$ ")
                    if text.strip().startswith("$ ") and COMMAND.match(command):
                        found.append(Example(page, start + offset, "shell", command))
            fence = None
        elif fence is not None:
            block.append(line)
        else:
            found.extend(_inline(page, number, line))
    examples: list[Example] = []
    for example in found:
        examples.append(replace(example, earlier=tuple(examples)))
    return examples


EXAMPLES = [example for path in PAGES for example in page_examples(path)]


def shortened(command: str) -> str:
    """``command`` with its game counts cut to a test's size."""
    study = re.search(r"studies/(\w+\.py) (run|psro)\b", command)
    if study:
        games = STUDY_GAMES[study.group(1)]
        command = re.sub(r"--games[ =][\d,_]+", f"--games {games}", command)
        return command if "--games" in command else f"{command} --games {games}"

    def cap(match: re.Match[str]) -> str:
        return f"{match.group(1)} {min(int(match.group(2).replace(',', '')), GAMES_CAP)}"

    command = re.sub(r"(?<!\S)(-n|--games)[ =]([\d,]+)", cap, command)
    if re.match(r"(\.venv/bin/)?sleuth (play|compare) ", command) and not re.search(
        r"(?<!\S)(-n|--games)[ =]", command
    ):
        command += f" -n {GAMES_CAP}"  # the default is 100 (play) or 200 (compare)
    return command


def outputs(example: Example) -> set[str]:
    """The files and folders ``example`` makes that a later example could read."""
    words = example.text.split()
    made = {words[i + 1].rstrip("/") for i, w in enumerate(words[:-1]) if w in ("--logs", "--csv")}
    if re.search(r"sleuth (play|compare|league) ", example.text):
        db = words[words.index("--db") + 1] if "--db" in words else None
        if db is not None:
            made.add(db)
        elif "--no-db" not in words:
            made.add("sleuth.duckdb")
    study = re.search(r"(studies/\w+\.py) (run|psro)\b", example.text)
    if study:
        made |= {study.group(1), "study-output"}
    if re.search(r"studies/learn_\w+\.py train\b", example.text) and "--model" in words:
        made.add(words[words.index("--model") + 1])  # the model a training saves
    return made


def prerequisites(example: Example) -> list[Example]:
    """The earlier examples of the page that make what ``example`` reads, in page order: for each
    file it names, the last example before it that makes that file, the last quick one if there
    is one (and what that one needs); for a ``--resume``, the same command without it."""
    needed: dict[str, Example] = {}
    own = outputs(example)  # a play appends to its --db: it does not need the file first
    for earlier in example.earlier:
        for made in outputs(earlier) - own:
            if made in example.text and (
                made not in needed or slow(needed[made]) or not slow(earlier)
            ):
                needed[made] = earlier
        if earlier.text == example.text.replace(" --resume", "") != example.text:
            needed["the run to resume"] = earlier  # (here it finished: nothing is left to play)
    chain: list[Example] = []
    for earlier in sorted(set(needed.values()), key=lambda e: e.line):
        for step in [*prerequisites(earlier), earlier]:
            if step not in chain:
                chain.append(step)
    return chain


def workspace(tmp_path: Path) -> Path:
    """A fresh folder with the repository's ``.venv``, ``studies/`` and ``examples/``."""
    (tmp_path / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    for name in ("studies", "examples"):
        if (ROOT / name).exists():
            (tmp_path / name).symlink_to(ROOT / name, target_is_directory=True)
    return tmp_path


def run(example: Example, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "MPLBACKEND": "Agg",
        "COLUMNS": "200",
    }
    stdin = "quit\n" if INTERACTIVE.search(example.text) else ""
    if example.kind == "python":
        args = [sys.executable, "-"]
        stdin = example.text
    else:
        args = ["bash", "-eo", "pipefail", "-c", shortened(example.text)]
    return subprocess.run(
        args, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=600
    )


def problems(example: Example, result: subprocess.CompletedProcess[str]) -> list[str]:
    """What is wrong with the run of ``example``: nothing if it worked as the page says."""
    found = []
    if result.returncode != 0:
        found.append(f"exit code {result.returncode}")
    if "Traceback (most recent call last)" in result.stdout + result.stderr:
        found.append("a traceback")
    forfeits = re.findall(r"\bforfeits:? (\d+)|\"forfeits\": (\d+)", result.stdout)
    if any(int(a or b) for a, b in forfeits):
        found.append("forfeits")
    unchanged = shortened(example.text) == example.text
    if example.expected is not None and unchanged and result.stdout.strip() != example.expected:
        found.append(f"output {result.stdout.strip()!r}, the page shows {example.expected!r}")
    return found


def slow(example: Example) -> bool:
    """Whether ``example`` is one of the :data:`SLOW` ones."""
    return any(part in example.text for part in SLOW)


LEARNING = re.compile(r"studies/learn_|\bppo\b")
"""Examples that play or train a learned model: they need the learn extra (torch, sb3-contrib),
which the plain install has not."""
LEARN_MISSING = pytest.mark.skipif(
    importlib.util.find_spec("sb3_contrib") is None,
    reason="needs the learn extra (torch's CPU build, then pip install -e '.[learn]')",
)


def _marks(example: Example) -> list[pytest.MarkDecorator]:
    steps = [*prerequisites(example), example]
    marks = [pytest.mark.slow] if any(slow(step) for step in steps) else []
    for part, module in SHELL_EXTRAS.items():
        if example.kind == "shell" and part in example.text:
            marks.append(pytest.mark.slow)
            if importlib.util.find_spec(module) is None:
                reason = f"{module} not installed (the extra `{part}` needs)"
                marks.append(pytest.mark.skip(reason=reason))
    if any(LEARNING.search(step.text) for step in steps):
        marks.append(LEARN_MISSING)
    for part, reason in SKIPPED.items():
        if example.text.startswith(part):
            marks.append(pytest.mark.skip(reason=reason))
    needs = PYTHON_PAGES[example.page] if example.kind == "python" else ()
    for start, libraries in EXTRA_COMMANDS.items():
        if example.kind == "shell" and example.text.startswith(start):
            needs = libraries
    if needs:
        absent = [m for m in needs if importlib.util.find_spec(m) is None]
        if absent:
            reason = f"{', '.join(absent)} not installed (an extra this page's examples need)"
            marks.append(pytest.mark.skip(reason=reason))
    return marks


@pytest.mark.parametrize("example", [pytest.param(e, id=e.id, marks=_marks(e)) for e in EXAMPLES])
def test_documented_example(example: Example, tmp_path: Path) -> None:
    cwd = workspace(tmp_path)
    for step in prerequisites(example):
        before = run(step, cwd)
        assert not problems(step, before), f"{step.id} (needed first): {before.stderr[-2000:]}"
    result = run(example, cwd)
    found = problems(example, result)
    assert not found, (
        f"{example.id}: {shortened(example.text)}\n{', '.join(found)}\n"
        f"--- stdout\n{result.stdout[-3000:]}\n--- stderr\n{result.stderr[-3000:]}"
    )


def test_examples_are_found() -> None:
    """The extraction finds what the pages show (a change that loses examples fails here)."""
    texts = [e.text for e in EXAMPLES]
    assert "sleuth games" in texts
    assert "sleuth play fugitive --bots heuristic,ppo -o max_rounds=50 -n 20" in texts
    assert any(t.startswith("sleuth replay fox-logs/") for t in texts)
    assert any(e.kind == "python" and e.page == "README.md" for e in EXAMPLES)
    assert sum(e.kind == "python" and e.page == "docs/envs.md" for e in EXAMPLES) == 3
    heredoc = next(t for t in texts if t.startswith("python - <<'EOF'"))
    assert heredoc.endswith("\nEOF")
    shown = next(e for e in EXAMPLES if e.text == "sleuth fox solve --graph path:5 --json")
    assert (
        shown.expected
        == '{"winnable": true, "days": 6, "strategy": [[1], [2], [3], [1], [2], [3]]}'
    )
    readme = [e for e in EXAMPLES if e.page == "README.md"]
    replay = next(e for e in readme if e.text.startswith("sleuth replay fox-logs/"))
    assert [p.text.split()[:3] for p in prerequisites(replay)] == [["sleuth", "play", "fox"]]
    assert "--logs fox-logs/" in prerequisites(replay)[0].text
    resume = next((e for e in EXAMPLES if e.text.endswith(" --resume")), None)
    if resume is not None:
        assert [p.text for p in prerequisites(resume)] == [resume.text.removesuffix(" --resume")]


def test_shortened() -> None:
    assert (
        shortened("sleuth play fox --bots a,b --games 1000")
        == "sleuth play fox --bots a,b --games 10"
    )
    assert (
        shortened("sleuth play fox --bots a,b -n 5 -o k=2")
        == "sleuth play fox --bots a,b -n 5 -o k=2"
    )
    assert shortened("sleuth play fox --bots a,b") == "sleuth play fox --bots a,b -n 10"
    assert shortened("sleuth fox solve --graph path:5") == "sleuth fox solve --graph path:5"
    assert (
        shortened("python studies/camel_up_study.py run --games 100000")
        == "python studies/camel_up_study.py run --games 300"
    )
    assert (
        shortened("python studies/fugitive_study.py report")
        == "python studies/fugitive_study.py report"
    )


def test_problems_are_caught() -> None:
    example = Example("x.md", 1, "shell", "sleuth fox solve --graph path:5 --json", "{}")

    def done(code: int, out: str, err: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess([], code, out, err)

    assert problems(example, done(0, "{}\n")) == []
    assert problems(example, done(2, "{}")) == ["exit code 2"]
    assert problems(example, done(0, "{}", "Traceback (most recent call last):\n")) == [
        "a traceback"
    ]
    assert problems(example, done(0, "[]")) == ["output '[]', the page shows '{}'"]
    play = Example("x.md", 1, "shell", "sleuth play fox --bots random,random -n 5")
    assert problems(play, done(0, "5 games in 0.1 s, mean moves per game 7, forfeits 0")) == []
    forfeited = done(0, "5 games in 0.1 s, mean moves per game 7, forfeits 3")
    assert problems(play, forfeited) == ["forfeits"]
    assert problems(play, done(0, '{"forfeits": 0, "x": {"forfeits": 1}}')) == ["forfeits"]


def test_a_command_needing_a_missing_extra_is_skipped(monkeypatch: pytest.MonkeyPatch) -> None:
    """`sleuth report` needs the report extra: on the plain install its examples are skipped."""
    monkeypatch.setitem(EXTRA_COMMANDS, "sleuth report ", ("no_such_library",))
    marks = _marks(Example("x.md", 1, "shell", "sleuth report --db a.duckdb"))
    assert [m.kwargs["reason"] for m in marks if m.name == "skip"] == [
        "no_such_library not installed (an extra this page's examples need)"
    ]
    assert _marks(Example("x.md", 1, "shell", "sleuth games")) == []


def test_a_python_example_needing_a_missing_library_is_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The plain install has no extras: a page's Python examples that need one are skipped
    there, naming the library (and run where it is installed)."""
    monkeypatch.setitem(PYTHON_PAGES, "x.md", ("no_such_library", "pytest"))
    marks = _marks(Example("x.md", 1, "python", "print(1)"))
    assert [m.kwargs["reason"] for m in marks if m.name == "skip"] == [
        "no_such_library not installed (an extra this page's examples need)"
    ]
    monkeypatch.setitem(PYTHON_PAGES, "x.md", ("pytest",))
    assert _marks(Example("x.md", 1, "python", "print(1)")) == []
