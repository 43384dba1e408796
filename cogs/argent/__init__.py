"""/argent: Argent on Discord. Commands with autocomplete for every action, buttons for every decision.

Moves reach Discord on the kit's one delivery path: one thread message per turn (the board image,
who must act, and buttons for it: open your panel, pass a reaction, see your office), edited in
place while the same player decides on. A player's panel (ephemeral, and in their DMs) offers
exactly their legal moves: on a turn a select per kind of action (place, cast, fast action, vault
and supporter cards) with the Bell Tower and "end turn" as buttons; for any other decision one
button per choice (selects when there are many). Everything is built from the seat's own view and
legal moves, never from raw state, and no option label ever reaches a public message (a decision
may be secret, such as the cards a Mystic Lantern shows).

Reactions: the engine asks only players holding a usable reaction, one at a time in turn order;
each is pinged with React/Pass. A player who chose "always pass" (``/argent reactions``) is passed
for by the service at once. An IP gain a player could decline is taken for them unless they chose
to be asked (``/argent ip``). The end of a round posts what each room gave whom (from the events'
data); the end of the game reveals the voters one by one with who won each and why, then the
standings.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import kit
from cogs.argent.board import (  # re-exported: tests read the thread's words through the cog
    TIEBREAK_WORDS,
    board_args,
    board_lines,
    post_reveal,
    post_round_summary,
    reveal_lines,
    round_summary,
)
from cogs.argent.panel import (  # the components: re-exported (restart-proof, tests build them)
    CLOSING,
    COMMAND_FILTERS,
    DYNAMIC_ITEMS,
    KIND,
    NOTHING,
    REACT_ASK,
    REACT_PASS,
    REACT_PREF,
    MoveButton,
    MoveSelect,
    OfficeButton,
    PanelButton,
    enrich,
    group_of,
    hint,
    move_of,
    panel_message,
    panel_view,
    seat_now,
    show_panel,
    table_now,
    voters_text,
)
from service import (
    ASK_PREF,
    Board,
    Reply,
    TableError,
    TableRecord,
    offered_token,
    reading,
)

log = logging.getLogger("conclave.cogs.argent")

IP_TAKE, IP_ASK = "take", "ask"
"""``/argent ip`` modes: take an IP gain that could be declined (the default), or ask first."""

__all__ = [
    "DYNAMIC_ITEMS",
    "TIEBREAK_WORDS",
    "ArgentCog",
    "MoveButton",
    "MoveSelect",
    "OfficeButton",
    "PanelButton",
    "board_lines",
    "enrich",
    "group_of",
    "hint",
    "panel_view",
    "reveal_lines",
    "round_summary",
    "setup",
]

HELP = """**Argent: The Consortium** — how to play here
On your turn: at most one **fast action**, then one **action**: place a mage (`/argent place`), cast a
spell (`/argent cast`), use a vault card (`/argent vault`) or a supporter (`/argent supporter`), or take a
**Bell Tower** offering (`/argent bell`, which ends your turn; the last one ends the round).
Every other decision (the slot, the reward, the voter to mark, a card to draft, research) is a button
in your panel: the **Take your turn… / Decide…** button on the board, `/argent panel`, or your DMs.
`/argent decide` lists every choice you have now. `/argent office` shows your office; `/argent voters`
the voters you have seen and where you stand. `/argent reactions mode:pass` passes every reaction
window for you until you set `mode:ask` again. An IP gain you could decline is taken for you;
`/argent ip mode:ask` asks you first instead. Look a card up with `/game card`."""


# ---------------------------------------------------------------------------- the commands


def offers_for(command: str) -> kit.Autocomplete:
    """Return the autocomplete of one /argent command: the user's moves now that fit it."""
    return kit.stamped_offers(seat_now, COMMAND_FILTERS[command])


