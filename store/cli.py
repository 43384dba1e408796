"""``python -m store``: check, back up or copy a database from the command line (store.check, store.copy)."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys

from store.check import absent, backup, check, damaged, pages, set_aside
from store.copy import copy
from store.dialect import is_postgres, shown, sqlite_path
from store.records import StoreError


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
    missing = "" if is_postgres(args.db) else absent(args.db)
    if missing:
        print(missing, file=sys.stderr)
        return 1
    return _report(args.db, repair=args.repair)


def _copy(source: str, target: str, *, force: bool) -> int:
    """Run ``copy`` from the command line; return the exit status."""
    missing = "" if is_postgres(source) else absent(source)
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
