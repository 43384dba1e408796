"""The table service: lobby, seats, turn flow, locking and loading.

Its other parts are collaborators, each a class in its own module with its own calls, built
here: the games on offer (``svc.catalogue``), reading a table (``svc.reads``), ``/game why``
(``svc.why``), servers and one user's record (``svc.servers``), bot seats (``svc.bots``),
judging a move (``svc.judging``), what a move tells whom (``svc.composer``), what the service
says by itself, undo, votes and spectators (``svc.play``) and a table's log, history file and
replay (``svc.history``). ``loaded`` holds the loaded table they all work on, ``tablecache``
keeps loaded tables in memory and ``kept`` reads and commits through it. The lobby's words
(options, seat order) are in ``lobby``; what plays itself after a move, and the seat settings that
govern it, in ``forced``.

Pure asyncio: no Discord types cross this boundary. Drawing, and rules work that can run for
milliseconds (composing what a move tells whom, a bot's choice, a replay), run off the event
loop (drawing processes, ``asyncio.to_thread``) so none stalls the gateway heartbeat; a short
rules call (judging a move, finding what plays itself, a kept view) runs on the loop, as a
worker thread would hold the interpreter's lock as long and the hop costs more
(docs/performance.md, "Hops to threads"). Each table has one ``asyncio.Lock`` so its moves are
applied one at a time, and the store's version check catches a second process writing the
same table.

Log lines name the table, the seat and the action only: never a move's arguments, a view or an
event's text, any of which may hold a secret.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import NoReturn

from rules import registry
from rules.contract import RESIGN, Event, Move, Result, Rules, RulesError, State
from service import metrics
from service.asyncplay import AsyncPlay, Outlet
from service.bots import BotSeats, played_by, shown_name
from service.catalogue import Catalogue
from service.clock import Clock, SystemClock, game_options, split_options
from service.compose import Composer, legal_moves_of, name_seats
from service.drawings import Drawings, move_asked
from service.forced import ASK_PREF, AUTO_LIMIT, AUTO_PREF, REACTIONS_PREF, forced_move
from service.history import TableHistory
from service.judge import Judging
from service.kept import KeptTables
from service.loaded import (  # re-exported: cogs and tests import these from here
    _INDEX_TOKEN,
    Offer,
    _clip,
    _known_id,
    _Outcome,
    _Table,
    move_value,
    offered_token,
    offered_value,
)
from service.lobby import parse_options, renumbered, seat_order, spelled
from service.naming import automatic_label
from service.notices import Notice
from service.notify import PingLedger
from service.reads import TableReads
from service.repeats import Repeats, typed_key
from service.replies import DAMAGED, LOBBY_HINT, Board, PublicView, Reply, TableError
from service.scheduler import Scheduler
from service.servers import PAUSED, Servers
from service.tablecache import TableCache, cache_size
from service.timekeeper import Timekeeper
from service.why import WhyReads
from store import (
    DELIVER,
    CorruptTable,
    DamagedSnapshot,
    DueWork,
    NotDurable,
    SeatRecord,
    StaleVersion,
    Store,
    StoreError,
    TableRecord,
)

__all__ = [
    "ASK_PREF",
    "AUTO_PREF",
    "DAMAGED",
    "LOBBY_HINT",
    "REACTIONS_PREF",
    "Offer",
    "TableService",
    "move_value",
    "offered_token",
    "offered_value",
    "parse_options",
    "seat_order",
]

log = logging.getLogger("conclave.service")

THREAD_NAME_LIMIT = 100
SAVED_BOARD = "The board will follow."
SAVED_LATER = f"Your move is saved; {SAVED_BOARD[0].lower()}{SAVED_BOARD[1:]}"
"""Said after a change the store accepted when its board could not be composed at once."""

UNSYNCED = "I could not make the last moves safe on disk, so I showed nothing of them. Try again soon."
"""Said when the disk refused the fsync of saved moves (``Store.durable``)."""


class TableService:
    """Own tables: open, join, leave, start, act, abandon, and read them back for players."""

    def __init__(
        self,
        store: Store,
        *,
        seed_source: Callable[[], int] | None = None,
        clock: Clock | None = None,
        outlet: Outlet | None = None,
        cached_tables: int | None = None,
    ) -> None:
        self.store = store
        # Loaded tables stay in memory (``service.tablecache``); the store drops each one it changes.
        self.cache = TableCache(cache_size() if cached_tables is None else cached_tables)
        store.watch_changes(self.cache.changed)
        self._seed_source = seed_source or (lambda: secrets.randbits(63))
        self._locks: dict[int, asyncio.Lock] = {}
        self.repeats = Repeats()
        self.pinged = PingLedger()
        self.drawings = Drawings()  # every drawing shown, once per table, version and viewer
        # One clock for the service and the store: a seat's time is measured on the same scale
        # as the times the store writes.
        self.clock: Clock = clock or SystemClock()
        store.use_clock(self.clock.now)
        self.scheduler = Scheduler(store, self.clock)
        self.outlet = outlet
        self.time = Timekeeper(self)
        self.play = AsyncPlay(self)  # what it says by itself, undo, votes, spectators
        self.history = TableHistory(self)
        # The read side: collaborators with their own calls (``svc.reads.status(...)``).
        self.catalogue = Catalogue()
        self.composer = Composer(self.drawings, self.catalogue, self.cache, self.thread_name)
        self.reads = TableReads(self)
        self.why = WhyReads(self.reads)
        self.servers = Servers(self)
        self.bots = BotSeats(self)
        self.kept = KeptTables(lambda: self.store, self.cache, self.time.prefs)
        self.judging = Judging(self.cache, self.kept, self.repeats, self.clock, self.bots, self._load_active)
        self.scheduler.handle("undo-expire", self._undo_expire_work)
        self.scheduler.handle(DELIVER, self._deliver_work)

    # ------------------------------------------------------------------ the lobby

    async def open_table(
        self,
        kind: str,
        options: str | dict[str, str] | None,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
    ) -> TableRecord:
        """Open a table in the lobby with the host seated; the caller then makes its thread."""
        rules = self.catalogue.rules_for(kind)
        chosen = parse_options(options) if isinstance(options, str) or options is None else dict(options)
        chosen = spelled(rules, chosen)
        self.catalogue.check_option_names(rules, chosen)
        try:
            # The server's defaults (its moderators' settings, read now) unless the host chose.
            table_options, chosen = split_options(await self.servers.table_defaults(guild_id) | chosen)
            full = rules.check_options(chosen) | table_options
        except RulesError as exc:
            raise TableError(exc.sentence) from None
        table = await self.store.create_table(
            rules.kind, f"{host_name}'s table", full, guild_id, channel_id, host_id
        )
        await self.store.add_seat(table.id, host_id, host_name, None)
        log.info("table %s opened (%s)", table.id, kind)
        return table

    def thread_name(self, table: TableRecord) -> str:
        """Return the name of a table's thread, e.g. ``Institute #12 — alice's table``."""
        title = self.catalogue.rules_for(table.kind).title
        return _clip(f"{title} #{table.id} — {table.name}", THREAD_NAME_LIMIT)

    async def attach_thread(self, table_id: int, thread_id: int) -> None:
        """Record the thread the table plays in."""
        await self.store.set_thread(table_id, thread_id)

    async def table(self, table_id: int, *, fresh: bool = False) -> TableRecord:
        """Return a table, or raise TableError when it does not exist.

        ``fresh`` reads the row even when the table is kept in memory: a web page may be served
        by a process that does not play the table, whose kept copy another process can outdate;
        a kept copy older than the row is dropped, so what is read next is read afresh.
        """
        await self._durable()  # a move committed a moment ago is read once it is on the disk
        cached = self.cache.get(table_id)
        if cached is not None and not fresh:
            return cached.record
        try:
            table = await self.store.table(table_id) if _known_id(table_id) else None
        except CorruptTable as exc:
            await self._close_damaged(table_id, str(exc))
        if table is None:
            raise TableError("That table does not exist.")
        if cached is not None and cached.record != table:
            self.cache.changed(table_id)
        return table

    async def table_in_thread(self, thread_id: int | None) -> TableRecord:
        """Return the table played in a thread, or raise TableError outside one."""
        cached = None if thread_id is None else self.cache.in_thread(thread_id)
        if cached is not None:
            return cached.record
        try:
            table = None if thread_id is None else await self.store.table_for_thread(thread_id)
        except CorruptTable as exc:
            assert exc.table_id is not None
            await self._close_damaged(exc.table_id, str(exc))
        if table is None:
            raise TableError("Use this command inside a table's thread.")
        return table

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """Return the seats of a table (by seat number once started, else join order)."""
        return list(await self.kept.row(table_id, "seats", lambda: self.store.seats(table_id)))

    async def join(self, table_id: int, user_id: int, name: str) -> Reply:
        """Seat a user at a table in the lobby."""
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._need_lobby(table)
            rules = self.catalogue.rules_for(table.kind)
            seats = await self.store.seats(table_id)
            if any(s.user_id == user_id for s in seats):
                raise TableError("You already have a seat at this table.")
            if len(seats) >= rules.max_players:
                raise TableError(f"This table is full ({rules.max_players} seats).")
            await self._store_call(self.store.add_seat(table_id, user_id, name, None))
            seats = await self.store.seats(table_id)
        log.info("table %s: a player joined (%d seated)", table_id, len(seats))
        text = f"{name} takes a seat. {self._lobby_line(rules, seats)} {LOBBY_HINT}"
        # The lobby message is a living board too: each seat taken edits it (no post, no ping).
        board = Board(table.id, table.version, text, fresh=False)
        return Reply(table, f"You joined {self.thread_name(table)}.", board)

    async def leave(self, table_id: int, user_id: int) -> Reply:
        """Free a user's seat in the lobby; in a game, leave it as the game's rules allow."""
        if (await self.table(table_id)).status == "active":
            return await self._resign(table_id, user_id)
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._need_lobby(table)
            seats = await self.store.seats(table_id)
            mine = next((s for s in seats if s.user_id == user_id), None)
            if mine is None:
                raise TableError("You have no seat at this table.")
            if user_id == table.host_id:
                raise TableError("You host this table: use /game abandon to close it.")
            await self._store_call(self.store.remove_seat(table_id, user_id))
            seats = await self.store.seats(table_id)
        log.info("table %s: a player left (%d seated)", table_id, len(seats))
        rules = self.catalogue.rules_for(table.kind)
        text = f"{mine.name} leaves. {self._lobby_line(rules, seats)} {LOBBY_HINT}"
        return Reply(table, "You left the table.", Board(table.id, table.version, text, fresh=False))

    async def check_leave(self, table_id: int, user_id: int) -> None:
        """Refuse, before asking to confirm, a user who could not leave the table (no seat there)."""
        if not any(s.user_id == user_id for s in await self.store.seats(table_id)):
            raise TableError("You have no seat at this table.")

    async def leave_refusal(self, table_id: int, user_id: int) -> str | None:
        """Return why the user cannot leave this game in progress (its rules refuse), or None.

        Asked before /game leave asks to confirm, so nobody confirms a leave that is then refused.
        """
        loaded = await self._load_active(table_id)
        seat = loaded.seat_of(user_id)
        if seat is None:
            return "You have no seat at this table."
        try:
            await asyncio.to_thread(loaded.rules.resign, loaded.state, seat)
        except RulesError as exc:
            return f"{exc.sentence} To end the game instead, use /game abandon."
        return None

    async def _resign(self, table_id: int, user_id: int) -> Reply:
        """Leave a game in progress: the resign move, logged and replayed like any other."""
        try:
            reply = await self.act(table_id, user_id, Move.of(RESIGN))
        except TableError as exc:
            # A game that cannot go on without a player (every two-player game) ends by abandoning.
            raise TableError(f"{exc.sentence} To end the game instead, use /game abandon.") from None
        await self.time.away.left(user_id, table_id)  # the last person to leave pauses the table
        return replace(reply, answer="You left the game; the others play on without you.")

    async def set_dm_ok(self, table_id: int, user_id: int, ok: bool) -> None:
        """Record whether a DM to this seated user got through."""
        await self.store.set_dm_ok(table_id, user_id, ok)

    async def start(self, table_id: int, user_id: int) -> Reply:
        """Start the game (host only): draw the seed, fix the seat order, deal, post the board."""
        async with self._lock(table_id):
            table = await self.table(table_id)
            self._need_lobby(table)
            if user_id != table.host_id:
                raise TableError("Only the host can start the game.")
            rules = self.catalogue.rules_for(table.kind)
            seats = await self.store.seats(table_id)
            try:
                rules.check_players(len(seats))
            except RulesError as exc:
                raise TableError(exc.sentence) from None
            self.bots.need_a_person(seats)
            seed = self._seed_source()
            order = seat_order(seed, [s.user_id for s in seats])

            def deal() -> tuple[State, list[int]]:
                state = rules.setup(len(seats), game_options(table.options), seed)
                return state, [order[n] for n in rules.waiting_on(state)]

            state, waiting = await asyncio.to_thread(deal)
            by_user = {s.user_id: s for s in seats}
            timing = self.time.timing(table, {s.user_id for s in seats if s.bot})
            ticket = await self.kept.start_ticket(table_id, seats, (AUTO_PREF, REACTIONS_PREF, ASK_PREF))
            try:
                table = await self.store.start(table_id, seed, order, state, waiting, timing)
            except StaleVersion:
                raise TableError("This game has already started.") from None
            log.info("table %s started with %d seats", table_id, len(seats))
            self.time.committed(table_id, timing.clocks)
            seats_now = renumbered({n: by_user[u] for n, u in enumerate(order)})
            ticket[1]["seats"] = [seats_now[n] for n in sorted(seats_now)]
            shown = {n: replace(s, name=shown_name(s)) for n, s in seats_now.items()}
            # Composed on the kept table: the views the opening shows are those the reads give back.
            loaded = self.kept.keep_committed(_Table(table, state, rules, shown), ticket)
            try:
                reply = await asyncio.to_thread(self.composer.compose, loaded, None, [], None, opening=True)
                return await self.play.after_move(reply)
            except Exception:
                log.exception("table %s: started, but its opening board failed", table_id)
                return self._saved(table, f"The game has begun. {SAVED_BOARD}")

    # ------------------------------------------------------------------ play

    async def act(
        self,
        table_id: int,
        user_id: int,
        move: str | Move,
        *,
        expected_version: int | None = None,
        offer: Offer | None = None,
    ) -> Reply:
        """Apply one move for the user's seat and return what to post, DM and ping.

        ``expected_version`` (from a button or select) refuses a move made on a board that has
        since changed; ``offer`` does the same for a panel stamped with its own fingerprint; a
        ``#version.index`` token carries its version. All three are checked under the table's
        lock (``StaleOffer``). A second process writing the table meanwhile makes the store
        refuse the commit; the move is then read and applied again once on the fresh state,
        never twice.
        """
        # Typed text carries no version the player saw: the same text sent twice at once is refused.
        typed = _unstamped(move) if expected_version is None and offer is None else None
        started = time.perf_counter()
        with move_asked():  # its pictures are drawn in the order the moves were asked
            return await self._act(table_id, user_id, move, typed, started, expected_version, offer)

    async def _act(
        self,
        table_id: int,
        user_id: int,
        move: str | Move,
        typed: str | None,
        started: float,
        expected_version: int | None,
        offer: Offer | None,
    ) -> Reply:
        async with self._lock(table_id):
            for attempt in (1, 2):
                judged = await self.judging.judge(table_id, user_id, move, typed, expected_version, offer)
                loaded, seat, done = judged
                version = loaded.record.version
                result = done.result
                waiting = [loaded.seats[n].user_id for n in done.waiting]
                memories = await self.bots.bot_memories(loaded, loaded.state, done.state)
                timing = self.time.timing(loaded.record, _bot_users(loaded))
                ticket = self.kept.ticket(table_id)
                # The last board's public view, worked out at its version (taken before the commit
                # drops the kept table): the new board marks what changed since.
                earlier = self.cache.recall(loaded, "public")
                try:
                    new_version = await self.store.commit_move(
                        table_id,
                        version,
                        seat,
                        played_by(done.move.to_json()),
                        [e.to_json() for e in done.events],
                        done.state,
                        waiting if result is None else [],
                        None if result is None else result.to_json(),
                        memories=memories,
                        timing=timing,
                        sync_later=True,  # made durable while the reply is composed (_after_commit)
                    )
                except StaleVersion:
                    # The store dropped the cached table with the refused commit: read it afresh.
                    if attempt == 2:
                        raise TableError("The table changed while you moved: please try again.") from None
                    log.info("table %s: stale version %s, reloading once", table_id, version)
                    continue
                except StoreError:
                    log.exception("table %s: commit failed", table_id)
                    raise TableError("I could not save that move: nothing changed. Try again.") from None
                break
            log.info("table %s seat %s %s -> v%s", table_id, seat, done.move.action, new_version)
            metrics.move_applied(loaded.record.kind, time.perf_counter() - started)
            self.time.committed(table_id, timing.clocks)
            record = replace(
                loaded.record,
                version=new_version,
                status="active" if result is None else "finished",
                result=None if result is None else result.to_json(),
            )
            played = f"You played: {done.label}."
            if typed is not None:  # saved: the same text sent again at once is a double send
                self.repeats.note(table_id, user_id, typed, self.clock.now(), new_version)
            after = self.kept.keep_committed(_Table(record, done.state, loaded.rules, loaded.seats), ticket)
            try:
                reply = await self._after_commit(after, loaded.state, done, seat, earlier)
            except NotDurable:
                log.exception("table %s: v%s could not be synced to disk", table_id, new_version)
                raise TableError(UNSYNCED) from None
            except Exception:
                # The move, its clocks and its delivery are saved together: the delivery follows
                # from the store (the scheduler, or the next start), so the answer must say so.
                log.exception("table %s: v%s is saved, but its board could not be composed", table_id,
                              new_version)
                await self._durable()
                return self._saved(record, f"{played} {SAVED_LATER}")
            if typed is not None:  # the moves that played themselves after it left this version
                self.repeats.note(table_id, user_id, typed, self.clock.now(), reply.table.version)
            return replace(reply, answer=played)

    async def _after_commit(
        self, after: _Table, before: State, done: _Outcome, seat: int, earlier: object = None
    ) -> Reply:
        """Play what plays itself after a saved move, then compose what it tells whom.

        ``earlier``: the public view (``PublicView``) of ``before`` if it was worked out already.
        """
        after, events, played, result = await self._auto_resolve(after, list(done.events), done.result)
        automatic, at = tuple(label for label, _ in played), tuple(n for _, n in played)
        shown = earlier.view if isinstance(earlier, PublicView) else None
        compose = functools.partial(
            self.composer.compose, result=result, automatic=automatic, automatic_at=at, shown_before=shown
        )
        reply = await asyncio.to_thread(compose, after, before, events, seat)
        # Nothing of the move is shown before its commit is on the disk (its fsync ran beside
        # the compose: ``commit_move(sync_later=True)``); the spectators' news is the first.
        await self.store.durable()
        now_waiting = [] if result is not None else [
            after.seats[n].user_id for n in after.rules.waiting_on(after.state)
        ]
        return await self.play.after_move(reply, waiting=now_waiting)

    def _saved(self, record: TableRecord, said: str) -> Reply:
        """Answer a change the store accepted whose board could not be made: it follows later."""
        self.scheduler.wake()
        return Reply(record, said, None)

    async def delivered(self, reply: Reply) -> None:
        """Record that a reply's board and DMs went out (its move's delivery is done)."""
        if reply.board is not None and reply.table.status != "lobby":
            await self.store.delivered(reply.table.id, reply.board.version, self.clock.now())

    async def catch_up(self, table_id: int) -> Reply | None:
        """Compose what a table's undelivered moves owe the thread; None when every one went out.

        The board now, with the public events since the last delivered move, a ping and a
        private note for every seat the game waits on, and each seat's private events: what a
        delivery cut short by a failure or a kill never sent.
        """
        pending = await self.store.undelivered(table_id)
        if pending is None:
            return None
        since, _ = pending
        loaded = await self._load(table_id)
        events = [Event.from_json(e) for m in await self.store.moves(table_id, since) for e in m.events]
        reply = await asyncio.to_thread(self.composer.compose, loaded, None, events, None)
        return await self.time.decorate(reply)

    async def _deliver_work(self, work: DueWork) -> None:
        """Deliver a move whose own delivery did not finish (a failure, a kill): through the outlet."""
        table = await self.store.table(work.table_id)
        if table is None or await self.store.undelivered(table.id) is None:
            return
        if self.outlet is None:
            # Nobody to deliver to (a service without a bot): the work is done with.
            await self.store.delivered(table.id, table.version, self.clock.now())
            return
        await self.play.emit(Notice(table, DELIVER, "", key=work.key), strict=True)

    async def resume_deliveries(self) -> None:
        """Make every undelivered move due now (a start: no delivery of this process is in flight)."""
        if await self.store.expedite(DELIVER, self.clock.now()):
            self.scheduler.wake()

    async def _auto_resolve(
        self, table: _Table, events: list[Event], result: Result | None
    ) -> tuple[_Table, list[Event], list[tuple[str, int]], Result | None]:
        """Play what no seat needs to decide (called under the table's lock, after a move).

        A forced decision (one legal move, on a prompt the game declares auto-resolvable) is
        played unless the seat set ``auto`` to "off"; a reaction window is declined for a seat
        that set ``reactions`` to "pass"; a question the game presumes an answer to is answered
        so unless the seat set ``ask`` to "on" (or ``auto`` to "off"). Each is stored as that
        seat's own move, logged as automatic. Returns the table after them, every event, their
        labels (each with the number of public events before its own, so the board tells it in
        place) and the result.
        """
        table_id = table.record.id
        off = await self.kept.seat_prefs(table_id, AUTO_PREF)
        passing = await self.kept.seat_prefs(table_id, REACTIONS_PREF)
        asking = await self.kept.seat_prefs(table_id, ASK_PREF)
        labels: list[tuple[str, int]] = []
        for _ in range(AUTO_LIMIT):
            if result is not None or table.record.status != "active":
                break
            # On the loop: a look at the prompts and the kept legal moves (~0.1 ms), less than a hop.
            found = forced_move(table, off, passing, asking, self._legal_of(table))
            if found is None:
                break
            seat, move = found
            rules, state = table.rules, table.state
            # Shown on the public board: words that name nothing hidden (service.naming).
            label = automatic_label(rules, state, seat, move)
            try:
                after, more = await asyncio.to_thread(rules.apply, state, seat, move)
            except RulesError:
                break
            result = rules.result(after) if rules.is_over(after) else None
            waiting = [table.seats[n].user_id for n in rules.waiting_on(after)]
            memories = await self.bots.bot_memories(table, None, after)
            timing = self.time.timing(table.record, _bot_users(table))
            ticket = self.kept.ticket(table_id)
            try:
                version = await self.store.commit_move(
                    table_id,
                    table.record.version,
                    seat,
                    move.to_json(),
                    [e.to_json() for e in more],
                    after,
                    waiting if result is None else [],
                    None if result is None else result.to_json(),
                    memories=memories,
                    timing=timing,
                )
            except StoreError:
                log.info("table %s: automatic move not saved (the table changed)", table_id)
                break
            self.time.committed(table_id, timing.clocks)
            log.info("table %s seat %s %s (automatic) -> v%s", table_id, seat, move.action, version)
            record = replace(
                table.record,
                version=version,
                status="active" if result is None else "finished",
                result=None if result is None else result.to_json(),
            )
            table = self.kept.keep_committed(_Table(record, after, rules, table.seats), ticket)
            # The seat tag alone: the board names it ("bob (P2): Pass"), never "bob (P2) bob: Pass".
            labels.append((f"{self.composer.mark(table, seat)}: {label}", sum(e.public for e in events)))
            events.extend(more)
        return table, events, labels, result

    def _legal_of(self, table: _Table) -> Callable[[int], list[Move]]:
        """Return a seat's legal moves at the table's version, listed once (the next move reads them)."""
        return functools.partial(legal_moves_of, self.cache, table)

    async def auto_play(self, table_id: int) -> Reply | None:
        """Play now whatever plays itself (after a seat changed its ``reactions`` or ``auto``
        setting); return what to deliver, or None when nothing was due."""
        async with self._lock(table_id):
            try:
                loaded = await self._load_active(table_id)
            except TableError:
                return None
            after, events, played, result = await self._auto_resolve(loaded, [], None)
            automatic, at = tuple(label for label, _ in played), tuple(n for _, n in played)
            if not automatic:
                return None
            compose = self.composer.compose
            reply = await asyncio.to_thread(
                compose, after, loaded.state, events, None,
                result=result, automatic=automatic, automatic_at=at,
            )
            reply = await self.play.after_move(reply)
            named = name_seats(after.rules, after.names())
            said = "; ".join(named(a) for a in automatic)
            return replace(reply, answer=f"Played automatically: {said}.")

    async def replay(self, table_id: int) -> bool:
        """Replay the move log from the seed and say whether it gives the stored snapshot."""
        loaded = await self._load(table_id)
        record = loaded.record
        if record.seed is None:
            return False
        logged = [(m.seat, m.move) for m in await self.store.moves(table_id)]
        args = (record.kind, len(loaded.seats), record.options, record.seed, logged)
        state = await asyncio.to_thread(registry.replay, *args)
        return state == loaded.state

    async def _rebuild(self, table_id: int) -> None:
        """Replay a table's sound move log and store the snapshot it gives (the stored one is damaged)."""
        record = await self.table(table_id)
        seats = [s for s in await self.store.seats(table_id) if s.seat is not None]
        moves = await self.store.moves(table_id)
        assert record.seed is not None
        logged = [(m.seat, m.move) for m in moves]
        state = await asyncio.to_thread(
            registry.replay, record.kind, len(seats), record.options, record.seed, logged
        )
        await self.store.repair_snapshot(table_id, record.version, state)

    # ------------------------------------------------------------------ closing

    async def abandon(self, table_id: int, user_id: int, *, manage_server: bool = False) -> Reply:
        """Close a table: at once for the host or a server manager, else when every player agrees."""
        async with self._lock(table_id):
            table = await self.table(table_id)
            if table.status in ("finished", "abandoned"):
                raise TableError("This table is already closed.")
            seats = await self.store.seats(table_id)
            seated = {s.user_id for s in seats if s.bot is None}  # bots never vote
            if table.status == "active":
                # A player who left the game (resigned) is never needed, nor counted.
                seated &= set(await self.time.active_players(table_id))
            if user_id == table.host_id or manage_server:
                await self.store.set_status(table_id, "abandoned")
                return self._abandoned(table, "The table was closed.")
            if user_id not in seated:
                if any(s.user_id == user_id for s in seats):
                    raise TableError("You left this game: the players still in it decide whether to abandon.")
                raise TableError("Only the host, a server manager or the players can abandon this table.")
            if table.status == "lobby":
                raise TableError("Use /game leave to leave a table in the lobby.")
            before = await self.store.abandon_voters(table_id)
            again = user_id in before
            voters = before if again else await self.store.add_abandon_vote(table_id, user_id)
            if seated <= voters:
                await self.store.set_status(table_id, "abandoned")
                return self._abandoned(table, "Every player agreed: the table was closed.")
            if again:
                # A second press (or two at once): the vote stands, and the thread hears it once.
                return Reply(table, "Your vote to abandon is already counted.", None)
        name = next(s.name for s in seats if s.user_id == user_id)
        count = len(voters & seated)
        text = f"{name} votes to abandon ({count} of {len(seated)}); every player must agree."
        return Reply(table, "Your vote to abandon is counted.", Board(table.id, table.version, text))

    def _abandoned(self, table: TableRecord, text: str) -> Reply:
        log.info("table %s abandoned", table.id)
        closed = replace(table, status="abandoned")
        return Reply(closed, "The table is closed.", Board(table.id, table.version, text, finished=True))

    # ------------------------------------------------------------------ helpers

    async def _undo_expire_work(self, work: DueWork) -> None:
        # Done by the scheduler once this returns: a kill before then runs it again (it is idempotent).
        await self.play.undo_expired(work.table_id, work.payload["topic"])

    def _lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    @staticmethod
    def _need_lobby(table: TableRecord) -> None:
        if table.status != "lobby":
            started = table.status == "active"
            raise TableError("The game has already started." if started else "This table is closed.")

    @staticmethod
    def _lobby_line(rules: Rules, seats: list[SeatRecord]) -> str:
        names = ", ".join(s.name for s in seats) or "nobody"
        if rules.min_players == rules.max_players:
            need = f"{rules.min_players}"
        else:
            need = f"{rules.min_players}-{rules.max_players}"
        return f"Seated ({len(seats)}/{need}): {names}."

    @staticmethod
    async def _store_call(call: Awaitable[None]) -> None:
        try:
            await call
        except StoreError:
            raise TableError("The table changed meanwhile: look again and retry.") from None

    async def _load(self, table_id: int) -> _Table:
        """Return a started table with its snapshot, rules and seats: the cached one, else loaded."""
        if not _known_id(table_id):
            raise TableError("That table does not exist.")
        await self._durable()  # a move committed a moment ago is read once it is on the disk
        cached = self.cache.get(table_id)
        if cached is not None:
            return cached
        seen = self.cache.generation(table_id)
        try:
            record, state = await self._load_sound(table_id)
        except CorruptTable:
            # The log itself is damaged: nothing can be trusted to replay. Keep every row.
            await self._close_damaged(table_id, "the move log, seed or seats fail their checks")
        except StoreError:
            raise TableError("That table does not exist.") from None
        rules = self.catalogue.rules_for(record.kind)
        # A seat a bot plays for its person goes by the bot's name on every board and line.
        every = await self.store.seats(table_id)
        seats = {s.seat: replace(s, name=shown_name(s)) for s in every if s.seat is not None}
        loaded = _Table(record, state, rules, seats)
        # Kept only if nothing changed the table while it was read (``TableCache.put``).
        self.cache.put(loaded, seen, {"seats": every})
        return loaded

    async def _durable(self) -> None:
        """Wait until every move this process committed is on the disk (at once when it is)."""
        if not self.store.syncing():
            return
        try:
            await self.store.durable()
        except NotDurable:
            log.exception("the database file could not be synced to disk")
            raise TableError(UNSYNCED) from None

    async def _close_damaged(self, table_id: int, why: str) -> NoReturn:
        """Close a table whose saved game is damaged (every row kept) and tell the user so."""
        log.error("table %s: its saved game fails its checks; the table is closed", table_id)
        await self.store.close_damaged(table_id, why)
        raise TableError(DAMAGED) from None

    async def _load_sound(self, table_id: int) -> tuple[TableRecord, State]:
        """Load a table's snapshot; a damaged one over a sound log is rebuilt from the log first."""
        try:
            return await self.store.load(table_id)
        except DamagedSnapshot:
            log.warning("table %s: its snapshot is damaged; rebuilding it from the move log", table_id)
        try:
            await self._rebuild(table_id)
        except (RulesError, KeyError, TypeError, ValueError) as exc:
            # The log replays no more (an engine changed?): the table cannot go on.
            log.error("table %s: the move log does not replay (%s)", table_id, type(exc).__name__)
            raise CorruptTable(f"Table {table_id}: the move log does not replay.") from None
        return await self.store.load(table_id)

    async def _load_active(self, table_id: int) -> _Table:
        table = await self.table(table_id)
        self._need_active(table)
        if await self.kept.paused(table):
            raise TableError(PAUSED)
        return await self._load(table_id)

    @staticmethod
    def _need_active(table: TableRecord) -> None:
        """Refuse a table whose game is not in play (a lobby, a finished or closed table)."""
        if table.status == "lobby":
            raise TableError("The game has not started yet.")
        if table.status != "active":
            raise TableError(
                "This game is over: the table is closed."
                if table.status == "finished"
                else "This table is closed."
            )

def _bot_users(table: _Table) -> set[int]:
    """Return the users whose seat a bot plays now (no reminder, no deadline for them)."""
    return {s.user_id for s in table.seats.values() if s.bot}


def _unstamped(move: str | Move) -> str | None:
    """Return the repeat key of typed text that carries no version (not a ``#version.index`` token)."""
    if isinstance(move, Move) or _INDEX_TOKEN.fullmatch(move.strip()):
        return None
    return typed_key(move)
