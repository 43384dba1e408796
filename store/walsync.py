"""A move's commit made durable beside the work that follows it, not inside it.

A FULL commit fsyncs the WAL inside COMMIT: about 1 ms on this kind of machine when moves come a
few milliseconds apart (the disk's wake-up is paid each time), while the move waits for nothing
else. A move's commit may instead be written at ``synchronous=NORMAL`` (its frames are in the WAL
file, safe from a killed process but not yet from a power cut) and the WAL then fsynced here, on a
thread of its own, while the service composes what the move tells whom. The service shows
nothing of the move before ``durable`` returns (``TableService``: the reply, the spectators'
news, the kept table read by others), so what players see survives a power cut as with FULL.

One fsync covers every frame written before it began, so commits that land while one runs share
the next (a group commit under load). A killed process loses nothing either way.
"""

from __future__ import annotations

import asyncio
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor

from store.records import StoreError

_sync_file = getattr(os, "fdatasync", os.fsync)
"""fdatasync where the system has it (the WAL's size is its data here), else fsync."""


class WalSync:
    """fsync a SQLite file's WAL off the event loop, on demand, one sync at a time."""

    def __init__(self, path: str) -> None:
        self._wal = f"{path}-wal"
        self._fd: int | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="conclave-walsync")
        self._queued: Future[None] | None = None
        """A sync asked and not begun yet: a commit written now is covered by it."""
        self._last: Future[None] | None = None
        """The sync asked last: once it is done, every commit written before it was asked is on disk."""
        self._lock = threading.Lock()
        self.syncs = 0
        """fsyncs made (the bench and tests count them)."""

    def written(self) -> None:
        """A commit was written at NORMAL: make sure a sync that begins after it is asked."""
        with self._lock:
            if self._queued is None:
                self._queued = self._last = self._thread.submit(self._sync)

    def syncing(self) -> bool:
        """Whether a sync asked is not done, or failed (``durable`` would wait, or raise)."""
        last = self._last
        return last is not None and (not last.done() or last.exception() is not None)

    async def durable(self) -> None:
        """Return once every commit written before this call is on the disk; raise ``StoreError``
        if the disk refused the sync."""
        with self._lock:
            last = self._last
        if last is None or (last.done() and last.exception() is None):
            return
        try:
            await asyncio.shield(asyncio.wrap_future(last))
        except OSError as exc:
            raise StoreError(f"The database file could not be synced to disk ({exc}).") from exc

    def _sync(self) -> None:
        with self._lock:
            self._queued = None  # a commit written from now on asks the next sync
        if self._fd is None:
            self._fd = os.open(self._wal, os.O_RDONLY)
        _sync_file(self._fd)
        self.syncs += 1

    def close(self) -> None:
        """Finish the sync under way and release the file."""
        self._thread.shutdown(wait=True)
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
