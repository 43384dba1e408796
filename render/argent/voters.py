"""The lower board: voters, the Influence track, tableaus, and each seat's strip."""

from __future__ import annotations

from functools import partial

from render.argent.look import (
    BG,
    DEPT_COLOUR,
    DEPT_WORD,
    INK,
    LAYOUT_W,
    LIGHT,
    LIGHT_MUTED,
    MERIT,
    MERIT_STEP,
    MUTED,
    PAD,
    PANEL,
    PAPER,
    SEAT_COLOUR,
    SEAT_TEXT,
    VOTER_DOWN,
    VOTER_SEEN,
    Record,
    Sheet,
    clip,
    font,
    mage_token,
    seat_token,
    tile,
    wrap,
    write,
)
from render.argent.pieces import piece
from rules.argent import content
from rules.argent.record import Mage, Office, Voter
from rules.argent.standings import seat_tag

STRIP_H = 146
VOTER_H = 128
AWARD_H = 38
INFLUENCE_H = 30 + 128 + 16 + PAD
TABLEAU_H = 140 + PAD


PHASE_WORDS = {
    "draft": "Mage draft",
    "marks": "Starting Marks",
    "errands": "Errands",
    "resolution": "Resolution",
    "endgame": "Counting the votes",
    "over": "Game over",
}


def voters_height(rec: Record) -> int:
    """Return the height of the Consortium: its title, the cards, and at the end their award bands."""
    return 30 + VOTER_H + (AWARD_H if rec.outcome else 0) + PAD


def draw_voters(draw: Sheet, rec: Record, y: int) -> int:
    """Draw the Consortium: white voters face up, face-down ones with the Marks on them."""
    voters = rec.voters
    write(draw, (PAD, y), "The Consortium", font=font(22, "bold"), fill=LIGHT)
    y += 30
    n = max(1, len(voters))
    w = (LAYOUT_W - PAD * (n + 1)) / n
    h = VOTER_H
    for i, v in enumerate(voters):
        x = PAD + i * (w + PAD)
        white = v.face_up and not rec.outcome
        key = ("voter", v.position, v.face_up, v.name, v.criterion, white)
        card = partial(_voter_card, v=v, white=white)
        tile(draw, key, (x, y, x + w, y + h), card)
        # Marks along the bottom edge, closer together when many.
        step = min(27.0, (w - 24) / max(1, len(v.marks) - 1)) if len(v.marks) > 1 else 27.0
        for k, s in enumerate(v.marks):
            seat_token(draw, s, x + 16 + k * step, y + h - 18, 12)
    outcome = rec.outcome
    if outcome:
        # At the end each card gets a band naming the player it votes for.
        for i, v in enumerate(voters):
            x = PAD + i * (w + PAD)
            who = outcome.awards[v.position].winner
            band = (x, y + h + 4, x + w, y + h + 34)
            draw.rounded_rectangle(band, radius=6, fill=PANEL if who is None else SEAT_COLOUR[who % 5])
            if who is None:
                write(draw, (x + w / 2, y + h + 19), "no vote", font=font(14), fill=LIGHT_MUTED, anchor="mm")
            else:
                write(
                    draw,
                    (x + 8, y + h + 19),
                    "vote:",
                    font=font(14, "bold"),
                    fill=SEAT_TEXT[who % 5],
                    anchor="lm",
                )
                seat_token(draw, who, x + w - 22, y + h + 19, 12)
        h += AWARD_H
    return y + h + PAD


def _voter_card(draw: Sheet, w: float, h: float, *, v: Voter, white: bool) -> None:
    """Draw a voter's card without its Marks: its number, and its name and criterion once known."""
    known = v.name is not None
    fill = PAPER if v.face_up else (VOTER_DOWN if not known else VOTER_SEEN)
    draw.rounded_rectangle((0, 0, w, h), radius=8, fill=fill, outline=INK, width=2)
    ink = INK if (v.face_up or known) else LIGHT
    write(draw, (8, 4), str(v.position + 1), font=font(22, "bold"), fill=ink)
    if v.name is not None:
        for k, line in enumerate(wrap(v.name, font(14, "bold"), w - 12, 2)):
            write(draw, (6, 32 + k * 17), line, font=font(14, "bold"), fill=INK)
        for k, line in enumerate(wrap(v.criterion_words, font(13), w - 12, 2)):
            write(draw, (6, 68 + k * 15), line, font=font(13), fill=MUTED)
    else:
        write(draw, (w / 2, 58), "?", font=font(44, "bold"), fill=LIGHT_MUTED, anchor="mm")
    if white:
        write(draw, (w - 8, 8), "white", font=font(12), fill=MUTED, anchor="ra")


