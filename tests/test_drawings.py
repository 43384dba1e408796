"""Drawings are made when shown, once per table, version and viewer (issue 28, "draw once").

A counting stand-in replaces a game's drawings (``tests.drawings.counted_drawings``): each test
counts what was drawn for what was shown. Quiet moves draw no board, the Institute's sheet is
drawn once per move for its DM and panel, every path showing the same picture shares one
drawing, merged live-board edits draw only the last, and nothing is drawn on the event loop.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import simcord

import render
from cogs.kit import delivery
from service import drawings
from service import reads as reads_module
from service.drawings import Drawings, board_picture, seat_picture
from service.replies import Board
from service.tables import TableService
from tests import faults
from tests.drawings import Counted, StandIn, counted_drawings, stand_ins
from tests.test_institute_discord import Player, _die_selects


@pytest.fixture
def institute_drawn() -> Iterator[StandIn]:
    """Draw the Institute with the test's own stand-ins (``institute_drawn(board, private=None)``)."""
    with stand_ins("institute") as stand_in:
        yield stand_in


@pytest.fixture
def institute_counted() -> Iterator[Counted]:
    """Count the Institute's drawings (JSON stand-ins) for the test."""
    with counted_drawings("institute") as seen:
        yield seen


def test_a_drawing_is_made_once_however_many_threads_ask_at_once() -> None:
    cache = Drawings()
    calls: list[int] = []
    started = threading.Event()

    def draw() -> bytes:
        calls.append(1)
        started.wait(0.5)  # hold the drawing while the others ask for it
        return b"png"

    got: list[bytes | None] = []
    threads = [threading.Thread(target=lambda: got.append(cache.get(("t", 1), draw))) for _ in range(6)]
    for thread in threads:
        thread.start()
    started.set()
    for thread in threads:
        thread.join()
    assert calls == [1] and got == [b"png"] * 6
    assert cache.drawn == 1 and cache.on_loop == 0


def test_the_cache_is_bounded_and_a_failed_drawing_is_drawn_again() -> None:
    cache = Drawings(limit=2)
    for version in range(3):
        cache.get((version,), lambda: b"x")
    drawn = cache.drawn
    cache.get((0,), lambda: b"x")  # the oldest was dropped: drawn again
    cache.get((2,), lambda: b"x")  # still kept
    assert cache.drawn == drawn + 1

    def broken() -> bytes:
        raise ValueError("no ink")

    with pytest.raises(ValueError):
        cache.get(("bad",), broken)
    assert cache.get(("bad",), lambda: b"fixed") == b"fixed"


def test_the_cache_says_how_many_bytes_it_keeps() -> None:
    cache = Drawings(limit=2)
    for size in (3, 5, 7):
        cache.get((size,), lambda size=size: b"x" * size)
    cache.get(("none",), lambda: None)  # a game without a drawing keeps nothing
    assert cache.kept_bytes() == 7


async def test_drawings_run_on_their_own_threads_no_more_than_the_cores(
    institute_drawn: StandIn,
) -> None:
    """A move's rules run on the loop's default threads; drawings never queue there."""
    seen: set[str] = set()
    started = threading.Barrier(drawings.WORKERS, timeout=5)

    def draw(view: dict[str, object]) -> bytes:
        seen.add(threading.current_thread().name)
        started.wait()  # every drawing thread is busy at once
        return b"png"

    cache = Drawings()
    institute_drawn(draw)
    pictures = [board_picture(cache, "institute", 9, version, {"v": version})
                for version in range(3 * drawings.WORKERS)]
    images = await asyncio.gather(*(drawings.drawn(picture) for picture in pictures))
    assert images == [b"png"] * len(pictures)
    assert len(seen) == drawings.WORKERS and all(name.startswith("conclave-drawing") for name in seen)
    assert cache.on_loop == 0


async def test_a_picture_drawn_already_is_answered_without_queueing_behind_the_drawing_threads(
    institute_drawn: StandIn,
) -> None:
    """Under load every drawing thread is busy: a picture already drawn (an edit drawn ahead of
    its show) must not wait a round of the queue for its cache hit."""
    release = threading.Event()

    def draw(view: dict[str, Any]) -> bytes:
        if view.get("slow"):
            release.wait(5)  # the drawing threads are behind
        return b"png %d" % view["v"]

    cache = Drawings()
    institute_drawn(draw)
    busy: list[asyncio.Future[bytes | None]] = []
    try:
        assert await drawings.drawn(board_picture(cache, "institute", 9, 1, {"v": 1})) == b"png 1"
        busy = [asyncio.ensure_future(drawings.drawn(board_picture(cache, "institute", 9, 10 + n,
                                                                   {"v": 10 + n, "slow": True})))
                for n in range(drawings.WORKERS + 1)]
        await asyncio.sleep(0.05)  # every drawing thread is held, one more picture queued
        async with asyncio.timeout(1):
            again = board_picture(cache, "institute", 9, 1, {"v": 1})  # the same picture, shown again
            assert await drawings.drawn(again) == b"png 1"
        assert not any(future.done() for future in busy)
    finally:
        release.set()
        await asyncio.gather(*busy)


