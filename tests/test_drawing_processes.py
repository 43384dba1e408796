"""Drawings made in drawing processes (``service.drawings.Painters``, ``render.worker``).

The bot's drawings run in processes of their own beside the event loop. What they draw must be
what the thread draws, byte for byte; a process that dies must cost no picture; a stand-in drawing
(which no fresh process knows) must be drawn where it was registered; and they must end when asked.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import render
from bench.argent_board import busy_game
from rules.argent import ARGENT
from service import drawings
from service.drawings import DrawingFailed, Drawings, Painters, board_picture, seat_picture
from tests.drawings import stand_ins


@pytest.fixture(autouse=True)
def every_drawing_to_a_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests follow pictures into the processes: a lone one goes there too (``UnderWay``)."""
    monkeypatch.setattr(drawings, "LONE_HERE", False)


@pytest.fixture
def painters(monkeypatch: pytest.MonkeyPatch) -> Iterator[Painters]:
    """A set of drawing processes of the test's own, used by ``drawings.drawn``, stopped after."""
    own = Painters(2)  # two, whatever the machine: a dead one among several is found out too
    monkeypatch.setattr(drawings, "_painters", own)
    monkeypatch.setattr(drawings, "PROCESSES", True)
    try:
        yield own
    finally:
        own.close()


def _argent() -> tuple[dict[str, Any], dict[str, Any], render.Caption]:
    """An Argent mid-game: the public view, seat 1's view and the board's caption."""
    before = busy_game(4, 5, 30)
    prompt = ARGENT.pending(before)[0]
    after, events = ARGENT.apply(before, prompt.seat, ARGENT.legal_moves(before, prompt.seat)[0])
    caption = render.Caption(
        names={n: f"mage{n}" for n in range(4)},
        last=tuple(e.text for e in events if e.text and e.seat is None),
        before=ARGENT.view(before, None),
    )
    return ARGENT.view(after, None), ARGENT.view(after, 1), caption


async def test_a_process_draws_the_threads_pixels_byte_for_byte(painters: Painters) -> None:
    public, seat, caption = _argent()
    board = board_picture(Drawings(), "argent", 1, 31, public, caption)
    sheet = seat_picture(Drawings(), "argent", 1, 31, 1, seat)
    assert board is not None and sheet is not None
    assert await drawings.drawn(board) == render.board("argent", public, caption)
    assert await drawings.drawn(sheet) == render.private("argent", seat)
    assert painters.drawn == 2 and painters.lost == 0 and painters.peak_rss_mb() > 0


async def test_a_killed_drawing_process_loses_no_picture(painters: Painters) -> None:
    public, _, caption = _argent()
    cache = Drawings()
    painters.start()
    first = board_picture(cache, "argent", 1, 1, public, caption)
    assert await drawings.drawn(first) is not None
    killed = painters.pids()
    assert len(killed) == painters.count
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    await _until(lambda: painters.pids() == [])  # dead and reaped: found dead before it is asked
    expected = render.board("argent", public, caption)
    # A process found dead before it is asked is replaced: its slot's next picture goes to a fresh one.
    for version in range(2, 2 + painters.count):
        assert await drawings.drawn(board_picture(cache, "argent", 1, version, public, caption)) == expected
    fresh = painters.pids()
    assert len(fresh) == painters.count and not set(fresh) & set(killed)
    assert painters.lost == 0 and painters.drawn == 1 + painters.count


async def test_a_drawing_process_that_dies_with_a_picture_asked_loses_no_picture(
    painters: Painters, monkeypatch: pytest.MonkeyPatch
) -> None:
    public, _, caption = _argent()
    cache = Drawings()
    painters.start()
    monkeypatch.setattr(drawings.Painter, "usable", lambda self: True)  # its death not seen yet
    for pid in painters.pids():
        os.kill(pid, signal.SIGKILL)
    expected = render.board("argent", public, caption)
    # The ask finds the pipe broken or closed: the thread draws the picture itself.
    assert await drawings.drawn(board_picture(cache, "argent", 1, 2, public, caption)) == expected
    assert painters.lost == 1 and painters.drawn == 0 and cache.drawn == 1


