"""What every table cog shares: answering, posting replies, DMs and restart-proof components.

Not an extension itself (it has no ``setup``). A game cog (``/institute``, ``/argent``) builds
on it: find the table with ``table_here``, call the service inside ``guarded``, then hand the
``Reply`` to ``deliver``. The components below carry everything they need in their custom id,
so they keep working after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, TypeVar

import discord

from rules.contract import Move
from service import Board, Choice, PrivateNote, Reply, TableError, TableRecord, TableService

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
CONTINUE_HINT = "`/game status` shows the board."
CLOSING_LINE = "This table is closed: its buttons no longer play. Start a new game with `/game new`."


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
    view = kwargs.get("view")
    if kwargs["ephemeral"] and isinstance(view, discord.ui.View) and _restart_proof(view):
        # discord.py keeps an ephemeral message's view with a 15-minute timeout task; items
        # that are all DynamicItems are dispatched by custom id, so the view is not needed.
        view.stop()


def _restart_proof(view: discord.ui.View) -> bool:
    return all(isinstance(item, discord.ui.DynamicItem) for item in view.children)


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
BoardPanel = Callable[[discord.Client, Board], Awaitable[dict[str, Any]]]
PrivatePanel = Callable[[discord.Client, TableRecord, PrivateNote], Awaitable[dict[str, Any]]]
AfterDeliver = Callable[[discord.Client, Reply], Awaitable[None]]
_BOARD_ITEMS: dict[str, BoardItems] = {}
_PRIVATE_ITEMS: dict[str, PrivateItems] = {}
_BOARD_PANELS: dict[str, BoardPanel] = {}
_PRIVATE_PANELS: dict[str, PrivatePanel] = {}
_AFTER_DELIVER: dict[str, AfterDeliver] = {}
_ON_FINISH: list[AfterDeliver] = []
THREAD_ARCHIVE_MINUTES = 10080
"""The longest auto-archive duration Discord offers (7 days): a quiet table stays open longest."""


def add_board_items(kind: str, make: BoardItems) -> None:
    """Let a game's cog add components (e.g. PlayMoveButton) under its board messages."""
    _BOARD_ITEMS[kind] = make


def add_private_items(kind: str, make: PrivateItems) -> None:
    """Let a game's cog replace the default move select on its private notes."""
    _PRIVATE_ITEMS[kind] = make


def register_board_panel(kind: str, build: BoardPanel) -> None:
    """Let a game's cog build the whole thread message of its boards (text, files, view).

    ``build(client, board)`` returns ``thread.send()`` arguments. It is used for the boards of a
    started game (start, moves, the end), never for lobby lines or abandon votes. If it fails,
    the kit's own ``board_message`` is posted instead.
    """
    _BOARD_PANELS[kind] = build


def register_private_panel(kind: str, build: PrivatePanel) -> None:
    """Let a game's cog build the whole private message of its notes (DMs, My private view, /game hand).

    ``build(client, table, note)`` returns ``send()`` arguments. If it fails (a TableError
    included), the kit's own ``private_message`` is sent instead.
    """
    _PRIVATE_PANELS[kind] = build


def register_on_finish(hook: AfterDeliver) -> None:
    """Run ``hook(client, reply)`` for every table whose game just ended, before its thread closes."""
    if hook not in _ON_FINISH:
        _ON_FINISH.append(hook)


def register_after_deliver(kind: str, hook: AfterDeliver) -> None:
    """Let a game's cog act after each reply of its tables is delivered (auto-pass, summaries...).

    ``hook(client, reply)`` runs after the board is posted and the notes are sent, outside the
    table's delivery lock (it may act and deliver again), and before a finished table's thread
    is closed. Its errors are logged (without their text) and never break the delivery.
    """
    _AFTER_DELIVER[kind] = hook


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
        except discord.NotFound:
            # A moderator deleted the thread: the game lives on in a new one.
            return await reopen_thread(client, table)
        except discord.HTTPException:
            log.warning("table %s: its thread cannot be reached", table.id)
            return None
    closing = table.id in _deliveries(client).closed
    if isinstance(channel, discord.Thread) and channel.archived and not closing:
        # Discord archives a quiet thread; posting needs it open again.
        try:
            await channel.edit(archived=False)
        except discord.HTTPException as exc:
            log.info("table %s: its thread stays archived (status %s)", table.id, exc.status)
    return channel  # type: ignore[return-value]


