"""Damage is noticed: checksummed snapshots, a chained move log, rebuilds, `python -m store check`."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from service import TableError, TableService
from service.tables import DAMAGED
from store import CorruptTable, DamagedSnapshot, Store
from store.check import check, main

pytestmark = pytest.mark.usefixtures("toy_registered")

ALICE, BOB = 101, 102
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
async def svc(db_path: str) -> AsyncIterator[TableService]:
    service = TableService(await Store.open(db_path), seed_source=lambda: 4242)
    yield service
    # The store in use now: a test that reopened it (a restart) left the first one closed.
    await service.store.close()


def tamper(db_path: str, sql: str, *params: object) -> None:
    """Change the file behind the store's back, as a failing disk or a careless operator would."""
    con = sqlite3.connect(db_path, isolation_level=None)
    con.execute(sql, params)
    con.close()


async def played(svc: TableService, kind: str = "toy", moves: int = 2) -> int:
    """Start a two-seat table and play its first legal moves; return its id."""
    table = await svc.open_table(kind, None, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    await svc.join(table.id, BOB, "bob")
    await svc.start(table.id, ALICE)
    for _ in range(moves):
        for user in (ALICE, BOB):
            offered = await svc.choices(table.id, user, stamped=True)  # as autocomplete offers them
            if offered:
                await svc.act(table.id, user, offered[0].value)
                break
    return table.id


async def reopened(svc: TableService, db_path: str) -> TableService:
    """Restart: a fresh store verifies every table's whole chain again."""
    await svc.store.close()
    svc.store = await Store.open(db_path)
    return svc


@pytest.mark.parametrize("damage", ["{}", '{"round": 99}', "[1, 2", ""])
async def test_a_damaged_snapshot_is_rebuilt_from_the_log(
    svc: TableService, db_path: str, damage: str
) -> None:
    table_id = await played(svc)
    _, before = await svc.store.load(table_id)
    tamper(db_path, "UPDATE snapshots SET state = ? WHERE table_id = ?", damage, table_id)
    with pytest.raises(DamagedSnapshot):
        await svc.store.load(table_id)
    note = await svc.hand(table_id, ALICE)  # /game hand: a KeyError on `{}` before
    assert note.seat in (0, 1)
    _, after = await svc.store.load(table_id)
    assert after == before and await svc.replay(table_id)


@pytest.mark.parametrize(
    ("sql", "what"),
    [
        ("UPDATE moves SET move = '{\"action\": \"pass\"}' WHERE table_id = ? AND version = 1", "move"),
        ("UPDATE moves SET seat = 1 - seat WHERE table_id = ? AND version = 1", "move"),
        ("UPDATE tables SET seed = seed + 1 WHERE id = ?", "seed"),
        ("UPDATE seats SET seat = seat + 10 WHERE table_id = ?", "seats"),
        ("UPDATE seats SET seat = CASE seat WHEN 0 THEN 11 ELSE 10 END WHERE table_id = ?", "seats"),
    ],
)
async def test_a_damaged_log_closes_the_table_and_keeps_the_data(
    svc: TableService, db_path: str, sql: str, what: str
) -> None:
    table_id = await played(svc)
    moves = len(await svc.store.moves(table_id))
    tamper(db_path, sql, table_id)
    svc = await reopened(svc, db_path)
    with pytest.raises(CorruptTable):
        await svc.store.load(table_id)
    with pytest.raises(TableError) as refused:
        await svc.act(table_id, ALICE, "pass")
    assert refused.value.sentence == DAMAGED
    table = await svc.table(table_id)
    assert table.status == "abandoned"
    assert len(await svc.store.moves(table_id)) == moves  # the evidence is kept
    assert await svc.store.get_meta(f"damaged:{table_id}")


async def test_check_reports_and_repairs_a_damaged_snapshot(svc: TableService, db_path: str) -> None:
    table_id = await played(svc)
    sound = await played(svc)
    tamper(db_path, "UPDATE snapshots SET state = '{}' WHERE table_id = ?", table_id)
    found = {f.table_id: f.verdict for f in await check(db_path)}
    assert found == {table_id: "snapshot damaged", sound: "sound"}
    repaired = {f.table_id: f.verdict for f in await check(db_path, repair=True)}
    assert repaired[table_id] == "repaired"
    assert {f.verdict for f in await check(db_path)} == {"sound"}


async def test_check_finds_an_edited_move(
    svc: TableService, db_path: str, capsys: pytest.CaptureFixture
) -> None:
    table_id = await played(svc)
    tamper(db_path, "UPDATE moves SET events = '[]' WHERE table_id = ? AND version = 1", table_id)
    assert await asyncio.to_thread(main, ["check", db_path, "--repair"]) == 1
    out = capsys.readouterr().out
    assert f"table {table_id}: log damaged" in out and "1 with problems" in out


async def test_a_table_from_before_the_chain_is_sealed_at_open(svc: TableService, db_path: str) -> None:
    table_id = await played(svc)
    tamper(db_path, "DELETE FROM chain WHERE table_id = ?", table_id)
    tamper(db_path, "DELETE FROM snapshot_sums WHERE table_id = ?", table_id)
    svc = await reopened(svc, db_path)
    assert (await svc.store.load(table_id))[0].version == 2
    assert {f.verdict for f in await check(db_path)} == {"sound"}


async def test_python_m_store_check_on_an_institute_game(svc: TableService, db_path: str) -> None:
    table_id = await played(svc, "institute", moves=3)
    tamper(db_path, "UPDATE snapshots SET state = '{}' WHERE table_id = ?", table_id)
    svc = await reopened(svc, db_path)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "store", "check", db_path, *args]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)

    first = run()
    assert first.returncode == 1 and f"table {table_id}: snapshot damaged" in first.stdout
    fixed = run("--repair")
    assert fixed.returncode == 0 and f"table {table_id}: repaired" in fixed.stdout
    again = run()
    assert again.returncode == 0 and f"table {table_id}: sound" in again.stdout


async def test_a_backup_taken_while_the_bot_runs_is_a_sound_copy(
    svc: TableService, db_path: str, tmp_path: Path
) -> None:
    table_id = await played(svc)
    copy = str(tmp_path / "backup.db")
    # The service's store stays open (and its WAL unmerged) while the copy is taken.
    assert await asyncio.to_thread(main, ["backup", db_path, copy]) == 0
    restored = await Store.open(copy)
    try:
        _, state = await restored.load(table_id)
        assert state == (await svc.store.load(table_id))[1]
    finally:
        await restored.close()
    assert {f.verdict for f in await check(copy)} == {"sound"}
    with pytest.raises(SystemExit, match="already exists"):
        await asyncio.to_thread(main, ["backup", db_path, copy])
