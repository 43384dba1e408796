"""What every table cog shares: answering, posting replies, DMs and restart-proof components.

Not an extension itself (it has no ``setup``). A game cog (``/institute``, ``/argent``) builds
on it: find the table with ``table_here``, call the service inside ``guarded``, then hand the
``Reply`` to ``deliver``. The components below carry everything they need in their custom id,
so they keep working after a restart.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord

from rules.contract import Move
from service import Board, Choice, PrivateNote, Reply, TableError, TableService
from store import TableRecord

log = logging.getLogger("conclave.cogs")
T = TypeVar("T")

CONTENT_LIMIT = 2000
"""Discord's limit on a message's text."""
CODE_BLOCK_LIMIT = 1500
"""Longer text views travel as a .txt attachment instead of a code block."""
SORRY = "Something went wrong on my side; nothing was changed. Please try again."
ANSWERED = "conclave_answered"
"""Marks an interaction whose failure the player was already told about."""
DM_CLOSED = 50007
"""Discord's error code for 'Cannot send messages to this user'."""


def service_of(client: discord.Client) -> TableService:
    """Return the table service the bot carries."""
    return client.service  # type: ignore[attr-defined,no-any-return]


async def answer(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer ephemerally, whether or not the interaction was deferred."""
    kwargs.setdefault("ephemeral", True)
    if interaction.response.is_done():
        await interaction.followup.send(_clip(text), **kwargs)
    else:
        await interaction.response.send_message(_clip(text), **kwargs)


async def guarded(interaction: discord.Interaction, work: Callable[[], Awaitable[T]]) -> T | None:
    """Defer ephemerally, run the work, and turn a TableError into a short ephemeral answer."""
    if not interaction.response.is_done():
        # Rendering and the store may pass Discord's 3 seconds: acknowledge first.
        await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        return await work()
    except TableError as exc:
        await answer(interaction, exc.sentence)
        return None
    except Exception:
        # Tell the player at once, then let the error reach the logs and the error handlers.
        interaction.extras[ANSWERED] = True
        with contextlib.suppress(discord.HTTPException):
            await answer(interaction, SORRY)
        raise


async def table_here(interaction: discord.Interaction) -> TableRecord:
    """Return the table played in the interaction's thread, or raise TableError."""
    channel = interaction.channel
    thread_id = channel.id if isinstance(channel, discord.Thread) else None
    return await service_of(interaction.client).table_in_thread(thread_id)


async def kind_here(interaction: discord.Interaction) -> str | None:
    """Return the kind of game played in the interaction's thread, or None elsewhere."""
    try:
        return (await table_here(interaction)).kind
    except TableError:
        return None


def can_manage(interaction: discord.Interaction) -> bool:
    """Whether the user has Manage Server where the interaction happened."""
    permissions = interaction.permissions
    return bool(permissions and permissions.manage_guild)


# ---------------------------------------------------------------------- building messages


def _clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _body(text: str, view_text: str | None, image: bytes | None, stem: str) -> tuple[str, list[discord.File]]:
    """Combine text with the view (an image, a code block, or a .txt file when long)."""
    files: list[discord.File] = []
    if image is not None:
        files.append(discord.File(io.BytesIO(image), filename=f"{stem}.png"))
    if view_text:
        if len(view_text) <= CODE_BLOCK_LIMIT and len(text) + len(view_text) < CONTENT_LIMIT - 10:
            text = f"{text}\n```\n{view_text}\n```"
        else:
            files.append(discord.File(io.BytesIO(view_text.encode()), filename=f"{stem}.txt"))
    return _clip(text), files


BoardItems = Callable[[Board], list[discord.ui.Item]]
PrivateItems = Callable[[PrivateNote], list[discord.ui.Item]]
_BOARD_ITEMS: dict[str, BoardItems] = {}
_PRIVATE_ITEMS: dict[str, PrivateItems] = {}


def add_board_items(kind: str, make: BoardItems) -> None:
    """Let a game's cog add components (e.g. PlayMoveButton) under its board messages."""
    _BOARD_ITEMS[kind] = make


def add_private_items(kind: str, make: PrivateItems) -> None:
    """Let a game's cog replace the default move select on its private notes."""
    _PRIVATE_ITEMS[kind] = make


def board_message(board: Board, *, ping: bool = True) -> dict[str, Any]:
    """Return the send() arguments of a board message: text, drawing, "My private view" button."""
    text = board.text
    if ping and board.ping:
        text = " ".join(f"<@{u}>" for u in board.ping) + " — your decision.\n" + text
    content, files = _body(text, board.view_text, board.image, f"table-{board.table_id}-v{board.version}")
    kwargs: dict[str, Any] = {
        "content": content,
        "files": files,
        "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in board.ping]),
    }
    if board.in_play:
        view = discord.ui.View(timeout=None)
        view.add_item(PrivateViewButton(board.table_id))
        make = _BOARD_ITEMS.get(board.kind)
        for item in make(board) if make else []:
            view.add_item(item)
        kwargs["view"] = view
    return kwargs


def private_message(note: PrivateNote) -> dict[str, Any]:
    """Return the send() arguments of a private note: text, sheet, and a select of legal moves."""
    content, files = _body(note.text, note.view_text, note.image, f"table-{note.table_id}-seat-{note.seat}")
    kwargs: dict[str, Any] = {"content": content, "files": files}
    make = _PRIVATE_ITEMS.get(note.kind)
    if make is not None:
        items = make(note)
    elif note.choices:
        items = [PlayMoveSelect(note.table_id, note.version, note.choices)]
    else:
        items = []
    if items:
        view = discord.ui.View(timeout=None)
        for item in items:
            view.add_item(item)
        kwargs["view"] = view
    return kwargs


# ---------------------------------------------------------------------- delivering replies


async def thread_of(client: discord.Client, table: TableRecord) -> discord.abc.Messageable | None:
    """Return the table's thread, fetching it when it is not cached."""
    if table.thread_id is None:
        return None
    channel = client.get_channel(table.thread_id)
    if channel is None:
        try:
            channel = await client.fetch_channel(table.thread_id)
        except discord.HTTPException:
            log.warning("table %s: its thread cannot be reached", table.id)
            return None
    return channel  # type: ignore[return-value]


async def deliver(client: discord.Client, reply: Reply) -> None:
    """Post a reply's board in the table's thread and send each private note by DM."""
    thread = await thread_of(client, reply.table)
    if reply.board is not None and thread is not None:
        await thread.send(**board_message(reply.board))
    for note in reply.private:
        if note.dm_ok is False:
            continue
        await send_private(client, reply.table, note.user_id, private_message(note), thread)


async def send_private(
    client: discord.Client,
    table: TableRecord,
    user_id: int,
    message: dict[str, Any],
    thread: discord.abc.Messageable | None = None,
) -> bool:
    """DM a seated user; when DMs are closed, say so in the thread and record it. Return success."""
    try:
        user = client.get_user(user_id) or await client.fetch_user(user_id)
        await user.send(**message)
    except discord.HTTPException as exc:
        if not isinstance(exc, discord.Forbidden) and exc.code != DM_CLOSED:
            # A Discord outage is not a closed DM: keep trying next time.
            log.warning("table %s: DM failed with status %s", table.id, exc.status)
            return False
        await service_of(client).set_dm_ok(table.id, user_id, False)
        thread = thread or await thread_of(client, table)
        if thread is not None:
            await thread.send(
                f"<@{user_id}>, I can't DM you: use /game hand (or the My private view button).",
                allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
            )
        return False
    return True


async def greet(
    client: discord.Client, table: TableRecord, user_id: int, thread: discord.abc.Messageable | None = None
) -> None:
    """DM a newly seated player, which also checks that DMs reach them, and record the answer."""
    svc = service_of(client)
    hello = (
        f"You sit at {svc.thread_name(table)}. Your private view will arrive here; "
        "you can also use /game hand in the table's thread."
    )
    if await send_private(client, table, user_id, {"content": hello}, thread):
        await svc.set_dm_ok(table.id, user_id, True)


async def show_private(interaction: discord.Interaction, table_id: int) -> None:
    """Answer ephemerally with the user's private view of a table (refusing non-seated users)."""

    async def work() -> None:
        note = await service_of(interaction.client).hand(table_id, interaction.user.id)
        message = private_message(note)
        await answer(interaction, message.pop("content"), **message)

    await guarded(interaction, work)


async def play(
    interaction: discord.Interaction, table_id: int, move: str | Move, version: int | None
) -> None:
    """Play a move for the user, post the outcome, and confirm ephemerally."""

    async def work() -> None:
        svc = service_of(interaction.client)
        reply = await svc.act(table_id, interaction.user.id, move, expected_version=version)
        await deliver(interaction.client, reply)
        await answer(interaction, reply.answer)

    await guarded(interaction, work)


# ---------------------------------------------------------------------- restart-proof components


class PrivateViewButton(discord.ui.DynamicItem[discord.ui.Button], template=r"cc:pv:(?P<table>\d+)"):
    """The "My private view" button on every board message: answers with the clicker's view."""

    def __init__(self, table_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My private view", style=discord.ButtonStyle.secondary, custom_id=f"cc:pv:{table_id}"
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> PrivateViewButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the clicker their private view."""
        await show_private(interaction, self.table_id)


class PlayMoveButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cc:mv:(?P<table>\d+):(?P<version>\d+):(?P<value>.+)",
):
    """A button that plays one move, valid only while the table is at the version it was made for.

    Any cog may offer moves this way: ``PlayMoveButton(table_id, version, choice)``. A click
    after the game moved on is refused ephemerally; a second click of the same button too.
    """

    def __init__(
        self, table_id: int, version: int, choice: Choice, style: discord.ButtonStyle | None = None
    ) -> None:
        custom_id = f"cc:mv:{table_id}:{version}:{choice.value}"
        if len(custom_id) > 100:
            raise ValueError("A move button's custom id must fit in 100 characters: use an index token.")
        super().__init__(
            discord.ui.Button(
                label=_clip(choice.label, 80),
                style=style or discord.ButtonStyle.primary,
                custom_id=custom_id,
            )
        )
        self.table_id, self.version, self.value = table_id, version, choice.value

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> PlayMoveButton:
        """Rebuild the button from its custom id."""
        choice = Choice(item.label or match["value"], match["value"])
        return cls(int(match["table"]), int(match["version"]), choice)

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the button's move."""
        await play(interaction, self.table_id, self.value, self.version)


class PlayMoveSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"cc:ms:(?P<table>\d+):(?P<version>\d+)",
):
    """A select of moves (values are move codes or index tokens) tied to one table version."""

    def __init__(self, table_id: int, version: int, choices: tuple[Choice, ...] | list[Choice] = ()) -> None:
        options = [discord.SelectOption(label=_clip(c.label), value=c.value) for c in choices[:25]]
        select: discord.ui.Select = discord.ui.Select(
            placeholder="Choose your move…",
            custom_id=f"cc:ms:{table_id}:{version}",
            options=options or [discord.SelectOption(label="(nothing to choose)", value="-")],
        )
        super().__init__(select)
        self.table_id, self.version = table_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> PlayMoveSelect:
        """Rebuild the select from its custom id (the options come back with the interaction)."""
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the chosen move."""
        values = self.item.values
        if not values or values[0] == "-":
            await answer(interaction, "There is nothing to choose right now.")
            return
        await play(interaction, self.table_id, values[0], self.version)


DYNAMIC_ITEMS = (PrivateViewButton, PlayMoveButton, PlayMoveSelect)
"""Every restart-proof component; the bot registers them at start."""
