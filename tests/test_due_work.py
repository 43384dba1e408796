"""Due work under leases: a kill loses nothing and repeats nothing a player sees; failures retry.

The scheduler leases a row, runs its handler and only then marks it done. A process killed
between the lease and the effect runs the work again at its next start; a process killed after
the effect and before the record sends the same keyed message again, whose Discord nonce (the
key's) makes Discord keep the first. A handler that raises is retried later with a growing
delay and set aside after ``MAX_ATTEMPTS``; a row whose payload does not read is set aside at
once; neither stops the others, and ``python -m store check`` names them.
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from cogs.kit.delivery import nonce_of
from service import scheduler as scheduler_module
from service.clock import ManualClock
from service.notices import Notice
from service.replies import Reply
from service.scheduler import BATCH, LEASE, MAX_ATTEMPTS, Handler, Scheduler, retry_delay
from store import DueWork, Store
from store.cli import main as check_main
from tests.async_helpers import ALICE, BOB, CAROL, DAY, HOUR, START, Harness, OpenStore, first_move

pytestmark = pytest.mark.usefixtures("toy_registered")


class Killed(BaseException):
    """The process dies here (SIGKILL): no ``except Exception`` of ours catches it."""


def kill_at(h: Harness, kind: str, *, after_sending: bool) -> list[Notice]:
    """Make the outlet kill the process at the first notice of a kind (before or after it went out)."""
    assert h.svc is not None
    seen: list[Notice] = []

    async def outlet(message: Notice | Reply) -> None:
        if isinstance(message, Notice) and message.kind == kind and not seen:
            seen.append(message)
            if after_sending:
                h.sent.append(message)
            raise Killed
        h.sent.append(message)

    h.svc.outlet = outlet
    return seen


async def restarted(h: Harness) -> None:
    """Start a new process on the file, as the scheduler's task does first (leases dropped)."""
    svc = await h.restart()
    await svc.scheduler.recover()


async def moved_once(h: Harness) -> int:
    """Open a fast-clock table where Alice has chosen, so only Bob is waited on; return its id."""
    assert h.svc is not None
    table_id = await h.table(options="clock=fast")
    choice = (await h.svc.reads.choices(table_id, ALICE))[0]
    await h.svc.act(table_id, ALICE, choice.value)
    return table_id


async def test_a_kill_between_the_claim_and_the_reminder_loses_no_reminder(h: Harness) -> None:
    table_id = await moved_once(h)
    kill_at(h, "reminder", after_sending=False)
    with pytest.raises(Killed):
        await h.wait(12 * HOUR)
    assert h.notices("reminder") == []
    await restarted(h)
    await h.wait(0)
    assert [n.user_id for n in h.notices("reminder")] == [BOB]
    assert h.store is not None
    assert [kind for _, kind, _ in await h.store.notices(table_id, BOB)] == ["reminder"]


async def test_a_kill_after_the_reminder_went_out_sends_it_again_under_the_same_key(h: Harness) -> None:
    table_id = await moved_once(h)
    kill_at(h, "reminder", after_sending=True)
    with pytest.raises(Killed):
        await h.wait(12 * HOUR)
    await restarted(h)
    await h.wait(0)
    first, again = h.notices("reminder")
    # The same key is the same Discord nonce: Discord keeps the first message, the player sees one.
    assert first.key == again.key and nonce_of(first.key) == nonce_of(again.key)
    assert h.store is not None
    assert len(await h.store.notices(table_id, BOB)) == 1
    await h.wait(0)
    assert len(h.notices("reminder")) == 2, "recorded at last: never sent a third time"


async def test_a_kill_at_the_deadline_still_opens_the_vote_once(h: Harness) -> None:
    table_id = await h.table(options="clock=fast", users=(ALICE, BOB, CAROL))
    # Carol moves: she is there to vote (with nobody present, every seat would be skipped at once).
    await first_move(h, table_id, CAROL)
    kill_at(h, "vote", after_sending=False)
    with pytest.raises(Killed):
        await h.wait(DAY + HOUR)
    await restarted(h)
    await h.wait(0)
    votes = h.notices("vote")
    assert len(votes) >= 1 and len({v.topic for v in votes}) == len(votes), "one vote per seat"
    assert h.store is not None
    out = [c for c in await h.store.seat_clocks(table_id) if c.out_since is not None]
    assert {c.user_id for c in out} == {v.subject for v in votes}
    expiries = [w for w in await h.store.due(START + 10 * DAY) if w.kind == "expire"]
    assert sorted(w.user_id for w in expiries) == sorted(v.subject for v in votes)


# ---------------------------------------------------------------------- the scheduler itself


