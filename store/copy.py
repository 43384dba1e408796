"""``python -m store copy --from sqlite:///conclave.db --to postgresql://...``: move every row.

Both ends are opened as the bot opens them (so both are at the current schema). The target must
be empty unless ``--force`` (which first deletes everything in it). Every table of the schema is
copied in one transaction of the target, ids and all, in the order its foreign keys need; then
each table's row count is compared, and each started game is verified as ``store check`` does:
its move log's chain, its snapshot's checksum, and a replay of the log from the seed that must
give the stored snapshot. The checksums cover ids and text, never the engine, so a sound game
stays sound on the other engine. Either direction works (back to SQLite as well).
"""

from __future__ import annotations

from typing import Any

from store.check import check_table
from store.dialect import ORDERED_TABLES
from store.records import StoreError
from store.sqlite import Store

COPY_ORDER = (
    "tables", "seats", "moves", "snapshots", "chain", "snapshot_sums", "waiting", "abandon_votes",
    "meta", "seat_prefs", "due_work", "seat_clocks", "notices", "user_prefs", "votes", "spectators",
    "bot_memory", "servers",
)  # fmt: skip
"""Every table of the schema, each after the tables its foreign keys point at."""
IDENTITIES = (("tables", "id"), ("due_work", "id"))
"""Columns whose next value PostgreSQL draws from a sequence: moved past the copied ids."""


async def table_names(store: Store) -> set[str]:
    """Return the names of the store's tables (its own bookkeeping aside)."""
    if store._dialect.name == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    else:
        sql = "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()"
    async with store._single() as db:
        return {row["name"] for row in await store._all(db, sql)} - {"conclave_schema"}


async def counts(store: Store) -> dict[str, int]:
    """Return how many rows each table holds."""
    found = {}
    async with store._reading() as db:
        for name in COPY_ORDER:
            row = await store._one(db, f"SELECT COUNT(*) AS n FROM {name}")
            found[name] = row["n"]
    return found


async def copy(source_url: str, target_url: str, *, force: bool = False, say: Any = print) -> bool:
    """Copy every row from one store to another and verify it; return whether all is sound."""
    source = await Store.open(source_url)
    try:
        target = await Store.open(target_url)
        try:
            return await _copy(source, target, force=force, say=say)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy(source: Store, target: Store, *, force: bool, say: Any) -> bool:
    missing = (await table_names(source)) - set(COPY_ORDER)
    if missing:
        raise StoreError(f"The copy does not know the tables {sorted(missing)}: update store/copy.py.")
    held = {name: n for name, n in (await counts(target)).items() if n}
    if held and not force:
        raise StoreError(
            f"The target is not empty ({sum(held.values())} rows, e.g. in {sorted(held)[0]}):"
            " copy into an empty database, or pass --force to replace what it holds."
        )
    async with source._reading() as src, target._transaction() as dst:
        for name in reversed(COPY_ORDER):
            await dst.execute(f"DELETE FROM {name}")
        for name in COPY_ORDER:
            order = " ORDER BY rowid" if name in ORDERED_TABLES else ""
            rows = await source._all(src, f"SELECT * FROM {name}{order}")
            if not rows:
                continue
            columns = [c for c in rows[0].keys() if not (name in ORDERED_TABLES and c == "rowid")]  # noqa: SIM118
            marks = ", ".join("?" for _ in columns)
            await dst.executemany(
                f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({marks})",
                [tuple(row[c] for c in columns) for row in rows],
            )
        if target._dialect.name == "postgresql":
            for name, column in IDENTITIES:
                await dst.execute(
                    f"SELECT setval(pg_get_serial_sequence('{name}', '{column}'),"
                    f" COALESCE((SELECT MAX({column}) FROM {name}), 0) + 1, false)"
                )
    return await _verify(source, target, say)


async def _verify(source: Store, target: Store, say: Any) -> bool:
    """Compare each table's row count, then check every started game on the target."""
    sound = True
    before, after = await counts(source), await counts(target)
    for name in COPY_ORDER:
        same = before[name] == after[name]
        sound &= same
        say(f"{name}: {after[name]} rows" + ("" if same else f" (the source holds {before[name]})"))
    findings = [await check_table(target, table_id) for table_id in await target.started_table_ids()]
    for finding in findings:
        if not finding.ok:
            say(finding.line())
    bad = [f for f in findings if not f.ok]
    say(f"{len(findings)} games verified by replaying their logs, {len(bad)} with problems.")
    return sound and not bad
