"""The interpreter of the effect vocabulary (rules/argent/VOCABULARY.md).

An effect list runs as a frame on the agenda (``agenda.push_effects``). ``run_frame`` carries out
its next effect: plain gains happen at once; anything that needs a choice (a target, a reward, a
voter to mark, a spell to research) becomes an ``ask`` at the front of the agenda, answered by
the next move through ``answer``. Harm done to mages is recorded in ``state["harms"]`` so the
engine can open the reaction window once the action has resolved.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rules.argent import content, hooks, protection, vocab
from rules.argent.agenda import Task, ask, frame, option, push, push_effects, set_ctx
from rules.argent.state import (
    APPRENTICE,
    DEPARTMENTS,
    DEPT_NAMES,
    INFIRMARY,
    MAGE_LIMIT,
    NEUTRAL,
    State,
    adjacent,
    can_hold,
    free_loc,
    gain,
    in_infirmary,
    is_merit,
    is_shadow,
    loc_text,
    locked,
    mage_text,
    merit_free,
    occupant,
    office_mages,
    open_slots,
    order_from,
    permanent_count,
    placed,
    room_name,
    room_of,
    room_side,
    rooms_in_play,
    shadow_loc,
    slot_of,
    slots,
    spec,
    split_loc,
    supply_mage,
)
from rules.contract import Event

Handler = Callable[[State, Task, Any, list[Event]], None]
RESOURCES = ("gold", "mana", "ip", "int", "wis")
RES_NAMES = {
    "gold": "Gold",
    "mana": "Mana",
    "ip": "IP",
    "int": "INT",
    "wis": "WIS",
    "research": "Research",
    "mark": "Mark",
}


def say(events: list[Event], text: str, seats: tuple[int, ...] | None = None, **data: Any) -> None:
    """Record an event (public unless seats are given); ``data`` is what a summary reads."""
    events.append(Event("argent", text, seats, data))


def who(state: State, seat: int) -> str:
    """Return a seat's short name."""
    return f"P{seat + 1}"


# --------------------------------------------------------------------------- describing effects


def describe(effects: list[dict[str, Any]]) -> str:
    """Return a short sentence for an effect list (used to label choices)."""
    parts = [describe_one(e) for e in effects]
    return ", then ".join(p for p in parts if p) or "nothing"


def cap(text: str) -> str:
    """Upper-case the first letter only."""
    return text[:1].upper() + text[1:]


def describe_one(effect: dict[str, Any]) -> str:
    """Return a short phrase for one effect."""
    key, arg = next(iter(effect.items()))
    if key in ("gain", "pay"):
        items = " and ".join(f"{n} {RES_NAMES.get(r, r)}" for r, n in arg.items())
        return f"gain {items}" if key == "gain" else f"pay {items}"
    if key == "choose":
        return " or ".join(describe(o) for o in arg)
    if key == "draft":
        return f"draft {arg.get('count', 1)} {arg['tableau']}"
    if key == "draw":
        return f"draw {arg.get('count', 1)} {arg['deck']}"
    if key == "buy":
        return f"{arg.get('count', 1)} Buy"
    if key == "repeat":
        return f"up to {arg.get('max') or 'any'} times: {describe(arg['effects'])}"
    if key == "gain_mage":
        return f"gain a {DEPT_NAMES.get(arg['department'], arg['department'])} mage"
    return _describe_more(key, arg)


PER_WORDS = {
    "own:wis": "per WIS you have",
    "own:int": "per INT you have",
    "players_with_more:ip": "per player with more IP than you",
    "room:other_mages": "per other mage in the room",
    "trigger:spell_cost": "per Mana the spell cost",
}
"""How a ``gain_per`` count reads in a choice's label."""


def _describe_more(key: str, arg: Any) -> str:
    """Return the phrase of the less common effects; a key without one still reads as words."""
    if key == "gain_per":
        res = RES_NAMES.get(arg["resource"], arg["resource"])
        each = arg.get("each", 1)
        per = PER_WORDS.get(arg["per"], "for each " + arg["per"].split(":")[-1].replace("_", " "))
        text = f"gain {each} {res} {per}"
        if arg.get("divide", 1) > 1:
            text = f"gain 1 {res} per {arg['divide']} WIS you have (rounded {arg.get('round', 'down')})"
        if arg.get("plus"):
            text += f", plus {arg['plus']}"
        if arg.get("max"):
            text += f" (at most {arg['max']})"
        return text
    if key == "choose_distinct":
        return f"{arg['picks']} different of: " + " / ".join(describe(o) for o in arg["options"])
    if key == "astronomy":
        pay = RES_NAMES.get(arg["pay"], arg["pay"])
        free = ", the first space free" if arg.get("first_space_free") else ""
        return f"move the Astronomy marker for {arg['per_space']} {pay} a space{free}"
    if key == "swap_mage":
        kind = "a neutral mage" if arg.get("to") == "neutral" else "a mage of your choice"
        return f"swap this mage for {kind}"
    if key == "secret_supporter":
        return "draw a secret supporter"
    if key == "take_revealed":
        return "take a revealed card"
    if key == "draft_room_card":
        return "draft this room's card"
    return key.replace("_", " ")


# --------------------------------------------------------------------------- running frames


def run_frame(state: State, task: Task, events: list[Event]) -> None:
    """Carry out the next effect of a frame (already taken off the agenda)."""
    if not task["list"]:
        return
    effect = task["list"].pop(0)
    # The frame stays behind whatever this effect asks, so its context outlives the choices.
    push(state, task)
    key, arg = next(iter(effect.items()))
    handler = HANDLERS.get(key)
    if handler is None:
        # The loader refuses unknown keys; one reaching here is a bug, never a skipped effect.
        raise vocab.UnknownKey(f"unknown effect key {key!r}")
    handler(state, task, arg, events)


def stop_frame(task: Task) -> None:
    """Drop the rest of a frame's effects (a cost could not be paid)."""
    task["list"].clear()


# --------------------------------------------------------------------------- resources


