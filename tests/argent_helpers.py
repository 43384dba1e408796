"""Helpers for the Argent engine tests: reach a round quickly, then act through the real rules."""

from __future__ import annotations

from typing import Any

from rules import registry
from rules.argent import engine
from rules.argent.agenda import push_effects
from rules.argent.state import State
from rules.contract import Move

R = registry.get("argent")


def opening(players: int = 3, seed: int = 7, **options: str) -> State:
    """Return a fresh game after setup, still at the mage draft."""
    return R.setup(players, options, seed)


def through_setup(state: State) -> State:
    """Play the draft and the starting Marks with the first legal choice each time."""
    while state["phase"] in ("draft", "marks"):
        seat = R.pending(state)[0].seat
        state, _ = R.apply(state, seat, R.legal_moves(state, seat)[0])
    return state


def round_one(players: int = 3, seed: int = 7, **options: str) -> State:
    """Return a game at the first turn of round 1."""
    return through_setup(opening(players, seed, **options))


def seat_now(state: State) -> int:
    """Return the seat the game waits on."""
    return R.pending(state)[0].seat


def act(state: State, seat: int, action: str, **args: Any) -> State:
    """Apply a move through the rules (so it must be legal)."""
    new, _ = R.apply(state, seat, Move.of(action, **args))
    return new


def labels(state: State, seat: int | None = None) -> list[str]:
    """Return the labels of the waiting seat's legal moves."""
    seat = seat_now(state) if seat is None else seat
    return [R.label(state, seat, m) for m in R.legal_moves(state, seat)]


def pick(state: State, text: str, seat: int | None = None) -> State:
    """Apply the waiting seat's only legal move whose label contains ``text``."""
    seat = seat_now(state) if seat is None else seat
    found = [m for m in R.legal_moves(state, seat) if text in R.label(state, seat, m)]
    assert len(found) >= 1, f"no move labelled like {text!r}; have {labels(state, seat)}"
    new, _ = R.apply(state, seat, found[0])
    return new


def set_turn(state: State, seat: int) -> State:
    """Give the turn to a seat (a fresh turn with one action and the fast action unused)."""
    state = dict(state)
    state["turn"] = engine.fresh_turn(seat)
    return state


def mage_of(state: State, seat: int, mage_type: str, loc: str = "office") -> dict[str, Any]:
    """Return a seat's mage of a type at a location."""
    return next(
        m for m in state["mages"] if m["owner"] == seat and m["type"] == mage_type and m["loc"] == loc
    )


def give_mage(state: State, seat: int, mage_type: str, loc: str = "office") -> dict[str, Any]:
    """Hand a seat a mage from the supply, standing where asked."""
    pool = [
        x for x in state["mages"] if x["owner"] is None and x["type"] == mage_type and x["loc"] == "supply"
    ]
    # With the supply drained by the draft, borrow a pawn waiting in another office.
    pool += [
        x
        for x in state["mages"]
        if x["owner"] not in (None, seat) and x["type"] == mage_type and x["loc"] == "office"
    ]
    m = pool[0]
    m["owner"], m["loc"], m["temp"] = seat, loc, False
    return m


def wound_in_guilds(state: State, seat: int) -> State:
    """Give the seat a Sorcery mage, place it in Guilds and choose its power's wound (the target is next)."""
    give_mage(state, seat, "sorcery")
    state = act(state, seat, "place", room="guilds")
    return pick(state, "wounds")


def at(state: State, loc: str) -> dict[str, Any] | None:
    """Return the mage at a board location."""
    return next((m for m in state["mages"] if m["loc"] == loc), None)


def to_resolution(state: State) -> State:
    """Take Bell Tower offerings until the rooms resolve (others place nothing)."""
    start = state["round"]
    while state["phase"] == "errands" and not state["agenda"] and state["round"] == start:
        seat = seat_now(state)
        bells = [m for m in R.legal_moves(state, seat) if m.action == "bell"]
        state, _ = R.apply(state, seat, bells[0])
        while state["agenda"] and state["phase"] == "errands":
            seat = seat_now(state)
            moves = R.legal_moves(state, seat)
            passes = [m for m in moves if m.action == "pass"]
            state, _ = R.apply(state, seat, (passes or moves)[0])
    return state


def run(state: State, seat: int, effects: list[dict[str, Any]], via: str = "spell") -> State:
    """Queue an effect list for a seat (from a source: a spell by default) and run on to the next decision."""
    push_effects(state, seat, effects, {"via": via})
    engine.advance(state, [])
    return state


def board_with(state: State, room: str, side: str = "A", replacing: str = "catacombs") -> State:
    """Swap a room of the board for another (for rooms not in the first-game layouts)."""
    for row in state["board"]["grid"]:
        if replacing in row:
            row[row.index(replacing)] = room
    state["board"]["rooms"].pop(replacing)
    state["board"]["rooms"][room] = {"side": side, "locked": False, "marker": 0, "cards": []}
    return state
