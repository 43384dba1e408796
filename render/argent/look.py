"""The look of Argent's drawings: sizes, colours, seat and department tags, fonts, drawing helpers."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Any

from PIL import Image, ImageFont

from render import canvas, typefaces
from render.kept import Kept
from rules.argent.record import ArgentView, Mage
from rules.argent.state import DEPT_NAMES

View = dict[str, Any]
"""A view as the rules return it; the drawings read its typed record (``rules.argent.record``)."""
RGB = tuple[int, int, int]

# --------------------------------------------------------------------------- look

SCALE = 0.7
"""Pixels per layout unit. The drawings are laid out 1400 units wide and drawn at 980 px: the size
Discord shows a board at (a 550 px preview, a click opens it fitted to the window), and encoding
the PNG costs by the pixel."""
MIN_PX = 10
"""No text is drawn smaller than this many pixels, whatever its size in units."""
LAYOUT_W = 1400
BOARD_W = round(LAYOUT_W * SCALE)
"""The board's width in pixels."""
OFFICE_W = BOARD_W
PAD = 14

BG = (30, 32, 40)
PANEL = (44, 47, 58)
PAPER = (242, 236, 222)
PAPER_DIM = (214, 208, 194)
INK = (22, 22, 26)
MUTED = (110, 106, 98)
LIGHT = (238, 238, 244)
LIGHT_MUTED = (170, 174, 190)
GOLD = (226, 176, 36)
LOCK = (196, 40, 40)
MERIT = (200, 150, 20)
SHADOW = (70, 66, 86)
SLOT_EMPTY = (226, 220, 204)
VOTER_DOWN = (70, 60, 96)
VOTER_SEEN = (226, 214, 240)
UNRESEARCHED = (70, 72, 84)
SUPPLY = (150, 150, 150)

SEAT_COLOUR: tuple[RGB, ...] = ((230, 159, 0), (0, 114, 178), (0, 158, 115), (204, 121, 167), (240, 228, 66))
"""Okabe-Ito colours, chosen to stay apart for the common colour blindnesses."""
SEAT_SHAPE = ("circle", "square", "triangle", "diamond", "hexagon")
SEAT_TEXT: tuple[RGB, ...] = (INK, LIGHT, INK, INK, INK)

DEPT_COLOUR: dict[str, RGB] = {
    "sorcery": (200, 44, 44),
    "mysticism": (140, 140, 150),
    "natural_magick": (40, 150, 60),
    "planar_studies": (128, 64, 170),
    "divinity": (40, 96, 200),
    "neutral": (236, 232, 220),
    "apprentice": (226, 176, 36),
    "student_body": (160, 110, 60),
    "wild": (90, 90, 90),
}
DEPT_TAG = {
    "sorcery": "So",
    "mysticism": "My",
    "natural_magick": "Na",
    "planar_studies": "Pl",
    "divinity": "Di",
    "neutral": "Ne",
    "apprentice": "Ap",
}
# The state's department names, but short for the Apprentice: the board has no room for the long one.
DEPT_WORD = {**DEPT_NAMES, "apprentice": "Apprentice"}
RES_SHORT = {
    "gold": "Gold",
    "mana": "Mana",
    "int": "INT",
    "wis": "WIS",
    "ip": "IP",
    "mark": "Mark",
    "research": "Rsch",
}
MERIT_STEP = 7

Record = ArgentView
"""What every part of the drawings reads: the view's typed record."""


class Font:
    """A shipped face measured in layout units, drawn at ``SCALE`` pixels per unit (``MIN_PX`` at least)."""

    __slots__ = ("_lengths", "face", "size")

    def __init__(self, size: int, face: ImageFont.FreeTypeFont) -> None:
        self.size = size
        self.face = face
        self._lengths: dict[str, float] = {}

    def getlength(self, text: str) -> float:
        """Return how long a text runs, in layout units (measured once per text: layout asks often)."""
        got = self._lengths.get(text)
        if got is None:
            if len(self._lengths) >= canvas.MASK_LIMIT:
                self._lengths.clear()
            got = self._lengths[text] = self.face.getlength(text) / SCALE
        return got


