"""Seeded random self-play: a random pending seat plays a random legal move until the game ends."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.contract import Event, Move, Rules, State


@dataclass
class Step:
    """One applied move, with the state before and after it."""

    seat: int
    move: Move
    before: State
    after: State
    events: list[Event]


@dataclass
class Playout:
    """How one random game went."""

    seed: int
    players: int
    options: dict[str, str]
    moves: int = 0
    finished: bool = False
    error: str | None = None
    start: State | None = None
    steps: list[Step] = field(default_factory=list)


Hook = Callable[[str, float], None]
"""Receives (what, seconds) for each timed call: "apply" or "legal_moves"."""


def play(
    rules: Rules,
    players: int,
    options: dict[str, str],
    seed: int,
    *,
    keep_steps: bool = False,
    timer: Hook | None = None,
) -> Playout:
    """Play one seeded random legal game to its end, its bound, or the first engine error."""
    rand = random.Random(seed)
    out = Playout(seed=seed, players=players, options=dict(options))
    clock = time.perf_counter
    try:
        state = rules.setup(players, options, seed)
    except Exception as exc:
        out.error = f"setup raised {type(exc).__name__}: {exc}"
        return out
    out.start = state
    bound = rules.max_moves(players, options)
    try:
        while not rules.is_over(state):
            if out.moves >= bound:
                out.error = f"no end after {bound} moves (the declared bound)"
                return out
            waiting = rules.waiting_on(state)
            if not waiting:
                out.error = f"nobody to move at move {out.moves}, yet the game is not over"
                return out
            seat = rand.choice(waiting)
            began = clock()
            legal = rules.legal_moves(state, seat)
            if timer:
                timer("legal_moves", clock() - began)
            if not legal:
                out.error = f"seat {seat} is prompted but has no legal move at move {out.moves}"
                return out
            move = rand.choice(legal)
            # A game whose moves carry the players' words gets random words (Quadrivium's stories).
            words = getattr(rules, "sample_words", None)
            if words is not None:
                move = words(move, rand)
            began = clock()
            after, events = rules.apply(state, seat, move)
            if timer:
                timer("apply", clock() - began)
            if keep_steps:
                out.steps.append(Step(seat, move, state, after, events))
            state = after
            out.moves += 1
        if rules.result(state) is None:
            out.error = "the game is over but has no result"
            return out
    except Exception as exc:
        out.error = f"{type(exc).__name__} at move {out.moves}: {exc}"
        return out
    out.finished = True
    return out


def selfplay(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    options: dict[str, str] | None = None,
    on_error: Callable[[Playout], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` seeded random games and return the summary the CLI prints as JSON."""
    full = rules.check_options(options or {})
    rules.check_players(players)
    seeds = random.Random(seed)
    finished = errors = moves = 0
    began = time.perf_counter()
    for _ in range(games):
        game = play(rules, players, full, seeds.randrange(2**62))
        moves += game.moves
        finished += game.finished
        if game.error is not None:
            errors += 1
            if on_error:
                on_error(game)
    return {
        "game": rules.kind,
        "players": players,
        "games": games,
        "finished": finished,
        "errors": errors,
        "moves": moves,
        "seconds": round(time.perf_counter() - began, 3),
    }
