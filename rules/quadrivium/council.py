"""Council meetings (rulebook, "The joy and pain of council meetings"), in the written order.

Covenant Repair (from the last Antagonist, clockwise; 3 votes a point, or a collection that
restores a point once it holds as many votes as players), Bidding for Resources (the first by a
drawn card's suit, then clockwise, Essences last; first pick to the highest bid, then Take or pass
in turn with raised costs and extra points), Companion support, Mage Actions (with the duel) and
the years that pass. A council held in winter is the Winter Council and opens with the Corruption
draw. Each step starts with whoever acted last in the step before. What the posts leave open is
ours (data/quadrivium/defaults.json, docs/rulings.md).
"""

from __future__ import annotations

from collections.abc import Callable

from rules.contract import Move, PromptKind
from rules.quadrivium.cards import is_face, is_joker, show, suit
from rules.quadrivium.common import Ask, Events, plural, power
from rules.quadrivium.state import (
    COVENANT,
    RES_OF_SUIT,
    RES_SUIT,
    SEASONS,
    SUIT_OF,
    TRAIT_OF,
    TRAITS,
    State,
    clockwise,
    defaults,
    discard,
    draw,
    event,
    harm,
    mage,
    mage_name,
    opts,
    refresh,
    repair,
    res,
    usable,
    use,
)

REPAIR_COST = 3
"""Council Votes per point of Harm repaired alone (rulebook)."""


def open_council(s: State, ev: Events) -> None:
    """Open a council in the current season (the Winter Council in winter)."""
    s["phase"] = "council"
    first = s["last_antagonist"] if s["last_antagonist"] is not None else s["protagonist"]
    winter = s["season"] == 3
    s["council"] = {"step": "repair", "order": clockwise(s, first), "pos": 0, "last": first,
                    "collections": {}, "collected": False, "resources": [], "ri": 0, "bid": None,
                    "take": None, "duel": None, "votes": [None] * s["players"], "winter": winter}
    name = "Winter Council" if winter else "Council"
    ev.append(event(f"The {name} of {SEASONS[s['season']]}, year {s['year']}, convenes.", "council",
                    season=s["season"], year=s["year"]))
    if winter:
        winter_draw(s, ev)


def winter_draw(s: State, ev: Events) -> None:
    """Each Tainted mage draws a card per Taint point, stopping at a face card: one Corruption."""
    for seat in range(s["players"]):
        me = mage(s, seat)
        taint = sum(me["taint"].values())
        if taint <= 0:
            continue
        drawn: list[str] = []
        corrupted = None
        for _ in range(taint):
            got = draw(s, 1)
            if not got:
                break
            drawn += got
            if is_face(got[0]):
                corrupted = TRAIT_OF[suit(got[0])]
                break
        discard(s, drawn)
        me["taint"] = {t: 0 for t in TRAITS}
        cards = ", ".join(show(x) for x in drawn) or "no cards"
        if corrupted:
            me["corruption"][corrupted] += 1
            ev.append(event(f"Winter: {me['name']} draws {cards} and is Corrupted in {corrupted.title()} "
                            f"(now -{me['corruption'][corrupted]} on {corrupted.title()} cards). "
                            "Taint clears.",
                            "corruption", seat=seat, trait=corrupted, cards=drawn))
        else:
            ev.append(event(f"Winter: {me['name']} draws {cards}, no face card: the Taint "
                            f"clears.", "corruption",
                            seat=seat, cards=drawn))


# --------------------------------------------------------------------------- asks and moves


def council_asks(s: State) -> list[Ask]:
    """Return the council's open decisions (a duel's cards first)."""
    k = s["council"]
    if k["duel"]:
        d = k["duel"]
        return [Ask(x, "duel_card", PromptKind.SECRET, "Duel: place a card face down.")
                for n, x in enumerate((d["a"], d["b"])) if d["cards"][n] is None]
    return COUNCIL_ASKS[k["step"]](s)


def _ask_repair(s: State) -> list[Ask]:
    k = s["council"]
    return [Ask(k["order"][k["pos"]], "repair", PromptKind.TURN, "Repair the covenant, or pass.")]


