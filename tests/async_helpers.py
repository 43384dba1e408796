"""A table service on a real SQLite file with a hand-moved clock, for the async-play tests."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot import create_bot
from localtable import run_session
from service import TableService
from service.clock import DAY, HOUR, ManualClock
from service.notices import Notice
from service.replies import Reply
from store import Store

ALICE, BOB, CAROL, DAVE, EVE = 101, 102, 103, 104, 105
NAMES = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave", EVE: "eve"}
START = 1_800_000_000.0
"""08:00 UTC on a Friday: the tests' clock starts here."""
OpenStore = Callable[..., Awaitable[Store]]
"""The ``open_store`` fixture: ``await open_store(path, clock=...)`` opens a Store like ``Store.open``."""


class LoopTicks:
    """Counts how often the event loop ran a ticking task while the ``async with`` block waited:
    a wait done on a thread lets it tick, one done on the loop's own thread does not."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.count = 0
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> LoopTicks:
        self._task = asyncio.create_task(self._tick())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            self.count += 1


@dataclass
class Harness:
    """One database file, one clock, and the service of the current "process"."""

    path: Path
    url: str | None = None
    """The database on its engine (None: the SQLite file at ``path``)."""
    clock: ManualClock = field(default_factory=lambda: ManualClock(START))
    sent: list[Notice | Reply] = field(default_factory=list)
    svc: TableService | None = None
    store: Store | None = None
    restarts: int = 0

    async def open(self) -> TableService:
        """Open the store and a fresh service on it (a new process after a restart)."""
        self.store = await Store.open(self.url or str(self.path), clock=self.clock.now)
        self.svc = TableService(self.store, seed_source=lambda: 12345, clock=self.clock, outlet=self._outlet)
        return self.svc

    async def _outlet(self, message: Notice | Reply) -> None:
        self.sent.append(message)

    async def restart(self) -> TableService:
        """Close the store and open a new service: nothing in memory survives."""
        await self.close()
        self.restarts += 1
        return await self.open()

    async def close(self) -> None:
        """Close the store."""
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def wait(self, seconds: float) -> int:
        """Move the clock and run the work that became due; return how much ran."""
        self.clock.advance(seconds)
        assert self.svc is not None
        return await self.svc.scheduler.run_due()

    def notices(self, kind: str, user_id: int | None = None) -> list[Notice]:
        """Return the notices of a kind sent so far (to one user, or any)."""
        return [
            n for n in self.sent
            if isinstance(n, Notice) and n.kind == kind and (user_id is None or n.user_id == user_id)
        ]

    async def table(
        self, kind: str = "toy", options: str = "", users: tuple[int, ...] = (ALICE, BOB)
    ) -> int:
        """Open a table hosted by the first user, seat the others, start it; return its id."""
        assert self.svc is not None
        host = users[0]
        record = await self.svc.open_table(
            kind, options, guild_id=1, channel_id=2, host_id=host, host_name=NAMES[host]
        )
        for user in users[1:]:
            await self.svc.join(record.id, user, NAMES[user])
        await self.svc.start(record.id, host)
        return record.id

    async def user_at(self, table_id: int, seat: int) -> int:
        """Return the user sitting at a seat number."""
        assert self.svc is not None
        return next(s.user_id for s in await self.svc.seats(table_id) if s.seat == seat)


__all__ = ["ALICE", "BOB", "CAROL", "DAVE", "DAY", "EVE", "HOUR", "NAMES", "START", "Harness", "first_move"]


async def first_move(h: Harness, table_id: int, user_id: int) -> None:
    """Play the user's first offered move (stamped: the same move twice at once is not refused)."""
    assert h.svc is not None
    choices = await h.svc.reads.choices(table_id, user_id)
    await h.svc.act(table_id, user_id, choices[0].value)


async def local_session(lines: Iterable[str] | None, **kwargs: Any) -> int:
    """Run a local-table session (``localtable.run_session``) with the real bot; return its failures."""
    return await run_session(lines, make_bot=create_bot, **kwargs)
