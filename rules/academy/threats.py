"""Threats: placing them (with their interactions and attacks on the Mana Crystal), activating them,
and what a wizard ending a turn with them endures. The rules are the rulebook's basic entries; the
advanced threats follow data/academy/threats.json (designed from the rulebook's fragments).
"""

from __future__ import annotations

import math
from typing import Any

from rules.academy.events import AcademyEvent
from rules.academy.flow import Op, ask, ask_glyph, draw, handler
from rules.academy.order import in_order
from rules.academy.state import (
    CRYSTAL,
    CURSED,
    DIRS,
    State,
    adjoining,
    adjoining_dir,
    distances,
    heading,
    in_academy,
    joined,
    lose_mana,
    room_name,
    say,
    who,
    wizards_in,
)

ORDER = ("fire", "water", "ice", "darkness", "haunt", "imp", "troll", "demon", "portal")
"""The order in which one paragraph activates several kinds (ruling: a fixed Helpful Hand order)."""
SPREADERS = {"fire": "the fire", "water": "the deep water", "ice": "the ice", "darkness": "the darkness"}
"""How an order names a kind that spreads as one (every token of it activates together)."""
CAP = {"fire": 1, "ice": 2, "darkness": 1, "haunt": 1}
NAMES = {
    "fire": "a fire",
    "water": "a water token",
    "ice": "an ice token",
    "darkness": "a darkness token",
    "haunt": "a haunt token",
    "imp": "an imp",
    "guardian": "a guardian",
    "troll": "a troll",
    "demon": "a demon",
}


def ignores(w: dict[str, Any], what: str) -> bool:
    """Whether a wizard's robe makes a threat act as if the wizard were not there (and vice versa)."""
    return w.get("robe") == what


# --------------------------------------------------------------------------- placing


def place(
    s: State, room: str, what: str, n: int = 1, ptype: str | None = None, overflow: bool = False
) -> None:
    """Put threats (or a guardian) in a room, then resolve interactions and any attack on the crystal."""
    if s["over"] or n <= 0:
        return
    contents = s["rooms"][room]
    if what == "portal":
        if ptype not in contents["portals"]:
            contents["portals"].append(ptype)
    elif what == "water":
        for _ in range(n):
            _add_water(s, room, overflow)
            overflow = True  # the tokens after the first come from the same placement
    else:
        contents[what] += n
    interact(s, room)
    if room == CRYSTAL and what != "guardian":
        attack(s)


def _add_water(s: State, room: str, overflow: bool) -> None:
    """Add one water token; a third token overflows (advanced) or is removed (basic)."""
    if not overflow:
        s["overflowed"] = []
    contents = s["rooms"][room]
    contents["water"] += 1
    contents["fire"] = 0
    if contents["water"] < 3:
        return
    contents["water"] = 2
    if s["basic"] or not in_academy(s, room):
        return
    s["overflowed"].append(room)
    for other in adjoining(s, room):
        if other not in s["overflowed"]:
            say(s, AcademyEvent.OVERFLOW,
                f"Water overflows from the {room_name(room)} into the {room_name(other)}.")
            place(s, other, "water", overflow=True)


def interact(s: State, room: str) -> None:
    """Resolve threat interactions in a room (fire and water, excess tokens, guardians)."""
    c = s["rooms"][room]
    if c["water"] and c["fire"]:
        c["fire"] = 0
    for kind, cap in CAP.items():
        c[kind] = min(c[kind], cap)
    if c["guardian"] and (c["troll"] or c["demon"]):
        say(s, AcademyEvent.SMASH, f"A guardian in the {room_name(room)} is smashed.")
        c["guardian"] = 0
    if c["guardian"] and c["imp"]:
        imps = f"{c['imp']} imp{'' if c['imp'] == 1 else 's'}"
        say(s, AcademyEvent.IMP_KILLED, f"The guardian in the {room_name(room)} kills {imps}.")
        c["imp"] = 0


def _connected(s: State, kind: str) -> tuple[list[str], int]:
    """Return the rooms holding ``kind`` joined to the crystal through adjoining rooms, and their tokens."""
    seen = joined(s, [CRYSTAL], kind)
    return seen, sum(s["rooms"][r][kind] for r in seen)


