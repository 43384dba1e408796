"""Placing a mage on a turn: the placement options with powers (fast, inversion) and their answers."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rules.argent import effects, protection, vocab
from rules.argent.agenda import Task, ask, option, push
from rules.argent.effects import has_status, powers_of, say
from rules.argent.state import (
    APPRENTICE,
    DEPT_NAMES,
    State,
    gain,
    is_shadow,
    loc_text,
    loc_words,
    mage_text,
    merit_free,
    occupant,
    office_mages,
    open_slots,
    placed,
    room_name,
    room_of,
    shadow_loc,
    slot_of,
    slot_spec,
    slots,
    split_loc,
)
from rules.contract import Event

# --------------------------------------------------------------------------- placement with powers


def turn_place(
    state: State,
    seat: int,
    room: str,
    fast: bool,
    no_powers: bool,
    events: list[Event],
    only: str | None = None,
) -> None:
    """Ask which mage goes where in the chosen room (placement powers included)."""
    opts = placement_options(state, seat, room, fast, no_powers)
    types = list(dict.fromkeys(o["args"]["type"] for o in opts))
    if only is None and len(opts) > 25 and len(types) > 1:
        # Too long for one list: the mage first, then its slot.
        pick = [option("choose", f"Place your {DEPT_NAMES.get(t, t)} mage", type=t) for t in types]
        ask(
            state,
            seat,
            "place_type",
            pick,
            f"choose the mage to place in {room_name(room)}",
            data={"room": room, "fast": fast, "no_powers": no_powers},
        )
        return
    if only is not None:
        opts = [o for o in opts if o["args"]["type"] == only]
    ask(
        state,
        seat,
        "turn_place",
        opts,
        f"choose a mage and a slot in {room_name(room)}",
        data={"room": room, "fast": fast, "no_powers": no_powers, "great": 0},
    )


def answer_place_type(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Go on with the chosen mage: now its slot."""
    data = task["data"]
    turn_place(
        state, task["seat"], data["room"], data["fast"], data["no_powers"], events, only=opt["args"]["type"]
    )


