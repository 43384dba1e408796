"""How a move is named where everyone reads it: the thread, the public history, an undo vote.

``Rules.label`` names a move in its mover's words, which may name what only the mover knows (a
card put face down, an Action Card under a die, the supporter kept after a look). Everywhere the
public reads, a move goes by ``Rules.public_label`` (safe default: the action's name) beside its
public events. One exception, decided here for every game: a lone move the service plays by
itself (a forced decision) is no choice, so its full label is shown when re-dealing everything
the public cannot see leaves that label the same.
"""

from __future__ import annotations

import random

from rules.contract import Move, Rules, Seat, State

REDEALS = 3
"""How many re-deals of the hidden things a forced move's label must survive to be shown."""


def automatic_label(rules: Rules, state: State, seat: Seat, move: Move) -> str:
    """Return how the board names a move the service played by itself (a forced one)."""
    full = rules.label(state, seat, move)
    for n in range(REDEALS):
        # A seeded generator of our own: the same table always reads the same words.
        seen = rules.scramble(state, None, random.Random(n))
        if rules.label(seen, seat, move) != full:
            return rules.public_label(state, seat, move)
    return full


def own_or_public(rules: Rules, state: State, seat: Seat, move: Move, reader: Seat | None) -> str:
    """Return the move's full label for its own seat, its public label for anyone else."""
    if reader is not None and reader == seat:
        return rules.label(state, seat, move)
    return rules.public_label(state, seat, move)
