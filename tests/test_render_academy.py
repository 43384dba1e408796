"""Wizard's Academy's board image: drawn from the public view, the same whatever is hidden."""

from __future__ import annotations

import random

import render
from render import academy as drawing
from rules.academy import RULES


def played(players: int, options: dict[str, str], seed: int, steps: int) -> tuple[dict, dict | None, list]:
    """Return a state after random moves, the public view before the last move, and its events."""
    rand = random.Random(seed)
    state = RULES.setup(players, {**RULES.default_options(), **options}, seed)
    before, events = None, []
    for _ in range(steps):
        if RULES.is_over(state):
            break
        seat = RULES.waiting_on(state)[0]
        before = RULES.view(state, None)
        state, events = RULES.apply(state, seat, rand.choice(RULES.legal_moves(state, seat)))
    return state, before, events


def test_the_board_hides_what_the_view_hides() -> None:
    # The same public view whatever the face-down spells and the held disasters are: the same pixels.
    for options, seed in (({"scenario": "basic"}, 3), ({"scenario": "golem"}, 4), ({"scenario": "demon"}, 5)):
        state, _, _ = played(4, options, seed, 30)
        image = render.board("academy", RULES.view(state, None))
        for n in range(3):
            other = RULES.scramble(state, None, random.Random(n))
            assert render.board("academy", RULES.view(other, None)) == image


def test_the_board_frames_the_rooms_the_last_move_changed() -> None:
    state, before, events = played(2, {"scenario": "basic"}, 7, 25)
    view = RULES.view(state, None)
    changed = drawing.changed_rooms(before, view)
    assert changed == {r["key"] for r in view["grid"] if r not in (before or {}).get("grid", [])}
    plain = render.board("academy", view)
    caption = render.Caption(names={0: "alice", 1: "bob"}, last=tuple(e.text for e in events), before=before)
    assert render.board("academy", view, caption) != plain


def test_six_wizards_fit_and_the_image_stays_small() -> None:
    state, _, _ = played(6, {"scenario": "gates"}, 9, 60)
    png = render.board("academy", RULES.view(state, None))
    assert png is not None and len(png) < 600_000
    assert png[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_legend_shows_the_imp_portal() -> None:
    import io

    from PIL import Image

    view = RULES.view(RULES.setup(2, RULES.default_options(), 3), None)
    assert not any(room["portals"] for room in view["grid"])  # none on the board: only the legend has one
    image = Image.open(io.BytesIO(drawing.draw_board(view))).convert("RGB")
    top = drawing.GRID_Y + 4 * drawing.CELL_H + 12
    ring = [(x, y) for y in range(top, top + 21) for x in range(image.width)
            if image.getpixel((x, y)) == drawing.PORTAL]
    assert len(ring) > 20


def test_the_board_is_encoded_losslessly_without_the_slow_filter_search(monkeypatch) -> None:
    """The PNG holds the drawn pixels exactly, every row unfiltered (no filter search: 8x slower)."""
    import io
    import struct
    import zlib

    from PIL import Image

    from render import encode

    state, _, _ = played(6, {"scenario": "gates"}, 9, 40)
    saved: list[Image.Image] = []
    real_write = encode.palette_png

    def recording(image: Image.Image) -> bytes:
        saved.append(image.copy())
        return real_write(image)

    monkeypatch.setattr(encode, "palette_png", recording)
    png = render.board("academy", RULES.view(state, None))
    assert len(saved) == 1
    decoded = Image.open(io.BytesIO(png)).convert("RGB")
    assert decoded.tobytes() == saved[0].convert("RGB").tobytes()
    idat, at = b"", 8
    while at < len(png):
        (size,), kind = struct.unpack(">I", png[at : at + 4]), png[at + 4 : at + 8]
        idat += png[at + 8 : at + 8 + size] if kind == b"IDAT" else b""
        at += 12 + size
    rows = zlib.decompress(idat)
    stride = saved[0].width + 1
    assert {rows[k] for k in range(0, len(rows), stride)} == {0}


def test_a_line_that_fits_is_measured_once() -> None:
    from PIL import Image, ImageDraw

    measured: list[str] = []

    class Counting(ImageDraw.ImageDraw):
        def textlength(self, text, *args, **kwargs):  # type: ignore[no-untyped-def, override]
            measured.append(text)
            return super().textlength(text, *args, **kwargs)

    draw = Counting(Image.new("RGB", (10, 10)))
    text = "Cast Abjure in the Mana Crystal with no fire anywhere."
    assert drawing._wrap(draw, text, drawing.font(14), 600, 2) == [text]
    assert measured == [text]
