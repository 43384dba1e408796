"""What a bot shows of a move, decided in one place: the kit's delivery and the load bench ask here.

A move's reply holds a board and private notes; what a bot process posts of them (and so draws,
since a picture is drawn only when shown) is:

- the board, unless the move was quiet: a new thread message when the turn passed (``fresh``),
  the game ended or no living board exists yet, else an edit of the turn's living board, paced
  to one per ``EDIT_SPACING`` per table (``EditPacing``: an edit due now is made at once, the
  mover's answer says whether Discord took it; one due sooner waits in the background, the
  boards arriving meanwhile merge into it, and only the newest is drawn);
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

    An edit that waited out its spacing is *claimed* to be drawn outside the delivery lock
    (``claim``): it counts as made from then, so a board arriving while it is drawn waits for the
    next edit, a spacing later, instead of replacing it. Each edit draws one board, the newest at
    its claim; none is drawn only to be replaced. (Redrawing the newest until no newer one came
    drew every version under load, where each drawing waits about as long as a table takes to
    move again, and held the edit back until the table went quiet.)
    """

    def __init__(self) -> None:
        self.pending: dict[int, tuple[int, Board]] = {}
        """The newest board waiting to be drawn over each table's living board (message id, board)."""
        self.claimed: dict[int, tuple[int, Board]] = {}
        """The edit of each table being drawn ahead of its show (``claim``), until it is shown."""
        self.edited: dict[int, float] = {}
        """When each table's living board was last edited (the caller's clock)."""

    def offer(self, message_id: int, board: Board, now: float, spacing: float) -> float | None:
        """Make ``board`` the table's next edit; return the seconds to wait before it goes out
        (0 or less: now), or None when an edit already waiting will show it."""
        waiting = board.table_id in self.pending
        self.pending[board.table_id] = (message_id, board)
        if waiting:
            return None
        if board.table_id in self.claimed:
            # An edit is being drawn: this board follows it a spacing later, rather than taking
            # its place now and leaving its drawing unshown.
            return spacing
        return self._wait(board.table_id, now, spacing)

    def due_now(self, table_id: int, now: float, spacing: float) -> bool:
        """Whether an edit offered now would go out at once (no edit waiting or being drawn, the
        spacing over): ``offer`` would return 0 or less. Changes nothing."""
        return not self.unshown(table_id) and self._wait(table_id, now, spacing) <= 0

    def _wait(self, table_id: int, now: float, spacing: float) -> float:
        """Return the seconds until the table's living board may be edited again (0 or less: now)."""
        return self.edited.get(table_id, float("-inf")) + spacing - now

    def unshown(self, table_id: int) -> bool:
        """Whether the table has an edit not shown yet (waiting, or claimed and being drawn)."""
        return table_id in self.pending or table_id in self.claimed

    def take(self, table_id: int) -> tuple[int, Board] | None:
        """Take the table's newest edit not shown yet (None: none); an edit claimed before it is
        then shown by it, as the living board tells the whole turn."""
        claimed = self.claimed.pop(table_id, None)
        return self.pending.pop(table_id, None) or claimed

    def claim(self, table_id: int, now: float) -> tuple[int, Board] | None:
        """Take the table's waiting edit to be drawn now, outside the delivery lock (None: none).

        The edit counts as made ``now``: a board offered while it is drawn waits out the spacing
        for the next edit. ``take_claimed`` then hands it to its show.
        """
        entry = self.pending.pop(table_id, None)
        if entry is not None:
            self.claimed[table_id] = entry
            self.edited[table_id] = now
        return entry

    def take_claimed(self, table_id: int, entry: tuple[int, Board]) -> tuple[int, Board] | None:
        """Take a claimed edit for its show; None when something showed it meanwhile (a fresh
        board, an edit due now, or a later claim, which holds a newer board)."""
        if self.claimed.get(table_id) is not entry:
            return None
        del self.claimed[table_id]
        return entry

    def mark(self, table_id: int, now: float) -> None:
        """Count an edit of the table's living board as going out at ``now``."""
        self.edited[table_id] = now

    def drop(self, table_id: int) -> None:
        """Forget the table's edits not shown yet (a fresh message shows the table now)."""
        self.pending.pop(table_id, None)
        self.claimed.pop(table_id, None)

    async def draw_claimed(
        self, table_id: int, draw: Callable[[Board], Awaitable[object]], spacing: float,
        clock: Callable[[], float],
    ) -> tuple[int, Board] | None:
        """Claim the table's waiting edit and draw its board (outside the delivery lock, so the
        table's next move does not wait behind it); return the claimed edit (None: none waited).

        One edit of a table is drawn at a time: while an earlier claim is still being drawn (the
        drawings queue under load), this one waits a spacing more, and boards keep merging into it.
        """
        while table_id in self.claimed:
            await asyncio.sleep(spacing)
        entry = self.claim(table_id, clock())
        if entry is None:
            return None
        try:
            await draw(entry[1])
        except BaseException:
            self.take_claimed(table_id, entry)  # not shown: a later edit or post shows the table
            raise
        return entry
