"""The ``strong`` bot's own search for Argent: basic's best moves, each met by the rival's answer.

``basic`` judges a move by the expected votes it leads to once its own follow-ups are played, and
never asks what the next player will do about it. In a worker-placement game that is its blind
spot: it sends a mage to an uncontested slot while the slot both players want is still open, or
leaves mages at home when the next player can ring the bell. The search therefore weighs basic's
best few moves (``CANDIDATES``) one turn deeper: it plays each with its follow-ups (the slot after
the room, the reward after the claim, chosen as basic would), then lets the next player answer as a
basic-minded rival would (the answer that raises *its* lead in expected votes, its own follow-ups
played by the cheap static policy), and keeps the move whose worst-case-for-us-by-their-lights
outcome is best. Every candidate meets the same sampled states (common random numbers); more
samples are drawn while the budget lasts, and the clock is checked before every answer weighed.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from bots.core import Seating
from bots.games import argent as book
from rules.contract import Move, Rules, Seat, State

CANDIDATES = 5
"""Basic's best moves the search weighs (its own choice first)."""
REPLY_CAP = 24
"""The rival's answers weighed at most per candidate (shuffled first)."""
FOLLOW_STEPS = 8
"""Follow-up decisions played at most after a move before it is judged."""
TURN_STEPS = 2
"""Extra actions of the seat's own turn played greedily (after fast placements) before the answer."""
TIES = True
"""Whether the search reads ties as the tie-break will settle them (``argent.expected_votes``)."""
DEADLINE_SHARE = 0.8
"""Share of the budget the search may spend before it answers (the rest is the answer's margin)."""


def _task(state: State) -> dict[str, Any] | None:
    agenda = state["agenda"]
    return agenda[0] if agenda and agenda[0].get("op") == "ask" else None


def _step_to_best(rules: Rules, state: State, seat: Seat, moves: list[Move], bells: bool) -> None:
    """Play, in place, the move whose outcome has the best lead by the tie-aware reading plus basic's
    bias (with ``bells``, ringing the bell also weighs the mages each side would lose)."""
    best, best_value = None, -math.inf
    for move in moves:
        after = rules.copy_state(state)
        rules.resolve(after, seat, move)
        value = book.margin(after, seat, TIES) + book._bias(state, seat, move)
        if bells and move.action == "bell":
            value += book._round_end_bias(state, after, seat)
        if value > best_value:
            best, best_value = after, value
    state.clear()
    state.update(best)  # type: ignore[arg-type]


def _my_followups(rules: Rules, state: State, seat: Seat) -> None:
    """Play the seat's own follow-up decisions (not a new turn) as basic's 1-step look-ahead would."""
    for _ in range(FOLLOW_STEPS):
        if state["over"] or rules.waiting_on(state) != [seat]:
            return
        task = _task(state)
        if task is None or task.get("kind") == "turn":
            return
        legal = rules.legal_moves(state, seat)
        if len(legal) == 1:
            rules.resolve(state, seat, legal[0])
            continue
        _step_to_best(rules, state, seat, legal[: book.FOLLOW_CAP], bells=False)


def _quick_followups(rules: Rules, state: State, rand: random.Random, round_: Any) -> None:
    """Play the follow-ups of whoever just moved with the cheap static policy (until a new turn)."""
    for _ in range(FOLLOW_STEPS):
        if state["over"] or state["phase"] != "errands" or state.get("round") != round_:
            return
        task = _task(state)
        if task is None or task.get("kind") == "turn":
            return
        waiting = rules.waiting_on(state)
        who = waiting[0]
        legal = rules.legal_moves(state, who)
        move = legal[0] if len(legal) == 1 else book.rollout_policy(rules, state, who, legal, rand)
        rules.resolve(state, who, move)


def _my_turn_on(rules: Rules, state: State, seat: Seat, deadline: float | None) -> None:
    """Finish the seat's turn when its move left it the turn (a fast placement): greedy on the lead.

    Every candidate is then judged after the next player's answer, none spared it by a free action.
    """
    for _ in range(TURN_STEPS):
        task = _task(state)
        if state["over"] or rules.waiting_on(state) != [seat] or task is None or task.get("kind") != "turn":
            return
        if deadline is not None and time.perf_counter() > deadline:
            return
        _step_to_best(rules, state, seat, rules.legal_moves(state, seat)[: book.MOVE_CAP], bells=True)
        _my_followups(rules, state, seat)


