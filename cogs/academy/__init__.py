"""/academy: Wizard's Academy on Discord, a cooperative game played in turns.

Each wizard's private panel (``/academy panel``, the DMs, **My private view** and ``/game hand``)
is built from the seat's own view and its legal moves: the wizard, the glyphs, the disaster card
the seat plays next turn (secret), and a control for every decision: buttons for the rooms to
move to and the plain actions, a select to cast, and two-step selects where one list would be
too long (bind: a face-down spell, then its name; shift: a room, then the shift). The commands
(`/academy move`, `cast`, `bind`, `take`, `end`) autocomplete from the same legal moves. Every
component carries the table id and the version it was offered at: it survives a restart, and a
stale click is refused under the table's lock.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs import kit
from cogs.kit import panels
from cogs.kit.panels import clip
from service import (
    Choice,
    SeatView,
    TableError,
    TableRecord,
    TableService,
    offered_token,
    reading,
)
from service.compose import name_seats

if TYPE_CHECKING:
    from rules.academy.record import AcademyView, Wizard
    from rules.academy.record import Choice as AcademyChoice

KIND = "academy"
BUTTON_ROWS = 3
"""Rows of buttons on a panel; the two rows below them hold selects."""
ROW_WIDTH = 5
SLOT_WORDS = {"move": "a move", "room": "a room action", "magic": "a magic action"}
"""How the advanced turn's three action slots read on the panel."""
CLOSING = frozenset({"end", "stop", "done", "ready"})
"""Moves that end a step: grey buttons, after the others."""
GROUPED = {"bind": "slot", "shift": "room", "cast": "pair", "room": "act", "choose": "first"}
"""Actions whose moves, past one select's worth, are picked in two steps (first the group)."""

HELP = """**Wizard's Academy** — a cooperative game: save the academy together.
**A turn**: the disaster card you drew last turn is played (its threats spread), you draw the next one
(only you see it: your panel), then you take **three actions**: **move** to an adjoining room (water
costs an extra action), **take** the glyph of your room's source (no guardian there), **bind** spells
in the Library by naming a face-down spell (a wrong guess shuffles that level and costs a mana), or
**cast** the spell at the crossing of two glyphs you hold (one may come from another wizard, who must
agree). Then you endure the threats in your room. The Mana Crystal loses mana when threats reach it or
a wizard falls; at 0 the academy collapses. **Win** (basic game): cast Abjure in the Mana Crystal with
no fire anywhere. Your controls: `/academy panel` (only you see it) or your DMs. Rooms, spells and
disasters: `/game card`."""


@dataclass(frozen=True)
class Panel:
    """What one seat may see and do now (its own typed view and legal moves, from ``seat_view``)."""

    table: TableRecord
    version: int
    seat: int
    view: AcademyView
    moves: tuple[Choice, ...]
    names: dict[int, str]
    """The players' names by seat ("alice")."""

    def who(self, seat: int) -> str:
        """Return how the panel names a seat: the player's name, else the seat's wizard."""
        return self.names.get(seat) or self.view.wizards[seat].name


async def read_panel(svc: TableService, got: SeatView) -> Panel:
    """Build the user's panel data at a Wizard's Academy table (move labels name players)."""
    names = {s.seat: s.name for s in await svc.seats(got.table.id) if s.seat is not None}
    rules = svc.catalogue.rules_for(KIND)
    # Labels name seats by their tag ("glyph 5 from P2"); the panel names people, as the thread does.
    named = name_seats(rules, {n: f"{name} ({rules.seat_tag(n)})" for n, name in names.items()})
    moves = tuple(Choice(named(c.label), c.value, c.move) for c in got.moves)
    return Panel(got.table, got.version, got.seat, got.typed, moves, names)


def _action(choice: Choice) -> str:
    return choice.move.action if choice.move is not None else choice.value.split(" ", 1)[0]


def _items(wizard: Wizard) -> str:
    parts = []
    if wizard.robe:
        parts.append(f"a robe against {wizard.robe}")
    if wizard.wand is not None:
        parts.append(f"a wand of glyph {wizard.wand}")
    if wizard.staff:
        parts.append("a staff of glyphs {}-{}".format(*wizard.staff))
    if wizard.shared is not None:
        parts.append(f"glyph {wizard.shared} shared")
    return ", ".join(parts)


