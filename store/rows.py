"""What a sound row holds, for the rows the service reads outside the checked move log.

The move log, seed, seats and snapshots are guarded by the hash chain (store.sqlite). The other
rows (seat clocks, due work, preferences, votes, spectators, seat preferences, bot memories, a
table's options and result) are judged here, in one place: each reader sets a damaged row aside
(logging which) so one bad row never stops the rest, and ``python -m store check`` names every
damaged row through ``damaged_rows``.
"""

from __future__ import annotations

import json
import logging
import math
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from typing import Any

log = logging.getLogger("conclave.store")

ABSENT_WAYS = (None, "skip", "bot", "left")
"""How a seat may be played for its absent player (service.timekeeper writes these; "left":
its person left the game, service.away)."""
VOTE_CHOICES = frozenset({"yes", "no", "wait", "skip", "bot", "asked"})
"""Every choice a vote can hold: undo (yes, no; "asked", the asker's row that opens the vote)
and an absent seat (wait, skip, bot)."""
BOT_LEVELS = ("random", "basic", "strong")
"""Every level a seat's bot can have (bots.LEVELS; the store does not import the bots)."""
STAND_IN = "basic"
"""The level that plays a bot seat whose level is damaged: the seat still moves."""


def is_time(value: Any) -> bool:
    """Whether a column holds a number of seconds (a time or a span), as the store writes them."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _time(value: Any) -> bool:
    return value is None or is_time(value)


def _hour(value: Any) -> bool:
    return value is None or (isinstance(value, int) and 0 <= value < 24)


def json_object_fault(text: Any) -> str | None:
    """Say what is wrong with a column that must hold a JSON object, or None when it does."""
    if not isinstance(text, str):
        return "not text"
    try:
        value = json.loads(text)
    except ValueError:
        return "not valid JSON"
    return None if isinstance(value, dict) else "not a JSON object"


def clock_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a ``seat_clocks`` row, or None when it is sound."""
    if not is_time(row["bank"]):
        return "its bank is not a number"
    for name in ("running_since", "out_since", "last_reminder"):
        if not _time(row[name]):
            return f"its {name} is not a time"
    if row["absent"] not in ABSENT_WAYS:
        return "its absent is not skip, bot or left"
    if not isinstance(row["played_for"], int) or row["played_for"] < 0:
        return "its played_for is not a count"
    return None


def wait_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a ``waiting`` row (its ``since``), or None when it is sound."""
    return None if is_time(row["since"]) else "its since is not a time"


def prefs_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a ``user_prefs`` row, or None when it is sound."""
    if not isinstance(row["pings"], str):
        return "its pings are not text"
    if not (_hour(row["quiet_from"]) and _hour(row["quiet_to"])):
        return "its quiet hours are not hours"
    offset = row["utc_offset"]
    if not isinstance(offset, int) or not -12 <= offset <= 14:
        return "its UTC offset is not between -12 and +14"
    return None


def seat_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a ``seats`` row outside the chain (its bot level), or None."""
    return None if row["bot"] in (None, *BOT_LEVELS) else "its bot level is not one there is"


def vote_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a ``votes`` row, or None when it is sound."""
    if not isinstance(row["user_id"], int):
        return "its voter is not a user id"
    return None if row["choice"] in VOTE_CHOICES else "its choice is not one a vote offers"


def user_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a row whose ``user_id`` must be a user id."""
    return None if isinstance(row["user_id"], int) else "its user is not a user id"


DIGESTS = ("turn", "round", "day")
"""How often a spectator's digest comes (``/game watch every:``)."""


def spectator_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a ``spectators`` row, or None when it is sound."""
    if not isinstance(row["user_id"], int):
        return "its user is not a user id"
    if row["every"] not in DIGESTS:
        return "its digest cadence is not turn, round or day"
    if not isinstance(row["told_version"], int) or row["told_version"] < 0:
        return "its last told version is not a version"
    if row["told_round"] is not None and not isinstance(row["told_round"], int):
        return "its last told round is not a number"
    if row["told_at"] is not None and not isinstance(row["told_at"], int | float):
        return "its last digest time is not a time"
    return None


def seat_pref_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a ``seat_prefs`` row, or None when it is sound."""
    return None if isinstance(row["value"], str) else "its value is not text"