def _ask_bid(s: State) -> list[Ask]:
    k = s["council"]
    res_name = k["resources"][k["ri"]]
    return [Ask(k["bid"]["turn"], "bid", PromptKind.TURN, f"Bid for first pick of "
                f"{res_name.title()}, or pass.")]


def _ask_take(s: State) -> list[Ask]:
    k = s["council"]
    res_name = k["resources"][k["ri"]]
    return [Ask(k["take"]["turn"], "take", PromptKind.TURN, f"Take from {res_name.title()}, or pass.")]


def _ask_action(s: State) -> list[Ask]:
    k = s["council"]
    return [Ask(k["order"][k["pos"]], "mage_action", PromptKind.TURN, "Choose a Mage Action.")]


def _ask_seasons(s: State) -> list[Ask]:
    k = s["council"]
    return [Ask(x, "seasons", PromptKind.DECISION, "Vote how many seasons pass.")
            for x in range(s["players"]) if k["votes"][x] is None]


def council_moves(s: State, seat: int, decision: str) -> list[Move]:
    """Return the moves of a council decision."""
    return COUNCIL_MOVES[decision](s, seat)


def _duel_card_moves(s: State, seat: int) -> list[Move]:
    return [Move.of("duel_card", card=x) for x in s["hands"][seat]] or [Move.of("duel_card")]


def _repair_moves(s: State, seat: int) -> list[Move]:
    k = s["council"]
    cov = s["covenant"]["res"]
    harmed = [r for r in COVENANT if cov[r]["harm"] > 0]
    cv = s["votes"][seat]
    out = [Move.of("repair", res=r) for r in harmed if cv >= REPAIR_COST]
    if not k["collected"]:
        for r in harmed:
            need = s["players"] - k["collections"].get(r, 0)
            out += [Move.of("collect", res=r, n=n) for n in range(1, min(2, need, cv) + 1)]
    return [*out, Move.of("done")]


SIT_OUT = Move.of("sit_out")
"""Pass for the rest of this bidding: every later bid and taking turn of the council's Bidding for
Resources is passed for the seat (a house ruling; kept in the council as ``sat_out``)."""


def _bid_moves(s: State, seat: int) -> list[Move]:
    # "any number of Council Votes (up to their maximum)", higher than any prior bid (line 33).
    # A seat that cannot outbid is never asked (``_next_bidder`` passes it), so a bid is offered.
    high = s["council"]["bid"]["high"]
    return [Move.of("bid", n=n) for n in range(high + 1, s["votes"][seat] + 1)] + [Move.of("pass"), SIT_OUT]


def take_cost(cost: int, n: int) -> int:
    """Return the votes to Take n points at a raised cost: n x cost, plus 1, 2, ... for extra points."""
    return n * cost + n * (n - 1) // 2


def capacity(r: dict) -> int:
    """Return how many Takes a resource can bear before it is gone (uses, Harm, then destruction)."""
    probe = dict(r)
    n = 0
    while usable(probe):
        use(probe)
        n += 1
    return n


def _take_moves(s: State, seat: int) -> list[Move]:
    """Return a taking turn: one main action (pass, or take a point) and at most one supplementary.

    Lines 35-47: the main action is to pass or to Take a single point; "in addition to the one of the
    actions above", one of the supplementary actions: a blocking duel (after passing), raising the
    cost by one or more votes, or further points at a cumulative cost. So one point may come with a
    raise, several points never do; no amount is capped but by the votes held and the resource.
    """
    k = s["council"]
    t = k["take"]
    cv = s["votes"][seat]
    res_name = k["resources"][k["ri"]]
    out = []
    room = capacity(s["covenant"]["res"][res_name])
    if not t["passed"][seat] and room:
        # Line 39: a point is taken "if any remain", or Harmed "if none remain"; a resource whose
        # every point is destroyed (line 75) has neither, so there is nothing to take but a pass.
        one = take_cost(t["cost"], 1)
        out += [Move.of("take", n=1, raise_by=r) for r in range(cv - one + 1)]
        out += [Move.of("take", n=n, raise_by=0) for n in range(2, room + 1) if take_cost(t["cost"], n) <= cv]
    out += [Move.of("pass", raise_by=r) for r in range(cv + 1)]
    if t["passed"][seat]:
        out += [Move.of("duel", target=x) for x in t["takers"] if x != seat and (seat, x) not in
                [tuple(p) for p in t["duels"]] and mage(s, x)["shares"][res_name] > 0]
    return [*out, SIT_OUT]