async def test_asked_together_each_picture_goes_back_to_its_asker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Several pictures are in one process's pipe at once (``DEPTH``): each answer goes to its ask."""
    painters = Painters(1)  # one process, so the drawing threads' asks queue in its one pipe
    monkeypatch.setattr(drawings, "_painters", painters)
    monkeypatch.setattr(drawings, "PROCESSES", True)
    try:
        await _asked_together(painters)
    finally:
        painters.close()


async def _asked_together(painters: Painters) -> None:
    before = busy_game(4, 5, 30)
    views = [ARGENT.view(before, seat) for seat in range(4)]
    cache = Drawings()
    pictures = [seat_picture(cache, "argent", 1, 30, seat, view) for seat, view in enumerate(views)]
    assert all(p is not None for p in pictures)
    images = await asyncio.gather(*(drawings.drawn(p) for p in pictures))
    assert list(images) == [render.private("argent", view) for view in views]
    assert len(set(images)) == len(views) and painters.drawn == len(views) and painters.lost == 0


async def test_a_drawing_that_fails_over_there_fails_here_and_is_drawn_again(painters: Painters) -> None:
    cache = Drawings()
    broken = board_picture(cache, "argent", 1, 1, {"not": "an Argent view"})
    with pytest.raises(DrawingFailed):
        await drawings.drawn(broken)
    assert cache.drawn == 0 and painters.lost == 0  # nothing kept, the process lives on
    public, _, caption = _argent()
    assert await drawings.drawn(board_picture(cache, "argent", 1, 2, public, caption)) is not None


async def test_a_stand_in_drawing_is_drawn_here_not_in_a_process(painters: Painters) -> None:
    seen: list[str] = []

    def stand_in(view: dict[str, Any]) -> bytes:
        seen.append(threading.current_thread().name)
        return b"stand-in"

    assert render.shipped("board", "argent") and render.shipped("private", "argent")
    with stand_ins("argent") as draw_with:
        draw_with(stand_in)
        assert not render.shipped("board", "argent") and render.shipped("private", "argent")
        picture = board_picture(Drawings(), "argent", 1, 1, {"v": 1})
        assert await drawings.drawn(picture) == b"stand-in"
    assert seen and seen[0].startswith("conclave-drawing") and painters.drawn == 0


def test_a_patched_entry_point_is_never_bypassed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(render, "board", lambda kind, view, caption=None: None)
    assert not render.shipped("board", "argent") and render.shipped("private", "argent")
    assert not render.shipped("board", "no such game")


async def test_closed_drawing_processes_end_and_threads_can_be_chosen(
    painters: Painters, monkeypatch: pytest.MonkeyPatch
) -> None:
    public, _, caption = _argent()
    assert await drawings.drawn(board_picture(Drawings(), "argent", 1, 1, public, caption)) is not None
    pids = painters.pids()
    assert pids
    painters.close()
    await asyncio.sleep(0)
    assert painters.pids() == [] and all(not _alive(pid) for pid in pids)
    monkeypatch.setattr(drawings, "PROCESSES", False)
    assert await drawings.drawn(board_picture(Drawings(), "argent", 1, 2, public, caption)) is not None
    assert painters.pids() == [] and painters.drawn == 1  # with threads chosen, no process starts