class ArgentCog(commands.Cog):
    """The /argent commands: every action with autocomplete, your panel, office and voters."""

    argent = app_commands.Group(name="argent", description="Argent: The Consortium", guild_only=True)

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    async def _play(self, interaction: discord.Interaction, command: str, value: str) -> None:
        """Check the chosen move fits the command (a cast is not a placement), then play it."""

        async def work() -> None:
            table = await kit.table_here(interaction)
            now = await seat_now(kit.service_of(self.bot), table.id, interaction.user.id)
            if not now.moves:
                # Out of turn: the service refuses it as it refuses /game play, naming whom it waits for.
                await kit.play_now(interaction, table.id, value, None)
                return
            token = offered_token(value)
            if token is not None:
                # An autocompleted value: the service checks its version under the table's lock.
                stamp, index = token
                offer = now.moves[index] if stamp == now.version and index < len(now.moves) else None
                played, version = value.strip(), None
            else:
                wanted = value.strip().casefold()
                offer = next(
                    (
                        o
                        for o in now.moves
                        if wanted in (o.value.casefold(), o.label.casefold(), move_of(o).code().casefold())
                    ),
                    None,
                )
                # Typed text is read once, against the state it was typed at.
                played, version = (offer.value, now.version) if offer else (value, None)
            fitting = [o for o in now.moves if COMMAND_FILTERS[command](o, now)]
            if offer is None and not fitting:
                raise TableError(NOTHING[command])
            if offer is None and token is None and "=" not in value:
                # "Guilds" means "Place a mage in Guilds": loose words against this command's moves.
                try:
                    offer = fitting[reading.pick(value, [o.label for o in fitting])]
                except reading.ReadingError as exc:
                    raise TableError(exc.sentence) from None
                played, version = offer.value, now.version
            if offer is not None and not COMMAND_FILTERS[command](offer, now):
                raise TableError(
                    f"That is not a `/argent {command}` move: pick one from the list, or use /argent decide."
                )
            await kit.play_now(interaction, table.id, played, version)

        await kit.guarded(interaction, work)

    @argent.command(name="place")
    @app_commands.describe(where="The room (then the slot) for your mage")
    @app_commands.autocomplete(where=offers_for("place"))
    async def place(self, interaction: discord.Interaction, where: str) -> None:
        """Place a mage: pick the room, then the slot in your panel."""
        await self._play(interaction, "place", where)

    @argent.command(name="cast")
    @app_commands.describe(spell="The spell and level to cast")
    @app_commands.autocomplete(spell=offers_for("cast"))
    async def cast(self, interaction: discord.Interaction, spell: str) -> None:
        """Cast a spell (its targets follow in your panel)."""
        await self._play(interaction, "cast", spell)

    @argent.command(name="vault")
    @app_commands.describe(card="The vault card")
    @app_commands.autocomplete(card=offers_for("vault"))
    async def vault(self, interaction: discord.Interaction, card: str) -> None:
        """Use a vault card."""
        await self._play(interaction, "vault", card)

    @argent.command(name="supporter")
    @app_commands.describe(card="The supporter")
    @app_commands.autocomplete(card=offers_for("supporter"))
    async def supporter(self, interaction: discord.Interaction, card: str) -> None:
        """Use a supporter."""
        await self._play(interaction, "supporter", card)

    @argent.command(name="bell")
    @app_commands.describe(offering="The Bell Tower offering (ends your turn)")
    @app_commands.autocomplete(offering=offers_for("bell"))
    async def bell(self, interaction: discord.Interaction, offering: str) -> None:
        """Take a Bell Tower offering: your turn ends, and the last one ends the round."""
        await self._play(interaction, "bell", offering)

    @argent.command(name="research")
    @app_commands.describe(choice="What to learn or upgrade")
    @app_commands.autocomplete(choice=offers_for("research"))
    async def research(self, interaction: discord.Interaction, choice: str) -> None:
        """Spend research: learn a spell (1 INT) or upgrade one (1 WIS)."""
        await self._play(interaction, "research", choice)

    @argent.command(name="fast")
    @app_commands.describe(action="Your fast action (at most one a turn, before your action)")
    @app_commands.autocomplete(action=offers_for("fast"))
    async def fast(self, interaction: discord.Interaction, action: str) -> None:
        """Take a fast action."""
        await self._play(interaction, "fast", action)

    @argent.command(name="decide")
    @app_commands.describe(choice="Any of your choices now")
    @app_commands.autocomplete(choice=offers_for("decide"))
    async def decide(self, interaction: discord.Interaction, choice: str) -> None:
        """Answer the decision the game waits on (or take any action)."""
        await self._play(interaction, "decide", choice)

    @argent.command(name="pass")
    async def pass_(self, interaction: discord.Interaction) -> None:
        """Pass: decline a reaction or an optional choice, or end your turn when you may."""

        async def work() -> None:
            svc = kit.service_of(self.bot)
            table = await kit.table_here(interaction)
            now = await seat_now(svc, table.id, interaction.user.id)
            closing = [o for o in now.moves if move_of(o).action in CLOSING]
            if not closing:
                raise TableError("There is nothing to pass or end right now.")
            await kit.play_now(interaction, table.id, closing[0].value, now.version)

        await kit.guarded(interaction, work)

    @argent.command(name="panel")
    async def panel(self, interaction: discord.Interaction) -> None:
        """Show your choices now as buttons (only you see it)."""
        await self._show(interaction, office=False)

    @argent.command(name="office")
    async def office(self, interaction: discord.Interaction) -> None:
        """Show your office: spells, cards, discard, voters seen (only you see it)."""
        await self._show(interaction, office=True)

    async def _show(self, interaction: discord.Interaction, *, office: bool) -> None:
        # Acknowledged before the table is even looked up (Discord allows 3 seconds).
        await show_panel(interaction, None, office=office)

    @argent.command(name="voters")
    async def voters(self, interaction: discord.Interaction) -> None:
        """List every voter you have seen and where you stand on each (only you see it)."""

        async def work() -> None:
            table = await kit.table_here(interaction)
            now = await seat_now(kit.service_of(self.bot), table.id, interaction.user.id)
            text = voters_text(now.typed)
            await kit.answer(interaction, text or "You have not seen any voter yet.")

        await kit.guarded(interaction, work)

    @argent.command(name="reactions")
    @app_commands.describe(mode="ask: ping me with React/Pass; pass: always pass for me")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="ask me each time", value=REACT_ASK),
            app_commands.Choice(name="always pass for me", value=REACT_PASS),
        ]
    )
    async def reactions(self, interaction: discord.Interaction, mode: str) -> None:
        """Choose whether reaction windows ask you or pass for you at this table."""

        said = (
            "I will pass every reaction window for you here; `/argent reactions mode:ask` to react again."
            if mode == REACT_PASS
            else "You will be asked in every reaction window you can react in."
        )
        # Passing: the service passes a window this player is being asked in right now.
        await self._seat_setting(interaction, REACT_PREF, mode, said, play_now=mode == REACT_PASS)

    @argent.command(name="ip")
    @app_commands.describe(mode="take: IP you could decline is taken for you; ask: ask me each time")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="take it for me (the default)", value=IP_TAKE),
            app_commands.Choice(name="ask me each time", value=IP_ASK),
        ]
    )
    async def ip(self, interaction: discord.Interaction, mode: str) -> None:
        """Choose whether an IP gain you could decline asks you first or is taken for you here."""

        said = (
            "You will be asked before each IP gain you could decline (more IP can lose you the "
            "Second-most Influence voter); `/argent ip mode:take` to stop."
            if mode == IP_ASK
            else "I will take every IP gain for you here; `/argent ip mode:ask` to be asked."
        )
        # Taking: the service takes an IP gain this player is being asked about right now.
        value = "on" if mode == IP_ASK else None
        await self._seat_setting(interaction, ASK_PREF, value, said, play_now=mode == IP_TAKE)

    async def _seat_setting(
        self, interaction: discord.Interaction, key: str, value: str | None, said: str, *, play_now: bool
    ) -> None:
        """Set one of the player's seat settings at this table, answer, and play what now plays itself."""

        async def work() -> None:
            svc = kit.service_of(self.bot)
            table = await kit.table_here(interaction)
            await seat_now(svc, table.id, interaction.user.id)  # refuses non-players and the lobby
            await svc.reads.set_seat_pref(table.id, interaction.user.id, key, value)
            await kit.answer(interaction, said)
            if play_now:
                follow = await svc.auto_play(table.id)
                if follow is not None:
                    await kit.deliver(self.bot, follow)

        await kit.guarded(interaction, work)

    @argent.command(name="help")
    async def help(self, interaction: discord.Interaction) -> None:
        """How a turn of Argent goes here, and where your controls are."""
        await kit.answer(interaction, HELP)


