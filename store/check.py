"""``python -m store check DB [--repair]`` verifies every started table of a database;
``python -m store backup DB COPY`` copies a database safely while the bot runs.

For each table: the move log's chain (seed, seats, every move), the snapshot's checksum, and a
replay of the log from the seed, which must give the stored snapshot. ``--repair`` rewrites a
damaged snapshot from a sound log; a damaged log is only reported (its rows are the evidence).
Exit status: 0 when every table is sound (or was repaired), 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

from rules import registry
from rules.contract import RulesError
from store.records import CorruptTable, DamagedSnapshot, StoreError
from store.sqlite import Store


@dataclass(frozen=True)
class Finding:
    """What the check found at one table."""

    table_id: int
    verdict: str
    """``sound``, ``repaired``, ``snapshot damaged``, ``log damaged`` or ``does not replay``."""
    detail: str = ""

    @property
    def ok(self) -> bool:
        """Whether the table is fit to play on."""
        return self.verdict in ("sound", "repaired")

    def line(self) -> str:
        """Return the report line for this table."""
        tail = f": {self.detail}" if self.detail else ""
        return f"table {self.table_id}: {self.verdict}{tail}"


async def check(path: str, *, repair: bool = False) -> list[Finding]:
    """Verify every started table of the database at ``path``; repair damaged snapshots when asked."""
    store = await Store.open(path)
    try:
        return [await check_table(store, table.id, repair=repair) for table in await store.started_tables()]
    finally:
        await store.close()


async def check_table(store: Store, table_id: int, *, repair: bool = False) -> Finding:
    """Verify one table: chain, checksum, replay; rebuild its snapshot from a sound log when asked."""
    try:
        await store.load(table_id)
    except DamagedSnapshot as exc:
        if not repair:
            return Finding(table_id, "snapshot damaged", f"{exc} (the log is sound: run with --repair)")
        try:
            await store.repair_snapshot(table_id, *await _replayed(store, table_id))
        except (RulesError, KeyError, TypeError, ValueError) as failed:
            return Finding(table_id, "does not replay", type(failed).__name__)
        return Finding(table_id, "repaired", "the snapshot was rebuilt from the move log")
    except CorruptTable as exc:
        return Finding(table_id, "log damaged", str(exc))
    except StoreError as exc:
        return Finding(table_id, "log damaged", str(exc))
    try:
        version, state = await _replayed(store, table_id)
    except (RulesError, KeyError, TypeError, ValueError) as failed:
        return Finding(table_id, "does not replay", type(failed).__name__)
    _, stored = await store.load(table_id)
    if state != stored:
        return Finding(table_id, "does not replay", f"replaying {version} moves gives another snapshot")
    return Finding(table_id, "sound")


async def _replayed(store: Store, table_id: int) -> tuple[int, dict]:
    """Return the table's version and the state its move log replays to."""
    table = await store.table(table_id)
    assert table is not None and table.seed is not None
    players = sum(1 for s in await store.seats(table_id) if s.seat is not None)
    logged = [(m.seat, m.move) for m in await store.moves(table_id)]
    state = registry.replay(table.kind, players, table.options, table.seed, logged)
    return table.version, state


async def set_aside(path: str) -> list[str]:
    """Return a line for each piece of due work set aside (an unreadable payload, a failing handler)."""
    store = await Store.open(path)
    try:
        rows = await store.set_aside_work()
    finally:
        await store.close()
    return [f"due work {work} ({kind}) of table {table}: set aside, {why}" for work, kind, table, why in rows]


def backup(path: str, copy: str) -> None:
    """Copy a live database with SQLite's online backup (consistent even while the bot writes)."""
    if Path(copy).exists():
        raise SystemExit(f"{copy} already exists: choose a new file for the backup.")
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    target = sqlite3.connect(copy)
    try:
        with target:
            source.backup(target)
    finally:
        target.close()
        source.close()


def main(argv: list[str] | None = None) -> int:
    """Run the check (one line per table) or a backup from the command line."""
    parser = argparse.ArgumentParser(prog="python -m store", description="Verify or back up a database.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("check", help="verify every table (chain, checksum, replay)")
    run.add_argument("db", help="the SQLite file (back it up first when repairing)")
    run.add_argument("--repair", action="store_true", help="rebuild damaged snapshots from a sound log")
    copy = sub.add_parser("backup", help="copy the database safely while the bot runs")
    copy.add_argument("db", help="the SQLite file in use")
    copy.add_argument("copy", help="a new file to write the backup to")
    args = parser.parse_args(argv)
    if args.command == "backup":
        backup(args.db, args.copy)
        print(f"backed up {args.db} to {args.copy}")
        return 0
    findings = asyncio.run(check(args.db, repair=args.repair))
    for finding in findings:
        print(finding.line())
    bad = [f for f in findings if not f.ok]
    print(f"{len(findings)} tables checked, {len(bad)} with problems.")
    aside = asyncio.run(set_aside(args.db))
    for line in aside:
        print(line)
    if aside:
        print(f"{len(aside)} pieces of due work set aside: the other work runs on.")
    return 1 if bad or aside else 0


if __name__ == "__main__":
    sys.exit(main())
