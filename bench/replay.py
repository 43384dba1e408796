"""Time the replay GIF of one long seeded random game: turns, frames drawn, bytes, median seconds."""

from __future__ import annotations

import statistics
import time
from typing import Any

from bench.selfplay import play
from rules.contract import Rules
from service.replay import pick, replay_gif, round_of, turn_views


def run(rules: Rules, players: int, seed: int, frames: int, runs: int) -> dict[str, Any]:
    """Play one random game and build its replay ``runs`` times; return the summary with the median."""
    options = rules.check_options({})
    game = play(rules, players, options, seed, keep_steps=True)
    if not game.finished:
        raise ValueError(f"the random game did not finish: {game.error}")
    moves = [(s.seat, s.move) for s in game.steps]
    views = turn_views(rules, players, options, seed, moves)
    chosen = pick([round_of(v) for v in views], frames)
    seconds, size = [], 0
    for _ in range(max(1, runs)):
        began = time.perf_counter()
        data = replay_gif(rules, players, options, seed, moves, frames)
        seconds.append(time.perf_counter() - began)
        size = len(data or b"")
    return {
        "game": rules.kind, "players": players, "seed": seed, "moves": len(moves), "turns": len(views),
        "frames": len(chosen), "bytes": size, "runs": [round(s, 3) for s in seconds],
        "median_seconds": round(statistics.median(seconds), 3),
    }
