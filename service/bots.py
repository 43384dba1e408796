"""Bot seats at the table service: fill a seat, take over an absent player, practise alone.

``BotSeats`` is the service's ``bots``. Bots live in the store as seats whose ``bot`` column
names a level: a seat filled from the lobby gets a negative user id (no Discord user has one) and
the name "Bot (level)"; a person's seat handed to a bot keeps its user id and name (boards call
it "Bot (basic) for alice"), so giving it back restores it unchanged. One mechanism hands a seat
over, whoever asks: ``hand_over`` (lock-free, under the caller's lock) serves ``set_seat_bot``
and the out-of-time vote's "hand to a bot"; ``Timekeeper.give_back`` serves ``/game rejoin`` and
``set_seat_bot(..., None)``.

A bot seat of a game whose bots remember (``bots.keeps_memory``) keeps a private memory: with every
move saved (a person's, a bot's, an automatic one, an undo), each bot seat sees its view of the
state before and after it (``bot_memories``), and the store saves the memories in the move's own
transaction, so a restart loses nothing and a move refused as stale changes no memory. Seeing a
view twice changes nothing. A memory is never posted, logged or shown. A bot that takes an absent
person's seat starts with an empty memory (it never saw that person's screen), and handing a seat
over either way forgets it (the store does so with the seat's new player).

A bot moves through the same ``act`` as a person (the table's lock, the version check, the move
log), choosing off the event loop (``asyncio.to_thread``) from what its seat may know
(``bots.observe``). It is never pinged, never sent a DM and never counted among those the game
waits on for ``/game mine``. A table always keeps at least one seat played by a person.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from bots import LEVELS, Memory, bot_rng, keeps_memory, make_bot, observe, remember
from rules.contract import Move, State
from service.part import ServicePart
from service.replies import Board, Reply, TableError
from store import SeatRecord, StoreError, TableRecord

if TYPE_CHECKING:
    from service.loaded import _Table

log = logging.getLogger("conclave.service")

BOT_LEVELS = LEVELS
"""The bot levels on offer, weakest first (for the cogs' choices)."""
DEFAULT_LEVEL = "basic"
STAND_IN_BOT = "bot"
"""A seat clock's mark for a person's seat that a bot plays (``skip`` is the game's default move)."""
STAND_IN_LEVEL = "basic"
"""The level of the bot that takes an absent player's seat (quick, and sensible in every game)."""
BOT_CHAIN_LIMIT = 2000
"""A safety stop on bot moves in a row (a game always comes back to a person well before)."""

BOT_MOVE = "bot"
"""A stored move's ``by`` when a bot played it (the history names the bot, not the seat's person)."""


def played_by(move: dict[str, object]) -> dict[str, object]:
    """Return a move's stored JSON, marked as a bot's when a bot is playing it now."""
    return {**move, "by": BOT_MOVE} if _BOT_MOVING.get() else move


_BOT_MOVING: contextvars.ContextVar[bool] = contextvars.ContextVar("conclave_bot_moving", default=False)
"""Set while a bot's move goes through ``act``: the one caller allowed to play a bot's seat."""


def bot_name(level: str, taken: set[str]) -> str:
    """Return a bot seat's name, ``Bot (basic)``, numbered when the table already has one."""
    name = f"Bot ({level})"
    number = 2
    while name in taken:
        name = f"Bot ({level}) #{number}"
        number += 1
    return name


def shown_name(seat: SeatRecord) -> str:
    """Return the name a seat goes by on boards: a person's seat a bot plays names the bot's level."""
    if seat.bot and not seat.filled_by_bot:
        return f"Bot ({seat.bot}) for {seat.name}"
    return seat.name


def check_level(level: str | None) -> str:
    """Return the level, or raise TableError naming the levels on offer."""
    chosen = (level or DEFAULT_LEVEL).strip().casefold()
    if chosen not in LEVELS:
        raise TableError(f"There is no bot level `{level}`: choose {', '.join(LEVELS)}.")
    return chosen


class BotSeats(ServicePart):
    """The table service's bot seats (``svc.bots``): fill, hand over, practise, move for bots."""

    bot_budget: float = 1.0
    """The strong bot's thinking time per decision, in seconds."""

    # ------------------------------------------------------------------ the lobby

    async def add_bots(self, table_id: int, user_id: int, level: str | None = None, count: int = 1) -> Reply:
        """Seat ``count`` bots of a level at a table in the lobby (its host only)."""
        level = check_level(level)
        if count < 1:
            raise TableError("Add at least one bot.")
        async with self.svc._lock(table_id):
            table = await self.svc.table(table_id)
            self.svc._need_lobby(table)
            if user_id != table.host_id:
                raise TableError("Only the host can add bots.")
            await self.svc.servers.bots_allowed(table.guild_id)
            rules = self.svc.catalogue.rules_for(table.kind)
            seats = await self.store.seats(table_id)
            if len(seats) + count > rules.max_players:
                free = rules.max_players - len(seats)
                raise TableError(
                    f"This table has {free} free seat{'s' if free != 1 else ''} "
                    f"({rules.max_players} in all): a table needs at least one person."
                    if free
                    else f"This table is full ({rules.max_players} seats)."
                )
            names = []
            for _ in range(count):
                taken = {s.name for s in seats}
                bot_id = min([s.user_id for s in seats] + [0]) - 1
                name = bot_name(level, taken)
                await self.svc._store_call(self.store.add_seat(table_id, bot_id, name, None, bot=level))
                names.append(name)
                seats = await self.store.seats(table_id)
        log.info("table %s: %d %s bot(s) seated (%d seated)", table_id, count, level, len(seats))
        lobby = self.svc._lobby_line(rules, seats)
        text = f"{', '.join(names)} take{'s' if count == 1 else ''} a seat. {lobby}"
        answer = f"Added {count} {level} bot{'s' if count != 1 else ''}."
        return Reply(table, answer, Board(table.id, table.version, text))

    @staticmethod
    def need_a_person(seats: list[SeatRecord]) -> None:
        """Refuse a table where no person plays (a game of bots only is the arena's job)."""
        if not any(s.bot is None for s in seats):
            raise TableError("A table needs at least one person playing: bots cannot play alone.")

    async def practice(
        self,
        kind: str,
        options: str | dict[str, str] | None,
        *,
        guild_id: int | None,
        channel_id: int,
        host_id: int,
        host_name: str,
        level: str | None = None,
        players: int | None = None,
    ) -> TableRecord:
        """Open a lobby with the host and bots in the other seats; the caller makes the thread and starts."""
        level = check_level(level)
        rules = self.svc.catalogue.rules_for(kind)
        wanted = players if players is not None else max(rules.min_players, 2)
        wanted = min(wanted, rules.max_players)
        try:
            rules.check_players(wanted)
        except Exception as exc:  # RulesError: the sentence names the player counts
            raise TableError(getattr(exc, "sentence", str(exc))) from None
        if wanted > 1:
            await self.svc.servers.bots_allowed(guild_id)
        table = await self.svc.open_table(
            kind, options, guild_id=guild_id, channel_id=channel_id, host_id=host_id, host_name=host_name
        )
        if wanted > 1:
            await self.add_bots(table.id, host_id, level, wanted - 1)
        return await self.svc.table(table.id)

    # ------------------------------------------------------------------ handing a seat over

    async def set_seat_bot(self, table_id: int, seat: int, level: str | None) -> Reply:
        """Hand a started game's seat to a bot of that level, or (None) give it back to its person.

        A seat a bot filled from the lobby has no person to give it back to; the last seat a person
        plays cannot be handed over. Giving a seat back is ``/game rejoin``'s path
        (``Timekeeper.give_back``). The reply's board says who plays the seat now.
        """
        chosen = None if level is None else check_level(level)
        async with self.svc._lock(table_id):
            table = await self.svc.table(table_id)
            record = next((s for s in await self.store.seats(table_id) if s.seat == seat), None)
            if record is None:
                raise TableError("That seat is not at this table.")
            if chosen is None:
                if record.bot is None:
                    raise TableError("A person already plays that seat.")
                await self.svc.time.give_back(table, record.user_id)
            else:
                await self.hand_over(table_id, seat, chosen)
        if chosen is None:
            text = f"{record.name} is back and plays their own seat again."
            answer = "Your seat is yours again."
        else:
            text = f"A {chosen} bot plays {record.name}'s seat until they come back (/game rejoin)."
            answer = f"A {chosen} bot plays that seat now."
        return Reply(table, answer, Board(table.id, table.version, text))

    async def hand_over(self, table_id: int, seat: int, level: str | None) -> SeatRecord:
        """Set who plays a started game's seat: a bot of ``level``, or (None) its person again.

        The caller holds the table's lock: the out-of-time vote calls this from inside its own
        locked decision, ``set_seat_bot`` and ``Timekeeper.give_back`` from theirs. A seat handed to
        a bot has its clock marked played-for (no reminder, no deadline, counted in stats); giving
        it back restarts the clock, which is ``give_back``'s part. Returns the seat as it was.
        """
        table = await self.svc.table(table_id)
        if table.status != "active":
            raise TableError("This table is not in play.")
        seats = [s for s in await self.store.seats(table_id) if s.seat is not None]
        record = next((s for s in seats if s.seat == seat), None)
        if record is None:
            raise TableError("That seat is not at this table.")
        if level is None and record.filled_by_bot:
            raise TableError("That seat was a bot's from the start: nobody can take it back.")
        if record.bot == level:
            who = "A person already plays" if level is None else f"A {level} bot already plays"
            raise TableError(f"{who} that seat.")
        self.need_a_person([replace(s, bot=level) if s.seat == seat else s for s in seats])
        try:
            await self.store.set_seat_bot(table_id, seat, level)
        except StoreError:
            raise TableError("The table changed meanwhile: look again and retry.") from None
        if level is not None:
            await self.svc.time.mark_stand_in(table_id, record.user_id, STAND_IN_BOT)
        who = f"a {level} bot" if level else "its person"
        log.info("table %s: seat %s is played by %s", table_id, seat, who)
        return record

    # ------------------------------------------------------------------ bots' moves

    async def tables_waiting_on_bots(self) -> list[int]:
        """Return the active tables waiting on a bot (after a restart, their bots must move)."""
        return await self.store.tables_waiting_on_bots()

    async def bot_seats(self, table_id: int) -> dict[int, str]:
        """Return seat number -> level for every seat a bot plays now."""
        return {s.seat: s.bot for s in await self.store.seats(table_id) if s.bot and s.seat is not None}

    async def bot_memories(
        self, table: _Table, before: State | None, after: State
    ) -> dict[int, Memory] | None:
        """Return the bot seats' memories once they have seen ``before`` then ``after`` (to save with
        the move that led there); None when no seat keeps one (nothing is read or written then)."""
        seats = sorted(n for n, s in table.seats.items() if s.bot)
        rules = table.rules
        if not seats or not keeps_memory(rules.kind):
            return None
        stored = await self.store.bot_memories(table.record.id)

        def see() -> dict[int, Memory]:
            out = {}
            for n in seats:
                memory = stored.get(n)
                if before is not None:
                    memory = remember(rules, before, n, memory)  # the board it moved from, seen already
                out[n] = remember(rules, after, n, memory)
            return out

        return await asyncio.to_thread(see)

    async def next_bot_move(self, table_id: int) -> Reply | None:
        """Play one move for a bot the game waits on, through ``act``; None when it waits on no bot."""
        cached = self.svc.cache.get(table_id)
        table = cached.record if cached is not None else await self.store.table(table_id)
        if table is None or table.status != "active":
            return None
        if await self.svc.kept.paused(table):
            return None  # its server removed the bot: the table is paused, bots included
        loaded = await self.svc._load(table_id)
        rules, state = loaded.rules, loaded.state
        bots = [n for n in rules.waiting_on(state) if loaded.seats[n].bot]
        if not bots or await self.svc.time.away.paused(table_id):
            return None  # no bot awaited; or nobody takes part any more: bots never play a table out alone
        seat = bots[0]
        record = loaded.seats[seat]
        version = loaded.record.version
        bot = make_bot(record.bot, budget=self.bot_budget)
        memories = await self.store.bot_memories(table_id) if keeps_memory(rules.kind) else {}

        def think() -> Move:
            # The bot sees only what its seat may know (and remembers); its generator is seeded by
            # table, version, seat.
            memory = remember(rules, state, seat, memories.get(seat))
            return bot.choose(observe(rules, state, seat, memory), bot_rng(table_id, version, seat))

        move = await asyncio.to_thread(think)
        reply = await self._play_for_bot(table_id, record.user_id, move, version)
        if reply is None:
            now = await self.svc.table(table_id)
            if now.version != version:
                # Someone moved meanwhile (a person at a simultaneous step): think again on the new board.
                log.info("table %s: a bot's move at v%s was overtaken", table_id, version)
                return await self.next_bot_move(table_id)
            # Refused on the very board it was chosen for: a bug, but the table must not stall.
            log.error("table %s: seat %s's bot move was refused; its first legal move plays", table_id, seat)
            first = rules.legal_moves(state, seat)[0]
            reply = await self._play_for_bot(table_id, record.user_id, first, version)
            if reply is None:
                return None
        if not record.filled_by_bot:
            await self.svc.time.count_played_for(table_id, record.user_id)
        return replace(reply, answer=f"{record.name} played.")

    async def _play_for_bot(self, table_id: int, user_id: int, move: Move, version: int) -> Reply | None:
        """Play a bot's move through ``act`` at the version it saw; None when it is refused."""
        token = _BOT_MOVING.set(True)
        try:
            return await self.svc.act(table_id, user_id, move, expected_version=version)
        except TableError:
            return None
        finally:
            _BOT_MOVING.reset(token)

    def check_player(self, table: _Table, seat: int) -> None:
        """Refuse a person's move on a seat a bot plays, and a bot's on a seat given back (``act`` asks)."""
        if _BOT_MOVING.get() and not table.seats[seat].bot:
            # The person came back while the bot was thinking: the seat is theirs now.
            raise TableError("That seat's person plays it again.")
        if table.seats[seat].bot and not _BOT_MOVING.get():
            if table.seats[seat].filled_by_bot:
                raise TableError("You have no seat at this table.")
            raise TableError("A bot plays your seat now: use /game rejoin to take it back.")
