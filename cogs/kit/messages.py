"""What every table cog shares for answering: the service, guarded calls, message sizes, the hooks.

Part of the kit (``cogs.kit`` re-exports it): ``guarded`` acknowledges an interaction and turns
failures into a short private answer; the registries hold each game's own panels and hooks,
which ``cogs.kit.controls`` and ``cogs.kit.delivery`` consult.
"""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

import discord

from service import (
    Board,
    PrivateNote,
    Reply,
    TableError,
    TableRecord,
    TableService,
)

log = logging.getLogger("conclave.cogs")
T = TypeVar("T")

CONTENT_LIMIT = 2000
"""Discord's limit on a message's text."""
CUT_ROOM = 60
"""Room kept at the end of a message that had to be cut, for the line that says so."""
CODE_BLOCK_LIMIT = 1500
"""Longer text views travel as a .txt attachment instead of a code block."""
SORRY = "Something went wrong on my side; nothing was changed. Please try again."
SORRY_SAVED = "Your move is saved; the board will follow (`/game status` shows the table now)."
SAVED = "conclave_saved"
"""Marks an interaction whose move the store already accepted (a later failure must say so)."""
ANSWERED = "conclave_answered"
"""Marks an interaction whose failure the player was already told about."""
DM_CLOSED = 50007
"""Discord's error code for 'Cannot send messages to this user'."""
CONTINUE_HINT = "`/game status` shows the board."
NOT_A_PANEL = "That control belongs on your private panel: open it again (e.g. My private view)."
"""The answer to a panel control found on a message that is no private panel (a forged click)."""
CLOSING_LINE = "This table is closed: its buttons no longer play. Start a new game with `/game new`."


def service_of(client: discord.Client) -> TableService:
    """Return the table service the bot carries."""
    return client.service  # type: ignore[attr-defined,no-any-return]


async def answer(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer ephemerally, whether or not the interaction was deferred."""
    kwargs.setdefault("ephemeral", True)
    if interaction.response.is_done():
        await interaction.followup.send(fit_message(text), **kwargs)
    else:
        await interaction.response.send_message(fit_message(text), **kwargs)
    view = kwargs.get("view")
    if kwargs["ephemeral"] and isinstance(view, discord.ui.View) and _restart_proof(view):
        # discord.py keeps an ephemeral message's view with a 15-minute timeout task; items
        # that are all DynamicItems are dispatched by custom id, so the view is not needed.
        view.stop()


def _restart_proof(view: discord.ui.View) -> bool:
    return all(isinstance(item, discord.ui.DynamicItem) for item in view.children)


async def guarded(
    interaction: discord.Interaction, work: Callable[[], Awaitable[T]], *, update: bool = False
) -> T | None:
    """Acknowledge at once, run the work, and turn a TableError into a short ephemeral answer.

    Every command and component goes through here before any database read: rendering and the
    store may pass Discord's 3 seconds. ``update`` (a panel's own components) defers as an
    update of the message the click came from, so the work may replace that panel.
    """
    if not interaction.response.is_done():
        if update and interaction.type is discord.InteractionType.component:
            await interaction.response.defer()
        else:
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
            await answer(interaction, SORRY_SAVED if interaction.extras.get(SAVED) else SORRY)
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


def clip(text: str, limit: int = CONTENT_LIMIT) -> str:
    """Cut a text to a Discord limit (a message, a label, a placeholder), marking the cut with "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit_message(text: str, limit: int = CONTENT_LIMIT) -> str:
    """Fit text in one message, saying so when something had to be left out (never silently)."""
    if len(text) <= limit:
        return text
    keep = limit - CUT_ROOM
    return text[:keep] + f"\n… ({len(text) - keep} more characters not shown)"


def image_file(image: bytes, filename: str, alt: str | None) -> discord.File:
    """Return an image attachment with its alt text (Discord's description; a screen reader reads it)."""
    return discord.File(io.BytesIO(image), filename=filename, description=alt or None)