async def scheduler_on(tmp_path: Path, open_store: OpenStore) -> tuple[Store, ManualClock, Scheduler, int]:
    clock = ManualClock(START)
    store = await open_store(str(tmp_path / "s.db"), clock=clock.now)
    table = await store.create_table("toy", "t", {}, 1, 2, ALICE)
    return store, clock, Scheduler(store, clock), table.id


async def test_a_handler_that_raises_is_retried_later_then_set_aside(
    tmp_path: Path, open_store: OpenStore
) -> None:
    store, clock, scheduler, table_id = await scheduler_on(tmp_path, open_store)
    try:
        ran: list[str] = []

        async def flaky(work: DueWork) -> None:
            ran.append(work.key)
            if len(ran) == 1:
                raise RuntimeError("Discord is down")

        async def broken(work: DueWork) -> None:
            raise RuntimeError("a bug")

        scheduler.handle("flaky", flaky)
        scheduler.handle("broken", broken)
        await scheduler.add("flaky", START, "once", table_id)
        await scheduler.add("broken", START, "never", table_id)
        await scheduler.run_due()
        assert ran == ["once"] and await store.due(clock.now()) == [], "given back for later, not dropped"
        clock.advance(retry_delay(1))
        await scheduler.run_due()
        assert ran == ["once", "once"]
        for attempt in range(2, MAX_ATTEMPTS + 1):
            clock.advance(retry_delay(attempt))
            await scheduler.run_due()
        assert ran == ["once", "once"], "done after it worked"
        aside = await store.set_aside_work()
        assert [(kind, reason) for _, kind, _, reason in aside] == [
            ("broken", f"RuntimeError in {MAX_ATTEMPTS} attempts")
        ]
        assert await store.next_due() is None
    finally:
        await store.close()


@pytest.mark.sqlite_only
async def test_an_unreadable_row_is_set_aside_and_the_others_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], open_store: OpenStore
) -> None:
    store, _clock, scheduler, table_id = await scheduler_on(tmp_path, open_store)
    try:
        ran: list[str] = []

        async def note(work: DueWork) -> None:
            ran.append(work.key)

        scheduler.handle("note", note)
        await scheduler.add("note", START - 2, "before", table_id)
        await scheduler.add("note", START, "after", table_id)
        raw = sqlite3.connect(str(tmp_path / "s.db"))
        with raw:
            raw.execute(
                "INSERT INTO due_work (due_at, kind, key, table_id, payload) VALUES (?, 'note', 'bad', ?, ?)",
                (START - 1, table_id, "{not json"),
            )
        raw.close()
        await scheduler.run_due()
        assert ran == ["before", "after"]
        assert [(kind, reason) for _, kind, _, reason in await store.set_aside_work()] == [
            ("note", "its payload is not a JSON object")
        ]
    finally:
        await store.close()
    assert await asyncio.to_thread(check_main, ["check", str(tmp_path / "s.db")]) == 1
    printed = capsys.readouterr().out
    assert f"(note) of table {table_id}: set aside, its payload is not a JSON object" in printed


def noting(ran: list[tuple[str, str]], runner: str, *, die_at: str | None = None) -> Handler:
    """Return a handler noting (runner, key) per row it runs; at key ``die_at`` its process dies."""

    async def note(work: DueWork) -> None:
        ran.append((runner, work.key))
        if work.key == die_at:
            raise Killed
        await asyncio.sleep(0.005)

    return note


async def test_the_scheduler_claims_its_work_in_batches_of_one_statement_each(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_store: OpenStore
) -> None:
    store, _clock, scheduler, table_id = await scheduler_on(tmp_path, open_store)
    ran: list[tuple[str, str]] = []
    scheduler.handle("note", noting(ran, "one"))
    await scheduler.add_many([("note", START, f"n{n:02}", table_id, None, None) for n in range(45)])
    leases: list[int] = []
    real_lease_due = store.lease_due

    async def lease_due(now: float, until: float, limit: int = 100) -> list[DueWork]:
        batch = await real_lease_due(now, until, limit)
        leases.append(len(batch))
        return batch

    async def no_read(now: float, limit: int = 100) -> list[DueWork]:
        raise AssertionError("read, then leased row by row: two processes race for each row")

    monkeypatch.setattr(store, "lease_due", lease_due)
    monkeypatch.setattr(store, "due", no_read)
    assert await scheduler.run_due() == 45
    assert [key for _, key in ran] == [f"n{n:02}" for n in range(45)], "in due order, each once"
    assert leases == [BATCH, BATCH, 45 - 2 * BATCH, 0]


