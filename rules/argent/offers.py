"""Whether a card's effect list can do anything now: a card that can do nothing is not offered.

Issue 13: Tardy was offered, and charged its Mana, with no mage left to place. A spell, vault card,
supporter or reaction is offered only when at least one of its effects can act. The check reads each
effect key's own preconditions (a target to choose, a mage to place, a cost that can be paid); keys
whose result never depends on the board (gains, statuses, extra actions in one's own turn) can always
act. A part that works on "that room" / "that mage" (``same_room``) acts only through the part before
it, which is checked itself. "Do X to do Y" (FAQ): a cost that cannot be paid ends the list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.argent import content, effects, hooks, protection, vocab
from rules.argent.casting import free_cast_options
from rules.argent.state import (
    INFIRMARY,
    NEUTRAL,
    State,
    office_mages,
    open_slots,
    order_from,
    rooms_in_play,
    shadow_loc,
    supply_mage,
)

Check = Callable[[State, int, Any, dict[str, Any]], bool]


def outside_turn(state: State, seat: int) -> bool:
    """Whether extra actions would come outside the seat's own turn (Tardy, Stop Time)."""
    turn = state["turn"]
    return not turn or turn["seat"] != seat or turn["round_over"]


def can_place(state: State, seat: int) -> bool:
    """Whether the seat has a mage at home and a room to place it in."""
    if vocab.active(state, "no_placing") or not office_mages(state, seat):
        return False
    return effects.can_place_somewhere(state, seat)


