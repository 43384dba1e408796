"""Bots for every game: choose a seat's move from what that seat may know (see bots.core)."""

from __future__ import annotations

import random

from bots.core import (
    LEVELS,
    Bot,
    Memory,
    Playbook,
    Seating,
    bot_rng,
    evaluate,
    keeps_memory,
    observe,
    outcome_share,
    playbook,
    register,
    remember,
)
from bots.levels import BasicBot, RandomBot, StrongBot, make_bot
from rules.contract import Move, Rules, Seat, State

__all__ = [
    "LEVELS",
    "BasicBot",
    "Bot",
    "Memory",
    "Playbook",
    "RandomBot",
    "Seating",
    "StrongBot",
    "bot_rng",
    "choose",
    "evaluate",
    "keeps_memory",
    "make_bot",
    "observe",
    "outcome_share",
    "playbook",
    "register",
    "remember",
]


def choose(
    rules: Rules,
    state: State,
    seat: Seat,
    level: str,
    rand: random.Random,
    *,
    budget: float | None = None,
    iterations: int | None = None,
) -> Move:
    """Return the move a bot of that level plays for a seat in a state (observe, then choose)."""
    return make_bot(level, budget=budget, iterations=iterations).choose(observe(rules, state, seat), rand)
