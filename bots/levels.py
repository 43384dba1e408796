"""The three levels: ``random``, ``basic`` (a fast heuristic) and ``strong`` (search on sampled states).

Each works for any game out of the box. ``basic`` uses the game's heuristic when its playbook has
one, else a one-ply greedy look-ahead with the game's evaluator; ``strong`` runs a determinized
Monte Carlo search: every round samples a state consistent with the seat's view, tries every
candidate move still in the race on it with the same luck, plays on with a fast policy for a few
plies (or to the end) and scores the result; in a game whose playbook asks for it, candidates that
clearly trail the basic move drop out of the race. Its budget is wall time (default 1 s) or, for a
reproducible choice, a number of rounds. Here "the basic move" is the move ``strong`` plays without a
search: its game's sharper policy's (a playbook's ``sharp``) where it has one, else ``basic``'s.
"""

from __future__ import annotations

import math
import random
import time

from bots.core import Bot, Seating, evaluate, playbook
from rules.contract import Move, Rules, Seat, State

BASIC_MOVE_CAP = 48
"""The generic basic bot looks one ply ahead at no more moves than this (it must stay under 50 ms)."""
STRONG_CANDIDATES = 6
"""The search weighs at most this many root moves; the basic bot's choice is always among them."""
CONFIDENCE = 1.5
"""Standard errors by which a searched move must beat the basic move before the search plays it."""
STRONG_BUDGET = 1.0
"""Default thinking time per decision, in seconds."""
RACE_ROUNDS = 4
"""Rounds a search plays before it drops a candidate that trails the basic move clearly."""
DROP = 2.0
"""Paired standard errors by which a candidate trails the basic move when the search drops it."""


class RandomBot(Bot):
    """A random legal move."""

    level = "random"

    def choose(self, seating: Seating, rand: random.Random) -> Move:
        """Return a legal move drawn uniformly."""
        return rand.choice(seating.legal)


def _shuffled(moves: tuple[Move, ...], rand: random.Random) -> list[Move]:
    order = list(moves)
    rand.shuffle(order)
    return order


def greedy(seating: Seating, rand: random.Random, cap: int = BASIC_MOVE_CAP) -> Move:
    """Return the move whose result the game's evaluator likes best, on one sampled state."""
    rules, seat = seating.rules, seating.seat
    state = seating.sample(rand)
    best, best_value = seating.legal[0], -math.inf
    for move in _shuffled(seating.legal, rand)[:cap]:
        after, _ = rules.apply(state, seat, move)
        value = evaluate(rules, after, seat)
        if value > best_value:
            best, best_value = move, value
    return best


class BasicBot(Bot):
    """A fast heuristic: the game's own, else a one-ply greedy look-ahead."""

    level = "basic"

    def choose(self, seating: Seating, rand: random.Random) -> Move:
        """Return the heuristic's move (a lone legal move at once)."""
        if len(seating.legal) == 1:
            return seating.legal[0]
        heuristic = playbook(seating.kind).heuristic
        if heuristic is not None:
            return heuristic(seating, rand)
        return greedy(seating, rand)


def unsearched(seating: Seating, rand: random.Random) -> Move:
    """Return the move ``strong`` plays without a search: its game's ``sharp`` policy's, else basic's."""
    sharp = playbook(seating.kind).sharp
    return sharp(seating, rand) if sharp is not None else BasicBot().choose(seating, rand)


def random_policy(rules: Rules, state: State, seat: Seat, legal: list[Move], rand: random.Random) -> Move:
    """Pick uniformly (the rollout policy of a game without its own)."""
    return rand.choice(legal)


def rollout(
    rules: Rules,
    state: State,
    me: Seat,
    rand: random.Random,
    horizon: int | None,
    deadline: float | None = None,
) -> float:
    """Play a sampled state on with the game's fast policy (mutating it); return its worth to ``me``.

    The playout stops at the game's end, after ``horizon`` plies, where the game's ``until`` says, or
    at the ``deadline`` (``time.perf_counter``), and the game's evaluator scores where it stopped.
    """
    book = playbook(rules.kind)
    policy = book.rollout or random_policy
    plies = 0
    done = book.until(state) if book.until is not None else None
    while not rules.is_over(state) and (horizon is None or plies < horizon):
        if done is not None and done(state):
            break
        if deadline is not None and time.perf_counter() > deadline:  # a ply costs far more than the look
            break
        waiting = rules.waiting_on(state)
        seat = waiting[0] if len(waiting) == 1 else rand.choice(waiting)
        legal = rules.legal_moves(state, seat)
        move = legal[0] if len(legal) == 1 else policy(rules, state, seat, legal, rand)
        # Legal by construction and on a private copy: resolve in place, skip apply's checks and copy.
        rules.resolve(state, seat, move)
        plies += 1
    return evaluate(rules, state, me)


