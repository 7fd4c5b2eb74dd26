"""Reports (`sleuth report`: sleuth.arena.report, report_page, figures) and the Parquet export
(`sleuth export --parquet`: sleuth.arena.parquet), on a results file of real tournaments."""

from __future__ import annotations

import base64
import io
import re
import sys
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path

import duckdb
import pytest

from sleuth.arena import store
from sleuth.arena.league import rate
from sleuth.arena.parquet import export_parquet
from sleuth.arena.play import game_of
from sleuth.arena.report import read_report
from sleuth.arena.stats import wilson_interval
from sleuth.arena.tournament import Tournament, run_tournament
from sleuth.core.errors import SleuthError
from tests.cli_helpers import entry

pytest.importorskip("matplotlib", reason="sleuth report needs the report extra")
pytest.importorskip("jinja2", reason="sleuth report needs the report extra")
from PIL import Image  # Matplotlib's own dependency

from sleuth.arena.report_page import PAGE, write_report

FOX = {"graph": "path:4"}
TOURNAMENTS = [
    ("fox", ["random", "random"], FOX, False),
    ("fox", ["solver", "random", "quantum"], FOX, True),
    # Mr. X and five detective seats, one held by another bot: the detectives are one side.
    ("scotland-yard", ["random", "random", "random", "mc:rollouts=2:depth=1", "random", "random"],
     {"seats": 6, "max_rounds": 8}, False),
    ("camel-up", ["random", "random", "random"], {"players": 3}, False),  # a bot in two seats
]  # fmt: skip


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Tournament]]:
    """A results file holding a tournament of each kind and a league with its ratings."""
    db = tmp_path_factory.mktemp("store") / "results.duckdb"
    played = []
    for name, bots, options, league in TOURNAMENTS:
        t = run_tournament(name, bots, 6, seed=3, options=options, workers=1, league=league)
        t.requested = len(t.rows)
        store.save(db, t, datetime.now(), "test")
        if league:
            store.save_ratings(db, t.run_id, rate(game_of(name, t.options), bots, t.rows))
        played.append(t)
    return db, played


