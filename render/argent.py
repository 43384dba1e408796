"""Argent's drawings: the public board for the thread and each seat's private office.

Both are pure functions of a view (``rules.argent.views.view``) and return PNG bytes; the static
card data (room slots, card names and texts) comes from ``rules.argent.content``. Every player is
told apart by colour, by a numeral (P1..P5) and by a shape (circle, square, triangle, diamond,
hexagon), so a colour-blind player loses nothing. The board is 1600 px wide with big type for the
things players scan most (rooms, mages, voters, the Influence track); the rest is read full size.

The presentation helpers (``standing``, ``criterion_words``, ``reward_text``) are shared with the
Discord cog so that texts and drawings agree.
"""

from __future__ import annotations

import io
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

import render
from render import typefaces
from rules.argent import content

View = dict[str, Any]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
RGB = tuple[int, int, int]

# --------------------------------------------------------------------------- look

BOARD_W = 1400
OFFICE_W = 1400
PAD = 14

BG = (30, 32, 40)
PANEL = (44, 47, 58)
PAPER = (242, 236, 222)
PAPER_DIM = (214, 208, 194)
INK = (22, 22, 26)
MUTED = (110, 106, 98)
LIGHT = (238, 238, 244)
LIGHT_MUTED = (170, 174, 190)
GOLD = (226, 176, 36)
LOCK = (196, 40, 40)
MERIT = (200, 150, 20)
SHADOW = (70, 66, 86)
SLOT_EMPTY = (226, 220, 204)
VOTER_DOWN = (70, 60, 96)
VOTER_SEEN = (226, 214, 240)
UNRESEARCHED = (70, 72, 84)
SUPPLY = (150, 150, 150)

SEAT_COLOUR: tuple[RGB, ...] = ((230, 159, 0), (0, 114, 178), (0, 158, 115), (204, 121, 167), (240, 228, 66))
"""Okabe-Ito colours, chosen to stay apart for the common colour blindnesses."""
SEAT_SHAPE = ("circle", "square", "triangle", "diamond", "hexagon")
SEAT_TEXT: tuple[RGB, ...] = (INK, LIGHT, INK, INK, INK)

DEPT_COLOUR: dict[str, RGB] = {
    "sorcery": (200, 44, 44),
    "mysticism": (140, 140, 150),
    "natural_magick": (40, 150, 60),
    "planar_studies": (128, 64, 170),
    "divinity": (40, 96, 200),
    "neutral": (236, 232, 220),
    "apprentice": (226, 176, 36),
    "student_body": (160, 110, 60),
    "wild": (90, 90, 90),
}
DEPT_TAG = {
    "sorcery": "So",
    "mysticism": "My",
    "natural_magick": "Na",
    "planar_studies": "Pl",
    "divinity": "Di",
    "neutral": "Ne",
    "apprentice": "Ap",
}
DEPT_WORD = {
    "sorcery": "Sorcery",
    "mysticism": "Mysticism",
    "natural_magick": "Natural Magick",
    "planar_studies": "Planar Studies",
    "divinity": "Divinity",
    "neutral": "Neutral",
    "apprentice": "Apprentice",
    "student_body": "Student Body",
    "wild": "Wild",
}
RES_SHORT = {
    "gold": "Gold",
    "mana": "Mana",
    "int": "INT",
    "wis": "WIS",
    "ip": "IP",
    "mark": "Mark",
    "research": "Rsch",
}
MERIT_STEP = 7

@lru_cache(maxsize=64)
def font(size: int, style: str = "regular") -> Font:
    """Return a shipped DejaVu face at that pixel size (regular, bold, narrow, narrow_bold)."""
    # The basic layout is several times faster than Raqm and enough for Latin text.
    return typefaces.load(size, style, basic=True)


# --------------------------------------------------------------------------- words shared with the cog


def seat_tag(seat: int) -> str:
    """Return a seat's short name, as the engine's texts write it (P1..P5)."""
    return f"P{seat + 1}"


def seat_mark(seat: int) -> str:
    """Return a seat's colour-free description: its numeral and its shape."""
    return f"P{seat + 1} ({SEAT_SHAPE[seat % 5]})"


def _amounts(arg: dict[str, Any]) -> str:
    return " ".join(f"{n} {RES_SHORT.get(r, r)}" for r, n in arg.items())


def reward_text(effects: list[dict[str, Any]]) -> str:
    """Return a slot's reward in a few words, e.g. '8 Gold / 4 Mana' or 'pay 2 Gold: any mage'."""
    out = ""
    for part in (_reward_one(e) for e in effects):
        if part:
            out += (" " if out.endswith("→") else ", ") + part if out else part
    return out or "—"


def _reward_one(effect: dict[str, Any]) -> str:
    key, arg = next(iter(effect.items()))
    if key == "gain":
        return _amounts(arg)
    if key == "pay":
        return f"{_amounts(arg)} →"
    if key == "choose":
        return " / ".join(reward_text(o) for o in arg)
    if key == "choose_distinct":
        return f"{arg['picks']} of " + " / ".join(reward_text(o) for o in arg["options"])
    if key == "draft":
        n = arg.get("count", 1)
        return f"draft {n if n > 1 else ''} {arg['tableau']}".replace("  ", " ")
    if key == "draw":
        return f"draw {arg['deck']}"
    if key == "buy":
        n = arg.get("count", 1)
        off = f" -{arg['discount']}G" if arg.get("discount") else ""
        return f"buy {n}{off}"
    if key == "gain_per":
        per = {"own:wis": "WIS", "players_with_more:ip": "leader", "own:int": "INT"}.get(arg["per"], "…")
        plus = f"+{arg['plus']} " if arg.get("plus") else ""
        half = "½" if arg.get("divide") == 2 else ""
        return f"{plus}{half}{RES_SHORT.get(arg['resource'], arg['resource'])}/{per}"
    if key == "repeat":
        return f"≤{arg.get('max') or '∞'}×: " + reward_text(arg["effects"])
    if key == "gain_mage":
        dept = arg["department"]
        if dept == "apprentice":
            return "Apprentice"
        return "+mage" if dept == "any" else f"+{DEPT_TAG.get(dept, dept)} mage"
    if key == "swap_mage":
        return "swap mage"
    if key == "secret_supporter":
        return "secret supp."
    if key == "astronomy":
        pay = RES_SHORT.get(arg["pay"], arg["pay"])
        return f"{arg['per_space']} {pay}/space" + (" (1st free)" if arg.get("first_space_free") else "")
    if key == "take_revealed":
        return "take a revealed card"
    if key == "draft_room_card":
        return "draft a room card"
    return key.replace("_", " ")


