"""The service's calls for servers: a table found only in its own server, settings, moderators,
a server that removed the bot (its tables pause), and what the bot keeps about one user.

The service's ``servers``. Table numbers are global (one sequence for every server: they are
the store's keys and sit in every button's custom id), so a number names a table only in its
own server: ``table_in`` gives the same refusal for a table of another server as for a number
no table has, and nothing else of one server's tables reaches another's answers.
"""

from __future__ import annotations

import json
import logging
import statistics
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace

from service.clock import PRESETS, VOTE_TIME
from service.notices import SeatTime
from service.part import ServicePart
from service.replies import DAMAGED, LOBBY_HINT, Board, PrivateNote, Reply, TableError, WaitingTable
from service.undo import effective
from store import CorruptTable, SeatRecord, StoreError, TableRecord

log = logging.getLogger("conclave.service")

NOT_HERE = "There is no table with that number in this server."
"""The one refusal for a number of another server's table and for a number no table has."""
PAUSED = "This table's server removed me: the table is paused until I am back there."
OPEN_STATUSES = ("lobby", "active")

SETTINGS: dict[str, str] = {
    "channel": "the channel where `/game new` opens threads (default: any text channel)",
    "host_role": "the role that may open tables (default: everyone)",
    "clock": "the clock of new tables (none, fast, normal, relaxed; default normal)",
    "spectators": "whether new tables take spectators (on, off; default on)",
    "bots": "whether bots may be seated (on, off; default on)",
    "log_channel": "the channel where moderation events are logged (default: none)",
    "web": "whether the server has a web page listing its tables (on, off; default off)",
}
"""Every server setting, with what it does (shown by ``/conclave settings``)."""
ON_OFF = ("on", "off")


@dataclass(frozen=True)
class ServerTable:
    """One line of a server's table list for its moderators."""

    table: TableRecord
    title: str
    players: tuple[str, ...]
    waiting_on: tuple[str, ...]
    last_move: float


@dataclass(frozen=True)
class Stats:
    """A user's record: games played and won per game, median time to move, open tables.

    ``played`` and ``won`` count only games the user played to the end themselves;
    ``finished_for`` counts the others apart, by how their seat ended (``bot``, ``skip``, ``left``).
    """

    user_id: int
    played: dict[str, int]
    won: dict[str, int]
    played_for: int
    median_move_seconds: float | None
    open_tables: int
    finished_for: dict[str, int] = field(default_factory=dict)