async def reopen_thread(client: discord.Client, table: TableRecord) -> discord.Thread | None:
    """Open a new thread for a table whose thread was deleted, record it and say so there."""
    svc = service_of(client)
    parent = client.get_channel(table.channel_id)
    try:
        if parent is None:
            parent = await client.fetch_channel(table.channel_id)
        if not isinstance(parent, discord.TextChannel):
            return None
        thread = await parent.create_thread(
            name=svc.thread_name(table),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        )
    except discord.HTTPException as exc:
        log.warning("table %s: no new thread could be opened (status %s)", table.id, exc.status)
        return None
    await svc.attach_thread(table.id, thread.id)
    log.info("table %s: its thread was gone, moved to a new one", table.id)
    with contextlib.suppress(discord.HTTPException):
        await thread.send(f"This table's thread was deleted; the game goes on here. {CONTINUE_HINT}")
    return thread


@dataclass
class _Deliveries:
    """What one bot remembers of its posting, by table id (lost on restart, which is harmless)."""

    locks: dict[int, asyncio.Lock] = field(default_factory=dict)
    posted: dict[int, int] = field(default_factory=dict)
    """The version of the newest board posted in each table's thread."""
    boards: dict[int, int] = field(default_factory=dict)
    """The id of the last board message posted with buttons in each table's thread."""
    closed: set[int] = field(default_factory=set)
    """Tables whose thread was already closed (a second close would repeat the closing line)."""


def _deliveries(client: discord.Client) -> _Deliveries:
    found = getattr(client, "_conclave_deliveries", None)
    if found is None:
        found = _Deliveries()
        client._conclave_deliveries = found  # type: ignore[attr-defined]
    return found


@contextlib.asynccontextmanager
async def delivery_turn(client: discord.Client, table_id: int) -> AsyncIterator[None]:
    """Hold a table's delivery lock: its boards are posted one at a time, in version order.

    The lock is fair (first come, first served) and a move takes it as soon as the store has
    accepted it, so two moves landing together post their boards in the order they were made
    even when the first board is slower to build.
    """
    locks = _deliveries(client).locks
    lock = locks.get(table_id)
    if lock is None:
        lock = locks[table_id] = asyncio.Lock()
    async with lock:
        yield


async def deliver(client: discord.Client, reply: Reply) -> bool:
    """Post a reply's board, send each private note by DM, run the game's hook, close if over.

    Return False when the thread refused the board (the move itself is saved all the same).
    """
    async with delivery_turn(client, reply.table.id):
        posted = await post(client, reply)
    await after_delivery(client, reply)
    return posted


async def post(client: discord.Client, reply: Reply) -> bool:
    """Post the board in the thread (unless quiet or older than one already posted) and the DMs.

    Call it while holding ``delivery_turn(client, reply.table.id)``; ``deliver`` does. Return
    False when Discord refused the board; the DMs are sent either way.
    """
    thread = await thread_of(client, reply.table)
    board = reply.board
    memory = _deliveries(client)
    posted = True
    if board is not None and thread is not None and not board.quiet:
        newest = memory.posted.get(board.table_id, -1)
        if board.version < newest:
            # A newer board already shows the table; an older one would mislead.
            log.info("table %s: board v%s skipped, v%s already posted", board.table_id, board.version, newest)
        else:
            try:
                sent = await thread.send(**await board_send_args(client, board))
            except discord.HTTPException as exc:
                # The move is saved: the players still get their DMs, /game status shows the board.
                log.warning(
                    "table %s: board v%s not posted (status %s)", board.table_id, board.version, exc.status
                )
                posted = False
            else:
                memory.posted[board.table_id] = board.version
                if board.in_play:
                    memory.boards[board.table_id] = sent.id
    for note in reply.private:
        if note.dm_ok is False:
            continue
        message = await private_send_args(client, reply.table, note)
        await send_private(client, reply.table, note.user_id, message, thread)
    return posted


async def after_delivery(client: discord.Client, reply: Reply) -> None:
    """Run the kind's after-delivery hook, then close the thread of a table that just ended."""
    hook = _AFTER_DELIVER.get(reply.table.kind)
    if hook is not None:
        try:
            await hook(client, reply)
        except Exception as exc:
            _log_failure(reply.table.id, f"the {reply.table.kind} after-delivery hook", exc)
    if reply.board is not None and reply.board.finished:
        for finish in _ON_FINISH:
            try:
                await finish(client, reply)
            except Exception as exc:
                _log_failure(reply.table.id, "a game-end hook", exc)
        await close_thread(client, reply.table)


