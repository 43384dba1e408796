"""Telling a service's table cache which tables a write changed (``changes_table``, ``changes_all``).

A process keeps loaded tables in memory (``service.tablecache``). Every store write that changes
what a loaded table holds (its row, snapshot, seats, seat settings, spectators, its server's
pause) is marked here, and the store tells its listeners once the write committed, so the cache
drops the table and the next read loads it again. A move's own commit is a compare-and-swap on
the table's version as well, which guards the writes of another process.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

Listener = Callable[[int | None], None]
"""Called with the id of a table a write changed, or None when it may have changed any table."""
F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


class TableChanges:
    """The listeners a store tells of changed tables; mixed into the store."""

    _listeners: list[Listener]

    def watch_changes(self, listener: Listener) -> None:
        """Call ``listener`` after every committed write that changed a table (None: any table)."""
        self._listeners.append(listener)

    def _changed_table(self, table_id: int | None) -> None:
        """Tell every listener that a table (None: any table) changed."""
        for listener in self._listeners:
            listener(table_id)


def changes_table(method: F) -> F:
    """Mark a store write whose first argument is the table it changes (told after it returns or fails)."""

    @functools.wraps(method)
    async def wrapper(self: TableChanges, table_id: int, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, table_id, *args, **kwargs)
        finally:
            # Told even after a failure: a write cut short by a cancel may still have committed.
            self._changed_table(table_id)

    wrapper.changes = "table"  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]


def changes_all(method: F) -> F:
    """Mark a store write that may change any table (a user's seats everywhere, a server's pause)."""

    @functools.wraps(method)
    async def wrapper(self: TableChanges, *args: Any, **kwargs: Any) -> Any:
        try:
            return await method(self, *args, **kwargs)
        finally:
            self._changed_table(None)

    wrapper.changes = "all"  # type: ignore[attr-defined]
    return wrapper  # type: ignore[return-value]
