"""Words shared with the Discord cog (seat tags, reward and criterion texts, standings)."""

from __future__ import annotations

from typing import Any

from render.argent.look import DEPT_TAG, DEPT_WORD, RES_SHORT, SEAT_SHAPE, View
from rules.argent import content

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
