"""Resource effects and the plain choices: gains, payments, stealing, repeats, choose, and Marks."""

from __future__ import annotations

from typing import Any

from rules.argent import content, vocab
from rules.argent.agenda import Task, ask, frame, option, push, push_effects
from rules.argent.copying import own
from rules.argent.effects.base import RES_NAMES, RESOURCES, cap, describe, describe_one, say, stop_frame, who
from rules.argent.effects.placing import can_gain_mage
from rules.argent.events import ArgentEvent
from rules.argent.state import (
    State,
    gain,
    order_from,
    placed,
    room_of,
)
from rules.contract import Event

# --------------------------------------------------------------------------- resources


def can_pay(state: State, seat: int, costs: dict[str, int]) -> bool:
    """Whether a seat can pay every listed cost."""
    office = state["seats"][seat]
    return all(office[r] >= n for r, n in costs.items() if r in RESOURCES)


TAKE_IP = "take_ip"
"""The decision that offers an IP gain that could be declined (taken for a seat unless it asks)."""


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
        ask(state, seat, TAKE_IP, opts, "take the IP or decline it", data={"ip": arg["ip"]})
        arg = {r: n for r, n in arg.items() if r != "ip"}
    plain = []
    for resource, amount in arg.items():
        if resource in RESOURCES:
            got = gain(state, seat, resource, amount)
            if got:
                plain.append(f"{got} {RES_NAMES[resource]}")
    if plain:
        got = {r: n for r, n in arg.items() if r in RESOURCES}
        text = f"{who(state, seat)} gains {' and '.join(plain)}."
        say(events, text, kind=ArgentEvent.GAIN, seat=seat, gains=got)
    if arg.get("mark"):
        for _ in range(arg["mark"]):
            push(state, {"op": "mark", "seat": seat})
    if arg.get("research"):
        push(state, {"op": "research", "seat": seat, "count": arg["research"], "department": None})


def answer_take_ip(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Gain the IP the seat accepted."""
    if opt["action"] == "choose":
        got = gain(state, task["seat"], "ip", task["data"]["ip"])
        # The data too: the round's summary reads what each room gave from it ("carol claims, gains 2 IP").
        seat = task["seat"]
        say(events, f"{who(state, seat)} gains {got} IP.", kind=ArgentEvent.GAIN,
            seat=seat, gains={"ip": got})


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
            kind=ArgentEvent.PAY,
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


# --------------------------------------------------------------------------- marks


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
    voter = own(state, "voters")[index]
    voter["marks"].append(seat)
    say(
        events,
        f"{who(state, seat)} places a Mark on voter {index + 1}.",
        kind=ArgentEvent.MARK,
        seat=seat,
        voter=index,
    )
    if not voter["face_up"]:
        say(
            events,
            f"Voter {index + 1} is {content.voter(voter['id'])['name']} "
            f"({content.voter(voter['id'])['title']}).",
            (seat,),
            kind=ArgentEvent.VOTER_SEEN,
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
