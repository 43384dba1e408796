"""Self-play statistics for the designed deck: rounds per game and how often each card's holder wins.

Run ``python -m bots.games.institute_policy [games] [seed]``. Independent of ``bench`` so that a test can
call ``simulate`` on a handful of games. Three policies: ``random`` (any legal move), ``eager``
(random, but never passes up a power and confirms as soon as all dice are assigned) and ``greedy``
(a simple human-like player: takes stones on high dice, casts toward the cards it is closest to
winning, aims powers at the best card). Greedy plays closest to a person, so it shows best whether
a card decides games by itself.
"""

from __future__ import annotations

import sys
from collections import Counter
from dataclasses import dataclass, field

from rules import rng
from rules.contract import Move
from rules.institute.engine import InstituteRules
from rules.institute.reads import (
    assignment,
    card_at,
    characters,
    dice,
    holdings,
    kind_at,
    locations,
    realm_stones,
    rolled_die,
    rounds,
    stones,
    stones_at,
)
from rules.institute.state import card

RULES = InstituteRules()


class Chooser:
    """Random choices for the policies, from the seeded generator (rules/ never uses ``random``)."""

    def __init__(self, seed: int) -> None:
        self.box: dict = {}
        rng.seed_state(self.box, seed)

    def choice(self, items: list[Move]) -> Move:
        """Return one item at random."""
        return rng.choice(self.box, items)

    def random(self) -> float:
        """Return a float in [0, 1)."""
        return rng.randbelow(self.box, 1 << 30) / (1 << 30)


def _edge(state: dict, i: int, seat: int) -> int:
    """How far a seat is from winning the card in slot i (0 = wins now; higher = further)."""
    c = card_at(state, i)
    assert c is not None
    mine, theirs = stones_at(state, i, seat), stones_at(state, i, 1 - seat)
    return max(c.cost - mine, theirs + c.surpass - mine, 0)


def _worth(state: dict, i: int, seat: int) -> float:
    """How much a seat wants to add stones to slot i: VP on offer over the stones still needed."""
    c = card_at(state, i)
    if c is None:
        return 0.4 if kind_at(state, i) == "portal" else -1.0
    vp = characters(state, seat) + 1 if c.character else (c.vp or 0) + 1
    return vp / (1 + _edge(state, i, seat))


def _greedy(state: dict, seat: int, moves: list[Move], rand: Chooser) -> Move:
    """A simple human-like player: take on high dice, cast where a card is closest, use every power."""
    by = {m.action: m for m in moves}
    rolled = dice(state, seat)
    if "confirm" in by:
        return by["confirm"]
    if "reroll" in by and len(by["reroll"].get("dice")) == 4 and sum(rolled) <= 6:
        return by["reroll"]
    laid = assignment(state, seat)
    assigns = [m for m in moves if m.action == "assign" and laid[m.get("die") - 1] is None]
    if assigns:
        d = min(m.get("die") for m in assigns)
        options = {m.get("card"): m for m in assigns if m.get("die") == d}
        value = rolled[d - 1]
        worth = _worth(state, value - 1, seat)
        want = (
            ["take", "cast2", "cast1"]
            if value >= 5 or stones(state, seat) < 2 or worth <= 0
            else ["cast2", "cast1", "take"]
        )
        return next(options[w] for w in want if w in options)
    if "cast" in by:
        return max(
            (m for m in moves if m.action == "cast"),
            key=lambda m: _worth(state, rolled[m.get("die") - 1] - 1, seat),
        )
    if "portal" in by:
        return max(moves, key=lambda m: _worth(state, m.get("to") - 1, seat) + rand.random() * 0.3)
    if "claim" in by:
        return by["claim"] if realm_stones(state, seat) >= 2 else by["keep"]
    if "power" in by:
        return by["power"] if stones(state, seat) >= 2 or "decline" not in by else by["decline"]
    if "place" in by:
        return max(
            (m for m in moves if m.action == "place"), key=lambda m: _worth(state, m.get("at") - 1, seat)
        )
    if "move" in by:
        # Crude: move toward our best card either way.
        own = any(stones_at(state, i, seat) for i in locations(state))
        return max(
            (m for m in moves if m.action == "move"),
            key=lambda m: (
                _worth(state, m.get("to") - 1, seat if own else 1 - seat)
                - _worth(state, m.get("from") - 1, seat if own else 1 - seat)
            ),
        )
    if "remove" in by:
        return max(
            (m for m in moves if m.action == "remove"), key=lambda m: _worth(state, m.get("at") - 1, 1 - seat)
        )
    if "clear" in by:
        return max(
            (m for m in moves if m.action == "clear"), key=lambda m: _worth(state, m.get("at") - 1, 1 - seat)
        )
    if "accept" in by:
        return by["accept"] if kind_at(state, rolled_die(state, seat) - 1) == "card" else by["roll_again"]
    if "pass" in by and len(moves) == 1:
        return by["pass"]
    keen = [m for m in moves if m.action not in ("pass", "decline", "done", "refill", "keep", "reroll")]
    return rand.choice(keen or moves)


