"""What a bot shows of a move, decided in one place: the kit's delivery and the load bench ask here.

A move's reply holds a board and private notes; what a bot process posts of them (and so draws,
since a picture is drawn only when shown) is:

- the board, unless the move was quiet: a new thread message when the turn passed (``fresh``),
  the game ended or no living board exists yet, else an edit of the turn's living board, paced
  to one per ``EDIT_SPACING`` per table (``EditPacing``: an edit due now is made at once, the
  mover's answer says whether Discord took it; one due sooner waits in the background, the
  boards arriving meanwhile merge into it, and only the newest is drawn, and shown);
- a DM of each other seat's note (not a seat whose DMs are known closed, not the mover's own
  follow-up without news: ``dm_notes``);
- the mover's own note on the answer to its click (``answer_note``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from service.replies import Board, PrivateNote, Reply

EDIT_SPACING = 1.0
"""Seconds between two edits of one living board by default: Discord's rate limit is about 5 per 5 s."""


def board_shown(board: Board | None) -> bool:
    """Whether a move's board is shown in the thread at all (a quiet move's is not)."""
    return board is not None and not board.quiet


SKIP, POST, EDIT = "skip", "post", "edit"
"""How a shown board reaches the thread: not at all (a newer one shows), a new message, an edit."""


def board_step(board: Board, living: int | None, newest: int) -> str:
    """Return how a shown board reaches the thread, given the living board's message and the newest
    version shown: SKIP when older (it would mislead), POST when the turn passed, the game ended or
    nothing lives yet, else EDIT of the living board (paced by ``EditPacing``)."""
    if board.version < newest:
        return SKIP
    if board.fresh or board.finished or living is None:
        return POST
    return EDIT


def dm_notes(reply: Reply, mover: int | None) -> list[PrivateNote]:
    """Return the private notes sent by DM: not the mover's, not to a seat whose DMs are closed."""
    sent = []
    for note in reply.private:
        if note.dm_ok is False or note.user_id == mover:
            continue
        if note.mover and not note.events:
            continue  # the mover's follow-up decisions belong on the answer to its click
        sent.append(note)
    return sent


def answer_note(reply: Reply, mover: int | None) -> PrivateNote | None:
    """Return the note the answer to the mover's click carries (its panel), if the reply has one."""
    return next((note for note in reply.private if note.user_id == mover), None)


class EditPacing:
    """The living boards' edits: at most one per spacing per table; an edit due sooner waits, and
    the boards arriving meanwhile merge into it (only the newest is drawn, when it goes out).
    An edit that waited is drawn and shown in its turn (``edit_in_turn``), and every board
    drawn there is shown.
    """

    def __init__(self) -> None:
        self.pending: dict[int, tuple[int, Board]] = {}
        """The newest board waiting to be drawn over each table's living board (message id, board)."""
        self.edited: dict[int, float] = {}
        """When each table's living board was last edited (the caller's clock)."""
        self.turns: set[int] = set()
        """The tables whose waiting edit is being drawn and shown (``edit_in_turn``)."""

    def offer(self, message_id: int, board: Board, now: float, spacing: float) -> float | None:
        """Make ``board`` the table's next edit; return the seconds to wait before it goes out
        (0 or less: now), or None when an edit already waiting will show it."""
        waiting = self.busy(board.table_id)
        self.pending[board.table_id] = (message_id, board)
        if waiting:
            return None
        return self._wait(board.table_id, now, spacing)

    def due_now(self, table_id: int, now: float, spacing: float) -> bool:
        """Whether an edit offered now would go out at once (no edit waiting, the spacing over):
        ``offer`` would return 0 or less. Changes nothing."""
        return not self.busy(table_id) and self._wait(table_id, now, spacing) <= 0

    def busy(self, table_id: int) -> bool:
        """Whether an edit waits or is in its turn (a board offered now merges into it)."""
        return table_id in self.pending or table_id in self.turns

    def _wait(self, table_id: int, now: float, spacing: float) -> float:
        """Return the seconds until the table's living board may be edited again (0 or less: now)."""
        return self.edited.get(table_id, float("-inf")) + spacing - now

    def take(self, table_id: int) -> tuple[int, Board] | None:
        """Take the table's waiting edit (None: none)."""
        return self.pending.pop(table_id, None)

    def mark(self, table_id: int, now: float) -> None:
        """Count an edit of the table's living board as going out at ``now``."""
        self.edited[table_id] = now

    def drop(self, table_id: int) -> None:
        """Forget the table's waiting edit (a fresh message shows the table now)."""
        self.pending.pop(table_id, None)

    def take_drawn(self, table_id: int, entry: tuple[int, Board]) -> bool:
        """Whether an edit drawn in its turn (``edit_in_turn``) goes out now, taking it if it is
        still the one waiting. An older one goes out too while a newer one waits on the same
        living board (it is newer than what that board shows); none after a fresh board dropped it."""
        pending = self.pending.get(table_id)
        if pending is entry:
            del self.pending[table_id]
            return True
        return pending is not None and pending[0] == entry[0] and pending[1].version > entry[1].version

    async def edit_in_turn(
        self,
        table_id: int,
        draw: Callable[[Board], Awaitable[object]],
        show: Callable[[tuple[int, Board]], Awaitable[object]],
        spacing: float,
    ) -> None:
        """Draw the table's waiting edit and show it (``show`` takes it under the delivery lock).

        Called once the edit waited out its spacing, outside the delivery lock, so the table's
        next move does not wait behind its drawing. While the turn runs, boards merge into the
        waiting edit (``offer``); one that came while an edit was drawn goes out a spacing after
        it, drawn then. So every board drawn is shown, and under load, where a drawing waits about
        as long as a table takes to move again, the living board still changes every drawing and
        spacing. (Redrawing the newest until none newer came drew every version in vain there,
        and held the edit back until the table went quiet.)
        """
        self.turns.add(table_id)
        try:
            while (entry := self.pending.get(table_id)) is not None:
                await draw(entry[1])
                await show(entry)
                if table_id not in self.pending:
                    return
                await asyncio.sleep(spacing)
        except BaseException:
            self.pending.pop(table_id, None)  # not shown: the table's next board starts an edit anew
            raise
        finally:
            self.turns.discard(table_id)