async def test_two_schedulers_on_one_database_run_disjoint_work_each_row_once(
    tmp_path: Path, open_store: OpenStore
) -> None:
    store, clock, scheduler, table_id = await scheduler_on(tmp_path, open_store)
    second = Scheduler(await open_store(str(tmp_path / "s.db"), clock=clock.now), clock)
    ran: list[tuple[str, str]] = []
    scheduler.handle("note", noting(ran, "one"))
    second.handle("note", noting(ran, "two"))
    await scheduler.add_many([("note", START, f"n{n:02}", table_id, None, None) for n in range(3 * BATCH)])
    await asyncio.gather(scheduler.run_due(), second.run_due())
    assert sorted(key for _, key in ran) == [f"n{n:02}" for n in range(3 * BATCH)], "each row ran once"
    assert {runner for runner, _ in ran} == {"one", "two"}, "both processes took a share"
    assert await store.due(clock.now() + 10 * LEASE) == [], "every row is marked done"


async def test_a_killed_holders_leases_run_out_and_the_other_process_takes_its_work_over(
    tmp_path: Path, open_store: OpenStore
) -> None:
    store, clock, scheduler, table_id = await scheduler_on(tmp_path, open_store)
    second = Scheduler(await open_store(str(tmp_path / "s.db"), clock=clock.now), clock)
    ran: list[tuple[str, str]] = []
    scheduler.handle("note", noting(ran, "dead", die_at="n02"))
    second.handle("note", noting(ran, "live"))
    await scheduler.add_many([("note", START, f"n{n:02}", table_id, None, None) for n in range(8)])
    with pytest.raises(Killed):
        await scheduler.run_due()  # dies in the middle of n02's effect, holding n02-n07
    assert await second.run_due() == 0, "a live lease is honoured"
    clock.advance(LEASE + 1)
    assert await second.run_due() == 6
    assert ran == [("dead", "n00"), ("dead", "n01"), ("dead", "n02")] + [
        ("live", f"n{n:02}") for n in range(2, 8)
    ], "work cut short runs again (at least once); nothing done is repeated"
    assert await store.due(clock.now() + 10 * LEASE) == []


async def test_a_scheduler_owning_some_shards_runs_only_the_work_of_their_servers(
    tmp_path: Path, open_store: OpenStore
) -> None:
    clock = ManualClock(START)
    low = await open_store(str(tmp_path / "s.db"), clock=clock.now)
    high = await open_store(str(tmp_path / "s.db"), clock=clock.now)
    low.own_shards([0, 1], 4)
    high.own_shards([2, 3], 4)
    tables = {}
    for shard in range(4):
        tables[shard] = (await low.create_table("toy", "t", {}, (1000 * 4 + shard) << 22, 2, ALICE)).id
        await low.schedule("note", START, f"n{shard}", tables[shard])
    ran: list[tuple[str, str]] = []
    runners = [Scheduler(low, clock), Scheduler(high, clock)]
    for runner, name in zip(runners, ("low", "high"), strict=True):
        runner.handle("note", noting(ran, name))
    await asyncio.gather(*(runner.run_due() for runner in runners))
    assert sorted(ran) == [("high", "n2"), ("high", "n3"), ("low", "n0"), ("low", "n1")]


async def test_handlers_slow_enough_to_use_half_the_lease_hand_the_rest_back_to_lease_afresh(
    tmp_path: Path, open_store: OpenStore
) -> None:
    store, clock, scheduler, table_id = await scheduler_on(tmp_path, open_store)
    held: list[float] = []

    async def slow(work: DueWork) -> None:
        held.append(clock.now())
        clock.advance(LEASE / 3)  # each row takes a third of a lease

    scheduler.handle("note", slow)
    await scheduler.add_many([("note", START, f"n{n}", table_id, None, None) for n in range(5)])
    assert await scheduler.run_due() == 5
    assert await store.due(clock.now() + LEASE) == [], "each row ran and was marked done once"
    assert len(held) == 5 and held == sorted(held)


async def test_a_handler_dropping_later_work_of_its_table_keeps_that_work_from_running(
    tmp_path: Path, open_store: OpenStore
) -> None:
    store, _clock, scheduler, table_id = await scheduler_on(tmp_path, open_store)
    other = (await store.create_table("toy", "u", {}, 1, 2, ALICE)).id
    ran: list[str] = []

    async def move(work: DueWork) -> None:
        ran.append(work.key)
        await store.cancel_work(work.table_id, kinds=["note"])  # a move drops the table's reminders

    async def note(work: DueWork) -> None:
        ran.append(work.key)

    scheduler.handle("move", move)
    scheduler.handle("note", note)
    await scheduler.add("move", START - 2, "move", table_id)
    await scheduler.add("note", START - 1, "dropped", table_id)
    await scheduler.add("note", START, "elsewhere", other)
    assert await scheduler.run_due() == 3
    assert ran == ["move", "elsewhere"], "leased in the same batch, but dropped before its turn"


