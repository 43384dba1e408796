"""The store on both engines: migrations, the table life cycle, compare-and-swap moves, crash safety.

Tests that read or damage SQLite's file behind the store's back are ``sqlite_only``; their
PostgreSQL counterparts are in tests/test_store_engines.py.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from pathlib import Path

import pytest

import store.migrations
from store import CorruptTable, StaleVersion, Store, StoreError
from store.migrations import MIGRATIONS
from tests.async_helpers import OpenStore

REPO = Path(__file__).resolve().parent.parent
ALICE, BOB, CAROL = 101, 102, 103


class Clock:
    """A clock the test moves by hand, so wait times are exact."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now

    def tick(self, seconds: float = 1.0) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "conclave.db")


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def db(db_path: str, clock: Clock, open_store: OpenStore):
    return await open_store(db_path, clock=clock)


async def started(db: Store, users: tuple[int, ...] = (ALICE, BOB), name: str = "T") -> int:
    """Create a table, seat the users, start it waiting on the first; return its id."""
    table = await db.create_table("toy", name, {"goal": "5"}, 1, 2, users[0])
    for user in users:
        await db.add_seat(table.id, user, f"user{user}", True)
    await db.start(table.id, 7, list(users), {"n": 0}, [users[0]])
    return table.id


def raw(path: str) -> sqlite3.Connection:
    """Open the file behind the store's back, as an operator's sqlite3 shell would."""
    return sqlite3.connect(path, isolation_level=None)


# --------------------------------------------------------------------------- migrations


@pytest.mark.sqlite_only
@pytest.mark.parametrize("start", ["no file", "zero bytes", "missing folder"])
async def test_migrations_build_the_schema_from_an_empty_file(
    tmp_path: Path, start: str, open_store: OpenStore
) -> None:
    db_path = (
        str(tmp_path / "deeper" / "conclave.db") if start == "missing folder" else str(tmp_path / "c.db")
    )
    if start == "zero bytes":
        Path(db_path).touch()
    opened = await open_store(db_path)
    async with opened._db.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1
    async with opened._db.execute("PRAGMA synchronous") as cur:
        assert (await cur.fetchone())[0] == 2  # FULL
    await opened.close()
    con = raw(db_path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    names = {row[0] for row in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"tables", "seats", "moves", "snapshots", "waiting", "abandon_votes", "meta"} <= names
    con.close()


@pytest.mark.sqlite_only
async def test_reopening_an_existing_file_changes_nothing(db_path: str, open_store: OpenStore) -> None:
    first = await open_store(db_path)
    table_id = await started(first)
    await first.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB])
    await first.close()
    con = raw(db_path)
    schema = con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()
    con.close()

    again = await open_store(db_path)
    table, state = await again.load(table_id)
    assert (table.version, state) == (1, {"n": 1})
    await again.close()
    con = raw(db_path)
    assert con.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall() == schema
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    con.close()


@pytest.mark.sqlite_only
async def test_a_new_step_runs_once_on_an_old_file(
    db_path: str, monkeypatch: pytest.MonkeyPatch, open_store: OpenStore
) -> None:
    await (await open_store(db_path)).close()
    # The step would fail on a second run (duplicate primary key), so reopening proves it ran once.
    step = ("INSERT INTO meta (key, value) VALUES ('added_by', 'step 2')",)
    monkeypatch.setattr(store.migrations, "MIGRATIONS", [*MIGRATIONS, step])
    for _ in range(2):
        reopened = await open_store(db_path)
        assert await reopened.get_meta("added_by") == "step 2"
        await reopened.close()
    con = raw(db_path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) + 1
    con.close()


