"""/conclave for a server's moderators, and the bot leaving or coming back to a server.

Moderators list the server's tables, close one, hand its host role on, remove a lobby's player
and change the server's settings (read by the service each time they matter). The group is
guild only and needs Manage Server by default (a server may grant it to a role in its
Integrations settings). When the bot is removed from a server, that server's tables pause;
they resume when it comes back.
"""

from __future__ import annotations

import contextlib
import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit import (
    answer,
    deliver,
    guarded,
    private_send_args,
    send_private,
    service_of,
    thread_of,
)
from cogs.kit.lists import page_of
from service import TableError
from service.servers import SETTINGS, table_line

log = logging.getLogger("conclave.cogs")

SETTING_CHOICES = [
    app_commands.Choice(name=f"{key}: {about}"[:100], value=key) for key, about in SETTINGS.items()
]
CHANNEL_SETTINGS = ("channel", "log_channel")


async def log_event(client: discord.Client, guild_id: int | None, text: str) -> None:
    """Post a moderation event to the server's log channel, when it has one (a failure is skipped)."""
    if guild_id is None:
        return
    channel_id = (await service_of(client).servers.server_settings(guild_id)).get("log_channel")
    if channel_id is None:
        return
    channel = client.get_channel(int(channel_id))
    if not isinstance(channel, discord.abc.Messageable):
        return
    with contextlib.suppress(discord.HTTPException):
        await channel.send(text, allowed_mentions=discord.AllowedMentions.none())


def _settings_text(settings: dict[str, str]) -> str:
    """Word a server's settings, each with its value or its default."""
    lines = ["**This server's settings** (`/conclave settings setting:<name>` changes one):"]
    for key, about in SETTINGS.items():
        value = settings.get(key)
        shown = "default" if value is None else (f"<#{value}>" if key in CHANNEL_SETTINGS else value)
        if value is not None and key == "host_role":
            shown = f"<@&{value}>"
        lines.append(f"`{key}` = {shown}: {about}.")
    return "\n".join(lines)


