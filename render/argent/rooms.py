"""The University and Consortium rooms: room tiles, their slots and mages, and the room tracks."""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any

from PIL import Image

from render.argent.look import (
    GOLD,
    INK,
    LIGHT,
    LIGHT_MUTED,
    LOCK,
    MERIT,
    MUTED,
    PAPER,
    PAPER_DIM,
    SHADOW,
    SLOT_EMPTY,
    Record,
    Sheet,
    clip,
    font,
    mage_token,
    sheet,
    write,
)
from render.argent.pieces import piece
from render.argent.words import reward_text
from rules.argent import content
from rules.argent.record import Mage, Room

# --------------------------------------------------------------------------- the University


def _room_slots(room: str, side: str) -> list[dict[str, Any]]:
    return content.room_side(room, side)["slots"]


def mages_by_loc(rec: Record) -> dict[str, Mage]:
    """Map each occupied location to the mage on it."""
    return placed_by_loc(rec.mages)


def placed_by_loc(mages: tuple[Mage, ...]) -> dict[str, Mage]:
    """Map each occupied location to the mage on it, of a view's mages."""
    return {m.loc: m for m in mages if m.placed}


def _room_rows(room: str, side: str) -> int:
    slots = _room_slots(room, side)
    mains = [s for s in slots if s["kind"] in ("merit", "regular", "wound")]
    areas = [s for s in slots if s["kind"] in ("area", "general")]
    return max(1, len(mains) + 2 * len(areas))


ROW_H = 44
HEAD_H = 40


def _slot_rows(room: str, side: str) -> list[tuple[dict[str, Any], int, dict[str, Any] | None]]:
    """Return each errand slot or area of a room with its row offset (from the header) and shadow."""
    slots = _room_slots(room, side)
    shadow_of = {s["of"]: s for s in slots if s.get("of")}
    out = []
    y = 0
    for s in slots:
        if s["kind"] in ("shadow", "shadow_merit"):
            continue
        out.append((s, y, shadow_of.get(s["id"])))
        y += 2 * ROW_H if s["kind"] in ("area", "general") else ROW_H
    return out


@lru_cache(maxsize=256)
def _room_tile(room: str, side: str, locked: bool, w: int, h: int) -> Image.Image:
    """Draw a room without its mages (cached: a room's look changes only with its side and lock)."""
    draw = sheet(w + 1, h + 1)
    x0, y0, x1 = 0, 0, w
    draw.rounded_rectangle(
        (0, 0, w, h), radius=10, fill=PAPER, outline=LOCK if locked else INK, width=4 if locked else 2
    )
    name = content.room_name(room) if room != "infirmary" else "Infirmary"
    head = font(24, "bold")
    side_rec = content.room_side(room, side)
    shown = clip(name, head, w - (150 if locked or side_rec.get("instant") else 50))
    write(draw, (x0 + 10, y0 + 6), shown, font=head, fill=INK)
    write(draw, (x0 + 20 + head.getlength(shown), y0 + 10), side, font=font(18), fill=MUTED)
    if locked:
        draw.rounded_rectangle((x1 - 104, y0 + 6, x1 - 8, y0 + 32), radius=5, fill=LOCK)
        write(draw, (x1 - 56, y0 + 19), "LOCKED", font=font(16, "bold"), fill=LIGHT, anchor="mm")
    elif side_rec.get("instant"):
        write(draw, (x1 - 10, y0 + 12), "instant", font=font(16, "bold"), fill=MUTED, anchor="ra")
    small = font(17, "narrow")
    number = 0
    for s, dy, shadow in _slot_rows(room, side):
        y = y0 + HEAD_H + dy
        if s["kind"] in ("area", "general"):
            title = "general area" if s["kind"] == "general" else "any number"
            label = clip(f"{title}: {reward_text(s.get('effects', []))}", small, w - 20)
            write(draw, (x0 + 10, y + 4), label, font=small, fill=INK)
            continue
        number += 1
        merit = s["kind"] == "merit"
        cy = y + ROW_H / 2
        # Slot marker: a gold star badge for merit slots, a plain numbered disc otherwise.
        if merit:
            draw.regular_polygon((x0 + 22, cy, 15), 5, fill=MERIT, outline=INK)
            write(draw, (x0 + 22, cy + 1), "M", font=font(13, "bold"), fill=INK, anchor="mm")
        else:
            draw.ellipse((x0 + 9, cy - 13, x0 + 35, cy + 13), fill=PAPER_DIM, outline=MUTED)
            write(draw, (x0 + 22, cy), str(number), font=font(15, "bold"), fill=INK, anchor="mm")
        reward = clip(reward_text(s.get("effects", [])), small, w - 146)
        write(draw, (x0 + 44, cy), reward, font=small, fill=INK, anchor="lm")
        # The slot (big) and its shadow (small, dark) at the right end.
        sx = x1 - 70
        draw.ellipse(
            (sx - 15, cy - 15, sx + 15, cy + 15),
            fill=SLOT_EMPTY,
            outline=MERIT if merit else MUTED,
            width=3 if merit else 1,
        )
        if shadow:
            hx = x1 - 26
            draw.rectangle((hx - 16, cy - 17, hx + 16, cy + 17), fill=SHADOW)
            write(draw, (hx, cy), "sh", font=font(12), fill=LIGHT_MUTED, anchor="mm")
    return draw.image


