"""The agenda: pending effect lists and decisions, front first.

Every choice an effect needs is an ``ask`` task at the front of ``state["agenda"]``: it names
the seat, a kind (which answer handler applies it) and its options, each a move with a label.
The next move answers it. Effect lists run as ``effects`` frames; a frame keeps its context
(the mage just targeted, the slot it left...) so the next effect of the same list can use it.
"""

from __future__ import annotations

from typing import Any

from rules.argent.state import State

Task = dict[str, Any]


def new_fid(state: State) -> int:
    """Return a fresh frame id."""
    state["fid"] += 1
    return state["fid"]


def push(state: State, *tasks: Task) -> None:
    """Put tasks at the front of the agenda, the first given first."""
    state["agenda"][0:0] = list(tasks)


def push_effects(
    state: State,
    seat: int,
    effects: list[dict[str, Any]],
    ctx: dict[str, Any] | None = None,
) -> Task:
    """Queue an effect list for a seat at the front of the agenda; return its frame."""
    frame = {
        "op": "effects",
        "fid": new_fid(state),
        "seat": seat,
        "list": list(effects),
        "ctx": dict(ctx or {}),
    }
    push(state, frame)
    return frame


def option(action: str, label: str, **args: Any) -> dict[str, Any]:
    """Return one option of an ask: a move (action and arguments) and its sentence."""
    return {"action": action, "args": args, "label": label}


def as_fast(opt: dict[str, Any]) -> dict[str, Any]:
    """Mark a turn's option as a fast action (the seat's view lists them; nobody reads labels)."""
    opt["fast"] = True
    return opt


def ask(
    state: State,
    seat: int,
    kind: str,
    options: list[dict[str, Any]],
    prompt: str,
    *,
    fid: int | None = None,
    data: dict[str, Any] | None = None,
    react: bool = False,
    secret: bool = False,
) -> Task | None:
    """Put a decision at the front of the agenda; with no option there is nothing to decide."""
    if not options:
        return None
    office = state["seats"][seat]
    if office.get("left") or office.get("leaving"):
        # A player who is leaving makes no more decisions (FAQ: play goes on without them).
        return None
    task = {
        "op": "ask",
        "seat": seat,
        "kind": kind,
        "options": options,
        "prompt": prompt,
        "fid": fid,
        "data": data or {},
        "react": react,
        "secret": secret,
    }
    push(state, task)
    return task


def frame(state: State, fid: int | None) -> Task | None:
    """Return the effects frame with that id if it is still on the agenda."""
    if fid is None:
        return None
    for task in state["agenda"]:
        if task.get("op") == "effects" and task.get("fid") == fid:
            return task
    return None


def set_ctx(state: State, fid: int | None, **values: Any) -> None:
    """Write into a frame's context (if the frame still has effects to run)."""
    f = frame(state, fid)
    if f is not None:
        f["ctx"].update(values)


def current_ask(state: State) -> Task | None:
    """Return the decision the game waits on, if the front of the agenda is one."""
    agenda = state["agenda"]
    if agenda and agenda[0]["op"] == "ask":
        return agenda[0]
    return None
