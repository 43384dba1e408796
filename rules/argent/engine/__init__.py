"""Turn flow: the mage draft, starting Marks, the errands phase, reactions, resolution and rounds.

``advance`` runs the agenda until the game needs a decision: an ``ask`` at the front of the
agenda (a DECISION or REACTION prompt), or, with the agenda empty, the next ordinary turn.

This module is the driver (rounds, errands, resolution, the task and answer registries, moves);
the parts it drives live beside it: ``turn`` (a turn's options and doing them), ``placement``
(placing with powers), ``reactions`` (after an action, free casts) and ``decisions`` (setup
decisions, a player leaving).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from rules.argent import build, content, effects, scoring, vocab
from rules.argent.agenda import Task, ask, option, push, push_effects
from rules.argent.casting import free_cast_options, spell_cost
from rules.argent.copying import own, separate
from rules.argent.effects import say
from rules.argent.engine.decisions import (
    answer_leave_room,
    ask_leaver,
    candidate_options,
    choose_leave_room,
    do_candidate,
    do_draft,
    do_power,
    do_start_mark,
    draft_options,
    leave,
    leave_options,
    leaving_rooms,
    power_options,
    remove_leaver,
    start_mark_options,
)
from rules.argent.engine.placement import answer_fast_room, answer_place_type, answer_turn_place
from rules.argent.engine.reactions import (
    AFTER_ACTION_STEPS,
    after_action,
    answer_free_cast,
    answer_react,
    answer_revival,
    run_free_cast,
)
from rules.argent.engine.turn import castable, do_turn, has_turn_option, iter_turn_options
from rules.argent.events import ArgentEvent
from rules.argent.setup import deal_tableaus
from rules.argent.state import (
    APPRENTICE,
    DEPARTMENTS,
    INFIRMARY,
    State,
    away,
    gain,
    is_merit,
    is_shadow,
    loc_text,
    merit_free,
    order_from,
    placed,
    room_name,
    room_of,
    room_side,
    rooms_in_play,
    slot_of,
    slot_spec,
    slots,
    split_loc,
)
from rules.contract import Event, Move

__all__ = [
    "advance",
    "answers_question",
    "castable",
    "find_option",
    "free_cast_options",
    "fresh_turn",
    "iter_options",
    "leave",
    "leaving_rooms",
    "option_in",
    "options_for",
    "resolve",
    "resolve_option",
    "spell_cost",
    "to_move",
]

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
            step = own(state, "setup_steps").pop(0)
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
    return not has_turn_option(state, turn["seat"])


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
            if room_side(state, room).get("marker") == "resets" and info["marker"]:
                own(state, "board")["rooms"][room]["marker"] = 0
        if state["next_first"] is not None:
            state["first"] = state["next_first"]
            state["next_first"] = None
    state["phase"] = "errands"
    say(
        events,
        f"Round {state['round']} begins; P{state['first'] + 1} goes first.",
        kind=ArgentEvent.ROUND,
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
        kind=ArgentEvent.RESOLUTION,
        round=state["round"],
        phase=True,  # the resolution is one thread message, edited as each room resolves
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
    someone = any(room_of(m["loc"]) == room and placed(m["loc"]) for m in state["mages"])
    # Vault A: the three cards are revealed for the occupants to take; an empty room reveals nothing.
    if vocab.room_has(state, room, "reveal_vault_3") and someone:
        deck = own(state, "decks")["vault"]
        own(state, "board")["rooms"][room]["cards"] = cards = [{"kind": "vault", "id": c} for c in deck[:3]]
        del deck[:3]
        if cards:
            say(
                events,
                f"{room_name(room)} reveals "
                + ", ".join(content.vault(c["id"])["name"] for c in cards)
                + ".",
            )
    # The room's mages by slot, each slot's in the mages' order (one pass over the mages).
    by_slot: dict[str, list[dict[str, Any]]] = {}
    for m in state["mages"]:
        parts = split_loc(m["loc"])
        if parts and parts[0] == room:
            by_slot.setdefault(parts[1], []).append(m)
    for s in slots(state, room):
        for m in by_slot.get(s["id"], ()):
            tasks.append({"op": "errand", "mage": m["id"], "loc": m["loc"], "instant": False})
    tasks.append({"op": "room_done", "room": room})
    push(state, *tasks)


def room_done(state: State, task: Task, events: list[Event]) -> None:
    """Put a room's unclaimed cards back under their decks."""
    cards = state["board"]["rooms"][task["room"]]["cards"]
    if cards:
        decks = own(state, "decks")
        for c in cards:
            decks[c["kind"]].append(c["id"])
        own(state, "board")["rooms"][task["room"]]["cards"] = []


