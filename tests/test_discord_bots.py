"""Bots at the table through the real bot and cogs in SimCord: fill seats, practise, play to the end."""

from __future__ import annotations

import discord
import pytest
import simcord

from store import TableRecord
from tests.faults import Restart

pytestmark = pytest.mark.usefixtures("toy_registered")

SEED = 777


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return SEED


@pytest.fixture
def guild(simcord_env: simcord.Env) -> simcord.GuildHandle:
    return simcord_env.create_guild("Conclave Test")


def public(channel: simcord.ChannelHandle) -> list[discord.Message]:
    messages = channel.history() + [m for t in channel.threads for m in t.history()]
    return [m for m in messages if not m.flags.ephemeral]


async def table_of(env: simcord.Env, thread: simcord.ChannelHandle) -> TableRecord | None:
    return await env.bot.store.table_for_thread(thread.id)


async def play_out(env: simcord.Env, member: simcord.MemberActor, thread: simcord.ChannelHandle) -> None:
    """Play the person's first legal move whenever the game waits on them, until the game ends."""
    for _ in range(200):
        table = await table_of(env, thread)
        if table.status != "active":
            return
        choices = await member.autocomplete(thread, "game play", "move", "")
        assert choices, "the game waits on nobody but is not over: a bot did not move"
        result = await member.slash(thread, "game play", move=choices[0]["value"])
        assert result.response.content.startswith("You played"), result.response.content
    raise AssertionError("the game did not end")


async def test_bots_fill_seats_at_game_new_and_play_a_whole_game(
    simcord_env: simcord.Env, guild: simcord.GuildHandle
) -> None:

    simcord_env.bot.service.bots.bot_budget = 0.02
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    await alice.slash(channel, "game new", kind="toy", bots=2, level="strong")
    thread = channel.threads[-1]
    assert "Bot (strong)" in thread.history()[0].content and "Bot (strong) #2" in thread.history()[0].content
    started = await alice.slash(thread, "game start")
    assert started.response.content == "The game has begun."
    await play_out(simcord_env, alice, thread)
    table = await table_of(simcord_env, thread)
    assert table.status == "finished"
    moves = await simcord_env.bot.store.moves(table.id)
    assert {m.seat for m in moves} == {0, 1, 2}
    # The bots' moves were posted in the thread like anyone's, and nobody pinged a bot.
    text = "\n".join(m.content for m in public(channel))
    assert "Game over" in text and "<@-" not in text
    assert "Seats:" in text and "Bot (strong)" in text


async def test_addbot_in_the_lobby_and_a_lobby_of_only_bots_is_refused(
    simcord_env: simcord.Env, guild: simcord.GuildHandle
) -> None:
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    refused = await alice.slash(channel, "game new", kind="toy", bots=3)
    assert refused.ephemeral and "at least one person" in refused.response.content
    closed = await table_of(simcord_env, channel.threads[-1]) if channel.threads else None
    assert closed is None or closed.status == "abandoned"
    await alice.slash(channel, "game new", kind="toy")
    thread = channel.threads[-1]
    not_host = await bob.slash(thread, "game addbot", level="random")
    assert "Only the host" in not_host.response.content
    added = await alice.slash(thread, "game addbot", level="basic")
    assert added.response.content == "Added 1 basic bot."
    assert "Bot (basic) takes a seat" in thread.last_message.content


async def test_practice_opens_a_started_table_against_bots_without_dming_them(
    simcord_env: simcord.Env, guild: simcord.GuildHandle
) -> None:
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    result = await alice.slash(channel, "game practice", kind="toy", level="basic", players=3)
    assert "practice table is open" in result.response.content
    thread = channel.threads[-1]
    table = await table_of(simcord_env, thread)
    assert table.status == "active"
    seats = await simcord_env.bot.store.seats(table.id)
    assert [s.name for s in seats if s.bot] == ["Bot (basic)", "Bot (basic) #2"]
    # Only alice is DMed; the game waits on her (the bots moved at once when it waited on them).
    assert alice.user.dm_channel.history()
    await play_out(simcord_env, alice, thread)
    assert (await table_of(simcord_env, thread)).status == "finished"


async def test_after_a_restart_the_bots_move_where_a_game_waits_on_them(
    simcord_env: simcord.Env, guild: simcord.GuildHandle, restart_bot: Restart
) -> None:
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    await alice.slash(channel, "game new", kind="toy")
    thread = channel.threads[-1]
    await bob.slash(thread, "game join")
    await alice.slash(thread, "game start")
    table = await table_of(simcord_env, thread)
    svc = simcord_env.bot.service
    seats = {s.user_id: s.seat for s in await svc.seats(table.id)}
    # Bob's seat goes to a bot straight through the service (as if the bot crashed right after).
    await svc.bots.set_seat_bot(table.id, seats[bob.id], "random")
    assert await svc.bots.tables_waiting_on_bots() == [table.id]
    before = (await table_of(simcord_env, thread)).version
    await restart_bot()
    assert (await table_of(simcord_env, thread)).version > before
    assert await simcord_env.bot.service.bots.tables_waiting_on_bots() == []