def panel_text(title: str, panel: Panel, note: str = "") -> str:
    """Return the panel's words: your wizard, your glyphs, your next disaster, what to decide."""
    view = panel.view
    me = view.wizards[panel.seat]
    lines = [note] if note else []
    school = f" ({me.school.title()})" if me.school else ""
    lines.append(f"**{title}** — you are **{me.name}**{school}, in the {me.room_name} · mana {view.mana}")
    glyphs = " ".join(str(g) for g in me.glyphs) or "none"
    items = _items(me)
    lines.append(f"Your glyphs: {glyphs}" + (f" · {items}" if items else ""))
    if me.ability and not view.basic:  # the basic game ignores abilities
        lines.append(f"Ability: {me.ability}")
    mine = view.my_disaster
    if mine:
        told = f"**{mine.name}**: {mine.text}"
        lines.append(f"Your next disaster (secret; you may tell the table): {told}")
    if view.over:
        lines.append("**The academy is saved!**" if view.won else "**The academy has fallen.**")
    elif panel.moves:
        lines.append(decision_line(panel))
    else:
        lines.append(waiting_line(panel))
    return kit.fit_message("\n".join(lines))


def _sentence(text: str) -> str:
    """Return a text ending with one stop (a question keeps its question mark)."""
    text = text.strip()
    return text if text.endswith(("?", ".", "!")) else text + "."


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def decision_line(panel: Panel) -> str:
    """Return what the seat decides now, in its own words, from the view (never a prompt's text)."""
    view, seat = panel.view, panel.seat
    choice, request = view.choice, view.request
    if choice and choice.seat == seat:
        listed = _orders_text(choice)
        return (
            f"**The Helpful Hand of Fate — you decide:** {_sentence(choice.why)}{listed} The others may "
            "say in the thread what they would choose; the choice is yours."
        )
    if request and request.helper == seat:
        low, high = sorted((request.glyph, request.mine))
        return (
            f"**{panel.who(request.caster)} asks for your glyph {request.glyph}** to cast the spell "
            f"at {low}-{high} (with their glyph {request.mine}). If you give it, it goes back to the "
            "supply. Give it or keep it:"
        )
    step = view.step
    if step == "shifts":
        return (
            f"**Setup — shape the academy:** {_plural(view.shifts_left, 'shift')} left (rotate a room or "
            "swap two rooms, picked below), or start the game."
        )
    if step == "share":
        return "**Share step:** put one glyph in your shared box for the others to use, or share nothing."
    acts = view.actions
    if acts.binding:
        return "**You named it right!** Bind another face-down spell, or stop binding."
    left = _plural(acts.left + acts.extra, "action") + " left"
    if acts.free is not None:  # the advanced game: name the unused action slots
        free = [SLOT_WORDS.get(name, name) for name in acts.free]
        if acts.extra:
            free.append(_plural(acts.extra, "extra action"))
        listed = " and ".join([", ".join(free[:-1]), free[-1]]) if len(free) > 1 else "".join(free)
        left = f"you may still take {listed}" if free else "no action left"
    return f"**Your turn:** {left}. Choose below."


def _orders_text(choice: AcademyChoice | None) -> str:
    """Return the orders a Helpful Hand choice offers, one a line (empty for any other choice)."""
    if choice is None or not choice.orders:
        return ""
    return "".join(f"\n{n + 1}. {label}" for n, label in enumerate(choice.orders)) + "\n"


def waiting_line(panel: Panel) -> str:
    """Return whom the table waits on, when it is not this seat."""
    view = panel.view
    request = view.request
    if request and request.caster == panel.seat:
        return f"Waiting for {panel.who(request.helper)} to give or keep glyph {request.glyph}."
    listed = _orders_text(view.choice)
    if listed and view.choice is not None:
        chooser = panel.who(view.choice.seat)
        return f"{chooser} picks the order the threats act in:{listed}Say in the thread what you would pick."
    waiting = [panel.who(s) for s in view.waiting]
    return "Nothing to decide now: the table waits on " + (", ".join(waiting) or "another wizard") + "."


