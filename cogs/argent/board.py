"""Argent's thread messages: the board with its buttons, the round's summary and the end's reveal.

Part of the ``/argent`` cog (``cogs.argent``). Everything here is public: it is built from the
public view and the events' data, and no option label of a decision ever reaches it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from cogs import kit
from cogs.argent.panel import MoveButton, OfficeButton, PanelButton, clip, table_now
from render.argent import words
from rules.contract import Event, Prompt, PromptKind
from service import (
    Board,
    PublicView,
    Reply,
)
from service.replies import told_in_order

if TYPE_CHECKING:
    from rules.argent.record import ArgentView, Award

log = logging.getLogger("conclave.cogs.argent")

RECENT_MOVES = 400
"""How many moves back the round summary looks for the last resolution (a round is far fewer)."""


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
    return "Players: " + ", ".join(f"{words.seat_mark(n)} {names[n]}" for n in sorted(names)) + "."


def board_lines(board: Board) -> list[str]:
    """Return a board message's lines from the board's data: events, who must act, the players."""
    lines = ["The game begins."] if board.opening else []
    # At the end the votes are revealed one by one below: the board must not spoil them.
    kept = [not (board.finished and e.kind == "votes") for e in board.events]
    shown = [board.named(e.text) for e, keep in zip(board.events, kept, strict=True) if keep]
    # Each move played automatically is told just before what it did.
    at = [sum(kept[:k]) for k in board.automatic_at]
    lines += told_in_order(shown, board.automatic, at, board.named)
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
        files.append(kit.image_file(board.image, f"argent-{board.table_id}-v{board.version}.png", board.alt))
    message: dict[str, Any] = {
        "content": clip(text, kit.CONTENT_LIMIT),
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


def _what_got(event: Event) -> str:
    """Word what one event gave its seat, from its kind and data (empty when it gave nothing)."""
    what, data = event.kind, event.data
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

    Reads each event's kind (resolution, claim, consolation, gain, pay, card, learn, mark: see
    ``rules.argent.events.ArgentEvent``) and its data (``seat``, ``room``), never its sentence.
    ``names`` (seat -> player) names each seat beside its tag, "bob (P2)", as the board does.
    """
    names = names or {}

    def who(seat: int) -> str:
        tag = words.seat_tag(seat)
        return f"{names[seat]} ({tag})" if seat in names else tag

    start = max((i for i, e in enumerate(events) if e.kind == "resolution"), default=None)
    if start is None:
        return None
    rooms: dict[str, list[list[str]]] = {}
    current: tuple[str, int] | None = None
    for event in events[start + 1 :]:
        data, what = event.data, event.kind
        if what in ("round", "votes"):
            break
        seat = data.get("seat")
        if what == "consolation":
            rooms.setdefault(str(data["room"]), []).append([who(int(seat)), "1 IP"])
            current = None
        elif what == "claim":
            rooms.setdefault(str(data["room"]), []).append([who(int(seat))])
            current = (str(data["room"]), int(seat))
        elif current is not None and seat == current[1] and (got := _what_got(event)):
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


def _winner_why(view: ArgentView, award: Award) -> str:
    """Word the engine's reason for a voter's vote (the typed view's ``Award``) as a sentence.

    Presentation only: the counts weighed, the Most winner a second-most voter passed over and
    the tie-break all come from the engine; nothing is recounted here.
    """
    counts, winner, first = dict(award.counts or ()), award.winner, award.first
    shown = ", ".join(f"{view.tag(s)} {n}" for s, n in sorted(counts.items(), key=lambda kv: -kv[1]))
    passed_over = (
        "" if first is None else f"; {view.tag(first)} is first on that count and cannot take second"
    )
    if winner is None:
        nobody = "nobody has any" if first is None else "nobody else has any"
        return nobody + (f" ({shown})" if shown else "") + passed_over
    text = f"with {counts[winner]} ({shown}){passed_over}"
    return text + TIEBREAK_WORDS.get(award.tiebreak or "", "")


def reveal_lines(view: ArgentView, names: dict[int, str]) -> list[str]:
    """Return one line per voter (who won it and why), then the standings, from the final public view."""
    outcome = view.outcome
    if outcome is None:
        return []
    out = []
    for v, award in zip(view.voters, outcome.awards, strict=True):
        winner = award.winner
        who = "no vote" if winner is None else f"votes for **{view.tag(winner)} {names.get(winner, '')}**"
        because = f": {_winner_why(view, award)}" if award.counts is not None else ""
        out.append(
            f"Voter {v.position + 1}: **{v.name}** ({v.title or ''}), {v.criterion_words} — {who}{because}."
        )
    votes, ranking = outcome.votes, outcome.ranking
    rows = [
        f"{k}. {view.tag(s)} {names.get(s, '')}: {votes[s]} vote{'' if votes[s] == 1 else 's'}, "
        f"{view.offices[s].ip} IP"
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
    began = [int(e.data.get("round") or 0) for e in board.events if e.kind == "round"]
    finished = board.finished and reply.table.status == "finished"
    if not (any(n > 1 for n in began) or finished):
        return None
    svc = kit.service_of(client)
    summary = round_summary(await svc.reads.public_event_log(reply.table.id, back=RECENT_MOVES), board.names)
    if not summary:
        return None
    # A round that just began closes the one before it; at the end, the table's last round.
    number = max(began) - 1 if began and not finished else (await table_now(svc, reply.table.id)).typed.round
    return f"**Round {number}: what each room gave**\n{summary}"


def reveal_messages(lines: list[str]) -> list[str]:
    """Pack the reveal's lines (a voter each, then the standings) into as few messages as fit."""
    messages: list[str] = []
    for line in lines:
        line = clip(line, kit.CONTENT_LIMIT)
        if messages and len(messages[-1]) + 1 + len(line) <= kit.CONTENT_LIMIT:
            messages[-1] += "\n" + line
        else:
            messages.append(line)
    return messages


async def post_reveal(client: discord.Client, reply: Reply, now: PublicView) -> None:
    """When the game just ended, reveal the voters, who won each and why, then the standings."""
    if reply.board is None or not reply.board.finished:
        return
    view: ArgentView = now.typed
    thread = await kit.thread_of(client, reply.table)
    if thread is None or view.outcome is None:
        return  # an abandoned table has no votes to reveal
    try:
        for message in reveal_messages(reveal_lines(view, now.names)):
            await thread.send(message, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:
        log.warning("table %s: the reveal was refused (status %s)", reply.table.id, exc.status)


