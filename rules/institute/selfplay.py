"""Self-play statistics for the designed deck: rounds per game and how often each card's holder wins.

Run ``python -m rules.institute.selfplay [games] [seed]``. Independent of ``bench`` so that a test can
call ``simulate`` on a handful of games. Two policies: ``random`` (any legal move) and ``eager``
(random, but never passes up a power or a cast and confirms as soon as all dice are assigned), which
plays closer to a person and so shows better whether a card decides games by itself.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from dataclasses import dataclass, field

from rules.contract import Move
from rules.institute.engine import InstituteRules
from rules.institute.state import card

RULES = InstituteRules()


def pick(rand: random.Random, moves: list[Move], policy: str) -> Move:
    """Choose a move for a seat under the named policy."""
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

    def holder_win_rate(self, key: str) -> float:
        """Return how often the player holding this card at the end won the game."""
        return self.held_won[key] / self.held[key] if self.held[key] else 0.0


def play(seed: int, policy: str = "random", options: dict[str, str] | None = None) -> tuple[dict, int]:
    """Play one game to the end; return the final state and its number of moves."""
    rand = random.Random(seed)
    state = RULES.setup(2, options or {}, seed)
    count = 0
    while not RULES.is_over(state):
        seat = rand.choice(RULES.waiting_on(state))
        move = pick(rand, RULES.legal_moves(state, seat), policy)
        state, _ = RULES.apply(state, seat, move)
        count += 1
    return state, count


def simulate(games: int, seed: int = 0, policy: str = "random") -> Stats:
    """Play a batch of games and gather their statistics."""
    stats = Stats()
    for g in range(games):
        state, count = play(seed + g, policy)
        result = RULES.result(state)
        assert result is not None
        stats.games += 1
        stats.rounds.append(state["round"])
        stats.moves.append(count)
        if result.draw:
            stats.draws += 1
        else:
            stats.seat_wins[result.winners[0]] += 1
        for seat in (0, 1):
            p = state["players"][seat]
            for key in {card(c).key for c in p["active"] + p["inactive"]}:
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
    keys = sorted(stats.held, key=lambda k: -stats.holder_win_rate(k))
    for key in keys:
        lines.append(f"{key:<24}{stats.held[key] / n:>8.0%}{stats.holder_win_rate(key):>12.0%}")
    return "\n".join(lines)


def main(argv: list[str]) -> None:
    """Print self-play statistics for both policies."""
    games = int(argv[0]) if argv else 200
    seed = int(argv[1]) if len(argv) > 1 else 0
    for policy in ("random", "eager"):
        print(f"== policy {policy}")
        print(report(simulate(games, seed, policy)))


if __name__ == "__main__":
    main(sys.argv[1:])
