"""Argent's panel: what a seat sees and may do, grouped into selects and buttons, and its components.

Part of the ``/argent`` cog (``cogs.argent``). A player's panel (ephemeral, and in their DMs)
offers exactly their legal moves, built from the seat's own view and legal moves, never from raw
state; its components carry the table and version they were offered at.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs import kit
from cogs.kit.messages import clip
from render.argent import words
from rules.contract import Event, Move, Prompt
from service import (
    REACTIONS_PREF,
    Choice,
    PublicView,
    SeatView,
    TableError,
    TableRecord,
    TableService,
)

if TYPE_CHECKING:
    from rules.argent.record import ArgentView

log = logging.getLogger("conclave.cogs.argent")

KIND = "argent"
ID_LIMIT = 100
BUTTONS_MAX = 20
SELECT_MAX = 25
CLOSING = frozenset({"pass", "done"})
REACT_PREF = REACTIONS_PREF
"""The seat setting that keeps a player's reaction mode at a table (the service reads it)."""
REACT_ASK, REACT_PASS = "ask", "pass"


# ---------------------------------------------------------------------------- what a seat sees and may do
# Everything comes from the table service: a seat's own view with every legal move (seat_view),
# or the public view with the pending prompts and the seats (public_view). The cog never reads
# the saved game or calls the rules itself.


def _need_argent(table: TableRecord) -> None:
    if table.kind != KIND:
        raise TableError("This table does not play Argent: The Consortium.")


async def seat_now(svc: TableService, table_id: int, user_id: int) -> SeatView:
    """Return the user's view, every legal move and the pending prompts (refusing non-players)."""
    _need_argent(await svc.table(table_id))
    return await svc.reads.seat_view(table_id, user_id)


async def table_now(svc: TableService, table_id: int) -> PublicView:
    """Return the table's public view, pending prompts and seats."""
    _need_argent(await svc.table(table_id))
    return await svc.reads.public_view(table_id)


def asked(now: SeatView) -> Prompt | None:
    """Return the prompt this seat must answer now, if any."""
    return now.asked[0] if now.asked else None


def move_of(offer: Choice) -> Move:
    """Return the move a choice plays (seat_view always carries it)."""
    if offer.move is None:
        raise ValueError("a choice from seat_view carries its move")
    return offer.move


# ---------------------------------------------------------------------------- grouping moves


def group_of(offer: Choice, now: SeatView) -> str:
    """Return the kind of turn action a move is: place, cast, fast, cards, bell, done, or other.

    The fast actions are the ones the seat's typed view names (``ArgentView.fast``), never found
    by their label's words.
    """
    if is_fast(offer, now):
        return "fast"
    return {
        "place": "place",
        "cast": "cast",
        "use": "cards",
        "support": "cards",
        "bell": "bell",
        "done": "done",
    }.get(move_of(offer).action, "other")


def is_fast(offer: Choice, now: SeatView) -> bool:
    """Whether a move is one of the seat's fast actions now (its typed view lists them)."""
    return move_of(offer).code() in now.typed.fast


COMMAND_FILTERS: dict[str, Callable[[Choice, SeatView], bool]] = {
    "place": lambda o, _: move_of(o).action == "place",
    "cast": lambda o, _: move_of(o).action == "cast",
    "vault": lambda o, _: move_of(o).action in ("use", "buy"),
    "supporter": lambda o, _: move_of(o).action == "support",
    "bell": lambda o, _: move_of(o).action == "bell",
    "research": lambda o, _: move_of(o).action == "research",
    "fast": is_fast,
    "decide": lambda o, _: True,
}
NOTHING = {
    "place": "You cannot place a mage now.",
    "cast": "You have no spell to cast now.",
    "vault": "You have no vault card to use now.",
    "supporter": "You have no supporter to use now.",
    "bell": "You cannot take a Bell Tower offering now.",
    "research": "You have no research to spend now.",
    "fast": "You have no fast action now.",
    "decide": "The game is not waiting on you right now.",
}


def hint(offer: Choice, view: ArgentView) -> str | None:
    """Return a select option's second line from the seat's view: which book and level a cast spell is."""
    move = move_of(offer)
    if move.action != "cast" or not move.get("spell") or view.me is None:
        return None
    office, spell = view.me, move.get("spell")
    if office.starter is not None and office.starter.id == spell:
        return "your starter spell"
    book = next((s.name for s in office.spells if s.id == spell), None)
    return None if book is None else clip(f"{book}, level {move.get('level')}", 100)