def criterion_words(criterion: str | None) -> str:
    """Return a voter's criterion in words, e.g. 'most Gold' or 'second-most Influence'."""
    if not criterion:
        return "?"
    parts = criterion.split(":")
    prefix = "most" if parts[0] == "most" else "2nd-most"
    what = parts[1]
    if what == "department":
        return f"{prefix} {DEPT_WORD.get(parts[2], parts[2])} icons"
    if what == "vault_type":
        return f"{prefix} {parts[2]}s"
    names = {
        "ip": "Influence",
        "int": "INT",
        "wis": "WIS",
        "gold": "Gold",
        "mana": "Mana",
        "supporters": "supporters",
        "marks": "Marks",
        "research": "research",
        "diversity": "diversity",
    }
    return f"{prefix} {names.get(what, what)}"


def _supporters_seen(office: dict[str, Any]) -> tuple[list[str], bool]:
    """Return the supporters a view shows for an office and whether that is all of them."""
    found = list(office["supporters"])
    pile = office.get("discard")
    if pile is None:
        return found, False
    return found + [c["id"] for c in pile if c["kind"] == "supporter"], True


def _vaults_seen(office: dict[str, Any]) -> tuple[list[str], bool]:
    found = [v["id"] for v in office["vaults"]]
    pile = office.get("discard")
    if pile is None:
        return found, False
    return found + [c["id"] for c in pile if c["kind"] == "vault"], True


def _supporter_dept(office: dict[str, Any], sid: str) -> str | None:
    if sid == "white_ash":
        return office.get("white_ash")
    return content.supporter(sid)["department"]


def measure(view: View, seat: int, criterion: str) -> tuple[int, bool]:
    """Return how much of a voter's counted thing a seat has as the view shows it, and if exact.

    Not exact when part of it may hide in a face-down discard pile: the value is then a floor.
    """
    office = view["offices"][seat]
    parts = criterion.split(":")
    what = parts[1] if len(parts) > 1 else parts[0]
    spells = office["spells"]
    if what in ("ip", "gold", "mana"):
        return office[what], True
    if what == "int":
        return office["int"] + len(spells), True
    if what == "wis":
        return office["wis"] + sum(s["level"] - 1 for s in spells), True
    if what == "marks":
        return sum(1 for v in view["voters"] for s in v["marks"] if s == seat), True
    if what == "research":
        return sum(s["level"] for s in spells), True
    if what == "supporters":
        found, exact = _supporters_seen(office)
        return len(found), exact
    if what == "vault_type":
        found, exact = _vaults_seen(office)
        return sum(1 for v in found if content.vault(v)["type"] == parts[2]), exact
    if what == "department":
        dept = parts[2]
        found, exact = _supporters_seen(office)
        icons = sum(s["level"] for s in spells if content.book(s["id"])["department"] == dept)
        return icons + sum(1 for sid in found if _supporter_dept(office, sid) == dept), exact
    if what == "diversity":
        found, exact = _supporters_seen(office)
        depts = set(DEPT_TAG) - {"neutral", "apprentice"}
        sup = {_supporter_dept(office, sid) for sid in found} & depts
        spl = {content.book(s["id"])["department"] for s in spells} & depts
        return len(sup) + len(spl), exact
    return 0, False


def standing(view: View, criterion: str) -> dict[int, tuple[int, bool]]:
    """Return every seat's count for a criterion ('second-most' counts the same thing)."""
    return {o["seat"]: measure(view, o["seat"], criterion) for o in view["offices"] if not o.get("left")}


def standing_line(view: View, seat: int, criterion: str) -> str:
    """Return where a seat stands on a voter now, e.g. 'you 9 Gold; best rival P2 12: behind by 3'."""
    counts = standing(view, criterion)
    mine, _ = counts.get(seat, (0, True))
    rivals = {s: c for s, c in counts.items() if s != seat}
    if not rivals:
        return f"you {mine}"
    best = max(rivals, key=lambda s: rivals[s][0])
    value, exact = rivals[best]
    floor = "" if exact else "≥"
    if criterion.startswith("second_most"):
        ranked = sorted(counts.items(), key=lambda kv: -kv[1][0])
        place = 1 + sum(1 for s, (v, _) in ranked if v > mine)
        nth = {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
        return f"you {mine} ({nth}); {seat_tag(best)} has {floor}{value}; this voter backs the runner-up"
    if mine == 0 and value == 0:
        verdict = "nobody has any yet" if exact else "nobody shows any yet"
    elif not exact:
        # A rival's face-down discard may hold more: the count shown is a floor.
        verdict = {
            True: "ahead of what you can see",
            False: f"behind by {value - mine} or more" if mine < value else "level with what you can see",
        }[mine > value]
    elif mine > value:
        verdict = f"ahead by {mine - value}"
    elif mine == value:
        verdict = "tied (a Mark, then IP break ties)"
    else:
        verdict = f"behind by {value - mine}"
    return f"you {mine}; best rival {seat_tag(best)} {floor}{value}: {verdict}"


# --------------------------------------------------------------------------- drawing helpers


def _clip(text: str, face: Font, width: float) -> str:
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _wrap(text: str, face: Font, width: float, lines: int) -> list[str]:
    words, out, line = text.split(), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if face.getlength(trial) <= width or not line:
            line = trial
            continue
        out.append(line)
        line = word
    if line:
        out.append(line)
    if len(out) > lines:
        out = out[:lines]
        out[-1] = _clip(out[-1] + " …", face, width)
    return [_clip(x, face, width) for x in out]


def _shape(
    draw: ImageDraw.ImageDraw, shape: str, cx: float, cy: float, r: float, fill: RGB, outline: RGB
) -> None:
    """Draw one of the seat shapes centred on (cx, cy)."""
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    elif shape == "square":
        k = r * 0.88
        draw.rectangle((cx - k, cy - k, cx + k, cy + k), fill=fill, outline=outline, width=2)
    elif shape == "triangle":
        draw.polygon(
            [(cx, cy - r * 1.05), (cx + r * 1.05, cy + r * 0.8), (cx - r * 1.05, cy + r * 0.8)],
            fill=fill,
            outline=outline,
            width=2,
        )
    elif shape == "diamond":
        draw.polygon(
            [(cx, cy - r * 1.1), (cx + r * 1.1, cy), (cx, cy + r * 1.1), (cx - r * 1.1, cy)],
            fill=fill,
            outline=outline,
            width=2,
        )
    else:
        draw.regular_polygon((cx, cy, r * 1.02), 6, fill=fill, outline=outline, width=2)


def seat_token(draw: ImageDraw.ImageDraw, seat: int | None, cx: float, cy: float, r: float) -> None:
    """Draw a player's token: their shape in their colour with their numeral (grey for the supply)."""
    if seat is None:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=SUPPLY, outline=INK, width=2)
        return
    _shape(draw, SEAT_SHAPE[seat % 5], cx, cy, r, SEAT_COLOUR[seat % 5], INK)
    face = font(max(10, int(r * 1.15)), "bold")
    dy = r * 0.18 if SEAT_SHAPE[seat % 5] == "triangle" else 0
    _text(draw, (cx, cy + dy), str(seat + 1), font=face, fill=SEAT_TEXT[seat % 5], anchor="mm")


