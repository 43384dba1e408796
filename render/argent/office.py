"""A seat's private office: spells and research, cards, discard, and the voters it has seen."""

from __future__ import annotations

import math
from typing import Any

from render.argent.board import draw_board
from render.argent.look import (
    DEPT_COLOUR,
    DEPT_WORD,
    GOLD,
    INK,
    LAYOUT_W,
    LIGHT,
    LIGHT_MUTED,
    MUTED,
    PAD,
    PANEL,
    PAPER,
    UNRESEARCHED,
    VOTER_SEEN,
    Font,
    Sheet,
    View,
    clip,
    font,
    png_bytes,
    seat_token,
    sheet,
    wrap,
    write,
)
from render.argent.voters import STRIP_H, draw_strip
from rules.argent import content, record
from rules.argent.record import Office, Voter

# --------------------------------------------------------------------------- the private office


def draw_office(view: View) -> bytes:
    """Draw a seat's private office: spells and research, cards, discard, and the voters it has seen."""
    rec = record.read(view)
    if rec.me is None:
        return draw_board(view)
    office = rec.me
    seen = [v for v in rec.voters if v.name is not None]
    draw = sheet(LAYOUT_W, _office_height(office, len(seen)))
    write(
        draw,
        (PAD, 10),
        f"Your office · Round {rec.round}/{rec.rounds}",
        font=font(26, "bold"),
        fill=GOLD,
    )
    draw_strip(draw, rec, office, (PAD, 46, LAYOUT_W - PAD, 46 + STRIP_H))
    y = 46 + STRIP_H + PAD
    y = _office_spells(draw, office, y)
    y = _office_cards(draw, office, y)
    y = _office_voters(draw, seen, y)
    return png_bytes(draw)


def _office_height(office: Office, seen: int) -> int:
    """Return the office's height: the header and strip, spells, cards and discard, the voters seen."""
    books = (1 if office.starter else 0) + len(office.spells)
    cards = len(office.vault_cards) + len(office.supporters)
    piles = math.ceil(max(1, len(office.discard or ())) / 3)
    spells = 32 + books * 96 + 8
    listed = 30 + (44 * cards if cards else 30) + 28 + 30 * piles + 10
    return 46 + STRIP_H + PAD + spells + listed + 32 + 58 * seen + PAD


def _office_spells(draw: Sheet, office: Office, y: int) -> int:
    on_int = len(office.spells)
    on_wis = sum(s.level - 1 for s in office.spells)
    write(
        draw,
        (PAD, y),
        f"Spells and research — INT free {office.intelligence} (on spells {on_int}), "
        f"WIS free {office.wisdom} "
        f"(on spells {on_wis}). A new spell costs 1 INT; each level above the first 1 WIS.",
        font=font(18, "bold"),
        fill=LIGHT,
    )
    y += 32
    text_face = font(15)
    if office.starter:
        st = office.starter
        rec = content.starter(st.id)
        _spell_box(
            draw,
            rec["name"] + " (starter)",
            rec.get("department"),
            [(rec, True)],
            st.exhausted,
            y,
            text_face,
        )
        y += 96
    for s in office.spells:
        book = content.book(s.id)
        levels = [(lvl, lvl["level"] <= s.level) for lvl in book["levels"]]
        _spell_box(draw, s.name, book["department"], levels, s.exhausted, y, text_face)
        y += 96
    return y + 8


