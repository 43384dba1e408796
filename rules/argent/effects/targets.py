"""Mage selectors and harm: choosing targets, wound, banish, heal, move, and where a moved mage lands."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules.argent import protection
from rules.argent.agenda import Task, ask, option, push, push_effects, set_ctx
from rules.argent.effects.base import ACT_OF, count_arg, ctx_of, has_status, say, who
from rules.argent.state import (
    DEPT_NAMES,
    INFIRMARY,
    State,
    adjacent,
    free_loc,
    in_infirmary,
    is_shadow,
    loc_text,
    mage_text,
    occupant,
    office_mages,
    open_slots,
    order_from,
    placed,
    room_name,
    room_of,
    room_side,
    rooms_in_play,
    shadow_loc,
    slots,
    spec,
    split_loc,
)
from rules.contract import Event


def whose_ok(state: State, actor: int, m: dict[str, Any], whose: str, ctx: dict[str, Any]) -> bool:
    """Whether a mage belongs to the kind of player a selector names."""
    if m["owner"] is None:
        return False
    if whose in ("opponent", "each_opponent"):
        return m["owner"] != actor
    if whose == "own":
        return m["owner"] == actor
    if whose == "instigator":
        return m["owner"] == ctx.get("trigger", {}).get("by")
    return True


def candidates(
    state: State, actor: int, key: str, arg: dict[str, Any], ctx: dict[str, Any], room: str | None = None
) -> list[dict[str, Any]]:
    """Return the mages a selector may choose now, in turn order of their owners (FAQ)."""
    out = list(iter_candidates(state, actor, key, arg, ctx, room))
    order = {s: i for i, s in enumerate(order_from(state, actor))}
    out.sort(key=lambda m: (order.get(m["owner"], 99), m["id"]))
    return out


def iter_candidates(
    state: State, actor: int, key: str, arg: dict[str, Any], ctx: dict[str, Any], room: str | None = None
) -> Iterator[dict[str, Any]]:
    """Yield the mages a selector may choose now, in the state's order (a test for any stops at one)."""
    scope = arg.get("scope", "board")
    whose = arg.get("whose", "any")
    via = ctx.get("via")
    if scope == "same_room":
        room = ctx.get("room")
    for m in state["mages"]:
        loc = m["loc"]
        if scope == "office":
            if loc != "office":
                continue
        elif scope == "infirmary" or key == "heal":
            if not in_infirmary(loc):
                continue
        elif scope == "board_or_infirmary":
            if not (in_infirmary(loc) or placed(loc)):
                continue
        elif key == "banish" and in_infirmary(loc):
            # Room Clarifications, Infirmary: its mages "can be banished" (in effect, healed), by a
            # banish of one mage or of every mage in a room that picks the Infirmary (Tsunami).
            pass
        elif not placed(loc):
            continue
        if room is not None and room_of(loc) != room:
            continue
        if not whose_ok(state, actor, m, whose, ctx):
            continue
        # The one protection rule: locks, shadows, Green, Blue and the protective statuses.
        if not protection.may_target(state, actor, m, ACT_OF[key], via):
            continue
        yield m


# --------------------------------------------------------------------------- mages: selectors


def do_target(state: State, task: Task, key: str, arg: dict[str, Any], events: list[Event]) -> None:
    """Start a mage selector for wound, banish, move, heal or push_shadow."""
    scope = arg.get("scope", "board")
    seat, ctx = task["seat"], task["ctx"]
    if scope in ("this", "trigger"):
        mid = ctx.get("mage") if scope == "this" else ctx.get("trigger", {}).get("mage")
        if mid is not None:
            strike(state, task, key, arg, state["mages"][mid], events)
        return
    if arg.get("whose") == "each_opponent":
        jobs = []
        for rival in order_from(state, seat)[1:]:
            jobs.append(
                {
                    "op": "select",
                    "seat": seat,
                    "key": key,
                    "arg": dict(arg, whose="opponent"),
                    "fid": task["fid"],
                    "left": count_arg(arg),
                    "room": None,
                    "only": rival,
                    "chosen": [],
                }
            )
        push(state, *jobs)
        return
    if scope in ("room", "adjacent_rooms"):
        push(
            state, {"op": "pick_room", "seat": seat, "key": key, "arg": arg, "fid": task["fid"], "rooms": []}
        )
        return
    push(
        state,
        {
            "op": "select",
            "seat": seat,
            "key": key,
            "arg": arg,
            "fid": task["fid"],
            "left": count_arg(arg),
            "room": None,
            "only": None,
            "chosen": [],
        },
    )


