"""Turn-level keys: redirected harm, statuses, turn order, extra actions, conditionals, casting, hooks."""

from __future__ import annotations

from typing import Any

from rules.argent import hooks
from rules.argent.agenda import Task, push, push_effects, set_ctx
from rules.argent.effects.base import RES_NAMES, new_group, push_times, say, who
from rules.argent.state import (
    INFIRMARY,
    State,
    in_infirmary,
    loc_text,
    locked,
    open_slots,
    placed,
    rooms_in_play,
    shadow_loc,
)
from rules.contract import Event


def still_harmed(state: State, trig: dict[str, Any], m: dict[str, Any]) -> bool:
    """Whether a mage is still where the harm left it (nothing has moved it since)."""
    if trig.get("on") == "wounded":
        return in_infirmary(m["loc"])
    return m["loc"] == trig.get("to", m["loc"]) and m["owner"] == trig.get("owner")


def do_redirect(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    """Replace what happened to the reacting player's mage: into its slot's shadow, or any open slot.

    The reaction comes after the action has resolved (rulebook, Reactions), so the harm is undone
    rather than prevented: the mage comes back from wherever the harm put it, and the Infirmary's
    sympathy bonus, paid only after the reactions, finds it gone (FAQ). With the shadow taken, the
    mage suffers the harm after all (FAQ).
    """
    trig = task["ctx"].get("trigger") or {}
    mid = trig.get("mage")
    if mid is None:
        return
    m = state["mages"][mid]
    if not still_harmed(state, trig, m):
        return
    before = trig.get("from")
    if arg.get("to") == "shadow":
        dest = shadow_loc(state, before) if before and placed(before) else None
        if dest and not any(x["loc"] == dest for x in state["mages"]):
            m["loc"] = dest
            say(events, f"P{m['owner'] + 1}'s mage slips into the shadow of {loc_text(state, before)}.")
        return
    if not any(open_slots(state, r) for r in rooms_in_play(state) if r != INFIRMARY and not locked(state, r)):
        return  # nowhere to go: the mage suffers the harm after all (FAQ, by analogy with the shadow)
    push(
        state,
        {
            "op": "destination",
            "seat": task["seat"],
            "mage": mid,
            "arg": {"to": "any_open"},
            "fid": None,
            "via": None,
            "room": None,
        },
    )


# --------------------------------------------------------------------------- turn-level keys


def do_status(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    state["statuses"].append(
        {
            "name": arg["name"],
            "seat": task["seat"],
            "duration": arg["duration"],
            "amount": arg.get("amount", 0),
        }
    )
    say(events, status_text(who(state, task["seat"]), arg))


STATUS_WORDS = {
    "spell_discount": "'s spells cost {amount} Mana less",
    "free_spell": "'s next spell costs no Mana",
    "spell_no_exhaust": "'s next spell does not exhaust",
    "no_casting": ": nobody may cast spells",
    "no_placing": ": nobody may place mages",
    "no_mage_powers": ": every mage loses its powers",
    "own_no_mage_powers": "'s mages lose their powers",
    "own_ignore_spells": "'s mages ignore all spells",
    "own_ignore_harm": "'s mages ignore harm from spells, vault cards and mages",
    "own_unwoundable": "'s mages cannot be wounded",
    "own_unwoundable_unmovable": "'s mages cannot be wounded or moved",
    "own_wounded_may_move": "'s wounded mages may move on and still get the sympathy bonus",
    "energy_drain": " drains 1 Mana from each rival's spell",
    "shadow_on_place": " may shadow a rival's mage when placing",
    "shadow_only_place": " may place only as a shadow or on an empty slot",
}
"""How an event says a status started, after the seat's name (see VOCABULARY.md, statuses)."""
DURATION_WORDS = {
    "this_turn": "this turn",
    "until_your_next_turn": "until their next turn",
    "this_round": "this round",
    "next_spell": "for their next spell",
}


def status_text(seat_name: str, arg: dict[str, Any]) -> str:
    """Return the event sentence of a status starting, e.g. "P2's spells cost 1 Mana less this turn."."""
    words = STATUS_WORDS.get(arg["name"], ": " + arg["name"].replace("_", " "))
    duration = DURATION_WORDS.get(arg["duration"], arg["duration"].replace("_", " "))
    if arg["duration"] == "next_spell" and "next spell" in words:
        duration = "this turn"
    return f"{seat_name}{words.format(amount=arg.get('amount', 0))} {duration}."


def do_become_first(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    state["next_first"] = task["seat"]
    say(events, f"{who(state, task['seat'])} will go first next round.")


def do_extra_action(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    turn = state["turn"]
    kinds = arg.get("kinds", ["any"])
    if not turn or turn["seat"] != task["seat"] or turn["round_over"]:
        # Outside one's own turn (Tardy, Stop Time after the last Bell Tower offering) only placements
        # can be taken, and they are taken at once.
        if kinds == ["place"]:
            push_times(
                state,
                arg,
                {
                    "op": "place",
                    "seat": task["seat"],
                    "left": 1,
                    "only": None,
                    "room": None,
                    "fixed_room": False,
                    "optional": True,
                    "fid": None,
                },
            )
        return
    group = new_group(state) if arg.get("distinct") else None
    for _ in range(arg.get("count", 1)):
        turn["allow"].append(
            {
                "kinds": kinds,
                "no_powers": bool(arg.get("no_powers")),
                "group": group,
                "optional": bool(arg.get("up_to")),
            }
        )
    count = arg.get("count", 1)
    say(events, f"{who(state, task['seat'])} gains {count} extra action{'' if count == 1 else 's'}.")


def do_if(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    ok = arg["cond"] == "healed_opponent_mage" and task["ctx"].get("healed_opponent")
    branch = arg["then"] if ok else arg.get("else", [])
    if branch:
        push_effects(state, task["seat"], branch, task["ctx"])


def do_cast(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    push(state, {"op": "free_cast", "seat": task["seat"], "arg": arg, "source": task["ctx"].get("card")})


def do_hook(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    hooks.run(state, task, arg["name"], events)


def do_waive_cost(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    """The cost the reaction answers (its frame waits behind this one) loses its part in that resource."""
    set_ctx(state, task["ctx"].get("cost_frame"), **{f"waive_{arg['resource']}": True})
    say(events, f"{who(state, task['seat'])}: that {RES_NAMES[arg['resource']]} cost becomes 0.")