@lru_cache(maxsize=64)
def font(size: int, style: str = "regular", least: int = MIN_PX) -> Font:
    """Return a shipped DejaVu face of a size in layout units (regular, bold, narrow, narrow_bold).

    ``least``: the smallest pixel size; a token's two-letter tag may go below ``MIN_PX`` to stay
    inside its token.
    """
    # The basic layout is several times faster than Raqm and enough for Latin text.
    return Font(size, typefaces.load(max(least, round(size * SCALE)), style, basic=True))


def _line(width: float) -> int:
    return max(1, round(width * SCALE))


class Sheet:
    """A drawing laid out in layout units: every coordinate, radius and line width is scaled here, once.

    ``origin`` is the pixel a sprite's image starts at on the drawing it is stamped on.
    """

    def __init__(self, image: Image.Image, origin: tuple[int, int] = (0, 0)) -> None:
        self.image = image
        self.draw = canvas.draw(image)
        self.origin = origin
        self._inks: dict[Any, int] = {}
        self.palette = palette() if image.mode == "P" else None
        """The fixed palette this drawing is drawn in, or None (a sprite's stencil)."""

    def _box(self, box: Sequence[float]) -> list[float]:
        ox, oy = self.origin
        return [v * SCALE - (ox if k % 2 == 0 else oy) for k, v in enumerate(box)]

    def rectangle(
        self, box: Sequence[float], fill: Any = None, outline: Any = None, width: float = 1
    ) -> None:
        """Draw a rectangle (in layout units)."""
        self.draw.rectangle(self._box(box), fill=fill, outline=outline, width=_line(width))

    def rounded_rectangle(
        self, box: Sequence[float], radius: float = 0, fill: Any = None, outline: Any = None, width: float = 1
    ) -> None:
        """Draw a rounded rectangle (in layout units)."""
        self.draw.rounded_rectangle(
            self._box(box), radius=radius * SCALE, fill=fill, outline=outline, width=_line(width)
        )

    def ellipse(self, box: Sequence[float], fill: Any = None, outline: Any = None, width: float = 1) -> None:
        """Draw an ellipse (in layout units)."""
        self.draw.ellipse(self._box(box), fill=fill, outline=outline, width=_line(width))

    def polygon(
        self, points: Sequence[tuple[float, float]], fill: Any = None, outline: Any = None, width: float = 1
    ) -> None:
        """Draw a polygon (in layout units)."""
        flat = self._box([v for point in points for v in point])
        pairs = list(zip(flat[::2], flat[1::2], strict=True))
        self.draw.polygon(pairs, fill=fill, outline=outline, width=_line(width))

    def regular_polygon(
        self, circle: tuple[float, float, float], sides: int, fill: Any = None, outline: Any = None,
        width: float = 1,
    ) -> None:
        """Draw a regular polygon around a circle (centre and radius in layout units)."""
        cx, cy = self._box(circle[:2])
        ring = (cx, cy, circle[2] * SCALE)
        self.draw.regular_polygon(ring, sides, fill=fill, outline=outline, width=_line(width))

    def paste(self, tile: Image.Image, at: tuple[float, float]) -> None:
        """Paste a tile drawn at this scale with its corner at a point in layout units."""
        x, y = self._box(at)
        self.image.paste(tile, (round(x), round(y)))

    def stamp(self, tile: Image.Image, mask: Image.Image, at: tuple[int, int], soft: bool) -> None:
        """Stamp a sprite through its mask at a pixel of the image.

        A hard mask (only 0 and 255) copies palette entries exactly. A soft one (a temporary
        mage's anti-aliased mark) blends an RGB tile over the ground in RGB, as palette entries
        cannot be blended, and maps the patch back.
        """
        im = self.draw.im
        assert im is not None
        box = (at[0], at[1], at[0] + tile.width, at[1] + tile.height)
        if not soft or self.palette is None:
            im.paste(tile.im, box, mask.im)
            return
        ground = im.crop(box).convert("RGB")
        ground.paste(tile.im, (0, 0, tile.width, tile.height), mask.im)
        im.paste(ground.convert("P", Image.Dither.NONE, self.palette.im), box)

    def bitmap(self, at: tuple[int, int], mask: Any, fill: Any, key: tuple[Any, ...] | None) -> None:
        """Stamp a loaded text mask (a core image, named by ``key``: None, not kept) in a colour at a pixel.

        On a palette drawing the text is blended over its ground as on RGB (``canvas.Canvas.blend``).

        What ``ImageDraw.bitmap`` does, with the colour's ink looked up once per drawing: a board
        writes a hundred and more lines, and the wrapper cost more than the stamping.
        """
        if self.palette is not None:
            self.draw.blend(at, mask, fill, key)
            return
        ink = self._inks.get(fill)
        if ink is None:
            line, solid = self.draw._getink(fill)
            ink = self._inks[fill] = solid if line is None else line
        self.draw.draw.draw_bitmap(at, mask, ink)


