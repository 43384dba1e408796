"""Interaction to board posted: moves typed through the real cogs in SimCord, each timed whole.

One table per kind plays seeded random legal moves with ``/game play`` (picked from its
autocomplete list, a ``#version.index`` token); each move is timed from the interaction until
SimCord has settled (the bot has replied, posted or edited the board and sent its DMs), SimCord
looking every 5 ms (``settle_poll``). The live board's edit spacing is set to 0, so a run
measures the work, not the debounce. SQLite transactions are counted on the store's connection
while the moves run, and the drawings made on the service's one drawing cache
(``TableService.drawings``), and the time spent inside the store's calls (``StoreTime``: a
move's store time, without the rest of its path).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import inspect
import logging
import random
import re
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.chatter import open_through_cogs, words_for
from bench.settling import settle_poll
from bench.timing import percentile
from service import offered_value

_OPENS = re.compile(r"\s*BEGIN\b", re.IGNORECASE)
_ENDS = re.compile(r"\s*(COMMIT|END|ROLLBACK)\b", re.IGNORECASE)
_SETTINGS = re.compile(r"\s*PRAGMA\b", re.IGNORECASE)
"""A connection's setting (the delivered mark's ``synchronous``): a statement, not a transaction."""


@dataclass
class Transactions:
    """Counts SQLite transactions from the statements a connection runs (its trace callback).

    With ``isolation_level=None`` a statement outside BEGIN ... COMMIT is its own transaction.
    """

    count: int = 0
    statements: int = 0
    inside: bool = False

    def saw(self, sql: str) -> None:
        """Count one traced statement."""
        self.statements += 1
        if _OPENS.match(sql):
            self.count += 1
            self.inside = True
        elif _ENDS.match(sql):
            self.inside = False
        elif not self.inside and not _SETTINGS.match(sql):
            self.count += 1


async def watch_transactions(store: Any) -> Transactions:
    """Start counting the transactions of a SQLite store (its behaviour is unchanged)."""
    counter = Transactions()
    await store._db.set_trace_callback(counter.saw)  # a trace callback only observes
    return counter


class StoreTime:
    """Measures the wall time spent inside a store's public calls (overlapping calls counted once).

    Each public coroutine method of the store object is wrapped on the instance (the class is
    untouched, so the store behaves the same); a call made inside another call, or while another
    runs, adds no time twice: the clock runs while at least one call is open.
    """

    def __init__(self) -> None:
        self.seconds = 0.0
        self.busy = 0.0
        """Seconds the database's thread spent on the store's calls (statements and fsyncs)."""
        self._open = 0
        self._since = 0.0

    def wrap(self, store: Any) -> None:
        """Time every public coroutine method of ``store`` from now on (and its SQLite thread's work)."""
        for name, method in inspect.getmembers(store, inspect.iscoroutinefunction):
            if not name.startswith("_"):
                setattr(store, name, self._timed(method))
        connection = getattr(store, "_db", None)
        if connection is not None and hasattr(connection, "_tx"):
            connection._tx = _BusyQueue(connection._tx, self)  # observes only

    def _timed(self, method: Any) -> Any:
        @functools.wraps(method)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            if self._open == 0:
                self._since = time.perf_counter()
            self._open += 1
            try:
                return await method(*args, **kwargs)
            finally:
                self._open -= 1
                if self._open == 0:
                    self.seconds += time.perf_counter() - self._since

        return timed


class _BusyQueue:
    """aiosqlite's queue to its thread, adding up the time each call put there takes in the thread
    (a move's fsync, which that thread runs after handing the commit back, included)."""

    def __init__(self, queue: Any, timer: StoreTime) -> None:
        self._queue = queue
        self._timer = timer

    def put_nowait(self, item: Any) -> None:
        future, call = item

        def run() -> Any:
            began = time.perf_counter()
            try:
                return call()
            finally:
                self._timer.busy += time.perf_counter() - began  # one database thread: no race

        self._queue.put_nowait((future, run))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._queue, name)


@dataclass
class Timed:
    """What the moves of one kind took."""

    kind: str
    players: int
    e2e: list[float] = field(default_factory=list)
    transactions: int = 0
    statements: int = 0
    drawings: int = 0
    """Drawings the service made for the timed moves (boards, sheets: only those shown)."""
    store: list[float] = field(default_factory=list)
    """Seconds spent inside the store's calls during each timed move."""
    database: list[float] = field(default_factory=list)
    """Seconds SQLite's thread spent on each timed move (its statements, and its fsync after the commit)."""
    errors: list[str] = field(default_factory=list)


