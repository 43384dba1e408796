"""The service keeps loaded tables in memory (service.tablecache): a move reads nothing it has,
and nothing stale is ever served or played on (issue 28, one pass and one transaction per move)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from service import TableError, TableService
from service.loaded import _Table
from service.tablecache import TableCache, cache_size
from store import Store
from tests.async_helpers import OpenStore

pytestmark = pytest.mark.usefixtures("toy_registered")

ALICE, BOB = 301, 302


def count_trips(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record every use of the store's connection: each is one transaction (or one lone read)."""
    trips: list[str] = []
    inside: list[bool] = []
    """Set while a write runs in one trip: the PostgreSQL store's holds its transaction inside."""
    for name in ("_transaction", "_single"):
        original = getattr(store, name)

        def entry(*args: object, _original: Callable = original, _name: str = name, **kw: object) -> object:
            if not inside:
                trips.append(_name)
            return _original(*args, **kw)

        monkeypatch.setattr(store, name, entry)
    one_trip = store._in_one_trip

    async def whole(*args: Any, **kw: Any) -> Any:
        trips.append("_in_one_trip")
        inside.append(True)
        try:
            return await one_trip(*args, **kw)
        finally:
            inside.pop()

    monkeypatch.setattr(store, "_in_one_trip", whole)
    return trips