_TILES: dict[tuple[Any, ...], Image.Image] = {}


def tile(
    draw: Sheet, key: tuple[Any, ...], box: tuple[float, float, float, float], paint: Callable[..., None]
) -> None:
    """Paste a part of a drawing that repeats from version to version, drawn once per process.

    ``paint(sheet, w, h)`` draws the part in its own units from (0, 0) on the board's ground;
    ``key`` must name everything it draws (frames, legends, cards that change only now and then).
    """
    x0, y0, x1, y1 = box
    full = (*key, x1 - x0, y1 - y0)
    got = _TILES.get(full)
    if got is None:
        part = sheet(x1 - x0 + 1, y1 - y0 + 1)
        paint(part, x1 - x0, y1 - y0)
        if len(_TILES) > 1000:
            _TILES.clear()
        got = _TILES[full] = part.image
    draw.paste(got, (x0, y0))


def sheet(width: float, height: float, colour: Any = None) -> Sheet:
    """Return a new drawing of a size in layout units, filled with a colour (the board's ground)."""
    size = (math.ceil(width * SCALE), math.ceil(height * SCALE))
    return Sheet(_blank(size, BG if colour is None else colour))


IN_PALETTE = True
"""Draw in the fixed palette from the start (``canvas.blank``): shapes fill one byte a pixel and the
image is never mapped whole. False draws in RGB, mapped when written: the same pixels, slower (the
reference ``tests/test_render_argent.py`` compares with)."""


def _blank(size: tuple[int, int], colour: RGB) -> Image.Image:
    return canvas.blank(size, colour, palette()) if IN_PALETTE else Image.new("RGB", size, colour)


# --------------------------------------------------------------------------- drawing helpers


def clip(text: str, face: Font, width: float) -> str:
    """Shorten a text with an ellipsis to fit a width."""
    return canvas.clip(text, width, face.getlength)


def wrap(text: str, face: Font, width: float, lines: int) -> list[str]:
    """Wrap a text into at most ``lines`` lines of a width, the last clipped."""
    words, out, line = text.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if face.getlength(trial) <= width or not line:
            line = trial
            continue
        out.append(line)
        line = word
    if line:
        out.append(line)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = clip(out[-1] + " …", face, width)
    return [clip(x, face, width) for x in out]


