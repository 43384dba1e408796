"""The load bench: many tables moving at once through the service, the real store and drawings.

``python -m bench load --tables 200 --moves 10`` opens the tables, then lets every table's
players move at the same time (one driver per table, all on one event loop, as one bot
process serves them). Each move goes through ``TableService.act`` (rules, the store's
transaction), then its board and private notes are drawn as the bot draws them when it posts
them (``show``: nothing for a quiet move), and it is marked delivered as the bot would. The
last line is JSON: ``moves_per_s``, ``p50_ms``/``p99_ms`` (one act, from call to delivered),
``lost`` (accepted moves missing from the log), ``doubled`` (a version logged or reported twice)
and ``rss_mb`` (the process's peak resident memory).

``drive_table`` plays one table and returns what it saw, so a runner that spreads tables over
several processes (or a PostgreSQL store, opened from ``--db``) can reuse it as it is.
"""

from __future__ import annotations

import asyncio
import random
import resource
import statistics
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.timing import percentile
from service import Reply, TableError, TableService
from store import Store

USER_BASE = 50_000
"""Seat n of table t sits as the made-up user USER_BASE + 10 * t + n."""


@dataclass
class TableRun:
    """What one table's driver saw: each accepted move's version and how long each act took."""

    table_id: int
    versions: list[int] = field(default_factory=list)
    took: list[float] = field(default_factory=list)
    refused: int = 0
    drawings: int = 0


async def open_table(svc: TableService, kind: str, players: int, number: int) -> tuple[int, list[int]]:
    """Open, fill and start one table; return its id and its players' user ids."""
    users = [USER_BASE + 10 * number + seat for seat in range(players)]
    table = await svc.open_table(kind, None, guild_id=1, channel_id=2, host_id=users[0], host_name="host")
    for user in users[1:]:
        await svc.join(table.id, user, f"mage{user}")
    await svc.delivered(await svc.start(table.id, users[0]))
    return table.id, users


async def show(svc: TableService, reply: Reply) -> int:
    """Draw what the bot would post for a move (its board, each private note); return how many."""
    shown = [reply.board] if reply.board is not None else []
    shown += list(reply.private)
    images = [await svc.reads.image(message) for message in shown]
    return sum(1 for image in images if image is not None)


async def drive_table(svc: TableService, table_id: int, users: list[int], moves: int,
                      rand: random.Random) -> TableRun:
    """Play up to ``moves`` random offered moves at one table, each stamped with its version."""
    run = TableRun(table_id)
    clock = time.perf_counter
    while len(run.versions) < moves:
        table = await svc.table(table_id)
        if table.status != "active":
            break
        offered = [(user, await svc.reads.choices(table_id, user)) for user in users]
        offered = [(user, choices) for user, choices in offered if choices]
        if not offered:
            break
        user, choices = rand.choice(offered)
        began = clock()
        try:
            reply = await svc.act(table_id, user, rand.choice(choices).value, expected_version=table.version)
        except TableError:
            run.refused += 1
            if run.refused > moves:
                break
            continue
        run.drawings += await show(svc, reply)
        await svc.delivered(reply)
        run.took.append(clock() - began)
        run.versions.append(reply.table.version)
    return run


async def audit(store: Store, run: TableRun) -> tuple[int, int]:
    """Return (lost, doubled): accepted versions missing from the log, versions seen twice."""
    logged = Counter(record.version for record in await store.moves(run.table_id))
    reported = Counter(run.versions)
    lost = sum(1 for version in reported if version not in logged)
    doubled = sum(n - 1 for n in logged.values() if n > 1) + sum(n - 1 for n in reported.values() if n > 1)
    return lost, doubled


async def load(db: str, kind: str, players: int, tables: int, moves: int, seed: int) -> dict[str, Any]:
    """Open the tables, move them all at once, audit the log; return the JSON summary."""
    rand = random.Random(seed)
    store = await Store.open(db)
    try:
        svc = TableService(store, seed_source=lambda: rand.randrange(1 << 62))
        opened = [await open_table(svc, kind, players, n) for n in range(tables)]
        began = time.perf_counter()
        drivers = [drive_table(svc, tid, users, moves, random.Random(rand.randrange(1 << 62)))
                   for tid, users in opened]
        runs = await asyncio.gather(*drivers)
        wall = time.perf_counter() - began
        lost = doubled = 0
        for run in runs:
            missing, twice = await audit(store, run)
            lost, doubled = lost + missing, doubled + twice
    finally:
        await store.close()
    took = [t for run in runs for t in run.took]
    done = len(took)
    return {
        "kind": kind,
        "players": players,
        "tables": tables,
        "moves": done,
        "refused": sum(run.refused for run in runs),
        "drawings": sum(run.drawings for run in runs),
        "seconds": round(wall, 2),
        "moves_per_s": round(done / wall, 1) if wall else None,
        "p50_ms": round(1000 * statistics.median(took), 1) if took else None,
        "p99_ms": round(1000 * percentile(took, 0.99), 1) if took else None,
        "lost": lost,
        "doubled": doubled,
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def run(db: str | None, kind: str, players: int, tables: int, moves: int, seed: int) -> dict[str, Any]:
    """Run the load bench on ``db`` (a fresh temporary SQLite file when None)."""
    if db is not None:
        return asyncio.run(load(db, kind, players, tables, moves, seed))
    with tempfile.TemporaryDirectory(prefix="conclave-load-") as folder:
        return asyncio.run(load(str(Path(folder) / "load.db"), kind, players, tables, moves, seed))