def _short(now: SeatView, offer: Choice, prefix: str) -> str:
    """Return the offer's value, or its index token when the custom id would be too long."""
    if len(prefix) + len(offer.value) <= ID_LIMIT:
        return offer.value
    return f"#{now.version}.{now.moves.index(offer)}"


# ---------------------------------------------------------------------------- the panel


def panel_text(now: SeatView, note: str = "") -> str:
    """Return the panel's words: who you are, your resources, and what you must decide."""
    view: ArgentView = now.typed
    office = view.offices[now.seat]
    lines = [note] if note else []
    lines.append(
        f"You are **{words.seat_mark(now.seat)}**, {office.candidate or 'no candidate yet'} · "
        f"Round {view.round}/{view.rounds}."
    )
    lines.append(
        f"IP {office.ip} · Gold {office.gold} · Mana {office.mana} · INT {office.intelligence} · "
        f"WIS {office.wisdom} · Merit {office.merit_free}/{office.merit}"
    )
    mine = view.decision_of(now.seat)
    if view.outcome is not None:
        lines.append("The game is over.")
    elif mine is not None and now.moves:
        lines.append(f"**Your decision:** {'your turn' if mine.turn else mine.words}.")
        if mine.turn:
            lines.append("At most one fast action, then one action; a Bell Tower offering ends your turn.")
        if mine.reaction:
            lines.append("You may react to what just happened, or pass.")
    else:
        lines.append(f"Nothing to decide now. {now.waiting}".strip())
    return clip("\n".join(lines), kit.CONTENT_LIMIT)


def panel_view(now: SeatView) -> discord.ui.View | None:
    """Return the panel's components, or None when the seat has nothing to decide."""
    if not now.moves:
        return None
    ui = discord.ui.View(timeout=None)
    mine = now.typed.decision_of(now.seat)
    if mine is not None and mine.turn:
        _turn_components(ui, now)
    else:
        _decision_components(ui, now)
    return ui


TURN_SELECTS = (
    ("place", "Place a mage in…"),
    ("cast", "Cast a spell…"),
    ("fast", "Fast action…"),
    ("cards", "Use a vault card or supporter…"),
)


def _turn_components(ui: discord.ui.View, now: SeatView) -> None:
    """A turn: a select per kind of action, then the Bell Tower and End turn as buttons."""
    groups: dict[str, list[Choice]] = {}
    for offer in now.moves:
        groups.setdefault(group_of(offer, now), []).append(offer)
    row = 0
    for key, placeholder in TURN_SELECTS:
        if groups.get(key):
            ui.add_item(_select(now, row, groups[key], placeholder))
            row += 1
    buttons = groups.get("bell", []) + groups.get("done", []) + groups.get("other", [])
    if len(buttons) <= 5:
        for offer in buttons:
            ui.add_item(_button(now, offer, row))
    else:
        ask = "Bell Tower or end your turn…"
        ui.add_item(_select(now, row, buttons, ask))