# ---------------------------------------------------------------------------- grouping long lists


def group_of(choice: Choice, panel: Panel) -> str:
    """Return the first-step key of a move in a two-step select (its slot, room, glyph pair...)."""
    move = choice.move
    if move is None:
        return choice.label[:40]
    action = move.action
    if action == "bind":
        return str(move.get("slot"))
    if action == "shift":
        pos = move.get("rotate")
        if pos is None:
            pos = min(move.get("swap") or [0])
        return panel.view.grid[int(pos)].name
    if action == "cast":
        a, b = sorted((int(move.get("a")), int(move.get("b"))))
        return f"{a}-{b}"
    if action == "room":
        return str(move.get("act"))
    return choice.label.split(":")[0][:40]


def in_group(choice: Choice, panel: Panel, key: str) -> bool:
    """Tell whether a move belongs to a first-step option; a swap belongs to both of its rooms."""
    move = choice.move
    if move is not None and move.action == "shift" and move.get("swap"):
        return key in {panel.view.grid[int(p)].name for p in move.get("swap")}
    return group_of(choice, panel) == key


def group_label(action: str, key: str, panel: Panel) -> str:
    """Return how a first-step option reads (a face-down spell by slot and level, a room...)."""
    if action in ("bind", "cast"):
        slot = panel.view.slot(key)
        if slot is not None and slot.spell:
            return f"{key}: {slot.spell}"
        level = f", level {slot.level}" if slot else ""
        return f"The face-down spell at {key}{level}"
    return key.replace("_", " ").capitalize() if action == "room" else key


