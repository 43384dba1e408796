"""The kit's controls: board and private messages and their restart-proof components.

Part of the kit (``cogs.kit`` re-exports it). Every component carries what it needs in its custom
id (the table, the version or fingerprint it was offered at), so it keeps working after a
restart and a stale click is refused. A click plays through ``cogs.kit.delivery``, which draws these
components in turn: delivery hands its functions in when it loads (``on_click``), so this module
never imports it back.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import discord

from cogs.kit import messages
from cogs.kit.messages import _body, answer, clip, guarded, service_of
from service import (
    Board,
    Choice,
    PrivateNote,
    Reply,
    TableError,
    offered_value,
    reading,
)

log = logging.getLogger("conclave.cogs")


def board_message(board: Board, *, ping: bool = True) -> dict[str, Any]:
    """Return the send() arguments of a board message: text, drawing, "My private view" button."""
    text = board.text
    if ping and board.ping:
        text = " ".join(f"<@{u}>" for u in board.ping) + " — your decision.\n" + text
    content, files = _body(
        text, board.view_text, board.image, f"table-{board.table_id}-v{board.version}", board.alt
    )
    kwargs: dict[str, Any] = {
        "content": content,
        "files": files,
        "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in board.ping]),
    }
    if board.in_play:
        view = discord.ui.View(timeout=None)
        view.add_item(PrivateViewButton(board.table_id))
        make = messages._BOARD_ITEMS.get(board.kind)
        for item in make(board) if make else []:
            view.add_item(item)
        kwargs["view"] = view
    return kwargs


def private_message(note: PrivateNote) -> dict[str, Any]:
    """Return the send() arguments of a private note: text, sheet, and a select of legal moves."""
    content, files = _body(
        note.text, note.view_text, note.image, f"table-{note.table_id}-seat-{note.seat}", note.alt
    )
    kwargs: dict[str, Any] = {"content": content, "files": files}
    make = messages._PRIVATE_ITEMS.get(note.kind)
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


# ---------------------------------------------------------------------- what a click does


@dataclass(frozen=True)
class ClickActions:
    """What the components do when clicked: show the clicker's private view, play a move, deliver.

    These are ``cogs.kit.delivery``'s functions. Delivery posts the components and a click delivers
    in turn; delivery hands them in when it loads rather than this module importing it back.
    """

    show_private: Callable[[discord.Interaction, int], Awaitable[None]]
    play: Callable[[discord.Interaction, int, str, int], Awaitable[None]]
    deliver: Callable[[discord.Client, Reply], Awaitable[bool]]


_ACTIONS: list[ClickActions] = []


def on_click(actions: ClickActions) -> None:
    """Set what the components do when clicked (``cogs.kit.delivery`` calls it as it loads)."""
    _ACTIONS[:] = [actions]


def click_actions() -> ClickActions:
    """Return what the components do when clicked (delivery loads with ``cogs.kit``, always first)."""
    if not _ACTIONS:
        raise RuntimeError("cogs.kit.delivery is not loaded: import cogs.kit")
    return _ACTIONS[0]


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
        await click_actions().show_private(interaction, self.table_id)


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
                label=clip(label or value, BUTTON_LABEL_LIMIT),
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
        await click_actions().play(interaction, self.table_id, self.value, int(self.stamp))


SELECT_LIMIT = 25
"""Discord's limit on a select's options."""


Offers = list[discord.app_commands.Choice[str]]
Autocomplete = Callable[[discord.Interaction, str], Awaitable[Offers]]
"""An autocomplete callback made outside a class (discord.py passes it no cog)."""


def stamped_offers(
    seat_moves: Callable[[Any, int, int], Awaitable[Any]], fits: Callable[[Choice, Any], bool]
) -> Autocomplete:
    """Return a command's autocomplete: the user's moves now that fit it and hold the typed words.

    ``seat_moves(svc, table_id, user_id)`` gives the seat's ``version`` and ``moves`` (refusing with
    a TableError, which offers nothing); ``fits(choice, seat)`` reads the choice beside that same
    snapshot (a game's typed view says which moves are which). Each value is a ``#version.index``
    token, checked under the table's lock: the same command sent twice applies once, one sent after
    the table moved on is refused.
    """

    async def offers(interaction: discord.Interaction, current: str) -> Offers:
        try:
            table = await messages.table_here(interaction)
            now = await seat_moves(service_of(interaction.client), table.id, interaction.user.id)
        except TableError:
            return []
        # The matcher typed moves are read with: what autocomplete offers, typing plays.
        found = [
            discord.app_commands.Choice(name=clip(c.label, 100), value=offered_value(now.version, index))
            for index, c in enumerate(now.moves)
            if fits(c, now) and reading.fits(current, c.label, c.value)
        ]
        return found[:SELECT_LIMIT]

    return offers


class StampedMoveSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"cc:stamped-select:(?P<table>\d+):(?P<stamp>\d+)(?::(?P<n>\d))?",
):
    """Base of the restart-proof selects of moves: ``<prefix>:<table>:<stamp>[:<n>]``.

    Beside ``StampedMoveButton``: the stamp ties the select to the state it was offered at
    (``VERSION`` or ``FINGERPRINT``), ``n`` tells apart several selects of one panel (and is
    their row). Option values are move codes or index tokens; a subclass names its prefix and
    stamp pattern in its class line and, unless it plays at a table version, overrides ``play``.
    """

    prefix: ClassVar[str] = "cc:stamped-select"
    placeholder: ClassVar[str] = "Choose your move…"

    def __init_subclass__(cls, *, prefix: str, stamp: str, placeholder: str = "Choose your move…") -> None:
        super().__init_subclass__(
            template=rf"{re.escape(prefix)}:(?P<table>\d+):(?P<stamp>{stamp})(?::(?P<n>\d))?"
        )
        cls.prefix, cls.placeholder = prefix, placeholder

    def __init__(
        self,
        table_id: int,
        stamp: int | str,
        n: int | None = None,
        choices: Sequence[Choice] = (),
        placeholder: str | None = None,
        *,
        hints: Sequence[str | None] = (),
    ) -> None:
        options = [
            discord.SelectOption(
                label=clip(c.label, 100),
                value=c.value,
                description=clip(hints[k], 100) if k < len(hints) and hints[k] else None,
            )
            for k, c in enumerate(list(choices)[:SELECT_LIMIT])
        ]
        custom_id = f"{self.prefix}:{table_id}:{stamp}" + ("" if n is None else f":{n}")
        select: discord.ui.Select = discord.ui.Select(
            placeholder=clip(placeholder or self.placeholder, 150),
            custom_id=custom_id,
            options=options or [discord.SelectOption(label="(nothing to choose)", value="-")],
            row=n,
        )
        super().__init__(select)
        self.table_id, self.stamp, self.n = table_id, str(stamp), n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> Self:
        """Rebuild the select from its custom id (the chosen value comes with the interaction)."""
        n = match["n"]
        return cls(int(match["table"]), match["stamp"], None if n is None else int(n))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the chosen move."""
        values = self.item.values
        if not values or values[0] == "-":
            await answer(interaction, "There is nothing to choose right now.")
            return
        await self.play(interaction, values[0])

    async def play(self, interaction: discord.Interaction, value: str) -> None:
        """Play a chosen value at the table version of the stamp (guarded, one delivery path)."""
        await click_actions().play(interaction, self.table_id, value, int(self.stamp))


class PlayMoveSelect(StampedMoveSelect, prefix="cc:ms", stamp=VERSION):
    """A select of moves (values are move codes or index tokens) tied to one table version."""

    def __init__(
        self, table_id: int, version: int | str, choices: Sequence[Choice] = (), n: int | None = None
    ) -> None:
        super().__init__(table_id, version, n, choices)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> Self:
        """Rebuild the select from its custom id (the chosen value comes with the interaction)."""
        n = match["n"]
        return cls(int(match["table"]), match["stamp"], (), None if n is None else int(n))

    @property
    def version(self) -> int:
        """Return the table version the select was offered at."""
        return int(self.stamp)


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
        reply = await service_of(interaction.client).play.undo(
            table_id, interaction.user.id, expected_version=version
        )
        if reply.board is not None:
            await click_actions().deliver(interaction.client, reply)
        await answer(interaction, reply.answer)

    await guarded(interaction, work)


def _add_undo(message: dict[str, Any], reply: Reply) -> None:
    """Put the Undo button on a mover's panel when it has room (a full panel keeps /game undo)."""
    view = message.get("view")
    board = reply.board
    if board is None or not board.in_play:
        return
    if view is None:
        message.update(undo_offer(reply))
    elif isinstance(view, discord.ui.View):
        with contextlib.suppress(ValueError):
            view.add_item(UndoButton(reply.table.id, board.version))


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
