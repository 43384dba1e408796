"""Argent's drawings: the public board for the thread and each seat's private office.

Both are pure functions of a view (``rules.argent.views.view``) and return PNG bytes. Every part
reads the view's typed record (``rules.argent.record``: offices, voters with their criteria and
standings in words, mages, rooms, tableau, the decision), never the view dict by key; the static
card data (room slots, card names and texts) comes from ``rules.argent.content``. Every player is
told apart by colour, by a numeral (P1..P5) and by a shape (circle, square, triangle, diamond,
hexagon), so a colour-blind player loses nothing. The board is laid out 1400 units wide and drawn at
``look.SCALE`` pixels per unit: ``BOARD_W`` (980 px) wide, the size Discord shows it at, since
encoding a PNG costs by the pixel. Big type for the things players scan most (rooms, mages, voters,
the Influence track); no text smaller than ``look.MIN_PX``.

The standings and the criteria's words are worked out in the rules (``rules.argent.standings``) and
re-exported here with ``reward_text`` and ``seat_mark``, so texts and drawings agree.

The drawing is split by part of the board: ``look`` (sizes, colours, fonts, drawing helpers),
``words`` (texts shared with the cog), ``band`` (the preview band), ``rooms`` (the rooms),
``voters`` (voters, Influence, tableaus, seat strips), ``board`` (the whole public board) and
``office`` (the private office). This module registers the two drawings and re-exports the names
the cog, the bench and the tests use.
"""

from __future__ import annotations

import render
from render.argent.band import HIGHLIGHT_W, PREVIEW_FONTS, _actor, moved_rooms, preview_lines
from render.argent.board import draw_board
from render.argent.look import BOARD_W, OFFICE_W, font, palette
from render.argent.office import draw_office
from render.argent.words import reward_text, seat_mark
from rules.argent import content
from rules.argent.standings import criterion_words, seat_tag, standing, standing_line

__all__ = [
    "BOARD_W",
    "HIGHLIGHT_W",
    "OFFICE_W",
    "PREVIEW_FONTS",
    "_actor",
    "content",
    "criterion_words",
    "draw_board",
    "draw_office",
    "font",
    "moved_rooms",
    "palette",
    "preview_lines",
    "reward_text",
    "seat_mark",
    "seat_tag",
    "standing",
    "standing_line",
]

render.register("argent", board=draw_board, private=draw_office)
