"""The look of Argent's drawings: sizes, colours, seat and department tags, fonts, drawing helpers."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render import canvas, typefaces
from rules.argent.state import DEPT_NAMES

View = dict[str, Any]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]

# --------------------------------------------------------------------------- look

BOARD_W = 1400
OFFICE_W = 1400
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


@lru_cache(maxsize=64)
def font(size: int, style: str = "regular") -> Font:
    """Return a shipped DejaVu face at that pixel size (regular, bold, narrow, narrow_bold)."""
    # The basic layout is several times faster than Raqm and enough for Latin text.
    return typefaces.load(size, style, basic=True)


# --------------------------------------------------------------------------- drawing helpers


def clip(text: str, face: Font, width: float) -> str:
    """Shorten a text with an ellipsis to fit a width."""
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


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


def _shape(
    draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill: RGB, outline: RGB
) -> None:
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


_TOKENS: dict[tuple[int | None, float, float, float], tuple[Image.Image, Image.Image]] = {}


def seat_token(draw: ImageDraw.ImageDraw, seat: int | None, cx: float, cy: float, r: float) -> None:
    """Draw a player's token: their shape in their colour with their numeral (grey for the supply).

    Stamped from a sprite drawn once per seat, size and subpixel offset: a board holds dozens of
    the same few tokens, and an outlined polygon costs Pillow a mask as large as the board.
    """
    pad = int(r * 1.2) + 4
    ox, oy = math.floor(cx) - pad, math.floor(cy) - pad
    key = (seat, r, cx - math.floor(cx), cy - math.floor(cy))
    got = _TOKENS.get(key)
    if got is None:
        size = (2 * pad + 2, 2 * pad + 2)
        tile, mask = Image.new("RGB", size, BG), Image.new("L", size, 0)
        _token(canvas.draw(tile), seat, cx - ox, cy - oy, r)
        _token(ImageDraw.Draw(mask), seat, cx - ox, cy - oy, r, stencil=True)
        if len(_TOKENS) > 2000:
            _TOKENS.clear()
        got = _TOKENS[key] = (tile, mask)
    tile, mask = got
    assert draw.im is not None
    draw.im.paste(tile.im, (ox, oy, ox + tile.width, oy + tile.height), mask.im)


def _token(
    draw: ImageDraw.ImageDraw, seat: int | None, cx: float, cy: float, r: float, *, stencil: bool = False
) -> None:
    """Draw a token in place; ``stencil``: only its shape, in white (the mask a sprite is stamped by)."""
    if seat is None:
        fill, outline = (255, 255) if stencil else (SUPPLY, INK)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
        return
    if stencil:
        _shape(draw, SEAT_SHAPE[seat % 5], cx, cy, r, 255, 255)  # type: ignore[arg-type]
        return
    _shape(draw, SEAT_SHAPE[seat % 5], cx, cy, r, SEAT_COLOUR[seat % 5], INK)
    face = font(max(10, int(r * 1.15)), "bold")
    dy = r * 0.18 if SEAT_SHAPE[seat % 5] == "triangle" else 0
    write(draw, (cx, cy + dy), str(seat + 1), font=face, fill=SEAT_TEXT[seat % 5], anchor="mm")


def mage_token(draw: ImageDraw.ImageDraw, mage: dict[str, Any], cx: float, cy: float, r: float) -> None:
    """Draw a mage: its owner's token, with its department's tag in a coloured band below."""
    seat_token(draw, mage["owner"], cx, cy, r)
    tag = DEPT_TAG.get(mage["type"], "?")
    face = font(max(9, int(r * 0.7)), "bold")
    w = face.getlength(tag) + 6
    top = cy + r * 0.62
    colour = DEPT_COLOUR.get(mage["type"], MUTED)
    draw.rounded_rectangle((cx - w / 2, top, cx + w / 2, top + r * 0.8), radius=3, fill=colour, outline=INK)
    ink = INK if sum(colour) > 420 else LIGHT
    write(draw, (cx, top + r * 0.4), tag, font=face, fill=ink, anchor="mm")
    if mage.get("temp"):
        write(draw, (cx + r, cy - r), "t", font=font(int(r * 0.8), "bold"), fill=GOLD, anchor="mm")


_MASKS: dict[tuple[str, int, str], tuple[Image.Image, int, int]] = {}


def write(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: Font, fill: RGB, anchor: str = "la"
) -> None:
    """Draw text from a cache of rendered masks: boards repeat the same words, and rendering is the cost."""
    key = (text, id(font), anchor)
    got = _MASKS.get(key)
    if got is None:
        left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
        if len(_MASKS) > 6000:
            _MASKS.clear()
        got = _MASKS[key] = (mask, left, top)
    mask, left, top = got
    draw.bitmap((int(xy[0]) + left, int(xy[1]) + top), mask, fill=fill)


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


def png_bytes(image: Image.Image) -> bytes:
    """Encode an image as PNG bytes."""
    return canvas.png(image, palette())
