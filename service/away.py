"""A table whose people are away: quiet autopilot seats, and a pause when nobody takes part.

A person *takes part* while their seat is theirs: not skipped, not handed to a bot, not left
(the seat clock's ``absent`` is None). An out-of-time person still takes part until the others
decide; they do not vote on anyone else, being away themselves. When the last person stops
taking part, the table pauses: nothing is played for the absent seats, no clock is watched and
no due work runs, until a player comes back with ``/game rejoin`` (``Timekeeper.rejoin``).
The pause is no stored flag: it is read from the seats and clocks, so a restart keeps it.
A seat on autopilot gets no pings and no move-by-move DMs; its person gets one DM when it
happens (``tell``), saying how to come back.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from service.notices import Notice
from service.replies import Reply
from store import SeatClock, TableRecord

if TYPE_CHECKING:
    from service.timekeeper import Timekeeper

log = logging.getLogger("conclave.timekeeper")

LEFT = "left"
"""A seat clock's ``absent`` once its person left the game (the resign move): never given back."""
PAUSED = (
    "Nobody is taking part any more (every player ran out of time or left), so this table is "
    "paused: no clock runs and nothing is played. A player takes their seat back with "
    "`/game rejoin` and the game goes on; the host can close the table with `/game abandon`."
)
PAUSE_WORK = ("remind", "deadline", "expire", "autoplay")
"""The due work a pause drops (deliveries stay: a move made is still owed to its thread)."""


def present(clocks: Iterable[SeatClock], people: Iterable[int]) -> list[int]:
    """Return the people among ``people`` who take part: their clock says nobody plays for them."""
    away = {c.user_id for c in clocks if c.absent}
    return [u for u in people if u not in away]


def quiet(reply: Reply, clocks: Iterable[SeatClock]) -> Reply:
    """Drop the pings and private notes of the seats on autopilot (skipped, a bot's, left)."""
    away = {c.user_id for c in clocks if c.absent}
    if not away:
        return reply
    private = tuple(n for n in reply.private if n.user_id not in away)
    board = reply.board
    if board is not None and any(u in away for u in board.ping):
        board = replace(board, ping=tuple(u for u in board.ping if u not in away))
    return replace(reply, board=board, private=private)


def autopilot_text(title: str, how: str, paused: bool) -> str:
    """Word the one DM a person gets when their seat goes on autopilot."""
    if how == "bot":
        what = "a bot plays your seat"
    else:
        what = "your seat is skipped (the game plays a default move for you)"
    head = f"{title}: you ran out of time and the table could not wait, so {what}."
    if paused:
        head += " Nobody else is taking part either, so the table is paused."
    return (
        f"{head} Come back any time with `/game rejoin` in the table's thread; "
        "nothing more is sent to you until then."
    )


class Away:
    """Who takes part at a table, the pause when nobody does, and the word to an absent player."""

    def __init__(self, time: Timekeeper) -> None:
        self.time = time
        self.store = time.store

    async def taking_part(self, table_id: int) -> list[int]:
        """Return the seated people who take part (one read of seats and one of clocks, no move log)."""
        people = [s.user_id for s in await self.store.seats(table_id) if s.seat is not None and not s.bot]
        return present(await self.store.seat_clocks(table_id), people)

    async def paused(self, table_id: int) -> bool:
        """Whether nobody takes part at this table (nothing may be played for it)."""
        return not await self.taking_part(table_id)

    async def dropped(self, table: TableRecord, subjects: list[int]) -> None:
        """Follow seats that just went on autopilot (the caller holds the table's lock).

        An open out-of-time vote that nobody is left to cast is decided at once (skip); when
        nobody takes part after that, the table pauses with one line in its thread. Each person
        whose seat went on autopilot then gets one DM.
        """
        subjects = list(subjects)
        while True:
            clocks = await self.store.seat_clocks(table.id)
            out = [c.user_id for c in clocks if c.out_since is not None and not c.absent]
            stuck = [u for u in out if not await self.time.voters(table.id, u)]
            if not stuck:
                break
            for user_id in stuck:
                await self.time.decide(table, user_id, "skip", expired=True, unvoted=True, follow=False)
                subjects.append(user_id)
        paused = await self.paused(table.id)
        if paused:
            await self.pause(table)
        ways = {c.user_id: c.absent for c in await self.store.seat_clocks(table.id)}
        title = self.time.svc.thread_name(table)
        for user_id in dict.fromkeys(subjects):
            how = ways.get(user_id)
            if how in ("skip", "bot"):
                await self.time.svc.play.emit(Notice(table, "autopilot", autopilot_text(title, how, paused),
                                                user_id=user_id, subject=user_id))

    async def pause(self, table: TableRecord) -> None:
        """Stop a table nobody takes part in: drop its due work and say so once in its thread."""
        await self.store.cancel_work(table.id, kinds=PAUSE_WORK)
        self.time.forget(table.id)
        log.info("table %s: nobody takes part any more; paused", table.id)
        await self.time.svc.play.emit(Notice(table, "paused", PAUSED))

    async def left(self, user_id: int, table_id: int) -> None:
        """Mark a person who left the game (it goes on without them); pause if nobody is left."""
        async with self.time.svc.play.table_lock(table_id):
            table = await self.store.table(table_id)
            if table is None:
                return
            was_paused = await self.paused(table_id)
            await self.time.mark_stand_in(table_id, user_id, LEFT)
            if table.status == "active" and not was_paused and await self.paused(table_id):
                await self.pause(table)