async def started(svc: TableService) -> int:
    """Open, fill and start a two-seat toy table; return its id."""
    table = await svc.open_table("toy", None, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    await svc.join(table.id, BOB, "bob")
    await svc.start(table.id, ALICE)
    return table.id


async def move_once(svc: TableService, table_id: int) -> None:
    """Play the first offered move of whichever seat the game waits on."""
    for user in (ALICE, BOB):
        offered = await svc.reads.choices(table_id, user)
        if offered:
            version = (await svc.table(table_id)).version
            await svc.act(table_id, user, offered[0].value, expected_version=version)
            return
    raise AssertionError("nobody to move")


async def test_a_move_is_one_transaction_once_the_table_is_loaded(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await started(svc)
    await move_once(svc, table_id)  # the first move loads the table and its seat settings
    trips = count_trips(svc.store, monkeypatch)
    for _ in range(3):
        before = len(trips)
        await move_once(svc, table_id)
        # choices, table and act read nothing the service has: the commit is the one trip.
        assert trips[before:] == ["_in_one_trip"]


async def test_reads_after_a_move_come_from_memory(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await started(svc)
    await move_once(svc, table_id)
    trips = count_trips(svc.store, monkeypatch)
    await move_once(svc, table_id)
    trips.clear()
    public = await svc.reads.public_view(table_id)
    view = await svc.reads.seat_view(table_id, ALICE)
    assert (await svc.table(table_id)).version == public.version == view.version
    assert await svc.bots.next_bot_move(table_id) is None  # no bot at the table: nothing read either
    assert trips == []


async def test_a_change_outside_a_move_drops_the_kept_table(svc: TableService) -> None:
    table_id = await started(svc)
    await move_once(svc, table_id)
    assert (await svc.reads.hand(table_id, BOB)).dm_ok is not False
    await svc.set_dm_ok(table_id, BOB, False)
    assert (await svc.reads.hand(table_id, BOB)).dm_ok is False
    assert next(s for s in await svc.seats(table_id) if s.user_id == BOB).dm_ok is False
    await svc.reads.set_seat_pref(table_id, ALICE, "auto", "off")
    assert await svc.kept.seat_prefs(table_id, "auto") == {ALICE: "off"}


async def outdated(
    svc: TableService, open_store: OpenStore, tmp_path: Path
) -> tuple[int, _Table, TableService]:
    """Keep a table in ``svc``, then move it in a second service on the same database (a second
    process): return the table's id, ``svc``'s kept copy (now behind) and the other service."""
    table_id = await started(svc)
    await move_once(svc, table_id)
    kept = svc.cache.get(table_id)
    assert kept is not None
    other = TableService(await open_store(str(tmp_path / "tables.db")))  # the ``store`` fixture's database
    await move_once(other, table_id)
    assert (await other.table(table_id)).version == kept.record.version + 1
    return table_id, kept, other


async def test_another_writer_is_caught_by_the_version_check_and_read_again(
    svc: TableService, open_store: OpenStore, tmp_path: Path
) -> None:
    table_id, kept, other = await outdated(svc, open_store, tmp_path)
    assert (await svc.table(table_id)).version == kept.record.version  # served from memory, unchecked
    # The next move here is played on the fresh table: the stale commit is refused, the table read again.
    waiting = [u for u in (ALICE, BOB) if await other.reads.choices(table_id, u)]
    expected = (await other.reads.seat_view(table_id, waiting[0])).moves[0]
    reply = await svc.act(table_id, waiting[0], expected.move)
    assert reply.table.version == kept.record.version + 2
    moves = await svc.store.moves(table_id)
    assert [m.version for m in moves] == list(range(1, kept.record.version + 3))  # each once, in order
    assert await svc.replay(table_id)


async def test_a_fresh_read_drops_a_kept_table_another_process_moved(
    svc: TableService, open_store: OpenStore, tmp_path: Path
) -> None:
    """A web page asks for the row afresh: a kept copy it outdates is dropped, so views follow."""
    table_id, kept, _ = await outdated(svc, open_store, tmp_path)
    assert (await svc.table(table_id)).version == kept.record.version  # served from memory
    assert (await svc.table(table_id, fresh=True)).version == kept.record.version + 1
    assert svc.cache.get(table_id) is None  # the outdated copy is gone
    assert (await svc.reads.public_view(table_id)).version == kept.record.version + 1


def table_at(table: _Table, table_id: int, version: int) -> _Table:
    """Return a copy of a loaded table under another id and version."""
    return replace(table, record=replace(table.record, id=table_id, version=version))


async def test_the_cache_is_bounded_and_refuses_what_was_read_before_a_change(svc: TableService) -> None:
    table_id = await started(svc)
    await move_once(svc, table_id)
    loaded = svc.cache.get(table_id)
    assert loaded is not None
    cache = TableCache(size=2)
    for n in (1, 2, 3):
        assert cache.put(table_at(loaded, n, 5), cache.generation(n))
    assert cache.get(1) is None and cache.get(2) is not None and cache.get(3) is not None and len(cache) == 2
    seen = cache.generation(4)  # a read begins...
    cache.changed(4)  # ...a write lands meanwhile...
    assert not cache.put(table_at(loaded, 4, 5), seen)  # ...so what it read is not kept
    assert not cache.put(table_at(loaded, 3, 4), cache.generation(3))  # never an older version
    seen = cache.generation(2)
    cache.changed(None)  # a server left: every table goes
    assert len(cache) == 0 and not cache.put(table_at(loaded, 2, 6), seen)
    assert not TableCache(size=0).put(loaded, (0, 0))


def test_the_bound_is_configurable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONCLAVE_TABLE_CACHE", "12")
    assert cache_size() == 12
    monkeypatch.setenv("CONCLAVE_TABLE_CACHE", "none")
    assert cache_size() == 256


async def test_a_seat_view_is_worked_out_once_per_version(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    import service.compose

    made: list[tuple[int, int]] = []
    original = service.compose._seat_view

    def counted(table: _Table, seat: int, *beside: object) -> object:
        made.append((table.record.version, seat))
        return original(table, seat, *beside)  # ``beside``: the version's public view, when kept

    monkeypatch.setattr(service.compose, "_seat_view", counted)
    table_id = await started(svc)
    first = await svc.reads.seat_view(table_id, ALICE)
    assert await svc.reads.seat_view(table_id, ALICE) == first
    assert made.count((first.version, 0)) == 1
    await move_once(svc, table_id)
    after = await svc.reads.seat_view(table_id, ALICE)
    assert after.version == first.version + 1
    assert (await svc.reads.seat_views(table_id, [ALICE, BOB]))[ALICE] == after
    # The move's notes and the reads share one working out per version and seat.
    assert sorted(set(made)) == sorted(made) and {(after.version, 0), (after.version, 1)} <= set(made)


async def test_kept_tables_see_a_pause_a_hand_over_and_a_substitute(svc: TableService) -> None:
    from service.servers import PAUSED

    table_id = await started(svc)
    await move_once(svc, table_id)
    await svc.servers.server_left(1)  # the bot was removed from the table's server
    with pytest.raises(TableError) as refused:
        await move_once(svc, table_id)
    assert refused.value.sentence == PAUSED
    await svc.servers.server_back(1)
    await move_once(svc, table_id)
    await svc.servers.substitute(table_id, 1, BOB, 303, "carol")  # a moderator seats carol for bob
    assert {s.user_id for s in await svc.seats(table_id)} == {ALICE, 303}
    assert (await svc.reads.hand(table_id, 303)).seat == 1
    with pytest.raises(TableError):
        await svc.reads.hand(table_id, BOB)
    await svc.bots.set_seat_bot(table_id, 1, "basic")
    assert (await svc.reads.seat_view(table_id, 303)).table.id == table_id
    assert next(s for s in await svc.seats(table_id) if s.user_id == 303).bot == "basic"


KEPT_ROWS = re.compile(
    r"(INSERT INTO|UPDATE|DELETE FROM)\s+(tables|snapshots|seats|seat_prefs|spectators|servers)\b"
)
NOT_KEPT = {
    "create_table": "a new table is in nobody's memory yet",
    "set_server_setting": "server settings are read at use, never kept with a table",
}


def test_every_store_write_of_a_kept_row_tells_the_cache() -> None:
    unmarked = [
        name
        for name, method in inspect.getmembers(Store, predicate=inspect.isfunction)
        if KEPT_ROWS.search(inspect.getsource(inspect.unwrap(method)))
        and getattr(method, "changes", None) is None
        and name not in NOT_KEPT
    ]
    assert unmarked == [], f"mark these with store.changes.changes_table (or changes_all): {unmarked}"


async def test_a_refused_move_on_a_current_kept_table_reads_one_row(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await started(svc)
    await move_once(svc, table_id)
    waiting = [u for u in (ALICE, BOB) if await svc.reads.choices(table_id, u)]
    idle = next(u for u in (ALICE, BOB) if u not in waiting)
    trips = count_trips(svc.store, monkeypatch)
    with pytest.raises(TableError):
        await svc.act(table_id, idle, "draw")  # out of turn: refused, whatever the copy
    assert trips == ["_single"]  # the table row says the kept copy is current: the refusal stands


async def test_a_kept_view_is_read_on_the_loop_without_a_hop(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The public and seat views a move worked out are read back at once; only a new one hops."""
    import asyncio

    import service.judge
    import service.reads

    hops: list[str] = []
    real = asyncio.to_thread

    async def counted(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(func, "__name__", repr(func)))
        return await real(func, *args, **kwargs)

    table_id = await started(svc)
    await move_once(svc, table_id)
    monkeypatch.setattr(service.reads.asyncio, "to_thread", counted)
    monkeypatch.setattr(service.judge.asyncio, "to_thread", counted)
    public = await svc.reads.public_view(table_id)
    seat = await svc.reads.seat_view(table_id, ALICE)
    assert hops == [] or set(hops) <= {"seat_view_of"}  # the public view came with the move's board
    hops.clear()
    assert await svc.reads.public_view(table_id) is public
    assert await svc.reads.seat_view(table_id, ALICE) is seat
    assert hops == []  # both kept with the version now: read on the loop
    await move_once(svc, table_id)
    assert (await svc.reads.public_view(table_id)).version == public.version + 1
