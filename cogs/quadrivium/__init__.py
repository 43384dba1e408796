"""/quadrivium (or /quad): Quadrivium on Discord, a story told in turns.

Each player's private panel (``/quadrivium panel``, the DMs, **My private view** and ``/game hand``) is
built from the seat's own view and its legal moves: the hand, the mage, and one button per move, or
selects when there are many. A move that carries words (naming the covenant or a mage, an intent,
the conditions, a revision, the finale) opens a form (a Discord modal); its text goes to the
service inside the move, and the engine tells it in public events, so ``/game history`` reads as
the tale of the covenant. Every component carries the table id and the fingerprint of what the
seat was offered (``fingerprint``) in its custom id: it survives a restart, another seat's answer
to a decision taken at once leaves it valid, and a click on a changed offer is refused under the
table's lock (the current panel comes instead).
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
from service import Choice, SeatView, TableError, TableRecord, TableService, offered_token
from service.reading import matches

if TYPE_CHECKING:
    from rules.quadrivium.record import QuadriviumRecord, TraitRecord

KIND = "quadrivium"
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
CLOSING = frozenset({"pass", "sit_out", "done", "allow", "stand", "settle", "rest", "refill", "take_offer",
                     "accept"})
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
seasons that pass. Your controls: `/quadrivium panel` (or `/quad panel`; only you see it).
The covenant: `/quadrivium sheet`."""


# ---------------------------------------------------------------------------- the panel


@dataclass(frozen=True)
class Panel:
    """What one seat may see and do now (from ``seat_view``: its own view and legal moves)."""

    table: TableRecord
    version: int
    seat: int
    view: dict[str, Any]
    """The seat's JSON view: only handed to the seat's drawing and its alt text, never read here."""
    typed: QuadriviumRecord
    moves: tuple[Choice, ...]
    asks: tuple[str, ...]
    waiting: str = ""
    """Whom else the game waits on, players named (``SeatView.waiting``)."""


async def read_panel(svc: TableService, got: SeatView) -> Panel:
    """Build the user's panel data at a Quadrivium table."""
    return _panel(got)


def _panel(got: SeatView) -> Panel:
    asks = tuple(p.text for p in got.asked)
    return Panel(got.table, got.version, got.seat, got.view, got.typed, tuple(got.moves), asks, got.waiting)


def show(card: str) -> str:
    """Return a card for people (the view holds codes such as ``7C`` or ``7C/H``)."""
    base, _, changed = card.partition("/")
    if base in ("BJ", "RJ"):
        return "Red Joker" if base == "RJ" else "Black Joker"
    text = base[:-1] + SUITS[base[-1]]
    return text + (f"→{SUITS[changed]}" if changed else "")


def _res(trait: TraitRecord) -> str:
    return f"{trait.fresh}/{trait.value}" + (f" (Harm {trait.harm})" if trait.harm else "")


def panel_text(title: str, panel: Panel, note: str = "") -> str:
    """Return the panel's words: your mage, your hand, what you must decide."""
    view = panel.typed
    me = view.mages[panel.seat]
    lines = [note] if note else []
    lines.append(f"**{title}** — you are **{me.name or 'a mage still unnamed'}** · "
                 f"{me.votes} Council Votes · {view.season} of year {view.year}")
    lines.append(" · ".join(f"{t.name.title()} {_res(t)} (magic {t.usable_magic})" for t in me.traits))
    if view.hand:
        lines.append("Your hand (secret): " + " ".join(show(c) for c in view.hand))
    if view.placed:
        lines.append(f"Face down in front of you: {show(view.placed)}")
    if view.over:
        lines.append(f"The tale has ended: {view.ended}.")
    elif panel.moves:
        lines.append("**Your decision:** " + (" ".join(panel.asks) or "choose below."))
    else:
        lines.append(f"Nothing to decide now. {panel.waiting or 'The table waits on someone else.'}")
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


