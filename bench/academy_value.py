"""Fit the Academy search's judge: how ``basic`` games go on from each turn's start.

``python -m bench academy-value --games 600 --seed 1001`` plays, per scenario, that many games of the
balance policy (2 players, normal difficulty), records the facts of ``bots.games.academy_value.features``
at the start of every turn's actions with the game's outcome, fits a logistic model per scenario
(Newton's method with a light ridge) and prints ``WEIGHTS`` to paste into that module, then a JSON
line with each scenario's samples, wins and log loss. Its seeds start far from the arena's (1 and up),
so the games that judge the bots are not the ones the judge learned from.
"""

from __future__ import annotations

import math
from typing import Any

from bots.games.academy import standing
from bots.games.academy_value import NAMES, SIGNS, features
from rules.academy.selfplay import RULES, Policy

RIDGE = 1.0
"""How strongly the fit pulls weights toward zero (a few facts are rare, e.g. a goal spell ready)."""


def samples(scenario: str, games: int, seed: int) -> list[tuple[list[float], float]]:
    """Return (facts, won) at every turn's start of the policy's games."""
    out: list[tuple[list[float], float]] = []
    options = {"scenario": scenario, "difficulty": "normal"}
    for g in range(games):
        state = RULES.setup(2, options, seed + g)
        policy = Policy(seed + g)
        policy.mind.observe(RULES.view(state, 0), [])
        rows: list[list[float]] = []
        turn = None
        for _ in range(RULES.max_moves(2, options)):
            if RULES.is_over(state):
                break
            if state["step"] == "actions" and state["choice"] is None and state["turn"] != turn:
                turn = state["turn"]
                rows.append(features(state, policy.mind.known, standing(state)))
            seat = RULES.waiting_on(state)[0]
            state, events = RULES.apply(state, seat, policy.pick(state, seat))
            policy.mind.observe(RULES.view(state, seat), events)
        out += [(row, 1.0 if state["won"] else 0.0) for row in rows]
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Return x with a x = b (Gaussian elimination with partial pivoting; a is small and well posed)."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0.0:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(data: list[tuple[list[float], float]]) -> list[float]:
    """Return logistic weights whose signs agree with ``SIGNS``: fit, drop the facts whose weight came
    out the wrong way (a search would chase a fact that only goes with losing, e.g. Abjure's pair held
    while fire burns, and throw the pair away), and fit again without them."""
    free = set(range(len(NAMES)))
    while True:
        w = _fit(data, free)
        wrong = {i for i in free if SIGNS[i] * w[i] < 0}
        if not wrong:
            return w
        free -= wrong


def _fit(data: list[tuple[list[float], float]], free: set[int], rounds: int = 12) -> list[float]:
    """Return logistic weights fitted by Newton's method on the ``free`` facts (the others weigh 0;
    the bias is not pulled toward zero)."""
    n = len(NAMES)
    w = [0.0] * n
    for _ in range(rounds):
        grad = [-RIDGE * w[i] if i else 0.0 for i in range(n)]
        # A fact left out gets a unit diagonal and no gradient: its step, and so its weight, stays 0.
        hess = [[(RIDGE if i == j and i else 0.0) + (1.0 if i == j and i not in free else 0.0)
                 for j in range(n)] for i in range(n)]
        for x, y in data:
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x, strict=True))))))
            r, k = y - p, p * (1.0 - p)
            for i in free:
                if x[i]:
                    grad[i] += r * x[i]
                    kx = k * x[i]
                    row = hess[i]
                    for j in range(i, n):
                        if j in free:
                            row[j] += kx * x[j]
        for i in range(n):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
    return w


def log_loss(data: list[tuple[list[float], float]], w: list[float]) -> float:
    """Return the mean log loss of the weights on the data."""
    total = 0.0
    for x, y in data:
        p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, sum(a * b for a, b in zip(w, x, strict=True))))))
        p = min(1 - 1e-9, max(1e-9, p))
        total -= y * math.log(p) + (1 - y) * math.log(1 - p)
    return total / max(1, len(data))


def academy_value(games: int, seed: int, scenarios: list[str] | None = None) -> dict[str, Any]:
    """Fit every scenario's weights; return them with each fit's figures."""
    names = scenarios or list(RULES.options[0].choices)
    out: dict[str, Any] = {"games": games, "seed": seed, "weights": {}, "fits": {}}
    for scenario in names:
        data = samples(scenario, games, seed)
        w = fit(data)
        out["weights"][scenario] = [round(x, 4) for x in w]
        wins = sum(y for _, y in data)
        base = wins / max(1, len(data))
        flat = -(base * math.log(max(base, 1e-9)) + (1 - base) * math.log(max(1 - base, 1e-9)))
        out["fits"][scenario] = {"samples": len(data), "won_share": round(base, 4),
                                 "log_loss": round(log_loss(data, w), 4), "flat_log_loss": round(flat, 4)}
    return out
