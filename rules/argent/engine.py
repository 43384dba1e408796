"""Turn flow: the mage draft, starting Marks, the errands phase, reactions, resolution and rounds.

``advance`` runs the agenda until the game needs a decision: an ``ask`` at the front of the
agenda (a DECISION or REACTION prompt), or, with the agenda empty, the next ordinary turn.
"""

from __future__ import annotations

import re
from typing import Any

from rules.argent import build, content, effects, offers, protection, scoring, vocab
from rules.argent.agenda import Task, ask, new_fid, option, push, push_effects
from rules.argent.effects import has_status, powers_of, say
from rules.argent.setup import deal_tableaus, give_mage, seat_mages, take_candidate
from rules.argent.state import (
    APPRENTICE,
    CENTRAL,
    DEPARTMENTS,
    DEPT_NAMES,
    INFIRMARY,
    NEUTRAL,
    State,
    away,
    can_hold,
    gain,
    is_merit,
    is_shadow,
    loc_text,
    mage_text,
    merit_free,
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
    slot_of,
    slots,
    split_loc,
    supply_mage,
)
from rules.contract import Event, Move

GUARD = 10_000
SETUP_PHASES = ("candidates", "powers", "build", "draft", "marks")

# --------------------------------------------------------------------------- the driver


def advance(state: State, events: list[Event]) -> None:
    """Run automatic steps until a seat must decide (or the game ends)."""
    for _ in range(GUARD):
        if state["over"]:
            return
        agenda = state["agenda"]
        if agenda:
            task = agenda[0]
            if task["op"] == "ask":
                return
            agenda.pop(0)
            run_task(state, task, events)
            continue
        if not flow(state, events):
            return
    raise RuntimeError("the Argent engine did not settle")


def run_task(state: State, task: Task, events: list[Event]) -> None:
    """Run one automatic agenda task."""
    op = task["op"]
    if op in effects.TASKS:
        effects.TASKS[op](state, task, events)
    else:
        FLOW_TASKS[op](state, task, events)


def flow(state: State, events: list[Event]) -> bool:
    """Move the game on when nothing is pending; return False when it waits on a turn."""
    phase = state["phase"]
    if phase in SETUP_PHASES:
        if state["queue"]:
            return False
        if state["setup_steps"]:
            step = state["setup_steps"].pop(0)
            state["phase"], state["queue"] = step["phase"], step["queue"]
            if step["queue"] is None:
                # The power choice waits for the candidates: only department candidates choose.
                order = order_from(state, state["first"])
                state["queue"] = [s for s in order if state["seats"][s]["department"] in DEPARTMENTS]
            return True
        start_round(state, events, first=True)
        return True
    if phase == "errands":
        turn = state["turn"]
        if turn["round_over"]:
            begin_resolution(state, events)
            return True
        if turn["allow"] and not away(state, turn["seat"]) and not has_no_move(state, turn):
            return False
        end_turn(state, events)
        return True
    if phase == "resolution":
        step_resolution(state, events)
        return True
    if phase == "endgame":
        finish(state, events)
        return True
    return False


def has_no_move(state: State, turn: dict[str, Any]) -> bool:
    """Whether the turn's next allowance offers nothing at all (then the turn ends)."""
    return not turn_options(state, turn["seat"])


# --------------------------------------------------------------------------- rounds


def start_round(state: State, events: list[Event], first: bool = False) -> None:
    """Set up a round (skipped on the first) and give the first player the turn."""
    if not first:
        state["round"] += 1
        for office in state["seats"]:
            office["merit_spent"] = 0
            office["bell"] = []
            if office["starter"]:
                office["starter"]["exhausted"] = False
            for spell in office["spells"]:
                spell["exhausted"] = False
            for v in office["vaults"]:
                v["exhausted"] = False
        deal_tableaus(state)
        state["bell"] = [b["id"] for b in content.bell_tower_cards() if b["min_players"] <= state["players"]]
        for room, info in state["board"]["rooms"].items():
            if room_side(state, room).get("marker") == "resets":
                info["marker"] = 0
        if state["next_first"] is not None:
            state["first"] = state["next_first"]
            state["next_first"] = None
    state["phase"] = "errands"
    say(
        events,
        f"Round {state['round']} begins; P{state['first'] + 1} goes first.",
        what="round",
        round=state["round"],
        first=state["first"],
    )
    begin_turn(state, state["first"], events)


def fresh_turn(seat: int) -> dict[str, Any]:
    """Return a new turn for a seat: one action to take, the fast action unused."""
    return {
        "seat": seat,
        "fast": False,
        "main": True,
        "round_over": False,
        "allow": [{"kinds": ["any"], "no_powers": False, "group": None, "optional": False}],
        "used_kinds": {},
    }


def begin_turn(state: State, seat: int, events: list[Event]) -> None:
    """Give a seat its turn: one optional fast action, then one action."""
    state["statuses"] = [
        s for s in state["statuses"] if not (s["seat"] == seat and s["duration"] == "until_your_next_turn")
    ]
    state["turn"] = fresh_turn(seat)


def end_turn(state: State, events: list[Event]) -> None:
    """Pass the turn to the next player in turn order."""
    seat = state["turn"]["seat"]
    state["statuses"] = [s for s in state["statuses"] if s["duration"] not in ("this_turn", "next_spell")]
    n = state["players"]
    nxt = next((seat + i) % n for i in range(1, n + 1) if not away(state, (seat + i) % n))
    begin_turn(state, nxt, events)


def begin_resolution(state: State, events: list[Event]) -> None:
    """The last Bell Tower offering is gone: resolve the rooms."""
    state["phase"] = "resolution"
    state["turn"] = None
    state["resolve"] = list(rooms_in_play(state))
    state["harms"] = []
    say(
        events,
        "The last Bell Tower offering is taken: the rooms resolve.",
        what="resolution",
        round=state["round"],
    )