def fingerprint(panel: Panel) -> str:
    """Return a short digest of what the seat is offered: its own situation, the step, its moves.

    The others' answers to a decision taken at once (their mages and the covenant's name in
    creation, votes on the seasons, refills, face-down duel and tie-break cards, reactions) are
    left out, so one seat's answer does not stale another's panel; the seat's own move, or any
    change to what it is offered, does.
    """
    offered = [[c.value, c.label] for c in panel.moves]
    return panels.digest([*panel.typed.situation, offered, list(panel.asks)])


def seat_stamp(now: SeatView) -> str:
    """Return the fingerprint of a seat view: what the service checks a panel's click against."""
    return fingerprint(_panel(now))


SELECT_ROWS = 4
"""Rows of selects on a panel (Discord allows 5 rows; the last holds buttons)."""
BUTTON_ROW = 5
"""Buttons on the panel's last row."""


def components(panel: Panel) -> discord.ui.View | None:
    """Return the panel's controls: a button per move, or selects (and number forms) when there are many.

    Every move stays reachable whatever the count: a worded move chosen in a select opens its form,
    and an action whose choices are only numbers, too many to list, opens a form for the number.
    """
    if not panel.moves:
        return None
    ui = discord.ui.View(timeout=None)
    tid, fp = panel.table.id, fingerprint(panel)
    ordered = sorted(panel.moves, key=_closing)
    if len(ordered) <= BUTTONS_MAX:
        for choice in ordered:
            ui.add_item(_button(tid, fp, choice))
        return ui
    closing = [c for c in ordered if _closing(c)]
    listed, numbered = _fit([c for c in ordered if not _closing(c)], SELECT_ROWS, BUTTON_ROW - len(closing))
    for n in range(0, len(listed), SELECT_MAX):
        chunk = listed[n:n + SELECT_MAX]
        ui.add_item(MoveSelect(tid, fp, n // SELECT_MAX, chunk, _placeholder(chunk, panel.asks)))
    row = [NumberButton(tid, fp, group[0].value, clip(_stem(group[0]), LABEL_MAX - 14) + "… (a number)")
           for group in numbered] + [_button(tid, fp, c) for c in closing]
    for button in row[:BUTTON_ROW]:
        button.row = SELECT_ROWS
        ui.add_item(button)
    return ui


def _closing(choice: Choice) -> bool:
    return _action(choice) in CLOSING or _action(choice) in DANGER


def _fit(main: list[Choice], selects: int, buttons: int) -> tuple[list[Choice], list[list[Choice]]]:
    """Split the moves into those listed in selects and groups asked as a number, so all fit.

    The largest group of one action that differs only in whole numbers becomes a form for the
    number until the rest fits the selects (the engine still checks the number given).
    """
    listed: list[Choice] = list(main)
    numbered: list[list[Choice]] = []
    while len(listed) > selects * SELECT_MAX and len(numbered) < buttons:
        groups = _number_groups(listed)
        if not groups:
            break
        biggest = max(groups, key=len)
        numbered.append(biggest)
        listed = [c for c in listed if c not in biggest]
    return listed[: selects * SELECT_MAX], numbered


def _number_groups(choices: list[Choice]) -> list[list[Choice]]:
    """Group the choices by action and words; keep the groups that differ only in whole numbers."""
    groups: dict[str, list[Choice]] = {}
    for c in choices:
        move = _move(c)
        fixed = {k: v for k, v in move.params.items() if not _whole(v)}
        groups.setdefault(Move.of(move.action, **fixed).code(), []).append(c)
    return [g for g in groups.values() if len(g) > 1 and _numbers(_move(g[0]))]


def _move(choice: Choice) -> Move:
    return choice.move if choice.move is not None else Move.parse(choice.value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _numbers(move: Move) -> list[str]:
    """Return the names of a move's whole-number arguments."""
    return [k for k, v in move.params.items() if _whole(v)]


def _stem(choice: Choice) -> str:
    """Return a move's label without its numbers ("Bid 3" → "Bid")."""
    return re.sub(r"\s+", " ", re.sub(r"\d+", "", choice.label)).strip(" ,:") or _action(choice)


def _placeholder(chunk: list[Choice], asks: tuple[str, ...]) -> str:
    worded = any(_action(c) in TEXT_FORMS for c in chunk)
    return (" ".join(asks) or "Choose…") + (" (a form opens for your words)" if worded else "")


def _button(table_id: int, stamp: str, choice: Choice) -> discord.ui.Item[Any]:
    action = _action(choice)
    label = clip(choice.label, LABEL_MAX - 1)
    if action in TEXT_FORMS:
        return FormButton(table_id, stamp, choice.value, label + "…", _style(action))
    return MoveButton(table_id, stamp, choice.value, label, _style(action))


GAME = panels.PanelGame(KIND, "Quadrivium", read_panel, panel_text, components, sheet=True, stamp=seat_stamp)
seat_panel = GAME.seat_panel
panel_message = GAME.panel_message
private_panel = GAME.private_panel
show_panel = GAME.show_panel


# ---------------------------------------------------------------------------- acting


async def play(interaction: discord.Interaction, table_id: int, move: str | Move, stamp: str) -> None:
    """Play a move from a panel while the seat is offered what the panel showed (its fingerprint).

    The kit posts the board, sends the DMs and answers with the next panel; a panel the game has
    changed (the seat moved, or what it is offered changed) is answered with the current one.
    """
    await GAME.act(interaction, table_id, stamp, move, update=False)


def worded_move(code: str, words: dict[str, str]) -> Move:
    """Return the move of a form: its code (as offered) with the words written in the form."""
    base = Move.parse(code)
    if base.action not in TEXT_FORMS:
        raise MalformedMove("That control does not take words.")
    texts = {k: v for k, v in words.items() if v and v.strip()}
    return Move.of(base.action, **base.params, **texts)


class WordsForm(discord.ui.Modal):
    """The form of a worded move (a Discord modal); submitting plays the move with its words."""

    def __init__(self, table_id: int, stamp: str, code: str) -> None:
        action = code.split(" ", 1)[0]
        title, fields = TEXT_FORMS[action]
        super().__init__(title=title, custom_id=f"qd:f:{table_id}:{stamp}")
        self.table_id, self.stamp, self.code = table_id, stamp, code
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
        await play(interaction, self.table_id, move, self.stamp)


NUMBER_WORDS = {"n": "How many", "raise_by": "Raise the cost by", "bid": "Council Votes", "idx": "Which one"}
"""How a number form names a move's whole-number arguments."""


def _number_word(arg: str) -> str:
    return NUMBER_WORDS.get(arg) or arg.replace("_", " ").capitalize()


def number_move(code: str, typed: dict[str, str]) -> Move:
    """Return the move of a number form: the offered move's words with the numbers typed in."""
    base = Move.parse(code)
    numbers = {}
    for arg in _numbers(base):
        text = typed.get(arg, "").strip()
        if not text.isdigit() or len(text) > 6:
            raise MalformedMove(f"{_number_word(arg)}: write a whole number, such as 3.")
        numbers[arg] = int(text)
    return Move.of(base.action, **{**base.params, **numbers})


class NumberForm(discord.ui.Modal):
    """The form of a move whose choices are numbers too many to list; the engine checks the number."""

    def __init__(self, table_id: int, stamp: str, code: str, ranges: dict[str, tuple[int, int]]) -> None:
        action = Move.parse(code).action.replace("_", " ")
        super().__init__(title=clip(action.capitalize(), 45), custom_id=f"qd:nf:{table_id}:{stamp}")
        self.table_id, self.stamp, self.code = table_id, stamp, code
        self.inputs: dict[str, discord.ui.TextInput[Any]] = {}
        for arg, (low, high) in ranges.items():
            box: discord.ui.TextInput[Any] = discord.ui.TextInput(
                label=clip(f"{_number_word(arg)} ({low} to {high})", 45), custom_id=f"qd:nw:{arg}",
                max_length=6, placeholder=str(low),
            )
            self.inputs[arg] = box
            self.add_item(box)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Play the move with the numbers typed."""
        try:
            move = number_move(self.code, {k: box.value for k, box in self.inputs.items()})
        except MalformedMove as exc:
            await kit.answer(interaction, exc.sentence)
            return
        await play(interaction, self.table_id, move, self.stamp)


def number_ranges(code: str, moves: tuple[Choice, ...]) -> dict[str, tuple[int, int]]:
    """Return, for each number of an offered move, the lowest and highest offered with its words."""
    base = Move.parse(code)
    fixed = {k: v for k, v in base.params.items() if not _whole(v)}
    same = [m for m in (_move(c) for c in moves)
            if m.action == base.action and {k: v for k, v in m.params.items() if not _whole(v)} == fixed]
    return {arg: (min(m.get(arg) for m in same), max(m.get(arg) for m in same)) for arg in _numbers(base)}


async def typed_form(
    client: discord.Client, table: TableRecord, user_id: int, typed: str
) -> discord.ui.Modal | None:
    """Return the form of an offered worded move typed in ``/game play`` without its words, else None."""
    now = await kit.service_of(client).reads.seat_view(table.id, user_id)
    choice = _typed_choice(now, typed.strip())
    if choice is None or _action(choice) not in TEXT_FORMS:
        return None
    return WordsForm(table.id, seat_stamp(now), _move(choice).code())


def _typed_choice(now: SeatView, typed: str) -> Choice | None:
    """Return the offered choice the typed text names exactly (an autocompleted token, a code, a label)."""
    token = offered_token(typed)
    if token is not None:
        version, index = token
        return now.moves[index] if version == now.version and index < len(now.moves) else None
    wanted = typed.casefold()
    named = [c for c in now.moves if typed in (c.value, _move(c).code()) or wanted == c.label.casefold()]
    if named:
        return named[0]
    try:
        parsed = Move.parse(typed)
    except MalformedMove:
        parsed = None
    # A code with its arguments in another order names the same move; words typed in it make it
    # another move (played as typed), so only a move without its words opens the form.
    same = [c for c in now.moves if parsed is not None and _move(c) == parsed]
    if same:
        return same[0]
    # Typed loosely ("conditions craft insight"): the one move the service would read it as.
    found = matches(typed, [c.label for c in now.moves])
    return now.moves[found[0]] if len(found) == 1 else None


# ---------------------------------------------------------------------------- restart-proof components


class MoveButton(kit.StampedMoveButton, prefix="qd:m", stamp=kit.FINGERPRINT):
    """A panel button that plays one legal move while the seat is offered what the panel showed."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Play the move."""
        await play(interaction, self.table_id, self.value, self.stamp)


class FormButton(kit.StampedMoveButton, prefix="qd:t", stamp=kit.FINGERPRINT):
    """A panel button that opens the form of a worded move (intent, conditions, names, finale)."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the form; the fingerprint is checked again when it is submitted."""
        if self.value.split(" ", 1)[0] not in TEXT_FORMS:
            await kit.answer(interaction, "That control does not take words.")
            return
        await interaction.response.send_modal(WordsForm(self.table_id, self.stamp, self.value))


class NumberButton(kit.StampedMoveButton, prefix="qd:n", stamp=kit.FINGERPRINT):
    """A panel button that opens a form for a number, when an action's numbers are too many to list."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Open the number form with the ranges offered now (a changed panel is replaced instead)."""
        svc = kit.service_of(interaction.client)
        try:
            now = await svc.reads.seat_view(self.table_id, interaction.user.id)
            ranges = number_ranges(self.value, now.moves) if GAME.stamp_here(now) == self.stamp else {}
        except (TableError, MalformedMove):
            ranges = {}
        if not ranges:
            await play(interaction, self.table_id, self.value, self.stamp)  # refused and replaced
            return
        await interaction.response.send_modal(NumberForm(self.table_id, self.stamp, self.value, ranges))


class MoveSelect(kit.StampedMoveSelect, prefix="qd:s", stamp=kit.FINGERPRINT, placeholder="Choose…"):
    """A select of legal moves (when there are too many for buttons), valid while the panel keeps
    its fingerprint; a worded move opens its form."""

    async def play(self, interaction: discord.Interaction, value: str) -> None:
        """Play the chosen move (or open its form)."""
        if value.split(" ", 1)[0] in TEXT_FORMS:
            await interaction.response.send_modal(WordsForm(self.table_id, self.stamp, value))
            return
        await play(interaction, self.table_id, value, self.stamp)


class PanelButton(kit.TableButton, prefix="qd:p", label="Open my Quadrivium panel",
                  style=discord.ButtonStyle.primary):
    """Under a plain private note: opens the seat's panel."""

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the clicker their panel."""
        await show_panel(interaction, self.table_id)


DYNAMIC_ITEMS = (MoveButton, FormButton, NumberButton, MoveSelect, PanelButton)


# ---------------------------------------------------------------------------- the commands


async def show_sheet(interaction: discord.Interaction) -> None:
    """Show the covenant sheet the service drew (only the asker sees it)."""

    async def work() -> None:
        table = await kit.table_here(interaction)
        svc = kit.service_of(interaction.client)
        public = await GAME.public_view(svc, table.id)
        image = await svc.reads.public_drawing(public, sheet="covenant")
        alt = svc.composer.describe(table.kind, public.view)
        files = [kit.image_file(image, f"quadrivium-{table.id}-covenant.png", alt)] if image else []
        await kit.answer(interaction, f"The covenant, at version {public.version}.", files=files)

    await kit.guarded(interaction, work)


class QuadriviumCog(commands.Cog):
    """The /quadrivium commands (also under /quad): your panel, the covenant sheet, and how to play."""

    quadrivium = app_commands.Group(
        name="quadrivium", description="Quadrivium: mages in council and conflict", guild_only=True
    )
    # The short name players already type; Discord has no aliases, so it is a second group whose
    # commands call the same bodies.
    quad = app_commands.Group(
        name="quad",
        description="Quadrivium (short for /quadrivium): mages in council and conflict",
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @quadrivium.command(name="panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        """Show your hand and controls for this thread's Quadrivium tale (only you see it)."""
        await show_panel(interaction, None)

    @quadrivium.command(name="sheet")
    async def sheet(self, interaction: discord.Interaction) -> None:
        """Show the covenant sheet: resources, Harm, the mages' Traits, Taint, Corruption, votes."""
        await show_sheet(interaction)

    @quadrivium.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """How a Quadrivium tale goes here, and where your controls are."""
        await kit.answer(interaction, HELP)

    @quad.command(name="panel")
    async def quad_panel(self, interaction: discord.Interaction) -> None:
        """Show your hand and controls for this thread's Quadrivium tale (only you see it)."""
        await show_panel(interaction, None)

    @quad.command(name="sheet")
    async def quad_sheet(self, interaction: discord.Interaction) -> None:
        """Show the covenant sheet: resources, Harm, the mages' Traits, Taint, Corruption, votes."""
        await show_sheet(interaction)

    @quad.command(name="help")
    async def quad_help(self, interaction: discord.Interaction) -> None:
        """How a Quadrivium tale goes here, and where your controls are."""
        await kit.answer(interaction, HELP)


async def setup(bot: commands.Bot) -> None:
    """Add /quadrivium, /quad and the restart-proof components; the panel is the private note of a seat."""
    # A plain note carries the panel button instead of a move select (forms need the panel).
    await GAME.install(bot, QuadriviumCog(bot), DYNAMIC_ITEMS, PanelButton)
    kit.register_typed_form(KIND, typed_form, TEXT_FORMS)
