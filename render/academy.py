"""Wizard's Academy's board, drawn from the public view only (``rules/academy/VIEW.md``).

The image has three parts. A band on top, large enough to read at Discord's preview width:
whose turn, the actions and mana left, and what the last move did. The academy: the 4×4 grid of
rooms with walls and doors, each room's name and effect in short, its glyph source, threats,
creatures, portals and wizards (rooms the last move changed are framed in gold). Beside it: the
spell grid (28 glyph pairs; a face-down spell shows only its level, a bound one or the one cast
this turn its name), the decks by count, the disaster played this turn, and each wizard's glyphs
and items. A face-down spell's identity and a seat's next disaster are never in the public view,
so they cannot be drawn here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

import render
from render import canvas, typefaces
from rules.academy.record import AcademyView, Reveal, Room, Slot, Wizard, read

View = dict[str, Any]
Draw = ImageDraw.ImageDraw

WIDTH, HEIGHT = 1000, 980
BAND = 118
CELL_W, CELL_H = 150, 132
GRID_X, GRID_Y = 12, BAND + 14
SIDE_X = GRID_X + 4 * CELL_W + 18

PAPER = (246, 240, 226)
INK = (38, 34, 30)
MUTED = (118, 110, 98)
WALL = (64, 52, 44)
BAND_BG = (44, 40, 62)
BAND_INK = (250, 246, 236)
GOLD = (214, 160, 30)
CRYSTAL = (214, 232, 246)
CURSED = (232, 214, 236)
DIM = (206, 200, 190)
PORTAL = (150, 20, 130)
SEATS = [(196, 58, 48), (50, 110, 190), (60, 150, 80), (200, 150, 30), (130, 70, 170), (40, 150, 160)]
LEVELS = {1: (120, 170, 110), 2: (90, 140, 200), 3: (190, 120, 60), 4: (160, 70, 150)}

# Threat and creature marks: (view key, colour, letter). Letters keep them apart in grey-scale too.
MARKS = (
    ("fire", (222, 80, 30), "F"),
    ("water", (40, 110, 210), "W"),
    ("ice", (120, 200, 230), "I"),
    ("darkness", (30, 30, 40), "D"),
    ("haunt", (140, 90, 190), "H"),
    ("imp", (60, 160, 60), "i"),
    ("guardian", (120, 120, 120), "G"),
    ("troll", (130, 90, 50), "T"),
    ("demon", (150, 20, 30), "X"),
)
NAMES = {key: key.title() for key, _, _ in MARKS}
BASIC_MARKS = frozenset({"fire", "water", "imp", "guardian"})
"""The only threats of the basic game (the legend leaves the others out there)."""


def font(size: int, face: str = "regular") -> ImageFont.FreeTypeFont:
    """Return a shipped DejaVu face at a pixel size."""
    return typefaces.load(size, face)


def _png(image: Image.Image) -> bytes:
    """Encode as a palette PNG (``canvas.png``): a third of the time of an RGB one, and smaller."""
    return canvas.png(image, _palette())


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Return the Academy's fixed palette: its colours and the text edges on the grounds it writes on."""
    white, disaster = (255, 255, 255), (150, 30, 30)
    table, source = (236, 228, 210), (250, 226, 140)  # the board's ground; a room's source mark
    marks = [colour for _, colour, _ in MARKS]
    dots = [*SEATS, *LEVELS.values(), *marks]
    papers = (PAPER, CRYSTAL, CURSED, DIM, white, table, source)
    flats = (*papers, INK, MUTED, WALL, BAND_BG, BAND_INK, GOLD, PORTAL, disaster, *dots)
    edges = [
        *canvas.shades((INK, MUTED, PORTAL, disaster), papers),
        *canvas.shades((BAND_INK, GOLD), (BAND_BG,)),
        *canvas.shades((white,), dots),
        *canvas.shades((INK,), (GOLD, *LEVELS.values())),
    ]
    return canvas.palette([*flats, *edges])


def _fit(draw: Draw, text: str, face: ImageFont.FreeTypeFont, width: int) -> str:
    """Return text cut with an ellipsis so that it fits a width."""
    return canvas.clip(text, width, lambda line: draw.textlength(line, font=face))