def test_a_seats_sheet_is_never_the_boards_drawing_and_no_repr_shows_a_view() -> None:
    cache = Drawings()
    secret = {"hand": ["the Gilded Key"]}
    board = board_picture(cache, "institute", 7, 3, secret)
    sheet = seat_picture(cache, "institute", 7, 3, 0, secret)
    other = seat_picture(cache, "institute", 7, 3, 1, secret)
    assert board is not None and sheet is not None and other is not None
    assert len({board.key(), sheet.key(), other.key()}) == 3
    assert "Gilded" not in repr(board) + repr(sheet) + repr(Board(7, 3, "", picture=sheet))


def test_a_picture_key_follows_what_is_drawn() -> None:
    """The digest (a pickle of the view) tells apart any change of content; equal content keys alike."""
    cache = Drawings()
    first = seat_picture(cache, "institute", 7, 3, 0, {"hand": ["the Gilded Key"], "gold": 2})
    same = seat_picture(cache, "institute", 7, 3, 0, {"hand": ["the Gilded Key"], "gold": 2})
    richer = seat_picture(cache, "institute", 7, 3, 0, {"hand": ["the Gilded Key"], "gold": 3})
    typed = seat_picture(cache, "institute", 7, 3, 0, {"hand": ["the Gilded Key"], "gold": 2.0})
    assert first is not None and same is not None and richer is not None and typed is not None
    assert first.key() == same.key()
    assert first.key() != richer.key() and first.key() != typed.key()
    # A view pickle cannot take (a stand-in's) still gets a key, from its JSON text.
    odd = seat_picture(cache, "institute", 7, 3, 0, {"draw": lambda: None})
    assert odd is not None and odd.key() != first.key() and odd.payload is None  # drawn on its thread
    # The caption is drawn too (the names, the last move), so it is in the key.
    view = {"turn": 4}
    last = ("ann draws.",)
    named = board_picture(cache, "institute", 7, 3, view, render.Caption(names={0: "ann"}, last=last))
    renamed = board_picture(cache, "institute", 7, 3, view, render.Caption(names={0: "bob"}, last=last))
    assert named is not None and renamed is not None and named.key() != renamed.key()
    # One pickle per picture: the key's digest and a drawing process's frame read the same bytes.
    assert named.payload is named.payload and named.key() == named.key()


async def test_a_quiet_move_draws_no_board_and_the_movers_sheet_once(
    simcord_env: simcord.Env, institute_counted: Counted
) -> None:
    table = await faults.open_table(simcord_env, "institute", 2)
    red = Player(table, 0)
    panel = await red.open_panel()
    before_boards, before_sheets = len(institute_counted.boards), len(institute_counted.privates)
    select = _die_selects(panel)[0]
    played = await red.member.select(panel, ["take"], custom_id=select["custom_id"])
    assert played.response is not None and played.response.content.startswith("You played: Assign")
    # A die assigned in secret is quiet: the thread shows nothing, so no board is drawn. The
    # mover's refreshed panel shows its sheet: drawn once (the note and the panel share it).
    assert len(institute_counted.boards) == before_boards
    assert len(institute_counted.privates) == before_sheets + 1
    assert table.bot.service.drawings.on_loop == 0


async def test_every_path_showing_a_seats_sheet_shares_one_drawing(
    simcord_env: simcord.Env, institute_counted: Counted
) -> None:
    table = await faults.open_table(simcord_env, "institute", 2)
    # The opening DMs are the panels, each with its seat's sheet: one drawing per seat.
    assert len(institute_counted.privates) == 2
    assert {view["seat"] for view in institute_counted.privates} == {0, 1}
    # The same version's sheet again, by /game hand and by the game's panel command: no drawing.
    blue = table.members[1]
    hand = await blue.slash(table.thread, "game hand")
    panel = await blue.slash(table.thread, "institute panel")
    assert hand.response is not None and hand.response.attachments
    assert panel.response is not None and panel.response.attachments
    assert len(institute_counted.privates) == 2
    # The opening board (no last move) is the public drawing a cog asks for at this version.
    svc = table.bot.service
    public = await svc.reads.public_view(await table.table_id())
    assert len(institute_counted.boards) == 1
    await svc.reads.public_drawing(public)
    await svc.reads.public_drawing(public)
    assert len(institute_counted.boards) == 1
    assert svc.drawings.on_loop == 0