async def close_thread(client: discord.Client, table: TableRecord) -> None:
    """Say the table is closed, take the buttons off its last board and archive its thread.

    The thread is archived, not locked: players may still talk about the game (a message
    reopens it), while every old button answers that the table is closed.
    """
    memory = _deliveries(client)
    if table.id in memory.closed:
        return
    thread = await thread_of(client, table)
    if not isinstance(thread, discord.Thread):
        return
    memory.closed.add(table.id)
    with contextlib.suppress(discord.HTTPException):
        await thread.send(CLOSING_LINE)
    message_id = memory.boards.pop(table.id, None)
    if message_id is not None:
        try:
            await thread.get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as exc:
            log.info("table %s: its last board keeps its buttons (status %s)", table.id, exc.status)
    try:
        await thread.edit(archived=True)
    except discord.HTTPException as exc:
        log.info("table %s: its thread stays open (status %s)", table.id, exc.status)


async def board_send_args(client: discord.Client, board: Board) -> dict[str, Any]:
    """Return the send() arguments of a board: the game's panel when it has one, else the kit's."""
    build = _BOARD_PANELS.get(board.kind)
    if build is not None:
        try:
            return await build(client, board)
        except Exception as exc:
            _log_failure(board.table_id, f"the {board.kind} board panel", exc)
    return board_message(board)


async def private_send_args(client: discord.Client, table: TableRecord, note: PrivateNote) -> dict[str, Any]:
    """Return the send() arguments of a private note: the game's panel when it has one, else the kit's."""
    build = _PRIVATE_PANELS.get(note.kind)
    if build is not None:
        try:
            return await build(client, table, note)
        except TableError:
            pass
        except Exception as exc:
            _log_failure(table.id, f"the {note.kind} private panel", exc)
    return private_message(note)


def _log_failure(table_id: int, what: str, exc: BaseException) -> None:
    """Log a game hook's failure by its type and frames only: its text may quote a secret."""
    frames = "\n".join(
        f"  {f.filename}:{f.lineno} in {f.name}" for f in traceback.extract_tb(exc.__traceback__)
    )
    log.error("table %s: %s failed with %s\n%s", table_id, what, type(exc).__name__, frames)


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
        svc = service_of(interaction.client)
        note = await svc.hand(table_id, interaction.user.id)
        message = await private_send_args(interaction.client, await svc.table(table_id), note)
        await answer(interaction, message.pop("content"), **message)

    await guarded(interaction, work)


async def play(
    interaction: discord.Interaction, table_id: int, move: str | Move, version: int | None
) -> None:
    """Play a move for the user, post the outcome, and confirm ephemerally."""

    async def work() -> None:
        svc = service_of(interaction.client)
        reply = await svc.act(table_id, interaction.user.id, move, expected_version=version)
        # The move that the store accepted first takes the delivery lock first (nothing yields
        # between act returning and the lock), so boards go out in version order.
        async with delivery_turn(interaction.client, table_id):
            posted = await post(interaction.client, reply)
        said = (
            reply.answer if posted else f"{reply.answer} I could not post the board: /game status shows it."
        )
        await answer(interaction, said, **undo_offer(reply))
        await after_delivery(interaction.client, reply)

    await guarded(interaction, work)


# ---------------------------------------------------------------------- restart-proof components


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=r"cc:table-button:(?P<table>\d+)"):
    """Base of the restart-proof buttons that carry only their table id (the label may vary).

    A subclass names its custom-id prefix, default label and style in its class line and says
    what a click does in ``callback``; rebuilding it after a restart is shared here.
    """

    prefix: ClassVar[str] = "cc:table-button"
    default_label: ClassVar[str] = ""
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init_subclass__(
        cls, *, prefix: str, label: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary
    ) -> None:
        super().__init_subclass__(template=rf"{re.escape(prefix)}:(?P<table>\d+)")
        cls.prefix, cls.default_label, cls.style = prefix, label, style

    def __init__(self, table_id: int, label: str | None = None) -> None:
        button = discord.ui.Button(
            label=label or self.default_label, style=self.style, custom_id=f"{self.prefix}:{table_id}"
        )
        super().__init__(button)
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id, keeping the label it was posted with."""
        return cls(int(match["table"]), item.label)


class PrivateViewButton(TableButton, prefix="cc:pv", label="My private view"):
    """The "My private view" button on every board message: answers with the clicker's view."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the clicker their private view."""
        await show_private(interaction, self.table_id)


