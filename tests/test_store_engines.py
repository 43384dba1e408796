"""What both store engines guarantee alike, and PostgreSQL's own counterparts of the file tests.

Leases of due work and claims go to exactly one of several stores (processes) on one database;
a store leases only the work of the Discord shards it owns. On PostgreSQL: the schema is the
migration list rendered (same tables and columns as SQLite's), a step runs once, a newer schema
is refused, a failing step leaves the old schema, a writer killed mid-commit leaves the old
version, and a damaged log is refused on load.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import asyncpg
import pytest

import store.migrations
from store import CorruptTable, Store, StoreError
from store.dialect import ORDERED_TABLES
from store.duework import WORK_CHUNK
from store.migrations import MIGRATIONS
from store.pg import PgConnection, PostgresStore
from tests.async_helpers import OpenStore

ALICE, BOB = 101, 102
SHARD_COUNT = 4


def guild_on_shard(shard: int) -> int:
    """Return a server id that Discord serves from ``shard`` of ``SHARD_COUNT``."""
    return (1000 * SHARD_COUNT + shard) << 22


async def started(db: Store, guild_id: int = 1) -> int:
    """Create a two-seat table in a server, start it waiting on Alice; return its id."""
    table = await db.create_table("toy", "T", {"goal": "5"}, guild_id, 2, ALICE)
    for user in (ALICE, BOB):
        await db.add_seat(table.id, user, f"user{user}", True)
    await db.start(table.id, 7, [ALICE, BOB], {"n": 0}, [ALICE])
    return table.id


@pytest.fixture
def path(tmp_path: Path) -> str:
    return str(tmp_path / "c.db")


# --------------------------------------------------------------------------- both engines


async def test_two_stores_opening_a_fresh_database_at_once_migrate_it_once(
    path: str, open_store: OpenStore
) -> None:
    first, second = await asyncio.gather(open_store(path), open_store(path))
    table_id = await started(first)
    assert (await second.table(table_id)).status == "active"


async def test_a_lone_write_is_committed_when_it_returns_and_leaves_no_transaction_open(
    path: str, open_store: OpenStore
) -> None:
    writer, reader = await open_store(path), await open_store(path)
    table_id = await started(writer)
    assert await writer.schedule("deliver", 50.0, f"deliver:{table_id}:1", table_id, None,
                                 {"since": 0, "version": 1})
    assert not await writer.schedule("deliver", 60.0, f"deliver:{table_id}:1", table_id, None, {})
    assert await reader.undelivered(table_id) == (0, 1)  # another store sees it at once
    assert await writer.delivered(table_id, 1, 51.0) == 1
    assert await reader.undelivered(table_id) is None
    assert await writer.delivered(table_id, 1, 52.0) == 0  # marked once
    # The writer's connection is free for a transaction of its own at once.
    assert await writer.commit_move(table_id, 0, 0, {"n": 1}, [], {"n": 1}, [BOB]) == 1
    assert (await reader.load(table_id))[0].version == 1


async def test_each_piece_of_due_work_is_leased_by_exactly_one_of_several_stores(
    path: str, open_store: OpenStore
) -> None:
    stores = [await open_store(path) for _ in range(3)]
    table_id = await started(stores[0])
    added = await stores[0].schedule_many(
        [("note", 10.0 + i, f"n{i}", table_id, None, {}) for i in range(60)]
    )
    assert added == 60
    batches = await asyncio.gather(*(s.lease_due(100.0, 700.0, limit=25) for s in stores for _ in range(2)))
    leased = [work.id for batch in batches for work in batch]
    assert len(leased) == len(set(leased)) == 60
    # Leased work is not due again until its lease runs out; then it is leased once more.
    assert await stores[1].lease_due(699.0, 1300.0) == []
    assert len(await stores[2].lease_due(700.0, 1300.0, limit=100)) == 60


async def test_many_pieces_of_due_work_are_added_in_few_statements_each_key_once(
    path: str, monkeypatch: pytest.MonkeyPatch, open_store: OpenStore
) -> None:
    db = await open_store(path)
    table_id = await started(db)
    assert await db.schedule("note", 1.0, "n7", table_id)
    statements: list[str] = []
    if isinstance(db, PostgresStore):  # each statement is a round trip to the server: count them
        real = PgConnection.execute

        async def counted(conn: PgConnection, sql: str, params: Sequence[Any] = ()) -> Any:
            statements.append(sql)
            return await real(conn, sql, params)

        monkeypatch.setattr(PgConnection, "execute", counted)
    items = [("note", 2.0, f"n{i % 400}", table_id, None, {"i": i}) for i in range(450)]
    assert await db.schedule_many(items) == 400 - 1, "n7 was there; n0-n49 come twice"
    if isinstance(db, PostgresStore):
        assert len(statements) == -(-450 // WORK_CHUNK), "one INSERT per chunk of rows, not per row"
    assert len(await db.due(5.0, limit=1000)) == 400


async def test_a_store_leases_only_the_work_of_the_shards_it_owns(path: str, open_store: OpenStore) -> None:
    db = await open_store(path)
    tables = {shard: await started(db, guild_on_shard(shard)) for shard in range(SHARD_COUNT)}
    await db.schedule_many([("note", 1.0, f"n{s}", t, None, {}) for s, t in tables.items()])
    ours = await db.lease_due(5.0, 600.0, shards=([1, 3], SHARD_COUNT))
    assert len(ours) == 2
    assert {w.table_id for w in await db.due(5.0)} == {tables[0], tables[2]}
    assert len(await db.lease_due(5.0, 600.0, shards=([0, 2], SHARD_COUNT))) == 2
    assert await db.due(5.0) == []


async def test_two_stores_claiming_one_reminder_at_once_send_it_once(
    path: str, open_store: OpenStore
) -> None:
    one, two = await open_store(path), await open_store(path)
    table_id = await started(one)
    await one.schedule("remind", 1.0, "r1", table_id, ALICE)
    (work,) = await one.due(2.0)
    won = await asyncio.gather(
        *(s.claim(work.id, 2.0, (f"notice{i}", "remind")) for i, s in enumerate((one, two, one, two)))
    )
    assert sorted(won) == [False, False, False, True]
    assert len(await one.notices(table_id)) == 1


# --------------------------------------------------------------------------- PostgreSQL itself


def sqlite_columns(tmp_path: Path) -> dict[str, list[str]]:
    """Return each table's columns in SQLite's schema built by the migration list."""
    con = sqlite3.connect(str(tmp_path / "schema.db"))
    try:
        for step in MIGRATIONS:
            for statement in step:
                con.execute(statement)
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {
            name: [r[1] for r in con.execute(f"PRAGMA table_info({name})")]
            for name in names if not name.startswith("sqlite_")
        }
    finally:
        con.close()


async def pg_columns(db: PostgresStore) -> dict[str, list[str]]:
    """Return each table's columns in the store's PostgreSQL schema (its own bookkeeping aside)."""
    async with db._single() as conn:
        rows = await conn.execute_fetchall(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        )
    found: dict[str, list[str]] = {}
    for row in rows:
        if row["table_name"] != "conclave_schema":
            found.setdefault(row["table_name"], []).append(row["column_name"])
    return found


@pytest.mark.postgresql_only
async def test_postgresql_has_the_same_tables_and_columns_as_sqlite(
    tmp_path: Path, path: str, open_store: OpenStore
) -> None:
    db = await open_store(path)
    assert isinstance(db, PostgresStore)
    pg = await pg_columns(db)
    for name in ORDERED_TABLES:  # PostgreSQL's stand-in for SQLite's hidden rowid
        pg[name].remove("rowid")
    assert pg == sqlite_columns(tmp_path)


async def schema_versions(db: PostgresStore) -> list[int]:
    async with db._single() as conn:
        return [r["version"] for r in await conn.execute_fetchall("SELECT version FROM conclave_schema")]


@pytest.mark.postgresql_only
async def test_a_new_step_runs_once_and_a_failing_one_leaves_the_old_schema(
    path: str, monkeypatch: pytest.MonkeyPatch, open_store: OpenStore
) -> None:
    await (await open_store(path)).close()
    step = ("INSERT INTO meta (key, value) VALUES ('added_by', 'step')",)
    monkeypatch.setattr(store.migrations, "MIGRATIONS", [*MIGRATIONS, step])
    monkeypatch.setattr("store.pg.MIGRATIONS", [*MIGRATIONS, step])
    for _ in range(2):  # a second run would fail on the duplicate key
        reopened = await open_store(path)
        assert await reopened.get_meta("added_by") == "step"
        await reopened.close()
    broken = ("CREATE TABLE half_done (x INTEGER)", "THIS IS NOT SQL")
    monkeypatch.setattr("store.pg.MIGRATIONS", [*MIGRATIONS, step, broken])
    with pytest.raises(asyncpg.PostgresSyntaxError):
        await open_store(path)
    monkeypatch.setattr("store.pg.MIGRATIONS", [*MIGRATIONS, step])
    again = await open_store(path)
    assert await schema_versions(again) == list(range(1, len(MIGRATIONS) + 2))
    assert "half_done" not in await pg_columns(again)


@pytest.mark.postgresql_only
async def test_a_database_from_a_newer_conclave_is_refused(path: str, open_store: OpenStore) -> None:
    db = await open_store(path)
    async with db._transaction() as conn:
        await conn.execute("INSERT INTO conclave_schema (version) VALUES (?)", (len(MIGRATIONS) + 5,))
    with pytest.raises(StoreError, match="newer"):
        await open_store(path)


@pytest.mark.postgresql_only
async def test_a_writer_killed_inside_the_commit_leaves_the_old_version(
    path: str, open_store: OpenStore
) -> None:
    db = await open_store(path)
    table_id = await started(db)
    await db.commit_move(table_id, 0, 0, {"n": 1}, [], {"n": 1}, [BOB])
    writer = await open_store(path)
    inside = asyncio.Event()

    async def hang() -> None:
        inside.set()
        await asyncio.sleep(60)

    writer._mid_commit_hook = hang
    commit = asyncio.create_task(writer.commit_move(table_id, 1, 1, {"n": 2}, [], {"n": 2}, [ALICE]))
    await asyncio.wait_for(inside.wait(), 30)
    async with db._single() as conn:  # the server loses the writer's session, as on a SIGKILL
        await conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE state = 'idle in transaction' AND pid <> pg_backend_pid()"
        )
    commit.cancel()
    with pytest.raises((asyncio.CancelledError, asyncpg.PostgresError, OSError, StoreError)):
        await commit
    table, state = await db.load(table_id)
    assert (table.version, state, len(await db.moves(table_id))) == (1, {"n": 1}, 1)
    assert await db.commit_move(table_id, 1, 1, {"n": 2}, [], {"n": 2}, [ALICE]) == 2


@pytest.mark.postgresql_only
@pytest.mark.parametrize(
    "tamper",
    [
        "DELETE FROM moves WHERE version = 2",
        "UPDATE snapshots SET version = 3",
        "UPDATE tables SET version = 1",
        "UPDATE moves SET move = '{\"n\": 9}' WHERE version = 1",
        "DELETE FROM snapshots",
    ],
)
async def test_load_refuses_a_damaged_log_on_postgresql(
    path: str, tamper: str, open_store: OpenStore
) -> None:
    db = await open_store(path)
    table_id = await started(db)
    await db.commit_move(table_id, 0, 0, {"n": 1}, [], {"n": 1}, [BOB])
    await db.commit_move(table_id, 1, 1, {"n": 2}, [], {"n": 2}, [ALICE])
    async with db._transaction() as conn:
        await conn.execute(tamper)
    fresh = await open_store(path)  # a store that has not verified the chain yet
    with pytest.raises(CorruptTable):
        await fresh.load(table_id)


async def test_a_process_owning_some_shards_sees_releases_and_expedites_only_their_work(
    path: str, open_store: OpenStore
) -> None:
    low, high = await open_store(path), await open_store(path)
    low.own_shards(range(0, 2), SHARD_COUNT)
    high.own_shards([2, 3], SHARD_COUNT)
    tables = {shard: await started(low, guild_on_shard(shard)) for shard in range(SHARD_COUNT)}
    await low.schedule_many([("note", 10.0 + s, f"n{s}", t, None, {}) for s, t in tables.items()])
    assert {w.table_id for w in await low.due(50.0)} == {tables[0], tables[1]}
    assert {w.table_id for w in await high.due(50.0)} == {tables[2], tables[3]}
    assert (await low.next_due(), await high.next_due()) == (10.0, 12.0)
    assert len(await high.lease_due(50.0, 600.0)) == 2
    assert await low.release_leases() == 0  # a process restarting on 0-1 leaves 2-3's leases alone
    assert await high.release_leases() == 2
    assert await low.expedite("note", 5.0) == 2


def test_shards_outside_the_count_are_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="not among"):
        Store(None, str(tmp_path), time.time).own_shards([8], 8)  # type: ignore[arg-type]


async def test_conclave_db_takes_a_file_or_a_sqlite_url(tmp_path: Path) -> None:
    by_url = await Store.open(f"sqlite:///{tmp_path}/u.db")
    try:
        await by_url.set_meta("k", "v")
    finally:
        await by_url.close()
    by_path = await Store.open(str(tmp_path / "u.db"))
    try:
        assert (type(by_path), await by_path.get_meta("k")) == (Store, "v")
    finally:
        await by_path.close()


@pytest.mark.postgresql_only
async def test_a_pooled_connection_goes_back_without_a_reset_round_trip_and_a_transaction_left_open_is_undone(
    path: str, monkeypatch: pytest.MonkeyPatch, open_store: OpenStore
) -> None:
    db = await open_store(path)
    table_id = await started(db)
    resets: list[str] = []
    real_reset = asyncpg.Connection.reset

    async def reset(conn: asyncpg.Connection, *, timeout: float | None = None) -> None:
        resets.append(conn.get_reset_query())
        await real_reset(conn, timeout=timeout)

    monkeypatch.setattr(asyncpg.Connection, "reset", reset)
    for _ in range(5):
        assert (await db.table(table_id)).status == "active"
    assert resets == [], "no reset query per statement: the store keeps no session state"
    # asyncpg still rolls back a transaction a caller left open before the connection is reused.
    async with db._single() as conn:
        await conn.execute("BEGIN")
        await conn.execute("UPDATE tables SET status = 'finished' WHERE id = ?", (table_id,))
    assert (await db.table(table_id)).status == "active"


async def test_two_processes_starting_their_web_pages_at_once_sign_links_with_one_secret(
    path: str, open_store: OpenStore
) -> None:
    from service import TableService
    from web import WebConfig, links_for

    stores = [await open_store(path) for _ in range(2)]
    config = WebConfig("127.0.0.1", 0)
    links = await asyncio.gather(*(links_for(TableService(s), config, "") for s in stores))
    assert links[0].secret == links[1].secret, "a link one process hands out opens on the other"
    assert (await links_for(TableService(stores[0]), config, "")).secret == links[0].secret
