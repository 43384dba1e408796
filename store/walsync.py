"""A move's commit made durable beside the work that follows it, not inside it.

A FULL commit fsyncs the WAL inside COMMIT, and the move waits for it doing nothing else. A move's
commit may instead be written at ``synchronous=NORMAL`` (its frames are in the WAL file, safe from
a killed process but not yet from a power cut): the database's thread hands the commit's result
to the event loop at once, then fsyncs the WAL (``WalSync.sync``) while the service composes what
the move tells whom. The service shows nothing of the move before ``durable`` returns
(``TableService``: the reply, the spectators' news, any read of the table), so what players see
survives a power cut as with FULL.

The fsync runs on the database's thread, right after its COMMIT: that thread holds the
interpreter's lock then, where a thread of its own would first wait for it behind the compose
(up to the 5 ms switch interval). Later statements queue behind the fsync, as they queued behind
a FULL commit's.
"""

from __future__ import annotations

import asyncio
import os
from typing import Any

from store.records import NotDurable

_sync_file = getattr(os, "fdatasync", os.fsync)
"""fdatasync where the system has it (the WAL's size is its data here), else fsync."""


class WalSync:
    """fsync a SQLite file's WAL after commits written at NORMAL; tell when they are on disk."""

    def __init__(self, path: str) -> None:
        self._wal = f"{path}-wal"
        self._fd: int | None = None
        self._last: asyncio.Future[Any] | None = None
        """The last commit-and-sync under way: once it ended, every commit before it is on disk."""
        self.syncs = 0
        """fsyncs made (the bench and tests count them)."""

    def sync(self) -> None:
        """On the database's thread, after a commit at NORMAL: put the WAL on the disk."""
        if self._fd is None:
            self._fd = os.open(self._wal, os.O_RDONLY)
        _sync_file(self._fd)
        self.syncs += 1

    def track(self, job: asyncio.Future[Any]) -> None:
        """Follow a commit's job whose fsync is still under way (it ends once it is on the disk)."""
        job.add_done_callback(_seen)
        self._last = job

    def syncing(self) -> bool:
        """Whether the last commit's fsync is under way, or failed (``durable`` waits, or raises)."""
        last = self._last
        return last is not None and (not last.done() or last.cancelled() or last.exception() is not None)

    async def durable(self) -> None:
        """Return once every commit tracked so far is on the disk; raise ``NotDurable`` if the
        disk refused its fsync."""
        last = self._last
        if last is None:
            return
        try:
            await asyncio.shield(last)
        except OSError as exc:
            raise NotDurable(f"The database file could not be synced to disk ({exc}).") from exc

    def close(self) -> None:
        """Release the file."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _seen(job: asyncio.Future[Any]) -> None:
    """Mark a failed fsync's error as retrieved: ``durable`` raises it to whoever waits."""
    if not job.cancelled():
        job.exception()
