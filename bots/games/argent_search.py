"""The ``strong`` bot's own search for Argent: basic's look-ahead, deeper and sharper, over many samples.

``basic`` judges each legal move by the expected votes it leads to once its own follow-ups are played
(the slot after the room, the reward after the claim), two decisions deep on one sampled state, within
90 judged states. The search reads the same tree of the seat's own decisions through the rules engine
with a sharper ``SHARP`` style: deeper, wider at each follow-up, a tie leaning to the tie-break's winner,
unplaced mages and fast placements weighed as they matter. At the decisions that shape a round (the
turn's action, where a mage goes) it repeats that reading on fresh states sampled from the seat's view
(other hands, decks, dice) while the budget lasts, and plays the move with the best average; the
bookkeeping that follows (rewards, marks, cards) gets one sharp reading.

How ``SHARP`` was chosen: copies of ``basic`` with one change each played ``basic`` over 40 games
(2 players, 20 seeds, each with the seats swapped). The depth and width (3 decisions, 300 states, 16
moves a follow-up) won 78%; four decisions and 1000 states no more; the tie reading 65%; unplaced
mages at 0.6 and fast placements at 0.3 a vote 68%; heavier or lighter worths of spare resources,
mages and cards, or a narrower logistic, 32-58%. Depth, ties and the two weights together won 92%.
An earlier search that met basic's five best moves with the next player's basic-minded answer won
45.5% over 200 games: the rival's answer, read by the same evaluator, mostly added noise.
With the sampling, at ``--budget 0.1`` over 200 games (seed 5000), ``strong`` wins 90.5% against
``basic`` with 2 players and 41% as one of 4 players (200 games; chance is 25%), in ``bench arena``.
"""

from __future__ import annotations

import random
import time

from bots.core import Seating
from bots.games import argent_lookahead as book
from rules.contract import Move

SHARP = book.Style(depth=3, nodes=300, follow_cap=16, ties=True, unplaced=0.6, fast_bonus=0.3)
"""The search's reading of a decision (``basic`` reads with ``argent.BASIC``)."""
DEADLINE_SHARE = 0.8
"""Share of the budget the search may spend before it answers (the rest is the answer's margin)."""


def search(seating: Seating, rand: random.Random, budget: float, iterations: int | None = None) -> Move:
    """Return the move whose sharp look-ahead margin, averaged over the states sampled, is best.

    ``iterations`` (samples) replaces the clock for a reproducible choice; no budget at all leaves
    the decision to ``basic``.
    """
    if iterations is None and budget <= 0:
        return book.heuristic(seating, rand)
    start = time.perf_counter()
    deadline = None if iterations is not None else start + budget * DEADLINE_SHARE
    rules, seat = seating.rules, seating.seat
    moves = list(seating.legal)
    rand.shuffle(moves)
    moves = moves[: book.MOVE_CAP]
    samples = 1 if not book.worth_searching(seating) else iterations
    totals = [0.0] * len(moves)
    rounds = 0
    while samples is None or rounds < samples:
        scored = book.score_moves(rules, seating.sample(rand), seat, moves, SHARP, deadline)
        late = deadline is not None and time.perf_counter() > deadline
        if late and rounds:
            break  # a sample cut short judged its last moves shallowly: the finished ones decide
        totals = [t + value for t, (value, _) in zip(totals, scored, strict=True)]
        rounds += 1
        if late:
            break
    best = max(range(len(moves)), key=lambda i: (round(totals[i], 9), -i))
    return moves[best]