def _spell_box(
    draw: Sheet,
    title: str,
    dept: str | None,
    levels: list[tuple[dict[str, Any], bool]],
    spent: bool,
    y: int,
    face: Font,
) -> None:
    draw.rounded_rectangle((PAD, y, LAYOUT_W - PAD, y + 88), radius=8, fill=PANEL)
    draw.rectangle((PAD + 6, y + 8, PAD + 20, y + 80), fill=DEPT_COLOUR.get(dept or "", MUTED))
    write(
        draw,
        (PAD + 30, y + 6),
        title + ("  (exhausted)" if spent else ""),
        font=font(18, "bold"),
        fill=LIGHT_MUTED if spent else LIGHT,
    )
    w = (LAYOUT_W - 2 * PAD - 40) / 3
    for k, (lvl, researched) in enumerate(levels):
        x = PAD + 30 + k * w
        fill = PAPER if researched else UNRESEARCHED
        ink = INK if researched else LIGHT_MUTED
        draw.rounded_rectangle((x, y + 32, x + w - 8, y + 84), radius=5, fill=fill)
        head = f"L{lvl.get('level', 1)} {lvl['name']} · {lvl['cost']} Mana · {lvl['timing']}"
        write(draw, (x + 6, y + 34), clip(head, font(14, "bold"), w - 20), font=font(14, "bold"), fill=ink)
        for j, line in enumerate(wrap(lvl.get("text", ""), face, w - 20, 2)):
            write(draw, (x + 6, y + 50 + j * 16), line, font=face, fill=ink)


def _office_cards(draw: Sheet, office: Office, y: int) -> int:
    write(draw, (PAD, y), "Vault cards and supporters", font=font(18, "bold"), fill=LIGHT)
    y += 30
    face = font(15)
    rows = [
        (
            content.vault(v.id)["name"] + (" (exhausted)" if v.exhausted else ""),
            f"{content.vault(v.id)['type']}, {content.vault(v.id)['timing']}",
            content.vault(v.id)["text"],
        )
        for v in office.vault_cards
    ] + [
        (
            content.supporter(s)["name"],
            f"supporter, {DEPT_WORD.get(content.supporter(s)['department'], '')}",
            content.supporter(s)["text"],
        )
        for s in office.supporters
    ]
    if not rows:
        write(draw, (PAD + 10, y), "none yet", font=face, fill=LIGHT_MUTED)
        y += 30
    for name, kind, text in rows:
        write(draw, (PAD + 10, y), name, font=font(16, "bold"), fill=LIGHT)
        write(draw, (PAD + 300, y), kind, font=face, fill=LIGHT_MUTED)
        write(draw, (PAD + 520, y), clip(text, face, LAYOUT_W - PAD - 530), font=face, fill=LIGHT)
        y += 44
    pile = office.discard or ()
    write(draw, (PAD, y), f"Discard pile ({len(pile)})", font=font(18, "bold"), fill=LIGHT)
    y += 28
    names = [content.card_name(c.kind, c.id) + (" (secret)" if c.secret else "") for c in pile]
    for k in range(0, max(1, len(names)), 3):
        chunk = names[k : k + 3]
        write(
            draw,
            (PAD + 10, y),
            "   ·   ".join(chunk) or "empty",
            font=face,
            fill=LIGHT_MUTED if not chunk else LIGHT,
        )
        y += 30
    return y + 10


def _office_voters(
    draw: Sheet, seen: list[Voter], y: int
) -> int:
    write(draw, (PAD, y), "Voters you have seen, and where you stand now", font=font(18, "bold"), fill=LIGHT)
    y += 32
    for v in seen:
        draw.rounded_rectangle(
            (PAD, y, LAYOUT_W - PAD, y + 52), radius=6, fill=PAPER if v.face_up else VOTER_SEEN
        )
        write(draw, (PAD + 10, y + 4), f"{v.position + 1}. {v.name}", font=font(17, "bold"), fill=INK)
        write(draw, (PAD + 10, y + 28), v.criterion_words, font=font(15), fill=MUTED)
        mx = PAD + 380
        for s in v.marks:
            seat_token(draw, s, mx, y + 26, 11)
            mx += 26
        line = v.line or ""
        write(draw, (PAD + 520, y + 16), clip(line, font(16), LAYOUT_W - PAD - 530), font=font(16), fill=INK)
        y += 58
    return y
