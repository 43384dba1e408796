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
for by the service at once. The end of a round posts what each room gave whom (from the events'
data); the end of the game reveals the voters one by one with who won each and why, then the
standings.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import kit
from render import argent as drawing
from rules.contract import Event, Move, Prompt, PromptKind
from service import (
    REACTIONS_PREF,
    Board,
    Choice,
    PublicView,
    Reply,
    SeatView,
    TableError,
    TableRecord,
    TableService,
    offered_token,
    offered_value,
    reading,
)

log = logging.getLogger("conclave.cogs.argent")

KIND = "argent"
ID_LIMIT = 100
BUTTONS_MAX = 20
SELECT_MAX = 25
CLOSING = frozenset({"pass", "done"})
REACT_PREF = REACTIONS_PREF
"""The seat setting that keeps a player's reaction mode at a table (the service reads it)."""
REACT_ASK, REACT_PASS = "ask", "pass"
RECENT_MOVES = 400
"""How many moves back the round summary looks for the last resolution (a round is far fewer)."""

HELP = """**Argent: The Consortium** — how to play here
On your turn: at most one **fast action**, then one **action**: place a mage (`/argent place`), cast a
spell (`/argent cast`), use a vault card (`/argent vault`) or a supporter (`/argent supporter`), or take a
**Bell Tower** offering (`/argent bell`, which ends your turn; the last one ends the round).
Every other decision (the slot, the reward, the voter to mark, a card to draft, research) is a button
in your panel: the **Take your turn… / Decide…** button on the board, `/argent panel`, or your DMs.
`/argent decide` lists every choice you have now. `/argent office` shows your office; `/argent voters`
the voters you have seen and where you stand. `/argent reactions mode:pass` passes every reaction
window for you until you set `mode:ask` again. Look a card up with `/game card`."""


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
    return await svc.seat_view(table_id, user_id)


async def table_now(svc: TableService, table_id: int) -> PublicView:
    """Return the table's public view, pending prompts and seats."""
    _need_argent(await svc.table(table_id))
    return await svc.public_view(table_id)


def asked(now: SeatView) -> Prompt | None:
    """Return the prompt this seat must answer now, if any."""
    return now.asked[0] if now.asked else None


def move_of(offer: Choice) -> Move:
    """Return the move a choice plays (seat_view always carries it)."""
    if offer.move is None:
        raise ValueError("a choice from seat_view carries its move")
    return offer.move


# ---------------------------------------------------------------------------- grouping moves


def group_of(offer: Choice) -> str:
    """Return the kind of turn action a move is: place, cast, fast, cards, bell, done, or other."""
    if offer.label.startswith("Fast action"):
        return "fast"
    return {
        "place": "place",
        "cast": "cast",
        "use": "cards",
        "support": "cards",
        "bell": "bell",
        "done": "done",
    }.get(move_of(offer).action, "other")


