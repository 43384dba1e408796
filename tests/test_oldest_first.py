"""The drawing threads take the oldest move's pictures first (``service.oldest``, ``MOVE_ASKED``).

Under load a table that moved early and fast asks again before another table's first move was
drawn; taken by when their move was asked, each move waits only for the moves asked before it.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import CancelledError
from typing import Any

import pytest

from service import TableService, drawings
from service.drawings import board_picture
from service.oldest import OldestFirst
from tests.test_table_cache import move_once, started

pytestmark = pytest.mark.usefixtures("toy_registered")


def held(pool: OldestFirst) -> threading.Event:
    """Hold the pool's one thread on a first call until the returned event is set."""
    release, running = threading.Event(), threading.Event()

    def hold() -> None:
        running.set()
        release.wait(5)

    pool.submit_at(0.0, hold)
    assert running.wait(5)
    return release


def test_the_oldest_asked_runs_first_and_equal_times_keep_their_order() -> None:
    pool = OldestFirst(1, "test-oldest")
    ran: list[str] = []
    release = held(pool)
    futures = [pool.submit_at(asked, lambda name=name: ran.append(name))
               for asked, name in ((3.0, "late"), (1.0, "first"), (2.0, "middle"), (1.0, "second"))]
    release.set()
    for future in futures:
        future.result(5)
    pool.shutdown()
    assert ran == ["first", "second", "middle", "late"]


def test_a_plain_submit_is_asked_now_and_failures_reach_the_caller() -> None:
    pool = OldestFirst(1, "test-oldest")
    ran: list[str] = []
    release = held(pool)
    later = pool.submit_at(time.monotonic() + 60, lambda: ran.append("a move asked later"))
    now = pool.submit(ran.append, "asked now")

    def broken() -> None:
        raise ValueError("drawing failed")

    failing = pool.submit_at(1.0, broken)
    release.set()
    later.result(5), now.result(5)
    assert ran == ["asked now", "a move asked later"]
    with pytest.raises(ValueError, match="drawing failed"):
        failing.result(5)
    pool.shutdown()
    with pytest.raises(RuntimeError):
        pool.submit_at(0.0, lambda: None)


def test_a_shutdown_may_cancel_what_is_still_queued() -> None:
    pool = OldestFirst(1, "test-oldest")
    release = held(pool)
    queued = pool.submit_at(1.0, lambda: "drawn")
    threading.Timer(0.05, release.set).start()
    pool.shutdown(cancel_futures=True)
    with pytest.raises(CancelledError):
        queued.result(0)


async def test_a_moves_pictures_are_dated_by_when_the_move_was_asked(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await started(svc)
    seen: list[tuple[float | None, float]] = []
    compose = svc.composer.compose

    def dated(*args: Any, **kwargs: Any) -> Any:
        # Composed on a thread: the pictures made there read the move's time.
        picture = board_picture(svc.drawings, "institute", table_id, 0, {})
        seen.append((drawings.MOVE_ASKED.get(), picture.asked))
        return compose(*args, **kwargs)

    monkeypatch.setattr(svc.composer, "compose", dated)
    windows: list[tuple[float, float]] = []
    while len(seen) < 2:  # moves until two were composed (a lock-in alone may compose nothing)
        before = time.monotonic()
        await move_once(svc, table_id)
        after = time.monotonic()
        windows.extend((before, after) for _ in range(len(seen) - len(windows)))
    for (asked, picture_asked), (before, after) in zip(seen, windows, strict=True):
        assert asked is not None and before <= asked == picture_asked <= after
    assert drawings.MOVE_ASKED.get() is None  # only inside the move
    assert board_picture(svc.drawings, "institute", table_id, 0, {}).asked >= after  # outside a move: now
