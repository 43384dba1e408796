"""Several service processes against one store: ``python -m bench load --db postgresql|sqlite``.

``python -m bench load --db postgresql --processes 3 --tables 1000 --moves 10`` opens the tables
(the fewest seats each game allows, every game in turn, 16 at a time) in a fresh database,
schedules one reminder per table, falling due over the run, then starts N worker processes.
Every worker plays EVERY table (each in its own shuffled order, 8 tables at a time, each move
read from one seat view and played at its version) until each has ``--moves`` moves or its game
ended, so two processes often try the same table at the same version: the store's
compare-and-swap lets one move land and refuses the other. Meanwhile each worker's own scheduler
(``service.scheduler``, as the bot runs it, with a short lease) leases the due reminders in
batches (``store.lease_due``), "sends" each (a line on its output, flushed) and marks it done.
``--kill`` SIGKILLs one worker once it has made a quarter of its share of the moves; the others
take over its leased reminders when the lease runs out and finish its tables.

With ``--db postgresql`` and no ``--url`` (nor CONCLAVE_TEST_PG) a throwaway cluster is started
(``scripts/postgres``) and stopped at the end; ``--db sqlite`` uses a temporary file.

The last line is JSON: processes, tables, moves (acknowledged), moves_per_s, p99_ms (a move's
time in ``act``, every process), conflicts (moves refused as stale: another process moved
first), lost (acknowledged moves missing from the log), doubled (a table's version acknowledged
to two moves), reminders, reminders_doubled (a reminder sent twice, but for the case below),
reminders_resent (sent by the killed worker, which died before recording it, and sent again by
another under the same key: the bot passes the key as the message's Discord nonce, so the player
sees it once), reminders_missed (never claimed), killed, seconds, and after a kill what the
killed worker had done (killed_after_moves, killed_after_reminders). The drawings are switched
off: this measures the store, not Pillow.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import render
from rules import registry
from rules.toy import TOY
from service import TableError, TableService
from store import DueWork, Store, StoreError

REPO = Path(__file__).resolve().parent.parent
REMINDER = "bench_reminder"
LEASE_S = 20.0
"""A reminder's lease in the bench: short, so a killed worker's reminders are taken over soon, and
long enough that a live worker on a loaded machine finishes each batch well within it."""
DRIVERS = 8
"""Tables one worker moves at once, as a bot process serves many tables at a time."""
PREPARING = 16
"""Tables opened at once before the run."""
REMINDER_SPREAD = 0.05
"""Seconds over which the reminders fall due, per move of the run (1000 tables of 10: 500 s)."""


# --------------------------------------------------------------------------- one worker


async def worker(url: str, index: int, moves: int) -> None:
    """Play every table to ``moves`` moves and send due reminders; print one line per effect."""
    _no_drawings()
    store = await Store.open(url)
    svc = TableService(store, seed_source=lambda: 1)
    rand = random.Random(index)
    out = sys.stdout
    scheduler = svc.scheduler
    scheduler.lease = LEASE_S

    async def send(work: DueWork) -> None:
        print(f"sent {work.id}", file=out, flush=True)  # the effect; the scheduler then marks it done

    scheduler.handle(REMINDER, send)
    try:
        tables = await store.started_table_ids()
        rand.shuffle(tables)
        players = {table_id: [seat.user_id for seat in await store.seats(table_id)] for table_id in tables}
        queue = deque(tables)
        playing = asyncio.gather(*(_driver(svc, queue, players, moves, rand, out) for _ in range(DRIVERS)))
        while not playing.done():
            await scheduler.run_due()
            await asyncio.wait([playing], timeout=0.2)
        await playing
        while await scheduler.run_due() or await _reminders_open(store):
            await asyncio.sleep(0.2)  # a dead worker's lease runs out: take its reminders over
    finally:
        await store.close()


async def _driver(
    svc: TableService, queue: deque[int], players: dict[int, list[int]], moves: int, rand: random.Random,
    out: Any,
) -> None:
    """Take tables from the worker's queue in turn, one move each, until every table is done."""
    while queue:
        table_id = queue.popleft()
        if await _move(svc, table_id, players[table_id], moves, rand, out):
            queue.append(table_id)  # one table is never in two of this worker's drivers at once


async def _move(
    svc: TableService, table_id: int, users: list[int], moves: int, rand: random.Random, out: Any
) -> bool:
    """Try one move at a table as a player would: read the offered moves, then play one.

    Returns whether the table still wants moves. The move carries the version its choices were
    read at, so a move another process made meanwhile refuses it (stale), as a click would be.
    """
    views = await svc.reads.seat_views(table_id, users)  # every seat from one read
    offered = [(user, view) for user, view in views.items() if view.moves]
    if not offered or offered[0][1].version >= moves:
        return False
    user, view = offered[0]
    began = time.perf_counter()
    try:
        reply = await svc.act(table_id, user, rand.choice(view.moves).value, expected_version=view.version)
    except (TableError, StoreError):
        print(f"stale {table_id}", file=out, flush=True)
        return True
    took = (time.perf_counter() - began) * 1000
    await svc.delivered(reply)
    print(f"move {table_id} {reply.table.version} {took:.3f}", file=out, flush=True)
    return reply.table.version < moves and reply.table.status == "active"


