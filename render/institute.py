"""The Institute's drawings: the public board for the thread and each seat's private sheet.

Both are pure functions of a view (see ``rules/institute/VIEW.md``) and return PNG bytes. They are
drawn large (the board is 1600 px wide) with big type and strong contrast so that Discord's ~550 px
preview stays readable, and every colour cue is doubled by a letter and a shape (Red: R in a circle,
Blue: B in a square) so a colour-blind player loses nothing. Fonts are loaded once.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

import render
from render import canvas, typefaces
from rules.institute.record import CardRecord, InstituteRecord, LocationRecord, PlayerRecord, read_view
from rules.institute.state import Step

View = dict[str, Any]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

# --------------------------------------------------------------------------- look

BOARD_W = 1440
SHEET_W = 1200
MARGIN = 16
GAP = 10
ROMAN = ("I", "II", "III", "IV", "V")

BG = (28, 30, 44)
INK = (20, 20, 24)
PAPER = (246, 238, 218)
PAPER_DIM = (214, 206, 188)
MUTED = (96, 92, 84)
LIGHT = (236, 236, 244)
LIGHT_MUTED = (176, 180, 198)
GOLD = (232, 180, 40)
PORTAL = (92, 46, 140)
REALM = (14, 84, 98)
EMPTY = (70, 72, 88)
SEAT_COLOUR = ((208, 40, 40), (30, 104, 214))
SEAT_TINT = ((250, 214, 210), (208, 224, 252))
SEAT_LETTER = ("R", "B")
SEAT_NAME = ("RED", "BLUE")
ACTION_LABEL = {"take": "TAKE", "cast1": "CAST 1", "cast2": "CAST 2"}
ACTION_COLOUR = {"take": (38, 130, 64), "cast1": (150, 80, 20), "cast2": (120, 40, 130)}
ACTION_LIMITS = {"take": 2, "cast2": 1, "cast1": 3}
POWER_WORD = {"permanent": "permanent", "one-time": "once", "immediate": "immediate", "none": ""}
REALM_AWARDS = ("1: 1 charm", "2: 2 charms + cubes", "3: 4 charms", "4: 4 charms + card")

_FACES = {"regular": "regular", "bold": "bold", "narrow": "narrow_bold"}
"""The Institute's faces by its own names (its narrow face is the condensed bold)."""


@lru_cache(maxsize=64)
def font(size: int, style: str = "regular") -> Font:
    """Return a shipped DejaVu face of the given pixel size (regular, bold, narrow)."""
    return typefaces.load(size, _FACES[style])


# --------------------------------------------------------------------------- drawing helpers


