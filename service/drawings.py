"""Drawings made when they are shown, once per table, version and viewer, shared by every path.

A move's board and private notes carry a ``Picture``: what to draw (the view, the caption), not
the drawing. The image is drawn only when a message that shows it is about to be posted or
edited (a quiet move's board never is; of a burst of merged live-board edits only the last is),
and every path that shows the same picture (the thread, a DM, a panel, ``/game hand``, a
spectator's digest, the web page) gets the bytes of that one drawing from ``Drawings``.

The cache key is the picture's table, version and viewer plus a digest of the view and caption
it draws, so one viewer's picture can never be answered with another's (a seat's sheet is never
a spectator's board), and a view is never served a drawing of different content.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import render

LIMIT = 96
"""Drawings kept (a PNG is 30-150 KB): the newest versions of the tables being played now."""

Key = tuple[Hashable, ...]

WORKERS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 2)
"""Threads that draw: one per core (Pillow releases the GIL while it fills and encodes)."""

_pool: ThreadPoolExecutor | None = None


def _drawing_pool() -> ThreadPoolExecutor:
    """Return the drawing threads, started on first use."""
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="conclave-drawing")
    return _pool


async def drawn(picture: Picture | None) -> bytes | None:
    """Draw a picture on the drawing threads (once: later calls read the cache), or None without one.

    The drawings have their own threads, not the event loop's default ones, so a move's rules and
    store work (``asyncio.to_thread``) never queue behind other tables' drawings, and no more
    drawings are under way (each holding its full-size images) than there are cores.
    """
    if picture is None:
        return None
    return await asyncio.get_running_loop().run_in_executor(_drawing_pool(), picture.png)


class Drawings:
    """A bounded, thread-safe cache of drawings; a drawing in flight is waited for, not redone."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self.drawn = 0
        """Drawings made (the bench and tests count them)."""
        self.on_loop = 0
        """Drawings made on the event loop's own thread (a path that forgot ``TableService.image``)."""
        self._done: OrderedDict[Key, bytes | None] = OrderedDict()
        self._flight: dict[Key, threading.Event] = {}
        self._lock = threading.Lock()

    def get(self, key: Key, draw: Callable[[], bytes | None]) -> bytes | None:
        """Return the drawing under ``key``, drawing it with ``draw`` only when nobody has yet."""
        while True:
            with self._lock:
                if key in self._done:
                    self._done.move_to_end(key)
                    return self._done[key]
                waiting = self._flight.get(key)
                if waiting is None:
                    self._flight[key] = threading.Event()
                    break
            # Another thread draws this very picture: wait for it, then read its result (or,
            # had it failed or been evicted meanwhile, draw it here).
            waiting.wait()
        try:
            image = draw()
        except BaseException:
            with self._lock:
                self._flight.pop(key).set()
            raise
        with self._lock:
            self.drawn += 1
            self.on_loop += _on_event_loop()
            self._done[key] = image
            while len(self._done) > self.limit:
                self._done.popitem(last=False)
            self._flight.pop(key).set()
        return image


    def kept_bytes(self) -> int:
        """Return the size of the drawings kept (the bench reports what the cache holds)."""
        with self._lock:
            return sum(len(image) for image in self._done.values() if image is not None)


def _on_event_loop() -> bool:
    """Whether the calling thread runs an event loop (drawing there stalls Discord's heartbeat)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@dataclass(frozen=True, eq=False)
class Picture:
    """What one viewer is shown of a table at a version, drawn on first use (``png``).

    ``viewer`` is ``"board"`` (the public board), ``("seat", n)`` (seat n's own sheet) or a public
    sheet's name. The view and caption never show in a repr (a seat's view holds its secrets).
    """

    drawings: Drawings = field(repr=False)
    kind: str
    table_id: int
    version: int
    viewer: Hashable
    view: dict[str, Any] = field(repr=False)
    caption: render.Caption | None = field(default=None, repr=False)

    def key(self) -> Key:
        """Return the cache key: table, version, viewer, and a digest of what is drawn."""
        caption = self.caption
        told = None if caption is None else (sorted(caption.names.items()), caption.last, caption.before)
        content = json.dumps([self.view, told], sort_keys=True, default=str).encode()
        digest = hashlib.blake2b(content, digest_size=16).digest()
        return (self.kind, self.table_id, self.version, self.viewer, digest, render.generation())

    def png(self) -> bytes | None:
        """Return the PNG, drawn now unless this picture was drawn already."""
        return self.drawings.get(self.key(), self._draw)

    def _draw(self) -> bytes | None:
        if self.viewer == "board":
            return render.board(self.kind, self.view, self.caption)
        if isinstance(self.viewer, tuple):
            return render.private(self.kind, self.view)
        return render.sheet(self.kind, str(self.viewer), self.view)


def board_picture(drawings: Drawings, kind: str, table_id: int, version: int, view: dict[str, Any],
          caption: render.Caption | None = None) -> Picture | None:
    """Return the public board's picture, or None when the game has no board drawing."""
    if not render.has_board(kind):
        return None
    return Picture(drawings, kind, table_id, version, "board", view, caption)


def seat_picture(drawings: Drawings, kind: str, table_id: int, version: int, number: int,
         view: dict[str, Any]) -> Picture | None:
    """Return seat ``number``'s private sheet picture from its own view, or None without one."""
    if not render.has_private(kind):
        return None
    return Picture(drawings, kind, table_id, version, ("seat", number), view)


def sheet_picture(drawings: Drawings, kind: str, table_id: int, version: int, name: str,
          view: dict[str, Any]) -> Picture | None:
    """Return a named public sheet's picture (Quadrivium's covenant), or None without one."""
    if not render.has_sheet(kind, name):
        return None
    return Picture(drawings, kind, table_id, version, name, view)