async def test_the_loop_tries_again_within_seconds_when_it_cannot_read_its_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, open_store: OpenStore
) -> None:
    store, _clock, scheduler, table_id = await scheduler_on(tmp_path, open_store)
    monkeypatch.setattr(scheduler_module, "READ_RETRY_FIRST", 0.01)
    ran: list[str] = []

    async def note(work: DueWork) -> None:
        ran.append(work.key)

    scheduler.handle("note", note)
    await scheduler.add("note", START, "due", table_id)
    real_lease_due = store.lease_due
    failures = [sqlite3.OperationalError("disk I/O error")]

    async def lease_due(now: float, until: float, limit: int = 100) -> list[DueWork]:
        if failures:
            raise failures.pop()
        return await real_lease_due(now, until, limit)

    monkeypatch.setattr(store, "lease_due", lease_due)
    scheduler.start()
    try:
        for _ in range(200):
            if ran:
                break
            await asyncio.sleep(0.01)
        assert ran == ["due"], "retried within a second or two, not an hour later"
    finally:
        await scheduler.stop()
        await store.close()


async def test_a_kill_between_the_hand_over_and_the_stand_in_job_leaves_no_stalled_table(
    h: Harness,
) -> None:
    """The vote hands the seat to a bot in several transactions; a kill before the stand-in's job is
    planned (the vote's expiry is gone by then) must not leave the table waiting forever: the next
    start plans the missing work from what the store says."""
    table_id = await h.table(options="clock=fast", users=(ALICE, BOB, 103))
    # 103 moves: someone is there to vote (with nobody present, every seat would be skipped at once).
    await first_move(h, table_id, 103)
    await h.wait(DAY + HOUR)
    assert h.store is not None and h.svc is not None
    out = [c.user_id for c in await h.store.seat_clocks(table_id) if c.out_since is not None]
    assert out, "someone ran out of time"
    subject = out[0]
    voters = await h.svc.time.voters(table_id, subject)
    before = (await h.store.table(table_id)).version
    scheduler = h.svc.scheduler
    plan = scheduler.add

    async def killed_at_autoplay(kind: str, *args: object, **kwargs: object) -> bool:
        if kind == "autoplay":
            raise Killed  # the seat is the bot's and the expiry dropped: the job is not planned yet
        return await plan(kind, *args, **kwargs)

    scheduler.add = killed_at_autoplay  # type: ignore[method-assign]
    with pytest.raises(Killed):
        for voter in voters:
            await h.svc.time.vote(table_id, voter, f"absent:{subject}", "bot")
    await restarted(h)
    await h.wait(HOUR)
    assert h.store is not None
    table = await h.store.table(table_id)
    assert table is not None
    clocks = {c.user_id: c for c in await h.store.seat_clocks(table_id)}
    assert table.version > before or clocks[subject].running_since is None, "the stand-in played"


async def test_a_kill_between_the_bot_leaving_and_the_clock_given_back_is_finished_at_start(
    h: Harness,
) -> None:
    """``/game rejoin`` takes the bot off the seat, then gives the clock back: a kill in between
    leaves a person's seat marked played-by-a-bot, which nobody would play; the next start ends it."""
    table_id = await h.table(options="clock=fast", users=(ALICE, BOB, 103))
    await first_move(h, table_id, 103)  # someone is there to vote on the seats out of time
    await h.wait(DAY + HOUR)
    assert h.store is not None and h.svc is not None
    subject = next(c.user_id for c in await h.store.seat_clocks(table_id) if c.out_since is not None)
    for voter in await h.svc.time.voters(table_id, subject):
        await h.svc.time.vote(table_id, voter, f"absent:{subject}", "bot")
    store = h.store

    async def killed(*args: object, **kwargs: object) -> None:
        raise Killed  # the seat is its person's again, its clock still says a bot plays it

    store.settle_seat = killed  # type: ignore[method-assign]
    with pytest.raises(Killed):
        await h.svc.time.rejoin(table_id, subject)
    await restarted(h)
    assert h.store is not None
    clock = next(c for c in await h.store.seat_clocks(table_id) if c.user_id == subject)
    assert clock.absent is None and clock.out_since is None, "the give-back was finished"
    seat = next(s for s in await h.store.seats(table_id) if s.user_id == subject)
    assert seat.bot is None
