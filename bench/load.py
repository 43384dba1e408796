"""The load bench: many tables moving at once through the service, the real store and drawings.

``python -m bench load --tables 200 --moves 10`` opens the tables, then lets every table's
players move at the same time (one driver per table, all on one event loop, as one bot
process serves them). Each move goes through ``TableService.act`` (rules, the store's
transaction); then what the bot would post of it is drawn (``Posting``), decided by the code
the kit's delivery asks (``service.showing``): the board only when the move is not quiet, as a
new message when the turn passed, else as an edit of the living board paced by the bot's
default edit spacing (merged edits draw only the newest, in the background as the bot does);
a DM note for each other seat with news; the mover's note on its answer. Then it is marked
delivered as the bot would. Drawings run on the service's drawing threads (one per core).

The last line is JSON: ``moves_per_s``, ``p50_ms``/``p99_ms`` (one act, from call to delivered),
``lost`` (accepted moves missing from the log), ``doubled`` (a version logged or reported twice),
``drawings`` (drawings made, ``drawn`` by what showed them), ``rss_mb`` (the bot's peak resident
memory: this process's peak plus each drawing process's, ``rss_drawing_mb``, the sum of peaks
that need not have been at once, so never less than the truth), ``rss_opened_mb`` (this process's
peak once the tables were open, before any move) and
``drawings_kept_mb`` (the PNGs the drawing cache holds at the end); ``drawn_on_loop`` counts
drawings made on the event loop's thread (must be 0: they stall every table).

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
from service import Board, PrivateNote, Reply, TableError, TableService, drawings, showing
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


async def open_table(svc: TableService, kind: str, players: int, number: int) -> tuple[int, list[int]]:
    """Open, fill and start one table; return its id and its players' user ids."""
    users = [USER_BASE + 10 * number + seat for seat in range(players)]
    table = await svc.open_table(kind, None, guild_id=1, channel_id=2, host_id=users[0], host_name="host")
    for user in users[1:]:
        await svc.join(table.id, user, f"mage{user}")
    await svc.delivered(await svc.start(table.id, users[0]))
    return table.id, users


class Posting:
    """What one bot process posts of each move, drawn as it draws it: ``service.showing`` decides.

    The kit's delivery asks the same questions: is the board shown (not for a quiet move), is it a
    new thread message or an edit of the living board, which notes go out by DM, which note answers
    the mover. Edits are paced as the bot paces them (``spacing``, the bot's default): an edit due
    sooner waits in the background and the boards arriving meanwhile merge into it, so only the
    newest is drawn. One table's posts go one at a time, as under the kit's delivery lock.
    """

    def __init__(self, svc: TableService, spacing: float = showing.EDIT_SPACING) -> None:
        self.svc = svc
        self.spacing = spacing
        self.pacing = showing.EditPacing()
        self.living: dict[int, int] = {}
        """The version whose message is each table's living board (a message id stands in)."""
        self.newest: dict[int, int] = {}
        self.drawn: Counter[str] = Counter()
        """Drawings made, by what showed them: ``post``, ``edit``, ``dm``, ``answer``."""
        self.quiet = 0
        """Moves whose board was not shown."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._later: set[asyncio.Task[None]] = set()

    async def post(self, reply: Reply, mover: int) -> None:
        """Draw what the bot posts of a move: the board (or its paced edit), the DMs, the mover's answer.

        As the kit's delivery does, a move's pictures are started together (``start_drawing``: the
        answer's before the delivery turn, the notes' within it, then the board is asked when its
        step is known) and each show awaits its own, so a move waits for its drawings side by side,
        not one after another.
        """
        table_id = reply.table.id
        reads = self.svc.reads
        answer = showing.answer_note(reply, mover)
        if answer is not None:
            reads.start_drawing(answer)
        async with self._lock(table_id):
            notes = showing.dm_notes(reply, mover)
            for note in notes:
                reads.start_drawing(note)
            if reply.board is not None and showing.board_shown(reply.board):
                await self._board(reply.board)
            else:
                self.quiet += 1
            for note in notes:
                await self._draw(note, "dm")
        if answer is not None:
            await self._draw(answer, "answer")

    async def settle(self) -> None:
        """Wait for the edits still waiting out their spacing."""
        while self._later:
            await asyncio.gather(*list(self._later))

    def _lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def _board(self, board: Board) -> None:
        table_id = board.table_id
        living = self.living.get(table_id)
        step = showing.board_step(board, living, self.newest.get(table_id, -1))
        if step == showing.SKIP:
            return
        self.newest[table_id] = board.version
        if step == showing.EDIT and living is not None:
            await self._edit(living, board)
            return
        await self._flush(table_id)  # a waiting edit shows steps no other message holds
        await self._draw(board, "post")
        self.pacing.drop(table_id)
        if board.in_play:
            self.living[table_id] = board.version

    async def _edit(self, living: int, board: Board) -> None:
        wait = self.pacing.offer(living, board, asyncio.get_running_loop().time(), self.spacing)
        if wait is None:
            return  # merged into the edit already waiting
        if wait <= 0:
            await self._flush(board.table_id)
            return

        async def show(entry: tuple[int, Board]) -> None:
            async with self._lock(board.table_id):
                if self.pacing.take_drawn(board.table_id, entry):
                    await self._flush(board.table_id, entry)

        async def later() -> None:
            await asyncio.sleep(wait)
            await self.pacing.edit_in_turn(board.table_id, self.svc.reads.image, show, self.spacing)

        task = asyncio.create_task(later())
        self._later.add(task)
        task.add_done_callback(self._later.discard)

    async def _flush(self, table_id: int, drawn: tuple[int, Board] | None = None) -> None:
        pending = drawn or self.pacing.take(table_id)
        if pending is None:
            return
        message, board = pending
        if self.living.get(table_id) != message:
            return  # a fresh board was posted meanwhile
        self.pacing.mark(table_id, asyncio.get_running_loop().time())
        await self._draw(board, "edit")

    async def _draw(self, shown: Board | PrivateNote, why: str) -> None:
        if await self.svc.reads.image(shown) is not None:
            self.drawn[why] += 1


async def drive_table(svc: TableService, posting: Posting, table_id: int, moves: int,
                      rand: random.Random) -> TableRun:
    """Play up to ``moves`` random offered moves at one table, each stamped with its version."""
    run = TableRun(table_id)
    clock = time.perf_counter
    while len(run.versions) < moves:
        table = await svc.table(table_id)
        if table.status != "active":
            break
        # Only the players the table waits on look at their moves (a player's autocomplete
        # asks when it is their turn), as bench/e2e.py picks its movers from the prompts.
        public = await svc.reads.public_view(table_id)
        waiting = sorted({public.users[p.seat] for p in public.prompts if p.seat in public.users})
        offered = [(user, await svc.reads.choices(table_id, user)) for user in waiting]
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
        await posting.post(reply, user)
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


def peak_rss_mb() -> float:
    """Return the process's peak resident memory so far, in MB."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