@pytest.fixture(scope="module")
def report(results: tuple[Path, list[Tournament]], tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    db, _ = results
    out = tmp_path_factory.mktemp("report")
    return write_report(db, out), out


class Tables(HTMLParser):
    """The page's tables by id (the texts of each row's ``td`` cells), its ``src`` and ``href``
    values and its tags."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.links: list[str] = []
        self.tags: set[str] = set()
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        values = dict(attrs)
        self.links += [v or "" for k, v in attrs if k in ("src", "href")]
        if tag == "table":
            self._table = values["id"]
            self.tables[self._table or ""] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag == "td" and self._table:
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._table and self._cell is not None:
            self.tables[self._table][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "tr" and self._table and not self.tables[self._table][-1]:
            self.tables[self._table].pop()  # a row of headings
        elif tag == "table":
            self._table = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def parsed(page: Path) -> Tables:
    tables = Tables()
    tables.feed(page.read_text())
    return tables


def test_by_side_equals_the_standings_sleuth_play_prints(
    results: tuple[Path, list[Tournament]],
) -> None:
    """The oracle: Tournament.standings, which `sleuth play` prints, on the same games."""
    db, played = results
    reports = {r.run_id: r for r in read_report(db)}
    for t in played:
        got, expected = reports[t.run_id].by_side, t.standings()
        assert [(s.bot, s.side, s.role, s.games, s.wins, s.moves, s.forfeits) for s in got] == [
            (s.bot, s.side, s.role, s.games, s.wins, s.moves, s.forfeits) for s in expected
        ]
        for a, b in zip(got, expected, strict=True):
            assert a.thinking == pytest.approx(b.thinking)
            assert a.longest == b.longest and a.mean_length == pytest.approx(b.mean_length)
        by_bot = {s.bot: s for s in reports[t.run_id].by_bot}
        for bot in by_bot:  # a bot's row is the sum of its side rows
            mine = [s for s in expected if s.bot == bot]
            assert by_bot[bot].games == sum(s.games for s in mine)
            assert by_bot[bot].wins == sum(s.wins for s in mine)


def test_the_detectives_count_once_per_game_per_bot(
    results: tuple[Path, list[Tournament]],
) -> None:
    db, _ = results
    (sy,) = [r for r in read_report(db) if r.game == "scotland-yard"]
    detectives = {s.bot: s for s in sy.by_side if s.side == "detectives"}
    assert set(detectives) == {"random", "mc:rollouts=2:depth=1"}
    assert all(s.games == sy.games for s in detectives.values())
    (cu,) = [r for r in read_report(db) if r.game == "camel-up"]
    assert [(s.side, s.games) for s in cu.by_side] == [("player", 3 * cu.games)]


def test_the_page_is_self_contained_and_its_plots_are_the_png_files(report) -> None:  # type: ignore[no-untyped-def]
    written, out = report
    assert written.page == out / PAGE and written.runs == len(TOURNAMENTS)
    page = parsed(written.page)
    assert not {"script", "link", "iframe", "object"} & page.tags
    assert page.links and all(link.startswith("data:image/png;base64,") for link in page.links)
    assert not re.search(r"https?://|url\(|@import", written.page.read_text())
    embedded = [base64.b64decode(link.split(",", 1)[1]) for link in page.links]
    assert sorted(embedded) == sorted(path.read_bytes() for path in written.plots)
    for path in written.plots:
        with Image.open(io.BytesIO(path.read_bytes())) as image:
            image.verify()
            assert image.format == "PNG" and image.size[0] > 100
    names = sorted(path.name.split("-", 1)[1] for path in written.plots)
    assert names.count("ratings.png") == 1  # the league's only
    assert names.count("win-rates.png") == names.count("lengths.png") == len(TOURNAMENTS)


def test_the_seat_table_equals_a_direct_count(report, results) -> None:  # type: ignore[no-untyped-def]
    written, _ = report
    db, played = results
    tables = parsed(written.page).tables
    with duckdb.connect(str(db), read_only=True) as con:
        for t in played:
            expected = con.execute(
                "SELECT seat, bots[seat + 1] AS bot, count(*), sum(wins[seat + 1]) "
                "FROM games, range(len(bots)) AS r(seat) WHERE run_id = ? "
                "GROUP BY seat, bot ORDER BY seat, bot",
                [t.run_id],
            ).fetchall()
            rows = tables[f"wins-by-seat-{t.run_id[:8]}"]
            got = sorted((int(r[0]), r[1], int(r[3]), float(r[4])) for r in rows)
            assert got == [(s, b, n, w) for s, b, n, w in expected]
            for r in rows:  # the rate and its Wilson interval, as printed
                low, high = wilson_interval(float(r[4]), int(r[3]))
                assert r[5:7] == [f"{100 * float(r[4]) / int(r[3]):.1f}%",
                                  f"{100 * low:.1f}%–{100 * high:.1f}%"]  # fmt: skip


def test_the_ratings_table_is_the_stored_one(report, results) -> None:  # type: ignore[no-untyped-def]
    written, _ = report
    db, played = results
    league = played[1]
    with duckdb.connect(str(db), read_only=True) as con:
        stored = con.execute(
            "SELECT bot, games FROM ratings WHERE run_id = ? ORDER BY ordinal DESC",
            [league.run_id],
        ).fetchall()
    rows = parsed(written.page).tables[f"ratings-{league.run_id[:8]}"]
    assert [(r[0], int(r[4])) for r in rows] == stored


def test_lengths_and_thinking(results: tuple[Path, list[Tournament]]) -> None:
    db, played = results
    for r, t in zip(read_report(db), played, strict=True):
        lengths = sorted(row.length for row in t.rows)
        assert sum(r.lengths.counts.values()) == len(lengths) == r.games
        assert r.lengths.counts == {n: lengths.count(n) for n in set(lengths)}
        assert r.lengths.quartiles[1] == pytest.approx(
            (lengths[(len(lengths) - 1) // 2] + lengths[len(lengths) // 2]) / 2
        )
        moves = sum(th[0] for row in t.rows for th in row.thinking)
        assert sum(s.moves for s in r.by_side) >= moves > 0


def test_runs_are_chosen_by_id_prefix(results: tuple[Path, list[Tournament]]) -> None:
    db, played = results
    (only,) = read_report(db, [played[2].run_id[:6]])
    assert only.run_id == played[2].run_id
    with pytest.raises(SleuthError, match=r"holds no run 'nope' \(its latest runs: "):
        read_report(db, ["nope"])
    with pytest.raises(SleuthError, match="is ambiguous"):
        read_report(db, [""])


def test_bad_input_is_a_clear_error_and_writes_nothing(
    results: tuple[Path, list[Tournament]], tmp_path: Path
) -> None:
    db, _ = results
    out = tmp_path / "out"
    with pytest.raises(SleuthError, match=r"no results file at .*missing\.duckdb"):
        write_report(tmp_path / "missing.duckdb", out)
    with pytest.raises(SleuthError, match="holds no run 'feedface'"):
        write_report(db, out, ["feedface"])
    not_a_store = tmp_path / "notes.json"
    not_a_store.write_text("{}")
    with pytest.raises(SleuthError, match=r"cannot read results from .*notes\.json"):
        write_report(not_a_store, out)
    empty = tmp_path / "empty.duckdb"
    store.prepare(empty)
    with pytest.raises(SleuthError, match="holds no runs"):
        write_report(empty, out)
    assert not out.exists()


def test_without_the_extra_the_error_names_it(
    results: tuple[Path, list[Tournament]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if not installed
    db, _ = results
    with pytest.raises(SleuthError, match=r"report extra \(matplotlib is not installed\)"):
        write_report(db, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_a_store_from_before_thinking_times_reports(tmp_path: Path) -> None:
    """A file written before ``thinking`` and the other later columns existed."""
    db = tmp_path / "old.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(store.SCHEMA.split("ALTER")[0])
        con.execute(
            "INSERT INTO runs VALUES ('r1', now(), 'fox', '{\"graph\": \"path:4\"}', 0, "
            "['random', 'random'], 1, 1, 0.1, '0.0')"
        )
        con.execute(
            "INSERT INTO games VALUES ('r1', 0, 'fox', '{\"graph\": \"path:4\"}', 0, "
            "['random', 'random'], ['hunter', 'fox'], 'caught', [1, -1], [1, 0], 4, 0.01, "
            "'[]', NULL)"
        )
    (r,) = read_report(db)
    assert [(s.side, s.games, s.wins, s.moves) for s in r.by_side] == [
        ("hunter", 1, 1.0, 0), ("fox", 1, 0.0, 0)
    ]  # fmt: skip
    written = write_report(db, tmp_path / "out")  # no thinking times: no such plot
    assert sorted(p.name for p in written.plots) == ["r1-lengths.png", "r1-win-rates.png"]


def test_a_run_without_finished_games_is_listed_without_plots(tmp_path: Path) -> None:
    db = tmp_path / "started.duckdb"
    t = run_tournament("fox", ["random", "random"], 1, options=FOX, workers=1)
    store.begin(db, t, datetime.now(), "test", None)  # stopped before its first game
    written = write_report(db, tmp_path / "out")
    assert (written.runs, written.games, written.plots) == (1, 0, [])
    assert "No finished game is stored for this run." in written.page.read_text()


def test_each_table_round_trips_through_parquet(
    results: tuple[Path, list[Tournament]], tmp_path: Path
) -> None:
    db, _ = results
    written = export_parquet(db, tmp_path / "pq")
    assert sorted(written) == ["games", "ratings", "runs"]
    with duckdb.connect(str(db), read_only=True) as con:
        for table, path in written.items():
            stored = con.execute(f"SELECT * FROM {table} ORDER BY ALL").fetchall()
            back = con.execute("SELECT * FROM read_parquet(?) ORDER BY ALL", [str(path)])
            assert back.fetchall() == stored and stored
    (games,) = export_parquet(db, tmp_path / "one", ["games"]).values()
    assert [p.name for p in (tmp_path / "one").iterdir()] == [games.name]


def test_export_refuses_an_unknown_table_or_file_before_writing(
    results: tuple[Path, list[Tournament]], tmp_path: Path
) -> None:
    db, _ = results
    with pytest.raises(SleuthError, match=r"has no table 'moves'; its tables: games, ratings"):
        export_parquet(db, tmp_path / "pq", ["games", "moves"])
    with pytest.raises(SleuthError, match="no results file at"):
        export_parquet(tmp_path / "nope.duckdb", tmp_path / "pq")
    assert not (tmp_path / "pq").exists()


def test_the_commands(results: tuple[Path, list[Tournament]], tmp_path: Path) -> None:
    db, played = results
    done = entry("report", "--db", db, "--out", "rep", "--run", played[0].run_id[:8], cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"1 run (6 games) of {db}: rep/report.html and 3 plots in rep" in done.stdout
    exported = entry("export", "--db", db, "--parquet", "pq", "--table", "runs", cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert "1 table of" in exported.stdout and (tmp_path / "pq" / "runs.parquet").is_file()
    for args, message in [
        (("report", "--db", "none.duckdb"), "no results file at none.duckdb"),
        (("report", "--db", db, "--run", "zz"), "holds no run 'zz'"),
        (("export", "--db", db, "--parquet", "pq", "--table", "x"), "has no table 'x'"),
        (("export", "--db", db), "give --parquet DIR"),
        (("export", "--parquet", "pq", "camel-up", "--db", db, "--csv", "a.csv"),
         "give them without the game (camel-up)"),
    ]:  # fmt: skip
        failed = entry(*args, cwd=tmp_path)
        assert failed.returncode == 2 and message in failed.stderr, failed.stderr
        assert "Traceback" not in failed.stderr