def can_pay(state: State, seat: int, costs: dict[str, int]) -> bool:
    """Whether a seat can pay every listed cost."""
    office = state["seats"][seat]
    return all(office[r] >= n for r, n in costs.items() if r in RESOURCES)


def ip_may_hurt(state: State) -> bool:
    """Whether gaining IP can hurt its gainer, so that declining it can matter (FAQ: benefits are optional).

    With three or more players the Second-most Influence voter may be among the face-down voters (public
    knowledge: only two-player games remove it), and more IP can cost that vote.
    """
    return state["players"] >= 3


def do_gain(state: State, task: Task, arg: dict[str, int], events: list[Event]) -> None:
    seat = task["seat"]
    if arg.get("ip") and ip_may_hurt(state):
        # "Benefits are never mandatory" (FAQ): the IP waits for a yes; the rest is gained now.
        opts = [option("choose", f"Gain {arg['ip']} IP", take=1), option("pass", "Take none of the IP")]
        ask(state, seat, "take_ip", opts, "take the IP or decline it", data={"ip": arg["ip"]})
        arg = {r: n for r, n in arg.items() if r != "ip"}
    plain = []
    for resource, amount in arg.items():
        if resource in RESOURCES:
            got = gain(state, seat, resource, amount)
            if got:
                plain.append(f"{got} {RES_NAMES[resource]}")
    if plain:
        got = {r: n for r, n in arg.items() if r in RESOURCES}
        say(events, f"{who(state, seat)} gains {' and '.join(plain)}.", what="gain", seat=seat, gains=got)
    if arg.get("mark"):
        for _ in range(arg["mark"]):
            push(state, {"op": "mark", "seat": seat})
    if arg.get("research"):
        push(state, {"op": "research", "seat": seat, "count": arg["research"], "department": None})


