"""Boards read at Discord's 400 px preview: big type for the turn, scores and last move; changes outlined."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

import render
from bench.argent_board import busy_game
from render import argent as argent_drawing
from render import institute as institute_drawing
from rules import registry
from rules.institute.record import read_view
from rules.toy import TOY
from service import TableService

PREVIEW_W = 400
LEGIBLE_PX = 11


@pytest.mark.parametrize("drawing", [argent_drawing, institute_drawing])
def test_the_preview_band_stays_legible_at_400_px(drawing: Any) -> None:
    scale = PREVIEW_W / drawing.BOARD_W
    assert all(size * scale >= LEGIBLE_PX for size in drawing.PREVIEW_FONTS.values())
    assert drawing.HIGHLIGHT_W * scale >= 2.5


def _argent_move(players: int = 5) -> tuple[Any, dict, dict, list]:
    """Return the rules, the state before and after a placement, and its events."""
    rules = registry.get("argent")
    state = busy_game(players, 3, 110)
    rnd = random.Random(1)
    for _ in range(200):
        seat = rules.pending(state)[0].seat
        legal = rules.legal_moves(state, seat)
        move = rnd.choice([m for m in legal if m.action == "place"] or legal)
        after, events = rules.apply(state, seat, move)
        if any(e.public and " places " in e.text and " mage in " in e.text for e in events):
            return rules, state, after, events
        state = after
    raise AssertionError("no placement")


def test_argent_band_names_the_turn_everyone_s_influence_and_the_last_move() -> None:
    rules, before, after, events = _argent_move()
    names = {0: "alice", 1: "bob", 2: "carol", 3: "dave", 4: "eve"}
    last = tuple(e.text for e in events if e.public)
    caption = render.Caption(names=names, last=last, before=rules.view(before, None))
    view = rules.view(after, None)
    rec = rules.typed_view(view)
    lines = argent_drawing.preview_lines(rec, caption)
    actor = argent_drawing._actor(rec)
    assert lines["turn"].startswith(f"{names[actor]} (P{actor + 1}) ")
    for office in view["offices"]:
        assert f"{names[office['seat']]} {office['ip']}" in lines["score"]
    assert lines["last"].startswith("Last: ") and last[-1] in lines["last"]
    placed = next(e.text for e in events if " places " in e.text and " mage in " in e.text)
    room = argent_drawing.moved_rooms(rules.typed_view(caption.before).mages, rec.mages)
    assert len(room) == 1 and next(iter(room)) in {r for r in view["board"]["rooms"]}
    assert any(rules_room in placed for rules_room in [argent_drawing.content.room_name(r) for r in room])
    plain = Image.open(io.BytesIO(render.board("argent", view)))
    captioned = Image.open(io.BytesIO(render.board("argent", view, caption)))
    assert captioned.width == plain.width and captioned.height > plain.height  # the last-move row


def test_institute_board_names_players_and_outlines_the_changed_locations() -> None:
    rules = registry.get("institute")
    state = rules.setup(2, rules.default_options(), 4)
    rnd = random.Random(2)
    while True:
        seat = rules.pending(state)[0].seat
        after, events = rules.apply(state, seat, rnd.choice(rules.legal_moves(state, seat)))
        if any(" casts " in e.text for e in events):
            break
        state = after
    before_view, view = rules.view(state, None), rules.view(after, None)
    changed = institute_drawing.changed_locations(before_view, view)
    cast_at = {int(e.text.rsplit("Location ", 1)[1].rstrip(".")) - 1 for e in events if " casts " in e.text}
    assert cast_at <= changed
    caption = render.Caption(names={0: "alice", 1: "bob"}, last=("Red casts 2 stones.",), before=before_view)
    assert institute_drawing.seat_label(caption, 0) == "alice (Red)"
    assert "alice (Red)" in institute_drawing._waiting_line(read_view(view), caption) or not view["prompts"]
    png = render.board("institute", view, caption)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    # The outline of a changed Location is gold, just outside its panel.
    col = (institute_drawing.BOARD_W - 2 * institute_drawing.MARGIN - 6 * institute_drawing.GAP) // 7
    i = min(cast_at)
    x = institute_drawing.MARGIN + i * (col + institute_drawing.GAP) + col // 2
    top = 120 + 110
    pixel = image.getpixel((x, top - 2))
    assert all(abs(a - b) <= 4 for a, b in zip(pixel, institute_drawing.GOLD, strict=True)), pixel
    unchanged = next(k for k in range(6) if k not in changed)
    far = institute_drawing.MARGIN + unchanged * (col + institute_drawing.GAP) + col // 2
    assert image.getpixel((far, top - 2)) != pixel


def test_latest_keeps_the_last_events_that_fit() -> None:
    events = ("A first long event.", "B second.", "C third.")
    assert render.latest(events, lambda t: len(t) <= 100) == "A first long event. B second. C third."
    assert render.latest(events, lambda t: len(t) <= 22) == "… B second. C third."
    assert render.latest(events, lambda t: len(t) <= 3) == "… C third."


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 99


@pytest.fixture
def svc(svc: TableService) -> TableService:
    """The shared service, with the toy game registered."""
    registry.register(TOY)
    return svc


async def test_the_service_captions_boards_with_public_texts_only(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[render.Caption | None] = []

    def draw(view: dict, caption: render.Caption | None = None) -> bytes:
        seen.append(caption)
        return b"png"

    monkeypatch.setitem(render._BOARDS, "toy", draw)
    table = await svc.open_table("toy", None, guild_id=1, channel_id=2, host_id=1, host_name="alice")
    await svc.join(table.id, 2, "bob")
    await svc.start(table.id, 1)
    for user in (1, 2):
        choice = (await svc.reads.choices(table.id, user))[0]
        reply = await svc.act(table.id, user, choice.value)
    assert reply.board is not None and await svc.reads.image(reply.board) == b"png"  # drawn when shown
    caption = seen[-1]
    assert caption is not None and set(caption.names.values()) == {"alice", "bob"}
    assert caption.before is not None and "hands" not in caption.before  # a public view, not a state
    public = [line for line in reply.board.text.splitlines() if line.startswith("Revealed")]
    assert caption.last and all(text in reply.board.text for text in caption.last) and public
    # The chooser's own "You chose sigil N." went to their private note, never into the caption.
    assert any("You chose" in note.text for note in reply.private)
    assert not any("You chose" in text for text in caption.last)
