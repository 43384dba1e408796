"""A loaded table, and what a move or an offer is read against (shared by the table service's parts).

``_Table`` is one started table as the service works on it: record, snapshot, rules and seats.
A choice's value (a move code, or a ``#version.index`` token) and a panel's ``Offer`` carry what
they were offered against, so the check under the table's lock can refuse a stale one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rules.contract import Event, Move, Result, Rules, State
from service.replies import SeatView
from store import SeatRecord, TableRecord

MAX_CHOICES = 25
"""Discord shows at most 25 autocomplete choices or select options."""
VALUE_LIMIT = 100
"""Discord's limit on a choice value, an option value and a custom id."""
TABLE_ID_MAX = 2**63 - 1
"""SQLite's largest integer: a bigger id (a forged custom id) names no table."""
_INDEX_TOKEN = re.compile(r"#(?P<version>[0-9]{1,18})\.(?P<index>[0-9]{1,6})")


def move_value(version: int, index: int, move: Move) -> str:
    """Return what a choice sends back for a move: its code, or ``#version.index`` if too long."""
    code = move.code()
    return code if len(code) <= VALUE_LIMIT else f"#{version}.{index}"


def offered_value(version: int, index: int) -> str:
    """Return what an autocompleted move sends back: ``#version.index``, read once under the lock.

    Unlike a move code, the token cannot apply twice: a second copy names a version that is gone.
    """
    return f"#{version}.{index}"


def offered_token(value: str) -> tuple[int, int] | None:
    """Return the (version, index) of a ``#version.index`` token, or None for other text."""
    token = _INDEX_TOKEN.fullmatch(value.strip())
    return None if token is None else (int(token["version"]), int(token["index"]))


@dataclass(frozen=True)
class Offer:
    """What a panel offered its moves against: a stamp, and how to stamp the seat's view now.

    ``act`` recomputes ``stamp_of(seat_view)`` under the table's lock and refuses the move with
    ``StaleOffer`` when it differs, so two clicks of one panel cannot both apply.
    """

    stamp: str
    stamp_of: Callable[[SeatView], str]


def _known_id(table_id: int) -> bool:
    """Whether an id can name a stored table (ids from custom ids may be forged)."""
    return 0 < table_id <= TABLE_ID_MAX


def _clip(text: str, limit: int = VALUE_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class _Table:
    """A loaded active table: its record, snapshot, rules and seats by seat number."""

    record: TableRecord
    state: State
    rules: Rules
    seats: dict[int, SeatRecord]

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat number of a user, or None when not seated."""
        for number, seat in self.seats.items():
            if seat.user_id == user_id:
                return number
        return None

    def names(self) -> dict[int, str]:
        """Return each seat's player as the thread names them: ``alice (Red)``, ``bob (P2)``."""
        return {n: f"{s.name} ({self.rules.seat_tag(n)})" for n, s in sorted(self.seats.items())}


@dataclass(frozen=True)
class _Outcome:
    """A move read and applied, not yet saved."""

    move: Move
    label: str
    state: State
    events: list[Event]
    result: Result | None
    waiting: list[int]