def end_round(state: State, events: list[Event]) -> None:
    """Bring every mage home, send temporary ones back, unlock rooms; then the next round or the end."""
    for m in state["mages"]:
        if m["temp"] and m["owner"] is not None:
            m["owner"], m["loc"] = None, "supply"
            if m["type"] != APPRENTICE:
                m["temp"] = False
        elif m["owner"] is not None and m["loc"] != "office":
            m["loc"] = "office"
    if any(info["locked"] or info["cards"] for info in state["board"]["rooms"].values()):
        for info in own(state, "board")["rooms"].values():
            info["locked"] = False
            for c in info["cards"]:
                own(state, "decks")[c["kind"]].append(c["id"])
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
    for v in own(state, "voters"):
        v["face_up"] = True
    state["outcome"] = scoring.count_votes(state)
    state["over"] = True
    state["phase"] = "over"
    for line in state["outcome"]["lines"]:
        say(events, line, kind=ArgentEvent.VOTES)


# --------------------------------------------------------------------------- errands


def errand_effects(state: State, loc: str) -> list[dict[str, Any]]:
    """Return a slot's errand (a shadow copies the slot it shadows)."""
    room, slot_id = split_loc(loc)  # type: ignore[misc]
    return list(_printed_errand(room, state["board"]["rooms"][room]["side"], slot_id))


@cache  # the card data alone: a room side's printed errands never change
def _printed_errand(room: str, side: str, slot_id: str) -> tuple[dict[str, Any], ...]:
    """Return the errand printed on a slot of a room side (a shadow's is the slot it shadows)."""
    s = slot_spec(room, side, slot_id)
    if is_shadow(s):
        s = next(x for x in content.room_side(room, side)["slots"] if x["id"] == s["of"])
    return tuple(s.get("effects", []))


@cache  # the words follow from the printed errand alone (``effects.describe`` reads no table)
def _printed_claims(room: str, side: str, slot_id: str) -> tuple[tuple[str, dict[str, int]], ...]:
    """Return the ways to claim a slot's printed errand (``_claims``), worded once per slot."""
    return tuple(_claims(list(_printed_errand(room, side, slot_id))))


def run_errand(state: State, task: Task, events: list[Event]) -> None:
    """Ask the owner of a mage in a slot: claim the errand (paying Merit if needed) or take 1 IP."""
    m = state["mages"][task["mage"]]
    if m["loc"] != task["loc"] or m["owner"] is None:
        return
    seat = m["owner"]
    s = slot_of(state, m["loc"])
    ways = []
    if is_merit(s):
        if merit_free(state, seat) > 0:
            ways.append(("Spend a Merit Badge", "merit"))
        # A shadowing mage loses its innate powers (rulebook, Shadowing).
        gold = state["seats"][seat]["gold"]
        if not is_shadow(s) and vocab.has_power(state, m, "merit_for_gold") and gold >= 4:
            ways.append(("Pay 4 Gold instead of a Merit Badge", "gold"))
    else:
        ways.append(("Claim", "plain"))
    opts = [
        option("errand", f"{how}: {what}", claim=claim, **pick)
        for how, claim in ways
        for what, pick in _printed_claims(*_slot_key(state, m["loc"]))
    ]
    opts.append(option("errand", "Take 1 IP instead", claim="ip"))
    ask(state, seat, "errand", opts, f"resolve your mage in {loc_text(state, m['loc'])}", data=task)


def _slot_key(state: State, loc: str) -> tuple[str, str, str]:
    """Return (room, side in play, slot id) of a board location: what a slot's printed data is keyed by."""
    room, slot_id = split_loc(loc)  # type: ignore[misc]
    return room, state["board"]["rooms"][room]["side"], slot_id


def _claims(todo: list[dict[str, Any]]) -> list[tuple[str, dict[str, int]]]:
    """Return the ways to claim an errand: its words and the reward picked, if it offers a choice.

    An errand that is one choice of rewards ("gain 6 Gold or gain 3 Mana") offers each reward as
    its own claim, so the one choice is asked once, not a claim and then "choose one reward".
    """
    if len(todo) == 1 and set(todo[0]) == {"choose"}:
        return [(effects.describe(branch), {"reward": i}) for i, branch in enumerate(todo[0]["choose"])]
    return [(effects.describe(todo), {})]


def answer_errand(state: State, task: Task, opt: dict[str, Any], events: list[Event]) -> None:
    """Pay for and carry out an errand, or take the consolation IP; the mage goes home (unless instant)."""
    data = task["data"]
    m = state["mages"][data["mage"]]
    seat = task["seat"]
    loc = m["loc"]
    room = room_of(loc)
    claim = opt["args"]["claim"]
    todo = errand_effects(state, loc)
    if "reward" in opt["args"]:  # the reward of a choice, picked with the claim (``_claims``)
        todo = list(todo[0]["choose"][opt["args"]["reward"]])
    # Rulebook, Resolving Errands: "perform the effect ... then remove the Mage": home comes last.
    if not data["instant"]:
        push(state, {"op": "errand_home", "mage": m["id"], "loc": loc})
    if claim == "ip":
        gain(state, seat, "ip", 1)
        say(
            events,
            f"P{seat + 1} takes 1 IP for the errand in {room_name(room)}.",
            kind=ArgentEvent.CONSOLATION,
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
        kind=ArgentEvent.CLAIM,
        seat=seat,
        room=room_name(room),
    )
    push_effects(state, seat, [*cost, *todo], {"room": room, "mage": m["id"], "loc": loc, "via": "room"})


