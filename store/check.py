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

import asyncio
import re
import shutil
import sqlite3
import subprocess
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from rules import registry
from rules.contract import RulesError
from store.dialect import is_postgres, shown
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
    missing = absent(path)
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


def absent(path: str) -> str:
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
