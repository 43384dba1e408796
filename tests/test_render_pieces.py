"""The board's kept pieces (``render.argent.pieces``) and the line shades: the same pixels, bounded,
never shared with a private sheet, and a changed datum drawn anew."""

from __future__ import annotations

import random
from typing import Any

import pytest

import render
from bench.argent_board import busy_game
from render import argent as drawing
from render.argent import pieces
from render.kept import Kept
from rules.argent import ARGENT as R

NAMES = {0: "mage50001", 1: "host", 2: "a rather long display name", 3: "Zoë", 4: "mage50002"}


def _walk(players: int, seed: int, steps: int) -> list[tuple[dict[str, Any], render.Caption]]:
    """Each public view of a seeded game, with a caption as the table gives it (names, the view before)."""
    state, rnd = R.setup(players, {}, seed), random.Random(seed)
    out, before = [], None
    names = {s: NAMES[s] for s in range(players)}
    for step in range(steps):
        prompts = R.pending(state)
        if not prompts:
            break
        seat = prompts[0].seat
        state, _ = R.apply(state, seat, rnd.choice(R.legal_moves(state, seat)))
        view = R.view(state, None)
        out.append((view, render.Caption(names=names, last=(f"step {step}",), before=before)))
        before = view
    return out


def _fresh(monkeypatch: pytest.MonkeyPatch, count: int = 4000, pixels: int = 12_000_000) -> Kept[Any]:
    kept: Kept[Any] = Kept(count=count, pixels=pixels, small=pieces.PIECES.small)
    monkeypatch.setattr(pieces, "PIECES", kept)
    return kept


def _drawn_anew(view: dict[str, Any], caption: render.Caption, monkeypatch: pytest.MonkeyPatch) -> bytes:
    with monkeypatch.context() as m:
        m.setattr(pieces, "ENABLED", False)
        return drawing.draw_board(view, caption)


