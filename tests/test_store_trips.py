"""A write transaction is one trip to the SQLite store's thread; only the delivered mark skips its fsync."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from store import CorruptTable, StaleVersion, Store, StoreError
from store.duework import DELIVER
from store.inline import Suspended
from tests.async_helpers import LoopTicks

ALICE, BOB = 101, 102
FULL, NORMAL = 2, 1
"""``PRAGMA synchronous`` values."""


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await Store.open(str(tmp_path / "trips.db"), clock=lambda: 1_000.0)
    try:
        yield opened
    finally:
        await opened.close()


async def _started(db: Store) -> int:
    table = await db.create_table("toy", "T", {"goal": "5"}, 1, 2, ALICE)
    for user in (ALICE, BOB):
        await db.add_seat(table.id, user, f"user{user}", True)
    await db.start(table.id, 7, [ALICE, BOB], {"n": 0}, [ALICE])
    return table.id


class CountedQueue:
    """aiosqlite's queue to its thread, counting the calls put there (each is one trip)."""

    def __init__(self, queue: Any, trips: Trips) -> None:
        self._queue = queue
        self._trips = trips

    def put_nowait(self, item: Any) -> None:
        self._trips.count += 1
        self._queue.put_nowait(item)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._queue, name)


class Trips:
    """Counts the calls queued to the store's database thread, and traces their statements."""

    def __init__(self, db: Store) -> None:
        self.count = 0
        self.statements: list[str] = []
        db._db._tx = CountedQueue(db._db._tx, self)  # type: ignore[assignment]

    def reset(self) -> None:
        self.count, self.statements[:] = 0, []


async def _trips(db: Store) -> Trips:
    trips = Trips(db)
    await db._db.set_trace_callback(trips.statements.append)
    trips.reset()
    return trips


async def _synchronous(db: Store) -> int:
    rows = await db._db.execute_fetchall("PRAGMA synchronous")
    return int(next(iter(rows))[0])


async def test_a_move_commits_in_one_trip_at_full_durability(db: Store) -> None:
    table_id = await _started(db)
    trips = await _trips(db)
    memories = {1: {"m": 1}}
    version = await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB], memories=memories)
    assert (version, trips.count) == (1, 1)
    assert trips.statements[0] == "BEGIN IMMEDIATE" and trips.statements[-1] == "COMMIT"
    assert not any(s.startswith("PRAGMA") for s in trips.statements), trips.statements
    trips.reset()
    assert await db.commit_move(table_id, 1, 1, {"action": "end"}, [], {"n": 2}, [], result={"won": [0]}) == 2
    assert trips.count == 1
    assert await _synchronous(db) == FULL


async def test_a_refused_move_is_one_trip_and_writes_nothing(db: Store) -> None:
    table_id = await _started(db)
    await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB])
    trips = await _trips(db)
    with pytest.raises(Exception, match="version 1, not 0"):
        await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 9}, [BOB])
    assert trips.count == 1 and trips.statements[-1] == "ROLLBACK"
    table, state = await db.load(table_id)
    assert (table.version, state, len(await db.moves(table_id))) == (1, {"n": 1}, 1)


async def test_the_delivered_mark_commits_without_its_own_fsync_then_is_full_again(db: Store) -> None:
    table_id = await _started(db)
    await db.schedule(DELIVER, 1_060.0, f"{DELIVER}:{table_id}:1", table_id, None, {"since": 0, "version": 1})
    trips = await _trips(db)
    assert await db.delivered(table_id, 1, 1_001.0) == 1
    # No fsync to wait for: written on the caller's thread, no trip to the database's thread.
    assert trips.count == 0
    # The mark is one statement, its own transaction (SQLite's autocommit): no BEGIN, no COMMIT.
    # Never waiting for another process's lock, never checkpointing on the caller's thread.
    assert trips.statements[1:3] == ["PRAGMA busy_timeout = 0", "PRAGMA wal_autocheckpoint = 0"]
    settings = ("PRAGMA busy_timeout", "PRAGMA wal_autocheckpoint")
    marks = [s for s in trips.statements if not s.startswith(settings)]
    assert len(marks) == 3, trips.statements
    assert marks[0] == "PRAGMA synchronous = NORMAL"
    assert marks[1].startswith("UPDATE due_work SET claimed_at")
    assert marks[2] == "PRAGMA synchronous = FULL"
    assert await _synchronous(db) == FULL
    assert await db.undelivered(table_id) is None
    rows = await db._db.execute_fetchall("PRAGMA busy_timeout")
    assert int(next(iter(rows))[0]) == 10_000  # back to waiting out another process's lock
    rows = await db._db.execute_fetchall("PRAGMA wal_autocheckpoint")
    assert int(next(iter(rows))[0]) == 1000  # the commits on the database's thread checkpoint


