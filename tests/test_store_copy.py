"""``python -m store copy``: every row to another database (either engine), verified by replaying
each game's log; a non-empty target is refused without ``--force``; ``check`` and ``backup`` on
the target's engine."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest

from store import Store
from store.cli import main as store_main
from store.copy import COPY_ORDER, counts, table_names
from tests.async_helpers import ALICE, BOB, Harness, OpenStore

pytestmark = pytest.mark.usefixtures("toy_registered")


async def played_source(tmp_path: Path) -> tuple[str, int]:
    """Play a few moves of a Sigil Duel on a SQLite file, with due work and settings; return (path, table)."""
    h = Harness(tmp_path / "source.db")
    await h.open()
    try:
        assert h.svc is not None and h.store is not None
        table = await h.table(options="clock=fast")
        for user in (ALICE, BOB):
            choice = (await h.svc.reads.choices(table, user))[0]
            await h.svc.act(table, user, choice.value)
        await h.store.set_meta("note", "kept")
        await h.store.set_server_setting(1, "bots", "off")
        await h.store.add_spectator(table, 105, h.clock.now())
    finally:
        await h.close()
    return str(tmp_path / "source.db"), table


async def test_a_copy_holds_every_row_and_its_games_replay(
    tmp_path: Path, open_store: OpenStore, locate: Any
) -> None:
    source_path, table = await played_source(tmp_path)
    target_url = await locate(str(tmp_path / "target.db"))
    argv = ["copy", "--from", f"sqlite:///{source_path}", "--to", target_url]
    assert await asyncio.to_thread(store_main, argv) == 0
    target = await open_store(str(tmp_path / "target.db"))
    source = await Store.open(source_path)  # the SQLite file, whichever engine the target is
    try:
        held = await counts(target)
        assert held == await counts(source) and held["moves"] == 2 and held["due_work"] > 0
        assert await target.load(table) == await source.load(table)
        assert await target.moves(table) == await source.moves(table)
    finally:
        await source.close()
    assert await target.server_settings(1) == {"bots": "off"}
    # New rows get fresh ids on the copy: the sequences were moved past the copied ones.
    assert (await target.create_table("toy", "next", {}, 1, 2, ALICE)).id == table + 1


async def test_a_non_empty_target_is_refused_without_force(
    tmp_path: Path, open_store: OpenStore, locate: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    source_path, table = await played_source(tmp_path)
    target = await open_store(str(tmp_path / "target.db"))
    await target.set_meta("mine", "keep me")
    target_url = await locate(str(tmp_path / "target.db"))
    argv = ["copy", "--from", source_path, "--to", target_url]
    assert await asyncio.to_thread(store_main, argv) == 1
    assert "not empty" in capsys.readouterr().err
    assert await target.get_meta("mine") == "keep me" and await target.table(table) is None
    assert await asyncio.to_thread(store_main, [*argv, "--force"]) == 0
    assert await target.get_meta("mine") is None and (await target.table(table)).version == 2


async def test_check_reads_the_copy_on_its_engine(
    tmp_path: Path, locate: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    source_path, _ = await played_source(tmp_path)
    target_url = await locate(str(tmp_path / "target.db"))
    assert await asyncio.to_thread(store_main, ["copy", "--from", source_path, "--to", target_url]) == 0
    assert await asyncio.to_thread(store_main, ["check", target_url]) == 0
    assert "1 tables checked, 0 with problems; damaged rows: 0." in capsys.readouterr().out


async def test_the_copy_knows_every_table_of_the_schema(store: Store) -> None:
    assert await table_names(store) == set(COPY_ORDER)


@pytest.mark.postgresql_only
async def test_a_postgresql_backup_is_a_pg_dump(
    tmp_path: Path, store: Store, locate: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    if shutil.which("pg_dump") is None:
        pytest.fail("pg_dump is missing: install PostgreSQL's client tools (scripts/_postgres.sh does)")
    await store.set_meta("k", "v")
    url = await locate(str(tmp_path / "tables.db"))
    copy = tmp_path / "backup.dump"
    assert await asyncio.to_thread(store_main, ["backup", url, str(copy)]) == 0
    assert copy.read_bytes().startswith(b"PGDMP")  # pg_dump's custom format, for pg_restore
    with pytest.raises(SystemExit, match="already exists"):
        await asyncio.to_thread(store_main, ["backup", url, str(copy)])
