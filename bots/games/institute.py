"""What the bots know of The Institute for Magical Arts.

``basic`` plays the greedy policy of the Institute's balance tool (``bots.games.institute_policy``:
take stones on high dice, cast toward the card it is closest to winning, aim powers at the best
card) on a state sampled from its view, so it reads nothing its seat may not know. The search
plays the same policy in its playouts and judges where a playout stops by the score and by how
close each player stands to the cards on offer.
"""

from __future__ import annotations

import math
import random

from bots.core import Playbook, Seating, register
from bots.games.institute_policy import pick
from rules.contract import Move, Rules, Seat, State
from rules.institute.moves import assign_moves
from rules.institute.reads import (
    assignment,
    card_at,
    cards_face_down,
    characters,
    charms,
    confirmed,
    dice,
    locations,
    score,
    stones,
    stones_at,
)
from rules.institute.reads import (
    holdings as held,
)
from rules.institute.state import card, player

HORIZON = 24
"""Plies a search playout runs before the evaluator judges it (a round is about 19 plies).

Measured against basic at a 0.1 s budget, 40 games each (seed 1): 24 plies won 82.5%, 48 won 77.5%;
shorter playouts leave time for more rounds, and the evaluator already counts the stake in cards.
"""


def heuristic(seating: Seating, rand: random.Random) -> Move:
    """Return the greedy policy's move on a state consistent with the seat's view."""
    state = seating.sample(rand)
    return pick(rand, list(seating.legal), "greedy", state, seating.seat)


def rollout_policy(rules: Rules, state: State, seat: Seat, legal: list[Move], rand: random.Random) -> Move:
    """Play the greedy policy inside a search's playout."""
    return pick(rand, legal, "greedy", state, seat)


def _standing(state: State, seat: Seat) -> float:
    """Return a seat's score plus its stake in the cards on offer, in VP."""
    worth = float(score(state, seat)) + 0.15 * stones(state, seat) + 0.1 * charms(state, seat)
    for i in locations(state):
        c = card_at(state, i)
        if c is None:
            continue
        mine, theirs = stones_at(state, i, seat), stones_at(state, i, 1 - seat)
        vp = (characters(state, seat) + 1) if c.character else (c.vp or 0) + 0.5
        # Stones ahead of the other player on a card, as a share of its cost, are part of its VP.
        lead = max(0, mine - theirs) / max(1, c.cost)
        worth += 0.6 * vp * min(1.0, lead)
    return worth


def evaluate(rules: Rules, state: State, seat: Seat) -> float:
    """Return a share in [0, 1] from the lead in score and stake, scaled to the goal."""
    margin = _standing(state, seat) - _standing(state, 1 - seat)
    return 1.0 / (1.0 + math.exp(-margin / 3.0))


GREEDY_BELIEF = 0.75
"""How often a search imagines the rival's hidden Action Cards laid by the greedy policy (else at random)."""


def believe(rules: Rules, state: State, seat: Seat, rand: random.Random) -> State:
    """Re-lay the rival's secret Action Cards as a sensible player would, most of the time.

    The scramble lays them uniformly at random; a rival usually casts where its dice point at a card
    it wants. The rival's dice and the board are public, so this reads nothing the seat may not know.
    A rival still assigning gets an empty hand back: the playout's policy lays it.
    """
    if not cards_face_down(state) or rand.random() >= GREEDY_BELIEF:
        return state
    rival = 1 - seat
    them = player(state, rival)
    them["assign"], them["changes"] = [None] * len(dice(state, rival)), 0
    if not confirmed(state, rival):
        return state
    them["confirmed"] = False  # so the rival may be asked to lay its cards again
    while None in assignment(state, rival):
        lay = [m for m in assign_moves(state, rival) if m.action == "assign"]
        move = pick(rand, lay, "greedy", state, rival)
        assignment(state, rival)[move.get("die") - 1] = move.get("card")
    them["confirmed"] = True
    return state


def holdings(state: State, seat: Seat) -> set[str]:
    """Return the keys of the Institute Cards a seat holds (for the arena's card balance check)."""
    return {card(c).key for c in held(state, seat)}


PLAYBOOK = register(
    "institute",
    Playbook(
        heuristic=heuristic,
        evaluate=evaluate,
        rollout=rollout_policy,
        horizon=HORIZON,
        believe=believe,
        race=True,
        extra={"holdings": holdings},
    ),
)