class StrongBot(Bot):
    """Determinized Monte Carlo search over the rules engine within a time or iteration budget.

    Each round of the search draws one state consistent with the seat's view and one seed for the
    playouts, then plays every candidate from that same state with that same seed (common random
    numbers): the candidates are compared on equal luck, so few rounds already tell them apart.
    The basic bot's move (the first candidate) stands unless another beats it clearly (``settle``).
    """

    level = "strong"

    def __init__(
        self, budget: float = STRONG_BUDGET, iterations: int | None = None, horizon: int | None = None
    ) -> None:
        self.budget = budget
        self.iterations = iterations
        """A fixed number of rounds instead of a time budget (reproducible choices for tests)."""
        self.horizon = horizon
        """Plies per playout before judging; None: the game's playbook decides."""

    def candidates(self, seating: Seating, rand: random.Random) -> list[Move]:
        """Return the root moves to weigh: its own policy's choice first (``unsearched``), then the
        game's next best (its playbook's ``rank``) or others drawn at random."""
        book = playbook(seating.kind)
        rank = book.rank
        count = book.candidates or STRONG_CANDIDATES
        if rank is not None:
            # The game's ranking is its policy's own order: its head is the unsearched move.
            return rank(seating, rand)[:count]
        first = unsearched(seating, rand)
        others = [m for m in _shuffled(seating.legal, rand) if m != first]
        return [first, *others[: count - 1]]

    def choose(self, seating: Seating, rand: random.Random) -> Move:
        """Return the candidate with the best total playout value over the finished rounds."""
        start = time.perf_counter()
        if len(seating.legal) == 1:
            return seating.legal[0]
        book = playbook(seating.kind)
        if book.searches is not None and not book.searches(seating):
            return unsearched(seating, rand)
        if book.search is not None:
            return book.search(seating, rand, self.budget, self.iterations)
        # The deadline leaves room for the last playout and the answer (never over budget + 100 ms).
        deadline = start + self.budget * 0.8
        rules, seat = seating.rules, seating.seat
        horizon = self.horizon if self.horizon is not None else book.horizon
        moves = self.candidates(seating, rand)
        history: list[list[float | None]] = []
        alive = list(range(len(moves)))
        while self.iterations is None or len(history) < self.iterations:
            if self.iterations is None and time.perf_counter() >= deadline:
                break
            sample = seating.sample(rand)
            if book.believe is not None:
                sample = book.believe(rules, sample, seat, rand)
            luck = rand.getrandbits(64)
            values: list[float | None] = [None] * len(moves)
            stop = None if self.iterations is not None else deadline
            for i in alive:
                state = rules.copy_state(sample)
                rules.resolve(state, seat, moves[i])
                values[i] = rollout(rules, state, seat, random.Random(luck), horizon, stop)
                if stop is not None and time.perf_counter() > stop:
                    break
            if any(values[i] is None for i in alive):
                break  # an unfinished round compares the candidates on unequal luck: drop it
            history.append(values)
            if book.race:
                alive = race(history, alive, book.margin)
                if len(alive) == 1:
                    break
        return moves[settle(history, book.margin, CONFIDENCE if book.confidence is None else book.confidence)]


def _paired(history: list[list[float | None]], i: int) -> tuple[float, float]:
    """Return the mean per-round lead of candidate ``i`` over the basic move and its t statistic."""
    diffs = [r[i] - r[0] for r in history]  # type: ignore[operator]
    mean = sum(diffs) / len(diffs)
    if len(diffs) < 2:
        return mean, 0.0
    spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))
    if spread == 0:
        return mean, 0.0 if mean == 0 else math.copysign(math.inf, mean)
    return mean, mean / (spread / math.sqrt(len(diffs)))


def race(history: list[list[float | None]], alive: list[int], margin: float = 0.0) -> list[int]:
    """Return the candidates still worth playing out after the rounds so far (the basic move stays).

    After ``RACE_ROUNDS`` rounds a move that trails the basic move by ``DROP`` paired standard errors,
    or that never once differs from it, stops costing playouts. A single candidate left means the
    search is decided: only the basic move remains, or a move leads it by twice ``CONFIDENCE`` and
    by more than the game's ``margin`` (``settle`` then names the move). The time saved goes to the
    moves still in doubt, or is not spent.
    """
    if len(history) < RACE_ROUNDS:
        return alive
    kept = [0]
    for i in alive[1:]:
        mean, t = _paired(history, i)
        if t >= 2 * CONFIDENCE and mean > margin:
            return [i]
        if t > -DROP and any(r[i] != r[0] for r in history):
            kept.append(i)
    return kept


def settle(history: list[list[float | None]], margin: float = 0.0, confidence: float = CONFIDENCE) -> int:
    """Return the index of the candidate to play, given each round's values (index 0: basic's move).

    The best average wins only when it beats the basic move clearly: the rounds share their luck,
    so the per-round differences are paired, and their mean must stand ``confidence`` standard errors
    above zero (the game's, else ``CONFIDENCE``), and above the game's ``margin`` (a gain too small
    to matter is no reason to leave the policy). Otherwise the search keeps the basic move, so noise
    never makes it worse. Only the candidates played out in every round compete (``race`` may have
    dropped some).
    """
    if len(history) < 2:
        return 0
    count = len(history[0])
    alive = [i for i in range(count) if history[-1][i] is not None]
    means = {i: sum(r[i] for r in history) / len(history) for i in alive}  # type: ignore[misc]
    best = max(alive, key=lambda i: (round(means[i], 9), -i))
    if best == 0:
        return 0
    mean, t = _paired(history, best)
    return best if mean > margin and t >= confidence else 0


def make_bot(
    level: str, *, budget: float | None = None, iterations: int | None = None, horizon: int | None = None
) -> Bot:
    """Return a bot of that level; ``budget`` (seconds), ``iterations`` and ``horizon`` tune ``strong``."""
    if level == "random":
        return RandomBot()
    if level == "basic":
        return BasicBot()
    if level == "strong":
        return StrongBot(STRONG_BUDGET if budget is None else budget, iterations, horizon)
    raise ValueError(f"There is no bot level `{level}`: choose random, basic or strong.")
