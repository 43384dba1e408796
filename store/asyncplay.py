"""The store's part for asynchronous play: seat clocks, preferences, votes and spectators, over
its due work (``store.duework``). A mixin of ``store.Store``, so the same methods and SQL serve the PostgreSQL
store too (``store.pg``; ``lease_due`` then skips rows another process holds: ``SKIP LOCKED``).

Times are plain numbers (seconds since the epoch) handed in by the caller, never read here:
the service owns the clock, so a test or the bench can move it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from store.changes import changes_table
from store.duework import DELIVER, DELIVERY_GRACE, DueWorkStore, WorkItem
from store.records import StoreError, TableRecord
from store.rows import (
    ABSENT_WAYS,
    CLOCK,
    PREFS,
    SPECTATOR,
    TABLE,
    VOTE,
    WAIT,
    clock_fault,
    json_object_fault,
    prefs_fault,
    set_aside,
    sound,
    spectator_fault,
    table_fault,
    vote_fault,
    wait_fault,
)

if TYPE_CHECKING:

    from aiosqlite import Connection

CLOCK_FIELDS = frozenset({"bank", "running_since", "out_since", "absent", "played_for"})
"""The fields of a seat clock ``update_clock`` may change."""
SETTLED_FIELDS = frozenset({"bank", "out_since", "absent"})
"""The fields of a seat clock settling its vote changes (``settle_seat``)."""


@dataclass
class Timing:
    """What a commit implies for the seats' clocks, written in the commit's transaction.

    ``bank`` and ``increment`` are the table's clock preset (0 without one); ``plan`` turns the
    synced clocks and the new version into the due work they imply (reminders, the deadline,
    a stand-in's move). The store fills ``clocks`` with the clocks as committed.
    """

    bank: float
    increment: float
    plan: Callable[[list[SeatClock], int], list[WorkItem]]
    ends: tuple[str, ...] = ()
    """Kinds of a seat's due work that end when its clock stops (its reminders, its deadline)."""
    clocks: list[SeatClock] = field(default_factory=list)


@dataclass(frozen=True)
class SeatClock:
    """A seat's time bank: seconds left when it last started or stopped running.

    ``running_since`` is set while the game waits on the seat; time left at ``t`` is then
    ``bank - (t - running_since)``. ``absent`` is None, or how the seat is played for its
    absent player (``skip`` or ``bot``; ``left`` once they left the game); ``played_for`` counts
    moves made for it.
    """

    table_id: int
    user_id: int
    bank: float
    running_since: float | None
    out_since: float | None
    absent: str | None
    played_for: int
    last_reminder: float | None

    def left(self, now: float) -> float:
        """Return the seconds left in the bank at ``now`` (negative once out of time)."""
        if self.running_since is None:
            return self.bank
        return self.bank - max(0.0, now - self.running_since)

    def deadline(self) -> float | None:
        """Return when the bank runs out, or None when the clock is not running."""
        return None if self.running_since is None else self.running_since + self.bank

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> SeatClock:
        """Build a record from a row of ``seat_clocks``."""
        return cls(
            row["table_id"], row["user_id"], row["bank"], row["running_since"], row["out_since"],
            row["absent"], row["played_for"], row["last_reminder"],
        )


@dataclass(frozen=True)
class TableWait:
    """What an active table's stored state says it waits on, for re-planning its due work at start."""

    table: TableRecord
    clocks: list[SeatClock]
    bots: dict[int, str | None]
    """Per seated user, the level of the bot playing the seat now (None: its person)."""
    open_work: set[tuple[str, int | None]]
    """The (kind, user) of every piece of the table's work not yet done."""


@dataclass(frozen=True)
class UserPrefs:
    """How a user wants to be pinged, and their quiet hours in their own time zone."""

    user_id: int
    pings: str = "every"
    quiet_from: int | None = None
    quiet_to: int | None = None
    utc_offset: int = 0
    tz: str | None = None
    """An IANA time zone (``Europe/Paris``); when set, it decides the quiet hours, not ``utc_offset``."""


@dataclass(frozen=True)
class Spectator:
    """A user following a table: the digest's cadence and what the last one told."""

    user_id: int
    every: str
    told_version: int
    told_round: int | None
    told_at: float | None


class AsyncPlayStore(DueWorkStore):
    """Methods of the store for clocks, preferences, votes and spectators (due work: the base)."""

    # ------------------------------------------------------------------ seat clocks

    async def sync_clocks(self, table_id: int, start_bank: float, increment: float) -> list[SeatClock]:
        """Start and stop the seats' clocks to match who the table waits on; return every clock.

        A clock that stops loses the time since it started (the table's last update is when
        the wait ended) and gains ``increment``, capped at ``start_bank``. A seat newly waited
        on starts running at its ``waiting.since``. One transaction, so a restart between a
        move and this call is caught up by the next call.
        """
        async with self._transaction() as db:
            # Under the table's row lock (PostgreSQL), as a commit's own sync runs.
            await self._one(db, "SELECT id FROM tables WHERE id = ?" + self._dialect.row_lock, (table_id,))
            return await self._sync_clocks_in(db, table_id, start_bank, increment)

    async def _sync_clocks_in(
        self, db: Connection, table_id: int, start_bank: float, increment: float
    ) -> list[SeatClock]:
        """Sync the seats' clocks inside an open transaction (``sync_clocks``, a move's commit)."""
        # One read for the table, its seats, whom it waits on and the clocks.
        rows = await self._all(
            db,
            "SELECT tables.updated_at, seats.user_id AS seated, waiting.since, seat_clocks.*"
            " FROM tables JOIN seats ON seats.table_id = tables.id AND seats.seat IS NOT NULL"
            " LEFT JOIN waiting ON waiting.table_id = tables.id AND waiting.user_id = seats.user_id"
            " LEFT JOIN seat_clocks ON seat_clocks.table_id = tables.id"
            " AND seat_clocks.user_id = seats.user_id"
            " WHERE tables.id = ? ORDER BY seats.seat",
            (table_id,),
        )
        clocks = []
        for row in rows:
            user_id, since = row["seated"], row["since"]
            wait_damage = None if since is None else wait_fault(row)
            if wait_damage is not None:
                # A damaged start of the wait must not stop play: count it from the last change.
                where = {"table_id": table_id, "user_id": user_id}
                set_aside(WAIT, where, wait_damage, "counted from the table's last change")
                since = row["updated_at"]
                await db.execute(
                    "UPDATE waiting SET since = ? WHERE table_id = ? AND user_id = ?",
                    (since, table_id, user_id),
                )
            fault = None if row["bank"] is None else clock_fault(row)
            if fault is not None:
                # A damaged clock must not stop play: the seat starts afresh (logged).
                set_aside(CLOCK, row, fault, "reset to a fresh clock")
            if row["bank"] is None or fault is not None:
                clock = SeatClock(table_id, user_id, start_bank, since, None, None, 0, None)
                await db.execute(
                    # A fresh clock: every other column back to its default.
                    "INSERT INTO seat_clocks (table_id, user_id, bank, running_since) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (table_id, user_id) DO UPDATE SET bank = excluded.bank,"
                    " running_since = excluded.running_since, out_since = NULL, absent = NULL,"
                    " played_for = 0, last_reminder = NULL",
                    (table_id, user_id, start_bank, since),
                )
            else:
                clock = SeatClock.from_row(row)
                if clock.running_since is not None and since != clock.running_since:
                    used = max(0.0, row["updated_at"] - clock.running_since)
                    bank = min(start_bank, max(0.0, clock.bank - used) + increment)
                    clock = replace(clock, bank=bank, running_since=since, out_since=None)
                    await db.execute(
                        "UPDATE seat_clocks SET bank = ?, running_since = ?, out_since = NULL"
                        " WHERE table_id = ? AND user_id = ?",
                        (bank, since, table_id, user_id),
                    )
                elif clock.running_since is None and since is not None:
                    clock = replace(clock, running_since=since)
                    await db.execute(
                        "UPDATE seat_clocks SET running_since = ? WHERE table_id = ? AND user_id = ?",
                        (since, table_id, user_id),
                    )
            clocks.append(clock)
        return clocks

    async def _implied(
        self,
        db: Connection,
        table_id: int,
        since: int,
        version: int,
        timing: Timing | None,
        now: float,
        *,
        over: bool = False,
    ) -> None:
        """Write what a commit implies, inside its transaction: clocks, due work, the delivery.

        The move's delivery (board, DMs, pings) becomes due work that stays open until the
        thread got it (``delivered``); a game that ended drops its open reminders and deadlines.
        Without ``timing`` (the store used on its own, no service) nothing more is written.
        """
        if timing is None:
            return
        delivery: WorkItem = (
            DELIVER, now + DELIVERY_GRACE, f"{DELIVER}:{table_id}:{version}", table_id, None,
            {"since": since, "version": version},
        )
        work = [delivery]
        if over:
            await db.execute(
                "DELETE FROM due_work WHERE table_id = ? AND claimed_at IS NULL AND kind != ?",
                (table_id, DELIVER),
            )
        else:
            timing.clocks = await self._sync_clocks_in(db, table_id, timing.bank, timing.increment)
            stopped = [c.user_id for c in timing.clocks if c.running_since is None]
            if stopped and timing.ends:
                # A seat no longer waited on has nothing due: no reminder, no deadline.
                await db.execute(
                    f"DELETE FROM due_work WHERE table_id = ? AND claimed_at IS NULL"
                    f" AND kind IN ({', '.join('?' for _ in timing.ends)})"
                    f" AND user_id IN ({', '.join('?' for _ in stopped)})",
                    (table_id, *timing.ends, *stopped),
                )
            # The plan's rows first, then the delivery, as two INSERTs added them: one statement.
            work = [*timing.plan(timing.clocks, version), delivery]
        await self._add_work(db, work)

    async def table_waits(self) -> list[TableWait]:
        """Return every active table's clocks, bot seats and open work, read in one snapshot.

        Three statements for all tables, not three per table: a start after a kill reads this once.
        """
        async with self._reading() as db:
            # A paused table (its server removed the bot) waits for nothing until the server is back.
            tables = await self._all(
                db,
                "SELECT * FROM tables WHERE status = 'active' AND NOT EXISTS (SELECT 1 FROM servers"
                " WHERE servers.guild_id = tables.guild_id AND servers.left_at IS NOT NULL) ORDER BY id",
            )
            clocks = await self._all(
                db,
                "SELECT seat_clocks.*, seats.bot AS seat_bot FROM seat_clocks"
                " JOIN tables ON tables.id = seat_clocks.table_id"
                " LEFT JOIN seats ON seats.table_id = seat_clocks.table_id"
                " AND seats.user_id = seat_clocks.user_id WHERE tables.status = 'active'",
            )
            work = await self._all(
                db,
                "SELECT DISTINCT due_work.table_id, due_work.kind, due_work.user_id FROM due_work"
                " JOIN tables ON tables.id = due_work.table_id"
                " WHERE tables.status = 'active' AND due_work.claimed_at IS NULL AND due_work.failed IS NULL",
            )
        # Damaged rows are set aside as every reader does (store.rows): one never stops a start.
        waits = {
            row["id"]: TableWait(TableRecord.from_row(row), [], {}, set())
            for row in sound(tables, table_fault, TABLE)
        }
        for row in sound(clocks, clock_fault, CLOCK):
            wait = waits.get(row["table_id"])
            if wait is not None:
                wait.clocks.append(SeatClock.from_row(row))
                wait.bots[row["user_id"]] = row["seat_bot"]
        for row in work:
            if row["table_id"] in waits:
                waits[row["table_id"]].open_work.add((row["kind"], row["user_id"]))
        return list(waits.values())

    async def seat_clocks(self, table_id: int) -> list[SeatClock]:
        """Return every seat clock of a table."""
        async with self._single() as db:
            rows = await self._all(db, "SELECT * FROM seat_clocks WHERE table_id = ?", (table_id,))
        # A damaged clock is left out (the seat shows no time) until sync_clocks resets it.
        return [SeatClock.from_row(r) for r in sound(rows, clock_fault, CLOCK)]

    async def update_clock(self, table_id: int, user_id: int, **fields: Any) -> None:
        """Change some fields of one seat clock (bank, out_since, absent, played_for)."""
        sql, params = _clock_update(table_id, user_id, fields, CLOCK_FIELDS, "Seat clocks have no fields")
        async with self._transaction() as db:
            await db.execute(sql, params)

    async def settle_seat(
        self, table_id: int, user_id: int, topic: str, work: list[WorkItem], **fields: Any
    ) -> None:
        """Close a seat's vote in one transaction: its clock's new fields, votes and expiry gone, work added.

        One decision, one transaction: a kill can no longer drop the vote's expiry (which would
        run the decision again) before the clock and the work that follow from it are written.
        """
        refusal = "Settling a seat sets no fields"
        sql, params = _clock_update(table_id, user_id, fields, SETTLED_FIELDS, refusal)
        async with self._transaction() as db:
            await db.execute(sql, params)
            await db.execute("DELETE FROM votes WHERE table_id = ? AND topic = ?", (table_id, topic))
            await db.execute(
                "DELETE FROM due_work WHERE table_id = ? AND user_id = ? AND kind = 'expire'"
                " AND claimed_at IS NULL",
                (table_id, user_id),
            )
            await self._add_work(db, work)

    async def played_for(self, table_ids: Iterable[int]) -> set[int]:
        """Return the tables among ``table_ids`` where some seat was played for its player."""
        ids = list(table_ids)
        if not ids:
            return set()
        async with self._single() as db:
            rows = await self._all(
                db,
                f"SELECT DISTINCT table_id FROM seat_clocks WHERE played_for > 0"
                f" AND table_id IN ({', '.join('?' for _ in ids)})",
                ids,
            )
        return {r["table_id"] for r in rows}

    # ------------------------------------------------------------------ user preferences

    async def user_prefs(self, user_id: int) -> UserPrefs:
        """Return a user's ping preferences (the defaults when never set)."""
        async with self._single() as db:
            row = await self._one(db, "SELECT * FROM user_prefs WHERE user_id = ?", (user_id,))
        if row is None or not sound([row], prefs_fault, PREFS):
            return UserPrefs(user_id)  # damaged preferences read as the defaults
        return UserPrefs(
            user_id, row["pings"], row["quiet_from"], row["quiet_to"], row["utc_offset"], row["tz"]
        )

    async def set_user_prefs(self, prefs: UserPrefs) -> None:
        """Store a user's ping preferences."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO user_prefs (user_id, pings, quiet_from, quiet_to, utc_offset, tz)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings,"
                " quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to,"
                " utc_offset = excluded.utc_offset, tz = excluded.tz",
                (prefs.user_id, prefs.pings, prefs.quiet_from, prefs.quiet_to, prefs.utc_offset, prefs.tz),
            )

    # ------------------------------------------------------------------ votes

    async def cast_vote(
        self, table_id: int, topic: str, user_id: int, choice: str, now: float
    ) -> dict[int, str]:
        """Record (or change) a vote on a topic; return every vote on it by user."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO votes (table_id, topic, user_id, choice, voted_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (table_id, topic, user_id) DO UPDATE SET choice = excluded.choice,"
                " voted_at = excluded.voted_at",
                (table_id, topic, user_id, choice, now),
            )
            rows = await self._all(
                db, "SELECT user_id, choice FROM votes WHERE table_id = ? AND topic = ?", (table_id, topic)
            )
        return _ballots(rows, table_id, topic)

    async def votes(self, table_id: int, topic: str) -> dict[int, str]:
        """Return the votes on a topic by user."""
        async with self._single() as db:
            rows = await self._all(
                db, "SELECT user_id, choice FROM votes WHERE table_id = ? AND topic = ?", (table_id, topic)
            )
        return _ballots(rows, table_id, topic)

    async def clear_votes(self, table_id: int, topic: str) -> None:
        """Forget the votes on a topic (it was decided)."""
        async with self._transaction() as db:
            await db.execute("DELETE FROM votes WHERE table_id = ? AND topic = ?", (table_id, topic))

    # ------------------------------------------------------------------ spectators

    @changes_table
    async def add_spectator(
        self, table_id: int, user_id: int, now: float, every: str = "round", version: int = 0,
        round_number: int | None = None,
    ) -> bool:
        """Follow a table with a digest every turn, round or day; return False when the user already
        did (the cadence changes all the same). ``version`` and ``round_number`` are where the
        first digest starts counting from."""
        async with self._transaction() as db:
            cur = await db.execute(
                "INSERT INTO spectators (table_id, user_id, since, every, told_version, told_round, told_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (table_id, user_id, now, every, version, round_number, now),
            )
            added = cur.rowcount == 1
            await cur.close()
            if not added:
                await db.execute(
                    "UPDATE spectators SET every = ? WHERE table_id = ? AND user_id = ?",
                    (every, table_id, user_id),
                )
        return added

    @changes_table
    async def remove_spectator(self, table_id: int, user_id: int) -> bool:
        """Stop following a table; return False when the user did not follow it."""
        changed = await self._changed(
            "DELETE FROM spectators WHERE table_id = ? AND user_id = ?", (table_id, user_id)
        )
        return changed == 1

    async def spectators(self, table_id: int) -> list[int]:
        """Return the users following a table, in the order they started."""
        return [s.user_id for s in await self.spectator_rows(table_id)]

    async def spectator_rows(self, table_id: int) -> list[Spectator]:
        """Return who follows a table, how often and what their last digest told, oldest first."""
        async with self._single() as db:
            rows = await self._all(
                db,
                "SELECT * FROM spectators WHERE table_id = ? ORDER BY since, user_id",
                (table_id,),
            )
        return [
            Spectator(r["user_id"], r["every"], r["told_version"], r["told_round"], r["told_at"])
            for r in sound(rows, spectator_fault, SPECTATOR)
        ]

    @changes_table
    async def told_spectator(
        self, table_id: int, user_id: int, version: int, round_number: int | None, now: float
    ) -> None:
        """Record what a spectator's digest just told: the version, its round and when."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE spectators SET told_version = ?, told_round = ?, told_at = ? "
                "WHERE table_id = ? AND user_id = ?",
                (version, round_number, now, table_id, user_id),
            )

    async def tables_of(
        self, user_id: int, guild_id: int | None = None
    ) -> list[tuple[int, str, str, dict | None, int | None, str | None]]:
        """Return (table id, kind, status, result, seat, absent) for every started table a user sits at.

        ``absent``: how the seat's clock says it is played for its person (``skip``, ``bot``,
        ``left``; None: they play it themselves, or it has no clock). ``guild_id``: only that
        server's tables (None: every server's).
        """
        where = "" if guild_id is None else " AND tables.guild_id = ?"
        params = (user_id,) if guild_id is None else (user_id, guild_id)
        async with self._single() as db:
            rows = await self._all(
                db,
                "SELECT tables.id, tables.kind, tables.status, tables.result, seats.seat,"
                " seat_clocks.absent FROM seats"
                " JOIN tables ON tables.id = seats.table_id"
                " LEFT JOIN seat_clocks ON seat_clocks.table_id = seats.table_id"
                " AND seat_clocks.user_id = seats.user_id"
                f" WHERE seats.user_id = ? AND tables.seed IS NOT NULL{where}"
                " ORDER BY tables.id",
                params,
            )
        return [
            (r["id"], r["kind"], r["status"], _result(r), r["seat"], _absent(r)) for r in rows
        ]


def _result(row: sqlite3.Row) -> dict | None:
    """Return a table's result, or None (set aside) when the row's result is damaged."""
    if row["result"] is None:
        return None
    fault = json_object_fault(row["result"])
    if fault is not None:
        set_aside(TABLE, row, f"its result is {fault}")
        return None
    return json.loads(row["result"])


def _absent(row: sqlite3.Row) -> str | None:
    """Return how a seat was played for its person; a damaged value reads as "played for" (``bot``)."""
    value = row["absent"]
    if value in ABSENT_WAYS:
        return value
    # Never credit a damaged clock's game to the person: it is shown apart, as a bot's.
    set_aside(CLOCK, {"table_id": row["id"]}, "its absent is not skip, bot or left", "counted as a bot's")
    return "bot"


def _ballots(rows: list[sqlite3.Row], table_id: int, topic: str) -> dict[int, str]:
    """Return the sound votes by user; a damaged vote is set aside, not counted."""
    kept = {}
    for row in rows:
        fault = vote_fault(row)
        if fault is None:
            kept[row["user_id"]] = row["choice"]
        else:
            set_aside(VOTE, {"table_id": table_id, "topic": topic}, fault)
    return kept


def _clock_update(
    table_id: int, user_id: int, fields: dict[str, Any], allowed: frozenset[str], refusal: str
) -> tuple[str, tuple[Any, ...]]:
    """Return the UPDATE of some fields of one seat clock; refuse none, or a field not allowed here."""
    if not fields or not set(fields) <= allowed:
        raise StoreError(f"{refusal} {sorted(set(fields) - allowed)}.")
    sets = ", ".join(f"{name} = ?" for name in fields)
    sql = f"UPDATE seat_clocks SET {sets} WHERE table_id = ? AND user_id = ?"
    return sql, (*fields.values(), table_id, user_id)
