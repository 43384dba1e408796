"""One pass per move (issue 28, Build 1): the views a move shows are worked out under the lock, once.

Moves are played through the unmodified bot in SimCord (the e2e bench's loop). Every public and
seat view the move's board, notes and panels show is worked out while ``TableService.act`` runs
(under the table's lock: its worker threads inherit the marker), once per version and viewer;
the cogs presenting the reply after the lock read them back and work nothing out again.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bench import e2e
from rules import registry
from service.tables import TableService
from tests.drawings import counted_drawings

_ACTING = contextvars.ContextVar("acting", default=False)


class Worked:
    """Counts each rules call that works a view or labels out, by state, viewer and where it ran."""

    def __init__(self) -> None:
        self.calls: Counter[tuple[str, str, Any]] = Counter()
        self.outside: list[tuple[str, Any]] = []
        self.counting = False
        """Set once the table is open and started: the timed moves alone are counted."""

    def wrap(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        """Return ``method`` counting its calls (by the state's JSON and the seat asked)."""

        def counted(rules: Any, state: Any, seat: Any, *rest: Any) -> Any:
            if not self.counting:
                return method(rules, state, seat, *rest)
            self.calls[(name, json.dumps(state, sort_keys=True), seat)] += 1
            if not _ACTING.get():
                self.outside.append((name, seat))
            return method(rules, state, seat, *rest)

        return counted


@pytest.fixture
def worked(monkeypatch: pytest.MonkeyPatch) -> Iterator[Worked]:
    """Count the Argent rules' ``view`` (and ``view_beside``), ``labelled_moves`` and ``legal_moves``;
    mark the time in ``act``."""
    seen = Worked()
    rules_class = type(registry.get("argent"))
    for name in ("view", "labelled_moves", "legal_moves"):
        monkeypatch.setattr(rules_class, name, seen.wrap(name, getattr(rules_class, name)))
    # A seat's view worked out beside the public one is a view too: counted as one, with ``view``'s.
    monkeypatch.setattr(rules_class, "view_beside", seen.wrap("view", rules_class.view_beside))
    act = TableService.act

    async def acting(self: TableService, *args: Any, **kwargs: Any) -> Any:
        token = _ACTING.set(True)
        try:
            return await act(self, *args, **kwargs)
        finally:
            _ACTING.reset(token)

    monkeypatch.setattr(TableService, "act", acting)
    watch = e2e.watch_transactions

    async def counting(store: Any) -> e2e.Transactions:
        seen.counting = True  # called just before the first timed move
        return await watch(store)

    monkeypatch.setattr(e2e, "watch_transactions", counting)
    with counted_drawings("argent"):
        yield seen


async def test_each_view_a_move_shows_is_worked_out_once_under_the_lock(worked: Worked) -> None:
    """Argent, 5 players, 8 moves typed through the cogs: no view or label list twice, none after."""
    timed = await e2e.time_moves("argent", 5, 8, seed=3)
    assert len(timed.e2e) == 8 and not timed.errors
    views = [key for key in worked.calls if key[0] == "view"]
    # The bench reads each moving seat's view before its move (as a player's panel would).
    assert len(views) >= 8 * 2
    twice = {(name, seat): n for (name, _, seat), n in worked.calls.items() if n > 1}
    assert twice == {}
    # The board's and every panel's views came with the reply; nothing was worked out after it.
    assert worked.outside == []


async def test_a_move_hops_to_a_worker_thread_only_to_compose(
    worked: Worked, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Judging a move and finding what plays itself run on the event loop: each takes less than
    the hop to a thread and back costs (docs/performance.md, "Hops to threads"). Composing the
    reply, which can take milliseconds, is the one hop a move makes under its lock."""
    hops: Counter[str] = Counter()
    real = asyncio.to_thread

    async def counted(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        if _ACTING.get() and worked.counting:
            hops[_name_of(func)] += 1
        return await real(func, *args, **kwargs)

    monkeypatch.setattr(asyncio, "to_thread", counted)
    timed = await e2e.time_moves("argent", 5, 8, seed=3)
    assert len(timed.e2e) == 8 and not timed.errors
    assert set(hops) == {"Composer.compose"}
    assert hops["Composer.compose"] == 8


def _name_of(func: Any) -> str:
    """Return a function's qualified name (a partial's function's)."""
    named = getattr(func, "func", func)  # a functools.partial names its function
    return str(getattr(named, "__qualname__", "?"))
