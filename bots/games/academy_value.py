"""How likely the table is to win Wizard's Academy from where a search's playout stops.

``strong`` judges a playout's last state by the chance that the balance policy (``basic``) would win
from there: a logistic model per scenario over a few facts of the state (``features``): the
crystal's mana, the fires and imps and how near the crystal they burn and lurk, the glyphs the table
holds, whether it knows (or has bound) the goal spell and holds that spell's pair, whether it can put
a fire out, how many face-down spells it still has to find, how late it is, and the older hand-set
``standing``. The weights (``WEIGHTS``) were fitted by ``python -m bench academy-value`` to how
thousands of ``basic`` games went on from each turn's start (2 players, normal difficulty), so a
search that raises this chance raises the policy's own odds.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

from rules.academy.selfplay import BAD, GOAL
from rules.academy.state import CRYSTAL, distances, slot_level
from rules.contract import State

DOUSERS = ("snuff", "call_flood", "spark_out", "maelstrom", "tidal_wave", "nova")
"""Spells that put a fire out (Nova only in its own room)."""
NAMES = (
    "bias",
    "mana",
    "fire",
    "no_fire",
    "fire_near",
    "imps",
    "imps_near",
    "glyphs",
    "high_glyphs",
    "goal_known",
    "goal_ready",
    "goal_ready_no_fire",
    "douse_ready",
    "known_spells",
    "unknown_goal_level",
    "turn",
    "standing",
    "open_high",
)
"""The facts the model weighs, in the order of ``features`` and of each scenario's weights."""


def _pair(slot: str) -> Counter[int]:
    a, b = slot.split("-")
    return Counter((int(a), int(b)))


def _holds(team: Counter[int], slot: str) -> bool:
    """Whether the table holds the glyphs a slot's spell costs."""
    return all(team[g] >= n for g, n in _pair(slot).items())


def features(state: State, known: dict[str, str], standing: float) -> list[float]:
    """Return the model's facts about a state, given the spells the table remembers (by slot)."""
    rooms = [state["rooms"][r] for r in state["board"]]
    near = distances(state, CRYSTAL) if CRYSTAL in state["board"] else {}
    close = [state["rooms"][r] for r in state["board"] if near.get(r, 9) <= 1]
    fire = sum(r["fire"] for r in rooms)
    team: Counter[int] = Counter(g for w in state["wizards"] for g in w["glyphs"])
    goal = GOAL.get(state["scenario"])
    slots: dict[str, Any] = state["slots"]
    # What the table can name: the bound spells and the remembered ones (a sample keeps them in place).
    seen = {
        k: v["spell"] for k, v in slots.items() if v["spell"] and (v["bound"] or known.get(k) == v["spell"])
    }
    goal_slots = [k for k, s in seen.items() if s == goal]
    ready = any(_holds(team, k) for k in goal_slots)
    douse = any(s in DOUSERS and _holds(team, k) for k, s in seen.items())
    useful = sum(1 for k, s in seen.items() if not slots[k]["bound"] and s not in BAD)
    goal_level = next((slot_level(k) for k, v in slots.items() if v["spell"] == goal), None)
    unknown = sum(1 for k, v in slots.items() if v["spell"] and slot_level(k) == goal_level and k not in seen)
    high = any((r["source"] or 0) >= 4 and not r["guardian"] for r in rooms)
    return [
        1.0,
        float(state["mana"]),
        float(fire),
        1.0 if fire == 0 else 0.0,
        float(sum(r["fire"] for r in close)),
        float(sum(r["imp"] for r in rooms)),
        float(sum(r["imp"] for r in close)),
        float(sum(min(8, len(w["glyphs"])) for w in state["wizards"])),
        float(sum(n for g, n in team.items() if g >= 4)),
        1.0 if goal_slots else 0.0,
        1.0 if ready else 0.0,
        1.0 if ready and fire == 0 else 0.0,
        1.0 if douse else 0.0,
        float(useful),
        float(unknown),
        float(state["turn"]),
        standing,
        1.0 if high else 0.0,
    ]


WEIGHTS: dict[str, tuple[float, ...]] = {
    "basic": (
        -3.0027, -0.3764, -0.2159, 0.6099, 1.2834, 0.1964,
        0.0479, 0.0202, -0.0104, 1.6209, -0.3671, 1.9707,
        0.4478, 0.1149, 0.0576, -0.0845, 0.4639, 1.1769,
    ),
    "golem": (
        -1.8372, -0.0638, 0.0791, -0.065, 0.4983, 0.048,
        0.2179, -0.0177, -0.1947, -0.2316, 1.0517, -0.0038,
        -0.1054, 0.0306, -0.0066, -0.0574, 0.2728, -0.208,
    ),
    "unstable": (
        -2.0283, 0.0329, -0.0324, -0.0375, 0.0359, -0.0427,
        -0.1151, 0.0708, 0.0185, 1.7678, 2.3902, -0.9418,
        -0.1912, -0.0303, -0.0613, -0.0796, 0.0937, 1.3408,
    ),
    "gates": (
        -1.0111, -0.0661, 0.0856, -0.1612, 0.3427, -0.0194,
        0.1363, -0.0252, 0.0606, 0.3941, 0.9423, -1.1093,
        -0.0389, 0.1524, 0.0271, -0.0561, 0.2151, 0.0,
    ),
    "demon": (
        -2.7168, 0.4148, -0.1081, 0.2141, 0.4725, -0.1541,
        0.0771, -0.0171, 0.0967, 1.7763, -0.1054, 0.0612,
        0.7116, -0.1979, -0.2496, -0.0603, -0.1147, 0.7336,
    ),
}
"""Per scenario, one weight per name in ``NAMES`` (fitted: see the module's docstring)."""


def chance(state: State, known: dict[str, str], standing: float) -> float | None:
    """Return the model's chance that the table wins from this state (None: no weights for the scenario)."""
    weights = WEIGHTS.get(state["scenario"])
    if weights is None:
        return None
    z = sum(w * x for w, x in zip(weights, features(state, known, standing), strict=True))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