def _shape(draw: Sheet, shape: str, cx: float, cy: float, r: float, fill: Any, outline: Any) -> None:
    """Draw one of the seat shapes centred on (cx, cy)."""
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    elif shape == "square":
        k = r * 0.88
        draw.rectangle((cx - k, cy - k, cx + k, cy + k), fill=fill, outline=outline, width=2)
    elif shape == "triangle":
        draw.polygon(
            [(cx, cy - r * 1.05), (cx + r * 1.05, cy + r * 0.8), (cx - r * 1.05, cy + r * 0.8)],
            fill=fill,
            outline=outline,
            width=2,
        )
    elif shape == "diamond":
        draw.polygon(
            [(cx, cy - r * 1.1), (cx + r * 1.1, cy), (cx, cy + r * 1.1), (cx - r * 1.1, cy)],
            fill=fill,
            outline=outline,
            width=2,
        )
    else:
        draw.regular_polygon((cx, cy, r * 1.02), 6, fill=fill, outline=outline, width=2)


_SPRITES: dict[tuple[Any, ...], tuple[Image.Image, Image.Image, bool]] = {}
Paint = Callable[[Sheet, float, float, bool], None]


def _stamp(draw: Sheet, key: tuple[Any, ...], cx: float, cy: float, reach: float, paint: Paint) -> None:
    """Stamp a sprite centred on (cx, cy), drawn by ``paint`` once per key and subpixel offset.

    A board holds dozens of the same few tokens, and an outlined polygon costs Pillow a mask as
    large as the board. ``reach`` is how far the sprite runs from its centre, in layout units;
    ``paint(sheet, cx, cy, stencil)`` draws it in colour, or (``stencil``) only its shape in white.
    """
    px, py = cx * SCALE - draw.origin[0], cy * SCALE - draw.origin[1]
    pad = int(reach * SCALE) + 4
    ox, oy = math.floor(px) - pad, math.floor(py) - pad
    full = (*key, px - math.floor(px), py - math.floor(py))
    got = _SPRITES.get(full)
    if got is None:
        size = (2 * pad + 2, 2 * pad + 2)
        # The sprite is drawn in the drawing's own units, from the pixel it is stamped at.
        origin = (ox + draw.origin[0], oy + draw.origin[1])
        tile = Sheet(_blank(size, BG), origin)
        mask = Sheet(Image.new("L", size, 0), origin)
        paint(tile, cx, cy, False)
        paint(mask, cx, cy, True)
        soft = any(mask.image.histogram()[1:255])
        if soft:
            # Blended through its soft edge, the sprite's own pixels must be the RGB ones, not
            # their palette entries (else its edge would land a shade off).
            tile = Sheet(Image.new("RGB", size, BG), origin)
            paint(tile, cx, cy, False)
        if len(_SPRITES) > 4000:
            _SPRITES.clear()
        got = _SPRITES[full] = (tile.image, mask.image, soft)
    draw.stamp(got[0], got[1], (ox, oy), got[2])


def seat_token(draw: Sheet, seat: int | None, cx: float, cy: float, r: float) -> None:
    """Draw a player's token: their shape in their colour with their numeral (grey for the supply)."""
    paint: Paint = lambda d, x, y, stencil: _token(d, seat, x, y, r, stencil)  # noqa: E731
    _stamp(draw, ("seat", seat, r), cx, cy, r * 1.2, paint)


def _token(draw: Sheet, seat: int | None, cx: float, cy: float, r: float, stencil: bool = False) -> None:
    """Draw a token in place; ``stencil``: only its shape, in white (the mask a sprite is stamped by)."""
    if seat is None:
        fill, outline = (255, 255) if stencil else (SUPPLY, INK)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
        return
    if stencil:
        _shape(draw, SEAT_SHAPE[seat % 5], cx, cy, r, 255, 255)
        return
    _shape(draw, SEAT_SHAPE[seat % 5], cx, cy, r, SEAT_COLOUR[seat % 5], INK)
    face = font(max(10, int(r * 1.15)), "bold")
    dy = r * 0.18 if SEAT_SHAPE[seat % 5] == "triangle" else 0
    write(draw, (cx, cy + dy), str(seat + 1), font=face, fill=SEAT_TEXT[seat % 5], anchor="mm")