async def test_a_mark_finding_the_file_locked_waits_on_the_database_thread_not_the_loop(
    db: Store, tmp_path: Path
) -> None:
    table_id = await _started(db)
    await db.schedule(DELIVER, 1_060.0, f"{DELIVER}:{table_id}:1", table_id, None, {"since": 0, "version": 1})
    other = sqlite3.connect(tmp_path / "trips.db", isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock for a moment
    asyncio.get_running_loop().call_later(0.3, other.execute, "ROLLBACK")
    try:
        async with LoopTicks(0.02) as ticks:
            assert await db.delivered(table_id, 1, 1_001.0) == 1  # waited for the lock, then written
    finally:
        other.close()
    assert ticks.count >= 5  # the event loop ran meanwhile: the wait was on the database's thread
    assert await db.undelivered(table_id) is None and await _synchronous(db) == FULL


async def test_a_move_committed_to_sync_later_is_written_at_normal_and_synced_beside(db: Store) -> None:
    table_id = await _started(db)
    trips = await _trips(db)
    assert await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB], sync_later=True) == 1
    assert trips.count == 1  # still one trip: the fsync is not in it
    assert trips.statements[0] == "PRAGMA synchronous = NORMAL"
    assert trips.statements[-1] == "PRAGMA synchronous = FULL"
    assert await _synchronous(db) == FULL
    wal = db._wal
    assert wal is not None
    await db.durable()
    synced = wal.syncs
    assert synced >= 1
    await db.durable()  # nothing written since: no second sync
    assert wal.syncs == synced
    assert await db.commit_move(table_id, 1, 1, {"action": "step"}, [], {"n": 2}, [ALICE]) == 2
    await db.durable()
    assert wal.syncs == synced  # a FULL commit syncs itself (and every frame before it)


async def test_a_lone_write_is_its_own_transaction_committed_at_full(db: Store, tmp_path: Path) -> None:
    table_id = await _started(db)
    trips = await _trips(db)
    assert await db.schedule("remind", 1_100.0, "remind:x", table_id, ALICE, {"n": 1})
    assert trips.count == 1 and len(trips.statements) == 1, trips.statements
    assert not db._db.in_transaction and await _synchronous(db) == FULL
    # Committed once the call returns: another connection sees it.
    other = sqlite3.connect(tmp_path / "trips.db")
    try:
        assert other.execute("SELECT COUNT(*) FROM due_work WHERE key = 'remind:x'").fetchone() == (1,)
    finally:
        other.close()


