"""Judging a move under the table's lock: what it was offered on, whose it is, what it does.

``Judging`` is the service's ``judging``; ``act`` calls ``judge`` once per attempt. A move is
read once (a ``#version.index`` token, a code, or the words of a label) against the table kept in
memory; a refusal there is judged again on a fresh read only when another process moved the table.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from rules.contract import Move, RulesError
from service import reading
from service.compose import kept_seat_view, label_of, labelled_of, legal_moves_of, seat_view_of
from service.loaded import _INDEX_TOKEN, Offer, _Outcome, _Table
from service.repeats import REPEATED_MOVE, Repeats
from service.replies import SeatView, StaleOffer, TableError, cited, refusal

if TYPE_CHECKING:
    from service.bots import BotSeats
    from service.clock import Clock
    from service.kept import KeptTables
    from service.tablecache import TableCache

MOVED_ON = "The game moved on since that was offered: look at the latest board."


class Judging:
    """Reading and judging one move against the table as it is (``svc.judging``)."""

    def __init__(
        self,
        cache: TableCache,
        kept: KeptTables,
        repeats: Repeats,
        clock: Clock,
        bots: BotSeats,
        load_active: Callable[[int], Awaitable[_Table]],
    ) -> None:
        self.cache = cache
        self.kept = kept
        self.repeats = repeats
        self.clock = clock
        self.bots = bots
        self._load_active = load_active
        """Loads a table in play (``TableService._load_active``: refuses a closed or paused one)."""

    async def judge(
        self,
        table_id: int,
        user_id: int,
        move: str | Move,
        typed: str | None,
        expected_version: int | None,
        offer: Offer | None,
    ) -> tuple[_Table, int, _Outcome]:
        """Check the move against what it was offered on and apply it, under the table's lock.

        A refusal judged on a kept table is judged again on the table read afresh when the store
        holds a newer version: another process moved it (the kept copy was behind, the move may
        be right). One read of the table row tells; a refusal on a current copy stands at once.
        """
        kept = self.cache.get(table_id)
        try:
            loaded = await self._load_active(table_id)
            return loaded, *await self._judge_on(loaded, user_id, move, typed, expected_version, offer)
        except TableError:
            if kept is None or not await self.kept.moved_elsewhere(kept.record):
                raise
        self.cache.changed(table_id)
        loaded = await self._load_active(table_id)
        return loaded, *await self._judge_on(loaded, user_id, move, typed, expected_version, offer)

    async def _judge_on(
        self,
        loaded: _Table,
        user_id: int,
        move: str | Move,
        typed: str | None,
        expected_version: int | None,
        offer: Offer | None,
    ) -> tuple[int, _Outcome]:
        """Refuse a move from no seat, a bot's seat, a stale offer or a repeat; else apply it."""
        table_id, version = loaded.record.id, loaded.record.version
        if typed is not None:
            self.repeats.check(table_id, user_id, typed, self.clock.now(), version, REPEATED_MOVE)
        seat = loaded.seat_of(user_id)
        if seat is None:
            raise TableError("You have no seat at this table.")
        self.bots.check_player(loaded, seat)  # a seat a bot plays takes only the bot's moves
        if expected_version is not None and expected_version != version:
            raise StaleOffer(MOVED_ON)
        await self._check_offer(loaded, seat, offer)
        # On the loop, not a worker thread: judging a move takes a fraction of a millisecond (2.5 ms
        # at most in the benches), which a thread would hold the interpreter's lock for just the
        # same, and the hop there and back costs more (docs/performance.md, "Hops to threads").
        return seat, self._resolve(loaded, seat, move, version)

    async def _check_offer(self, loaded: _Table, seat: int, offer: Offer | None) -> None:
        """Refuse a move from a panel whose stamp no longer matches the seat's view (under the lock)."""
        if offer is None:
            return
        # The view the panel was built from, when it is this version's (worked out once).
        now = kept_seat_view(self.cache, loaded, seat)
        if now is None:  # not worked out yet at this version: off the event loop
            now = await asyncio.to_thread(seat_view_of, self.cache, loaded, seat)
        if offer.stamp_of(now) != offer.stamp:
            raise StaleOffer("That panel was out of date (you or the game moved on): look again.")

    def _resolve(self, table: _Table, seat: int, move: str | Move, version: int) -> _Outcome:
        """Read the move (text, token or Move), name it, apply it; rules errors become TableError."""
        rules = table.rules
        try:
            chosen = move if isinstance(move, Move) else self._read_move(table, seat, move, version)
            state, events = rules.apply(table.state, seat, chosen)
        except RulesError as exc:
            raise TableError(refusal(rules, exc)) from None
        result = rules.result(state) if rules.is_over(state) else None
        label = label_of(self.cache, table, seat, chosen)
        return _Outcome(chosen, label, state, events, result, rules.waiting_on(state))

    def _read_move(self, table: _Table, seat: int, text: str, version: int) -> Move:
        """Read typed text: a ``#version.index`` token, a code or a label (any case), else parse it."""
        rules, state = table.rules, table.state
        wanted = text.strip()
        token = _INDEX_TOKEN.fullmatch(wanted)
        if token:
            legal = self._offered(table, seat)
            if int(token["version"]) != version:
                raise StaleOffer("The game moved on since that was offered: pick again.")
            index = int(token["index"])
            if index >= len(legal):
                raise TableError("That choice is no longer on offer: pick again.")
            return legal[index]
        if seat not in rules.waiting_on(state):
            raise TableError(cited(rules, self._not_your_turn(table), rules.turn_rule_at(state)))
        labelled = labelled_of(self.cache, table, seat)
        moves, labels = [m for m, _ in labelled], [label for _, label in labelled]
        return reading.read_move(wanted, moves, labels, rules.actions)

    def _offered(self, table: _Table, seat: int) -> list[Move]:
        """Return the seat's legal moves in the order offered: as worked out already for this version."""
        kept = self.cache.recall(table, ("seat", seat))
        if isinstance(kept, SeatView):
            return [choice.move for choice in kept.moves if choice.move is not None]
        return legal_moves_of(self.cache, table, seat)

    @staticmethod
    def _not_your_turn(table: _Table) -> str:
        """Say whom the game waits for, for a seat that typed a move out of turn."""
        waiting = table.rules.waiting_on(table.state)
        if not waiting:
            return "The game is not waiting on anyone right now."
        known = table.names()
        names = " and ".join(known[n] for n in waiting if n in known)
        return f"It is not your decision now: the game waits for {names}."