def _selector(key: str) -> Check:
    def check(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
        scope = arg.get("scope", "board")
        if scope in ("this", "trigger"):
            return True
        if scope == "same_room":
            return False  # acts through the part before it
        arg = dict(arg, scope="infirmary") if key == "heal" else arg
        # Whether any mage will do: the pool in the state's order, stopping at the first that does.
        pool = effects.iter_candidates(state, seat, key, arg, ctx)
        if key == "move":
            return any(has_destination(state, seat, m, arg) for m in pool)
        if key == "push_shadow":
            return any(shadow_loc(state, m["loc"]) for m in pool)
        return next(pool, None) is not None

    return check


def has_destination(state: State, seat: int, m: dict[str, Any], arg: dict[str, Any]) -> bool:
    """Whether a moved mage has a slot to go to."""
    rooms = effects.destination_rooms(state, m, arg)
    task = {"mage": m["id"], "seat": seat, "arg": arg, "via": None}
    return any(protection.room_open(state, r) and effects.dest_slots(state, task, r) for r in rooms)


def _pay(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    costs = {r: n for r, n in arg.items() if r != "swap"}
    if effects.can_pay(state, seat, costs):
        return True
    # A Gold cost a ready pay_gold reaction (Auric Catalyst) can waive.
    rest = {r: n for r, n in costs.items() if r != "gold"}
    return bool(costs.get("gold")) and effects.can_pay(state, seat, rest) and bool(
        effects.gold_reactions(state, seat, bool(arg.get("swap")))
    )


def _place(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    if arg.get("mage") == "temporary_neutral":
        return supply_mage(state, NEUTRAL) is not None and effects.can_place_somewhere(state, seat)
    if arg.get("scope") == "same_room":
        return False
    if vocab.active(state, "no_placing") or not office_mages(state, seat):
        return False
    if arg.get("slot") == "any":
        task = {"seat": seat, "via": ctx.get("via")}
        rooms = [r for r in rooms_in_play(state) if r != INFIRMARY and protection.may_enter(state, seat, r)]
        return any(effects.any_slot_targets(state, task, r) for r in rooms)
    return effects.can_place_somewhere(state, seat)


def _shadow(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    if not office_mages(state, seat):
        return False
    return bool(effects.shadow_targets(state, seat, arg["target"], ctx.get("via")))


def _extra_action(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    if outside_turn(state, seat):
        # Outside one's turn only placements are taken (Tardy, Stop Time).
        return arg.get("kinds") == ["place"] and can_place(state, seat)
    return True


def _steal(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    mine = state["seats"][seat][arg["resource"]]
    return any(
        state["seats"][s][arg["resource"]] > (mine if arg.get("from") == "player_with_more" else 0)
        for s in order_from(state, seat)[1:]
    )


def _discard(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    exclude = set(arg.get("exclude", []))
    return any(
        spell["level"] <= arg.get("max_level", 3)
        and not ("legendary" in exclude and content.book(spell["id"]).get("legendary"))
        for rival in order_from(state, seat)[1:]
        for spell in state["seats"][rival]["spells"]
    )


def _refresh(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    office = state["seats"][seat]
    source = ctx.get("card") or {}
    for spell in office["spells"]:
        if spell["exhausted"] and not (source.get("kind") == "spell" and source.get("id") == spell["id"]):
            return True
    if office["starter"] and office["starter"]["exhausted"] and source.get("kind") != "starter":
        return True
    return arg.get("what") == "spell_or_treasure" and any(
        v["exhausted"] and content.vault(v["id"])["type"] == "treasure" for v in office["vaults"]
    )


def _rearrange(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    if arg.get("room") == "same":
        return False
    return any(
        r != INFIRMARY
        and open_slots(state, r)
        and next(effects.iter_candidates(state, seat, "move", {}, {"via": ctx.get("via")}, room=r), None)
        for r in rooms_in_play(state)
    )


def _hook(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    if arg["name"] == "possession":
        return bool(hooks.possession_targets(state, seat, None, ctx.get("via")))
    if arg["name"] == "repeating_hex":
        return any(
            s["level"] == 1 and not content.book(s["id"]).get("legendary")
            for rival in order_from(state, seat)[1:]
            for s in state["seats"][rival]["spells"]
        )
    return True


def _cast(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    return bool(free_cast_options(state, seat, arg, (ctx.get("card") or {}).get("id")))


def _gain(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    if any(r in effects.RESOURCES for r in arg):
        return True
    if arg.get("research") and effects.research_options(state, seat, None):
        return True
    return bool(arg.get("mark")) and bool(effects.mark_options(state, seat))


def _research(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    dept = arg.get("department")
    return bool(effects.research_options(state, seat, None if dept == "named" else dept))


def _redirect(state: State, seat: int, arg: dict[str, Any], ctx: dict[str, Any]) -> bool:
    """An "instead" reaction acts only if the mage is still harmed and has somewhere to go (FAQ)."""
    trig = ctx.get("trigger") or {}
    if trig.get("mage") is None:
        return False
    m = state["mages"][trig["mage"]]
    if not effects.still_harmed(state, trig, m):
        return False
    before = trig.get("from")
    if arg.get("to") == "shadow":
        dest = shadow_loc(state, before) if before and effects.placed(before) else None
        return dest is not None and effects.occupant(state, dest) is None
    return any(open_slots(state, r) for r in rooms_in_play(state) if protection.room_open(state, r))


CHECKS: dict[str, Check] = {
    "redirect": _redirect,
    "retire": lambda s, seat, a, c: False,  # putting the card away is its cost, not a gain
    "gain": _gain,
    "repeat": lambda s, seat, a, c: can_act(s, seat, a["effects"], c),
    "choose": lambda s, seat, a, c: any(can_act(s, seat, branch, c) for branch in a),
    "choose_distinct": lambda s, seat, a, c: any(can_act(s, seat, branch, c) for branch in a["options"]),
    "research": _research,
    "research_legendary": lambda s, seat, a, c: s["seats"][seat]["int"] > 0 and bool(s["legendary"]),
    "wound": _selector("wound"),
    "banish": _selector("banish"),
    "move": _selector("move"),
    "heal": _selector("heal"),
    "push_shadow": _selector("push_shadow"),
    "place": _place,
    "shadow": _shadow,
    "extra_action": _extra_action,
    "steal": _steal,
    "discard": _discard,
    "refresh": _refresh,
    "rearrange": _rearrange,
    "hook": _hook,
    "cast": _cast,
    "gain_mage": lambda s, seat, a, c: effects.can_gain_mage(s, seat, a["department"]),
    "lock": lambda s, seat, a, c: a.get("room") != "same",
    "unlock": lambda s, seat, a, c: a.get("room") != "same",
}


def can_act(state: State, seat: int, effect_list: list[dict[str, Any]], ctx: dict[str, Any]) -> bool:
    """Whether at least one effect of the list can act now (its costs paid first)."""
    if not effect_list:
        return True  # a familiar: using it is what it is for (it still counts for voters)
    for effect in effect_list:
        key, arg = next(iter(effect.items()))
        if key == "pay":
            if not _pay(state, seat, arg, ctx):
                return False
            continue
        check = CHECKS.get(key)
        if check is None or check(state, seat, arg, ctx):
            return True
    return False
