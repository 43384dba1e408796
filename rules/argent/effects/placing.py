"""Placing mages and gaining or swapping them."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from rules.argent import content, protection, vocab
from rules.argent.agenda import Task, ask, option, push, set_ctx
from rules.argent.effects.base import has_status, say, stop_frame, who
from rules.argent.effects.targets import candidates, harm, put, shadow_only, shadowed_host, wound
from rules.argent.state import (
    APPRENTICE,
    DEPARTMENTS,
    DEPT_NAMES,
    INFIRMARY,
    MAGE_LIMIT,
    NEUTRAL,
    State,
    can_hold,
    is_merit,
    is_shadow,
    loc_text,
    mage_text,
    merit_free,
    occupant,
    office_mages,
    open_slots,
    permanent_count,
    room_name,
    rooms_in_play,
    shadow_loc,
    slot_of,
    slots,
    supply_mage,
)
from rules.contract import Event


def place_option(label: str, mage_type: str, loc: str, **args: Any) -> dict[str, Any]:
    """Return a "place" option putting a mage of a type on a slot (``loc`` names room and slot)."""
    return option("place", label, type=mage_type, slot=loc.split("/", 1)[1], **args)


def status_shadows(state: State, seat: int, room: str) -> list[str]:
    """Return the shadow slots a seat's placements may take in a room because of Zero Hour or Inversion.

    Zero Hour: the shadow beside a rival's mage. Inversion: the shadow beside a rival's mage or beside an
    empty slot. Both last the round and hold for every placement, whatever places the mage.
    """
    inversion = shadow_only(state, seat)
    if not inversion and not has_status(state, seat, "shadow_on_place"):
        return []
    out = []
    for s in slots(state, room):
        if s["kind"] not in ("merit", "regular"):
            continue
        loc = f"{room}/{s['id']}"
        sloc = shadow_loc(state, loc)
        if not sloc or occupant(state, sloc) is not None:
            continue
        host = occupant(state, loc)
        # Shadowing a rival's mage through a spell's status: Blue mages and shields are out of reach.
        rival = host is not None and host["owner"] != seat
        if (rival and protection.may_target(state, seat, host, "shadow", "spell")) or (
            host is None and inversion
        ):
            out.append(sloc)
    return out


def placeable_rooms(state: State, seat: int) -> list[str]:
    """Return the rooms a seat may place a mage in now (open slot, unlocked, not the Infirmary)."""
    return list(iter_placeable_rooms(state, seat))


def can_place_somewhere(state: State, seat: int) -> bool:
    """Whether some room takes a mage of the seat now, found without listing them all."""
    return next(iter_placeable_rooms(state, seat), None) is not None


def iter_placeable_rooms(state: State, seat: int, only: Any = None) -> Iterator[str]:
    """Yield the rooms a seat may place a mage in now, in resolution order (``only``: that room, if so)."""
    taken = {m["loc"] for m in state["mages"]}
    inversion = shadow_only(state, seat)
    # Zero Hour and Inversion open shadow slots; without either, status_shadows finds none.
    shadowing = inversion or has_status(state, seat, "shadow_on_place")
    sides = state["board"]["rooms"]
    rooms = rooms_in_play(state)
    if only is not None:
        rooms = [only] if only in rooms else []
    for room in rooms:
        if room == INFIRMARY:
            continue
        area, locs = _placement_slots(room, sides[room]["side"])
        if locs is None or not protection.may_enter(state, seat, room):
            continue
        if shadowing and status_shadows(state, seat, room):
            yield room
            continue
        if inversion:
            continue
        if area or any(loc not in taken for loc in locs):
            yield room


@cache  # read from the card data alone: a room side's printed slots never change
def _placement_slots(room: str, side: str) -> tuple[bool, tuple[str, ...] | None]:
    """Return whether a room side has an area any number of mages share, and its single-mage
    errand slots as locations (None: no mage is placed there directly, as in the Infirmary)."""
    record = content.room_side(room, side)
    if vocab.side_has(record, "no_direct_placement"):
        return False, None
    kinds = [s["kind"] for s in record["slots"]]
    locs = tuple(f"{room}/{s['id']}" for s in record["slots"] if s["kind"] in ("merit", "regular"))
    return "area" in kinds, locs


def do_place(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    seat = task["seat"]
    count = arg.get("count", 1)
    if arg.get("mage") == "temporary_neutral":
        m = supply_mage(state, NEUTRAL)
        if m is None:
            say(events, "No neutral mage is left in the supply.")
            return
        m["owner"], m["temp"], m["loc"] = seat, True, "office"
        push(
            state,
            {
                "op": "place",
                "seat": seat,
                "left": 1,
                "only": m["id"],
                "room": None,
                "fixed_room": False,
                "optional": False,
            },
        )
        return
    room = task["ctx"].get("room") if arg.get("scope") == "same_room" else None
    push(
        state,
        {
            "op": "place",
            "seat": seat,
            "left": 7 if count == "all" else count,
            "only": None,
            "room": room,
            "fixed_room": arg.get("scope") == "room",
            "optional": bool(arg.get("up_to")),
            "any_slot": arg.get("slot") == "any",
            "fid": task["fid"],
            "via": task["ctx"].get("via"),
        },
    )


def run_place(state: State, task: Task, events: list[Event]) -> None:
    """Ask for the room, then the mage and slot, of a placement without powers."""
    seat = task["seat"]
    if task["left"] <= 0 or has_status(state, None, "no_placing"):
        return
    mages = office_mages(state, seat)
    if task["only"] is not None:
        mages = [m for m in mages if m["id"] == task["only"]]
    if task.get("types"):
        mages = [m for m in mages if m["type"] in task["types"]]
    if not mages:
        return
    if task["room"] is not None and not protection.may_enter(state, seat, task["room"]):
        # Slow Time, Consecration: the chosen room takes no more of this seat's mages (a lock, or
        # Council Chamber A's one mage per player).
        return
    if task["room"] is None:
        rooms = placeable_rooms(state, seat)
        if task.get("any_slot"):
            rooms = [
                r
                for r in rooms_in_play(state)
                if r != INFIRMARY
                and protection.may_enter(state, seat, r)
                and any_slot_targets(state, task, r)
            ]
        opts = [option("room", f"Place in {room_name(r)}", room=r) for r in rooms]
        if task["optional"] or task["only"] is None:
            opts.append(option("pass", "Place nothing"))
        ask(state, seat, "place_room", opts, "choose a room to place a mage in" + _why(task), data=task)
        return
    room = task["room"]
    opts = []
    shadows = status_shadows(state, seat, room)
    for t in dict.fromkeys(m["type"] for m in mages):
        for loc in shadows:
            opts.append(
                place_option(
                    f"Place your {DEPT_NAMES[t]} mage in {loc_text(state, loc)}",
                    t,
                    loc,
                )
            )
        if shadow_only(state, seat):
            # Inversion: only as a shadow, whatever places the mage.
            continue
        if task.get("any_slot"):
            # Immolation: a taken slot is freed by wounding its mage.
            for x in any_slot_victims(state, task, room):
                label = f"Wound {mage_text(state, x)} and place your {DEPT_NAMES[t]} mage there"
                opts.append(option("place", label, type=t, slot=x["loc"].split("/", 1)[1], wound=1))
        for loc in open_slots(state, room):
            opts.append(
                place_option(
                    f"Place your {DEPT_NAMES[t]} mage in {loc_text(state, loc)}"
                    + merit_note(state, seat, loc),
                    t,
                    loc,
                )
            )
    if task["optional"]:
        opts.append(option("pass", "Place no more"))
    asked = f"choose a mage and a slot in {room_name(room)}{_why(task)}"
    ask(state, seat, "place_slot", opts, asked, data=task)


def _why(task: Task) -> str:
    """Say where a placement comes from when it is a power's gift (" (your Mysticism mage's power…)")."""
    return f" ({task['why']})" if task.get("why") else ""


