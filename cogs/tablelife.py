"""The Discord side of tables that last weeks: the service's outlet, vote and log buttons, /me.

The service says some things by itself (a reminder, an out-of-time vote, a move played for an
absent seat, a spectator's board); this extension installs the outlet that posts them, starts
the one scheduler task with the bot and stops it with the bot, posts the replay when a game
ends, and holds ``/me`` (pings and time zone, your tables and record in every server, your
data). The /game commands for undo, watch, history and the rest live in ``cogs.game``.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit import (
    answer,
    deliver,
    deliver_pending,
    guarded,
    image_file,
    nonce_of,
    register_on_finish,
    send_private,
    service_of,
    thread_of,
)
from cogs.kit.lists import page_of, stats_lines, waiting_lines
from service import DELIVER, Reply, TableError
from service.clock import time_zones
from service.notices import Notice

log = logging.getLogger("conclave.cogs")

PINGS_CHOICES = [
    app_commands.Choice(name="every decision", value="every"),
    app_commands.Choice(name="only the start of my turn", value="turn"),
    app_commands.Choice(name="reminders only", value="reminders"),
    app_commands.Choice(name="nothing", value="nothing"),
]
PINGS_WORDS = {c.value: c.name for c in PINGS_CHOICES}
LOG_HEAD = "Log, page"
"""How every page of /game log begins: its buttons turn only a message that begins so."""


async def outlet(client: discord.Client, message: Notice | Reply) -> None:
    """Post what the service says by itself: a board of a stand-in move, a vote, a reminder, a DM."""
    if isinstance(message, Reply):
        await deliver(client, message)
        return
    if message.kind == DELIVER:
        await deliver_pending(client, message.table.id)  # raises on failure: the scheduler retries
        return
    svc = service_of(client)
    table = await svc.table(message.table.id)  # fresh: the thread may have moved
    if message.user_id is None:
        thread = await thread_of(client, table)
        if thread is None:
            return
        pings = " ".join(f"<@{u}>" for u in message.ping)
        kwargs: dict[str, Any] = {
            "content": f"{pings} {message.text}".strip(),
            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in message.ping]),
        }
        if message.choices:
            view = discord.ui.View(timeout=None)
            for value, label in message.choices:
                view.add_item(VoteButton(table.id, message.topic, value, label))
            kwargs["view"] = view
        if message.key:
            kwargs["nonce"] = nonce_of(message.key)  # sent again after a kill: Discord keeps one
        try:
            await thread.send(**kwargs)
        except discord.HTTPException as exc:
            log.warning("table %s: a %s notice was not posted (status %s)", table.id, message.kind,
                        exc.status)
            if message.key and exc.status >= 500:
                raise  # an outage: the due work that sent it runs again later
        return
    link = f"\nThe table: <#{table.thread_id}>" if table.thread_id else ""
    dm: dict[str, Any] = {"content": message.text[:1900] + link}
    image = None if message.board is None else await service_of(client).reads.image(message.board)
    if image is not None:
        dm["files"] = [image_file(image, f"table-{table.id}-board.png", message.board.alt)]
    if message.kind == "spectate":
        # A spectator has no seat: a closed DM is simply skipped.
        try:
            user = client.get_user(message.user_id) or await client.fetch_user(message.user_id)
            await user.send(**dm)
        except discord.HTTPException as exc:
            log.info("table %s: a spectator's DM failed (status %s)", table.id, exc.status)
        return
    if message.key:
        dm["nonce"] = nonce_of(message.key)  # a reminder sent again after a kill arrives once
    await send_private(client, table, message.user_id, dm, strict=bool(message.key))


async def post_replay(client: discord.Client, reply: Reply) -> None:
    """Post the animated replay of a game that just ended in its thread."""
    svc = service_of(client)
    data = await svc.history.replay_image(reply.table.id)
    thread = await thread_of(client, reply.table)
    if data is None or thread is None:
        return
    alt = await svc.history.replay_alt(reply.table.id)
    file = image_file(data, f"table-{reply.table.id}-replay.gif", alt)
    try:
        await thread.send("The whole game, turn by turn:", file=file)
    except discord.HTTPException as exc:
        log.info("table %s: the replay was not posted (status %s)", reply.table.id, exc.status)


class VoteButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cc:vote:(?P<table>\d+):(?P<topic>[a-z]+(?::\d+)+):(?P<choice>[a-z]+)",
):
    """One choice of a vote posted in a thread (an absent seat, taking a move back)."""

    def __init__(self, table_id: int, topic: str, choice: str, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or choice,
                style=discord.ButtonStyle.secondary,
                custom_id=f"cc:vote:{table_id}:{topic}:{choice}",
            )
        )
        self.table_id, self.topic, self.choice = table_id, topic, choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> VoteButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), match["topic"], match["choice"], item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Count the clicker's vote."""

        async def work() -> None:
            said = await service_of(interaction.client).play.vote(
                self.table_id, interaction.user.id, self.topic, self.choice
            )
            await answer(interaction, said)

        await guarded(interaction, work)


class LogPageButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"cc:log:(?P<table>\d+):(?P<page>\d+)"
):
    """Older / Newer under a page of /game log: shows that page in the same message."""

    def __init__(self, table_id: int, page: int, label: str, *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"cc:log:{table_id}:{page}",
                disabled=disabled,
            )
        )
        self.table_id, self.page = table_id, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> LogPageButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), int(match["page"]), item.label or "Page")

    async def callback(self, interaction: discord.Interaction) -> None:
        """Replace the shown page with this one (on a log answer of ours), else answer with it."""
        try:
            content, view = await log_message(interaction.client, self.table_id, self.page)
        except TableError as exc:
            await answer(interaction, exc.sentence)
            return
        if on_log_page(interaction):
            await interaction.response.edit_message(content=content, view=view)
        else:
            # A forged click on another message (the board) never replaces it: the page comes apart.
            await answer(interaction, content, view=view)


def on_log_page(interaction: discord.Interaction) -> bool:
    """Whether the click came from a log page this bot showed (an ephemeral answer it wrote)."""
    message = interaction.message
    me = interaction.client.user
    if message is None or me is None or message.author.id != me.id:
        return False
    return message.flags.ephemeral and message.content.startswith(LOG_HEAD)


async def log_message(client: discord.Client, table_id: int, page: int) -> tuple[str, discord.ui.View]:
    """Return one page of a table's public log and its Older / Newer buttons."""
    shown = await service_of(client).history.log_page(table_id, page)
    head = f"{LOG_HEAD} {shown.pages - shown.page} of {shown.pages} (newest last):"
    body = "\n".join(shown.lines) if shown.lines else "Nothing has happened yet."
    view = discord.ui.View(timeout=None)
    view.add_item(LogPageButton(table_id, shown.page + 1, "Older", disabled=shown.page + 1 >= shown.pages))
    view.add_item(LogPageButton(table_id, max(0, shown.page - 1), "Newer", disabled=shown.page == 0))
    return f"{head}\n{body}"[:2000], view