def memory_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a ``bot_memory`` row, or None when it is sound."""
    fault = json_object_fault(row["memory"])
    return None if fault is None else f"its memory is {fault}"


def due_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a ``due_work`` row, or None when it is sound."""
    if not is_time(row["due_at"]):
        return "its due time is not a time"
    fault = json_object_fault(row["payload"])
    return None if fault is None else f"its payload is {fault}"


def table_fault(row: sqlite3.Row) -> str | None:
    """Say what is wrong with a ``tables`` row's options or result, or None when both are sound."""
    fault = json_object_fault(row["options"])
    if fault is not None:
        return f"its options are {fault}"
    if row["result"] is not None and (fault := json_object_fault(row["result"])) is not None:
        return f"its result is {fault}"
    return None


def set_aside(where: str, row: sqlite3.Row | dict[str, Any], fault: str, done: str = "set aside") -> None:
    """Log a damaged row a reader skips (or, ``done``, what it did instead); ``where`` names the
    row from its columns (``{table_id}``...). The line names the row and the fault, never a value
    from it: a row may hold anything.
    """
    log.warning("%s is damaged (%s): %s; `python -m store check` lists such rows",
                where.format_map(_Named(row)), fault, done)


Fault = Callable[[sqlite3.Row], "str | None"]
"""A judge of one kind of row: what is wrong with it, or None."""


def sound(rows: list[sqlite3.Row], fault: Fault, where: str) -> list[sqlite3.Row]:
    """Return the rows without fault, logging each one set aside."""
    kept = []
    for row in rows:
        found = fault(row)
        if found is None:
            kept.append(row)
        else:
            set_aside(where, row, found)
    return kept


TABLE = "table {id}"
DUE = "due work {id} ({kind}, table {table_id})"
CLOCK = "seat clock (table {table_id}, user {user_id})"
PREFS = "ping preferences of user {user_id}"
VOTE = "vote (table {table_id}, {topic})"
SPECTATOR = "spectator of table {table_id}"
SEAT_PREF = "seat preference (table {table_id}, {key})"
MEMORY = "bot memory (table {table_id}, seat {seat})"
SEAT = "seat of user {user_id} at table {table_id}"
WAIT = "wait for user {user_id} at table {table_id}"
"""How a report names each kind of row (str.format over its columns)."""

_SCANS: tuple[tuple[str, str, Fault], ...] = (
    (TABLE, "SELECT * FROM tables", table_fault),
    (DUE, "SELECT * FROM due_work", due_fault),
    (SEAT, "SELECT * FROM seats", seat_fault),
    (WAIT, "SELECT * FROM waiting", wait_fault),
    (CLOCK, "SELECT * FROM seat_clocks", clock_fault),
    (PREFS, "SELECT * FROM user_prefs", prefs_fault),
    (VOTE, "SELECT * FROM votes", vote_fault),
    (SPECTATOR, "SELECT * FROM spectators", spectator_fault),
    (SEAT_PREF, "SELECT * FROM seat_prefs", seat_pref_fault),
    (MEMORY, "SELECT * FROM bot_memory", memory_fault),
)


SCANS = _SCANS
"""Every kind of row judged here: (how a report names one, the SELECT of them all, its judge)."""


def damaged_rows(con: sqlite3.Connection) -> Iterator[tuple[str, str]]:
    """Yield (which row, what is wrong) for every damaged row of the kinds judged here."""
    con.row_factory = sqlite3.Row
    known = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    for where, sql, fault in _SCANS:
        table = sql.rsplit(" ", 1)[-1]
        if table not in known:  # an older schema: nothing of that kind yet
            continue
        try:
            rows = con.execute(sql).fetchall()
        except sqlite3.DatabaseError as exc:  # a damaged page: the other kinds are still judged
            yield f"the {table} rows", f"cannot be read ({exc})"
            continue
        yield from faults_in(where, fault, rows)


def faults_in(where: str, fault: Fault, rows: Iterable[Any]) -> Iterator[tuple[str, str]]:
    """Yield (which row, what is wrong) for each damaged row among ``rows`` of one kind."""
    for row in rows:
        found = fault(row)
        if found is not None:
            yield where.format_map(_Named(row)), found


class _Named(dict):
    """A row's columns for str.format, each shown short (a damaged column may hold anything)."""

    def __init__(self, row: sqlite3.Row | dict[str, Any]) -> None:
        super().__init__({key: _short(row[key]) for key in row.keys()})  # noqa: SIM118

    def __missing__(self, key: str) -> str:
        return "?"


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= 40 else text[:39] + "…"