def mage_token(draw: ImageDraw.ImageDraw, mage: dict[str, Any], cx: float, cy: float, r: float) -> None:
    """Draw a mage: its owner's token, with its department's tag in a coloured band below."""
    seat_token(draw, mage["owner"], cx, cy, r)
    tag = DEPT_TAG.get(mage["type"], "?")
    face = font(max(9, int(r * 0.7)), "bold")
    w = face.getlength(tag) + 6
    top = cy + r * 0.62
    colour = DEPT_COLOUR.get(mage["type"], MUTED)
    draw.rounded_rectangle((cx - w / 2, top, cx + w / 2, top + r * 0.8), radius=3, fill=colour, outline=INK)
    ink = INK if sum(colour) > 420 else LIGHT
    _text(draw, (cx, top + r * 0.4), tag, font=face, fill=ink, anchor="mm")
    if mage.get("temp"):
        _text(draw, (cx + r, cy - r), "t", font=font(int(r * 0.8), "bold"), fill=GOLD, anchor="mm")


_MASKS: dict[tuple[str, int, str], tuple[Image.Image, int, int]] = {}


def _text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font: Font, fill: RGB, anchor: str = "la"
) -> None:
    """Draw text from a cache of rendered masks: boards repeat the same words, and rendering is the cost."""
    key = (text, id(font), anchor)
    got = _MASKS.get(key)
    if got is None:
        left, top, right, bottom = (int(v) for v in font.getbbox(text, anchor=anchor))
        mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
        ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=255, anchor=anchor)
        if len(_MASKS) > 6000:
            _MASKS.clear()
        got = _MASKS[key] = (mask, left, top)
    mask, left, top = got
    draw.bitmap((int(xy[0]) + left, int(xy[1]) + top), mask, fill=fill)


