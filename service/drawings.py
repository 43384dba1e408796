"""Drawings made when they are shown, once per table, version and viewer, shared by every path.

A move's board and private notes carry a ``Picture``: what to draw (the view, the caption), not
the drawing. The image is drawn only when a message that shows it is about to be posted or
edited (a quiet move's board never is; of a burst of merged live-board edits only the last is),
and every path that shows the same picture (the thread, a DM, a panel, ``/game hand``, a
spectator's digest, the web page) gets the bytes of that one drawing from ``Drawings``.

The cache key is the picture's table, version and viewer plus a digest of the view and caption
it draws, so one viewer's picture can never be answered with another's (a seat's sheet is never
a spectator's board), and a view is never served a drawing of different content.

Where a drawing is made: the event loop's path (``drawn``) hands it to a drawing thread, which sends
it to a drawing process (``render.worker``; ``PAINTERS`` of them, one core being left to the event
loop; started when the first cache is made; each asked up to ``DEPTH`` pictures ahead, so it never
waits for the next) and waits, without the interpreter's lock, for the PNG. The drawings then use
another core than the event loop's, instead of sharing its interpreter. A drawing asked while no
other is under way (one table moving) is drawn on the thread itself (``UnderWay``). A stand-in
drawing (tests) is drawn on the thread, and so is everything when ``PROCESSES`` is off
(``CONCLAVE_DRAWING=threads``). A drawing process that cannot start, dies (killed, crashed) or hangs
costs no picture: the thread draws that one itself and the next drawing starts a fresh process (one
found dead before it is asked is replaced at once). ``docs/performance.md`` says why and what it
measured.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import hashlib
import json
import logging
import os
import pickle
import queue
import subprocess
import sys
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import render
from render.worker import read_frame, write_frame
from service.oldest import OldestFirst

log = logging.getLogger(__name__)

LIMIT = 96
"""Drawings kept (a PNG is 30-150 KB): the newest versions of the tables being played now."""

Key = tuple[Hashable, ...]

WORKERS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 2)
"""Threads that draw: one per core (Pillow releases the GIL while it fills and encodes)."""

PAINTERS = max(1, WORKERS - 1)
"""Drawing processes: one core is left to the event loop, whose moves the drawings follow."""

ANSWER_WITHIN = 60.0
"""Seconds a drawing process may take to answer (a drawing takes milliseconds): past them it is
taken for hung, killed, and the picture drawn on the thread, so no delivery waits for ever."""

DEPTH = 2
"""Pictures a drawing process may be asked before it answers the first: it draws the next while
the last one's thread takes its PNG and the interpreter's lock (one at a time left it idle about a
quarter of a load run)."""

PROCESSES = os.environ.get("CONCLAVE_DRAWING", "processes") != "threads"
"""Whether the drawing threads hand shipped drawings to drawing processes (the bot's default)."""

LONE_HERE = True
"""Whether a drawing asked while no other is being drawn is drawn on its own thread (``UnderWay``)."""

_pool: OldestFirst | None = None

MOVE_ASKED: ContextVar[float | None] = ContextVar("conclave_move_asked", default=None)
"""When the move being worked out was asked (``time.monotonic``), set by ``move_asked`` around a
move: the pictures made for it are drawn in that order among other moves' (``OldestFirst``)."""


@contextlib.contextmanager
def move_asked() -> Iterator[None]:
    """Date the pictures made inside the block (and its threads') by when the move was asked: now."""
    token = MOVE_ASKED.set(time.monotonic())
    try:
        yield
    finally:
        MOVE_ASKED.reset(token)


def _asked() -> float:
    """When the picture being made was asked: its move's time, else now."""
    asked = MOVE_ASKED.get()
    return time.monotonic() if asked is None else asked


def _drawing_pool() -> OldestFirst:
    """Return the drawing threads, started on first use."""
    global _pool
    if _pool is None:
        _pool = OldestFirst(WORKERS, "conclave-drawing")
    return _pool


async def drawn(picture: Picture | None) -> bytes | None:
    """Draw a picture on the drawing threads (once: later calls read the cache), or None without one.

    The drawings have their own threads, not the event loop's default ones, so a move's rules and
    store work (``asyncio.to_thread``) never queue behind other tables' drawings, and no more
    drawings are under way (each holding its full-size images) than there are cores.
    """
    if picture is None:
        return None
    # A picture drawn already is read at once: queued, a cache hit would wait behind every
    # picture asked before it (under load, a round of the whole queue).
    found, image = picture.drawings.kept(picture.key())
    if found:
        return image
    return await drawing(picture)


def drawing(picture: Picture) -> asyncio.Future[bytes | None]:
    """Queue a picture on the drawing threads now; return the future of its PNG.

    The threads take the picture of the oldest move first (``Picture.asked``, ``OldestFirst``),
    then in the order asked. Queued at the call, not when a task first runs: the pictures a
    delivery starts together (``TableService.reads.start_drawing``) are drawn in the order it
    started them, so a move's notes are never queued behind its board and other tables' pictures
    that came in between.
    """
    return asyncio.wrap_future(_drawing_pool().submit_at(picture.asked, picture.png_elsewhere))


class UnderWay:
    """How many drawings are being drawn now, by a thread or a process.

    A drawing asked while none other is under way (one table moving: its board, or the first of
    its pictures) is drawn on the drawing thread that asked it: the event loop is idle, and the
    hop to a drawing process (the view's pickle, two pipes, two threads woken) only adds its cost.
    Measured on the Institute's moves (``bench --json``), the hop for every drawing made a move
    20% slower than drawing on threads; this way a move's other pictures, asked at once, are drawn
    by the process beside the lone one instead of after it. Under load drawings are always under
    way, and every one goes to a process as before.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.count = 0

    @contextlib.contextmanager
    def one(self) -> Iterator[bool]:
        """Count one drawing under way while the block runs; yield whether it is the only one."""
        with self._lock:
            lone = self.count == 0
            self.count += 1
        try:
            yield lone
        finally:
            with self._lock:
                self.count -= 1


UNDER_WAY = UnderWay()


class PainterGone(Exception):
    """A drawing process could not start, died, hung or closed its pipe before answering."""


class DrawingFailed(Exception):
    """A drawing raised in its drawing process (the text is that process's traceback)."""


class _Ask:
    """One picture asked of a drawing process: its answer, or that the process went first."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.answer: tuple[str, Any] | None = None
        """``("ok", png)`` or ``("error", traceback)``; None when the process went first."""


class Painter:
    """One drawing process (``python -m render.worker``), fed by several drawing threads.

    A thread sends its picture and waits; the next thread's picture may be sent before the last
    answer is back (up to ``DEPTH`` a process), so the process starts on it at once instead of
    waiting while a thread, which needs the interpreter's lock, hands it the next. The process
    answers in the order asked; one reader thread matches each answer to the oldest ask.
    """

    def __init__(self) -> None:
        # The process imports this checkout's render, whatever the working directory.
        root = str(Path(render.__file__).resolve().parents[1])
        path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
        env = dict(os.environ, PYTHONPATH=path)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "render.worker"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
        )
        self._sending = threading.Lock()
        self._asked: deque[_Ask] = deque()
        """Asks sent and not answered, oldest first (appended and sent under ``_sending``)."""
        self._gone = False
        reader = threading.Thread(target=self._read_answers, name="conclave-drawing-answers", daemon=True)
        reader.start()

    def draw(self, what: str, kind: str, payload: bytes) -> bytes | None:
        """Return the PNG the process draws of a picture's pickled view and caption (``Picture.payload``).

        Raise ``PainterGone`` if the process is gone (it is stopped then).
        """
        stdin = self.process.stdin
        assert stdin is not None
        ask = _Ask()
        with self._sending:
            if self._gone:
                raise PainterGone(f"drawing process {self.process.pid} is gone")
            self._asked.append(ask)
            try:
                write_frame(stdin, (what, kind, payload))
            except (OSError, ValueError) as exc:  # ValueError: a pipe closed by ``stop``
                self.stop()
                raise PainterGone(f"drawing process {self.process.pid} is gone") from exc
        if not ask.done.wait(ANSWER_WITHIN):
            self.stop(kill=True)  # hung: its pictures are drawn on their threads, and it is replaced
            raise PainterGone(f"drawing process {self.process.pid} did not answer")
        if ask.answer is None:
            raise PainterGone(f"drawing process {self.process.pid} is gone")
        status, answer = ask.answer
        if status == "error":
            raise DrawingFailed(answer)
        return answer

    def _read_answers(self) -> None:
        """Hand each answer to the oldest ask; when the pipe ends, tell every ask left."""
        stdout = self.process.stdout
        assert stdout is not None
        try:
            while True:
                answer = read_frame(stdout)
                ask = self._asked.popleft()  # sent in this order, under ``_sending``
                ask.answer = answer
                ask.done.set()
        except (OSError, EOFError, ValueError, IndexError):
            pass
        with contextlib.suppress(OSError):
            stdout.close()
        with self._sending:
            self._gone = True
            left, self._asked = list(self._asked), deque()
        for ask in left:
            ask.done.set()  # no answer: the thread draws it itself

    def usable(self) -> bool:
        """Whether the process runs and its pipe is whole."""
        return not self._gone and self.process.poll() is None

    def alive(self) -> bool:
        """Whether the process still runs."""
        return self.process.poll() is None

    def peak_rss_mb(self) -> float:
        """Return the process's peak resident memory in MB (0 once it has ended)."""
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return 0.0
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
        return 0.0

    def stop(self, kill: bool = False) -> None:
        """End the process: closing its input ends it; one that does not end soon (or ``kill``) is killed."""
        if kill:
            self.process.kill()
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()  # the reader thread closes the other pipe when it ends
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


class Painters:
    """The drawing processes: ``count`` slots, each taken by up to ``DEPTH`` drawing threads at once."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._slots: list[Painter | None] = [None] * count
        self._free: queue.SimpleQueue[int] = queue.SimpleQueue()
        for _ in range(DEPTH):
            for slot in range(count):
                self._free.put(slot)  # slot by slot: the asks spread over the processes first
        self._started: list[Painter] = []
        self._lock = threading.Lock()
        self.lost = 0
        """Drawings whose drawing process was gone (died, hung, never started) when asked."""
        self.drawn = 0
        """Drawings the processes answered."""

    def draw(self, what: str, kind: str, payload: bytes) -> bytes | None:
        """Draw on a drawing process (starting one in a slot that has none); raise ``PainterGone``."""
        slot = self._free.get()
        painter: Painter | None = None
        try:
            # A process that died idle is found out by its pipe, as one that dies drawing.
            painter = self._painter(slot)
            image = painter.draw(what, kind, payload)
            with self._lock:
                self.drawn += 1
            return image
        except PainterGone:
            with self._lock:
                self.lost += 1
                if painter is not None and self._slots[slot] is painter:
                    self._slots[slot] = None
            raise
        finally:
            self._free.put(slot)

    def _painter(self, slot: int) -> Painter:
        """Return the slot's drawing process, starting one if it has none that is usable."""
        with self._lock:
            painter = self._slots[slot]
            if painter is not None and painter.usable():
                return painter
            self._slots[slot] = None
        painter = self._start()
        with self._lock:
            if self._slots[slot] is None:
                self._slots[slot] = painter
                return painter
            chosen = self._slots[slot]
        painter.stop()  # another thread filled the slot meanwhile: one process a slot
        assert chosen is not None
        return chosen

    def start(self) -> None:
        """Start the drawing processes not running yet (their start-up overlaps the caller's work)."""
        for slot in range(self.count):
            with contextlib.suppress(PainterGone):  # the first drawing tries again, or draws on its thread
                self._painter(slot)

    def pids(self) -> list[int]:
        """Return the process ids of the drawing processes started and not stopped."""
        with self._lock:
            return [painter.process.pid for painter in self._started if painter.alive()]

    def peak_rss_mb(self) -> float:
        """Return the sum of the running drawing processes' peak resident memory, in MB."""
        with self._lock:
            return round(sum(painter.peak_rss_mb() for painter in self._started if painter.alive()), 1)

    def close(self) -> None:
        """Stop every drawing process; a later drawing starts new ones."""
        with self._lock:
            started, self._started = self._started, []
        for painter in started:
            painter.stop()

    def _start(self) -> Painter:
        try:
            painter = Painter()
        except OSError as exc:  # no process to be had (out of processes or memory)
            log.warning("a drawing process could not start: %s", exc)
            raise PainterGone("no drawing process could start") from exc
        with self._lock:
            self._started = [p for p in self._started if p.alive()] + [painter]
        return painter


_painters: Painters | None = None
_painters_lock = threading.Lock()


def painters() -> Painters:
    """Return the drawing processes (one set per bot process, stopped when it exits)."""
    global _painters
    with _painters_lock:
        if _painters is None:
            _painters = Painters(PAINTERS)
            atexit.register(_painters.close)
        return _painters


def start() -> None:
    """Start the drawing processes now rather than at the first drawing (a no-op with threads)."""
    if PROCESSES:
        painters().start()


class Drawings:
    """A bounded, thread-safe cache of drawings; a drawing in flight is waited for, not redone."""

    def __init__(self, limit: int = LIMIT) -> None:
        start()  # the drawing processes import Pillow and the drawings while the bot starts
        self.limit = limit
        self.drawn = 0
        """Drawings made (the bench and tests count them)."""
        self.on_loop = 0
        """Drawings made on the event loop's own thread (a path that forgot ``TableService.image``)."""
        self._done: OrderedDict[Key, bytes | None] = OrderedDict()
        self._flight: dict[Key, threading.Event] = {}
        self._lock = threading.Lock()

    def kept(self, key: Key) -> tuple[bool, bytes | None]:
        """Return whether the drawing under ``key`` is kept, and the drawing (draws nothing)."""
        with self._lock:
            if key not in self._done:
                return False, None
            self._done.move_to_end(key)
            return True, self._done[key]

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
    asked: float = field(default_factory=_asked, repr=False)
    """When the move it shows was asked (``MOVE_ASKED``): the drawing threads take the oldest first."""

    @cached_property
    def payload(self) -> bytes | None:
        """The view and caption pickled, once: the cache key's digest reads it, a drawing process draws it.

        A pickle: about 4x cheaper than the sorted JSON text of the view it replaced, which was 8%
        of the interpreter's time in the load run (py-spy --gil), and made once where the key and
        the drawing process's frame each made one. Equal views built in another order pickle
        differently: that costs a drawing, never a wrong one. None for a view pickle cannot take
        (a test's stand-in), which is then drawn on its thread.
        """
        try:
            return pickle.dumps((self.view, self.caption), protocol=pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError):
            return None

    def key(self) -> Key:
        """Return the cache key: table, version, viewer, and a digest of what is drawn."""
        content = self.payload
        if content is None:
            content = json.dumps([self.view, self.caption], sort_keys=True, default=repr).encode()
        digest = hashlib.blake2b(content, digest_size=16).digest()
        return (self.kind, self.table_id, self.version, self.viewer, digest, render.generation())

    def png(self) -> bytes | None:
        """Return the PNG, drawn now (in this thread) unless this picture was drawn already."""
        return self.drawings.get(self.key(), self._draw)

    def png_elsewhere(self) -> bytes | None:
        """Return the PNG, drawn by a drawing process (``PROCESSES``) unless drawn already.

        The calling thread waits for the process; it draws the picture itself when the drawing is a
        stand-in (no process knows it) or when the process died before answering.
        """
        return self.drawings.get(self.key(), self._draw_elsewhere)

    def _what(self) -> str:
        if self.viewer == "board":
            return "board"
        return "private" if isinstance(self.viewer, tuple) else str(self.viewer)

    def _draw(self) -> bytes | None:
        return render.draw(self._what(), self.kind, self.view, self.caption)

    def _draw_elsewhere(self) -> bytes | None:
        what = self._what()
        payload = self.payload
        if not (PROCESSES and payload is not None and render.shipped(what, self.kind)):
            return self._draw()
        with UNDER_WAY.one() as lone:
            if lone and LONE_HERE:
                return self._draw()
            try:
                return painters().draw(what, self.kind, payload)
            except PainterGone:
                # The delivery waiting on this picture is not failed for a dead process: drawn here.
                log.warning("no drawing process answered; drawing %s of table %s here",
                            self.kind, self.table_id)
                return self._draw()


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
