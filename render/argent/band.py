"""The preview band on top of the board: title, whose turn, everyone's Influence and the last move."""

from __future__ import annotations

from functools import partial

import render
from render.argent.look import (
    GOLD,
    INK,
    LAYOUT_W,
    LIGHT,
    LIGHT_MUTED,
    PAD,
    PANEL,
    SCALE,
    Record,
    Sheet,
    clip,
    font,
    seat_token,
    write,
)
from render.argent.pieces import piece
from render.argent.rooms import placed_by_loc
from render.argent.voters import PHASE_WORDS
from rules.argent.record import Mage
from rules.argent.standings import seat_tag

# --------------------------------------------------------------------------- the preview band

PREVIEW_SIZES = {"title": 52, "turn": 46, "score": 42, "last": 40}
"""Type sizes of the band, in layout units."""
PREVIEW_FONTS = {row: round(size * SCALE) for row, size in PREVIEW_SIZES.items()}
"""The band's type in pixels; at Discord's 400 px preview (x 400/980) each stays 11 px or more."""
HIGHLIGHT = 10
"""Outline of a room the last move changed, in layout units."""
HIGHLIGHT_W = round(HIGHLIGHT * SCALE)
"""That outline in pixels: still 2.5 px or more at preview size."""
PREVIEW_ROW = {"title": 66, "turn": 64, "score": 62, "last": 62}


def preview_height(caption: render.Caption) -> int:
    """Return the height of the preview band (the last-move row only when there is a last move)."""
    rows = ("title", "turn", "score", "last") if caption.last else ("title", "turn", "score")
    return 12 + sum(PREVIEW_ROW[r] for r in rows) + PAD


def player_name(rec: Record, caption: render.Caption, seat: int) -> str:
    """Return how the board names a seat: the player's name, else the candidate, else P1..P5."""
    return caption.names.get(seat) or rec.offices[seat].candidate or seat_tag(seat)


def preview_lines(rec: Record, caption: render.Caption) -> dict[str, str]:
    """Return the band's texts: the round, whose turn, the Influence of each seat, the last move."""
    title = f"Round {rec.round}/{rec.rounds} · {PHASE_WORDS.get(rec.phase, rec.phase)}"
    actor = _actor(rec)
    if rec.phase == "over":
        turn = "The game is over"
    elif actor is None:
        turn = "Resolving…"
    else:
        ordinary = rec.pending is None or rec.pending.name in ("turn", "turn_place")
        verb = "to play" if rec.turn == actor and ordinary else "decides"
        turn = f"{player_name(rec, caption, actor)} ({seat_tag(actor)}) {verb}"
    scores = "  ".join(f"{player_name(rec, caption, o.seat)} {o.ip}" for o in rec.offices)
    lines = {"title": title, "turn": turn, "score": f"Influence: {scores}"}
    if caption.last:
        face = font(PREVIEW_SIZES["last"], "bold")
        room = LAYOUT_W - 2 * PAD - 28
        lines["last"] = "Last: " + render.latest(caption.last, lambda t: face.getlength("Last: " + t) <= room)
    return lines


def _actor(rec: Record) -> int | None:
    """Return the seat the game waits on now (its pending decision, else the turn or setup queue)."""
    actor = rec.pending.seat if rec.pending else rec.turn
    if actor is None and rec.queue:
        actor = rec.queue[0]
    return actor


def moved_rooms(before: tuple[Mage, ...], mages: tuple[Mage, ...]) -> set[str]:
    """Return the rooms whose mages the last move changed (placed, moved, wounded, banished),
    from the mages of the views before and after it.

    The board reads only the mages of the view before the move (``record.read_mages``): reading
    its whole record was a tenth of a board's drawing.
    """
    old, new = placed_by_loc(before), placed_by_loc(mages)
    moved = {loc for loc in old.keys() | new.keys() if _who(old.get(loc)) != _who(new.get(loc))}
    return {loc.split("/", 1)[0] for loc in moved}


