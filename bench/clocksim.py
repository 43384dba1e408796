"""Simulate many tables over weeks of a hand-moved clock: clocks, reminders, absent players.

``python -m bench clock --tables 1000 --days 30 --seed 1`` opens tables of every game kind with
every clock preset, seats simulated players who answer after random delays (some go quiet for
good, some keep quiet hours, some turn pings off), and runs the real service, store and
scheduler on a temporary SQLite file while the clock moves in half-hour steps. The service is
restarted (store closed, a new service opened) every simulated week. The drawings are switched
off: the bench measures the time machinery, not Pillow.

The last line is JSON: tables, finished, stalled (active tables that neither moved nor ended in
the last ten simulated days), reminders (delivered), reminders_doubled (a reminder key delivered
twice), reminders_missed (a reminder the store recorded as sent but nobody received, or one left
unsent more than an hour past its time), restarts, ``jobs_<kind>`` (due work run: reminders,
deadlines, vote expiries, stand-in runs), seconds and cpu_seconds. Compare runs by the counts and
cpu_seconds: on a shared machine the wall time of the same run varies by a third or more.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import json
import random
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import render
from rules import registry
from service import Reply, TableError, TableService
from service.clock import DAY, HOUR, ManualClock
from service.notices import Notice
from store import Store

START = 1_800_000_000.0
STEP = 0.5 * HOUR
PRESETS = ("fast", "normal", "relaxed")
QUIET_SHARE = 0.12
"""Share of players who go quiet for good at some point."""
DELAYS = (12, 24, 36, 48, 72, 96)
"""Median answer delays in hours: some answer within a morning, some every few days (beyond
the fast clock's day, so banks do run out)."""
MAX_DELAY = 6 * DAY
"""Nobody takes longer than this to look at a table they still play at."""
MAX_TURN_MOVES = 40
"""Moves a player makes in one sitting at most (a whole turn of small steps)."""


@dataclass
class Player:
    """A simulated player: how long they take to answer, and when (if ever) they go quiet."""

    user_id: int
    name: str
    median_delay: float
    quiet_at: float | None
    quiet_hours: tuple[int, int] | None
    pings: str

    def attentive(self, now: float) -> bool:
        """Whether the player still answers at this time."""
        return self.quiet_at is None or now < self.quiet_at


@dataclass
class Sim:
    """The simulated world around one service: players, their pending answers and votes."""

    tables: int
    days: int
    seed: int
    shard: int = 0
    shards: int = 1
    """This simulation plays tables shard, shard + shards, ... of the whole run (one process each)."""
    rand: random.Random = field(init=False)
    clock: ManualClock = field(default_factory=lambda: ManualClock(START))
    players: dict[int, Player] = field(default_factory=dict)
    seats: dict[int, list[int]] = field(default_factory=dict)
    agenda: list[tuple[float, int, str, int, int, str]] = field(default_factory=list)
    planned: set[tuple[int, int]] = field(default_factory=set)
    delivered: Counter[str] = field(default_factory=Counter)
    waited: Counter[tuple[int, str]] = field(default_factory=Counter)
    """How often the players voted "wait" for each absent seat."""
    reminders: int = 0
    restarts: int = 0
    moves: int = 0
    votes: int = 0
    stand_ins: int = 0
    errors: int = 0
    jobs: Counter[str] = field(default_factory=Counter)
    """Due work run, by kind, over every service of the run (restarts included)."""
    store: Store | None = None
    svc: TableService | None = None
    path: str = ""
    _counter: int = 0
    _dirty: set[int] = field(default_factory=set)
    """Tables that changed since the players last looked."""

    def __post_init__(self) -> None:
        self.rand = random.Random(self.seed * 1000 + self.shard)

    # ------------------------------------------------------------------ the service

    async def open(self) -> TableService:
        """Open the store and a service on it, as a fresh process would."""
        self.store = await Store.open(self.path, clock=self.clock.now)
        self.svc = TableService(self.store, seed_source=lambda: self.rand.randrange(1 << 62),
                                clock=self.clock, outlet=self._outlet)
        return self.svc

    async def restart(self) -> None:
        """Close the store and open a new service: only the database survives."""
        assert self.store is not None and self.svc is not None
        self.jobs.update(self.svc.scheduler.ran)
        await self.store.close()
        self.restarts += 1
        await self.open()

    async def _outlet(self, message: Notice | Reply) -> None:
        if isinstance(message, Reply):
            self.stand_ins += 1
            self._dirty.add(message.table.id)
            return
        if message.kind == "reminder":
            self.reminders += 1
            self.delivered[message.key] += 1
        elif message.kind == "decided" and message.subject is not None:
            player = self.players[message.subject]
            if player.attentive(self.clock.now()) and "played by" in message.text:
                # A slow player whose seat went to a stand-in notices and takes it back.
                delay = min(self._delay(player), MAX_DELAY)
                self._push(self.clock.now() + delay, message.table.id, "rejoin", message.subject)
        elif message.kind == "vote" and message.topic.startswith("absent:"):
            for voter in message.ping:
                player = self.players[voter]
                if player.attentive(self.clock.now()):
                    delay = self.rand.uniform(0.5, 20) * HOUR
                    self._push(self.clock.now() + delay, message.table.id, "vote", voter, message.topic)
        self._dirty.add(message.table.id)

    # ------------------------------------------------------------------ the world

    def _push(self, when: float, table_id: int, what: str, user_id: int, topic: str = "") -> None:
        self._counter += 1
        heapq.heappush(self.agenda, (when, self._counter, what, table_id, user_id, topic))

    def _player(self, index: int) -> Player:
        user_id = 10_000 + index
        quiet_at = None
        if self.rand.random() < QUIET_SHARE:
            quiet_at = START + self.rand.uniform(0, self.days) * DAY
        quiet_hours = None
        if self.rand.random() < 0.3:
            begin = self.rand.randrange(20, 24)
            quiet_hours = (begin, self.rand.randrange(5, 9))
        pings = self.rand.choices(["every", "turn", "reminders", "nothing"], [6, 2, 1, 1])[0]
        # Most answer within hours, some take days: lognormal around a personal median.
        median = self.rand.choice(DELAYS) * HOUR
        return Player(user_id, f"p{index}", median, quiet_at, quiet_hours, pings)

    async def open_tables(self) -> None:
        """Open every table (kinds and clocks in turn) and seat its players; at least one stays."""
        assert self.svc is not None
        kinds = registry.kinds()
        index = self.shard * 100_000
        for number in range(self.shard, self.tables, self.shards):
            kind = kinds[number % len(kinds)]
            rules = registry.get(kind)
            count = self.rand.randint(rules.min_players, rules.max_players)
            users = []
            for _ in range(count):
                player = self._player(index)
                index += 1
                self.players[player.user_id] = player
                users.append(player.user_id)
            # Somebody at every table keeps playing: a table nobody attends has nobody to wait for.
            self.players[users[0]].quiet_at = None
            for user_id in users:
                player = self.players[user_id]
                quiet = f"{player.quiet_hours[0]}-{player.quiet_hours[1]}" if player.quiet_hours else None
                await self.svc.time.set_pings(user_id, player.pings, quiet, 0)
            preset = PRESETS[(number // len(kinds)) % len(PRESETS)]
            table = await self.svc.open_table(
                kind, f"clock={preset}", guild_id=1, channel_id=2, host_id=users[0],
                host_name=self.players[users[0]].name,
            )
            for user_id in users[1:]:
                await self.svc.join(table.id, user_id, self.players[user_id].name)
            await self.svc.start(table.id, users[0])
            self.seats[table.id] = users
            self._dirty.add(table.id)

    async def _look(self, table_id: int) -> None:
        """Plan an answer for every awaited, attentive player of a table that changed."""
        assert self.store is not None
        now = self.clock.now()
        # The running seat clocks are exactly the seats the table waits on (cheaper than a view).
        for clock in await self.store.seat_clocks(table_id):
            if clock.running_since is None:
                continue
            user_id = clock.user_id
            player = self.players[user_id]
            if (table_id, user_id) in self.planned or not player.attentive(now):
                continue
            delay = self._delay(player)
            self.planned.add((table_id, user_id))
            self._push(now + delay, table_id, "answer", user_id)

    def _delay(self, player: Player) -> float:
        """Return how long the player takes this time (lognormal around their median, capped)."""
        return min(self.rand.lognormvariate(0, 0.8) * player.median_delay, MAX_DELAY)

    async def _rejoin(self, table_id: int, user_id: int) -> None:
        assert self.svc is not None
        if self.players[user_id].attentive(self.clock.now()):
            with contextlib.suppress(TableError):
                await self.svc.rejoin(table_id, user_id)
            self._dirty.add(table_id)

    async def _answer(self, table_id: int, user_id: int) -> None:
        """The player sits down: takes their seat back if needed, then plays their whole turn."""
        assert self.svc is not None
        self.planned.discard((table_id, user_id))
        if not self.players[user_id].attentive(self.clock.now()):
            return
        assert self.store is not None
        clock = next((c for c in await self.store.seat_clocks(table_id) if c.user_id == user_id), None)
        if clock is None or clock.running_since is None:
            return  # the table ended, or moved on without this player (a stand-in played)
        if clock.absent or clock.out_since is not None:
            with contextlib.suppress(TableError):
                await self.svc.rejoin(table_id, user_id)
        choices = await self.svc.choices(table_id, user_id)
        for _ in range(MAX_TURN_MOVES):
            if not choices:
                break
            try:
                reply = await self.svc.act(table_id, user_id, self.rand.choice(choices).value)
            except TableError:
                self.errors += 1
                break
            self.moves += 1
            # The mover's private note carries their next choices, as a DM would show them.
            note = next((n for n in reply.private if n.user_id == user_id), None)
            choices = list(note.choices) if note is not None else await self.svc.choices(table_id, user_id)
        self._dirty.add(table_id)

    async def _vote(self, table_id: int, user_id: int, topic: str) -> None:
        assert self.svc is not None
        if not self.players[user_id].attentive(self.clock.now()):
            return
        # A player gives an absent seat one more day now and then, but not forever.
        asked = self.waited[(table_id, topic)]
        weights = [5, 1, 4] if asked == 0 else [5, 1, 0]
        choice = self.rand.choices(["skip", "bot", "wait"], weights)[0]
        if choice == "wait":
            self.waited[(table_id, topic)] += 1
        try:
            await self.svc.vote(table_id, user_id, topic, choice)
            self.votes += 1
        except TableError:
            pass  # the vote closed meanwhile (decided, or the player came back)

    # ------------------------------------------------------------------ the run

    async def run(self, folder: Path) -> dict[str, Any]:
        """Run the simulation in a folder; return the summary."""
        began = time.perf_counter()
        self.path = str(folder / "clock-bench.db")
        await self.open()
        await self.open_tables()
        end = START + self.days * DAY
        next_restart = START + 7 * DAY
        while self.clock.now() < end:
            self.clock.advance(STEP)
            now = self.clock.now()
            assert self.svc is not None
            await self.svc.scheduler.run_due()
            while self.agenda and self.agenda[0][0] <= now:
                _, _, what, table_id, user_id, topic = heapq.heappop(self.agenda)
                if what == "answer":
                    await self._answer(table_id, user_id)
                elif what == "rejoin":
                    await self._rejoin(table_id, user_id)
                else:
                    await self._vote(table_id, user_id, topic)
            dirty, self._dirty = self._dirty, set()
            for table_id in dirty:
                await self._look(table_id)
            if now >= next_restart:
                await self.restart()
                next_restart += 7 * DAY
        summary = await self._summary(end)
        assert self.store is not None and self.svc is not None
        self.jobs.update(self.svc.scheduler.ran)
        summary.update({f"jobs_{kind}": count for kind, count in sorted(self.jobs.items())})
        await self.store.close()
        summary["seconds"] = round(time.perf_counter() - began, 1)
        summary["cpu_seconds"] = round(time.process_time(), 1)
        return summary

    async def _summary(self, end: float) -> dict[str, Any]:
        assert self.store is not None and self.svc is not None
        finished = stalled = 0
        recorded: list[str] = []
        for table_id in self.seats:
            table = await self.svc.table(table_id)
            if table.status == "finished":
                finished += 1
            elif table.status == "active" and table.updated_at < end - 10 * DAY:
                stalled += 1
            recorded += [key for key, kind, _ in await self.store.notices(table_id) if kind == "reminder"]
        overdue = [w for w in await self.store.due(end - HOUR, limit=100_000) if w.kind == "remind"]
        lost = [key for key in recorded if self.delivered[key] == 0]
        return {
            "tables": len(self.seats),
            "days": self.days,
            "players": len(self.players),
            "moves": self.moves,
            "stand_in_moves": self.stand_ins,
            "votes": self.votes,
            "finished": finished,
            "stalled": stalled,
            "reminders": self.reminders,
            "reminders_doubled": sum(1 for n in self.delivered.values() if n > 1),
            "reminders_missed": len(lost) + len(overdue),
            "restarts": self.restarts,
            "errors": self.errors,
        }


async def simulate(tables: int, days: int, seed: int, shard: int = 0, shards: int = 1) -> dict[str, Any]:
    """Run one shard of the simulation on a temporary database (in /dev/shm when there)."""
    saved = render.board, render.private
    render.board = lambda *args, **kwargs: None  # type: ignore[assignment]
    render.private = lambda *args, **kwargs: None  # type: ignore[assignment]
    shm = Path("/dev/shm")
    try:
        with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
            return await Sim(tables, days, seed, shard, shards).run(Path(folder))
    finally:
        render.board, render.private = saved


def _shard(args: tuple[int, int, int, int, int]) -> dict[str, Any]:
    return asyncio.run(simulate(*args))


def run(tables: int, days: int, seed: int, workers: int) -> dict[str, Any]:
    """Run the simulation in ``workers`` processes (each a bot process with its own database).

    Like bot processes that each own a range of Discord shards, each worker owns every
    ``workers``-th table. Counts are summed; ``seconds`` is the wall time of the whole run.
    """
    began = time.perf_counter()
    jobs = [(tables, days, seed, shard, workers) for shard in range(workers)]
    if workers == 1:
        parts = [_shard(jobs[0])]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_shard, jobs))
    total: dict[str, Any] = {}
    for part in parts:
        for key, value in part.items():
            total[key] = total.get(key, 0) + value if key != "days" else value
    total["workers"] = workers
    total["restarts_per_service"] = parts[0]["restarts"]
    total["seconds"] = round(time.perf_counter() - began, 1)
    return total


def report(summary: dict[str, Any]) -> str:
    """Return the summary as the bench's last line."""
    return json.dumps(summary)
