"""Whole composed pieces of the public board (a room, the Consortium, a seat's stats), kept and pasted.

A board drawn for a move differs from the last one in a few places: in the mage draft one seat's
office and the last move. The rest is drawn again line by line (about 140 lines a board, each
blended over its ground), and that was most of a drawing process's time in the load bench. So a
part that repeats is drawn once in place, its pixels are cropped from the board, and a later board
whose part shows the same data pastes them.

What makes a pasted piece the same pixels as a drawn one:

- the key names every datum the part draws (``piece``'s caller builds it from the record's values,
  never from a table or seat alone), and ``piece`` adds the box (so the subpixel position, too) and
  the image's mode;
- the part draws only inside its box, and what the box held before it was drawn is fixed by the key:
  either the part covers its box first (a room's tile, a strip's frame with the seat in the key) or
  the box lies on the board's bare ground with nothing else drawn there yet (the board's sections,
  laid out top to bottom, each ending in a margin of ground). Boxes are rounded to pixels the same
  way at both edges, so boxes that meet share no pixel.

Only the public board keeps pieces: a seat's private office never does, so nothing drawn for one seat
is ever pasted on a board (or on another seat's sheet). Pieces are bounded by count and pixels
(``render.kept``); a large one is kept from its second drawing, so a table's one-off part costs
nothing kept.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from render.argent.look import SCALE, Sheet
from render.kept import Kept

PIECES: Kept[Any] = Kept(count=4000, pixels=12_000_000, small=4000)
"""Drawn pieces (core images, a byte a pixel) by key. In the load bench's draft about 6.5 M px that
tables share: rooms, the Consortium, the Influence track, score chips, the strips' rows."""
ENABLED = True
"""False draws every part anew (the tests compare both ways)."""


def piece(draw: Sheet, key: tuple[Hashable, ...], box: tuple[float, float, float, float],
          paint: Callable[[], Any]) -> None:
    """Paste the piece kept under ``key`` in ``box`` (layout units), else ``paint()`` it there and keep it.

    ``paint`` draws the part on ``draw`` in place; see the module's notes for what it may draw.
    """
    if not ENABLED:
        paint()
        return
    ox, oy = draw.origin
    pixels = (
        round(box[0] * SCALE) - ox,
        round(box[1] * SCALE) - oy,
        round(box[2] * SCALE) - ox,
        round(box[3] * SCALE) - oy,
    )
    full = (*key, pixels, draw.image.mode)
    core = draw.draw.im
    got = PIECES.get(full)
    if got is not None:
        core.paste(got, pixels)
        return
    paint()
    area = (pixels[2] - pixels[0]) * (pixels[3] - pixels[1])
    if area > 0:
        PIECES.offer(full, core.crop(pixels), area)
