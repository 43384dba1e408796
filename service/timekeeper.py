"""Clocks, reminders and absent players: the service's part of a table that lasts weeks.

After every change of whom a table waits on, ``after_change`` starts and stops the seats'
clocks in the store and plans their due work: a reminder when half the bank is used, a last
call 12 hours before it runs out, and the deadline. At the deadline the seat is out of time
and the other seated players vote: wait (one more day), skip (the game's default move plays
for the seat) or hand the seat to a bot. Nothing here runs on a timer of its own: the
scheduler runs the due work, claimed once in the store.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from rules.contract import RESIGN
from service.away import LEFT, Away, quiet
from service.bots import STAND_IN_LEVEL, bot_name
from service.clock import (
    REMINDER_GAP,
    VOTE_TIME,
    WAIT_GRANT,
    preset_of,
    quiet_until,
    relative,
    time_zone,
)
from service.notices import Notice, SeatTime
from service.notify import turn_seats
from service.plans import UNANSWERED, missing_work, seat_work, vote_payload, wait_work
from service.replies import Reply, TableError, time_sentence
from store import DueWork, SeatClock, TableRecord, TableWait, Timing, UserPrefs, WorkItem

if TYPE_CHECKING:
    from service.tables import TableService

log = logging.getLogger("conclave.timekeeper")

PINGS = ("every", "turn", "reminders", "nothing")
"""A user's ping preference: every decision, the start of my turn, reminders only, nothing."""
ABSENT_CHOICES = (("wait", "Wait a day"), ("skip", "Skip (default move)"), ("bot", "Hand to a bot"))
ABSENT_TOPIC = "absent"
STAND_IN_RUN = 60
"""Stand-in moves one job plays at most before handing on to a fresh job."""
FRESH = 5.0
"""A clock that started this many seconds ago or less started with the move just made."""
UNANSWERED_VOTES = 2
"""Votes on one seat in a row that close with no vote cast before the seat is skipped."""