async def test_a_lone_write_finding_the_file_locked_is_a_busy_store(db: Store, tmp_path: Path) -> None:
    table_id = await _started(db)
    await db._db.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(tmp_path / "trips.db", isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with pytest.raises(StoreError, match="busy"):
            await db.delivered(table_id, 1, 1_001.0)
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert not db._db.in_transaction and await _synchronous(db) == FULL


async def test_a_failed_mark_rolls_back_and_leaves_the_connection_at_full(db: Store) -> None:
    with pytest.raises(Exception, match="no such table"):
        await db._changed("UPDATE no_such_table SET x = 1", durable=False)
    assert await _synchronous(db) == FULL
    assert not db._db.in_transaction


async def test_a_transaction_body_that_awaits_other_work_is_refused_and_rolled_back(db: Store) -> None:
    table_id = await _started(db)

    async def strays(conn: Any) -> None:
        await conn.execute("UPDATE tables SET name = 'changed' WHERE id = ?", (table_id,))
        await asyncio.sleep(0)  # not the database: it cannot run on the database's thread

    with pytest.raises(Suspended):
        await db._in_one_trip(strays)
    assert not db._db.in_transaction
    table = await db.table(table_id)
    assert table is not None and table.name == "T"


async def test_a_move_reads_neither_the_table_row_nor_the_link_this_store_verified(
    db: Store, tmp_path: Path
) -> None:
    table_id = await _started(db)
    await db.load(table_id)  # verifies the chain up to version 0
    trips = await _trips(db)
    for version in (0, 1):  # the second move extends the link the first one wrote
        trips.reset()
        await db.commit_move(table_id, version, version, {"n": version + 1}, [], {"n": version + 1}, [BOB])
        assert trips.statements[1].startswith("UPDATE tables SET version"), trips.statements
        assert not any(s.startswith(("SELECT * FROM tables", "SELECT link")) for s in trips.statements)
    # A store that never saw these moves finds the chain they wrote sound.
    fresh = await Store.open(str(tmp_path / "trips.db"))
    try:
        table, state = await fresh.load(table_id)
        assert (table.version, state) == (2, {"n": 2})
    finally:
        await fresh.close()


async def test_a_link_changed_behind_the_store_is_read_again_and_not_taken_as_verified(
    db: Store, tmp_path: Path
) -> None:
    table_id = await _started(db)
    await db.load(table_id)
    await db.commit_move(table_id, 0, 0, {"n": 1}, [], {"n": 1}, [BOB])
    other = sqlite3.connect(tmp_path / "trips.db", isolation_level=None)
    try:
        other.execute("UPDATE chain SET link = 'edited' WHERE table_id = ? AND version = 1", (table_id,))
    finally:
        other.close()
    trips = await _trips(db)
    await db.commit_move(table_id, 1, 1, {"n": 2}, [], {"n": 2}, [ALICE])
    assert any(s.startswith("SELECT link FROM chain") for s in trips.statements), trips.statements
    with pytest.raises(CorruptTable, match="move 1"):
        await db.load(table_id)


async def test_a_refused_move_still_names_the_version_or_the_status(db: Store) -> None:
    table_id = await _started(db)
    with pytest.raises(StaleVersion, match="at version 0, not 3"):
        await db.commit_move(table_id, 3, 0, {"n": 1}, [], {"n": 1}, [BOB])
    await db.set_status(table_id, "abandoned")
    with pytest.raises(StaleVersion, match=r"not active \(abandoned\)"):
        await db.commit_move(table_id, 0, 0, {"n": 1}, [], {"n": 1}, [BOB])
    with pytest.raises(StoreError, match="no table 999"):
        await db.commit_move(999, 0, 0, {"n": 1}, [], {"n": 1}, [BOB])


async def test_a_sync_the_disk_refuses_is_a_store_error_until_a_later_sync_succeeds(
    db: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await _started(db)
    wal = db._wal
    assert wal is not None

    def refused() -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(wal, "sync", refused)
    assert await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB], sync_later=True) == 1
    with pytest.raises(StoreError, match="could not be synced"):
        await db.durable()
    assert db.syncing()  # not durable: readers keep being told
    monkeypatch.undo()
    version = await db.commit_move(table_id, 1, 1, {"action": "step"}, [], {"n": 2}, [ALICE], sync_later=True)
    await db.durable()
    assert version == 2 and not db.syncing() and wal.syncs == 1


async def test_a_refused_commit_to_sync_later_raises_and_syncs_nothing(db: Store) -> None:
    table_id = await _started(db)
    wal = db._wal
    assert wal is not None
    with pytest.raises(StaleVersion):
        await db.commit_move(table_id, 5, 0, {"action": "step"}, [], {"n": 1}, [BOB], sync_later=True)
    assert wal.syncs == 0 and not db.syncing()
    assert await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB], sync_later=True) == 1
