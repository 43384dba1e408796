"""The Helpful Hand of Fate for orders: threats that act together act in the order the players choose.

Rulebook lines 65, 110 and 248: whenever an effect can be resolved several ways (threats activated by one
paragraph, the threats a wizard endures) the players choose, the current player deciding. An ``in_order``
op holds the groups of ops to be ordered. It works out every order on a copy of the state (following
every choice the order leads to) and asks only when orders lead to different outcomes: one option per
distinct outcome, labelled by what sets it apart. When every order ends the same, it plays the default
order (the groups' own order) without asking.

A room card is hidden until drawn, so the real deck never enters the copies (ruling). Each order is run
on stand-in decks made of public facts only (the cards left in the deck are the discards' complement):
every arrangement of the first cards drawn, the rest in a fixed order. Two orders are the same choice
when they give the same outcomes over these decks taken together, so orders that differ only in which
unknown card each threat gets are not asked, and whether (and what) the players are asked never depends
on the deck's order. Threats that touch nothing in common (their rooms and the rooms beside them, the
wizards' glyphs) are not ordered against each other; each set that may interact is asked about in turn,
and a set of more than ``MAX_PART`` threats keeps the default order (ruling: a limit of ours).
"""

from __future__ import annotations

import hashlib
import itertools
import json
import pickle
from typing import Any

from rules.academy.flow import HANDLERS, Hidden, Op, Suspend, answer, ask, handler, push
from rules.academy.state import CRYSTAL, State, adjoining, in_academy, joined, room_name, who

MAX_PART = 4
"""Threats that can meet, at most, whose orders are worked out (24 orders); a larger set keeps the default
order (ruling: working out more would stall the table)."""
MAX_LEAVES = 64
"""Outcomes followed per order (each choice inside the order branches); past that the order stands alone."""
MAX_TOP = 3
"""Stand-in decks put every order of as many cards as are drawn on top, up to this many (6 decks)."""
SKIP = frozenset({"out", "log", "queue", "choice", "sim", "overflowed", "reveal", "room_deck"})
"""State keys that say how an outcome was reached, not what it is."""


def in_order(groups: list[list[Op]], names: list[str], between: Op | None = None) -> list[Op]:
    """Return the ops that run the groups in the order the players choose (``between``: after each group)."""
    if not groups:
        return []
    if len(groups) == 1:
        return list(groups[0])
    return [{"op": "in_order", "groups": groups, "names": names, "between": between, "settled": []}]


@handler("in_order")
def _in_order(s: State, op: Op) -> None:
    """Ask about the first set of threats whose orders end differently; queue the groups once none is left."""
    groups, names = op["groups"], op["names"]
    if "ask" not in op:
        op["ask"] = _question(s, op)
    q = op["ask"]
    if q is None:
        ops: list[Op] = []
        for n, g in enumerate(groups):
            ops += g
            if op.get("between") and n < len(groups) - 1:
                ops.append(dict(op["between"]))
        push(s, ops)
        return
    plan, part = q["plan"], q["part"]
    pick = ask(
        s,
        op,
        s["current"],
        "The Helpful Hand of Fate: in which order do these threats act?",
        [(n, p["label"]) for n, p in enumerate(plan)],
        {"orders": [dict(p, value=n) for n, p in enumerate(plan)]},
    )
    order = [part[i] for i in plan[pick]["order"]]
    placed = dict(zip(part, order, strict=True))  # the chosen order takes the places of its threats
    settled = [*op["settled"], *part]
    again = {
        **{k: v for k, v in op.items() if k not in ("ask", "answers", "_i", "_d")},
        "groups": [groups[placed.get(i, i)] for i in range(len(groups))],
        "names": [names[placed.get(i, i)] for i in range(len(groups))],
        "settled": sorted(settled),
    }
    push(s, [again])


def _question(s: State, op: Op) -> dict[str, Any] | None:
    """Return the first set of threats still unordered whose orders end differently, with its plan."""
    free = [i for i in range(len(op["groups"])) if i not in op["settled"]]
    for part in _parts(s, op["groups"], free):
        if not 2 <= len(part) <= MAX_PART:
            continue
        plan = _plan(s, [op["groups"][i] for i in part], [op["names"][i] for i in part])
        if len(plan) > 1:
            return {"part": part, "plan": plan}
    return None