def improve_targets(s: State, seat: int) -> list[tuple[str, int]]:
    """Return what a mage may improve now and its cost (new value x 2, designed default)."""
    me = mage(s, seat)
    out = [(f"trait:{t}", 2 * (me["traits"][t]["value"] + 1)) for t in TRAITS]
    out += [(f"cov:{r}", 2 * (s["covenant"]["res"][r]["value"] + 1)) for r in COVENANT]
    out += [(f"companion:{i}", 2 * (x["value"] + 1)) for i, x in enumerate(me["companions"])]
    out += [(f"item:{i}", 2 * (x["value"] + 1)) for i, x in enumerate(me["items"])]
    return out


def _heal_targets(s: State, seat: int) -> list[str]:
    me = mage(s, seat)
    shares = me["shares"]
    out = []
    for t in TRAITS:
        if shares[RES_OF_SUIT[SUIT_OF[t]]] <= 0:
            continue
        if me["traits"][t]["harm"] > 0:
            out.append(f"trait:{t}")
        out += [f"{kind}:{i}" for kind in ("companion", "item") for i, x in enumerate(me[f"{kind}s"])
                if x["trait"] == t and x["harm"] > 0]
    return out


def _action_moves(s: State, seat: int) -> list[Move]:
    me = mage(s, seat)
    cv = s["votes"][seat]
    out = [Move.of("rest")]
    out += [Move.of("improve", what=w) for w, cost in improve_targets(s, seat) if cost <= cv]
    if cv >= 2:
        out += [Move.of("acquire", kind=kind, trait=t) for kind in ("companion", "item") for t in TRAITS]
    asset_cost = defaults()["improve_cost"]["asset"]
    if cv >= asset_cost:
        out += [Move.of("acquire", kind="asset", trait=t) for t in TRAITS if t not in me["assets"]]
    out += [Move.of("heal", what=w) for w in _heal_targets(s, seat)]
    out += [Move.of("duel", target=x, res=r) for x in range(s["players"]) if x != seat
            for r in COVENANT if mage(s, x)["shares"][r] > 0]
    return out


def season_choices(s: State) -> list[int]:
    """Return how many seasons may pass: up to the next winter, so no Winter Council is skipped."""
    return list(range(1, 5)) if s["season"] == 3 else list(range(1, 4 - s["season"]))


def _season_moves(s: State, seat: int) -> list[Move]:
    out = [Move.of("seasons", n=n) for n in season_choices(s)]
    if s["options"]["ending"] == "either":
        out += [Move.of("seasons", n=n, end=True) for n in season_choices(s)]
    return out


# --------------------------------------------------------------------------- resolving


def council_resolve(s: State, seat: int, move: Move, ev: Events) -> None:
    """Apply a council move."""
    k = s["council"]
    k["last"] = seat
    if k["duel"]:
        _duel_card(s, seat, move, ev)
        return
    COUNCIL_STEPS[k["step"]](s, seat, move, ev)


def _repair(s: State, seat: int, move: Move, ev: Events) -> None:
    k = s["council"]
    name = mage_name(s, seat)
    cov = s["covenant"]["res"]
    if move.action == "repair":
        s["votes"][seat] -= REPAIR_COST
        repair(cov[move.get("res")])
        ev.append(event(f"{name} spends {REPAIR_COST} Council Votes to repair a point of "
                        f"{move.get('res').title()}.",
                        "repair", seat=seat, res=move.get("res")))
        return
    if move.action == "collect":
        r, n = move.get("res"), move.get("n")
        s["votes"][seat] -= n
        k["collected"] = True
        k["collections"][r] = k["collections"].get(r, 0) + n
        ev.append(event(f"{name} puts {plural(n, 'Council Vote')} toward repairing {r.title()} "
                        f"({k['collections'][r]} of {s['players']}).", "collect", seat=seat, res=r, n=n))
        if k["collections"][r] >= s["players"]:
            repair(cov[r])
            del k["collections"][r]
            ev.append(event(f"The collection repairs a point of {r.title()}.", "repair", res=r))
        return
    k["pos"] += 1
    k["collected"] = False
    if k["pos"] < len(k["order"]):
        return
    for r, n in sorted(k["collections"].items()):
        ev.append(event(f"The collection for {r.title()} falls short ({n} of {s['players']}): "
                        "its votes are lost.", "collect", res=r))
    k["collections"] = {}
    _open_bidding(s, ev)