@pytest.mark.parametrize(("players", "seed", "steps"), [(5, 3, 160), (3, 8, 400)])
def test_a_board_pasted_from_pieces_is_the_board_drawn_anew(
    players: int, seed: int, steps: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Move after move (a draft, errands, the end's awards), every board drawn with kept pieces is the
    same PNG as drawn part by part: a changed datum (a mage placed, Influence, a Mark) draws anew."""
    kept = _fresh(monkeypatch)
    walk = _walk(players, seed, steps)
    for view, caption in walk:
        drawing.draw_board(view, caption)  # each board drawn twice: the second is mostly pasted
        assert drawing.draw_board(view, caption) == _drawn_anew(view, caption, monkeypatch)
    assert len(kept) > 20
    if players == 3:
        assert walk[-1][0]["outcome"]  # the voters' award bands were drawn too


def test_a_changed_datum_draws_its_piece_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = _fresh(monkeypatch)
    view = R.view(busy_game(4, 5, 40), None)
    drawing.draw_board(view)
    drawing.draw_board(view)
    held = set(kept._pieces)
    offices = [dict(o) for o in view["offices"]]
    offices[2]["gold"] += 7
    richer = dict(view, offices=offices)
    board = drawing.draw_board(richer)
    assert set(kept._pieces) == held  # a large piece is kept from its second drawing
    assert drawing.draw_board(richer) == board
    new = [key for key in kept._pieces if key not in held]
    assert [key[0] for key in new] == ["strip stats"]  # only the stats row of seat 2 was drawn anew
    assert board == _drawn_anew(richer, render.Caption(), monkeypatch)
    assert board != drawing.draw_board(view)


def test_the_pieces_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    kept = _fresh(monkeypatch, count=40, pixels=400_000)
    for view, caption in _walk(5, 11, 60):
        assert drawing.draw_board(view, caption) == _drawn_anew(view, caption, monkeypatch)
        assert len(kept) <= kept.count and kept.held <= kept.pixels
    assert kept.held == sum(piece.size[0] * piece.size[1] for piece in kept.values())


def test_a_private_office_keeps_no_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's sheet is drawn part by part: nothing it shows can be pasted on a board or another sheet."""
    kept = _fresh(monkeypatch)
    state = busy_game(5, 4, 120)
    for seat in range(5):
        drawing.draw_office(R.view(state, seat))
        drawing.draw_office(R.view(state, seat))
    assert not kept


def test_a_line_on_a_flat_ground_is_blended_as_in_rgb(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table of shades (``Canvas._shades``) gives each pixel the entry blending it in RGB and mapping
    it gives; one table per ground and ink, so another ink or ground has its own."""
    from PIL import Image

    from render import canvas
    from render.argent import look

    monkeypatch.setattr(canvas, "_SHADES", {})
    face = look.font(40, "bold").face
    mask, _ = face.getmask2("Last: mage50084 (P3) drafts a Natural Magick mage.", "L")
    for ground, ink in ((look.GOLD, look.INK), (look.BG, look.LIGHT), (look.PANEL, look.GOLD)):
        page = look.sheet(1400, 60, ground)
        page.draw.blend((5, 5), mask, ink, None)
        rgb = Image.new("RGB", page.image.size, ground)
        core = Image.core.draw(rgb.im, 0)
        core.draw_bitmap((5, 5), mask, core.draw_ink(ink))
        mapped = rgb.quantize(palette=look.palette(), dither=Image.Dither.NONE)
        assert page.image.tobytes() == mapped.tobytes()
    assert len(canvas._SHADES) == 3


def test_a_written_line_is_the_line_pillow_draws() -> None:
    """``write`` stamps ``getmask2``'s glyphs at their offset: what ``ImageDraw.text`` draws at that pixel."""
    from PIL import Image, ImageDraw

    from render.argent import look

    for text, size, anchor in (("Round 1/5 · Mage draft", 52, "la"), ("office:", 14, "ra"), ("?", 44, "mm"),
                               ("gjpqy (P3) Zoë", 16, "la"), ("", 16, "la")):
        face = look.font(size, "bold")
        page = look.Sheet(Image.new("L", (400, 80), 0))
        look.write(page, (100, 40), text, face, 255, anchor)  # type: ignore[arg-type]
        plain = Image.new("L", (400, 80), 0)
        at = (int(100 * look.SCALE), int(40 * look.SCALE))
        ImageDraw.Draw(plain).text(at, text, 255, face.face, anchor)
        assert page.image.tobytes() == plain.tobytes(), text


@pytest.mark.parametrize("style", ["regular", "bold", "narrow", "narrow_bold"])
def test_a_line_put_together_from_its_words_is_the_line_rendered_whole(style: str) -> None:
    """``look._from_words`` gives the mask and offset Pillow renders for the whole line, or declines."""
    from PIL import Image

    from render.argent import look

    rnd = random.Random(style)
    words = "Last: mage50084 (P3) drafts a Natural Magick mage. host decides Zoë's turn AV Ty T. Wo, LT"
    words += " 'quote' \"x\" … — yes/no 12 3G WA Te To Yo P1 · Rheye Cal… (you) Vault: Supporters: —"
    vocab = words.split(" ")
    composed = 0
    for _ in range(300):
        face = look.font(rnd.choice([12, 14, 16, 17, 22, 24, 40, 46, 52]), style).face
        text = " ".join(rnd.choice(vocab) for _ in range(rnd.randint(2, 9)))
        got = look._from_words(face, text)
        if got is None:
            continue
        composed += 1
        mask, (left, top) = face.getmask2(text, "L")
        assert (got[1], got[2]) == (left, top), text
        assert Image.Image()._new(got[0]).tobytes() == Image.Image()._new(mask).tobytes(), text
    assert composed > 100
    bold = look.font(40, "bold").face
    assert look._from_words(bold, "Last: mage50084 (P3) drafts a Natural Magick mage.") is not None
    assert look._from_words(bold, "two  spaces") is None and look._from_words(bold, "one") is None


def test_the_kept_words_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each table's players are new words: the words kept stay within their bound, and a line drawn
    from words after the cache started again is the same line."""
    from render.argent import look

    monkeypatch.setattr(look, "WORDS", Kept(count=50, pixels=20_000, small=look.WORDS.small))
    face = look.font(40, "bold").face
    first = look._from_words(face, "Last: mage50001 (P1) drafts a Sorcery mage.")
    for n in range(300):
        assert look._from_words(face, f"Last: mage5{n:04d} (P{n % 5 + 1}) drafts a Divinity mage.")
        assert len(look.WORDS) <= 50 and look.WORDS.held <= 20_000
    again = look._from_words(face, "Last: mage50001 (P1) drafts a Sorcery mage.")
    assert first is not None and again is not None
    assert first[1:] == again[1:] and first[0].size == again[0].size


def test_kept_masks_follow_what_a_face_renders_not_which_object_it_is() -> None:
    """Two faces loaded alike share their words' masks; another size or style never does. (Keyed by
    ``id(face)``, a face freed from ``look.font``'s cache could leave its masks to a new face of
    another size that got its id.)"""
    from PIL import ImageFont

    from render import typefaces
    from render.argent import look
    from render.canvas import measured

    def opened(size: int, style: str, layout: Any = ImageFont.Layout.BASIC) -> ImageFont.FreeTypeFont:
        return measured(ImageFont.truetype(str(typefaces.path_of(style)), size, layout_engine=layout))

    one, again = opened(17, "regular"), opened(17, "regular")
    assert one is not again and look.face_key(one) == look.face_key(again)
    assert look._word(one, "decides") is look._word(again, "decides")
    others = [opened(18, "regular"), opened(17, "bold"), opened(17, "regular", ImageFont.Layout.RAQM)]
    assert len({look.face_key(face) for face in [one, *others]}) == 4
    for face in others:
        assert look._word(face, "decides") is not look._word(one, "decides")
