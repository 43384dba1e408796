"""/game: the lobby and what every game shares, plus /help. Authorise, parse, call, reply."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs.kit import (
    DYNAMIC_ITEMS,
    SAVED,
    THREAD_ARCHIVE_MINUTES,
    TableButton,
    answer,
    board_send_args,
    can_manage,
    deliver,
    greet,
    guarded,
    kind_here,
    play,
    remember_board,
    run_bots,
    service_of,
    show_private,
    table_here,
    take_back,
    typed_form,
)
from cogs.kit.lists import page_of, pages, stats_lines, waiting_lines
from cogs.tablelife import log_message
from service import BOT_LEVELS, LOBBY_HINT, TableError, TableRecord
from service.pages import web_answer

log = logging.getLogger("conclave.cogs")

HELP_HEAD = (
    "**Conclave** hosts board games in threads, one thread per table. Open one with "
    "`/game new kind:<game>` in a text channel; `/game rules kind:<game>` tells you how to play."
)

PRIVACY_NOTE = (
    "**Privacy:** I keep your seats, moves and names at tables, your settings and the tables you "
    "follow, and nothing else (no messages). `/me data` sends it all to you; `/me forget` deletes "
    "it. The README's Privacy section says more."
)


def command_lines(tree: app_commands.CommandTree, main: str = "game") -> list[str]:
    """Return /help's list of every slash command in the tree, read from the tree itself.

    The shared group (``/game``) gets a line per command with what it does; each game's group
    gets one line naming all its commands (its own ``help`` command explains them), so the
    whole list fits one message.
    """
    lines: list[str] = []
    groups: list[str] = []
    singles: list[str] = []
    for command in sorted(tree.get_commands(), key=lambda c: c.name):
        if isinstance(command, app_commands.Group) and command.name == main:
            lines.append(f"**/{command.name}** — {command.description}:")
            for sub in command.commands:
                lines.append(f"`/{command.name} {sub.name}{_params(sub)}` {_short(sub.description)}")
        elif isinstance(command, app_commands.Group):
            names = ", ".join(f"`{sub.name}`" for sub in command.commands)
            groups.append(f"**/{command.name}** ({command.description}): {names}.")
        elif isinstance(command, app_commands.Command):
            singles.append(f"`/{command.name}` {_short(command.description)}")
    return lines + groups + singles


def _params(command: app_commands.Command | app_commands.Group) -> str:
    """Name a command's required options; the optional ones show in Discord's own prompt."""
    if not isinstance(command, app_commands.Command):
        return ""
    return "".join(f" {p.name}:" for p in command.parameters if p.required)


def _short(description: str) -> str:
    """Keep a command's description to its first clause, so /help fits one message."""
    first = description.split(":")[0].split(";")[0].split(" (")[0].rstrip(".")
    return first if len(first) <= 72 else first[:71] + "…"


LEVEL_CHOICES = [app_commands.Choice(name=level, value=level) for level in BOT_LEVELS]
DIGEST_CHOICES = [
    app_commands.Choice(name="every turn", value="turn"),
    app_commands.Choice(name="once a round", value="round"),
    app_commands.Choice(name="once a day", value="day"),
]


def text_channel(interaction: discord.Interaction) -> discord.TextChannel:
    """Return the text channel a table is opened from, or refuse (a table gets its own thread)."""
    channel = interaction.channel
    if not isinstance(channel, discord.TextChannel):
        raise TableError("Open a table from a text channel: it gets its own thread.")
    return channel