def _decision_components(ui: discord.ui.View, now: SeatView) -> None:
    """Any other decision: a button per choice, or selects when there are many."""
    ordered = sorted(now.moves, key=lambda o: move_of(o).action in CLOSING)
    # A label longer than a button holds (a candidate, a power saying what it does) goes in a select.
    if len(ordered) <= BUTTONS_MAX and all(len(o.label) <= kit.BUTTON_LABEL_LIMIT for o in ordered):
        for k, offer in enumerate(ordered):
            ui.add_item(_button(now, offer, k // 5))
        return
    main = [o for o in ordered if move_of(o).action not in CLOSING]
    closing = [o for o in ordered if move_of(o).action in CLOSING]
    for n in range(min(4, (len(main) + SELECT_MAX - 1) // SELECT_MAX)):
        chunk = main[n * SELECT_MAX : (n + 1) * SELECT_MAX]
        ui.add_item(_select(now, n, chunk, "Choose…"))
    for offer in closing[:5]:
        ui.add_item(_button(now, offer, 4))


def _select(now: SeatView, n: int, offers: list[Choice], placeholder: str) -> MoveSelect:
    """A select of offers (at most 25), each with its hint (which book and level a spell is)."""
    offers = offers[:SELECT_MAX]
    hints = [hint(o, now.typed) for o in offers]
    return MoveSelect(now.table.id, now.version, n, offers, placeholder, hints=hints)


def _button(now: SeatView, offer: Choice, row: int) -> MoveButton:
    prefix = f"ag:m:{now.table.id}:{now.version}:"
    style = discord.ButtonStyle.secondary if move_of(offer).action in CLOSING else discord.ButtonStyle.primary
    if move_of(offer).action == "bell":
        style = discord.ButtonStyle.success
    button = MoveButton(now.table.id, now.version, _short(now, offer, prefix), clip(offer.label, 80), style)
    button.item.row = row
    return button


async def panel_message(
    now: SeatView, note: str = "", image: bytes | None = None, alt: str | None = None
) -> dict[str, Any]:
    """Return the send() arguments of a panel: its words, optionally the office drawing (its alt
    text: the seat's own view), components."""
    message: dict[str, Any] = {"content": panel_text(now, note)}
    if image is not None:
        message["files"] = [kit.image_file(image, f"argent-{now.table.id}-office.png", alt)]
    ui = panel_view(now)
    if ui is not None:
        message["view"] = ui
    return message


async def office_message(svc: TableService, now: SeatView, user_id: int, note: str = "") -> dict[str, Any]:
    """Return the panel with the office drawing and the voters this seat has seen."""
    # The service draws the office (the seat's private sheet) off the event loop.
    hand = await svc.reads.hand(now.table.id, user_id)
    message = await panel_message(now, note, await svc.reads.image(hand), hand.alt)
    seen = voters_text(now.typed)
    if seen:
        message["content"] = clip(message["content"] + "\n" + seen, kit.CONTENT_LIMIT)
    return message


def voters_text(view: ArgentView) -> str:
    """Return every voter this seat has seen (Marks and white voters) with where it stands now."""
    lines = []
    for v in view.voters:
        if v.name is None:
            continue
        lines.append(f"**{v.position + 1}. {v.name}** — {v.criterion_words} ({v.marked_by}): {v.line}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- delivering a move


async def reaction_mode(svc: TableService, table_id: int, user_id: int) -> str:
    """Return 'pass' when the player asked to pass every reaction window, else 'ask'."""
    return (await svc.reads.seat_pref(table_id, user_id, REACT_PREF)) or REACT_ASK


def enrich(events: Sequence[Event], view: ArgentView) -> list[str]:
    """Word a seat's private events, adding to each voter a Mark just showed it the criterion
    and where the seat stands (the event's kind ``voter_seen`` and its ``voter``; the typed view's words)."""
    out = []
    for event in events:
        line = event.text
        if event.kind == "voter_seen":
            voter = view.voter(int(event.data["voter"]))
            if voter.criterion:
                line += f" It counts {voter.criterion_words}; {voter.line}."
        out.append(line)
    return out


async def answer_panel(interaction: discord.Interaction, message: dict[str, Any]) -> None:
    """Answer ephemerally with a panel (kit.answer releases a view of restart-proof items)."""
    await kit.answer(interaction, message.pop("content"), **message)


async def show_panel(interaction: discord.Interaction, table_id: int | None, *, office: bool) -> None:
    """Answer ephemerally with the user's panel (and office drawing and voters when asked).

    ``table_id`` None: the table of the interaction's thread, looked up after acknowledging.
    """

    async def work() -> None:
        svc = kit.service_of(interaction.client)
        found = table_id if table_id is not None else (await kit.table_here(interaction)).id
        now = await seat_now(svc, found, interaction.user.id)
        message = await (office_message(svc, now, interaction.user.id) if office else panel_message(now))
        await answer_panel(interaction, message)

    await kit.guarded(interaction, work)


# ---------------------------------------------------------------------------- restart-proof components


class PanelButton(kit.TableButton, prefix="ag:p", label="Decide…", style=discord.ButtonStyle.primary):
    """The board's "Take your turn… / Decide… / React…" button: the clicker's panel, ephemerally."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the clicker their panel."""
        await show_panel(interaction, self.table_id, office=False)


class OfficeButton(kit.TableButton, prefix="ag:o", label="My office"):
    """The board's "My office" button: the clicker's office drawing, voters seen and panel."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the clicker their office."""
        await show_panel(interaction, self.table_id, office=True)


class MoveButton(kit.StampedMoveButton, prefix="ag:m", stamp=kit.VERSION):
    """A button that plays one move while the table is still at the version it was offered at."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the move (guarded, on the kit's one delivery path)."""
        await kit.play(interaction, self.table_id, self.value, int(self.stamp))


class MoveSelect(kit.StampedMoveSelect, prefix="ag:s", stamp=kit.VERSION, placeholder="Choose…"):
    """A select of moves (values are move codes or index tokens) tied to one table version."""


DYNAMIC_ITEMS = (PanelButton, OfficeButton, MoveButton, MoveSelect)


