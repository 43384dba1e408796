"""Table clocks, the durable scheduler, reminders, quiet hours and absent players (Sigil Duel).

Time is a ManualClock shared by the service and the store; ``Harness.wait`` moves it and runs
the work that came due, and ``Harness.restart`` replaces the service and store as a restarted
process would.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import registry
from service import TableError
from service.clock import ManualClock, parse_span, quiet_until, split_options
from service.scheduler import Scheduler
from store import Store
from tests.async_helpers import ALICE, BOB, CAROL, DAY, HOUR, START, Harness, first_move

pytestmark = pytest.mark.usefixtures("toy_registered")


async def left(h: Harness, table_id: int, user_id: int) -> float:
    assert h.store is not None
    clock = next(c for c in await h.store.seat_clocks(table_id) if c.user_id == user_id)
    return clock.left(h.clock.now())


# ---------------------------------------------------------------------- the clock and its parsing


def test_spans_quiet_hours_and_table_options() -> None:
    assert parse_span("2d") == 2 * DAY and parse_span("3h") == 3 * HOUR and parse_span("1d 6h") == 30 * HOUR
    with pytest.raises(ValueError):
        parse_span("soon")
    # START is 08:00 UTC. Quiet 22-7 in UTC+2 is 20:00-05:00 UTC.
    assert quiet_until(START, 22, 7, 2) is None
    assert quiet_until(START + 13 * HOUR, 22, 7, 2) == START + 21 * HOUR
    assert quiet_until(START + 1 * HOUR, 7, 12, 0) == START + 4 * HOUR
    table, game = split_options({"clock": "fast", "hand": "4"})
    assert table == {"clock": "fast"} and game == {"hand": "4"}
    with pytest.raises(ValueError, match="clock must be one of"):
        split_options({"clock": "glacial"})


async def test_the_scheduler_sleeps_until_the_next_work_and_wakes_for_nearer_work(tmp_path: Path) -> None:
    clock = ManualClock(START)
    store = await Store.open(str(tmp_path / "s.db"), clock=clock.now)
    try:
        table = await store.create_table("toy", "t", {}, 1, 2, ALICE)
        ran: list[str] = []
        scheduler = Scheduler(store, clock)

        async def note(work) -> None:  # type: ignore[no-untyped-def]
            if await store.claim(work.id, clock.now()):
                ran.append(work.key)

        scheduler.handle("note", note)
        await scheduler.add("note", START + 2 * DAY, "far", table.id)
        assert await store.next_due() == START + 2 * DAY
        await scheduler.add("note", START + HOUR, "near", table.id)
        assert await store.next_due() == START + HOUR, "nearer work is what the task sleeps for"
        assert not await scheduler.add("note", START + HOUR, "near", table.id), "one row per key"
        clock.advance(HOUR)
        assert await scheduler.run_due() == 1 and ran == ["near"]
        clock.advance(2 * DAY)
        assert await scheduler.run_due() == 1 and ran == ["near", "far"]
        assert await scheduler.run_due() == 0, "claimed work never runs twice"
    finally:
        await store.close()


async def test_the_scheduler_task_runs_work_when_the_clock_is_moved(tmp_path: Path) -> None:
    import asyncio

    clock = ManualClock(START)
    store = await Store.open(str(tmp_path / "s.db"), clock=clock.now)
    scheduler = Scheduler(store, clock)
    try:
        table = await store.create_table("toy", "t", {}, 1, 2, ALICE)
        done = asyncio.Event()

        async def note(work) -> None:  # type: ignore[no-untyped-def]
            await store.claim(work.id, clock.now())
            done.set()

        scheduler.handle("note", note)
        scheduler.start()
        await scheduler.add("note", START + 3 * HOUR, "later", table.id)
        await asyncio.sleep(0.05)
        assert not done.is_set()
        clock.advance(3 * HOUR)
        await asyncio.wait_for(done.wait(), 5)
    finally:
        await scheduler.stop()
        await store.close()


# ---------------------------------------------------------------------- banks


async def test_a_bank_runs_only_while_the_game_waits_on_the_seat(h: Harness) -> None:
    table = await h.table(options="clock=normal")
    assert await left(h, table, ALICE) == 3 * DAY
    await h.wait(DAY)
    await first_move(h, table, ALICE)  # alice chose in secret; bob is still awaited
    assert await left(h, table, ALICE) == 3 * DAY, "3 days - 1 used + 1 added, capped at the start"
    await h.wait(DAY)
    assert await left(h, table, ALICE) == 3 * DAY, "alice's clock is stopped while nobody waits on her"
    assert await left(h, table, BOB) == DAY, "bob's own clock ran both days"


async def test_clock_none_has_no_deadline_and_fast_has_one_day(h: Harness) -> None:
    calm = await h.table(options="clock=none")
    assert h.svc is not None
    assert await h.svc.time.seat_times(calm) == []
    await h.wait(30 * DAY)
    assert not h.notices("reminder") and not h.notices("vote")
    fast = await h.table(options="clock=fast")
    times = await h.svc.time.seat_times(fast)
    assert {t.deadline for t in times} == {h.clock.now() + DAY}


async def test_boards_status_and_mine_show_the_time_left_as_discord_timestamps(h: Harness) -> None:
    assert h.svc is not None
    table = await h.table()
    deadline = int(h.clock.now() + 3 * DAY)
    board = await h.svc.reads.status(table)
    assert f"alice <t:{deadline}:R>" in board.text and f"bob <t:{deadline}:R>" in board.text
    mine = await h.svc.servers.mine(ALICE)
    assert [m.table.id for m in mine] == [table] and mine[0].deadline == deadline
    assert mine[0].decision == "Choose a sigil in secret."


# ---------------------------------------------------------------------- reminders


async def test_reminders_at_half_the_bank_and_12_hours_before_once_each_across_a_restart(h: Harness) -> None:
    table = await h.table()
    await h.wait(1.5 * DAY - 60)
    assert not h.notices("reminder")
    await h.wait(60)
    assert {n.user_id for n in h.notices("reminder")} == {ALICE, BOB}
    assert all(f"<t:{int(START + 3 * DAY)}:R>" in n.text for n in h.notices("reminder"))
    await h.restart()
    await h.wait(HOUR)
    assert len(h.notices("reminder")) == 2, "a restart never sends a reminder again"
    await h.wait(1 * DAY - HOUR)  # 12 hours before the deadline
    assert len(h.notices("reminder", ALICE)) == 2 and len(h.notices("reminder", BOB)) == 2
    await h.restart()
    await h.wait(11 * HOUR)
    assert len(h.notices("reminder")) == 4
    assert h.store is not None
    kinds = [kind for _, kind, _ in await h.store.notices(table, ALICE)]
    assert kinds == ["reminder", "reminder"]


async def test_a_seat_that_moves_gets_no_reminder_for_that_wait(h: Harness) -> None:
    table = await h.table()
    await h.wait(HOUR)
    await first_move(h, table, ALICE)
    await h.wait(2 * DAY)
    assert [n.user_id for n in h.notices("reminder")] == [BOB]


async def test_quiet_hours_hold_a_reminder_until_they_end(h: Harness) -> None:
    assert h.svc is not None
    await h.svc.time.set_pings(BOB, quiet="19-23", utc_offset=0)
    await h.table()
    await h.wait(1.5 * DAY)  # 20:00 UTC: bob is in his quiet hours
    assert [n.user_id for n in h.notices("reminder")] == [ALICE]
    await h.wait(2 * HOUR)
    assert [n.user_id for n in h.notices("reminder")] == [ALICE]
    await h.wait(HOUR)  # 23:00: quiet hours over
    assert [n.user_id for n in h.notices("reminder")] == [ALICE, BOB]


async def test_pings_nothing_sends_no_reminder_and_prefs_are_stored(h: Harness) -> None:
    assert h.svc is not None
    await h.svc.time.set_pings(BOB, pings="nothing")
    with pytest.raises(TableError, match="every, turn, reminders or nothing"):
        await h.svc.time.set_pings(BOB, pings="sometimes")
    with pytest.raises(TableError, match="22-7"):
        await h.svc.time.set_pings(BOB, quiet="late")
    await h.restart()
    assert h.store is not None and (await h.store.user_prefs(BOB)).pings == "nothing"
    await h.table()
    await h.wait(2.9 * DAY)
    assert {n.user_id for n in h.notices("reminder")} == {ALICE}


async def test_reminders_are_at_least_8_hours_apart_per_seat(h: Harness) -> None:
    # fast: 1 day bank; half (12 h) and the last call (12 h before) would coincide: one reminder.
    await h.table(options="clock=fast")
    await h.wait(DAY - 1)
    assert len(h.notices("reminder", ALICE)) == 1


# ---------------------------------------------------------------------- out of time


async def three_with_carol_silent(h: Harness) -> int:
    table = await h.table(users=(ALICE, BOB, CAROL))
    await first_move(h, table, ALICE)
    await first_move(h, table, BOB)
    await h.wait(3 * DAY)
    return table


async def test_out_of_time_opens_a_vote_marked_on_the_board(h: Harness) -> None:
    assert h.svc is not None
    table = await three_with_carol_silent(h)
    votes = h.notices("vote")
    assert len(votes) == 1 and votes[0].topic == f"absent:{CAROL}"
    assert [c for c, _ in votes[0].choices] == ["wait", "skip", "bot"]
    assert set(votes[0].ping) == {ALICE, BOB}
    assert "carol is OUT OF TIME" in (await h.svc.reads.status(table)).text
    with pytest.raises(TableError, match="Only the other seated players"):
        await h.svc.play.vote(table, CAROL, f"absent:{CAROL}", "wait")


async def test_a_majority_to_skip_plays_the_games_default_for_the_seat(h: Harness) -> None:
    assert h.svc is not None and h.store is not None
    table = await three_with_carol_silent(h)
    answer = await h.svc.play.vote(table, ALICE, f"absent:{CAROL}", "skip")
    assert "1 of 2" in answer and not h.notices("decided")
    await h.svc.play.vote(table, BOB, f"absent:{CAROL}", "skip")
    assert "default move" in h.notices("decided")[0].text
    before = (await h.svc.table(table)).version
    await h.svc.scheduler.run_due()
    assert (await h.svc.table(table)).version > before, "the stand-in played carol's secret choice"
    clock = next(c for c in await h.store.seat_clocks(table) if c.user_id == CAROL)
    assert clock.absent == "skip" and clock.played_for >= 1
    assert await h.svc.replay(table)


async def test_the_vote_expires_after_a_day_and_the_table_waits(h: Harness) -> None:
    assert h.svc is not None
    table = await three_with_carol_silent(h)
    await h.wait(DAY)
    decided = h.notices("decided")
    assert len(decided) == 1 and "waits one more day" in decided[0].text
    assert "OUT OF TIME" not in (await h.svc.reads.status(table)).text
    await h.wait(DAY)
    assert len(h.notices("vote")) == 2, "a day later carol is out of time again"
    with pytest.raises(TableError, match="closed"):
        await h.svc.play.vote(table, ALICE, f"absent:{BOB}", "skip")


async def test_a_second_vote_in_a_row_that_nobody_answers_skips_the_seat(h: Harness) -> None:
    """Ruling "A second unanswered vote skips the seat": the voters are away too, so waiting
    again would keep the table from ever pausing."""
    assert h.svc is not None and h.store is not None
    table = await three_with_carol_silent(h)
    await h.wait(DAY)
    assert "Nobody voted, so the table waits one more day for carol" in h.notices("decided")[0].text
    await h.wait(DAY)
    second = h.notices("vote")[1].text
    assert "nobody answered the last vote" in second and "carol's seat is skipped" in second
    await h.wait(DAY)
    decided = h.notices("decided")
    assert len(decided) == 2, [d.text for d in decided]
    assert "Nobody answered two votes in a row on carol's seat" in decided[1].text
    clock = next(c for c in await h.store.seat_clocks(table) if c.user_id == CAROL)
    assert clock.absent == "skip"


async def test_a_vote_someone_answers_starts_the_count_of_unanswered_votes_again(h: Harness) -> None:
    assert h.svc is not None and h.store is not None
    table = await three_with_carol_silent(h)
    await h.wait(DAY)  # the first vote closes unanswered: the table waits
    await h.wait(DAY)  # carol is out again: a second vote, which alice answers (no majority)
    await h.svc.play.vote(table, ALICE, f"absent:{CAROL}", "wait")
    await h.wait(DAY)  # its expiry follows alice's vote: wait
    await h.wait(DAY)  # out again: the third vote is the first unanswered in a row
    assert "nobody answered" not in h.notices("vote")[2].text
    await h.wait(DAY)
    assert [("waits one more day" in d.text) for d in h.notices("decided")] == [True, True, True]
    clock = next(c for c in await h.store.seat_clocks(table) if c.user_id == CAROL)
    assert clock.absent is None


async def test_an_expired_vote_follows_the_votes_cast(h: Harness) -> None:
    assert h.svc is not None
    table = await three_with_carol_silent(h)
    await h.svc.play.vote(table, ALICE, f"absent:{CAROL}", "skip")
    await h.wait(DAY)
    assert "default move" in h.notices("decided")[0].text


async def test_rejoin_takes_the_seat_back(h: Harness) -> None:
    assert h.svc is not None and h.store is not None
    table = await three_with_carol_silent(h)
    await h.svc.play.vote(table, ALICE, f"absent:{CAROL}", "skip")
    await h.svc.play.vote(table, BOB, f"absent:{CAROL}", "skip")
    await h.svc.scheduler.run_due()
    with pytest.raises(TableError, match="yours already"):
        await h.svc.play.rejoin(table, ALICE)
    await h.restart()
    assert "Welcome back" in await h.svc.play.rejoin(table, CAROL)
    clock = next(c for c in await h.store.seat_clocks(table) if c.user_id == CAROL)
    assert clock.absent is None
    assert "carol is back" in h.notices("rejoin")[0].text


async def test_skip_with_each_games_default_move_keeps_the_game_legal() -> None:
    for kind in registry.kinds():
        rules = registry.get(kind)
        for players in sorted({rules.min_players, rules.max_players}):
            state = rules.setup(players, {}, 7)
            for _ in range(60):
                if rules.is_over(state):
                    break
                seat = rules.waiting_on(state)[0]
                move = rules.default_move(state, seat)
                assert move is not None, f"{kind}: no default move for seat {seat}"
                assert move in rules.legal_moves(state, seat)
                state, _ = rules.apply(state, seat, move)


async def test_stats_mark_games_where_a_seat_was_played_for(h: Harness) -> None:
    assert h.svc is not None
    table = await three_with_carol_silent(h)
    await h.svc.play.vote(table, ALICE, f"absent:{CAROL}", "skip")
    await h.svc.play.vote(table, BOB, f"absent:{CAROL}", "skip")
    for _ in range(200):
        if (await h.svc.table(table)).status != "active":
            break
        await h.svc.scheduler.run_due()
        for user in (ALICE, BOB):
            choices = await h.svc.reads.choices(table, user)
            if choices:
                await h.svc.act(table, user, choices[0].value)
    stats = await h.svc.servers.stats(ALICE)
    assert stats.played == {"toy": 1} and stats.played_for == 1
    assert stats.median_move_seconds is not None


# ---------------------------------------------------------------------- leaving and abandoning


async def test_abandon_counts_only_players_still_in_the_game(h: Harness) -> None:
    """The reported case: 5-player Argent, eve leaves, eve's abandon vote must not count."""
    from tests.async_helpers import DAVE, EVE

    assert h.svc is not None
    table = await h.table("argent", users=(ALICE, BOB, CAROL, DAVE, EVE))
    await h.svc.leave(table, EVE)
    with pytest.raises(TableError, match="You left this game"):
        await h.svc.abandon(table, EVE)
    reply = await h.svc.abandon(table, BOB)
    assert reply.board is not None and "(1 of 4)" in reply.board.text
    for user in (CAROL, DAVE):
        await h.svc.abandon(table, user)
    assert (await h.svc.table(table)).status == "active"
    # The host closes at once anyway; the others' three votes were not all of the four.
    assert (await h.svc.time.active_players(table)) == [
        s.user_id for s in await h.svc.seats(table) if s.user_id != EVE
    ]