async def open_thread(
    client: discord.Client, channel: discord.TextChannel, table: TableRecord, host_id: int
) -> discord.Thread:
    """Open a new table's thread (archived as late as Discord allows) and record it.

    Without the permission to create threads, the table just opened is closed and the host told.
    """
    svc = service_of(client)
    try:
        thread = await channel.create_thread(
            name=svc.thread_name(table),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    except discord.HTTPException:
        await svc.abandon(table.id, host_id)
        raise TableError("I could not create a thread here: I need Create Public Threads.") from None
    await svc.attach_thread(table.id, thread.id)
    return thread


async def _named_or_here(interaction: discord.Interaction, table: int | None) -> int:
    """Return the table a command names by number (in this server only), else this thread's table."""
    if table is None:
        return (await table_here(interaction)).id
    return (await service_of(interaction.client).servers.table_in(table, interaction.guild_id)).id


async def may_open(interaction: discord.Interaction, channel: discord.TextChannel) -> None:
    """Refuse opening a table where this server's settings (channel, hosting role) do not allow it."""
    roles = [role.id for role in getattr(interaction.user, "roles", [])]
    await service_of(interaction.client).servers.may_open(interaction.guild_id, channel.id, roles)


class GameCog(commands.Cog):
    """The /game commands shared by every game."""

    # Tables live in a server's threads: the group is not offered in DMs (``/me`` is).
    game = app_commands.Group(name="game", description="Play board games in threads", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a start or a restart, deliver what was left undelivered and let the bots move."""
        await service_of(self.bot).resume_deliveries()
        for table_id in await service_of(self.bot).bots.tables_waiting_on_bots():
            await run_bots(self.bot, table_id)

    # ------------------------------------------------------------------ autocomplete

    async def kind_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """Offer the registered games whose kind or title match the typed text."""
        typed = current.casefold()
        return [
            app_commands.Choice(name=title, value=kind)
            for kind, title in service_of(self.bot).catalogue.kinds()
            if typed in kind.casefold() or typed in title.casefold()
        ][:25]

    async def option_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice]:
        """Offer table options of the chosen game as name=value pairs."""
        kind = str(getattr(interaction.namespace, "kind", "") or "")
        hints = service_of(self.bot).catalogue.option_hints(kind, current)
        return [app_commands.Choice(name=h or "(defaults)", value=h) for h in hints]

    async def move_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """Offer the user's own legal moves at this thread's table, by readable label.

        Each value is a ``#version.index`` token: sent twice at once, it applies once.
        """
        try:
            table = await table_here(interaction)
        except TableError:
            return []
        found = await service_of(self.bot).reads.choices(table.id, interaction.user.id, current, stamped=True)
        return [app_commands.Choice(name=c.label, value=c.value) for c in found]

    async def card_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """Offer card names, from this thread's game or from every game."""
        names = service_of(self.bot).catalogue.card_names(current, await kind_here(interaction))
        return [app_commands.Choice(name=n[:100], value=n[:100]) for n in names]

    # ------------------------------------------------------------------ the lobby

    @game.command(name="new")
    @app_commands.describe(
        kind="The game to play",
        options="Table options as name=value, space separated",
        bots="Seats to fill with bots at once",
        level="How well those bots play (default basic)",
    )
    @app_commands.autocomplete(kind=kind_choices, options=option_choices)
    @app_commands.choices(level=LEVEL_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        kind: str,
        options: str | None = None,
        bots: app_commands.Range[int, 0, 5] = 0,
        level: str | None = None,
    ) -> None:
        """Open a table for a game in a new thread."""

        async def work() -> None:
            channel = text_channel(interaction)
            await may_open(interaction, channel)
            svc = service_of(self.bot)
            svc.catalogue.rules_for(kind)
            table = await svc.open_table(
                kind,
                options,
                guild_id=interaction.guild_id,
                channel_id=channel.id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
            )
            if bots:
                try:
                    await svc.bots.add_bots(table.id, interaction.user.id, level, bots)
                except TableError:
                    await svc.abandon(table.id, interaction.user.id)
                    raise
            thread = await open_thread(self.bot, channel, table, interaction.user.id)
            table = await svc.table(table.id)
            lobby = await svc.reads.status(table.id)
            opened = await thread.send(
                f"{interaction.user.mention} opened this table. {lobby.text}\n{LOBBY_HINT}",
                allowed_mentions=discord.AllowedMentions.none(),
            )
            # Seats taken and freed edit this message in place (the lobby's living board).
            remember_board(self.bot, table.id, opened.id)
            await greet(self.bot, table, interaction.user.id, thread)
            await answer(interaction, f"Your table is open: {thread.mention}")

        await guarded(interaction, work)

    @game.command(name="join")
    async def join(self, interaction: discord.Interaction) -> None:
        """Take a seat at this thread's table."""

        async def work() -> None:
            svc = service_of(self.bot)
            table = await table_here(interaction)
            reply = await svc.join(table.id, interaction.user.id, interaction.user.display_name)
            interaction.extras[SAVED] = True
            posted = await deliver(self.bot, reply)
            reached = await greet(self.bot, table, interaction.user.id)
            said = [reply.answer]
            if not posted:
                said.append("The thread refused my message, but your seat is taken.")
            if not reached:
                said.append("I could not DM you: use /game hand here once the game starts.")
            await answer(interaction, " ".join(said))

        await guarded(interaction, work)

    @game.command(name="addbot")
    @app_commands.describe(level="How well the bot plays (default basic)")
    @app_commands.choices(level=LEVEL_CHOICES)
    async def addbot(self, interaction: discord.Interaction, level: str | None = None) -> None:
        """Seat a bot at this thread's table (host only, in the lobby)."""

        async def work() -> None:
            table = await table_here(interaction)
            reply = await service_of(self.bot).bots.add_bots(table.id, interaction.user.id, level)
            await deliver(self.bot, reply)
            await answer(interaction, reply.answer)

        await guarded(interaction, work)

    @game.command(name="practice")
    @app_commands.describe(
        kind="The game to practise",
        level="How well the bots play (default basic)",
        players="Seats in all, yours included (default: the fewest the game allows, at least 2)",
        options="Table options as name=value, space separated",
    )
    @app_commands.autocomplete(kind=kind_choices, options=option_choices)
    @app_commands.choices(level=LEVEL_CHOICES)
    async def practice(
        self,
        interaction: discord.Interaction,
        kind: str,
        level: str | None = None,
        players: app_commands.Range[int, 1, 6] | None = None,
        options: str | None = None,
    ) -> None:
        """Open a table for you against bots and start it at once."""

        async def work() -> None:
            channel = text_channel(interaction)
            await may_open(interaction, channel)
            svc = service_of(self.bot)
            table = await svc.bots.practice(
                kind,
                options,
                guild_id=interaction.guild_id,
                channel_id=channel.id,
                host_id=interaction.user.id,
                host_name=interaction.user.display_name,
                level=level,
                players=players,
            )
            thread = await open_thread(self.bot, channel, table, interaction.user.id)
            await greet(self.bot, await svc.table(table.id), interaction.user.id, thread)
            reply = await svc.start(table.id, interaction.user.id)
            await answer(interaction, f"Your practice table is open: {thread.mention}")
            await deliver(self.bot, reply)

        await guarded(interaction, work)

    @game.command(name="leave")
    async def leave(self, interaction: discord.Interaction) -> None:
        """Free your seat in the lobby, or leave a game in progress where its rules allow."""

        async def work() -> None:
            table = await table_here(interaction)
            if table.status == "active":
                refused = await service_of(self.bot).leave_refusal(table.id, interaction.user.id)
                if refused is not None:
                    await answer(interaction, refused)
                    return
                # Leaving a game cannot be undone: ask first, with a button only the asker sees.
                ui = discord.ui.View(timeout=None)
                ui.add_item(LeaveGameButton(table.id))
                await answer(interaction, LEAVE_QUESTION, view=ui)
                return
            await leave_table(self.bot, interaction, table.id)

        await guarded(interaction, work)

    @game.command(name="start")
    async def start(self, interaction: discord.Interaction) -> None:
        """Start the game at this thread's table (host only)."""

        async def work() -> None:
            table = await table_here(interaction)
            reply = await service_of(self.bot).start(table.id, interaction.user.id)
            interaction.extras[SAVED] = True
            posted = await deliver(self.bot, reply)
            refused = " The thread refused the board: `/game status` shows it." if not posted else ""
            await answer(interaction, reply.answer + refused)

        await guarded(interaction, work)

    # ------------------------------------------------------------------ play and look

    @game.command(name="play")
    @app_commands.describe(move="Pick from your legal moves, or type one")
    @app_commands.autocomplete(move=move_choices)
    async def play_move(self, interaction: discord.Interaction, move: str) -> None:
        """Play a move at this thread's table (a move whose words the player writes opens its form)."""
        # A form must be the interaction's first answer, so it is looked for before acknowledging;
        # every other move is acknowledged before the table is even looked up (3 seconds).
        form = await typed_form(interaction, move)
        if form is not None:
            await interaction.response.send_modal(form)
            return
        await play(interaction, None, move, None)

    @game.command(name="why")
    @app_commands.describe(move="The move you have in mind, as you would type it to play it")
    async def why(self, interaction: discord.Interaction, move: str) -> None:
        """Why a move is not offered now: the rule that rules it out, and your nearest moves (only you)."""

        async def work() -> None:
            table = await table_here(interaction)
            await answer(interaction, await service_of(self.bot).why.ask(table.id, interaction.user.id, move))

        await guarded(interaction, work)

    @game.command(name="status")
    async def status(self, interaction: discord.Interaction) -> None:
        """Show this table's board and whose decision it waits for."""

        async def work() -> None:
            table = await table_here(interaction)
            board = await service_of(self.bot).reads.status(table.id)
            # The game's own board panel when it has one (a status board never pings).
            message = await board_send_args(self.bot, board)
            await answer(interaction, message.pop("content"), **message)

        await guarded(interaction, work)

    @game.command(name="hand")
    async def hand(self, interaction: discord.Interaction) -> None:
        """Show your private view of this table (only you see it)."""
        await show_private(interaction)

    @game.command(name="log")
    async def log_(self, interaction: discord.Interaction) -> None:
        """The public log, paged."""

        async def work() -> None:
            table = await table_here(interaction)
            content, view = await log_message(self.bot, table.id, 0)
            await answer(interaction, content, view=view)

        await guarded(interaction, work)

    @game.command(name="abandon")
    async def abandon(self, interaction: discord.Interaction) -> None:
        """Close this table: host or Manage Server at once, otherwise every player must agree."""

        async def work() -> None:
            table = await table_here(interaction)
            reply = await service_of(self.bot).abandon(
                table.id, interaction.user.id, manage_server=can_manage(interaction)
            )
            await deliver(self.bot, reply)
            await answer(interaction, reply.answer)

        await guarded(interaction, work)

    @game.command(name="mine")
    @app_commands.describe(page="Which page of the list (1 is the oldest waits)")
    async def mine(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1, 10_000] = 1
    ) -> None:
        """List this server's tables waiting on you, oldest first (`/me tables`: every server's)."""

        async def work() -> None:
            waiting = await service_of(self.bot).servers.mine(interaction.user.id, interaction.guild_id)
            if not waiting:
                await answer(interaction, "No table of this server is waiting on you.")
                return
            lines = waiting_lines(waiting)
            await answer(interaction, page_of(lines, page, "tables waiting on you", "/game mine"))

        await guarded(interaction, work)

    # ------------------------------------------------------------------ tables that last weeks

    @game.command(name="undo")
    async def undo(self, interaction: discord.Interaction) -> None:
        """Undo your move."""
        try:
            table = await table_here(interaction)
        except TableError as exc:
            await answer(interaction, exc.sentence)
            return
        # The version the table had when the command came: two at once take back one move.
        await take_back(interaction, table.id, table.version)

    @game.command(name="rejoin")
    async def rejoin(self, interaction: discord.Interaction) -> None:
        """Reclaim your seat."""

        async def work() -> None:
            table = await table_here(interaction)
            await answer(interaction, await service_of(self.bot).play.rejoin(table.id, interaction.user.id))

        await guarded(interaction, work)

    @game.command(name="watch")
    @app_commands.describe(
        table="A table's number, to follow it from anywhere",
        every="How often a digest of the public moves comes by DM (default: once a round)",
    )
    @app_commands.choices(every=DIGEST_CHOICES)
    async def watch(
        self, interaction: discord.Interaction, table: int | None = None, every: str = "round"
    ) -> None:
        """Spectate by DM: a digest every turn, round or day."""

        async def work() -> None:
            table_id = await _named_or_here(interaction, table)
            said = await service_of(self.bot).play.watch(table_id, interaction.user.id, every)
            await answer(interaction, said)

        await guarded(interaction, work)

    @game.command(name="unwatch")
    @app_commands.describe(table="The table's number (default: this thread's)")
    async def unwatch(self, interaction: discord.Interaction, table: int | None = None) -> None:
        """Stop spectating."""

        async def work() -> None:
            table_id = await _named_or_here(interaction, table)
            await answer(interaction, await service_of(self.bot).play.unwatch(table_id, interaction.user.id))

        await guarded(interaction, work)

    @game.command(name="web")
    async def web_page(self, interaction: discord.Interaction) -> None:
        """This table's web page, and a private link to your own view (only you see it)."""

        async def work() -> None:
            table = await table_here(interaction)
            links = getattr(getattr(self.bot, "web", None), "links", None)
            said = await web_answer(service_of(self.bot), links, table.id, interaction.user.id)
            await answer(interaction, said)

        await guarded(interaction, work)

    @game.command(name="history")
    async def history(self, interaction: discord.Interaction) -> None:
        """Log as files."""

        async def work() -> None:
            table = await table_here(interaction)
            # Only the asker sees the answer: their own moves come with their full labels.
            text, data = await service_of(self.bot).history.history(table.id, interaction.user.id)
            files = [
                discord.File(io.BytesIO(text.encode()), f"table-{table.id}-log.txt"),
                discord.File(io.BytesIO(data.encode()), f"table-{table.id}-log.json"),
            ]
            head = "This table's log: your own moves in your words, the others' as the table saw them."
            await answer(interaction, head, files=files)

        await guarded(interaction, work)

    @game.command(name="stats")
    @app_commands.describe(user="Whose record (default: yours)")
    async def stats(self, interaction: discord.Interaction, user: discord.User | None = None) -> None:
        """Your record in this server (`/me stats`: in every server)."""

        async def work() -> None:
            who = user or interaction.user
            # Only this server's tables: a record elsewhere is that server's business.
            stats = await service_of(self.bot).servers.stats(who.id, interaction.guild_id)
            titles = dict(service_of(self.bot).catalogue.kinds())
            lines = stats_lines(f"{who.display_name} in this server", stats, titles)
            await answer(interaction, "\n".join(lines))

        await guarded(interaction, work)

    @game.command(name="rules")
    @app_commands.describe(kind="The game")
    @app_commands.autocomplete(kind=kind_choices)
    async def rules(self, interaction: discord.Interaction, kind: str) -> None:
        """How to play a game: a short summary here, the full guide as a file."""
        try:
            guide = service_of(self.bot).catalogue.rules_guide(kind)
        except TableError as exc:
            await answer(interaction, exc.sentence)
            return
        files = [discord.File(io.BytesIO(f.text.encode("utf-8")), filename=f.name) for f in guide.files]
        await answer(interaction, guide.summary, files=files)

    @game.command(name="card")
    @app_commands.describe(name="The card's name")
    @app_commands.autocomplete(name=card_choices)
    async def card(self, interaction: discord.Interaction, name: str) -> None:
        """Look up a card."""
        await answer(interaction, service_of(self.bot).catalogue.card(name, await kind_here(interaction)))

    # ------------------------------------------------------------------ help

    @app_commands.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """List every command, the games on offer, and what I keep about you."""
        games = ", ".join(f"{title} (`{kind}`)" for kind, title in service_of(self.bot).catalogue.kinds())
        lines = [HELP_HEAD, f"Games: {games or 'none installed'}.", *command_lines(self.bot.tree)]
        lines.append(PRIVACY_NOTE)
        # As many messages as the list needs, each within Discord's limit.
        for shown in pages(lines):
            await answer(interaction, "\n".join(shown))


LEAVE_QUESTION = (
    "Leave this game for good? Where the game allows it the others play on without you; "
    "you cannot take your seat back."
)


async def leave_table(bot: discord.Client, interaction: discord.Interaction, table_id: int) -> None:
    """Leave the table's lobby or game through the service, post what changed, answer the user."""
    reply = await service_of(bot).leave(table_id, interaction.user.id)
    await deliver(bot, reply)
    await answer(interaction, reply.answer)


class LeaveGameButton(
    TableButton, prefix="cc:leave", label="Leave the game", style=discord.ButtonStyle.danger
):
    """The confirmation button of /game leave in a game in progress (restart-proof)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Leave the game for the user who clicked."""
        await guarded(interaction, lambda: leave_table(interaction.client, interaction, self.table_id))


async def setup(bot: commands.Bot) -> None:
    """Add the /game commands and the restart-proof components."""
    await bot.add_cog(GameCog(bot))
    bot.add_dynamic_items(*DYNAMIC_ITEMS, LeaveGameButton)
