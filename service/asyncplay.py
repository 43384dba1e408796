"""The service's calls for tables that live for weeks: undo, votes, spectators, history, stats.

A mixin of ``TableService`` (it uses the table lock and loading of ``tables.py`` and the
composing of ``compose.py``), kept apart so the turn flow there stays short. Clocks, reminders
and absent seats live in ``service.timekeeper``; the move log's undo rows in ``service.undo``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import statistics
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from rules.contract import Event, Move
from service import digest
from service.bots import BOT_MOVE
from service.clock import VOTE_TIME, game_options, iso_time, relative
from service.naming import own_or_public
from service.notices import Notice, SeatTime
from service.notify import PingLedger
from service.repeats import REPEATED_UNDO, Repeats
from service.replay import replay_gif
from service.replies import Reply, TableError, WaitingTable, alt_text, tag_namer
from service.undo import (
    UNDO,
    UNDO_CHOICES,
    UndoPlan,
    effective,
    plan_undo,
    read_topic,
    replay,
    undo_topic,
)
from store import CorruptTable, StaleVersion, StoreError, TableRecord
from store.rows import DIGESTS

if TYPE_CHECKING:
    from service.bots import BotSeats
    from service.catalogue import Catalogue
    from service.compose import Composer
    from service.kept import KeptTables
    from service.loaded import _Table
    from service.reads import TableReads
    from service.scheduler import Scheduler
    from service.timekeeper import Timekeeper
    from store import Store

log = logging.getLogger("conclave.service")

Outlet = Callable[[Notice | Reply], Awaitable[None]]
LOG_PAGE = 15
"""Log lines on one page of /game log."""
ASKED = "asked"
"""The asker's own row in an undo vote's votes: the vote was opened (never counted)."""
NOT_OPEN = "That vote is not open."
UNDO_KEY = "undo"
"""The repeat key of an unstamped undo (``service.repeats``)."""


@dataclass(frozen=True)
class LogPage:
    """One page of a table's public log: lines oldest first, the page number (0 = newest)."""

    table_id: int
    lines: tuple[str, ...]
    page: int
    pages: int


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


