"""One bot for many servers (issue 24), through the real bot on SimCord with two servers.

A table is found only in its own server; what is about you alone lives under /me (DMs too);
moderators run their server with /conclave; a server that removes the bot pauses its tables;
the command groups are guild only and the bot asks Discord for the guilds intent only.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest
import simcord
from discord import app_commands

from bot import INTENTS, create_bot, tree_digest
from service import TableError
from service.clock import DAY, ManualClock
from service.servers import NOT_HERE
from tests.async_helpers import ALICE, BOB, CAROL, START, Harness, OpenStore

pytestmark = pytest.mark.usefixtures("toy_registered")


HAND_MOVED_CLOCK = True
"""The bot reads the ``clock`` fixture, which the tests move by hand."""


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 4242


@dataclass
class Servers:
    """Two servers: Alpha (alice, bob, their moderator) and Beta (eve and Beta's moderator)."""

    env: simcord.Env
    alpha: simcord.GuildHandle
    beta: simcord.GuildHandle
    alpha_tables: simcord.ChannelHandle
    beta_tables: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    alpha_mod: simcord.MemberActor
    eve: simcord.MemberActor
    beta_mod: simcord.MemberActor
    alice_in_beta: simcord.MemberActor

    @property
    def bot(self):  # type: ignore[no-untyped-def]
        return self.env.bot


@pytest.fixture
def two(simcord_env: simcord.Env) -> Servers:
    alpha = simcord_env.create_guild("Alpha Guild")
    beta = simcord_env.create_guild("Beta Guild")
    managers_a = alpha.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    managers_b = beta.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    alice_user = simcord_env.create_user("alice")
    return Servers(
        simcord_env,
        alpha,
        beta,
        alpha.create_text_channel("tables"),
        beta.create_text_channel("games"),
        alpha.add_member(alice_user),
        alpha.add_member(simcord_env.create_user("bob")),
        alpha.add_member(simcord_env.create_user("amod"), roles=[managers_a]),
        beta.add_member(simcord_env.create_user("eve")),
        beta.add_member(simcord_env.create_user("bmod"), roles=[managers_b]),
        beta.add_member(alice_user),
    )


async def alpha_game(two: Servers, *, start: bool = True) -> tuple[simcord.ChannelHandle, int]:
    """Open (and start) a Sigil Duel in Alpha between alice and bob; return its thread and id."""
    await two.alice.slash(two.alpha_tables, "game new", kind="toy")
    thread = two.alpha_tables.threads[-1]
    await two.bob.slash(thread, "game join")
    if start:
        await two.alice.slash(thread, "game start")
    record = await two.bot.store.table_for_thread(thread.id)
    return thread, record.id


def text(result: simcord.InteractionResult) -> str:
    assert result.response is not None
    return "\n".join(m.content for m in [result.response, *result.followups])


def table_commands(tree: app_commands.CommandTree) -> set[str]:
    """Every slash command with a ``table`` option (a table's number)."""
    found = set()
    for command in tree.walk_commands():
        if isinstance(command, app_commands.Command) and any(p.name == "table" for p in command.parameters):
            found.add(command.qualified_name)
    return found


# ---------------------------------------------------------------------- 1. server scope


async def test_a_table_number_from_another_server_is_refused_like_a_missing_one(two: Servers) -> None:
    _thread, table_id = await alpha_game(two)
    missing = table_id + 1000
    # Every command that names a table by number, tried from Beta: same refusal as no table.
    tried = {
        "game watch": {},
        "game unwatch": {},
        "conclave close": {},
        "conclave host": {"member": two.eve},
        "conclave kick": {"member": two.eve},
        "conclave substitute": {"player": two.alice.user, "member": two.eve},
    }
    assert table_commands(two.bot.tree) == set(tried), "a new command takes a table: try it here"
    for name, extra in tried.items():
        actor = two.beta_mod if name.startswith("conclave") else two.eve
        there = await actor.slash(two.beta_tables, name, table=table_id, **extra)
        nowhere = await actor.slash(two.beta_tables, name, table=missing, **extra)
        assert text(there) == text(nowhere) == NOT_HERE, name
        assert there.ephemeral
    record = await two.bot.store.table(table_id)
    assert record.status == "active" and record.host_id == two.alice.id
    assert await two.bot.store.spectators(table_id) == []
    # From its own server, the same number works.
    watched = await two.alpha_mod.slash(two.alpha_tables, "game watch", table=table_id)
    assert "You follow" in text(watched)


async def test_nothing_of_one_servers_tables_shows_in_anothers_answers(two: Servers) -> None:
    thread, table_id = await alpha_game(two)
    # Beta has a table of its own, hosted by alice too (she is in both servers).
    await two.alice_in_beta.slash(two.beta_tables, "game new", kind="toy")
    beta_thread = two.beta_tables.threads[-1]
    await two.eve.slash(beta_thread, "game join")
    await two.alice_in_beta.slash(beta_thread, "game start")
    beta_id = (await two.bot.store.table_for_thread(beta_thread.id)).id
    alpha_marks = (f"<#{thread.id}>", f"#{table_id} ", "bob", str(two.alpha.id))
    answers = [
        await two.alice_in_beta.slash(two.beta_tables, "game mine"),
        await two.alice_in_beta.slash(two.beta_tables, "game stats"),
        await two.eve.slash(two.beta_tables, "game stats", user=two.alice_in_beta),
        await two.beta_mod.slash(two.beta_tables, "conclave tables"),
    ]
    for answer in answers:
        shown = text(answer)
        assert not any(mark in shown for mark in alpha_marks), shown
    assert f"#{beta_id} " in text(answers[3])
    # The stats count one table in play in each server, two under /me (every server).
    assert "1 table(s) in play" in text(answers[1])
    mine_everywhere = text(await two.alice.user.slash("me stats"))
    assert "2 table(s) in play" in mine_everywhere


async def test_me_tables_lists_every_server_with_its_name_in_dms(two: Servers) -> None:
    thread, _ = await alpha_game(two)
    await two.alice_in_beta.slash(two.beta_tables, "game new", kind="toy")
    listed = text(await two.alice.user.slash("me tables"))
    assert "Alpha Guild" in listed and "Beta Guild" in listed
    assert f"<#{thread.id}>" in listed and "lobby" in listed


# ---------------------------------------------------------------------- 5. command hygiene


def test_the_bot_asks_for_the_guilds_intent_only() -> None:
    bot = create_bot(":memory:")
    assert bot.intents == discord.Intents(guilds=True) == INTENTS
    privileged = ("members", "presences", "message_content")
    assert not any(getattr(bot.intents, name) for name in privileged)
    assert not bot.intents.guild_messages and not bot.intents.dm_messages


async def test_table_groups_are_guild_only_and_me_and_help_work_in_dms(two: Servers) -> None:
    in_dm = two.alice.user.available_commands()
    assert not [c for c in in_dm if c.split()[0] in ("game", "argent", "institute", "academy", "quadrivium",
                                                      "quad", "conclave")]
    assert {"me tables", "me stats", "me data", "me forget", "me pings", "help"} <= set(in_dm)
    for group in ("game", "argent", "institute", "academy", "quadrivium", "quad", "conclave"):
        command = two.bot.tree.get_command(group)
        assert command is not None and command.guild_only, group


async def test_moderator_commands_need_manage_server_by_default(two: Servers) -> None:
    conclave = two.bot.tree.get_command("conclave")
    assert conclave.default_permissions == discord.Permissions(manage_guild=True)
    assert not [c for c in two.alice.available_commands(two.alpha_tables) if c.startswith("conclave")]
    assert "conclave tables" in two.alpha_mod.available_commands(two.alpha_tables)


def test_the_tree_hash_includes_the_application_id() -> None:
    bot = create_bot(":memory:")
    assert tree_digest(bot.tree, None, 1) != tree_digest(bot.tree, None, 2)
    assert tree_digest(bot.tree, None, 1) == tree_digest(bot.tree, None, 1)


async def test_sync_flag_forces_a_sync_of_an_unchanged_tree(tmp_path: Path) -> None:
    path = str(tmp_path / "sync.db")
    first = create_bot(path)
    env = simcord.Env(first)
    await env.start()
    try:
        assert first.synced
        same = create_bot(path)
        await env.restart_bot(same)
        await first.close_store()
        assert same.synced is False  # unchanged tree, same application
        forced = create_bot(path, force_sync=True)
        await env.restart_bot(forced)
        await same.close_store()
        assert forced.synced is True
    finally:
        await env.shutdown()
        await env.bot.close_store()  # type: ignore[attr-defined]


def test_bot_py_reads_the_sync_flag(monkeypatch: pytest.MonkeyPatch) -> None:
    import bot as entry

    seen: list[bool] = []

    async def run(config: entry.Config, *, force_sync: bool = False) -> None:
        seen.append(force_sync)

    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setattr(entry, "run_discord", run)
    monkeypatch.setattr(entry, "setup_logging", lambda level, token: None)
    assert entry.main(["--sync"]) == 0 and entry.main([]) == 0
    assert seen == [True, False]


# ---------------------------------------------------------------------- 2. /conclave


async def test_moderators_list_close_hand_host_and_kick(two: Servers) -> None:
    thread, table_id = await alpha_game(two, start=False)
    listed = text(await two.alpha_mod.slash(two.alpha_tables, "conclave tables"))
    assert f"#{table_id} " in listed and "lobby" in listed and "alice, bob" in listed
    handed = await two.alpha_mod.slash(two.alpha_tables, "conclave host", table=table_id, member=two.bob)
    assert "bob now hosts" in text(handed)
    assert (await two.bot.store.table(table_id)).host_id == two.bob.id
    # The host cannot be removed; another lobby player can.
    refused = await two.alpha_mod.slash(two.alpha_tables, "conclave kick", table=table_id, member=two.bob)
    assert "hosts the table" in text(refused)
    kicked = await two.alpha_mod.slash(two.alpha_tables, "conclave kick", table=table_id, member=two.alice)
    assert "alice is no longer seated" in text(kicked)
    assert [s.user_id for s in await two.bot.store.seats(table_id)] == [two.bob.id]
    assert "A moderator removed alice" in thread.last_message.content
    closed = await two.alpha_mod.slash(two.alpha_tables, "conclave close", table=table_id)
    assert "closed" in text(closed)
    assert (await two.bot.store.table(table_id)).status == "abandoned"


async def test_settings_are_stored_and_read_at_use(two: Servers) -> None:
    log = two.alpha.create_text_channel("mod-log")
    other = two.alpha.create_text_channel("elsewhere")
    mod = two.alpha_mod
    await mod.slash(two.alpha_tables, "conclave settings", setting="log_channel", channel=log)
    await mod.slash(two.alpha_tables, "conclave settings", setting="channel", channel=two.alpha_tables)
    await mod.slash(two.alpha_tables, "conclave settings", setting="clock", value="fast")
    await mod.slash(two.alpha_tables, "conclave settings", setting="bots", value="off")
    shown = text(await mod.slash(two.alpha_tables, "conclave settings"))
    assert "`clock` = fast" in shown and "`bots` = off" in shown
    bad = await mod.slash(two.alpha_tables, "conclave settings", setting="clock", value="hourly")
    assert "none, relaxed, normal, fast" in text(bad)
    mixed = await mod.slash(two.alpha_tables, "conclave settings", setting="host_role", channel=other)
    assert "takes a role" in text(mixed)
    assert "host_role" not in await two.bot.store.server_settings(two.alpha.id)
    # Read at use: the channel, the default clock, the bots.
    elsewhere = await two.alice.slash(other, "game new", kind="toy")
    assert f"<#{two.alpha_tables.id}>" in text(elsewhere) and not other.threads
    await two.alice.slash(two.alpha_tables, "game new", kind="toy")
    thread = two.alpha_tables.threads[-1]
    record = await two.bot.store.table_for_thread(thread.id)
    assert record.options.get("clock") == "fast"
    nobots = await two.alice.slash(thread, "game addbot")
    assert "do not allow bots" in text(nobots)
    # A host's own choice beats the server's default; Beta's tables know nothing of Alpha's settings.
    await two.alice.slash(two.alpha_tables, "game new", kind="toy", options="clock=relaxed")
    chosen = await two.bot.store.table_for_thread(two.alpha_tables.threads[-1].id)
    assert chosen.options.get("clock") == "relaxed"
    await two.eve.slash(two.beta_tables, "game new", kind="toy")
    beta = await two.bot.store.table_for_thread(two.beta_tables.threads[-1].id)
    assert "clock" not in beta.options
    # Moderation events land in the log channel.
    logged = [m.content for m in log.history()]
    assert any("changed the setting `bots`" in line for line in logged)
    # A role may be required to host.
    hosts = two.alpha.create_role("Hosts")
    await mod.slash(two.alpha_tables, "conclave settings", setting="host_role", role=hosts)
    refused = await two.bob.slash(two.alpha_tables, "game new", kind="toy")
    assert "hosting role" in text(refused)


# ---------------------------------------------------------------------- 4. your data


async def test_me_data_sends_everything_by_dm_as_json(two: Servers) -> None:
    thread, table_id = await alpha_game(two)
    await two.alpha_mod.slash(thread, "game watch")
    await two.alice.user.slash("me pings", quiet="22-7", tz="Europe/Paris")
    said = await two.alice.user.slash("me data")
    assert "by DM" in text(said)
    sent = [m for m in two.alice.user.dm_channel.history() if m.attachments][-1]
    data = json.loads(await sent.attachments[0].read())
    assert data["user_id"] == two.alice.id
    assert [s["table_id"] for s in data["seats"]] == [table_id]
    assert data["preferences"][0]["tz"] == "Europe/Paris"
    assert data["stats"]["open_tables"] == 1
    mod_data = await two.alpha_mod.user.slash("me data")
    assert "by DM" in text(mod_data)
    mod_sent = [m for m in two.alpha_mod.user.dm_channel.history() if m.attachments][-1]
    spectating = json.loads(await mod_sent.attachments[0].read())["spectating"]
    assert [s["table_id"] for s in spectating] == [table_id]


async def test_me_forget_asks_to_leave_first_then_forgets(two: Servers) -> None:
    thread, table_id = await alpha_game(two)
    await two.alice.user.slash("me pings", mode="reminders")
    refused = await two.alice.user.slash("me forget")
    assert "leave them first" in text(refused) and f"#{table_id}" in text(refused)
    assert (await two.bot.store.user_prefs(two.alice.id)).pings == "reminders"
    await two.alpha_mod.slash(thread, "game abandon")
    done = await two.alice.user.slash("me forget")
    assert "a former player" in text(done)
    assert (await two.bot.store.user_prefs(two.alice.id)).pings == "every"
    names = {s.user_id: s.name for s in await two.bot.store.seats(table_id)}
    assert names == {two.alice.id: "a former player", two.bob.id: "bob"}


# ---------------------------------------------------------------------- 3. leaving a server


async def settle(two: Servers, clock: ManualClock, seconds: float) -> None:
    clock.advance(seconds)
    await asyncio.sleep(0.05)
    await two.env.settle()
    await asyncio.sleep(0.05)


async def test_a_server_that_removes_the_bot_pauses_its_tables_until_it_comes_back(
    two: Servers, clock: ManualClock
) -> None:
    _thread, table_id = await alpha_game(two)
    await two.eve.slash(two.beta_tables, "game new", kind="toy")
    store = two.bot.store
    before = {c.user_id: c for c in await store.seat_clocks(table_id)}
    waiting = [u for u, c in before.items() if c.running_since is not None]
    assert waiting and await store.next_due() is not None
    alpha_id = two.alpha.id
    two.env.backend.remove_guild(alpha_id)
    await two.env.settle()
    assert await store.server_left_at(alpha_id) is not None
    assert not [w for w in await store.due(START + 365 * DAY) if w.table_id == table_id]
    # Weeks pass: no reminder, no deadline, no vote reaches anyone.
    dms_before = len(two.alice.user.dm_channel.history()) + len(two.bob.user.dm_channel.history())
    notices_before = await store.notices(table_id)
    await settle(two, clock, 10 * DAY)
    assert len(two.alice.user.dm_channel.history()) + len(two.bob.user.dm_channel.history()) == dms_before
    assert await store.notices(table_id) == notices_before
    # A move from a DM button is refused while paused.
    svc = two.bot.service
    mover = waiting[0]
    with pytest.raises(TableError, match="paused"):
        await svc.act(table_id, mover, (await svc.reads.choices(table_id, mover, ""))[0].value)
    assert (await store.table(table_id)).version == 0
    # Beta is untouched by Alpha's removal.
    assert await store.server_left_at(two.beta.id) is None
    # The bot comes back: the clocks resume with the time away given back.
    # The same server invites the bot again (the stand-in frees the id its removal kept reserved).
    two.env.backend._reserved_ids.discard(alpha_id)
    back = two.env.create_guild("Alpha Guild", id=alpha_id)
    await two.env.settle()
    assert back.id == alpha_id and await store.server_left_at(alpha_id) is None
    after = {c.user_id: c for c in await store.seat_clocks(table_id)}
    for user in waiting:
        assert after[user].bank == pytest.approx(before[user].bank + 10 * DAY)
        assert after[user].deadline() > clock.now() + 2 * DAY
    planned = [w for w in await store.due(START + 365 * DAY) if w.table_id == table_id]
    assert {w.kind for w in planned} >= {"remind", "deadline"}



async def test_a_substitute_takes_a_seat_mid_game_with_its_private_view(two: Servers) -> None:
    thread, table_id = await alpha_game(two)
    carol = two.alpha.add_member(two.env.create_user("carol"))
    store = two.bot.store
    before = {s.seat: s for s in await store.seats(table_id)}
    alice_seat = next(n for n, s in before.items() if s.user_id == two.alice.id)
    clocks = {c.user_id: c.bank for c in await store.seat_clocks(table_id)}
    said = await two.alpha_mod.slash(
        two.alpha_tables, "conclave substitute", table=table_id, player=two.alice.user, member=carol
    )
    assert "carol now plays alice's seat" in text(said)
    after = {s.seat: s for s in await store.seats(table_id)}
    assert after[alice_seat].user_id == carol.id and after[alice_seat].name == "carol"
    assert {c.user_id: c.bank for c in await store.seat_clocks(table_id)} == {
        (carol.id if user == two.alice.id else user): bank for user, bank in clocks.items()
    }
    # The old player is told; the new one gets the seat's private view; the chain still holds.
    assert "gave your seat" in two.alice.user.dm_channel.history()[-1].content
    assert any("you are" in m.content for m in carol.user.dm_channel.history())
    assert "in alice's place" in thread.last_message.content
    svc = two.bot.service
    assert await svc.history.rebuild_check(table_id)
    assert (await store.load(table_id))[0].status == "active"
    # The new player plays on; the old one no longer can.
    offered = await carol.autocomplete(thread, "game play", "move", "")
    assert offered
    played = await carol.slash(thread, "game play", move=offered[0]["value"])
    assert "You played" in text(played)
    refused = await two.alice.slash(thread, "game play", move=offered[0]["value"])
    assert "You played" not in text(refused)


async def test_another_store_on_the_file_reads_a_table_sealed_again_by_a_substitute(
    h: Harness, open_store: OpenStore
) -> None:
    table_id = await h.table()
    other = await open_store(str(h.path))
    await other.load(table_id)  # this Store has verified the chain and remembers its head
    assert h.store is not None
    await h.store.substitute_seat(table_id, ALICE, CAROL, "carol")
    record, _state = await other.load(table_id)  # neither damaged nor refused
    assert record.status == "active"
    assert {s.user_id for s in await other.seats(table_id)} == {CAROL, BOB}


async def test_bots_of_a_paused_table_wait_for_the_server_to_come_back(h: Harness) -> None:
    svc = h.svc
    assert svc is not None
    record = await svc.open_table("toy", "", guild_id=7, channel_id=2, host_id=ALICE, host_name="alice")
    await svc.bots.add_bots(record.id, ALICE)
    await svc.start(record.id, ALICE)
    await svc.servers.server_left(7)
    assert await svc.bots.next_bot_move(record.id) is None
    assert (await svc.table(record.id)).version == 0
    await svc.servers.server_back(7)
    assert await svc.bots.next_bot_move(record.id) is not None
