"""Every drawing uses the DejaVu faces shipped in render/fonts/, never Pillow's default font."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import ImageFont

import render
from render import argent as argent_drawing
from render import institute as institute_drawing
from render import typefaces
from rules import registry

PLAYERS = {"argent": 3, "institute": 2, "quadrivium": 2, "academy": 2}


def played(kind: str, moves: int) -> list[dict]:
    """Return the states of a seeded game after each of its first moves (first legal move each time)."""
    rules = registry.get(kind)
    state = rules.setup(PLAYERS[kind], {}, 11)
    states = [state]
    for _ in range(moves):
        prompts = rules.pending(state)
        legal = rules.legal_moves(state, prompts[0].seat) if prompts else []
        if not legal:
            break
        state, _ = rules.apply(state, prompts[0].seat, legal[0])
        states.append(state)
    return states


@pytest.fixture
def no_fallback(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fail on Pillow's default font; record every font file opened."""
    opened: list[str] = []
    real = ImageFont.truetype

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a drawing fell back to Pillow's default font")

    def truetype(font: object = None, *args: object, **kwargs: object) -> ImageFont.FreeTypeFont:
        opened.append(str(font))
        return real(font, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ImageFont, "load_default", refuse)
    monkeypatch.setattr(ImageFont, "truetype", truetype)
    for cached in (typefaces.load, argent_drawing.font, institute_drawing.font):
        cached.cache_clear()
    yield opened
    for cached in (typefaces.load, argent_drawing.font, institute_drawing.font):
        cached.cache_clear()


@pytest.mark.parametrize("kind", sorted(PLAYERS))
def test_every_drawing_uses_the_shipped_fonts(kind: str, no_fallback: list[str]) -> None:
    rules = registry.get(kind)
    drawn = 0
    for state in played(kind, 12)[::4]:
        for seat in (None, *range(PLAYERS[kind])):
            view = rules.view(state, seat)
            image = render.board(kind, view) if seat is None else render.private(kind, view)
            drawn += image is not None
    if drawn:
        assert no_fallback, "the drawings opened no font at all"
    folder = str(Path(render.__file__).parent / "fonts")
    assert all(path.startswith(folder) for path in no_fallback), set(no_fallback)


def test_the_shipped_faces_are_there_with_their_licence() -> None:
    for face in typefaces.FACES:
        assert typefaces.path_of(face).stat().st_size > 100_000
    assert "Bitstream" in (typefaces.FOLDER / "LICENSE").read_text()


def test_a_missing_face_fails_loudly(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(typefaces, "FOLDER", tmp_path)
    typefaces.load.cache_clear()
    with pytest.raises(FileNotFoundError, match="reinstall"):
        typefaces.load(12)
    typefaces.load.cache_clear()
