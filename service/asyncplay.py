"""The service's calls for tables that live for weeks: what it says by itself, undo, votes, spectators.

``AsyncPlay`` is the service's ``play``: it uses the table lock and loading of ``tables.py`` and
the composing of ``compose.py`` through the service, kept apart so the turn flow there stays
short. Clocks, reminders and absent seats live in ``service.timekeeper``; the move log's undo
rows in ``service.undo``; a table's log, history file and replay in ``service.history``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.contract import Event, Move
from service import digest
from service.clock import VOTE_TIME, relative
from service.notices import Notice
from service.part import ServicePart
from service.repeats import REPEATED_UNDO
from service.replies import Reply, TableError
from service.undo import UNDO, UNDO_CHOICES, UndoPlan, plan_undo, read_topic, undo_topic
from store import StaleVersion, StoreError
from store.rows import DIGESTS

if TYPE_CHECKING:
    from service.loaded import _Table

log = logging.getLogger("conclave.service")

Outlet = Callable[[Notice | Reply], Awaitable[None]]
ASKED = "asked"
"""The asker's own row in an undo vote's votes: the vote was opened (never counted)."""
NOT_OPEN = "That vote is not open."
UNDO_KEY = "undo"
"""The repeat key of an unstamped undo (``service.repeats``)."""


class AsyncPlay(ServicePart):
    """What the service says by itself, undo, votes and spectators (``svc.play``)."""

    # ------------------------------------------------------------------ plumbing

    async def emit(self, message: Notice | Reply, *, strict: bool = False) -> None:
        """Hand what the service says by itself to the outlet (the bot posts it).

        Never raises, unless ``strict``: due work that must not be lost (a reminder, a vote,
        a delivery) lets the failure reach the scheduler, which runs it again later.
        """
        if self.svc.outlet is None:
            return
        try:
            await self.svc.outlet(message)
        except Exception:
            if strict:
                raise
            log.exception("table %s: the outlet failed", message.table.id)

    def table_lock(self, table_id: int) -> asyncio.Lock:
        """Return the lock that serialises a table's changes."""
        return self.svc._lock(table_id)

    async def stand_in_move(self, table_id: int, skipped: set[int]) -> tuple[int, Move] | None:
        """Return (user, the game's default move) for the first skipped seat the table waits on.

        A seat handed to a bot is no stand-in's: the bot seats play it (``BotSeats``).
        """
        loaded = await self.svc._load(table_id)
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
        table, clocks = await self.svc.time.after_change(reply.table.id, reply.table, waiting)
        reply = await self.svc.time.decorate(reply, clocks=clocks, table=table)
        if reply.board is not None:
            ping = self.svc.pinged.once(reply.table.id, reply.board, undone=undone)
            reply = replace(reply, board=replace(reply.board, ping=ping))
        await self._tell_spectators(reply)
        return reply

    # ------------------------------------------------------------------ votes

    async def vote(self, table_id: int, user_id: int, topic: str, choice: str) -> str:
        """Count a vote (on an absent seat, or on taking a move back); return the voter's answer."""
        if topic.startswith("undo:"):
            return await self._undo_vote(table_id, user_id, topic, choice)
        return await self.svc.time.vote(table_id, user_id, topic, choice)

    async def rejoin(self, table_id: int, user_id: int) -> str:
        """Take back a seat that was out of time or played for its absent player."""
        return await self.svc.time.rejoin(table_id, user_id)

    # ------------------------------------------------------------------ undo

    async def undo(self, table_id: int, user_id: int, *, expected_version: int | None = None) -> Reply:
        """Take back the user's last move, or open a vote when others moved or something was revealed.

        ``expected_version`` is the table version the asker saw (the Undo button's board, the
        table as ``/game undo`` found it), checked under the lock: two requests at once take back
        one move. Without one, a second undo within ``REPEAT_WINDOW`` is refused.
        """
        async with self.svc._lock(table_id):
            loaded = await self.svc._load_active(table_id)
            if expected_version is None:
                now = self.svc.clock.now()
                self.svc.repeats.check(table_id, user_id, UNDO_KEY, now, loaded.record.version, REPEATED_UNDO)
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
                self.svc.repeats.note(table_id, user_id, UNDO_KEY, self.svc.clock.now(), reply.table.version)
            else:
                topic = undo_topic(plan.target, version, seat)
                voters = [u for u in await self.svc.time.active_players(table_id) if u != user_id]
                await self.store.clear_votes(table_id, topic)
                # The asker's row marks the vote as opened: a vote button nobody was offered counts nothing.
                await self.store.cast_vote(table_id, topic, user_id, ASKED, self.svc.clock.now())
                key = f"undo-expire:{table_id}:{topic}"
                await self.svc.scheduler.add("undo-expire", self.svc.clock.now() + VOTE_TIME, key, table_id,
                                             None, {"topic": topic})
                name = loaded.seats[seat].name
                text = (
                    f"{name} asks to take back: {plan.public} ({plan.why}). The other players vote; "
                    f"a majority decides, and the vote lapses {relative(self.svc.clock.now() + VOTE_TIME)} "
                    "or as soon as anyone moves."
                )
                # A seat on autopilot is never pinged (its person comes back with /game rejoin).
                present = set(await self.svc.time.away.taking_part(table_id))
                await self.emit(Notice(loaded.record, "vote", text, topic=topic, choices=UNDO_CHOICES,
                                       ping=tuple(v for v in voters if v in present)))
                self.svc.repeats.note(table_id, user_id, UNDO_KEY, self.svc.clock.now(), version)
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
        memories = await self.svc.bots.bot_memories(loaded, None, state)
        timing = self.svc.time.timing(record, {s.user_id for s in loaded.seats.values() if s.bot})
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
        self.svc.time.committed(record.id, timing.clocks)
        after = _Table(replace(record, version=new_version), state, rules, loaded.seats)
        try:
            reply = await asyncio.to_thread(self.svc.composer.compose, after, loaded.state, [event], seat)
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
        async with self.svc._lock(table_id):
            loaded = await self.svc._load_active(table_id)
            if loaded.record.version != version:
                raise TableError("That vote lapsed: the game moved on.")
            asker = loaded.seats[seat].user_id if seat in loaded.seats else None
            if asker is None or (await self.store.votes(table_id, topic)).get(asker) != ASKED:
                raise TableError(NOT_OPEN)
            voters = [u for u in await self.svc.time.active_players(table_id) if u != asker]
            if user_id not in voters:
                raise TableError("Only the other seated players vote on this.")
            votes = await self.store.cast_vote(table_id, topic, user_id, choice, self.svc.clock.now())
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
        table = await self.svc.table(table_id)
        _, version, _ = read_topic(topic)
        if table.status == "active" and table.version == version and votes is not None:
            await self.emit(Notice(table, "decided", "The vote to take back a move lapsed: the move stays."))

    # ------------------------------------------------------------------ spectators

    async def watch(self, table_id: int, user_id: int, every: str = "round") -> str:
        """Follow a table: a digest of its public moves arrives by DM every turn, round or day."""
        if every not in DIGESTS:
            raise TableError("A digest comes every turn, round or day.")
        table = await self.svc.table(table_id)
        if table.options.get("spectators", "on") == "off":
            raise TableError("This table was opened without spectators.")
        if table.status in ("finished", "abandoned"):
            raise TableError("This table is closed.")
        if any(s.user_id == user_id for s in await self.store.seats(table_id)):
            raise TableError("You play at this table: its news reaches you already.")
        # The first digest tells what happens from now on, from the round the table is in.
        seen = await self.svc.reads.public_view(table_id) if table.status == "active" else None
        now_round = self.svc.catalogue.rules_for(table.kind).round_of(seen.view) if seen is not None else None
        added = await self.store.add_spectator(
            table_id, user_id, self.svc.clock.now(), every, table.version, now_round
        )
        when = digest.EVERY_WORDS[every]
        if not added:
            return f"You already follow this table: its digest now comes {when}."
        return (
            f"You follow {self.svc.thread_name(table)}: a digest of its public moves arrives by DM {when}. "
            "`/game unwatch` stops it."
        )

    async def unwatch(self, table_id: int, user_id: int) -> str:
        """Stop following a table."""
        table = await self.svc.table(table_id)
        if not await self.store.remove_spectator(table_id, user_id):
            raise TableError("You do not follow this table.")
        return f"You no longer follow {self.svc.thread_name(table)}."

    async def _tell_spectators(self, reply: Reply) -> None:
        """DM each spectator whose digest this board brings (``digest.due``): public events only."""
        board = reply.board
        if board is None or board.quiet:
            return
        now = self.svc.clock.now()
        table_id = reply.table.id
        # Kept with the cached table: following, leaving or a digest told drops it (``store.changes``).
        rows = await self.svc.kept.row(table_id, "spectators", lambda: self.store.spectator_rows(table_id))
        due = [s for s in rows if digest.due(s, board, now)]
        if not due:
            return
        records = await self.store.moves(reply.table.id)
        public = replace(board, ping=())
        title = self.svc.thread_name(reply.table)
        for spectator in due:
            events = digest.public_since(records, spectator.told_version)
            text = digest.text(title, board, events)
            await self.emit(Notice(reply.table, "spectate", text, user_id=spectator.user_id, board=public))
            told = (board.version, board.round, now)
            await self.store.told_spectator(reply.table.id, spectator.user_id, *told)
