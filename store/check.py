"""``python -m store check DB [--repair]`` verifies a database; ``python -m store backup DB COPY``
copies one safely while the bot runs; ``python -m store copy --from DB --to DB`` moves every row
to another database (store.copy). DB is a SQLite file or a ``postgresql://`` URL.

On PostgreSQL the pages are the server's to check (its ``amcheck`` extension), a backup is
``pg_dump --format=custom`` (restore with ``pg_restore``), and the rest is the same.

First the file itself: SQLite's ``PRAGMA integrity_check`` over every page and index. Then each
started table: the move log's chain (seed, seats, every move), the snapshot's checksum, and a
replay of the log from the seed, which must give the stored snapshot. ``--repair`` rewrites a
damaged (or missing) snapshot from a sound log; a damaged log is only reported (its rows are the
evidence). Last, every row the service reads outside the log (due work, seat clocks,
preferences, votes, spectators, seat preferences, bot memories, options) is judged by
``store.rows``: each damaged row is named (the bot sets such rows aside and goes on).
Exit status: 0 when all is sound (or was repaired), 1 otherwise, and 1 with nothing created when
there is no database at the path.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import sqlite3
import subprocess
import sys
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from rules import registry
from rules.contract import RulesError
from store.dialect import is_postgres, shown, sqlite_path
from store.records import CorruptTable, DamagedSnapshot, StoreError
from store.rows import SCANS, damaged_rows, faults_in
from store.sqlite import Store

_PAGE = re.compile(r"\b[Pp]age (\d+)")


@dataclass(frozen=True)
class Finding:
    """What the check found at one table."""

    table_id: int
    verdict: str
    """``sound``, ``repaired``, ``snapshot damaged``, ``log damaged``, ``does not replay`` or
    ``unreadable`` (SQLite cannot read its rows: a damaged page)."""
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
        ids = await store.started_table_ids()
        return [await check_table(store, table_id, repair=repair) for table_id in ids]
    finally:
        await store.close()


async def check_table(store: Store, table_id: int, *, repair: bool = False) -> Finding:
    """Verify one table: chain, checksum, replay; rebuild its snapshot from a sound log when asked."""
    try:
        return await _check_table(store, table_id, repair=repair)
    except sqlite3.DatabaseError as exc:  # a damaged page under this table: the others go on
        return Finding(table_id, "unreadable", str(exc))


async def _check_table(store: Store, table_id: int, *, repair: bool) -> Finding:
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


def pages(path: str) -> list[str]:
    """Return what SQLite's own ``PRAGMA integrity_check`` finds wrong in the file ([] when sound)."""
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            try:
                found = _pragma(con, "integrity_check")
            except sqlite3.DatabaseError as exc:
                # integrity_check can stop at a page it cannot read: check tree by tree instead.
                found = _tree_by_tree(con) or [f"integrity_check stopped ({exc})"]
            if found == ["ok"]:
                return []
            owners = _page_owners(con)
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        return [f"the file cannot be read ({exc})"]
    return [_owned(line, owners) for line in found]


def _pragma(con: sqlite3.Connection, check: str) -> list[str]:
    lines = []
    for (text,) in con.execute(f"PRAGMA {check}"):
        lines += [part for part in text.splitlines() if part and not part.startswith("*** in database")]
    return lines


