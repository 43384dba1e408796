"""What the table service hands back to a cog: plain data, no Discord types.

A cog turns a ``Reply`` into one thread message (``Board``), a DM per ``PrivateNote`` and a
short ephemeral answer (``Reply.answer``) for the player who asked.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.contract import Move, Prompt
from store import TableRecord


class TableError(Exception):
    """A request the table cannot carry out; ``sentence`` is what the user reads."""

    def __init__(self, sentence: str) -> None:
        super().__init__(sentence)
        self.sentence = sentence


class StaleOffer(TableError):
    """A move offered against a version or a panel stamp that no longer holds (checked under the lock)."""


@dataclass(frozen=True)
class Choice:
    """One legal move offered to a seat: a readable label and the value to send back.

    ``move`` is the move itself when the service offers it (``seat_view``), so a cog can sort
    or filter its choices by action without reading the rules; it never takes part in equality.
    """

    label: str
    value: str
    move: Move | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Board:
    """What the table's thread shows: public text, the board, and whom to ping.

    ``image`` is the PNG of the public view, or None when the game has no drawing yet; then
    ``view_text`` holds the public view as text. Neither ever carries a secret. ``in_play``
    marks the board of a running game (it gets the "My private view" button).
    """

    table_id: int
    version: int
    text: str
    image: bytes | None = None
    view_text: str | None = None
    ping: tuple[int, ...] = ()
    finished: bool = False
    in_play: bool = False
    kind: str = ""
    quiet: bool = False
    """A move nobody else needs to see: no public event, no fresh prompt, not the end.
    The kit then posts nothing in the thread (the mover is answered ephemerally)."""


@dataclass(frozen=True)
class PrivateNote:
    """What one seat alone may read: its private events and its own view.

    ``choices`` are that seat's legal moves now (for a select in a DM or an ephemeral answer);
    ``dm_ok`` is the reachability the store last saw (False: do not try a DM).
    """

    table_id: int
    version: int
    user_id: int
    seat: int
    text: str
    image: bytes | None = None
    view_text: str | None = None
    choices: tuple[Choice, ...] = ()
    dm_ok: bool | None = None
    kind: str = ""


@dataclass(frozen=True)
class SeatView:
    """Everything a game's own panel needs for one seat, read from one snapshot.

    ``view`` is ``rules.view(state, seat)`` (that seat's secrets only); ``moves`` holds EVERY
    legal move of the seat, uncapped, in ``legal_moves`` order (value: the move's code or a
    ``#version.index`` token); ``prompts`` holds every pending prompt (their text is public).
    """

    table: TableRecord
    version: int
    seat: int
    view: dict[str, Any]
    moves: tuple[Choice, ...]
    prompts: tuple[Prompt, ...]

    @property
    def asked(self) -> tuple[Prompt, ...]:
        """Return the prompts waiting on this seat."""
        return tuple(p for p in self.prompts if p.seat == self.seat)


@dataclass(frozen=True)
class PublicView:
    """What anyone at the table may know, read from one snapshot: for a game's own thread messages.

    ``view`` is ``rules.view(state, None)`` (no seat's secrets); ``prompts`` holds every pending
    prompt (none once the table is closed); ``names`` and ``users`` give each seat's player name
    and user id.
    """

    table: TableRecord
    version: int
    view: dict[str, Any]
    prompts: tuple[Prompt, ...]
    names: dict[int, str]
    users: dict[int, int]

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat of a user, or None when not seated."""
        return next((seat for seat, user in self.users.items() if user == user_id), None)


@dataclass(frozen=True)
class Reply:
    """The outcome of a lobby or game action: what to post, to whom, and the answer."""

    table: TableRecord
    answer: str
    board: Board | None = None
    private: tuple[PrivateNote, ...] = ()


@dataclass(frozen=True)
class WaitingTable:
    """A table waiting on a user, with the time it started waiting."""

    table: TableRecord
    since: float
    title: str
    decision: str = ""
    """What the game asks of this user there, e.g. "draft a mage" (its prompts' public text)."""

    @property
    def link(self) -> str | None:
        """Return a jump link to the table's thread, when it has one."""
        if self.table.thread_id is None:
            return None
        guild = self.table.guild_id if self.table.guild_id is not None else "@me"
        return f"https://discord.com/channels/{guild}/{self.table.thread_id}"
