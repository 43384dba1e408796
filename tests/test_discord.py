"""The real bot and cogs against SimCord (offline Discord), played with the Sigil Duel test game."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot import create_bot
from cogs import argent as argent_cog
from cogs import institute as institute_cog
from cogs import kit
from cogs.kit import PlayMoveButton, delivery, messages
from rules import registry
from rules.toy import TOY, QuietToyRules
from service import Board, Choice, PrivateNote, Reply
from store import TableRecord
from tests.faults import Lobby, Restart

pytestmark = pytest.mark.usefixtures("toy_registered")

SEED = 4242


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return SEED


@dataclass
class World(Lobby):
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    mod: simcord.MemberActor

    def public(self) -> list[discord.Message]:
        """Every message anyone may read in the channel and the table threads."""
        messages = self.channel.history() + [m for t in self.channel.threads for m in t.history()]
        return [m for m in messages if not m.flags.ephemeral]


@pytest.fixture
def world(simcord_env: simcord.Env) -> World:
    guild = simcord_env.create_guild("Conclave Test")
    channel = guild.create_text_channel("tables")
    managers = guild.create_role("Managers", permissions=discord.Permissions(manage_guild=True))
    return World(
        simcord_env,
        channel,
        guild.add_member(simcord_env.create_user("alice")),
        guild.add_member(simcord_env.create_user("bob")),
        guild.add_member(simcord_env.create_user("carol")),
        guild.add_member(simcord_env.create_user("mod"), roles=[managers]),
    )


def dms(member: simcord.MemberActor) -> list[discord.Message]:
    return member.user.dm_channel.history()


async def version(world: World) -> int:
    assert world.bot.store is not None
    table = await world.bot.store.table_for_thread(world.thread().id)
    assert table is not None
    return table.version


async def started(world: World, *, players: int = 2) -> simcord.ChannelHandle:
    await world.alice.slash(world.channel, "game new", kind="toy")
    thread = world.thread()
    await world.bob.slash(thread, "game join")
    if players == 3:
        await world.carol.slash(thread, "game join")
    result = await world.alice.slash(thread, "game start")
    assert result.ephemeral and result.response is not None
    assert result.response.content == "The game has begun."
    return thread


def board_with_button(thread: simcord.ChannelHandle) -> discord.Message:
    return [m for m in thread.history() if not m.flags.ephemeral and m.components][-1]


async def test_game_new_creates_a_named_thread_and_greets_by_dm(world: World) -> None:
    result = await world.alice.slash(world.channel, "game new", kind="toy", options="hand=4")
    assert result.ephemeral and result.response is not None
    thread = world.thread()
    assert thread.name == "Sigil Duel #1 — alice's table"
    assert "Your table is open" in result.response.content
    assert "opened this table" in thread.history()[0].content
    assert "You sit at Sigil Duel #1" in dms(world.alice)[-1].content
    table = await world.bot.store.table_for_thread(thread.id)  # type: ignore[union-attr]
    assert table is not None and table.options == {"hand": "4"} and table.status == "lobby"


async def test_join_start_and_a_move_work(world: World) -> None:
    thread = await started(world)
    assert any("bob takes a seat" in m.content for m in thread.history())
    board = board_with_button(thread)
    assert f"<@{world.alice.id}>" in board.content and f"<@{world.bob.id}>" in board.content
    assert "Waiting on" in board.content
    # Each mage's hand arrives by DM with a select of their legal moves.
    private = dms(world.bob)[-1]
    assert "hand [" in private.content and private.components
    choices = await world.bob.autocomplete(thread, "game play", "move", "sigil")
    assert choices and all(c["name"].startswith("Choose sigil") for c in choices)
    result = await world.bob.slash(thread, "game play", move=choices[0]["value"])
    assert result.ephemeral and result.response is not None
    # The mover's follow-up (its secret choice, its panel) comes on the answer, not by DM.
    said = result.response.content
    assert said.startswith(f"You played: {choices[0]['name']}.") and "You chose sigil" in said
    assert "Seat" in thread.last_message.content and "has locked in a sigil" in thread.last_message.content
    assert await version(world) == 1


async def test_a_closed_dm_falls_back_to_the_thread(world: World) -> None:
    world.env.inject_error(
        "POST", f"/channels/{world.bob.user.dm_channel.id}/messages", status=403, code=50007, times=None
    )
    await world.alice.slash(world.channel, "game new", kind="toy")
    thread = world.thread()
    result = await world.bob.slash(thread, "game join")
    assert result.response is not None and result.response.content.startswith("You joined")
    assert f"<@{world.bob.id}>, I can't DM you: use /game hand" in thread.last_message.content
    seats = await world.bot.store.seats(await _table_id(world))  # type: ignore[union-attr]
    assert {s.user_id: s.dm_ok for s in seats} == {world.alice.id: True, world.bob.id: False}
    # Bob still gets his private view, ephemerally.
    await world.alice.slash(thread, "game start")
    hand = await world.bob.slash(thread, "game hand")
    assert hand.ephemeral and "hand [" in hand.response.content  # type: ignore[union-attr]


async def _table_id(world: World) -> int:
    table = await world.bot.store.table_for_thread(world.thread().id)  # type: ignore[union-attr]
    assert table is not None
    return table.id


async def test_buttons_and_selects_still_act_after_a_restart(world: World, restart_bot: Restart) -> None:
    thread = await started(world)
    board = board_with_button(thread)
    private = dms(world.alice)[-1]
    old = world.bot
    await restart_bot()
    assert world.bot is not old and world.bot.synced is False  # same tree: no second sync
    shown = await world.alice.click(board, label="My private view")
    assert shown.ephemeral and "hand [" in shown.response.content  # type: ignore[union-attr]
    value = private.components[0].children[0].options[0].value  # type: ignore[union-attr]
    played = await world.alice.user.select(private, [value])
    assert played.response is not None and played.response.content.startswith("You played: Choose sigil")
    assert await version(world) == 1


async def test_a_player_without_a_seat_is_refused_ephemerally(world: World) -> None:
    thread = await started(world)
    board = board_with_button(thread)
    before = len(world.public())
    clicked = await world.carol.click(board, label="My private view")
    assert clicked.ephemeral and clicked.response.content == "You have no seat at this table."  # type: ignore[union-attr]
    played = await world.carol.slash(thread, "game play", move="pass")
    assert played.ephemeral and played.response.content == "You have no seat at this table."  # type: ignore[union-attr]
    assert await world.carol.autocomplete(thread, "game play", "move", "") == []
    assert len(world.public()) == before


async def test_malformed_commands_get_a_clear_error_and_change_nothing(world: World) -> None:
    bad_option = await world.alice.slash(world.channel, "game new", kind="toy", options="hand=9")
    assert bad_option.ephemeral and "hand must be one of: 3, 4" in bad_option.response.content  # type: ignore[union-attr]
    bad_kind = await world.alice.slash(world.channel, "game new", kind="chess")
    assert "There is no game called `chess`" in bad_kind.response.content  # type: ignore[union-attr]
    assert world.channel.threads == []
    outside = await world.alice.slash(world.channel, "game join")
    assert outside.response.content == "Use this command inside a table's thread."  # type: ignore[union-attr]
    thread = await started(world)
    before = len(world.public())
    wrong = [
        ("choose sigil", "That fits 3 of your moves"),
        ("fly", "None of your moves fits"),
        ("draw", "None of"),
    ]
    for text, sentence in wrong:
        result = await world.alice.slash(thread, "game play", move=text)
        assert result.ephemeral and sentence in result.response.content  # type: ignore[union-attr]
    assert await version(world) == 0
    assert len(world.public()) == before


async def test_the_same_select_used_twice_applies_once(world: World) -> None:
    thread = await started(world)
    private = dms(world.alice)[-1]
    value = private.components[0].children[0].options[0].value  # type: ignore[union-attr]
    first = await world.alice.user.select(private, [value])
    second = await world.alice.user.select(private, [value])
    assert first.response.content.startswith("You played")  # type: ignore[union-attr]
    assert "moved on" in second.response.content  # type: ignore[union-attr]
    assert await version(world) == 1
    assert len(await world.bot.store.moves(await _table_id(world))) == 1  # type: ignore[union-attr]
    assert thread.last_message.content.count("has locked in") == 1


async def test_no_public_message_shows_a_secret_choice_before_the_reveal(world: World) -> None:
    thread = await started(world, players=3)
    picked = {}
    for member in (world.alice, world.bob):
        choice = (await member.autocomplete(thread, "game play", "move", ""))[-1]
        picked[member.name] = choice["name"]
        await member.slash(thread, "game play", move=choice["value"])
    public = "\n".join(m.content for m in world.public())
    for label in picked.values():
        sigil = label.removeprefix("Choose ")
        assert sigil not in public
    assert "hand [" not in public and "Revealed" not in public
    # Bob cannot see Alice's ephemeral confirmation either.
    seen_by_bob = "\n".join(m.content for m in thread.history(viewer=world.bob))
    assert f"You played: {picked['bob']}." in seen_by_bob
    assert f"You played: {picked['alice']}." not in seen_by_bob
    choice = (await world.carol.autocomplete(thread, "game play", "move", ""))[0]
    await world.carol.slash(thread, "game play", move=choice["value"])
    assert "Revealed" in thread.last_message.content


async def test_abandon_by_a_server_manager_and_mine(world: World) -> None:
    thread = await started(world)
    mine = await world.bob.slash(world.channel, "game mine")
    assert f"<#{thread.id}>" in mine.response.content  # type: ignore[union-attr]
    vote = await world.bob.slash(thread, "game abandon")
    assert "vote" in vote.response.content  # type: ignore[union-attr]
    assert "1 of 2" in thread.last_message.content
    await world.mod.slash(thread, "game abandon")
    assert "closed" in thread.last_message.content
    table = await world.bot.store.table_for_thread(thread.id)  # type: ignore[union-attr]
    assert table is not None and table.status == "abandoned"
    after = await world.bob.slash(world.channel, "game mine")
    assert after.response.content == "No table of this server is waiting on you."  # type: ignore[union-attr]


async def test_help_rules_and_card(world: World) -> None:
    helped = await world.alice.slash(world.channel, "help")
    assert helped.ephemeral and "/game new" in helped.response.content  # type: ignore[union-attr]
    assert "Sigil Duel (`toy`)" in helped.response.content  # type: ignore[union-attr]
    kinds = await world.alice.autocomplete(world.channel, "game new", "kind", "sig")
    assert {"name": "Sigil Duel", "value": "toy"} in kinds
    summary = await world.alice.slash(world.channel, "game rules", kind="TOY")
    assert summary.response is not None and summary.response.content.startswith("**Sigil Duel** (`toy`)")
    files = {a.filename: (await a.read()).decode() for a in summary.response.attachments}
    # Our guide (with every option), and the rulebook itself because this one is in the repository.
    assert "hand: Sigils dealt to each mage (3, 4; default 3)." in files["toy-how-to-play.txt"]
    assert "class ToyRules" in files["toy.py"]
    thread = await started(world)
    card = await world.alice.slash(thread, "game card", name="Anything")
    assert card.response.content == "No game here has cards to look up yet."  # type: ignore[union-attr]


async def test_help_lists_every_command_of_the_tree(world: World) -> None:
    helped = await world.alice.slash(world.channel, "help")
    assert helped.response is not None
    shown = [helped.response, *helped.followups]
    assert all(len(m.content) <= 2000 for m in shown) and all(m.ephemeral for m in shown)
    text = "\n".join(m.content for m in shown)
    assert "/me data" in text and "/me forget" in text  # the privacy note
    for command in world.bot.tree.get_commands():
        assert f"/{command.name}" in text
        for sub in getattr(command, "commands", []):
            assert f"`/{command.name} {sub.name}" in text or f"`{sub.name}`" in text, sub.name
    assert "**/argent** (Argent: The Consortium): `place`" in text and "**/institute**" in text


async def test_mine_says_which_decision_waits_with_a_jump_link(world: World) -> None:
    thread = await started(world)
    mine = await world.bob.slash(world.channel, "game mine")
    assert mine.response is not None
    line = mine.response.content
    assert line.startswith(f"<#{thread.id}>: Choose a sigil in secret (waiting since <t:")
    assert f"[jump there](https://discord.com/channels/{world.channel.guild.id}/{thread.id})" in line
    assert "Sigil Duel #" not in line  # the thread mention already names the table


async def test_leaving_a_game_that_cannot_go_on_is_refused_before_asking(world: World) -> None:
    thread = await started(world)
    asked = await world.bob.slash(thread, "game leave")
    assert asked.ephemeral and asked.response is not None
    # Sigil Duel cannot go on without a player: refused at once with the way out, never confirmed first.
    said = asked.response.content
    assert "use /game abandon" in said and "Leave this game for good?" not in said
    assert not asked.response.components
    assert await version(world) == 0


async def test_commands_sync_to_the_dev_guild_only_when_the_tree_changed(tmp_path: Path) -> None:
    path = str(tmp_path / "dev.db")
    guild_id = 1456074443980800123
    bot = create_bot(path, dev_guild=guild_id)
    env = simcord.Env(bot)
    guild = env.create_guild("Dev", id=guild_id)
    channel = guild.create_text_channel("tables")
    alice = guild.add_member(env.create_user("alice"))
    await env.start()
    try:
        assert bot.synced
        puts = [r.path for r in env.http_requests if r.method == "PUT"]
        assert puts == [f"/applications/{bot.application_id}/guilds/{guild_id}/commands"]
        assert "game new" in alice.available_commands(channel)
        assert bot.store is not None
        stored = await bot.store.get_meta(f"command_tree_sha256:{guild_id}")
        assert stored is not None and len(stored) == 64
        again = create_bot(path, dev_guild=guild_id)
        await env.restart_bot(again)
        await bot.close_store()
        assert again.synced is False
        helped = await alice.slash(channel, "help")
        assert helped.ephemeral
    finally:
        await env.shutdown()
        await env.bot.close_store()  # type: ignore[attr-defined]


async def test_a_move_button_plays_once_and_refuses_a_stale_board(world: World) -> None:
    thread = await started(world)
    svc = world.bot.service
    assert svc is not None
    table_id = await _table_id(world)
    choice = (await svc.reads.choices(table_id, world.bob.id))[0]
    # A game cog would post this; here the test posts it through the bot itself.
    view = discord.ui.View(timeout=None)
    view.add_item(PlayMoveButton(table_id, 0, choice))
    channel = world.bot.get_channel(thread.id)
    assert isinstance(channel, discord.Thread)
    await channel.send("Bob's quick move", view=view)
    await world.env.settle()
    message = thread.last_message
    first = await world.bob.click(message, label=choice.label)
    assert first.response.content.startswith(f"You played: {choice.label}.")  # type: ignore[union-attr]
    again = await world.bob.click(message, label=choice.label)
    assert "moved on" in again.response.content  # type: ignore[union-attr]
    stranger = await world.carol.click(message, label=choice.label)
    assert stranger.response.content == "You have no seat at this table."  # type: ignore[union-attr]
    assert await version(world) == 1


async def test_dms_closed_mid_game_fall_back_once_and_outages_do_not(world: World) -> None:
    thread = await started(world)
    dm = f"/channels/{world.bob.user.dm_channel.id}/messages"
    # Bob's own move answers him on the interaction: no DM to fail.
    move = (await world.bob.autocomplete(thread, "game play", "move", ""))[0]
    await world.bob.slash(thread, "game play", move=move["value"])
    world.env.inject_error("POST", dm, status=500, times=1)
    move = (await world.alice.autocomplete(thread, "game play", "move", ""))[0]
    await world.alice.slash(thread, "game play", move=move["value"])
    assert not any("can't DM" in m.content for m in world.public())
    world.env.inject_error("POST", dm, status=403, code=50007, times=None)
    for _ in range(12):
        if any("can't DM you" in m.content for m in world.public()):
            break
        for member in (world.bob, world.alice):
            choices = await member.autocomplete(thread, "game play", "move", "")
            if choices:
                await member.slash(thread, "game play", move=choices[0]["value"])
                break
    closed = [m for m in world.public() if "can't DM you" in m.content]
    assert len(closed) == 1 and f"<@{world.bob.id}>" in closed[0].content
    seats = await world.bot.store.seats(await _table_id(world))  # type: ignore[union-attr]
    assert {s.user_id: s.dm_ok for s in seats}[world.bob.id] is False


async def test_options_autocomplete_for_the_chosen_game(world: World) -> None:
    hints = await world.alice.autocomplete(world.channel, "game new", "options", "ha", kind="toy")
    assert [h["value"] for h in hints] == ["ha", "hand=3", "hand=4"]


async def test_an_unexpected_failure_is_answered_briefly_and_logged(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    thread = await started(world)

    def broken(view: dict) -> str:
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(TOY, "view_text", broken)
    result = await world.alice.slash(thread, "game status")
    assert result.ephemeral and result.response is not None
    assert result.response.content.startswith("Something went wrong on my side")
    assert len([m for m in thread.history(viewer=world.alice) if "Something went wrong" in m.content]) == 1
    with pytest.raises(ExceptionGroup):
        world.env.raise_errors()


async def test_no_thread_permission_closes_the_new_table_cleanly(world: World) -> None:
    world.env.inject_error("POST", f"/channels/{world.channel.id}/threads", status=403, code=50013)
    result = await world.alice.slash(world.channel, "game new", kind="toy")
    assert result.ephemeral and "Create Public Threads" in result.response.content  # type: ignore[union-attr]
    table = await world.bot.store.table(1)  # type: ignore[union-attr]
    assert table is not None and table.status == "abandoned"
    assert await world.bot.store.waiting_on(world.alice.id) == []  # type: ignore[union-attr]


async def test_a_game_cog_can_add_components_to_boards_and_private_notes(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    def board_items(board: Board) -> list[discord.ui.Item]:
        return [PlayMoveButton(board.table_id, board.version, Choice("Pass", "pass"))]

    def private_items(note: PrivateNote) -> list[discord.ui.Item]:
        return [PlayMoveButton(note.table_id, note.version, c) for c in note.choices[:2]]

    monkeypatch.setattr(messages, "_BOARD_ITEMS", {"toy": board_items})
    monkeypatch.setattr(messages, "_PRIVATE_ITEMS", {"toy": private_items})
    thread = await started(world)
    labels = [c.label for row in board_with_button(thread).components for c in row.children]  # type: ignore[attr-defined]
    assert labels == ["My private view", "Pass"]
    private = dms(world.bob)[-1]
    buttons = [c for row in private.components for c in row.children]  # type: ignore[attr-defined]
    assert len(buttons) == 2 and all(b.label.startswith("Choose sigil") for b in buttons)
    played = await world.bob.user.click(private, label=buttons[0].label)
    assert played.response.content.startswith(f"You played: {buttons[0].label}.")  # type: ignore[union-attr]


async def test_only_the_players_waited_on_are_pinged(world: World) -> None:
    thread = await started(world)
    board = board_with_button(thread)
    stored = world.env.backend.get_message(thread.id, board.id)
    assert sorted(stored.ping_user_ids) == sorted([world.alice.id, world.bob.id])
    assert stored.ping_role_ids == [] and not stored.mention_everyone
    lobby = thread.history()[0]
    assert world.env.backend.get_message(thread.id, lobby.id).ping_user_ids == []


async def test_a_name_cannot_ping_everyone_or_a_role(world: World) -> None:
    guild = world.channel.guild
    assert guild is not None
    role = guild.create_role("Players", mentionable=True)
    prankster = guild.add_member(world.env.create_user("prank"), nick=f"@everyone {role.mention}")
    await world.alice.slash(world.channel, "game new", kind="toy")
    thread = world.thread()
    await prankster.slash(thread, "game join")
    seated = [m for m in thread.history() if "takes a seat" in m.content][-1]
    assert "@everyone" in seated.content
    stored = world.env.backend.get_message(thread.id, seated.id)
    assert not stored.mention_everyone and stored.ping_role_ids == [] and stored.ping_user_ids == []


def board_messages(thread: simcord.ChannelHandle) -> list[discord.Message]:
    return [m for m in thread.history() if not m.flags.ephemeral and "Seats:" in m.content]


async def _table(world: World):
    table = await world.bot.store.table_for_thread(world.thread().id)  # type: ignore[union-attr]
    assert table is not None
    return table


async def test_a_quiet_move_posts_nothing_in_the_thread_and_answers_the_mover(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry._GAMES, "toy-quiet", QuietToyRules())
    await world.alice.slash(world.channel, "game new", kind="toy-quiet")
    thread = world.thread()
    await world.bob.slash(thread, "game join")
    await world.alice.slash(thread, "game start")
    before = len(world.public())
    played = await world.alice.slash(thread, "game play", move="Ponder")
    assert played.ephemeral and played.response.content.startswith("You played: Ponder.")  # type: ignore[union-attr]
    assert len(world.public()) == before  # no board: nothing public happened
    # The mover's own event still arrives: on the answer to its move.
    assert "You ponder your sigils." in played.response.content  # type: ignore[union-attr]
    move = (await world.bob.autocomplete(thread, "game play", "move", "sigil"))[0]
    await world.bob.slash(thread, "game play", move=move["value"])
    # Bob's lock-in is silent, but the thread must now wait on Alice alone.
    assert len(world.public()) == before and "Waiting on alice (" in thread.last_message.content


async def test_the_after_delivery_hook_runs_last_and_its_failure_breaks_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[int] = []

    async def hook(client: discord.Client, reply: Reply) -> None:
        seen.append(reply.table.version)
        thread = await kit.thread_of(client, reply.table)
        assert thread is not None
        await thread.send(f"after v{reply.table.version}")

    monkeypatch.setattr(messages, "_AFTER_DELIVER", {})
    kit.register_after_deliver("toy", hook)
    thread = await started(world)
    assert thread.last_message.content == "after v0"
    assert "The game begins" in thread.history()[-2].content  # the board came first
    assert len([m for m in dms(world.alice) if "you are P" in m.content]) == 1  # DMs were sent first

    async def broken(client: discord.Client, reply: Reply) -> None:
        raise ValueError("the secret sigil is 11")

    kit.register_after_deliver("toy", broken)
    move = (await world.bob.autocomplete(thread, "game play", "move", ""))[0]
    with caplog.at_level(logging.ERROR, logger="conclave"):
        played = await world.bob.slash(thread, "game play", move=move["value"])
    assert played.response.content.startswith(f"You played: {move['name']}.")  # type: ignore[union-attr]
    # The board was shown all the same (the turn's living board, edited in place).
    assert any("has locked in" in m.content for m in thread.history())
    assert "after-delivery hook failed with ValueError" in caplog.text
    assert "secret sigil" not in caplog.text
    world.env.raise_errors()  # nothing escaped to discord.py


async def test_a_board_panel_and_a_private_panel_replace_the_kits_messages(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def board_panel(client: discord.Client, board: Board) -> dict[str, Any]:
        ui = discord.ui.View(timeout=None)
        ui.add_item(kit.PrivateViewButton(board.table_id))
        ui.add_item(PlayMoveButton(board.table_id, board.version, Choice("Pass", "pass")))
        return {"content": f"PANEL v{board.version}", "view": ui}

    async def private_panel(client: discord.Client, table: TableRecord, note: PrivateNote) -> dict[str, Any]:
        seat = await kit.service_of(client).reads.seat_view(table.id, note.user_id)
        return {"content": f"MY PANEL seat {seat.seat}: {len(seat.moves)} moves"}

    monkeypatch.setattr(messages, "_BOARD_PANELS", {})
    monkeypatch.setattr(messages, "_PRIVATE_PANELS", {})
    kit.register_board_panel("toy", board_panel)
    kit.register_private_panel("toy", private_panel)
    thread = await started(world)
    assert any("bob takes a seat" in m.content for m in thread.history())  # lobby lines stay the kit's
    assert thread.last_message.content == "PANEL v0"
    assert dms(world.bob)[-1].content.startswith("MY PANEL seat")
    shown = await world.bob.click(thread.last_message, label="My private view")
    assert shown.ephemeral and shown.response.content.startswith("MY PANEL seat")  # type: ignore[union-attr]
    hand = await world.bob.slash(thread, "game hand")
    assert hand.ephemeral and hand.response.content.startswith("MY PANEL seat")  # type: ignore[union-attr]
    status = await world.carol.slash(thread, "game status")
    assert status.ephemeral and status.response.content == "PANEL v0"  # type: ignore[union-attr]

    async def failing(client: discord.Client, board: Board) -> dict[str, Any]:
        raise RuntimeError("panel bug")

    kit.register_board_panel("toy", failing)
    move = (await world.alice.autocomplete(thread, "game play", "move", ""))[0]
    await world.alice.slash(thread, "game play", move=move["value"])
    assert "has locked in" in thread.last_message.content  # the kit's own board instead


async def test_boards_of_two_quick_moves_go_out_in_version_order(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    posted: list[int] = []
    second_building = asyncio.Event()

    async def slow_first(client: discord.Client, board: Board) -> dict[str, Any]:
        if board.version == 2:
            second_building.set()
        if board.version == 1:
            # The first board is slow to build (a store read, a drawing): it waits until the
            # second one is being built, or a moment when the lock keeps the second one out.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(second_building.wait(), 0.3)
        posted.append(board.version)
        return kit.board_message(board)

    monkeypatch.setattr(messages, "_BOARD_PANELS", {})
    monkeypatch.setattr(delivery, "EDIT_SPACING", 1.0)  # debounced, as on Discord
    kit.register_board_panel("toy", slow_first)
    thread = await started(world, players=3)
    table = await _table(world)
    svc = world.bot.service
    assert svc is not None
    alice = FakeInteraction(world.bot, world.alice.id)
    bob = FakeInteraction(world.bot, world.bob.id)
    a = (await svc.reads.choices(table.id, world.alice.id))[0].value
    b = (await svc.reads.choices(table.id, world.bob.id))[0].value
    await asyncio.gather(kit.play(alice, table.id, a, None), kit.play(bob, table.id, b, None))  # type: ignore[arg-type]
    await world.env.settle()
    # Both lock-ins edit the living board; the second edit is debounced.
    assert posted == [0, 1]  # the second edit waits out the spacing
    await asyncio.sleep(kit.EDIT_SPACING + 0.3)
    await world.env.settle()
    assert posted == [0, 1, 2]
    assert alice.said[-1].startswith("You played") and bob.said[-1].startswith("You played")
    boards = board_messages(thread)
    assert boards[-1].content.count("has locked in") == 2  # the turn so far, in one message
    # A board older than one already posted is never posted after it.
    r3 = await svc.act(table.id, world.carol.id, (await svc.reads.choices(table.id, world.carol.id))[0].value)
    count = len(board_messages(thread))
    stale = replace(r3, board=replace(r3.board, version=1), private=())  # type: ignore[arg-type]
    await kit.deliver(world.bot, stale)
    await world.env.settle()
    assert len(board_messages(thread)) == count


class FakeInteraction:
    """Just enough of an interaction for kit.play, so two plays can run truly at once."""

    def __init__(self, client: discord.Client, user_id: int) -> None:
        self.client = client
        self.user = discord.Object(user_id)
        self.extras: dict[str, Any] = {}
        self.said: list[str] = []
        self.response = self
        self.followup = self
        self._done = False

    def is_done(self) -> bool:
        return self._done

    async def defer(self, **kwargs: Any) -> None:
        self._done = True

    async def send(self, content: str, **kwargs: Any) -> None:
        self.said.append(content)

    send_message = send


async def test_a_closed_table_archives_its_thread_and_its_buttons_say_closed(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    def board_items(board: Board) -> list[discord.ui.Item]:
        return [PlayMoveButton(board.table_id, board.version, Choice("Pass", "pass"))]

    monkeypatch.setattr(messages, "_BOARD_ITEMS", {"toy": board_items})
    thread = await started(world)
    first = board_with_button(thread)
    move = (await world.bob.autocomplete(thread, "game play", "move", ""))[0]
    await world.bob.slash(thread, "game play", move=move["value"])
    assert board_with_button(thread).id == first.id  # the living board was edited in place
    move = (await world.alice.autocomplete(thread, "game play", "move", ""))[0]
    await world.alice.slash(thread, "game play", move=move["value"])
    last = board_with_button(thread)
    assert last.id != first.id  # the round resolved and asks bob: a new turn, a new message
    await world.alice.slash(thread, "game abandon")
    assert thread.last_message.content == kit.CLOSING_LINE
    await kit.close_thread(world.bot, await _table(world))  # a second close (another path) says nothing
    await world.env.settle()
    assert [m.content for m in thread.history()].count(kit.CLOSING_LINE) == 1
    channel = world.env.backend.get_channel(thread.id)
    assert channel.thread_metadata is not None and channel.thread_metadata.archived
    assert not world.env.backend.get_message(
        thread.id, last.id
    ).components  # the last board's buttons are gone
    clicked = await world.bob.click(first, label="Pass")
    assert clicked.ephemeral and clicked.response.content == "This table is closed."  # type: ignore[union-attr]
    played = await world.bob.slash(thread, "game play", move="pass")
    assert played.response.content == "This table is closed."  # type: ignore[union-attr]
    hand = await world.bob.slash(thread, "game hand")
    assert hand.ephemeral and not hand.response.components  # type: ignore[union-attr]


async def play_to_the_end(world: World, thread: Any) -> Any:
    """Play alice's and bob's first offered moves, typed in ``/game play``, until the game ends."""
    for _ in range(60):
        table = await _table(world)
        if table.status != "active":
            break
        waiting = await world.bot.store.waiting_on(world.alice.id)  # type: ignore[union-attr]
        member = world.alice if waiting else world.bob
        move = (await member.autocomplete(thread, "game play", "move", ""))[0]
        await member.slash(thread, "game play", move=move["value"])
    return table


async def test_a_finished_game_closes_its_thread(world: World) -> None:
    thread = await started(world)
    opening_dm = dms(world.alice)[-1]
    svc = world.bot.service
    assert svc is not None
    table = await play_to_the_end(world, thread)
    assert table.status == "finished"
    assert "Game over" in thread.history()[-2].content and thread.last_message.content == kit.CLOSING_LINE
    late = await world.alice.click(board_with_button(thread), label="My private view")
    assert late.ephemeral and "hand [" in late.response.content  # type: ignore[union-attr]
    value = opening_dm.components[0].children[0].options[0].value  # type: ignore[union-attr]
    stale = await world.alice.user.select(opening_dm, [value])
    assert stale.response.content == "This game is over: the table is closed."  # type: ignore[union-attr]


async def test_an_ephemeral_answer_releases_a_view_of_restart_proof_items_only(world: World) -> None:
    asked = FakeInteraction(world.bot, world.alice.id)
    dynamic = discord.ui.View(timeout=None)
    dynamic.add_item(kit.PlayMoveSelect(1, 0, [Choice("Pass", "pass")]))
    await kit.answer(asked, "Your move", view=dynamic)  # type: ignore[arg-type]
    assert dynamic.is_finished()
    plain = discord.ui.View(timeout=None)
    plain.add_item(discord.ui.Button(label="Plain", custom_id="plain"))
    await kit.answer(asked, "Something else", view=plain)  # type: ignore[arg-type]
    assert not plain.is_finished()  # its callback lives in the view: keep it
    plain.stop()


async def test_a_board_the_thread_refuses_still_counts_the_move_and_sends_the_dms(world: World) -> None:
    thread = await started(world)
    dms_before = len(dms(world.alice))
    # The board is a new message or an edit of the living one: Discord refuses either.
    world.env.inject_error("*", f"/channels/{thread.id}/messages*", status=500, times=1)
    move = (await world.alice.autocomplete(thread, "game play", "move", ""))[0]
    played = await world.alice.slash(thread, "game play", move=move["value"])
    said = played.response.content  # type: ignore[union-attr]
    assert said.startswith(f"You played: {move['name']}. {kit.BOARD_REFUSED}")
    assert await version(world) == 1
    assert "You chose sigil" in said  # the mover's private event arrived, on its answer
    assert len(dms(world.alice)) == dms_before
    status = await world.alice.slash(thread, "game status")
    assert "2 sigils (locked in)" in status.response.content  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("build", "custom_id", "stamp"),
    [
        (lambda: PlayMoveButton(7, 12, Choice("Pass", "pass")), "cc:mv:7:12:pass", "12"),
        (lambda: argent_cog.MoveButton(7, 12, "#12.3", "Vote"), "ag:m:7:12:#12.3", "12"),
        (
            lambda: institute_cog.MoveButton(7, "0a1b2c3d", "cast die=2", "Cast"),
            "ins:m:7:0a1b2c3d:cast die=2",
            "0a1b2c3d",
        ),
    ],
)
async def test_stamped_move_buttons_keep_their_custom_ids_and_rebuild_from_them(
    build: Any, custom_id: str, stamp: str
) -> None:
    button = build()
    assert button.item.custom_id == custom_id  # buttons already posted must keep working
    assert (button.table_id, button.stamp) == (7, stamp)
    match = type(button).__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    posted = discord.ui.Button(label=button.item.label, custom_id=custom_id)
    again = await type(button).from_custom_id(None, posted, match)  # type: ignore[arg-type]
    assert (again.item.custom_id, again.item.label, again.value) == (
        custom_id,
        button.item.label,
        button.value,
    )


def test_a_stamped_move_button_checks_its_stamp_and_length() -> None:
    fingerprinted = institute_cog.MoveButton.__discord_ui_compiled_template__
    assert fingerprinted.fullmatch("ins:m:7:12:pass") is None  # a version is not a fingerprint
    assert PlayMoveButton.__discord_ui_compiled_template__.fullmatch("cc:mv:7:0a1b2c3d:pass") is None
    assert argent_cog.MoveButton(7, 3, "pass").item.label == "pass"  # the label defaults to the value
    with pytest.raises(ValueError, match="100 characters"):
        argent_cog.MoveButton(7, 3, "x" * 100)


REPLAY_LINE = "The whole game, turn by turn:"


async def test_the_replay_is_posted_once_after_a_restart(
    world: World, restart_bot: Restart, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A restart loads the extensions again (a new game-end hook each time): the game's end still
    # posts one replay. (The toy game has no drawing, so its replay is a stand-in GIF.)
    from service.history import TableHistory

    async def tiny_gif(self: TableHistory, table_id: int) -> bytes:
        return b"GIF89a" + bytes(16)

    monkeypatch.setattr(TableHistory, "replay_image", tiny_gif)
    thread = await started(world)
    await restart_bot()
    await restart_bot()
    table = await play_to_the_end(world, thread)
    assert table.status == "finished"
    assert [m.content for m in thread.history()].count(REPLAY_LINE) == 1