def _tree_by_tree(con: sqlite3.Connection) -> list[str]:
    """Return what ``quick_check`` finds in each table (with its indexes), naming unreadable ones."""
    lines = []
    names = [name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for name in names:
        try:
            found = _pragma(con, f"quick_check({_quoted(name)})")
        except sqlite3.DatabaseError as exc:
            found = [f"table {name} cannot be read ({exc})"]
        lines += [] if found == ["ok"] else found
    return lines


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _page_owners(con: sqlite3.Connection) -> dict[int, str]:
    """Return page number -> the table or index it belongs to, as far as the file still says."""
    owners: dict[int, str] = {}
    with suppress(sqlite3.DatabaseError):
        for kind, name, root in con.execute("SELECT type, name, rootpage FROM sqlite_master"):
            owners[root] = f"{kind} {name}"
        # dbstat (when SQLite was built with it) knows every page, not only the first of each tree.
        for name, page in con.execute("SELECT name, pageno FROM dbstat"):
            owners.setdefault(page, name)
    return owners


def _owned(line: str, owners: dict[int, str]) -> str:
    """Add to a line of SQLite's check the table or index of the page it names."""
    page = _PAGE.search(line)
    owner = None if page is None else owners.get(int(page[1]))
    return line if owner is None else f"{line} ({owner})"


async def damaged_pg(url: str) -> list[str]:
    """Return one line per damaged row of the kinds ``store.rows`` judges, on PostgreSQL."""
    store = await Store.open(url)
    try:
        lines = []
        async with store._reading() as db:
            for where, sql, fault in SCANS:
                rows = await store._all(db, sql)
                lines += [f"{row}: {found}" for row, found in faults_in(where, fault, rows)]
        return lines
    finally:
        await store.close()


def damaged(path: str) -> list[str]:
    """Return one line per damaged row of the kinds ``store.rows`` judges."""
    if is_postgres(path):
        return asyncio.run(damaged_pg(path))
    lines = []
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            lines = [f"{where}: {fault}" for where, fault in damaged_rows(con)]
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        lines.append(f"the rows could not all be read ({exc})")
    return lines


async def set_aside(path: str) -> list[str]:
    """Return a line for each piece of due work set aside (an unreadable payload, a failing handler)."""
    store = await Store.open(path)
    try:
        rows = await store.set_aside_work()
    finally:
        await store.close()
    return [f"due work {work} ({kind}) of table {table}: set aside, {why}" for work, kind, table, why in rows]


def backup_pg(url: str, copy: str) -> None:
    """Dump a live PostgreSQL database with ``pg_dump`` (one consistent snapshot) to a new file."""
    if Path(copy).exists():
        raise SystemExit(f"{copy} already exists: choose a new file for the backup.")
    dump = shutil.which("pg_dump")
    if dump is None:
        raise SystemExit("pg_dump was not found: install PostgreSQL's client tools.")
    # A store in its own schema (``?search_path=``, which pg_dump's URL does not take): dump it alone.
    base, _, query = url.partition("?")
    settings = dict(part.partition("=")[::2] for part in query.split("&") if part)
    schema = settings.pop("search_path", None)
    target = base + ("?" + "&".join(f"{k}={v}" for k, v in settings.items()) if settings else "")
    command = [dump, "--format=custom", "--no-owner", f"--file={copy}"]
    command += [f"--schema={schema}"] if schema else []
    done = subprocess.run([*command, target], capture_output=True, text=True)
    if done.returncode != 0:
        Path(copy).unlink(missing_ok=True)
        raise SystemExit(f"could not back up {shown(url)}: {done.stderr.strip()}")


def backup(path: str, copy: str) -> None:
    """Copy a live database with SQLite's online backup (consistent even while the bot writes)."""
    if is_postgres(path):
        backup_pg(path, copy)
        return
    missing = _missing(path)
    if missing:
        raise SystemExit(missing)
    if Path(copy).exists():
        raise SystemExit(f"{copy} already exists: choose a new file for the backup.")
    try:
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            target = sqlite3.connect(copy)
            try:
                with target:
                    source.backup(target)
            finally:
                target.close()
        finally:
            source.close()
    except sqlite3.Error as exc:
        Path(copy).unlink(missing_ok=True)  # no half copy left to be taken for a backup
        raise SystemExit(f"could not back up {path}: {exc}") from None


def _missing(path: str) -> str:
    """Say why there is no database at ``path`` to read ("" when there is a file to open).

    Opening an absent or empty file would create a database: a checked typo would report an
    empty, sound database, and the operator's real file would go unchecked.
    """
    file = Path(path)
    if not file.is_file():
        return f"no database at {path}"
    if file.stat().st_size == 0:
        return f"no database at {path} (the file is empty)"
    return ""


def main(argv: list[str] | None = None) -> int:
    """Run the check (one line per table) or a backup from the command line."""
    parser = argparse.ArgumentParser(prog="python -m store", description="Verify or back up a database.")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("check", help="verify every table (chain, checksum, replay)")
    run.add_argument("db", help="the SQLite file or postgresql:// URL (back it up first when repairing)")
    run.add_argument("--repair", action="store_true", help="rebuild damaged snapshots from a sound log")
    copy = sub.add_parser("backup", help="copy the database safely while the bot runs")
    copy.add_argument("db", help="the SQLite file or postgresql:// URL in use")
    copy.add_argument("copy", help="a new file to write the backup to (PostgreSQL: pg_dump's custom format)")
    move = sub.add_parser("copy", help="copy every row to another database, then verify each game")
    move.add_argument("--from", dest="source", required=True, help="sqlite:///conclave.db or postgresql://...")
    move.add_argument("--to", dest="target", required=True, help="the database to fill (empty)")
    move.add_argument("--force", action="store_true", help="replace whatever the target holds")
    args = parser.parse_args(argv)
    for name in ("db", "source", "target"):  # sqlite:///x.db names the file x.db
        if hasattr(args, name):
            setattr(args, name, sqlite_path(getattr(args, name)))
    if args.command == "backup":
        backup(args.db, args.copy)
        print(f"backed up {shown(args.db)} to {args.copy}")
        return 0
    if args.command == "copy":
        return _copy(args.source, args.target, force=args.force)
    missing = "" if is_postgres(args.db) else _missing(args.db)
    if missing:
        print(missing, file=sys.stderr)
        return 1
    return _report(args.db, repair=args.repair)


def _copy(source: str, target: str, *, force: bool) -> int:
    """Run ``copy`` from the command line; return the exit status."""
    from store.copy import copy

    missing = "" if is_postgres(source) else _missing(source)
    if missing:
        print(missing, file=sys.stderr)
        return 1
    try:
        sound = asyncio.run(copy(source, target, force=force))
    except StoreError as exc:
        print(f"not copied: {exc}", file=sys.stderr)
        return 1
    print(f"copied {shown(source)} to {shown(target)}" + ("" if sound else ": NOT all sound"))
    return 0 if sound else 1


def _report(path: str, *, repair: bool) -> int:
    """Print the file's, each table's and each damaged row's lines; return the exit status."""
    broken = [] if is_postgres(path) else pages(path)
    if is_postgres(path):
        print("database: PostgreSQL (its pages are the server's to check: the amcheck extension)")
    elif broken:
        print("file: damaged: SQLite's integrity_check found (restore a backup):")
        for line in broken:
            print(f"  {line}")
    else:
        print("file: sound (SQLite's integrity_check)")
    try:
        findings = asyncio.run(check(path, repair=repair))
    except (sqlite3.DatabaseError, StoreError) as exc:
        print(f"tables: not checked: the database cannot be opened ({exc})")
        return 1
    for finding in findings:
        print(finding.line())
    rows = damaged(path)
    for line in rows:
        print(f"row: {line}")
    bad = [f for f in findings if not f.ok]
    print(f"{len(findings)} tables checked, {len(bad)} with problems; damaged rows: {len(rows)}.")
    aside = asyncio.run(set_aside(path))
    for line in aside:
        print(line)
    if aside:
        print(f"{len(aside)} pieces of due work set aside: the other work runs on.")
    return 1 if bad or rows or broken or aside else 0


if __name__ == "__main__":
    sys.exit(main())
