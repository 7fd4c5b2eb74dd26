"""The top-level commands: ``games``, ``play``, ``compare``, ``replay``; the generic ``infer``,
``assist`` and ``export`` groups, and each game's own sub-commands (``GameSpec.commands``).

Importing this module imports no game and none of the libraries behind the commands (the
arena, DuckDB, NumPy, ...): each command imports what it needs when it runs, and the per-game
commands are made on first use (:mod:`sleuth.cli.lazy`), so that ``sleuth --help`` or
``sleuth play fox`` starts at once.  ``tests/test_cli_startup.py`` holds this.
"""

from __future__ import annotations

import os
import shlex
import sys
import uuid
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

import sleuth
from sleuth.cli import assist as assist_cli
from sleuth.cli import export as export_cli
from sleuth.cli import infer as infer_cli
from sleuth.cli import serve as serve_cli
from sleuth.cli.common import console, errors, print_json
from sleuth.cli.plugin_commands import RootGroup
from sleuth.cli.progress import progress
from sleuth.core.errors import OptionError, SleuthError
from sleuth.core.match import DEFAULT_TIME_LIMIT, seat_limits
from sleuth.core.registry import (
    game_info,
    game_infos,
    game_spec,
    make_game,
    parse_option_texts,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from sleuth.arena.league import Rating
    from sleuth.arena.paired import Comparison, ComparisonStopped, PairedMean
    from sleuth.arena.play import GameRow
    from sleuth.arena.store import StoredRun
    from sleuth.arena.tournament import Tournament
    from sleuth.core.bots import BotInfo
    from sleuth.core.game import Game

app = typer.Typer(
    name="sleuth",
    cls=RootGroup,
    help="Hidden-information board games: rules engines, exact deduction, AI players, tournaments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        console.print(f"sleuth {sleuth.__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Options that come before any command (``--version``); the commands do the work."""


app.add_typer(infer_cli.app, name="infer")
app.add_typer(assist_cli.app, name="assist")
app.add_typer(export_cli.app, name="export")


def _check_seed(value: int) -> int:
    if not -(2**63) <= value < 2**63:
        raise typer.BadParameter(f"{value} does not fit in 64 bits (-2**63 to 2**63 - 1)")
    return value


def _check_games(value: int) -> int:
    from sleuth.arena.play import check_games  # the bound of the results store

    try:
        return check_games(value)
    except SleuthError as exc:
        raise typer.BadParameter(str(exc)) from None


SeedOption = Annotated[
    int, typer.Option("--seed", callback=_check_seed, help="Master seed (a 64-bit integer).")
]
GameOptions = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Game option name=value (repeatable).")
]
WorkersOption = Annotated[
    int | None,
    typer.Option("--workers", "-w", min=1, help="Worker processes (default: all cores)."),
]
TimeLimitOption = Annotated[
    float | None,
    typer.Option(
        "--time-limit",
        help="CPU seconds a bot may use per move before it forfeits, for every bot (default: "
        "1 s, or more for a bot that declares a budget, as `sleuth games` shows).",
        show_default=False,
    ),
]


def _time_limit(given: float | None) -> float:
    """The runner's limit: the user's (a positive number of seconds) or the default one, which
    bots that declare a move budget raise for their seats."""
    if given is None:
        return DEFAULT_TIME_LIMIT
    if not given > 0:
        raise SleuthError(f"--time-limit must be a positive number of seconds, got {given:g}")
    return given


@app.command("games")
def games_command(
    game: Annotated[
        str | None,
        typer.Argument(help="Only this game (default: every game).", show_default=False),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """List every game (or the game named) with its options, roles and bots."""
    # built-in games' catalogues: no engine is imported; an unknown name is an error naming it
    infos = game_infos() if game is None else [game_info(game)]
    if as_json:
        print_json(
            {
                "games": [
                    {
                        "name": s.name,
                        "description": s.description,
                        "rules_version": s.rules_version,
                        "roles": list(s.roles),
                        "options": [
                            {"name": o.name, "default": o.default, "help": o.help}
                            for o in s.options
                        ],
                        "bots": [
                            {
                                "name": b.name,
                                "roles": list(b.roles),
                                "description": b.description,
                                "move_limit": _default_limit(b),
                                "options": [
                                    {"name": o.name, "default": o.default, "help": o.help}
                                    for o in b.options
                                ],
                            }
                            for b in s.bots
                        ],
                    }
                    for s in infos
                ]
            }
        )
        return
    for s in infos:
        console.print(Text.assemble((s.name, "bold"), f" — {s.description}"))
        console.print(f"  roles: {', '.join(s.roles)}")
        table = Table("option", "default", "meaning", box=None, padding=(0, 2))
        for o in s.options:
            table.add_row(o.name, str(o.default), o.help)
        console.print(table)
        bots = Table("bot", "roles", "s/move", "what it does", box=None, padding=(0, 2))
        for b in s.bots:
            bots.add_row(b.name, ", ".join(b.roles), f"{_default_limit(b):g}", b.description)
        console.print(bots)
        for b in s.bots:
            if b.options:
                settings = Table(f"{b.name} option", "default", "meaning", box=None, padding=(0, 2))
                for o in b.options:
                    settings.add_row(o.name, str(o.default), o.help)
                console.print(settings)


def _default_limit(bot: BotInfo) -> float:
    """Seconds per move the bot has when --time-limit is not given (with its default options)."""
    limit = seat_limits([bot], DEFAULT_TIME_LIMIT)[0]
    assert limit is not None
    return limit


DEFAULT_DB = Path("sleuth.duckdb")
SMALL_SAMPLE = 30
"""Paired games below which ``compare`` warns that its normal intervals are rough."""


def bot_names(text: str, flag: str) -> list[str]:
    """The comma-separated bot names of ``flag``; an empty name is an error."""
    names = [b.strip() for b in text.split(",")]
    if not all(names):
        raise SleuthError(f"{flag} {text!r}: a bot name is empty (names are separated by commas)")
    return names


def game_for_bots(game: str, texts: dict[str, str], count: int, flag: str) -> Game[Any]:
    """The game with the option ``texts``, its seat-count option (if it has one and the texts
    do not set it) set to the ``count`` bots named: a value the game refuses is an error that
    names ``flag`` as where it came from."""
    spec = game_spec(game)
    try:
        return make_game(game, spec.options_for(texts, count))
    except OptionError as exc:
        seats = spec.seats_option
        if seats is None or seats in texts:
            raise
        bots = f"{count} bot{'' if count == 1 else 's'}"
        raise OptionError(f"{exc} ({bots} in {flag}, so {seats}={count})") from None


@app.command("play")
def play_command(
    game: Annotated[str, typer.Argument(help="Game name (see `sleuth games`).")],
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated bot names, one per seat; bot options after colons "
            "(ismcts:iterations=5000:c=0.5).",
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", callback=_check_games, help="Number of games.")
    ] = 100,
    seed: SeedOption = 0,
    option: GameOptions = None,
    workers: WorkersOption = None,
    db: Annotated[Path, typer.Option("--db", help="DuckDB results file.")] = DEFAULT_DB,
    no_db: Annotated[bool, typer.Option("--no-db", help="Do not store results.")] = False,
    logs: Annotated[
        Path | None, typer.Option("--logs", help="Write one JSONL log per game to this folder.")
    ] = None,
    time_limit: TimeLimitOption = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue the latest stopped run of this same command in the results file: "
            "its finished games are kept, the others are played.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Run a tournament between bots and print a results table.

    Finished games are stored as the run goes.  Ctrl-C (or SIGTERM) stops it within about a
    second, keeping every finished game; a second Ctrl-C stops at once.  The same command
    with --resume then plays the games that are left."""
    _tournament(game, bots, games, seed, option, workers, db, no_db, logs, time_limit, resume,
                as_json)  # fmt: skip


@app.command("league")
def league_command(
    game: Annotated[str, typer.Argument(help="Game name (see `sleuth games`).")],
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            help="Comma-separated pool of bots (each once): every seating of them, one bot per "
            "side, is played in turn.",
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", callback=_check_games, help="Number of games.")
    ] = 100,
    seed: SeedOption = 0,
    option: GameOptions = None,
    workers: WorkersOption = None,
    db: Annotated[Path, typer.Option("--db", help="DuckDB results file.")] = DEFAULT_DB,
    no_db: Annotated[bool, typer.Option("--no-db", help="Do not store results.")] = False,
    logs: Annotated[
        Path | None, typer.Option("--logs", help="Write one JSONL log per game to this folder.")
    ] = None,
    time_limit: TimeLimitOption = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue the latest stopped league of this same command in the results "
            "file: its finished games are kept, the others are played.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Play every bot of a pool against the others, in every seating, and rate them.

    Each side gets one bot of the pool (a team side is played by one bot); the games cycle
    through every seating that fits the roles, so that a number of games that is a multiple of
    the seatings plays each equally often.  The ratings (OpenSkill, Plackett-Luce) are printed
    with the results table and stored in the results file's ratings table."""
    _tournament(game, bots, games, seed, option, workers, db, no_db, logs, time_limit, resume,
                as_json, league=True)  # fmt: skip


def _tournament(
    game: str,
    bots: str,
    games: int,
    seed: int,
    option: list[str] | None,
    workers: int | None,
    db: Path,
    no_db: bool,
    logs: Path | None,
    time_limit: float | None,
    resume: bool,
    as_json: bool,
    league: bool = False,
) -> None:
    """``play`` (or with ``league=True``, ``league``): run, store and print a tournament."""
    from sleuth.arena.league import league_seatings, rate
    from sleuth.arena.stopping import stop_signals
    from sleuth.arena.tournament import (
        Tournament,
        canonical_setup,
        run_tournament,
        valid_seatings,
    )

    if not no_db:
        from sleuth.arena import store  # DuckDB: only where results are stored

    time_limit = _time_limit(time_limit)
    if no_db and db != DEFAULT_DB:
        raise SleuthError("--db and --no-db contradict each other: give one")
    if resume and no_db:
        raise SleuthError("--resume continues a run stored in the results file: drop --no-db")
    names = bot_names(bots, "--bots")
    texts = parse_option_texts(option or [])
    options = game_spec(game).options_for(texts, len(names))
    board = game_for_bots(game, texts, len(names), "--bots")  # bad names fail before the
    seatings = (league_seatings if league else valid_seatings)(board, names)  # database is used
    board, canonical_bots = canonical_setup(game, names, options)
    previous: list[GameRow] = []
    seconds_before = 0.0
    run_id = uuid.uuid4().hex
    # From here on a signal only asks the run to stop (it may come before the first game, or
    # while the results are stored and printed): the run's row is never left half-made.
    with stop_signals():
        if not no_db:
            store.prepare(db)
            if resume:
                found = store.find_run(
                    db,
                    game,
                    board.options(),
                    seed,
                    canonical_bots,
                    games,
                    time_limit,
                    league=league,
                )
                if found.status == "finished":
                    errors.print(
                        f"run {found.run_id[:8]} in {db} already finished: nothing to resume",
                        highlight=False,
                        soft_wrap=True,
                    )
                else:
                    logs = _resumed_logs(found, logs)
                    if logs is not None and found.logs is None:
                        store.record_logs(db, found.run_id, logs)
                run_id, previous, seconds_before = found.run_id, found.rows, found.seconds
            else:
                header = Tournament(
                    run_id, game, board.options(), seed, tuple(canonical_bots),
                    workers or os.cpu_count() or 1, requested=games,
                )  # fmt: skip
                store.begin(
                    db,
                    header,
                    datetime.now(),
                    sleuth.__version__,
                    time_limit,
                    logs,
                    league=league,
                )
        with progress(
            f"{game}: {', '.join(names)}", games, len(previous), bar=not as_json
        ) as advance:
            tournament = run_tournament(
                game,
                names,
                games,
                seed=seed,
                options=options,
                workers=workers,
                logs=logs,
                time_limit=time_limit,
                on_progress=advance,
                on_rows=None
                if no_db
                else lambda rows: store.add_games(db, run_id, game, board.options(), rows),
                previous=previous,
                run_id=run_id,
                league=league,
            )
        ratings = rate(board, canonical_bots, tournament.rows) if league else None
        if not no_db:
            store.end(db, tournament, seconds_before)
            if ratings is not None:
                store.save_ratings(db, tournament.run_id, ratings)
        if as_json:
            summary = tournament.summary()
            if ratings is not None:
                summary["seatings"] = len(seatings)
                summary["ratings"] = [
                    {"bot": r.bot, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal,
                     "games": r.games}
                    for r in ratings
                ]  # fmt: skip
            print_json(summary)
        else:
            _print_standings(tournament)
            if ratings is not None:
                _print_ratings(ratings, len(seatings))
            where = "" if no_db else f"; results in {db} (run {tournament.run_id[:8]})"
            if logs is not None:
                where += f"; logs in {logs}/"
            played = len(tournament.rows) - len(previous)
            earlier = f" (and {len(previous)} from before)" if previous else ""
            console.print(
                f"{played} game{'' if played == 1 else 's'}{earlier} in "
                f"{tournament.seconds:.2f} s, mean moves per game "
                f"{tournament.mean_length:.2f}, forfeits {tournament.forfeits}{where}",
                highlight=False,
            )
        _explain_forfeits(tournament.rows)
        if not tournament.complete:
            _explain_incomplete(tournament, no_db)
            raise typer.Exit(tournament.exit_code or 1)


def _explain_forfeits(rows: Sequence[GameRow]) -> None:
    """Say on stderr, for each bot that forfeited, how often and why the first time (every
    reason is in the results file's ``forfeits`` column and in the game logs)."""
    forfeits: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for row in sorted(rows, key=lambda r: r.index):
        for forfeit in row.forfeits:
            forfeits.setdefault(str(forfeit["bot"]), []).append((row.index, forfeit))
    for bot, cases in forfeits.items():
        index, first = cases[0]
        times = "once" if len(cases) == 1 else f"{len(cases)} times"
        errors.print(
            f"warning: {bot} forfeited {times}; the first in game {index} (seat {first['seat']}, "
            f"step {first['step']}): {first['reason']}",
            highlight=False,
            soft_wrap=True,
        )


def _resumed_logs(found: StoredRun, given: Path | None) -> Path | None:
    """Where a resumed run writes its game logs: where it began writing them (said on
    stderr when ``--logs`` is left out; another folder is refused, so a run's logs stay in
    one place), or ``given`` for a run that began without logs (with a warning that its
    earlier games have none; the caller records the folder for the next resume)."""
    began = found.logs
    if began is None:
        if given is not None and found.rows:
            errors.print(
                f"warning: run {found.run_id[:8]} began without --logs: its "
                f"{len(found.rows)} finished games have no logs in {given}",
                highlight=False,
                soft_wrap=True,
            )
        return given
    if given is None:
        errors.print(
            f"run {found.run_id[:8]} writes its logs to {began}: they go on there",
            highlight=False,
            soft_wrap=True,
        )
        return began
    if given.resolve() != began.resolve():
        raise SleuthError(
            f"--logs {given}: run {found.run_id[:8]} writes its logs to {began}; "
            f"resume it with --logs {began}, or without --logs"
        )
    return given


def _explain_incomplete(tournament: Tournament, no_db: bool) -> None:
    """Say on stderr why the run stopped short, what was kept and how to continue."""
    for line in tournament.lost:
        errors.print(f"warning: {line}", highlight=False)
    why = f"stopped by {tournament.stopped_by}" if tournament.stopped_by else "incomplete"
    kept = f"{len(tournament.rows)} of {tournament.requested} games finished"
    if no_db:
        errors.print(
            f"{why}: {kept} (not stored: --no-db); run the command again to play them all",
            highlight=False,
        )
        return
    again = ["sleuth", *sys.argv[1:]]
    if "--resume" not in again:
        again.append("--resume")
    errors.print(
        f"{why}: {kept} and stored (run {tournament.run_id[:8]}); to play the rest:\n"
        f"  {shlex.join(again)}",
        highlight=False,
        soft_wrap=True,
    )


def _add_columns(table: Table, columns: tuple[str, ...]) -> None:
    """A results table's columns: names (bot, side, role) are left-aligned and the figures
    right-aligned; nothing wraps (see :func:`_print_table`)."""
    for column in columns:
        if column in ("bot", "side", "role"):
            table.add_column(column, no_wrap=True)
        else:
            table.add_column(column, justify="right", no_wrap=True)


def _print_table(table: Table) -> None:
    """Print a results table whole: wider than the terminal if a long bot spec needs it
    (a bot spec cut or wrapped over lines could not be copied back into a command)."""
    needed = console.measure(table, options=console.options.update_width(10_000)).maximum
    wide = Console(markup=False, emoji=False, highlight=False, width=max(console.width, needed))
    wide.print(table)


def _print_standings(tournament: Tournament) -> None:
    """One row per bot and side (a side's games and wins counted once per game); nothing when
    no game finished (a run stopped before its first game ended)."""
    standings = tournament.standings()
    if not standings:
        return
    options = ", ".join(f"{k}={v}" for k, v in tournament.options.items())
    table = Table(title=f"{tournament.game} ({options}), seed {tournament.seed}")
    _add_columns(
        table,
        ("bot", "side", "role", "games", "wins", "win rate", "95% CI", "mean moves", "forfeits"),
    )
    for s in standings:
        lo, hi = s.ci95
        table.add_row(
            s.bot, s.side, s.role, str(s.games), f"{s.wins:g}", f"{s.win_rate:.1%}",
            f"{lo:.1%}–{hi:.1%}", f"{s.mean_length:.2f}", str(s.forfeits),
        )  # fmt: skip
    _print_table(table)
    thinking = ", ".join(
        f"{s.bot} ({s.side}) {s.ms_per_move:.2f} ms, at most {1000 * s.longest:.2f} ms"
        for s in standings
    )
    console.print(f"thinking time (CPU) per move: {thinking}", highlight=False)


def _print_ratings(ratings: Sequence[Rating], seatings: int) -> None:
    """The league's ratings, best conservative estimate first."""
    table = Table(title=f"OpenSkill ratings ({seatings} seatings in turn)")
    _add_columns(table, ("bot", "mu", "sigma", "mu - 3 sigma", "games"))
    for r in ratings:
        table.add_row(r.bot, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}", str(r.games))
    _print_table(table)


@app.command("compare")
def compare_command(
    game: Annotated[str, typer.Argument(help="Game name (see `sleuth games`).")],
    candidate: Annotated[str, typer.Option("--candidate", "-a", help="The bot under test.")],
    baseline: Annotated[str, typer.Option("--baseline", "-b", help="The bot it is compared with.")],
    field: Annotated[str, typer.Option("--field", help="Comma-separated bots in the other seats.")],
    side: Annotated[
        str | None,
        typer.Option(
            "--side",
            help="The candidate (and the baseline) play every seat of this side; --field "
            "fills the other seats in seat order, and nobody changes seats.",
        ),
    ] = None,
    games: Annotated[
        int,
        typer.Option("--games", "-n", callback=_check_games, help="Games per bot (paired)."),
    ] = 200,
    seed: SeedOption = 0,
    option: GameOptions = None,
    workers: WorkersOption = None,
    db: Annotated[
        Path, typer.Option("--db", help="DuckDB results file (both runs are stored).")
    ] = DEFAULT_DB,
    no_db: Annotated[bool, typer.Option("--no-db", help="Do not store results.")] = False,
    time_limit: TimeLimitOption = None,
    resume: Annotated[
        bool,
        typer.Option(
            "--resume",
            help="Continue the latest stopped comparison of this same command in the results "
            "file: its finished games are kept, the others are played.",
        ),
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Paired-seed A/B test: candidate and baseline play the same games.

    Both play the same seeds, seats and field, and the per-game difference gives the gain with
    a 95% interval.  The two tournaments are stored as they go, as `play` stores its run:
    Ctrl-C (or SIGTERM) stops the comparison keeping every finished game, and the same
    command with --resume plays the games that are left."""
    from sleuth.arena.paired import ComparisonStopped, compare, side_seating
    from sleuth.arena.stopping import stop_signals
    from sleuth.arena.tournament import valid_seatings

    time_limit = _time_limit(time_limit)
    if no_db and db != DEFAULT_DB:
        raise SleuthError("--db and --no-db contradict each other: give one")
    if resume and no_db:
        raise SleuthError(
            "--resume continues a comparison stored in the results file: drop --no-db"
        )
    names = bot_names(field, "--field")
    texts = parse_option_texts(option or [])
    options = texts if side else game_spec(game).options_for(texts, len(names) + 1)
    for bot in (candidate, baseline):  # bad names and seatings fail before any game
        if side:
            side_seating(make_game(game, options), side, bot, names)
        else:
            valid_seatings(
                game_for_bots(game, texts, len(names) + 1, "--candidate and --field"),
                [bot, *names],
            )
    with stop_signals():  # a signal before the first game or while printing only stops
        with progress(f"{game}: {candidate} / {baseline}", 2 * games, bar=not as_json) as advance:
            try:
                comparison = compare(
                    game, candidate, baseline, names, games, seed, options, workers,
                    time_limit, advance, side, db=None if no_db else db, resume=resume,
                )  # fmt: skip
            except ComparisonStopped as stopped:
                _explain_stopped_comparison(stopped, games, None if no_db else db)
                raise typer.Exit(stopped.exit_code) from None
        for tournament in (comparison.candidate, comparison.baseline):
            _explain_forfeits(tournament.rows)  # a field bot's: once for each run
        if as_json:
            print_json(comparison.summary())
            return
        _print_comparison(comparison, None if no_db else db)


def _explain_stopped_comparison(stopped: ComparisonStopped, games: int, db: Path | None) -> None:
    """Say on stderr what a stopped comparison kept and how to continue it."""
    kept = " and ".join(
        f"{len(t.rows)} of {games} games of the {label}"
        for label, t in zip(("candidate", "baseline"), stopped.played, strict=False)
    )
    if db is None:
        errors.print(
            f"{stopped}: {kept} finished (not stored: --no-db); run the command again to play "
            "them all",
            highlight=False,
            soft_wrap=True,
        )
        return
    again = ["sleuth", *sys.argv[1:]]
    if "--resume" not in again:
        again.append("--resume")
    runs = ", ".join(t.run_id[:8] for t in stopped.played)
    errors.print(
        f"{stopped}: {kept} finished and stored in {db} (runs {runs}); to play the rest:\n"
        f"  {shlex.join(again)}",
        highlight=False,
        soft_wrap=True,
    )


def _print_comparison(comparison: Comparison, db: Path | None) -> None:
    summary = comparison.summary()
    options = ", ".join(f"{k}={v}" for k, v in comparison.candidate.options.items())
    playing = f"side {comparison.side}, " if comparison.side else ""
    table = Table(
        title=f"{comparison.candidate.game} ({options}), seed {comparison.candidate.seed}, "
        f"{playing}field {', '.join(comparison.field)}"
    )
    _add_columns(table, ("bot", "games", "wins", "win rate", "95% CI", "forfeits"))
    for label in ("candidate", "baseline"):
        entry = summary[label]
        assert isinstance(entry, dict)
        lo, hi = entry["ci95"]
        table.add_row(
            f"{entry['bot']} ({label})", str(summary["games"]), f"{entry['wins']:g}",
            f"{entry['win_rate']:.1%}", f"{lo:.1%}–{hi:.1%}", str(entry["forfeits"]),
        )  # fmt: skip
    _print_table(table)
    better, worse, same = comparison.counts

    def gain(name: str, paired: PairedMean, scale: float, unit: str) -> str:
        return (
            f"{name}: {scale * paired.mean:+.2f}{unit} "
            f"(95% CI {scale * paired.low:+.2f} to {scale * paired.high:+.2f}, "
            f"p = {paired.p_value:.3g})"
        )

    where = ""
    if db is not None:
        runs = f"{comparison.candidate.run_id[:8]}, {comparison.baseline.run_id[:8]}"
        where = f"; results in {db} (runs {runs})"
    console.print(gain("win-rate gain", comparison.win_gain, 100, " pp"), highlight=False)
    console.print(gain("return gain", comparison.return_gain, 1, ""), highlight=False)
    console.print(
        f"candidate better in {better}, worse in {worse}, the same in {same} of "
        f"{len(comparison.seats)} paired games; {2 * len(comparison.seats)} games played in "
        f"{summary['seconds']:.2f} s{where}",
        highlight=False,
    )
    if len(comparison.seats) < SMALL_SAMPLE:
        console.print(
            f"note: with fewer than {SMALL_SAMPLE} paired games the intervals and p-values "
            "(normal approximations) are rough; play more games before trusting them",
            highlight=False,
        )


@app.command("replay")
def replay_command(
    log: Annotated[Path, typer.Argument(help="A JSONL game log.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Check a game log by replaying it with the rules engine; print its outcome."""
    from sleuth.core.log import replay_log

    replay = replay_log(log)
    if as_json:
        print_json(
            {
                "game": replay.game.name,
                "options": replay.game.options(),
                "seed": replay.seed,
                "bots": list(replay.bots),
                "steps": replay.steps,
                "outcome": replay.outcome,
                "wins": list(replay.wins),
                "valid": True,
            }
        )
        return
    console.print(
        f"{log}: valid {replay.game.name} log, {replay.steps} steps, "
        f"{' vs '.join(replay.bots)}: {replay.outcome}",
        highlight=False,
    )


app.command("serve")(serve_cli.serve_command)