def merit_note(state: State, seat: int, loc: str) -> str:
    """Return a warning for a placement label: a Merit slot taken with no badge left pays only 1 IP."""
    return merit_words(slot_of(state, loc), merit_free(state, seat) > 0)


def merit_words(slot: dict[str, Any], badge_left: bool) -> str:
    """Return ``merit_note``'s words for a slot's printed record, given whether the seat has a badge left."""
    if not is_merit(slot) or badge_left:
        return ""
    # Badges are paid at resolution, so an IP gain before then may still pay for the errand.
    return " (Merit slot, no badge left: likely only 1 IP)"


def any_slot_victims(state: State, task: Task, room: str) -> list[dict[str, Any]]:
    """Immolation: the mages whose slot a placement may take by wounding them."""
    return candidates(state, task["seat"], "wound", {}, {"via": task.get("via")}, room=room)


def any_slot_targets(state: State, task: Task, room: str) -> bool:
    """Whether a placement into any slot (Immolation) has somewhere to go in a room."""
    return bool(open_slots(state, room) or any_slot_victims(state, task, room))


def shadow_a_rival(state: State, seat: int, loc: str) -> None:
    """Record a placement into the shadow of a rival's mage (a harm that rival may react to)."""
    if not is_shadow(slot_of(state, loc)):
        return
    host = occupant(state, shadowed_host(state, loc))
    if host is not None and host["owner"] != seat:
        # Zero Hour and Inversion are spells: the shadowing is the spell's doing.
        harm(state, "shadowed", host, seat, "spell", host["loc"])