def _body(
    text: str, view_text: str | None, image: bytes | None, stem: str, alt: str | None = None
) -> tuple[str, list[discord.File]]:
    """Combine text with the view (an image with its alt text, a code block, or a .txt file when long)."""
    files: list[discord.File] = []
    if image is not None:
        files.append(image_file(image, f"{stem}.png", alt))
    if view_text:
        if len(view_text) <= CODE_BLOCK_LIMIT and len(text) + len(view_text) < CONTENT_LIMIT - 10:
            text = f"{text}\n```\n{view_text}\n```"
        else:
            files.append(discord.File(io.BytesIO(view_text.encode()), filename=f"{stem}.txt"))
    return fit_message(text), files


BoardItems = Callable[[Board], list[discord.ui.Item]]
PrivateItems = Callable[[PrivateNote], list[discord.ui.Item]]
BoardPanel = Callable[[discord.Client, Board], Awaitable[dict[str, Any]]]
PrivatePanel = Callable[[discord.Client, TableRecord, PrivateNote], Awaitable[dict[str, Any]]]
AfterDeliver = Callable[[discord.Client, Reply], Awaitable[None]]
BeforeBoard = Callable[[discord.Client, Reply], Awaitable[str | None]]
TypedForm = Callable[[discord.Client, TableRecord, int, str], Awaitable[discord.ui.Modal | None]]
_BOARD_ITEMS: dict[str, BoardItems] = {}
_PRIVATE_ITEMS: dict[str, PrivateItems] = {}
_BOARD_PANELS: dict[str, BoardPanel] = {}
_PRIVATE_PANELS: dict[str, PrivatePanel] = {}
_AFTER_DELIVER: dict[str, AfterDeliver] = {}
_BEFORE_BOARD: dict[str, BeforeBoard] = {}
_ON_FINISH: dict[str, AfterDeliver] = {}
_TYPED_FORMS: dict[str, TypedForm] = {}
_FORM_WORDS: set[str] = set()
"""Words one of which a typed move must hold to name a worded move (its action, in its label)."""
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


def register_on_finish(name: str, hook: AfterDeliver) -> None:
    """Run ``hook(client, reply)`` for every table whose game just ended, before its thread closes.

    Hooks are kept by ``name``: reloading an extension (a restart) makes a new function object,
    which replaces the old one instead of running beside it (the replay was posted twice).
    """
    _ON_FINISH[name] = hook


def register_after_deliver(kind: str, hook: AfterDeliver) -> None:
    """Let a game's cog act after each reply of its tables is delivered (auto-pass, summaries...).

    ``hook(client, reply)`` runs after the board is posted and the notes are sent, outside the
    table's delivery lock (it may act and deliver again), and before a finished table's thread
    is closed. Its errors are logged (without their text) and never break the delivery.
    """
    _AFTER_DELIVER[kind] = hook


def register_before_board(kind: str, hook: BeforeBoard) -> None:
    """Let a game's cog head a board of its tables with a few lines (a round's summary).

    ``hook(client, reply)`` runs under the table's delivery lock, before the board is shown, and
    returns the heading or None. A headed board starts a new thread message, heading first (one
    message, not two; a heading too long to share it goes just before). Its errors are logged
    (without their text) and never break the delivery.
    """
    _BEFORE_BOARD[kind] = hook




def register_typed_form(kind: str, build: TypedForm, words: Iterable[str]) -> None:
    """Let a game open its form for a move typed in ``/game play`` that takes the player's words.

    ``build(client, table, user_id, typed)`` returns the form (a modal) when the typed text names
    an offered move whose words are written in a form, else None: the move is then played as typed.
    ``words``: the worded moves' actions, each also in its label; typed text holding none of them
    (and no autocompleted token) cannot name one, so ``/game play`` acknowledges without reading.
    """
    _TYPED_FORMS[kind] = build
    _FORM_WORDS.update(word.casefold() for word in words)


def may_name_a_form(typed: str) -> bool:
    """Whether typed text could name a worded move (decided without reading the table)."""
    text = typed.strip().casefold()
    return text.startswith("#") or any(word in text for word in _FORM_WORDS)


async def typed_form(interaction: discord.Interaction, typed: str) -> discord.ui.Modal | None:
    """Return the form a typed move opens at this thread's table, or None (any error: no form)."""
    if not may_name_a_form(typed):
        return None  # acknowledged at once: Discord's 3 seconds start with the command
    try:
        table = await table_here(interaction)
        build = _TYPED_FORMS.get(table.kind)
        return None if build is None else await build(interaction.client, table, interaction.user.id, typed)
    except TableError:
        return None