class AsyncPlay:
    """Undo, votes, spectators, history and stats; mixed into TableService."""

    store: Store
    clock: Any
    scheduler: Scheduler
    time: Timekeeper
    outlet: Outlet | None
    repeats: Repeats
    pinged: PingLedger
    kept: KeptTables

    if TYPE_CHECKING:

        def _lock(self, table_id: int) -> asyncio.Lock: ...
        async def _load(self, table_id: int) -> _Table: ...
        async def _load_active(self, table_id: int) -> _Table: ...
        async def table(self, table_id: int) -> TableRecord: ...
        catalogue: Catalogue
        reads: TableReads
        bots: BotSeats
        composer: Composer

        def thread_name(self, table: TableRecord) -> str: ...
        async def act(
            self, table_id: int, user_id: int, move: str | Move, *, expected_version: int | None = None
        ) -> Reply: ...

    # ------------------------------------------------------------------ plumbing

    async def emit(self, message: Notice | Reply, *, strict: bool = False) -> None:
        """Hand what the service says by itself to the outlet (the bot posts it).

        Never raises, unless ``strict``: due work that must not be lost (a reminder, a vote,
        a delivery) lets the failure reach the scheduler, which runs it again later.
        """
        if self.outlet is None:
            return
        try:
            await self.outlet(message)
        except Exception:
            if strict:
                raise
            log.exception("table %s: the outlet failed", message.table.id)

    def table_lock(self, table_id: int) -> asyncio.Lock:
        """Return the lock that serialises a table's changes."""
        return self._lock(table_id)

    async def effective_moves(self, table_id: int) -> list[tuple[int, Move]]:
        """Return (seat, move) of every move in force, oldest first (undone moves left out)."""
        return [(r.seat, Move.from_json(r.move)) for r in effective(await self.store.moves(table_id))]

    async def stand_in_move(self, table_id: int, skipped: set[int]) -> tuple[int, Move] | None:
        """Return (user, the game's default move) for the first skipped seat the table waits on.

        A seat handed to a bot is no stand-in's: the bot seats play it (``BotSeats``).
        """
        loaded = await self._load(table_id)
        rules, state = loaded.rules, loaded.state

        def choose() -> tuple[int, Move] | None:
            for seat in rules.waiting_on(state):
                user = loaded.seats[seat].user_id
                if user not in skipped or loaded.seats[seat].bot:
                    continue
                move = rules.default_move(state, seat)
                if move is not None:
                    return user, move
            return None

        return await asyncio.to_thread(choose)

    async def after_move(
        self, reply: Reply, *, waiting: list[int] | None = None, undone: bool = False
    ) -> Reply:
        """Run the clocks and the spectators after a change; return the reply with the time line.

        ``waiting``: the users the table waits on now, when the caller knows them (a move);
        ``undone``: the change took a move back (its redo pings nobody twice, ``PingLedger``).
        """
        table, clocks = await self.time.after_change(reply.table.id, reply.table, waiting)
        reply = await self.time.decorate(reply, clocks=clocks, table=table)
        if reply.board is not None:
            ping = self.pinged.once(reply.table.id, reply.board, undone=undone)
            reply = replace(reply, board=replace(reply.board, ping=ping))
        await self._tell_spectators(reply)
        return reply

    # ------------------------------------------------------------------ votes

    async def vote(self, table_id: int, user_id: int, topic: str, choice: str) -> str:
        """Count a vote (on an absent seat, or on taking a move back); return the voter's answer."""
        if topic.startswith("undo:"):
            return await self._undo_vote(table_id, user_id, topic, choice)
        return await self.time.vote(table_id, user_id, topic, choice)

    async def rejoin(self, table_id: int, user_id: int) -> str:
        """Take back a seat that was out of time or played for its absent player."""
        return await self.time.rejoin(table_id, user_id)

    # ------------------------------------------------------------------ undo

    async def undo(self, table_id: int, user_id: int, *, expected_version: int | None = None) -> Reply:
        """Take back the user's last move, or open a vote when others moved or something was revealed.

        ``expected_version`` is the table version the asker saw (the Undo button's board, the
        table as ``/game undo`` found it), checked under the lock: two requests at once take back
        one move. Without one, a second undo within ``REPEAT_WINDOW`` is refused.
        """
        async with self._lock(table_id):
            loaded = await self._load_active(table_id)
            if expected_version is None:
                now = self.clock.now()
                self.repeats.check(table_id, user_id, UNDO_KEY, now, loaded.record.version, REPEATED_UNDO)
            seat = next((n for n, s in loaded.seats.items() if s.user_id == user_id), None)
            if seat is None:
                raise TableError("You have no seat at this table.")
            version = loaded.record.version
            if expected_version is not None and expected_version != version:
                raise TableError("Nothing to take back from there: the game moved on (or it was taken back).")
            records = await self.store.moves(table_id)
            plan = await asyncio.to_thread(
                plan_undo, loaded.rules, loaded.record, len(loaded.seats), records, seat
            )
            if plan.solo:
                reply = await self._take_back(loaded, seat, plan)
                self.repeats.note(table_id, user_id, UNDO_KEY, self.clock.now(), reply.table.version)
            else:
                topic = undo_topic(plan.target, version, seat)
                voters = [u for u in await self.time.active_players(table_id) if u != user_id]
                await self.store.clear_votes(table_id, topic)
                # The asker's row marks the vote as opened: a vote button nobody was offered counts nothing.
                await self.store.cast_vote(table_id, topic, user_id, ASKED, self.clock.now())
                key = f"undo-expire:{table_id}:{topic}"
                await self.scheduler.add("undo-expire", self.clock.now() + VOTE_TIME, key, table_id, None,
                                         {"topic": topic})
                name = loaded.seats[seat].name
                text = (
                    f"{name} asks to take back: {plan.public} ({plan.why}). The other players vote; "
                    f"a majority decides, and the vote lapses {relative(self.clock.now() + VOTE_TIME)} "
                    "or as soon as anyone moves."
                )
                # A seat on autopilot is never pinged (its person comes back with /game rejoin).
                present = set(await self.time.away.taking_part(table_id))
                await self.emit(Notice(loaded.record, "vote", text, topic=topic, choices=UNDO_CHOICES,
                                       ping=tuple(v for v in voters if v in present)))
                self.repeats.note(table_id, user_id, UNDO_KEY, self.clock.now(), version)
                return Reply(loaded.record, f"The others must agree, since {plan.why}: they vote now.", None)
        return await self.after_move(reply, undone=True)

    async def _take_back(self, loaded: _Table, seat: int, plan: UndoPlan) -> Reply:
        """Store the undo row with the rebuilt snapshot (under the table's lock); return the board.

        The thread reads the move's public name; only the mover's answer names it in full.
        """
        from service.loaded import _Table

        versions, state = plan.versions, plan.state
        rules, record = loaded.rules, loaded.record
        name = loaded.seats[seat].name
        later = len(versions) - 1
        more = f" (and {later} later move{'s' * (later != 1)})" if later else ""
        event = Event("undo", f"{name} took back: {plan.public}{more}.")
        waiting = [loaded.seats[n].user_id for n in rules.waiting_on(state)]
        memories = await self.bots.bot_memories(loaded, None, state)
        timing = self.time.timing(record, {s.user_id for s in loaded.seats.values() if s.bot})
        try:
            new_version = await self.store.commit_move(
                record.id, record.version, seat, {"action": UNDO, "args": {"versions": list(versions)}},
                [event.to_json()], state, waiting, memories=memories, timing=timing,
            )
        except StaleVersion:
            raise TableError("That was already taken back, or the game moved on.") from None
        except StoreError:
            log.exception("table %s: undo not saved", record.id)
            raise TableError("I could not save that: nothing changed. Try again.") from None
        log.info("table %s seat %s took back %d move(s) -> v%s", record.id, seat, len(versions), new_version)
        self.time.committed(record.id, timing.clocks)
        after = _Table(replace(record, version=new_version), state, rules, loaded.seats)
        try:
            reply = await asyncio.to_thread(self.composer.compose, after, loaded.state, [event], seat)
        except Exception:
            # Saved with its clocks and its delivery: the board follows from the store.
            log.exception("table %s: v%s is saved, but its board could not be composed", record.id,
                          new_version)
            return Reply(after.record, f"You took back: {plan.label}. The board will follow.", None)
        return replace(reply, answer=f"You took back: {plan.label}.")

    async def _undo_vote(self, table_id: int, user_id: int, topic: str, choice: str) -> str:
        target, version, seat = read_topic(topic)
        if choice not in ("yes", "no"):
            raise TableError("Vote yes or no.")
        async with self._lock(table_id):
            loaded = await self._load_active(table_id)
            if loaded.record.version != version:
                raise TableError("That vote lapsed: the game moved on.")
            asker = loaded.seats[seat].user_id if seat in loaded.seats else None
            if asker is None or (await self.store.votes(table_id, topic)).get(asker) != ASKED:
                raise TableError(NOT_OPEN)
            voters = [u for u in await self.time.active_players(table_id) if u != asker]
            if user_id not in voters:
                raise TableError("Only the other seated players vote on this.")
            votes = await self.store.cast_vote(table_id, topic, user_id, choice, self.clock.now())
            count = sum(1 for u, v in votes.items() if u in voters and v == choice)
            if count * 2 <= len(voters):
                return f"Your vote ({choice}) is counted: {count} of {len(voters)}; a majority decides."
            await self.store.clear_votes(table_id, topic)
            await self.store.cancel_work(table_id, kinds=("undo-expire",))
            if choice == "no":
                await self.emit(Notice(loaded.record, "decided", "The players voted to keep the move."))
                return "Your vote decided it: the move stays."
            records = await self.store.moves(table_id)
            plan = await asyncio.to_thread(
                plan_undo, loaded.rules, loaded.record, len(loaded.seats), records, seat, target
            )
            reply = await self._take_back(loaded, seat, plan)
        await self.emit(await self.after_move(reply, undone=True))
        return "Your vote decided it: the move is taken back."

    async def undo_expired(self, table_id: int, topic: str) -> None:
        """Close an undo vote nobody decided in time: the move stays."""
        votes = await self.store.votes(table_id, topic)
        await self.store.clear_votes(table_id, topic)
        table = await self.table(table_id)
        _, version, _ = read_topic(topic)
        if table.status == "active" and table.version == version and votes is not None:
            await self.emit(Notice(table, "decided", "The vote to take back a move lapsed: the move stays."))

    # ------------------------------------------------------------------ spectators

    async def watch(self, table_id: int, user_id: int, every: str = "round") -> str:
        """Follow a table: a digest of its public moves arrives by DM every turn, round or day."""
        if every not in DIGESTS:
            raise TableError("A digest comes every turn, round or day.")
        table = await self.table(table_id)
        if table.options.get("spectators", "on") == "off":
            raise TableError("This table was opened without spectators.")
        if table.status in ("finished", "abandoned"):
            raise TableError("This table is closed.")
        if any(s.user_id == user_id for s in await self.store.seats(table_id)):
            raise TableError("You play at this table: its news reaches you already.")
        # The first digest tells what happens from now on, from the round the table is in.
        seen = await self.reads.public_view(table_id) if table.status == "active" else None
        now_round = self.catalogue.rules_for(table.kind).round_of(seen.view) if seen is not None else None
        added = await self.store.add_spectator(
            table_id, user_id, self.clock.now(), every, table.version, now_round
        )
        when = digest.EVERY_WORDS[every]
        if not added:
            return f"You already follow this table: its digest now comes {when}."
        return (
            f"You follow {self.thread_name(table)}: a digest of its public moves arrives by DM {when}. "
            "`/game unwatch` stops it."
        )

    async def unwatch(self, table_id: int, user_id: int) -> str:
        """Stop following a table."""
        table = await self.table(table_id)
        if not await self.store.remove_spectator(table_id, user_id):
            raise TableError("You do not follow this table.")
        return f"You no longer follow {self.thread_name(table)}."

    async def _tell_spectators(self, reply: Reply) -> None:
        """DM each spectator whose digest this board brings (``digest.due``): public events only."""
        board = reply.board
        if board is None or board.quiet:
            return
        now = self.clock.now()
        table_id = reply.table.id
        # Kept with the cached table: following, leaving or a digest told drops it (``store.changes``).
        rows = await self.kept.row(table_id, "spectators", lambda: self.store.spectator_rows(table_id))
        due = [s for s in rows if digest.due(s, board, now)]
        if not due:
            return
        records = await self.store.moves(reply.table.id)
        public = replace(board, ping=())
        title = self.thread_name(reply.table)
        for spectator in due:
            events = digest.public_since(records, spectator.told_version)
            text = digest.text(title, board, events)
            await self.emit(Notice(reply.table, "spectate", text, user_id=spectator.user_id, board=public))
            told = (board.version, board.round, now)
            await self.store.told_spectator(reply.table.id, spectator.user_id, *told)

    # ------------------------------------------------------------------ history

    async def log_page(self, table_id: int, page: int = 0, size: int = LOG_PAGE) -> LogPage:
        """Return one page of the whole public log; page 0 is the newest, higher pages are older."""
        lines = await self._public_lines(table_id)
        pages = max(1, -(-len(lines) // size))
        page = min(max(0, page), pages - 1)
        end = len(lines) - page * size
        return LogPage(table_id, tuple(lines[max(0, end - size) : end]), page, pages)

    async def _public_lines(self, table_id: int) -> list[str]:
        await self.table(table_id)
        records = await self.store.moves(table_id)
        return [
            event.text for r in records for event in map(Event.from_json, r.events) if event.public
        ]

    async def history(self, table_id: int, viewer: int | None = None) -> tuple[str, str]:
        """Return the log as text and as JSON (moves by seat and name, public events, times).

        Each move is named as everyone may know it (``Rules.public_label``) beside its public
        events; ``viewer``, a seated user asking for their own copy, also reads the full labels
        of their own moves (what they chose in secret). Nobody else's secret is ever in it.
        """
        table = await self.table(table_id)
        rules = self.catalogue.rules_for(table.kind)
        records = await self.store.moves(table_id)
        seated = [s for s in await self.store.seats(table_id) if s.seat is not None]
        seats = {s.seat: s.name for s in seated}
        own = next((s.seat for s in seated if viewer is not None and s.user_id == viewer), None)
        from_start = {s.seat for s in seated if s.filled_by_bot}
        in_force = {r.version for r in effective(records)}
        # Seat tags ("P2", "Red") in the public texts name their players, as the thread does.
        named = tag_namer({rules.seat_tag(n): f"{name} ({rules.seat_tag(n)})" for n, name in seats.items()})

        def player(r: Any) -> str:
            """Name who made a move: its player, or the bot that played the seat (always, or for them)."""
            name = seats.get(r.seat, "?")
            if r.seat in from_start:
                return f"{name} (a bot)"
            return f"a bot for {name}" if r.move.get("by") == BOT_MOVE else name

        def build() -> tuple[str, str]:
            state = None
            if table.seed is not None:
                state = rules.setup(len(seats), game_options(table.options), table.seed)
            entries, lines = [], [f"{self.thread_name(table)} ({table.status})"]
            for r in records:
                move = Move.from_json(r.move)
                public = [named(e["text"]) for e in r.events if e.get("seats") is None]
                undone = r.version not in in_force and move.action != UNDO
                label = "Take back" if move.action == UNDO else "(taken back)" if undone else ""
                if state is not None and not label:
                    # Named from the state the move was made on: the mover's own words, or the public's.
                    label = named(own_or_public(rules, state, r.seat, move, own))
                    state, _ = rules.apply(state, r.seat, move)
                label = label or move.action
                entries.append({
                    "version": r.version, "seat": r.seat, "player": player(r),
                    "move": label, "events": public, "at": iso_time(r.created_at), "undone": undone,
                })
                lines.append(f"#{r.version} {iso_time(r.created_at)} {player(r)}: {label}")
                lines.extend(f"    {text}" for text in public)
            data = {"table": table.id, "kind": table.kind, "status": table.status,
                    "players": seats, "result": table.result, "moves": entries}
            return "\n".join(lines) + "\n", json.dumps(data, indent=1, ensure_ascii=False)

        return await asyncio.to_thread(build)

    async def replay_image(self, table_id: int) -> bytes | None:
        """Return an animated GIF of the public board, a frame per turn up to a cap (None: no drawing)."""
        table = await self.table(table_id)
        if table.seed is None:
            return None
        rules = self.catalogue.rules_for(table.kind)
        records = effective(await self.store.moves(table_id))
        names = {s.seat: s.name for s in await self.store.seats(table_id) if s.seat is not None}
        moves = [(r.seat, Move.from_json(r.move)) for r in records]
        # Drawn in a worker thread: the event loop answers other players meanwhile.
        return await asyncio.to_thread(
            replay_gif, rules, len(names), game_options(table.options), table.seed, moves, None, names
        )

    async def replay_alt(self, table_id: int) -> str:
        """Return the replay's alt text: what it shows, and the final public position as text."""
        table = await self.table(table_id)
        public = await self.reads.public_view(table_id)
        head = f"An animated replay of {self.thread_name(table)}, turn by turn. The final position: "
        return alt_text(head + self.catalogue.rules_for(table.kind).view_text(public.view))

    # ------------------------------------------------------------------ my tables and stats

    async def mine(self, user_id: int, guild_id: int | None = None) -> list[WaitingTable]:
        """Return the tables waiting on a user, oldest wait first, with the decision and time left.

        ``guild_id``: only that server's tables (None: every server's, for ``/me``).
        """
        found = []
        for waiting in await self.reads.waiting_on(user_id, guild_id):
            times: list[SeatTime] = await self.time.seat_times(waiting.table.id)
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

    async def rebuild_check(self, table_id: int) -> bool:
        """Whether the snapshot equals the moves in force replayed from the seed (undo included)."""
        loaded = await self._load(table_id)
        records = await self.store.moves(table_id)
        players = len(loaded.seats)
        state = await asyncio.to_thread(replay, loaded.rules, loaded.record, players, records)
        return state == loaded.state
