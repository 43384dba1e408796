"""A readable text board drawn from an Institute view (used until the board image exists)."""

from __future__ import annotations

from typing import Any

ACTION_SHORT = {"take": "Take", "cast1": "Cast1", "cast2": "Cast2", None: "-"}


def _card_line(c: dict[str, Any]) -> str:
    vp = "?" if c["character"] else str(c["vp"])
    number = f" #{c['number']}" if c.get("number") else ""
    power = "Character" if c["character"] else f"{c['power']} P{c['phase']}{number}: {c['short']}"
    return f"{c['name']} [{c['cost']}/{c['surpass']}, {vp} VP] {power}"


def board_text(view: dict[str, Any]) -> str:
    """Return the board, the players and the prompts as plain text."""
    lines = [
        f"The Institute for Magical Arts - round {view['round']}, Phase {view['phase']}: {view['phase_name']}"
    ]
    lines.append(f"Goal {view['goal']} VP. Deck {view['deck']} cards.")
    for loc in view["locations"]:
        red, blue = loc["stones"]
        stones = f"  (red {red}, blue {blue})" if red or blue else ""
        if loc["kind"] == "card":
            lines.append(f"  {loc['number']}. {_card_line(loc['card'])}{stones}")
        elif loc["kind"] == "portal":
            lines.append(f"  {loc['number']}. PORTAL{stones}")
        else:
            lines.append(f"  {loc['number']}. (empty)")
    red, blue = view["realm"]["stones"]
    lines.append(f"  Ethereal Realm: red {red}, blue {blue}")
    for p in view["players"]:
        lines.append(
            f"{p['colour'].capitalize()}: {p['score']} VP, {p['charms']} charms, "
            f"{p['rerolls']} reroll cubes, "
            f"{p['stones']} stones, {p['characters']} characters"
        )
        dice = ", ".join(str(d) for d in p["dice"])
        if p["assignment_visible"] and p["assignment"] is not None:
            plan = " ".join(f"{d}:{ACTION_SHORT[a]}" for d, a in zip(p["dice"], p["assignment"], strict=True))
            lines.append(f"  dice {dice}; cards {plan}" + (" (confirmed)" if p["confirmed"] else ""))
        else:
            lines.append(f"  dice {dice}; cards hidden" + (" (confirmed)" if p["confirmed"] else ""))
        for c in p["active"]:
            lines.append(f"  active: {_card_line(c)}")
        if p["inactive"]:
            lines.append("  inactive: " + ", ".join(c["name"] for c in p["inactive"]))
    if view["over"] and view["result"]:
        lines.append(f"Game over. {view['result']['reason']}")
    for prompt in view["prompts"]:
        lines.append(f"Waiting: {prompt['text']}")
    return "\n".join(lines)
