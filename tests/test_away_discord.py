"""A table whose people are all away, through the real bot on SimCord with a hand-moved clock.

The issue's story: two players at a table with ``clock=fast``, nobody moves for a week. Before,
the table played itself to the end and flooded them; now it pauses, each player gets one DM,
nobody is pinged again, and ``/game rejoin`` resumes it with the clocks running. A turn-based
table (Argent, the Academy) runs one seat's clock at a time: its vote goes to the other player,
who is away too, and a second unanswered vote skips the seat (docs/rulings.md).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import discord
import pytest
import simcord

from service.away import PAUSED
from service.clock import DAY, HOUR, ManualClock
from tests import faults
from tests.drawings import views_as_json

HAND_MOVED_CLOCK = True
"""The bot reads the ``clock`` fixture, which the tests move by hand."""


async def pass_time(env: simcord.Env, clock: ManualClock, seconds: float, step: float = 3 * HOUR) -> None:
    """Move the bot's clock a step at a time; its scheduler wakes and sends what came due each step."""
    end = clock.now() + seconds
    while clock.now() < end:
        clock.advance(min(step, end - clock.now()))
        for _ in range(2):
            await asyncio.sleep(0.05)
            await env.settle()


@pytest.fixture
def kind(request: pytest.FixtureRequest) -> Iterator[str]:
    """The game of the story; its drawings are their views as JSON (what is posted, not how it looks)."""
    with views_as_json(request.param):
        yield request.param


def dms(member: simcord.MemberActor) -> list[discord.Message]:
    return member.user.dm_channel.history()


def pinged(messages: list[discord.Message], member: simcord.MemberActor) -> int:
    return sum(f"<@{member.id}>" in m.content for m in messages)


@pytest.mark.parametrize("kind", ["institute", "quadrivium"], indirect=True)
async def test_a_table_nobody_plays_for_a_week_pauses_and_a_rejoin_resumes_it(
    simcord_env: simcord.Env, clock: ManualClock, kind: str
) -> None:
    table = await faults.open_table(simcord_env, kind, 2, options="clock=fast")
    alice, bob = sorted(table.members, key=lambda m: m.user.name)
    table_id, version = await table.table_id(), await table.version()
    svc = table.bot.service
    opened = len(table.public())
    before = {m.id: len(dms(m)) for m in (alice, bob)}

    await asyncio.wait_for(pass_time(simcord_env, clock, 7 * DAY), 60)

    assert await svc.time.away.paused(table_id)
    assert (await svc.table(table_id)).status == "active"
    assert await table.version() == version, "no default move and no bot played the table out"
    posts = [m.content for m in table.public()[opened:]]
    assert sum(PAUSED in p for p in posts) == 1, "one line says the table is paused, why and how to resume"
    # The vote on the first seat out of time, each seat skipped, the pause: no flood.
    assert len(posts) <= 4, posts
    paused_at = next(i for i, p in enumerate(posts) if PAUSED in p)
    assert not any("<@" in p for p in posts[paused_at:]), "nobody is pinged once the table is paused"
    for member in (alice, bob):
        told = [m.content for m in dms(member)[before[member.id]:]]
        about = [t for t in told if "/game rejoin" in t]
        assert len(about) == 1, told
        assert "your seat is skipped" in about[0] and "the table is paused" in about[0]
        assert all("Reminder" in t for t in told if t not in about), "no move-by-move DM"

    # A quiet week more changes nothing: no post, no DM, no ping.
    settled = (len(table.public()), len(dms(alice)), len(dms(bob)))
    await asyncio.wait_for(pass_time(simcord_env, clock, 7 * DAY, step=DAY), 60)
    assert (len(table.public()), len(dms(alice)), len(dms(bob))) == settled

    back = await alice.slash(table.thread, "game rejoin")
    assert "The table resumes" in back.response.content  # type: ignore[union-attr]
    assert any("alice is back: the table resumes" in m.content for m in table.public())
    bob_dms = len(dms(bob))
    await asyncio.wait_for(pass_time(simcord_env, clock, 60, step=60), 20)
    assert not await svc.time.away.paused(table_id)
    assert await table.version() > version, "the skipped seat's default move plays again"
    assert len(dms(bob)) == bob_dms, "bob's seat is still skipped: his moves reach him by no DM"
    store = table.bot.store
    assert store is not None
    mine = next(c for c in await store.seat_clocks(table_id) if c.user_id == alice.id)
    assert mine.absent is None and mine.left(clock.now()) >= DAY - 120, "back to a full bank (fast: 1 day)"
    running = [c for c in await store.seat_clocks(table_id) if c.running_since is not None and not c.absent]
    due = [w for w in await store.due(clock.now() + 30 * DAY) if w.table_id == table_id]
    if running:
        assert {w.kind for w in due} >= {"deadline"}, "the clocks run again: a deadline is planned"
    else:
        assert any(w.kind == "autoplay" for w in due) or await table.version() > version + 1


