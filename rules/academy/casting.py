"""Casting: which glyph pairs a wizard can spend, boosting, revealing and hiding the spell.

Under ``memory=strict`` a cast's reveal lives only in ``state["reveal"]`` for the rest of the turn:
no event, log line or later view names an unbound spell. Under ``memory=open`` the public event
names it, so the log keeps it.
"""

from __future__ import annotations

from typing import Any

from rules.academy.cards import characters, rooms, spells
from rules.academy.events import AcademyEvent
from rules.academy.flow import Op, handler
from rules.academy.scoring import check_objective
from rules.academy.state import State, room_name, say, slot_of, spell_name, who


def boosted(s: State, key: str, seat: int) -> bool:
    """Whether the spell's school matches the caster's school or the icon of the caster's room."""
    school = spells()[key]["school"]
    if school is None:
        return False
    w = s["wizards"][seat]
    return school in (characters()[w["char"]]["school"], rooms()[w["room"]]["boost"])


def spell_ops(s: State, key: str, seat: int) -> list[Op]:
    """Return the ops of a spell as cast by a seat: the upper box, and the boost box when boosted."""
    spell = spells()[key]
    ops = [dict(op, by=seat, spell=key) for op in spell["effects"]]
    if boosted(s, key, seat):
        extra = [dict(op, by=seat, spell=key) for op in spell["boost"]]
        marks = [i for i, op in enumerate(ops) if op["op"] == "boost_here"]
        at = marks[0] if marks else len(ops)
        ops[at:at] = extra
    return ops


def pairs(w: dict[str, Any], with_wand: bool) -> list[tuple[int, int, int | None]]:
    """Return (a, b, wand) pairs castable from a wizard's own glyphs; ``wand`` is spent as the wand type."""
    have = w["glyphs"]
    out = set()
    for i, a in enumerate(have):
        for b in have[i + 1 :]:
            out.add((min(a, b), max(a, b), None))
    wand = w.get("wand") if with_wand else None
    if wand is not None:
        for i, x in enumerate(have):
            if x == wand:
                continue
            rest = have[:i] + have[i + 1 :]
            for b in set(rest):
                out.add((min(wand, b), max(wand, b), x))
    return sorted(out, key=lambda t: (t[0], t[1], -1 if t[2] is None else t[2]))


def begin(s: State, seat: int, a: int, b: int, helper: int | None, wand: int | None) -> None:
    """Spend the glyphs, reveal the spell and queue its effects (the action is already paid)."""
    w = s["wizards"][seat]
    spend = [a, b]
    if helper is not None:
        spend = [a]
        h = s["wizards"][helper]
        if s["basic"]:
            h["glyphs"].remove(b)
        else:
            h["shared"] = None
    if wand is not None:
        spend.remove(w["wand"])
        spend.append(wand)
    for g in spend:
        if g in w["glyphs"]:
            w["glyphs"].remove(g)
        else:  # the caster's own shared glyph (advanced: at most one shared glyph per spell)
            w["shared"] = None
    cast_slot(s, seat, slot_of(a, b), helper)


def cast_slot(s: State, seat: int, slot: str, helper: int | None = None) -> None:
    """Reveal the spell on a slot, queue its effects, then hide it again if it was unbound."""
    entry = s["slots"][slot]
    key = entry["spell"]
    was_bound = entry["bound"]
    s["reveal"] = {"slot": slot, "spell": key, "seat": seat, "turn": s["turn"], "how": "cast"}
    boost = " (boosted)" if boosted(s, key, seat) else ""
    by = f" with a glyph from {who(s, helper)}" if helper is not None else ""
    where = s["wizards"][seat]["room"]
    if was_bound or s["memory"] == "open":
        say(
            s,
            AcademyEvent.CAST,
            f"{who(s, seat)} casts {spell_name(key)}{boost} ({slot}){by} in the {room_name(where)}.",
            seat=seat,
            slot=slot,
            spell=key,
            how="cast",
        )
    else:
        say(
            s,
            AcademyEvent.CAST,
            f"{who(s, seat)} casts the spell at {slot}{boost}{by}: it is shown on the board this turn only.",
            seat=seat,
            slot=slot,
            how="cast",
        )
    s["queue"][0:0] = [
        *spell_ops(s, key, seat),
        {"op": "hide", "slot": slot, "bound": was_bound, "by": seat, "spell": key},
    ]


@handler("hide")
def _hide(s: State, op: Op) -> None:
    """After the spell resolves: an unbound spell goes face-down again; the scenario's goal is checked."""
    if not op["bound"]:
        s["slots"][op["slot"]]["bound"] = False
    check_objective(s, op["spell"], op["by"])
