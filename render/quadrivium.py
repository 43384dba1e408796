"""Quadrivium's drawings, from the typed record of a view: the covenant sheet and a decided trick.

The board posted in the thread is the trick's result when the move decided one (the record's
``news``: the two cards, the aids, each rank with its bonuses, who won), else the covenant sheet
(resources, Harm, the mages' Traits, Magic, Taint, Corruption, Council Votes). A seat's private
sheet adds its own hand under the covenant sheet; the public board never has a hand to draw.
Every drawing reads ``rules.quadrivium.record`` (built from the seat's view alone), never the dict.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageFont

import render
from render import canvas, typefaces
from rules.quadrivium.record import (
    ConflictRecord,
    CouncilRecord,
    MageRecord,
    NewsSide,
    Points,
    QuadriviumRecord,
    TraitRecord,
    TrickNews,
    read_view,
)
from rules.quadrivium.state import Phase

View = dict[str, Any]
PAPER = (244, 236, 218)
INK = (40, 32, 24)
MUTED = (120, 108, 92)
RED = (170, 30, 30)
GOLD = (196, 150, 40)
HARM = (190, 40, 40)
FRESH = (52, 92, 60)
CARD = (255, 253, 247)
COUNCIL = (70, 60, 110)
TRAITS = ("vigor", "craft", "influence", "insight")
SUIT_OF = {"vigor": "C", "craft": "D", "influence": "H", "insight": "S"}
SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RESOURCES = ("servants", "coffers", "relations", "archives", "essences")
WIDTH = 980


def font(size: int, face: str = "regular") -> ImageFont.FreeTypeFont:
    """Return a shipped DejaVu face (regular or bold) at a pixel size."""
    return typefaces.load(size, face)


def _png(image: Image.Image) -> bytes:
    return canvas.png(image, _palette())


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """Return the fixed palette: Quadrivium's nine colours, and each one's text edges on each other."""
    colours = (PAPER, INK, MUTED, RED, GOLD, HARM, FRESH, CARD, COUNCIL)
    return canvas.palette(colours, colours, colours)


def _pips(draw: ImageDraw.ImageDraw, x: int, y: int, r: Points | TraitRecord, size: int = 14) -> int:
    """Draw a resource's points: fresh (filled), expended (hollow), Harmed (a red cross); return the end x."""
    marks = ["fresh"] * r.fresh + ["spent"] * r.spent + ["harm"] * r.harm
    for n, mark in enumerate(marks):
        cx = x + n * (size + 4)
        box = (cx, y, cx + size, y + size)
        if mark == "fresh":
            draw.ellipse(box, fill=FRESH, outline=INK)
        elif mark == "spent":
            draw.ellipse(box, fill=PAPER, outline=INK, width=2)
        else:
            draw.ellipse(box, fill=PAPER, outline=HARM, width=2)
            draw.line((cx + 2, y + 2, cx + size - 2, y + size - 2), fill=HARM, width=3)
            draw.line((cx + 2, y + size - 2, cx + size - 2, y + 2), fill=HARM, width=3)
    if not marks:
        draw.text((x, y - 2), "—", font=font(14), fill=MUTED)
    return x + max(1, len(marks)) * (size + 4)


def _card_parts(card: str) -> tuple[str, str, tuple[int, int, int]]:
    base, _, changed = card.partition("/")
    if base in ("BJ", "RJ"):
        return "★", "Joker", RED if base == "RJ" else INK
    suit = changed or base[-1]
    colour = RED if suit in "DH" else INK
    return base[:-1], SIGNS[suit] + (" (changed)" if changed else ""), colour