def run_pick_room(state: State, task: Task, events: list[Event]) -> None:
    """Ask for the room (or the next adjacent room) a room-wide selector works in."""
    arg, chosen = task["arg"], task["rooms"]
    ctx = ctx_of(state, task["fid"])
    wanted = arg.get("rooms", 2) if arg.get("scope") == "adjacent_rooms" else 1
    if len(chosen) >= wanted:
        return
    pool = rooms_in_play(state)
    if chosen:
        pool = sorted({r for c in chosen for r in adjacent(state, c)} - set(chosen), key=pool.index)
    opts = []
    for room in pool:
        if candidates(state, task["seat"], task["key"], arg, ctx, room=room):
            opts.append(option("room", f"Choose {room_name(room)}", room=room))
    if chosen and opts:
        opts.append(option("pass", "No more rooms"))
    ask(
        state,
        task["seat"],
        "pick_room",
        opts,
        f"choose a room to {task['key'].replace('_', ' ')} in",
        data=task,
    )


def answer_pick_room(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    data = task["data"]
    if opt["action"] == "pass":
        return
    room = opt["args"]["room"]
    arg = data["arg"]
    wanted = arg.get("rooms", 2) if arg.get("scope") == "adjacent_rooms" else 1
    rooms = [*data["rooms"], room]
    if len(rooms) < wanted:
        push(state, dict(data, rooms=rooms))
    set_ctx(state, data["fid"], room=room)
    push(
        state,
        {
            "op": "select",
            "seat": task["seat"],
            "key": data["key"],
            "arg": arg,
            "fid": data["fid"],
            "left": count_arg(arg),
            "room": room,
            "only": None,
            "chosen": [],
        },
    )


def run_select(state: State, task: Task, events: list[Event]) -> None:
    """Choose the next mage of a selector (or strike every eligible one for "all")."""
    ctx = ctx_of(state, task["fid"])
    pool = [
        m
        for m in candidates(state, task["seat"], task["key"], task["arg"], ctx, room=task["room"])
        if (task["only"] is None or m["owner"] == task["only"]) and m["id"] not in task["chosen"]
    ]
    if task["left"] == "all":
        for m in pool:
            strike(
                state,
                {"seat": task["seat"], "fid": task["fid"], "ctx": ctx},
                task["key"],
                task["arg"],
                m,
                events,
            )
        return
    if task["left"] <= 0 or not pool:
        return
    verb = {"wound": "Wound", "banish": "Banish", "move": "Move", "heal": "Heal", "push_shadow": "Push"}[
        task["key"]
    ]
    opts = [option("target", f"{verb} {mage_text(state, m)}", mage=m["id"]) for m in pool]
    if task["arg"].get("up_to") or task["key"] == "heal":
        opts.append(option("pass", "Stop here"))
    ask(state, task["seat"], "select", opts, f"choose a mage to {verb.lower()}", data=task)


def answer_select(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    data = task["data"]
    if opt["action"] == "pass":
        return
    m = state["mages"][opt["args"]["mage"]]
    rest = dict(data, left=data["left"] - 1, chosen=[*data["chosen"], m["id"]])
    if rest["left"] > 0:
        push(state, rest)
    strike(
        state,
        {"seat": task["seat"], "fid": data["fid"], "ctx": ctx_of(state, data["fid"])},
        data["key"],
        data["arg"],
        m,
        events,
    )


def strike(
    state: State, task: Task, key: str, arg: dict[str, Any], m: dict[str, Any], events: list[Event]
) -> None:
    """Carry out wound, banish, move, heal or push_shadow on one chosen mage."""
    actor, ctx = task["seat"], task.get("ctx") or {}
    before = m["loc"]
    room = room_of(before)
    set_ctx(state, task.get("fid"), room=room, target=m["id"], left=before)
    if key == "wound":
        wound(state, actor, m, ctx.get("via"), events, bonus=arg.get("bonus", True))
    elif key == "banish":
        banish(state, actor, m, ctx.get("via"), events)
        if arg.get("shadows_drop"):
            drop_shadows(state, room, events)
    elif key == "heal":
        m["loc"] = "office"
        say(events, f"{who(state, actor)} heals {mage_text(state, m)}.")
        if m["owner"] != actor:
            set_ctx(state, task.get("fid"), healed_opponent=True)
    elif key == "push_shadow":
        dest = shadow_loc(state, before)
        if dest and not any(x["loc"] == dest for x in state["mages"]):
            m["loc"] = dest
            harm(state, "moved", m, actor, ctx.get("via"), before)
            say(events, f"{mage_text(state, m)} is pushed into the shadow of its slot.")
    elif key == "move":
        push(
            state,
            {
                "op": "destination",
                "seat": actor,
                "mage": m["id"],
                "arg": arg,
                "fid": task.get("fid"),
                "via": ctx.get("via"),
                "room": None,
            },
        )
        return
    if arg.get("take_slot") and placed(before) and not any(x["loc"] == before for x in state["mages"]):
        offer_take_slot(state, actor, before)


room_full_for = protection.room_full_for


def offer_take_slot(state: State, seat: int, loc: str) -> None:
    """Offer to put one of a seat's office mages into the slot a target just left."""
    if room_full_for(state, room_of(loc), seat):
        return
    if shadow_only(state, seat):
        # Inversion: the freed slot is empty, so the mage may only go into its shadow.
        sloc = shadow_loc(state, loc)
        if sloc is None or occupant(state, sloc) is not None:
            return
        loc = sloc
    opts = [
        option("place", f"Put your {DEPT_NAMES[t]} mage there", type=t)
        for t in dict.fromkeys(m["type"] for m in office_mages(state, seat))
    ]
    if opts:
        opts.append(option("pass", "Leave the slot empty"))
    ask(
        state,
        seat,
        "take_slot",
        opts,
        f"put one of your mages into {loc_text(state, loc)}",
        data={"loc": loc},
    )


def answer_take_slot(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] != "place":
        return
    loc = task["data"]["loc"]
    if any(x["loc"] == loc for x in state["mages"]):
        return
    m = next(x for x in office_mages(state, task["seat"]) if x["type"] == opt["args"]["type"])
    # Putting a mage from the office into the freed slot is a placement (it earns an instant errand).
    put(state, m, loc, events)


def harm(
    state: State,
    what: str,
    m: dict[str, Any],
    by: int,
    via: str | None,
    before: str,
    owner: int | None = None,
) -> None:
    """Record something done to a mage, for the reaction window after the action.

    ``to`` is where the harm left the mage, so that a replacing reaction can tell whether it is still
    there; ``owner`` defaults to the mage's owner now (a banished temporary mage has lost it already).
    """
    state["harms"].append(
        {
            "on": what,
            "mage": m["id"],
            "owner": m["owner"] if owner is None else owner,
            "by": by,
            "via": via,
            "from": before,
            "to": m["loc"],
            "cost": state.get("last_cost", 0),
        }
    )


def wound(
    state: State, actor: int, m: dict[str, Any], via: str | None, events: list[Event], bonus: bool = True
) -> None:
    """Send a mage to the Infirmary; its owner's sympathy bonus waits until reactions are done."""
    before = m["loc"]
    m["loc"] = free_loc(state, INFIRMARY, "general") or "infirmary/general/0"
    harm(state, "wounded", m, actor, via, before)
    state["harms"][-1]["bonus"] = bonus and actor != m["owner"]
    say(events, f"{who(state, actor)} wounds {mage_text(state, m)}.")
    wound_slots = [s for s in slots(state, INFIRMARY) if s["kind"] == "wound"]
    free = [s for s in wound_slots if not any(x["loc"] == f"{INFIRMARY}/{s['id']}" for x in state["mages"])]
    if free and m["owner"] is not None:
        opts = [
            option("slot", f"Send it to the Infirmary's wound slot {wound_slots.index(s) + 1}", slot=s["id"])
            for s in free
        ]
        opts.append(option("pass", "Leave it in the Infirmary's general area"))
        ask(
            state,
            m["owner"],
            "wound_slot",
            opts,
            "choose where your wounded mage lies",
            data={"mage": m["id"]},
        )


def answer_wound_slot(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] == "slot":
        loc = f"{INFIRMARY}/{opt['args']['slot']}"
        if not any(x["loc"] == loc for x in state["mages"]):
            state["mages"][task["data"]["mage"]]["loc"] = loc


def banish(state: State, actor: int, m: dict[str, Any], via: str | None, events: list[Event]) -> None:
    """Send a mage back to its owner's office."""
    before, owner = m["loc"], m["owner"]
    # Rulebook, Banishing: "sent back to the office of their Candidate", a temporary mage (Living
    # Image, the Apprentice) included; it leaves for the supply only at the end of the round.
    m["loc"] = "office"
    harm(state, "banished", m, actor, via, before, owner=owner)
    say(events, f"{who(state, actor)} banishes a mage from {loc_text(state, before)}.")


def shadowed_host(state: State, loc: str) -> str:
    """Return the errand slot that a shadow slot location belongs to."""
    room, slot_id = split_loc(loc)  # type: ignore[misc]
    return f"{room}/{spec(state, room, slot_id)['of']}"


def drop_shadows(state: State, room: str | None, events: list[Event]) -> None:
    """Each shadowing mage of a room drops into the slot it shadowed, if that slot is open."""
    if not room:
        return
    for m in state["mages"]:
        parts = split_loc(m["loc"])
        if parts and parts[0] == room and is_shadow(spec(state, *parts)):
            dest = f"{room}/{spec(state, *parts)['of']}"
            if not any(x["loc"] == dest for x in state["mages"]):
                m["loc"] = dest


def destination_rooms(state: State, m: dict[str, Any], arg: dict[str, Any]) -> list[str]:
    """Return the rooms a moved mage may go to by the move's reach (before locks are asked)."""
    to = arg.get("to", "same_room")
    here = room_of(m["loc"])
    not_into = set(arg.get("not_into", [])) | {INFIRMARY}
    if to == "same_room" and here and here != INFIRMARY:
        return [here]
    if to == "adjacent_room" and here and here != INFIRMARY:
        return [r for r in adjacent(state, here) if r not in not_into]
    return [r for r in rooms_in_play(state) if r not in not_into]


def run_destination(state: State, task: Task, events: list[Event]) -> None:
    """Ask where a moved mage goes (a room first when it may go far)."""
    m = state["mages"][task["mage"]]
    rooms = [r for r in destination_rooms(state, m, task["arg"]) if protection.room_open(state, r)]
    if task["room"] is None and len(rooms) > 1:
        opts = [
            option("room", f"Move it to {room_name(r)}", room=r) for r in rooms if dest_slots(state, task, r)
        ]
        ask(state, task["seat"], "dest_room", opts, "choose the room the mage moves to", data=task)
        return
    room = task["room"] or (rooms[0] if rooms else None)
    if room is None:
        return
    opts = [
        option("slot", f"Move it to {loc_text(state, loc)}", slot=loc.split("/", 1)[1])
        for loc in dest_slots(state, task, room)
    ]
    ask(
        state,
        task["seat"],
        "dest_slot",
        opts,
        "choose the slot the mage moves to",
        data=dict(task, room=room),
    )


def dest_slots(state: State, task: Task, room: str) -> list[str]:
    """Return the slots a moved mage may go to in a room."""
    m = state["mages"][task["mage"]]
    if not protection.may_enter(state, m["owner"], room, moving=m["id"]):
        return []
    out = [loc for loc in open_slots(state, room) if loc != m["loc"]]
    # Innervation: "you may wound an opponent's mage to make room for yours": only for your own mage.
    own = m["owner"] == task["seat"]
    if own and task["arg"].get("to") == "any_slot" and task["arg"].get("displace") == "wound_opponent":
        for s in slots(state, room):
            loc = f"{room}/{s['id']}"
            occ = next((x for x in state["mages"] if x["loc"] == loc), None)
            if (
                occ
                and occ["owner"] != task["seat"]
                and not is_shadow(s)
                and protection.may_target(state, task["seat"], occ, "wound", task.get("via"))
            ):
                out.append(loc)
    return out


def answer_dest_room(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    push(state, dict(task["data"], room=opt["args"]["room"]))


def answer_dest_slot(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    data = task["data"]
    m = state["mages"][data["mage"]]
    dest = f"{data['room']}/{opt['args']['slot']}"
    occ = next((x for x in state["mages"] if x["loc"] == dest), None)
    if occ:
        wound(state, task["seat"], occ, data.get("via"), events)
    before = data.get("from") or m["loc"]
    m["loc"] = dest
    if m["owner"] != task["seat"]:
        harm(state, "moved", m, task["seat"], data.get("via"), before)
    say(
        events,
        f"{who(state, task['seat'])} moves a mage from {loc_text(state, before)} to {loc_text(state, dest)}.",
    )
    if data["arg"].get("take_slot") and placed(before):
        offer_take_slot(state, task["seat"], before)


# --------------------------------------------------------------------------- putting a mage on a slot


def put(state: State, m: dict[str, Any], loc: str, events: list[Event], placing: bool = True) -> None:
    """Stand a mage in a slot; a placement (not a move) into an instant room earns its errand later."""
    m["loc"] = loc
    room = room_of(loc)
    say(
        events,
        f"P{m['owner'] + 1} places {mage_text(state, m).split(' ', 1)[1].split(' in ')[0]} in "
        f"{loc_text(state, loc)}.",
    )
    if placing and room:
        side = room_side(state, room)
        if side.get("instant"):
            state["instants"].append(m["id"])
        if side.get("on_place"):
            push_effects(state, m["owner"], side["on_place"], {"room": room, "mage": m["id"], "via": "room"})


def shadow_only(state: State, seat: int) -> bool:
    """Whether Inversion holds this seat to placing as a shadow only, this round."""
    return has_status(state, seat, "shadow_only_place")
