"""Quadrivium's drawings: the covenant sheet, a decided trick (ranks, joker, conceded), the private sheet."""

from __future__ import annotations

import io

from PIL import Image

import render
from render import quadrivium as drawing
from tests.quadrivium_helpers import R, act, even_mage, play_cards, quick, to_trick


def _size(png: bytes) -> tuple[int, int]:
    return Image.open(io.BytesIO(png)).size


def _table() -> dict:
    s = quick(3)
    for seat in range(3):
        even_mage(s, seat)
        s["hands"][seat] = []
    return s


def test_board_is_the_trick_just_decided_then_the_sheet_again() -> None:
    s = to_trick(_table(), ("vigor", "influence"), tricks=2)
    s["hands"][2] = ["3S"]
    s = play_cards(s, "10C", "8H")
    s, _ = act(s, 2, "aid", side=1, card="3S")
    s, _ = act(s, 0, "stand")  # 12 each: hearts beat clubs on the tie-break
    view = R.view(s, None)
    assert view["news"]["winner"] == 1
    assert view["news"]["sides"][0]["total"] == 12 and view["news"]["sides"][1]["total"] == 12
    assert _size(render.board("quadrivium", view)) == (drawing.WIDTH, 470)
    s, _ = act(s, 0, "place", card=s["hands"][0][0]) if s["hands"][0] else act(s, 0, "yield")
    assert R.view(s, None)["news"] is None
    assert _size(render.board("quadrivium", R.view(s, None)))[1] > 470


def test_joker_and_conceded_tricks_draw() -> None:
    s = to_trick(_table(), ("craft", "craft"), tricks=3)
    s = play_cards(s, "RJ", "4C")
    assert R.view(s, None)["news"]["how"] == "joker"
    assert drawing.trick(R.view(s, None))[:4] == b"\x89PNG"
    s["hands"][0] += ["2C"]
    s["hands"][1] += ["3C"]
    s, _ = act(s, 0, "place", card="2C")
    s, _ = act(s, 1, "place", card="3C")
    s, _ = act(s, 0, "concede")
    news = R.view(s, None)["news"]
    assert news["how"] == "conceded" and all(side["card"] is None for side in news["sides"])
    assert drawing.trick(R.view(s, None))[:4] == b"\x89PNG"


def test_private_sheet_is_taller_by_the_hand() -> None:
    s = quick(2)
    public = _size(render.board("quadrivium", R.view(s, None)))
    private = _size(render.private("quadrivium", R.view(s, 0)))
    assert private[1] == public[1] + 200


def test_the_board_during_a_conflict_shows_intent_conditions_tricks_and_whose_turn() -> None:
    said: list[str] = []

    class Recorder:
        def text(self, xy: object, text: str, **kwargs: object) -> None:
            said.append(text)

        def line(self, *args: object, **kwargs: object) -> None:
            pass

    state = to_trick(quick())
    view = R.view(state, None)
    drawing._conflict(Recorder(), 0, view)  # type: ignore[arg-type]
    pro = view["seats"][view["conflict"]["sides"][0]]["name"]
    assert "Intent: Argrave marries the noble's daughter" in said
    assert f"If {pro} wins: I marry her" in said and f"If {pro} loses: He refuses" in said
    assert "Tricks won: 0–0, 1 to win" in said
    assert any(line.startswith(f"Waiting on {pro}: Place a card") for line in said), said
    calm = Image.open(io.BytesIO(drawing.board(R.view(quick(), None))))
    tense = Image.open(io.BytesIO(drawing.board(view)))
    assert tense.height == calm.height + drawing.CONFLICT_H