def _reach(s: State, op: Op) -> set[str]:
    """Return what an op may touch or be swayed by: rooms, and "glyphs" (any wizard's glyphs).

    A spreading threat reaches its rooms and the rooms beside them (ice two rooms out: it seals doors);
    a creature that moves reaches its room and those beside it; an imp or haunt that wanders reaches only
    its own room (where it lands it does not act again); an imp that robs or drains reaches the glyphs."""
    what = op["op"]
    rooms = list(op.get("rooms") or [op["room"]])
    if what == "spread" and op["what"] == "fire":  # an activated fire activates the fires joined to it
        rooms = joined(s, rooms, "fire")
    steps = {"spread": 2 if op.get("what") == "ice" else 1, "troll_act": 1, "demon_act": 1}.get(what, 0)
    out = set(rooms)
    for _ in range(steps):
        out |= {n for room in list(out) if in_academy(s, room) for n in adjoining(s, room)}
    room = rooms[0]
    holders = any(w["glyphs"] and w["room"] == room for w in s["wizards"])
    if what == "imp_act" and (holders or s["rooms"][room]["source"] is not None):
        out.add("glyphs")
    if what in ("demon_act", "endure_imp", "endure_troll", "endure_demon"):
        out |= {"glyphs", CRYSTAL}  # a slain wizard loses their glyphs and wakes in the crystal
    if what == "imp_act" and room == CRYSTAL:
        out.add("glyphs")  # a slain wizard may wake beside it
    return out


def _parts(s: State, groups: list[list[Op]], free: list[int]) -> list[list[int]]:
    """Return the free groups in sets that may interact (what they touch overlaps), each in the default order.

    Threats that touch nothing in common end alike in any order (the cards they draw are unknown alike)."""
    reach = {i: set().union(*(_reach(s, o) for o in groups[i])) for i in free}
    parts: list[list[int]] = []
    for i in free:
        joined = [p for p in parts if any(reach[i] & reach[j] for j in p)]
        merged = sorted({i, *(j for p in joined for j in p)})
        parts = [p for p in parts if p not in joined] + [merged]
    return sorted(parts)


def _orders(groups: list[list[Op]]) -> list[list[int]]:
    """Return the distinct orders of the groups (identical groups are one), the default order first."""
    kinds: dict[str, int] = {}
    first = [kinds.setdefault(json.dumps(g, sort_keys=True), i) for i, g in enumerate(groups)]
    return [_indices(first, kinds_order) for kinds_order in _arrangements(first)]


def _arrangements(first: list[int]) -> list[list[int]]:
    """Return every distinct arrangement of a multiset of group kinds, the default arrangement first."""
    if not first:
        return [[]]
    out = []
    for kind in dict.fromkeys(first):
        rest = list(first)
        rest.remove(kind)
        out += [[kind, *tail] for tail in _arrangements(rest)]
    return out


def _indices(first: list[int], kinds_order: list[int]) -> list[int]:
    """Return group indices for an arrangement of kinds (identical groups keep their own order)."""
    free = {k: [i for i, f in enumerate(first) if f == k] for k in set(first)}
    return [free[k].pop(0) for k in kinds_order]


def _plan(s: State, groups: list[list[Op]], names: list[str]) -> list[dict[str, Any]]:
    """Return one entry per distinct outcome: its order, what it leads to, and its label."""
    orders = _orders(groups)
    decks = [_stand_in(s, [])]
    runs = [[_outcomes(s, [groups[i] for i in order], decks[0])] for order in orders]
    drawn = max((_drawn(s, c) for run in runs for leaves in run for _, c in leaves), default=0)
    if drawn:  # every order of the first cards drawn: which unknown card a threat gets is no choice
        top = _public_cards(s)[: min(drawn, MAX_TOP)]
        decks = [_stand_in(s, list(p)) for p in itertools.permutations(top)]
        runs = [[_outcomes(s, [groups[i] for i in order], d) for d in decks] for order in orders]
    classes: dict[str, list[Any]] = {}
    for order, run in zip(orders, runs, strict=True):
        if any(not leaves for leaves in run):
            key = f"open {order}"
        else:
            key = json.dumps(sorted(json.dumps(sorted({k for k, _ in leaves})) for leaves in run))
        classes.setdefault(key, [order, run])
    plan = []
    for order, run in classes.values():
        plan.append({"order": order, **_summary(s, run, [names[i] for i in order])})
    _label(plan)
    return plan


# --------------------------------------------------------------------------- working an order out


def _public_cards(s: State) -> list[str]:
    """Return the room cards as the players know them: the deck's cards (known as the discards' complement)
    in a fixed order, then the discards. Never the deck's real order."""
    return sorted(s["room_deck"]) + sorted(s["room_discard"])


def _stand_in(s: State, top: list[str]) -> list[str]:
    """Return a stand-in room deck made of public facts only: ``top`` first, the rest in a fixed order."""
    return top + [c for c in _public_cards(s) if c not in top]


def _drawn(s: State, c: State) -> int:
    return len(c["room_discard"]) - len(s["room_discard"])


def _outcomes(s: State, seq: list[list[Op]], deck: list[str]) -> list[tuple[str, State]]:
    """Return every outcome of running the groups in this order on a stand-in deck, as (key, state) pairs;
    empty when there are too many to follow."""
    c = pickle.loads(pickle.dumps(s, pickle.HIGHEST_PROTOCOL))
    c["queue"] = [o for g in seq for o in pickle.loads(pickle.dumps(g))]
    c["choice"] = None
    c["request"] = None
    c["sim"] = True
    c["out"] = []
    c["room_deck"] = list(deck)  # the real deck's order never enters the copy
    leaves: list[tuple[str, State]] = []
    try:
        _explore(c, leaves)
    except (OverflowError, Hidden):
        return []
    return leaves