def draw_room(
    draw: Sheet, rec: Record, room: str, box: tuple[int, int, int, int], at: dict[str, Mage]
) -> None:
    """Draw one room: its cached tile, then the mages in its slots and shadows, its track and cards.

    The whole room is a kept piece (``pieces``) keyed by the room as placed and the mages in it:
    its tile covers the box first, so what it shows depends on nothing else. The piece runs 2 units
    past the box, which holds the outline's last pixel however the box rounds (the gap to the next
    room is ``PAD``, and its gold outline is drawn after the piece).
    """
    info = rec.rooms[room]
    inside = f"{room}/"
    here = tuple((loc, m.owner, m.type, m.temp) for loc, m in at.items() if loc.startswith(inside))
    x0, y0, x1, y1 = box
    paint = partial(_draw_room, draw, info, room, box, at)
    piece(draw, ("room", room, info, tuple(sorted(here))), (x0, y0, x1 + 2, y1 + 2), paint)


def _draw_room(
    draw: Sheet, info: Room, room: str, box: tuple[int, int, int, int], at: dict[str, Mage]
) -> None:
    x0, y0, x1, y1 = box
    side = info.side
    draw.paste(_room_tile(room, side, info.locked, x1 - x0, y1 - y0), (x0, y0))
    for s, dy, shadow in _slot_rows(room, side):
        y = y0 + HEAD_H + dy
        if s["kind"] in ("area", "general"):
            here = sorted(
                (m for loc, m in at.items() if loc.startswith(f"{room}/{s['id']}/")), key=lambda m: m.loc
            )
            for k, m in enumerate(here):
                if x0 + 26 + 40 * k > x1 - 20:
                    break
                mage_token(draw, m, x0 + 26 + 40 * k, y + 46, 15)
            continue
        cy = y + ROW_H / 2
        occupant = at.get(f"{room}/{s['id']}")
        if occupant:
            sx = x1 - 70
            draw.rectangle((sx - 18, cy - 18, sx + 18, cy + 18), fill=PAPER)
            mage_token(draw, occupant, sx, cy - 4, 16)
        sh = at.get(f"{room}/{shadow['id']}") if shadow else None
        if sh:
            hx = x1 - 26
            draw.rectangle((hx - 16, cy - 17, hx + 16, cy + 17), fill=SHADOW)
            mage_token(draw, sh, hx, cy - 4, 13)
    track = content.room_side(room, side).get("track")
    if track:
        _draw_track(draw, track, info.marker, x0 + 10, y1 - 34, x1 - 10)
    if info.cards:
        small = font(17, "narrow")
        names = ", ".join(content.card_name(c.kind, c.id) for c in info.cards)
        write(draw, (x0 + 10, y1 - 24), clip("cards: " + names, small, x1 - x0 - 20), font=small, fill=INK)


def _draw_track(draw: Sheet, track: list[Any], marker: int, x0: int, y: int, x1: int) -> None:
    """Draw the Astronomy Tower's spaces with the marker on its space."""
    n = len(track)
    w = (x1 - x0) / n
    face = font(12)
    for i, space in enumerate(track):
        bx = x0 + i * w
        here = i == marker
        draw.rectangle(
            (bx + 1, y, bx + w - 2, y + 26),
            fill=GOLD if here else PAPER_DIM,
            outline=INK if here else MUTED,
            width=2 if here else 1,
        )
        write(
            draw,
            (bx + w / 2, y + 13),
            clip(reward_text(space), face, w - 4),
            font=face,
            fill=INK,
            anchor="mm",
        )


def grid_height(rec: Record, row: tuple[str | None, ...]) -> int:
    """Return the height of one row of the room grid (its tallest room)."""
    return _row_height(tuple((r.id, r.side, bool(r.cards)) for r in (rec.rooms[n] for n in row if n)))


@lru_cache(maxsize=256)
def _row_height(rooms: tuple[tuple[str, str, bool], ...]) -> int:
    """Return a grid row's height by its rooms' sides and whether each holds cards (worked out once:
    the card data is looked up slot by slot, three times a board)."""
    rows = max((_room_rows(room, side) for room, side, _ in rooms), default=1)
    extra = 0
    for room, side, cards in rooms:
        if content.room_side(room, side).get("track") or cards:
            extra = 36
    return HEAD_H + rows * ROW_H + extra + 8