@pytest.mark.sqlite_only
async def test_a_failing_step_leaves_the_old_schema(
    db_path: str, monkeypatch: pytest.MonkeyPatch, open_store: OpenStore
) -> None:
    await (await open_store(db_path)).close()
    broken = ("CREATE TABLE half_done (x INTEGER)", "THIS IS NOT SQL")
    monkeypatch.setattr(store.migrations, "MIGRATIONS", [*MIGRATIONS, broken])
    with pytest.raises(sqlite3.OperationalError):
        await open_store(db_path)
    con = raw(db_path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert con.execute("SELECT name FROM sqlite_master WHERE name = 'half_done'").fetchone() is None
    con.close()


@pytest.mark.sqlite_only
async def test_a_file_from_a_newer_conclave_is_refused(db_path: str, open_store: OpenStore) -> None:
    await (await open_store(db_path)).close()
    con = raw(db_path)
    con.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 5}")
    con.close()
    with pytest.raises(StoreError, match="newer"):
        await open_store(db_path)


# --------------------------------------------------------------------------- life cycle


async def test_lobby_start_moves_finish(db: Store, clock: Clock) -> None:
    table = await db.create_table("toy", "Friday", {"goal": "5"}, 55, 66, ALICE)
    assert (table.status, table.version, table.seed, table.thread_id) == ("lobby", 0, None, None)
    assert table.options == {"goal": "5"}
    await db.set_thread(table.id, 777)
    assert (await db.table_for_thread(777)).id == table.id
    assert await db.table_for_thread(778) is None
    assert await db.table(table.id + 1) is None

    await db.add_seat(table.id, ALICE, "alice", True)
    clock.tick()
    await db.add_seat(table.id, BOB, "bob", None)
    clock.tick()
    await db.add_seat(table.id, CAROL, "carol", False)
    with pytest.raises(StoreError, match="already seated"):
        await db.add_seat(table.id, BOB, "bob", True)
    await db.remove_seat(table.id, CAROL)
    with pytest.raises(StoreError, match="not seated"):
        await db.remove_seat(table.id, CAROL)
    lobby = await db.seats(table.id)
    assert [(s.user_id, s.seat, s.dm_ok) for s in lobby] == [(ALICE, None, True), (BOB, None, None)]
    with pytest.raises(StoreError, match="not started"):
        await db.load(table.id)

    active = await db.start(table.id, 1234, [BOB, ALICE], {"n": 0}, [BOB])
    assert (active.status, active.seed, active.version) == ("active", 1234, 0)
    assert [(s.user_id, s.seat) for s in await db.seats(table.id)] == [(BOB, 0), (ALICE, 1)]
    with pytest.raises(StaleVersion):
        await db.start(table.id, 1, [BOB, ALICE], {"n": 0}, [BOB])
    with pytest.raises(StoreError, match="not in the lobby"):
        await db.add_seat(table.id, CAROL, "carol", True)
    with pytest.raises(StoreError, match="not in the lobby"):
        await db.remove_seat(table.id, ALICE)
    await db.set_dm_ok(table.id, BOB, False)
    assert [s.dm_ok for s in await db.seats(table.id)] == [False, True]

    clock.tick()
    v1 = await db.commit_move(table.id, 0, 0, {"action": "step"}, [{"text": "bob steps"}], {"n": 1}, [ALICE])
    clock.tick()
    v2 = await db.commit_move(table.id, 1, 1, {"action": "step"}, [], {"n": 2}, [BOB])
    assert (v1, v2) == (1, 2)
    with pytest.raises(StaleVersion):
        await db.commit_move(table.id, 1, 1, {"action": "late"}, [], {"n": 99}, [BOB])
    table_now, state = await db.load(table.id)
    assert (table_now.version, state) == (2, {"n": 2})
    log = await db.moves(table.id)
    assert [(m.version, m.seat, m.move) for m in log] == [
        (1, 0, {"action": "step"}),
        (2, 1, {"action": "step"}),
    ]
    assert log[0].events == [{"text": "bob steps"}]
    assert [m.version for m in await db.moves(table.id, since_version=1)] == [2]

    result = {"winners": [0], "scores": {"0": 5, "1": 3}, "reason": "goal", "ranking": [0, 1]}
    v3 = await db.commit_move(table.id, 2, 0, {"action": "win"}, [], {"n": 3}, [ALICE], result=result)
    assert v3 == 3
    final, state = await db.load(table.id)
    assert (final.status, final.result, final.version, state) == ("finished", result, 3, {"n": 3})
    assert await db.waiting_on(ALICE) == [] and await db.waiting_on(BOB) == []
    with pytest.raises(StaleVersion, match="not active"):
        await db.commit_move(table.id, 3, 0, {"action": "again"}, [], {"n": 4}, [])


