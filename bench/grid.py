"""A cooperative game's table of one level against the game itself, per scenario and difficulty.

``python -m bench grid --game academy --players 2 --levels random,basic,strong --games 100,100,20``
plays, for every pair of option values (by default the options ``scenario`` and ``difficulty``), a
table whose every seat is one level, with the same seeds for every level, and prints the win rate of
each level per cell with a 95% interval, then a JSON line. Each cell is one ``bench arena`` run
(``--seats L,L --option scenario=S --option difficulty=D``). ``--option`` fixes other options, or
narrows the grid to one scenario with ``--axes difficulty --option scenario=S``.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from itertools import product
from typing import Any

from bench.arena import _interval, arena
from rules.contract import Rules


@dataclass
class Cell:
    """One level's table in one scenario and difficulty."""

    options: dict[str, str]
    level: str
    games: int
    won: float
    errors: int
    decision_ms: float | None
    decision_ms_max: float | None
    decision_cpu_ms_max: float | None = None
    """The slowest decision's processor time (its wall time less a busy machine's waits)."""


def cells(rules: Rules, axes: tuple[str, ...]) -> list[dict[str, str]]:
    """Return every combination of the named options' values, in the game's order."""
    specs = {o.name: o for o in rules.options}
    unknown = [a for a in axes if a not in specs]
    if unknown:
        raise ValueError(f"{rules.title} has no option {', '.join(unknown)}.")
    return [dict(zip(axes, values, strict=True)) for values in product(*(specs[a].choices for a in axes))]


def grid(
    rules: Rules,
    players: int,
    levels: list[str],
    games: list[int],
    seed: int,
    *,
    axes: tuple[str, ...] = ("scenario", "difficulty"),
    budget: float | None = None,
    fixed: dict[str, str] | None = None,
    progress: Callable[[Cell], None] | None = None,
) -> list[Cell]:
    """Play every cell for every level (same seeds for every level) and return the results."""
    if not rules.cooperative:
        raise ValueError("The grid is for cooperative games: a table of one level plays the game itself.")
    if len(games) != len(levels):
        raise ValueError("Give one number of games per level.")
    out = []
    for options in cells(rules, axes):
        for level, count in zip(levels, games, strict=True):
            table = {**(fixed or {}), **options}
            report = arena(rules, players, count, seed, [level] * players, budget=budget, options=table)
            shares = [1.0 if g.shares else 0.0 for g in report.games if not g.error]
            times = report.times.get(level, [])
            cell = Cell(
                table, level, len(report.games), sum(shares), sum(1 for g in report.games if g.error),
                round(statistics.median(times) * 1000, 2) if times else None,
                round(max(times) * 1000, 2) if times else None,
                round(max(report.cpu[level]) * 1000, 2) if report.cpu.get(level) else None,
            )
            out.append(cell)
            if progress is not None:
                progress(cell)
    return out


def format_grid(rules: Rules, players: int, levels: list[str], results: list[Cell]) -> str:
    """Return the table: one row per cell, one column per level (wins / games, share, 95% interval)."""
    lines = [f"{rules.title}, {players} players, a table of one level against the game:"]
    head = f"{'cell':<24}" + "".join(f"{level:>28}" for level in levels)
    lines.append(head)
    rows: dict[str, dict[str, Cell]] = {}
    for cell in results:
        rows.setdefault("/".join(cell.options.values()), {})[cell.level] = cell
    for name, row in rows.items():
        parts = []
        for level in levels:
            c = row.get(level)
            if c is None:
                parts.append(f"{'-':>28}")
                continue
            ok = c.games - c.errors
            mean, low, high = _interval([1.0] * int(c.won) + [0.0] * (ok - int(c.won)))
            parts.append(f"{f'{int(c.won)}/{ok} {mean:4.0%} ({low:.0%}-{high:.0%})':>28}")
        lines.append(f"{name:<24}" + "".join(parts))
    return "\n".join(lines)


def grid_json(
    rules: Rules, players: int, seed: int, budget: float | None, results: list[Cell]
) -> dict[str, Any]:
    """Return the JSON summary (the last line printed)."""
    return {
        "game": rules.kind,
        "players": players,
        "seed": seed,
        "budget": budget,
        "cells": [
            {
                **c.options,
                "level": c.level,
                "games": c.games,
                "win_rate": round(c.won / max(1, c.games - c.errors), 4),
                "errors": c.errors,
                "decision_ms": c.decision_ms,
                "decision_ms_max": c.decision_ms_max,
                "decision_cpu_ms_max": c.decision_cpu_ms_max,
            }
            for c in results
        ],
        "errors": sum(c.errors for c in results),
    }