def mage_token(draw: Sheet, mage: Mage, cx: float, cy: float, r: float) -> None:
    """Draw a mage: its owner's token, with its department's tag in a coloured band below."""
    owner, dept, temp = mage.owner, mage.type, mage.temp
    key = ("mage", owner, dept, temp, r)
    _stamp(draw, key, cx, cy, r * 1.6, lambda d, x, y, stencil: _mage(d, owner, dept, temp, x, y, r, stencil))


def _mage(
    draw: Sheet, owner: int | None, dept: str, temp: bool, cx: float, cy: float, r: float, stencil: bool
) -> None:
    """Draw a mage in place (``stencil``: only its outline, in white)."""
    _token(draw, owner, cx, cy, r, stencil)
    tag = DEPT_TAG.get(dept, "?")
    face = font(max(9, int(r * 0.7)), "bold", least=7)
    w = face.getlength(tag) + 6
    top = cy + r * 0.62
    colour = DEPT_COLOUR.get(dept, MUTED)
    band = (cx - w / 2, top, cx + w / 2, top + r * 0.8)
    draw.rounded_rectangle(band, radius=3, fill=255 if stencil else colour, outline=255 if stencil else INK)
    if not stencil:
        ink = INK if sum(colour) > 420 else LIGHT
        write(draw, (cx, top + r * 0.4), tag, font=face, fill=ink, anchor="mm")
    if temp:
        mark = font(int(r * 0.8), "bold")
        write(draw, (cx + r, cy - r), "t", font=mark, fill=255 if stencil else GOLD, anchor="mm")


def face_key(face: ImageFont.FreeTypeFont) -> tuple[Any, ...]:
    """What a face renders by: its file, size, index and layout. Not ``id(face)``: a face dropped
    from ``font``'s cache is freed, and a new face of another size may then get its id, and with
    it the old face's masks (a line drawn with the wrong glyphs; seen once in a test run)."""
    return (face.path, face.size, face.index, face.layout_engine)


MASKS: Kept[tuple[Any, int, int]] = Kept(count=6000, pixels=4_000_000, small=10_000)
"""Rendered lines by text, face and anchor (``render.kept``: a large one once drawn twice)."""


def write(draw: Sheet, xy: tuple[float, float], text: str, font: Font, fill: RGB, anchor: str = "la") -> None:
    """Draw text from a cache of rendered masks: boards repeat the same words, and rendering is the cost."""
    key = (text, face_key(font.face), anchor)
    got = MASKS.get(key)
    kept: tuple[Any, ...] | None = key
    if got is None:
        got = _from_words(font.face, text) if anchor == "la" else None
        if got is None:
            # The glyphs as ``ImageDraw.text`` would render them at a whole pixel, with their offset.
            mask, (left, top) = font.face.getmask2(text, "L", anchor=anchor)
            got = (mask, left, top)
        if not MASKS.offer(key, got, got[0].size[0] * got[0].size[1]):
            kept = None  # nor is its blended patch kept
    mask, left, top = got
    x, y = xy[0] * SCALE - draw.origin[0], xy[1] * SCALE - draw.origin[1]
    draw.bitmap((int(x) + left, int(y) + top), mask, fill, kept)


WORDS: Kept[tuple[Any, int, int, float]] = Kept(count=8000, pixels=4_000_000, small=10_000)
"""Rendered words of the lines put together from them (``_from_words``), by word and face: the
words of one-off lines repeat (names, "drafts", "decides"), the lines do not."""


def _word(face: ImageFont.FreeTypeFont, word: str) -> tuple[Any, int, int, float]:
    """Return a word's rendered mask, its offset and its advance."""
    key = (word, face_key(face))
    got = WORDS.get(key)
    if got is None:
        mask, (left, top) = face.getmask2(word, "L")
        got = (mask, left, top, face.getlength(word))
        WORDS.offer(key, got, mask.size[0] * mask.size[1])
    return got