async def test_a_bad_seat_order_leaves_the_table_in_the_lobby(db: Store) -> None:
    table = await db.create_table("toy", "T", {}, None, 2, ALICE)
    await db.add_seat(table.id, ALICE, "alice", True)
    await db.add_seat(table.id, BOB, "bob", True)
    for order in ([ALICE], [ALICE, ALICE], [ALICE, BOB, CAROL]):
        with pytest.raises(StoreError, match="seat order"):
            await db.start(table.id, 1, order, {"n": 0}, [ALICE])
    still = await db.table(table.id)
    assert (still.status, still.seed) == ("lobby", None)
    assert all(s.seat is None for s in await db.seats(table.id))


async def test_waiting_for_an_unseated_user_rolls_the_move_back(db: Store) -> None:
    table_id = await started(db)
    with pytest.raises(StoreError, match="not seated"):
        await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [CAROL])
    table, state = await db.load(table_id)
    assert (table.version, state, await db.moves(table_id)) == (0, {"n": 0}, [])


async def test_a_failure_inside_the_transaction_rolls_everything_back(db: Store) -> None:
    table_id = await started(db)

    async def explode() -> None:
        raise RuntimeError("power cut")

    db._mid_commit_hook = explode
    with pytest.raises(RuntimeError):
        await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB])
    db._mid_commit_hook = None
    table, state = await db.load(table_id)
    assert (table.version, state, await db.moves(table_id)) == (0, {"n": 0}, [])
    assert await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB]) == 1


async def test_a_move_cancelled_inside_the_transaction_is_rolled_back(db: Store) -> None:
    table_id = await started(db)
    inside = asyncio.Event()

    async def stall() -> None:
        inside.set()
        await asyncio.sleep(60)

    db._mid_commit_hook = stall
    task = asyncio.create_task(db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB]))
    await asyncio.wait_for(inside.wait(), timeout=10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    db._mid_commit_hook = None
    table, state = await db.load(table_id)
    assert (table.version, state, await db.moves(table_id)) == (0, {"n": 0}, [])
    assert await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB]) == 1


async def test_a_move_cancelled_at_any_moment_lands_whole_or_not_at_all(db: Store) -> None:
    table_id = await started(db)
    version = 0
    for attempt in range(30):
        new = version + 1
        task = asyncio.create_task(db.commit_move(table_id, version, 0, {"n": new}, [], {"n": new}, [BOB]))
        await asyncio.sleep(attempt * 0.0003)  # cancel before, during or after the transaction
        task.cancel()
        try:
            landed = await task
        except asyncio.CancelledError:
            landed = None
        table, state = await db.load(table_id)
        assert table.version in (version, new)
        assert landed is None or table.version == new
        assert state == {"n": table.version} and len(await db.moves(table_id)) == table.version
        version = table.version
    # Whatever happened, the connection is not stuck inside a transaction.
    assert await db.commit_move(table_id, version, 0, {"n": version + 1}, [], {"n": version + 1}, [BOB])


async def test_a_snapshot_that_is_not_json_touches_nothing(db: Store) -> None:
    table_id = await started(db)
    with pytest.raises(TypeError):
        await db.commit_move(table_id, 0, 0, {"action": "step"}, [], {"n": {1, 2}}, [BOB])
    table, state = await db.load(table_id)
    assert (table.version, state) == (0, {"n": 0})