def answer_take_ip(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Gain the IP the seat accepted."""
    if opt["action"] == "choose":
        got = gain(state, task["seat"], "ip", task["data"]["ip"])
        say(events, f"{who(state, task['seat'])} gains {got} IP.")


def gold_reactions(state: State, seat: int, swap: bool) -> list[dict[str, Any]]:
    """Return the ready cards whose declared trigger fits a Gold cost this seat is about to pay."""
    event = {"on": "pay_gold", "by": seat, "swap": swap}
    out = []
    for v in state["seats"][seat]["vaults"]:
        rec = content.vault(v["id"])
        if rec["timing"] != "react" or v["exhausted"] or v["id"] in {o["args"]["card"] for o in out}:
            continue
        if vocab.trigger_fits(state, seat, rec["trigger"], event):
            out.append(option("react", f"React with {rec['name']}: pay no Gold", card=v["id"]))
    return out


def do_pay(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    seat = task["seat"]
    ctx = task["ctx"]
    swap = bool(arg.get("swap"))
    arg = {r: n for r, n in arg.items() if r != "swap"}
    others = {r: n for r, n in arg.items() if r != "gold"}
    if arg.get("gold") and not ctx.get("gold_asked") and can_pay(state, seat, others):
        # A declared "pay_gold" reaction (Auric Catalyst) may answer a Gold cost that is not a swap.
        opts = gold_reactions(state, seat, swap)
        if opts:
            ctx["gold_asked"] = True
            task["list"].insert(0, {"pay": dict(arg, swap=swap) if swap else arg})
            opts.append(option("pass", f"Pay the {arg['gold']} Gold"))
            prompt = "react to this Gold cost, or pay it"
            ask(state, seat, "gold_cost", opts, prompt, fid=task["fid"], react=True)
            return
    nxt = task["list"][0] if task["list"] else {}
    if swap and "gain_mage" in nxt and not can_gain_mage(state, seat, nxt["gain_mage"]["department"]):
        # "Swap X for a mage": with no mage to receive there is no swap, so nothing is paid.
        say(events, f"{who(state, seat)} cannot receive a mage, so nothing is paid.")
        stop_frame(task)
        return
    ctx.pop("gold_asked", None)
    if ctx.pop("waive_gold", False):
        arg = {r: n for r, n in arg.items() if r != "gold"}
    if not can_pay(state, seat, arg):
        say(events, f"{who(state, seat)} cannot pay {describe_one({'pay': arg})[4:]}, so the rest is lost.")
        stop_frame(task)
        return
    for resource, n in arg.items():
        gain(state, seat, resource, -n)
    if arg:
        paid = {r: n for r, n in arg.items() if r in RESOURCES}
        say(
            events,
            f"{who(state, seat)} pays {describe_one({'pay': arg})[4:]}.",
            what="pay",
            seat=seat,
            pays=paid,
        )


def answer_gold_cost(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Play the chosen pay_gold reaction: spend the card and run its effects against this cost."""
    if opt["action"] != "react":
        return
    seat = task["seat"]
    office = state["seats"][seat]
    index = next((i for i, v in enumerate(office["vaults"]) if v["id"] == opt["args"]["card"]), None)
    if index is None:
        return
    v = office["vaults"][index]
    rec = content.vault(v["id"])
    if rec["type"] == "treasure":
        v["exhausted"] = True
    else:
        office["vaults"].pop(index)
        office["discard"].append({"kind": "vault", "id": v["id"], "secret": False})
    say(events, f"{who(state, seat)} reacts with {rec['name']}.")
    push_effects(state, seat, rec["effects"], {"via": "vault", "cost_frame": task["fid"]})


def count_of(state: State, seat: int, per: str, ctx: dict[str, Any]) -> int:
    """Return the value of a ``gain_per`` counter."""
    office = state["seats"][seat]
    if per == "own:wis":
        return office["wis"] + sum(s["level"] - 1 for s in office["spells"])
    if per == "own:int":
        return office["int"] + len(office["spells"])
    if per == "players_with_more:ip":
        return sum(1 for o in state["seats"] if o["ip"] > office["ip"] and not o.get("left"))
    if per == "room:other_mages":
        room = ctx.get("room")
        mine = ctx.get("mage")
        return sum(
            1 for m in state["mages"] if room_of(m["loc"]) == room and m["id"] != mine and placed(m["loc"])
        )
    if per == "trigger:spell_cost":
        return int(ctx.get("trigger", {}).get("cost", 0))
    return 0


def do_gain_per(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    n = count_of(state, task["seat"], arg["per"], task["ctx"]) * arg.get("each", 1)
    div = arg.get("divide", 1)
    n = -(-n // div) if arg.get("round") == "up" else n // div
    n += arg.get("plus", 0)
    if arg.get("max") is not None:
        n = min(n, arg["max"])
    if n > 0:
        do_gain(state, task, {arg["resource"]: n}, events)


def do_steal(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    seat, resource, amount = task["seat"], arg["resource"], arg.get("amount", 1)
    mine = state["seats"][seat]
    victims = [
        s
        for s in order_from(state, seat)[1:]
        if state["seats"][s][resource] > 0
        and (arg.get("from") != "player_with_more" or state["seats"][s][resource] > mine[resource])
    ]
    opts = [option("target", f"Take {amount} {RES_NAMES[resource]} from P{v + 1}", player=v) for v in victims]
    ask(
        state,
        seat,
        "steal",
        opts,
        f"take {RES_NAMES[resource]} from whom",
        data={"resource": resource, "amount": amount},
    )


def answer_steal(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    victim = opt["args"]["player"]
    took = -gain(state, victim, task["data"]["resource"], -task["data"]["amount"])
    gain(state, task["seat"], task["data"]["resource"], took)
    say(
        events,
        f"{who(state, task['seat'])} takes {took} {RES_NAMES[task['data']['resource']]} from P{victim + 1}.",
    )


def do_repeat(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    left = arg.get("max")
    if left is not None and left <= 0:
        return
    first = arg["effects"][0] if arg["effects"] else {}
    if "pay" in first and not can_pay(state, task["seat"], first["pay"]):
        return
    opts = [
        option("choose", f"Once more: {describe(arg['effects'])}", option=1),
        option("choose", "Stop", option=0),
    ]
    ask(state, task["seat"], "repeat", opts, "repeat the effect or stop", fid=task["fid"], data={"arg": arg})


def answer_repeat(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["args"]["option"] != 1:
        return
    arg = dict(task["data"]["arg"])
    if arg.get("max") is not None:
        arg["max"] -= 1
    ctx = frame(state, task["fid"])["ctx"] if frame(state, task["fid"]) else {}
    push_effects(state, task["seat"], [*arg["effects"], {"repeat": arg}], ctx)


def do_choose(state: State, task: Task, arg: list[list[dict[str, Any]]], events: list[Event]) -> None:
    opts = [option("choose", cap(describe(branch)), option=i) for i, branch in enumerate(arg)]
    ask(
        state,
        task["seat"],
        "choose",
        opts,
        "choose one reward",
        fid=task["fid"],
        data={"branches": arg, "ctx": task["ctx"]},
    )


def answer_choose(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    branch = task["data"]["branches"][opt["args"]["option"]]
    push_effects(state, task["seat"], branch, task["data"].get("ctx"))


def do_choose_distinct(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    push(
        state,
        {
            "op": "distinct",
            "seat": task["seat"],
            "options": arg["options"],
            "left": arg["picks"],
            "taken": [],
            "ctx": task["ctx"],
        },
    )


def run_distinct(state: State, task: Task, events: list[Event]) -> None:
    """Offer the next pick of a choose-distinct (never the same option twice)."""
    if task["left"] <= 0:
        return
    opts = [
        option("choose", cap(describe(branch)), option=i)
        for i, branch in enumerate(task["options"])
        if i not in task["taken"]
    ]
    ask(state, task["seat"], "distinct", opts, "choose a reward (each at most once)", data=task)


def answer_distinct(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    data = dict(task["data"])
    i = opt["args"]["option"]
    data["taken"] = [*data["taken"], i]
    data["left"] -= 1
    push(state, data)
    push_effects(state, task["seat"], data["options"][i], data.get("ctx"))


# --------------------------------------------------------------------------- marks and research


def mark_options(state: State, seat: int) -> list[dict[str, Any]]:
    """Return the voters a seat may mark: every voter it has not marked yet."""
    out = []
    for i, v in enumerate(state["voters"]):
        if seat in v["marks"]:
            continue
        label = f"Mark voter {i + 1}" + (f" ({content.voter(v['id'])['name']})" if v["face_up"] else "")
        out.append(option("mark", label, voter=i))
    return out


def run_mark(state: State, task: Task, events: list[Event]) -> None:
    """Ask where a gained Mark goes."""
    ask(state, task["seat"], "mark", mark_options(state, task["seat"]), "place a Mark on a voter")


def answer_mark(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    place_mark(state, task["seat"], opt["args"]["voter"], events)


def place_mark(state: State, seat: int, index: int, events: list[Event]) -> None:
    """Put a seat's Mark on a voter and show that voter to that seat only."""
    voter = state["voters"][index]
    voter["marks"].append(seat)
    say(
        events,
        f"{who(state, seat)} places a Mark on voter {index + 1}.",
        what="mark",
        seat=seat,
        voter=index,
    )
    if not voter["face_up"]:
        say(
            events,
            f"Voter {index + 1} is {content.voter(voter['id'])['name']} "
            f"({content.voter(voter['id'])['title']}).",
            (seat,),
            what="voter_seen",
            seat=seat,
            voter=index,
        )


def do_mark_for_all(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    opts = [option("mark", f"Name voter {i + 1}", voter=i) for i in range(len(state["voters"]))]
    ask(state, task["seat"], "mark_for_all", opts, "name a voter for everyone to mark")


def answer_mark_for_all(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    index = opt["args"]["voter"]
    tasks = []
    for seat in order_from(state, task["seat"]):
        if seat not in state["voters"][index]["marks"]:
            opts = [option("mark", f"Mark voter {index + 1}", voter=index), option("pass", "Do not mark it")]
            tasks.append(
                {
                    "op": "ask",
                    "seat": seat,
                    "kind": "mark",
                    "options": opts,
                    "prompt": f"mark voter {index + 1} or not",
                    "fid": None,
                    "data": {},
                    "react": False,
                    "secret": False,
                }
            )
    push(state, *tasks)


def spell_department(book_id: str) -> str:
    """Return a spell book's department."""
    return content.book(book_id)["department"]


def research_options(state: State, seat: int, department: str | None) -> list[dict[str, Any]]:
    """Return the ways a seat may spend one Research (learn from the tableau, or upgrade)."""
    office = state["seats"][seat]
    opts = []
    if office["int"] > 0:
        for book_id in state["tableau"]["spell"]:
            if department in (None, spell_department(book_id)):
                opts.append(option("research", f"Learn {content.book(book_id)['name']}", learn=book_id))
    if office["wis"] > 0:
        for spell in office["spells"]:
            if spell["level"] < 3 and department in (None, spell_department(spell["id"])):
                nxt = content.book(spell["id"])["levels"][spell["level"]]["name"]
                opts.append(
                    option(
                        "research",
                        f"Upgrade {content.book(spell['id'])['name']} to {nxt}",
                        upgrade=spell["id"],
                    )
                )
    if opts:
        opts.append(option("pass", "Let this Research go"))
    return opts


def run_research(state: State, task: Task, events: list[Event]) -> None:
    """Ask how to spend the next of several Research."""
    if task["count"] <= 0:
        return
    rest = dict(task, count=task["count"] - 1)
    if rest["count"] > 0:
        push(state, rest)
    opts = research_options(state, task["seat"], task.get("department"))
    if not opts:
        say(events, f"{who(state, task['seat'])} cannot use a Research; it is lost.")
        return
    ask(state, task["seat"], "research", opts, "spend a Research")


def answer_research(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    args = opt["args"]
    seat = task["seat"]
    office = state["seats"][seat]
    if "learn" in args:
        book_id = args["learn"]
        state["tableau"]["spell"].remove(book_id)
        refill(state, "spell")
        learn(state, seat, book_id, events)
    elif "upgrade" in args:
        for spell in office["spells"]:
            if spell["id"] == args["upgrade"]:
                office["wis"] -= 1
                spell["level"] += 1
                say(
                    events,
                    f"{who(state, seat)} upgrades {content.book(spell['id'])['name']} to level "
                    f"{spell['level']}.",
                )
    else:
        # A drawn spell that is not researched goes to the bottom of the Spell deck.
        held = task["data"].get("held")
        if held:
            state["decks"]["spell"].append(held)
            say(events, f"{who(state, seat)} puts {content.book(held)['name']} back under the Spell deck.")


def learn(state: State, seat: int, book_id: str, events: list[Event]) -> None:
    """Put an INT on a spell: the seat learns it at level 1."""
    office = state["seats"][seat]
    office["int"] -= 1
    office["spells"].append({"id": book_id, "level": 1, "exhausted": False})
    say(
        events,
        f"{who(state, seat)} learns {content.book(book_id)['name']}.",
        what="learn",
        seat=seat,
        card=content.book(book_id)["name"],
    )


def offer_held_spell(state: State, seat: int, book_id: str, events: list[Event]) -> None:
    """A drawn or drafted spell: research it at once, or it goes under the Spell deck."""
    if state["seats"][seat]["int"] <= 0:
        state["decks"]["spell"].append(book_id)
        say(
            events,
            f"{who(state, seat)} cannot research {content.book(book_id)['name']}; it goes under the deck.",
        )
        return
    name = content.book(book_id)["name"]
    opts = [option("research", f"Learn {name}", keep=book_id), option("pass", f"Put {name} under the deck")]
    ask(state, seat, "held_spell", opts, f"research {name} or let it go", data={"held": book_id})


def answer_held_spell(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    book_id = task["data"]["held"]
    if opt["action"] == "research":
        learn(state, task["seat"], book_id, events)
    else:
        state["decks"]["spell"].append(book_id)


def do_research(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    dept = arg.get("department")
    if dept == "named":
        opts = [option("choose", f"Name {DEPT_NAMES[d]}", department=d) for d in DEPARTMENTS]
        ask(
            state,
            task["seat"],
            "name_department",
            opts,
            "name a department for the Research",
            data={"amount": arg["amount"]},
        )
        return
    push(state, {"op": "research", "seat": task["seat"], "count": arg["amount"], "department": dept})


def answer_name_department(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    push(
        state,
        {
            "op": "research",
            "seat": task["seat"],
            "count": task["data"]["amount"],
            "department": opt["args"]["department"],
        },
    )


def do_research_legendary(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    seat = task["seat"]
    if state["seats"][seat]["int"] <= 0:
        say(events, f"{who(state, seat)} has no INT to learn a Legendary spell.")
        return
    opts = [option("research", f"Learn {content.book(b)['name']}", learn=b) for b in state["legendary"]]
    ask(state, seat, "legendary", opts, "learn a Legendary spell")


def answer_legendary(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    book_id = opt["args"]["learn"]
    state["legendary"].remove(book_id)
    learn(state, task["seat"], book_id, events)


# --------------------------------------------------------------------------- cards


def refill(state: State, kind: str) -> None:
    """Fill the spell or vault tableau back up from its deck."""
    size = 5 if kind == "supporter" else 3
    deck = state["decks"][kind]
    while len(state["tableau"][kind]) < size and deck:
        state["tableau"][kind].append(deck.pop(0))


def gain_card(state: State, seat: int, kind: str, card_id: str, events: list[Event]) -> None:
    """Put a vault card or supporter into a seat's office (a spell is offered for research)."""
    office = state["seats"][seat]
    if kind == "spell":
        offer_held_spell(state, seat, card_id, events)
        return
    if kind == "vault":
        office["vaults"].append({"id": card_id, "exhausted": False})
    else:
        office["supporters"].append(card_id)
    name = content.card_name(kind, card_id)
    say(events, f"{who(state, seat)} gains {name}.", what="card", seat=seat, card=name)


def do_draft(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    kind = arg["tableau"]
    for _ in range(arg.get("count", 1)):
        push(state, {"op": "draft", "seat": task["seat"], "kind": kind})


def fit_label(text: str, limit: int = 100) -> str:
    """Fit a choice's label to Discord's limit: drop bracketed asides first, then cut at a word."""
    if len(text) <= limit:
        return text
    text = re.sub(r" \([^)]*\)", "", text)
    if len(text) <= limit:
        return text
    first = text.split("; ")[0]
    if len(first) <= limit:
        return first
    return text[: limit - 1].rsplit(" ", 1)[0].rstrip(",;:") + "…"


def card_label(head: str, kind: str, card_id: str) -> str:
    """Return a choice that picks a card and says what it does: "Draft Phase Steppers: When one..."."""
    if kind == "spell":
        book = content.book(card_id)
        first = book["levels"][0]
        gist = f"{DEPT_NAMES.get(book['department'], 'Legendary')} book, L1 {first['name']}: {first['text']}"
    else:
        record = content.vault(card_id) if kind == "vault" else content.supporter(card_id)
        gist = record.get("text", "")
    return fit_label(f"{head}: {gist}" if gist else head)


def run_draft(state: State, task: Task, events: list[Event]) -> None:
    """Ask which card to draft from a tableau."""
    kind = task["kind"]
    opts = [
        option("draft", card_label(f"Draft {content.card_name(kind, c)}", kind, c), card=c)
        for c in dict.fromkeys(state["tableau"][kind])
    ]
    if opts:
        opts.append(option("pass", "Draft nothing"))
    ask(state, task["seat"], "draft", opts, f"draft a {kind}", data={"kind": kind})


def answer_draft(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] != "draft":
        return
    kind, card = task["data"]["kind"], opt["args"]["card"]
    state["tableau"][kind].remove(card)
    if kind != "supporter":
        refill(state, kind)
    gain_card(state, task["seat"], kind, card, events)


def do_draw(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    kind = arg["deck"]
    for _ in range(arg.get("count", 1)):
        deck = state["decks"][kind]
        if not deck:
            say(events, f"The {kind} deck is empty.")
            return
        card = deck.pop(0)
        if kind == "spell":
            say(events, f"{who(state, task['seat'])} draws {content.book(card)['name']}.")
        gain_card(state, task["seat"], kind, card, events)


def secret_supporter(state: State, seat: int, events: list[Event], card: str | None = None) -> None:
    """Put a supporter face down into a seat's discard (only that seat learns which)."""
    deck = state["decks"]["supporter"]
    if card is None:
        if not deck:
            return
        card = deck.pop(0)
    state["seats"][seat]["discard"].append({"kind": "supporter", "id": card, "secret": True})
    say(
        events,
        f"{who(state, seat)} gains a Secret Supporter.",
        what="card",
        seat=seat,
        card="a Secret Supporter",
    )
    say(events, f"Your Secret Supporter is {content.supporter(card)['name']}.", (seat,))


def do_secret_supporter(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    for _ in range(arg.get("count", 1)):
        secret_supporter(state, task["seat"], events)


def do_look(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    kind = arg["deck"]
    deck = state["decks"][kind]
    seen = deck[: arg["count"]]
    del deck[: arg["count"]]
    opts = [option("keep", f"Keep {content.card_name(kind, c)}", card=c) for c in dict.fromkeys(seen)]
    ask(
        state,
        task["seat"],
        "look",
        opts,
        f"keep one of the {kind}s you looked at",
        secret=True,
        data={"kind": kind, "seen": seen, "as": arg.get("as", "secret")},
    )


def answer_look(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    data = task["data"]
    seen = list(data["seen"])
    card = opt["args"]["card"]
    seen.remove(card)
    state["decks"][data["kind"]].extend(seen)
    if data["as"] == "secret" and data["kind"] == "supporter":
        secret_supporter(state, task["seat"], events, card)
    else:
        gain_card(state, task["seat"], data["kind"], card, events)


def do_buy(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    ctx = task["ctx"]
    room = ctx.get("room")
    here = room is not None and room != INFIRMARY and room in state["board"]["rooms"]
    push(
        state,
        {
            "op": "buy",
            "seat": task["seat"],
            "count": arg.get("count", 1),
            "discount": arg.get("discount", 0),
            "stats": here and vocab.room_has(state, room, "buy_stat_for_4_gold"),
            "cycle": here
            and vocab.room_has(state, room, "cycle_vault_once_for_1_gold")
            and not ctx.get("cycled"),
        },
    )


def run_buy(state: State, task: Task, events: list[Event]) -> None:
    """Offer the next Buy: a vault card from the tableau (or, at Student Stores A, a stat)."""
    if task["count"] <= 0:
        return
    seat = task["seat"]
    gold = state["seats"][seat]["gold"]
    opts = []
    for card in dict.fromkeys(state["tableau"]["vault"]):
        price = max(0, content.vault(card)["cost"] - task["discount"])
        if price <= gold:
            head = f"Buy {content.vault(card)['name']} for {price} Gold"
            opts.append(option("buy", card_label(head, "vault", card), card=card))
    if task["stats"] and gold >= 4:
        for stat in ("int", "wis", "research"):
            opts.append(option("buy", f"Buy 1 {RES_NAMES[stat]} for 4 Gold", stat=stat))
    if task["cycle"] and gold >= 1:
        opts.append(option("cycle", "Pay 1 Gold to clear and refill the Vault tableau"))
    if opts:
        opts.append(option("pass", "Stop buying"))
    ask(state, seat, "buy", opts, "buy from the Vault tableau", data=task)


def answer_buy(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    data = dict(task["data"])
    seat = task["seat"]
    if opt["action"] == "pass":
        return
    if opt["action"] == "cycle":
        state["decks"]["vault"].extend(state["tableau"]["vault"])
        state["tableau"]["vault"] = []
        refill(state, "vault")
        say(events, f"{who(state, seat)} refreshes the Vault tableau.")
        data["cycle"] = False
        push(state, data)
        pay_gold(state, seat, 1)
        return
    data["count"] -= 1
    push(state, data)
    if "stat" in opt["args"]:
        pay_gold(state, seat, 4)
        stat = opt["args"]["stat"]
        if stat == "research":
            push(state, {"op": "research", "seat": seat, "count": 1, "department": None})
        else:
            gain(state, seat, stat, 1)
        say(events, f"{who(state, seat)} buys 1 {RES_NAMES[stat]}.")
        return
    card = opt["args"]["card"]
    price = max(0, content.vault(card)["cost"] - data["discount"])
    state["tableau"]["vault"].remove(card)
    refill(state, "vault")
    gain_card(state, seat, "vault", card, events)
    pay_gold(state, seat, price)


def pay_gold(state: State, seat: int, price: int) -> None:
    """Pay a price in Gold as a cost (a purchase, not a swap): a pay_gold reaction may answer it."""
    if price > 0:
        push_effects(state, seat, [{"pay": {"gold": price}}], {"via": "room"})


def do_discard(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    seat = task["seat"]
    exclude = set(arg.get("exclude", []))
    opts = []
    for victim in order_from(state, seat)[1:]:
        for spell in state["seats"][victim]["spells"]:
            book = content.book(spell["id"])
            if spell["level"] > arg.get("max_level", 3) or ("legendary" in exclude and book.get("legendary")):
                continue
            opts.append(
                option(
                    "target",
                    f"Send P{victim + 1}'s {book['name']} under the deck",
                    player=victim,
                    spell=spell["id"],
                )
            )
    ask(state, seat, "discard_spell", opts, "choose an opponent's spell to discard")


def answer_discard_spell(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    victim, book_id = opt["args"]["player"], opt["args"]["spell"]
    office = state["seats"][victim]
    for spell in office["spells"]:
        if spell["id"] == book_id:
            office["spells"].remove(spell)
            office["int"] += 1
            office["wis"] += spell["level"] - 1
            dest = state["legendary"] if content.book(book_id).get("legendary") else state["decks"]["spell"]
            dest.append(book_id)
            say(events, f"P{victim + 1}'s {content.book(book_id)['name']} goes back under the deck.")
            return


def do_refresh(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    for _ in range(arg.get("count", 1)):
        push(
            state,
            {
                "op": "refresh",
                "seat": task["seat"],
                "what": arg.get("what", "spell"),
                "source": task["ctx"].get("card"),
            },
        )


def run_refresh(state: State, task: Task, events: list[Event]) -> None:
    """Ask which exhausted card to refresh (never the card doing the refreshing, FAQ)."""
    office = state["seats"][task["seat"]]
    source = task.get("source") or {}
    opts = []
    for spell in office["spells"]:
        if spell["exhausted"] and not (source.get("kind") == "spell" and source.get("id") == spell["id"]):
            opts.append(option("refresh", f"Refresh {content.book(spell['id'])['name']}", spell=spell["id"]))
    starter = office["starter"]
    if starter and starter["exhausted"] and source.get("kind") != "starter":
        opts.append(
            option("refresh", f"Refresh {content.starter(starter['id'])['name']}", starter=starter["id"])
        )
    if task["what"] == "spell_or_treasure":
        for i, v in enumerate(office["vaults"]):
            is_source = source.get("kind") == "vault" and source.get("index") == i
            if v["exhausted"] and content.vault(v["id"])["type"] == "treasure" and not is_source:
                opts.append(option("refresh", f"Refresh {content.vault(v['id'])['name']}", vault=i))
    if opts:
        opts.append(option("pass", "Refresh nothing"))
    ask(state, task["seat"], "refresh", opts, "refresh an exhausted card")


def answer_refresh(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    office = state["seats"][task["seat"]]
    args = opt["args"]
    if "spell" in args:
        for spell in office["spells"]:
            if spell["id"] == args["spell"]:
                spell["exhausted"] = False
    elif "starter" in args:
        office["starter"]["exhausted"] = False
    elif "vault" in args:
        office["vaults"][args["vault"]]["exhausted"] = False
    if opt["action"] == "refresh":
        say(events, f"{who(state, task['seat'])} refreshes a card.")


def do_retire(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    card = task["ctx"].get("card") or {}
    office = state["seats"][task["seat"]]
    if (
        card.get("kind") == "vault"
        and card.get("index") is not None
        and card["index"] < len(office["vaults"])
    ):
        v = office["vaults"].pop(card["index"])
        office["discard"].append({"kind": "vault", "id": v["id"], "secret": False})
        task["ctx"]["card"] = {}


# --------------------------------------------------------------------------- mages: eligibility


power_side = vocab.power_side
powers_of = vocab.powers_of


def has_status(state: State, seat: int | None, name: str) -> bool:
    """Whether a status covers a seat (its own statuses, and every table-wide one)."""
    return vocab.covers(state, seat, name)


# Which act of the one protection rule each mage selector performs.
ACT_OF = {"wound": "wound", "banish": "banish", "move": "move", "heal": "heal", "push_shadow": "push_shadow"}


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
    scope = arg.get("scope", "board")
    whose = arg.get("whose", "any")
    via = ctx.get("via")
    if scope == "same_room":
        room = ctx.get("room")
    out = []
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
        elif key == "banish" and scope == "board" and in_infirmary(loc):
            pass  # Room Clarifications: mages in the Infirmary can be banished (in effect, healed).
        elif not placed(loc):
            continue
        if room is not None and room_of(loc) != room:
            continue
        if not whose_ok(state, actor, m, whose, ctx):
            continue
        # The one protection rule: locks, shadows, Green, Blue and the protective statuses.
        if not protection.may_target(state, actor, m, ACT_OF[key], via):
            continue
        out.append(m)
    order = {s: i for i, s in enumerate(order_from(state, actor))}
    out.sort(key=lambda m: (order.get(m["owner"], 99), m["id"]))
    return out


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


def count_arg(arg: dict[str, Any]) -> int | str:
    """Return a selector's count (an int, or "all")."""
    return arg.get("count", 1)


def ctx_of(state: State, fid: int | None) -> dict[str, Any]:
    """Return the context of a frame still on the agenda (or an empty one)."""
    f = frame(state, fid)
    return f["ctx"] if f else {}


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


def run_destination(state: State, task: Task, events: list[Event]) -> None:
    """Ask where a moved mage goes (a room first when it may go far)."""
    m = state["mages"][task["mage"]]
    arg = task["arg"]
    to = arg.get("to", "same_room")
    here = room_of(m["loc"])
    not_into = set(arg.get("not_into", [])) | {INFIRMARY}
    if to == "same_room" and here and here != INFIRMARY:
        rooms = [here]
    elif to == "adjacent_room" and here and here != INFIRMARY:
        rooms = [r for r in adjacent(state, here) if r not in not_into]
    else:
        rooms = [r for r in rooms_in_play(state) if r not in not_into]
    rooms = [r for r in rooms if protection.room_open(state, r)]
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


# --------------------------------------------------------------------------- placing mages


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
    out = []
    taken = {m["loc"] for m in state["mages"]}
    inversion = shadow_only(state, seat)
    for room in rooms_in_play(state):
        if room == INFIRMARY or not protection.may_enter(state, seat, room):
            continue
        side = room_side(state, room)
        if vocab.room_has(state, room, "no_direct_placement"):
            continue
        if status_shadows(state, seat, room):
            out.append(room)
            continue
        if inversion:
            continue
        for s in side["slots"]:
            kind = s["kind"]
            if kind in ("area", "merit", "regular") and (kind == "area" or f"{room}/{s['id']}" not in taken):
                out.append(room)
                break
    return out


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
        ask(state, seat, "place_room", opts, "choose a room to place a mage in", data=task)
        return
    room = task["room"]
    opts = []
    shadows = status_shadows(state, seat, room)
    for t in dict.fromkeys(m["type"] for m in mages):
        for loc in shadows:
            opts.append(
                option(
                    "place",
                    f"Place your {DEPT_NAMES[t]} mage in {loc_text(state, loc)}",
                    type=t,
                    slot=loc.split("/", 1)[1],
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
                option(
                    "place",
                    f"Place your {DEPT_NAMES[t]} mage in {loc_text(state, loc)}"
                    + merit_note(state, seat, loc),
                    type=t,
                    slot=loc.split("/", 1)[1],
                )
            )
    if task["optional"]:
        opts.append(option("pass", "Place no more"))
    ask(state, seat, "place_slot", opts, f"choose a mage and a slot in {room_name(room)}", data=task)


def merit_note(state: State, seat: int, loc: str) -> str:
    """Return a warning for a placement label: a Merit slot taken with no badge left pays only 1 IP."""
    if not is_merit(slot_of(state, loc)) or merit_free(state, seat) > 0:
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


def do_shadow(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    for _ in range(arg.get("count", 1)):
        push(
            state,
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
    if room == INFIRMARY or room not in state["board"]["rooms"]:
        return
    state["board"]["rooms"][room]["locked"] = value
    say(events, f"{room_name(room)} is {'locked' if value else 'unlocked'}.")


def answer_lock(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    set_lock(state, opt["args"]["room"], task["data"]["value"], events)


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
            for _ in range(arg.get("count", 1)):
                push(
                    state,
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


def new_group(state: State) -> int:
    """Return a fresh id for a set of actions that must each be of a different kind."""
    state["fid"] += 1
    return state["fid"]


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


# --------------------------------------------------------------------------- room-only keys


def do_astronomy(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    room = task["ctx"].get("room")
    side = room_side(state, room)
    track = side["track"]
    marker = state["board"]["rooms"][room]["marker"]
    seat = task["seat"]
    have = state["seats"][seat][arg["pay"]]
    opts = []
    if not side.get("wrap") and marker >= len(track) - 1:
        opts.append(option("choose", f"Take the last space for free: {describe(track[-1])}", spaces=0))
    limit = len(track) - 1 if side.get("wrap") else len(track) - 1 - marker
    for k in range(1, limit + 1):
        price = arg["per_space"] * (k - 1 if arg.get("first_space_free") else k)
        if price <= have:
            dest = (marker + k) % len(track)
            opts.append(
                option(
                    "choose",
                    f"Move {k} space{'' if k == 1 else 's'} for {price} {RES_NAMES[arg['pay']]}:"
                    f" {describe(track[dest])}",
                    spaces=k,
                )
            )
    ask(state, seat, "astronomy", opts, "move the Astronomy Tower marker", data={"arg": arg, "room": room})


def answer_astronomy(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    arg, room = task["data"]["arg"], task["data"]["room"]
    side = room_side(state, room)
    track = side["track"]
    k = opt["args"]["spaces"]
    marker = state["board"]["rooms"][room]["marker"]
    cost: list[dict[str, Any]] = []
    if k:
        price = arg["per_space"] * (k - 1 if arg.get("first_space_free") else k)
        cost = [{"pay": {arg["pay"]: price}}] if price else []
        marker = (marker + k) % len(track)
        state["board"]["rooms"][room]["marker"] = marker
    say(events, f"{who(state, task['seat'])} moves the Astronomy Tower marker to space {marker + 1}.")
    # The per-space price is a cost (Auric Catalyst may answer a Gold one), paid before the reward.
    push_effects(state, task["seat"], [*cost, *track[marker]], {"room": room, "space": marker, "via": "room"})


def do_astronomy_any_earlier(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    room = task["ctx"].get("room")
    track = room_side(state, room)["track"]
    here = task["ctx"].get("space", len(track) - 1)
    opts = [option("choose", cap(describe(track[i])), option=i) for i in range(here) if track[i]]
    ask(state, task["seat"], "choose", opts, "choose an earlier reward", data={"branches": track, "ctx": {}})


def do_take_revealed(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    room = task["ctx"].get("room")
    cards_here = state["board"]["rooms"][room]["cards"]
    opts = [
        option("draft", card_label(f"Take {content.vault(c)['name']}", "vault", c), card=c)
        for c in dict.fromkeys(c["id"] for c in cards_here)
    ]
    ask(state, task["seat"], "room_card", opts, "take one of the revealed cards", data={"room": room})


def do_add_room_card(state: State, task: Task, arg: dict[str, Any], events: list[Event]) -> None:
    room = task["ctx"].get("room")
    here = state["board"]["rooms"][room]["cards"]
    opts = []
    for kind in ("spell", "vault", "supporter"):
        if state["decks"][kind] and sum(1 for c in here if c["kind"] == kind) < arg.get("max_per_type", 3):
            opts.append(option("draw", f"Lay the top {kind} card in {room_name(room)}", deck=kind))
    if opts:
        opts.append(option("pass", "Lay no card"))
    ask(state, task["seat"], "add_room_card", opts, "lay a card in the room", data={"room": room})


def answer_add_room_card(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    if opt["action"] != "draw":
        return
    kind = opt["args"]["deck"]
    card = state["decks"][kind].pop(0)
    state["board"]["rooms"][task["data"]["room"]]["cards"].append({"kind": kind, "id": card})
    say(
        events,
        f"{who(state, task['seat'])} lays {content.card_name(kind, card)} in "
        f"{room_name(task['data']['room'])}.",
    )


def do_draft_room_card(state: State, task: Task, arg: Any, events: list[Event]) -> None:
    room = task["ctx"].get("room")
    here = state["board"]["rooms"][room]["cards"]
    unique = list(dict.fromkeys((c["kind"], c["id"]) for c in here))
    opts = [
        option("draft", card_label(f"Draft {content.card_name(k, c)}", k, c), card=c, kind=k)
        for k, c in unique
    ]
    ask(state, task["seat"], "room_card", opts, "draft a card from the room", data={"room": room})


def answer_room_card(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    room = task["data"]["room"]
    here = state["board"]["rooms"][room]["cards"]
    kind = opt["args"].get("kind", "vault")
    for c in here:
        if c["id"] == opt["args"]["card"] and c["kind"] == kind:
            here.remove(c)
            break
    gain_card(state, task["seat"], kind, opt["args"]["card"], events)


HANDLERS: dict[str, Handler] = {
    "gain": do_gain,
    "pay": do_pay,
    "gain_per": do_gain_per,
    "steal": do_steal,
    "repeat": do_repeat,
    "choose": do_choose,
    "choose_distinct": do_choose_distinct,
    "buy": do_buy,
    "draw": do_draw,
    "draft": do_draft,
    "secret_supporter": do_secret_supporter,
    "look": do_look,
    "research": do_research,
    "research_legendary": do_research_legendary,
    "discard": do_discard,
    "refresh": do_refresh,
    "retire": do_retire,
    "mark_for_all": do_mark_for_all,
    "wound": lambda s, t, a, e: do_target(s, t, "wound", a, e),
    "banish": lambda s, t, a, e: do_target(s, t, "banish", a, e),
    "move": lambda s, t, a, e: do_target(s, t, "move", a, e),
    "heal": lambda s, t, a, e: do_target(s, t, "heal", dict(a, scope="infirmary"), e),
    "push_shadow": lambda s, t, a, e: do_target(s, t, "push_shadow", a, e),
    "place": do_place,
    "shadow": do_shadow,
    "rearrange": do_rearrange,
    "lock": do_lock,
    "unlock": lambda s, t, a, e: do_lock(s, t, a, e, value=False),
    "gain_mage": do_gain_mage,
    "swap_mage": do_swap_mage,
    "redirect": do_redirect,
    "status": do_status,
    "become_first_player": do_become_first,
    "extra_action": do_extra_action,
    "if": do_if,
    "cast": do_cast,
    "hook": do_hook,
    "waive_cost": do_waive_cost,
    "astronomy": do_astronomy,
    "astronomy_any_earlier": do_astronomy_any_earlier,
    "take_revealed": do_take_revealed,
    "add_room_card": do_add_room_card,
    "draft_room_card": do_draft_room_card,
}

ANSWERS: dict[str, Callable[[State, Task, dict[str, Any], list[Event]], None]] = {
    "steal": answer_steal,
    "repeat": answer_repeat,
    "choose": answer_choose,
    "distinct": answer_distinct,
    "mark": lambda s, t, o, e: answer_mark(s, t, o, e) if o["action"] == "mark" else None,
    "mark_for_all": answer_mark_for_all,
    "research": answer_research,
    "held_spell": answer_held_spell,
    "name_department": answer_name_department,
    "legendary": answer_legendary,
    "draft": answer_draft,
    "look": answer_look,
    "buy": answer_buy,
    "discard_spell": answer_discard_spell,
    "refresh": answer_refresh,
    "pick_room": answer_pick_room,
    "select": answer_select,
    "take_slot": answer_take_slot,
    "wound_slot": answer_wound_slot,
    "dest_room": answer_dest_room,
    "dest_slot": answer_dest_slot,
    "place_room": answer_place_room,
    "place_slot": answer_place_slot,
    "shadow_type": answer_shadow_type,
    "shadow_room": answer_shadow_room,
    "shadow": answer_shadow,
    "rearrange_room": answer_rearrange_room,
    "rearrange": answer_rearrange,
    "lock": answer_lock,
    "gain_mage": answer_gain_mage,
    "swap_mage": answer_swap_mage,
    "astronomy": answer_astronomy,
    "add_room_card": answer_add_room_card,
    "room_card": answer_room_card,
    "gold_cost": answer_gold_cost,
    "take_ip": answer_take_ip,
    "mage_swap": answer_mage_swap,
    **hooks.ANSWERS,
}

TASKS: dict[str, Callable[[State, Task, list[Event]], None]] = {
    "effects": run_frame,
    "mark": run_mark,
    "research": run_research,
    "distinct": run_distinct,
    "draft": run_draft,
    "buy": run_buy,
    "refresh": run_refresh,
    "pick_room": run_pick_room,
    "select": run_select,
    "destination": run_destination,
    "place": run_place,
    "shadow": run_shadow,
    "rearrange": run_rearrange,
}