def _card(draw: ImageDraw.ImageDraw, x: int, y: int, card: str | None, w: int = 110, h: int = 150) -> None:
    """Draw one card face up (or a card back when its face is not known)."""
    if card is None:
        draw.rounded_rectangle((x, y, x + w, y + h), 10, fill=COUNCIL, outline=INK, width=2)
        draw.text((x + w / 2, y + h / 2), "?", font=font(int(h * 0.3), "bold"), fill=CARD, anchor="mm")
        return
    rank, suit, colour = _card_parts(card)
    draw.rounded_rectangle((x, y, x + w, y + h), 10, fill=CARD, outline=INK, width=2)
    draw.text((x + 10, y + 8), rank, font=font(int(h * 0.2), "bold"), fill=colour)
    sign = suit.split(" ")[0]
    draw.text((x + w / 2, y + h * 0.58), sign, font=font(int(h * 0.38), "bold"), fill=colour, anchor="mm")
    if "changed" in suit:
        draw.text((x + w / 2, y + h - 14), "suit changed", font=font(11), fill=MUTED, anchor="mm")


def _title(draw: ImageDraw.ImageDraw, text: str, sub: str) -> None:
    draw.text((24, 16), text, font=font(30, "bold"), fill=INK)
    draw.text((24, 54), sub, font=font(17), fill=MUTED)


def _who(table: QuadriviumRecord, caption: render.Caption | None) -> dict[int, str]:
    """Return each seat's name on a drawing: the player (with the mage) when the table's names are
    known, as the thread's boards name them, else the mage (a seat number before it is named)."""
    names = caption.names if caption is not None else {}
    out = {}
    for mage in table.mages:
        player = names.get(mage.seat)
        if player:
            out[mage.seat] = f"{player} ({mage.name})" if mage.name else player
        else:
            out[mage.seat] = mage.name or f"seat {mage.seat + 1}"
    return out


SHEET_TOP = 192
"""Where the first mage's row starts: under the title and the covenant's resources."""
MAGE_ROW = 118


def _sheet_image(
    table: QuadriviumRecord, who: dict[int, str], extra: int = 0
) -> tuple[Image.Image, ImageDraw.ImageDraw, int]:
    height = SHEET_TOP + len(table.mages) * MAGE_ROW + extra + 20
    image = canvas.blank((WIDTH, height), PAPER, _palette())
    draw = canvas.draw(image)
    _title(draw, table.covenant.name or "A covenant not yet founded",
           f"{table.season.title()} of year {table.year} · scene {table.scenes} · "
           f"{table.conflicts} conflict{'' if table.conflicts == 1 else 's'} · deck {table.deck}")
    y = 92
    draw.text((24, y), "Covenant resources", font=font(18, "bold"), fill=INK)
    y += 30
    for n, name in enumerate(RESOURCES):
        x = 24 + n * 190
        r = table.covenant.resource(name)
        draw.text((x, y), f"{name.title()} {r.fresh}/{r.value}", font=font(16, "bold"), fill=INK)
        # Up to 9 pips fit a column; a larger resource shows its count in words.
        if r.value <= 9:
            _pips(draw, x, y + 26, r, 14)
        else:
            draw.text((x, y + 24), f"spent {r.spent}, Harm {r.harm}", font=font(14), fill=MUTED)
    y += 70
    for mage in table.mages:
        y = _mage_row(draw, y, mage, who[mage.seat])
    return image, draw, y


def _clipped(draw: ImageDraw.ImageDraw, text: str, face: Any, room: float) -> str:
    """Return ``text`` cut short with an ellipsis so that it fits ``room`` pixels (long names)."""
    return canvas.clip(text, room, lambda line: draw.textlength(line, font=face))