def pick(rand: Chooser, moves: list[Move], policy: str, state: dict | None = None, seat: int = 0) -> Move:
    """Choose a move for a seat under the named policy."""
    if policy == "greedy" and state is not None:
        return _greedy(state, seat, moves, rand)
    if policy == "eager":
        confirm = [m for m in moves if m.action == "confirm"]
        if confirm:
            return confirm[0]
        keen = [m for m in moves if m.action not in ("pass", "decline", "done", "refill", "keep")]
        if keen:
            return rand.choice(keen)
    return rand.choice(moves)


@dataclass
class Stats:
    """What a batch of self-play games showed."""

    games: int = 0
    rounds: list[int] = field(default_factory=list)
    moves: list[int] = field(default_factory=list)
    draws: int = 0
    seat_wins: Counter[int] = field(default_factory=Counter)
    held: Counter[str] = field(default_factory=Counter)
    """Games in which some player ended holding the card."""
    held_won: Counter[str] = field(default_factory=Counter)
    """...and that player won the game."""
    started: Counter[str] = field(default_factory=Counter)
    """Players dealt this starting card."""
    started_won: Counter[str] = field(default_factory=Counter)
    """...who won the game."""

    def holder_win_rate(self, key: str) -> float:
        """Return how often the player holding this card at the end won the game."""
        return self.held_won[key] / self.held[key] if self.held[key] else 0.0


def play(seed: int, policy: str = "random", options: dict[str, str] | None = None) -> tuple[dict, int]:
    """Play one game to the end; return the final state and its number of moves."""
    rand = Chooser(seed)
    state = RULES.setup(2, options or {}, seed)
    count = 0
    while not RULES.is_over(state):
        seat = rand.choice(RULES.waiting_on(state))
        move = pick(rand, RULES.legal_moves(state, seat), policy, state, seat)
        state, _ = RULES.apply(state, seat, move)
        count += 1
    return state, count


def simulate(games: int, seed: int = 0, policy: str = "random") -> Stats:
    """Play a batch of games and gather their statistics."""
    stats = Stats()
    for g in range(games):
        opening = RULES.setup(2, {}, seed + g)
        state, count = play(seed + g, policy)
        result = RULES.result(state)
        for seat in (0, 1):
            key = card(holdings(opening, seat)[0]).key
            stats.started[key] += 1
            if not result.draw and result.winners[0] == seat:
                stats.started_won[key] += 1
        assert result is not None
        stats.games += 1
        stats.rounds.append(rounds(state))
        stats.moves.append(count)
        if result.draw:
            stats.draws += 1
        else:
            stats.seat_wins[result.winners[0]] += 1
        for seat in (0, 1):
            for key in {card(c).key for c in holdings(state, seat)}:
                stats.held[key] += 1
                if not result.draw and result.winners[0] == seat:
                    stats.held_won[key] += 1
    return stats


def report(stats: Stats) -> str:
    """Return the statistics as a readable table."""
    n = stats.games
    rounds = sorted(stats.rounds)
    lines = [
        f"{n} games: rounds mean {sum(rounds) / n:.1f}, median {rounds[n // 2]}, "
        f"min {rounds[0]}, max {rounds[-1]}; "
        f"moves mean {sum(stats.moves) / n:.0f}; draws {stats.draws}; seat wins {dict(stats.seat_wins)}",
        f"{'card':<24}{'holders':>9}{'holder won':>12}",
    ]
    starts = ", ".join(
        f"{k} {stats.started_won[k] / stats.started[k]:.0%} of {stats.started[k]}"
        for k in sorted(stats.started)
    )
    lines.insert(1, f"win rate by starting card: {starts}")
    keys = sorted(stats.held, key=lambda k: -stats.holder_win_rate(k))
    for key in keys:
        lines.append(f"{key:<24}{stats.held[key] / n:>8.0%}{stats.holder_win_rate(key):>12.0%}")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    """Print self-play statistics for both policies."""
    games = int(argv[0]) if argv else 200
    seed = int(argv[1]) if len(argv) > 1 else 0
    for policy in ("random", "eager", "greedy"):
        print(f"== policy {policy}")
        print(report(simulate(games, seed, policy)))


if __name__ == "__main__":
    main(sys.argv[1:])
