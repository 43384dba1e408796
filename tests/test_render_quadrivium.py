"""Quadrivium's drawings: the covenant sheet, a decided trick (ranks, joker, conceded), the private sheet."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

import render
from render import quadrivium as drawing
from rules.quadrivium import council
from rules.quadrivium.record import read_view
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


class Recorder:
    """Stands in for a drawing surface and keeps the texts drawn."""

    def __init__(self) -> None:
        self.said: list[str] = []

    def text(self, xy: object, text: str, **kwargs: object) -> None:
        self.said.append(text)

    def line(self, *args: object, **kwargs: object) -> None:
        pass

    def textlength(self, text: str, **kwargs: object) -> float:
        return 10.0 * len(text)

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: None  # shapes (pips, rules) are not looked at here


def _under_way(view: dict, names: dict[int, str] | None = None) -> list[str]:
    """Return the texts of the panel drawn under the sheet (what is under way)."""
    caption = render.Caption(names=names or {})
    table = read_view(view)
    under = drawing._under_way(table, drawing._who(table, caption))
    assert under is not None
    recorder = Recorder()
    drawing._panel(recorder, 0, *under)  # type: ignore[arg-type]
    return recorder.said


def test_the_board_during_a_conflict_shows_intent_conditions_tricks_and_whose_turn() -> None:
    state = to_trick(quick())
    view = R.view(state, None)
    said = _under_way(view)
    pro = view["seats"][view["conflict"]["sides"][0]]["name"]
    assert "Intent: Argrave marries the noble's daughter" in said
    assert f"If {pro} wins: I marry her" in said and f"If {pro} loses: He refuses" in said
    assert any(line.startswith("Tricks won: 0–0, 1 to win") for line in said), said
    assert any(line.startswith(f"Waiting on {pro}: Place a card") for line in said), said
    calm = Image.open(io.BytesIO(drawing.board(R.view(quick(), None))))
    tense = Image.open(io.BytesIO(drawing.board(view)))
    assert tense.height == calm.height  # a scene's panel gives way to the conflict's


def test_the_drawing_names_the_players_beside_their_mages() -> None:
    # The thread's boards and the replay pass the players' names: they lead each mage's row and
    # the conflict's sides (not the characters alone, nor a seat colour).
    view = R.view(to_trick(quick()), None)
    names = {0: "alice", 1: "bob"}
    said = _under_way(view, names)
    pro, ant = view["conflict"]["sides"]
    assert said[0] == (f"Conflict: {names[pro]} ({view['seats'][pro]['name']}), Protagonist, against "
                       f"{names[ant]} ({view['seats'][ant]['name']}), Antagonist")
    assert said[-1].startswith(f"Waiting on {names[pro]} (")
    recorder = Recorder()
    who = drawing._who(read_view(view), render.Caption(names=names))
    drawing._mage_row(recorder, 0, read_view(view).mages[0], who[0])  # type: ignore[arg-type]
    assert recorder.said[0] == f"alice ({view['seats'][0]['name']})"


def test_the_council_board_shows_the_bidding_as_it_happens() -> None:
    # During a council the board shows its step, the resource under bid, the high bid and who
    # passed or passes for the rest of the bidding, and whom it waits on.
    s = quick(3)
    s["votes"] = [9, 9, 9]
    s["last_antagonist"] = 0
    council.open_council(s, [])
    for seat in s["council"]["order"]:
        s, _ = act(s, seat, "done")
    first = s["council"]["bid"]["turn"]
    s, _ = act(s, first, "bid", n=2)
    second = s["council"]["bid"]["turn"]
    s, _ = act(s, second, "sit_out")
    view = R.view(s, None)
    names = {0: "alice", 1: "bob", 2: "carol"}
    said = _under_way(view, names)
    who = drawing._who(read_view(view), render.Caption(names=names))
    resource = s["council"]["resources"][0].title()
    assert said[0].endswith("year 1: Bidding for Resources")
    assert said[1].startswith(f"Bidding for first pick of {resource}: high bid 2 by {who[first]}")
    assert f"Passed: {who[second]}" in said
    assert f"Passing for the rest of this bidding: {who[second]}" in said
    assert said[-1].startswith(f"Waiting on {who[s['council']['bid']['turn']]}: Bid for first pick")


def test_the_sheet_ends_under_its_last_line() -> None:
    # Every row of a drawing is encoded: the sheet stops a margin under what it shows.
    for view in (R.view(_table(), None), R.view(to_trick(_table(), ("vigor", "influence"), tricks=2), 1)):
        image = Image.open(io.BytesIO(drawing.sheet(view))).convert("RGB")
        paper = image.getpixel((image.width - 2, image.height - 2))
        inked = [y for y in range(image.height) if any(image.getpixel((x, y)) != paper
                                                       for x in range(0, image.width, 2))]
        assert image.height - inked[-1] <= 40


def test_a_long_conflict_heading_stays_inside_the_board() -> None:
    # Players' names lead the heading ("Conflict: name (mage), Protagonist, against ..."): long
    # names are cut short with an ellipsis, never drawn past the board's right margin.
    view = R.view(to_trick(quick()), None)
    names = {0: "Wilhelmina Featherstonehaugh-Smythe", 1: "Maximilian Alexandrovich Rostropovich"}
    png = render.board("quadrivium", view, render.Caption(names=names))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    paper = image.getpixel((image.width - 2, 2))
    margin = image.crop((image.width - 20, 0, image.width, image.height))
    assert all(pixel == paper for pixel in margin.getdata())