VERSION = r"\d+"
"""Stamp pattern of a move button valid only at one table version."""
FINGERPRINT = r"[0-9a-f]{8}"
"""Stamp pattern of a move button valid only while a panel keeps one fingerprint."""
CUSTOM_ID_LIMIT = 100
"""Discord's limit on a component's custom id."""
BUTTON_LABEL_LIMIT = 80
"""Discord's limit on a button's label."""


class StampedMoveButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"cc:stamped-move:(?P<table>\d+):(?P<stamp>\d+):(?P<value>.+)",
):
    """Base of the restart-proof buttons that play one move: ``<prefix>:<table>:<stamp>:<value>``.

    The stamp ties the button to the state it was offered at (a table version, ``VERSION``, or a
    panel fingerprint, ``FINGERPRINT``). A subclass names its prefix and stamp pattern in its
    class line and plays ``self.value`` in ``callback``; building and rebuilding are shared here.
    """

    prefix: ClassVar[str] = "cc:stamped-move"

    def __init_subclass__(cls, *, prefix: str, stamp: str) -> None:
        super().__init_subclass__(
            template=rf"{re.escape(prefix)}:(?P<table>\d+):(?P<stamp>{stamp}):(?P<value>.+)"
        )
        cls.prefix = prefix

    def __init__(
        self,
        table_id: int,
        stamp: int | str,
        value: str,
        label: str = "",
        style: discord.ButtonStyle | None = None,
    ) -> None:
        custom_id = f"{self.prefix}:{table_id}:{stamp}:{value}"
        if len(custom_id) > CUSTOM_ID_LIMIT:
            raise ValueError("A move button's custom id must fit in 100 characters: use an index token.")
        super().__init__(
            discord.ui.Button(
                label=_clip(label or value, BUTTON_LABEL_LIMIT),
                style=style or discord.ButtonStyle.primary,
                custom_id=custom_id,
            )
        )
        self.table_id, self.stamp, self.value = table_id, str(stamp), value

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id, keeping the label it was posted with."""
        return cls(int(match["table"]), match["stamp"], match["value"], item.label or "")


class PlayMoveButton(StampedMoveButton, prefix="cc:mv", stamp=VERSION):
    """A button that plays one move, valid only while the table is at the version it was made for.

    Any cog may offer moves this way: ``PlayMoveButton(table_id, version, choice)``. A click
    after the game moved on is refused ephemerally; a second click of the same button too.
    """

    def __init__(
        self, table_id: int, version: int | str, choice: Choice, style: discord.ButtonStyle | None = None
    ) -> None:
        super().__init__(table_id, version, choice.value, choice.label, style)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), match["stamp"], Choice(item.label or match["value"], match["value"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the button's move."""
        await play(interaction, self.table_id, self.value, int(self.stamp))


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


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"cc:undo:(?P<table>\d+):(?P<version>\d+)"
):
    """The Undo button on a mover's confirmation: takes the move back while the board is unchanged."""

    def __init__(self, table_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Undo", style=discord.ButtonStyle.secondary, custom_id=f"cc:undo:{table_id}:{version}"
            )
        )
        self.table_id, self.version = table_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> UndoButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Take the move back (the version check makes a second click harmless)."""
        await take_back(interaction, self.table_id, self.version)


async def take_back(interaction: discord.Interaction, table_id: int, version: int | None) -> None:
    """Undo the user's last move, post what was taken back, and answer."""

    async def work() -> None:
        reply = await service_of(interaction.client).undo(
            table_id, interaction.user.id, expected_version=version
        )
        if reply.board is not None:
            await deliver(interaction.client, reply)
        await answer(interaction, reply.answer)

    await guarded(interaction, work)


def undo_offer(reply: Reply) -> dict[str, Any]:
    """Return the view with an Undo button for a move's confirmation (none once the game ended)."""
    board = reply.board
    if board is None or not board.in_play:
        return {}
    view = discord.ui.View(timeout=None)
    view.add_item(UndoButton(reply.table.id, board.version))
    return {"view": view}


DYNAMIC_ITEMS = (PrivateViewButton, PlayMoveButton, PlayMoveSelect, UndoButton)
"""Every restart-proof component; the bot registers them at start."""
