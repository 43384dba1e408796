"""Damage is noticed: checksummed snapshots, a chained move log, rebuilds, `python -m store check`."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bots import LEVELS
from service import TableError, TableService
from service.asyncplay import ASKED
from service.tables import DAMAGED
from service.timekeeper import ABSENT_CHOICES
from service.undo import UNDO_CHOICES
from store import CorruptTable, DamagedSnapshot, Store, UserPrefs
from store.check import check
from store.cli import main
from store.rows import BOT_LEVELS, VOTE_CHOICES
from tests.async_helpers import CAROL, HOUR, Harness

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
            offered = await svc.reads.choices(table.id, user, stamped=True)  # as autocomplete offers them
            if offered:
                await svc.act(table.id, user, offered[0].value)
                break
    return table.id


async def reopened(svc: TableService, db_path: str) -> TableService:
    """Restart: a fresh store verifies every table's whole chain again (nothing stays in memory)."""
    await svc.store.close()
    svc.store = await Store.open(db_path)
    forget_tables(svc)
    svc.store.watch_changes(svc.cache.changed)
    return svc


def forget_tables(svc: TableService) -> None:
    """Drop the tables the service keeps in memory, as a restart (or the cache's bound) does."""
    svc.cache.changed(None)


@pytest.mark.parametrize("damage", ["{}", '{"round": 99}', "[1, 2", ""])
async def test_a_damaged_snapshot_is_rebuilt_from_the_log(
    svc: TableService, db_path: str, damage: str
) -> None:
    table_id = await played(svc)
    _, before = await svc.store.load(table_id)
    tamper(db_path, "UPDATE snapshots SET state = ? WHERE table_id = ?", damage, table_id)
    with pytest.raises(DamagedSnapshot):
        await svc.store.load(table_id)
    forget_tables(svc)  # the running service keeps the true state: a load after a restart reads the file
    note = await svc.reads.hand(table_id, ALICE)  # /game hand: a KeyError on `{}` before
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


# ---------------------------------------------------------------------- the file and its rows under damage


async def check_output(db_path: str, capsys: pytest.CaptureFixture) -> tuple[int, str, str]:
    """Run ``python -m store check`` (here: the toy game is registered): (exit status, stdout, stderr)."""
    capsys.readouterr()
    status = await asyncio.to_thread(main, ["check", db_path])
    out, err = capsys.readouterr()
    return status, out, err


def smash_page(db_path: str, name: str) -> None:
    """Write garbage over the first page of a table or index, as a failing disk would."""
    con = sqlite3.connect(db_path)
    (root,) = con.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    (size,) = con.execute("PRAGMA page_size").fetchone()
    con.close()
    with open(db_path, "r+b") as file:
        file.seek((root - 1) * size)  # the page's header: SQLite can no longer read the page
        file.write(b"\xde\xad\xbe\xef" * 64)


async def test_check_finds_a_damaged_page_with_sqlites_own_integrity_check(
    svc: TableService, db_path: str, capsys: pytest.CaptureFixture
) -> None:
    table_id = await played(svc)
    await svc.store.close()  # the last connection merges the WAL into the file
    svc.store = await Store.open(db_path)
    await svc.store.close()
    # An index no table check reads: only SQLite's own check can see this page is gone.
    smash_page(db_path, "spectators_by_user")
    status, out, _ = await check_output(db_path, capsys)
    assert status == 1
    assert "integrity_check found" in out and "spectators_by_user" in out
    assert f"table {table_id}: sound" in out  # the tables are still checked, one by one
    svc.store = await Store.open(db_path)


async def test_check_goes_on_past_a_page_it_cannot_read(
    svc: TableService, db_path: str, capsys: pytest.CaptureFixture
) -> None:
    await played(svc)
    await svc.store.close()
    smash_page(db_path, "seat_clocks")  # under the rows check: no traceback, each part reported
    status, out, err = await check_output(db_path, capsys)
    assert status == 1 and "Traceback" not in out + err
    assert "integrity_check found" in out and "table seat_clocks cannot be read" in out
    assert "tables checked" in out and "row: the seat_clocks rows: cannot be read" in out
    svc.store = await Store.open(db_path)