def answer_place_room(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] == "pass":
        if task["data"]["only"] is not None:
            m = state["mages"][task["data"]["only"]]
            m["owner"], m["loc"], m["temp"] = None, "supply", False
        return
    set_ctx(state, task["data"].get("fid"), room=opt["args"]["room"])
    push(state, dict(task["data"], room=opt["args"]["room"]))


def answer_place_slot(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    data = task["data"]
    if opt["action"] == "pass":
        return
    seat = task["seat"]
    pool = office_mages(state, seat)
    if data["only"] is not None:
        pool = [m for m in pool if m["id"] == data["only"]]
    m = next(x for x in pool if x["type"] == opt["args"]["type"])
    loc = f"{data['room']}/{opt['args']['slot']}"
    if opt["args"].get("wound"):
        victim = next((x for x in state["mages"] if x["loc"] == loc), None)
        if victim is not None:
            wound(state, seat, victim, data.get("via"), events)
    shadow_a_rival(state, seat, loc)
    put(state, m, loc, events)
    left = data["left"] - 1
    if left > 0:
        push(state, dict(data, left=left, room=data["room"] if data["fixed_room"] else None, optional=True))


def do_gain_mage(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    seat, dept = task["seat"], arg["department"]
    if dept == "apprentice":
        m = supply_mage(state, APPRENTICE)
        if m is None:
            say(events, "The Archmage's Apprentice is already serving someone this round.")
            return
        m["owner"], m["loc"], m["temp"] = seat, "office", True
        say(events, f"{who(state, seat)} gains the Archmage's Apprentice for this round.")
        return
    if dept == "any":
        types = [t for t in (*DEPARTMENTS, NEUTRAL) if can_hold(state, seat, t) and supply_mage(state, t)]
        opts = [option("choose", f"Gain a {DEPT_NAMES[t]} mage", type=t) for t in types]
        ask(state, seat, "gain_mage", opts, "choose the mage you gain")
        return
    grant_mage(state, seat, dept, events)


def can_gain_mage(state: State, seat: int, dept: str) -> bool:
    """Whether a seat can receive a mage of a department (or the neutral one the FAQ gives instead)."""
    if dept == APPRENTICE:
        return supply_mage(state, APPRENTICE) is not None
    types = [*DEPARTMENTS, NEUTRAL] if dept == "any" else [dept, NEUTRAL]
    if any(can_hold(state, seat, t) and supply_mage(state, t) for t in types):
        return True
    # At the 7-mage limit a gained mage may replace one waiting at home (FAQ).
    at_limit = permanent_count(state, seat) >= MAGE_LIMIT
    return at_limit and any(supply_mage(state, t) for t in types) and bool(office_mages(state, seat))


def grant_mage(state: State, seat: int, mage_type: str, events: list[Event]) -> None:
    """Give a seat a permanent mage; one it cannot hold becomes a neutral one, if any (FAQ)."""
    if permanent_count(state, seat) >= MAGE_LIMIT and supply_mage(state, mage_type):
        offer_mage_swap(state, seat, mage_type)
        return
    if not (can_hold(state, seat, mage_type) and supply_mage(state, mage_type)):
        mage_type = NEUTRAL
    if not (can_hold(state, seat, mage_type) and supply_mage(state, mage_type)):
        say(events, f"{who(state, seat)} cannot gain another mage.")
        return
    m = supply_mage(state, mage_type)
    m["owner"], m["loc"], m["temp"] = seat, "office", False
    say(events, f"{who(state, seat)} gains a {DEPT_NAMES[mage_type]} mage.")


def offer_mage_swap(state: State, seat: int, mage_type: str) -> None:
    """FAQ: at the 7-mage limit, a gained mage may replace one waiting at home (2 a type still holds)."""
    opts = []
    for t in dict.fromkeys(m["type"] for m in office_mages(state, seat) if not m["temp"]):
        left = permanent_count(state, seat, mage_type) - (1 if t == mage_type else 0)
        if mage_type == NEUTRAL or left < 2:
            opts.append(
                option(
                    "choose",
                    f"Send a {DEPT_NAMES[t]} mage home for the new {DEPT_NAMES[mage_type]} mage",
                    type=t,
                )
            )
    if opts:
        opts.append(option("pass", "Keep your mages"))
    ask(state, seat, "mage_swap", opts, "swap a mage for the one you gain", data={"new": mage_type})


def answer_mage_swap(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Return the chosen mage to the supply and take the new one."""
    if opt["action"] != "choose":
        return
    seat = task["seat"]
    old = next(m for m in office_mages(state, seat) if m["type"] == opt["args"]["type"] and not m["temp"])
    new = supply_mage(state, task["data"]["new"])
    if new is None:
        return
    old["owner"], old["loc"] = None, "supply"
    new["owner"], new["loc"], new["temp"] = seat, "office", False
    say(
        events,
        f"{who(state, seat)} swaps a {DEPT_NAMES[old['type']]} mage for a {DEPT_NAMES[new['type']]} mage.",
    )


def answer_gain_mage(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    grant_mage(state, task["seat"], opt["args"]["type"], events)


def do_swap_mage(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    seat = task["seat"]
    mid = task["ctx"].get("mage")
    if mid is None:
        return
    m = state["mages"][mid]
    if m["owner"] != seat or m["temp"]:
        return
    if arg.get("require") == "non_neutral" and m["type"] == NEUTRAL:
        stop_frame(task)
        return
    if arg.get("to") == "neutral":
        types = [NEUTRAL]
    else:
        types = [t for t in (*DEPARTMENTS, NEUTRAL) if t != m["type"] and supply_mage(state, t)]
    opts = []
    for t in types:
        if not supply_mage(state, t):
            continue
        # The swapped mage leaves first, so the type limit counts without it.
        if (
            t == NEUTRAL
            or sum(
                1
                for x in state["mages"]
                if x["owner"] == seat and not x["temp"] and x["type"] == t and x["id"] != mid
            )
            < 2
        ):
            opts.append(option("choose", f"Swap it for a {DEPT_NAMES[t]} mage", type=t))
    if arg.get("to") != "neutral":
        opts.append(option("pass", "Keep this mage"))
    elif not opts:
        stop_frame(task)
    ask(state, seat, "swap_mage", opts, "swap the mage for another from the supply", data={"mage": mid})


def answer_swap_mage(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] != "choose":
        return
    old = state["mages"][task["data"]["mage"]]
    new = supply_mage(state, opt["args"]["type"])
    if new is None:
        return
    new["owner"], new["temp"], new["loc"] = old["owner"], False, "office"
    old["owner"], old["loc"] = None, "supply"
    say(
        events,
        f"P{new['owner'] + 1} swaps a {DEPT_NAMES[old['type']]} mage for a {DEPT_NAMES[new['type']]} mage.",
    )
