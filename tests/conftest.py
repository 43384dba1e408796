"""Shared test setup."""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot import ConclaveBot, create_bot
from cogs.kit import delivery
from rules import registry
from rules.toy import TOY
from service import TableService
from service.clock import Clock, ManualClock
from store import Store
from tests import engines
from tests.async_helpers import START, Harness, OpenStore
from tests.faults import Restart


@pytest.fixture(autouse=True)
def edits_at_machine_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests click faster than any player: the living board is edited at once, never debounced.

    SimCord's clock stands still unless a test advances it, so a debounced edit would wait for
    ever; the test of the debounce itself sets ``delivery.EDIT_SPACING`` back.
    """
    monkeypatch.setattr(delivery, "EDIT_SPACING", 0.0)


@pytest.fixture
def toy_registered() -> None:
    """Register Sigil Duel, the tests' own game (a module asks with ``pytest.mark.usefixtures``)."""
    registry.register(TOY)


@pytest.fixture
def table_seed() -> int:
    """The seed of the tables a test opens (a module overrides it with its own)."""
    return 1


@pytest.fixture
def engine(request: pytest.FixtureRequest) -> str:
    """The store engine a test runs on (``tests/engines.py``: its module may run on both)."""
    return getattr(request, "param", "sqlite")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the store's suite and the service tests that touch the store on both engines."""
    if "engine" not in metafunc.fixturenames:
        return
    module = Path(metafunc.definition.fspath).relative_to(Path(__file__).parent.parent).as_posix()
    markers = {m.name for m in metafunc.definition.iter_markers()}
    only = next((e for e in engines.ENGINES if f"{e}_only" in markers), None)
    wanted = engines.engines_for(module, only)
    if "postgresql" in wanted and engines.pg_url() is None and not os.environ.get("CI"):
        wanted.remove("postgresql")  # said plainly in the summary (pytest_terminal_summary)
        _PG_MISSED[0] += 1
    if wanted:
        metafunc.parametrize("engine", wanted, indirect=True)
    else:  # a PostgreSQL-only test without a cluster: not collected, counted in the summary
        missed = pytest.param("postgresql", marks=pytest.mark.no_cluster)
        metafunc.parametrize("engine", [missed], indirect=True)


_PG_MISSED = [0]
"""How many tests that run on both engines ran on SQLite only (no PostgreSQL cluster)."""


@pytest.fixture
def locate(engine: str) -> Callable[[str], Awaitable[str]]:
    """Turn a database file a test names into its engine's database (the file, or a PG schema)."""

    async def located(path: str) -> str:
        return path if engine == "sqlite" else await engines.locate_pg(path)

    return located


@pytest.fixture
async def store(tmp_path: Path, locate: Callable[[str], Awaitable[str]]) -> AsyncIterator[Store]:
    """A store on a fresh database, closed after the test (its worker thread stops with it)."""
    opened = await Store.open(await locate(str(tmp_path / "tables.db")))
    yield opened
    await opened.close()


@pytest.fixture
async def open_store(locate: Callable[[str], Awaitable[str]]) -> AsyncIterator[OpenStore]:
    """Open stores on any file (a reopen, a second connection); every one is closed after the test.

    A test may close one itself (to reopen the file): closing twice is harmless.
    """
    opened: list[Store] = []

    async def open_one(path: str, **kwargs: Any) -> Store:
        got = await Store.open(await locate(path), **kwargs)
        opened.append(got)
        return got

    yield open_one
    for got in opened:
        await got.close()


@pytest.fixture
def svc(store: Store, table_seed: int) -> TableService:
    """A table service on the fresh store; its tables are dealt with ``table_seed``."""
    return TableService(store, seed_source=lambda: table_seed)


@pytest.fixture
async def h(tmp_path: Path, locate: Callable[[str], Awaitable[str]]) -> AsyncIterator[Harness]:
    """A service and store on a hand-moved clock, restartable; closed after the test."""
    harness = Harness(tmp_path / "tables.db", url=await locate(str(tmp_path / "tables.db")))
    await harness.open()
    yield harness
    await harness.close()


@pytest.fixture
def clock() -> ManualClock:
    """A hand-moved clock at START (the bot reads it in a module that sets ``HAND_MOVED_CLOCK``)."""
    return ManualClock(START)


@pytest.fixture
def bot_clock(request: pytest.FixtureRequest) -> Clock | None:
    """The bot's clock: the system's, or the ``clock`` fixture where the module sets
    ``HAND_MOVED_CLOCK = True`` (its tests move time by hand); a module may also override this."""
    if getattr(request.module, "HAND_MOVED_CLOCK", False):
        return request.getfixturevalue("clock")
    return None


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    """The bot's database file (a test that restarts the bot opens it again)."""
    return str(tmp_path / "conclave.db")