class ServerCog(commands.Cog):
    """/conclave, and pausing a server's tables while the bot is not in it."""

    conclave = app_commands.Group(
        name="conclave",
        description="Run Conclave in this server (moderators)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    # ------------------------------------------------------------------ leaving and coming back

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Pause the tables of a server that removed the bot."""
        await service_of(self.bot).servers.server_left(guild.id)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        """Resume the tables of a server the bot is back in."""
        await service_of(self.bot).servers.server_back(guild.id)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        """Resume the tables of a server that took the bot back while it was offline."""
        await service_of(self.bot).servers.server_back(guild.id)

    # ------------------------------------------------------------------ the commands

    @conclave.command(name="tables")
    @app_commands.describe(page="Which page of the list (1: the newest tables)")
    async def tables(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1
    ) -> None:
        """List this server's open tables: status, game, players, whom they wait on, last change."""

        async def work() -> None:
            found = await service_of(self.bot).servers.server_tables(interaction.guild_id or 0)
            if not found:
                await answer(interaction, "This server has no open table.")
                return
            lines = [table_line(entry) for entry in found]
            await answer(interaction, page_of(lines, page, "open tables", "/conclave tables"))

        await guarded(interaction, work)

    @conclave.command(name="close")
    @app_commands.describe(table="The table's number")
    async def close(self, interaction: discord.Interaction, table: int) -> None:
        """Close one of this server's tables at once."""

        async def work() -> None:
            svc = service_of(self.bot)
            found = await svc.servers.table_in(table, interaction.guild_id)
            reply = await svc.abandon(found.id, interaction.user.id, manage_server=True)
            await deliver(self.bot, reply)
            await log_event(self.bot, interaction.guild_id,
                            f"{interaction.user.mention} closed {svc.thread_name(found)}.")
            await answer(interaction, reply.answer)

        await guarded(interaction, work)

    @conclave.command(name="host")
    @app_commands.describe(table="The table's number", member="The seated player who hosts from now on")
    async def host(self, interaction: discord.Interaction, table: int, member: discord.Member) -> None:
        """Hand a table's host role to another of its players."""

        async def work() -> None:
            said = await service_of(self.bot).servers.hand_host(table, interaction.guild_id or 0, member.id)
            await log_event(self.bot, interaction.guild_id, f"{interaction.user.mention}: {said}")
            await answer(interaction, said)

        await guarded(interaction, work)

    @conclave.command(name="kick")
    @app_commands.describe(table="The table's number", member="The player to remove from the lobby")
    async def kick(self, interaction: discord.Interaction, table: int, member: discord.Member) -> None:
        """Remove a player from a table's lobby."""

        async def work() -> None:
            svc = service_of(self.bot)
            reply = await svc.servers.kick(table, interaction.guild_id or 0, member.id)
            await deliver(self.bot, reply)
            where = svc.thread_name(reply.table)
            await log_event(self.bot, interaction.guild_id,
                            f"{interaction.user.mention} removed a player from {where}.")
            await answer(interaction, reply.answer)

        await guarded(interaction, work)

    @conclave.command(name="substitute")
    @app_commands.describe(
        table="The game's number",
        player="The player who leaves the seat",
        member="The member who takes the seat over",
    )
    async def substitute(
        self, interaction: discord.Interaction, table: int, player: discord.User, member: discord.Member
    ) -> None:
        """Seat another member in a player's place, mid-game."""

        async def work() -> None:
            svc = service_of(self.bot)
            if member.bot:
                raise TableError("Seat a person: a bot seat is the host's choice in the lobby.")
            old_name, note = await svc.servers.substitute(
                table, interaction.guild_id or 0, player.id, member.id, member.display_name
            )
            record = await svc.table(note.table_id)
            where = svc.thread_name(record)
            thread = await thread_of(self.bot, record)
            if thread is not None:
                with contextlib.suppress(discord.HTTPException):
                    await thread.send(f"A moderator seated {member.mention} in {old_name}'s place.",
                                      allowed_mentions=discord.AllowedMentions(users=[member]))
            with contextlib.suppress(discord.HTTPException):
                await player.send(f"A moderator gave your seat at {where} to {member.display_name}.")
            # The seat's private view goes to its new player (a closed DM is said in the thread).
            await send_private(self.bot, record, member.id, await private_send_args(self.bot, record, note),
                               thread)
            await log_event(self.bot, interaction.guild_id,
                            f"{interaction.user.mention} seated a substitute at {where}.")
            await answer(interaction, f"{member.display_name} now plays {old_name}'s seat at {where}.")

        await guarded(interaction, work)

    @conclave.command(name="settings")
    @app_commands.describe(
        setting="The setting to change (leave out to see them all)",
        value="clock: none/fast/normal/relaxed; spectators, bots, web: on/off; default: back to the default",
        channel="For channel and log_channel",
        role="For host_role",
    )
    @app_commands.choices(setting=SETTING_CHOICES)
    async def settings(
        self,
        interaction: discord.Interaction,
        setting: str | None = None,
        value: str | None = None,
        channel: discord.TextChannel | None = None,
        role: discord.Role | None = None,
    ) -> None:
        """See or change this server's settings for its tables."""

        async def work() -> None:
            svc = service_of(self.bot)
            guild_id = interaction.guild_id or 0
            if setting is None:
                await answer(interaction, _settings_text(await svc.servers.server_settings(guild_id)))
                return
            wanted = channel if setting in CHANNEL_SETTINGS else role if setting == "host_role" else None
            if (channel is not None or role is not None) and wanted is None:
                takes = {"channel": "a channel", "log_channel": "a channel", "host_role": "a role"}
                raise TableError(f"The {setting} setting takes {takes.get(setting, 'a value')}.")
            chosen = str(wanted.id) if wanted is not None and value is None else value or "default"
            stored = await svc.servers.set_server_setting(guild_id, setting, chosen)
            await log_event(self.bot, interaction.guild_id,
                            f"{interaction.user.mention} changed the setting `{setting}`.")
            await answer(interaction, _settings_text(stored))

        await guarded(interaction, work)


async def setup(bot: commands.Bot) -> None:
    """Add /conclave and the server listeners."""
    await bot.add_cog(ServerCog(bot))
