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

from bots.core import Playbook, Seating, evaluate, register
from rules.argent.scoring import count_votes
from rules.contract import Move, Rules, Seat, State

HORIZON = 40
"""Plies a search playout runs before the evaluator judges it."""
PLACEMENTS = frozenset({"place", "room", "shadow"})
"""Moves that put a mage somewhere: their reward waits for the resolution."""
IDLE = frozenset({"pass"})


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


def _slot_worth(move: Move) -> float:
    """Return how good a slot looks without resolving it: merit slots first, early slots next."""
    slot = move.get("slot")
    if not isinstance(slot, str) or not slot:
        return 0.0
    worth = 0.3 if slot.startswith("m") else 0.0
    digits = "".join(ch for ch in slot if ch.isdigit())
    return worth + (0.1 / int(digits) if digits else 0.0)


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
            value += 0.05 * _slot_worth(move)
        if move.action in IDLE:
            value -= 0.02
        if value > best_value:
            best, best_value = move, value
    return best


PLAYBOOK = register("argent", Playbook(heuristic=heuristic, evaluate=evaluate_state, horizon=HORIZON))
