"""Simulate many tables over weeks of a hand-moved clock: clocks, reminders, absent players.

``python -m bench clock --tables 1000 --days 30 --seed 1`` opens tables of every game kind with
every clock preset, seats simulated players who answer after random delays (some go quiet for
good, some keep quiet hours, some turn pings off), and runs the real service, store and
scheduler on a temporary SQLite file while the clock moves in half-hour steps. The service is
restarted (store closed, a new service opened) every simulated week. The drawings are switched
off: the bench measures the time machinery, not Pillow.

The last line is JSON: tables, finished, stalled (active tables, not paused, that neither moved
nor ended in the last ten simulated days; ``stalled_tables`` says for each what it waits on: every
running seat, in person, skipped, played by a bot or out of time, and its open due work), paused
(tables where nobody takes part any more, which wait for a person by design), reminders
(delivered), reminders_doubled (a reminder key delivered twice), reminders_missed (a reminder
the store recorded as sent but nobody received, or one left unsent more than an hour past its
time, or set aside), restarts, kills, set_aside (due work set
aside as failing), undelivered (moves whose delivery is still open at the end, after the
scheduler has run once more a minute on, as a running bot's would), ``jobs_<kind>``
(due work run: reminders, deadlines, vote expiries, stand-in runs, deliveries), seconds and
cpu_seconds. Compare runs by the counts and cpu_seconds: on a shared machine the wall time of
the same run varies by a third or more.

``--kill-every N`` kills the process about every N-th step at random points (deterministic for
the seed): a step is a store transaction (killed before it, or right after its commit) or a
message handed to Discord (killed before it, or right after Discord accepted it). A kill
abandons the service mid-effect (``Killed`` is a BaseException: no handler of ours catches it),
and a new service opens on the same file at once, as ``docker --restart`` brings the bot back.
The simulated Discord honours message nonces as the real one does (a message whose nonce it
accepted within the last minutes is not posted again), which is how a reminder sent again
after a kill reaches its player once.
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
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import render
from rules import registry
from service import DELIVER, Reply, TableError, TableService
from service.clock import DAY, HOUR, ManualClock
from service.notices import Notice
from store import Store, TableWait
from store.duework import DELIVERY_GRACE

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
NONCE_WINDOW = 300.0
"""Seconds Discord remembers a message's nonce (``enforce_nonce``: "the past few minutes")."""


class Killed(BaseException):
    """The process died here (SIGKILL): nothing of ours catches it, the next service starts over."""


