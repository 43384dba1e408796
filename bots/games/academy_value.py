"""How likely the table is to win Wizard's Academy from where a search's playout stops.

``strong`` judges a playout's last state by the chance that the balance policy (``basic``) would win
from there: a logistic model per scenario over a few facts of the state (``features``): the
crystal's mana, the fires and imps and how near the crystal they burn and lurk, the glyphs the table
holds, whether it knows (or has bound) the goal spell and holds that spell's pair, whether it can put
a fire out, how many face-down spells it still has to find, how late it is, and the older hand-set
``standing``. The weights (``WEIGHTS``) were fitted by
``python -m bench academy-value --games 500 --seed 1001`` to how 17,000-23,000 turn starts of
``basic`` games per scenario went on (2 players, normal difficulty), each weight kept to its sensible
sign (``SIGNS``), so a search that raises this chance raises the policy's own odds.
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
SIGNS = (0, 1, -1, 1, -1, -1, -1, 1, 1, 1, 1, 1, 1, 1, -1, 0, 1, 1)
"""Which way each fact may weigh (1: only up, -1: only down, 0: either). A search maximises the
model, so a weight that only mirrors how the policy loses (Abjure's pair held while fire burns goes
with the policy waiting in the crystal) must not lure it into throwing good things away."""


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
        -3.6701, 0.0, 0.0, 1.3122, 0.0, 0.0,
        0.0, 0.0277, 0.0, 1.4919, 0.0, 1.5765,
        0.5029, 0.0, 0.0, -0.044, 0.2106, 1.2044,
    ),
    "golem": (
        -1.5879, 0.0, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 1.2811, 0.0,
        0.0, 0.0, -0.0626, -0.0693, 0.2063, 0.0,
    ),
    "unstable": (
        -2.2595, 0.0386, 0.0, 0.0, -0.0277, -0.0564,
        -0.1013, 0.0702, 0.0118, 1.9016, 1.6096, 0.0,
        0.0, 0.0, -0.0392, -0.0771, 0.078, 1.4521,
    ),
    "gates": (
        -0.2962, 0.0, 0.0, 0.0, 0.0, -0.062,
        0.0, 0.0201, 0.0357, 0.5175, 0.8363, 0.0,
        0.0, 0.0327, -0.0723, -0.0672, 0.1108, 0.0,
    ),
    "demon": (
        -3.8089, 0.3318, -0.0339, 0.0314, 0.0, -0.095,
        0.0, 0.0, 0.0662, 1.5959, 0.0, 0.0,
        0.4415, 0.0, -0.1037, -0.0522, 0.0, 0.773,
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
