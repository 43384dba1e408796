"""Argent's documented shapes match the code (issue 27: two docstrings had drifted)."""

from __future__ import annotations

import random

from render.argent import BOARD_W, draw_board
from render.argent import __doc__ as RENDER_DOC
from rules.argent import ARGENT
from rules.argent import state as argent_state


def test_every_mage_location_has_a_documented_form() -> None:
    """``rules/argent/state.py``: office, supply, <room>/<slot>, or <room>/<slot>/<k> for an area."""
    assert "``<room>/<slot>``" in (argent_state.__doc__ or "")
    rand, state, seen = random.Random(3), ARGENT.setup(3, {}, 3), set()
    for _ in range(300):
        if ARGENT.is_over(state):
            break
        seat = ARGENT.waiting_on(state)[0]
        state, _ = ARGENT.apply(state, seat, rand.choice(ARGENT.legal_moves(state, seat)))
        for mage in state["mages"]:
            loc = mage["loc"]
            if loc in ("office", "supply"):
                continue
            room, slot, *rest = loc.split("/")
            spec = argent_state.spec(state, room, slot)
            assert len(rest) == (1 if argent_state.is_multi(spec) else 0), loc
            assert loc == argent_state.loc_of(room, slot, int(rest[0]) if rest else None)
            seen.add(spec["kind"])
    assert seen  # mages reached the board


def test_the_board_is_as_wide_as_its_docstring_says() -> None:
    import io

    from PIL import Image

    png = draw_board(ARGENT.view(ARGENT.setup(2, {}, 1), None))
    assert Image.open(io.BytesIO(png)).width == BOARD_W
    assert f"({BOARD_W} px)" in (RENDER_DOC or "")
