"""Shadows and locks: shadowing a slot, rearranging a room, locking and unlocking rooms."""

from __future__ import annotations

from typing import Any

from rules.argent import protection
from rules.argent.agenda import Task, ask, option, push
from rules.argent.copying import own
from rules.argent.effects.base import push_times, say
from rules.argent.effects.targets import candidates, harm
from rules.argent.state import (
    DEPT_NAMES,
    INFIRMARY,
    State,
    is_shadow,
    loc_text,
    locked,
    mage_text,
    office_mages,
    open_slots,
    room_name,
    room_side,
    rooms_in_play,
    shadow_loc,
    slots,
    spec,
)
from rules.contract import Event


def do_shadow(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    push_times(
        state,
        arg,
        {
            "op": "shadow",
            "seat": task["seat"],
            "target": arg["target"],
            "via": task["ctx"].get("via"),
            "only": task["ctx"].get("placing"),
        },
    )


def shadow_targets(state: State, seat: int, target: str, via: str | None) -> list[str]:
    """Return the shadow slots a seat may take: beside an opponent's mage, its own, or an empty slot."""
    out = []
    taken = {m["loc"]: m for m in state["mages"]}
    for room in rooms_in_play(state):
        if room == INFIRMARY or not protection.may_enter(state, seat, room):
            continue
        for s in slots(state, room):
            if is_shadow(s):
                continue
            loc = f"{room}/{s['id']}"
            sloc = shadow_loc(state, loc)
            if not sloc or sloc in taken:
                continue
            occ = taken.get(loc)
            if target == "opponent_mage":
                ok = (
                    occ is not None
                    and occ["owner"] != seat
                    and protection.may_target(state, seat, occ, "shadow", via)
                )
            elif target == "own_mage":
                ok = occ is not None and occ["owner"] == seat
            elif target == "empty_slot":
                ok = occ is None
            else:
                ok = True
            if ok:
                out.append(sloc)
    return out


def run_shadow(state: State, task: Task, events: list[Event]) -> None:
    """Ask which shadow slot one of the seat's office mages takes, and with which mage."""
    seat = task["seat"]
    mages = office_mages(state, seat)
    if task.get("only") is not None:
        mages = [m for m in mages if m["id"] == task["only"]]
    types = list(dict.fromkeys(m["type"] for m in mages))
    locs = shadow_targets(state, seat, task["target"], task.get("via"))
    if task.get("room"):
        locs = [loc for loc in locs if loc.split("/")[0] == task["room"]]
    if not types or not locs:
        return
    if not task.get("room") and len(locs) > 24:
        # Too many slots for one list: the room first, then the slot.
        rooms = list(dict.fromkeys(loc.split("/")[0] for loc in locs))
        opts = [option("room", f"Shadow in {room_name(r)}", room=r) for r in rooms]
        opts.append(option("pass", "Shadow nothing"))
        ask(state, seat, "shadow_room", opts, "choose the room to shadow in", data=task)
        return
    if len(types) > 1 and len(locs) * len(types) > 24:
        opts = [option("choose", f"Use your {DEPT_NAMES[t]} mage", type=t) for t in types]
        ask(state, seat, "shadow_type", opts, "choose the mage that will shadow", data=task)
        return
    opts = [
        option(
            "shadow",
            f"Shadow with your {DEPT_NAMES[t]} mage: {loc_text(state, loc)}",
            type=t,
            slot=loc.split("/", 1)[1],
            room=loc.split("/")[0],
        )
        for t in types
        for loc in locs
    ]
    opts.append(option("pass", "Shadow nothing"))
    ask(state, seat, "shadow", opts, "choose a slot to shadow", data=task)


def answer_shadow_room(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] == "room":
        push(state, dict(task["data"], room=opt["args"]["room"]))


def answer_shadow_type(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    m = next(x for x in office_mages(state, task["seat"]) if x["type"] == opt["args"]["type"])
    push(state, dict(task["data"], only=m["id"]))


def answer_shadow(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] != "shadow":
        return
    pool = office_mages(state, task["seat"])
    if task["data"].get("only") is not None:
        pool = [m for m in pool if m["id"] == task["data"]["only"]]
    m = next(x for x in pool if x["type"] == opt["args"]["type"])
    loc = f"{opt['args']['room']}/{opt['args']['slot']}"
    m["loc"] = loc
    host = next(
        (
            x
            for x in state["mages"]
            if x["loc"] == f"{opt['args']['room']}/"
            f"{spec(state, opt['args']['room'], opt['args']['slot'])['of']}"
        ),
        None,
    )
    if host is not None and host["owner"] != task["seat"]:
        harm(state, "shadowed", host, task["seat"], task["data"].get("via"), host["loc"])
    say(events, f"P{task['seat'] + 1} shadows {loc_text(state, loc)[14:]}.")
    # A mage placed as a shadow in an instant room earns the errand (a placement, not a move).
    if room_side(state, opt["args"]["room"]).get("instant"):
        state["instants"].append(m["id"])


def do_rearrange(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    room = task["ctx"].get("room") if arg.get("room") == "same" else None
    if arg.get("room") == "same" and room is None:
        # Hurricane: "the others in that room": with no first target there is no room (not Tornado).
        return
    push(
        state,
        {"op": "rearrange", "seat": task["seat"], "room": room, "done": [], "via": task["ctx"].get("via")},
    )


def run_rearrange(state: State, task: Task, events: list[Event]) -> None:
    """Rearrange a room one mage at a time: pick a mage and a slot for it (or stop)."""
    seat = task["seat"]
    if task["room"] is None:
        rooms = [r for r in rooms_in_play(state) if r != INFIRMARY and not locked(state, r)]
        opts = [option("room", f"Rearrange {room_name(r)}", room=r) for r in rooms]
        ask(state, seat, "rearrange_room", opts, "choose a room to rearrange", data=task)
        return
    room = task["room"]
    movers = [
        m
        for m in candidates(state, seat, "move", {}, {"via": task.get("via")}, room=room)
        if m["id"] not in task["done"]
    ]
    opts = []
    for m in movers:
        for loc in open_slots(state, room):
            opts.append(
                option(
                    "slot",
                    f"Move {mage_text(state, m)} to {loc_text(state, loc)}",
                    mage=m["id"],
                    slot=loc.split("/", 1)[1],
                )
            )
    if opts:
        opts.append(option("pass", "Leave the room as it is"))
    ask(
        state,
        seat,
        "rearrange",
        opts[:24] + opts[-1:] if len(opts) > 25 else opts,
        "rearrange the room",
        data=task,
    )


def answer_rearrange_room(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    push(state, dict(task["data"], room=opt["args"]["room"]))


def answer_rearrange(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] != "slot":
        return
    data = task["data"]
    m = state["mages"][opt["args"]["mage"]]
    before = m["loc"]
    m["loc"] = f"{data['room']}/{opt['args']['slot']}"
    if m["owner"] != task["seat"]:
        harm(state, "moved", m, task["seat"], data.get("via"), before)
    push(state, dict(data, done=[*data["done"], m["id"]]))


def do_lock(state: State, task: Task, arg: dict[str, Any], events: list[Event], value: bool = True) -> None:
    if arg.get("room") == "same":
        # Flamespout, Meteor, Consecration, Cataclysm lock "that room": none when the first part found
        # no room (never "lock any room").
        if task["ctx"].get("room"):
            set_lock(state, task["ctx"]["room"], value, events)
        return
    rooms = [r for r in rooms_in_play(state) if r != INFIRMARY and locked(state, r) != value]
    opts = [option("room", f"{'Lock' if value else 'Unlock'} {room_name(r)}", room=r) for r in rooms]
    ask(
        state,
        task["seat"],
        "lock",
        opts,
        f"choose a room to {'lock' if value else 'unlock'}",
        data={"value": value},
    )


def set_lock(state: State, room: str, value: bool, events: list[Event]) -> None:
    """Lock or unlock a room (the Infirmary never locks)."""
    if room == INFIRMARY:
        # Room Clarifications: it "can never be locked"; Cataclysm may still banish there.
        if value:
            say(events, "The Infirmary can never be locked.")
        return
    if room not in state["board"]["rooms"]:
        return
    own(state, "board")["rooms"][room]["locked"] = value
    say(events, f"{room_name(room)} is {'locked' if value else 'unlocked'}.")


def answer_lock(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    set_lock(state, opt["args"]["room"], task["data"]["value"], events)
