"""A spectator's digest: when it is due (every turn, round or day) and what it says.

A spectator chooses the cadence with ``/game watch every:`` (``store.rows.DIGESTS``, default
round). A digest tells the public events since the spectator's last one, then the board; it
never holds anything but public events and the public board.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.contract import Event
from service.clock import DAY
from service.replies import Board
from store import MoveRecord, Spectator

DIGEST_TEXT = 1800
"""Characters a digest's text keeps (a DM holds 2000; the link to the table follows)."""
EVERY_WORDS = {"turn": "at every turn", "round": "once a round", "day": "once a day"}


def due(spectator: Spectator, board: Board, now: float) -> bool:
    """Whether this board brings the spectator's next digest.

    The end of the game always does. ``day``: a day after the last one. ``round``: when the
    board's round (``Rules.round_of``) differs from the one last told; a game that counts no
    rounds is told at each turn. ``turn``: at each new thread message (a turn, a phase, a reveal).
    """
    if board.finished:
        return True
    if spectator.every == "day":
        return spectator.told_at is None or now - spectator.told_at >= DAY
    if spectator.every == "round" and board.round is not None:
        return board.round != spectator.told_round
    return board.fresh


def public_since(records: Iterable[MoveRecord], version: int) -> list[Event]:
    """Return the public events of the moves after ``version``, oldest first."""
    return [
        event
        for record in records
        if record.version > version
        for event in map(Event.from_json, record.events)
        if event.public
    ]


def text(title: str, board: Board, events: list[Event]) -> str:
    """Word a digest: the public events before this board's own, then the board's text.

    The board's text already tells its own events (the last ones); the oldest earlier lines
    give way when the digest would be too long.
    """
    own = len(board.events)
    tail = [e.text for e in events[len(events) - own :]] if own else []
    earlier = events[: len(events) - own] if own and tail == [e.text for e in board.events] else events
    head = f"{title} (you are watching):"
    budget = DIGEST_TEXT - len(head) - len(board.text) - 2
    lines: list[str] = []
    for event in reversed(earlier):
        line = board.named(event.text)
        if budget - len(line) - 1 < 0:
            break
        lines.insert(0, line)
        budget -= len(line) + 1
    dropped = len(earlier) - len(lines)
    if dropped:
        lines.insert(0, f"({dropped} earlier line{'s' * (dropped != 1)}: `/game log` has them.)")
    return "\n".join([head, *lines, board.text])