def _mage_row(draw: ImageDraw.ImageDraw, y: int, mage: MageRecord, head: str) -> int:
    draw.line((24, y, WIDTH - 24, y), fill=MUTED, width=1)
    y += 8
    roles = mage.roles
    face = font(20, "bold")
    draw.text((24, y), _clipped(draw, head, face, 380), font=face, fill=INK)
    info = f"{mage.votes} Council Votes · {mage.hand} cards" + (f" · {', '.join(roles)}" if roles else "")
    draw.text((420, y + 3), info, font=font(16), fill=MUTED)
    y += 32
    for n, t in enumerate(TRAITS):
        x = 24 + n * 238
        r = mage.trait(t)
        draw.text((x, y), f"{SIGNS[SUIT_OF[t]]} {t.title()}", font=font(16, "bold"),
                  fill=RED if SUIT_OF[t] in "DH" else INK)
        _pips(draw, x + 120, y + 2, r, 12)
        line = f"magic {r.usable_magic}"
        if r.taint:
            line += f" (Taint {r.taint})"
        if r.corruption:
            line += f" · Corruption −{r.corruption}"
        draw.text((x, y + 24), line, font=font(14), fill=HARM if r.corruption else MUTED)
    y += 50
    gear = [f"{c.name.title()} Companion {c.fresh}/{c.value}" for c in mage.companions]
    gear += [f"{c.name.title()} Item {c.fresh}/{c.value}" for c in mage.items]
    gear += [f"{a.trait.title()} Asset" + (" (used)" if a.used else "") for a in mage.assets]
    shares = [f"{k.title()} {v}" for k, v in mage.shares if v]
    if shares:
        gear.append("shares: " + ", ".join(shares))
    draw.text((24, y), " · ".join(gear) or "no Companions, Items or Assets", font=font(14), fill=INK)
    return y + 28


PANEL_H = 230
"""Height of the panel under the sheet: the scene, the conflict or the council under way."""
PANEL_LINES = 6
STEP_WORDS = {"repair": "Covenant Repair", "bid": "Bidding for Resources", "take": "Bidding for Resources",
              "actions": "Mage Actions", "years": "How many seasons pass"}


def _waiting(table: QuadriviumRecord, who: dict[int, str]) -> str:
    """Say whom the game waits on and for what, from the public prompts."""
    waiting = [f"{who.get(ask.seat, '?')}: {ask.text.rstrip('.')}" for ask in table.asks]
    return "Waiting on " + "; ".join(waiting) if waiting else ""


def _panel(draw: ImageDraw.ImageDraw, y: int, heading: str, lines: list[str]) -> int:
    """Draw a panel: a gold rule, a heading, then its lines (the last, whom the game waits on, bold)."""
    draw.line((24, y + 6, WIDTH - 24, y + 6), fill=GOLD, width=3)
    face = font(19, "bold")
    draw.text((24, y + 16), _clipped(draw, heading, face, WIDTH - 48), font=face, fill=INK)
    for n, line in enumerate(lines[:PANEL_LINES]):
        shown = line if len(line) <= 96 else line[:95] + "…"
        weight = "bold" if line.startswith("Waiting on") else "regular"
        draw.text((24, y + 50 + n * 30), shown, font=font(17, weight), fill=INK)
    return y + PANEL_H


def _under_way(table: QuadriviumRecord, who: dict[int, str]) -> tuple[str, list[str]] | None:
    """Return the heading and lines of what is under way: a conflict, a council, a scene's intent."""
    if table.conflict:
        return _conflict(table, table.conflict, who)
    if table.council:
        return _council(table, table.council, who)
    scene = table.scene
    if table.phase is Phase.SCENE and scene:
        pro = who.get(scene.pro, "?")
        return f"Scene {table.scenes}: {pro} is the Protagonist", [
            f"Intent: {scene.intent or 'not declared yet'}", "", "", "", "", _waiting(table, who)]
    return None


