"""The read-eval-print loop shared by every interactive tool (the table-side assistants and
``sleuth fox play``).

A game plugs in a :class:`~sleuth.core.table.TableSession`: it turns one typed entry into
recorded facts (or refuses it with a :class:`~sleuth.core.errors.SleuthError`, changing
nothing), takes back the last entry, renders what can be deduced, and saves and loads its view
log.  It may add commands of its own (:class:`~sleuth.core.table.Command`) and may end
(``finished``: a game won or given up).  The end of the game does not end the loop: it says
the game is over once, and goes on reading, so that the last entries can still be taken back,
edited or saved (the session refuses new entries until an entry is taken back).
The loop opens with a banner (the session's title, its entry forms and every command), then
adds the commands every tool has:

==========================  =================================================
``help``                    the entry forms and the commands
``show``                    the deduction (or board) again
``history``                 the entries so far, numbered
``undo [N]``                take back the last entry (or the last N)
``edit N NEW ENTRY``        replace entry N; the later entries are entered again
``delete N`` (``edit N``)   remove entry N; the later entries are entered again
``insert N NEW ENTRY``      enter a missed entry before entry N; the later ones again
``save FILE``               write the view log (JSONL) to FILE
``load FILE``               replace the session by the one saved in FILE (with changes
                            not saved, only when typed twice in a row)
``quit`` (or end of input)  leave (the session says what leaving means)
==========================  =================================================

Every command is confirmed by one line (``ok: ...``, ``took back: ...``, ``saved ... to
...``), and every refusal by one ``error: ...`` line, after which the session is as before.
The session is shown again after every change, but not after a session's own command that
only answers (``why CARD``: ``Command.changes`` false), so that the answer stays in sight.
``edit``, ``delete`` and ``insert`` replay the session: they take back entry N and every later
one, then enter the new entry (if any) and the later ones again (``insert`` keeps entry N and
enters it after the new one).  If one of them is no longer possible, the session is put back
as it was and the error names that entry (its number and text); ``edit!``, ``delete!`` and
``insert!`` make the change anyway and drop the later entries that no longer fit, naming
each (a wrong answer typed earlier often makes a later entry impossible: its fix is one
command, not an undo back to it).
An error that is not a SleuthError (a bug) is reported the same way, with its type, and the
loop reads on: the entries typed so far are never lost with the process.
Messages, and a session's rendering given as a string, are printed as plain text (whatever
the console's settings): what the user typed, or a board's ``[3]`` and ``[marked]``, is never
read as Rich markup.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from rich.console import Console, RenderableType
from rich.text import Text

from sleuth.core.errors import SleuthError
from sleuth.core.numbers import shorten, whole_number
from sleuth.core.table import TableSession, count_entries

COMMANDS = """\
help / show / history      these forms / the board or deduction again / the entries so far
undo [N]                   take back the last entry (or the last N)
edit N NEW ENTRY           replace entry N (the later ones are entered again)
delete N                   remove entry N (the later ones are entered again)
insert N NEW ENTRY         a missed entry, before entry N (the later ones again)
edit! / delete! / insert!  the same, dropping the later entries that no longer fit
save FILE / load FILE      write the view log to FILE / continue from a saved one
quit                       leave (end of input too)"""

_PLAIN = ("quit", "exit", "help", "show", "history")
"""The loop's commands that take nothing after them."""


def help_text(session: TableSession) -> str:
    """The entry forms and every command (the banner and ``help``)."""
    commands = "\n".join([*(c.usage() for c in session.commands), COMMANDS])
    return f"Entries:\n{_indent(session.entry_help)}\nCommands:\n{_indent(commands)}"


GAME_OVER = (
    "The game is over: 'undo', 'edit' or 'delete' takes entries back, 'save FILE' keeps it, "
    "'quit' leaves."
)
"""Said once when the game ends (and again if it ends again after an entry is taken back)."""

UNEXPECTED = (
    "error: {line!r} raised an error Sleuth did not expect ({error}); this is a bug, please "
    "report it. The session goes on: 'history' shows the entries, 'save FILE' keeps them."
)
"""Said when an entry or command fails with an error that is not a
:class:`~sleuth.core.errors.SleuthError` (a bug): the loop reads on, so the entries typed so
far are never lost with the process."""


