"""Helpers for the Institute tests: build a position by hand, then drive it with real moves."""

from __future__ import annotations

from typing import Any

from rules.contract import Move
from rules.institute import engine
from rules.institute.cards import deck
from rules.institute.engine import InstituteRules
from rules.institute.state import STONES_PER_COLOUR, stones_in_play

R = InstituteRules()


def fresh(seed: int = 1, **options: str) -> dict[str, Any]:
    """Return a new game's state."""
    return R.setup(2, options, seed)


def card_id(state: dict[str, Any], key: str) -> int:
    """Take a copy of the card named by key out of wherever it is (deck, a Location) and return its id."""
    for cid, c in enumerate(deck()):
        if c.key != key:
            continue
        held = any(cid in p["active"] or cid in p["inactive"] for p in state["players"])
        if held:
            continue
        if cid in state["deck"]:
            state["deck"].remove(cid)
            return cid
        for i, slot in enumerate(state["slots"]):
            if slot["card"] == cid:
                state["supply"][0] += slot["stones"][0]
                state["supply"][1] += slot["stones"][1]
                state["slots"][i] = {"kind": "empty", "card": None, "stones": [0, 0]}
                return cid
    raise AssertionError(f"no free copy of {key}")


def put(state: dict[str, Any], location: int, key: str, red: int = 0, blue: int = 0) -> int:
    """Place a card at a Location (1-based) with stones on it, taken from the general supply."""
    old = state["slots"][location - 1]
    if old["kind"] == "card":
        state["deck"].append(old["card"])
    state["supply"][0] += old["stones"][0]
    state["supply"][1] += old["stones"][1]
    cid = card_id(state, key)
    state["slots"][location - 1] = {"kind": "card", "card": cid, "stones": [red, blue]}
    state["supply"][0] -= red
    state["supply"][1] -= blue
    return cid


def put_portal(state: dict[str, Any], location: int, red: int = 0, blue: int = 0) -> None:
    """Move the Portal to a Location with these stones (the card there goes back to the deck)."""
    i = next(i for i, s in enumerate(state["slots"]) if s["kind"] == "portal")
    old_portal = state["slots"][i]
    state["supply"][0] += old_portal["stones"][0]
    state["supply"][1] += old_portal["stones"][1]
    target = state["slots"][location - 1]
    state["slots"][i] = target if location - 1 != i else old_portal
    state["slots"][location - 1] = {"kind": "portal", "card": None, "stones": [red, blue]}
    state["supply"][0] -= red
    state["supply"][1] -= blue


def give(state: dict[str, Any], seat: int, key: str) -> int:
    """Hand a card to a player's active zone (no VP scored)."""
    cid = card_id(state, key)
    state["players"][seat]["active"].append(cid)
    return cid


def clear_hands(state: dict[str, Any]) -> None:
    """Return both players' starting cards to the deck so scenarios start bare."""
    for p in state["players"]:
        state["deck"].extend(p["active"] + p["inactive"])
        p["active"], p["inactive"] = [], []


def set_stones(state: dict[str, Any], seat: int, n: int) -> None:
    """Set a player's personal stones, keeping the colour's total at 30 via the supply."""
    p = state["players"][seat]
    state["supply"][seat] += p["stones"] - n
    p["stones"] = n


def play(state: dict[str, Any], seat: int, action: str, **args: Any) -> tuple[dict[str, Any], list]:
    """Apply one move (it must be legal)."""
    return R.apply(state, seat, Move.of(action, **args))


def plan(state: dict[str, Any], seat: int, dice: list[int], assign: list[str]) -> None:
    """Set a seat's dice and Action Cards for this round (not yet confirmed)."""
    p = state["players"][seat]
    p["dice"] = list(dice)
    p["assign"] = list(assign)


def confirm_both(state: dict[str, Any]) -> tuple[dict[str, Any], list]:
    """Confirm both seats' (already planned) assignments; return the state after the reveal."""
    events: list = []
    for seat in (0, 1):
        state, ev = play(state, seat, "confirm")
        events += ev
    return state, events


def jump(state: dict[str, Any], step: str) -> dict[str, Any]:
    """Put the game at the start of a step (phase3 portal, phase4, window5, check) and run it."""
    events: list = []
    if step == "portal":
        engine._start_portal(state, events)
    elif step == "phase4":
        engine._start_phase4(state, events)
    elif step == "window3":
        state["phase"] = 3
        engine._open_window(state, 3, events)
    elif step == "window5":
        state["phase"] = 4
        engine._open_window(state, 5, events)
    elif step == "check":
        state["phase"], state["step"], state["check_at"] = 5, "check", 0
    else:
        raise AssertionError(step)
    engine.advance(state, events)
    return state


def balanced(state: dict[str, Any]) -> bool:
    """Whether each colour still has exactly its 30 stones somewhere."""
    return all(stones_in_play(state, seat) == STONES_PER_COLOUR for seat in (0, 1))