class KillableStore(Store):
    """The real store, with a kill before a transaction or right after its commit (``--kill-every``)."""

    killer: Callable[[], str | None] | None = None

    @contextlib.asynccontextmanager
    async def _transaction(self, mode: str = "IMMEDIATE") -> AsyncIterator[Any]:
        when = self.killer() if self.killer is not None else None
        if when == "before":
            raise Killed
        async with super()._transaction(mode) as db:
            yield db
        if when == "after":
            raise Killed

    async def _in_one_trip(self, body: Any, *, durable: bool = True, synced_by: Any = None) -> Any:
        # A move's commit and the delivered mark run in one trip, not through ``_transaction``.
        when = self.killer() if self.killer is not None else None
        if when == "before":
            raise Killed
        done = await super()._in_one_trip(body, durable=durable, synced_by=synced_by)
        if when == "after":
            raise Killed
        return done


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
    kill_every: int = 0
    """Kill the process about every this many steps (0: never)."""
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
    redelivered: int = 0
    restarts: int = 0
    moves: int = 0
    votes: int = 0
    stand_ins: int = 0
    errors: int = 0
    jobs: Counter[str] = field(default_factory=Counter)
    """Due work run, by kind, over every service of the run (restarts included)."""
    kills: int = 0
    nonces: dict[str, float] = field(default_factory=dict)
    """When Discord first accepted each keyed message (a second within ``NONCE_WINDOW`` is dropped)."""
    store: Store | None = None
    svc: TableService | None = None
    path: str = ""
    _counter: int = 0
    _countdown: int = 0
    _killing: bool = False
    _kill_rand: random.Random = field(init=False)
    _dirty: set[int] = field(default_factory=set)
    """Tables that changed since the players last looked."""

    def __post_init__(self) -> None:
        self.rand = random.Random(self.seed * 1000 + self.shard)
        # Kills draw from their own generator: the world's draws are the same with or without them.
        self._kill_rand = random.Random(self.seed * 7919 + self.shard)
        self._countdown = self._next_kill()

    # ------------------------------------------------------------------ the service

    async def open(self) -> TableService:
        """Open the store and a service on it, as a fresh process would."""
        store = await KillableStore.open(self.path, clock=self.clock.now)
        store.killer = self._kill_point
        self.store = store
        self.svc = TableService(self.store, seed_source=lambda: self.rand.randrange(1 << 62),
                                clock=self.clock, outlet=self._outlet)
        await self.svc.scheduler.recover()  # what the scheduler's task does first in a bot
        return self.svc

    async def restart(self) -> None:
        """Close the store and open a new service: only the database survives."""
        assert self.store is not None and self.svc is not None
        self.jobs.update(self.svc.scheduler.ran)
        await self.store.close()
        self.restarts += 1
        await self.open()

    async def crash(self) -> None:
        """The process was killed: abandon the service mid-effect and start a new one on the file."""
        assert self.store is not None and self.svc is not None
        self.kills += 1
        self.jobs.update(self.svc.scheduler.ran)
        self._killing = False  # no kill while the dead process's file is closed and a new one opens
        await self.store.close()
        await self.open()
        self._killing = self.kill_every > 0

    def _next_kill(self) -> int:
        return self._kill_rand.randint(1, 2 * self.kill_every) if self.kill_every else 0

    def _kill_point(self) -> str | None:
        """Count one step; at the chosen one, say whether the process dies before or after it."""
        if not self._killing:
            return None
        self._countdown -= 1
        if self._countdown > 0:
            return None
        self._countdown = self._next_kill()
        return self._kill_rand.choice(("before", "after"))

    def _discord_accepts(self, key: str) -> bool:
        """Whether Discord posts a keyed message (no message with its nonce within the window)."""
        if not key:
            return True
        now = self.clock.now()
        first = self.nonces.get(key)
        if first is not None and now - first < NONCE_WINDOW:
            return False
        self.nonces[key] = now
        return True

    async def _outlet(self, message: Notice | Reply) -> None:
        when = self._kill_point()
        if when == "before":
            raise Killed
        await self._receive(message)
        if when == "after":
            raise Killed

    async def _receive(self, message: Notice | Reply) -> None:
        """The players and Discord get a message (a board, a reminder, a vote...)."""
        assert self.svc is not None
        if isinstance(message, Reply):
            self.stand_ins += 1
            self._dirty.add(message.table.id)
            await self.svc.delivered(message)
            return
        if message.kind == DELIVER:
            # A move's delivery left open (a kill between the move and its board): the board now.
            pending = await self.svc.catch_up(message.table.id)
            if pending is not None:
                self.redelivered += 1
                await self.svc.delivered(pending)
            self._dirty.add(message.table.id)
            return
        if not self._discord_accepts(message.key):
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
            await self.svc.delivered(await self.svc.start(table.id, users[0]))
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
                await self.svc.play.rejoin(table_id, user_id)
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
                await self.svc.play.rejoin(table_id, user_id)
        # A player picks from what a board or DM offered, so each pick carries the version it
        # was offered at (a pick is never typed text: the same code twice in a row is two moves).
        seen = await self.store.table(table_id)
        version = seen.version if seen is not None else 0
        choices = await self.svc.reads.choices(table_id, user_id)
        for _ in range(MAX_TURN_MOVES):
            if not choices:
                break
            try:
                reply = await self.svc.act(
                    table_id, user_id, self.rand.choice(choices).value, expected_version=version
                )
            except TableError:
                self.errors += 1
                break
            self.moves += 1
            await self.svc.delivered(reply)  # the board and DMs went out, as the bot marks them
            # The mover's private note carries their next choices, as a DM would show them.
            note = next((n for n in reply.private if n.user_id == user_id), None)
            version = reply.table.version if note is None else note.version
            reads = self.svc.reads
            choices = list(note.choices) if note is not None else await reads.choices(table_id, user_id)
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
            await self.svc.play.vote(table_id, user_id, topic, choice)
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
        self._killing = self.kill_every > 0
        while self.clock.now() < end:
            self.clock.advance(STEP)
            while True:
                try:
                    await self._step()
                    break
                except Killed:
                    # Back at once on the same file; the step goes on where the world left it.
                    await self.crash()
            if self.clock.now() >= next_restart:
                next_restart += 7 * DAY
                try:
                    await self.restart()
                except Killed:
                    # Killed while the new service started (its re-plan, say): start over, as above.
                    await self.crash()
        self._killing = False
        await self._settle()
        summary = await self._summary(end)
        assert self.store is not None and self.svc is not None
        self.jobs.update(self.svc.scheduler.ran)
        summary.update({f"jobs_{kind}": count for kind, count in sorted(self.jobs.items())})
        await self.store.close()
        summary["seconds"] = round(time.perf_counter() - began, 1)
        summary["cpu_seconds"] = round(time.process_time(), 1)
        return summary

    async def _settle(self) -> None:
        """Let the scheduler run once more, as the bot's would a minute after the last half hour.

        A kill between a move's commit and its board leaves the delivery due ``DELIVERY_GRACE``
        later; at the end of the run there is no later, so ``undelivered`` would count a board that
        a running bot posts a minute on. Nobody plays in this minute and nothing is killed.
        """
        assert self.svc is not None
        self.clock.advance(DELIVERY_GRACE + 1)
        await self.svc.scheduler.run_due()

    async def _step(self) -> None:
        """Run one half hour: due work, then the players whose moment came, then their looks."""
        now = self.clock.now()
        assert self.svc is not None
        await self.svc.scheduler.run_due()
        while self.agenda and self.agenda[0][0] <= now:
            _, _, what, table_id, user_id, topic = heapq.heappop(self.agenda)
            # A kill in the middle of this leaves the table to be looked at again.
            self._dirty.add(table_id)
            if what == "answer":
                await self._answer(table_id, user_id)
            elif what == "rejoin":
                await self._rejoin(table_id, user_id)
            else:
                await self._vote(table_id, user_id, topic)
        dirty, self._dirty = self._dirty, set()
        for table_id in sorted(dirty):
            self._dirty.add(table_id)  # until looked at: a kill here looks again
            await self._look(table_id)
            self._dirty.discard(table_id)

    async def _summary(self, end: float) -> dict[str, Any]:
        assert self.store is not None and self.svc is not None
        finished = stalled = paused = 0
        recorded: list[str] = []
        waits = {wait.table.id: wait for wait in await self.store.table_waits()}
        why: list[str] = []
        for table_id in self.seats:
            table = await self.svc.table(table_id)
            if table.status == "finished":
                finished += 1
            elif table.status == "active" and await self.svc.time.away.paused(table_id):
                paused += 1  # nobody takes part any more: it waits for a person by design
            elif table.status == "active" and table.updated_at < end - 10 * DAY:
                stalled += 1
                why.append(stall_reason(waits.get(table_id), table_id, table.kind))
            recorded += [key for key, kind, _ in await self.store.notices(table_id) if kind == "reminder"]
        overdue = [w for w in await self.store.due(end - HOUR, limit=100_000) if w.kind == "remind"]
        lost = [key for key in recorded if self.delivered[key] == 0]
        aside = await self.store.set_aside_work()
        undelivered = [t for t in self.seats if await self.store.undelivered(t) is not None]
        return {
            "tables": len(self.seats),
            "days": self.days,
            "players": len(self.players),
            "moves": self.moves,
            "stand_in_moves": self.stand_ins,
            "votes": self.votes,
            "finished": finished,
            "stalled": stalled,
            "paused": paused,
            "reminders": self.reminders,
            "reminders_doubled": sum(1 for n in self.delivered.values() if n > 1),
            "reminders_missed": len(lost) + len(overdue) + sum(1 for a in aside if a[1] == "remind"),
            "restarts": self.restarts,
            "kills": self.kills,
            "set_aside": len(aside),
            "undelivered": len(undelivered),
            "redelivered": self.redelivered,
            "errors": self.errors,
            "stalled_tables": why,
        }


