"""Live pages: one watcher per watched table tells every open page when a new version lands.

However many people watch a table, one task looks at its version (a cheap read of the table's
row, every ``POLL`` seconds, which also catches moves made by another process, the scheduler or
an undo), draws the new board once, then tells every page. The row it reads is the one every page
of the table then trusts (``TablePages.current``), so a hundred viewers cost one read a poll, not
one a request. A table nobody watches costs nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

from service import TableError
from service.pages import TablePages

log = logging.getLogger("conclave.web")

POLL = 0.5
"""Seconds between looks at a watched table's version: a move shows within half a second."""
QUEUE = 8
"""Versions a slow page may fall behind before it only hears the newest."""
CLOSED = -1
"""Put in every page's queue when the server shuts down: the stream ends at once."""


@dataclass
class _Watch:
    """One table's watcher task and the queues of the pages watching it."""

    version: int
    pages: set[asyncio.Queue[int]] = field(default_factory=set)
    task: asyncio.Task[None] | None = None


class Live:
    """Shares one version watcher per table among every live page."""

    def __init__(self, pages: TablePages, poll: float = POLL) -> None:
        self.pages = pages
        self.poll = poll
        self._watches: dict[int, _Watch] = {}

    @contextlib.asynccontextmanager
    async def listen(self, table_id: int, version: int):  # type: ignore[no-untyped-def]
        """Yield a queue that receives each new version of the table while the block runs."""
        watch = self._watches.get(table_id)
        if watch is None:
            watch = self._watches[table_id] = _Watch(version)
            watch.task = asyncio.create_task(self._watch(table_id, watch), name=f"web-live-{table_id}")
            self.pages.watch(table_id, True)
        queue: asyncio.Queue[int] = asyncio.Queue(QUEUE)
        watch.pages.add(queue)
        try:
            yield queue
        finally:
            watch.pages.discard(queue)
            if not watch.pages and self._watches.get(table_id) is watch:
                del self._watches[table_id]
                self.pages.watch(table_id, False)
                if watch.task is not None:
                    watch.task.cancel()

    def watchers(self, table_id: int) -> int:
        """Return how many pages watch a table now."""
        watch = self._watches.get(table_id)
        return 0 if watch is None else len(watch.pages)

    async def close(self) -> None:
        """Stop every watcher (the server is shutting down)."""
        watches, self._watches = list(self._watches.items()), {}
        for table_id, watch in watches:
            self.pages.watch(table_id, False)
            for queue in watch.pages:
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()  # room for the last word, even in a full queue
                queue.put_nowait(CLOSED)
            if watch.task is not None:
                watch.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watch.task

    async def _watch(self, table_id: int, watch: _Watch) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                table = await self.pages.refresh(table_id)
                if table.version == watch.version:
                    continue
                # Drawn here, once, before any page asks: a hundred pages then read the cache.
                await self.pages.board_image(table_id)
            except TableError:
                continue
            except Exception:
                log.exception("table %s: the live watcher could not read the table", table_id)
                continue
            watch.version = table.version
            for queue in list(watch.pages):
                if queue.full():
                    with contextlib.suppress(asyncio.QueueEmpty):
                        queue.get_nowait()
                queue.put_nowait(table.version)