def components(panel: Panel) -> discord.ui.View | None:
    """Return the panel's controls: buttons for short lists, selects (or two-step selects) for long ones."""
    if not panel.moves:
        return None
    ui = discord.ui.View(timeout=None)
    tid, version = panel.table.id, panel.version
    by_action: dict[str, list[Choice]] = {}
    for choice in panel.moves:
        by_action.setdefault(_action(choice), []).append(choice)
    buttons: list[Choice] = []
    selects: list[tuple[str, list[Choice]]] = []
    for action, choices in by_action.items():
        if len(choices) <= ROW_WIDTH and action not in ("cast", "bind"):
            buttons.extend(choices)
        else:
            selects.append((action, choices))
    buttons.sort(key=lambda c: _action(c) in CLOSING)
    room_for = BUTTON_ROWS * ROW_WIDTH if len(selects) <= 5 - BUTTON_ROWS else ROW_WIDTH * (5 - len(selects))
    for n, choice in enumerate(buttons[: max(room_for, 0)]):
        style = _style(choice, panel)
        button = MoveButton(tid, version, choice.value, choice.label, style)
        button.row = n // ROW_WIDTH
        ui.add_item(button)
    first_free = min(4, (min(len(buttons), room_for) + ROW_WIDTH - 1) // ROW_WIDTH)
    for n, (action, choices) in enumerate(selects[: 5 - first_free]):
        row = first_free + n
        if len(choices) <= kit.SELECT_LIMIT:
            ui.add_item(MoveSelect(tid, version, row, choices, _placeholder(action)))
        else:
            keys = list(dict.fromkeys(group_of(c, panel) for c in choices))[: kit.SELECT_LIMIT]
            ui.add_item(GroupSelect(tid, version, row, action, keys, panel))
    return ui


def _style(choice: Choice, panel: Panel) -> discord.ButtonStyle:
    """Grey for moves that end a step, red for those that spend mana (recall, the last resorts)."""
    action = _action(choice)
    if action in CLOSING:
        return discord.ButtonStyle.secondary
    here = panel.view.room(panel.view.wizards[panel.seat].room)
    if action == "recall" or (action == "room" and here is not None and here.action == "last_resort"):
        return discord.ButtonStyle.danger
    return discord.ButtonStyle.primary


def _placeholder(action: str) -> str:
    return {
        "cast": "Cast a spell: pick two of your glyphs…",
        "bind": "Bind: pick a face-down spell…",
        "move": "Move to an adjoining room…",
        "choose": "Choose…",
        "shift": "Shift the academy…",
        "room": "Use this room…",
        "share": "Share a glyph…",
    }.get(action, "Choose your move…")


# ---------------------------------------------------------------------------- the panel


GAME = panels.PanelGame(KIND, "Wizard's Academy", read_panel, panel_text, components)
seat_panel = GAME.seat_panel
panel_message = GAME.panel_message
private_panel = GAME.private_panel
show_panel = GAME.show_panel


# ---------------------------------------------------------------------------- restart-proof components


class MoveButton(kit.StampedMoveButton, prefix="ac:m", stamp=kit.VERSION):
    """A panel button that plays one legal move while the table keeps the version it was offered at."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the move and replace the panel with the next one."""
        await kit.play(interaction, self.table_id, self.value, int(self.stamp), edit=True)


class MoveSelect(kit.StampedMoveSelect, prefix="ac:s", stamp=kit.VERSION):
    """A select of legal moves tied to one table version (its row tells several apart)."""

    async def play(self, interaction: discord.Interaction, value: str) -> None:
        """Play the chosen move and replace the panel with the next one."""
        await kit.play(interaction, self.table_id, value, int(self.stamp), edit=True)


class GroupSelect(kit.StampedMoveSelect, prefix="ac:g", stamp=kit.VERSION):
    """The first step of a two-step select: a face-down spell, a room, a glyph pair; then the moves."""

    def __init__(
        self,
        table_id: int,
        stamp: int | str,
        n: int | None = None,
        action: str = "",
        keys: list[str] | None = None,
        panel: Panel | None = None,
    ) -> None:
        choices = [
            Choice(clip(group_label(action, k, panel), 100) if panel else k, f"{action}|{k}")
            for k in keys or []
        ]
        super().__init__(table_id, stamp, n, choices, _placeholder(action))

    async def play(self, interaction: discord.Interaction, value: str) -> None:
        """Answer with a select of the moves in the chosen group, offered at the same version."""
        action, _, key = value.partition("|")

        async def work() -> None:
            svc = kit.service_of(interaction.client)
            panel = await seat_panel(svc, self.table_id, interaction.user.id)
            if str(panel.version) != self.stamp:
                raise TableError("The game moved on since this was offered: open your panel again.")
            picked = [c for c in panel.moves if _action(c) == action and in_group(c, panel, key)]
            if not picked:
                raise TableError("There is nothing to choose there now.")
            ui = discord.ui.View(timeout=None)
            ui.add_item(MoveSelect(self.table_id, panel.version, 0, picked[: kit.SELECT_LIMIT], "Pick one…"))
            await kit.answer(interaction, f"{group_label(action, key, panel)}: pick one.", view=ui)

        await kit.guarded(interaction, work)


class PanelButton(kit.TableButton, prefix="ac:p", label="Open my Academy panel",
                  style=discord.ButtonStyle.primary):
    """Under a plain private note: opens the seat's panel."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the clicker their panel."""
        await show_panel(interaction, self.table_id)


DYNAMIC_ITEMS = (MoveButton, MoveSelect, GroupSelect, PanelButton)


# ---------------------------------------------------------------------------- the commands

COMMAND_ACTIONS: dict[str, frozenset[str]] = {
    "move": frozenset({"move", "recall"}),
    "take": frozenset({"take"}),
    "bind": frozenset({"bind", "stop"}),
    "cast": frozenset({"cast", "staff"}),
    "end": frozenset({"end", "done", "ready"}),
}
NOTHING = {
    "move": "You cannot move now.",
    "take": "There is no glyph you can take now.",
    "bind": "You cannot bind spells now (you bind in the Library).",
    "cast": "You have no spell to cast now.",
    "end": "There is nothing to end now.",
}


def offers_for(command: str) -> kit.Autocomplete:
    """Return the autocomplete of one /academy command: the user's legal moves of it now."""
    wanted = COMMAND_ACTIONS[command]
    return kit.stamped_offers(seat_panel, lambda c, _seat: _action(c) in wanted)


async def play_command(interaction: discord.Interaction, command: str, value: str) -> None:
    """Play a command's move: an autocompleted token (checked under the lock) or typed words."""

    async def work() -> None:
        table = await kit.table_here(interaction)
        panel = await seat_panel(kit.service_of(interaction.client), table.id, interaction.user.id)
        fitting = [c for c in panel.moves if _action(c) in COMMAND_ACTIONS[command]]
        token = offered_token(value)
        if token is not None:
            stamp, index = token
            if stamp == panel.version and index < len(panel.moves) and panel.moves[index] not in fitting:
                raise TableError(f"That is not a `/academy {command}` move: pick one from the list.")
            await kit.play_now(interaction, table.id, value.strip(), None)
            return
        if not fitting:
            raise TableError(NOTHING[command])
        if not value.strip():
            choice = fitting[0] if len(fitting) == 1 else None
            if choice is None:
                raise TableError("Say which: " + "; ".join(c.label for c in fitting[:8]) + ".")
        else:
            try:
                choice = fitting[reading.pick(value, [c.label for c in fitting])]
            except reading.ReadingError as exc:
                raise TableError(exc.sentence) from None
        await kit.play_now(interaction, table.id, choice.value, panel.version)

    await kit.guarded(interaction, work)


class AcademyCog(commands.Cog):
    """The /academy commands: your panel, every action with autocomplete, and how to play."""

    academy = app_commands.Group(
        name="academy", description="Wizard's Academy: save the academy together", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @academy.command(name="panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        """Show your wizard, your next disaster and your controls (only you see it)."""
        await show_panel(interaction, None)

    @academy.command(name="move")
    @app_commands.describe(room="An adjoining room")
    @app_commands.autocomplete(room=offers_for("move"))
    async def move(self, interaction: discord.Interaction, room: str) -> None:
        """Move your wizard to an adjoining room (water costs an extra action)."""
        await play_command(interaction, "move", room)

    @academy.command(name="take")
    async def take(self, interaction: discord.Interaction) -> None:
        """Take the glyph of your room's source."""
        await play_command(interaction, "take", "")

    @academy.command(name="bind")
    @app_commands.describe(spell="A face-down spell and the name you give it")
    @app_commands.autocomplete(spell=offers_for("bind"))
    async def bind(self, interaction: discord.Interaction, spell: str) -> None:
        """In the Library: name a face-down spell to bind it (a wrong name costs a mana)."""
        await play_command(interaction, "bind", spell)

    @academy.command(name="cast")
    @app_commands.describe(spell="The glyph pair to cast (one glyph may come from another wizard)")
    @app_commands.autocomplete(spell=offers_for("cast"))
    async def cast(self, interaction: discord.Interaction, spell: str) -> None:
        """Cast the spell at the crossing of two glyphs."""
        await play_command(interaction, "cast", spell)

    @academy.command(name="end")
    async def end(self, interaction: discord.Interaction) -> None:
        """End your actions (or your setup shifts, or the share step)."""
        await play_command(interaction, "end", "")

    @academy.command(name="board")
    async def board(self, interaction: discord.Interaction) -> None:
        """Show the academy's board as it stands (only you see it)."""

        async def work() -> None:
            table = await kit.table_here(interaction)
            svc = kit.service_of(interaction.client)
            public = await GAME.public_view(svc, table.id)
            image = await svc.reads.public_drawing(public)
            alt = svc.composer.describe(KIND, public.view)
            files = [kit.image_file(image, f"academy-{table.id}.png", alt)] if image else []
            await kit.answer(interaction, f"The academy, at version {public.version}.", files=files)

        await kit.guarded(interaction, work)

    @academy.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """How a Wizard's Academy game goes here, and where your controls are."""
        await kit.answer(interaction, HELP)


async def setup(bot: commands.Bot) -> None:
    """Add /academy and its restart-proof components; the panel is the private note of a seat."""
    await GAME.install(bot, AcademyCog(bot), DYNAMIC_ITEMS, PanelButton)