class MeCog(commands.Cog):
    """/me: what is about a player alone, in any server or DM: pings and time zone, tables, record, data."""

    # About you alone: offered in DMs too.
    me = app_commands.Group(name="me", description="You: settings, your tables and record, your data")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Install the service's outlet and start the scheduler with the bot."""
        svc = service_of(self.bot)
        bot = self.bot

        async def send(message: Notice | Reply) -> None:
            await outlet(bot, message)

        svc.outlet = send
        svc.scheduler.start()

    async def cog_unload(self) -> None:
        """Stop the scheduler; its work waits in the store for the next start."""
        await service_of(self.bot).scheduler.stop()

    async def zone_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """Offer IANA time zone names holding the typed text (Paris finds Europe/Paris)."""
        typed = current.strip().casefold().replace(" ", "_")
        found = [z for z in time_zones() if typed in z.casefold()]
        # Names that start with the typed text first: "europe/p" lists Europe/Paris early.
        found.sort(key=lambda z: (not z.casefold().startswith(typed), z))
        return [app_commands.Choice(name=z, value=z) for z in found[:25]]

    @me.command(name="pings")
    @app_commands.describe(
        mode="When I ping you",
        quiet="Quiet hours of your day, e.g. 22-7 (or off): reminders wait until they end",
        tz="Your time zone, e.g. Europe/Paris (daylight saving included)",
        utc_offset="Or your time zone as whole hours from UTC, e.g. 2 or -5",
    )
    @app_commands.choices(mode=PINGS_CHOICES)
    @app_commands.autocomplete(tz=zone_choices)
    async def pings(
        self,
        interaction: discord.Interaction,
        mode: str | None = None,
        quiet: str | None = None,
        tz: str | None = None,
        utc_offset: int | None = None,
    ) -> None:
        """Choose when I ping you, your quiet hours and your time zone."""

        async def work() -> None:
            prefs = await service_of(self.bot).time.set_pings(
                interaction.user.id, mode, quiet, utc_offset, tz=tz
            )
            quiet_text = "no quiet hours"
            if prefs.quiet_from is not None:
                quiet_text = f"quiet {prefs.quiet_from}:00-{prefs.quiet_to}:00"
            zone = prefs.tz or f"UTC{prefs.utc_offset:+d}"
            await answer(interaction, f"Pings: {PINGS_WORDS[prefs.pings]}; {quiet_text} ({zone}).")

        await guarded(interaction, work)

    @me.command(name="tables")
    @app_commands.describe(page="Which page of the list")
    async def tables(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1
    ) -> None:
        """List your tables in every server: those waiting on you first, then your other open ones."""

        async def work() -> None:
            svc = service_of(self.bot)
            servers = {g.id: g.name for g in self.bot.guilds}
            waiting = await svc.servers.mine(interaction.user.id)
            lines = waiting_lines(waiting, servers)
            asked = {w.table.id for w in waiting}
            for table in await svc.servers.my_tables(interaction.user.id):
                if table.id in asked:
                    continue
                where = f"<#{table.thread_id}>" if table.thread_id else svc.thread_name(table)
                server = servers.get(table.guild_id or 0, "a server I am not in")
                lines.append(f"{where} ({server}): {table.status}, not waiting on you")
            if not lines:
                await answer(interaction, "You sit at no open table.")
                return
            await answer(interaction, page_of(lines, page, "of your tables", "/me tables"))

        await guarded(interaction, work)

    @me.command(name="stats")
    async def stats(self, interaction: discord.Interaction) -> None:
        """Your record in every server."""

        async def work() -> None:
            svc = service_of(self.bot)
            stats = await svc.servers.stats(interaction.user.id)
            titles = dict(svc.catalogue.kinds())
            lines = stats_lines(f"{interaction.user.display_name}, every server", stats, titles)
            await answer(interaction, "\n".join(lines))

        await guarded(interaction, work)

    @me.command(name="data")
    async def data(self, interaction: discord.Interaction) -> None:
        """Get everything I keep about you, as a JSON file by DM."""

        async def work() -> None:
            text = await service_of(self.bot).servers.my_data(interaction.user.id)
            file = discord.File(io.BytesIO(text.encode()), f"conclave-data-{interaction.user.id}.json")
            try:
                await interaction.user.send("Everything Conclave keeps about you:", file=file)
            except discord.HTTPException:
                await answer(interaction, "I could not DM you: open your DMs to me and ask again.")
                return
            await answer(interaction, "Sent to you by DM.")

        await guarded(interaction, work)

    @me.command(name="forget")
    async def forget(self, interaction: discord.Interaction) -> None:
        """Delete your preferences and spectating, and your name from finished games."""

        async def work() -> None:
            await answer(interaction, await service_of(self.bot).servers.forget_me(interaction.user.id))

        await guarded(interaction, work)


async def setup(bot: commands.Bot) -> None:
    """Add /me, the vote and log buttons, and the replay at a game's end."""
    await bot.add_cog(MeCog(bot))
    bot.add_dynamic_items(VoteButton, LogPageButton)
    register_on_finish("replay", post_replay)
