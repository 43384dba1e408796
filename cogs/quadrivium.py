"""/quad: Quadrivium on Discord, a story told in turns.

Each player's private panel (``/quad panel``, the DMs, **My private view** and ``/game hand``) is
built from the seat's own view and its legal moves: the hand, the mage, and one button per move, or
selects when there are many. A move that carries words (naming the covenant or a mage, an intent,
the conditions, a revision, the finale) opens a form (a Discord modal); its text goes to the
service inside the move, and the engine tells it in public events, so ``/game history`` reads as
the tale of the covenant. Every component carries the table id and the version it was offered at
in its custom id: it survives a restart, and a stale click is refused under the table's lock.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import kit, panels
from cogs.panels import clip
from rules.contract import MalformedMove, Move
from service import Choice, SeatView, TableRecord, TableService

KIND = "quadrivium"
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
CLOSING = frozenset({"pass", "done", "allow", "stand", "settle", "rest", "refill", "take_offer", "accept"})
"""Answers that end or decline a decision: grey buttons, after the others."""
DANGER = frozenset({"yield", "concede"})
BUTTONS_MAX = 20
SELECT_MAX = 25
LABEL_MAX = 80

TEXT_FORMS: dict[str, tuple[str, tuple[tuple[str, str, bool, int, bool], ...]]] = {
    # action: (form title, fields: (argument, label, long text, max length, required))
    "covenant": ("Found the covenant", (("name", "The covenant's name", False, 60, True),
                                        ("desc", "Where it stands, what it is", True, 200, False))),
    "mage": ("Your mage", (("name", "Your mage's name", False, 60, True),
                           ("desc", "A line about your mage", True, 200, False))),
    "intent": ("Declare an intent", (("text", "What does your mage intend?", True, 300, True),)),
    "conditions": ("Win and loss conditions", (("win", "If I win… (and why)", True, 300, True),
                                               ("lose", "If I lose… (and why)", True, 300, True))),
    "revise": ("Revise a condition", (("text", "The condition as you would have it", True, 300, True),)),
    "finale": ("The finale", (("text", "How it ends, as the conditions said", True, 300, True),)),
}
"""The moves whose words are written in a form (the engine caps the same lengths)."""

HELP = """**Quadrivium** — a story of mages in council and conflict, no game master.
**Scenes**: in turn each mage declares an **intent** (a form opens for your words). Anyone may
**oppose** and take the Antagonist role (Council Votes come only from antagonism). The two sides name
a **conflict type** each (a Trait: Vigor ♣, Craft ♦, Influence ♥, Insight ♠; cards of those suits gain
+2), the protagonist writes the **win and loss conditions**, and the sides **revise** them in turn until
one **accepts** and sets how many tricks win. **Tricks**: each side places a card face down from the
hand on your panel; both are revealed; others may **aid** (+2); the losing side may act (Traits,
Companions, Items, magic, Council Votes, Claiming covenant resources) or let it stand.
**Councils** come once everyone has been protagonist: repair, bidding, support, mage actions, and the
seasons that pass. Your controls: `/quad panel` (only you see it). The covenant: `/quad sheet`."""


# ---------------------------------------------------------------------------- the panel


@dataclass(frozen=True)
class Panel:
    """What one seat may see and do now (from ``seat_view``: its own view and legal moves)."""

    table: TableRecord
    version: int
    seat: int
    view: dict[str, Any]
    moves: tuple[Choice, ...]
    asks: tuple[str, ...]


async def read_panel(svc: TableService, got: SeatView) -> Panel:
    """Build the user's panel data at a Quadrivium table."""
    asks = tuple(p.text for p in got.prompts if p.seat == got.seat)
    return Panel(got.table, got.version, got.seat, got.view, tuple(got.moves), asks)


def show(card: str) -> str:
    """Return a card for people (the view holds codes such as ``7C`` or ``7C/H``)."""
    base, _, changed = card.partition("/")
    if base in ("BJ", "RJ"):
        return "Red Joker" if base == "RJ" else "Black Joker"
    text = base[:-1] + SUITS[base[-1]]
    return text + (f"→{SUITS[changed]}" if changed else "")


def _res(r: dict[str, int]) -> str:
    fresh = r["value"] - r["spent"] - r["harm"]
    return f"{fresh}/{r['value']}" + (f" (Harm {r['harm']})" if r["harm"] else "")


