"""What the service says on its own, not as the answer to a command: plain data, no Discord.

The scheduler and the vote machinery hand a ``Notice`` (or the ``Reply`` of a move played for
an absent seat) to the service's outlet; the bot's outlet posts it in the thread or DMs it.
"""

from __future__ import annotations

from dataclasses import dataclass

from service.replies import Board, SeatTime
from store import TableRecord


@dataclass(frozen=True)
class Notice:
    """A message the service sends by itself: a reminder, a vote, a decision, a spectator's board.

    ``user_id`` None posts in the table's thread; otherwise it is a DM to that user. A vote
    carries its ``topic`` and ``choices`` (value, label), one button each. Nothing here is ever
    private to a seat: reminders name only the table and the time left.
    """

    table: TableRecord
    kind: str
    text: str
    user_id: int | None = None
    topic: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    board: Board | None = None
    ping: tuple[int, ...] = ()
    key: str = ""
    """The due work that sent it (a reminder's key is unique: it is sent once)."""
    subject: int | None = None
    """The player a vote or a decision is about (an absent seat's user)."""


__all__ = ["Notice", "SeatTime"]