def _conflict(table: QuadriviumRecord, c: ConflictRecord, who: dict[int, str]) -> tuple[str, list[str]]:
    """The conflict under way: the sides, the intent, the types, the conditions, the tricks, who acts."""
    pro, ant = (who.get(s, "?") for s in c.sides)
    tricks = f"{c.wins[0]}–{c.wins[1]}" + (f", {c.tricks} to win" if c.tricks else "")
    if c.trick:
        placed = [f"{who.get(side.seat, '?')} " + ("face down" if side.placed else "not yet")
                  for side in c.trick]
        tricks += " · this trick: " + ("revealed" if c.revealed else ", ".join(placed))
    return f"Conflict: {pro}, Protagonist, against {ant}, Antagonist", [
        f"Intent: {c.intent or '—'}",
        "Conflict types: " + (" – ".join(t.title() for t in c.types) or "not named yet"),
        f"If {pro} wins: {c.win or '—'}" + _harm(c.win_harm),
        f"If {pro} loses: {c.lose or '—'}" + _harm(c.lose_harm),
        f"Tricks won: {tricks}",
        _waiting(table, who),
    ]


def _council(table: QuadriviumRecord, k: CouncilRecord, who: dict[int, str]) -> tuple[str, list[str]]:
    """The council under way: its step, the resource under bid, the bids, passes and takers, who acts."""
    name = "Winter Council" if k.winter else "Council"
    step = STEP_WORDS.get(k.step, k.step)
    heading = f"{name} of {table.season.title()}, year {table.year}: {step}"
    lines: list[str] = []

    def names(seats: tuple[int, ...] | list[int]) -> str:
        return ", ".join(who.get(x, "?") for x in seats) or "nobody"

    res = k.resource.title()
    if k.step == "bid" and k.bid:
        b = k.bid
        high = f"high bid {b.high} by {who.get(b.leader, '?')}" if b.leader is not None else "no bid yet"
        later = ", ".join(r.title() for r in k.later)
        lines += [f"Bidding for first pick of {res}: {high}" + (f" (then {later})" if later else ""),
                  "Passed: " + names([m.seat for m in table.mages if m.seat not in b.active])]
    elif k.step == "take" and k.take:
        lines += [f"Taking from {res}: cost {k.take.cost} Council Votes a point",
                  "Took: " + names(k.take.takers),
                  "Passed: " + names(k.take.passed)]
    elif k.step == "years":
        lines.append(f"Voted: {names(k.voted)}")
    if k.sat_out:
        lines.append("Passing for the rest of this bidding: " + names(k.sat_out))
    if k.duel:
        lines.append(f"Duel over {k.duel.res.title()}: {who.get(k.duel.a, '?')} against "
                     f"{who.get(k.duel.b, '?')}")
    lines += [""] * (PANEL_LINES - 1 - len(lines))
    lines.append(_waiting(table, who))
    return heading, lines


def _harm(harm: str) -> str:
    return f" (Harm: {harm})" if harm and harm != "none" else ""


def sheet(view: View, caption: render.Caption | None = None) -> bytes:
    """Return the covenant sheet (resources, Harm, each mage's Traits, Magic, Taint, Corruption, votes),
    and the scene, conflict or council under way; players named when the caption names them."""
    return _sheet(read_view(view), caption)


def _sheet(table: QuadriviumRecord, caption: render.Caption | None) -> bytes:
    who = _who(table, caption)
    under = _under_way(table, who)
    image, draw, y = _sheet_image(table, who, extra=PANEL_H if under else 0)
    if under:
        _panel(draw, y, *under)
    return _png(image)


def private_sheet(view: View, caption: render.Caption | None = None) -> bytes:
    """Return the covenant sheet, what is under way, and the seat's own hand (for that seat alone)."""
    table = read_view(view)
    hand = table.hand
    who = _who(table, caption)
    under = _under_way(table, who)
    image, draw, y = _sheet_image(table, who, extra=200 + (PANEL_H if under else 0))
    if under:
        y = _panel(draw, y, *under)
    draw.text((24, y + 10), "Your hand (only you see this)", font=font(18, "bold"), fill=INK)
    for n, card in enumerate(hand[:8]):
        _card(draw, 24 + n * 118, y + 40, card)
    if not hand:
        draw.text((24, y + 50), "no cards", font=font(16), fill=MUTED)
    return _png(image)


