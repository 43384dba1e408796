"""The few cards the effect vocabulary cannot express, implemented by name (VOCABULARY.md, section 4).

Three hooks: ``repeating_hex``, ``possession`` and ``white_ash`` (the last is applied at game
end by ``scoring``; using the card does nothing).
"""

from __future__ import annotations

from typing import Any

from rules.argent import content, protection
from rules.argent.agenda import Task, ask, option
from rules.argent.events import ArgentEvent
from rules.argent.state import State, mage_text, order_from, placed
from rules.contract import Event

HOOKS = ("repeating_hex", "possession", "white_ash")


def run(state: State, task: Task, name: str, events: list[Event]) -> None:
    """Start the hook named by a card."""
    if name == "repeating_hex":
        repeating_hex(state, task)
    elif name == "possession":
        possession(state, task["seat"], None, task["ctx"].get("via"))
    # white_ash: nothing happens when used; scoring asks for its department before the reveal.


def repeating_hex(state: State, task: Task) -> None:
    """Offer to trade this spell for an opponent's level-1 spell (not a starter or a legendary one)."""
    seat = task["seat"]
    mine = (task["ctx"].get("card") or {}).get("id")
    opts = []
    for rival in order_from(state, seat)[1:]:
        for spell in state["seats"][rival]["spells"]:
            book = content.book(spell["id"])
            if spell["level"] == 1 and not book.get("legendary") and spell["id"] != mine:
                opts.append(
                    option(
                        "target", f"Trade for P{rival + 1}'s {book['name']}", player=rival, spell=spell["id"]
                    )
                )
    ask(state, seat, "hook_hex", opts, "choose the spell to trade for", data={"mine": mine})


def answer_hex(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Swap the two spells; both are exhausted, the caster's WIS comes back (FAQ)."""
    seat, rival, theirs, mine = (
        task["seat"],
        opt["args"]["player"],
        opt["args"]["spell"],
        task["data"]["mine"],
    )
    me, them = state["seats"][seat], state["seats"][rival]
    my_spell = next((s for s in me["spells"] if s["id"] == mine), None)
    their_spell = next(s for s in them["spells"] if s["id"] == theirs)
    if my_spell is None:
        return
    me["wis"] += my_spell["level"] - 1
    me["spells"].remove(my_spell)
    them["spells"].remove(their_spell)
    me["spells"].append({"id": theirs, "level": 1, "exhausted": True})
    them["spells"].append({"id": mine, "level": 1, "exhausted": True})
    events.append(Event(ArgentEvent.NOTE, f"P{seat + 1} trades spells with P{rival + 1}."))


def possession_targets(state: State, seat: int, first: int | None, via: str | None) -> list[dict[str, Any]]:
    """Return the mages Possession may choose: permanent, placed, not protected from the swap.

    The one protection rule decides (a rival's Blue mage, Spell Shield, Wall, a locked room, a
    shadowing mage are out of reach), and the swap may not give a player a third mage of a colour (FAQ).
    """
    out = []
    for m in state["mages"]:
        if m["owner"] is None or m["temp"] or not placed(m["loc"]) or m["id"] == first:
            continue
        if not protection.may_target(state, seat, m, "swap", via):
            continue
        if first is not None and not protection.may_swap(state, state["mages"][first], m):
            continue
        out.append(m)
    if first is None:
        # A first mage is offered only when some second mage can complete the swap.
        out = [m for m in out if possession_targets(state, seat, m["id"], via)]
    return out


def possession(state: State, seat: int, first: int | None, via: str | None = "spell") -> None:
    """Ask for the two placed mages whose loyalty badges swap."""
    opts = [
        option("target", f"Choose {mage_text(state, m)}", mage=m["id"])
        for m in possession_targets(state, seat, first, via)
    ]
    ask(
        state,
        seat,
        "hook_possession",
        opts,
        "choose a mage whose loyalty badge changes",
        data={"first": first, "via": via},
    )


def answer_possession(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Swap the owners of the two chosen mages, for good."""
    first = task["data"]["first"]
    via = task["data"].get("via", "spell")
    chosen = opt["args"]["mage"]
    if first is None:
        possession(state, task["seat"], chosen, via)
        return
    a, b = state["mages"][first], state["mages"][chosen]
    a["owner"], b["owner"] = b["owner"], a["owner"]
    events.append(Event(ArgentEvent.NOTE, "Two mages swap their loyalty badges."))


ANSWERS = {"hook_hex": answer_hex, "hook_possession": answer_possession}