def step_resolution(state: State, events: list[Event]) -> None:
    """Resolve the next room, slot by slot, each shadow right after its slot."""
    if not state["resolve"]:
        if not ask_leaver(state):
            end_round(state, events)
        return
    room = state["resolve"].pop(0)
    if room == INFIRMARY or room_side(state, room).get("instant"):
        return
    tasks: list[Task] = []
    info = state["board"]["rooms"][room]
    someone = any(room_of(m["loc"]) == room and placed(m["loc"]) for m in state["mages"])
    # Vault A: the three cards are revealed for the occupants to take; an empty room reveals nothing.
    if vocab.room_has(state, room, "reveal_vault_3") and someone:
        deck = state["decks"]["vault"]
        info["cards"] = [{"kind": "vault", "id": c} for c in deck[:3]]
        del deck[:3]
        if info["cards"]:
            say(
                events,
                f"{room_name(room)} reveals "
                + ", ".join(content.vault(c["id"])["name"] for c in info["cards"])
                + ".",
            )
    for s in slots(state, room):
        for m in state["mages"]:
            parts = split_loc(m["loc"])
            if parts and parts[0] == room and parts[1] == s["id"]:
                tasks.append({"op": "errand", "mage": m["id"], "loc": m["loc"], "instant": False})
    tasks.append({"op": "room_done", "room": room})
    push(state, *tasks)


def room_done(state: State, task: Task, events: list[Event]) -> None:
    """Put a room's unclaimed cards back under their decks."""
    info = state["board"]["rooms"][task["room"]]
    for c in info["cards"]:
        state["decks"][c["kind"]].append(c["id"])
    info["cards"] = []


def end_round(state: State, events: list[Event]) -> None:
    """Bring every mage home, send temporary ones back, unlock rooms; then the next round or the end."""
    for m in state["mages"]:
        if m["temp"] and m["owner"] is not None:
            m["owner"], m["loc"] = None, "supply"
            if m["type"] != APPRENTICE:
                m["temp"] = False
        elif m["owner"] is not None and m["loc"] != "office":
            m["loc"] = "office"
    for info in state["board"]["rooms"].values():
        info["locked"] = False
        for c in info["cards"]:
            state["decks"][c["kind"]].append(c["id"])
        info["cards"] = []
    state["statuses"] = [
        s
        for s in state["statuses"]
        if s["duration"] not in ("this_round", "this_turn", "until_your_next_turn", "next_spell")
    ]
    leaving = [s for s, o in enumerate(state["seats"]) if o.get("leaving")]
    for seat in leaving:
        remove_leaver(state, seat, events)
    if state["round"] >= state["rounds"]:
        state["phase"] = "endgame"
        scoring.ask_white_ash(state)
        return
    start_round(state, events)


def finish(state: State, events: list[Event]) -> None:
    """Reveal every voter and count the votes."""
    for v in state["voters"]:
        v["face_up"] = True
    state["outcome"] = scoring.count_votes(state)
    state["over"] = True
    state["phase"] = "over"
    for line in state["outcome"]["lines"]:
        say(events, line, what="votes")


# --------------------------------------------------------------------------- errands


def errand_effects(state: State, loc: str) -> list[dict[str, Any]]:
    """Return a slot's errand (a shadow copies the slot it shadows)."""
    s = slot_of(state, loc)
    if is_shadow(s):
        room = room_of(loc)
        s = next(x for x in slots(state, room) if x["id"] == s["of"])
    return list(s.get("effects", []))


def run_errand(state: State, task: Task, events: list[Event]) -> None:
    """Ask the owner of a mage in a slot: claim the errand (paying Merit if needed) or take 1 IP."""
    m = state["mages"][task["mage"]]
    if m["loc"] != task["loc"] or m["owner"] is None:
        return
    seat = m["owner"]
    s = slot_of(state, m["loc"])
    what = effects.describe(errand_effects(state, m["loc"]))
    opts = []
    if is_merit(s):
        if merit_free(state, seat) > 0:
            opts.append(option("errand", f"Spend a Merit Badge: {what}", claim="merit"))
        # A shadowing mage loses its innate powers (rulebook, Shadowing).
        gold = state["seats"][seat]["gold"]
        if not is_shadow(s) and vocab.has_power(state, m, "merit_for_gold") and gold >= 4:
            opts.append(option("errand", f"Pay 4 Gold instead of a Merit Badge: {what}", claim="gold"))
    else:
        opts.append(option("errand", f"Claim: {what}", claim="plain"))
    opts.append(option("errand", "Take 1 IP instead", claim="ip"))
    ask(state, seat, "errand", opts, f"resolve your mage in {loc_text(state, m['loc'])}", data=task)


