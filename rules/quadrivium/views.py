"""What each seat may know: the public table, plus the seat's own hand and face-down cards.

A hand is only in its owner's view; a Trick card, a tie-break card or a duel card is shown as
"placed" until it is revealed. ``scramble_state`` redeals every card a seat cannot see (the deck,
the other hands, the others' face-down cards), so the conformance suite can prove no view leaks them.
"""

from __future__ import annotations

import copy
from typing import Any

from rules.quadrivium.cards import show
from rules.quadrivium.ranks import leader, total
from rules.quadrivium.state import SEASONS, TRAITS, State


def _trick_view(s: State) -> dict[str, Any] | None:
    c = s["conflict"]
    t = c["trick"]
    if not t:
        return None
    sides = []
    for i, side in enumerate(t["cards"]):
        sides.append({
            "seat": side["mage"],
            "placed": side["card"] is not None,
            "card": side["card"] if t["revealed"] else None,
            "aids": list(side["aids"]),
            "adds": list(side["adds"]),
            "minus": side["minus"],
            "magic": side["magic"],
            "total": total(s, i) if t["revealed"] and side["card"] else None,
        })
    sub = copy.deepcopy(t["sub"])
    lead = leader(s) if t["revealed"] and all(x["card"] for x in t["cards"]) else None
    return {"sides": sides, "turn": t["turn"], "revealed": t["revealed"], "aid_queue": list(t["aid_queue"]),
            "magic_done": list(t["magic_done"]), "no_claim": list(t["no_claim"]), "sub": sub,
            "spoils": list(t["spoils"]), "lead": lead}


def _conflict_view(s: State) -> dict[str, Any] | None:
    c = s["conflict"]
    if not c:
        return None
    keep = ("sides", "intent", "stage", "types", "cond", "answerer", "revisions", "target", "wins", "tricks",
            "aiders", "winner", "refill", "block", "resistance")
    out = {k: copy.deepcopy(c[k]) for k in keep}
    out["pile"] = len(c["pile"])
    out["trick"] = _trick_view(s)
    return out


def _council_view(s: State) -> dict[str, Any] | None:
    k = s["council"]
    if not k:
        return None
    out = {key: copy.deepcopy(v) for key, v in k.items() if key != "duel"}
    d = k["duel"]
    out["duel"] = None if not d else {"a": d["a"], "b": d["b"], "res": d["res"], "mode": d["mode"],
                                      "placed": [x is not None for x in d["cards"]]}
    return out


def _scene_view(s: State) -> dict[str, Any] | None:
    sc = s["scene"]
    if not sc:
        return None
    return {"pro": sc["pro"], "stage": sc["stage"], "intent": sc["intent"], "answers": list(sc["answers"]),
            "tied": list(sc["tied"]), "shown": [x is not None for x in sc["shown"]]}


def public_view(s: State) -> dict[str, Any]:
    """Return what everyone may know."""
    seats = []
    for seat, me in enumerate(s["mages"]):
        seats.append({
            "seat": seat, "name": me["name"], "desc": me["desc"], "votes": s["votes"][seat],
            "hand": len(s["hands"][seat]), "traits": copy.deepcopy(me["traits"]), "magic": dict(me["magic"]),
            "taint": dict(me["taint"]), "corruption": dict(me["corruption"]),
            "companions": copy.deepcopy(me["companions"]), "items": copy.deepcopy(me["items"]),
            "assets": copy.deepcopy(me["assets"]), "shares": dict(me["shares"]), "made": me["made"],
        })
    return {
        "game": "quadrivium",
        "phase": s["phase"],
        "year": s["year"],
        "season": SEASONS[s["season"]],
        "covenant": copy.deepcopy(s["covenant"]),
        "seats": seats,
        "deck": len(s["deck"]),
        "discard": len(s["discard"]),
        "protagonist": s["protagonist"],
        "last_antagonist": s["last_antagonist"],
        "scenes": s["scenes"],
        "conflicts": s["conflicts"],
        "scene": _scene_view(s),
        "conflict": _conflict_view(s),
        "council": _council_view(s),
        "ended": s["ended"],
        "news": copy.deepcopy(s["news"]),
        "gone": list(s["gone"]),
        "you": None,
        "hand": [],
        "placed": None,
    }


