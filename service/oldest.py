"""Threads that run the work of the oldest move first (the drawing threads' queue).

Under load every drawing waits its turn. In the order asked, a table that moved early and fast
asks again before a table whose first move came at the same moment was even drawn: when many
tables move at once, the last of them waits for the others' next moves too, and the slowest
moves are the first ones. Taken by when their move was asked (``service.drawings.MOVE_ASKED``),
each move waits only for the moves asked before it; among one move's pictures, and among equal
times, the order asked is kept.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any


class OldestFirst(Executor):
    """A fixed number of threads taking the queued call with the earliest ``asked`` first.

    ``asked`` is a ``time.monotonic`` time. The threads start with the first calls and are
    daemons: a drawing under way never holds the process open.
    """

    def __init__(self, workers: int, name: str) -> None:
        self._workers = workers
        self._name = name
        self._queue: list[tuple[float, int, Future[Any], Callable[[], Any]]] = []
        self._order = itertools.count()
        self._ready = threading.Condition()
        self._threads: list[threading.Thread] = []
        self._closed = False

    def submit_at(self, asked: float, call: Callable[[], Any]) -> Future[Any]:
        """Queue ``call`` as asked at ``asked``; return its future."""
        future: Future[Any] = Future()
        with self._ready:
            if self._closed:
                raise RuntimeError("the drawing threads are shut down")
            heapq.heappush(self._queue, (asked, next(self._order), future, call))
            if len(self._threads) < self._workers:
                thread = threading.Thread(
                    target=self._work, name=f"{self._name}_{len(self._threads)}", daemon=True
                )
                self._threads.append(thread)
                thread.start()
            self._ready.notify()
        return future

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        """Queue a call asked now (``Executor``'s own interface)."""
        return self.submit_at(time.monotonic(), lambda: fn(*args, **kwargs))

    def _work(self) -> None:
        while True:
            with self._ready:
                while not self._queue and not self._closed:
                    self._ready.wait()
                if not self._queue:
                    return
                _, _, future, call = heapq.heappop(self._queue)
            if not future.set_running_or_notify_cancel():
                continue
            try:
                future.set_result(call())
            except BaseException as exc:  # handed to whoever awaits the drawing
                future.set_exception(exc)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking work; the queued calls still run unless ``cancel_futures``."""
        with self._ready:
            self._closed = True
            if cancel_futures:
                for _, _, future, _ in self._queue:
                    future.cancel()
                self._queue.clear()
            self._ready.notify_all()
        if wait:
            for thread in list(self._threads):
                thread.join()