def attack(s: State) -> None:
    """Resolve the attacks of every threat in the Mana Crystal (rulebook: The Mana Crystal)."""
    c = s["rooms"][CRYSTAL]
    if c["imp"] >= 2:
        n = c["imp"]
        c["imp"] = 0
        lose_mana(s, math.ceil(n / 2), f"{n} imps reached the crystal")
    for kind, per in (("fire", 3), ("water", 6)):
        if c[kind]:
            rooms, n = _connected(s, kind)
            for room in rooms:
                s["rooms"][room][kind] = 0
            lose_mana(
                s,
                math.ceil(n / per),
                f"{n} {kind} token{'' if n == 1 else 's'} joined to the crystal"
                + (" was removed" if n == 1 else " were removed"),
            )
    if c["portals"]:
        n = len(c["portals"])
        c["portals"] = []
        lose_mana(s, n, "a portal opened in the crystal")
    for kind, cost in (("ice", 1), ("haunt", 1), ("darkness", 0), ("troll", 2), ("demon", 3)):
        if c[kind]:
            c[kind] = 0
            lose_mana(s, cost, f"{NAMES[kind]} reached the crystal")


def move_creature(s: State, src: str, dst: str, what: str) -> None:
    """Move one creature (or haunt token) from a room into another."""
    s["rooms"][src][what] -= 1
    say(s, AcademyEvent.MOVES,
        f"{NAMES[what].capitalize()} moves from the {room_name(src)} to the {room_name(dst)}.")
    place(s, dst, what)


# --------------------------------------------------------------------------- directions


def toward_cursed(s: State, room: str, gain: Any = None) -> list[str]:
    """Return the best directions towards the Cursed Room (glossary), ties left for the players."""
    options = [d for d in DIRS if adjoining_dir(s, room, d) is not None]
    if not options:
        return []
    dist = distances(s, CURSED)
    best = [d for d in options if adjoining_dir(s, room, d) in dist]
    if best and room != CURSED and room in dist:
        low = min(dist[adjoining_dir(s, room, d)] for d in best)
        options = [d for d in best if dist[adjoining_dir(s, room, d)] == low]
    if len(options) > 1 and gain is not None:
        top = max(gain(adjoining_dir(s, room, d)) for d in options)
        options = [d for d in options if gain(adjoining_dir(s, room, d)) == top]
    return options


def wander(s: State, op: Op, room: str, what: str) -> str | None:
    """Return where a wandering creature goes by a room card (lowest arrow leading somewhere)."""
    card = draw(s, op)
    if card["cursed"]:
        dirs = toward_cursed(s, room)
        why = f"Which way does {NAMES[what]} in the {room_name(room)} go towards the Cursed Room?"
        return _ask_way(s, op, room, what, "go", dirs, why)
    for d in card["arrows"]:
        other = adjoining_dir(s, room, d)
        if other is not None:
            return other
    return None


# --------------------------------------------------------------------------- activation


def activation_ops(s: State, rooms: list[str] | None, kinds: tuple[str, ...] = ORDER) -> list[Op]:
    """Return the ops that activate, once each, every threat of ``kinds`` in ``rooms`` (None: everywhere),
    in the order the players choose (the Helpful Hand of Fate, line 248; ``ORDER`` is the default)."""
    where = list(s["board"]) if rooms is None else [r for r in rooms if in_academy(s, r)]
    groups: list[list[Op]] = []
    names: list[str] = []
    for kind in kinds:
        if kind in ("fire", "water", "ice", "darkness"):
            if s["basic"] and kind == "water":
                continue
            starts = [r for r in where if s["rooms"][r][kind]]
            if starts:
                groups.append([{"op": "spread", "what": kind, "rooms": starts}])
                names.append(SPREADERS[kind])
        elif kind == "portal":
            for r in where:
                for t in s["rooms"][r]["portals"]:
                    groups.append([{"op": "portal_act", "room": r, "type": t}])
                    names.append(f"the {t} portal in the {room_name(r)}")
        else:
            for r in where:
                for _ in range(s["rooms"][r][kind]):
                    groups.append([{"op": f"{kind}_act", "room": r}])
                    names.append(f"the {kind} in the {room_name(r)}")
    return in_order(groups, names)


