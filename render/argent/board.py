"""The public board: the preview band, the rooms, the voters, Influence, tableaus and the seat strips."""

from __future__ import annotations

from functools import partial

import render
from render.argent.band import HIGHLIGHT, draw_preview, moved_rooms, preview_height
from render.argent.look import GOLD, LAYOUT_W, PAD, Sheet, View, png_bytes, sheet
from render.argent.pieces import piece
from render.argent.rooms import draw_room, grid_height, mages_by_loc
from render.argent.voters import (
    INFLUENCE_H,
    STRIP_H,
    TABLEAU_H,
    draw_influence,
    draw_strip,
    draw_tableaus,
    draw_voters,
    voters_height,
)
from rules.argent import record

# --------------------------------------------------------------------------- the board


def draw_board(view: View, caption: render.Caption | None = None) -> bytes:
    """Draw the public board: the preview band, University, Consortium, Influence, tableaus, strips.

    The band on top is what Discord's 400 px preview must show (whose turn, everyone's Influence,
    the last move); the rooms the last move changed are outlined in gold.
    """
    caption = caption or render.Caption()
    rec = record.read(view)
    grid = rec.grid
    heights = [grid_height(rec, row) for row in grid]
    strip_rows = (rec.players + 1) // 2
    band = preview_height(caption)
    lower = voters_height(rec) + INFLUENCE_H + TABLEAU_H + strip_rows * (STRIP_H + 8)
    total = band + sum(heights) + PAD * len(grid) + lower + PAD
    draw = sheet(LAYOUT_W, total)
    y = draw_preview(draw, rec, caption)
    at = mages_by_loc(rec)
    changed = moved_rooms(record.read_mages(caption.before), rec.mages) if caption.before else set()
    for row, h in zip(grid, heights, strict=True):
        cols = len(row)
        w = (LAYOUT_W - PAD * (cols + 1)) // max(1, cols)
        for i, room in enumerate(row):
            if room:
                x = PAD + i * (w + PAD)
                draw_room(draw, rec, room, (x, y, x + w, y + h), at)
                if room in changed:
                    draw.rounded_rectangle(
                        (x - 5, y - 5, x + w + 5, y + h + 5), radius=12, outline=GOLD, width=HIGHLIGHT
                    )
        y += h + PAD
    y = _sections(draw, rec, y)
    half = (LAYOUT_W - 3 * PAD) // 2
    for k, office in enumerate(rec.offices):
        x = PAD + (k % 2) * (half + PAD)
        top = y + (k // 2) * (STRIP_H + 8)
        player = caption.names.get(office.seat, "")
        draw_strip(draw, rec, office, (x, top, x + half, top + STRIP_H), player, kept=True)
    y += strip_rows * (STRIP_H + 8)
    return png_bytes(draw)


def _sections(draw: Sheet, rec: record.ArgentView, y: int) -> int:
    """Draw the Consortium, the Influence track and the tableaus; the first two are kept pieces.

    Each starts on the board's bare ground and ends in a margin of it (``pieces``).
    """
    outcome = rec.outcome
    winners = tuple(a.winner for a in outcome.awards) if outcome else None
    bottom = y + voters_height(rec)
    piece(draw, ("voters", rec.voters, winners), (0, y, LAYOUT_W, bottom), partial(draw_voters, draw, rec, y))
    y = bottom
    seats = tuple((o.seat, o.ip, o.ip_time, o.merit, o.merit_free) for o in rec.offices if not o.left)
    track = partial(draw_influence, draw, rec, y)
    piece(draw, ("influence", seats), (0, y, LAYOUT_W, y + INFLUENCE_H), track)
    y += INFLUENCE_H
    # Not the tableaus: dealt per table, they would be a 100 KB piece for each table (``pieces``).
    return draw_tableaus(draw, rec, y)
