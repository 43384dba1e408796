"""The shared canvas: drawings with a fixed palette are drawn in it, text as anti-aliased as on RGB."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import render
from render import canvas, typefaces
from rules.academy import RULES as ACADEMY
from rules.argent import ARGENT
from rules.contract import Rules
from rules.institute import RULES as INSTITUTE
from rules.quadrivium import RULES as QUADRIVIUM

GROUND, INK = (244, 236, 218), (40, 32, 24)


def _palette() -> Image.Image:
    return canvas.palette([GROUND, INK], [INK], [GROUND])


def test_text_on_a_palette_drawing_is_the_rgb_drawing_mapped_to_the_palette() -> None:
    face = typefaces.load(21, "bold")
    rgb = Image.new("RGB", (300, 60), GROUND)
    canvas.draw(rgb).text((10.5, 12), "Council Votes 3", fill=INK, font=face)
    expected = rgb.quantize(palette=_palette(), dither=Image.Dither.NONE)
    for _ in range(2):  # the second time from the cache of blended lines
        drawn = canvas.blank((300, 60), GROUND, _palette())
        canvas.draw(drawn).text((10.5, 12), "Council Votes 3", fill=INK, font=face)
        assert drawn.mode == "P"
        assert drawn.convert("RGB").tobytes() == expected.convert("RGB").tobytes()
    shades = {colour for _, colour in drawn.convert("RGB").getcolors()}
    assert len(shades) > 2  # anti-aliased edges, not Pillow's jagged palette text


def test_text_over_two_grounds_blends_over_each() -> None:
    face = typefaces.load(24, "bold")
    other = (30, 104, 214)
    palette = canvas.palette([GROUND, INK, other], [INK], [GROUND, other])
    rgb = Image.new("RGB", (200, 50), GROUND)
    canvas.draw(rgb).rectangle((0, 0, 60, 50), fill=other)
    canvas.draw(rgb).text((20, 10), "Portal", fill=INK, font=face)
    drawn = canvas.blank((200, 50), GROUND, palette)
    canvas.draw(drawn).rectangle((0, 0, 60, 50), fill=other)
    canvas.draw(drawn).text((20, 10), "Portal", fill=INK, font=face)
    expected = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    assert drawn.convert("RGB").tobytes() == expected.convert("RGB").tobytes()


def test_a_shape_takes_the_entry_its_colour_maps_to() -> None:
    near = (GROUND[0] - 1, GROUND[1], GROUND[2] + 1)  # not in the palette: drawn as its nearest entry
    drawn = canvas.blank((20, 20), INK, _palette())
    canvas.draw(drawn).rectangle((0, 0, 9, 9), fill=near)
    assert drawn.convert("RGB").getpixel((5, 5)) == GROUND
    assert drawn.convert("RGB").getpixel((15, 15)) == INK


def _views(rules: Rules, players: int, seed: int) -> Iterator[dict[str, Any]]:
    rand = random.Random(seed)
    state = rules.setup(players, rules.default_options(), seed)
    for step in range(60):
        if rules.is_over(state):
            break
        if step % 15 == 0:
            yield rules.view(state, None)
            yield rules.view(state, 0)
        seat = rules.waiting_on(state)[0]
        state, _ = rules.apply(state, seat, rand.choice(rules.legal_moves(state, seat)))


@pytest.mark.parametrize("rules, players", [(INSTITUTE, 2), (ACADEMY, 6), (QUADRIVIUM, 6), (ARGENT, 5)])
def test_boards_and_sheets_are_drawn_in_their_palette_and_written_quickly(
    rules: Rules, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Mapping a whole RGB drawing to the palette was a third of a board's time: only the patches
    # under text may be mapped, never the image.
    mapped: list[int] = []
    drawn: list[int] = []
    quantize, png = Image.Image.quantize, canvas.png

    def counting_quantize(image: Image.Image, *args: Any, **kwargs: Any) -> Image.Image:
        mapped.append(image.width * image.height)
        return quantize(image, *args, **kwargs)

    def counting_png(image: Image.Image, *args: Any, **kwargs: Any) -> bytes:
        drawn.append(image.width * image.height)
        return png(image, *args, **kwargs)

    monkeypatch.setattr(Image.Image, "quantize", counting_quantize)
    monkeypatch.setattr(canvas, "png", counting_png)
    for view in _views(rules, players, 5):
        if view.get("seat") is None:
            assert render.board(rules.kind, view) is not None
        else:
            render.private(rules.kind, view)
    assert drawn
    assert max(mapped, default=0) < min(drawn) / 10
