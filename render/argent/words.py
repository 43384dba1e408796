"""Words shared with the Discord cog (seat marks, reward texts).

The standings and the criteria's words are worked out in the rules (``rules.argent.standings``),
once for the typed view, the office sheet and the panel.
"""

from __future__ import annotations

from typing import Any

from render.argent.look import DEPT_TAG, RES_SHORT, SEAT_SHAPE
from rules.argent.standings import seat_tag as seat_tag  # the cogs read both seat words here

# --------------------------------------------------------------------------- words shared with the cog


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
