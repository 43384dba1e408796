"""Loaded tables kept in memory, bounded and keyed by version, so a move reads nothing twice.

``TableCache`` holds the last ``size`` tables this process loaded or committed (least recently
used dropped first), each with what was worked out from it at its version (``memo``: a seat's
view, the public view, seat settings, spectators). It never serves a stale table:

- the store tells it of every committed write that changed a table (``store.changes``), and the
  table is dropped; a read that began before such a write never puts what it read
  (``generation``), so an old read cannot overwrite a newer change;
- a move's commit is a compare-and-swap on the table's version: made on an entry that another
  process's write left behind, it is refused, the entry is dropped and the move read again.

Pure bookkeeping: no I/O, no locks (one event loop).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from service.loaded import _Table

DEFAULT_SIZE = 256
"""Tables kept when ``CONCLAVE_TABLE_CACHE`` does not say otherwise (0 keeps none)."""
T = TypeVar("T")


def cache_size() -> int:
    """Return the configured number of tables to keep (``CONCLAVE_TABLE_CACHE``, default 256)."""
    text = os.environ.get("CONCLAVE_TABLE_CACHE", "").strip()
    try:
        return max(0, int(text)) if text else DEFAULT_SIZE
    except ValueError:
        return DEFAULT_SIZE


MISSING = object()
"""What ``lasting`` returns for a value not kept."""


class _Entry:
    """One cached table, what was worked out from it at its version, and what lasts past a move."""

    __slots__ = ("lasting", "memo", "table")

    def __init__(self, table: _Table, lasting: dict[str, object] | None = None) -> None:
        self.table = table
        self.memo: dict[object, object] = {}
        self.lasting: dict[str, object] = dict(lasting or {})
        """Rows a move never changes (seat settings, spectators, the server's pause): kept across
        the table's own moves, dropped with it on any other change."""


class TableCache:
    """An LRU map of table id to its loaded table, dropped on every change the store reports."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self._entries: OrderedDict[int, _Entry] = OrderedDict()
        self._generations: dict[int, int] = {}
        self._epoch = 0
        """Bumped when every table is dropped at once."""
        self.hits = 0
        self.misses = 0

    def generation(self, table_id: int) -> tuple[int, int]:
        """Return the table's change count now: take it before a read, hand it back to ``put``."""
        return self._epoch, self._generations.get(table_id, 0)

    def get(self, table_id: int) -> _Table | None:
        """Return the cached table, or None (then load it and ``put`` it)."""
        entry = self._entries.get(table_id)
        if entry is None:
            self.misses += 1
            return None
        self._entries.move_to_end(table_id)
        self.hits += 1
        return entry.table

    def in_thread(self, thread_id: int) -> _Table | None:
        """Return the cached table played in a thread, or None."""
        for entry in self._entries.values():
            if entry.table.record.thread_id == thread_id:
                self._entries.move_to_end(entry.table.record.id)
                self.hits += 1
                return entry.table
        return None

    def put(self, table: _Table, seen: tuple[int, int], lasting: dict[str, object] | None = None) -> bool:
        """Keep a table read or committed when its generation was ``seen``; refuse it if it changed since.

        ``lasting``: what a move changes nothing of, carried over from before the table's own move.
        """
        table_id = table.record.id
        if self.size <= 0 or seen != self.generation(table_id):
            return False
        old = self._entries.get(table_id)
        if old is not None and old.table.record.version > table.record.version:
            return False
        self._entries[table_id] = _Entry(table, lasting)
        self._entries.move_to_end(table_id)
        while len(self._entries) > self.size:
            self._entries.popitem(last=False)
        return True

    def changed(self, table_id: int | None) -> None:
        """Drop a table the store changed (None: every table); reads begun before it put nothing."""
        if table_id is None:
            self._epoch += 1
            self._entries.clear()
            return
        self._generations[table_id] = self._generations.get(table_id, 0) + 1
        self._entries.pop(table_id, None)

    def lasting_of(self, table_id: int) -> dict[str, object]:
        """Return what lasts past a move of a cached table (empty when it is not cached)."""
        entry = self._entries.get(table_id)
        return {} if entry is None else dict(entry.lasting)

    def lasting(self, table_id: int, key: str) -> object:
        """Return a kept value of a cached table, or ``MISSING``."""
        entry = self._entries.get(table_id)
        return MISSING if entry is None else entry.lasting.get(key, MISSING)

    def keep(self, table_id: int, key: str, value: object, seen: tuple[int, int]) -> None:
        """Keep a value read when the table's generation was ``seen`` (dropped if it changed since)."""
        entry = self._entries.get(table_id)
        if entry is not None and seen == self.generation(table_id):
            entry.lasting[key] = value

    def memo(self, table: _Table, key: object, make: Callable[[], T]) -> T:
        """Return what ``make`` works out from ``table``, made once while it is the cached entry."""
        entry = self._entries.get(table.record.id)
        if entry is None or entry.table is not table:
            return make()
        if key not in entry.memo:
            entry.memo[key] = make()
        return entry.memo[key]  # type: ignore[return-value]

    def remember(self, table: _Table, key: object, value: object) -> None:
        """Keep a value worked out from ``table`` while it is the cached entry (ignored otherwise)."""
        entry = self._entries.get(table.record.id)
        if entry is not None and entry.table is table:
            entry.memo[key] = value

    def recall(self, table: _Table, key: object) -> object | None:
        """Return a value kept for ``table`` while it is the cached entry, or None."""
        entry = self._entries.get(table.record.id)
        if entry is None or entry.table is not table:
            return None
        return entry.memo.get(key)

    def __len__(self) -> int:
        return len(self._entries)