def _open_bidding(s: State, ev: Events) -> None:
    k = s["council"]
    card = None
    drawn = []
    while card is None:
        got = draw(s, 1)
        if not got:
            break
        drawn += got
        if not is_joker(got[0]):
            card = got[0]
    discard(s, drawn)
    start = RES_OF_SUIT[suit(card)] if card else "servants"
    order = list(RES_SUIT)
    i = order.index(start)
    k["resources"] = order[i:] + order[:i] + ["essences"]
    k["step"] = "bid"
    k["ri"] = 0
    shown = ", ".join(show(x) for x in drawn) or "no card"
    ev.append(event(f"Bidding: the drawn card ({shown}) opens with {start.title()}; "
                    "then clockwise, Essences last.", "bidding", order=k["resources"]))
    _open_resource(s, ev)


def _open_resource(s: State, ev: Events) -> None:
    k = s["council"]
    acting = k["last"]
    k["step"] = "bid"
    k["bid"] = {"acting": acting, "active": clockwise(s, acting), "high": 0, "leader": None, "turn": acting}
    k["take"] = None
    _next_bidder(s, clockwise(s, acting), ev)


def sat_out(k: dict) -> list[int]:
    """Return the seats passing for the rest of this bidding (none in a council saved before it)."""
    return k.setdefault("sat_out", [])


def _bid(s: State, seat: int, move: Move, ev: Events) -> None:
    k = s["council"]
    b = k["bid"]
    res_name = k["resources"][k["ri"]]
    if move.action == "bid":
        b["high"], b["leader"] = move.get("n"), seat
        ev.append(event(f"{mage_name(s, seat)} bids {move.get('n')} for first pick of "
                        f"{res_name.title()}.", "bid",
                        seat=seat, n=move.get("n")))
    else:
        _sit_out(s, seat, move, ev)
        _pass_bid(s, seat, "", ev)
    _next_bidder(s, clockwise(s, seat)[1:], ev)


def _sit_out(s: State, seat: int, move: Move, ev: Events) -> None:
    """Record a seat that passes for the rest of this bidding, and say so."""
    if move.action == "sit_out" and seat not in sat_out(s["council"]):
        sat_out(s["council"]).append(seat)
        ev.append(event(f"{mage_name(s, seat)} passes for the rest of this bidding.", "sit_out", seat=seat))


def _pass_bid(s: State, seat: int, why: str, ev: Events) -> None:
    b = s["council"]["bid"]
    res_name = s["council"]["resources"][s["council"]["ri"]]
    b["active"].remove(seat)
    ev.append(event(f"{mage_name(s, seat)} {why}passes on {res_name.title()}.", "bid", seat=seat))


def _next_bidder(s: State, ring: list[int], ev: Events) -> None:
    """Give the turn to the next bidder in ``ring`` who may outbid; the game passes the others.

    Line 33: a bid must be higher than any prior bid, so a seat whose Council Votes cannot top the
    high bid has only "pass" (no question asked); a seat passing for the rest of this bidding passes.
    Once one bidder is left, it wins the first pick.
    """
    k = s["council"]
    b = k["bid"]
    for seat in ring * 2:
        others = [x for x in b["active"] if x != b["leader"]]
        if not others:
            break
        if seat not in others:
            continue
        if seat in sat_out(k):
            k["last"] = seat
            _pass_bid(s, seat, "", ev)
        elif s["votes"][seat] <= b["high"]:
            k["last"] = seat
            why = f"cannot outbid {b['high']} and " if b["high"] else "has no Council Votes and "
            _pass_bid(s, seat, why, ev)
        else:
            b["turn"] = seat
            return
    _win_bidding(s, ev)


