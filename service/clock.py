"""Time for the service: an injectable clock, the table clock presets and quiet hours.

The service never calls ``time.time()`` itself: it asks its clock, so a test, the local table
(``wait 2d``) and the bench move time by hand. Games never see time at all.
"""

from __future__ import annotations

import functools
import re
import time
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from datetime import time as dt_time

from rules.contract import OptionSpec

HOUR = 3600.0
DAY = 24 * HOUR

REMINDER_GAP = 8 * HOUR
"""At most one reminder per seat in this time."""
LAST_CALL = 12 * HOUR
"""The second reminder comes this long before a bank runs out."""
VOTE_TIME = DAY
"""An out-of-time vote expires after this; then the table waits."""
WAIT_GRANT = DAY
"""What a "wait" vote adds to an absent seat's bank."""


class SystemClock:
    """The wall clock."""

    def now(self) -> float:
        """Return the time in seconds since the epoch."""
        return time.time()

    def on_change(self, listener: Callable[[], None]) -> None:
        """The wall clock never jumps: nothing to listen to."""


class ManualClock:
    """A clock that moves only when told (tests, the local table's ``wait``, the bench)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self._now = float(start)
        self._listeners: list[Callable[[], None]] = []

    def now(self) -> float:
        """Return the clock's current time."""
        return self._now

    def advance(self, seconds: float) -> float:
        """Move the clock forward and wake whoever sleeps on it; return the new time."""
        if seconds < 0:
            raise ValueError("A clock never goes back.")
        self._now += seconds
        for listener in list(self._listeners):
            listener()
        return self._now

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` whenever the clock moves (the scheduler wakes on it)."""
        self._listeners.append(listener)


Clock = SystemClock | ManualClock


@dataclass(frozen=True)
class ClockPreset:
    """A table clock: the starting bank and what each finished turn adds (capped at the start)."""

    name: str
    bank: float
    increment: float


PRESETS: dict[str, ClockPreset | None] = {
    "none": None,
    "relaxed": ClockPreset("relaxed", 7 * DAY, 2 * DAY),
    "normal": ClockPreset("normal", 3 * DAY, 1 * DAY),
    "fast": ClockPreset("fast", 1 * DAY, 12 * HOUR),
}

TABLE_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "clock",
        "Time bank per player: fast 1 day +12 h a turn, normal 3 days +1 day, relaxed 7 days +2 days",
        tuple(PRESETS),
        "normal",
    ),
    OptionSpec("spectators", "Whether others may follow the table with /game watch", ("on", "off"), "on"),
)
"""Options every table has, whatever its game; the service keeps them from the rules."""
_TABLE_NAMES = {o.name for o in TABLE_OPTIONS}


def split_options(options: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    """Split options into (the table options given, checked; the game's own options).

    Table options left out keep their defaults without being stored (``preset_of`` and the
    spectators check read the defaults), so a table's options show what the host chose.
    """
    table: dict[str, str] = {}
    game: dict[str, str] = {}
    for name, value in options.items():
        if name in _TABLE_NAMES:
            spec = next(o for o in TABLE_OPTIONS if o.name == name)
            table[name] = spec.check(value)
        else:
            game[name] = value
    return table, game


def game_options(options: dict[str, str]) -> dict[str, str]:
    """Return only the game's own options (what ``rules.setup`` takes)."""
    return {k: v for k, v in options.items() if k not in _TABLE_NAMES}


def preset_of(options: dict[str, str]) -> ClockPreset | None:
    """Return a table's clock preset (tables from before clocks get the default)."""
    return PRESETS.get(options.get("clock", "normal"), PRESETS["normal"])


def iso_time(t: float) -> str:
    """Return a stored time as ISO 8601 with its time zone (UTC), e.g. ``2026-12-01T22:18:15+00:00``."""
    return datetime.fromtimestamp(t, tz=UTC).isoformat(timespec="seconds")


def relative(t: float) -> str:
    """Return a Discord relative timestamp (``<t:unix:R>``: "in 2 days", "3 hours ago")."""
    return f"<t:{int(t)}:R>"


def span(seconds: float) -> str:
    """Return a short duration for plain text: ``2d 3h``, ``5h``, ``40m``."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, int(DAY))
    hours, rest = divmod(rest, int(HOUR))
    if days:
        return f"{days}d {hours}h" if hours else f"{days}d"
    if hours:
        return f"{hours}h"
    return f"{rest // 60}m"


_SPAN = re.compile(r"(?P<n>\d+(?:\.\d+)?)\s*(?P<unit>[dhms])")
_UNIT = {"d": DAY, "h": HOUR, "m": 60.0, "s": 1.0}


def parse_span(text: str) -> float:
    """Read ``2d``, ``3h``, ``1d 6h``, ``90m`` as seconds; ValueError otherwise."""
    text = text.strip().lower()
    parts = list(_SPAN.finditer(text))
    if not parts or "".join(p.group(0) for p in parts).replace(" ", "") != text.replace(" ", ""):
        raise ValueError("Write a time as 2d, 3h, 1d 6h or 90m.")
    return sum(float(p["n"]) * _UNIT[p["unit"]] for p in parts)


@functools.cache
def time_zones() -> tuple[str, ...]:
    """Return every IANA time zone name this machine knows, sorted (read once)."""
    return tuple(sorted(zoneinfo.available_timezones()))


def time_zone(name: str) -> str:
    """Return the IANA time zone's name as the database spells it, any case; ValueError when unknown."""
    wanted = name.strip().casefold()
    found = next((z for z in time_zones() if z.casefold() == wanted), None)
    if found is None:
        raise ValueError(name)
    return found


def quiet_until(
    now: float, quiet_from: int | None, quiet_to: int | None, utc_offset: int, tz: str | None = None
) -> float | None:
    """Return when the user's quiet hours end, or None when ``now`` is not in them.

    Hours are whole hours of the user's own day: in the IANA time zone ``tz`` when set (so
    daylight saving moves them with the user's clock), else ``utc_offset`` hours from UTC; a
    span such as 22-7 runs over midnight.
    """
    if quiet_from is None or quiet_to is None or quiet_from == quiet_to:
        return None
    if tz is not None:
        return _quiet_until_in(now, quiet_from, quiet_to, zoneinfo.ZoneInfo(tz))
    local = now + utc_offset * HOUR
    day_start = local - (local % DAY)
    hour = (local - day_start) / HOUR
    inside = (
        quiet_from <= hour < quiet_to if quiet_from < quiet_to else hour >= quiet_from or hour < quiet_to
    )
    if not inside:
        return None
    end = day_start + quiet_to * HOUR
    if end <= local:
        end += DAY
    return end - utc_offset * HOUR


def _quiet_until_in(now: float, quiet_from: int, quiet_to: int, zone: zoneinfo.ZoneInfo) -> float | None:
    """``quiet_until`` on the wall clock of a time zone: the end is ``quiet_to`` o'clock there."""
    local = datetime.fromtimestamp(now, zone)
    hour = local.hour + local.minute / 60 + local.second / 3600
    inside = (
        quiet_from <= hour < quiet_to if quiet_from < quiet_to else hour >= quiet_from or hour < quiet_to
    )
    if not inside:
        return None
    end = datetime.combine(local.date(), dt_time(quiet_to), tzinfo=zone)
    if end <= local:
        end = datetime.combine(local.date() + timedelta(days=1), dt_time(quiet_to), tzinfo=zone)
    return end.timestamp()