def _from_words(face: ImageFont.FreeTypeFont, text: str) -> tuple[Any, int, int] | None:
    """Return a line's mask put together from its words' masks, or None where that may not be exact.

    A move's one-off lines ("Last: mage50084 (P3) drafts a Natural Magick mage.", "mage50084 (P3)
    decides") were rendered whole each time, a fifth of a board. Pillow's basic layout renders each
    glyph alone at a whole pixel of the pen and keeps the brighter of overlapping pixels, and a
    glyph's pen is the sum of the advances and pair kernings before it. So where every word starts
    at a whole pixel (checked: a fractional start falls back) and no two words' inks meet (checked),
    the line is its words' masks side by side, each where the pen reaches it: the last word's
    start, plus its advance, plus the space between them with the kernings on either side of it
    (measured on the two letters and the space alone).
    """
    words = text.split(" ")
    if len(words) < 2 or "" in words:
        return None
    placed = []
    start, advance = 0.0, 0.0
    for k, word in enumerate(words):
        if k:
            ends, begins = words[k - 1][-1], word[0]
            gap = face.getlength(f"{ends} {begins}") - face.getlength(ends) - face.getlength(begins)
            start += advance + gap
        if not start.is_integer():
            return None
        mask, left, top, advance = _word(face, word)
        if not mask.size[0] or not mask.size[1]:
            return None
        placed.append((int(start) + left, top, mask))
    for (x, _, mask), (after, _, _) in pairwise(placed):
        if x + mask.size[0] > after:
            return None  # inks that meet would be kept brighter, not pasted over
    x0, y0 = placed[0][0], min(top for _, top, _ in placed)
    x1 = placed[-1][0] + placed[-1][2].size[0]
    y1 = max(top + mask.size[1] for _, top, mask in placed)
    line = Image.core.fill("L", (x1 - x0, y1 - y0), 0)
    for x, top, mask in placed:
        line.paste(mask, (x - x0, top - y0, x - x0 + mask.size[0], top - y0 + mask.size[1]))
    return line, x0, y0


def _blend(a: RGB, b: RGB, share: float) -> RGB:
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """Return the fixed palette every drawing is mapped to: its flat colours and their text edges.

    Mapping to a known palette is five times faster than computing one per image, keeps the PNG
    small, and makes the pixels depend on the view alone.
    """
    flats = [BG, PANEL, PAPER, PAPER_DIM, INK, MUTED, LIGHT, LIGHT_MUTED, GOLD, LOCK, MERIT, SHADOW]
    flats += [SLOT_EMPTY, VOTER_DOWN, VOTER_SEEN, UNRESEARCHED, SUPPLY, *SEAT_COLOUR, *DEPT_COLOUR.values()]
    inks = (INK, MUTED, LIGHT, LIGHT_MUTED, GOLD)
    grounds = (
        BG,
        PANEL,
        PAPER,
        PAPER_DIM,
        VOTER_DOWN,
        VOTER_SEEN,
        SLOT_EMPTY,
        UNRESEARCHED,
        MERIT,
        SHADOW,
        LOCK,
    )
    colours = list(dict.fromkeys(flats))
    for ink in inks:
        for ground in grounds:
            colours += [_blend(ground, ink, 0.33), _blend(ground, ink, 0.66)]
    for ground in (*SEAT_COLOUR, *DEPT_COLOUR.values()):
        for ink in (INK, LIGHT):
            colours.append(_blend(ground, ink, 0.5))
    colours = list(dict.fromkeys(colours))[:256]
    flat = [c for colour in colours for c in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + flat[:3] * (256 - len(colours)))
    return image


def png_bytes(image: Image.Image | Sheet) -> bytes:
    """Encode a drawing as PNG bytes."""
    return canvas.png(image.image if isinstance(image, Sheet) else image, palette())