async def test_merged_live_board_edits_draw_only_the_last(
    simcord_env: simcord.Env, institute_counted: Counted, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(delivery, "EDIT_SPACING", 0.5)  # debounced, as on Discord
    table = await faults.open_table(simcord_env, "institute", 2)
    svc, bot = table.bot.service, table.bot
    record = await svc.table(await table.table_id())
    thread = await delivery.thread_of(bot, record)
    drawn = len(institute_counted.boards)
    for step in (1, 2, 3):
        assert await _edit_live_board(bot, thread, record, step)
    await asyncio.sleep(delivery.EDIT_SPACING + 0.3)
    await simcord_env.settle()
    # The first edit goes at once; the second waits out the spacing and the third replaces it.
    assert institute_counted.boards[drawn:] == [{"step": 1}, {"step": 3}]
    assert "step 3" in table.public()[-1].content
    assert render.has_board("institute")


async def _edit_live_board(bot: Any, thread: Any, record: Any, step: int) -> bool:
    """Edit the Institute table's live board to a made-up view ``{"step": step}``, as a move would."""
    version = record.version + step
    picture = board_picture(bot.service.drawings, "institute", record.id, version, {"step": step})
    board = Board(record.id, version, f"step {step}", picture=picture, fresh=False, in_play=True,
                  kind="institute")
    async with delivery.delivery_turn(bot, record.id):
        return await delivery._show_board(bot, thread, board)


async def test_a_waiting_edit_is_drawn_outside_the_delivery_lock(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, institute_drawn: StandIn
) -> None:
    """The table's next move takes the delivery lock while its waiting edit is still being drawn."""
    monkeypatch.setattr(delivery, "EDIT_SPACING", 0.2)
    table = await faults.open_table(simcord_env, "institute", 2)
    svc, bot = table.bot.service, table.bot
    record = await svc.table(await table.table_id())
    thread = await delivery.thread_of(bot, record)
    drawing, release = threading.Event(), threading.Event()

    def slow(view: dict[str, object]) -> bytes:
        if view.get("step") == 2:
            drawing.set()
            release.wait(5)  # the drawing threads are behind
        return b"png"

    institute_drawn(slow)
    try:
        for step in (1, 2):
            assert await _edit_live_board(bot, thread, record, step)
        assert await asyncio.to_thread(drawing.wait, 5)  # step 2's edit is being drawn now
        async with asyncio.timeout(1):
            async with delivery.delivery_turn(bot, record.id):
                pass  # the next move's post is not held behind that drawing
        release.set()
        await asyncio.gather(*delivery._deliveries(bot).tasks)  # the edit, drawn, goes out
        await simcord_env.settle()
    finally:
        release.set()
    assert "step 2" in table.public()[-1].content


async def test_a_living_board_under_quick_moves_shows_every_board_it_draws(
    simcord_env: simcord.Env, monkeypatch: pytest.MonkeyPatch, institute_drawn: StandIn
) -> None:
    """Steps land faster than their edits are drawn: each edit drawn is shown (none drawn only to
    be replaced), the board changes while the steps go on, and the last step is shown."""
    monkeypatch.setattr(delivery, "EDIT_SPACING", 0.2)
    table = await faults.open_table(simcord_env, "institute", 2)
    svc, bot = table.bot.service, table.bot
    record = await svc.table(await table.table_id())
    thread = await delivery.thread_of(bot, record)
    drawn: list[int] = []
    shown: list[int] = []

    def slow(view: dict[str, Any]) -> bytes:
        drawn.append(view["step"])
        time.sleep(0.12)  # the drawing threads are behind
        return b"png"

    real_send_args = delivery.board_send_args

    async def send_args(client: Any, board: Board) -> dict[str, Any]:
        shown.append(board.version - record.version)
        return await real_send_args(client, board)

    monkeypatch.setattr(delivery, "board_send_args", send_args)
    institute_drawn(slow)
    for step in range(1, 13):
        assert await _edit_live_board(bot, thread, record, step)
        await asyncio.sleep(0.04)
    shown_while_stepping = len(shown)
    while delivery._deliveries(bot).tasks:
        await asyncio.gather(*delivery._deliveries(bot).tasks)
    await simcord_env.settle()
    assert sorted(drawn) == sorted(set(shown)) and shown == sorted(shown)  # every drawing shown, in order
    assert shown[-1] == 12 and "step 12" in table.public()[-1].content
    assert shown_while_stepping >= 2  # not held back until the steps stopped
    assert len(drawn) < 12  # the steps that came while one was drawn merged


@pytest.fixture
def four_drawing_threads(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Draw on four threads for the test, whatever the machine's cores (overlap needs two)."""
    pool = drawings.OldestFirst(4, "test-drawing")
    monkeypatch.setattr(drawings, "_pool", pool)
    yield
    pool.shutdown(wait=True)


async def test_a_delivery_draws_its_board_and_its_notes_side_by_side(
    simcord_env: simcord.Env, four_drawing_threads: None, institute_drawn: StandIn
) -> None:
    """The opening's board and the seats' DM sheets are started together: the board's drawing
    sees a sheet being drawn while it draws (one after another, it would wait in vain)."""
    sheet_begun = threading.Event()
    overlapped: list[bool] = []

    def board(view: dict[str, Any]) -> bytes:
        overlapped.append(sheet_begun.wait(5))
        return b"board"

    def private(view: dict[str, Any]) -> bytes:
        sheet_begun.set()
        return b"sheet"

    institute_drawn(board, private)
    table = await faults.open_table(simcord_env, "institute", 2)
    assert overlapped == [True]
    svc = table.bot.service
    assert svc.drawings.drawn == 3  # the board and each seat's sheet, once each
    assert svc.drawings.on_loop == 0


async def test_a_started_drawing_is_awaited_by_its_show_not_drawn_again(
    svc: TableService, institute_drawn: StandIn
) -> None:
    """``start_drawing`` then ``image``: one drawing; a failed one raises at the show only."""
    calls: list[int] = []

    def board(view: dict[str, Any]) -> bytes:
        calls.append(view["step"])
        if view["step"] == 2:
            raise ValueError("no ink")
        return b"board"

    institute_drawn(board)
    shown = Board(7, 1, "", picture=board_picture(svc.drawings, "institute", 7, 1, {"step": 1}))
    svc.reads.start_drawing(shown)
    svc.reads.start_drawing(shown)  # already under way: not started twice
    assert await svc.reads.image(shown) == b"board"
    assert await svc.reads.image(shown) == b"board"
    assert calls == [1]
    failing = Board(7, 2, "", picture=board_picture(svc.drawings, "institute", 7, 2, {"step": 2}))
    svc.reads.start_drawing(failing)
    with pytest.raises(ValueError):
        await svc.reads.image(failing)
    quiet = Board(7, 3, "")  # no picture: nothing to start
    svc.reads.start_drawing(quiet)
    assert await svc.reads.image(quiet) is None


async def test_a_drawing_done_before_its_show_is_handed_over_not_queued_again(
    svc: TableService, monkeypatch: pytest.MonkeyPatch, institute_drawn: StandIn
) -> None:
    """A note drawn while the board went out is given to its DM as it is: under load, asking the
    drawing threads again would queue a cache hit behind every other table's drawing."""
    institute_drawn(lambda view: b"board")
    queued: list[object] = []
    real_drawing = reads_module.drawing

    def drawing(picture: Any) -> Any:
        queued.append(picture)
        return real_drawing(picture)

    monkeypatch.setattr(reads_module, "drawing", drawing)
    shown = Board(7, 1, "", picture=board_picture(svc.drawings, "institute", 7, 1, {"step": 1}))
    svc.reads.start_drawing(shown)
    for _ in range(200):  # until the drawing thread is done with it
        if all(future.done() for future in svc.reads._drawing.values()):
            break
        await asyncio.sleep(0.01)
    assert await svc.reads.image(shown) == b"board"
    assert queued == [shown.picture]  # handed over: asked of the drawing threads once
    assert not svc.reads._drawing  # its show took it
    for version in range(2, 2 + reads_module.STARTED_LIMIT + 10):  # shows that never come
        svc.reads.start_drawing(Board(7, version, "", picture=board_picture(
            svc.drawings, "institute", 7, version, {"step": version})))
    assert len(svc.reads._drawing) == reads_module.STARTED_LIMIT
