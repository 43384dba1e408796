"""What every drawing draws with: a canvas whose text comes from cached glyph masks, and the encoder.

Boards repeat the same words in the same faces on every version (seat names, room titles, card
names): rendering each one's glyphs again was the largest part of drawing a board. ``draw``
returns an ``ImageDraw`` whose ``text`` renders a line once per process (by face, text, anchor
and subpixel start) and then only stamps it, pixel for pixel what Pillow would draw. The faces
``render.typefaces`` loads measure a text once too (``getlength``).

``png`` encodes a drawing: an image of few colours is mapped to a palette first, which makes the
PNG several times faster to write and smaller to send.

A drawing with a fixed palette is drawn in it from the start (``blank``): shapes fill one byte a
pixel, and the whole image is never mapped to the palette afterwards (that mapping was a third of a
board's time). Text stays anti-aliased: a line is blended in RGB over the ground it is written on,
exactly as on an RGB image, and only that patch is mapped to the palette (once per ground, ink and
line when the ground is flat).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image, ImageColor, ImageDraw, ImageFont

from render import encode
from render.kept import Kept

MASK_LIMIT = 20000
"""Rendered lines kept, and texts measured (per face)."""
MASKS: Kept[tuple[Any, tuple[int, int]]] = Kept(count=MASK_LIMIT, pixels=16_000_000, small=10_000)
"""Rendered lines (``render.kept``: bounded, a large one kept once drawn twice): every board's
words, several times over."""
PATCHES: Kept[Any] = Kept(count=6000, pixels=16_000_000, small=10_000)
"""Lines blended and mapped to a palette on a flat ground: a load of tables brings many long
one-off lines (names, last moves), and the cache must not grow a drawing process by tens of MB."""
_INDEX: dict[tuple[bytes, Any], int] = {}
_SHADES: dict[tuple[int, int, RGB], list[int]] = {}
"""Each ink's coverage mapped to the palette over a flat ground entry (``Canvas._shades``)."""
_PALETTES: dict[bytes, Image.Image] = {}
RGB = tuple[int, int, int]


class Canvas(ImageDraw.ImageDraw):
    """An ``ImageDraw`` that stamps a single line of text from a cache of its rendered mask.

    On a palette image (``blank``) colours are given as RGB and drawn as their palette entry, and
    text is blended as on an RGB image (Pillow would draw it jagged there).
    """

    def __init__(self, im: Image.Image) -> None:
        super().__init__(im)
        self._palette: Image.Image | None = None
        if im.mode == "P":
            self._palette = _palette_of(im)
            self.fontmode = "L"

    def _getink(self, ink: Any, fill: Any = None) -> tuple[int | None, int | None]:
        """Return the inks of a colour, a palette image's colours as their entries in the palette."""
        if self._palette is not None:
            ink = None if ink is None else self.index(ink)
            fill = None if fill is None else self.index(fill)
        return super()._getink(ink, fill)

    def index(self, colour: Any) -> int:
        """Return the palette entry a colour is drawn as: the one mapping the image would give it."""
        assert self._palette is not None
        if isinstance(colour, int):
            return colour
        return _index(self._palette, _rgb(colour))

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
        if self._palette is not None and fill is not None:
            if plain and not args and not kwargs:
                self._line_on_palette(xy, text, _rgb(fill), font, anchor)
            else:
                self._text_on_palette(xy, text, _rgb(fill), font, anchor, *args, **kwargs)
            return
        if args or kwargs or not plain or self.im is None:
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        ink, fill_ink = self._getink(fill)
        ink = fill_ink if ink is None else ink
        if ink is None:
            return
        mask, offset = _mask((font, text, anchor, self.fontmode, _start(xy)))
        self.draw.draw_bitmap((int(xy[0]) + offset[0], int(xy[1]) + offset[1]), mask, ink)

    def _line_on_palette(
        self, xy: tuple[float, float], text: str, ink: RGB, font: Any, anchor: str | None
    ) -> None:
        """Blend a line over its ground in RGB and paste it back mapped to the palette."""
        key = (font, text, anchor, self.fontmode, _start(xy))
        mask, offset = _mask(key)
        at = (int(xy[0]) + offset[0], int(xy[1]) + offset[1])
        self.blend(at, mask, ink, key if key in MASKS else None)

    def blend(self, at: tuple[int, int], mask: Any, ink: RGB, key: tuple[Any, ...] | None) -> None:
        """Blend a rendered mask (a core "L" image) in a colour over its ground at a pixel, as on RGB.

        The patch it covers is blended in RGB and mapped back to the palette; on a flat ground the
        mapped patch is kept under ``key`` (which must name the mask: its face, text, anchor...;
        None: not kept).
        """
        if not mask.size[0] or not mask.size[1]:
            return
        x0, y0 = at
        box = (x0, y0, x0 + mask.size[0], y0 + mask.size[1])
        # Pillow's core images: a line is drawn often, and the Python wrappers cost more than the work.
        ground = self.im.crop(box)
        low, high = ground.getextrema()
        flat = low == high
        key = (*key, ink, low, id(self._palette)) if flat and key is not None else None
        patch = PATCHES.get(key) if key is not None else None
        if patch is None:
            if flat:
                patch = mask.point(self._shades(low, ink), "P")
            else:
                rgb = ground.convert("RGB")
                core = Image.core.draw(rgb, 0)
                core.draw_bitmap((0, 0), mask, core.draw_ink(ink))
                patch = self._mapped(rgb)
            if key is not None:
                PATCHES.offer(key, patch, patch.size[0] * patch.size[1])
        self.im.paste(patch, box)

    def _shades(self, ground: int, ink: RGB) -> list[int]:
        """Return the palette entry of each coverage (0-255) of an ink blended over a flat ground entry.

        Blending and mapping go pixel by pixel, so on a flat ground a line's patch is its mask
        looked up in this table: the same entries as blending the patch in RGB and mapping it (it
        is worked out that way, once per ground and ink), without the two conversions of a line
        that is not kept (a move's one-off "Last: ..." sentence).
        """
        assert self._palette is not None
        key = (id(self._palette), ground, ink)
        got = _SHADES.get(key)
        if got is None:
            row = Image.new("P", (256, 1), ground)
            row.putpalette(self._palette.getpalette() or [])
            rgb = row.convert("RGB").im
            core = Image.core.draw(rgb, 0)
            coverage = Image.frombytes("L", (256, 1), bytes(range(256)))
            core.draw_bitmap((0, 0), coverage.im, core.draw_ink(ink))
            mapped = self._mapped(rgb)
            got = _SHADES[key] = [mapped.getpixel((a, 0)) for a in range(256)]
        return got

    def _text_on_palette(self, xy: tuple[float, float], text: Any, ink: RGB, font: Any, anchor: str | None,
                         *args: Any, **kwargs: Any) -> None:
        """Draw any other text as Pillow would on RGB, over the ground it covers, mapped to the palette."""
        measure = {k: v for k, v in kwargs.items() if k != "stroke_fill"}
        left, top, right, bottom = (int(v) for v in super().textbbox(xy, text, font, anchor, **measure))
        box = (left - 1, top - 1, right + 1, bottom + 1)
        rgb = self._image.crop(box).convert("RGB")
        ImageDraw.Draw(rgb).text((xy[0] - box[0], xy[1] - box[1]), text, ink, font, anchor, *args, **kwargs)
        self.im.paste(self._mapped(rgb.im), box)

    def _mapped(self, rgb: Any) -> Any:
        """Return an RGB core image mapped to the palette, as ``Image.quantize`` maps it."""
        assert self._palette is not None
        return rgb.convert("P", Image.Dither.NONE, self._palette.im)


