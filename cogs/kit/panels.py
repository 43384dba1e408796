"""What a game's own private panel shares: reading a seat, the panel message, DMs and ``/<game> panel``.

A game cog (the Academy, Quadrivium, the Institute) describes its panel once in a ``PanelGame``:
how to read its panel from the seat's view, its words, its components, and whether the seat's
private drawing goes with it. The steps every such cog took in the same way live here: refusing a
table of another game, building the message, answering the private note of a DM, "My private
view" and ``/game hand`` with the panel, showing it ephemerally, and plugging into the kit.
Not an extension itself (it has no ``setup``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import discord
from discord.ext import commands

from cogs import kit
from cogs.kit.messages import clip  # re-exported: the game cogs cut labels with it
from service import Offer, PublicView, SeatView, StaleOffer, TableError, TableRecord, TableService


class Seated(Protocol):
    """A game's panel data: at least the table and the seat it shows (and the seat's view)."""

    @property
    def table(self) -> TableRecord: ...
    @property
    def seat(self) -> int: ...
    @property
    def view(self) -> dict[str, Any]: ...


P = TypeVar("P", bound=Seated)
__all__ = ["STALE_PANEL", "PanelGame", "Seated", "clip", "digest"]

STALE_PANEL = "That panel was out of date (you or the game moved on): here is the current one."


def digest(data: Any) -> str:
    """Return the 8-hex fingerprint of JSON data (a panel's stamp in its components' custom ids)."""
    return hashlib.sha1(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:8]


@dataclass(frozen=True)
class PanelGame(Generic[P]):
    """How one game builds its private panel; the shared steps below call these."""

    kind: str
    title: str
    """The game's name in "This table does not play …"."""
    read: Callable[[TableService, SeatView], Awaitable[P]]
    """Build the panel data from the seat's own view and legal moves."""
    text: Callable[[str, P, str], str]
    """The panel's words: (the table's title, the panel, a note heading it)."""
    components: Callable[[P], discord.ui.View | None]
    sheet: bool = False
    """Whether the seat's private drawing (``svc.reads.seat_drawing``) goes with the panel."""
    stamp: Callable[[SeatView], str] | None = None
    """The fingerprint of what a seat was offered (its own situation and moves, never the others'
    answers): where several seats decide at once, one seat's answer must not stale another's panel."""

    async def seat_panel(self, svc: TableService, table_id: int, user_id: int) -> P:
        """Return the user's panel data (refusing a lobby, another game's table, a user with no seat)."""
        got = await svc.reads.seat_view(table_id, user_id)
        if got.table.kind != self.kind:
            raise TableError(f"This table does not play {self.title}.")
        return await self.read(svc, got)

    async def public_view(self, svc: TableService, table_id: int) -> PublicView:
        """Return what anyone may know of this game's table (refusing another game's table)."""
        public = await svc.reads.public_view(table_id)
        if public.table.kind != self.kind:
            raise TableError(f"This table does not play {self.title}.")
        return public

    async def panel_message(self, svc: TableService, panel: P, note: str = "") -> dict[str, Any]:
        """Return the send() arguments of a panel: its words, the seat's drawing, its controls."""
        message: dict[str, Any] = {"content": self.text(svc.thread_name(panel.table), panel, note)}
        if self.sheet:
            image = await svc.reads.seat_drawing(panel.table, panel.seat, panel.view)
            if image is not None:
                name = f"{self.kind}-{panel.table.id}-seat-{panel.seat}.png"
                # The seat's own view: the panel is only ever shown to that seat.
                message["files"] = [kit.image_file(image, name, svc.composer.describe(self.kind, panel.view))]
        ui = self.components(panel)
        if ui is not None:
            message["view"] = ui
        return message

    async def private_panel(self, client: discord.Client, table: TableRecord, note: Any) -> dict[str, Any]:
        """Build a seat's panel for a private note (DMs, My private view, /game hand)."""
        svc = kit.service_of(client)
        panel = await self.seat_panel(svc, table.id, note.user_id)
        # The note's private events as data (never its sentence re-read): the panel says the decision.
        return await self.panel_message(svc, panel, "\n".join(event.text for event in note.events))

    async def show_panel(
        self, interaction: discord.Interaction, table_id: int | None, note: str = ""
    ) -> None:
        """Answer ephemerally with the user's panel (``table_id`` None: this thread's table).

        Acknowledged before the table is even looked up (Discord allows 3 seconds).
        """

        async def work() -> None:
            svc = kit.service_of(interaction.client)
            found = table_id if table_id is not None else (await kit.table_here(interaction)).id
            panel = await self.seat_panel(svc, found, interaction.user.id)
            message = await self.panel_message(svc, panel, note)
            await kit.answer(interaction, message.pop("content"), **message)

        await kit.guarded(interaction, work)

    async def act(
        self, interaction: discord.Interaction, table_id: int, stamp: str, move: Any, *, update: bool
    ) -> None:
        """Play a move from a panel stamped with ``self.stamp`` (guarded); a stale panel is replaced.

        The service recomputes the stamp under the table's lock, so a click counts only while the
        seat is offered what the panel showed. ``update``: the click came from the panel's own
        component, whose message the answer replaces; otherwise (a form) the answer is new.
        """
        if self.stamp is None:
            raise TypeError(f"{self.title} panels are stamped with the table version, not a fingerprint.")
        offer = Offer(stamp, self.stamp_here)

        async def work() -> None:
            svc = kit.service_of(interaction.client)
            try:
                await kit.play_now(interaction, table_id, move, None, edit=update, offer=offer)
            except StaleOffer:
                fresh = await self.seat_panel(svc, table_id, interaction.user.id)
                message = await self.panel_message(svc, fresh, STALE_PANEL)
                if not update:
                    await kit.answer(interaction, message.pop("content"), **message)
                    return
                files = message.pop("files", [])
                message.setdefault("view", None)
                await interaction.edit_original_response(attachments=files, **message)

        await kit.guarded(interaction, work, update=update)

    def stamp_here(self, now: SeatView) -> str:
        """Return the stamp of a seat view of this game's table; refuse another game's (a forged id)."""
        if now.table.kind != self.kind:
            raise TableError(f"This table does not play {self.title}.")
        assert self.stamp is not None
        return self.stamp(now)

    async def install(
        self,
        bot: commands.Bot,
        cog: commands.Cog,
        items: Sequence[type[discord.ui.DynamicItem[Any]]],
        opener: Callable[[int], discord.ui.Item[Any]],
    ) -> None:
        """Add the cog and its restart-proof components; the panel answers the game's private notes.

        Should building the panel fail, the kit's plain note carries ``opener`` (a button to the
        panel) instead of a move select too short for the game's moves.
        """
        await bot.add_cog(cog)
        bot.add_dynamic_items(*items)
        kit.register_private_panel(self.kind, self.private_panel)
        kit.add_private_items(self.kind, lambda note: [opener(note.table_id)] if note.choices else [])
