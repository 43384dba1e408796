"""The PNG writer every drawing is posted through: the same pixels as Pillow's, a standard file."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageDraw

from render import canvas, encode


def _drawing() -> Image.Image:
    """Return a palette image with flat areas, edges and every index in use."""
    image = Image.new("RGB", (301, 157), (30, 32, 40))
    draw = ImageDraw.Draw(image)
    for k in range(256):
        x, y = k % 30 * 10, k // 30 * 10
        draw.rectangle((x, y, x + 9, y + 9), fill=(k, 255 - k, k // 2))
    draw.text((5, 120), "Round 3/5 · Errands", fill=(238, 238, 244))
    return image.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def test_the_written_png_holds_the_same_pixels_and_palette_as_pillows() -> None:
    image = _drawing()
    data = encode.palette_png(image)
    Image.open(io.BytesIO(data)).verify()
    written = Image.open(io.BytesIO(data))
    written.load()
    assert written.mode == "P" and written.size == image.size
    assert written.tobytes() == image.tobytes()
    assert written.getpalette() == image.getpalette()
    pillow = io.BytesIO()
    image.save(pillow, format="PNG")
    assert written.convert("RGB").tobytes() == Image.open(pillow).convert("RGB").tobytes()


def test_canvas_png_writes_through_it() -> None:
    image = _drawing().convert("RGB")
    data = canvas.png(image)
    assert data == encode.palette_png(image.quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                                                    dither=Image.Dither.NONE))


@pytest.mark.parametrize("image", [Image.new("RGB", (4, 4)), Image.new("P", (4, 4), 0)])
def test_it_refuses_what_it_cannot_write_faithfully(image: Image.Image) -> None:
    if image.mode == "P":
        image.info["transparency"] = 0
    with pytest.raises(ValueError):
        encode.palette_png(image)