async def load(db: str, kind: str, players: int, tables: int, moves: int, seed: int) -> dict[str, Any]:
    """Open the tables, move them all at once, audit the log; return the JSON summary."""
    rand = random.Random(seed)
    store = await Store.open(db)
    try:
        svc = TableService(store, seed_source=lambda: rand.randrange(1 << 62))
        opened = [await open_table(svc, kind, players, n) for n in range(tables)]
        rss_opened = peak_rss_mb()
        drawings.start()  # as a bot does before its first move: no move waits for them to start
        posting = Posting(svc)
        began = time.perf_counter()
        drivers = [drive_table(svc, posting, tid, moves, random.Random(rand.randrange(1 << 62)))
                   for tid, _users in opened]
        runs = await asyncio.gather(*drivers)
        wall = time.perf_counter() - began
        await posting.settle()
        lost = doubled = 0
        for run in runs:
            missing, twice = await audit(store, run)
            lost, doubled = lost + missing, doubled + twice
    finally:
        await store.close()
    took = [t for run in runs for t in run.took]
    done = len(took)
    drawing_rss = drawings.painters().peak_rss_mb() if drawings.PROCESSES else 0.0
    return {
        "kind": kind,
        "players": players,
        "tables": tables,
        "moves": done,
        "refused": sum(run.refused for run in runs),
        "drawings": sum(posting.drawn.values()),
        "drawn": dict(sorted(posting.drawn.items())),
        "quiet": posting.quiet,
        "seconds": round(wall, 2),
        "moves_per_s": round(done / wall, 1) if wall else None,
        "p50_ms": round(1000 * statistics.median(took), 1) if took else None,
        "p99_ms": round(1000 * percentile(took, 0.99), 1) if took else None,
        "lost": lost,
        "doubled": doubled,
        "rss_mb": round(peak_rss_mb() + drawing_rss, 1),
        "rss_drawing_mb": drawing_rss,
        "drawing_processes": drawings.painters().count if drawings.PROCESSES else 0,
        "rss_opened_mb": rss_opened,
        "drawings_kept_mb": round(svc.drawings.kept_bytes() / 2**20, 1),
        "drawn_on_loop": svc.drawings.on_loop,
    }


def run(db: str | None, kind: str, players: int, tables: int, moves: int, seed: int) -> dict[str, Any]:
    """Run the load bench on ``db`` (a fresh temporary SQLite file when None)."""
    if db is not None:
        return asyncio.run(load(db, kind, players, tables, moves, seed))
    with tempfile.TemporaryDirectory(prefix="conclave-load-") as folder:
        return asyncio.run(load(str(Path(folder) / "load.db"), kind, players, tables, moves, seed))
