"""/institute: each player's private panel of buttons and selects for every Institute decision.

The panel is built from the seat's own view and its legal moves (never from the state): in Phase I a
select per die for its Action Card, reroll, refill and confirm buttons; at every other moment one
button (or select option) per legal move. Every click ends in ``TableService.act`` with the code of
a legal move. Components carry the table id, a fingerprint of the seat's own situation and the move
in their custom id, so they survive a restart; an out-of-date panel is replaced rather than obeyed.
The fingerprint, not the table version, guards a panel: in Phase I both players click at once, and
one player's choice must not invalidate the other's panel.

While a player assigns dice one by one the thread stays quiet; it shows who has locked in (never
what), then the reveal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import kit
from cogs.kit import panels
from cogs.kit.panels import clip
from rules.contract import MalformedMove, Move
from service import Choice, SeatView, TableError, TableRecord, TableService

if TYPE_CHECKING:
    from rules.institute.record import InstituteRecord

KIND = "institute"
ACTION_NAMES = {"take": "Take Stones", "cast2": "Cast 2 Stones", "cast1": "Cast 1 Stone"}
"""The Action Cards, in the order the die selects offer them (names as in VIEW.md)."""
CLOSING = frozenset({"pass", "decline", "done", "keep", "accept"})
"""Answers that end or refuse a decision; drawn as grey buttons after the others."""
GOOD = frozenset({"confirm", "claim"})
ROMAN = ("I", "II", "III", "IV", "V")
DICE = frozenset("1234")
"""The values of the reroll select's options (anything else is forged)."""
BUTTONS_MAX = 20
SELECT_MAX = 25
LABEL_MAX = 80

HELP = """**The Institute for Magical Arts** — how to play here
Each round: **Phase I** you roll 4 dice and, in secret, put an Action Card under each die (Take Stones
takes that many stones; Cast 1 / Cast 2 Stones puts stones on the card at the Location the die shows).
Use your **panel** (`/institute panel`, the *My private view* button, or your DMs): a select per die,
Reroll (free while your dice total 6 or less, else 1 Reroll Cube), Refill (return a Charm, -1 VP) and
**Confirm**. When both players confirm, the cards are revealed and stones are taken and cast.
**Phase III**: stones on the Portal go to a card or 1 to the Ethereal Realm (secret when both have some).
**Phase IV**: trigger your numbered permanent powers (1 stone each). **Phase V**: cards are won by
meeting Cost and beating the rival by Surpass. First to 20 VP after a round wins.
Look a card up with `/game card`."""


# ---------------------------------------------------------------------------- the seat's panel data


@dataclass(frozen=True)
class SeatPanel:
    """What one seat may see and do now: its own typed view and every legal move (label, code)."""

    table: TableRecord
    version: int
    seat: int
    view: dict[str, Any]
    """The seat's JSON view: only handed to the seat's drawing and its alt text, never read here."""
    typed: InstituteRecord
    moves: tuple[Choice, ...]
    waiting: str = ""
    """Whom else the game waits on, players named (``SeatView.waiting``)."""

    def parsed(self) -> list[tuple[Choice, Move | None]]:
        """Return each move with its parsed form (None for an index token)."""
        out = []
        for choice in self.moves:
            try:
                move = None if choice.value.startswith("#") else Move.parse(choice.value)
            except MalformedMove:
                move = None
            out.append((choice, move))
        return out


async def read_panel(svc: TableService, got: SeatView) -> SeatPanel:
    """Build the user's panel data at an Institute table."""
    return SeatPanel(got.table, got.version, got.seat, got.view, got.typed, tuple(got.moves), got.waiting)


def fingerprint(panel: SeatPanel) -> str:
    """Return a short digest of the seat's own situation and legal moves.

    A panel stays valid while this is unchanged: the rival's moves in Phase I do not touch it, a
    second click of the same reroll (or any click on an older copy of the panel) does.
    """
    view = panel.typed
    me = view.players[panel.seat]
    kept = ("dice", "assignment", "confirmed", "rerolls", "charms", "stones", "portal_choice")
    mine = {k: getattr(me, k) for k in kept}
    data = [view.round, view.phase, view.step, mine, [m.value for m in panel.moves]]
    return panels.digest(data)


# ---------------------------------------------------------------------------- drawing the panel