def draw_influence(draw: Sheet, rec: Record, y: int) -> int:
    """Draw the Influence track: discs on their IP, a stack's first arrival at the bottom; badges at 7s."""
    offices = [o for o in rec.offices if not o.left]
    top = max([o.ip for o in offices] + [28])
    cells = top + 2
    top_y = y
    write(draw, (PAD, y), "Influence", font=font(22, "bold"), fill=LIGHT)
    badges = "   Merit Badges (free/all): " + "  ".join(
        f"{seat_tag(o.seat)} {o.merit_free}/{o.merit}" for o in offices
    )
    write(draw, (PAD + 120, y + 4), badges, font=font(18), fill=LIGHT_MUTED)
    y += 30
    w = (LAYOUT_W - 2 * PAD) / cells
    base = y + 128
    tile(draw, ("track", cells), (PAD, base, LAYOUT_W - PAD, base + 16), partial(_track, cells=cells))
    stacks: dict[int, list[Office]] = {}
    for o in offices:
        stacks.setdefault(o.ip, []).append(o)
    r = min(13, w / 2 - 1)
    for ip, pile in stacks.items():
        pile.sort(key=lambda o: o.ip_time)  # the first to arrive sits lowest
        cx = PAD + ip * w + w / 2
        # A tall stack draws smaller discs rather than leave the track's band.
        small = min(r, 124 / (2 * len(pile)) - 1)
        for k, o in enumerate(pile):
            seat_token(draw, o.seat, cx, base - small - 2 - k * (2 * small + 2), small)
    return top_y + INFLUENCE_H


def _track(draw: Sheet, width: float, height: float, *, cells: int) -> None:
    """Draw the Influence track's cells, numbered every 5, the Merit Badge thresholds in gold."""
    w = width / cells
    for i in range(cells):
        x = i * w
        threshold = i > 0 and i % MERIT_STEP == 0
        draw.rectangle((x, 0, x + w - 1, height), fill=MERIT if threshold else PANEL, outline=BG)
        if i % 5 == 0 or threshold:
            ink = INK if threshold else LIGHT_MUTED
            write(draw, (x + w / 2, 8), str(i), font=font(11, "bold"), fill=ink, anchor="mm")


def draw_tableaus(draw: Sheet, rec: Record, y: int) -> int:
    """Draw the spell, vault and supporter tableaus side by side."""
    cols = (
        (
            "Spells",
            [(content.book(b)["name"], content.book(b)["department"], "") for b in rec.tableau.spells],
        ),
        (
            "Vault",
            [
                (
                    content.vault(v)["name"],
                    None,
                    f"{content.vault(v)['cost']}G {content.vault(v)['type'][:4]}.",
                )
                for v in rec.tableau.vaults
            ],
        ),
        (
            "Supporters",
            [
                (content.supporter(s)["name"], content.supporter(s)["department"], "")
                for s in rec.tableau.supporters
            ],
        ),
    )
    room = LAYOUT_W - 4 * PAD
    widths = (int(room * 0.3), int(room * 0.3), room - 2 * int(room * 0.3))
    x = PAD
    face = font(17)
    for (title, items), w in zip(cols, widths, strict=True):
        tile(draw, ("tableau", title), (x, y, x + w, y + 140), partial(_panel, title=title))
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
            write(draw, (cx + 28, cy), clip(text, face, colw - 36), font=face, fill=LIGHT)
        x += w + PAD
    return y + TABLEAU_H


def _spell_words(office: Office) -> list[tuple[str, bool]]:
    out = []
    if office.starter:
        out.append((office.starter.name + " (starter)", office.starter.exhausted))
    for s in office.spells:
        out.append((f"{s.name} L{s.level}", s.exhausted))
    return out