def _wrap(draw: Draw, text: str, face: ImageFont.FreeTypeFont, width: int, lines: int) -> list[str]:
    """Return text broken into at most ``lines`` lines of a width (the last one cut if need be)."""
    out: list[str] = []
    words = text.split()
    if text == " ".join(words) and draw.textlength(text, font=face) <= width:
        return [text] if text and lines > 0 else []  # one measure, not one per word: most lines fit
    line = ""
    for n, word in enumerate(words):
        trial = f"{line} {word}".strip()
        if draw.textlength(trial, font=face) <= width:
            line = trial
            continue
        out.append(line)
        line = word
        if len(out) == lines - 1:
            line = " ".join(words[n:])
            break
    out.append(line)
    return [_fit(draw, x, face, width) for x in out if x][:lines]


def player(table: AcademyView, seat: int, caption: render.Caption | None) -> str:
    """Return how the board names a seat: the player's name, else the wizard's character."""
    names = caption.names if caption else {}
    if seat in names:
        return str(names[seat])
    return table.wizards[seat].name


# ---------------------------------------------------------------------------------- the band


def _headline(table: AcademyView, caption: render.Caption | None) -> str:
    if table.over:
        return "The academy is saved!" if table.won else "The academy has fallen."
    who = player(table, table.current, caption)
    if table.step == "shifts":
        return f"Setup: {who} shifts rooms ({table.shifts_left} left)"
    left = table.actions.left + table.actions.extra
    word = "action" if left == 1 else "actions"
    return f"Turn {table.turn} · {who} · {left} {word} left"


def _band(draw: Draw, table: AcademyView, caption: render.Caption | None) -> None:
    draw.rectangle((0, 0, WIDTH, BAND), fill=BAND_BG)
    draw.text((18, 12), _fit(draw, _headline(table, caption), font(40, "bold"), 760), font=font(40, "bold"),
              fill=BAND_INK)
    mana = f"Mana {table.mana}"
    draw.text((WIDTH - 18, 12), mana, font=font(40, "bold"), fill=GOLD, anchor="ra")
    last = caption.last if caption else ()
    face = font(26)
    lines = []
    reveal = table.reveal
    if reveal and not table.over:
        # The spell turned up this turn, large enough for the preview: the table must remember it.
        where = f" ({reveal.slot})" if reveal.slot else ""
        turned = f"Turned up: {reveal.name}{where} — {reveal.text}"
        lines.append(_fit(draw, turned, font(26, "bold"), WIDTH - 36))
    room = 2 - len(lines)
    text = render.latest(last, lambda t: draw.textlength(t, font=face) <= room * (WIDTH - 36)) if last else ""
    lines += _wrap(draw, text or table.objective, face, WIDTH - 36, room)
    for n, line in enumerate(lines):
        draw.text((18, 58 + n * 28), line, font=font(26, "bold") if n < 2 - room else face, fill=BAND_INK)


# ------------------------------------------------------------------------------- the rooms


