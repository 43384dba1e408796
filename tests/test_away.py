"""Absent people at the service: stats credit only who played to the end; the last to leave pauses.

The whole story through Discord is ``tests/test_away_discord.py``; these are the service's parts.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from cogs.kit.lists import stats_lines
from rules.contract import Result, State
from rules.toy import ToyRules
from service import TableError
from service.away import LEFT
from service.plans import BOT_GRACE
from tests.async_helpers import ALICE, BOB, CAROL, DAY, NAMES, Harness, first_move

pytestmark = pytest.mark.usefixtures("toy_registered")


async def test_a_bots_win_is_never_credited_to_the_absent_person(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob runs out of time, alice hands his seat to a bot, and the bot wins: nobody is credited."""
    assert h.svc is not None and h.store is not None
    table = await h.table(options="clock=fast")
    bob_seat = next(s.seat for s in await h.svc.seats(table) if s.user_id == BOB)
    real = ToyRules.result

    def bot_wins(self: ToyRules, state: State) -> Result | None:
        """The duel's result, but won by the seat the bot plays (who wins is not the point here)."""
        result = real(self, state)
        return None if result is None else replace(result, winners=(bob_seat,))

    monkeypatch.setattr(ToyRules, "result", bot_wins)
    await first_move(h, table, ALICE)
    await h.wait(DAY)
    assert "bob is out of time" in h.notices("vote")[0].text
    await h.svc.play.vote(table, ALICE, f"absent:{BOB}", "bot")
    for _ in range(100):
        if (await h.svc.table(table)).status != "active":
            break
        await h.wait(BOT_GRACE)
        choices = await h.svc.reads.choices(table, ALICE)
        if choices:
            await h.svc.act(table, ALICE, choices[0].value)
    record = await h.svc.table(table)
    assert record.status == "finished" and record.result is not None
    assert record.result["winners"] == [bob_seat], "the bot won bob's seat's game"

    bob = await h.svc.servers.stats(BOB)
    assert bob.played == {} and bob.won == {} and bob.finished_for == {"bot": 1}
    alice = await h.svc.servers.stats(ALICE)
    assert alice.played == {"toy": 1} and alice.won == {} and alice.finished_for == {}
    lines = stats_lines("bob", bob, {"toy": "Sigil Duel"})
    assert "No games played to the end yet." in lines
    assert any("1 finished by a bot" in line for line in lines)
    assert not any("won" in line for line in lines)


async def test_a_seat_skipped_to_the_end_is_shown_apart(h: Harness) -> None:
    """Nobody is left to vote on bob: he is skipped at once; alice plays on and finishes the game."""
    assert h.svc is not None
    table = await h.table(options="clock=fast", users=(ALICE, BOB))
    await first_move(h, table, ALICE)
    await h.wait(DAY)
    await h.svc.play.vote(table, ALICE, f"absent:{BOB}", "skip")
    for _ in range(100):
        if (await h.svc.table(table)).status != "active":
            break
        await h.wait(1)
        choices = await h.svc.reads.choices(table, ALICE)
        if choices:
            await h.svc.act(table, ALICE, choices[0].value)
    assert (await h.svc.table(table)).status == "finished"
    assert (await h.svc.servers.stats(BOB)).finished_for == {"skip": 1}
    assert (await h.svc.servers.stats(BOB)).played == {}
    assert (await h.svc.servers.stats(ALICE)).played == {"toy": 1}


async def test_the_last_person_to_leave_pauses_the_table(h: Harness) -> None:
    """Argent plays on when a player leaves; with bob skipped and a bot seated, alice was the last."""
    assert h.svc is not None and h.store is not None
    record = await h.svc.open_table("argent", "", guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    for user in (BOB, CAROL):
        await h.svc.join(record.id, user, NAMES[user])
    await h.svc.bots.add_bots(record.id, ALICE, "random")
    await h.svc.start(record.id, ALICE)
    table = record.id
    await h.svc.time.mark_stand_in(table, BOB, "skip")
    await h.svc.leave(table, CAROL)
    assert not h.notices("paused"), "alice still takes part"
    await h.svc.leave(table, ALICE)
    assert len(h.notices("paused")) == 1
    assert await h.svc.time.away.paused(table)
    version = (await h.svc.table(table)).version
    assert await h.svc.bots.next_bot_move(table) is None, "a bot never plays a table nobody takes part in"
    await h.wait(7 * DAY)
    assert (await h.svc.table(table)).version == version and len(h.notices("paused")) == 1
    clocks = {c.user_id: c.absent for c in await h.store.seat_clocks(table)}
    assert clocks[ALICE] == clocks[CAROL] == LEFT
    with pytest.raises(TableError, match="You left this game"):
        await h.svc.play.rejoin(table, ALICE)
    assert "The table resumes" in await h.svc.play.rejoin(table, BOB)
    assert not await h.svc.time.away.paused(table)


async def test_an_undo_vote_pings_no_seat_on_autopilot(h: Harness) -> None:
    """Carol is skipped: the vote on alice's undo pings bob only (carol's seat is quiet)."""
    assert h.svc is not None
    table = await h.table(users=(ALICE, BOB, CAROL))
    await h.svc.time.mark_stand_in(table, CAROL, "skip")
    await first_move(h, table, ALICE)
    await first_move(h, table, BOB)
    await h.wait(0)  # the stand-in locks in carol's sigil: the reveal follows
    reply = await h.svc.play.undo(table, ALICE)
    assert "they vote now" in reply.answer
    vote = h.notices("vote")[-1]
    assert vote.ping == (BOB,)