def run_repl(session: TableSession, console: Console, read: Callable[[str], str] = input) -> None:
    """Print the banner, then read entries and commands until ``quit`` or the end of input,
    showing the deduction after each change (and :data:`GAME_OVER` when the game ends)."""
    say = _printer(console)
    say(session.title)
    say(help_text(session))
    console.print(_plain(session.render()))
    unsaved = False  # entries changed since the last save or load
    over = False  # GAME_OVER was said for the game as it stands
    dropping = None  # the file of a 'load' refused for unsaved changes, just before
    while True:
        if session.finished and not over:
            say(GAME_OVER)
        over = session.finished
        try:
            line = read("> ").strip()
        except EOFError:
            line = "quit"
        if not line or line.startswith("#"):
            continue
        confirmed, dropping = dropping, None
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        command = next(
            (c for c in session.commands if c.matches(" ".join(line.lower().split()))), None
        )
        try:
            if word in _PLAIN and rest:
                raise SleuthError(f"{word!r} takes nothing after it")
            if word in ("quit", "exit"):
                note = " The last changes were not saved." if unsaved else ""
                say(session.leave() + note)
                return
            if command is not None:
                console.print(_plain(command.run(rest) if command.argument else command.run()))
                if not command.changes:
                    continue  # its answer stays in sight
            elif word == "help":
                say(help_text(session))
                continue
            elif word == "show":
                pass
            elif word == "history":
                texts = session.history()
                say("\n".join(f"{n:3}  {t}" for n, t in enumerate(texts, 1)) or "no entries yet")
                continue
            elif word == "undo":
                for text in _undo(session, rest):
                    say(f"took back: {text}")
                unsaved = True
            elif word.removesuffix("!") in ("edit", "delete", "insert"):
                say(_edit(session, word.removesuffix("!"), rest, drop=word.endswith("!")))
                unsaved = True
            elif word in ("save", "load"):
                if not rest:
                    raise SleuthError(f"{word} needs a file name: {word} FILE")
                path = Path(rest)
                if word == "save":
                    session.save(path)
                    say(f"saved {count_entries(len(session.history()))} to {path}")
                    unsaved = False
                    continue
                if unsaved and confirmed != rest and path.is_file():  # (else: cannot read)
                    dropping = rest
                    raise SleuthError(
                        f"the last changes are not saved: 'save FILE' first, or 'load {rest}' "
                        "again to drop them"
                    )
                session.load(path)
                say(f"loaded {count_entries(len(session.history()))} from {path}")
                unsaved = False
            else:
                say(_entered(session, line))
                unsaved = True
            console.print(_plain(session.render()))
        except SleuthError as exc:
            say(f"error: {exc}")
        except Exception as exc:  # a bug in a session must not lose its entries: see UNEXPECTED
            say(UNEXPECTED.format(line=shorten(line, 60), error=f"{type(exc).__name__}: {exc}"))


def _entered(session: TableSession, text: str) -> str:
    """Enter ``text`` as the next entry; the confirmation, with the entry's number (what
    ``edit N`` and ``insert N`` take)."""
    answer = session.enter(text)
    return f"ok: {answer} (entry {len(session.history())})"


def _undo(session: TableSession, count_text: str) -> list[str]:
    """Take back the last ``count_text`` entries (1 if empty), all or none."""
    if not count_text:
        count = 1
    elif count_text.isascii() and count_text.isdigit() and count_text.strip("0"):
        count = whole_number(count_text)
    else:
        raise SleuthError(f"'undo {count_text}': write 'undo' or 'undo N' (N a positive number)")
    entries = len(session.history())
    if not entries:
        raise SleuthError("nothing to undo")
    if count > entries:
        raise SleuthError(f"'undo {count}': there are only {count_entries(entries)}")
    return [session.undo() for _ in range(count)]


def _edit(session: TableSession, word: str, rest: str, drop: bool = False) -> str:
    """``edit N NEW ENTRY``, ``edit N``, ``delete N`` or ``insert N NEW ENTRY``: replace,
    remove or insert entry N by replaying the session; all or nothing, or with ``drop`` (the
    ``!`` forms) leaving out the later entries that no longer fit.  Returns the
    confirmation."""
    number_text, _, new = rest.partition(" ")
    new = new.strip()
    usage = "'edit N NEW ENTRY' or 'delete N' (N an entry's number in 'history')"
    if word == "insert":
        usage = "'insert N NEW ENTRY' (N the number the new entry takes in 'history')"
    if not (number_text.isascii() and number_text.isdigit() and number_text.strip("0")):
        raise SleuthError(f"{' '.join([word, rest]).strip()!r}: write {usage}")
    if word == "delete" and new:
        raise SleuthError(f"'delete {number_text}' takes nothing after the number")
    if word == "insert" and not new:
        raise SleuthError(f"'insert {number_text}': write {usage}")
    number = whole_number(number_text)
    entries = session.history()
    inserting = word == "insert"
    if number > len(entries) + inserting:
        raise SleuthError(f"there is no entry {number}: there are {count_entries(len(entries))}")
    if inserting and number == len(entries) + 1:
        return _entered(session, new)
    old = entries[number - 1]
    later = list(enumerate(entries[number - inserting :], start=number + 1))
    replay = ([(number, new)] if new else []) + later
    for _ in range(len(entries) - number + 1):
        session.undo()
    entered = 0
    dropped: list[str] = []
    try:
        for position, (former, text) in enumerate(replay):
            try:
                session.enter(text)
                entered += 1
            except SleuthError:
                if not drop or (new and position == 0):  # the new entry itself: refused
                    raise
                dropped.append(f"{former} ({text})")
    except SleuthError as exc:
        for _ in range(entered):
            session.undo()
        for text in entries[number - 1 :]:
            session.enter(text)  # entered before, so it is accepted again
        failed, text = replay[entered + len(dropped)]
        if new and entered == 0:
            raise SleuthError(f"nothing changed: new entry {failed} ({text}): {exc}") from None
        forced = f"{word}! {rest}"
        raise SleuthError(
            f"nothing changed: entry {failed} ({text}) would no longer be possible: {exc} "
            f"('{forced}' makes the change and drops the later entries that no longer fit)"
        ) from None
    done = f"deleted entry {number}: {old}"
    if inserting:
        done = f"inserted entry {number}: {session.history()[number - 1]}"
    elif new:
        done = f"edited entry {number}: {old} -> {session.history()[number - 1]}"
    if dropped:
        done += f"; dropped, as they no longer fit: entry {', entry '.join(dropped)}"
    return done


def _indent(text: str) -> str:
    return "\n".join("  " + line for line in text.splitlines())


def _plain(renderable: RenderableType) -> RenderableType:
    """Strings as plain text (no markup, no highlighting); other renderables as they are."""
    return Text(renderable) if isinstance(renderable, str) else renderable


def _printer(console: Console) -> Callable[[str], None]:
    def say(text: str) -> None:
        console.print(Text(text))

    return say