def _blend(a: RGB, b: RGB, share: float) -> RGB:
    return tuple(round(x + (y - x) * share) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


@lru_cache(maxsize=1)
def palette() -> Image.Image:
    """Return the fixed palette every drawing is mapped to: its flat colours and their text edges.

    Mapping to a known palette is five times faster than computing one per image, keeps the PNG
    small, and makes the pixels depend on the view alone.
    """
    flats = [BG, PANEL, PAPER, PAPER_DIM, INK, MUTED, LIGHT, LIGHT_MUTED, GOLD, LOCK, MERIT, SHADOW]
    flats += [SLOT_EMPTY, VOTER_DOWN, VOTER_SEEN, UNRESEARCHED, SUPPLY, *SEAT_COLOUR, *DEPT_COLOUR.values()]
    inks = (INK, MUTED, LIGHT, LIGHT_MUTED, GOLD)
    grounds = (
        BG,
        PANEL,
        PAPER,
        PAPER_DIM,
        VOTER_DOWN,
        VOTER_SEEN,
        SLOT_EMPTY,
        UNRESEARCHED,
        MERIT,
        SHADOW,
        LOCK,
    )
    colours = list(dict.fromkeys(flats))
    for ink in inks:
        for ground in grounds:
            colours += [_blend(ground, ink, 0.33), _blend(ground, ink, 0.66)]
    for ground in (*SEAT_COLOUR, *DEPT_COLOUR.values()):
        for ink in (INK, LIGHT):
            colours.append(_blend(ground, ink, 0.5))
    colours = list(dict.fromkeys(colours))[:256]
    flat = [c for colour in colours for c in colour]
    image = Image.new("P", (1, 1))
    image.putpalette(flat + flat[:3] * (256 - len(colours)))
    return image


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    small = image.quantize(palette=palette(), dither=Image.Dither.NONE)
    small.save(out, format="PNG", compress_level=3)
    return out.getvalue()


# --------------------------------------------------------------------------- the University


def _room_slots(room: str, side: str) -> list[dict[str, Any]]:
    return content.room_side(room, side)["slots"]


def _mages_by_loc(view: View) -> dict[str, dict[str, Any]]:
    return {m["loc"]: m for m in view["mages"] if "/" in m["loc"]}


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
    tile = Image.new("RGB", (w + 1, h + 1), BG)
    draw = ImageDraw.Draw(tile)
    x0, y0, x1 = 0, 0, w
    draw.rounded_rectangle(
        (0, 0, w, h), radius=10, fill=PAPER, outline=LOCK if locked else INK, width=4 if locked else 2
    )
    name = content.room_name(room) if room != "infirmary" else "Infirmary"
    head = font(24, "bold")
    side_rec = content.room_side(room, side)
    shown = _clip(name, head, w - (150 if locked or side_rec.get("instant") else 50))
    _text(draw, (x0 + 10, y0 + 6), shown, font=head, fill=INK)
    _text(draw, (x0 + 20 + head.getlength(shown), y0 + 10), side, font=font(18), fill=MUTED)
    if locked:
        draw.rounded_rectangle((x1 - 104, y0 + 6, x1 - 8, y0 + 32), radius=5, fill=LOCK)
        _text(draw, (x1 - 56, y0 + 19), "LOCKED", font=font(16, "bold"), fill=LIGHT, anchor="mm")
    elif side_rec.get("instant"):
        _text(draw, (x1 - 10, y0 + 12), "instant", font=font(16, "bold"), fill=MUTED, anchor="ra")
    small = font(17, "narrow")
    number = 0
    for s, dy, shadow in _slot_rows(room, side):
        y = y0 + HEAD_H + dy
        if s["kind"] in ("area", "general"):
            title = "general area" if s["kind"] == "general" else "any number"
            label = _clip(f"{title}: {reward_text(s.get('effects', []))}", small, w - 20)
            _text(draw, (x0 + 10, y + 4), label, font=small, fill=INK)
            continue
        number += 1
        merit = s["kind"] == "merit"
        cy = y + ROW_H / 2
        # Slot marker: a gold star badge for merit slots, a plain numbered disc otherwise.
        if merit:
            draw.regular_polygon((x0 + 22, cy, 15), 5, fill=MERIT, outline=INK)
            _text(draw, (x0 + 22, cy + 1), "M", font=font(13, "bold"), fill=INK, anchor="mm")
        else:
            draw.ellipse((x0 + 9, cy - 13, x0 + 35, cy + 13), fill=PAPER_DIM, outline=MUTED)
            _text(draw, (x0 + 22, cy), str(number), font=font(15, "bold"), fill=INK, anchor="mm")
        reward = _clip(reward_text(s.get("effects", [])), small, w - 146)
        _text(draw, (x0 + 44, cy), reward, font=small, fill=INK, anchor="lm")
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
            _text(draw, (hx, cy), "sh", font=font(12), fill=LIGHT_MUTED, anchor="mm")
    return tile


def _draw_room(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: View,
    room: str,
    box: tuple[int, int, int, int],
    at: dict[str, Any],
) -> None:
    """Draw one room: its cached tile, then the mages in its slots and shadows, its track and cards."""
    x0, y0, x1, y1 = box
    info = view["board"]["rooms"][room]
    side = info["side"]
    image.paste(_room_tile(room, side, bool(info.get("locked")), x1 - x0, y1 - y0), (x0, y0))
    for s, dy, shadow in _slot_rows(room, side):
        y = y0 + HEAD_H + dy
        if s["kind"] in ("area", "general"):
            here = sorted(
                (m for loc, m in at.items() if loc.startswith(f"{room}/{s['id']}/")), key=lambda m: m["loc"]
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
        _draw_track(draw, track, info.get("marker", 0), x0 + 10, y1 - 34, x1 - 10)
    if info.get("cards"):
        small = font(17, "narrow")
        names = ", ".join(content.card_name(c["kind"], c["id"]) for c in info["cards"])
        _text(draw, (x0 + 10, y1 - 24), _clip("cards: " + names, small, x1 - x0 - 20), font=small, fill=INK)


def _draw_track(draw: ImageDraw.ImageDraw, track: list[Any], marker: int, x0: int, y: int, x1: int) -> None:
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
        _text(
            draw,
            (bx + w / 2, y + 13),
            _clip(reward_text(space), face, w - 4),
            font=face,
            fill=INK,
            anchor="mm",
        )


def _grid_height(view: View, row: list[str | None]) -> int:
    rooms = [r for r in row if r]
    rows = max((_room_rows(r, view["board"]["rooms"][r]["side"]) for r in rooms), default=1)
    extra = 0
    for r in rooms:
        rec = content.room_side(r, view["board"]["rooms"][r]["side"])
        if rec.get("track") or view["board"]["rooms"][r].get("cards"):
            extra = 36
    return HEAD_H + rows * ROW_H + extra + 8


# --------------------------------------------------------------------------- the board


def draw_board(view: View, caption: render.Caption | None = None) -> bytes:
    """Draw the public board: the preview band, University, Consortium, Influence, tableaus, strips.

    The band on top is what Discord's 400 px preview must show (whose turn, everyone's Influence,
    the last move); the rooms the last move changed are outlined in gold.
    """
    caption = caption or render.Caption()
    grid = view["board"]["grid"]
    heights = [_grid_height(view, row) for row in grid]
    strip_rows = (view["players"] + 1) // 2
    band = preview_height(caption)
    total = band + sum(heights) + PAD * len(grid) + 220 + 200 + 150 + strip_rows * (STRIP_H + 8) + 3 * PAD
    image = Image.new("RGB", (BOARD_W, total), BG)
    draw = ImageDraw.Draw(image)
    y = _draw_preview(draw, view, caption)
    at = _mages_by_loc(view)
    changed = changed_rooms(caption.before, view)
    for row, h in zip(grid, heights, strict=True):
        cols = len(row)
        w = (BOARD_W - PAD * (cols + 1)) // max(1, cols)
        for i, room in enumerate(row):
            if room:
                x = PAD + i * (w + PAD)
                _draw_room(image, draw, view, room, (x, y, x + w, y + h), at)
                if room in changed:
                    draw.rounded_rectangle(
                        (x - 5, y - 5, x + w + 5, y + h + 5), radius=12, outline=GOLD, width=HIGHLIGHT_W
                    )
        y += h + PAD
    y = _draw_voters(draw, view, y)
    y = _draw_influence(draw, view, y)
    y = _draw_tableaus(draw, view, y)
    half = (BOARD_W - 3 * PAD) // 2
    for k, office in enumerate(view["offices"]):
        x = PAD + (k % 2) * (half + PAD)
        top = y + (k // 2) * (STRIP_H + 8)
        player = caption.names.get(office["seat"], "")
        _draw_strip(draw, view, office, (x, top, x + half, top + STRIP_H), player)
    y += strip_rows * (STRIP_H + 8)
    return _png(image.crop((0, 0, BOARD_W, min(total, y + PAD))))


STRIP_H = 146

# --------------------------------------------------------------------------- the preview band

PREVIEW_FONTS = {"title": 52, "turn": 46, "score": 42, "last": 40}
"""Type sizes of the band; at Discord's 400 px preview (x 400/1400) each stays 11 px or more."""
HIGHLIGHT_W = 10
"""Outline of a room the last move changed: still 3 px at preview size."""
PREVIEW_ROW = {"title": 66, "turn": 64, "score": 62, "last": 62}


def preview_height(caption: render.Caption) -> int:
    """Return the height of the preview band (the last-move row only when there is a last move)."""
    rows = ("title", "turn", "score", "last") if caption.last else ("title", "turn", "score")
    return 12 + sum(PREVIEW_ROW[r] for r in rows) + PAD


def player_name(view: View, caption: render.Caption, seat: int) -> str:
    """Return how the board names a seat: the player's name, else the candidate, else P1..P5."""
    return caption.names.get(seat) or view["offices"][seat]["candidate_name"] or seat_tag(seat)


def preview_lines(view: View, caption: render.Caption) -> dict[str, str]:
    """Return the band's texts: the round, whose turn, the Influence of each seat, the last move."""
    title = f"Round {view['round']}/{view['rounds']} · {PHASE_WORDS.get(view['phase'], view['phase'])}"
    actor = _actor(view)
    if view["phase"] == "over":
        turn = "The game is over"
    elif actor is None:
        turn = "Resolving…"
    else:
        ordinary = (view.get("pending") or {}).get("kind") in (None, "turn", "turn_place")
        verb = "to play" if view.get("turn") == actor and ordinary else "decides"
        turn = f"{player_name(view, caption, actor)} ({seat_tag(actor)}) {verb}"
    scores = "  ".join(
        f"{player_name(view, caption, o['seat'])} {o['ip']}" for o in view["offices"]
    )
    lines = {"title": title, "turn": turn, "score": f"Influence: {scores}"}
    if caption.last:
        face = font(PREVIEW_FONTS["last"], "bold")
        room = BOARD_W - 2 * PAD - 28
        lines["last"] = "Last: " + render.latest(caption.last, lambda t: face.getlength("Last: " + t) <= room)
    return lines


def _actor(view: View) -> int | None:
    """Return the seat the game waits on now (its pending decision, else the turn or setup queue)."""
    actor = view["pending"]["seat"] if view.get("pending") else view.get("turn")
    if actor is None and view["queue"]:
        actor = view["queue"][0]
    return actor


def changed_rooms(before: View | None, view: View) -> set[str]:
    """Return the rooms whose mages the last move changed (placed, moved, wounded, banished)."""
    if before is None:
        return set()
    old, new = _mages_by_loc(before), _mages_by_loc(view)
    moved = {loc for loc in old.keys() | new.keys() if _who(old.get(loc)) != _who(new.get(loc))}
    return {loc.split("/", 1)[0] for loc in moved}


def _who(mage: dict[str, Any] | None) -> tuple[Any, ...] | None:
    return None if mage is None else (mage.get("id"), mage.get("owner"), mage.get("type"))


def _draw_preview(draw: ImageDraw.ImageDraw, view: View, caption: render.Caption) -> int:
    """Draw the band a 400 px preview must show: round, whose turn, Influence, the last move."""
    lines = preview_lines(view, caption)
    width = BOARD_W - 2 * PAD
    y = 12
    title = font(PREVIEW_FONTS["title"], "bold")
    _text(draw, (PAD, y), lines["title"], font=title, fill=LIGHT)
    bell = f"Bell Tower: {len(view['bell'])} left"
    face = font(PREVIEW_FONTS["turn"], "bold")
    _text(draw, (BOARD_W - PAD, y + 6), bell, font=face, fill=GOLD, anchor="ra")
    y += PREVIEW_ROW["title"]
    turn = font(PREVIEW_FONTS["turn"], "bold")
    actor = _actor(view)
    x = PAD
    if actor is not None and view["phase"] != "over":
        seat_token(draw, actor, x + 24, y + 28, 24)
        x += 60
    first = view.get("first")
    room = BOARD_W - PAD - x - (130 if first is not None else 0)
    _text(draw, (x, y), _clip(lines["turn"], turn, room), font=turn, fill=LIGHT)
    if first is not None:
        # Who goes first next round: a token after "1st", right-aligned.
        small = font(PREVIEW_FONTS["score"])
        _text(draw, (BOARD_W - PAD - 60, y + 4), "1st", font=small, fill=LIGHT_MUTED, anchor="ra")
        seat_token(draw, first, BOARD_W - PAD - 26, y + 28, 22)
    y += PREVIEW_ROW["turn"]
    y = _draw_scores(draw, view, caption, y)
    if "last" in lines:
        face = font(PREVIEW_FONTS["last"], "bold")
        draw.rounded_rectangle((PAD, y, PAD + width, y + PREVIEW_ROW["last"] - 8), radius=10, fill=GOLD)
        _text(draw, (PAD + 14, y + 6), _clip(lines["last"], face, width - 28), font=face, fill=INK)
        y += PREVIEW_ROW["last"]
    return y + PAD


def _draw_scores(draw: ImageDraw.ImageDraw, view: View, caption: render.Caption, y: int) -> int:
    """Draw one chip per seat: its token, the player's name and Influence, in big type."""
    offices = view["offices"]
    face = font(PREVIEW_FONTS["score"], "bold")
    label = "IP"
    _text(draw, (PAD, y + 4), label, font=face, fill=LIGHT_MUTED)
    x0 = PAD + face.getlength(label) + 16
    w = (BOARD_W - PAD - x0) / max(1, len(offices))
    for k, office in enumerate(offices):
        x = x0 + k * w
        seat = office["seat"]
        draw.rounded_rectangle((x, y, x + w - 10, y + PREVIEW_ROW["score"] - 8), radius=10, fill=PANEL)
        seat_token(draw, seat, x + 26, y + 27, 20)
        score = str(office["ip"])
        right = x + w - 22
        _text(draw, (right, y + 4), score, font=face, fill=GOLD, anchor="ra")
        room = right - face.getlength(score) - 12 - (x + 52)
        name = _clip(player_name(view, caption, seat), face, room)
        _text(draw, (x + 52, y + 4), name, font=face, fill=LIGHT)
    return y + PREVIEW_ROW["score"]


PHASE_WORDS = {
    "draft": "Mage draft",
    "marks": "Starting Marks",
    "errands": "Errands",
    "resolution": "Resolution",
    "endgame": "Counting the votes",
    "over": "Game over",
}


def _draw_voters(draw: ImageDraw.ImageDraw, view: View, y: int) -> int:
    """Draw the Consortium: white voters face up, face-down ones with the Marks on them."""
    voters = view["voters"]
    _text(draw, (PAD, y), "The Consortium", font=font(22, "bold"), fill=LIGHT)
    y += 30
    n = max(1, len(voters))
    w = (BOARD_W - PAD * (n + 1)) / n
    h = 128
    for i, v in enumerate(voters):
        x = PAD + i * (w + PAD)
        known = v["name"] is not None
        fill = PAPER if v["face_up"] else (VOTER_DOWN if not known else VOTER_SEEN)
        draw.rounded_rectangle((x, y, x + w, y + h), radius=8, fill=fill, outline=INK, width=2)
        ink = INK if (v["face_up"] or known) else LIGHT
        _text(draw, (x + 8, y + 4), str(v["position"] + 1), font=font(22, "bold"), fill=ink)
        if known:
            lines = _wrap(v["name"], font(14, "bold"), w - 12, 2)
            for k, line in enumerate(lines):
                _text(draw, (x + 6, y + 32 + k * 17), line, font=font(14, "bold"), fill=INK)
            crit = _wrap(criterion_words(v["criterion"]), font(13), w - 12, 2)
            for k, line in enumerate(crit):
                _text(draw, (x + 6, y + 68 + k * 15), line, font=font(13), fill=MUTED)
        else:
            _text(draw, (x + w / 2, y + 58), "?", font=font(44, "bold"), fill=LIGHT_MUTED, anchor="mm")
        # Marks along the bottom edge, closer together when many.
        step = min(27.0, (w - 24) / max(1, len(v["marks"]) - 1)) if len(v["marks"]) > 1 else 27.0
        for k, s in enumerate(v["marks"]):
            seat_token(draw, s, x + 16 + k * step, y + h - 18, 12)
        if v["face_up"] and not view.get("outcome"):
            _text(draw, (x + w - 8, y + 8), "white", font=font(12), fill=MUTED, anchor="ra")
    outcome = view.get("outcome")
    if outcome:
        # At the end each card gets a band naming the player it votes for.
        winners = outcome.get("awarded") or {}
        for i, v in enumerate(voters):
            x = PAD + i * (w + PAD)
            who = winners.get(str(v["position"]))
            band = (x, y + h + 4, x + w, y + h + 34)
            draw.rounded_rectangle(band, radius=6, fill=PANEL if who is None else SEAT_COLOUR[who % 5])
            if who is None:
                _text(draw, (x + w / 2, y + h + 19), "no vote", font=font(14), fill=LIGHT_MUTED, anchor="mm")
            else:
                _text(
                    draw,
                    (x + 8, y + h + 19),
                    "vote:",
                    font=font(14, "bold"),
                    fill=SEAT_TEXT[who % 5],
                    anchor="lm",
                )
                seat_token(draw, who, x + w - 22, y + h + 19, 12)
        h += 38
    return y + h + PAD


def _draw_influence(draw: ImageDraw.ImageDraw, view: View, y: int) -> int:
    """Draw the Influence track: discs on their IP, a stack's first arrival at the bottom; badges at 7s."""
    offices = [o for o in view["offices"] if not o.get("left")]
    top = max([o["ip"] for o in offices] + [28])
    cells = top + 2
    _text(draw, (PAD, y), "Influence", font=font(22, "bold"), fill=LIGHT)
    badges = "   Merit Badges (free/all): " + "  ".join(
        f"{seat_tag(o['seat'])} {o['merit_free']}/{o['merit']}" for o in offices
    )
    _text(draw, (PAD + 120, y + 4), badges, font=font(18), fill=LIGHT_MUTED)
    y += 30
    w = (BOARD_W - 2 * PAD) / cells
    base = y + 128
    for i in range(cells):
        x = PAD + i * w
        threshold = i > 0 and i % MERIT_STEP == 0
        draw.rectangle((x, base, x + w - 1, base + 16), fill=MERIT if threshold else PANEL, outline=BG)
        if i % 5 == 0 or threshold:
            _text(
                draw,
                (x + w / 2, base + 8),
                str(i),
                font=font(11, "bold"),
                fill=INK if threshold else LIGHT_MUTED,
                anchor="mm",
            )
    stacks: dict[int, list[dict[str, Any]]] = {}
    for o in offices:
        stacks.setdefault(o["ip"], []).append(o)
    r = min(13, w / 2 - 1)
    for ip, pile in stacks.items():
        pile.sort(key=lambda o: o["ip_time"])  # the first to arrive sits lowest
        cx = PAD + ip * w + w / 2
        # A tall stack draws smaller discs rather than leave the track's band.
        small = min(r, 124 / (2 * len(pile)) - 1)
        for k, o in enumerate(pile):
            seat_token(draw, o["seat"], cx, base - small - 2 - k * (2 * small + 2), small)
    return base + 16 + PAD


def _draw_tableaus(draw: ImageDraw.ImageDraw, view: View, y: int) -> int:
    """Draw the spell, vault and supporter tableaus side by side."""
    cols = (
        (
            "Spells",
            [(content.book(b)["name"], content.book(b)["department"], "") for b in view["tableau"]["spell"]],
        ),
        (
            "Vault",
            [
                (
                    content.vault(v)["name"],
                    None,
                    f"{content.vault(v)['cost']}G {content.vault(v)['type'][:4]}.",
                )
                for v in view["tableau"]["vault"]
            ],
        ),
        (
            "Supporters",
            [
                (content.supporter(s)["name"], content.supporter(s)["department"], "")
                for s in view["tableau"]["supporter"]
            ],
        ),
    )
    room = BOARD_W - 4 * PAD
    widths = (int(room * 0.3), int(room * 0.3), room - 2 * int(room * 0.3))
    x = PAD
    face = font(17)
    for (title, items), w in zip(cols, widths, strict=True):
        draw.rounded_rectangle((x, y, x + w, y + 140), radius=8, fill=PANEL)
        _text(draw, (x + 10, y + 6), title, font=font(20, "bold"), fill=LIGHT)
        per_col = 5 if len(items) > 3 else 3
        rows = items[:10]
        colw = w if len(rows) <= per_col else w / 2
        for k, (name, dept, extra) in enumerate(rows):
            cx = x + (k // per_col) * colw
            cy = y + 34 + (k % per_col) * (21 if per_col == 5 else 32)
            if dept:
                draw.rectangle(
                    (cx + 10, cy + 3, cx + 22, cy + 15), fill=DEPT_COLOUR.get(dept, MUTED), outline=INK
                )
            text = f"{name}  {extra}".strip()
            _text(draw, (cx + 28, cy), _clip(text, face, colw - 36), font=face, fill=LIGHT)
        x += w + PAD
    return y + 140 + PAD


def _spell_words(office: dict[str, Any]) -> list[tuple[str, bool]]:
    out = []
    if office["starter"]:
        st = office["starter"]
        out.append((content.starter(st["id"])["name"] + " (starter)", st["exhausted"]))
    for s in office["spells"]:
        out.append((f"{content.book(s['id'])['name']} L{s['level']}", s["exhausted"]))
    return out


def _draw_strip(
    draw: ImageDraw.ImageDraw,
    view: View,
    office: dict[str, Any],
    box: tuple[int, int, int, int],
    player: str = "",
) -> None:
    """Draw one player's strip: who, resources, Marks, waiting mages, spells, vault cards, supporters."""
    x0, y0, x1, y1 = box
    seat = office["seat"]
    colour = SEAT_COLOUR[seat % 5]
    draw.rounded_rectangle(box, radius=10, fill=PANEL, outline=colour, width=4)
    draw.rectangle((x0 + 4, y0 + 4, x0 + 12, y1 - 4), fill=colour)
    seat_token(draw, seat, x0 + 40, y0 + 28, 20)
    name = office["candidate_name"] or "—"
    you = " (you)" if view.get("you") == seat else ""
    left = " (left)" if office.get("left") else ""
    head = font(22, "bold")
    # The board names the player ("P2 bob · Rheye Cal"); the office, its own seat, says "you".
    who = f"{player} · {name}" if player else name
    title = _clip(f"{seat_tag(seat)} {who}{you}{left}", head, 300)
    _text(draw, (x0 + 68, y0 + 8), title, font=head, fill=LIGHT)
    dept = DEPT_WORD.get(office["department"] or "", "")
    _text(draw, (x0 + 72 + head.getlength(title), y0 + 14), dept, font=font(15), fill=LIGHT_MUTED)
    # Mages waiting in the office, at the right of the first line.
    home = [m for m in view["mages"] if m["owner"] == seat and m["loc"] == "office"]
    mx = x1 - 18
    for m in reversed(home[:8]):
        mage_token(draw, m, mx, y0 + 22, 12)
        mx -= 28
    if home:
        _text(draw, (mx + 8, y0 + 16), "office:", font=font(14), fill=LIGHT_MUTED, anchor="ra")
    on_int = len(office["spells"])
    on_wis = sum(s["level"] - 1 for s in office["spells"])
    marks = sum(1 for v in view["voters"] for s in v["marks"] if s == seat)
    placed = sum(1 for m in view["mages"] if m["owner"] == seat and "/" in m["loc"])
    stats = [
        ("IP", str(office["ip"])),
        ("Gold", str(office["gold"])),
        ("Mana", str(office["mana"])),
        ("INT+spells", f"{office['int']}+{on_int}"),
        ("WIS+spells", f"{office['wis']}+{on_wis}"),
        ("Merit", f"{office['merit_free']}/{office['merit']}"),
        ("Marks", str(marks)),
        ("on board", str(placed)),
    ]
    x = x0 + 24
    big = font(24, "bold")
    label = font(13)
    for name_, value in stats:
        _text(draw, (x, y0 + 44), name_, font=label, fill=LIGHT_MUTED)
        _text(draw, (x, y0 + 58), value, font=big, fill=LIGHT)
        x += max(60, int(big.getlength(value)) + 22, int(label.getlength(name_)) + 12)
    face = font(16, "narrow")
    yy = y0 + 92
    spells = [(t + (" (ex)" if spent else ""), spent) for t, spent in _spell_words(office)]
    sx = x0 + 24
    _text(draw, (sx, yy), "Spells:", font=font(16, "narrow_bold"), fill=LIGHT_MUTED)
    sx += 60
    for text, spent in spells:
        wid = face.getlength(text)
        if sx + wid > x1 - 10:
            _text(draw, (x1 - 12, yy), "…", font=face, fill=LIGHT, anchor="ra")
            break
        _text(draw, (sx, yy), text, font=face, fill=LIGHT_MUTED if spent else LIGHT)
        sx += wid + 14
    vaults = [content.vault(v["id"])["name"] + (" (ex)" if v["exhausted"] else "") for v in office["vaults"]]
    supporters = [content.supporter(s)["name"] for s in office["supporters"]]
    pile = office.get("discard")
    pile_text = "face down" if pile is None else str(len(pile))
    bell = ", ".join(content.bell(b)["name"] for b in office["bell"])
    line = (
        f"Vault: {', '.join(vaults) or '—'}   Supporters: {', '.join(supporters) or '—'}   "
        f"Discard: {pile_text}" + (f"   Bell: {bell}" if bell else "")
    )
    _text(draw, (x0 + 24, yy + 24), _clip(line, face, x1 - x0 - 36), font=face, fill=LIGHT)


# --------------------------------------------------------------------------- the private office


def draw_office(view: View) -> bytes:
    """Draw a seat's private office: spells and research, cards, discard, and the voters it has seen."""
    seat = view.get("you")
    if seat is None:
        return draw_board(view)
    office = view["offices"][seat]
    seen = [v for v in view["voters"] if v["name"] is not None]
    books = ([office["starter"]] if office["starter"] else []) + office["spells"]
    cards = len(office["vaults"]) + len(office["supporters"])
    pile = office.get("discard") or []
    height = (
        190 + 34 + len(books) * 96 + 50 + max(1, cards) * 44 + 50 + 30 * max(1, (len(pile) + 2) // 3) + 50
    )
    height += len(seen) * 58 + 60 + 200  # slack: the image is cropped to what was drawn
    image = Image.new("RGB", (OFFICE_W, height), BG)
    draw = ImageDraw.Draw(image)
    _text(
        draw,
        (PAD, 10),
        f"Your office · Round {view['round']}/{view['rounds']}",
        font=font(26, "bold"),
        fill=GOLD,
    )
    _draw_strip(draw, view, office, (PAD, 46, OFFICE_W - PAD, 46 + STRIP_H))
    y = 46 + STRIP_H + PAD
    y = _office_spells(draw, office, y)
    y = _office_cards(draw, office, y)
    y = _office_voters(draw, view, seat, seen, y)
    return _png(image.crop((0, 0, OFFICE_W, min(height, y + PAD))))


def _office_spells(draw: ImageDraw.ImageDraw, office: dict[str, Any], y: int) -> int:
    on_int = len(office["spells"])
    on_wis = sum(s["level"] - 1 for s in office["spells"])
    _text(
        draw,
        (PAD, y),
        f"Spells and research — INT free {office['int']} (on spells {on_int}), WIS free {office['wis']} "
        f"(on spells {on_wis}). A new spell costs 1 INT; each level above the first 1 WIS.",
        font=font(18, "bold"),
        fill=LIGHT,
    )
    y += 32
    text_face = font(15)
    if office["starter"]:
        st = office["starter"]
        rec = content.starter(st["id"])
        _spell_box(
            draw,
            rec["name"] + " (starter)",
            rec.get("department"),
            [(rec, True)],
            st["exhausted"],
            y,
            text_face,
        )
        y += 96
    for s in office["spells"]:
        book = content.book(s["id"])
        levels = [(lvl, lvl["level"] <= s["level"]) for lvl in book["levels"]]
        _spell_box(draw, book["name"], book["department"], levels, s["exhausted"], y, text_face)
        y += 96
    return y + 8


def _spell_box(
    draw: ImageDraw.ImageDraw,
    title: str,
    dept: str | None,
    levels: list[tuple[dict[str, Any], bool]],
    spent: bool,
    y: int,
    face: Font,
) -> None:
    draw.rounded_rectangle((PAD, y, OFFICE_W - PAD, y + 88), radius=8, fill=PANEL)
    draw.rectangle((PAD + 6, y + 8, PAD + 20, y + 80), fill=DEPT_COLOUR.get(dept or "", MUTED))
    _text(
        draw,
        (PAD + 30, y + 6),
        title + ("  (exhausted)" if spent else ""),
        font=font(18, "bold"),
        fill=LIGHT_MUTED if spent else LIGHT,
    )
    w = (OFFICE_W - 2 * PAD - 40) / 3
    for k, (lvl, researched) in enumerate(levels):
        x = PAD + 30 + k * w
        fill = PAPER if researched else UNRESEARCHED
        ink = INK if researched else LIGHT_MUTED
        draw.rounded_rectangle((x, y + 32, x + w - 8, y + 84), radius=5, fill=fill)
        head = f"L{lvl.get('level', 1)} {lvl['name']} · {lvl['cost']} Mana · {lvl['timing']}"
        _text(draw, (x + 6, y + 34), _clip(head, font(14, "bold"), w - 20), font=font(14, "bold"), fill=ink)
        for j, line in enumerate(_wrap(lvl.get("text", ""), face, w - 20, 2)):
            _text(draw, (x + 6, y + 50 + j * 16), line, font=face, fill=ink)


def _office_cards(draw: ImageDraw.ImageDraw, office: dict[str, Any], y: int) -> int:
    _text(draw, (PAD, y), "Vault cards and supporters", font=font(18, "bold"), fill=LIGHT)
    y += 30
    face = font(15)
    rows = [
        (
            content.vault(v["id"])["name"] + (" (exhausted)" if v["exhausted"] else ""),
            f"{content.vault(v['id'])['type']}, {content.vault(v['id'])['timing']}",
            content.vault(v["id"])["text"],
        )
        for v in office["vaults"]
    ] + [
        (
            content.supporter(s)["name"],
            f"supporter, {DEPT_WORD.get(content.supporter(s)['department'], '')}",
            content.supporter(s)["text"],
        )
        for s in office["supporters"]
    ]
    if not rows:
        _text(draw, (PAD + 10, y), "none yet", font=face, fill=LIGHT_MUTED)
        y += 30
    for name, kind, text in rows:
        _text(draw, (PAD + 10, y), name, font=font(16, "bold"), fill=LIGHT)
        _text(draw, (PAD + 300, y), kind, font=face, fill=LIGHT_MUTED)
        _text(draw, (PAD + 520, y), _clip(text, face, OFFICE_W - PAD - 530), font=face, fill=LIGHT)
        y += 44
    pile = office.get("discard") or []
    _text(draw, (PAD, y), f"Discard pile ({len(pile)})", font=font(18, "bold"), fill=LIGHT)
    y += 28
    names = [content.card_name(c["kind"], c["id"]) + (" (secret)" if c.get("secret") else "") for c in pile]
    for k in range(0, max(1, len(names)), 3):
        chunk = names[k : k + 3]
        _text(
            draw,
            (PAD + 10, y),
            "   ·   ".join(chunk) or "empty",
            font=face,
            fill=LIGHT_MUTED if not chunk else LIGHT,
        )
        y += 30
    return y + 10


def _office_voters(
    draw: ImageDraw.ImageDraw, view: View, seat: int, seen: list[dict[str, Any]], y: int
) -> int:
    _text(draw, (PAD, y), "Voters you have seen, and where you stand now", font=font(18, "bold"), fill=LIGHT)
    y += 32
    for v in seen:
        draw.rounded_rectangle(
            (PAD, y, OFFICE_W - PAD, y + 52), radius=6, fill=PAPER if v["face_up"] else VOTER_SEEN
        )
        _text(draw, (PAD + 10, y + 4), f"{v['position'] + 1}. {v['name']}", font=font(17, "bold"), fill=INK)
        _text(draw, (PAD + 10, y + 28), criterion_words(v["criterion"]), font=font(15), fill=MUTED)
        mx = PAD + 380
        for s in v["marks"]:
            seat_token(draw, s, mx, y + 26, 11)
            mx += 26
        line = standing_line(view, seat, v["criterion"])
        _text(draw, (PAD + 520, y + 16), _clip(line, font(16), OFFICE_W - PAD - 530), font=font(16), fill=INK)
        y += 58
    return y


render.register("argent", board=draw_board, private=draw_office)