def panel_text(title: str, panel: Panel, note: str = "") -> str:
    """Return the panel's words: your mage, your hand, what you must decide."""
    view, seat = panel.view, panel.seat
    me = view["seats"][seat]
    lines = [note] if note else []
    lines.append(f"**{title}** — you are **{me['name'] or 'a mage still unnamed'}** · "
                 f"{me['votes']} Council Votes · {view['season']} of year {view['year']}")
    traits = " · ".join(f"{t.title()} {_res(r)} (magic {me['magic'][t] - me['taint'][t]})"
                        for t, r in me["traits"].items())
    lines.append(traits)
    if view["hand"]:
        lines.append("Your hand (secret): " + " ".join(show(c) for c in view["hand"]))
    if view.get("placed"):
        lines.append(f"Face down in front of you: {show(view['placed'])}")
    if view["phase"] == "over":
        lines.append(f"The tale has ended: {view['ended']}.")
    elif panel.moves:
        lines.append("**Your decision:** " + (" ".join(panel.asks) or "choose below."))
    else:
        lines.append("Nothing to decide now: the table waits on someone else.")
    return kit.fit_message("\n".join(lines))


def _action(choice: Choice) -> str:
    if choice.move is not None:
        return choice.move.action
    return choice.value.split(" ", 1)[0]


def _style(action: str) -> discord.ButtonStyle:
    if action in DANGER:
        return discord.ButtonStyle.danger
    if action in CLOSING:
        return discord.ButtonStyle.secondary
    if action in TEXT_FORMS:
        return discord.ButtonStyle.success
    return discord.ButtonStyle.primary