async def _reminders_open(store: Store) -> bool:
    """Whether some reminder is not claimed yet (perhaps leased by a worker that died)."""
    async with store._single() as db:
        row = await store._one(
            db, "SELECT 1 AS open FROM due_work WHERE kind = ? AND claimed_at IS NULL LIMIT 1", (REMINDER,)
        )
    return row is not None


# --------------------------------------------------------------------------- the run


async def prepare(url: str, tables: int, moves: int = 10) -> None:
    """Open and start the tables (``PREPARING`` at once), and schedule a reminder per table.

    The reminders fall due over the run (``REMINDER_SPREAD`` seconds a move of a table), so a
    worker killed mid-run may die holding some: the others must take them over.
    """
    store = await Store.open(url)
    svc = TableService(store, seed_source=lambda: 7)
    # The games a worker process knows: the tests' own game may be registered in this one.
    kinds = [kind for kind in registry.kinds() if kind != TOY.kind]
    numbers = iter(range(tables))

    window = tables * moves * REMINDER_SPREAD

    async def opener() -> None:
        for number in numbers:
            await _open(svc, kinds[number % len(kinds)], number, window * number / tables)

    try:
        with _drawings_off():  # restored after: a test's process draws on
            await asyncio.gather(*(opener() for _ in range(PREPARING)))
    finally:
        await store.close()


async def _open(svc: TableService, kind: str, number: int, spread: float) -> None:
    """Open, fill and start one table, and schedule its reminder ``spread`` seconds from now."""
    players = max(2, registry.get(kind).min_players)
    users = [10_000 + number * 10 + seat for seat in range(players)]
    table = await svc.open_table(kind, "", guild_id=1, channel_id=2, host_id=users[0], host_name="host")
    for user in users[1:]:
        await svc.join(table.id, user, f"p{user}")
    await svc.delivered(await svc.start(table.id, users[0]))
    await svc.store.schedule(REMINDER, time.time() + spread, f"remind:{table.id}", table.id, users[0])


def _no_drawings() -> None:
    """Switch the drawings off for good (a worker process): this bench measures the store, not Pillow."""
    render.board = lambda *args, **kwargs: None  # type: ignore[assignment]
    render.private = lambda *args, **kwargs: None  # type: ignore[assignment]


@contextlib.contextmanager
def _drawings_off() -> Iterator[None]:
    """Switch the drawings off while the block runs, then back on."""
    board, private = render.board, render.private
    _no_drawings()
    try:
        yield
    finally:
        render.board, render.private = board, private  # type: ignore[assignment]


async def verify(
    url: str, acked: list[tuple[int, int]], sends: dict[int, list[int]], killed: int
) -> dict[str, int]:
    """Compare what the workers acknowledged and sent with what the store holds."""
    store = await Store.open(url)
    try:
        logged = {(t, m.version) for t in await store.started_table_ids() for m in await store.moves(t)}
        per_version = Counter(acked)
        async with store._single() as db:
            rows = await store._all(db, "SELECT id, claimed_at FROM due_work WHERE kind = ?", (REMINDER,))
    finally:
        await store.close()
    return {
        "lost": len(set(acked) - logged),
        "doubled": sum(1 for n in per_version.values() if n > 1),
        "reminders": len(rows),
        "reminders_doubled": sum(1 for by in sends.values() if len(by) > 1 and not _resent(by, killed)),
        "reminders_resent": sum(1 for by in sends.values() if _resent(by, killed)),
        "reminders_missed": sum(1 for r in rows if r["claimed_at"] is None),
    }


def fresh_database(db: str, url: str | None, folder: str) -> tuple[str, subprocess.Popen[str] | None]:
    """Return the URL of an empty database for the run (and the cluster process it started, if any)."""
    if db == "sqlite":
        return str(Path(folder) / "load.db"), None
    cluster = None
    url = url or os.environ.get("CONCLAVE_TEST_PG")
    if url is None:
        cluster = subprocess.Popen([str(REPO / "scripts" / "postgres")], stdout=subprocess.PIPE, text=True)
        assert cluster.stdout is not None
        url = cluster.stdout.readline().strip()
        if not url:
            raise SystemExit("PostgreSQL could not be started (scripts/postgres).")
    schema = f"load_{os.getpid()}_{int(time.time())}"
    asyncio.run(_create_schema(url, schema))
    return f"{url}?search_path={schema}", cluster