@handler("spread")
def _spread(s: State, op: Op) -> None:
    """Fire (with every fire joined to it), deep water, ice or darkness spread by one room card."""
    kind = op["what"]
    rooms = [r for r in op["rooms"] if s["rooms"][r][kind]]  # a threat gone before its turn stays still
    if not rooms and kind != "water":
        return
    if kind == "fire":  # an activated fire activates the fires in adjoining rooms, and so on
        rooms = joined(s, rooms, "fire")
    if kind == "water":
        rooms = [r for r in rooms if s["rooms"][r]["water"] >= 2]
    card = draw(s, op)
    targets = []
    for room in rooms:
        if card["cursed"]:
            dirs = toward_cursed(
                s, room, lambda r, k=kind: 0 if s["rooms"][r][k] or s["rooms"][r]["water"] else 1
            )
            why = f"Which way does the {kind} in the {room_name(room)} spread?"
            target = _ask_way(s, op, room, kind, "spread", dirs, why)
        else:  # unlike imps, it is not clever: a wall on arrow 1 stops it
            target = adjoining_dir(s, room, card["arrows"][0])
        if target is not None:
            targets.append(target)
    say(s, AcademyEvent.SPREAD, f"{kind.capitalize()} spreads: {_rooms_once(targets) or 'nowhere'}.")
    for target in targets:
        place(s, target, kind)
    if kind == "ice":
        around = adjoining(s, CRYSTAL)
        if around and all(s["rooms"][r]["ice"] for r in around):
            lose_mana(s, 1, "ice surrounds the crystal")


@handler("imp_act")
def _imp(s: State, op: Op) -> None:
    """An imp acts on the first situation that applies (rulebook: Imps)."""
    room = op["room"]
    if not s["rooms"][room]["imp"]:
        return
    holders = [
        i for i in wizards_in(s, room) if s["wizards"][i]["glyphs"] and not ignores(s["wizards"][i], "imp")
    ]
    if holders:
        seat = ask(
            s,
            op,
            s["current"],
            f"Which wizard does the imp in the {room_name(room)} rob?",
            [(i, who(s, i)) for i in holders],
        )
        w = s["wizards"][seat]
        glyph = ask(
            s,
            op,
            seat,
            "Which glyph does the imp take?",
            [(g, f"Glyph {g}") for g in sorted(set(w["glyphs"]))],
        )
        w["glyphs"].remove(glyph)
        say(s, AcademyEvent.IMP_STEALS,
            f"An imp in the {room_name(room)} takes glyph {glyph} from {who(s, seat)}.")
        _douse(s, room)
        return
    source = s["rooms"][room]["source"]
    if source is not None:
        lost = [i for i, w in enumerate(s["wizards"]) if source in w["glyphs"] and not ignores(w, "imp")]
        for i in lost:
            s["wizards"][i]["glyphs"].remove(source)
        if lost:
            say(
                s,
                AcademyEvent.IMP_DRAINS,
                f"An imp at glyph source {source} drains a glyph {source} from every wizard holding one.",
            )
            _douse(s, room)
        else:
            s["rooms"][room]["imp"] -= 1
            say(
                s,
                AcademyEvent.IMP_LEAVES,
                f"An imp at glyph source {source} has stolen all it can and leaves the board.",
            )
        return
    target = wander(s, op, room, "imp")
    if target is not None:
        move_creature(s, room, target, "imp")


def _douse(s: State, room: str) -> None:
    """An imp uses a stolen glyph to remove a fire or water token from its room."""
    c = s["rooms"][room]
    for kind in ("fire", "water"):
        if c[kind]:
            c[kind] -= 1
            say(s, AcademyEvent.IMP_DOUSES, f"The imp removes {NAMES[kind]} from the {room_name(room)}.")
            return


@handler("haunt_act")
def _haunt(s: State, op: Op) -> None:
    """A haunt drifts like a wandering imp (designed)."""
    room = op["room"]
    if s["rooms"][room]["haunt"]:
        target = wander(s, op, room, "haunt")
        if target is not None:
            move_creature(s, room, target, "haunt")


