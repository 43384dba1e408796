"""Institute positions at the stages a board or a sheet must draw well, found by seeded self-play."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.contract import Move
from rules.institute.engine import InstituteRules

R = InstituteRules()
State = dict[str, Any]

STAGES: dict[str, Callable[[State], bool]] = {
    "opening": lambda s: s["round"] == 1 and s["step"] == "assign",
    "one_confirmed": lambda s: s["step"] == "assign" and sum(p["confirmed"] for p in s["players"]) == 1,
    "cast": lambda s: s["phase"] == 2 and s["step"] == "cast",
    "portal_secret": lambda s: s["step"] == "portal" and s["portal_secret"],
    "portal_one_chosen": lambda s: (
        s["step"] == "portal"
        and s["portal_secret"]
        and sum(p["portal"] is not None for p in s["players"]) == 1
    ),
    "realm": lambda s: s["step"] == "realm",
    "phase4": lambda s: s["step"] == "phase4" and s["round"] >= 3,
    "power_frame": lambda s: bool(s["frames"]),
    "late": lambda s: s["step"] == "assign" and max(p["score"] for p in s["players"]) >= 14,
    "over": lambda s: s["over"],
}


def pick(rand: random.Random, moves: list[Move]) -> Move:
    """Play like a keen beginner: confirm once assigned, rarely pass, rarely spend charms."""
    confirm = [m for m in moves if m.action == "confirm"]
    if confirm and rand.random() < 0.7:
        return confirm[0]
    keen = [m for m in moves if m.action not in ("pass", "decline", "done", "refill", "keep", "reroll")]
    return rand.choice(keen or moves)


def stages(seed: int = 7, tries: int = 12) -> dict[str, State]:
    """Return the first position of each stage met in seeded games (several games when needed)."""
    found: dict[str, State] = {}
    for game in range(tries):
        rand = random.Random(seed + game)
        state = R.setup(2, {}, seed + game)
        while True:
            for name, test in STAGES.items():
                if name not in found and test(state):
                    found[name] = state
            if R.is_over(state):
                break
            seat = rand.choice(R.waiting_on(state))
            state, _ = R.apply(state, seat, pick(rand, R.legal_moves(state, seat)))
        if len(found) == len(STAGES):
            break
    return found
