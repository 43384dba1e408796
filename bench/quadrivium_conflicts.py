"""Quadrivium: how long conflicts last (tricks and moves) under a random and a simple policy.

``random`` plays any legal move. ``simple`` plays like a plain beginner: it opposes every intent,
accepts the conditions as they stand, sets two tricks to win, places the card ranking highest with
the conflict types, lets a trick stand rather than spend, never aids, and otherwise picks at random.
Figures are medians (and the 90th percentile) over seeded games with the default options.
"""

from __future__ import annotations

import random
import statistics
from typing import Any

from rules.contract import Move
from rules.quadrivium.cards import rank, suit
from rules.quadrivium.engine import QuadriviumRules
from rules.quadrivium.state import SUIT_OF

R = QuadriviumRules()
SIMPLE_FIRST = ("oppose", "accept", "reveal", "stand", "pass", "done", "refill", "rest", "settle")


def _simple(state: dict[str, Any], legal: list[Move], rand: random.Random) -> Move:
    c = state["conflict"]
    places = [m for m in legal if m.action == "place"]
    if places and c:
        types = [SUIT_OF[t] for t in c["types"]]

        def worth(m: Move) -> int:
            card = m.get("card")
            return rank(card) + 2 * types.count(suit(card))

        return max(places, key=worth)
    tricks = [m for m in legal if m.action == "tricks"]
    if tricks:
        return next((m for m in tricks if m.get("n") == 2), tricks[0])
    for action in SIMPLE_FIRST:
        for m in legal:
            if m.action == action and not m.get("raise_by"):
                return m
    return rand.choice(legal)


def conflicts(policy: str, players: int, games: int, seed: int = 1) -> list[tuple[int, int]]:
    """Return (tricks, moves) of every conflict in ``games`` seeded games under a policy."""
    out: list[tuple[int, int]] = []
    for g in range(games):
        rand = random.Random(seed * 1000 + g)
        state = R.setup(players, {"creation": "quick"}, seed * 1000 + g)
        opened = None
        while not R.is_over(state):
            seat = rand.choice(R.waiting_on(state))
            legal = R.legal_moves(state, seat)
            move = rand.choice(legal) if policy == "random" else _simple(state, legal, rand)
            before = state["conflict"]
            state, _ = R.apply(state, seat, move)
            after = state["conflict"]
            if after is not None and (before is None or opened is None):
                opened = 0
            if opened is not None:
                opened += 1
            if before is not None and before.get("winner") is None and after is not None \
                    and after.get("winner") is not None:
                out.append((after["tricks"], opened))
            if after is None:
                opened = None
    return out


def _line(policy: str, players: int, games: int) -> str:
    data = conflicts(policy, players, games)
    tricks = [t for t, _ in data]
    moves = [m for _, m in data]
    p90 = statistics.quantiles(moves, n=10)[-1] if len(moves) > 1 else moves[0]
    return (f"  {policy:6} {players}p: {len(data)} conflicts in {games} games · tricks median "
            f"{statistics.median(tricks):g} (max {max(tricks)}) · moves median {statistics.median(moves):g}, "
            f"p90 {p90:g}")


def report(games: int = 20) -> str:
    """Return the conflict-length block the bench prints for Quadrivium."""
    lines = ["Quadrivium conflicts (default options, quick creation):"]
    for players in (2, 4, 6):
        for policy in ("random", "simple"):
            lines.append(_line(policy, players, games))
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