def panel_text(title: str, panel: SeatPanel, note: str = "") -> str:
    """Return the panel's words: where you are, your dice and supplies, what you must decide."""
    view, seat = panel.typed, panel.seat
    me = view.players[seat]
    colour = "Red (R, circle)" if seat == 0 else "Blue (B, square)"
    lines = []
    if note:
        lines.append(note)
    lines.append(f"**{title}** — you play **{colour}**.")
    lines.append(f"Round {view.round} · Phase {ROMAN[view.phase - 1]}: {view.phase_name}.")
    dice = " · ".join(str(d) for d in me.dice)
    lines.append(
        f"Your dice: **{dice}** (total {sum(me.dice)}) · Reroll Cubes {me.rerolls} · "
        f"Charms {me.charms} · Stones {me.stones} · **{me.score} VP**"
    )
    if view.assigning and me.assignment is not None:
        plan = ", ".join(
            f"die {d + 1} ({v}): {ACTION_NAMES[a] if a else '—'}"
            for d, (v, a) in enumerate(zip(me.dice, me.assignment, strict=True))
        )
        lines.append(f"Your Action Cards (secret): {plan}.")
    if view.over:
        lines.append("The game is over: " + view.ending)
    elif panel.moves:
        lines.append("**Your decision:** " + (view.decision_of(seat) or "choose below."))
    elif me.confirmed and view.assigning:
        lines.append("You have locked in your Action Cards: waiting for your rival to confirm.")
    else:
        lines.append(f"Nothing to decide now. {panel.waiting}".strip())
    if view.locked_in:
        # The sentence the sheet shows too: who has locked in, never what.
        lines.append(view.locked_in)
    return clip("\n".join(lines), kit.CONTENT_LIMIT)


_LOCATION = re.compile(r" \(Location (\d)\)")


def button_label(choice: Choice, move: Move | None) -> str:
    """Return a choice's label short enough for a button (Locations as L1..L6, moves as X → Y)."""
    label = _LOCATION.sub(r" (L\1)", choice.label)
    if move is not None and move.action == "move":
        label = label.replace("Move a stone from ", "", 1).replace(" to ", " → ", 1)
    return clip(label, LABEL_MAX)


def _style(move: Move | None) -> discord.ButtonStyle:
    if move is not None and move.action in GOOD:
        return discord.ButtonStyle.success
    if move is not None and move.action in CLOSING:
        return discord.ButtonStyle.secondary
    return discord.ButtonStyle.primary


def components(panel: SeatPanel) -> discord.ui.View | None:
    """Return the panel's buttons and selects, or None when the seat has nothing to decide."""
    if not panel.moves:
        return None
    parsed = panel.parsed()
    if any(m is not None and m.action in ("assign", "confirm") for _, m in parsed):
        return _phase_one(panel, parsed)
    return _choices(panel, parsed)


def _location_name(view: InstituteRecord, number: int) -> str:
    """Name what lies at a Location: its Institute Card, the Portal, or nothing."""
    loc = view.locations[number - 1]
    where = loc.card.name if loc.card else {"portal": "the Portal", "empty": "an empty Location"}[loc.kind]
    return f"Location {number}: {where}"


def _effect(action: str, value: int, where: str) -> str:
    """Say what an Action Card under a die showing ``value`` will do."""
    if action == "take":
        return f"take {value} stone{'s' if value != 1 else ''}"
    amount = "2 stones" if action == "cast2" else "1 stone"
    return f"cast {amount} on {where}" if where else f"cast {amount}"


def _phase_one(panel: SeatPanel, parsed: list[tuple[Choice, Move | None]]) -> discord.ui.View:
    """Phase I: a select per die, then Confirm, Reroll, Refill and any Phase I power."""
    ui = discord.ui.View(timeout=None)
    fp, tid = fingerprint(panel), panel.table.id
    me = panel.typed.players[panel.seat]
    assignable: dict[int, set[str]] = {}
    for _, move in parsed:
        if move is not None and move.action == "assign":
            assignable.setdefault(move.get("die"), set()).add(move.get("card"))
    for d, value in enumerate(me.dice, start=1):
        current = me.assignment[d - 1] if me.assignment else None
        offered = [a for a in ACTION_NAMES if a == current or a in assignable.get(d, set())]
        ui.add_item(DieSelect(tid, fp, d, value, offered, current, _location_name(panel.typed, value)))
    rerolls = [(c, m) for c, m in parsed if m is not None and m.action == "reroll"]
    buttons: list[discord.ui.Item[Any]] = []
    for choice, move in parsed:
        if move is not None and move.action == "confirm":
            buttons.append(MoveButton(tid, fp, choice.value, "Confirm my Action Cards", _style(move)))
    if len(rerolls) == 1:
        choice, move = rerolls[0]
        buttons.append(MoveButton(tid, fp, choice.value, button_label(choice, move), _style(move)))
    elif rerolls:
        buttons.append(RerollPickerButton(tid, fp))
    for choice, move in parsed:
        if move is not None and move.action in ("refill", "power"):
            buttons.append(MoveButton(tid, fp, choice.value, button_label(choice, move), _style(move)))
    for item in buttons[:5]:
        item.row = 4
        ui.add_item(item)
    return ui