async def _until(condition: Callable[[], bool], seconds: float = 5.0) -> None:
    """Wait until ``condition`` holds (a killed process takes a moment to end), failing after ``seconds``."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_drawing_cache_starts_the_drawing_processes_at_once(painters: Painters) -> None:
    """A service makes its cache at start: the processes import while the bot connects."""
    assert painters.pids() == []
    Drawings()
    assert len(painters.pids()) == painters.count
    Drawings()  # another service in the same process shares them
    assert len(painters.pids()) == painters.count


async def test_a_hung_drawing_process_is_killed_and_its_picture_drawn_here(
    painters: Painters, monkeypatch: pytest.MonkeyPatch
) -> None:
    public, _, caption = _argent()
    painters.start()
    monkeypatch.setattr(drawings, "ANSWER_WITHIN", 0.5)
    hung = painters.pids()
    for pid in hung:
        os.kill(pid, signal.SIGSTOP)  # alive, reading nothing, answering nothing
    picture = board_picture(Drawings(), "argent", 1, 1, public, caption)
    assert await drawings.drawn(picture) == render.board("argent", public, caption)
    assert painters.lost == 1
    assert sum(_alive(pid) for pid in hung) == len(hung) - 1  # the one asked was killed
    for pid in hung:
        if _alive(pid):
            os.kill(pid, signal.SIGCONT)


async def test_no_drawing_process_to_be_had_draws_on_the_thread(
    painters: Painters, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*args: Any, **kwargs: Any) -> None:
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(drawings.subprocess, "Popen", refused)
    cache = Drawings()  # a service still starts
    public, _, caption = _argent()
    assert await drawings.drawn(board_picture(cache, "argent", 1, 1, public, caption)) == render.board(
        "argent", public, caption
    )
    assert painters.pids() == [] and painters.lost == 1


def test_a_drawing_process_traceback_never_reaches_the_log(caplog: pytest.LogCaptureFixture) -> None:
    """A failed drawing's text is the drawing process's traceback, which may quote the view it drew
    (a seat's hidden cards): the delivery logs its type and frames only."""
    from cogs.kit import delivery

    try:
        raise DrawingFailed("Traceback: KeyError: 'the Gilded Key' in seat 2's vault")
    except DrawingFailed as exc:
        with caplog.at_level(logging.ERROR):
            delivery._log_failure(7, "the argent private panel", exc)
    assert "DrawingFailed" in caplog.text
    assert "Gilded" not in caplog.text and "vault" not in caplog.text


async def test_a_lone_drawing_is_drawn_on_its_thread_and_the_next_by_a_process(
    painters: Painters, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One table moving: its first picture skips the hop to a process; one asked beside it does not."""
    monkeypatch.setattr(drawings, "LONE_HERE", True)
    await _nothing_under_way()
    public, seat, caption = _argent()
    cache = Drawings()
    lone = board_picture(cache, "argent", 1, 1, public, caption)
    assert lone is not None and await drawings.drawn(lone) == render.board("argent", public, caption)
    assert painters.drawn == 0 and drawings.UNDER_WAY.count == 0
    with drawings.UNDER_WAY.one() as first:  # another picture is being drawn meanwhile
        assert first
        beside = seat_picture(cache, "argent", 1, 1, 1, seat)
        assert beside is not None and await drawings.drawn(beside) == render.private("argent", seat)
    assert painters.drawn == 1 and drawings.UNDER_WAY.count == 0


async def test_pictures_asked_together_are_shared_between_the_thread_and_a_process(
    painters: Painters, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move's pictures asked at once: the first on its thread, the others where they fall, each right."""
    monkeypatch.setattr(drawings, "LONE_HERE", True)
    await _nothing_under_way()
    before = busy_game(4, 5, 30)
    views = [ARGENT.view(before, seat) for seat in range(4)]
    cache = Drawings()
    pictures = [seat_picture(cache, "argent", 1, 30, seat, view) for seat, view in enumerate(views)]
    images = await asyncio.gather(*(drawings.drawn(p) for p in pictures))
    assert list(images) == [render.private("argent", view) for view in views]
    assert painters.drawn < len(views) and cache.drawn == len(views) and painters.lost == 0


async def _nothing_under_way() -> None:
    """Wait out any drawing an earlier test left running (a delivery's picture), so the next is lone."""
    for _ in range(500):
        if drawings.UNDER_WAY.count == 0:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("a drawing stayed under way for 5 s")
