"""SimCord's look at the bot's work while a command settles, for the benches that time it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

SETTLE_POLL = 0.005
"""Seconds between SimCord's looks at the bot's work while a move settles (its own default is 50 ms)."""


@contextlib.contextmanager
def settle_poll(seconds: float = SETTLE_POLL) -> Iterator[None]:
    """Let SimCord look again every ``seconds`` while it waits for the bot to settle.

    SimCord settles a command by waiting, 50 ms at a time, for the bot's tasks to finish. When its
    look falls just after the bot's last task ended but before that task's done-callbacks ran, it
    sees work queued, and the next look comes 50 ms later: the move was charged up to 50 ms it
    did not take (a Quadrivium move went from ~25 to ~75 ms this way, as soon as kept views were
    read without a hop). The bench measures the bot, not that wait: a 5 ms look is a tenth of the
    error for little of the interpreter's time (a 2 ms look cost the moves' median 1-4 ms). It is
    a default of SimCord's pinned version (``requirements.txt``); another version keeps its own.
    """
    import simcord.env

    defaults = getattr(simcord.env.Env._settle_internal, "__kwdefaults__", None) or {}
    if "idle" not in defaults:
        yield
        return
    before = defaults["idle"]
    defaults["idle"] = seconds
    try:
        yield
    finally:
        defaults["idle"] = before