def _walls(draw: Draw, x: int, y: int, doors: frozenset[str]) -> None:
    """Draw the four walls of a room; an open side gets a door (a gap in the middle)."""
    w, h, gap = CELL_W, CELL_H, 34
    sides = {
        "n": ((x, y), (x + w, y)),
        "s": ((x, y + h), (x + w, y + h)),
        "w": ((x, y), (x, y + h)),
        "e": ((x + w, y), (x + w, y + h)),
    }
    for side, ((x0, y0), (x1, y1)) in sides.items():
        if side not in doors:
            draw.line((x0, y0, x1, y1), fill=WALL, width=5)
            continue
        if y0 == y1:
            mid = (x0 + x1) // 2
            draw.line((x0, y0, mid - gap // 2, y1), fill=WALL, width=5)
            draw.line((mid + gap // 2, y0, x1, y1), fill=WALL, width=5)
        else:
            mid = (y0 + y1) // 2
            draw.line((x0, y0, x1, mid - gap // 2), fill=WALL, width=5)
            draw.line((x0, mid + gap // 2, x1, y1), fill=WALL, width=5)


def _mark(draw: Draw, x: int, y: int, colour: tuple[int, int, int], letter: str, count: int) -> int:
    """Draw one threat mark with its count; return the x after it."""
    draw.ellipse((x, y, x + 20, y + 20), fill=colour, outline=INK)
    draw.text((x + 10, y + 10), letter, font=font(13, "bold"), fill=(255, 255, 255), anchor="mm")
    if count > 1:
        draw.text((x + 22, y + 10), f"×{count}", font=font(13, "bold"), fill=INK, anchor="lm")
        return x + 46
    return x + 24


def _room_marks(draw: Draw, x: int, y: int, room: Room) -> None:
    """Draw a room's threats, creatures and portals in rows at (x, y)."""
    cx, cy = x, y
    counts = dict(room.marks)
    for key, colour, letter in MARKS:
        count = counts.get(key, 0)
        if not count:
            continue
        if cx > x + CELL_W - 60:
            cx, cy = x, cy + 23
        cx = _mark(draw, cx, cy, colour, letter, count)
    for portal in room.portals:
        if cx > x + CELL_W - 40:
            cx, cy = x, cy + 23
        cx = _portal(draw, cx, cy, portal)


def _portal(draw: Draw, cx: int, cy: int, kind: str) -> int:
    """Draw a portal's ring with its creature's initial at (cx, cy); return the x after it."""
    draw.ellipse((cx, cy, cx + 20, cy + 20), outline=PORTAL, width=3)
    draw.text((cx + 10, cy + 10), kind[:1].upper(), font=font(11, "bold"), fill=PORTAL, anchor="mm")
    return cx + 24


def _wizards(draw: Draw, x: int, y: int, seats: tuple[int, ...], current: int) -> None:
    for n, seat in enumerate(seats):
        cx = x + n * 26
        ring = GOLD if seat == current else INK
        draw.ellipse((cx, y, cx + 24, y + 24), fill=SEATS[seat % len(SEATS)], outline=ring, width=3)
        draw.text((cx + 12, y + 12), str(seat + 1), font=font(14, "bold"), fill=(255, 255, 255), anchor="mm")


def _room(draw: Draw, x: int, y: int, room: Room, table: AcademyView, changed: bool) -> None:
    fill = PAPER
    if room.key == "mana_crystal":
        fill = CRYSTAL
    elif room.cursed:
        fill = CURSED
    elif not room.empowered:
        fill = DIM
    draw.rectangle((x, y, x + CELL_W, y + CELL_H), fill=fill)
    if changed:
        draw.rectangle((x + 4, y + 4, x + CELL_W - 4, y + CELL_H - 4), outline=GOLD, width=4)
    _walls(draw, x, y, room.doors)
    room_w = CELL_W - (44 if room.source is not None else 16)
    face = font(15, "bold")
    for smaller in (font(15, "narrow_bold"), font(13, "narrow_bold")):
        if draw.textlength(room.name, font=face) > room_w:
            face = smaller
    draw.text((x + 9, y + 8), _fit(draw, room.name, face, room_w), font=face, fill=INK)
    for n, line in enumerate(_wrap(draw, _short(room, table), font(12), CELL_W - 18, 2)):
        draw.text((x + 9, y + 27 + n * 14), line, font=font(12), fill=MUTED)
    if room.source is not None:
        sx, sy = x + CELL_W - 32, y + 6
        draw.rounded_rectangle((sx, sy, sx + 24, sy + 24), 5, fill=(250, 226, 140), outline=INK, width=2)
        draw.text((sx + 12, sy + 12), str(room.source), font=font(15, "bold"), fill=INK, anchor="mm")
    _room_marks(draw, x + 9, y + 58, room)
    if room.wizards:
        _wizards(draw, x + 9, y + CELL_H - 32, room.wizards, table.current)


def _short(room: Room, table: AcademyView) -> str:
    """Return a room's effect in short; the basic game ignores every room text but binding and boosts."""
    if table.basic and room.action not in (None, "bind"):
        return ""
    if table.basic and room.pos is not None and not (room.boost or room.action):
        return "Threats head here" if room.cursed else ""
    return room.short


def changed_rooms(before: View | None, view: View) -> set[str]:
    """Return the keys of the rooms whose public contents or place changed since ``before``."""
    if not before or before.get("kind") != "academy":
        return set()
    old = {r.key: r for r in read(before).grid}
    return {r.key for r in read(view).grid if old.get(r.key) != r}


def _academy(draw: Draw, table: AcademyView, changed: set[str]) -> int:
    """Draw the rooms, the legend, the room beside the board and the goal; return the y below."""
    for room in table.grid:
        x = GRID_X + (room.col or 0) * CELL_W
        y = GRID_Y + (room.row or 0) * CELL_H
        _room(draw, x, y, room, table, room.key in changed)
    legend_y = GRID_Y + 4 * CELL_H + 12
    cx = GRID_X
    for key, colour, letter in MARKS:
        if table.basic and key not in BASIC_MARKS:
            continue
        cx = _mark(draw, cx, legend_y, colour, letter, 1)
        draw.text((cx, legend_y + 10), NAMES[key], font=font(12), fill=INK, anchor="lm")
        cx += int(draw.textlength(NAMES[key], font=font(12))) + 10
    # The portals: the imp's (every game has imps), and any other creature's on the board.
    shown = {p for room in table.grid for p in room.portals}
    for kind in ["imp", *sorted(shown - {"imp"})]:
        cx = _portal(draw, cx, legend_y, kind)
        words = f"{kind.title()} portal"
        draw.text((cx, legend_y + 10), words, font=font(12), fill=INK, anchor="lm")
        cx += int(draw.textlength(words, font=font(12))) + 10
    y = legend_y + 34
    if any(not room.empowered for room in table.grid):
        draw.rectangle((GRID_X, y + 1, GRID_X + 18, y + 15), fill=DIM, outline=INK)
        grey = "Grey room: no route to the Mana Crystal (unpowered)"
        draw.text((GRID_X + 26, y), grey, font=font(14), fill=INK)
        y += 24
    outside = table.outside
    if outside:
        draw.text((GRID_X, y), f"Beside the academy: {outside.name}", font=font(15, "bold"), fill=INK)
        _room_marks(draw, GRID_X + 300, y - 2, outside)
        if outside.wizards:
            _wizards(draw, GRID_X + 480, y - 4, outside.wizards, table.current)
        y += 28
    face = font(14)
    lines = _wrap(draw, "Goal: " + table.objective, face, 4 * CELL_W, 2)
    for n, line in enumerate(lines):
        draw.text((GRID_X, y + n * 18), line, font=face, fill=INK)
    return y + 18 * len(lines)


# ------------------------------------------------------------------------------ the side


def _slot(draw: Draw, x: int, y: int, size: int, slot: Slot, reveal: Reveal | None) -> None:
    if not slot.used:
        draw.rectangle((x, y, x + size, y + size), outline=DIM, width=1)
        return
    level = slot.level
    colour = LEVELS.get(level, MUTED)
    shown = reveal is not None and reveal.slot == slot.id
    if slot.spell is None:
        draw.rectangle((x, y, x + size, y + size), fill=colour, outline=INK)
        draw.text((x + size / 2, y + size / 2), str(level), font=font(16, "bold"), fill=(255, 255, 255),
                  anchor="mm")
        return
    draw.rectangle((x, y, x + size, y + size), fill=(255, 252, 240), outline=colour, width=4)
    lines = _wrap(draw, slot.spell, font(10, "narrow_bold"), size - 6, 3)
    for n, line in enumerate(lines):
        draw.text((x + size / 2, y + 8 + n * 11), line, font=font(10, "narrow_bold"), fill=INK, anchor="mt")
    if shown:
        draw.rectangle((x - 3, y - 3, x + size + 3, y + size + 3), outline=GOLD, width=4)


def _spell_grid(draw: Draw, table: AcademyView, x: int, y: int) -> int:
    """Draw the 28 slots as a triangle: row = the higher glyph, column = the lower; return the y below."""
    size = 40
    draw.text((x, y), "Spells", font=font(20, "bold"), fill=INK)
    y += 28
    slots = {s.id: s for s in table.spells}
    for low in range(1, 8):
        cx = x + 24 + (low - 1) * (size + 3) + size / 2
        draw.text((cx, y), str(low), font=font(13, "bold"), fill=MUTED, anchor="mt")
    y += 18
    for high in range(1, 8):
        row_y = y + (high - 1) * (size + 3)
        draw.text((x + 8, row_y + size / 2), str(high), font=font(13, "bold"), fill=MUTED, anchor="mm")
        for low in range(1, high + 1):
            slot = slots.get(f"{low}-{high}")
            if slot:
                _slot(draw, x + 24 + (low - 1) * (size + 3), row_y, size, slot, table.reveal)
    return y + 7 * (size + 3) + 6


def _reveal(draw: Draw, table: AcademyView, x: int, y: int) -> int:
    reveal = table.reveal
    if not reveal:
        return y
    # A cast or a wrong name turns a spell up; after a wrong name its level is shuffled (no slot).
    where = f" at {reveal.slot}" if reveal.slot else " (its level was reshuffled)"
    face = font(16, "bold")
    draw.text((x, y), _fit(draw, f"Turned up: {reveal.name}{where}", face, 350), font=face, fill=INK)
    y += 21
    for line in _wrap(draw, reveal.text, font(13), 350, 3):
        draw.text((x, y), line, font=font(13), fill=INK)
        y += 16
    return y + 6


def orders(view: View) -> list[str]:
    """Return the Helpful Hand's order options on the board ("1. The imp, then the fire: ..."), if any."""
    return _orders_of(read(view))


def _orders_of(table: AcademyView) -> list[str]:
    return [f"{n + 1}. {label}" for n, label in enumerate(table.choice.orders)] if table.choice else []


def _orders(draw: Draw, table: AcademyView, caption: render.Caption | None, x: int, y: int) -> int:
    """Draw the orders a player is choosing between, so the table can weigh in before they pick."""
    names = caption.names if caption else {}
    # Labels name seats by tag (P1); the board names people where it knows them.
    tag = re.compile(r"\bP(\d)\b")
    lines = [tag.sub(lambda m: str(names.get(int(m[1]) - 1, m[0])), line) for line in _orders_of(table)]
    if not lines or table.choice is None:
        return y
    who = player(table, table.choice.seat, caption)
    face = font(15, "bold")
    draw.text((x, y), _fit(draw, f"{who} picks the order the threats act in:", face, 360), font=face,
              fill=(150, 30, 30))
    y += 20
    for line in lines:
        for part in _wrap(draw, line, font(13), 360, 3):
            draw.text((x, y), part, font=font(13), fill=INK)
            y += 16
        y += 2
    return y + 6


def _decks(draw: Draw, table: AcademyView, x: int, y: int) -> int:
    decks = table.decks
    if decks is None:
        return y
    line = f"Disasters {decks.disaster} · Progression {decks.progression} · Room cards {decks.room}"
    draw.text((x, y), _fit(draw, line, font(14), 360), font=font(14), fill=INK)
    y += 20
    held = decks.holding
    if held:
        cards = "1 disaster card is" if held == 1 else f"{held} disaster cards are"
        draw.text((x, y), f"{cards} held for next turns", font=font(13), fill=MUTED)
        y += 18
    played = table.played
    if played:
        face = font(15, "bold")
        draw.text((x, y), _fit(draw, f"Disaster: {played.name}", face, 360), font=face, fill=(150, 30, 30))
        y += 20
        for line in _wrap(draw, played.text, font(13), 360, 3):
            draw.text((x, y), line, font=font(13), fill=INK)
            y += 16
    return y + 6


def _items(wizard: Wizard) -> str:
    parts = []
    if wizard.robe:
        parts.append(f"robe vs {wizard.robe}")
    if wizard.wand is not None:
        parts.append(f"wand {wizard.wand}")
    if wizard.staff:
        a, b = wizard.staff
        parts.append(f"staff {a}-{b}")
    if wizard.shared is not None:
        parts.append(f"shares {wizard.shared}")
    return ", ".join(parts)


def _wizard_rows(draw: Draw, table: AcademyView, caption: render.Caption | None, x: int, y: int) -> int:
    for wizard in table.wizards:
        seat = wizard.seat
        if y > HEIGHT - 44:
            break
        draw.ellipse((x, y, x + 22, y + 22), fill=SEATS[seat % len(SEATS)], outline=INK)
        draw.text((x + 11, y + 11), str(seat + 1), font=font(13, "bold"), fill=(255, 255, 255), anchor="mm")
        who, character = player(table, seat, caption), wizard.name
        name = character if who == character else f"{who} — {character}"
        if wizard.left:
            name += " (left)"
        draw.text((x + 28, y + 2), _fit(draw, name, font(14, "bold"), 330), font=font(14, "bold"), fill=INK)
        glyphs = " ".join(str(g) for g in wizard.glyphs) or "none"
        extra = _items(wizard)
        line = f"Glyphs: {glyphs}" + (f" · {extra}" if extra else "")
        draw.text((x + 28, y + 21), _fit(draw, line, font(13), 330), font=font(13), fill=MUTED)
        y += 42
    return y


def _side(draw: Draw, table: AcademyView, caption: render.Caption | None) -> int:
    """Draw the spell grid, this turn's cast, the decks and the wizards; return the y below."""
    x = SIDE_X
    y = _spell_grid(draw, table, x, GRID_Y)
    y = _reveal(draw, table, x, y)
    y = _orders(draw, table, caption, x, y)
    y = _decks(draw, table, x, y)
    return _wizard_rows(draw, table, caption, x, y + 4)


def draw_board(view: View, caption: render.Caption | None = None) -> bytes:
    """Return the PNG of the public board drawn from a view."""
    table = read(view)
    changed = changed_rooms(caption.before if caption else None, view)
    image = canvas.blank((WIDTH, HEIGHT), (236, 228, 210), _palette())
    draw = canvas.draw(image)
    _band(draw, table, caption)
    bottom = max(_academy(draw, table, changed), _side(draw, table, caption))
    return _png(image.crop((0, 0, WIDTH, min(HEIGHT, bottom + 14))))


render.register("academy", board=draw_board)