@pytest.mark.parametrize("kind", ["argent", "academy"], indirect=True)
async def test_a_turn_based_table_nobody_plays_for_two_weeks_pauses_and_a_rejoin_resumes_it(
    simcord_env: simcord.Env, clock: ManualClock, kind: str
) -> None:
    table = await faults.open_table(simcord_env, kind, 2, options="clock=fast")
    svc = table.bot.service
    table_id = await table.table_id()
    first = (await svc.reads.public_view(table_id)).prompts[0].seat
    waited, other = table.members[first], table.members[1 - first]
    opened = len(table.public())
    before = {m.id: len(dms(m)) for m in table.members}

    await asyncio.wait_for(pass_time(simcord_env, clock, 14 * DAY), 120)

    assert await svc.time.away.paused(table_id)
    assert (await svc.table(table_id)).status == "active"
    posts = [m.content for m in table.public()[opened:]]
    name = waited.user.name
    assert sum(f"Nobody voted, so the table waits one more day for {name}" in p for p in posts) == 1
    assert sum(f"Nobody answered two votes in a row on {name}'s seat" in p for p in posts) == 1
    assert sum(f"Nobody is left to vote on {other.user.name}'s seat" in p for p in posts) == 1
    assert sum(PAUSED in p for p in posts) == 1, "one line says the table is paused, why and how to resume"
    paused_at = next(i for i, p in enumerate(posts) if PAUSED in p)
    assert not any("<@" in p for p in posts[paused_at:]), "nobody is pinged once the table is paused"
    votes = [p for p in posts if f"{name} is out of time" in p]
    assert len(votes) == 2 and all(f"<@{other.id}>" in v and f"<@{waited.id}>" not in v for v in votes)
    for member in (waited, other):
        told = [m.content for m in dms(member)[before[member.id]:]]
        about = [t for t in told if "/game rejoin" in t]
        assert len(about) == 1, told
        assert "your seat is skipped" in about[0]
        assert told[-1] == about[0], "nothing reaches a seat on autopilot after its one DM"
        # Before it: reminders, and at most one note when the seat's own turn began.
        assert sum("Reminder" not in t for t in told[:-1]) <= 1, told
    assert "the table is paused" in next(t.content for t in dms(other) if "/game rejoin" in t.content)

    settled = (len(table.public()), len(dms(waited)), len(dms(other)), await table.version())
    await asyncio.wait_for(pass_time(simcord_env, clock, 7 * DAY, step=DAY), 60)
    assert (len(table.public()), len(dms(waited)), len(dms(other)), await table.version()) == settled

    back = await other.slash(table.thread, "game rejoin")
    assert "The table resumes" in back.response.content  # type: ignore[union-attr]
    assert any(f"{other.user.name} is back: the table resumes" in m.content for m in table.public())
    assert not await svc.time.away.paused(table_id)
    store = table.bot.store
    assert store is not None
    mine = next(c for c in await store.seat_clocks(table_id) if c.user_id == other.id)
    assert mine.absent is None and mine.left(clock.now()) >= DAY - 120, "back to a full bank (fast: 1 day)"