def _explore(c: State, leaves: list[tuple[str, State]]) -> None:
    """Run the copy's queue to its end, branching at each choice."""
    while c["queue"] and not c["over"]:
        op = c["queue"].pop(0)
        op["_i"] = 0
        op["_d"] = 0
        try:
            HANDLERS[op["op"]](c, op)
        except Suspend:
            c["queue"].insert(0, op)
            choice = c["choice"]
            for o in choice["options"]:
                branch = pickle.loads(pickle.dumps(c, pickle.HIGHEST_PROTOCOL))
                answer(branch, o["value"])
                _explore(branch, leaves)
            return
    c["queue"] = []
    leaves.append((_key(c), c))
    if len(leaves) > MAX_LEAVES:
        raise OverflowError


def _key(c: State) -> str:
    """Return an outcome as text, leaving out how it was reached (event order, logs, op bookkeeping) and
    which stand-in cards lie where (only the cards drawn count)."""
    out = {k: v for k, v in c.items() if k not in SKIP}
    out["rooms"] = {r: dict(v, portals=sorted(v["portals"])) for r, v in c["rooms"].items()}
    out["wizards"] = [dict(w, glyphs=sorted(w["glyphs"])) for w in c["wizards"]]
    out["room_discard"] = sorted(c["room_discard"])
    return hashlib.sha1(json.dumps(out, sort_keys=True).encode()).hexdigest()


# --------------------------------------------------------------------------- saying what an order does


def _facts(s: State, c: State) -> set[str]:
    """Return what an outcome changed that the players can see, as short phrases."""
    out = set()
    if c["mana"] != s["mana"]:
        out.add(f"mana {s['mana']}→{c['mana']}")
    for i, (w0, w1) in enumerate(zip(s["wizards"], c["wizards"], strict=True)):
        lost = len(w0["glyphs"]) - len(w1["glyphs"])
        if lost > 0:
            out.add(f"{who(s, i)} loses {lost} glyph{'' if lost == 1 else 's'}")
        if w1["room"] != w0["room"]:
            out.add(f"{who(s, i)} to the {room_name(w1['room'])}")
    for room, r1 in c["rooms"].items():
        r0 = s["rooms"][room]
        for kind in ("fire", "water", "ice", "darkness", "haunt", "imp", "troll", "demon"):
            if r1[kind] < r0[kind]:
                out.add(f"{kind} in the {room_name(room)} {'gone' if not r1[kind] else 'less'}")
            elif r1[kind] > r0[kind]:
                out.add(f"{kind} to the {room_name(room)}")
    n = _drawn(s, c)
    if n:
        out.add("a room card drawn" if n == 1 else f"{n} room cards drawn")
    if c["over"]:
        out.add("the academy falls" if not c["won"] else "the academy is saved")
    return out


def _summary(s: State, run: list[list[tuple[str, State]]], names: list[str]) -> dict[str, Any]:
    """Return what an order leads to: phrases sure in every outcome, the ways its choices can end it, and
    worst-case numbers. A phrase that depends on which stand-in card was drawn (where a fire spreads) is
    left out: only what holds whatever the cards are is said."""
    if not all(run):
        return {"names": names, "sure": [], "maybe": [], "mana": 0, "glyphs": 0, "draws": False, "open": True}
    per_deck = [[_facts(s, c) for _, c in leaves] for leaves in run]
    steady = set.intersection(*(set.union(*facts) for facts in per_deck))
    facts = [f & steady for deck in per_deck for f in deck]
    sure = set.intersection(*facts)
    ways = sorted({tuple(sorted(f - sure)) for f in facts})
    leaves = [leaf for deck in run for leaf in deck]
    return {
        "names": names,
        "sure": sorted(sure),
        "maybe": [list(w) for w in ways] if len(ways) > 1 else [],
        "mana": min(c["mana"] for _, c in leaves),
        "glyphs": min(sum(len(w["glyphs"]) for w in c["wizards"]) for _, c in leaves),
        "draws": any(_drawn(s, c) for _, c in leaves),
    }


def _label(plan: list[dict[str, Any]]) -> None:
    """Label each option by its order and what sets its outcome apart from the others'.

    ``maybe`` lists the ways the choices inside an order can still end it (one list of phrases each)."""
    common = set.intersection(*(set(p["sure"]) for p in plan))
    for p in plan:
        head = ", then ".join(p["names"])
        parts = [f for f in p["sure"] if f not in common]
        ways = [" and ".join(w) or "nothing more" for w in p["maybe"]]
        if len(ways) > 3:
            ways = [*ways[:3], "..."]
        if ways:
            parts.append(("then " if parts else "") + "either " + " or ".join(ways))
        if p.get("open"):
            parts = ["too many outcomes to work out"]
        p["label"] = head[0].upper() + head[1:] + (f": {'; '.join(parts)}" if parts else "")