COMMAND_FILTERS: dict[str, Callable[[Choice], bool]] = {
    "place": lambda o: move_of(o).action == "place",
    "cast": lambda o: move_of(o).action == "cast",
    "vault": lambda o: move_of(o).action in ("use", "buy"),
    "supporter": lambda o: move_of(o).action == "support",
    "bell": lambda o: move_of(o).action == "bell",
    "research": lambda o: move_of(o).action == "research",
    "fast": lambda o: o.label.startswith("Fast action"),
    "decide": lambda o: True,
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


def hint(offer: Choice, view: dict[str, Any]) -> str | None:
    """Return a select option's second line from the seat's view: which book and level a cast spell is."""
    move = move_of(offer)
    if move.action != "cast" or not move.get("spell"):
        return None
    office = view["offices"][view["you"]]
    spell = move.get("spell")
    if office.get("starter") and office["starter"]["id"] == spell:
        return "your starter spell"
    book = next((s["name"] for s in office["spells"] if s["id"] == spell), None)
    return None if book is None else _clip(f"{book}, level {move.get('level')}", 100)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _short(now: SeatView, offer: Choice, prefix: str) -> str:
    """Return the offer's value, or its index token when the custom id would be too long."""
    if len(prefix) + len(offer.value) <= ID_LIMIT:
        return offer.value
    return f"#{now.version}.{now.moves.index(offer)}"


# ---------------------------------------------------------------------------- the panel


def panel_text(now: SeatView, note: str = "") -> str:
    """Return the panel's words: who you are, your resources, and what you must decide."""
    view, seat = now.view, now.seat
    office = view["offices"][seat]
    lines = [note] if note else []
    lines.append(
        f"You are **{drawing.seat_mark(seat)}**, {office['candidate_name'] or 'no candidate yet'} · "
        f"Round {view['round']}/{view['rounds']}."
    )
    lines.append(
        f"IP {office['ip']} · Gold {office['gold']} · Mana {office['mana']} · INT {office['int']} · "
        f"WIS {office['wis']} · Merit {office['merit_free']}/{office['merit']}"
    )
    prompt = asked(now)
    if view.get("outcome"):
        lines.append("The game is over.")
    elif prompt is not None and now.moves:
        what = "your turn" if prompt.decision == "turn" else prompt.text.split(": ", 1)[-1].rstrip(".")
        lines.append(f"**Your decision:** {what}.")
        if prompt.decision == "turn":
            lines.append("At most one fast action, then one action; a Bell Tower offering ends your turn.")
        if prompt.kind is PromptKind.REACTION:
            lines.append("You may react to what just happened, or pass.")
    else:
        others = [p.text for p in now.prompts if p.seat != seat]
        lines.append("Nothing to decide now." + (" Waiting on " + " ".join(others) if others else ""))
    return _clip("\n".join(lines), kit.CONTENT_LIMIT)


def panel_view(now: SeatView) -> discord.ui.View | None:
    """Return the panel's components, or None when the seat has nothing to decide."""
    if not now.moves:
        return None
    ui = discord.ui.View(timeout=None)
    prompt = asked(now)
    if prompt is not None and prompt.decision == "turn":
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
        groups.setdefault(group_of(offer), []).append(offer)
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
    hints = [hint(o, now.view) for o in offers]
    return MoveSelect(now.table.id, now.version, n, offers, placeholder, hints=hints)


def _button(now: SeatView, offer: Choice, row: int) -> MoveButton:
    prefix = f"ag:m:{now.table.id}:{now.version}:"
    style = discord.ButtonStyle.secondary if move_of(offer).action in CLOSING else discord.ButtonStyle.primary
    if move_of(offer).action == "bell":
        style = discord.ButtonStyle.success
    button = MoveButton(now.table.id, now.version, _short(now, offer, prefix), _clip(offer.label, 80), style)
    button.item.row = row
    return button


async def panel_message(now: SeatView, note: str = "", image: bytes | None = None) -> dict[str, Any]:
    """Return the send() arguments of a panel: its words, optionally the office drawing, components."""
    message: dict[str, Any] = {"content": panel_text(now, note)}
    if image is not None:
        message["files"] = [discord.File(io.BytesIO(image), filename=f"argent-{now.table.id}-office.png")]
    ui = panel_view(now)
    if ui is not None:
        message["view"] = ui
    return message


async def office_message(svc: TableService, now: SeatView, user_id: int, note: str = "") -> dict[str, Any]:
    """Return the panel with the office drawing and the voters this seat has seen."""
    # The service draws the office (the seat's private sheet) off the event loop.
    image = (await svc.hand(now.table.id, user_id)).image
    message = await panel_message(now, note, image)
    seen = voters_text(now.view, now.seat)
    if seen:
        message["content"] = _clip(message["content"] + "\n" + seen, kit.CONTENT_LIMIT)
    return message


def voters_text(view: dict[str, Any], seat: int) -> str:
    """Return every voter this seat has seen (Marks and white voters) with where it stands now."""
    lines = []
    for v in view["voters"]:
        if v["name"] is None:
            continue
        marks = ", ".join(drawing.seat_tag(s) for s in v["marks"]) or "no Marks"
        lines.append(
            f"**{v['position'] + 1}. {v['name']}** — {drawing.criterion_words(v['criterion'])} ({marks}): "
            f"{drawing.standing_line(view, seat, v['criterion'])}"
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------------- the thread message


PUBLIC_ASK = {"turn": "Take your turn…", "draft": "Draft a mage…", "mark": "Place your Mark…"}


def board_components(board_table: int, version: int, prompts: tuple[Prompt, ...]) -> discord.ui.View:
    """Return the board's buttons: open your panel (named for the decision), Pass a reaction, My office."""
    ui = discord.ui.View(timeout=None)
    prompt = prompts[0] if prompts else None
    if prompt is not None:
        if prompt.kind is PromptKind.REACTION:
            ui.add_item(PanelButton(board_table, "React…"))
            ui.add_item(MoveButton(board_table, version, "pass", "Pass", discord.ButtonStyle.secondary))
        else:
            ui.add_item(PanelButton(board_table, PUBLIC_ASK.get(prompt.decision, "Decide…")))
    ui.add_item(OfficeButton(board_table))
    return ui


def legend(names: dict[int, str]) -> str:
    """Return who plays which colour-free mark, e.g. 'P1 (circle) alice'."""
    return "Players: " + ", ".join(f"{drawing.seat_mark(n)} {names[n]}" for n in sorted(names)) + "."


def board_lines(board: Board) -> list[str]:
    """Return a board message's lines from the board's data: events, who must act, the players."""
    lines = ["The game begins."] if board.opening else []
    # At the end the votes are revealed one by one below: the board must not spoil them.
    shown = [e for e in board.events if not (board.finished and e.data.get("what") == "votes")]
    lines += [board.named(e.text) for e in shown]
    if board.automatic:
        lines.append("Played automatically: " + "; ".join(board.named(a) for a in board.automatic) + ".")
    if board.result is not None:
        lines.append("The game is over: the voters are revealed below, one by one.")
    elif board.finished:
        lines.append("This table was abandoned.")
    else:
        lines.append(board.waiting_sentence())
        if board.times:
            lines.append(board.time_sentence())
    lines.append(legend(board.names))
    return lines


def board_args(board: Board) -> dict[str, Any]:
    """Return the send() arguments of a move's one message: events, who must act, image, buttons."""
    text = "\n".join(board_lines(board))
    if board.ping and not board.finished:
        text = " ".join(f"<@{u}>" for u in board.ping) + " — your decision.\n" + text
    files = []
    if board.image is not None:
        files.append(
            discord.File(io.BytesIO(board.image), filename=f"argent-{board.table_id}-v{board.version}.png")
        )
    message: dict[str, Any] = {
        "content": _clip(text, kit.CONTENT_LIMIT),
        "files": files,
        "allowed_mentions": discord.AllowedMentions(users=[discord.Object(u) for u in board.ping]),
    }
    if not board.finished:
        message["view"] = board_components(board.table_id, board.version, board.waiting)
    return message


# ---------------------------------------------------------------------------- round summary and reveal


RESOURCE_WORDS = {"gold": "Gold", "mana": "Mana", "ip": "IP", "int": "INT", "wis": "WIS"}


def _amounts(amounts: dict[str, Any]) -> str:
    return " and ".join(f"{n} {RESOURCE_WORDS.get(r, r)}" for r, n in amounts.items() if n)


def _what_got(data: dict[str, Any]) -> str:
    """Word what one event gave its seat, from the event's data (empty when it gave nothing)."""
    what = data.get("what")
    if what == "gain":
        return f"gains {_amounts(data.get('gains') or {})}"
    if what == "pay":
        return f"pays {_amounts(data.get('pays') or {})}"
    if what == "card":
        return f"gains {data.get('card')}"
    if what == "learn":
        return f"learns {data.get('card')}"
    if what == "mark":
        return f"places a Mark on voter {int(data.get('voter') or 0) + 1}"
    return ""


def round_summary(events: Sequence[Event], names: dict[int, str] | None = None) -> str | None:
    """Return what each room gave whom in the last resolution, from the events' data.

    Reads ``Event.data`` only (``what``: resolution, claim, consolation, gain, pay, card, learn,
    mark; ``seat``, ``room``), never the events' sentences. ``names`` (seat -> player) names each
    seat beside its tag, "bob (P2)", as the board does.
    """
    names = names or {}

    def who(seat: int) -> str:
        tag = drawing.seat_tag(seat)
        return f"{names[seat]} ({tag})" if seat in names else tag

    start = max((i for i, e in enumerate(events) if e.data.get("what") == "resolution"), default=None)
    if start is None:
        return None
    rooms: dict[str, list[list[str]]] = {}
    current: tuple[str, int] | None = None
    for event in events[start + 1 :]:
        data = event.data
        what = data.get("what")
        if what in ("round", "votes"):
            break
        seat = data.get("seat")
        if what == "consolation":
            rooms.setdefault(str(data["room"]), []).append([who(int(seat)), "1 IP"])
            current = None
        elif what == "claim":
            rooms.setdefault(str(data["room"]), []).append([who(int(seat))])
            current = (str(data["room"]), int(seat))
        elif current is not None and seat == current[1] and (got := _what_got(data)):
            rooms[current[0]][-1].append(got)
    if not rooms:
        return None
    def entry(parts: list[str]) -> str:
        return f"{parts[0]} {', '.join(parts[1:])}" if len(parts) > 1 else f"{parts[0]} claims"

    return "\n".join(f"**{room}**: " + "; ".join(entry(p) for p in got) for room, got in rooms.items())


TIEBREAK_WORDS = {
    "mark": "; the tie goes to the Mark",
    "ip": "; the tie goes to more IP",
    "stack": "; the tie goes to who reached that IP first",
}
"""How the reveal words each tie-break the engine reports in ``outcome["awarded_why"]``."""


def _winner_why(winner: int | None, why: dict[str, Any]) -> str:
    """Word the engine's reason for a voter's vote (``outcome["awarded_why"]``) as a sentence.

    Presentation only: the counts weighed, the Most winner a second-most voter passed over and
    the tie-break all come from the engine; nothing is recounted here.
    """
    counts = {int(seat): count for seat, count in why["counts"].items()}
    shown = ", ".join(f"{drawing.seat_tag(s)} {n}" for s, n in sorted(counts.items(), key=lambda kv: -kv[1]))
    first = why.get("first")
    passed_over = (
        "" if first is None else f"; {drawing.seat_tag(first)} is first on that count and cannot take second"
    )
    if winner is None:
        nobody = "nobody has any" if first is None else "nobody else has any"
        return nobody + (f" ({shown})" if shown else "") + passed_over
    text = f"with {counts[winner]} ({shown}){passed_over}"
    return text + TIEBREAK_WORDS.get(why.get("tiebreak") or "", "")


def reveal_lines(view: dict[str, Any], names: dict[int, str]) -> list[str]:
    """Return one line per voter (who won it and why), then the standings, from the final public view."""
    outcome = view.get("outcome") or {}
    awarded = outcome.get("awarded") or {}
    reasons = outcome.get("awarded_why") or {}
    out = []
    for v in view["voters"]:
        winner = awarded.get(str(v["position"]))
        title = v.get("title") or ""
        who = (
            "no vote"
            if winner is None
            else f"votes for **{drawing.seat_tag(winner)} {names.get(winner, '')}**"
        )
        why = reasons.get(str(v["position"]))
        because = f": {_winner_why(winner, why)}" if why else ""
        out.append(
            f"Voter {v['position'] + 1}: **{v['name']}** ({title}), "
            f"{drawing.criterion_words(v['criterion'])} — {who}{because}."
        )
    votes = outcome.get("votes") or []
    ranking = outcome.get("ranking") or []
    rows = [
        f"{k}. {drawing.seat_tag(s)} {names.get(s, '')}: {votes[s]} vote{'' if votes[s] == 1 else 's'}, "
        f"{view['offices'][s]['ip']} IP"
        for k, s in enumerate(ranking, 1)
    ]
    if ranking:
        out.append("**Final standings**\n" + "\n".join(rows) + f"\n**{names.get(ranking[0], '')} wins.**")
    return out


async def post_round_summary(client: discord.Client, reply: Reply) -> str | None:
    """When a round (or the game) just ended, head the board with what each room gave whom.

    The kit's before-board hook: the summary closes the round at the top of the board message
    that opens the next one (or ends the game). None when no round ended.
    """
    board = reply.board
    if board is None or reply.table.status == "abandoned":
        return None
    began = [int(e.data.get("round") or 0) for e in board.events if e.data.get("what") == "round"]
    finished = board.finished and reply.table.status == "finished"
    if not (any(n > 1 for n in began) or finished):
        return None
    svc = kit.service_of(client)
    summary = round_summary(await svc.public_event_log(reply.table.id, back=RECENT_MOVES), board.names)
    if not summary:
        return None
    if began and not finished:
        number = max(began) - 1
    else:
        number = (await table_now(svc, reply.table.id)).view["round"]
    return f"**Round {number}: what each room gave**\n{summary}"


def reveal_messages(lines: list[str]) -> list[str]:
    """Pack the reveal's lines (a voter each, then the standings) into as few messages as fit."""
    messages: list[str] = []
    for line in lines:
        line = _clip(line, kit.CONTENT_LIMIT)
        if messages and len(messages[-1]) + 1 + len(line) <= kit.CONTENT_LIMIT:
            messages[-1] += "\n" + line
        else:
            messages.append(line)
    return messages


async def post_reveal(client: discord.Client, reply: Reply, now: PublicView) -> None:
    """When the game just ended, reveal the voters, who won each and why, then the standings."""
    if reply.board is None or not reply.board.finished:
        return
    view = now.view
    thread = await kit.thread_of(client, reply.table)
    if thread is None or not view.get("outcome"):
        return  # an abandoned table has no votes to reveal
    try:
        for message in reveal_messages(reveal_lines(view, now.names)):
            await thread.send(message, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.warning("table %s: the reveal was refused (status %s)", reply.table.id, exc.status)


# ---------------------------------------------------------------------------- delivering a move


async def reaction_mode(svc: TableService, table_id: int, user_id: int) -> str:
    """Return 'pass' when the player asked to pass every reaction window, else 'ask'."""
    return (await svc.seat_pref(table_id, user_id, REACT_PREF)) or REACT_ASK


def enrich(events: Sequence[Event], view: dict[str, Any], seat: int) -> list[str]:
    """Word a seat's private events, adding to each voter a Mark just showed it the criterion
    and where the seat stands (from the event's data: ``what`` = voter_seen, ``voter``)."""
    out = []
    for event in events:
        line = event.text
        if event.data.get("what") == "voter_seen":
            voter = view["voters"][int(event.data["voter"])]
            if voter["criterion"]:
                line += (
                    f" It counts {drawing.criterion_words(voter['criterion'])}; "
                    f"{drawing.standing_line(view, seat, voter['criterion'])}."
                )
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


# ---------------------------------------------------------------------------- the commands


class ArgentCog(commands.Cog):
    """The /argent commands: every action with autocomplete, your panel, office and voters."""

    argent = app_commands.Group(name="argent", description="Argent: The Consortium")

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    # ------------------------------------------------------------------ autocomplete

    async def _offers(
        self, interaction: discord.Interaction, current: str, command: str
    ) -> list[app_commands.Choice]:
        try:
            table = await kit.table_here(interaction)
            now = await seat_now(kit.service_of(self.bot), table.id, interaction.user.id)
        except TableError:
            return []
        typed = current.strip().casefold()
        keep = COMMAND_FILTERS[command]
        # Each value is a #version.index token: the same command sent twice applies once.
        found = [
            app_commands.Choice(name=_clip(o.label, 100), value=offered_value(now.version, index))
            for index, o in enumerate(now.moves)
            if keep(o) and (not typed or typed in o.label.casefold())
        ]
        return found[:SELECT_MAX]

    async def place_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice]:
        """Offer the rooms (and slots) where the user may place a mage now."""
        return await self._offers(interaction, current, "place")

    async def cast_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """Offer the spell levels the user may cast now."""
        return await self._offers(interaction, current, "cast")

    async def vault_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice]:
        """Offer the vault cards the user may use (or buy) now."""
        return await self._offers(interaction, current, "vault")

    async def supporter_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice]:
        """Offer the supporters the user may use now."""
        return await self._offers(interaction, current, "supporter")

    async def bell_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """Offer the Bell Tower offerings the user may take now."""
        return await self._offers(interaction, current, "bell")

    async def research_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice]:
        """Offer the research the user may do now."""
        return await self._offers(interaction, current, "research")

    async def fast_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice]:
        """Offer the user's fast actions now."""
        return await self._offers(interaction, current, "fast")

    async def decide_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice]:
        """Offer every choice the user has now."""
        return await self._offers(interaction, current, "decide")

    async def _play(self, interaction: discord.Interaction, command: str, value: str) -> None:
        """Check the chosen move fits the command (a cast is not a placement), then play it."""

        async def work() -> None:
            table = await kit.table_here(interaction)
            now = await seat_now(kit.service_of(self.bot), table.id, interaction.user.id)
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
            fitting = [o for o in now.moves if COMMAND_FILTERS[command](o)]
            if offer is None and not fitting:
                raise TableError(NOTHING[command])
            if offer is None and token is None and "=" not in value:
                # "Guilds" means "Place a mage in Guilds": loose words against this command's moves.
                try:
                    offer = fitting[reading.pick(value, [o.label for o in fitting])]
                except reading.ReadingError as exc:
                    raise TableError(exc.sentence) from None
                played, version = offer.value, now.version
            if offer is not None and not COMMAND_FILTERS[command](offer):
                raise TableError(
                    f"That is not a `/argent {command}` move: pick one from the list, or use /argent decide."
                )
            await kit.play_now(interaction, table.id, played, version)

        await kit.guarded(interaction, work)

    @argent.command(name="place")
    @app_commands.describe(where="The room (then the slot) for your mage")
    @app_commands.autocomplete(where=place_choices)
    async def place(self, interaction: discord.Interaction, where: str) -> None:
        """Place a mage: pick the room, then the slot in your panel."""
        await self._play(interaction, "place", where)

    @argent.command(name="cast")
    @app_commands.describe(spell="The spell and level to cast")
    @app_commands.autocomplete(spell=cast_choices)
    async def cast(self, interaction: discord.Interaction, spell: str) -> None:
        """Cast a spell (its targets follow in your panel)."""
        await self._play(interaction, "cast", spell)

    @argent.command(name="vault")
    @app_commands.describe(card="The vault card")
    @app_commands.autocomplete(card=vault_choices)
    async def vault(self, interaction: discord.Interaction, card: str) -> None:
        """Use a vault card."""
        await self._play(interaction, "vault", card)

    @argent.command(name="supporter")
    @app_commands.describe(card="The supporter")
    @app_commands.autocomplete(card=supporter_choices)
    async def supporter(self, interaction: discord.Interaction, card: str) -> None:
        """Use a supporter."""
        await self._play(interaction, "supporter", card)

    @argent.command(name="bell")
    @app_commands.describe(offering="The Bell Tower offering (ends your turn)")
    @app_commands.autocomplete(offering=bell_choices)
    async def bell(self, interaction: discord.Interaction, offering: str) -> None:
        """Take a Bell Tower offering: your turn ends, and the last one ends the round."""
        await self._play(interaction, "bell", offering)

    @argent.command(name="research")
    @app_commands.describe(choice="What to learn or upgrade")
    @app_commands.autocomplete(choice=research_choices)
    async def research(self, interaction: discord.Interaction, choice: str) -> None:
        """Spend research: learn a spell (1 INT) or upgrade one (1 WIS)."""
        await self._play(interaction, "research", choice)

    @argent.command(name="fast")
    @app_commands.describe(action="Your fast action (at most one a turn, before your action)")
    @app_commands.autocomplete(action=fast_choices)
    async def fast(self, interaction: discord.Interaction, action: str) -> None:
        """Take a fast action."""
        await self._play(interaction, "fast", action)

    @argent.command(name="decide")
    @app_commands.describe(choice="Any of your choices now")
    @app_commands.autocomplete(choice=decide_choices)
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
            text = voters_text(now.view, now.seat)
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

        async def work() -> None:
            svc = kit.service_of(self.bot)
            table = await kit.table_here(interaction)
            await seat_now(svc, table.id, interaction.user.id)  # refuses non-players and the lobby
            await svc.set_seat_pref(table.id, interaction.user.id, REACT_PREF, mode)
            said = (
                "I will pass every reaction window for you here; `/argent reactions mode:ask` to react again."
                if mode == REACT_PASS
                else "You will be asked in every reaction window you can react in."
            )
            await kit.answer(interaction, said)
            if mode == REACT_PASS:
                # The service passes a window this player is being asked in right now.
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
    lines = enrich(note.events, now.view, now.seat)
    return await panel_message(now, "\n".join([note.title or svc.thread_name(table), *lines]), note.image)


async def board_panel(client: discord.Client, board: Board) -> dict[str, Any]:
    """Build the thread message of a board: Argent's words and buttons, from the board's data."""
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
