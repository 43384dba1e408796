"""Setup decisions (candidates, powers, draft, starting Marks) and a player leaving (FAQ)."""

from __future__ import annotations

import re
from typing import Any

from rules.argent import content, effects
from rules.argent.agenda import Task, option, push
from rules.argent.copying import own
from rules.argent.effects import say
from rules.argent.setup import give_mage, seat_mages, take_candidate
from rules.argent.state import (
    CENTRAL,
    DEPT_NAMES,
    NEUTRAL,
    State,
    can_hold,
    order_from,
    room_name,
    rooms_in_play,
    supply_mage,
)
from rules.contract import Event

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
    # While picks remain the draft is one thread message, edited as picks come in, and the next
    # picker is told by DM and on its panel (the service's ``notify.DRAFT``).
    more = {"draft": True} if state["queue"] else {}
    say(events, f"P{seat + 1} drafts a {DEPT_NAMES[opt['args']['type']]} mage.", **more)


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
    own(state, "mage_powers")[dept] = opt["args"]["side"]
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
    board = own(state, "board")
    grid = board["grid"]
    for room in rooms:
        for row in grid:
            if room in row:
                row[row.index(room)] = None
        board["rooms"].pop(room, None)
    # Shrink the board: drop rows and columns left empty.
    grid = [row for row in grid if any(row)]
    width = max((len(row) for row in grid), default=0)
    keep = [x for x in range(width) if any(x < len(row) and row[x] for row in grid)]
    board["grid"] = [[row[x] if x < len(row) else None for x in keep] for row in grid]
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