def errand_home(state: State, task: Task, events: list[Event]) -> None:
    """After its errand, the mage goes back to its owner's office (if it is still in that slot)."""
    m = state["mages"][task["mage"]]
    if m["loc"] == task["loc"]:
        m["loc"] = "office"


FLOW_TASKS = {
    "errand": run_errand,
    "errand_home": errand_home,
    "room_done": room_done,
    "after_action": after_action,
    **AFTER_ACTION_STEPS,  # a step after an action, left on the agenda behind a question
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
    return list(iter_options(state, seat))


def iter_options(
    state: State, seat: int, action: str | None = None, room: Any = None
) -> Iterable[dict[str, Any]]:
    """Return the seat's options in order; a turn's come one at a time, so a search can stop early.

    Given an ``action``, a turn builds only that action's options (``iter_turn_options``), and given
    a ``room`` only the placements in that room; the other decisions hold few options and return
    them all.
    """
    if state["over"]:
        return []
    agenda = state["agenda"]
    if leaving_now(state, seat):
        return leave_options(state, seat)  # answered alongside the others' play
    if agenda:
        task = agenda[0]
        return task["options"] if task["op"] == "ask" and task["seat"] == seat else []
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
        return iter_turn_options(state, seat, action, room)
    return []


def leaving_now(state: State, seat: int) -> bool:
    """Whether the seat's options are its leaving rooms (chosen while the others play on)."""
    agenda = state["agenda"]
    return bool(state["seats"][seat].get("leave_choice")) and not (agenda and agenda[0].get("seat") == seat)


def to_move(opt: dict[str, Any]) -> Move:
    """Turn an option into its move."""
    return Move.of(opt["action"], **opt["args"])


def fast_moves(state: State, seat: int) -> list[str]:
    """Return the codes of the fast actions among the seat's moves now (a turn's, before its action)."""
    return [to_move(opt).code() for opt in options_for(state, seat) if opt.get("fast")]


def find_option(opts: Iterable[dict[str, Any]], move: Move) -> tuple[int, dict[str, Any]] | None:
    """Return the position and the option that is this move, or None when none is.

    The search stops at the match: options after it are never built (``iter_options``).
    """
    action = move.action  # compared first: most options are another action, no Move built for them
    found = ((i, opt) for i, opt in enumerate(opts) if opt["action"] == action and is_move(opt, move))
    return next(found, None)


def is_move(opt: dict[str, Any], move: Move) -> bool:
    """Whether an option of the move's action is that move: ``to_move(opt) == move``, built only for lists."""
    args = opt["args"]
    if len(args) != len(move.args):
        return False
    for key, value in move.args:
        mine = args.get(key, _ABSENT)
        if type(mine) is list or type(value) is tuple:
            return to_move(opt) == move  # lists compare as the tuples a Move holds
        if mine != value:
            return False
    return True


_ABSENT = object()


def answers_question(state: State, seat: int) -> bool:
    """Whether the seat's options now are the question at the front of the agenda (its move answers it).

    ``resolve_option`` then takes that question off the agenda before anything else.
    """
    agenda = state["agenda"]
    if not agenda or state["over"] or leaving_now(state, seat):
        return False
    return agenda[0]["op"] == "ask" and agenda[0]["seat"] == seat


def option_in(state: State, seat: int, index: int, opt: dict[str, Any]) -> dict[str, Any]:
    """Return option ``opt``, found at ``index`` on a state equal to ``state``, as a record of its own.

    A question's options may be the input's own list (``copying.draft``: a draft that answers the
    question does not copy them), so the answer gets a copy of its record; a turn's options are
    built afresh and hold only names and numbers, so a copy of the dict does.
    """
    agenda = state["agenda"]
    if agenda and not leaving_now(state, seat):
        return separate(agenda[0]["options"][index])
    return {**opt, "args": dict(opt["args"])}


def resolve(state: State, seat: int, move: Move) -> list[Event]:
    """Carry out a legal move and run the game on to the next decision."""
    opt = next(o for o in options_for(state, seat) if to_move(o) == move)
    return resolve_option(state, seat, opt)


def resolve_option(state: State, seat: int, opt: dict[str, Any]) -> list[Event]:
    """Carry out the chosen option and run the game on to the next decision."""
    events: list[Event] = []
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