class Timekeeper:
    """Seat clocks, reminders, out-of-time votes, absent seats and ping preferences."""

    def __init__(self, svc: TableService) -> None:
        self.svc = svc
        self.store = svc.store
        self.clock = svc.clock
        self.scheduler = svc.scheduler
        self._names: dict[int, dict[int, str]] = {}
        self._prefs: dict[int, UserPrefs] = {}
        self._autoplaying: set[int] = set()
        self._synced: dict[int, tuple[frozenset[int], list[SeatClock]]] = {}
        """Per table, whom it waited on at this process's last sync, and the clocks then."""
        """Tables whose stand-in run is playing now (it goes on by itself: no new job per move)."""
        self.away = Away(self)
        for kind, handler in (
            ("remind", self._remind),
            ("deadline", self._deadline),
            ("expire", self._expire),
            ("autoplay", self._autoplay),
        ):
            self.scheduler.handle(kind, handler)
        self.scheduler.on_start(self.replan)

    # ------------------------------------------------------------------ after every move

    def timing(self, table: TableRecord, bots: set[int]) -> Timing:
        """Return what committing a change of this table implies for its clocks (``Timing``).

        The store syncs the clocks and adds the work ``plan`` gives in the commit's own
        transaction, so a crash right after a move can never leave a clock running for a seat
        the table no longer waits on, nor a wait without its reminders and deadline.
        ``bots``: the users whose seat a bot plays now.
        """
        preset = preset_of(table.options)
        bank, increment = (preset.bank, preset.increment) if preset else (0.0, 0.0)
        now = self.clock.now()
        autoplaying = table.id in self._autoplaying

        def plan(clocks: list[SeatClock], version: int) -> list[WorkItem]:
            return wait_work(table.id, version, clocks, bots, preset is not None, now, autoplaying)

        return Timing(bank, increment, plan, ends=("remind", "deadline"))

    def committed(self, table_id: int, clocks: list[SeatClock]) -> None:
        """Remember the clocks a commit wrote (the next ``after_change`` with the same wait reads nothing)."""
        if not clocks or any(c.absent for c in clocks):
            self._synced.pop(table_id, None)
            return
        running = frozenset(c.user_id for c in clocks if c.running_since is not None)
        self._synced[table_id] = (running, clocks)

    async def after_change(
        self, table_id: int, table: TableRecord | None = None, waiting: list[int] | None = None
    ) -> tuple[TableRecord | None, list[SeatClock]]:
        """Start and stop the seats' clocks to match who the table waits on; plan their work.

        ``table`` is the record just written (status, version, options), saving a read;
        ``waiting`` the users the table now waits on: when they are the ones it waited on
        after this process's last sync, no clock starts or stops and nothing is read.
        A move's commit syncs its clocks itself (``timing``); this catches up the other changes
        (a seat handed over or given back, a stand-in's long run).
        """
        memo = self._synced.get(table_id)
        if table is not None and waiting is not None and memo is not None and memo[0] == frozenset(waiting):
            return table, memo[1]
        table = table or await self.store.table(table_id)
        if table is None:
            return None, []
        if table.status != "active":
            await self.store.cancel_work(table_id)
            self._synced.pop(table_id, None)
            self._names.pop(table_id, None)
            return table, []
        preset = preset_of(table.options)
        bank, increment = (preset.bank, preset.increment) if preset else (0.0, 0.0)
        clocks = await self.store.sync_clocks(table_id, bank, increment)
        if any(c.running_since is not None for c in clocks):
            # A bot seat moves at once and reads no DM: it gets no reminder and no deadline.
            bots = {s.user_id for s in await self.store.seats(table_id) if s.bot}
            work = wait_work(
                table_id, table.version, clocks, bots, preset is not None, self.clock.now(),
                table_id in self._autoplaying,
            )
            await self.scheduler.add_many(work)
        self.committed(table_id, clocks)
        return table, clocks

    def forget(self, table_id: int) -> None:
        """Drop this process's memos of a table's clocks (its clocks changed elsewhere)."""
        self._synced.pop(table_id, None)
        self._names.pop(table_id, None)

    def forget_prefs(self, user_id: int) -> None:
        """Drop this process's copy of a user's preferences (they were deleted)."""
        self._prefs.pop(user_id, None)

    async def _update_clock(self, table_id: int, user_id: int, **fields: object) -> None:
        """Change a seat clock in the store and forget this process's copy of the table's clocks."""
        self._synced.pop(table_id, None)
        await self.store.update_clock(table_id, user_id, **fields)

    async def _plan(self, table_id: int, clock: SeatClock, *, half: bool) -> None:
        """Plan a running seat's reminders and deadline (keys make each plan once per wait)."""
        await self.scheduler.add_many(seat_work(table_id, clock, half, self.clock.now()))

    # ------------------------------------------------------------------ due work

    async def _current(self, work: DueWork) -> tuple[TableRecord, SeatClock] | None:
        """Return the table and seat clock the work is for, if it still runs the same wait."""
        table = await self.store.table(work.table_id)
        if table is None or table.status != "active":
            return None
        clock = await self._clock_of(work.table_id, work.user_id)
        if clock is None or clock.running_since != work.payload.get("since"):
            return None
        return table, clock

    async def _awaited(self, work: DueWork, now: float) -> tuple[TableRecord, SeatClock, float] | None:
        """Return the table, clock and deadline of a seat still awaited in person; else claim the work, None.

        A seat played for its absent player, or already out of time, gets no reminder and no
        second deadline: the work is done with.
        """
        found = await self._current(work)
        if found is None or found[1].absent or found[1].out_since is not None:
            await self.store.claim(work.id, now)
            return None
        table, clock = found
        deadline = clock.deadline()
        assert deadline is not None and work.user_id is not None
        return table, clock, deadline

    async def _remind(self, work: DueWork) -> None:
        now = self.clock.now()
        found = await self._awaited(work, now)
        if found is None:
            return
        table, clock, deadline = found
        prefs = await self.prefs(work.user_id)
        if prefs.pings == "nothing":
            await self.store.claim(work.id, now)
            return
        later = quiet_until(now, prefs.quiet_from, prefs.quiet_to, prefs.utc_offset, prefs.tz)
        if clock.last_reminder is not None and now - clock.last_reminder < REMINDER_GAP:
            later = max(later or 0.0, clock.last_reminder + REMINDER_GAP)
        if later is not None:
            if later < deadline:
                await self.store.postpone(work.id, later)
            else:
                await self.store.claim(work.id, now)
            return
        text = (
            f"Reminder: {self.svc.thread_name(table)} is waiting on you. "
            f"Your time runs out {relative(deadline)}."
        )
        # Sent first, recorded after: a kill in between sends it again with the same key, which
        # the outlet passes to Discord as the message's nonce, so the player still gets one.
        reminder = Notice(table, "reminder", text, user_id=work.user_id, key=work.key)
        await self.svc.play.emit(reminder, strict=True)
        await self.store.claim(work.id, self.clock.now(), notice=(work.key, "reminder"))

    async def _deadline(self, work: DueWork) -> None:
        now = self.clock.now()
        found = await self._current(work)
        if found is None or found[1].absent:
            return  # the wait ended, or a stand-in plays the seat: nothing is due
        table, clock = found
        assert work.user_id is not None
        if clock.out_since is None:
            deadline = clock.deadline()
            if deadline is not None and deadline > now + 1:
                return  # the bank grew meanwhile (a wait vote): its new deadline is planned already
            out = now
            expire = ("expire", out + VOTE_TIME, f"expire:{table.id}:{work.user_id}:{out:.0f}", table.id,
                      work.user_id, vote_payload(out, work.payload.get(UNANSWERED, 0)))
            # The seat is out, its vote's expiry planned and the notice recorded in one transaction.
            self._synced.pop(table.id, None)
            await self.store.declare_out(table.id, work.user_id, out, f"{ABSENT_TOPIC}:{work.user_id}",
                                         expire, work.key)
        elif work.key in {key for key, _, _ in await self.store.notices(table.id, work.user_id)}:
            out = clock.out_since  # run again after a kill: the vote is posted again (same nonce)
        else:
            return  # out of time by an earlier deadline: its own work posts the vote
        voters = await self.voters(table.id, work.user_id)
        if not voters:
            # Nobody is left to vote (the others are away too): the seat is skipped at once.
            async with self.svc.play.table_lock(table.id):
                await self.decide(table, work.user_id, "skip", expired=True, unvoted=True)
            return
        name = await self._name(table.id, work.user_id)
        text = (
            f"{name} is out of time. The other players vote: wait (one more day), skip (the game "
            f"plays a default move for {name} until they `/game rejoin`) or hand the seat to a bot. "
            f"The vote closes {relative(out + VOTE_TIME)}; without a majority the table waits."
        )
        if work.payload.get(UNANSWERED):
            text = (
                f"{name} is out of time again, and nobody answered the last vote. Vote now: wait, skip "
                f"or hand the seat to a bot. The vote closes {relative(out + VOTE_TIME)}; if nobody "
                f"votes this time either, {name}'s seat is skipped."
            )
        await self.svc.play.emit(
            Notice(
                table, "vote", text, topic=f"{ABSENT_TOPIC}:{work.user_id}", choices=ABSENT_CHOICES,
                ping=tuple(voters), subject=work.user_id, key=work.key,
            ),
            strict=True,
        )

    async def _expire(self, work: DueWork) -> None:
        now = self.clock.now()
        table = await self.store.table(work.table_id)
        assert work.user_id is not None
        clock = await self._clock_of(work.table_id, work.user_id)
        still_open = (
            table is not None
            and table.status == "active"
            and clock is not None
            and clock.out_since == work.payload.get("out_since")
        )
        if not still_open:
            if table is not None and table.status == "active" and clock is not None:
                await self._after_decision(table, clock, work.key)
            await self.store.claim(work.id, now)
            return
        assert table is not None
        async with self.svc.play.table_lock(table.id):
            votes = await self.store.votes(table.id, f"{ABSENT_TOPIC}:{work.user_id}")
            counts = Counter(votes.values()).most_common()
            # The most votes win; a tie for the top, or no vote at all, means the table waits
            # (but not twice in a row with no vote: ``UNANSWERED_VOTES``).
            tied = len(counts) > 1 and counts[0][1] == counts[1][1]
            choice = counts[0][0] if counts and not tied else "wait"
            unvoted = False
            unanswered = 0 if counts else work.payload.get(UNANSWERED, 0) + 1
            if not counts and not await self.voters(table.id, work.user_id):
                # Nobody could vote (every other player left or is played for): waiting would
                # stall the table for good, so the seat is skipped like the others.
                choice, unvoted = "skip", True
            elif unanswered >= UNANSWERED_VOTES:
                # The voters are away too: waiting on for ever would keep a table nobody plays
                # from ever pausing (docs/rulings.md, "A second unanswered vote skips the seat").
                choice = "skip"
            await self.decide(table, work.user_id, choice, expired=True, unvoted=unvoted,
                              unanswered=unanswered)

    async def _after_decision(self, table: TableRecord, clock: SeatClock, key: str) -> None:
        """Plan again what a decision on an absent seat implies (a run that died midway left it out).

        A stand-in's move while the seat is played for (its job plays only while the table waits
        on an absent seat), or the seat's new deadline after "wait" (keys make both once).
        """
        if clock.running_since is None:
            return
        if clock.absent:
            await self.scheduler.add("autoplay", self.clock.now(), f"auto:{table.id}:{table.version}:{key}",
                                     table.id)
        elif clock.out_since is None and preset_of(table.options) is not None:
            await self._plan(table.id, clock, half=False)

    async def _autoplay(self, work: DueWork) -> None:
        """Play for the absent seats while the table waits on them: a bot's move, or the default move.

        A seat handed to a bot is played by the bot seats' own machinery (``next_bot_move``), as
        a lobby bot's; this job only starts it (a vote decides under the table's lock, where no
        move can be played). A skipped seat gets the game's default move.
        """
        now = self.clock.now()
        table = await self.store.table(work.table_id)
        if table is None or table.status != "active" or await self.away.paused(table.id):
            await self.store.claim(work.id, now)  # a paused table plays nothing until a rejoin
            return
        skipped = {c.user_id: c for c in await self.store.seat_clocks(table.id) if c.absent == "skip"}
        played: Counter[int] = Counter()
        moved = False
        self._autoplaying.add(table.id)
        try:
            # One job plays a stand-in's whole run of decisions (a turn of small steps), not one.
            for _ in range(STAND_IN_RUN):
                reply = await self.svc.bots.next_bot_move(table.id)
                if reply is None:
                    reply = await self._skip_move(table.id, skipped, played)
                if reply is None:
                    break
                moved = True
                await self.svc.play.emit(reply)
                if reply.table.status != "active":
                    break
        finally:
            self._autoplaying.discard(table.id)
        for user_id, count in played.items():
            await self._update_clock(table.id, user_id, played_for=skipped[user_id].played_for + count)
        if moved and (await self.store.table(table.id) or table).status == "active":
            # Still waiting on a stand-in after a long run: go on in a fresh job. The moves of this
            # run planned none (it was playing), so a kill before here must run this job again:
            # the scheduler marks it done only when it returns.
            await self.after_change(table.id)

    async def _skip_move(
        self, table_id: int, skipped: dict[int, SeatClock], played: Counter[int]
    ) -> Reply | None:
        """Play the game's default move for a skipped seat the table waits on; None when there is none."""
        chosen = await self.svc.play.stand_in_move(table_id, set(skipped))
        if chosen is None:
            return None
        user_id, move = chosen
        try:
            reply = await self.svc.act(table_id, user_id, move)
        except TableError as exc:
            log.warning("table %s: a stand-in move was refused (%s)", table_id, type(exc).__name__)
            return None
        played[user_id] += 1
        return reply

    # ------------------------------------------------------------------ votes and rejoin

    async def voters(self, table_id: int, subject: int) -> list[int]:
        """Return who votes on a seat that ran out of time: the other seated, active, present players.

        A player out of time is away too: they vote again once they move or rejoin.
        """
        active = await self.active_players(table_id)
        clocks = await self.store.seat_clocks(table_id)
        away = {c.user_id for c in clocks if c.absent or c.out_since is not None}
        return [u for u in active if u != subject and u not in away]

    async def active_players(self, table_id: int) -> list[int]:
        """Return the seated people who have not left the game (a resignation is in the move log).

        Bot seats are left out: a bot neither votes nor is waited for in a vote.
        """
        seats = [s for s in await self.store.seats(table_id) if s.seat is not None and not s.bot]
        moves = await self.svc.history.effective_moves(table_id)
        gone = {seat for seat, move in moves if move.action == RESIGN}
        return [s.user_id for s in seats if s.seat not in gone]

    async def vote(self, table_id: int, user_id: int, topic: str, choice: str) -> str:
        """Count a player's vote on an absent seat; decide at a majority; return the answer."""
        kind, _, subject_text = topic.partition(":")
        if kind != ABSENT_TOPIC or not subject_text.isdigit():
            raise TableError("That vote is not open.")
        if choice not in {value for value, _ in ABSENT_CHOICES}:
            raise TableError("Vote wait, skip or bot.")
        subject = int(subject_text)
        async with self.svc.play.table_lock(table_id):
            table = await self.svc.table(table_id)
            clock = await self._clock_of(table_id, subject)
            if table.status != "active" or clock is None or clock.out_since is None:
                raise TableError("That vote is closed.")
            voters = await self.voters(table_id, subject)
            if user_id not in voters:
                raise TableError("Only the other seated players vote on this.")
            votes = await self.store.cast_vote(table_id, topic, user_id, choice, self.clock.now())
            counts = Counter(v for u, v in votes.items() if u in voters)
            if counts[choice] * 2 > len(voters):
                await self.decide(table, subject, choice, expired=False)
                return f"Your vote decided it: {choice}."
        return f"Your vote ({choice}) is counted: {counts[choice]} of {len(voters)}; a majority decides."

    async def decide(
        self, table: TableRecord, subject: int, choice: str, *, expired: bool, unvoted: bool = False,
        follow: bool = True, unanswered: int = 0,
    ) -> None:
        """Carry out the vote on an absent seat (the caller holds the table's lock).

        ``unvoted``: nobody was left to vote (the seat is skipped, and the thread says so);
        ``unanswered``: how many votes on this seat in a row closed with no vote cast, this one
        included (a wait remembers it on its deadline; ``UNANSWERED_VOTES`` of them skip it);
        ``follow``: then settle what the seat's going on autopilot implies (``Away.dropped``).
        The votes are kept until the decision is written, so a kill before then decides the same
        at the vote's expiry; each outcome is written in one transaction (``_settle``), except a
        seat handed to a bot, whose stand-in job ``replan`` adds at the next start if a kill
        fell between the hand-over and the job.
        """
        name = await self._name(table.id, subject)
        now = self.clock.now()
        clock = await self._clock_of(table.id, subject)
        assert clock is not None
        if choice == "wait":
            # The bank keeps running from the same start; the deadline moves to a day from now.
            since = clock.running_since if clock.running_since is not None else now
            bank = (now - since) + WAIT_GRANT
            fresh = replace(clock, bank=bank, out_since=None, running_since=since)
            work = seat_work(table.id, fresh, False, now, unanswered)
            await self._settle(table.id, subject, work, bank=bank, out_since=None)
            why = "Nobody reached a majority, so" if expired else "The players voted:"
            if unanswered:
                why = "Nobody voted, so"
            text = f"{why} the table waits one more day for {name} (until {relative(now + WAIT_GRANT)})."
        else:
            stand_in = await self._to_bot(table.id, subject) if choice == "bot" else None
            # The stand-in plays at once, in a job of its own: this decision holds the table's lock.
            autoplay = ("autoplay", now, f"auto:{table.id}:{table.version}:{choice}", table.id, None, None)
            if stand_in is None:
                stand_in = "the game's default move"
                await self._settle(table.id, subject, [autoplay], absent="skip", out_since=None)
            else:
                await self.scheduler.add(*autoplay[:4])
            why = f"The players voted: {name}'s seat"
            if unvoted:
                why = f"Nobody is left to vote on {name}'s seat, so it"
            elif unanswered:
                why = f"Nobody answered two votes in a row on {name}'s seat, so it"
            text = f"{why} is played by {stand_in} until {name} comes back with `/game rejoin`."
        log.info("table %s: absent seat decided (%s)", table.id, choice)
        await self.svc.play.emit(Notice(table, "decided", text, subject=subject))
        if choice != "wait" and follow:
            await self.away.dropped(table, [subject])

    async def _to_bot(self, table_id: int, subject: int) -> str | None:
        """Hand an absent player's seat to a bot (the caller holds the lock); None if it may not be."""
        seat = next((s.seat for s in await self.store.seats(table_id) if s.user_id == subject), None)
        if seat is None:
            return None
        try:
            await self.svc.bots.hand_over(table_id, seat, STAND_IN_LEVEL)
        except TableError as exc:
            # The last person's seat never goes to a bot: the game's default move plays instead.
            log.info("table %s: the seat stays with no bot (%s)", table_id, type(exc).__name__)
            return None
        return f"a bot, {bot_name(STAND_IN_LEVEL, set())},"

    async def mark_stand_in(self, table_id: int, user_id: int, how: str) -> None:
        """Mark a seat clock as played for its absent player (``bot`` or ``skip``): it stops asking."""
        await self._settle(table_id, user_id, [], absent=how, out_since=None)

    async def _settle(self, table_id: int, user_id: int, work: list[WorkItem], **fields: object) -> None:
        """Write a decision on a seat in one transaction: clock fields, its vote closed, its work added."""
        self._synced.pop(table_id, None)
        await self.store.settle_seat(table_id, user_id, f"{ABSENT_TOPIC}:{user_id}", work, **fields)
        if work:
            self.scheduler.wake()

    async def count_played_for(self, table_id: int, user_id: int, count: int = 1) -> None:
        """Count moves played for a seat's person (a game so played is marked in stats)."""
        clock = await self._clock_of(table_id, user_id)
        if clock is not None:
            await self._update_clock(table_id, user_id, played_for=clock.played_for + count)

    async def rejoin(self, table_id: int, user_id: int) -> str:
        """Give an absent or out-of-time player their seat back, with at least one turn's time."""
        async with self.svc.play.table_lock(table_id):
            table = await self.svc.table(table_id)
            paused = table.status == "active" and await self.away.paused(table_id)
            await self.give_back(table, user_id, fresh=paused)
            if paused:
                # Whatever the absent seats and bots owe plays again, in a job of its own.
                key = f"auto:{table_id}:{table.version}:resume:{user_id}:{self.clock.now():.0f}"
                await self.scheduler.add("autoplay", self.clock.now(), key, table_id)
        name = await self._name(table_id, user_id)
        text = f"{name} is back and plays their own seat again."
        if paused:
            timed = preset_of(table.options) is not None
            text = f"{name} is back: the table resumes" + (
                f", and {name}'s clock starts again with a full bank." if timed else "."
            )
        await self.svc.play.emit(Notice(table, "rejoin", text))
        return "Welcome back: your seat is yours again." + (" The table resumes." if paused else "")

    async def give_back(self, table: TableRecord, user_id: int, *, fresh: bool = False) -> None:
        """Give a seat back to its person: a bot leaves it, the clock restarts (the caller holds the lock).

        The one path by which a seat comes back, whether a bot or the default move played it, or
        it ran out of time: ``/game rejoin`` and ``set_seat_bot(..., None)`` both end here.
        ``fresh``: the table was paused (no time counted meanwhile), so the bank starts full.
        """
        if table.status != "active":
            raise TableError("This table is not in play.")
        table_id = table.id
        clock = await self._clock_of(table_id, user_id)
        seat = next((s for s in await self.store.seats(table_id) if s.user_id == user_id), None)
        if clock is None or seat is None or seat.seat is None:
            raise TableError("You have no seat at this table.")
        if seat.filled_by_bot:
            raise TableError("That seat was a bot's from the start: nobody can take it back.")
        if clock.absent == LEFT:
            raise TableError("You left this game: your seat cannot be taken back.")
        if not seat.bot and not clock.absent and clock.out_since is None:
            raise TableError("Your seat is yours already: nobody plays for you.")
        if seat.bot:
            await self.svc.bots.hand_over(table_id, seat.seat, None)
        preset = preset_of(table.options)
        now = self.clock.now()
        grant = preset.increment if preset else WAIT_GRANT
        bank = clock.bank
        if fresh and preset is not None:
            since = clock.running_since if clock.running_since is not None else now
            bank = (now - since) + preset.bank
        elif clock.left(now) < grant:
            since = clock.running_since if clock.running_since is not None else now
            bank = (now - since) + grant if clock.running_since is not None else grant
        work: list[WorkItem] = []
        if clock.running_since is not None and preset is not None:
            back = replace(clock, bank=bank, absent=None, out_since=None)
            work = seat_work(table_id, back, False, now)
        # A kill after the bot left but before this leaves the clock marked "bot" on a person's
        # seat: ``replan`` finishes the give-back at the next start.
        await self._settle(table_id, user_id, work, absent=None, out_since=None, bank=bank)

    # ------------------------------------------------------------------ after a start

    async def replan(self) -> None:
        """Re-derive every active table's due work from its stored state and add what is missing.

        Run by the scheduler at each start, before any due work. A seat handed over or given back
        spans several transactions, and a kill between them can leave a table whose state needs
        work no row holds (a seat played by a bot with no stand-in job): such a table would wait
        forever. The keys are the normal path's, so work that exists is never added twice.
        """
        now = self.clock.now()
        work: list[WorkItem] = []
        for wait in await self.store.table_waits():
            if await self._repair_seats(wait):
                continue  # repaired through the normal path, which planned the table's work
            work.extend(missing_work(wait, now))
        if work:
            log.info("planned %d piece(s) of due work missing after a stop", len(work))
            await self.scheduler.add_many(work)

    async def _repair_seats(self, wait: TableWait) -> bool:
        """Finish a hand-over or give-back a kill cut in two; return whether any seat needed it."""
        table = wait.table
        repaired = False
        async with self.svc.play.table_lock(table.id):
            for clock in wait.clocks:
                bot = wait.bots.get(clock.user_id)
                if bot and clock.user_id >= 0 and not clock.absent:
                    # The seat went to a bot, its clock was not marked: the vote stays open forever.
                    await self.mark_stand_in(table.id, clock.user_id, "bot")
                    repaired = True
                elif clock.absent == "bot" and not bot:
                    # The bot left the seat, the clock was not given back: nobody plays it.
                    try:
                        await self.give_back(table, clock.user_id)
                    except TableError:
                        continue  # the player left the table meanwhile: nothing to give back
                    repaired = True
        if repaired:
            log.info("table %s: a seat cut mid-change by a stop was set right", table.id)
            await self.after_change(table.id)
        return repaired

    # ------------------------------------------------------------------ what boards show

    async def seat_times(
        self, table_id: int, clocks: list[SeatClock] | None = None, table: TableRecord | None = None
    ) -> list[SeatTime]:
        """Return the clock of every awaited seat (none for a table without a clock)."""
        table = table or await self.store.table(table_id)
        if table is None or table.status != "active" or preset_of(table.options) is None:
            return []
        if clocks is None:
            clocks = await self.store.seat_clocks(table_id)
        if not any(c.running_since is not None for c in clocks):
            return []
        names = self._names.get(table_id)
        if names is None:
            # Names are fixed once a game starts: read them once per process.
            names = self._names[table_id] = {s.user_id: s.name for s in await self.store.seats(table_id)}
        times = []
        for clock in clocks:
            deadline = clock.deadline()
            if deadline is None:
                continue
            out = clock.out_since is not None
            times.append(SeatTime(clock.user_id, names.get(clock.user_id, "?"), deadline, out, clock.absent))
        return sorted(times, key=lambda t: t.deadline)

    @staticmethod
    def time_line(times: list[SeatTime]) -> str:
        """Return the board line with each awaited seat's time left, or "" when none."""
        return time_sentence(times)

    async def decorate(
        self,
        reply: Reply,
        *,
        status: bool = False,
        clocks: list[SeatClock] | None = None,
        table: TableRecord | None = None,
    ) -> Reply:
        """Add the time line to a board and drop the pings each user's preference turns off.

        A seat on autopilot (skipped, a bot's, left) gets no ping and no private note at all.
        """
        if reply.board is None and not reply.private:
            return reply
        if clocks is None:
            clocks = await self.store.seat_clocks(reply.table.id)
        reply = quiet(reply, clocks)
        board = reply.board
        if board is None or not board.in_play:
            return reply
        times = await self.seat_times(reply.table.id, clocks, table)
        line = self.time_line(times)
        text = f"{board.text}\n{line}" if line else board.text
        board = replace(board, times=tuple(times))
        ping = board.ping
        if ping and not status:
            by_user = {c.user_id: c for c in clocks}
            now = self.clock.now()
            # "turn" is for a seat's own turn: a decision asked inside another's (a bonus, a
            # reaction) reaches it by DM and panel only.
            turning = turn_seats(board.waiting)
            own_turn = {line.user_id for line in board.legend if line.seat in turning}
            kept = []
            for user_id in ping:
                prefs = await self.prefs(user_id)
                if prefs.pings in ("reminders", "nothing"):
                    continue
                if prefs.pings == "turn" and user_id not in own_turn:
                    continue
                # A seat whose clock started with this move begins its turn; one still running
                # is answering a follow-up decision of the same turn.
                clock = by_user.get(user_id)
                running = None if clock is None else clock.running_since
                if prefs.pings == "turn" and running is not None and now - running > FRESH:
                    continue
                kept.append(user_id)
            ping = tuple(kept)
        return replace(reply, board=replace(board, text=text, ping=ping))

    # ------------------------------------------------------------------ preferences

    async def set_pings(
        self,
        user_id: int,
        pings: str | None = None,
        quiet: str | None = None,
        utc_offset: int | None = None,
        tz: str | None = None,
    ) -> UserPrefs:
        """Change a user's ping preference, quiet hours (``22-7``, or ``off``) and time zone.

        ``tz`` is an IANA name (``Europe/Paris``; ``off`` goes back to the UTC offset);
        ``utc_offset`` a whole-hour offset, the older way, which also clears ``tz``.
        """
        prefs = await self.store.user_prefs(user_id)
        if pings is not None:
            if pings not in PINGS:
                raise TableError("Pings: every, turn, reminders or nothing.")
            prefs = replace(prefs, pings=pings)
        if quiet is not None:
            prefs = replace(prefs, quiet_from=None, quiet_to=None)
            if quiet.strip().lower() not in ("off", "none", ""):
                start, sep, end = quiet.replace(" ", "").partition("-")
                if not sep or not start.isdigit() or not end.isdigit() or not (
                    0 <= int(start) < 24 and 0 <= int(end) < 24
                ):
                    raise TableError("Write quiet hours as two hours of your day, e.g. 22-7 (or off).")
                prefs = replace(prefs, quiet_from=int(start), quiet_to=int(end))
        if utc_offset is not None:
            if not -12 <= utc_offset <= 14:
                raise TableError("A UTC offset is between -12 and +14.")
            prefs = replace(prefs, utc_offset=utc_offset, tz=None)
        if tz is not None:
            if tz.strip().casefold() in ("off", "none", ""):
                prefs = replace(prefs, tz=None)
            else:
                try:
                    prefs = replace(prefs, tz=time_zone(tz))
                except ValueError:
                    raise TableError(
                        "I do not know that time zone: pick one from the list, e.g. Europe/Paris."
                    ) from None
        await self.store.set_user_prefs(prefs)
        self._prefs[user_id] = prefs
        return prefs

    async def prefs(self, user_id: int) -> UserPrefs:
        """Return a user's ping preferences (read once per process, kept fresh by set_pings)."""
        prefs = self._prefs.get(user_id)
        if prefs is None:
            prefs = self._prefs[user_id] = await self.store.user_prefs(user_id)
        return prefs

    async def _clock_of(self, table_id: int, user_id: int | None) -> SeatClock | None:
        return next((c for c in await self.store.seat_clocks(table_id) if c.user_id == user_id), None)

    async def _name(self, table_id: int, user_id: int) -> str:
        return next((s.name for s in await self.store.seats(table_id) if s.user_id == user_id), "a player")
