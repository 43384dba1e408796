"""A move's commit is synced beside its compose, and nothing of it is shown before it is on disk.

``commit_move(sync_later=True)`` writes the move at ``synchronous=NORMAL`` and fsyncs the WAL on
a thread of its own (``store.walsync``); the service awaits ``Store.durable`` before the answer,
the spectators' news or any read of the table (docs/performance.md, "The store, third pass").
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from service import TableError, TableService
from store import NotDurable
from tests.test_table_cache import ALICE, BOB, started

pytestmark = pytest.mark.usefixtures("toy_registered")


class HeldSync:
    """Stands in for ``Store.durable`` and ``Store.syncing``: a move's sync is under way until the
    test lets it end."""

    def __init__(self, store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self._durable = store.durable
        self._syncing = store.syncing
        monkeypatch.setattr(store, "durable", self)
        monkeypatch.setattr(store, "syncing", lambda: self.held or self._syncing())
        self.release = asyncio.Event()
        self.held = False
        self.fail = False

    async def __call__(self) -> None:
        if self.held:
            await self.release.wait()
            if self.fail:
                raise NotDurable("The database file could not be synced to disk (EIO).")
        await self._durable()


def hold_after_commit(svc: TableService, sync: HeldSync, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hold the syncs from the move's commit on (the reads before it find the disk up to date)."""
    commit_move = svc.store.commit_move

    async def committed(*args: Any, **kwargs: Any) -> int:
        version = await commit_move(*args, **kwargs)
        assert kwargs.get("sync_later") is True  # the player's move leaves its fsync under way
        sync.held = True
        return version

    monkeypatch.setattr(svc.store, "commit_move", committed)


async def _mover(svc: TableService, table_id: int) -> tuple[int, str]:
    for user in (ALICE, BOB):
        offered = await svc.reads.choices(table_id, user)
        if offered:
            return user, offered[0].value
    raise AssertionError("nobody to move")


async def test_nothing_of_a_move_is_shown_or_read_before_its_commit_is_on_disk(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await started(svc)
    version = (await svc.table(table_id)).version
    user, move = await _mover(svc, table_id)
    sync = HeldSync(svc.store, monkeypatch)
    told: list[int] = []
    after_move = svc.play.after_move

    async def telling(reply: Any, **kwargs: Any) -> Any:
        told.append(reply.table.version)  # the spectators' news and the clocks start here
        return await after_move(reply, **kwargs)

    monkeypatch.setattr(svc.play, "after_move", telling)
    hold_after_commit(svc, sync, monkeypatch)
    acting = asyncio.create_task(svc.act(table_id, user, move))
    for _ in range(200):  # until the move is in the file
        if len(await svc.store.moves(table_id)) > version:
            break
        await asyncio.sleep(0.005)
    else:
        raise AssertionError("the move was never written")
    reading = asyncio.create_task(svc.table(table_id))
    await asyncio.sleep(0.05)
    assert not acting.done() and not reading.done() and told == []  # all wait for the disk
    sync.release.set()
    reply = await acting
    assert reply.table.version == version + 1 and told == [version + 1]
    assert (await reading).version == version + 1


async def test_a_sync_the_disk_refuses_shows_nothing_and_says_so(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await started(svc)
    user, move = await _mover(svc, table_id)
    sync = HeldSync(svc.store, monkeypatch)
    sync.fail = True
    sync.release.set()
    hold_after_commit(svc, sync, monkeypatch)
    told: list[object] = []
    monkeypatch.setattr(svc.play, "after_move", lambda reply, **_: told.append(reply))
    with pytest.raises(TableError, match="safe on disk"):
        await svc.act(table_id, user, move)
    assert told == []