async def test_boards_carry_the_times_as_data_for_a_games_own_panel(h: Harness) -> None:
    from cogs.argent import board_lines

    assert h.svc is not None
    table = await h.table("argent", options="clock=relaxed", users=(ALICE, BOB))
    board = await h.svc.reads.status(table)
    assert board.times and {t.deadline for t in board.times} == {START + 7 * DAY}
    assert board.time_sentence() in board_lines(board)


async def test_a_seat_handed_to_a_bot_is_played_by_the_bot(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The vote's "hand to a bot" gives the seat to the bot seats' own basic bot, seeing that seat only."""
    from bots import levels

    assert h.svc is not None and h.store is not None
    asked: list[int] = []

    def last_choice(self, seating, rand):  # type: ignore[no-untyped-def]
        asked.append(seating.seat)  # a bot sees the seat's own view, never the full state
        return seating.legal[-1]

    monkeypatch.setattr(levels.BasicBot, "choose", last_choice)
    table = await three_with_carol_silent(h)
    carol_seat = next(s.seat for s in await h.svc.seats(table) if s.user_id == CAROL)
    _, state = await h.store.load(table)
    highest = max(state["hands"][carol_seat])
    await h.svc.play.vote(table, ALICE, f"absent:{CAROL}", "bot")
    await h.svc.play.vote(table, BOB, f"absent:{CAROL}", "bot")
    assert "played by a bot, Bot (basic)," in h.notices("decided")[0].text
    carol = next(s for s in await h.svc.seats(table) if s.user_id == CAROL)
    assert carol.bot == "basic" and carol.name == "carol", "the seat is a bot seat; its person's name is kept"
    await h.svc.scheduler.run_due()
    assert asked and set(asked) == {carol_seat}
    revealed = [e["text"] for r in await h.store.moves(table) for e in r.events if e["kind"] == "reveal"]
    assert revealed and f"seat {carol_seat}: {highest}" in revealed[0]


async def test_a_bot_seat_from_the_vote_plays_on_without_a_bot_runner(h: Harness) -> None:
    """No Discord side runs the bots here: the scheduler's safety net plays the bot seat to the end."""
    from service.plans import BOT_GRACE

    assert h.svc is not None and h.store is not None
    table = await three_with_carol_silent(h)
    await h.svc.play.vote(table, ALICE, f"absent:{CAROL}", "bot")
    await h.svc.play.vote(table, BOB, f"absent:{CAROL}", "bot")
    for _ in range(100):
        if (await h.svc.table(table)).status != "active":
            break
        await h.wait(BOT_GRACE)
        for user in (ALICE, BOB):
            choices = await h.svc.reads.choices(table, user)
            if choices:
                await h.svc.act(table, user, choices[0].value)
    assert (await h.svc.table(table)).status == "finished"
    clock = next(c for c in await h.store.seat_clocks(table) if c.user_id == CAROL)
    assert clock.absent == "bot" and clock.played_for >= 2, "the bot played carol's seat over several rounds"
    assert (await h.svc.servers.stats(ALICE)).played_for == 1
    assert await h.svc.replay(table)


async def test_ping_preferences_drop_pings_from_boards(h: Harness) -> None:
    assert h.svc is not None
    await h.svc.time.set_pings(BOB, pings="reminders")
    await h.svc.time.set_pings(CAROL, pings="nothing")
    record = await h.svc.open_table("toy", "", guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    await h.svc.join(record.id, BOB, "bob")
    await h.svc.join(record.id, CAROL, "carol")
    reply = await h.svc.start(record.id, ALICE)
    assert reply.board is not None and reply.board.ping == (ALICE,), "bob and carol asked for no pings"
    await h.svc.time.set_pings(BOB, pings="every")
    status = await h.svc.reads.status(record.id)
    assert status.ping == ()  # a status board never pings
