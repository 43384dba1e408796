"""The Institute's board and private sheet: valid small PNGs, drawn fast, and blind to secrets."""

from __future__ import annotations

import copy
import io
import random
import time
from typing import Any

import pytest
from PIL import Image, ImageFont

import render
from render import institute as drawing
from tests.institute_stages import R, stages

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SIZE_LIMIT = 600 * 1024
TIME_LIMIT = 0.25
"""CPU seconds for the fastest of three renders (about 60-80 ms on one core; CPU time, so other
processes sharing the machine do not make the test flaky)."""


@pytest.fixture(scope="module")
def positions() -> dict[str, dict[str, Any]]:
    return stages()


def _image(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def test_every_stage_is_found(positions: dict[str, dict[str, Any]]) -> None:
    assert set(positions) == {
        "opening",
        "one_confirmed",
        "cast",
        "portal_secret",
        "portal_one_chosen",
        "realm",
        "phase4",
        "power_frame",
        "late",
        "over",
    }


@pytest.mark.parametrize("seat", [None, 0, 1])
def test_boards_and_sheets_are_valid_small_pngs(
    positions: dict[str, dict[str, Any]], seat: int | None
) -> None:
    for name, state in positions.items():
        view = R.view(state, seat)
        data = render.private("institute", view) if seat is not None else render.board("institute", view)
        assert data is not None, name
        image = _image(data)
        assert image.width == (drawing.BOARD_W if seat is None else drawing.SHEET_W), name
        assert 300 <= image.height <= 1400, name
        assert len(data) < SIZE_LIMIT, (name, len(data))


def test_drawing_is_fast(positions: dict[str, dict[str, Any]]) -> None:
    for name in ("opening", "portal_secret", "late", "over"):
        state = positions[name]
        for seat, draw in ((None, drawing.draw_board), (0, drawing.draw_sheet)):
            view = R.view(state, seat)
            best = min(_timed(draw, view) for _ in range(3))
            assert best < TIME_LIMIT, (name, seat, best)


def _timed(draw: Any, view: dict[str, Any]) -> float:
    start = time.process_time()
    draw(view)
    return time.process_time() - start


@pytest.mark.parametrize("name", ["opening", "one_confirmed", "portal_one_chosen"])
def test_the_public_board_is_pixel_identical_whatever_the_secrets(
    positions: dict[str, dict[str, Any]], name: str
) -> None:
    state = positions[name]
    before = drawing.draw_board(R.view(state, None))
    changed = 0
    for k in range(6):
        other = R.scramble(state, None, random.Random(k))
        changed += _secrets(other) != _secrets(state)
        assert drawing.draw_board(R.view(other, None)) == before
    if name != "opening":
        # The scramble really re-drew someone's secret, so equality above proves something.
        assert changed


@pytest.mark.parametrize("seat", [0, 1])
def test_a_sheet_is_pixel_identical_whatever_the_rivals_secrets(
    positions: dict[str, dict[str, Any]], seat: int
) -> None:
    for name in ("one_confirmed", "portal_one_chosen"):
        state = positions[name]
        before = drawing.draw_sheet(R.view(state, seat))
        for k in range(4):
            other = R.scramble(state, seat, random.Random(k))
            assert drawing.draw_sheet(R.view(other, seat)) == before, name


def _secrets(state: dict[str, Any]) -> list[Any]:
    return [(p["assign"], p["portal"]) for p in state["players"]]


def test_the_board_shows_an_assignment_once_it_is_visible(positions: dict[str, dict[str, Any]]) -> None:
    """The drawing does depend on assignments when they may be seen (so the test above can fail)."""
    view = R.view(positions["one_confirmed"], None)
    shown = copy.deepcopy(view)
    for p in shown["players"]:
        p["assignment"], p["assignment_visible"] = ["take", "cast2", "cast1", "cast1"], True
    assert drawing.draw_board(shown) != drawing.draw_board(view)


def test_a_sheet_shows_the_own_assignment(positions: dict[str, dict[str, Any]]) -> None:
    state = copy.deepcopy(positions["opening"])
    before = drawing.draw_sheet(R.view(state, 0))
    state["players"][0]["assign"] = ["take", None, None, None]
    assert drawing.draw_sheet(R.view(state, 0)) != before
    # ...which the public board does not show.
    assert drawing.draw_board(R.view(state, None)) == drawing.draw_board(R.view(positions["opening"], None))


def test_the_board_draws_with_the_shipped_fonts_and_never_pillows_default(
    positions: dict[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 14: a machine without DejaVu draws the same board: the faces ship in render/fonts/."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("fell back to Pillow's default font")

    monkeypatch.setattr(ImageFont, "load_default", refuse)
    drawing.font.cache_clear()
    try:
        data = drawing.draw_board(R.view(positions["late"], None))
        assert _image(data).width == drawing.BOARD_W
    finally:
        drawing.font.cache_clear()


def test_wrap_keeps_text_inside_the_box() -> None:
    face = drawing.font(24, "bold")
    lines = drawing._wrap("Philosopher's Stone of the Extraordinarily Long Name", face, 150, 2)
    assert len(lines) == 2
    assert all(face.getlength(line) <= 150 for line in lines)
    assert lines[-1].endswith("…")


@pytest.mark.parametrize("phase", [1, 2, 3, 4, 5])
def test_the_title_never_runs_into_the_goal(positions: dict[str, dict[str, Any]], phase: int) -> None:
    from rules.institute.state import PHASE_NAMES

    view = R.view(positions["opening"], None)
    view.update(round=12, phase=phase, phase_name=PHASE_NAMES[phase], goal=30)
    image = _image(drawing.draw_board(view)).convert("RGB")
    band = [(x, image.getpixel((x, y))) for y in range(14, 60) for x in range(image.width)]
    white = [x for x, (r, g, b) in band if min(r, g, b) > 200]
    gold = [x for x, (r, g, b) in band if r > 200 and g > 150 and b < 110]
    assert white and gold and max(white) + 16 < min(gold)


def test_the_sheet_says_who_locked_in_in_the_threads_words(
    positions: dict[str, dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The drawn sheet (and board chip) say "locked in" / "not locked in yet", as the thread does,
    # never that a rival who has locked in is still choosing.
    state = copy.deepcopy(positions["opening"])
    state["players"][1]["confirmed"] = True
    drawn: list[str] = []
    real = drawing._text

    def record(draw: Any, xy: Any, text: str, *args: Any, **kwargs: Any) -> Any:
        drawn.append(text)
        return real(draw, xy, text, *args, **kwargs)

    monkeypatch.setattr(drawing, "_text", record)
    drawing.draw_sheet(R.view(state, 0))
    said = " ".join(drawn)
    assert "Blue has locked in their Action Cards." in said and "locked in" in drawn[-1]
    assert "choosing" not in said.lower()
    drawn.clear()
    drawing.draw_board(R.view(state, None))
    assert "LOCKED IN" in drawn and "NOT LOCKED IN YET" in drawn


def _cards_seen(games: int) -> list[Any]:
    """Return every Location seen with a card on it in random games (each card once)."""
    from rules.institute.record import read_view

    seen: dict[str, Any] = {}
    for seed in range(1, games + 1):
        rand, s = random.Random(seed), R.setup(2, R.default_options(), seed)
        while not R.is_over(s):
            for loc in read_view(R.view(s, None)).locations:
                if loc.card:
                    seen.setdefault(loc.card.name, loc)
            seat = rand.choice(R.pending(s)).seat
            s, _ = R.apply(s, seat, rand.choice(R.legal_moves(s, seat)))
    return list(seen.values())


def test_a_locations_text_never_reaches_its_stones() -> None:
    # The Locations are no taller than the longest card needs (fewer pixels to encode).
    col = (drawing.BOARD_W - 2 * drawing.MARGIN - 6 * drawing.GAP) // 7
    cards = _cards_seen(12)
    assert len(cards) > 25
    for loc in cards:
        tile = drawing._location_tile(loc.number, loc.kind, loc.card, col, drawing.ROW_H).convert("RGB")
        paper = tile.getpixel((col // 2, drawing.ROW_H - 5))
        stones = range(drawing.ROW_H - 60 - 6, drawing.ROW_H - 14)
        assert all(tile.getpixel((x, y)) == paper for y in stones for x in range(4, col - 4)), loc.card.name


def test_the_players_panels_fit_their_cards_and_keep_every_line(positions: dict[str, dict[str, Any]]) -> None:
    from rules.institute.record import read_view

    heights = set()
    for name, s in positions.items():
        view = R.view(s, None)
        table = read_view(view)
        lines = max(len(p.active) + (1 if p.inactive else 0) for p in table.players)
        panel = drawing._panel_height(table)
        # Room for every card line, as many as the tallest panel held (five, then "+ n more").
        assert (panel - drawing.CARDS_TOP - 4) // drawing.CARD_LINE >= min(lines, 5), name
        heights.add(_image(drawing.draw_board(view)).height)
    assert len(heights) > 1  # the board is as tall as its cards need


def test_a_line_that_fits_is_measured_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # Measuring every prefix of every new line (the log, whom the game waits on) was a tenth of a board.
    face = drawing.font(20)
    measured: list[str] = []
    real = type(face).getlength

    def counting(self: Any, text: str, *args: Any, **kwargs: Any) -> float:
        measured.append(text)
        return real(self, text, *args, **kwargs)

    monkeypatch.setattr(type(face), "getlength", counting)
    text = "Red wins Ring of Influence at Location 3 (1 VP)."
    assert drawing._wrap(text, face, 1400, 1) == [text]
    assert measured == [text]
    assert drawing._wrap(text, face, 200, 3) == drawing._wrap(text + " ", face, 200, 3)  # the long way agrees