def _panel(draw: Sheet, w: float, h: float, *, title: str) -> None:
    """Draw a tableau's empty panel and its title."""
    draw.rounded_rectangle((0, 0, w, h), radius=8, fill=PANEL)
    write(draw, (10, 6), title, font=font(20, "bold"), fill=LIGHT)


def _strip_frame(draw: Sheet, w: float, h: float, *, seat: int) -> None:
    """Draw what a seat's strip always shows: its frame and bar in the seat's colour, its token, "Spells:"."""
    colour = SEAT_COLOUR[seat % 5]
    draw.rounded_rectangle((0, 0, w, h), radius=10, fill=PANEL, outline=colour, width=4)
    draw.rectangle((4, 4, 12, h - 4), fill=colour)
    seat_token(draw, seat, 40, 28, 20)
    write(draw, (24, 92), "Spells:", font=font(16, "narrow_bold"), fill=LIGHT_MUTED)


def strip_title(title: str, dept: str, x: int, x1: int, waiting: int) -> tuple[str, str, float]:
    """Fit a strip's first line: the title, then the department, left of the waiting mages.

    Returns the (clipped) title and department and where the department starts. The title yields
    room to the department and to ``waiting`` mage tokens with their "office:" label, so the three
    never overlap however long a candidate's or a player's name is.
    """
    head, small = font(22, "bold"), font(15)
    right = x1 - 18 - 28 * waiting - 8 - font(14).getlength("office:") - 12 if waiting else x1 - 18
    room = right - x - (small.getlength(dept) + 12 if dept else 0)
    title = clip(title, head, int(max(120, min(300, room))))
    dept_x = x + 4 + head.getlength(title)
    return title, clip(dept, small, int(max(0, right - dept_x))) if dept else "", dept_x


def draw_strip(
    draw: Sheet,
    rec: Record,
    office: Office,
    box: tuple[int, int, int, int],
    player: str = "",
    kept: bool = False,
) -> None:
    """Draw one player's strip: who, resources, Marks, waiting mages, spells, vault cards, supporters.

    ``kept`` (the public board only): the stats, spells and cards rows are kept pieces (``pieces``)
    keyed by their texts and the strip's seat and box: the frame under them is the seat's, and in
    a draft most seats' rows are the same from move to move and from table to table.
    """
    x0, y0, x1, _ = box
    seat = office.seat
    tile(draw, ("strip", seat), box, partial(_strip_frame, seat=seat))
    name = office.candidate or "—"
    you = " (you)" if rec.seat == seat else ""
    left = " (left)" if office.left else ""
    home = [m for m in rec.mages if m.owner == seat and m.loc == "office"]
    # The board names the player ("P2 bob · Rheye Cal"); the office, its own seat, says "you".
    who = f"{player} · {name}" if player else name
    dept = DEPT_WORD.get(office.department or "", "")
    title, dept, dept_x = strip_title(f"{seat_tag(seat)} {who}{you}{left}", dept, x0 + 68, x1, len(home[:8]))
    write(draw, (x0 + 68, y0 + 8), title, font=font(22, "bold"), fill=LIGHT)
    write(draw, (dept_x, y0 + 14), dept, font=font(15), fill=LIGHT_MUTED)
    if home:
        waiting = tuple((m.owner, m.type, m.temp) for m in home[:8])
        paint = partial(_draw_waiting, draw, home[:8], x1, y0)
        if kept:
            # Right of ``strip_title``'s room, which the title and department never pass.
            left = x1 - 18 - 28 * len(waiting) + 2 - font(14).getlength("office:")
            piece(draw, ("strip office", seat, box, waiting), (left, y0 + 4, x1, y0 + STATS_TOP), paint)
        else:
            paint()
    rows = (
        ("stats", _stats(rec, office), _draw_stats, (x0 + 20, y0 + STATS_TOP, x1 - 4, y0 + SPELLS_TOP)),
        ("spells", _spell_texts(office), _draw_spells, (x0 + 80, y0 + SPELLS_TOP, x1 - 4, y0 + CARDS_TOP)),
        ("cards", _cards_line(office), _draw_cards, (x0 + 20, y0 + CARDS_TOP, x1 - 4, y0 + STRIP_H - 4)),
    )
    for part, data, paint, area in rows:
        drawn = partial(paint, draw, data, box)
        if kept:
            piece(draw, ("strip " + part, seat, box, data), area, drawn)
        else:
            drawn()