def _wrap(text: str, face: Font, width: int, lines: int) -> list[str]:
    """Break text into at most ``lines`` lines that fit ``width`` (the last one ends in … if cut)."""
    words, out, line = text.split(), [], ""
    if text == " ".join(words) and face.getlength(text) <= width:
        return [text] if text else []  # one measure, not one per word: most lines fit
    for word in words:
        trial = f"{line} {word}".strip()
        if face.getlength(trial) <= width:
            line = trial
            continue
        if line:
            out.append(line)
        line = word
        while face.getlength(line) > width and len(line) > 1:
            # A single word wider than the box: cut it rather than overflow.
            out.append(line[: max(1, len(line) * width // int(face.getlength(line) + 1))])
            line = line[len(out[-1]) :]
    if line:
        out.append(line)
    if len(out) > lines:
        out = out[:lines]
        last = out[-1]
        while last and face.getlength(last + "…") > width:
            last = last[:-1]
        out[-1] = last.rstrip() + "…"
    return out


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: Font,
    fill: tuple[int, int, int],
    anchor: str = "la",
) -> None:
    draw.text(xy, text, font=face, fill=fill, anchor=anchor)


def _lines(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    lines: list[str],
    face: Font,
    fill: tuple[int, int, int],
    step: int,
) -> float:
    """Draw lines downward; return the y below the last one."""
    for line in lines:
        _text(draw, (x, y), line, face, fill)
        y += step
    return y


def _token(draw: ImageDraw.ImageDraw, x: float, y: float, seat: int, count: int, size: int = 46) -> float:
    """Draw one colour's stones: R in a red circle-ended pill, B in a blue square box; return the width."""
    label = f"{SEAT_LETTER[seat]} {count}"
    face = font(int(size * 0.62), "bold")
    width = int(face.getlength(label)) + size // 2 + 8
    box = (x, y, x + width, y + size)
    if seat == 0:
        draw.rounded_rectangle(box, radius=size // 2, fill=SEAT_COLOUR[0], outline=LIGHT, width=2)
    else:
        draw.rectangle(box, fill=SEAT_COLOUR[1], outline=LIGHT, width=2)
    _text(draw, (x + width / 2, y + size / 2), label, face, (255, 255, 255), "mm")
    return width


def _stones(draw: ImageDraw.ImageDraw, x: float, y: float, stones: Sequence[int], empty_fill: Any) -> None:
    """Draw both colours' stones side by side (nothing drawn for a colour with none)."""
    if not any(stones):
        _text(draw, (x, y + 12), "no stones", font(20), empty_fill)
        return
    for seat in (0, 1):
        if stones[seat]:
            x += _token(draw, x, y, seat, stones[seat]) + 8


def _seat_badge(draw: ImageDraw.ImageDraw, x: float, y: float, seat: int, size: int) -> None:
    """Draw a seat's mark: a circle with R, or a square with B."""
    box = (x, y, x + size, y + size)
    if seat == 0:
        draw.ellipse(box, fill=SEAT_COLOUR[0], outline=LIGHT, width=3)
    else:
        draw.rectangle(box, fill=SEAT_COLOUR[1], outline=LIGHT, width=3)
    _text(draw, (x + size / 2, y + size / 2), SEAT_LETTER[seat], font(int(size * 0.6), "bold"), LIGHT, "mm")


def _die(draw: ImageDraw.ImageDraw, x: float, y: float, value: int, size: int) -> None:
    """Draw a die as a white square showing its number."""
    draw.rounded_rectangle(
        (x, y, x + size, y + size), radius=size // 7, fill=(252, 252, 252), outline=INK, width=3
    )
    _text(draw, (x + size / 2, y + size / 2), str(value), font(int(size * 0.66), "bold"), INK, "mm")


def _chip(
    draw: ImageDraw.ImageDraw, x: float, y: float, width: int, text: str, fill: Any, ink: Any, size: int = 24
) -> None:
    """Draw a centred label in a filled rounded box."""
    draw.rounded_rectangle((x, y, x + width, y + size + 12), radius=8, fill=fill)
    _text(draw, (x + width / 2, y + (size + 12) / 2), text, font(size, "bold"), ink, "mm")


def _action_chip(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    width: int,
    action: str | None,
    hidden: bool,
    size: int = 24,
) -> None:
    """Draw the Action Card under a die: its name, a hidden '?', or 'none yet'."""
    if hidden:
        _chip(draw, x, y, width, "?", (110, 110, 122), LIGHT, size)
    elif action is None:
        _chip(draw, x, y, width, "none yet", PAPER_DIM, MUTED, size - 4)
    else:
        _chip(draw, x, y, width, ACTION_LABEL[action], ACTION_COLOUR[action], (255, 255, 255), size)


def _png(image: Image.Image) -> bytes:
    """Encode as a small PNG, mapped to the Institute's fixed palette (``_palette``)."""
    return canvas.png(image, _palette())


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Return the Institute's palette: its colours, and its inks' text edges on its grounds."""
    white, hidden, night, snow = (255, 255, 255), (110, 110, 122), (12, 12, 18), (252, 252, 252)
    ember = (110, 40, 20)
    grounds = (BG, PAPER, PAPER_DIM, EMPTY, PORTAL, REALM, *SEAT_COLOUR, *SEAT_TINT, *ACTION_COLOUR.values(),
               hidden, night, snow)
    inks = (INK, LIGHT, MUTED, LIGHT_MUTED, white, GOLD)
    flats = (*grounds, INK, MUTED, LIGHT, LIGHT_MUTED, GOLD, white, ember, (26, 23, 20))
    return canvas.palette(flats, inks, grounds)


# --------------------------------------------------------------------------- the board


def _phase_title(table: InstituteRecord) -> str:
    return f"Round {table.round} · Phase {ROMAN[table.phase - 1]}: {table.phase_name}"


_DECISION_WORDS = {
    "assign": "assign Action Cards in secret",
    "window": "use a one-time power or pass",
    "cast": "choose which Cast Card to fulfil",
    "realm": "claim the Ethereal Realm award or wait",
}


def _waiting_line(table: InstituteRecord, caption: render.Caption | None = None) -> str:
    """Say whom the game waits on and for what, from the public prompts (never a secret)."""
    if table.over:
        return "GAME OVER — " + table.ending
    asks: dict[str, list[int]] = {}
    for ask in table.asks:
        if ask.decision == "portal":
            what = "Portal choice" + (" in secret" if ask.secret else "")
        else:
            what = _DECISION_WORDS.get(ask.decision) or ask.text.split(": ", 1)[-1].rstrip(".")
        seats = asks.setdefault(what, [])
        if ask.seat not in seats:
            seats.append(ask.seat)
    if not asks:
        return "Resolving…"
    caption = caption or render.Caption()
    parts = [
        " and ".join(seat_label(caption, s) for s in seats) + f": {what}" for what, seats in asks.items()
    ]
    return "Waiting on " + "  ·  ".join(parts)


def _card_power_line(card: CardRecord) -> str:
    if card.character:
        return "Character: 1 VP per Character held"
    number = f" #{card.number}" if card.number else ""
    return f"Phase {ROMAN[(card.phase or 1) - 1]}{number} · {POWER_WORD[card.power]}"


def _location(image: Image.Image, x: int, y: int, w: int, h: int, loc: LocationRecord) -> None:
    """Draw one Location: the cached panel of what lies there, then the stones on it."""
    image.paste(_location_tile(loc.number, loc.kind, loc.card, w, h), (x, y))
    _stones(canvas.draw(image), x + 12, y + h - 60, loc.stones, MUTED if loc.kind == "card" else LIGHT_MUTED)


@lru_cache(maxsize=128)
def _location_tile(number: int, kind: str, card: CardRecord | None, w: int, h: int) -> Image.Image:
    """Draw a Location's number and its Institute Card, the Portal or an empty space (no stones)."""
    tile = canvas.blank((w + 1, h + 1), BG, _palette())
    draw = canvas.draw(tile)
    fill = {"card": PAPER, "portal": PORTAL, "empty": EMPTY}[kind]
    draw.rounded_rectangle((0, 0, w, h), radius=14, fill=fill, outline=LIGHT if kind != "card" else None)
    # Location number in a dark tab at the top.
    draw.rounded_rectangle((0, 0, w, 40), radius=14, fill=(12, 12, 18))
    draw.rectangle((0, 26, w, 40), fill=(12, 12, 18))
    _text(draw, (12, 20), f"LOCATION {number}", font(22, "bold"), LIGHT, "lm")
    cy = 52
    if kind == "portal":
        _text(draw, (w / 2, cy + 50), "PORTAL", font(38, "bold"), LIGHT, "mm")
        hint = ["Die showing", f"{number} = 1 stone", "to the Realm"]
        _lines(draw, 12, cy + 100, hint, font(21), LIGHT, 28)
    elif kind == "empty":
        _text(draw, (w / 2, cy + 60), "empty", font(30, "bold"), LIGHT_MUTED, "mm")
    elif card is not None:
        _card_body(draw, 12, cy, w - 24, card)
    return tile


def _card_body(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, card: CardRecord) -> None:
    """Draw an Institute Card's name, Cost/Surpass, VP and power in short."""
    for size in (26, 23, 20):
        name_face = font(size, "narrow")
        if all(name_face.getlength(word) <= w for word in card.name.split()):
            break
    y = _lines(draw, x, y, _wrap(card.name, name_face, w, 2), name_face, INK, size + 4)
    y += 6
    # Cost and Surpass boxes, VP disc.
    box = (w - 60) // 2 - 4
    for i, (label, value) in enumerate((("COST", card.cost), ("SURPASS", card.surpass))):
        bx = x + i * (box + 4)
        draw.rounded_rectangle(
            (bx, y, bx + box, y + 64), radius=8, fill=(255, 255, 255), outline=INK, width=2
        )
        _text(draw, (bx + box / 2, y + 12), label, font(11, "bold"), MUTED, "mm")
        _text(draw, (bx + box / 2, y + 41), str(value), font(34, "bold"), INK, "mm")
    vx = x + w - 58
    draw.ellipse((vx, y + 3, vx + 58, y + 61), fill=GOLD, outline=INK, width=2)
    vp = "?" if card.character else str(card.vp)
    _text(draw, (vx + 29, y + 27), vp, font(30, "bold"), INK, "mm")
    _text(draw, (vx + 29, y + 50), "VP", font(12, "bold"), INK, "mm")
    y += 74
    face = font(19, "bold")
    lines = 3 if card.character else 2
    y = _lines(draw, x, y, _wrap(_card_power_line(card), face, w, lines), face, (110, 40, 20), 24)
    y += 4
    if not card.character:
        face = font(21)
        _lines(draw, x, y, _wrap(card.short, face, w, 3), face, INK, 26)


def _realm(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, table: InstituteRecord) -> None:
    """Draw the Ethereal Realm: its stones and the four awards."""
    draw.rounded_rectangle((x, y, x + w, y + h), radius=14, fill=REALM, outline=LIGHT)
    _lines(draw, x + 12, y + 12, ["ETHEREAL", "REALM"], font(28, "bold"), LIGHT, 34)
    face = font(17)
    _text(draw, (x + 12, y + 94), "Award by stones:", font(19, "bold"), LIGHT)
    _lines(draw, x + 12, y + 122, list(REALM_AWARDS), face, LIGHT, 26)
    deck = f"Deck: {table.deck} cards"
    _text(draw, (x + 12, y + 240), deck, font(20, "bold"), LIGHT_MUTED)
    if table.discarded:
        _text(draw, (x + 12, y + 266), f"Discarded: {table.discarded}", font(20), LIGHT_MUTED)
    _stones(draw, x + 12, y + h - 60, table.realm, LIGHT_MUTED)


def _player_panel(
    draw: ImageDraw.ImageDraw, x: int, y: int, w: int, h: int, table: InstituteRecord, p: PlayerRecord,
    label: str = "",
) -> None:
    """Draw a player's public area: score, supplies, dice with their Action Cards, and cards."""
    seat = p.seat
    draw.rounded_rectangle((x, y, x + w, y + h), radius=14, fill=SEAT_TINT[seat])
    draw.rounded_rectangle((x, y, x + w, y + 64), radius=14, fill=SEAT_COLOUR[seat])
    draw.rectangle((x, y + 40, x + w, y + 64), fill=SEAT_COLOUR[seat])
    _seat_badge(draw, x + 12, y + 8, seat, 48)
    score = f"{p.score} VP"
    score_face = font(PREVIEW_FONTS["score"], "bold")
    status = _status(table, p)
    face = font(21, "bold")
    chip = int(face.getlength(status)) + 24 if status else 0
    name_face = font(PREVIEW_FONTS["name"], "bold")
    room = w - 72 - score_face.getlength(score) - 32 - (chip + 12 if chip else 0)
    name = _wrap(label or SEAT_NAME[seat], name_face, int(room), 1)[0]
    _text(draw, (x + 72, y + 32), name, name_face, (255, 255, 255), "lm")
    if status:
        cx = x + 72 + int(name_face.getlength(name)) + 12
        _chip(draw, cx, y + 12, chip, status, (255, 255, 255), SEAT_COLOUR[seat], 21)
    _text(draw, (x + w - 16, y + 32), score, score_face, (255, 255, 255), "rm")
    # Dice and the Action Card under each; supplies to their right.
    dy, size, step = y + 76, 76, 106
    hidden = not p.assignment_visible
    for d, value in enumerate(p.dice):
        dx = x + 16 + d * step
        _die(draw, dx, dy, value, size)
        action = None if p.assignment is None else p.assignment[d]
        if table.phase == 1 or p.assignment_visible:
            _action_chip(draw, dx - 8, dy + size + 8, size + 16, action, hidden, 21)
    stats = [
        f"Charms {p.charms}",
        f"Reroll Cubes {p.rerolls}",
        f"Stones {p.stones}",
        f"Characters {p.characters}",
    ]
    _lines(draw, x + 16 + 4 * step + 6, dy - 2, stats, font(24, "bold"), INK, 30)
    # Cards held, as many lines as the panel has room for.
    cy = y + CARDS_TOP
    face = font(22)
    room = (y + h - cy - 4) // CARD_LINE
    lines = [f"● {c.name}" + ("" if c.character else f": {c.short}") for c in p.active]
    if len(lines) > room - (1 if p.inactive else 0):
        keep = max(0, room - 1 - (1 if p.inactive else 0))
        lines = [*lines[:keep], f"+ {len(lines) - keep} more active"]
    for line in lines:
        _text(draw, (x + 16, cy), _wrap(line, face, w - 32, 1)[0], face, INK)
        cy += CARD_LINE
    if p.inactive and cy + CARD_LINE <= y + h:
        used = f"Used ({len(p.inactive)}): " + ", ".join(c.name for c in p.inactive)
        _text(draw, (x + 16, cy), _wrap(used, face, w - 32, 1)[0], face, MUTED)


ROW_H = 400
"""The Locations' height: the longest card (two lines of name, of power, three of text) above its stones."""
LOG_H = 94
"""The last three public events under the players, and a margin."""
CARDS_TOP = 208
"""Where a player's cards start in their panel: under the dice and their Action Cards."""
CARD_LINE = 29
PANEL_MAX = 382
"""The players' panels at their tallest: five lines of cards (then "+ n more active")."""


def _panel_height(table: InstituteRecord) -> int:
    """Return the players' panel height: the longer list of cards, up to the five lines they hold.

    A board is encoded pixel by pixel, and most of the game a player holds one or two cards: a
    panel sized for five was a tenth of the board in empty tint.
    """
    lines = max(len(p.active) + (1 if p.inactive else 0) for p in table.players)
    return min(PANEL_MAX, CARDS_TOP + CARD_LINE * lines + 12)


def _status(table: InstituteRecord, who: PlayerRecord) -> str:
    """Return the chip beside a player's name: what the game waits on them for, never a secret."""
    if table.over:
        return "WINNER" if who.seat in table.winners else ""
    if table.step is Step.ASSIGN:
        # The thread's words ("has locked in"), so the board and the sheet never disagree with it.
        return "LOCKED IN" if who.confirmed else "NOT LOCKED IN YET"
    if table.step is Step.PORTAL:
        if who.portal_choice is not None:
            return f"PORTAL: SHOWS {who.portal_choice}"
        if who.portal_chosen:
            return "PORTAL: CHOSEN"
        if who.seat in table.waiting:
            return "PORTAL: CHOOSING"
    return "TO ACT" if who.seat in table.waiting else ""


PREVIEW_FONTS = {"title": 44, "waiting": 40, "last": 40, "name": 40, "score": 44}
"""Type sizes of what Discord's 400 px preview must show (x 400/1440: 11 px or more each)."""
HIGHLIGHT_W = 10
"""Outline of a Location the last move changed: still about 3 px at preview size."""


def changed_locations(before: View | None, view: View) -> set[int]:
    """Return the Locations (0-5, and 6 for the Ethereal Realm) whose card or stones changed."""
    if before is None:
        return set()
    old, new = read_view(before), read_view(view)
    changed = {i for i, (a, b) in enumerate(zip(old.locations, new.locations, strict=True)) if a != b}
    if old.realm != new.realm:
        changed.add(6)
    return changed


def seat_label(caption: render.Caption, seat: int, colour: bool = True) -> str:
    """Return a player's name with their colour ("alice (Red)"), or the colour alone.

    ``colour=False`` gives the name alone, where the seat's badge and tint already show it.
    """
    name = caption.names.get(seat)
    if not name:
        return SEAT_NAME[seat]
    return f"{name} ({SEAT_NAME[seat].capitalize()})" if colour else name


TITLE_GAP = 32
"""Room between the round-and-phase title and the goal beside it."""
TITLE_MIN = 40
"""The smallest type of the title (still 11 px in Discord's 400 px preview)."""


def _header_title(table: InstituteRecord, room: float) -> tuple[str, Font]:
    """Return the round-and-phase title and its type, smaller (then cut) so it never reaches the goal."""
    title = _phase_title(table)
    for size in range(PREVIEW_FONTS["title"], TITLE_MIN - 1, -2):
        face = font(size, "bold")
        if face.getlength(title) <= room:
            return title, face
    return _wrap(title, face, int(room), 1)[0], face


def draw_board(view: View, caption: render.Caption | None = None) -> bytes:
    """Return the PNG of the public board drawn from a view (seat None).

    The header, the names, the scores and the last move are in type that Discord's 400 px
    preview still shows; the Locations the last move changed are outlined in gold.
    """
    caption = caption or render.Caption()
    table = read_view(view)
    band = 110 if caption.last else 0
    panel = _panel_height(table)
    width, height = BOARD_W, 120 + ROW_H + 14 + panel + 10 + LOG_H + band
    image = canvas.blank((width, height), BG, _palette())
    draw = canvas.draw(image)
    # Header: round and phase, goal and deck; then whom the game waits on.
    goal = f"Goal {table.goal} VP"
    goal_face = font(PREVIEW_FONTS["title"], "bold")
    _text(draw, (width - MARGIN, 12), goal, goal_face, GOLD, "ra")
    title, face = _header_title(table, width - 2 * MARGIN - TITLE_GAP - goal_face.getlength(goal))
    # A smaller title sits on the same line as the goal.
    drop = PREVIEW_FONTS["title"] - getattr(face, "size", PREVIEW_FONTS["title"])
    _text(draw, (MARGIN, 12 + drop), title, face, LIGHT)
    face = font(PREVIEW_FONTS["waiting"], "bold")
    waiting = _wrap(_waiting_line(table, caption), face, width - 2 * MARGIN, 1)[0]
    _text(draw, (MARGIN, 66), waiting, face, GOLD if not table.over else (255, 255, 255))
    top = 120
    if caption.last:
        # Two lines of the last move, its latest events first to stay: what changed just now.
        face = font(PREVIEW_FONTS["last"], "bold")
        room = width - 2 * MARGIN - 28

        def fits(text: str) -> bool:
            return len(_wrap("Last: " + text, face, room, 3)) <= 2

        shown = _wrap("Last: " + render.latest(caption.last, fits), face, room, 2)
        draw.rounded_rectangle((MARGIN, top - 4, width - MARGIN, top + 98), radius=10, fill=GOLD)
        for k, line in enumerate(shown):
            _text(draw, (MARGIN + 14, top + 2 + 48 * k), line, face, INK)
        top += band
    # The row: Locations 1-6, then the Ethereal Realm.
    row_h = ROW_H
    col = (width - 2 * MARGIN - 6 * GAP) // 7
    for i, loc in enumerate(table.locations):
        _location(image, MARGIN + i * (col + GAP), top, col, row_h, loc)
    _realm(draw, MARGIN + 6 * (col + GAP), top, col, row_h, table)
    for i in changed_locations(caption.before, view):
        x = MARGIN + i * (col + GAP)
        box = (x - 4, top - 4, x + col + 4, top + row_h + 4)
        draw.rounded_rectangle(box, radius=12, outline=GOLD, width=HIGHLIGHT_W)
    # The two players.
    py, ph = top + row_h + 14, panel
    pw = (width - 2 * MARGIN - GAP) // 2
    for p in table.players:
        label = seat_label(caption, p.seat, colour=False)
        _player_panel(draw, MARGIN + p.seat * (pw + GAP), py, pw, ph, table, p, label)
    # The latest public events.
    ly = py + ph + 10
    face = font(20)
    for line in table.log[-3:]:
        _text(draw, (MARGIN, ly), _wrap(line, face, width - 2 * MARGIN, 1)[0], face, LIGHT_MUTED)
        ly += 26
    return _png(image)


# --------------------------------------------------------------------------- the private sheet


def _left(p: PlayerRecord) -> list[str]:
    """Return, per Action Card type, how many are not yet assigned."""
    assigned = p.assignment or ()
    out = []
    for action in ("take", "cast2", "cast1"):
        free = ACTION_LIMITS[action] - sum(1 for a in assigned if a == action)
        out.append(f"{ACTION_LABEL[action]} ×{free}")
    return out


def _die_target(table: InstituteRecord, value: int, action: str | None) -> str:
    """Say what a die does: the stones it takes, or where it casts (the card at that Location)."""
    if action == "take":
        return f"takes {value} stone{'s' if value != 1 else ''}"
    loc = table.locations[value - 1]
    where = {"portal": "the Portal", "empty": "empty"}.get(loc.kind) or (loc.card.name if loc.card else "")
    return f"→ L{value}: {where}"


def draw_sheet(view: View) -> bytes:
    """Return the PNG of a seat's private sheet drawn from its own view."""
    table = read_view(view)
    seat = table.seat
    if seat is None:
        return draw_board(view)
    me = table.players[seat]
    rival = table.players[1 - seat]
    width = SHEET_W
    image = canvas.blank((width, 1400), PAPER, _palette())
    draw = canvas.draw(image)
    draw.rectangle((0, 0, width, 76), fill=SEAT_COLOUR[seat])
    _seat_badge(draw, MARGIN, 12, seat, 52)
    title = f"Your sheet — {SEAT_NAME[seat]}"
    _text(draw, (MARGIN + 66, 38), title, font(34, "bold"), (255, 255, 255), "lm")
    _text(draw, (width - MARGIN, 38), f"{me.score} VP", font(40, "bold"), (255, 255, 255), "rm")
    y = 90
    _text(draw, (MARGIN, y), _phase_title(table), font(26, "bold"), INK)
    y += 40
    mine = [a.text for a in table.asks if a.seat == seat]
    if table.over:
        mine = [_waiting_line(table)]
    elif not mine:
        # The board's own words for whom the game waits on (another seat's prompt says "your").
        mine = ["Nothing to do now." + (f" {_waiting_line(table)}." if table.asks else "")]
    if table.locked_in:
        mine.append(table.locked_in)
    face = font(24, "bold")
    for line in mine:
        y = _lines(draw, MARGIN, y, _wrap(line, face, width - 2 * MARGIN, 2), face, SEAT_COLOUR[seat], 32)
    y += 10
    # Dice, each with the Action Card under it.
    size = 110
    for d, value in enumerate(me.dice):
        dx = MARGIN + d * (size + 30)
        _die(draw, dx, y, value, size)
        action = me.assignment[d] if me.assignment else None
        _action_chip(draw, dx - 5, y + size + 10, size + 10, action, False)
        # Where a die casts only means something until the stones are cast (Phases I and II).
        target = _die_target(table, value, action) if table.phase <= 2 and not table.over else ""
        face = font(18)
        ty = y + size + 60
        for line in [f"die {d + 1}", *_wrap(target, face, size + 26, 2)]:
            _text(draw, (dx + size / 2, ty), line, face, MUTED, "ma")
            ty += 22
    sx = MARGIN + 4 * (size + 30) + 10
    info = [
        f"Dice total {sum(me.dice)}" + (" (free reroll)" if sum(me.dice) <= 6 else ""),
        f"Reroll Cubes {me.rerolls} of 3",
        f"Charms {me.charms}   Stones {me.stones}",
    ]
    if table.step is Step.ASSIGN:
        info.append("Cards left: " + ", ".join(_left(me)))
        info.append("CONFIRMED" if me.confirmed else "Not confirmed yet")
    if me.portal_choice is not None:
        info.append(f"Your Portal choice: {me.portal_choice}")
    y2 = _lines(draw, sx, y, info, font(24, "bold"), INK, 34)
    y = max(y + size + 132, y2 + 10)
    # Cards held, with their full text.
    _text(draw, (MARGIN, y), "Your Institute Cards", font(26, "bold"), INK)
    y += 38
    face, small = font(21, "bold"), font(20)
    for card in me.active:
        head = f"{card.name} — {_card_power_line(card)}"
        _text(draw, (MARGIN, y), head, face, INK)
        y = _lines(
            draw,
            MARGIN + 20,
            y + 28,
            _wrap(card.text, small, width - 2 * MARGIN - 20, 3),
            small,
            MUTED,
            25,
        )
        y += 6
    if not me.active:
        _text(draw, (MARGIN, y), "No active cards.", small, MUTED)
        y += 30
    if me.inactive:
        used = "Used or inactive: " + ", ".join(c.name for c in me.inactive)
        y = _lines(draw, MARGIN, y, _wrap(used, small, width - 2 * MARGIN, 3), small, MUTED, 26)
    y += 14
    # The rival, briefly (only what this seat may know).
    draw.line((MARGIN, y, width - MARGIN, y), fill=PAPER_DIM, width=3)
    y += 12
    _seat_badge(draw, MARGIN, y, 1 - seat, 36)
    rival_line = (
        f"{SEAT_NAME[1 - seat]}: {rival.score} VP · dice {' '.join(str(v) for v in rival.dice)} · "
        f"{_status(table, rival).lower() or ('final' if table.over else 'waiting')}"
    )
    _text(draw, (MARGIN + 48, y + 18), rival_line, font(24, "bold"), INK, "lm")
    y += 56
    return _png(image.crop((0, 0, width, min(y, 1400))))


render.register("institute", board=draw_board, private=draw_sheet)