def own_hidden(s: State, seat: int) -> str | None:
    """Return the seat's own face-down card (a Trick, tie-break or duel card), if any."""
    c = s["conflict"]
    if c and c["trick"] and not c["trick"]["revealed"]:
        for side in c["trick"]["cards"]:
            if side["mage"] == seat and side["card"]:
                return side["card"]
    sc = s["scene"]
    if sc and sc["stage"] == "tiebreak" and sc["shown"][seat]:
        return sc["shown"][seat]
    k = s["council"]
    if k and k["duel"]:
        d = k["duel"]
        for n, x in enumerate((d["a"], d["b"])):
            if x == seat and d["cards"][n]:
                return d["cards"][n]
    return None


def seat_view(s: State, seat: int) -> dict[str, Any]:
    """Return the public view plus the seat's own hand and face-down card."""
    out = public_view(s)
    out["you"] = seat
    out["hand"] = list(s["hands"][seat])
    out["placed"] = own_hidden(s, seat)
    return out


def _hidden_slots(s: State, seat: int | None) -> list[tuple[Any, Any]]:
    """Return (container, key) of every card ``seat`` cannot see, besides the deck and hands."""
    slots: list[tuple[Any, Any]] = []
    c = s["conflict"]
    if c and c["trick"] and not c["trick"]["revealed"]:
        for side in c["trick"]["cards"]:
            if side["card"] and side["mage"] != seat:
                slots.append((side, "card"))
    sc = s["scene"]
    if sc and sc["stage"] == "tiebreak":
        for t in sc["tied"]:
            if sc["shown"][t] and t != seat:
                slots.append((sc["shown"], t))
    k = s["council"]
    if k and k["duel"]:
        d = k["duel"]
        for n, x in enumerate((d["a"], d["b"])):
            if d["cards"][n] and x != seat:
                slots.append((d["cards"], n))
    return slots


def scramble_state(state: State, seat: int | None, rand: Any) -> State:
    """Return a copy with the deck, the other hands and the others' face-down cards redealt."""
    s = copy.deepcopy(state)
    others = [x for x in range(s["players"]) if x != seat]
    slots = _hidden_slots(s, seat)
    pool = list(s["deck"]) + [x for o in others for x in s["hands"][o]] + [box[key] for box, key in slots]
    # A canonical order first, so a redeal depends only on what the seat knows (bots sample with it).
    pool.sort()
    rand.shuffle(pool)
    n = len(s["deck"])
    s["deck"], pool = pool[:n], pool[n:]
    for o in others:
        n = len(s["hands"][o])
        s["hands"][o], pool = pool[:n], pool[n:]
    for box, key in slots:
        box[key] = pool.pop()
    return s


def view_text(view: dict[str, Any]) -> str:
    """Return a short text board: covenant, mages, and what is happening."""
    cov = view["covenant"]
    lines = [f"**{cov['name'] or 'The covenant'}** · {view['season']} of year {view['year']}"]
    res = ", ".join(f"{r.title()} {x['value'] - x['spent'] - x['harm']}/{x['value']}"
                    + (f" (Harm {x['harm']})" if x["harm"] else "") for r, x in cov["res"].items())
    lines.append(res)
    for p in view["seats"]:
        traits = " ".join(f"{t[:3].title()} {p['traits'][t]['value']}" for t in TRAITS)
        extra = []
        if any(p["taint"].values()):
            extra.append(f"Taint {sum(p['taint'].values())}")
        if any(p["corruption"].values()):
            extra.append(f"Corruption {sum(p['corruption'].values())}")
        lines.append(f"{p['name'] or 'seat ' + str(p['seat'])}: {traits} · {p['votes']} CV · "
                     f"{p['hand']} cards"
                     + (" · " + ", ".join(extra) if extra else ""))
    c = view["conflict"]
    if c and c["trick"]:
        t = c["trick"]
        sides = []
        for side in t["sides"]:
            sides.append(show(side["card"]) if side["card"] else ("face down" if side["placed"] else "—"))
        lines.append(f"Trick {c['tricks']}: {sides[0]} vs {sides[1]} · tricks {c['wins'][0]}-{c['wins'][1]} "
                     f"of {c['target']}")
    if view["hand"]:
        lines.append("Your hand: " + " ".join(show(x) for x in view["hand"]))
    return "\n".join(lines)