def components(panel: Panel) -> discord.ui.View | None:
    """Return the panel's controls: a form button per worded move, buttons or selects for the rest."""
    if not panel.moves:
        return None
    ui = discord.ui.View(timeout=None)
    tid, version = panel.table.id, panel.version
    ordered = sorted(panel.moves, key=lambda c: (_action(c) in CLOSING or _action(c) in DANGER))
    if len(ordered) <= BUTTONS_MAX:
        for choice in ordered:
            ui.add_item(_button(tid, version, choice))
        return ui
    worded = [c for c in ordered if _action(c) in TEXT_FORMS]
    closing = [c for c in ordered if _action(c) in CLOSING or _action(c) in DANGER]
    main = [c for c in ordered if c not in worded and c not in closing]
    for n in range(min(4, (len(main) + SELECT_MAX - 1) // SELECT_MAX)):
        chunk = main[n * SELECT_MAX:(n + 1) * SELECT_MAX]
        ui.add_item(MoveSelect(tid, version, n, chunk, " ".join(panel.asks)))
    for choice in (worded + closing)[:5]:
        button = _button(tid, version, choice)
        button.row = 4
        ui.add_item(button)
    return ui


def _button(table_id: int, version: int, choice: Choice) -> discord.ui.Item[Any]:
    action = _action(choice)
    label = clip(choice.label, LABEL_MAX)
    if action in TEXT_FORMS:
        return FormButton(table_id, version, choice.value, label + "…", _style(action))
    return MoveButton(table_id, version, choice.value, label, _style(action))


GAME = panels.PanelGame(KIND, "Quadrivium", read_panel, panel_text, components, sheet=True)
seat_panel = GAME.seat_panel
panel_message = GAME.panel_message
private_panel = GAME.private_panel
show_panel = GAME.show_panel


# ---------------------------------------------------------------------------- acting


async def play(
    interaction: discord.Interaction, table_id: int, move: str | Move, version: int, *, edit: bool = False
) -> None:
    """Play a move through the kit: it posts the board, sends the DMs and answers with the next panel.

    ``edit`` replaces the panel the click came from (buttons and selects); a form answers anew.
    """
    await kit.play(interaction, table_id, move, version, edit=edit)


def worded_move(code: str, words: dict[str, str]) -> Move:
    """Return the move of a form: its code (as offered) with the words written in the form."""
    base = Move.parse(code)
    if base.action not in TEXT_FORMS:
        raise MalformedMove("That control does not take words.")
    texts = {k: v for k, v in words.items() if v and v.strip()}
    return Move.of(base.action, **base.params, **texts)


class WordsForm(discord.ui.Modal):
    """The form of a worded move (a Discord modal); submitting plays the move with its words."""

    def __init__(self, table_id: int, version: int, code: str) -> None:
        action = code.split(" ", 1)[0]
        title, fields = TEXT_FORMS[action]
        super().__init__(title=title, custom_id=f"qd:f:{table_id}:{version}")
        self.table_id, self.version, self.code = table_id, version, code
        self.inputs: dict[str, discord.ui.TextInput[Any]] = {}
        for arg, label, long, limit, required in fields:
            box: discord.ui.TextInput[Any] = discord.ui.TextInput(
                label=label, custom_id=f"qd:w:{arg}", max_length=limit, required=required,
                style=discord.TextStyle.paragraph if long else discord.TextStyle.short,
            )
            self.inputs[arg] = box
            self.add_item(box)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Play the move with the words written."""
        try:
            move = worded_move(self.code, {k: box.value for k, box in self.inputs.items()})
        except MalformedMove as exc:
            await kit.answer(interaction, exc.sentence)
            return
        await play(interaction, self.table_id, move, self.version)


# ---------------------------------------------------------------------------- restart-proof components


class MoveButton(kit.StampedMoveButton, prefix="qd:m", stamp=kit.VERSION):
    """A panel button that plays one legal move while the table keeps the version it was offered at."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the move."""
        await play(interaction, self.table_id, self.value, int(self.stamp), edit=True)


class FormButton(kit.StampedMoveButton, prefix="qd:t", stamp=kit.VERSION):
    """A panel button that opens the form of a worded move (intent, conditions, names, finale)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the form; the version is checked again when it is submitted."""
        if self.value.split(" ", 1)[0] not in TEXT_FORMS:
            await kit.answer(interaction, "That control does not take words.")
            return
        await interaction.response.send_modal(WordsForm(self.table_id, int(self.stamp), self.value))


class MoveSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"qd:s:(?P<table>\d+):(?P<version>\d+):(?P<n>\d)",
):
    """A select of legal moves (when there are too many for buttons), tied to one table version."""

    def __init__(
        self, table_id: int, version: int, n: int, choices: list[Choice] | None = None, placeholder: str = ""
    ) -> None:
        options = [discord.SelectOption(label=clip(c.label, 100), value=c.value) for c in choices or []]
        super().__init__(
            discord.ui.Select(
                placeholder=clip(placeholder or "Choose…", 150),
                custom_id=f"qd:s:{table_id}:{version}:{n}",
                options=options or [discord.SelectOption(label="(nothing)", value="-")],
                row=n,
            )
        )
        self.table_id, self.version = table_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> MoveSelect:
        """Rebuild the select from its custom id (the chosen value comes with the interaction)."""
        return cls(int(match["table"]), int(match["version"]), int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the chosen move (or open its form)."""
        values = self.item.values
        if not values or values[0] == "-":
            await kit.answer(interaction, "There is nothing to choose right now.")
            return
        if values[0].split(" ", 1)[0] in TEXT_FORMS:
            await interaction.response.send_modal(WordsForm(self.table_id, self.version, values[0]))
            return
        await play(interaction, self.table_id, values[0], self.version, edit=True)


class PanelButton(kit.TableButton, prefix="qd:p", label="Open my Quadrivium panel",
                  style=discord.ButtonStyle.primary):
    """Under a plain private note: opens the seat's panel."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the clicker their panel."""
        await show_panel(interaction, self.table_id)


DYNAMIC_ITEMS = (MoveButton, FormButton, MoveSelect, PanelButton)


# ---------------------------------------------------------------------------- the commands


class QuadriviumCog(commands.Cog):
    """The /quad commands: your panel, the covenant sheet, and how to play."""

    quad = app_commands.Group(
        name="quad", description="Quadrivium: mages in council and conflict", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @quad.command(name="panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        """Show your hand and controls for this thread's Quadrivium tale (only you see it)."""
        await show_panel(interaction, None)

    @quad.command(name="sheet")
    async def sheet(self, interaction: discord.Interaction) -> None:
        """Show the covenant sheet: resources, Harm, the mages' Traits, Taint, Corruption, votes."""

        async def work() -> None:
            table = await kit.table_here(interaction)
            svc = kit.service_of(interaction.client)
            public = await GAME.public_view(svc, table.id)
            from render import quadrivium as drawing

            image = await asyncio.to_thread(drawing.sheet, public.view)
            alt = svc.describe(table.kind, public.view)
            file = kit.image_file(image, f"quadrivium-{table.id}-covenant.png", alt)
            await kit.answer(interaction, f"The covenant, at version {public.version}.", files=[file])

        await kit.guarded(interaction, work)

    @quad.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """How a Quadrivium tale goes here, and where your controls are."""
        await kit.answer(interaction, HELP)


async def setup(bot: commands.Bot) -> None:
    """Add /quad and its restart-proof components; the panel is the private note of a seat."""
    # A plain note carries the panel button instead of a move select (forms need the panel).
    await GAME.install(bot, QuadriviumCog(bot), DYNAMIC_ITEMS, PanelButton)