def no_edit_spacing() -> contextlib.AbstractContextManager[None]:
    """Let the live board be edited at once while the bench runs."""
    from bot import edit_spacing

    return edit_spacing(0.0)


async def _table(env: Any, kind: str, players: int, rand: random.Random) -> tuple[Any, list[Any]]:
    """Open, fill and start one table through the cogs; return its thread and members."""
    _, thread, members = await open_through_cogs(env, f"E2E {kind}", kind, players, rand)
    return thread, members


async def time_moves(kind: str, players: int, moves: int, seed: int) -> Timed:
    """Play up to ``moves`` random legal moves of one table through the cogs, timing each."""
    import simcord

    from bot import create_bot
    from localtable import SETTLE_SECONDS

    logging.getLogger("discord").setLevel(logging.ERROR)
    rand = random.Random(seed)
    timed = Timed(kind, players)
    with tempfile.TemporaryDirectory(prefix="conclave-e2e-") as folder, no_edit_spacing(), settle_poll():
        bot = create_bot(str(Path(folder) / "e2e.db"), seed_source=lambda: rand.randrange(2**62))
        async with simcord.run(bot, check_errors=False, settle_timeout=SETTLE_SECONDS) as env:
            thread, members = await _table(env, kind, players, rand)
            by_id = {m.id: m for m in members}
            svc = bot.service
            record = await bot.store.table_for_thread(thread.id)
            counter = await watch_transactions(bot.store)
            store_time = StoreTime()
            store_time.wrap(bot.store)
            # The kinds run one after another in one process: the last kind's bot, closed, is
            # garbage now, and a full collection of it would land in this kind's timed moves. A
            # bot process has one bot: its start-up heap is frozen (``bot.settle_heap``).
            gc.collect()
            for _ in range(moves):
                if (await svc.table(record.id)).status != "active":
                    break
                public = await svc.reads.public_view(record.id)
                waiting = sorted({p.seat for p in public.prompts})
                if not waiting:
                    timed.errors.append("nobody to move")
                    break
                user = public.users[rand.choice(waiting)]
                now = await svc.reads.seat_view(record.id, user)
                if not now.moves:
                    timed.errors.append("a seat asked with no move")
                    break
                # Picked from the autocomplete list, as a player does: a ``#version.index`` token, so
                # a snake draft's second identical pick is not taken for the first sent twice.
                value = offered_value(now.version, rand.randrange(len(now.moves)))
                drawn, in_store, in_database = svc.drawings.drawn, store_time.seconds, store_time.busy
                before = counter.count, counter.statements
                began = time.perf_counter()
                answer = await by_id[user].slash(thread, "game play", move=value)
                if getattr(answer, "modal", None) is not None:
                    # A worded move opens its form first: the move lands when the words are sent.
                    await by_id[user].submit_modal(answer, words_for(answer.modal))
                timed.e2e.append(time.perf_counter() - began)
                timed.transactions += counter.count - before[0]
                timed.statements += counter.statements - before[1]
                timed.drawings += svc.drawings.drawn - drawn
                timed.store.append(store_time.seconds - in_store)
                timed.database.append(store_time.busy - in_database)
                landed = await svc.table(record.id)
                if landed.version == record.version:
                    timed.errors.append(f"move {value!r} did not land")
                    break
                record = landed
        await bot.close_store()
    return timed


def run(kind: str, players: int, moves: int, seed: int) -> Timed:
    """Time one kind's moves in a fresh event loop."""
    return asyncio.run(time_moves(kind, players, moves, seed))


def summary(timed: Timed) -> dict[str, Any]:
    """Return the e2e figures of one kind as JSON-ready numbers."""
    n = max(len(timed.e2e), 1)
    return {
        "e2e_moves": len(timed.e2e),
        "e2e_median_ms": round(1000 * statistics.median(timed.e2e), 2) if timed.e2e else None,
        "e2e_p99_ms": round(1000 * percentile(timed.e2e, 0.99), 2) if timed.e2e else None,
        "transactions_per_move": round(timed.transactions / n, 2),
        "statements_per_move": round(timed.statements / n, 2),
        "drawings_per_move": round(timed.drawings / n, 2),
        "store_ms": round(1000 * statistics.median(timed.store), 3) if timed.store else None,
        "store_db_ms": round(1000 * statistics.median(timed.database), 3) if timed.database else None,
        "e2e_errors": len(timed.errors),
    }
