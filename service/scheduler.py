"""One durable scheduler: due work lives in the store, one asyncio task runs it when due.

No per-table timers: the store's ``due_work`` table (indexed by due time) holds every reminder,
deadline, vote expiry, autoplay and move delivery. The task sleeps until the earliest due time
and wakes early when nearer work is added or the clock is moved by hand.

Work is claimed in batches by one statement (``store.lease_due``: ``FOR UPDATE SKIP LOCKED`` on
PostgreSQL, an immediate transaction on SQLite), which holds each row for ``LEASE`` seconds, so
several processes on one database each run their own rows; with ``store.own_shards`` a process
leases only the work of tables whose server its Discord shards serve, since every kind of work may
talk to Discord (a DM, a vote, a board). A row is marked done only after its handler returned
(``store.finish``), so a process killed mid-effect loses nothing: the lease runs out (or the next
start on those shards drops it) and the work runs again. Work is therefore run at least once;
each handler makes its effect idempotent by the work's key (see ``service.timekeeper``). A
handler that raises gives its row back with a growing delay (``retry_delay``); after
``MAX_ATTEMPTS`` the row is set aside with the reason, as is a row whose payload does not read,
so one bad row never blocks the others (``python -m store check`` lists them).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

from service.clock import Clock, ManualClock
from store import DueWork, Store

log = logging.getLogger("conclave.scheduler")

Handler = Callable[[DueWork], Awaitable[None]]
IDLE_SLEEP = 3600.0
"""With nothing due, look again after this long (work added by another process)."""
LEASE = 600.0
"""Seconds a runner holds a row: longer than any handler runs, short enough to lose little."""
RETRY_FIRST = 30.0
RETRY_MOST = 3600.0
"""A failed row runs again after 30 s, doubling each attempt, at most an hour apart."""
MAX_ATTEMPTS = 10
"""Attempts before a failing row is set aside for good (about eleven hours of retries)."""
BATCH = 20
"""Rows leased in one statement: few enough that a batch a killed process held is small."""
READ_RETRY_FIRST = 1.0
READ_RETRY_MOST = 60.0
"""When the store cannot be read, the loop looks again after 1 s, doubling, at most a minute."""


def retry_delay(attempts: int, first: float = RETRY_FIRST, most: float = RETRY_MOST) -> float:
    """Return the wait before attempt ``attempts + 1``: ``first`` doubling, at most ``most``."""
    return min(most, first * 2 ** max(0, attempts - 1))


class Scheduler:
    """Run due work from the store, each row once, in due order."""

    def __init__(self, store: Store, clock: Clock, lease: float = LEASE) -> None:
        self.store = store
        self.clock = clock
        self.lease = lease
        """Seconds a leased row is held (the load bench shortens it to see a kill taken over soon)."""
        self._handlers: dict[str, Handler] = {}
        self._on_start: list[Callable[[], Awaitable[None]]] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._next: float | None = None
        self._sleeper: asyncio.Future[None] | None = None
        self.ran: Counter[str] = Counter()
        """Due work run by this scheduler, by kind (the clock bench compares runs by it, not by time)."""
        clock.on_change(self.wake)

    def handle(self, kind: str, handler: Handler) -> None:
        """Register what to do with due work of one kind."""
        self._handlers[kind] = handler

    def on_start(self, check: Callable[[], Awaitable[None]]) -> None:
        """Register a check run at each start, after the leases are dropped and before any work runs."""
        self._on_start.append(check)

    def wake(self) -> None:
        """Make the sleeping task look at the store again (new work, or the clock moved)."""
        self._wake.set()
        if self._sleeper is not None and not self._sleeper.done():
            self._sleeper.cancel()

    async def add(
        self,
        kind: str,
        due_at: float,
        key: str,
        table_id: int,
        user_id: int | None = None,
        payload: dict[str, Any] | None = None,
    ) -> bool:
        """Store due work (once per key) and wake the task when it is nearer than its next wake."""
        added = await self.store.schedule(kind, due_at, key, table_id, user_id, payload)
        if added and (self._next is None or due_at < self._next):
            self.wake()
        return added

    async def add_many(
        self, items: list[tuple[str, float, str, int, int | None, dict[str, Any] | None]]
    ) -> None:
        """Store several pieces of due work in one transaction (kind, due, key, table, user, payload)."""
        added = await self.store.schedule_many(items)
        if added and (self._next is None or min(due for _, due, *_ in items) < self._next):
            self.wake()

    async def run_due(self, limit: int = 1000) -> int:
        """Run every piece of work due now (also work that running adds and is due); return the count."""
        done = 0
        while done < limit:
            now = self.clock.now()
            until = now + self.lease
            batch = await self.store.lease_due(now, until, limit=min(BATCH, limit - done))
            if not batch:
                break
            done += await self._run_batch(batch, until)
        return done

    async def _run_batch(self, batch: list[DueWork], until: float) -> int:
        """Run a leased batch in due order; give back what half the lease left no time for."""
        touched: set[int] = set()
        for index, work in enumerate(batch):
            if self.clock.now() >= until - self.lease / 2:
                # Slow handlers: hand the rest back rather than run it near a lease's end, where
                # another process could take the same row.
                await self.store.unlease([w.id for w in batch[index:]], until)
                return index
            # A handler may finish, drop or postpone other work of its own table (a move cancels
            # reminders): a later row of a table already handled runs only if still leased.
            if work.table_id not in touched or await self.store.holds(work.id, until):
                await self._run(work, until)
            touched.add(work.table_id)
        return len(batch)

    async def _run(self, work: DueWork, lease: float) -> None:
        """Run one leased row's handler, then mark it done; a failure retries it later."""
        if work.damaged is not None:
            log.error("due work %s (%s) of table %s set aside: %s", work.id, work.kind, work.table_id,
                      work.damaged)
            await self.store.set_aside(work.id, work.damaged)
            return
        handler = self._handlers.get(work.kind)
        if handler is None:
            log.error("due work %s has unknown kind %s: set aside", work.id, work.kind)
            await self.store.set_aside(work.id, f"no handler for kind {work.kind}")
            return
        self.ran[work.kind] += 1
        try:
            await handler(work)
        except Exception as exc:
            # The work is not lost: it runs again later, or is set aside once it keeps failing.
            attempts = work.attempts + 1
            log.exception("due work %s (%s) of table %s failed (attempt %d)", work.id, work.kind,
                          work.table_id, attempts)
            if attempts >= MAX_ATTEMPTS:
                await self.store.set_aside(work.id, f"{type(exc).__name__} in {attempts} attempts")
            else:
                await self.store.retry(work.id, self.clock.now() + retry_delay(attempts))
            return
        # Done only now, after the effect (a row the handler postponed or finished is left alone).
        await self.store.finish(work.id, self.clock.now(), lease)

    async def recover(self) -> None:
        """Drop the leases a dead process held (one per SQLite file, or per shard range): its work runs now.

        Then run the start checks (``on_start``): a process killed between two transactions of
        one decision may have left state that needs work no row holds, and they add it.
        """
        released = await self.store.release_leases()
        if released:
            log.info("took back %d piece(s) of due work left running by a stopped process", released)
        for check in self._on_start:
            await check()

    def start(self) -> None:
        """Start the one task (idempotent)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._loop(), name="conclave-scheduler")

    async def stop(self) -> None:
        """Stop the task; unfinished work stays in the store for the next start."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _loop(self) -> None:
        failures = 0
        recovered = False
        while True:
            self._wake.clear()
            try:
                if not recovered:
                    await self.recover()
                    recovered = True
                await self.run_due()
                self._next = await self.store.next_due()
                failures = 0
            except Exception:
                failures += 1
                self._next = None
                log.exception("the scheduler could not read its work (failure %d); trying again soon",
                              failures)
            if self._wake.is_set():
                continue
            timeout = IDLE_SLEEP
            if failures:
                # A store that cannot be read is tried again within a minute, never an hour later.
                timeout = retry_delay(failures, READ_RETRY_FIRST, READ_RETRY_MOST)
            elif self._next is not None:
                timeout = max(0.0, min(IDLE_SLEEP, self._next - self.clock.now()))
                if isinstance(self.clock, ManualClock) and timeout > 0:
                    # A hand-moved clock does not run: sleep until it is moved (or work is added).
                    timeout = IDLE_SLEEP
            # A plain sleep in its own task, cancelled by wake(): test harnesses and debuggers
            # see an ordinary timer, and a wake never waits for the timeout.
            self._sleeper = asyncio.ensure_future(asyncio.sleep(timeout))
            try:
                await self._sleeper
            except asyncio.CancelledError:
                current = asyncio.current_task()
                if current is not None and current.cancelling():
                    raise
            finally:
                self._sleeper = None
