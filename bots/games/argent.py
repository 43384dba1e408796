"""What the bots know of Argent: The Consortium.

The evaluator counts the votes as if the game ended now (``rules.argent.scoring.count_votes`` on a
sampled state, so the voters the seat has not seen are guesses) and adds a little for Influence and
the resources that win voters later. ``basic`` looks one move ahead with it on one sampled state;
a placement, whose reward only comes at the round's resolution, is judged by its slot instead (a
merit slot first, then the slots that resolve early). The search plays random playouts for a
stretch of the round, then judges with the evaluator.
"""

from __future__ import annotations

import math
import random
from typing import Any

from bots.core import Playbook, Seating, evaluate, register
from rules.argent import content
from rules.argent.scoring import count_votes
from rules.contract import Move, Rules, Seat, State

HORIZON = 40
"""Plies a search playout runs before the evaluator judges it."""
PLACEMENTS = frozenset({"place", "room", "shadow"})
"""Moves that put a mage somewhere: their reward waits for the resolution."""
IDLE = frozenset({"pass"})
PLACEMENT_WEIGHT = 0.003
BELL_COST = 0.05
"""The share a mage left at home costs when the seat takes a Bell Tower offering."""
"""How much a slot's worth (in resource units) counts against the evaluator's share."""


def _standing(state: State, seat: Seat, votes: list[int]) -> float:
    """Return a seat's votes now plus a small share for what tends to win voters later."""
    office = state["seats"][seat]
    marks = sum(1 for v in state["voters"] for s in v["marks"] if s == seat)
    spells = sum(s["level"] for s in office["spells"])
    resources = office["gold"] + office["mana"] + office["int"] + office["wis"]
    return (
        votes[seat]
        + 0.12 * office["ip"]
        + 0.04 * resources
        + 0.15 * spells
        + 0.1 * marks
        + 0.1 * len(office["supporters"])
        + 0.1 * len(office["vaults"])
    )


def evaluate_state(rules: Rules, state: State, seat: Seat) -> float:
    """Return a share in [0, 1] from the lead over the best other seat."""
    votes = count_votes(state)["votes"]
    seats = [s for s in range(state["players"]) if not state["seats"][s].get("left")]
    mine = _standing(state, seat, votes)
    best_other = max((_standing(state, s, votes) for s in seats if s != seat), default=0.0)
    return 1.0 / (1.0 + math.exp(-(mine - best_other) / 1.5))


ACTION_WORTH = 1.0
"""What an effect without a number (draft, research, buy, a spell) is worth, in resource units."""


def _effect_worth(effect: Any) -> float:
    """Return a rough worth of a slot's effects: the amounts it grants, the best of a choice."""
    if isinstance(effect, bool):
        return 0.0
    if isinstance(effect, int | float):
        return float(effect)
    if isinstance(effect, list):
        return sum(_effect_worth(e) for e in effect)
    if isinstance(effect, dict):
        if "choose" in effect:
            return max((_effect_worth(o) for o in effect["choose"]), default=0.0)
        return sum(
            _effect_worth(v) if isinstance(v, int | float | list | dict) else ACTION_WORTH
            for v in effect.values()
        ) + (ACTION_WORTH if any(isinstance(v, dict) and not v for v in effect.values()) else 0.0)
    return 0.0


def _slot_worth(state: State, room: str, slot_id: str) -> float:
    """Return how good a slot of a room looks before it resolves: its effects, a merit slot more."""
    side = state["board"]["rooms"][room]["side"]
    slots = {s["id"]: s for s in content.room_side(room, side)["slots"]}
    slot = slots.get(slot_id)
    if slot is None:
        return 0.0
    if "of" in slot:  # a shadow slot copies the slot it shadows
        slot = slots.get(slot["of"], slot)
    worth = _effect_worth(slot.get("effects", []))
    return worth + (1.0 if slot.get("kind", "").endswith("merit") else 0.0)


def _room_worth(state: State, room: str) -> float:
    """Return the worth of the best slot still open in a room."""
    if room not in state["board"]["rooms"]:
        return 0.0
    side = state["board"]["rooms"][room]["side"]
    taken = {m["loc"] for m in state["mages"]}
    open_slots = [
        s["id"]
        for s in content.room_side(room, side)["slots"]
        if "shadow" not in s.get("kind", "") and f"{room}/{s['id']}" not in taken
    ]
    return max((_slot_worth(state, room, s) for s in open_slots), default=0.0)


def _placement_worth(state: State, move: Move) -> float:
    """Return how good a placement looks: the room's best open slot, or the chosen slot."""
    room = move.get("room")
    slot = move.get("slot")
    if room is None and slot is not None:
        front = state["agenda"][0] if state["agenda"] else {}
        room = (front.get("data") or {}).get("room")
    if not isinstance(room, str):
        return 0.0
    if isinstance(slot, str):
        return _slot_worth(state, room, slot)
    return _room_worth(state, room)


def heuristic(seating: Seating, rand: random.Random) -> Move:
    """Return the move with the best one-ply evaluation (placements by their slot)."""
    rules, seat = seating.rules, seating.seat
    state = seating.sample(rand)
    order = list(seating.legal)
    rand.shuffle(order)
    best, best_value = order[0], -math.inf
    for move in order[:40]:
        after, _ = rules.apply(state, seat, move)
        value = evaluate(rules, after, seat)
        if move.action in PLACEMENTS:
            value += PLACEMENT_WEIGHT * _placement_worth(state, move)
        if move.action in IDLE:
            value -= 0.02
        if move.action == "bell":
            # Taking a Bell Tower offering ends the seat's round: every mage still at home is lost.
            value -= BELL_COST * sum(1 for m in state["mages"] if m["owner"] == seat and m["loc"] == "office")
        if value > best_value:
            best, best_value = move, value
    return best


PLAYBOOK = register("argent", Playbook(heuristic=heuristic, evaluate=evaluate_state, horizon=HORIZON))