async def test_waiting_on_lists_oldest_wait_first(db: Store, clock: Clock) -> None:
    first = await started(db, (ALICE, BOB), "first")  # waits on ALICE from t0
    t0 = clock.now
    clock.tick(10)
    second = await started(db, (BOB, ALICE), "second")  # waits on BOB
    clock.tick(10)
    third = await started(db, (ALICE, CAROL), "third")  # waits on ALICE from t0 + 20
    clock.tick(10)
    # second now waits on ALICE (new, t0 + 30) and BOB (kept from t0 + 10).
    await db.commit_move(second, 0, 0, {"action": "step"}, [], {"n": 1}, [BOB, ALICE])
    # first keeps waiting on ALICE: her wait keeps its original start.
    clock.tick(10)
    await db.commit_move(first, 0, 0, {"action": "step"}, [], {"n": 1}, [ALICE])

    waits = await db.waiting_on(ALICE)
    assert [(t.id, since) for t, since in waits] == [(first, t0), (third, t0 + 20), (second, t0 + 30)]
    assert [(t.id, since) for t, since in await db.waiting_on(BOB)] == [(second, t0 + 10)]
    assert [t.name for t, _ in waits] == ["first", "third", "second"]

    await db.set_status(third, "abandoned")
    assert [t.id for t, _ in await db.waiting_on(ALICE)] == [first, second]
    assert (await db.table(third)).status == "abandoned"
    with pytest.raises(StoreError, match="status"):
        await db.set_status(first, "paused")


async def test_abandon_votes_collect_seated_voters_once(db: Store) -> None:
    table_id = await started(db, (ALICE, BOB, CAROL))
    assert await db.add_abandon_vote(table_id, ALICE) == {ALICE}
    assert await db.add_abandon_vote(table_id, ALICE) == {ALICE}
    assert await db.add_abandon_vote(table_id, CAROL) == {ALICE, CAROL}
    with pytest.raises(StoreError, match="not seated"):
        await db.add_abandon_vote(table_id, 999)


async def test_meta_values_are_kept_and_replaced(db: Store) -> None:
    assert await db.get_meta("tree") is None
    await db.set_meta("tree", "abc")
    await db.set_meta("tree", "def")
    assert await db.get_meta("tree") == "def"


async def test_seat_prefs_are_per_seat_replaced_cleared_and_refused_without_a_seat(db: Store) -> None:
    table_id = await started(db, (ALICE, BOB))
    assert await db.seat_pref(table_id, ALICE, "react") is None
    await db.set_seat_pref(table_id, ALICE, "react", "pass")
    await db.set_seat_pref(table_id, ALICE, "react", "ask")
    await db.set_seat_pref(table_id, BOB, "react", "pass")
    await db.set_seat_pref(table_id, BOB, "colour", "red")
    assert await db.seat_pref(table_id, ALICE, "react") == "ask"
    assert await db.seat_prefs(table_id, "react") == {ALICE: "ask", BOB: "pass"}
    await db.set_seat_pref(table_id, ALICE, "react", None)
    assert await db.seat_pref(table_id, ALICE, "react") is None
    assert await db.seat_prefs(table_id, "react") == {BOB: "pass"}
    with pytest.raises(StoreError, match="not seated"):
        await db.set_seat_pref(table_id, CAROL, "react", "pass")
    other = await started(db, (ALICE, BOB), "other")
    assert await db.seat_pref(other, BOB, "react") is None


async def test_leaving_the_lobby_drops_that_seats_prefs(db: Store) -> None:
    table = await db.create_table("toy", "T", {}, None, 2, ALICE)
    await db.add_seat(table.id, ALICE, "alice", True)
    await db.add_seat(table.id, BOB, "bob", True)
    await db.set_seat_pref(table.id, BOB, "react", "pass")
    await db.remove_seat(table.id, BOB)
    await db.add_seat(table.id, BOB, "bob", True)
    assert await db.seat_pref(table.id, BOB, "react") is None