def _choices(panel: SeatPanel, parsed: list[tuple[Choice, Move | None]]) -> discord.ui.View:
    """Any other moment: a button per legal move, or selects when there are many."""
    ui = discord.ui.View(timeout=None)
    fp, tid = fingerprint(panel), panel.table.id
    ordered = sorted(parsed, key=lambda cm: cm[1] is not None and cm[1].action in CLOSING)
    if len(ordered) <= BUTTONS_MAX:
        for choice, move in ordered:
            ui.add_item(MoveButton(tid, fp, choice.value, button_label(choice, move), _style(move)))
        return ui
    main = [(c, m) for c, m in ordered if m is None or m.action not in CLOSING]
    closing = [(c, m) for c, m in ordered if m is not None and m.action in CLOSING]
    for n in range(min(4, (len(main) + SELECT_MAX - 1) // SELECT_MAX)):
        chunk = [c for c, _ in main[n * SELECT_MAX : (n + 1) * SELECT_MAX]]
        ui.add_item(MoveSelect(tid, fp, n, chunk, panel.typed.decision_of(panel.seat)))
    for choice, move in closing[:5]:
        button = MoveButton(tid, fp, choice.value, button_label(choice, move), _style(move))
        button.row = 4
        ui.add_item(button)
    return ui


def seat_stamp(now: SeatView) -> str:
    """Return the fingerprint of a seat view: what the service checks a panel's click against."""
    return fingerprint(SeatPanel(now.table, now.version, now.seat, now.view, now.typed, tuple(now.moves)))


GAME = panels.PanelGame(
    KIND, "The Institute for Magical Arts", read_panel, panel_text, components, sheet=True, stamp=seat_stamp
)
seat_panel = GAME.seat_panel
panel_message = GAME.panel_message
private_panel = GAME.private_panel
show_panel = GAME.show_panel


async def act(interaction: discord.Interaction, table_id: int, fp: str, code: str) -> None:
    """Play a move from a panel on the kit's one path; the service checks the panel's fingerprint
    under the table's lock, and an out-of-date panel is replaced, not obeyed.

    The clicked panel is replaced by the fresh one (with what the move did); the board is a new
    thread message only when the turn passes, else the living board is edited, so Phase I's
    steps (assignments show nothing at all, rerolls only edit the board) do not flood the thread.
    """
    if not kit.on_own_panel(interaction):
        await kit.answer(interaction, kit.NOT_A_PANEL)
        return
    await GAME.act(interaction, table_id, fp, code, update=True)


# ---------------------------------------------------------------------------- restart-proof components


class ControlsButton(
    kit.TableButton, prefix="ins:ctl", label="Open my controls", style=discord.ButtonStyle.primary
):
    """Under a private note (DM or /game hand): opens the seat's full panel of controls."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the clicker their panel."""
        await show_panel(interaction, self.table_id)


class MoveButton(kit.StampedMoveButton, prefix="ins:m", stamp=kit.FINGERPRINT):
    """A button that plays one legal move from a panel while the panel keeps its fingerprint."""

    @property
    def code(self) -> str:
        """Return the move code the button plays."""
        return self.value

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the move."""
        await act(interaction, self.table_id, self.stamp, self.value)


class MoveSelect(kit.StampedMoveSelect, prefix="ins:s", stamp=kit.FINGERPRINT, placeholder="Choose…"):
    """A select of legal moves (when there are too many for buttons), valid while the panel
    keeps its fingerprint."""

    async def play(self, interaction: discord.Interaction, value: str) -> None:
        """Play the chosen move from the panel."""
        await act(interaction, self.table_id, self.stamp, value)


class DieSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"ins:d:(?P<table>\d+):(?P<fp>[0-9a-f]{8}):(?P<die>[1-4])",
):
    """Phase I: choose the Action Card that goes under one die (in secret)."""

    def __init__(
        self,
        table_id: int,
        fp: str,
        die: int,
        value: int = 0,
        offered: list[str] | None = None,
        current: str | None = None,
        where: str = "",
    ) -> None:
        options = [
            discord.SelectOption(
                label=f"Die {die} ({value}): {ACTION_NAMES[a]}",
                value=a,
                default=a == current,
                description=clip(
                    _effect(a, value, where) + (" (assigned now)" if a == current else ""), 100
                ),
            )
            for a in offered or []
        ]
        super().__init__(
            discord.ui.Select(
                placeholder=f"Die {die} shows {value}: choose its Action Card",
                custom_id=f"ins:d:{table_id}:{fp}:{die}",
                options=options or [discord.SelectOption(label="(no card left)", value="-")],
                row=die - 1,
            )
        )
        self.table_id, self.fp, self.die, self.current = table_id, fp, die, current

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> DieSelect:
        """Rebuild the select from its custom id."""
        return cls(int(match["table"]), match["fp"], int(match["die"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Assign the chosen Action Card to this die."""
        values = self.item.values
        if not values or values[0] not in ACTION_NAMES:
            await kit.answer(interaction, "Pick Take Stones, Cast 1 Stone or Cast 2 Stones.")
            return
        code = Move.of("assign", die=self.die, card=values[0]).code()
        await act(interaction, self.table_id, self.fp, code)


class RerollPickerButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"ins:r:(?P<table>\d+):(?P<fp>[0-9a-f]{8})",
):
    """Phase I: open a picker of the dice to reroll for one Reroll Cube."""

    def __init__(self, table_id: int, fp: str) -> None:
        super().__init__(
            discord.ui.Button(
                label="Reroll dice… (1 Reroll Cube)",
                style=discord.ButtonStyle.primary,
                custom_id=f"ins:r:{table_id}:{fp}",
            )
        )
        self.table_id, self.fp = table_id, fp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> RerollPickerButton:
        """Rebuild the button from its custom id."""
        return cls(int(match["table"]), match["fp"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Answer ephemerally with a select of the dice."""

        async def work() -> None:
            svc = kit.service_of(interaction.client)
            panel = await seat_panel(svc, self.table_id, interaction.user.id)
            if fingerprint(panel) != self.fp:
                raise TableError("That panel is out of date: open it again with /institute panel.")
            dice = panel.typed.players[panel.seat].dice
            ui = discord.ui.View(timeout=None)
            ui.add_item(RerollSelect(self.table_id, self.fp, dice))
            await kit.answer(
                interaction, "Pick the dice to reroll (one Reroll Cube for all of them):", view=ui
            )

        await kit.guarded(interaction, work)


class RerollSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"ins:rs:(?P<table>\d+):(?P<fp>[0-9a-f]{8})",
):
    """Phase I: the dice to reroll for one Reroll Cube (any or all)."""

    def __init__(self, table_id: int, fp: str, dice: list[int] | None = None) -> None:
        options = [
            discord.SelectOption(label=f"Die {d} (shows {v})", value=str(d))
            for d, v in enumerate(dice or [], 1)
        ]
        super().__init__(
            discord.ui.Select(
                placeholder="Dice to reroll…",
                custom_id=f"ins:rs:{table_id}:{fp}",
                options=options or [discord.SelectOption(label="(no dice)", value="-")],
                min_values=1,
                max_values=max(1, len(options)),
            )
        )
        self.table_id, self.fp = table_id, fp

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> RerollSelect:
        """Rebuild the select from its custom id."""
        return cls(int(match["table"]), match["fp"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Spend a Reroll Cube on the chosen dice; this message becomes the fresh panel."""
        values = self.item.values
        if not values or not set(values) <= DICE:
            await kit.answer(interaction, "Pick at least one die from the list.")
            return
        dice = sorted(int(v) for v in values)
        await act(interaction, self.table_id, self.fp, Move.of("reroll", dice=dice).code())


DYNAMIC_ITEMS = (
    ControlsButton,
    MoveButton,
    MoveSelect,
    DieSelect,
    RerollPickerButton,
    RerollSelect,
)


# ---------------------------------------------------------------------------- the commands


class InstituteCog(commands.Cog):
    """The /institute commands: your panel, and how to play."""

    institute = app_commands.Group(
        name="institute", description="The Institute for Magical Arts", guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @institute.command(name="panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        """Show your private panel for this thread's Institute game (only you see it)."""
        # Acknowledged before the table is even looked up (Discord allows 3 seconds).
        await show_panel(interaction, None)

    @institute.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """How a round of the Institute goes, and where your controls are."""
        await kit.answer(interaction, HELP)


async def setup(bot: commands.Bot) -> None:
    """Add /institute and its restart-proof components; the panel answers the private notes."""
    # Should building the panel fail, the kit's plain note carries a button to it instead of a
    # move select (it cannot hold ~30 Phase I moves).
    await GAME.install(bot, InstituteCog(bot), DYNAMIC_ITEMS, ControlsButton)
