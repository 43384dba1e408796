"""What the bots know of Wizard's Academy.

``basic`` plays the cooperative policy of the Academy's balance tool (``rules.academy.selfplay``) from
the seat's view alone. A bot keeps no memory between moves, so it remembers only what the view shows:
bound spells and this turn's reveal (under ``memory=strict`` that is all a player may rely on anyway).
The search judges a state by the crystal's mana, the fire left and the spells bound.
"""

from __future__ import annotations

import random

from bots.core import Playbook, Seating, register
from rules.academy.selfplay import Mind, Policy, best_shift
from rules.contract import Move, Rules, Seat, State


def heuristic(seating: Seating, rand: random.Random) -> Move:
    """Return the policy's move for the seat, remembering only what its view shows now."""
    policy = Policy(rand.getrandbits(32))
    if seating.view["step"] == "shifts":
        return best_shift(seating.sample(rand))  # the board is public: any sample has the real one
    policy.mind = Mind()
    policy.mind.observe(seating.view, [])
    return policy.decide(seating.view, seating.seat, list(seating.legal))


def evaluate(rules: Rules, state: State, seat: Seat) -> float:
    """Return a share in [0, 1]: more mana, less fire, more bound spells stand better."""
    fire = sum(state["rooms"][r]["fire"] for r in state["board"])
    bound = sum(1 for v in state["slots"].values() if v["bound"])
    score = 0.08 * state["mana"] - 0.05 * fire + 0.03 * bound + 0.2
    return max(0.0, min(1.0, score))


# Playouts use the generic random policy: the heuristic builds a view per move, too slow for a search.
PLAYBOOK = register("academy", Playbook(heuristic=heuristic, evaluate=evaluate, horizon=40))
