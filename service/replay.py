"""The replay GIF of a finished game: its public board, one frame per turn, capped in frames and bytes.

A long game (Argent with five players plays 350+ moves) would make hundreds of frames and take
seconds to draw; the frames are therefore picked evenly over the game, always with the first and
the final position and, where the view says so, the first position of each round. Only public
views are drawn (``rules.view(state, None)``), never a seat's; ``render.replay`` draws them.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

import render
from render.replay import animate
from rules.contract import Move, Rules

REPLAY_FRAMES = 60
"""At most this many frames: each costs 35-45 ms to draw and pack (a five-player Argent game has
234 turns: 8 s uncapped, 3 s at 60 frames on a busy machine), and 60 frames at 0.7 s make a
42-second replay, enough to follow a game round by round."""

__all__ = ["REPLAY_FRAMES", "pick", "replay_gif", "turn_views"]


def turn_views(
    rules: Rules, players: int, options: dict[str, str], seed: int, moves: Sequence[tuple[int, Move]]
) -> list[dict[str, Any]]:
    """Return the public view at the start, after each turn (the seats awaited changed) and at the end."""
    state = rules.setup(players, options, seed)
    views = [rules.view(state, None)]
    waiting = rules.waiting_on(state)
    for seat, move in moves:
        state, _ = rules.apply(state, seat, move)
        now_waiting = rules.waiting_on(state)
        if now_waiting != waiting or rules.is_over(state):
            views.append(rules.view(state, None))
        waiting = now_waiting
    return views


def round_of(view: dict[str, Any]) -> Hashable | None:
    """Return the round a public view shows (Argent's round, Quadrivium's year and season), else None."""
    if isinstance(view.get("round"), int):
        return view["round"]
    if "year" in view and "season" in view:
        return (view["year"], view["season"])
    return None


def pick(rounds: Sequence[Hashable | None], limit: int) -> list[int]:
    """Return at most ``limit`` frame indices, evenly spread, with the first, the last and each round's first.

    ``rounds`` holds each frame's round (None where unknown). When the round starts alone are more
    than the limit, they are thinned evenly too; the first and the last frame always stay.
    """
    count = len(rounds)
    if count <= limit:
        return list(range(count))
    if limit < 2:
        return [count - 1]
    starts = [i for i in range(1, count - 1) if rounds[i] is not None and rounds[i] != rounds[i - 1]]
    keep = {0, count - 1, *_spread(starts, limit - 2)}
    others = [i for i in range(count) if i not in keep]
    keep.update(_spread(others, limit - len(keep)))
    return sorted(keep)


def _spread(items: Sequence[int], room: int) -> list[int]:
    """Return ``room`` items (all when they fit) taken evenly over the list, its middle of each stretch."""
    if room <= 0:
        return []
    if len(items) <= room:
        return list(items)
    return [items[int((k + 0.5) * len(items) / room)] for k in range(room)]


def replay_gif(
    rules: Rules,
    players: int,
    options: dict[str, str],
    seed: int,
    moves: Sequence[tuple[int, Move]],
    limit: int | None = None,
    names: dict[int, str] | None = None,
) -> bytes | None:
    """Return the animated GIF of a game's public board, at most ``limit`` frames (None without drawings).

    The limit defaults to ``REPLAY_FRAMES``; ``names`` (seat -> player) name the players on every
    frame, as the thread's boards do, rather than their seat colours or characters.
    """
    caption = render.Caption(names=dict(names or {}))
    views = turn_views(rules, players, options, seed, moves)
    chosen = pick([round_of(v) for v in views], REPLAY_FRAMES if limit is None else limit)
    return animate(rules.kind, [views[i] for i in chosen], caption)