async def test_check_refuses_a_missing_database_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "conclave.db"
    command = [sys.executable, "-m", "store", "check", str(missing)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and f"no database at {missing}" in done.stderr
    assert "Traceback" not in done.stderr and "checked" not in done.stdout
    assert not missing.parent.exists()
    empty = tmp_path / "empty.db"
    empty.touch()
    assert await asyncio.to_thread(main, ["check", str(empty)]) == 1
    assert empty.stat().st_size == 0 and sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


async def test_backup_of_a_missing_database_says_so(tmp_path: Path) -> None:
    missing, copy = tmp_path / "conclave.db", tmp_path / "copy.db"
    command = [sys.executable, "-m", "store", "backup", str(missing), str(copy)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert f"no database at {missing}" in done.stderr
    assert not missing.exists() and not copy.exists()


async def test_a_table_with_damaged_options_is_reported_and_the_others_go_on(
    svc: TableService, db_path: str, capsys: pytest.CaptureFixture
) -> None:
    damaged = await played(svc)
    sound = await played(svc)
    tamper(db_path, "UPDATE tables SET options = '{\"hand\": ' WHERE id = ?", damaged)
    status, out, _ = await check_output(db_path, capsys)
    assert status == 1
    assert f"table {damaged}: log damaged" in out and f"table {sound}: sound" in out
    assert f"row: table {damaged}: its options are not valid JSON" in out
    # Play, once the service loads the tables again (a restart, or they left its cache): the
    # damaged table closes with the usual message, the other plays on.
    forget_tables(svc)
    with pytest.raises(TableError) as refused:
        await svc.reads.status(damaged)
    assert refused.value.sentence == DAMAGED
    assert [w.table.id for w in await svc.servers.mine(ALICE) + await svc.servers.mine(BOB)] == [sound]
    offered = await svc.reads.choices(sound, ALICE) or await svc.reads.choices(sound, BOB)
    assert offered


async def test_a_deleted_snapshot_over_a_sound_log_is_rebuilt(svc: TableService, db_path: str) -> None:
    table_id = await played(svc)
    _, before = await svc.store.load(table_id)
    tamper(db_path, "DELETE FROM snapshots WHERE table_id = ?", table_id)
    svc = await reopened(svc, db_path)
    assert {f.table_id: f.verdict for f in await check(db_path)} == {table_id: "snapshot damaged"}
    note = await svc.reads.hand(table_id, ALICE)
    assert note.seat in (0, 1)
    assert (await svc.table(table_id)).status == "active"
    _, after = await svc.store.load(table_id)
    assert after == before and await svc.replay(table_id)
    # The check's --repair does the same for a table nobody loads.
    tamper(db_path, "DELETE FROM snapshots WHERE table_id = ?", table_id)
    assert {f.verdict for f in await check(db_path, repair=True)} == {"repaired"}
    assert {f.verdict for f in await check(db_path)} == {"sound"}


async def test_a_deleted_snapshot_over_a_damaged_log_still_closes_the_table(
    svc: TableService, db_path: str
) -> None:
    table_id = await played(svc)
    tamper(db_path, "DELETE FROM snapshots WHERE table_id = ?", table_id)
    tamper(db_path, "UPDATE moves SET events = '[]' WHERE table_id = ? AND version = 1", table_id)
    svc = await reopened(svc, db_path)
    with pytest.raises(TableError) as refused:
        await svc.reads.hand(table_id, ALICE)
    assert refused.value.sentence == DAMAGED


@pytest.mark.parametrize(
    "damage",
    ["bank = 'garbage'", "running_since = 'x'", "out_since = X'00'", "absent = 'zz'", "played_for = -3"],
)
async def test_a_damaged_seat_clock_is_reset_and_play_goes_on(
    h: Harness, damage: str, capsys: pytest.CaptureFixture, caplog: pytest.LogCaptureFixture
) -> None:
    table_id = await h.table(options="clock=fast")
    where = "WHERE table_id = ? AND user_id = ?"
    tamper(str(h.path), f"UPDATE seat_clocks SET {damage} {where}", table_id, ALICE)
    svc = await h.restart()
    status, out, _ = await check_output(str(h.path), capsys)
    assert status == 1 and f"row: seat clock (table {table_id}, user {ALICE}): its " in out
    assert [w.table.id for w in await svc.servers.mine(ALICE)] == [table_id]  # /game mine raised before
    assert [c.user_id for c in await h.store.seat_clocks(table_id)] == [BOB]  # set aside, not shown
    offered = await svc.reads.choices(table_id, BOB)
    await svc.act(table_id, BOB, offered[0].value)  # raised before (the clocks' sync after the move)
    assert "reset to a fresh clock" in caplog.text
    # Alice's seat starts afresh; its reminders and deadline run again, and the check is clean.
    assert {c.user_id for c in await h.store.seat_clocks(table_id)} == {ALICE, BOB}
    assert (await svc.servers.mine(ALICE))[0].deadline is not None
    await h.wait(13 * HOUR)
    assert h.notices("reminder", ALICE)
    status, out, _ = await check_output(str(h.path), capsys)
    assert status == 0 and "damaged rows: 0." in out


async def test_check_names_due_work_whose_payload_is_damaged(
    h: Harness, capsys: pytest.CaptureFixture
) -> None:
    table_id = await h.table(options="clock=fast")
    con = sqlite3.connect(h.path)
    work_id, kind = con.execute("SELECT id, kind FROM due_work ORDER BY id LIMIT 1").fetchone()
    con.close()
    tamper(str(h.path), "UPDATE due_work SET payload = '{\"since\": ' WHERE id = ?", work_id)
    status, out, _ = await check_output(str(h.path), capsys)
    assert status == 1
    assert f"row: due work {work_id} ({kind}, table {table_id}): its payload is not valid JSON" in out
    assert "damaged rows: 1." in out


async def test_damaged_ping_preferences_read_as_the_defaults(
    h: Harness, capsys: pytest.CaptureFixture
) -> None:
    assert h.svc is not None
    await h.svc.time.set_pings(ALICE, pings="turn", quiet="22-7", utc_offset=2)
    await h.table(options="clock=fast")
    tamper(str(h.path), "UPDATE user_prefs SET utc_offset = 'x' WHERE user_id = ?", ALICE)
    svc = await h.restart()
    assert await svc.time.prefs(ALICE) == UserPrefs(ALICE)
    await h.wait(13 * HOUR)  # the reminder's quiet-hours sum raised on the damaged offset before
    assert h.notices("reminder", ALICE)
    status, out, _ = await check_output(str(h.path), capsys)
    assert status == 1 and f"row: ping preferences of user {ALICE}: its UTC offset" in out


def test_a_vote_holds_one_of_the_choices_votes_offer() -> None:
    offered = {choice for choice, _ in ABSENT_CHOICES} | {choice for choice, _ in UNDO_CHOICES}
    assert offered | {ASKED} == VOTE_CHOICES


async def test_a_damaged_vote_is_set_aside_not_counted(
    svc: TableService, db_path: str, capsys: pytest.CaptureFixture
) -> None:
    table_id = await played(svc)
    topic = f"absent:{ALICE}"
    await svc.store.cast_vote(table_id, topic, BOB, "skip", 1.0)
    await svc.store.cast_vote(table_id, topic, CAROL, "wait", 1.0)
    tamper(db_path, "UPDATE votes SET choice = 'garbage' WHERE user_id = ?", CAROL)
    assert await svc.store.votes(table_id, topic) == {BOB: "skip"}
    assert await svc.store.cast_vote(table_id, topic, BOB, "wait", 2.0) == {BOB: "wait"}
    status, out, _ = await check_output(db_path, capsys)
    assert status == 1 and f"row: vote (table {table_id}, {topic}): its choice" in out


async def test_a_damaged_spectator_or_seat_preference_is_set_aside(
    svc: TableService, db_path: str, capsys: pytest.CaptureFixture
) -> None:
    table_id = await played(svc)
    await svc.play.watch(table_id, CAROL)
    await svc.reads.set_seat_pref(table_id, ALICE, "react", "pass")
    tamper(db_path, "UPDATE spectators SET user_id = 'carol' WHERE table_id = ?", table_id)
    tamper(db_path, "UPDATE seat_prefs SET value = X'00' WHERE table_id = ?", table_id)
    assert await svc.store.spectators(table_id) == []
    assert await svc.reads.seat_pref(table_id, ALICE, "react") is None
    assert await svc.reads.seat_prefs(table_id, "react") == {}
    status, out, _ = await check_output(db_path, capsys)
    assert status == 1
    assert f"row: spectator of table {table_id}: its user" in out
    assert f"row: seat preference (table {table_id}, react): its value is not text" in out


async def test_a_damaged_bot_memory_is_set_aside_and_the_bot_plays_on(
    h: Harness, capsys: pytest.CaptureFixture
) -> None:
    assert h.svc is not None and h.store is not None
    record = await h.svc.open_table("academy", "scenario=basic", guild_id=1, channel_id=2, host_id=ALICE,
                                    host_name="alice")
    await h.svc.bots.add_bots(record.id, ALICE, "basic", 1)
    await h.svc.start(record.id, ALICE)

    async def step() -> None:
        assert h.svc is not None
        if await h.svc.bots.next_bot_move(record.id) is None:
            offered = await h.svc.reads.choices(record.id, ALICE)
            await h.svc.act(record.id, ALICE, offered[0].value)

    seat = next(s.seat for s in await h.store.seats(record.id) if s.bot)
    while not await h.store.bot_memories(record.id):
        await step()
    tamper(str(h.path), "UPDATE bot_memory SET memory = '[1, ' WHERE table_id = ?", record.id)
    assert await h.store.bot_memories(record.id) == {}  # raised before: every move of the table did
    status, out, _ = await check_output(str(h.path), capsys)
    assert status == 1
    assert f"row: bot memory (table {record.id}, seat {seat}): its memory is not valid JSON" in out
    for _ in range(3):
        await step()
    assert list(await h.store.bot_memories(record.id)) == [seat]  # it remembers afresh


def test_the_store_knows_every_bot_level() -> None:
    assert BOT_LEVELS == LEVELS


async def test_a_seat_whose_bot_level_is_damaged_is_still_played(
    svc: TableService, db_path: str, capsys: pytest.CaptureFixture
) -> None:
    table = await svc.open_table("toy", None, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    await svc.bots.add_bots(table.id, ALICE, "strong", 1)
    await svc.start(table.id, ALICE)
    tamper(db_path, "UPDATE seats SET bot = 'zz' WHERE table_id = ? AND bot IS NOT NULL", table.id)
    status, out, _ = await check_output(db_path, capsys)
    assert status == 1 and f"row: seat of user -1 at table {table.id}: its bot level" in out
    reply = await svc.bots.next_bot_move(table.id)  # raised before: no bot level `zz`
    assert reply is not None and reply.table.version == 1


async def test_a_damaged_move_of_a_finished_game_leaves_the_other_stats(
    svc: TableService, db_path: str, capsys: pytest.CaptureFixture
) -> None:
    damaged, sound = await played(svc, moves=200), await played(svc, moves=200)
    assert {(await svc.table(t)).status for t in (damaged, sound)} == {"finished"}
    tamper(db_path, "UPDATE moves SET move = '{\"act' WHERE table_id = ? AND version = 1", damaged)
    stats = await svc.servers.stats(ALICE)  # raised before on the damaged game's move
    assert stats.played == {"toy": 2} and stats.median_move_seconds is not None
    status, out, _ = await check_output(db_path, capsys)
    assert status == 1 and f"table {damaged}: log damaged" in out and f"table {sound}: sound" in out


async def test_a_damaged_start_of_a_wait_counts_from_the_last_change(
    h: Harness, capsys: pytest.CaptureFixture
) -> None:
    table_id = await h.table(options="clock=fast")
    tamper(str(h.path), "UPDATE waiting SET since = 'x' WHERE table_id = ? AND user_id = ?", table_id, ALICE)
    svc = await h.restart()
    status, out, _ = await check_output(str(h.path), capsys)
    assert status == 1 and f"row: wait for user {ALICE} at table {table_id}: its since is not a time" in out
    assert [w.since for w in await svc.servers.mine(ALICE)] == [(await svc.table(table_id)).updated_at]
    offered = await svc.reads.choices(table_id, BOB)
    await svc.act(table_id, BOB, offered[0].value)  # raised before: the clock ran from 'x'
    assert (await svc.servers.mine(ALICE))[0].deadline is not None
    await h.wait(13 * HOUR)
    assert h.notices("reminder", ALICE)
    status, out, _ = await check_output(str(h.path), capsys)
    assert status == 0 and "damaged rows: 0." in out