class Servers(ServicePart):
    """Server scope, settings, moderators' calls, pausing, and one user's data (``svc.servers``)."""

    # ------------------------------------------------------------------ scope

    async def table_in(self, table_id: int, guild_id: int | None) -> TableRecord:
        """Return a table by number, only when it belongs to this server; else refuse (NOT_HERE)."""
        try:
            table = await self.svc.table(table_id)
        except TableError:
            raise TableError(NOT_HERE) from None
        if guild_id is None or table.guild_id != guild_id:
            raise TableError(NOT_HERE)
        return table

    async def check_not_paused(self, table: TableRecord) -> None:
        """Refuse a change to a table whose server removed the bot (its tables are paused)."""
        if await self.store.server_left_at(table.guild_id) is not None:
            raise TableError(PAUSED)

    # ------------------------------------------------------------------ settings

    async def server_settings(self, guild_id: int) -> dict[str, str]:
        """Return a server's settings as stored (a missing one has its default)."""
        return await self.store.server_settings(guild_id)

    async def set_server_setting(self, guild_id: int, key: str, value: str | None) -> dict[str, str]:
        """Check and store one server setting (None or ``default``: back to the default)."""
        if key not in SETTINGS:
            raise TableError(f"Settings: {', '.join(SETTINGS)}.")
        if value is not None and value.strip().casefold() in ("", "default", "reset"):
            value = None
        if value is not None:
            value = value.strip().casefold()
            allowed: Iterable[str] | None = None
            if key == "clock":
                allowed = tuple(PRESETS)
            elif key in ("spectators", "bots", "web"):
                allowed = ON_OFF
            elif not value.isdigit():
                raise TableError("Pick a channel or role for that setting.")
            if allowed is not None and value not in allowed:
                raise TableError(f"The {key} setting takes: {', '.join(allowed)}.")
        return await self.store.set_server_setting(guild_id, key, value)

    async def may_open(self, guild_id: int | None, channel_id: int, role_ids: Iterable[int]) -> None:
        """Refuse opening a table where this server's moderators do not allow it (read at use)."""
        if guild_id is None:
            raise TableError("Open tables in a server's text channel.")
        settings = await self.store.server_settings(guild_id)
        channel = settings.get("channel")
        if channel is not None and int(channel) != channel_id:
            raise TableError(f"In this server, tables open in <#{channel}>.")
        role = settings.get("host_role")
        if role is not None and int(role) not in set(role_ids):
            raise TableError("In this server, only members with the hosting role may open tables.")

    async def table_defaults(self, guild_id: int | None) -> dict[str, str]:
        """Return the table options this server gives new tables unless the host says otherwise."""
        if guild_id is None:
            return {}
        settings = await self.store.server_settings(guild_id)
        return {key: settings[key] for key in ("clock", "spectators") if key in settings}

    async def bots_allowed(self, guild_id: int | None) -> None:
        """Refuse seating bots in a server whose moderators turned them off."""
        if guild_id is not None and (await self.store.server_settings(guild_id)).get("bots") == "off":
            raise TableError("This server's moderators do not allow bots at tables.")

    # ------------------------------------------------------------------ moderators

    async def server_tables(self, guild_id: int) -> list[ServerTable]:
        """Return this server's open tables (lobby and in play), newest first, for its moderators."""
        found = []
        for table in await self.store.server_tables(guild_id, OPEN_STATUSES):
            seats = await self.store.seats(table.id)
            names = {s.user_id: s.name for s in seats}
            waiting = [] if table.status != "active" else [
                names.get(user, "?") for user, _since in await self.store.waiting_users(table.id)
            ]
            found.append(
                ServerTable(table, self.svc.thread_name(table), tuple(s.name for s in seats), tuple(waiting),
                            table.updated_at)
            )
        return found

    async def web_tables(self, guild_id: int) -> list[ServerTable]:
        """Return a server's tables in play and finished, newest first, when its page is enabled.

        A server's page lists only what its moderators chose to publish (setting ``web`` on);
        otherwise it is refused like a page that does not exist.
        """
        if (await self.store.server_settings(guild_id)).get("web") != "on":
            raise TableError("This server has no web page.")
        found = []
        for table in await self.store.server_tables(guild_id, ("active", "finished")):
            seats = await self.store.seats(table.id)
            found.append(ServerTable(table, self.svc.thread_name(table), tuple(s.name for s in seats), (),
                                     table.updated_at))
        return found

    async def hand_host(self, table_id: int, guild_id: int, user_id: int) -> str:
        """Give the host role of a table in this server to one of its seated players."""
        async with self.svc._lock(table_id):
            table = await self.table_in(table_id, guild_id)
            if table.status not in OPEN_STATUSES:
                raise TableError("This table is closed.")
            seat = await self._seat_of(table.id, user_id)
            if seat is None or seat.bot is not None:
                raise TableError("Only a player seated at the table can host it.")
            if table.host_id == user_id:
                raise TableError(f"{seat.name} hosts this table already.")
            await self.store.set_host(table.id, user_id)
        log.info("table %s: a moderator handed the host role on", table.id)
        return f"{seat.name} now hosts {self.svc.thread_name(table)}."

    async def kick(self, table_id: int, guild_id: int, user_id: int) -> Reply:
        """Remove a player from a lobby of this server (never its host: hand the role on first)."""
        table = await self.table_in(table_id, guild_id)
        if table.status != "lobby":
            raise TableError("Only a lobby's players can be removed; in a game, use a substitute.")
        if user_id == table.host_id:
            raise TableError("That player hosts the table: hand the host role to another first.")
        seat = await self._seat_of(table.id, user_id)
        if seat is None:
            raise TableError("That member has no seat at this table.")
        reply = await self.svc.leave(table.id, user_id)
        rules = self.svc.catalogue.rules_for(table.kind)
        lobby = self.svc._lobby_line(rules, await self.store.seats(table.id))
        text = f"A moderator removed {seat.name}. {lobby} {LOBBY_HINT}"
        board = Board(table.id, reply.table.version, text, fresh=False)
        return replace(reply, answer=f"{seat.name} is no longer seated.", board=board)

    async def substitute(
        self, table_id: int, guild_id: int, old_user: int, new_user: int, new_name: str
    ) -> tuple[str, PrivateNote]:
        """Seat another member in a player's place in a game of this server, mid-game.

        The seat keeps everything (its number, hand, clock, settings); returns the old player's
        name and the seat's private view for the new player.
        """
        async with self.svc._lock(table_id):
            table = await self.table_in(table_id, guild_id)
            if table.status != "active":
                raise TableError("Only a game in play takes a substitute; in a lobby, players just join.")
            await self.check_not_paused(table)
            old = await self._seat_of(table.id, old_user)
            if old is None or old.seat is None:
                raise TableError("That member has no seat in this game.")
            if await self._seat_of(table.id, new_user) is not None:
                raise TableError("That member already plays at this table.")
            try:
                await self.store.substitute_seat(table.id, old_user, new_user, new_name)
            except CorruptTable:
                await self.store.close_damaged(table.id, "the move log, seed or seats fail their checks")
                raise TableError(DAMAGED) from None
            except StoreError:
                raise TableError("The table changed meanwhile: look again and retry.") from None
            self.svc.time.forget(table.id)
        log.info("table %s: a moderator seated a substitute at seat %s", table.id, old.seat)
        await self.svc.time.after_change(table.id)
        return old.name, await self.svc.reads.hand(table.id, new_user)

    async def _seat_of(self, table_id: int, user_id: int) -> SeatRecord | None:
        return next((s for s in await self.store.seats(table_id) if s.user_id == user_id), None)

    # ------------------------------------------------------------------ a server removed the bot

    async def server_left(self, guild_id: int) -> list[int]:
        """Pause a server's tables: no clock runs, no reminder, no vote, no move. Return their ids."""
        now = self.svc.clock.now()
        if not await self.store.mark_server_left(guild_id, now):
            return []
        paused = []
        for table in await self.store.server_tables(guild_id, ("active",)):
            async with self.svc._lock(table.id):
                await self.store.cancel_work(table.id)
                self.svc.time.forget(table.id)
            paused.append(table.id)
        log.info("server %s removed the bot: %d table(s) paused", guild_id, len(paused))
        return paused

    async def server_back(self, guild_id: int) -> list[int]:
        """Resume a server's paused tables: the time away is given back to every running clock."""
        if await self.store.server_left_at(guild_id) is None:
            return []  # the usual case at every start: a read, no write
        left_at = await self.store.mark_server_back(guild_id)
        if left_at is None:
            return []
        away = max(0.0, self.svc.clock.now() - left_at)
        resumed = []
        for table in await self.store.server_tables(guild_id, ("active",)):
            async with self.svc._lock(table.id):
                await self._resume_clocks(table, away)
            resumed.append(table.id)
        log.info("server %s is back: %d table(s) resumed", guild_id, len(resumed))
        return resumed

    async def _resume_clocks(self, table: TableRecord, away: float) -> None:
        """Give a table's running clocks the time away, reopen its out-of-time votes, replan."""
        now = self.svc.clock.now()
        for clock in await self.store.seat_clocks(table.id):
            if clock.running_since is None or clock.absent:
                continue
            if clock.out_since is None:
                await self.store.update_clock(table.id, clock.user_id, bank=clock.bank + away)
            else:
                # The vote's time ran while nobody could vote: it gets its whole time again.
                key = f"expire:{table.id}:{clock.user_id}:{clock.out_since:.0f}:back{now:.0f}"
                await self.svc.scheduler.add("expire", now + VOTE_TIME, key, table.id, clock.user_id,
                                         {"out_since": clock.out_since})
        self.svc.time.forget(table.id)
        await self.svc.time.after_change(table.id)

    # ------------------------------------------------------------------ one user's data

    async def my_tables(self, user_id: int) -> list[TableRecord]:
        """Return every lobby and game a user sits at, in every server, newest first."""
        rows = await self.store.user_rows(user_id)
        ids = [row["table_id"] for row in rows["seats"] if row["status"] in OPEN_STATUSES]
        return [await self.svc.table(table_id) for table_id in sorted(ids, reverse=True)]

    async def mine(self, user_id: int, guild_id: int | None = None) -> list[WaitingTable]:
        """Return the tables waiting on a user, oldest wait first, with the decision and time left.

        ``guild_id``: only that server's tables (None: every server's, for ``/me``).
        """
        found = []
        for waiting in await self.svc.reads.waiting_on(user_id, guild_id):
            times: list[SeatTime] = await self.svc.time.seat_times(waiting.table.id)
            mine = next((t for t in times if t.user_id == user_id), None)
            if mine is not None:
                waiting = replace(waiting, deadline=mine.deadline, out_of_time=mine.out_of_time)
            found.append(waiting)
        return found

    async def stats(self, user_id: int, guild_id: int | None = None) -> Stats:
        """Return a user's games played and won per game, median time to move and open tables.

        ``guild_id``: only that server's tables (None: every server's, for ``/me stats``).
        """
        played: dict[str, int] = {}
        won: dict[str, int] = {}
        apart: dict[str, int] = {}
        gaps: list[float] = []
        finished = []
        open_tables = 0
        for table_id, kind, status, result, seat, absent in await self.store.tables_of(user_id, guild_id):
            if status == "active":
                open_tables += 1
            if status != "finished":
                continue
            finished.append(table_id)
            if absent is not None:
                # Finished by a bot or default moves, or after they left: never their game, nor their win.
                apart[absent] = apart.get(absent, 0) + 1
                continue
            played[kind] = played.get(kind, 0) + 1
            if result and seat in result.get("winners", []):
                won[kind] = won.get(kind, 0) + 1
            try:
                records = effective(await self.store.moves(table_id))
            except CorruptTable:  # one damaged old game must not hide the others: its times are left out
                log.warning("table %s: its move log is damaged; its times are left out of stats", table_id)
                continue
            previous = None
            for r in records:
                if r.seat == seat and previous is not None:
                    gaps.append(r.created_at - previous)
                previous = r.created_at
        marked = len(await self.store.played_for(finished))
        median = statistics.median(gaps) if gaps else None
        return Stats(user_id, played, won, marked, median, open_tables, apart)

    async def my_data(self, user_id: int) -> str:
        """Return, as JSON, everything the store keeps about a user (for ``/me data``)."""
        rows = await self.store.user_rows(user_id)
        stats = asdict(await self.stats(user_id))
        stats.pop("user_id")
        data = {
            "user_id": user_id,
            "about": "Everything Conclave keeps about you. Your moves are in each table's move log, "
            "which `/game history` shows.",
            **rows,
            "stats": stats,
        }
        return json.dumps(data, indent=1, ensure_ascii=False)

    async def forget_me(self, user_id: int) -> str:
        """Delete a user's preferences and spectating and rename them in closed games; not while playing."""
        playing = await self.my_tables(user_id)
        if playing:
            names = ", ".join(f"#{t.id}" for t in playing[:10])
            raise TableError(
                f"You still sit at {len(playing)} open table(s) ({names}): leave them first "
                "(`/game leave` in each thread), then ask again."
            )
        renamed = await self.store.forget_user(user_id)
        self.svc.time.forget_prefs(user_id)
        log.info("a user asked to be forgotten: %d seat(s) renamed", renamed)
        return (
            "Done: your preferences and the tables you followed are deleted, and your name in "
            f"{renamed} closed game(s) now reads \"a former player\"."
        )


def table_line(entry: ServerTable) -> str:
    """Word one table of a moderator's list (status, game, players, waiting on, last move)."""
    table = entry.table
    players = ", ".join(entry.players) or "nobody"
    waiting = f"; waiting on {', '.join(entry.waiting_on)}" if entry.waiting_on else ""
    return (
        f"#{table.id} {entry.title} — {table.status}; players: {players}{waiting}; "
        f"last change <t:{int(entry.last_move)}:R>"
    )