def answer_errand(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Pay for and carry out an errand, or take the consolation IP; the mage goes home (unless instant)."""
    data = task["data"]
    m = state["mages"][data["mage"]]
    seat = task["seat"]
    loc = m["loc"]
    room = room_of(loc)
    claim = opt["args"]["claim"]
    todo = errand_effects(state, loc)
    # Rulebook, Resolving Errands: "perform the effect ... then remove the Mage": home comes last.
    if not data["instant"]:
        push(state, {"op": "errand_home", "mage": m["id"], "loc": loc})
    if claim == "ip":
        gain(state, seat, "ip", 1)
        say(
            events,
            f"P{seat + 1} takes 1 IP for the errand in {room_name(room)}.",
            what="consolation",
            seat=seat,
            room=room_name(room),
        )
        return
    cost: list[dict[str, Any]] = []
    if claim == "merit":
        state["seats"][seat]["merit_spent"] += 1
    elif claim == "gold":
        cost = [{"pay": {"gold": 4}}]  # Divinity B: a Gold cost, which Auric Catalyst may answer
    say(
        events,
        f"P{seat + 1} claims the errand in {loc_text(state, loc)}.",
        what="claim",
        seat=seat,
        room=room_name(room),
    )
    push_effects(state, seat, [*cost, *todo], {"room": room, "mage": m["id"], "loc": loc, "via": "room"})


def errand_home(state: State, task: Task, events: list[Event]) -> None:
    """After its errand, the mage goes back to its owner's office (if it is still in that slot)."""
    m = state["mages"][task["mage"]]
    if m["loc"] == task["loc"]:
        m["loc"] = "office"


# --------------------------------------------------------------------------- the turn: options


def allowance(state: State) -> dict[str, Any] | None:
    """Return the action the current turn may take next, if any."""
    turn = state["turn"]
    return turn["allow"][0] if turn and turn["allow"] else None


def kind_ok(state: State, kind: str) -> bool:
    """Whether the next action may be of this kind (extra actions may be limited, or distinct)."""
    allow = allowance(state)
    if allow is None:
        return False
    if "any" not in allow["kinds"] and kind not in allow["kinds"]:
        return False
    if kind == "bell" and "any" not in allow["kinds"]:
        return False
    group = allow.get("group")
    return not (group is not None and kind in state["turn"]["used_kinds"].get(str(group), []))


def spell_cost(state: State, seat: int, level: dict[str, Any]) -> int:
    """Return what a spell level costs this seat now, after every discount (FAQ on the Mysticism B floor)."""
    cost = level["cost"]
    if cost == "X":
        cost = len(order_from(state, seat)) - 1
    if vocab.covers(state, seat, "free_spell"):
        return 0
    mystics = sum(
        1
        for m in state["mages"]
        if m["owner"] == seat
        and placed(m["loc"])
        and not is_shadow(slot_of(state, m["loc"]))
        and vocab.has_power(state, m, "spell_discount_min_1")
    )
    if mystics and cost > 1:
        cost = max(1, cost - mystics)
    cost -= vocab.amount(state, seat, "spell_discount")
    return max(0, cost)


def drain_extra(state: State, seat: int) -> int:
    """Return the extra mana an opponent's Energy Drain takes from this seat's next spell."""
    return sum(1 for s in vocab.statuses_named(state, "energy_drain") if s["seat"] != seat)


def can_cast(state: State, seat: int, level: dict[str, Any], pay: bool = True) -> bool:
    """Whether a seat has the mana for a spell: its cost (unless free) and every Energy Drain toll."""
    cost = spell_cost(state, seat, level) if pay else 0
    return cost + drain_extra(state, seat) <= state["seats"][seat]["mana"]


def pay_for_spell(state: State, seat: int, cost: int, events: list[Event]) -> None:
    """Pay a spell's cost plus 1 Mana to each opponent whose Energy Drain runs this round."""
    # Energy Drain: "each rival pays you 1 extra Mana for every spell they cast", whether the spell is
    # cast as an action, by another effect, free of its cost, or as a reaction.
    drainers = [s["seat"] for s in vocab.statuses_named(state, "energy_drain") if s["seat"] != seat]
    gain(state, seat, "mana", -(cost + len(drainers)))
    for drainer in drainers:
        gain(state, drainer, "mana", 1)
        say(events, f"P{seat + 1} pays P{drainer + 1} 1 Mana (Energy Drain).")


def castable(state: State, seat: int, timing: str) -> list[tuple[str, str, int, dict[str, Any]]]:
    """Return (kind, id, level, record) for every spell level the seat may cast with that timing now."""
    if has_status(state, None, "no_casting"):
        return []
    office = state["seats"][seat]
    out = []
    starter = office["starter"]
    if starter and not starter["exhausted"]:
        rec = content.starter(starter["id"])
        if rec["timing"] == timing:
            out.append(("starter", starter["id"], 1, rec))
    for spell in office["spells"]:
        if spell["exhausted"]:
            continue
        for lvl in content.book(spell["id"])["levels"][: spell["level"]]:
            if lvl["timing"] == timing:
                out.append(("spell", spell["id"], lvl["level"], lvl))
    return [
        c
        for c in out
        if can_cast(state, seat, c[3])
        and offers.can_act(state, seat, c[3]["effects"], {"via": "spell", "card": {"kind": c[0], "id": c[1]}})
    ]


def vault_ready(state: State, seat: int, index: int) -> bool:
    """Whether a vault card in the office can do anything now (a card that can do nothing is not offered)."""
    v = state["seats"][seat]["vaults"][index]
    card = {"kind": "vault", "id": v["id"], "index": index}
    return offers.can_act(state, seat, content.vault(v["id"])["effects"], {"via": "vault", "card": card})


def supporter_ready(state: State, seat: int, sid: str) -> bool:
    """Whether a supporter can do anything now (familiars, which do nothing by design, always can)."""
    card = {"kind": "supporter", "id": sid}
    return offers.can_act(state, seat, content.supporter(sid)["effects"], {"via": "supporter", "card": card})


def usable_vaults(office: dict[str, Any], timing: str) -> list[tuple[int, dict[str, Any]]]:
    """Return the ready vault cards of a timing, one per name (copies are alike)."""
    seen: set[str] = set()
    out = []
    for i, v in enumerate(office["vaults"]):
        if v["id"] in seen or v["exhausted"] or content.vault(v["id"])["timing"] != timing:
            continue
        seen.add(v["id"])
        out.append((i, v))
    return out


def turn_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the moves of an ordinary turn in the errands phase, each with its label."""
    turn = state["turn"]
    allow = allowance(state)
    if allow is None:
        return []
    opts = []
    office = state["seats"][seat]
    can_place = not has_status(state, None, "no_placing")
    rooms = effects.placeable_rooms(state, seat) if can_place else []
    if turn["main"] and not turn["fast"]:
        fast_placers = [m for m in office_mages(state, seat) if vocab.has_power(state, m, "fast_place")]
        if fast_placers and rooms:
            # One move for the fast placement; the room comes next (keeps the turn's list short).
            opts.append(option("place", "Fast action: place a Planar Studies mage", fast=1))
        for _kind, cid, lvl, rec in castable(state, seat, "fast"):
            opts.append(
                option(
                    "cast",
                    f"Fast action: cast {rec['name']} ({spell_cost(state, seat, rec)} Mana)",
                    spell=cid,
                    level=lvl,
                )
            )
        for i, v in usable_vaults(office, "fast"):
            if not vault_ready(state, seat, i):
                continue
            opts.append(option("use", f"Fast action: use {content.vault(v['id'])['name']}", vault=i))
        for sid in dict.fromkeys(office["supporters"]):
            rec = content.supporter(sid)
            if rec["timing"] == "fast" and supporter_ready(state, seat, sid):
                opts.append(option("support", f"Fast action: use {rec['name']}", card=sid))
    if kind_ok(state, "place") and office_mages(state, seat):
        for room in rooms:
            opts.append(option("place", f"Place a mage in {room_name(room)}", room=room))
    if kind_ok(state, "cast"):
        for _kind, cid, lvl, rec in castable(state, seat, "act"):
            opts.append(
                option(
                    "cast", f"Cast {rec['name']} ({spell_cost(state, seat, rec)} Mana)", spell=cid, level=lvl
                )
            )
    if kind_ok(state, "vault"):
        for i, v in usable_vaults(office, "act"):
            if not vault_ready(state, seat, i):
                continue
            opts.append(option("use", f"Use {content.vault(v['id'])['name']}", vault=i))
    if kind_ok(state, "supporter"):
        for sid in dict.fromkeys(office["supporters"]):
            rec = content.supporter(sid)
            if rec["timing"] == "act" and supporter_ready(state, seat, sid):
                opts.append(option("support", f"Use {rec['name']}", card=sid))
    if kind_ok(state, "bell"):
        for bid in state["bell"]:
            opts.append(option("bell", f"Take the Bell Tower offering {content.bell(bid)['name']}", card=bid))
    if allow.get("optional") or (not turn["main"] and opts):
        opts.append(option("done", "End your turn"))
    return opts


# --------------------------------------------------------------------------- the turn: doing


def spend_allowance(state: State, kind: str) -> dict[str, Any]:
    """Use up the next action of the turn; return it."""
    turn = state["turn"]
    allow = turn["allow"].pop(0)
    turn["main"] = False
    if allow.get("group") is not None:
        turn["used_kinds"].setdefault(str(allow["group"]), []).append(kind)
    return allow


def do_turn(state: State, seat: int, opt: dict[str, Any], events: list[Event]) -> None:
    """Carry out an ordinary turn move."""
    action, args = opt["action"], opt["args"]
    turn = state["turn"]
    fast = False
    if action == "done":
        turn["allow"] = []
        return
    if action == "place":
        fast = bool(args.get("fast"))
    elif action == "cast":
        fast = spell_record(state, seat, args["spell"], args["level"])["timing"] == "fast"
    elif action == "use":
        fast = content.vault(state["seats"][seat]["vaults"][args["vault"]]["id"])["timing"] == "fast"
    elif action == "support":
        fast = content.supporter(args["card"])["timing"] == "fast"
    if fast:
        turn["fast"] = True
        allow = {"no_powers": False}
    else:
        allow = spend_allowance(state, {"use": "vault", "support": "supporter"}.get(action, action))
    state["harms"] = []
    state["instants"] = []
    follow: dict[str, Any] = {"op": "after_action", "seat": seat, "mystic": False}
    if action == "place":
        push(state, follow)
        if args.get("room") is None:
            rooms = effects.placeable_rooms(state, seat)
            opts = [option("room", f"Place it in {room_name(r)}", room=r) for r in rooms]
            ask(state, seat, "fast_room", opts, "choose the room for your fast placement")
            return
        turn_place(state, seat, args["room"], fast, allow.get("no_powers", False), events)
        return
    if action == "cast":
        rec = spell_record(state, seat, args["spell"], args["level"])
        follow["mystic"] = rec["timing"] == "act"
        push(state, follow)
        cast(state, seat, args["spell"], args["level"], events)
        return
    if action == "use":
        push(state, follow)
        use_vault(state, seat, args["vault"], events)
        return
    if action == "support":
        push(state, follow)
        use_supporter(state, seat, args["card"], events)
        return
    if action == "bell":
        take_bell(state, seat, args["card"], events)


def spell_record(state: State, seat: int, cid: str, level: int) -> dict[str, Any]:
    """Return the record of a starter spell or of one level of a spell book."""
    starter = state["seats"][seat]["starter"]
    if starter and starter["id"] == cid:
        return content.starter(cid)
    return content.book(cid)["levels"][level - 1]


def cast(
    state: State, seat: int, cid: str, level: int, events: list[Event], pay: bool = True, exhaust: bool = True
) -> None:
    """Pay for a spell, exhaust it, and queue its effects."""
    office = state["seats"][seat]
    rec = spell_record(state, seat, cid, level)
    cost = spell_cost(state, seat, rec) if pay else 0
    pay_for_spell(state, seat, cost, events)
    keep = vocab.covers(state, seat, "spell_no_exhaust")
    state["statuses"] = [
        s
        for s in state["statuses"]
        if not (s["seat"] == seat and s["name"] in ("free_spell", "spell_no_exhaust"))
    ]
    if exhaust and not keep:
        if office["starter"] and office["starter"]["id"] == cid:
            office["starter"]["exhausted"] = True
        for spell in office["spells"]:
            if spell["id"] == cid:
                spell["exhausted"] = True
    state["last_cost"] = cost
    say(events, f"P{seat + 1} casts {rec['name']}" + (f" for {cost} Mana." if pay else "."))
    kind = "starter" if office["starter"] and office["starter"]["id"] == cid else "spell"
    push_effects(state, seat, rec["effects"], {"via": "spell", "card": {"kind": kind, "id": cid}})


def use_vault(state: State, seat: int, index: int, events: list[Event]) -> None:
    """Use a vault card: a treasure exhausts, a consumable goes to the personal discard."""
    office = state["seats"][seat]
    v = office["vaults"][index]
    rec = content.vault(v["id"])
    say(events, f"P{seat + 1} uses {rec['name']}.")
    if rec["type"] == "treasure":
        v["exhausted"] = True
        card = {"kind": "vault", "id": v["id"], "index": index}
    else:
        office["vaults"].pop(index)
        office["discard"].append({"kind": "vault", "id": v["id"], "secret": False})
        card = {"kind": "vault", "id": v["id"]}
    push_effects(state, seat, rec["effects"], {"via": "vault", "card": card})


def use_supporter(state: State, seat: int, sid: str, events: list[Event]) -> None:
    """Use a supporter: its effect, then it goes to the personal discard."""
    office = state["seats"][seat]
    office["supporters"].remove(sid)
    office["discard"].append({"kind": "supporter", "id": sid, "secret": False})
    rec = content.supporter(sid)
    say(events, f"P{seat + 1} uses {rec['name']}.")
    push_effects(state, seat, rec["effects"], {"via": "supporter", "card": {"kind": "supporter", "id": sid}})


def take_bell(state: State, seat: int, bid: str, events: list[Event]) -> None:
    """Take a Bell Tower offering: its bonus, the end of the turn, and maybe the end of the round."""
    state["bell"].remove(bid)
    state["seats"][seat]["bell"].append(bid)
    turn = state["turn"]
    turn["allow"] = []
    say(events, f"P{seat + 1} takes the Bell Tower offering {content.bell(bid)['name']}.")
    last = not state["bell"]
    if last:
        turn["round_over"] = True
        state["harms"] = [
            {
                "on": "last_bell_tower",
                "mage": None,
                "owner": None,
                "by": seat,
                "via": None,
                "from": None,
                "cost": 0,
            }
        ]
        push(state, {"op": "after_action", "seat": seat, "mystic": False})
    push_effects(state, seat, content.bell(bid)["effects"], {"via": "bell"})


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
    opts = []
    free = open_slots(state, room)
    if has_status(state, seat, "shadow_only_place"):
        return inversion_options(state, seat, room, by_type)
    for t, m in by_type.items():
        name = "Archmage's Apprentice" if t == APPRENTICE else f"{DEPT_NAMES[t]} mage"
        for loc in free:
            opts.append(
                option(
                    "place",
                    f"Place a {name} in {loc_text(state, loc)}" + effects.merit_note(state, seat, loc),
                    type=t,
                    slot=loc.split("/", 1)[1],
                )
            )
        powers = set() if no_powers else powers_of(state, m)
        occupied_slots = [
            x
            for x in state["mages"]
            if room_of(x["loc"]) == room and placed(x["loc"]) and not is_shadow(slot_of(state, x["loc"]))
        ]
        if "place_wound" in powers and office["mana"] >= 1:
            for x in occupied_slots:
                if protection.may_target(state, seat, x, "wound", "mage"):
                    opts.append(
                        option(
                            "place",
                            f"Pay 1 Mana: your {name} wounds {mage_text(state, x)} and takes its slot",
                            type=t,
                            slot=x["loc"].split("/", 1)[1],
                            power="wound",
                        )
                    )
        if "place_shift" in powers and free:
            for x in occupied_slots:
                if x["owner"] != seat and protection.may_target(state, seat, x, "move", "mage"):
                    opts.append(
                        option(
                            "place",
                            f"Your {name} shifts {mage_text(state, x)} and takes its slot",
                            type=t,
                            slot=x["loc"].split("/", 1)[1],
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
            for x in occupied_slots:
                sloc = shadow_loc(state, x["loc"])
                if (
                    x["owner"] != seat
                    and sloc
                    and occupant(state, sloc) is None
                    and protection.may_target(state, seat, x, "shadow", via)
                ):
                    opts.append(
                        option(
                            "place",
                            f"{prefix} {name} shadows {mage_text(state, x)}",
                            type=t,
                            slot=sloc.split("/", 1)[1],
                            power=power,
                        )
                    )
    return opts


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
            name = "Archmage's Apprentice" if t == APPRENTICE else f"{DEPT_NAMES[t]} mage"
            opts.append(
                option(
                    "place",
                    f"Place a {name} in {loc_text(state, sloc)}",
                    type=t,
                    slot=sloc.split("/", 1)[1],
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


# --------------------------------------------------------------------------- after an action


def after_action(state: State, task: Task, events: list[Event]) -> None:
    """The action has resolved: reactions in turn order, then sympathy, instant errands, the Mystic."""
    seat = task["seat"]
    harms = list(state["harms"])
    push(
        state,
        {"op": "reactions", "seat": seat, "order": order_from(state, seat), "harms": harms},
        {"op": "sympathy"},
        {"op": "instants"},
        {"op": "mystic", "seat": seat, "offer": task["mystic"]},
    )


def reaction_options(state: State, seat: int, harms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the reactions a seat may play against this action's harms."""
    office = state["seats"][seat]
    cards: list[tuple[str, Any, dict[str, Any], str]] = []
    starter = office["starter"]
    if starter and not starter["exhausted"]:
        rec = content.starter(starter["id"])
        if rec["timing"] == "react":
            cards.append(("starter", starter["id"], rec, rec["name"]))
    for spell in office["spells"]:
        if not spell["exhausted"]:
            for lvl in content.book(spell["id"])["levels"][: spell["level"]]:
                if lvl["timing"] == "react":
                    cards.append(("spell", f"{spell['id']}:{lvl['level']}", lvl, lvl["name"]))
    for i, v in enumerate(office["vaults"]):
        rec = content.vault(v["id"])
        if rec["timing"] == "react" and not v["exhausted"]:
            cards.append(("vault", i, rec, rec["name"]))
    opts = []
    for kind, ref, rec, name in cards:
        if kind in ("spell", "starter") and (
            has_status(state, None, "no_casting") or not can_cast(state, seat, rec)
        ):
            continue
        trig = rec.get("trigger") or {}
        for h, harm in enumerate(harms):
            ctx = {"trigger": harm, "via": "vault" if kind == "vault" else "spell", "reacting": True}
            if matches(state, seat, trig, harm) and offers.can_act(state, seat, rec["effects"], ctx):
                what = (
                    "the last Bell Tower offering"
                    if harm["mage"] is None
                    else mage_text(state, state["mages"][harm["mage"]], seat)
                )
                opts.append(
                    option(
                        "react",
                        f"React with {name} ({harm['on'].replace('_', ' ')}: {what})",
                        card=kind,
                        ref=ref,
                        harm=h,
                    )
                )
    if opts:
        opts.append(option("pass", "Do not react"))
    return opts


def matches(state: State, seat: int, trig: dict[str, Any], harm: dict[str, Any]) -> bool:
    """Whether a reaction's trigger fits one harm done during the action (the trigger registry)."""
    return vocab.trigger_fits(state, seat, trig, harm)


def run_reactions(state: State, task: Task, events: list[Event]) -> None:
    """Offer the next seat in turn order its reactions (once per player per action)."""
    order = list(task["order"])
    while order:
        seat = order.pop(0)
        opts = reaction_options(state, seat, task["harms"])
        if opts:
            push(state, dict(task, order=order))
            ask(
                state,
                seat,
                "react",
                opts,
                "react to what just happened, or pass",
                data={"harms": task["harms"]},
                react=True,
            )
            return


def answer_react(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Pay for and play a reaction."""
    if opt["action"] != "react":
        return
    seat = task["seat"]
    args = opt["args"]
    harm = task["data"]["harms"][args["harm"]]
    office = state["seats"][seat]
    ctx = {"trigger": harm, "via": "spell", "reacting": True}
    if args["card"] == "vault":
        v = office["vaults"][args["ref"]]
        rec = content.vault(v["id"])
        ctx["via"] = "vault"
        if rec["type"] == "treasure":
            v["exhausted"] = True
        else:
            office["vaults"].pop(args["ref"])
            office["discard"].append({"kind": "vault", "id": v["id"], "secret": False})
    elif args["card"] == "starter":
        rec = content.starter(args["ref"])
        pay_for_spell(state, seat, spell_cost(state, seat, rec), events)
        office["starter"]["exhausted"] = True
    else:
        book_id, level = args["ref"].split(":")
        rec = content.book(book_id)["levels"][int(level) - 1]
        pay_for_spell(state, seat, spell_cost(state, seat, rec), events)
        for spell in office["spells"]:
            if spell["id"] == book_id:
                spell["exhausted"] = True
    say(events, f"P{seat + 1} reacts with {rec['name']}.")
    push_effects(state, seat, rec["effects"], ctx)


def run_sympathy(state: State, task: Task, events: list[Event]) -> None:
    """Give each mage wounded by an opponent, and still in the Infirmary, its owner's sympathy bonus."""
    harms = state["harms"]
    state["harms"] = []
    revive = []
    jobs = []
    for harm in harms:
        if harm["on"] != "wounded":
            continue
        m = state["mages"][harm["mage"]]
        if not m["loc"].startswith(INFIRMARY + "/") or m["owner"] is None:
            continue
        if has_status(state, m["owner"], "own_wounded_may_move"):
            revive.append(m["id"])
        if not harm.get("bonus"):
            continue
        parts = split_loc(m["loc"])
        s = next(x for x in slots(state, INFIRMARY) if x["id"] == parts[1])
        say(events, f"P{m['owner'] + 1} earns the Infirmary's sympathy bonus.")
        jobs.append(
            {
                "op": "effects",
                "fid": new_fid(state),
                "seat": m["owner"],
                "list": list(s.get("effects", [])),
                "ctx": {"via": "room", "room": INFIRMARY},
            }
        )
    # Revival: the bonus first, then the wounded mage may walk out of the Infirmary.
    for mid in revive:
        m = state["mages"][mid]
        opts = [
            option("choose", "Move your wounded mage to an open slot", move=1),
            option("pass", "Leave it"),
        ]
        jobs.append(
            {
                "op": "ask",
                "seat": m["owner"],
                "kind": "revival",
                "options": opts,
                "prompt": "move your wounded mage out of the Infirmary",
                "fid": None,
                "data": {"mage": mid},
                "react": False,
                "secret": False,
            }
        )
    push(state, *jobs)


def answer_revival(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Revival: move a wounded mage from the Infirmary to any open slot."""
    if opt["action"] == "choose":
        push(
            state,
            {
                "op": "destination",
                "seat": task["seat"],
                "mage": task["data"]["mage"],
                "arg": {"to": "any_open"},
                "fid": None,
                "via": None,
                "room": None,
            },
        )


def run_instants(state: State, task: Task, events: list[Event]) -> None:
    """Offer the immediate errands of the instant-room slots placed into during the action."""
    placed_now = state.get("instants", [])
    state["instants"] = []
    jobs = []
    for mid in placed_now:
        m = state["mages"][mid]
        if placed(m["loc"]) and room_side(state, room_of(m["loc"])).get("instant"):
            jobs.append({"op": "errand", "mage": mid, "loc": m["loc"], "instant": True})
    push(state, *jobs)


def run_mystic(state: State, task: Task, events: list[Event]) -> None:
    """After a normal-action spell (and its reactions), offer the free Mysticism placement."""
    if not task["offer"] or has_status(state, None, "no_placing"):
        return
    seat = task["seat"]
    mystics = [m for m in office_mages(state, seat) if vocab.has_power(state, m, "place_after_act_spell")]
    if not mystics:
        return
    state["instants"] = []
    push(
        state,
        {
            "op": "place",
            "seat": seat,
            "left": 1,
            "only": None,
            "room": None,
            "fixed_room": False,
            "optional": True,
            "types": sorted({m["type"] for m in mystics}),
        },
        {"op": "instants"},
    )


# --------------------------------------------------------------------------- free casts


def run_free_cast(state: State, task: Task, events: list[Event]) -> None:
    """Offer a spell cast granted by an effect (Tap the Well, Future/Past/Eternal Power, Mystic Link...)."""
    seat, arg = task["seat"], task["arg"]
    opts = free_cast_options(state, seat, arg, (task.get("source") or {}).get("id"))
    if opts:
        opts.append(option("pass", "Cast nothing"))
    ask(state, seat, "free_cast", opts, "cast a spell", data=task)


def free_cast_options(
    state: State, seat: int, arg: dict[str, Any], source: str | None
) -> list[dict[str, Any]]:
    """Return the spells a ``cast`` effect may cast now (never the card that grants it, FAQ)."""
    office = state["seats"][seat]
    pay = arg.get("pay", True)
    level = arg.get("level", "any")
    opts = []
    if arg.get("from") == "tableau":
        for book_id in state["tableau"]["spell"]:
            rec = content.book(book_id)["levels"][0]
            # Tap the Well names no timing: fast level-1 spells count too; a reaction needs its trigger.
            if rec["timing"] != "react" and can_cast(state, seat, rec, pay):
                opts.append(option("cast", f"Cast {rec['name']} from the tableau", spell=book_id, level=1))
    else:
        for spell in office["spells"]:
            if spell["id"] == source:
                continue
            for lvl in content.book(spell["id"])["levels"]:
                n = lvl["level"]
                ok = (
                    {
                        "any": True,
                        "unresearched": n > spell["level"],
                        "below_highest": n < spell["level"],
                    }.get(level, n <= spell["level"])
                    if isinstance(level, str)
                    else n == level
                )
                if not ok or (arg.get("only_act") and lvl["timing"] != "act") or lvl["timing"] == "react":
                    continue
                if level not in ("any", "unresearched", "below_highest") and spell["exhausted"]:
                    continue
                if not can_cast(state, seat, lvl, pay):
                    continue
                opts.append(option("cast", f"Cast {lvl['name']}", spell=spell["id"], level=n))
    return opts


def answer_free_cast(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Cast the chosen spell level without the cast action."""
    if opt["action"] != "cast":
        return
    seat, arg = task["seat"], task["data"]["arg"]
    book_id, level = opt["args"]["spell"], opt["args"]["level"]
    rec = content.book(book_id)["levels"][level - 1]
    pay_for_spell(state, seat, spell_cost(state, seat, rec) if arg.get("pay", True) else 0, events)
    if arg.get("exhaust", True) and arg.get("from") != "tableau":
        for spell in state["seats"][seat]["spells"]:
            if spell["id"] == book_id:
                spell["exhausted"] = True
    say(events, f"P{seat + 1} casts {rec['name']}.")
    push_effects(state, seat, rec["effects"], {"via": "spell", "card": {"kind": "spell", "id": book_id}})


# --------------------------------------------------------------------------- setup decisions


def draft_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the mage types a seat may draft (never a third of a type; never the Apprentice)."""
    out = []
    for t in ("sorcery", "mysticism", "natural_magick", "planar_studies", "divinity", NEUTRAL):
        if supply_mage(state, t) and can_hold(state, seat, t):
            out.append(option("draft", f"Draft a {DEPT_NAMES[t]} mage", type=t))
    return out


def do_draft(state: State, seat: int, opt: dict[str, Any], events: list[Event]) -> None:
    """Take the drafted mage into the office."""
    state["queue"].pop(0)
    give_mage(state, seat, opt["args"]["type"])
    say(events, f"P{seat + 1} drafts a {DEPT_NAMES[opt['args']['type']]} mage.")


def candidate_options(state: State) -> list[dict[str, Any]]:
    """Return the candidates of the sheets nobody has taken yet, both sides."""
    taken = {content.candidate(o["candidate"])["sheet"] for o in state["seats"] if o["candidate"]}
    out = []
    for sheet in content.candidate_sheets():
        for side in ("A", "B"):
            cand = content.candidate(sheet[side])
            if cand["sheet"] in taken:
                continue
            out.append(option("candidate", candidate_label(cand), id=cand["id"]))
    return out


def candidate_label(cand: dict[str, Any]) -> str:
    """Return a candidate choice that says what the candidate does, within Discord's 100 characters."""
    # The record's text opens "Divinity candidate who ..."; the department is already in brackets.
    does = re.sub(r"^.*? candidate (who )?", "", cand["text"]).split(";")[0].rstrip(".")
    if cand["start"].get("merit"):
        does += f"; +{cand['start']['merit']} Merit Badge"
    return effects.fit_label(f"{cand['name']} ({DEPT_NAMES[cand['department']]} {cand['side']}): {does}")


def do_candidate(state: State, seat: int, opt: dict[str, Any], events: list[Event]) -> None:
    """Seat the chosen candidate with its starting mages."""
    state["queue"].pop(0)
    take_candidate(state, seat, opt["args"]["id"])
    seat_mages(state, seat, state["options"].get("diversity") == "on")
    say(events, f"P{seat + 1} will run as {content.candidate_name(opt['args']['id'])}.")


def power_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the two sides of the seat's own department's mage power card."""
    dept = state["seats"][seat]["department"]
    out = []
    for side in ("A", "B"):
        power = content.mage_power(dept, side)
        if power:
            out.append(
                # The prompt names the department; the label keeps its room for what the power does.
                option("power", effects.fit_label(f"{side}: {power['text']}"), side=side)
            )
    return out


def do_power(state: State, seat: int, opt: dict[str, Any], events: list[Event]) -> None:
    """Set the seat's department's mage power side."""
    state["queue"].pop(0)
    dept = state["seats"][seat]["department"]
    state["mage_powers"][dept] = opt["args"]["side"]
    say(events, f"P{seat + 1} chooses power {opt['args']['side']} for {DEPT_NAMES[dept]} mages.")


def start_mark_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the face-down voters nobody has marked yet (setup step 11)."""
    return [
        option("mark", f"Mark voter {i + 1}", voter=i)
        for i, v in enumerate(state["voters"])
        if not v["face_up"] and not v["marks"]
    ]


def do_start_mark(state: State, seat: int, opt: dict[str, Any], events: list[Event]) -> None:
    """Place the starting Mark."""
    state["queue"].pop(0)
    effects.place_mark(state, seat, opt["args"]["voter"], events)


# --------------------------------------------------------------------------- a player leaving (FAQ)


def leaving_rooms(state: State) -> list[str]:
    """Return the two rooms that go when nobody chose them: the last two outside Central.

    Used for a resignation during setup (the University is not built yet); in play the leaver chooses
    (``leave_options``), and these are the rooms its first legal answers name.
    """
    outside = [r for r in rooms_in_play(state) if r not in CENTRAL]
    return outside[-2:]


def leave_options(state: State, seat: int) -> list[dict[str, Any]]:
    """The leaver's choice of the rooms that leave with it (FAQ), last in resolution order first."""
    office = state["seats"][seat]
    if not office.get("leave_choice"):
        return []
    chosen = office.get("leave_rooms") or []
    outside = [r for r in rooms_in_play(state) if r not in CENTRAL and r not in chosen]
    n = len(chosen) + 1
    return [
        option("leave_room", f"Room {n} of 2 to leave the University: {room_name(r)}", room=r)
        for r in reversed(outside)
    ]


def choose_leave_room(state: State, seat: int, room: str, events: list[Event]) -> None:
    """Record one room the leaver gives up; two rooms (or none left to give) end the choice."""
    office = state["seats"][seat]
    office.setdefault("leave_rooms", []).append(room)
    if len(office["leave_rooms"]) >= 2 or not leave_options(state, seat):
        office["leave_choice"] = False
        say(events, f"P{seat + 1} has chosen the two rooms that leave with them.", (seat,))


def answer_leave_room(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """The round is over and waited on the leaver's choice (FAQ): record it."""
    choose_leave_room(state, task["seat"], opt["args"]["room"], events)


def ask_leaver(state: State) -> bool:
    """At the round's end, wait on a leaver who has not chosen its rooms yet; whether one was asked."""
    for seat, office in enumerate(state["seats"]):
        opts = leave_options(state, seat)
        if office.get("leaving") and opts:
            # ``ask`` drops questions to leavers; this one is theirs alone to answer.
            push(
                state,
                {
                    "op": "ask",
                    "seat": seat,
                    "kind": "leave_room",
                    "options": opts,
                    "prompt": "choose the rooms that leave the University with you",
                    "fid": None,
                    "data": {},
                    "react": False,
                    "secret": True,
                },
            )
            return True
    return False


def remove_leaver(state: State, seat: int, events: list[Event]) -> None:
    """At the end of the round, take out the leaver's two chosen rooms and skip the seat from now on."""
    office = state["seats"][seat]
    office["leaving"] = False
    office["left"] = True
    rooms = office.get("leave_rooms")
    if rooms is None:
        rooms = office["leave_rooms"] = leaving_rooms(state)
    grid = state["board"]["grid"]
    for room in rooms:
        for row in grid:
            if room in row:
                row[row.index(room)] = None
        state["board"]["rooms"].pop(room, None)
    # Shrink the board: drop rows and columns left empty.
    grid = [row for row in grid if any(row)]
    width = max((len(row) for row in grid), default=0)
    keep = [x for x in range(width) if any(x < len(row) and row[x] for row in grid)]
    state["board"]["grid"] = [[row[x] if x < len(row) else None for x in keep] for row in grid]
    for m in state["mages"]:
        if m["owner"] == seat:
            m["owner"], m["loc"], m["temp"] = None, "gone", False
    names = " and ".join(room_name(r) for r in rooms)
    say(events, f"P{seat + 1} has left the game; {names or 'no room'} leave the University.")


def leave(state: State, seat: int, rooms: list[str] | None, events: list[Event]) -> None:
    """Mark a seat as leaving: it is skipped from now on and two rooms go at the end of the round (FAQ).

    ``rooms`` None: the house ruling picks them when they go (``leaving_rooms``).
    """
    office = state["seats"][seat]
    office["leaving"] = True
    if rooms is not None:
        office["leave_rooms"] = [r for r in rooms if r not in CENTRAL][:2]
    elif state["phase"] in ("errands", "resolution"):
        # FAQ: "The player who is leaving should choose two rooms": a private question to the leaver,
        # answered while the others play on; the round's end waits for it.
        office["leave_rooms"] = []
        office["leave_choice"] = True
    if state["turn"] and state["turn"]["seat"] == seat:
        state["turn"]["allow"] = []
    # Any question waiting on the leaver is dropped: play goes on without them.
    state["agenda"] = [t for t in state["agenda"] if not (t["op"] == "ask" and t["seat"] == seat)]
    skip_in_setup(state, seat)
    say(events, f"P{seat + 1} is leaving; the round plays out without them.")
    if state["phase"] == "endgame":
        # No round end is left to take them out: they leave before the votes are counted.
        remove_leaver(state, seat, events)


def skip_in_setup(state: State, seat: int) -> None:
    """Take a leaver out of the setup queues; its share of the University is built by the others."""
    steps = [{"phase": state["phase"], "queue": state["queue"]}, *state["setup_steps"]]
    others = order_from(state, seat)
    for step in steps:
        queue = step["queue"]
        if queue is None:
            continue
        if step["phase"] == "build":
            turns = iter(others * len(queue))
            queue[:] = [next(turns) if s == seat else s for s in queue]
        else:
            queue[:] = [s for s in queue if s != seat]


FLOW_TASKS = {
    "errand": run_errand,
    "errand_home": errand_home,
    "room_done": room_done,
    "after_action": after_action,
    "reactions": run_reactions,
    "sympathy": run_sympathy,
    "instants": run_instants,
    "mystic": run_mystic,
    "free_cast": run_free_cast,
}

ANSWERS = {
    "errand": answer_errand,
    "turn_place": answer_turn_place,
    "fast_room": answer_fast_room,
    "place_type": answer_place_type,
    "react": answer_react,
    "revival": answer_revival,
    "free_cast": answer_free_cast,
    "leave_room": answer_leave_room,
    **scoring.ANSWERS,
}


# --------------------------------------------------------------------------- moves


def options_for(state: State, seat: int) -> list[dict[str, Any]]:
    """Return every option (move and label) the seat has now."""
    if state["over"]:
        return []
    agenda = state["agenda"]
    if state["seats"][seat].get("leave_choice") and not (agenda and agenda[0].get("seat") == seat):
        return leave_options(state, seat)  # answered alongside the others' play
    if agenda:
        task = agenda[0]
        return list(task["options"]) if task["op"] == "ask" and task["seat"] == seat else []
    phase = state["phase"]
    if phase == "candidates":
        return candidate_options(state) if state["queue"] and state["queue"][0] == seat else []
    if phase == "powers":
        return power_options(state, seat) if state["queue"] and state["queue"][0] == seat else []
    if phase == "build":
        return build.options(state, seat)
    if phase == "draft":
        return draft_options(state, seat) if state["queue"] and state["queue"][0] == seat else []
    if phase == "marks":
        return start_mark_options(state, seat) if state["queue"] and state["queue"][0] == seat else []
    if phase == "errands" and state["turn"] and state["turn"]["seat"] == seat:
        return turn_options(state, seat)
    return []


def to_move(opt: dict[str, Any]) -> Move:
    """Turn an option into its move."""
    return Move.of(opt["action"], **opt["args"])


def resolve(state: State, seat: int, move: Move) -> list[Event]:
    """Carry out a legal move and run the game on to the next decision."""
    events: list[Event] = []
    opt = next(o for o in options_for(state, seat) if to_move(o) == move)
    agenda = state["agenda"]
    blocking = bool(agenda) and agenda[0]["op"] == "ask" and agenda[0]["seat"] == seat
    if opt["action"] == "leave_room" and not blocking:
        choose_leave_room(state, seat, opt["args"]["room"], events)
    elif agenda and agenda[0]["op"] == "ask":
        task = agenda.pop(0)
        handler = ANSWERS.get(task["kind"]) or effects.ANSWERS[task["kind"]]
        handler(state, task, opt, events)
    elif state["phase"] == "candidates":
        do_candidate(state, seat, opt, events)
    elif state["phase"] == "powers":
        do_power(state, seat, opt, events)
    elif state["phase"] == "build":
        say(events, build.apply(state, seat, opt))
    elif state["phase"] == "draft":
        do_draft(state, seat, opt, events)
    elif state["phase"] == "marks":
        do_start_mark(state, seat, opt, events)
    else:
        do_turn(state, seat, opt, events)
    advance(state, events)
    return events