def _win_bidding(s: State, ev: Events) -> None:
    k = s["council"]
    b = k["bid"]
    res_name = k["resources"][k["ri"]]
    winner = b["leader"] if b["leader"] is not None else b["acting"]
    if b["leader"] is not None:
        s["votes"][winner] -= b["high"]
    ev.append(event(f"{mage_name(s, winner)} has first pick of {res_name.title()}"
                    + (f" for {plural(b['high'], 'Council Vote')}." if b["leader"] is not None else "."),
                    "bid_won", seat=winner, res=res_name))
    k["step"] = "take"
    k["take"] = {"turn": winner, "passed": [False] * s["players"], "cost": 0, "takers": [], "duels": []}
    _settle_take(s, ev)


def _take(s: State, seat: int, move: Move, ev: Events) -> None:
    k = s["council"]
    t = k["take"]
    res_name = k["resources"][k["ri"]]
    name = mage_name(s, seat)
    if move.action == "duel":
        _open_duel(s, seat, move.get("target"), res_name, "block", ev)
        t["duels"].append([seat, move.get("target")])
        return
    if move.action == "take":
        n = move.get("n")
        cost = take_cost(t["cost"], n)
        s["votes"][seat] -= cost
        hows = [use(s["covenant"]["res"][res_name]) for _ in range(n)]
        mage(s, seat)["shares"][res_name] += n
        if seat not in t["takers"]:
            t["takers"].append(seat)
        ev.append(event(f"{name} takes {plural(n, 'point')} of {res_name.title()} ({', '.join(hows)})"
                        + (f" for {plural(cost, 'Council Vote')}" if cost else "") + ".", "take", seat=seat,
                        res=res_name, n=n, how=hows))
    else:
        _sit_out(s, seat, move, ev)
        _pass_take(s, seat, ev)
    raise_by = move.get("raise_by") or 0
    if raise_by:
        s["votes"][seat] -= raise_by
        t["cost"] += raise_by
        ev.append(event(f"{name} raises the cost of taking {res_name.title()} to {t['cost']}.", "raise",
                        seat=seat, cost=t["cost"]))
    _next_taker(s, ev)


def _pass_take(s: State, seat: int, ev: Events) -> None:
    t = s["council"]["take"]
    if not t["passed"][seat]:
        res_name = s["council"]["resources"][s["council"]["ri"]]
        ev.append(event(f"{mage_name(s, seat)} passes on {res_name.title()}.", "take", seat=seat))
    t["passed"][seat] = True


def _next_taker(s: State, ev: Events) -> None:
    t = s["council"]["take"]
    if not all(t["passed"]):
        t["turn"] = (t["turn"] + 1) % s["players"]
    _settle_take(s, ev)


def _settle_take(s: State, ev: Events) -> None:
    """Pass the taking turns of seats passing for the rest of this bidding; close the resource once
    every seat has passed (line 49), opening the next one or ending the bidding."""
    k = s["council"]
    t = k["take"]
    while not all(t["passed"]) and t["turn"] in sat_out(k):
        k["last"] = t["turn"]
        _pass_take(s, t["turn"], ev)
        if not all(t["passed"]):
            t["turn"] = (t["turn"] + 1) % s["players"]
    if not all(t["passed"]):
        return
    ev.append(event(f"{k['resources'][k['ri']].title()} is closed.", "closed"))
    k["ri"] += 1
    if k["ri"] < len(k["resources"]):
        _open_resource(s, ev)
    else:
        k["sat_out"] = []  # honoured until the bidding ends
        _upkeep(s, ev)


def _upkeep(s: State, ev: Events) -> None:
    """Companions need Wealth (Coffers shares) equal to their uses; a shortfall Harms the Companion."""
    k = s["council"]
    for seat in clockwise(s, k["last"]):
        me = mage(s, seat)
        for comp in me["companions"]:
            need = comp["value"]
            paid = min(need, me["shares"]["coffers"])
            me["shares"]["coffers"] -= paid
            short = need - paid
            for _ in range(short):
                harm(comp)
            if need:
                ev.append(event(f"{me['name']} supports a {comp['trait'].title()} Companion with {paid} "
                                f"of {need} "
                                "Wealth" + (f": it takes {short} "
                                            f"Harm." if short else "."), "upkeep", seat=seat,
                                paid=paid, short=short))
    k["step"] = "actions"
    k["order"] = clockwise(s, k["last"])
    k["pos"] = 0


