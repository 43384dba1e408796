"""Casting a spell: what it costs a seat now, whether the seat can pay, paying it, and the spells a
``cast`` effect may cast.

Below the turn, the reactions and the offers (``offers`` asks whether a ``cast`` effect would do
anything; the turn and the reactions cast): all three import it, and it imports none of them.
"""

from __future__ import annotations

from typing import Any

from rules.argent import content, vocab
from rules.argent.agenda import option
from rules.argent.effects import say
from rules.argent.state import State, gain, is_shadow, order_from, placed, slot_of
from rules.contract import Event


def spell_cost(state: State, seat: int, level: dict[str, Any]) -> int:
    """Return what a spell level costs this seat now, after every discount (FAQ on the Mysticism B floor)."""
    cost = level["cost"]
    if cost == "X":
        cost = len(order_from(state, seat)) - 1
    if vocab.covers(state, seat, "free_spell"):
        return 0
    mystics = sum(
        1
        for m in state["mages"]
        if m["owner"] == seat
        and placed(m["loc"])
        and not is_shadow(slot_of(state, m["loc"]))
        and vocab.has_power(state, m, "spell_discount_min_1")
    )
    if mystics and cost > 1:
        cost = max(1, cost - mystics)
    cost -= vocab.amount(state, seat, "spell_discount")
    return max(0, cost)

def drain_extra(state: State, seat: int) -> int:
    """Return the extra mana an opponent's Energy Drain takes from this seat's next spell."""
    return sum(1 for s in vocab.statuses_named(state, "energy_drain") if s["seat"] != seat)

def can_cast(state: State, seat: int, level: dict[str, Any], pay: bool = True) -> bool:
    """Whether a seat has the mana for a spell: its cost (unless free) and every Energy Drain toll."""
    cost = spell_cost(state, seat, level) if pay else 0
    return cost + drain_extra(state, seat) <= state["seats"][seat]["mana"]

def pay_for_spell(state: State, seat: int, cost: int, events: list[Event]) -> None:
    """Pay a spell's cost plus 1 Mana to each opponent whose Energy Drain runs this round."""
    # Energy Drain: "each rival pays you 1 extra Mana for every spell they cast", whether the spell is
    # cast as an action, by another effect, free of its cost, or as a reaction.
    drainers = [s["seat"] for s in vocab.statuses_named(state, "energy_drain") if s["seat"] != seat]
    gain(state, seat, "mana", -(cost + len(drainers)))
    for drainer in drainers:
        gain(state, drainer, "mana", 1)
        say(events, f"P{seat + 1} pays P{drainer + 1} 1 Mana (Energy Drain).")

def free_cast_options(
    state: State, seat: int, arg: dict[str, Any], source: str | None
) -> list[dict[str, Any]]:
    """Return the spells a ``cast`` effect may cast now (never the card that grants it, FAQ)."""
    office = state["seats"][seat]
    pay = arg.get("pay", True)
    level = arg.get("level", "any")
    opts = []
    if arg.get("from") == "tableau":
        for book_id in state["tableau"]["spell"]:
            rec = content.book(book_id)["levels"][0]
            # Tap the Well names no timing: fast level-1 spells count too; a reaction needs its trigger.
            if rec["timing"] != "react" and can_cast(state, seat, rec, pay):
                opts.append(option("cast", f"Cast {rec['name']} from the tableau", spell=book_id, level=1))
    else:
        for spell in office["spells"]:
            if spell["id"] == source:
                continue
            for lvl in content.book(spell["id"])["levels"]:
                n = lvl["level"]
                ok = (
                    {
                        "any": True,
                        "unresearched": n > spell["level"],
                        "below_highest": n < spell["level"],
                    }.get(level, n <= spell["level"])
                    if isinstance(level, str)
                    else n == level
                )
                if not ok or (arg.get("only_act") and lvl["timing"] != "act") or lvl["timing"] == "react":
                    continue
                if level not in ("any", "unresearched", "below_highest") and spell["exhausted"]:
                    continue
                if not can_cast(state, seat, lvl, pay):
                    continue
                opts.append(option("cast", f"Cast {lvl['name']}", spell=spell["id"], level=n))
    return opts
