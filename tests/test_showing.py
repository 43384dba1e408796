"""What a bot shows of a move, decided in one place (``service.showing``), and the load bench's use of it.

The kit's delivery and ``bench load`` ask the same questions; these tests pin the answers and
count what the bench draws for quiet moves, merged living-board edits, DMs and the mover's answer.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bench.load import Posting
from rules.contract import Event
from service import Board, PrivateNote, Reply, showing
from store import TableRecord

TABLE = TableRecord(7, "institute", "t", {}, 1, 2, 3, 10, "active", 1, 1, 0.0, 0.0, None)
NEWS = (Event("draw", "You drew a card.", (0,)),)


def board(version: int, *, fresh: bool = False, quiet: bool = False, finished: bool = False) -> Board:
    """Return a board of table 7 at a version, a living-board edit unless ``fresh``."""
    return Board(7, version, f"v{version}", fresh=fresh, quiet=quiet, finished=finished, in_play=True)


def note(user: int, *, dm_ok: bool | None = None, mover: bool = False, news: bool = True) -> PrivateNote:
    """Return a private note of table 7 for ``user``."""
    return PrivateNote(7, 1, user, user, "", dm_ok=dm_ok, mover=mover, events=NEWS if news else ())


class Recorder:
    """A service stand-in whose ``reads.image`` records what it draws, once per picture, as
    ``service.drawings`` does (a second request of one picture reads the first drawing)."""

    def __init__(self) -> None:
        self.drawn: list[Board | PrivateNote] = []
        self.started: list[Board | PrivateNote] = []
        self.reads = SimpleNamespace(image=self.image, start_drawing=self.started.append)

    async def image(self, shown: Board | PrivateNote) -> bytes:
        if shown not in self.drawn:
            self.drawn.append(shown)
        await asyncio.sleep(0)  # a drawing thread answers later
        return b"png"


def test_a_board_is_skipped_when_older_posted_when_the_turn_passed_else_an_edit() -> None:
    assert showing.board_step(board(3), living=5, newest=4) == showing.SKIP
    assert showing.board_step(board(5, fresh=True), living=5, newest=4) == showing.POST
    assert showing.board_step(board(5, finished=True), living=5, newest=4) == showing.POST
    assert showing.board_step(board(5), living=None, newest=4) == showing.POST
    assert showing.board_step(board(5), living=5, newest=4) == showing.EDIT
    assert not showing.board_shown(board(5, quiet=True)) and not showing.board_shown(None)
    assert showing.board_shown(board(5))


def test_dms_go_to_the_others_with_news_and_the_mover_is_answered_with_its_own_note() -> None:
    mover, closed, follow_up, other = note(1), note(2, dm_ok=False), note(3, mover=True, news=False), note(4)
    reply = Reply(TABLE, "ok", board(2), (mover, closed, follow_up, other))
    assert showing.dm_notes(reply, mover=1) == [other]
    assert showing.answer_note(reply, mover=1) is mover
    assert showing.answer_note(reply, mover=9) is None
    assert showing.dm_notes(reply, mover=None) == [mover, other]  # a bot's move: no one to answer


def test_edits_are_paced_and_those_arriving_meanwhile_merge() -> None:
    pacing = showing.EditPacing()
    assert pacing.offer(50, board(2), now=10.0, spacing=1.0) <= 0  # nothing edited yet: now
    assert pacing.take(7) == (50, board(2))
    pacing.mark(7, 10.0)
    assert pacing.offer(50, board(3), now=10.25, spacing=1.0) == 0.75
    assert pacing.offer(50, board(4), now=10.5, spacing=1.0) is None  # merged into the waiting edit
    message, newest = pacing.take(7) or (None, None)
    assert (message, newest.version if newest else None) == (50, 4)
    assert pacing.take(7) is None


def test_an_edit_is_due_now_exactly_when_offer_would_send_it_at_once() -> None:
    """``due_now`` (an edit's drawing starts early only then) agrees with ``offer``, changing nothing."""
    pacing = showing.EditPacing()
    assert pacing.due_now(7, now=10.0, spacing=1.0)  # nothing edited yet
    assert pacing.offer(50, board(2), now=10.0, spacing=1.0) <= 0
    assert not pacing.due_now(7, now=10.0, spacing=1.0)  # an edit waits: the next merges into it
    pacing.take(7)
    pacing.mark(7, 10.0)
    assert not pacing.due_now(7, now=10.25, spacing=1.0)  # within the spacing: it would wait
    assert pacing.due_now(7, now=11.0, spacing=1.0)
    assert pacing.pending == {} and pacing.edited == {7: 10.0}


async def test_an_edit_drawn_while_a_newer_board_came_is_shown_and_the_newer_follows_later() -> None:
    pacing = showing.EditPacing()
    pacing.offer(50, board(3), now=0.0, spacing=0.01)
    drawn: list[int] = []
    shown: list[int] = []

    async def draw(edit: Board) -> None:
        drawn.append(edit.version)
        if edit.version == 3:
            assert pacing.offer(50, board(4), now=0.1, spacing=0.01) is None  # merges into the turn

    async def show(entry: tuple[int, Board]) -> None:
        if pacing.take_drawn(7, entry):
            shown.append(entry[1].version)

    await pacing.edit_in_turn(7, draw, show, spacing=0.01)
    assert drawn == [3, 4] and shown == [3, 4]  # no board drawn in vain, none held back
    assert pacing.pending == {} and pacing.turns == set()
    assert pacing.offer(50, board(5), now=0.2, spacing=0.01) is not None  # the turn is over


async def test_a_board_arriving_while_an_edit_is_shown_is_not_left_waiting() -> None:
    """A board that lands between an edit's drawing and its show still gets its own edit."""
    pacing = showing.EditPacing()
    pacing.offer(50, board(3), now=0.0, spacing=0.01)
    shown: list[int] = []
    offered: list[float | None] = []

    async def show(entry: tuple[int, Board]) -> None:
        if pacing.take_drawn(7, entry):
            shown.append(entry[1].version)
        if entry[1].version == 3:  # lands while v3 goes out (Discord's edit under way)
            offered.append(pacing.offer(50, board(4), now=0.1, spacing=0.01))

    await pacing.edit_in_turn(7, _drawn_at_once, show, spacing=0.01)
    assert shown == [3, 4] and pacing.pending == {}
    assert offered == [None]  # merged into the turn under way, which shows it: no second turn


def test_no_edit_goes_out_after_a_fresh_board_dropped_it() -> None:
    pacing = showing.EditPacing()
    pacing.offer(50, board(3), now=0.0, spacing=1.0)
    entry = pacing.pending[7]
    pacing.drop(7)  # the turn passed: a new message shows the table
    assert not pacing.take_drawn(7, entry)
    pacing.offer(60, board(5), now=0.5, spacing=1.0)  # the new living message's first edit
    assert not pacing.take_drawn(7, entry)  # v3 belongs to the old message


async def test_a_failed_drawing_leaves_no_edit_stuck() -> None:
    pacing = showing.EditPacing()
    pacing.offer(50, board(3), now=0.0, spacing=1.0)

    async def broken(edit: Board) -> None:
        raise RuntimeError("drawing failed")

    with pytest.raises(RuntimeError):
        await pacing.edit_in_turn(7, broken, _drawn_at_once, spacing=1.0)
    assert pacing.offer(50, board(4), now=5.0, spacing=1.0) is not None  # a new edit, not merged away


async def _drawn_at_once(shown: Board | tuple[int, Board]) -> None:
    await asyncio.sleep(0)


class SlowRecorder(Recorder):
    """A ``Recorder`` whose every drawing takes ``seconds``, as the drawing queue does under load."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.seconds = seconds

    async def image(self, shown: Board | PrivateNote) -> bytes:
        first = shown not in self.drawn
        png = await super().image(shown)
        if first:
            await asyncio.sleep(self.seconds)
        return png


async def test_under_slow_drawings_every_board_drawn_is_shown_and_the_newest_shows_last() -> None:
    """A table moving faster than its edits are drawn: no board is drawn only to be replaced, the
    living board is edited while the table moves on, and the last move's board is shown."""
    svc = SlowRecorder(0.08)
    posting = Posting(svc, spacing=0.3)  # type: ignore[arg-type]
    await posting.post(Reply(TABLE, "ok", board(1, fresh=True)), mover=1)
    for version in range(2, 22):  # a move every 20 ms: several land while one edit is drawn
        await posting.post(Reply(TABLE, "ok", board(version)), mover=1)
        await asyncio.sleep(0.02)
    edits_while_moving = posting.drawn["edit"]
    await posting.settle()
    drawn = [shown.version for shown in svc.drawn]
    assert len(drawn) == posting.drawn["post"] + posting.drawn["edit"]  # each drawing was shown
    assert drawn == sorted(drawn) and drawn[-1] == 21
    assert edits_while_moving >= 2  # the edits went out while the table kept moving
    assert len(drawn) <= 8  # boards that came while one was drawn merged into the next edit


async def test_the_bench_draws_nothing_for_a_quiet_move() -> None:
    svc = Recorder()
    posting = Posting(svc, spacing=0.2)  # type: ignore[arg-type]
    await posting.post(Reply(TABLE, "ok", board(2, quiet=True)), mover=1)
    await posting.settle()
    assert svc.drawn == [] and posting.quiet == 1 and not posting.drawn


async def test_the_bench_draws_the_paced_edits_as_the_bot_merges_them() -> None:
    svc = Recorder()
    posting = Posting(svc, spacing=2.0)  # type: ignore[arg-type]  # no stall lets v3 through at once
    for shown in (board(1, fresh=True), board(2), board(3), board(4)):
        await posting.post(Reply(TABLE, "ok", shown), mover=1)
    await posting.settle()
    # v1 is a new message, v2 edits it at once, v3 waits out the spacing and v4 merges into it.
    assert [shown.version for shown in svc.drawn] == [1, 2, 4]
    assert posting.drawn == {"post": 1, "edit": 2}


async def test_the_bench_draws_the_dms_and_the_movers_answer() -> None:
    svc = Recorder()
    posting = Posting(svc)  # type: ignore[arg-type]
    notes = (note(1), note(2, dm_ok=False), note(3, mover=True, news=False), note(4))
    await posting.post(Reply(TABLE, "ok", board(2, quiet=True), notes), mover=1)
    assert [shown.user_id for shown in svc.drawn] == [4, 1]  # type: ignore[union-attr]
    assert posting.drawn == {"dm": 1, "answer": 1}
    # As the kit's delivery: the answer's and the DMs' pictures were started before any was awaited.
    assert [shown.user_id for shown in svc.started] == [1, 4]  # type: ignore[union-attr]