async def _create_schema(url: str, schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()


def run(db: str, processes: int, tables: int, moves: int, url: str | None, kill: bool) -> dict[str, Any]:
    """Run the whole bench; return the summary."""
    with tempfile.TemporaryDirectory() as folder:
        target, cluster = fresh_database(db, url, folder)
        try:
            asyncio.run(prepare(target, tables, moves))
            return _play(target, processes, tables, moves, kill) | {"db": db}
        finally:
            if cluster is not None:
                cluster.send_signal(signal.SIGTERM)  # scripts/postgres stops the cluster and exits
                cluster.wait(120)


def _play(url: str, processes: int, tables: int, moves: int, kill: bool) -> dict[str, Any]:
    with contextlib.ExitStack() as stack:
        logs = [stack.enter_context(tempfile.TemporaryFile("w+")) for _ in range(processes)]
        return _run_workers(url, logs, tables, moves, kill)


def _run_workers(url: str, logs: list[Any], tables: int, moves: int, kill: bool) -> dict[str, Any]:
    """Start a worker per log file, perhaps kill one, then read what each did."""
    processes = len(logs)
    began = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [sys.executable, "-m", "bench", "loadmp", "--url", url, "--moves", str(moves), "--worker"]
    kill = kill and processes > 1
    procs = [subprocess.Popen([*command, "0"], stdout=logs[0], cwd=str(REPO), env=env)]
    if kill:  # the worker to kill starts first, so it surely has work in hand when it dies
        _wait_for_moves(logs[0], procs[0], 1)
    procs += [subprocess.Popen([*command, str(i)], stdout=logs[i], cwd=str(REPO), env=env)
              for i in range(1, processes)]
    killed = 0
    if kill:
        # Mid-run: once the first worker has made a quarter of its share of the moves.
        _wait_for_moves(logs[0], procs[0], max(1, tables * moves // (4 * processes)))
        procs[0].send_signal(signal.SIGKILL)
        killed = 1
    codes = [p.wait() for p in procs]
    seconds = time.perf_counter() - began
    if any(code != 0 for code in codes[killed:]):
        raise SystemExit(f"a worker failed: exit codes {codes}")
    acked, took, stale = [], [], 0
    sends: dict[int, list[int]] = {}
    by_killed = Counter()
    for number, log in enumerate(logs):
        log.seek(0)
        for line in log:
            word, *rest = line.split()
            if word == "move" and len(rest) == 3:  # a line cut by the kill is not an acknowledgement
                acked.append((int(rest[0]), int(rest[1])))
                took.append(float(rest[2]))
            elif word == "sent" and rest:
                sends.setdefault(int(rest[0]), []).append(number)
            elif word == "stale":
                stale += 1
            else:
                continue
            if killed and number == 0:
                by_killed[word] += 1
    took.sort()
    summary: dict[str, Any] = {
        "processes": processes, "tables": tables, "moves": len(acked),
        "moves_per_s": round(len(acked) / seconds, 1),
        "p99_ms": round(took[min(len(took) - 1, int(len(took) * 0.99))], 1) if took else None,
        "conflicts": stale, "killed": killed, "seconds": round(seconds, 1),
    }  # fmt: skip
    if killed:  # what the killed worker had done: the kill came mid-run, not before or after
        summary |= {"killed_after_moves": by_killed["move"], "killed_after_reminders": by_killed["sent"]}
    return summary | asyncio.run(verify(url, acked, sends, killed))


def _resent(senders: list[int], killed: int) -> bool:
    """Whether a reminder went out twice only because the killed worker (0) died before recording it."""
    return bool(killed) and len(senders) == 2 and senders.count(0) == 1


def _wait_for_moves(log: Any, proc: subprocess.Popen[bytes], wanted: int) -> None:
    """Wait until a worker's log holds ``wanted`` acknowledged moves (or the worker ended)."""
    while proc.poll() is None:
        size = os.fstat(log.fileno()).st_size
        if (b"\n" + os.pread(log.fileno(), size, 0)).count(b"\nmove ") >= wanted:
            return
        time.sleep(0.2)


def main(argv: list[str]) -> int:
    """Parse ``python -m bench loadmp`` (or a worker's own command line) and run it."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m bench loadmp", description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=("postgresql", "sqlite"), default="postgresql")
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=10)
    parser.add_argument("--url", help="a PostgreSQL server to use (default: a throwaway cluster)")
    parser.add_argument("--kill", action="store_true", help="SIGKILL one worker mid-run")
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        asyncio.run(worker(args.url, args.worker, args.moves))
        return 0
    if args.processes < 1 or args.tables < 1 or args.moves < 1:
        parser.error("--processes, --tables and --moves must be at least 1")
    summary = run(args.db, args.processes, args.tables, args.moves, args.url, args.kill)
    print(json.dumps(summary))
    lost = summary["lost"] + summary["doubled"] + summary["reminders_doubled"] + summary["reminders_missed"]
    return 1 if lost else 0