def _breakdown(side: NewsSide) -> list[str]:
    card = side.card
    if card is None:
        return ["face down (conceded)"]
    if side.total is None:
        return ["a Joker: takes the trick at once" if card.split("/")[0] in ("BJ", "RJ") else ""]
    base = side.total - side.bonus - 2 * len(side.aids) - side.magic + side.minus
    base += side.corruption - sum(_rank(a) for a in side.adds)
    lines = [f"rank {base}"]
    if side.bonus:
        lines.append(f"+{side.bonus} conflict type")
    if side.aids:
        lines.append(f"+{2 * len(side.aids)} Aid ({len(side.aids)})")
    if side.adds:
        lines.append(f"+{sum(_rank(a) for a in side.adds)} Vigor")
    if side.magic:
        lines.append(f"+{side.magic} magic")
    if side.minus:
        lines.append(f"−{side.minus} Item")
    if side.corruption:
        lines.append(f"−{side.corruption} Corruption")
    lines.append(f"= {side.total}")
    return lines


def _rank(card: str) -> int:
    base = card.split("/")[0]
    if base in ("BJ", "RJ"):
        return 15 + (base == "RJ")
    face = base[:-1]
    return {"J": 11, "Q": 12, "K": 13, "A": 14}.get(face) or int(face)


def trick(view: View, caption: render.Caption | None = None) -> bytes:
    """Return the image of the trick just decided: both cards, the aids, each rank's parts, the winner."""
    table = read_view(view)
    if table.news is None:
        raise ValueError("no trick was just decided")
    return _trick(table, table.news, caption)


def _trick(table: QuadriviumRecord, news: TrickNews, caption: render.Caption | None) -> bytes:
    who = _who(table, caption)
    named = [who.get(side.seat, side.name) for side in news.sides]
    image = canvas.blank((WIDTH, 470), PAPER, _palette())
    draw = canvas.draw(image)
    types = " – ".join(t.title() for t in news.types)
    _title(draw, f"Trick {news.trick}: {named[news.winner]} takes it",
           f"Conflict type {types} · tricks {news.wins[0]}–{news.wins[1]}")
    for i, side in enumerate(news.sides):
        x = 24 + i * (WIDTH // 2)
        won = i == news.winner
        role = ("Protagonist", "Antagonist")[i]
        box = (x - 8, 88, x + WIDTH // 2 - 40, 458)
        draw.rounded_rectangle(box, 14, outline=GOLD if won else MUTED, width=5 if won else 2)
        draw.text((x + 8, 98), f"{role}: {named[i]}", font=font(19, "bold"), fill=INK)
        _card(draw, x + 8, 132, side.card, 120, 165)
        for n, aid in enumerate(side.aids[:4]):
            _card(draw, x + 140 + n * 62, 132, aid, 56, 78)
        if side.aids:
            draw.text((x + 140 + min(4, len(side.aids)) * 62, 160), "Aid", font=font(14), fill=MUTED)
        for n, add in enumerate(side.adds[:4]):
            _card(draw, x + 140 + n * 62, 218, add, 56, 78)
        if side.adds:
            draw.text((x + 140 + min(4, len(side.adds)) * 62, 246), "Vigor", font=font(14), fill=MUTED)
        for n, line in enumerate(_breakdown(side)):
            weight = "bold" if line.startswith("=") else "regular"
            draw.text((x + 8, 310 + n * 19), line, font=font(16, weight), fill=INK)
        if won:
            draw.text((box[2] - 16, 98), "WINS", font=font(22, "bold"), fill=GOLD, anchor="ra")
    return _png(image)


def board(view: View, caption: render.Caption | None = None) -> bytes:
    """Return the thread's board: the trick just decided, else the covenant sheet with what is under way."""
    table = read_view(view)  # read once: the board is drawn after every move
    return _trick(table, table.news, caption) if table.news else _sheet(table, caption)


render.register("quadrivium", board=board, private=private_sheet, sheets={"covenant": sheet})