def _lead(totals: list[float], seat: Seat) -> float:
    """Return a seat's expected votes less its rivals' (as ``argent.margin`` weighs them)."""
    rivals = [t for s, t in enumerate(totals) if s != seat and t != -math.inf]
    if not rivals:
        return 0.0
    return totals[seat] - (0.6 * max(rivals) + 0.4 * sum(rivals) / len(rivals))


def answered(
    rules: Rules, state: State, seat: Seat, rand: random.Random, deadline: float | None
) -> float | None:
    """Return the seat's lead after the next player's answer (None once past the deadline).

    ``state`` is after our move and its follow-ups. When the game waits on a rival's turn, that
    rival plays the answer that serves it best by the evaluator (ending the round counts what each
    side's unplaced mages lose, as ``basic`` counts it); otherwise the state is judged as it stands.
    """
    _my_turn_on(rules, state, seat, deadline)
    waiting = rules.waiting_on(state)
    task = _task(state)
    if state["over"] or len(waiting) != 1 or waiting[0] == seat or task is None or task.get("kind") != "turn":
        return book.margin(state, seat, TIES)
    rival = waiting[0]
    replies = list(rules.legal_moves(state, rival))
    rand.shuffle(replies)
    best_theirs, mine = -math.inf, book.margin(state, seat, TIES)
    round_ = state.get("round")
    for reply in replies[:REPLY_CAP]:
        if deadline is not None and time.perf_counter() > deadline:
            return None
        after = rules.copy_state(state)
        rules.resolve(after, rival, reply)
        _quick_followups(rules, after, rand, round_)
        totals = book.expected_votes(after, seat, TIES)
        theirs = _lead(totals, rival) + book._bias(state, rival, reply)
        ours = _lead(totals, seat)
        if reply.action == "bell":
            ending = book._round_end_bias(state, after, rival)
            theirs += ending
            ours -= ending
        if theirs > best_theirs:
            best_theirs, mine = theirs, ours
    return mine


def search(seating: Seating, rand: random.Random, budget: float, iterations: int | None = None) -> Move:
    """Return the candidate whose answered lead, averaged over the samples searched, is best.

    ``iterations`` (samples) replaces the clock for a reproducible choice.
    """
    start = time.perf_counter()
    deadline = None if iterations is not None else start + budget * DEADLINE_SHARE
    rules, seat = seating.rules, seating.seat
    first = seating.sample(rand)
    order = list(seating.legal)
    rand.shuffle(order)
    scored = book.score_moves(rules, first, seat, order[: book.MOVE_CAP])
    scored.sort(key=lambda vm: -vm[0])
    moves = [m for _, m in scored[:CANDIDATES]]
    if len(moves) == 1:
        return moves[0]
    totals = [0.0] * len(moves)
    rounds = 0
    sample = first
    while iterations is None or rounds < iterations:
        if deadline is not None and time.perf_counter() > deadline:
            break
        luck = rand.getrandbits(64)
        values: list[float] = []
        for move in moves:
            state = rules.copy_state(sample)
            rules.resolve(state, seat, move)
            _my_followups(rules, state, seat)
            value = answered(rules, state, seat, random.Random(luck), deadline)
            if value is None:
                break
            value += book._bias(sample, seat, move)
            if move.action == "bell":
                value += book._round_end_bias(sample, state, seat)
            values.append(value)
        if len(values) < len(moves):
            break  # an unfinished sample compares the candidates on unequal luck: drop it
        totals = [t + v for t, v in zip(totals, values, strict=True)]
        rounds += 1
        if deadline is not None and time.perf_counter() > deadline:
            break
        sample = seating.sample(rand)
    if rounds == 0:
        return moves[0]
    best = max(range(len(moves)), key=lambda i: (round(totals[i], 9), -i))
    return moves[best]