def _start(xy: tuple[float, float]) -> tuple[float, float]:
    return (math.modf(xy[0])[0], math.modf(xy[1])[0])


def _mask(key: tuple[Any, Any, Any, Any, tuple[float, float]]) -> tuple[Any, tuple[int, int]]:
    """Return a line's rendered mask and offset by (face, text, anchor, mode, subpixel start)."""
    got = MASKS.get(key)
    if got is None:
        font, text, anchor, mode, start = key
        got = font.getmask2(text, mode, anchor=anchor, start=start)
        MASKS.offer(key, got, got[0].size[0] * got[0].size[1])
    return got


def _rgb(colour: Any) -> RGB:
    if isinstance(colour, str):
        colour = ImageColor.getrgb(colour)
    return (colour[0], colour[1], colour[2])


def _palette_of(image: Image.Image) -> Image.Image:
    """Return the palette image a palette drawing was made with (one object per palette, for caching)."""
    data = bytes(image.getpalette() or b"")
    got = _PALETTES.get(data)
    if got is None:
        got = _PALETTES[data] = Image.new("P", (1, 1))
        got.putpalette(data)
    return got


def _index(palette: Image.Image, colour: RGB) -> int:
    """Return the entry an RGB colour maps to in a palette (as ``png`` would map it)."""
    key = (id(palette), colour)
    got = _INDEX.get(key)
    if got is None:
        probe = Image.new("RGB", (1, 1), colour).quantize(palette=palette, dither=Image.Dither.NONE)
        got = _INDEX[key] = int(probe.getpixel((0, 0)))  # type: ignore[arg-type]
    return got


def blank(size: tuple[int, int], colour: RGB, palette: Image.Image) -> Image.Image:
    """Return a palette image filled with a colour, to draw in the palette from the start (see above)."""
    data = palette.getpalette() or []
    known = _palette_of(palette)
    image = Image.new("P", size, _index(known, colour))
    image.putpalette(data)
    return image


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



def clip(text: str, width: float, measure: Callable[[str], float]) -> str:
    """Shorten a text with an ellipsis to fit ``width`` as ``measure`` counts pixels.

    ``measure`` is the caller's own (a font's ``getlength``, or a drawing's ``textlength``, which on
    a palette image measures as that image draws), so a clipped line is exactly as wide as drawn.
    """
    if measure(text) <= width:
        return text
    while text and measure(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


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