def _step_towards(s: State, op: Op, room: str, what: str, goals: list[str]) -> str | None:
    """Return the adjoining room one step along a shortest route to the nearest goal (players pick ties)."""
    best: list[str] = []
    low = None
    for goal in goals:
        dist = distances(s, goal)
        if room not in dist or dist[room] == 0:
            continue
        for d in DIRS:
            other = adjoining_dir(s, room, d)
            if other is not None and other in dist and dist[other] == dist[room] - 1:
                if low is None or dist[room] < low:
                    low, best = dist[room], []
                if dist[room] == low and d not in best:
                    best.append(d)
    why = f"Which way does {NAMES[what]} in the {room_name(room)} go?"
    return _ask_way(s, op, room, what, "go", best, why)


def _ask_way(s: State, op: Op, room: str, what: str, way: str, dirs: list[str], why: str) -> str | None:
    """Ask the current player which of ``dirs`` a thing in ``room`` takes; return the room it reaches."""
    options = [(x, f"{x.upper()}: {room_name(adjoining_dir(s, room, x))}") for x in dirs]
    d = ask(s, op, s["current"], why, options, heading(s, room, what, way, dirs))
    return None if d is None else adjoining_dir(s, room, d)


@handler("troll_act")
def _troll(s: State, op: Op) -> None:
    """A troll lumbers one room towards the Mana Crystal (designed)."""
    room = op["room"]
    if s["rooms"][room]["troll"]:
        target = _step_towards(s, op, room, "troll", [CRYSTAL])
        if target is not None:
            move_creature(s, room, target, "troll")


@handler("demon_act")
def _demon(s: State, op: Op) -> None:
    """A demon kills the wizards in its room, or hunts the nearest one (designed)."""
    room = op["room"]
    if not s["rooms"][room]["demon"]:
        return
    prey = [i for i in wizards_in(s, room) if not ignores(s["wizards"][i], "demon")]
    if prey:
        for seat in prey:
            die(s, seat, f"the demon in the {room_name(room)}")
        return
    rooms = sorted({w["room"] for w in s["wizards"] if not ignores(w, "demon") and in_academy(s, w["room"])})
    target = _step_towards(s, op, room, "demon", rooms)
    if target is not None:
        move_creature(s, room, target, "demon")


@handler("portal_act")
def _portal(s: State, op: Op) -> None:
    """A portal lets one threat of its type through into its room."""
    room, kind = op["room"], op["type"]
    if kind in s["rooms"][room]["portals"]:
        say(s, AcademyEvent.PORTAL, f"The {kind} portal in the {room_name(room)} lets {NAMES[kind]} through.")
        place(s, room, kind)


def die(s: State, seat: int, why: str) -> None:
    """A wizard would die: the crystal spends a mana to save them; they wake in the crystal, glyphs lost."""
    w = s["wizards"][seat]
    say(s, AcademyEvent.DEATH,
        f"{who(s, seat)} is slain by {why}; the crystal pulls them back, their glyphs lost.")
    w["glyphs"] = []
    w["shared"] = None
    w["room"] = CRYSTAL
    lose_mana(s, 1, f"saving {who(s, seat)}")


# --------------------------------------------------------------------------- endure


def endure_ops(s: State, seat: int, between: Op | None = None) -> list[Op]:
    """Return the ops by which the current wizard endures the threats in their room, in the order the
    players choose (rulebook line 110: the order is unspecified, so the Helpful Hand of Fate lets them)."""
    w = s["wizards"][seat]
    room = w["room"]
    c = s["rooms"][room]
    if s.get("shield") == seat:
        return []
    groups: list[list[Op]] = []
    names: list[str] = []
    one = {"seat": seat, "room": room}
    if not ignores(w, "imp") and not (not s["basic"] and w["char"] == "sir_bearington"):
        groups += [[{"op": "endure_imp", **one}]] * c["imp"]
        names += ["the imp"] * c["imp"]
    if not s["basic"]:
        if c["troll"] and not ignores(w, "troll"):
            groups.append([{"op": "endure_troll", **one}] * 2)
            names.append("the troll")
        if c["demon"] and not ignores(w, "demon"):
            groups.append([{"op": "endure_demon", **one}])
            names.append("the demon")
    harm = harm_of(s, seat)
    if harm is not None:
        groups.append([{"op": "endure_harm", **one}])
        names.append("the fire" if harm == "fire" else "the deep water")
    return in_order(groups, names, between)