@pytest.mark.sqlite_only
async def test_a_schema_1_file_gains_seat_prefs_and_keeps_its_tables(
    db_path: str, monkeypatch: pytest.MonkeyPatch, open_store: OpenStore
) -> None:
    monkeypatch.setattr(store.migrations, "MIGRATIONS", MIGRATIONS[:1])
    old = await open_store(db_path)
    table_id = await started(old)
    await old.close()
    monkeypatch.setattr(store.migrations, "MIGRATIONS", MIGRATIONS)
    new = await open_store(db_path)
    table, state = await new.load(table_id)
    assert (table.status, state) == ("active", {"n": 0})
    await new.set_seat_pref(table_id, BOB, "react", "pass")
    assert await new.seat_pref(table_id, BOB, "react") == "pass"
    await new.close()
    con = raw(db_path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) >= 2
    con.close()


# --------------------------------------------------------------------------- concurrency


async def test_two_moves_at_one_version_one_lands_one_is_stale(
    db_path: str, db: Store, open_store: OpenStore
) -> None:
    other = await open_store(db_path)  # a second connection: the check is the database's, not a lock's
    table_id = await started(db)
    for expected in range(5):
        outcomes = await asyncio.gather(
            db.commit_move(
                table_id, expected, 0, {"who": "a"}, [], {"by": "a", "v": expected + 1}, [BOB]
            ),
            other.commit_move(
                table_id, expected, 1, {"who": "b"}, [], {"by": "b", "v": expected + 1}, [BOB]
            ),
            db.commit_move(
                table_id, expected, 0, {"who": "c"}, [], {"by": "c", "v": expected + 1}, [BOB]
            ),
            return_exceptions=True,
        )
        landed = [o for o in outcomes if isinstance(o, int)]
        stale = [o for o in outcomes if isinstance(o, StaleVersion)]
        assert landed == [expected + 1] and len(stale) == 2, outcomes
    table, state = await db.load(table_id)
    log = await db.moves(table_id)
    assert table.version == len(log) == 5
    assert [m.version for m in log] == [1, 2, 3, 4, 5]
    # The snapshot is the one written by the move that landed last.
    assert state == {"by": log[-1].move["who"], "v": 5}


async def test_two_players_retrying_are_applied_in_order(
    db_path: str, db: Store, open_store: OpenStore
) -> None:
    other = await open_store(db_path)
    table_id = await started(db)

    async def play(conn: Store, who: str) -> int:
        while True:
            table, state = await conn.load(table_id)
            try:
                return await conn.commit_move(
                    table_id,
                    table.version,
                    0,
                    {"who": who},
                    [],
                    {"moves": [*state.get("moves", []), who]},
                    [ALICE],
                )
            except StaleVersion:
                continue

    versions = await asyncio.gather(play(db, "a"), play(other, "b"))
    assert sorted(versions) == [1, 2]
    _, state = await db.load(table_id)
    log = await db.moves(table_id)
    assert sorted(m.move["who"] for m in log) == ["a", "b"]
    assert state["moves"] == [m.move["who"] for m in log]


# --------------------------------------------------------------------------- crashes

CHILD = """
import asyncio, os, sys
from store import Store

async def main(path, table_id, mode):
    db = await Store.open(path)
    # A tiny page cache makes SQLite spill the half-written transaction into the WAL file,
    # so the kill lands after bytes of the unfinished move really reached the disk.
    await db._db.execute("PRAGMA cache_size = 2")
    if mode == "hang":
        async def hang():
            print("inside", flush=True)
            await asyncio.sleep(60)
        db._mid_commit_hook = hang
    while True:
        table, state = await db.load(table_id)
        new = {"n": table.version + 1, "ballast": os.urandom(20000).hex()}
        version = await db.commit_move(table_id, table.version, 0, {"n": new["n"]}, [], new, [ALICE_ID])
        print(version, flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
""".replace("ALICE_ID", str(ALICE))


async def spawn(db_path: str, table_id: int, mode: str) -> asyncio.subprocess.Process:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, db_path, str(table_id), mode,
        cwd=str(REPO), env=env, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def kill(proc: asyncio.subprocess.Process) -> None:
    proc.send_signal(signal.SIGKILL)
    assert await proc.wait() == -signal.SIGKILL