# ---------------------------------------------------------------------------- hooks for /game


async def private_panel(client: discord.Client, table: TableRecord, note: Any) -> dict[str, Any]:
    """Build a seat's DM, "My private view" or answer to its click: its events, office, panel."""
    svc = kit.service_of(client)
    now = await seat_now(svc, table.id, note.user_id)
    lines = enrich(note.events, now.typed)
    title = note.title or svc.thread_name(table)
    image = await svc.reads.image(note)  # the seat's office, drawn once for this version
    return await panel_message(now, "\n".join([title, *lines]), image, note.alt)


async def board_panel(client: discord.Client, board: Board) -> dict[str, Any]:
    """Build the thread message of a board: Argent's words and buttons, from the board's data."""
    await kit.service_of(client).reads.image(board)  # drawn off the event loop, when shown
    return board_args(board)


async def after_deliver(client: discord.Client, reply: Reply) -> None:
    """After a move was delivered: at the end, the voter reveal."""
    svc = kit.service_of(client)
    if reply.board is None or not (reply.board.in_play or reply.board.finished):
        return  # a lobby line or an abandon vote
    if reply.table.status == "abandoned":
        return
    try:
        now = await table_now(svc, reply.table.id)
    except TableError:
        return
    await post_reveal(client, reply, now)


def _register_kit_hooks() -> None:
    """Plug into /game's delivery: Argent's DMs and private view, its boards, its after-delivery work."""
    kit.register_private_panel(KIND, private_panel)
    kit.register_board_panel(KIND, board_panel)
    kit.register_after_deliver(KIND, after_deliver)
    kit.register_before_board(KIND, post_round_summary)


async def setup(bot: commands.Bot) -> None:
    """Add /argent and its restart-proof components."""
    await bot.add_cog(ArgentCog(bot))
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    _register_kit_hooks()