def harm_of(s: State, seat: int) -> str | None:
    """Return the fire or deep water the wizard would endure in their room now, or None."""
    w = s["wizards"][seat]
    room = w["room"]
    c = s["rooms"][room]
    if room == CRYSTAL:
        return None
    kinds = [k for k in ("fire", "water") if (c[k] if k == "fire" else c[k] >= 2) and not ignores(w, k)]
    return kinds[0] if kinds else None


def endures(s: State, op: Op) -> bool:
    """Whether an endure op would still act: its wizard is still in its room and its threat still there."""
    seat = op["seat"]
    w = s["wizards"][seat]
    if w["room"] != op.get("room", w["room"]):
        return False  # a wizard who left the room (a recall, the fire's teleport) endures nothing more there
    c = s["rooms"][w["room"]]
    what = op["op"]
    if what == "endure_imp":
        return bool(w["glyphs"] and c["imp"])
    if what == "endure_troll":
        return bool(w["glyphs"] and c["troll"])
    if what == "endure_demon":
        return bool(c["demon"])
    return harm_of(s, seat) is not None


@handler("endure_imp")
def _endure_imp(s: State, op: Op) -> None:
    """An imp in your room takes a glyph of your choice; if it did, it douses a fire or water token."""
    glyph = _give_up_glyph(s, op, "An imp takes one of your glyphs: which?")
    if glyph is None:
        return
    say(s, AcademyEvent.ENDURE, f"An imp takes glyph {glyph} from {who(s, op['seat'])}.")
    _douse(s, s["wizards"][op["seat"]]["room"])


@handler("endure_troll")
def _endure_troll(s: State, op: Op) -> None:
    """A troll in your room knocks a glyph of your choice out of your hands (twice)."""
    glyph = _give_up_glyph(s, op, "A troll knocks away one of your glyphs: which?")
    if glyph is not None:
        say(s, AcademyEvent.ENDURE, f"A troll knocks glyph {glyph} from {who(s, op['seat'])}.")


def _give_up_glyph(s: State, op: Op, why: str) -> int | None:
    """Take the glyph an enduring wizard chooses to give up to a threat; None when it does not endure."""
    if not endures(s, op):
        return None
    w = s["wizards"][op["seat"]]
    glyph = ask_glyph(s, op, op["seat"], why, w["glyphs"])
    w["glyphs"].remove(glyph)
    return glyph


@handler("endure_demon")
def _endure_demon(s: State, op: Op) -> None:
    """A demon in your room kills you."""
    if endures(s, op):
        die(s, op["seat"], "a demon")


@handler("endure_harm")
def _endure_harm(s: State, op: Op) -> None:
    """Fire or deep water: the crystal shields you for a mana; you may be teleported to it."""
    seat = op["seat"]
    w = s["wizards"][seat]
    kind = harm_of(s, seat)
    if kind is None or not endures(s, op):
        return
    free = kind == "fire" and not s["basic"] and w["char"] == "alba"
    go = ask(
        s,
        op,
        seat,
        f"The crystal shields you from the {kind}. Be teleported to the Mana Crystal?",
        [(True, "Teleport to the Mana Crystal"), (False, "Stay here")],
    )
    if free:
        say(s, AcademyEvent.ENDURE, f"{who(s, seat)} walks through the fire unharmed.")
    else:
        lose_mana(s, 1, f"shielding {who(s, seat)} from the {kind}")
    if go and not s["over"]:
        w["room"] = CRYSTAL
        say(s, AcademyEvent.TELEPORT, f"{who(s, seat)} is teleported to the Mana Crystal.")


def _rooms_once(targets: list[str]) -> str:
    """Name each room a threat spreads to once, saying how often ("Library (twice)")."""
    times = {"2": "twice", "3": "three times", "4": "four times"}
    said = []
    for room in dict.fromkeys(targets):
        n = targets.count(room)
        said.append(room_name(room) + (f" ({times.get(str(n), f'{n} times')})" if n > 1 else ""))
    return ", ".join(said)
