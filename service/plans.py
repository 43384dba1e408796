"""The due work a table's clocks imply: pure plans of reminders, deadlines, votes' expiries and
stand-in moves, computed inside a commit (``Timekeeper.timing``) and at start-up (``replan``).
"""

from __future__ import annotations

from service.clock import LAST_CALL, REMINDER_GAP, VOTE_TIME, preset_of
from store import SeatClock, TableWait, WorkItem

BOT_GRACE = 60.0
"""Seconds a bot seat's runner has to move before the scheduler plays the bot's move itself."""
UNANSWERED = "unanswered"
"""Payload key of a deadline and a vote's expiry: the votes on the seat in a row nobody answered."""


def wait_work(
    table_id: int,
    version: int,
    clocks: list[SeatClock],
    bots: set[int],
    timed: bool,
    now: float,
    autoplaying: bool,
) -> list[WorkItem]:
    """Return the due work the running clocks imply (pure: also run inside a commit).

    A seat played for its absent player gets a stand-in's move (a bot's after ``BOT_GRACE``, the
    durable safety net of a process with no bot runner); a bot seat nothing; a seat awaited in
    person its reminders and deadline when the table has a clock.
    """
    work: list[WorkItem] = []
    for clock in clocks:
        if clock.running_since is None:
            continue
        if clock.absent:
            if not autoplaying:
                # A stand-in run already playing goes on by itself: no new job per move.
                due = now + BOT_GRACE if clock.user_id in bots else now
                work.append(("autoplay", due, f"auto:{table_id}:{version}", table_id, None, None))
        elif clock.user_id in bots:
            continue
        elif timed and clock.out_since is None:
            work.extend(seat_work(table_id, clock, True, now))
    return work


def missing_work(wait: TableWait, now: float) -> list[WorkItem]:
    """Return the due work a table's stored state implies that no open row holds (pure).

    An awaited absent seat needs a stand-in's job, a seat out of time its vote's expiry, a seat
    awaited in person on a clock its last call and deadline (no half-way reminder: its moment
    may have passed, and a reminder sent already keeps its key, so none is sent twice).
    """
    table = wait.table
    timed = preset_of(table.options) is not None
    work: list[WorkItem] = []
    for clock in wait.clocks:
        user = clock.user_id
        if clock.running_since is None:
            continue
        if clock.absent:
            if ("autoplay", None) not in wait.open_work:
                due = now + BOT_GRACE if wait.bots.get(user) else now
                work.append(("autoplay", due, f"auto:{table.id}:{table.version}", table.id, None, None))
        elif wait.bots.get(user):
            continue  # a bot seat moves by itself: nothing is due for it
        elif clock.out_since is not None:
            if ("expire", user) not in wait.open_work:
                # The count of unanswered votes lived on the lost row: this vote counts as a first.
                out = clock.out_since
                work.append(("expire", out + VOTE_TIME, f"expire:{table.id}:{user}:{out:.0f}", table.id,
                             user, vote_payload(out, 0)))
        elif timed and ("deadline", user) not in wait.open_work:
            work.extend(seat_work(table.id, clock, False, now))
    return work


def vote_payload(out: float, unanswered: int) -> dict[str, float | int]:
    """Return an out-of-time vote's expiry payload: when the seat ran out, and the unanswered votes before."""
    payload: dict[str, float | int] = {"out_since": out}
    if unanswered:
        payload[UNANSWERED] = unanswered
    return payload


def seat_work(
    table_id: int, clock: SeatClock, half: bool, now: float, unanswered: int = 0
) -> list[WorkItem]:
    """Return a running seat's reminders and deadline (their keys make each once per wait).

    ``unanswered``: the votes on this seat in a row that closed with no vote cast (after a wait
    no one voted for); the deadline hands it on to the next vote.
    """
    since, deadline = clock.running_since, clock.deadline()
    assert since is not None and deadline is not None
    user = clock.user_id
    bank = deadline - since
    last = deadline - LAST_CALL if bank > LAST_CALL else since + bank / 2
    midway = since + bank / 2
    payload: dict[str, float | int] = {"since": since, "deadline": deadline}
    if unanswered:
        payload[UNANSWERED] = unanswered
    planned = []
    # A reminder whose moment has passed (a seat taken back mid-wait) is not sent late.
    if half and last - midway >= REMINDER_GAP and midway >= now:
        planned.append(("remind", midway, f"half:{table_id}:{user}:{since:.0f}"))
    if max(since, last) >= now:
        planned.append(("remind", max(since, last), f"last:{table_id}:{user}:{since:.0f}:{deadline:.0f}"))
    planned.append(("deadline", deadline, f"deadline:{table_id}:{user}:{since:.0f}:{deadline:.0f}"))
    reminder = {"since": since, "deadline": deadline}
    return [(kind, due, key, table_id, user, payload if kind == "deadline" else reminder)
            for kind, due, key in planned]
