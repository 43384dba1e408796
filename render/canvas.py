"""What every drawing draws with: a canvas whose text comes from cached glyph masks, and the encoder.

Boards repeat the same words in the same faces on every version (seat names, room titles, card
names): rendering each one's glyphs again was the largest part of drawing a board. ``draw``
returns an ``ImageDraw`` whose ``text`` renders a line once per process (by face, text, anchor
and subpixel start) and then only stamps it, pixel for pixel what Pillow would draw. The faces
``render.typefaces`` loads measure a text once too (``getlength``).

``png`` encodes a drawing: an image of few colours is mapped to a palette first, which makes the
PNG several times faster to write and smaller to send.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from render import encode

_MASKS: dict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = {}
MASK_LIMIT = 20000
"""Rendered lines kept (a few KB each): every board's words, several times over."""


class Canvas(ImageDraw.ImageDraw):
    """An ``ImageDraw`` that stamps a single line of text from a cache of its rendered mask."""

    def text(  # type: ignore[override]
        self,
        xy: tuple[float, float],
        text: Any,
        fill: Any = None,
        font: Any = None,
        anchor: str | None = None,
        *args: Any,
        **kwargs: Any,
    ) -> None:
        """Draw text; a plain line in a FreeType face comes from the cache (the rest as Pillow does)."""
        plain = isinstance(text, str) and "\n" not in text and isinstance(font, ImageFont.FreeTypeFont)
        if args or kwargs or not plain or self.im is None:
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        ink, fill_ink = self._getink(fill)
        ink = fill_ink if ink is None else ink
        if ink is None:
            return
        x, y = xy
        start = (math.modf(x)[0], math.modf(y)[0])
        key = (font, text, anchor, self.fontmode, start)
        got = _MASKS.get(key)
        if got is None:
            if len(_MASKS) >= MASK_LIMIT:
                _MASKS.clear()
            got = _MASKS[key] = font.getmask2(text, self.fontmode, anchor=anchor, start=start)
        mask, offset = got
        self.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)


def draw(image: Image.Image) -> ImageDraw.ImageDraw:
    """Return a drawing context for an image whose text is stamped from cached masks."""
    return Canvas(image)


class MeasuredFont(ImageFont.FreeTypeFont):
    """A FreeType face that remembers the length of each text it measured (layout asks often)."""

    _lengths: dict[tuple[str, str], float]

    def getlength(self, text: Any, mode: str = "", direction: Any = None, features: Any = None,
                  language: Any = None) -> float:
        """Return the advance of a text, measured once per text and mode (``ImageDraw.textlength`` too)."""
        if direction is not None or features is not None or language is not None or not isinstance(text, str):
            return super().getlength(text, mode, direction, features, language)
        lengths = self.__dict__.setdefault("_lengths", {})
        got = lengths.get((text, mode))
        if got is None:
            if len(lengths) >= MASK_LIMIT:
                lengths.clear()
            got = lengths[text, mode] = super().getlength(text, mode)
        return got


def measured(face: ImageFont.FreeTypeFont) -> ImageFont.FreeTypeFont:
    """Return a face opened by ``ImageFont.truetype`` as a ``MeasuredFont`` (the same face, measured once)."""
    face.__class__ = MeasuredFont
    return face


RGB = tuple[int, int, int]


def palette(flats: Sequence[RGB], inks: Sequence[RGB] = (), grounds: Sequence[RGB] = ()) -> Image.Image:
    """Return a fixed palette: a drawing's flat colours, then each ink's edge shades on each ground.

    Text is anti-aliased: its edge pixels blend an ink into the ground it is written on. Mapping
    to a known palette is several times faster than finding one per image, and keeps every flat
    colour exact. At most 256 colours: the flats first, then the shades in order.
    """
    colours = list(dict.fromkeys([*flats, *shades(inks, grounds)]))[:256]
    flat = [c for colour in colours for c in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + flat[:3] * (256 - len(colours)))
    return image


def shades(inks: Sequence[RGB], grounds: Sequence[RGB]) -> list[RGB]:
    """Return the edge shades of text in each ink on each ground: a third and two thirds of the way."""
    return [_blend(ground, ink, share) for ink in inks for ground in grounds for share in (1 / 3, 2 / 3)]


def _blend(a: RGB, b: RGB, share: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * share), round(a[1] + (b[1] - a[1]) * share),
            round(a[2] + (b[2] - a[2]) * share))


def png(image: Image.Image, palette: Image.Image | None = None, *, colours: int = 256) -> bytes:
    """Encode a drawing as a palette PNG: mapped to ``palette``, else to ``colours`` of its own.

    An RGB PNG spends most of its time choosing a filter for each row; a palette image skips it
    and is written five times faster (``encode.palette_png``, with a fast deflate). A board's flat
    colours and text edges fit 256 colours (the largest change of a pixel is a shade of an
    anti-aliased edge).
    """
    if image.mode != "P":
        if palette is not None:
            image = image.quantize(palette=palette, dither=Image.Dither.NONE)
        else:
            image = image.quantize(colors=colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return encode.palette_png(image)
