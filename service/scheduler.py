"""One durable scheduler: due work lives in the store, one asyncio task runs it when due.

No per-table timers: the store's ``due_work`` table (indexed by due time) holds every reminder,
deadline, vote expiry and autoplay. The task sleeps until the earliest due time and wakes early
when nearer work is added or the clock is moved by hand. Each row is claimed once in the store
(a claim is a compare-and-set), so a restart or a second process never runs it twice.
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


class Scheduler:
    """Run due work from the store, each row once, in due order."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._handlers: dict[str, Handler] = {}
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
            batch = await self.store.due(self.clock.now(), limit=50)
            if not batch:
                break
            for work in batch:
                await self._run(work)
                done += 1
        return done

    async def _run(self, work: DueWork) -> None:
        self.ran[work.kind] += 1
        handler = self._handlers.get(work.kind)
        if handler is None:
            log.warning("due work %s has unknown kind %s: dropped", work.id, work.kind)
            await self.store.claim(work.id, self.clock.now())
            return
        try:
            await handler(work)
        except Exception:
            # One failure must not stop the others; the row is claimed by the handler (or not,
            # and then it runs again on the next pass).
            log.exception("due work %s (%s) of table %s failed", work.id, work.kind, work.table_id)
            await self.store.claim(work.id, self.clock.now())

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
        while True:
            self._wake.clear()
            try:
                await self.run_due()
                self._next = await self.store.next_due()
            except Exception:
                log.exception("the scheduler could not read its work; trying again soon")
                self._next = None
            if self._wake.is_set():
                continue
            timeout = IDLE_SLEEP
            if self._next is not None:
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