def stall_reason(wait: TableWait | None, table_id: int, kind: str) -> str:
    """Say what a stalled table waits on: each running seat's state, and its open due work."""
    if wait is None:
        return f"table {table_id} ({kind}): paused or unreadable"
    seats = []
    for clock in wait.clocks:
        if clock.running_since is None:
            continue
        state = clock.absent or ("out of time" if clock.out_since is not None else "in person")
        if wait.bots.get(clock.user_id):
            state += f", {wait.bots[clock.user_id]} bot"
        seats.append(f"user {clock.user_id} {state}")
    work = ", ".join(sorted(kind + (f"@{user}" if user is not None else "") for kind, user in wait.open_work))
    return (f"table {table_id} ({kind}, v{wait.table.version}) waits on {'; '.join(seats) or 'nobody'}"
            f"; open work: {work or 'none'}")


async def simulate(
    tables: int, days: int, seed: int, shard: int = 0, shards: int = 1, kill_every: int = 0
) -> dict[str, Any]:
    """Run one shard of the simulation on a temporary database (in /dev/shm when there)."""
    saved = render.board, render.private
    render.board = lambda *args, **kwargs: None  # type: ignore[assignment]
    render.private = lambda *args, **kwargs: None  # type: ignore[assignment]
    shm = Path("/dev/shm")
    try:
        with tempfile.TemporaryDirectory(dir=shm if shm.is_dir() else None) as folder:
            return await Sim(tables, days, seed, shard, shards, kill_every).run(Path(folder))
    finally:
        render.board, render.private = saved


def _shard(args: tuple[int, int, int, int, int, int]) -> dict[str, Any]:
    return asyncio.run(simulate(*args))


def run(tables: int, days: int, seed: int, workers: int, kill_every: int = 0) -> dict[str, Any]:
    """Run the simulation in ``workers`` processes (each a bot process with its own database).

    Like bot processes that each own a range of Discord shards, each worker owns every
    ``workers``-th table. Counts are summed; ``seconds`` is the wall time of the whole run.
    """
    began = time.perf_counter()
    jobs = [(tables, days, seed, shard, workers, kill_every) for shard in range(workers)]
    if workers == 1:
        parts = [_shard(jobs[0])]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_shard, jobs))
    total: dict[str, Any] = {}
    for part in parts:
        for key, value in part.items():
            total[key] = total[key] + value if key in total and key != "days" else value
    total["workers"] = workers
    total["restarts_per_service"] = parts[0]["restarts"]
    total["seconds"] = round(time.perf_counter() - began, 1)
    return total


def report(summary: dict[str, Any]) -> str:
    """Return the summary as the bench's last line."""
    return json.dumps(summary)