@pytest.fixture
async def simcord_bot(db_path: str, table_seed: int, bot_clock: Clock | None) -> AsyncIterator[ConclaveBot]:
    """The unmodified bot on a fresh database, for the SimCord stand-in (``simcord_env``)."""
    bot = create_bot(db_path, seed_source=lambda: table_seed, clock=bot_clock)
    yield bot
    await bot.close_store()


@pytest.fixture
async def restart_bot(
    simcord_env: simcord.Env, db_path: str, table_seed: int, bot_clock: Clock | None
) -> AsyncIterator[Restart]:
    """Restart the bot on the same database, as a new process would after a crash.

    The old bot's store is closed once the new bot is attached, and every bot started here is
    closed after the test: an open store's worker thread would keep the test process alive.
    """
    started: list[ConclaveBot] = []

    async def restart() -> ConclaveBot:
        old = simcord_env.bot
        new = create_bot(db_path, seed_source=lambda: table_seed, clock=bot_clock)
        started.append(new)
        await simcord_env.restart_bot(new)
        await old.close_store()  # type: ignore[attr-defined]
        return new

    yield restart
    for bot in started:
        await bot.close_store()


SETTLE_SECONDS = 30.0
"""How long the stand-in waits for the bot to go quiet after each interaction.

SimCord's default (5 s) is wall-clock time: on a 2-core machine busy with other work, a burst of
50 clicks or a whole game's board can take longer to draw, and the test would fail for the
machine's load, not for the bot. The bot's own deadlines (acknowledge first) are checked by the
order of its calls, not by this wait.
"""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Give every test that uses the stand-in a settle timeout fit for a loaded machine.

    A PostgreSQL-only test without a cluster is deselected (the summary says the run did not happen).
    """
    missed = [item for item in items if item.get_closest_marker("no_cluster") is not None]
    if missed:
        config.hook.pytest_deselected(items=missed)
        items[:] = [item for item in items if item.get_closest_marker("no_cluster") is None]
    for item in items:
        if item.get_closest_marker("simcord") is None:
            item.add_marker(pytest.mark.simcord(settle_timeout=SETTLE_SECONDS))


_RUNNING = ["(collection)"]
"""The test running now: each database connection remembers the test that opened it."""


def _note_origin(init: Any) -> Any:
    """Wrap ``aiosqlite.Connection.__init__`` so each connection knows its test and its file."""

    def noted(self: Any, connector: Any, *args: Any, **kwargs: Any) -> None:
        init(self, connector, *args, **kwargs)
        database = inspect.getclosurevars(connector).nonlocals.get("database", "?")
        self.conclave_origin = f"{_RUNNING[0]} ({database})"

    return noted


def pytest_configure(config: pytest.Config) -> None:
    """Remember which test opens each database connection (to name it if it is left open)."""
    import aiosqlite

    if not hasattr(aiosqlite.Connection.__init__, "__wrapped_init__"):
        wrapped = _note_origin(aiosqlite.Connection.__init__)
        wrapped.__wrapped_init__ = True  # type: ignore[attr-defined]
        aiosqlite.Connection.__init__ = wrapped  # type: ignore[method-assign]


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Name the running test (its module's fixtures close during its teardown, so within it)."""
    _RUNNING[0] = item.nodeid
    yield
    _RUNNING[0] = "(between tests)"


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop, and name with a warning, every database connection a test left open.

    aiosqlite runs each connection on a non-daemon thread that stops only when the connection is
    closed or garbage-collected; a connection a test leaves referenced (a bot kept by a module's
    cache, a store a test never closed) would keep the test process from exiting at all. Every
    fixture closes what it opens, so this finds nothing; when it does, the warning names the test
    that opened each connection (its fixture must close it), and CI still exits.
    """
    import gc

    import aiosqlite

    left = [c for c in gc.get_objects() if isinstance(c, aiosqlite.Connection) and c._connection is not None]
    for connection in left:
        connection.stop()
    if left:
        names = sorted(getattr(c, "conclave_origin", "(unknown test)") for c in left)
        text = f"conftest: closed {len(left)} database connection(s) left open by: " + "; ".join(names)
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_sep("=", "leaked database connections", yellow=True)
            for name in names:
                reporter.write_line(f"WARNING conftest: closed a connection left open by {name}", yellow=True)
        else:
            print(text, file=sys.stderr)


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """Say plainly whether the PostgreSQL run happened, and when the browser tests did not run."""
    from tests import browser

    if _PG_MISSED[0]:
        terminalreporter.write_sep("=", "PostgreSQL", red=True)
        missed = f"{_PG_MISSED[0]} test functions ran without it."
        terminalreporter.write_line(f"{engines.MISSING} {missed}", red=True)
    elif engines.pg_url() is not None:
        terminalreporter.write_line(f"PostgreSQL run: against {engines.pg_url()}")

    for reason in browser.NOT_RUN:
        terminalreporter.write_line(f"BROWSER TESTS DID NOT RUN: {reason}", yellow=True, bold=True)
