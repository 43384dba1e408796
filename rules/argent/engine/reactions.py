"""After an action: reactions to harm, Sympathy, instants, Mystic, and free casts."""

from __future__ import annotations

from typing import Any

from rules.argent import content, offers, vocab
from rules.argent.agenda import Task, ask, new_fid, option, push, push_effects
from rules.argent.casting import can_cast, free_cast_options, pay_for_spell, spell_cost
from rules.argent.effects import has_status, say
from rules.argent.state import (
    INFIRMARY,
    State,
    mage_text,
    office_mages,
    order_from,
    placed,
    room_of,
    room_side,
    slots,
    split_loc,
)
from rules.contract import Event

# --------------------------------------------------------------------------- after an action


def after_action(state: State, task: Task, events: list[Event]) -> None:
    """The action has resolved: reactions in turn order, then sympathy, instants, the Mystic.

    Each step runs here, in that order, while the steps before it queued nothing (most actions
    harm nobody and place in no instant room, and every step then does nothing); the first step
    that queues something leaves the steps after it on the agenda right behind what it queued,
    where they stand when each is queued as a task and run by ``advance``, so the game, its
    events and every stored agenda are the same.
    """
    agenda = state["agenda"]
    for i, op in enumerate(AFTER_ACTION):
        if not has_work(state, op, task):
            continue
        before = len(agenda)
        AFTER_ACTION_STEPS[op](state, after_step(state, op, task), events)
        queued = len(agenda) - before  # every step queues at the front (``push``, ``ask``)
        if queued:
            agenda[queued:queued] = [after_step(state, later, task) for later in AFTER_ACTION[i + 1 :]]
            return


AFTER_ACTION = ("reactions", "sympathy", "instants", "mystic")
"""The steps after an action, in the order they run."""


def after_step(state: State, op: str, task: Task) -> Task:
    """Return the agenda task of one step after the action ``task`` ended."""
    if op == "reactions":
        seat, harms = task["seat"], list(state["harms"])
        return {"op": "reactions", "seat": seat, "order": order_from(state, seat), "harms": harms}
    if op == "mystic":
        return {"op": "mystic", "seat": task["seat"], "offer": task["mystic"]}
    return {"op": op}


def has_work(state: State, op: str, task: Task) -> bool:
    """Whether a step after an action may do anything: False only where running it changes nothing."""
    if op in ("reactions", "sympathy"):
        return bool(state["harms"])  # every reaction answers a harm; sympathy reads and clears them
    if op == "instants":
        return state.get("instants") != []  # an absent list is written by the step: run it
    return bool(task["mystic"])  # the Mystic's placement follows a normal-action spell only


def reaction_options(state: State, seat: int, harms: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Return the reactions a seat may play against this action's harms."""
    if not harms:
        return []  # every reaction answers a harm: most actions harm nobody
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
            "why": "your Mysticism mage's power, after a normal-action spell",
        },
        {"op": "instants"},
    )


AFTER_ACTION_STEPS = {
    "reactions": run_reactions,
    "sympathy": run_sympathy,
    "instants": run_instants,
    "mystic": run_mystic,
}
"""Each step's runner (also ``advance``'s, for a step left on the agenda)."""


# --------------------------------------------------------------------------- free casts


def run_free_cast(state: State, task: Task, events: list[Event]) -> None:
    """Offer a spell cast granted by an effect (Tap the Well, Future/Past/Eternal Power, Mystic Link...)."""
    seat, arg = task["seat"], task["arg"]
    opts = free_cast_options(state, seat, arg, (task.get("source") or {}).get("id"))
    if opts:
        opts.append(option("pass", "Cast nothing"))
    ask(state, seat, "free_cast", opts, "cast a spell", data=task)


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