def _action(s: State, seat: int, move: Move, ev: Events) -> None:
    s["council"]
    me = mage(s, seat)
    name = mage_name(s, seat)
    a = move.action
    if a == "improve":
        what = move.get("what")
        cost = dict(improve_targets(s, seat))[what]
        s["votes"][seat] -= cost
        kind, key = what.split(":")
        target = (me["traits"][key] if kind == "trait" else s["covenant"]["res"][key] if kind == "cov"
                  else me[f"{kind}s"][int(key)])
        target["value"] += 1
        ev.append(event(f"{name} spends {plural(cost, 'Council Vote')} to raise {_label(s, seat, what)} to "
                        f"{target['value']}.", "improve", seat=seat, what=what))
    elif a == "acquire":
        kind, trait = move.get("kind"), move.get("trait")
        if kind == "asset":
            s["votes"][seat] -= defaults()["improve_cost"]["asset"]
            me["assets"][trait] = res(1)
        else:
            s["votes"][seat] -= 2
            me[f"{kind}s"].append({"trait": trait, **res(1)})
        ev.append(event(f"{name} gains a {trait.title()} {kind.title()}.", "acquire", seat=seat))
    elif a == "heal":
        what = move.get("what")
        kind, key = what.split(":")
        target = me["traits"][key] if kind == "trait" else me[f"{kind}s"][int(key)]
        share = RES_OF_SUIT[SUIT_OF[key if kind == "trait" else target["trait"]]]
        n = min(me["shares"][share], target["harm"])
        me["shares"][share] -= n
        target["harm"] -= n
        ev.append(event(f"{name} spends {plural(n, 'share')} of {share.title()} to heal "
                        f"{_label(s, seat, what)}.",
                        "heal", seat=seat, what=what, n=n))
    elif a == "duel":
        _open_duel(s, seat, move.get("target"), move.get("res"), "resource", ev)
        return
    else:
        ev.append(event(f"{name} rests.", "rest", seat=seat))
    _next_actor(s, ev)


def _label(s: State, seat: int, what: str) -> str:
    kind, key = what.split(":")
    if kind in ("trait", "cov"):
        return key.title()
    return f"the {mage(s, seat)[f'{kind}s'][int(key)]['trait'].title()} {kind.title()}"


def _next_actor(s: State, ev: Events) -> None:
    k = s["council"]
    k["pos"] += 1
    if k["pos"] >= len(k["order"]):
        k["step"] = "years"
        ev.append(event("How many seasons pass before the next council? Everyone votes.", "years"))


def _open_duel(s: State, a: int, b: int, res_name: str, mode: str, ev: Events) -> None:
    s["council"]["duel"] = {"a": a, "b": b, "res": res_name, "mode": mode, "cards": [None, None]}
    ev.append(event(f"{mage_name(s, a)} challenges {mage_name(s, b)} to a duel over "
                    f"{res_name.title()}.", "duel",
                    a=a, b=b, res=res_name))


def _duel_card(s: State, seat: int, move: Move, ev: Events) -> None:
    k = s["council"]
    d = k["duel"]
    n = 0 if seat == d["a"] else 1
    card = move.get("card")
    if card is not None:
        s["hands"][seat].remove(card)
    d["cards"][n] = card or ""
    if None in d["cards"]:
        return
    winner = duel_winner(s, d)
    loser = d["b"] if winner == d["a"] else d["a"]
    res_name = d["res"]
    shown = " against ".join(show(x) if x else "no card" for x in d["cards"])
    ev.append(event(f"Duel: {shown}. {mage_name(s, winner)} wins.", "duel_won", winner=winner,
                    cards=list(d["cards"])))
    if winner == d["a"] and mage(s, loser)["shares"][res_name] > 0:
        mage(s, loser)["shares"][res_name] -= 1
        if d["mode"] == "resource":
            mage(s, winner)["shares"][res_name] += 1
            ev.append(event(f"{mage_name(s, winner)} wins a share of {res_name.title()} from "
                            f"{mage_name(s, loser)}.", "duel"))
        else:
            r = s["covenant"]["res"][res_name]
            if r["spent"] > 0:
                r["spent"] -= 1
            elif r["harm"] > 0:
                r["harm"] -= 1
            ev.append(event(f"The duel blocks it: a point of {res_name.title()} goes back to the covenant.",
                            "duel"))
    # Replacements come before the duel cards reach the discards, so no one redraws a card just shown.
    for x, c in zip((d["a"], d["b"]), d["cards"], strict=True):
        if c:
            s["hands"][x] += draw(s, 1)
    discard(s, [x for x in d["cards"] if x])
    k["duel"] = None
    if d["mode"] == "block":
        _next_taker(s, ev)
    else:
        _next_actor(s, ev)


