"""Tables that last weeks, through the real bot and cogs on SimCord, with a hand-moved clock.

Out-of-time votes by button, the Undo button, /game watch, /game log pages, /game history,
/me pings, and threads that Discord archived or a moderator deleted.
"""

from __future__ import annotations

import asyncio
import sqlite3
from dataclasses import dataclass

import discord
import pytest
import simcord

from cogs.kit import nonce_of
from service import TableError
from service.clock import DAY, ManualClock
from tests.async_helpers import START
from tests.faults import Lobby

pytestmark = pytest.mark.usefixtures("toy_registered")


HAND_MOVED_CLOCK = True
"""The bot reads the ``clock`` fixture, which the tests move by hand."""


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 4242


@dataclass
class World(Lobby):
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    dave: simcord.MemberActor


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    guild = simcord_env.create_guild("Conclave Test")
    channel = guild.create_text_channel("tables")
    members = [guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob", "carol", "dave")]
    return World(simcord_env, channel, *members)


async def started(world: World, options: str = "", players: int = 2) -> simcord.ChannelHandle:
    extra = {"options": options} if options else {}
    await world.alice.slash(world.channel, "game new", kind="toy", **extra)
    thread = world.thread()
    await world.bob.slash(thread, "game join")
    if players == 3:
        await world.carol.slash(thread, "game join")
    await world.alice.slash(thread, "game start")
    return thread


async def play_first(
    world: World, member: simcord.MemberActor, thread: simcord.ChannelHandle
) -> simcord.Result:
    choices = await member.autocomplete(thread, "game play", "move", "")
    return await member.slash(thread, "game play", move=choices[0]["value"])


async def settle_clock(world: World, clock: ManualClock, seconds: float) -> None:
    """Move the bot's clock; its scheduler task wakes and posts what came due."""
    clock.advance(seconds)
    await asyncio.sleep(0.05)
    await world.env.settle()
    await asyncio.sleep(0.05)
    await world.env.settle()


def dms(member: simcord.MemberActor) -> list[discord.Message]:
    return member.user.dm_channel.history()


async def test_threads_open_with_the_longest_auto_archive(world: World) -> None:
    thread = await started(world)
    meta = world.env.backend.channels[thread.id].thread_metadata
    assert meta is not None and meta.auto_archive_duration == 10080


async def test_an_archived_thread_is_reopened_before_the_bot_posts(world: World) -> None:
    thread = await started(world)
    meta = world.env.backend.channels[thread.id].thread_metadata
    assert meta is not None
    cached = world.bot.get_channel(thread.id)
    assert isinstance(cached, discord.Thread)
    await cached.edit(archived=True)  # as Discord does to a quiet thread
    await world.env.settle()
    assert meta.archived
    await play_first(world, world.alice, thread)
    assert not meta.archived, "the bot reopened the thread to show the move"
    assert any("has locked in a sigil" in m.content for m in thread.history())


async def test_a_deleted_thread_moves_the_game_to_a_new_recorded_thread(world: World) -> None:
    thread = await started(world)
    old_id = thread.id
    private = dms(world.bob)[-1]
    world.env.backend.delete_channel(old_id)  # a moderator deleted the thread
    value = private.components[0].children[0].options[0].value  # type: ignore[union-attr]
    await world.bob.user.select(private, [value])  # bob plays from his DM
    assert world.bot.store is not None
    table = await world.bot.store.table(1)
    assert table is not None and table.thread_id is not None and table.thread_id != old_id
    new = world.thread()
    assert new.id == table.thread_id
    texts = [m.content for m in new.history()]
    assert any("thread was deleted" in t for t in texts) and any("has locked in a sigil" in t for t in texts)


async def test_the_undo_button_takes_the_move_back_once(world: World) -> None:
    thread = await started(world)
    result = await play_first(world, world.alice, thread)
    confirmation = result.response
    assert confirmation is not None and confirmation.components
    # Choosing a sigil is secret: undoing it needs bob's vote, posted with buttons.
    asked = await world.alice.click(confirmation, label="Undo")
    assert "The others must agree" in asked.response.content  # type: ignore[union-attr]
    vote = thread.last_message
    assert "asks to take back" in vote.content and f"<@{world.bob.id}>" in vote.content
    agreed = await world.bob.click(vote, label="Take it back")
    assert "taken back" in agreed.response.content  # type: ignore[union-attr]
    # The sigil was chosen in secret: the vote and the thread name the move, never the sigil.
    assert any("took back: Choose." in m.content for m in thread.history())
    assert not any("Choose sigil" in m.content for m in thread.history() if not m.flags.ephemeral)
    again = await world.alice.click(confirmation, label="Undo")
    assert "moved on" in again.response.content  # type: ignore[union-attr]


async def test_out_of_time_vote_buttons_and_rejoin(world: World, clock: ManualClock) -> None:
    thread = await started(world, options="clock=fast", players=3)
    await play_first(world, world.alice, thread)
    await play_first(world, world.bob, thread)
    await settle_clock(world, clock, DAY)
    vote = next(m for m in reversed(thread.history()) if "is out of time" in m.content)
    assert "carol is out of time" in vote.content
    status = await world.alice.slash(thread, "game status")
    assert "carol is OUT OF TIME" in status.response.content  # type: ignore[union-attr]
    refused = await world.carol.click(vote, label="Skip (default move)")
    assert "Only the other seated players" in refused.response.content  # type: ignore[union-attr]
    await world.alice.click(vote, label="Skip (default move)")
    await world.bob.click(vote, label="Skip (default move)")
    await settle_clock(world, clock, 60)
    texts = [m.content for m in thread.history()]
    assert any("carol's seat is played by the game's default move" in t for t in texts)
    assert any("Revealed:" in t for t in texts), "the stand-in locked in carol's sigil"
    back = await world.carol.slash(thread, "game rejoin")
    assert "Welcome back" in back.response.content  # type: ignore[union-attr]


async def test_reminders_arrive_by_dm_with_a_link_to_the_table(world: World, clock: ManualClock) -> None:
    thread = await started(world)
    await settle_clock(world, clock, 1.5 * DAY)
    reminder = dms(world.bob)[-1].content
    assert reminder.startswith("Reminder:") and f"<#{thread.id}>" in reminder
    assert f"<t:{int(START + 3 * DAY)}:R>" in reminder
    # Sent with its key's nonce: sent again after a kill (before it was recorded), Discord keeps one.
    store = world.bot.store
    assert store is not None
    (key,) = [k for k, kind, _ in await store.notices(1, world.bob.id) if kind == "reminder"]
    path = f"/channels/{world.bob.user.dm_channel.id}/messages"
    sent = [e.json for e in world.env.http_requests if e.method == "POST" and e.path == path
            and isinstance(e.json, dict) and str(e.json.get("content", "")).startswith("Reminder:")]
    assert [(r["nonce"], r["enforce_nonce"]) for r in sent] == [(str(nonce_of(key)), True)]


async def test_me_pings_stores_preferences(world: World) -> None:
    said = await world.alice.slash(world.channel, "me pings", mode="turn", quiet="22-7", utc_offset=2)
    assert said.response.content == "Pings: only the start of my turn; quiet 22:00-7:00 (UTC+2)."  # type: ignore[union-attr]
    bad = await world.alice.slash(world.channel, "me pings", quiet="late")
    assert "22-7" in bad.response.content  # type: ignore[union-attr]


async def test_spectators_follow_by_dm_and_see_nothing_private(world: World) -> None:
    thread = await started(world)
    watched = await world.dave.slash(thread, "game watch")
    assert "You follow" in watched.response.content  # type: ignore[union-attr]
    for _ in range(3):  # a round: both choose in secret, the lowest draws or passes
        for member in (world.alice, world.bob):
            if await member.autocomplete(thread, "game play", "move", ""):
                await play_first(world, member, thread)
    seen = [m.content for m in dms(world.dave)]
    assert seen and all("you are watching" in t for t in seen)
    assert not any("You chose" in t or "hand [" in t for t in seen)
    gone = await world.dave.slash(world.channel, "game unwatch", table=1)
    assert "no longer follow" in gone.response.content  # type: ignore[union-attr]


async def test_log_pages_and_history_files(world: World) -> None:
    thread = await started(world, options="hand=4")
    for _ in range(16):
        for member in (world.alice, world.bob):
            choices = await member.autocomplete(thread, "game play", "move", "")
            if choices:
                await member.slash(thread, "game play", move=choices[-1]["value"])
    shown = await world.alice.slash(thread, "game log")
    page = shown.response
    assert page is not None and page.content.startswith("Log, page 2 of 2")
    older = await world.alice.click(page, label="Older")
    assert older.response is not None
    assert older.response.content.startswith("Log, page 1 of 2"), older.response.content
    history = await world.alice.slash(thread, "game history")
    names = [a.filename for a in history.response.attachments]  # type: ignore[union-attr]
    assert names == ["table-1-log.txt", "table-1-log.json"]


async def test_mine_shows_the_time_left(world: World) -> None:
    thread = await started(world, options="clock=relaxed")
    mine = await world.bob.slash(world.channel, "game mine")
    line = mine.response.content  # type: ignore[union-attr]
    assert line.startswith(f"<#{thread.id}>: Choose a sigil in secret (waiting since <t:")
    assert f"your time runs out <t:{int(START + 7 * DAY)}:R>" in line


async def seat_of(world: World, member: simcord.MemberActor):  # type: ignore[no-untyped-def]
    assert world.bot.store is not None
    return next(s for s in await world.bot.store.seats(1) if s.user_id == member.id)


async def test_a_vote_hands_the_seat_to_a_bot_and_rejoin_takes_it_back(
    world: World, clock: ManualClock
) -> None:
    """The vote's bot is the bot seats' own: it plays at once, is named with its level, is never DMed."""
    thread = await started(world, options="clock=fast", players=3)
    await play_first(world, world.alice, thread)
    await play_first(world, world.bob, thread)
    await settle_clock(world, clock, DAY)
    vote = next(m for m in reversed(thread.history()) if "is out of time" in m.content)
    carol_dms = len(dms(world.carol))
    # The vote decides under the table's lock and hands the seat over inside it: no deadlock.
    await asyncio.wait_for(world.alice.click(vote, label="Hand to a bot"), 10)
    decided = await asyncio.wait_for(world.bob.click(vote, label="Hand to a bot"), 10)
    assert "decided it: bot" in decided.response.content  # type: ignore[union-attr]
    await asyncio.wait_for(settle_clock(world, clock, 60), 10)
    texts = [m.content for m in thread.history()]
    assert any("carol's seat is played by a bot, Bot (basic)," in t for t in texts)
    assert any("Revealed:" in t for t in texts), "the bot chose carol's sigil as soon as it was asked"
    assert (await seat_of(world, world.carol)).bot == "basic"
    status = await world.alice.slash(thread, "game status")
    assert "Bot (basic) for carol" in status.response.content  # type: ignore[union-attr]
    told = dms(world.carol)[carol_dms:]
    assert len(told) == 1, "a bot seat is sent no move's DM: only the one word that a bot plays it"
    assert "a bot plays your seat" in told[0].content and "/game rejoin" in told[0].content
    refused = await world.carol.slash(thread, "game play", move="pass")
    assert "/game rejoin" in refused.response.content  # type: ignore[union-attr]
    back = await asyncio.wait_for(world.carol.slash(thread, "game rejoin"), 10)
    assert "Welcome back" in back.response.content  # type: ignore[union-attr]
    carol = await seat_of(world, world.carol)
    assert carol.bot is None and carol.name == "carol"
    assert any("carol is back" in m.content for m in thread.history())
    again = await world.carol.slash(thread, "game rejoin")
    assert "yours already" in again.response.content  # type: ignore[union-attr]


async def test_a_table_is_never_left_without_a_person(world: World, clock: ManualClock) -> None:
    """Bob's seat goes to a bot; when alice, the last person, runs out of time, no bot takes hers."""
    thread = await started(world, options="clock=fast")
    await play_first(world, world.alice, thread)
    await settle_clock(world, clock, DAY)
    vote = next(m for m in reversed(thread.history()) if "bob is out of time" in m.content)
    await asyncio.wait_for(world.alice.click(vote, label="Hand to a bot"), 10)
    await asyncio.wait_for(settle_clock(world, clock, 60), 10)
    assert (await seat_of(world, world.bob)).bot == "basic"
    refused = await world.bob.slash(thread, "game play", move="pass")
    assert "/game rejoin" in refused.response.content  # type: ignore[union-attr]
    assert (await world.bot.service.table(1)).status == "active", "the game waits on alice again"
    with pytest.raises(TableError, match="at least one person"):
        await world.bot.service.bots.set_seat_bot(1, (await seat_of(world, world.alice)).seat, "basic")
    # Alice, the only person, runs out of time: nobody can vote, so her seat is skipped at once,
    # never a bot's; then nobody takes part and the table pauses instead of playing itself out.
    version = (await world.bot.service.table(1)).version
    await asyncio.wait_for(settle_clock(world, clock, DAY), 10)
    texts = [m.content for m in thread.history()]
    assert any("Nobody is left to vote on alice's seat, so it is played by the game's default move" in t
               for t in texts)
    assert not any("The players voted: alice" in t for t in texts), "nobody voted"
    assert sum("this table is paused" in t for t in texts) == 1
    assert (await seat_of(world, world.alice)).bot is None
    await asyncio.wait_for(settle_clock(world, clock, 7 * DAY), 10)
    table = await world.bot.service.table(1)
    assert table.status == "active" and table.version == version, "the bot and the stand-in played nothing"


async def test_mine_and_play_go_on_past_a_damaged_seat_clock(world: World, db_path: str) -> None:
    thread = await started(world, options="clock=relaxed")
    con = sqlite3.connect(db_path, isolation_level=None)
    con.execute("UPDATE seat_clocks SET bank = 'garbage' WHERE user_id = ?", (world.bob.id,))
    con.close()
    mine = await world.bob.slash(world.channel, "game mine")  # raised before
    line = mine.response.content  # type: ignore[union-attr]
    assert line.startswith(f"<#{thread.id}>: Choose a sigil in secret") and "time runs out" not in line
    played = await play_first(world, world.alice, thread)  # the clocks' sync after the move raised
    assert "went wrong" not in str(played.response.content)  # type: ignore[union-attr]
    line = (await world.bob.slash(world.channel, "game mine")).response.content  # type: ignore[union-attr]
    assert f"your time runs out <t:{int(START + 7 * DAY)}:R>" in line  # a fresh clock, from now