def answer_fast_room(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Go on with a fast placement in the chosen room."""
    turn_place(state, task["seat"], opt["args"]["room"], True, False, events)


def placement_options(
    state: State, seat: int, room: str, fast: bool, no_powers: bool
) -> list[dict[str, Any]]:
    """Return every (mage type, slot, power) a seat may place in a room."""
    office = state["seats"][seat]
    mages = office_mages(state, seat)
    if fast:
        mages = [m for m in mages if vocab.has_power(state, m, "fast_place")]
    by_type: dict[str, dict[str, Any]] = {}
    for m in mages:
        by_type.setdefault(m["type"], m)
    opts: list[dict[str, Any]] = []
    free = open_slots(state, room)
    if has_status(state, seat, "shadow_only_place"):
        return inversion_options(state, seat, room, by_type)
    side = state["board"]["rooms"][room]["side"]
    plain = tuple(free)
    badge_left = merit_free(state, seat) > 0
    occupied: list[dict[str, Any]] | None = None  # the room's placed mages, found once a power asks
    for t, m in by_type.items():
        name = mage_name(t)
        for slot_id, words in _plain_words(room, side, plain, t, badge_left):
            opts.append({"action": "place", "args": {"type": t, "slot": slot_id}, "label": words})
        powers = set() if no_powers else powers_of(state, m)
        if occupied is None and (powers & _TAKING or has_status(state, seat, "shadow_on_place")):
            occupied = occupied_slots(state, room)
        if "place_wound" in powers and office["mana"] >= 1:
            for x in occupied or ():
                if protection.may_target(state, seat, x, "wound", "mage"):
                    opts.append(
                        effects.place_option(
                            f"Pay 1 Mana: your {name} wounds {mage_text(state, x)} and takes its slot",
                            t,
                            x["loc"],
                            power="wound",
                        )
                    )
        if "place_shift" in powers and free:
            for x in occupied or ():
                if x["owner"] != seat and protection.may_target(state, seat, x, "move", "mage"):
                    opts.append(
                        effects.place_option(
                            f"Your {name} shifts {mage_text(state, x)} and takes its slot",
                            t,
                            x["loc"],
                            power="shift",
                        )
                    )
        # Two ways to shadow a rival's mage on placement: the mage power (1 Mana) and Zero Hour.
        # The mage power is a mage's doing (Blue mages are not spared); Zero Hour is a spell's.
        shadowing = []
        if "place_shadow" in powers and office["mana"] >= 1:
            shadowing.append(("Pay 1 Mana: your", "shadow", "mage"))
        if has_status(state, seat, "shadow_on_place"):
            shadowing.append(("Your", "zero_hour", "spell"))
        for prefix, power, via in shadowing:
            for x in occupied or ():
                sloc = shadow_loc(state, x["loc"])
                if (
                    x["owner"] != seat
                    and sloc
                    and occupant(state, sloc) is None
                    and protection.may_target(state, seat, x, "shadow", via)
                ):
                    opts.append(
                        effects.place_option(
                            f"{prefix} {name} shadows {mage_text(state, x)}",
                            t,
                            sloc,
                            power=power,
                        )
                    )
    return opts


_TAKING = frozenset(("place_wound", "place_shift", "place_shadow"))
"""The placement powers that take or shadow an occupied slot (they read the room's mages)."""


def occupied_slots(state: State, room: str) -> list[dict[str, Any]]:
    """Return the mages in a room's errand slots (shadows excluded), in the mages' order."""
    return [
        x
        for x in state["mages"]
        if room_of(x["loc"]) == room and placed(x["loc"]) and not is_shadow(slot_of(state, x["loc"]))
    ]


def mage_name(mage_type: str) -> str:
    """Return a mage type as a placement names it ("Archmage's Apprentice", "Mysticism mage")."""
    return "Archmage's Apprentice" if mage_type == APPRENTICE else f"{DEPT_NAMES[mage_type]} mage"


@lru_cache(maxsize=4096)  # card data alone (room side, slots, a type); keyed by all the words read
def _plain_words(
    room: str, side: str, free: tuple[str, ...], mage_type: str, badge_left: bool
) -> tuple[tuple[str, str], ...]:
    """Return (slot id, words) of placing a mage type in each open slot, as ``placement_options`` words them.

    A slot's words depend on the room side (its number, a shadow's host) and, for a Merit slot,
    on whether the seat has a badge left (``effects.merit_words``): nothing else of the table.
    """
    name = mage_name(mage_type)
    out = []
    for loc in free:
        printed = slot_spec(room, side, split_loc(loc)[1])  # type: ignore[index]
        note = effects.merit_words(printed, badge_left)
        # The move names the slot as ``effects.place_option`` does (an area's place keeps its number).
        out.append((loc.split("/", 1)[1], f"Place a {name} in {loc_words(loc, side)}{note}"))
    return tuple(out)


def inversion_options(
    state: State, seat: int, room: str, by_type: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Inversion: place only as a shadow beside an opponent's mage or beside an empty slot."""
    opts = []
    for loc in main_slot_locs(state, room):
        host = occupant(state, loc)
        sloc = shadow_loc(state, loc)
        if not sloc or occupant(state, sloc) is not None or (host is not None and host["owner"] == seat):
            continue
        if host is not None and not protection.may_target(state, seat, host, "shadow", "spell"):
            continue  # Inversion is a spell: a mage protected from spells cannot be shadowed by it
        for t in by_type:
            name = mage_name(t)
            opts.append(
                effects.place_option(
                    f"Place a {name} in {loc_text(state, sloc)}",
                    t,
                    sloc,
                    power="zero_hour",
                )
            )
    return opts


def main_slot_locs(state: State, room: str) -> list[str]:
    """Return every single-mage errand slot of a room (shadows and areas excluded)."""
    return [f"{room}/{s['id']}" for s in slots(state, room) if s["kind"] in ("merit", "regular")]


def answer_turn_place(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Place the chosen mage, using its power if one was chosen; the Great Hall may take up to 3."""
    data = task["data"]
    seat, room = task["seat"], data["room"]
    args = opt["args"]
    if opt["action"] == "pass":
        return
    m = next(x for x in office_mages(state, seat) if x["type"] == args["type"])
    loc = f"{room}/{args['slot']}"
    power = args.get("power")
    if power == "wound":
        gain(state, seat, "mana", -1)
        victim = occupant(state, loc)
        effects.wound(state, seat, victim, "mage", events)
    elif power == "shift":
        victim = occupant(state, loc)
        dest = [x for x in open_slots(state, room)]
        opts = [option("slot", f"Shift it to {loc_text(state, d)}", slot=d.split("/", 1)[1]) for d in dest]
        push(
            state,
            {
                "op": "ask",
                "seat": seat,
                "kind": "dest_slot",
                "options": opts,
                "prompt": "choose where the shifted mage goes",
                "fid": None,
                "secret": False,
                "react": False,
                "data": {
                    "mage": victim["id"],
                    "room": room,
                    "arg": {"to": "same_room"},
                    "via": "mage",
                    "from": loc,
                },
            },
        )
        # The shifted mage waits off the board until its new slot is chosen, just below.
        victim["loc"] = "limbo"
    elif power in ("shadow", "zero_hour"):
        if power == "shadow":
            gain(state, seat, "mana", -1)
        host = occupant(state, effects.shadowed_host(state, loc))
        if host is not None and host["owner"] != seat:
            effects.harm(state, "shadowed", host, seat, "mage" if power == "shadow" else "spell", host["loc"])
    effects.put(state, m, loc, events)
    if not data["no_powers"] and not data.get("extra") and vocab.has_power(state, m, "place_mana_per_mage"):
        others = sum(
            1 for x in state["mages"] if room_of(x["loc"]) == room and placed(x["loc"]) and x is not m
        )
        if others:
            gain(state, seat, "mana", min(3, others))
            say(events, f"P{seat + 1} gains {min(3, others)} Mana from the Sorcery mage's power.")
    great = data.get("great", 0)
    if (
        vocab.room_has(state, room, "place_up_to_3")
        and not data["fast"]
        and not data["no_powers"]
        and great < 2
    ):
        more = [o for o in placement_options(state, seat, room, False, True)]
        if more:
            more.append(option("pass", "Place no more here"))
            ask(
                state,
                seat,
                "turn_place",
                more,
                f"place another mage in {room_name(room)}",
                data=dict(data, great=great + 1, extra=True),
            )