def duel_winner(s: State, d: dict) -> int:
    """Return the duel's winner: rank less Corruption, then the suit tie-break; the challenged wins ties."""
    def score(seat: int, card: str) -> tuple[int, int]:
        if not card:
            return (-99, -1)
        base = power(s, card)
        st = suit(card)
        corr = mage(s, seat)["corruption"][TRAIT_OF[st]] if st else 0
        return base[0] - corr, base[1]

    return d["a"] if score(d["a"], d["cards"][0]) > score(d["b"], d["cards"][1]) else d["b"]


def _years(s: State, seat: int, move: Move, ev: Events) -> None:
    k = s["council"]
    k["votes"][seat] = [move.get("n"), bool(move.get("end"))]
    if any(v is None for v in k["votes"]):
        return
    counts: dict[int, int] = {}
    for n, _ in k["votes"]:
        counts[n] = counts.get(n, 0) + 1
    top = max(counts.values())
    tied = sorted(n for n, c in counts.items() if c == top)
    chosen = tied[0]
    last = s["last_antagonist"]
    if len(tied) > 1 and last is not None and k["votes"][last][0] in tied:
        chosen = k["votes"][last][0]
    enders = sum(1 for _, e in k["votes"] if e)
    was_winter = k["winter"]
    present = s["players"] - len(s["gone"])
    if enders * 2 > present:
        finish(s, f"the table voted to end the tale ({enders} of {present})", ev)
        return
    if was_winter and s["year"] >= opts(s, "years"):
        finish(s, f"the Winter Council of year {s['year']} closes the tale", ev)
        return
    _close_council(s)
    s["season"] += chosen
    while s["season"] >= 4:
        s["season"] -= 4
        s["year"] += 1
    ev.append(event(f"{plural(chosen, 'season')} pass. It is {SEASONS[s['season']]} of year {s['year']}.",
                    "years", n=chosen, season=s["season"], year=s["year"]))
    s["since_council"] = 0
    # The council is closed: the engine's step table opens the next scene (council.py sits below scene.py).


def _close_council(s: State) -> None:
    """Refresh every expended point; shares lapse, except Essences kept as vis (designed default)."""
    for me in s["mages"]:
        for r in me["traits"].values():
            refresh(r)
        for x in me["companions"] + me["items"] + list(me["assets"].values()):
            refresh(x)
        me["shares"] = {r: (me["shares"][r] if r == "essences" else 0) for r in COVENANT}
    for r in s["covenant"]["res"].values():
        refresh(r)
    s["council"] = None


def finish(s: State, reason: str, ev: Events) -> None:
    """End the tale (closing any council)."""
    if s["council"]:
        _close_council(s)
    s["phase"] = "over"
    s["ended"] = reason
    ev.append(event(f"The tale ends: {reason}.", "end", reason=reason))


COUNCIL_ASKS: dict[str, Callable[[State], list[Ask]]] = {
    "repair": _ask_repair,
    "bid": _ask_bid,
    "take": _ask_take,
    "actions": _ask_action,
    "years": _ask_seasons,
}
"""Who each step of the council asks, declared once (keyed by the step; a duel asks first)."""

COUNCIL_MOVES: dict[str, Callable[[State, int], list[Move]]] = {
    "duel_card": _duel_card_moves,
    "repair": _repair_moves,
    "bid": _bid_moves,
    "take": _take_moves,
    "mage_action": _action_moves,
    "seasons": _season_moves,
}
"""The moves that answer each council decision, declared once."""

COUNCIL_STEPS: dict[str, Callable[[State, int, Move, Events], None]] = {
    "repair": _repair,
    "bid": _bid,
    "take": _take,
    "actions": _action,
    "years": _years,
}
"""What a move does in each step of the council (a duel's card answers the duel first)."""