def _draw_waiting(draw: Sheet, home: list[Mage], x1: int, y0: int) -> None:
    """Draw the mages waiting in a seat's office, right-aligned on its strip, and their label."""
    mx = x1 - 18
    for m in reversed(home):
        mage_token(draw, m, mx, y0 + 22, 12)
        mx -= 28
    write(draw, (mx + 8, y0 + 16), "office:", font=font(14), fill=LIGHT_MUTED, anchor="ra")


STATS_TOP = 42
"""Where a strip's stats row starts, below its title row (whose waiting mages end at 39)."""
SPELLS_TOP = 90
CARDS_TOP = 114


def _stats(rec: Record, office: Office) -> tuple[tuple[str, str], ...]:
    """Return a strip's stats: each label with its value."""
    seat = office.seat
    on_int = len(office.spells)
    on_wis = sum(s.level - 1 for s in office.spells)
    marks = sum(1 for v in rec.voters for s in v.marks if s == seat)
    placed = sum(1 for m in rec.mages if m.owner == seat and m.placed)
    return (
        ("IP", str(office.ip)),
        ("Gold", str(office.gold)),
        ("Mana", str(office.mana)),
        ("INT+spells", f"{office.intelligence}+{on_int}"),
        ("WIS+spells", f"{office.wisdom}+{on_wis}"),
        ("Merit", f"{office.merit_free}/{office.merit}"),
        ("Marks", str(marks)),
        ("on board", str(placed)),
    )


def _draw_stats(draw: Sheet, stats: tuple[tuple[str, str], ...], box: tuple[int, int, int, int]) -> None:
    x0, y0 = box[0], box[1]
    x = x0 + 24
    big = font(24, "bold")
    label = font(13)
    for name_, value in stats:
        write(draw, (x, y0 + 44), name_, font=label, fill=LIGHT_MUTED)
        write(draw, (x, y0 + 58), value, font=big, fill=LIGHT)
        x += max(60, int(big.getlength(value)) + 22, int(label.getlength(name_)) + 12)


def _spell_texts(office: Office) -> tuple[tuple[str, bool], ...]:
    """Return a strip's spells as drawn: each text (exhausted ones marked) and whether exhausted."""
    return tuple((t + (" (ex)" if spent else ""), spent) for t, spent in _spell_words(office))


def _draw_spells(draw: Sheet, spells: tuple[tuple[str, bool], ...], box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, _ = box
    face = font(16, "narrow")
    yy = y0 + SPELLS_TOP + 2
    sx = x0 + 24
    sx += 60
    for text, spent in spells:
        wid = face.getlength(text)
        if sx + wid > x1 - 10:
            write(draw, (x1 - 12, yy), "…", font=face, fill=LIGHT, anchor="ra")
            break
        write(draw, (sx, yy), text, font=face, fill=LIGHT_MUTED if spent else LIGHT)
        sx += wid + 14


def _cards_line(office: Office) -> str:
    """Return a strip's last line: its vault cards, supporters, discard pile and Bell Tower cards."""
    vaults = [content.vault(v.id)["name"] + (" (ex)" if v.exhausted else "") for v in office.vault_cards]
    supporters = [content.supporter(s)["name"] for s in office.supporters]
    pile_text = "face down" if office.discard_count is None else str(office.discard_count)
    bell = ", ".join(content.bell(b)["name"] for b in office.bell)
    return (
        f"Vault: {', '.join(vaults) or '—'}   Supporters: {', '.join(supporters) or '—'}   "
        f"Discard: {pile_text}" + (f"   Bell: {bell}" if bell else "")
    )


def _draw_cards(draw: Sheet, line: str, box: tuple[int, int, int, int]) -> None:
    x0, y0, x1, _ = box
    face = font(16, "narrow")
    write(draw, (x0 + 24, y0 + CARDS_TOP + 2), clip(line, face, x1 - x0 - 36), font=face, fill=LIGHT)
