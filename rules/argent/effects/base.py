"""Shared pieces of the effect interpreter: events, short names, effect descriptions and small lookups."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.argent import vocab
from rules.argent.agenda import Task, frame, push
from rules.argent.events import ArgentEvent
from rules.argent.state import (
    DEPT_NAMES,
    State,
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


def say(
    events: list[Event],
    text: str,
    seats: tuple[int, ...] | None = None,
    kind: ArgentEvent = ArgentEvent.NOTE,
    **data: Any,
) -> None:
    """Record an event of that kind (public unless seats are given); ``data`` is what a summary reads."""
    events.append(Event(kind, text, seats, data))


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


def stop_frame(task: Task) -> None:
    """Drop the rest of a frame's effects (a cost could not be paid)."""
    task["list"].clear()


# --------------------------------------------------------------------------- mages: eligibility


power_side = vocab.power_side
powers_of = vocab.powers_of


def has_status(state: State, seat: int | None, name: str) -> bool:
    """Whether a status covers a seat (its own statuses, and every table-wide one)."""
    return vocab.covers(state, seat, name)


# Which act of the one protection rule each mage selector performs.
ACT_OF = {"wound": "wound", "banish": "banish", "move": "move", "heal": "heal", "push_shadow": "push_shadow"}


def count_arg(arg: dict[str, Any]) -> int | str:
    """Return a selector's count (an int, or "all")."""
    return arg.get("count", 1)


def ctx_of(state: State, fid: int | None) -> dict[str, Any]:
    """Return the context of a frame still on the agenda (or an empty one)."""
    f = frame(state, fid)
    return f["ctx"] if f else {}


def new_group(state: State) -> int:
    """Return a fresh id for a set of actions that must each be of a different kind."""
    state["fid"] += 1
    return state["fid"]


def push_times(state: State, arg: dict[str, Any], task: Task) -> None:
    """Push a task ``count`` times (default 1), each its own copy: a task changes as it runs."""
    for _ in range(arg.get("count", 1)):
        push(state, dict(task))
