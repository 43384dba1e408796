"""Argent's board and private office: valid small PNGs, drawn fast, blind to what a seat may not know."""

from __future__ import annotations

import io
import random
import time
from typing import Any

import pytest
from PIL import Image

import render
from bench.argent_board import busy_game
from render import argent as drawing
from render.argent import look, rooms
from render.kept import Kept
from rules.argent import ARGENT as R
from rules.contract import Move

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SIZE_LIMIT = 600 * 1024
TIME_LIMIT = 0.4
"""Seconds for the fastest of three renders: about 80 ms on an idle core; the slack is for a busy CI."""


def _image(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


STAGES = [(2, 11, 12), (2, 12, 90), (3, 13, 200), (4, 14, 150), (5, 15, 60), (5, 16, 100_000)]


@pytest.fixture(scope="module")
def states() -> list[dict[str, Any]]:
    return [busy_game(n, seed, steps) for n, seed, steps in STAGES]


def test_the_drawings_are_registered_and_valid_small_pngs(states: list[dict[str, Any]]) -> None:
    for state in states:
        board = render.board("argent", R.view(state, None))
        assert board is not None and len(board) < SIZE_LIMIT
        image = _image(board)
        assert image.width == drawing.BOARD_W and 800 < image.height < 2600
        office = render.private("argent", R.view(state, 0))
        assert office is not None and len(office) < SIZE_LIMIT
        assert _image(office).width == drawing.OFFICE_W
    assert any(s["over"] for s in states) and any(s["phase"] == "errands" for s in states)


@pytest.mark.parametrize("players", [2, 5])
def test_the_board_is_fast(players: int, states: list[dict[str, Any]]) -> None:
    state = next(s for s in states if s["players"] == players)
    view = R.view(state, None)
    drawing.draw_board(view)
    best = min(_timed(lambda: drawing.draw_board(view)) for _ in range(3))
    assert best < TIME_LIMIT


def _timed(work: Any) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def test_a_mage_changes_the_board_where_it_stands() -> None:
    state = busy_game(3, 21, 40)
    view = R.view(state, None)
    board = drawing.draw_board(view)
    placed = next(m for m in view["mages"] if "/" in m["loc"] and m["owner"] is not None)
    moved = dict(
        view, mages=[dict(m, owner=(m["owner"] + 1) % 3) if m is placed else m for m in view["mages"]]
    )
    assert drawing.draw_board(moved) != board


def test_locked_rooms_and_marks_show() -> None:
    state = busy_game(3, 22, 30)
    view = R.view(state, None)
    plain = drawing.draw_board(view)
    rooms = {k: dict(v) for k, v in view["board"]["rooms"].items()}
    rooms["guilds"]["locked"] = True
    locked = dict(view, board=dict(view["board"], rooms=rooms))
    assert drawing.draw_board(locked) != plain


def test_no_drawing_depends_on_what_its_viewer_may_not_know() -> None:
    """A state and its scramble for the viewer draw the same pixels: the board and each office."""
    rnd = random.Random(5)
    checked = 0
    for players, seed in ((2, 31), (3, 32), (4, 33), (5, 34)):
        for steps in (25, 120):
            state = busy_game(players, seed, steps)
            if state["over"]:
                continue
            public = drawing.draw_board(R.view(state, None))
            other = R.scramble(state, None, rnd)
            assert drawing.draw_board(R.view(other, None)) == public
            seat = steps % players
            office = drawing.draw_office(R.view(state, seat))
            assert drawing.draw_office(R.view(R.scramble(state, seat, rnd), seat)) == office
            checked += 1
    assert checked >= 6


def test_standing_reads_the_view_and_admits_hidden_discards() -> None:
    state = busy_game(3, 41, 200)
    view = R.view(state, 0)
    counts = drawing.standing(view, "most:gold")
    assert counts == {o["seat"]: (o["gold"], True) for o in view["offices"]}
    supporters = drawing.standing(view, "most:supporters")
    assert supporters[0][1] is True  # your own discard is yours to see
    hidden = [s for s, (_, exact) in supporters.items() if s != 0]
    assert all(not supporters[s][1] for s in hidden) == (view["options"]["discards"] == "closed")
    line = drawing.standing_line(view, 0, "most:gold")
    assert line.startswith(f"you {view['offices'][0]['gold']};")


def test_reward_and_criterion_words() -> None:
    assert (
        drawing.reward_text([{"choose": [[{"gain": {"gold": 8}}], [{"gain": {"mana": 4}}]]}])
        == "8 Gold / 4 Mana"
    )
    assert (
        drawing.reward_text([{"pay": {"gold": 2}}, {"gain_mage": {"department": "any"}}]) == "2 Gold → +mage"
    )
    assert drawing.criterion_words("most:department:divinity") == "most Divinity icons"
    assert drawing.criterion_words("second_most:ip") == "2nd-most Influence"
    assert drawing.criterion_words(None) == "?"


def test_moves_used_above_are_legal_codes() -> None:
    # The helper above plays only legal moves; a sanity check that a code round-trips.
    state = R.setup(2, {}, 1)
    move = R.legal_moves(state, R.pending(state)[0].seat)[0]
    assert Move.parse(move.code()) == move


def test_the_bench_block_measures_the_argent_board() -> None:
    from bench.argent_board import render_figures

    median, best, cpu, size = render_figures(2, samples=2)
    assert 0 < best <= median and cpu > 0 and 10_000 < size < SIZE_LIMIT


@pytest.mark.parametrize("waiting", [0, 4, 8])
def test_a_strip_title_never_runs_into_the_department_or_the_waiting_mages(waiting: int) -> None:
    """A long player and candidate name is clipped before the department word and the office's mages."""
    from render.argent.look import font
    from render.argent.voters import strip_title

    x, x1 = 68, 700  # a 2-player strip is about 700 px wide
    long = "P2 Bartholomew-Maximilian · Exhufern Le Marigras (you)"
    title, dept, dept_x = strip_title(long, "Natural Magick", x, x1, waiting)
    assert title.endswith("…") and dept
    assert dept_x >= x + font(22, "bold").getlength(title)
    office_label = x1 - 18 - 28 * waiting - 8 - font(14).getlength("office:") if waiting else x1 - 18
    assert dept_x + font(15).getlength(dept) <= office_label


def test_the_drawings_end_where_their_last_part_ends(states: list[dict[str, Any]]) -> None:
    """Drawn at their exact height: a bottom margin of the board's ground, and ink right above it
    (the last strip or voter keeps its own gap of at most 8 units)."""
    from render.argent.look import BG, PAD, SCALE

    margin = round(PAD * SCALE)
    for state in states:
        for data in (drawing.draw_board(R.view(state, None)), drawing.draw_office(R.view(state, 1))):
            image = _image(data).convert("RGB")
            w, h = image.size
            bottom = image.crop((0, h - margin + 1, w, h))
            assert [c for _, c in bottom.getcolors()] == [BG]
            above = image.crop((0, h - margin - round(10 * SCALE), w, h - margin))
            assert len(above.getcolors(maxcolors=1 << 16)) > 1


def _with_a_temporary_mage() -> dict[str, Any]:
    """A seeded 4-player game played until a temporary mage stands on the board (step 33 of seed 10)."""
    state, rand = R.setup(4, {}, 10), random.Random(10)
    for _ in range(33):
        seat = R.pending(state)[0].seat
        state, _ = R.apply(state, seat, rand.choice(R.legal_moves(state, seat)))
    return state


def _all_drawn(states: list[dict[str, Any]]) -> list[bytes]:
    out = []
    for state in states:
        out.append(drawing.draw_board(R.view(state, None)))
        out += [drawing.draw_office(R.view(state, seat)) for seat in range(len(state["seats"]))]
    return out


def _fresh_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget the drawn tiles and sprites (they are of the mode they were drawn in)."""
    monkeypatch.setattr(look, "_TILES", {})
    monkeypatch.setattr(look, "_SPRITES", {})
    rooms._room_tile.cache_clear()


def test_drawn_in_the_palette_it_is_the_rgb_drawing_mapped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing in the palette (text blended over its ground, sprites through their masks) changes no pixel."""
    temporary = _with_a_temporary_mage()
    assert any(mage.temp for mage in R.typed_view(R.view(temporary, None)).mages)  # its mark blends softly
    states = [temporary, busy_game(5, 6, 300), busy_game(2, 3, 80)]
    try:
        _fresh_caches(monkeypatch)
        in_palette = _all_drawn(states)
        monkeypatch.setattr(look, "IN_PALETTE", False)
        _fresh_caches(monkeypatch)
        in_rgb = _all_drawn(states)
    finally:
        rooms._room_tile.cache_clear()
    assert in_palette == in_rgb


def test_kept_lines_are_bounded_and_one_off_long_lines_are_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """A drawing process serves hundreds of tables: its kept text must not grow with their one-off lines,
    yet a long line drawn again (a board's title, a sheet's rule line) is kept from its second drawing."""
    monkeypatch.setattr(look, "MASKS", Kept(count=6000, pixels=50_000, small=look.MASKS.small))
    page = look.sheet(1400, 200)
    last = "Last: mage50084 (P3) drafts a Natural Magick mage."
    look.write(page, (10, 10), last, look.font(40, "bold"), look.LIGHT)
    assert not look.MASKS  # larger than ``small`` and new: drawn, not kept
    look.write(page, (10, 10), "Round 1/5 · Mage draft", look.font(40, "bold"), look.LIGHT)
    look.write(page, (10, 10), "Round 1/5 · Mage draft", look.font(40, "bold"), look.LIGHT)
    assert len(look.MASKS) == 1  # drawn twice: kept
    for n in range(400):
        look.write(page, (10, 100), f"P{n}", look.font(16), look.LIGHT)
    assert look.MASKS and look.MASKS.held <= look.MASKS.pixels
    assert sum(mask.size[0] * mask.size[1] for mask, _, _ in look.MASKS.values()) == look.MASKS.held