def _who(mage: Mage | None) -> tuple[int, int, str] | None:
    return None if mage is None else (mage.id, mage.owner, mage.type)


def draw_preview(draw: Sheet, rec: Record, caption: render.Caption) -> int:
    """Draw the band a 400 px preview must show: round, whose turn, Influence, the last move."""
    lines = preview_lines(rec, caption)
    width = LAYOUT_W - 2 * PAD
    y = 12
    title = font(PREVIEW_SIZES["title"], "bold")
    write(draw, (PAD, y), lines["title"], font=title, fill=LIGHT)
    bell = f"Bell Tower: {rec.bell_left} left"
    face = font(PREVIEW_SIZES["turn"], "bold")
    write(draw, (LAYOUT_W - PAD, y + 6), bell, font=face, fill=GOLD, anchor="ra")
    y += PREVIEW_ROW["title"]
    turn = font(PREVIEW_SIZES["turn"], "bold")
    actor = _actor(rec)
    x = PAD
    if actor is not None and rec.phase != "over":
        seat_token(draw, actor, x + 24, y + 28, 24)
        x += 60
    first = rec.first
    room = LAYOUT_W - PAD - x - (130 if first is not None else 0)
    write(draw, (x, y), clip(lines["turn"], turn, room), font=turn, fill=LIGHT)
    if first is not None:
        # Who goes first next round: a token after "1st", right-aligned.
        small = font(PREVIEW_SIZES["score"])
        write(draw, (LAYOUT_W - PAD - 60, y + 4), "1st", font=small, fill=LIGHT_MUTED, anchor="ra")
        seat_token(draw, first, LAYOUT_W - PAD - 26, y + 28, 22)
    y += PREVIEW_ROW["turn"]
    y = _draw_scores(draw, rec, caption, y)
    if "last" in lines:
        face = font(PREVIEW_SIZES["last"], "bold")
        draw.rounded_rectangle((PAD, y, PAD + width, y + PREVIEW_ROW["last"] - 8), radius=10, fill=GOLD)
        write(draw, (PAD + 14, y + 6), clip(lines["last"], face, width - 28), font=face, fill=INK)
        y += PREVIEW_ROW["last"]
    return y + PAD


def _draw_scores(draw: Sheet, rec: Record, caption: render.Caption, y: int) -> int:
    """Draw one chip per seat: its token, the player's name and Influence, in big type."""
    offices = rec.offices
    face = font(PREVIEW_SIZES["score"], "bold")
    label = "IP"
    write(draw, (PAD, y + 4), label, font=face, fill=LIGHT_MUTED)
    x0 = PAD + face.getlength(label) + 16
    w = (LAYOUT_W - PAD - x0) / max(1, len(offices))
    for k, office in enumerate(offices):
        x = x0 + k * w
        seat = office.seat
        score = str(office.ip)
        right = x + w - 22
        room = right - face.getlength(score) - 12 - (x + 52)
        name = clip(player_name(rec, caption, seat), face, room)
        # A kept piece by what it shows: long names are clipped ("mag…"), so most chips repeat
        # from table to table. It starts on the band's bare ground and keeps a margin of it.
        chip = partial(_draw_chip, draw, seat, name, score, (x, y, x + w - 10, right))
        piece(draw, ("score chip", seat, name, score), (x, y, x + w - 8, y + PREVIEW_ROW["score"] - 6), chip)
    return y + PREVIEW_ROW["score"]


def _draw_chip(draw: Sheet, seat: int, name: str, score: str, box: tuple[float, float, float, float]) -> None:
    """Draw a seat's chip in the band: its token, the player's (clipped) name and Influence."""
    x, y, x1, right = box
    face = font(PREVIEW_SIZES["score"], "bold")
    draw.rounded_rectangle((x, y, x1, y + PREVIEW_ROW["score"] - 8), radius=10, fill=PANEL)
    seat_token(draw, seat, x + 26, y + 27, 20)
    write(draw, (right, y + 4), score, font=face, fill=GOLD, anchor="ra")
    write(draw, (x + 52, y + 4), name, font=face, fill=LIGHT)