async def check_whole(db_path: str, table_id: int) -> int:
    """Reopen after a crash: load must pass and the snapshot, table and log must agree."""
    db = await Store.open(db_path)
    try:
        table, state = await db.load(table_id)
        log = await db.moves(table_id)
        assert table.version == len(log) == state["n"]
        assert [m.move["n"] for m in log] == list(range(1, table.version + 1))
        # The crashed writer's lock is gone: the next move lands.
        after = table.version + 1
        assert (
            await db.commit_move(table_id, table.version, 0, {"n": after}, [], {"n": after}, [ALICE]) == after
        )
        return table.version
    finally:
        await db.close()


@pytest.mark.sqlite_only
async def test_a_writer_killed_inside_the_transaction_leaves_the_old_version(
    db_path: str, open_store: OpenStore
) -> None:
    db = await open_store(db_path)
    table_id = await started(db)
    await db.commit_move(table_id, 0, 0, {"n": 1}, [], {"n": 1}, [ALICE])
    await db.close()
    wal = Path(db_path + "-wal")
    before = wal.stat().st_size if wal.exists() else 0

    proc = await spawn(db_path, table_id, "hang")
    line = await asyncio.wait_for(proc.stdout.readline(), timeout=30)
    assert line.strip() == b"inside"  # the move and the snapshot are written, the version is not
    assert wal.stat().st_size > before  # and part of it already sits in the WAL file
    await kill(proc)

    assert await check_whole(db_path, table_id) == 1


@pytest.mark.sqlite_only
async def test_a_writer_killed_in_a_loop_of_commits_never_leaves_a_half_move(
    db_path: str, open_store: OpenStore
) -> None:
    db = await open_store(db_path)
    table_id = await started(db)
    await db.commit_move(table_id, 0, 0, {"n": 1}, [], {"n": 1}, [ALICE])
    await db.close()
    for pause in (0.0, 0.003, 0.011):
        proc = await spawn(db_path, table_id, "loop")
        acknowledged = 0
        for _ in range(8):  # let some commits land, then kill at an arbitrary point of the next
            acknowledged = int(await asyncio.wait_for(proc.stdout.readline(), timeout=30))
        await asyncio.sleep(pause)
        await kill(proc)
        version = await check_whole(db_path, table_id)
        assert version >= acknowledged  # every acknowledged move survived


# --------------------------------------------------------------------------- corruption


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    "tamper",
    [
        "DELETE FROM moves WHERE version = 2",
        "UPDATE snapshots SET version = 3",
        "UPDATE tables SET version = 1",
        "INSERT INTO moves VALUES ({table}, 3, 0, '{{}}', '[]', 0)",
        "DELETE FROM snapshots",
        "UPDATE snapshots SET state = '[1, 2'",
    ],
)
async def test_load_refuses_a_snapshot_that_disagrees_with_the_log(
    db_path: str, tamper: str, open_store: OpenStore
) -> None:
    db = await open_store(db_path)
    table_id = await started(db)
    await db.commit_move(table_id, 0, 0, {"n": 1}, [], {"n": 1}, [BOB])
    await db.commit_move(table_id, 1, 1, {"n": 2}, [], {"n": 2}, [ALICE])
    assert (await db.load(table_id))[1] == {"n": 2}
    con = raw(db_path)
    con.execute(tamper.format(table=table_id))
    con.close()
    with pytest.raises(CorruptTable):
        await db.load(table_id)
    await db.close()


async def test_a_seat_clock_changes_only_the_fields_its_call_may_set(db: Store, clock: Clock) -> None:
    table = await db.create_table("toy", "t", {}, None, 1, ALICE)
    with pytest.raises(StoreError, match=r"Seat clocks have no fields \['seed'\]"):
        await db.update_clock(table.id, ALICE, bank=5.0, seed=1)
    with pytest.raises(StoreError, match=r"Settling a seat sets no fields \['played_for'\]"):
        await db.settle_seat(table.id, ALICE, "absent:1", [], played_for=1)
    with pytest.raises(StoreError, match=r"Seat clocks have no fields \[\]"):
        await db.update_clock(table.id, ALICE)
