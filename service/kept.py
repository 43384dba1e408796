"""What the service keeps beside each loaded table, and committing through the table cache.

``KeptTables`` is the table service's collaborator for ``service.tablecache``: the rows a move
never changes (seats, seat settings, spectators, the server's pause), read once while the table
stays in memory; the ticket a commit takes so the table it makes is kept; and the one read that
tells whether a refusal on a kept table must be judged again.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

from service.loaded import _Table
from service.tablecache import MISSING, TableCache
from store import SeatRecord, Store, TableRecord

T = TypeVar("T")
Ticket = tuple[tuple[int, int], dict[str, object]]
"""A table's generation and lasting rows, noted before this process commits on it."""


class KeptTables:
    """Read through the table cache; keep what this process's own commits make."""

    def __init__(
        self, store_of: Callable[[], Store], cache: TableCache, user_prefs: Callable[[int], Awaitable[object]]
    ) -> None:
        self._store_of = store_of
        self.cache = cache
        self._user_prefs = user_prefs

    @property
    def store(self) -> Store:
        """The service's store now (a restart in a test swaps it)."""
        return self._store_of()

    async def row(self, table_id: int, key: str, read: Callable[[], Awaitable[T]]) -> T:
        """Return a row a move never changes, kept with the cached table (read once while it stays)."""
        value = self.cache.lasting(table_id, key)
        if value is not MISSING:
            return value  # type: ignore[return-value]
        seen = self.cache.generation(table_id)
        found = await read()
        self.cache.keep(table_id, key, found, seen)
        return found

    async def seat_prefs(self, table_id: int, key: str) -> dict[int, str]:
        """Return one seat setting of every seat that set it, kept with the cached table."""
        return await self.row(table_id, f"prefs:{key}", lambda: self.store.seat_prefs(table_id, key))

    async def paused(self, table: TableRecord) -> bool:
        """Whether the table's server removed the bot (kept with the cached table: its server
        leaving or coming back drops every cached table)."""
        left = await self.row(table.id, "server_left", lambda: self.store.server_left_at(table.guild_id))
        return left is not None

    async def moved_elsewhere(self, kept: TableRecord) -> bool:
        """Whether the stored table is no longer at the kept copy's version (another process moved it)."""
        now = await self.store.table(kept.id)
        return now is not None and (now.version, now.status) != (kept.version, kept.status)

    def ticket(self, table_id: int) -> Ticket:
        """Note the cached table's generation and lasting rows before this process commits on it."""
        return self.cache.generation(table_id), self.cache.lasting_of(table_id)

    async def start_ticket(self, table_id: int, seats: list[SeatRecord], pref_keys: Iterable[str]) -> Ticket:
        """Read, before a game starts, what its moves will need: its seat settings, its players' pings.

        Read once here, the game's moves read nothing (kept with the table from its start on).
        """
        ticket = self.ticket(table_id)
        for key in pref_keys:
            ticket[1][f"prefs:{key}"] = await self.store.seat_prefs(table_id, key)
        for seat in seats:
            if seat.bot is None:
                await self._user_prefs(seat.user_id)
        return ticket

    def keep_committed(self, table: _Table, ticket: Ticket) -> _Table:
        """Cache the table a commit of ours made: the next move reads nothing.

        The commit's own change notice bumped the generation once; any other change meanwhile
        (a seat handed over, a setting) leaves the table uncached, to be read again.
        """
        (epoch, generation), lasting = ticket
        self.cache.put(table, (epoch, generation + 1), lasting)
        return table
