"""Bot against bot: win rates with 95% confidence intervals, decision times, game lengths.

``python -m bench arena --game G --players N --games M --seed S --seats strong,basic,random``
plays M games; in game g the seat i is played by the level ``seats[(i + g) % N]``, so every level
sits in every seat equally often. A level's win rate is the share of games won by a seat of that
level (a win shared by k seats gives each 1/k). The last line printed is the JSON summary.

With ``--cards`` (games whose playbook lists what a seat holds, e.g. the Institute's cards) it
also reports, for every card, how often the player holding it at the end won (with a 95% interval),
and flags a card whose holder wins more than 65% of the games it was held in.

A game whose playbook names ``feats`` (what an event credits to seats, e.g. Quadrivium's conflicts
fought and won) also gets those counted per level: a story game with no winner is measured by them.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bots import Bot, bot_rng, keeps_memory, make_bot, observe, playbook, remember
from rules.contract import Rules, State

CARD_LIMIT = 0.65
"""A card whose holder wins more often than this (with equal bots) is flagged as too strong."""
CARD_MIN_HELD = 20
"""Fewer holdings than this say too little about a card to flag it."""


@dataclass
class ArenaGame:
    """How one arena game went."""

    seed: int
    levels: list[str]
    shares: dict[int, float] = field(default_factory=dict)
    plies: int = 0
    rounds: int | None = None
    error: str | None = None
    held: dict[int, set[str]] = field(default_factory=dict)
    feats: dict[str, dict[int, int]] = field(default_factory=dict)
    """Per feat (e.g. "conflicts won"), how many times each seat achieved it."""


@dataclass
class ArenaReport:
    """Everything the arena measured."""

    game: str
    players: int
    seats: list[str]
    cooperative: bool = False
    """The table plays against the game itself: a win is every seat's, there are no draws."""
    games: list[ArenaGame] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    """Seconds per decision by level (decisions with more than one legal move)."""
    cpu: dict[str, list[float]] = field(default_factory=dict)
    """The same decisions' processor seconds (wall time less the waits of a busy machine)."""


def play_game(
    rules: Rules,
    levels: list[str],
    seed: int,
    bots: dict[str, Bot],
    times: dict[str, list[float]],
    options: dict[str, str] | None = None,
    cpu: dict[str, list[float]] | None = None,
) -> ArenaGame:
    """Play one seeded game with a bot of the given level in each seat (``cpu``: processor times)."""
    out = ArenaGame(seed, list(levels))
    order = random.Random(seed * 31 + 7)  # who moves first among simultaneous seats
    credit = playbook(rules.kind).extra.get("feats")
    # Each seat's private memory, fed every view it is shown, as the service feeds a bot seat's.
    memories: dict[int, dict[str, Any]] | None = {} if keeps_memory(rules.kind) else None
    try:
        state = rules.setup(len(levels), options or {}, seed)
        witness(rules, state, len(levels), memories)
        while not rules.is_over(state):
            if out.plies >= rules.max_moves(len(levels), options or {}):
                raise RuntimeError("the game ran past its bound")
            waiting = rules.waiting_on(state)
            seat = waiting[0] if len(waiting) == 1 else order.choice(waiting)
            level = levels[seat]
            seating = observe(rules, state, seat, None if memories is None else memories.get(seat))
            start, work = time.perf_counter(), time.process_time()
            move = bots[level].choose(seating, bot_rng(seed, out.plies, seat))
            if len(seating.legal) > 1:
                times.setdefault(level, []).append(time.perf_counter() - start)
                if cpu is not None:
                    cpu.setdefault(level, []).append(time.process_time() - work)
            state, events = rules.apply(state, seat, move)
            witness(rules, state, len(levels), memories)
            out.plies += 1
            for event in events if credit is not None else ():
                for name, who in credit(event):
                    tally = out.feats.setdefault(name, {})
                    tally[who] = tally.get(who, 0) + 1
    except Exception as exc:  # a broken game is counted and reported, never hides the others
        out.error = f"{type(exc).__name__}: {exc}"
        return out
    result = rules.result(state)
    assert result is not None
    for winner in result.winners:
        out.shares[winner] = 1.0 / len(result.winners)
    out.rounds = state.get("round") if isinstance(state.get("round"), int) else None
    holdings = playbook(rules.kind).extra.get("holdings")
    if holdings is not None:
        out.held = {s: set(holdings(state, s)) for s in range(len(levels))}
    return out


def witness(rules: Rules, state: State, players: int, memories: dict[int, dict[str, Any]] | None) -> None:
    """Let every seat's memory see its view of the state (None: the game's bots keep no memory)."""
    if memories is None:
        return
    for seat in range(players):
        memories[seat] = remember(rules, state, seat, memories.get(seat))


def arena(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    seats: list[str],
    *,
    budget: float | None = None,
    horizon: int | None = None,
    iterations: int | None = None,
    options: dict[str, str] | None = None,
    progress: Callable[[int, ArenaGame], None] | None = None,
) -> ArenaReport:
    """Play the games, rotating the levels over the seats, and gather the figures."""
    if len(seats) != players:
        raise ValueError(f"Name one level per seat: {players} seats, {len(seats)} levels given.")
    rules.check_players(players)
    bots = {
        level: make_bot(level, budget=budget, horizon=horizon, iterations=iterations) for level in set(seats)
    }
    report = ArenaReport(rules.kind, players, list(seats), rules.cooperative)
    for g in range(games):
        levels = [seats[(i + g) % players] for i in range(players)]
        game = play_game(rules, levels, seed + g, bots, report.times, options, report.cpu)
        report.games.append(game)
        if progress is not None:
            progress(g, game)
    return report


def _interval(values: list[float]) -> tuple[float, float, float]:
    """Return the mean and a 95% confidence interval (normal approximation, clipped to [0, 1])."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n == 1:
        return mean, 0.0, 1.0
    sd = statistics.stdev(values)
    half = 1.96 * sd / math.sqrt(n)
    if sd == 0:
        # Every game the same: use the rule of three's spirit, a Wilson bound for 0 or n successes.
        half = 1.96**2 / (n + 1.96**2)
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def win_shares(report: ArenaReport) -> dict[str, list[float]]:
    """Return, per level, the share of each finished game that seats of that level won."""
    shares: dict[str, list[float]] = {level: [] for level in dict.fromkeys(report.seats)}
    for game in report.games:
        if game.error:
            continue
        for level in shares:
            shares[level].append(sum(v for s, v in game.shares.items() if game.levels[s] == level))
    return shares


def card_rates(report: ArenaReport) -> dict[str, tuple[int, float]]:
    """Return, per card, how many times it was held at the end and how often its holder won."""
    held: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for game in report.games:
        for seat, cards in game.held.items():
            for key in cards:
                held[key] += 1
                won[key] += 1 if game.shares.get(seat, 0.0) == 1.0 else 0
    return {k: (held[k], won[k] / held[k]) for k in held}


def _card_interval(held: int, rate: float) -> tuple[float, float]:
    """Return a 95% interval for a holder's win rate (normal approximation, clipped to [0, 1]).

    With some thirty cards, one of them lands a few points over its true rate by chance alone:
    the interval shows whether a flag stands clear of that noise or calls for more games.
    """
    half = 1.96 * math.sqrt(rate * (1 - rate) / held) if held else 1.0
    return max(0.0, rate - half), min(1.0, rate + half)


def feat_totals(report: ArenaReport) -> dict[str, dict[str, int]]:
    """Return, per feat, how many times seats of each level achieved it over the finished games."""
    out: dict[str, dict[str, int]] = {}
    for game in report.games:
        if game.error:
            continue
        for name, tally in game.feats.items():
            per = out.setdefault(name, {level: 0 for level in dict.fromkeys(report.seats)})
            for seat, n in tally.items():
                per[game.levels[seat]] += n
    return out


def summary(report: ArenaReport) -> dict[str, Any]:
    """Return the JSON summary (the arena's last line)."""
    shares = win_shares(report)
    finished = [g for g in report.games if not g.error]
    out: dict[str, Any] = {
        "game": report.game,
        "players": report.players,
        "games": len(report.games),
        "seats": report.seats,
        "win_rate": {level: round(_interval(v)[0], 4) for level, v in shares.items()},
        "win_ci95": {level: [round(x, 4) for x in _interval(v)[1:]] for level, v in shares.items()},
        # A game nobody won outright: shared or no winner (a cooperative table wins or loses whole).
        "draws": 0 if report.cooperative else sum(1 for g in finished if len(g.shares) != 1),
        "decision_ms": {
            level: round(statistics.median(t) * 1000, 2) for level, t in sorted(report.times.items())
        },
        "decision_ms_max": {level: round(max(t) * 1000, 2) for level, t in sorted(report.times.items())},
        "decision_cpu_ms_max": {level: round(max(t) * 1000, 2) for level, t in sorted(report.cpu.items())},
        "plies_median": statistics.median([g.plies for g in finished]) if finished else None,
        "errors": sum(1 for g in report.games if g.error),
    }
    rounds = [g.rounds for g in finished if g.rounds is not None]
    if rounds:
        out["rounds_median"] = statistics.median(rounds)
    feats = feat_totals(report)
    if feats:
        out["feats"] = {name: dict(sorted(per.items())) for name, per in sorted(feats.items())}
    cards = card_rates(report)
    if cards:
        out["cards_over_limit"] = sorted(
            k for k, (n, rate) in cards.items() if n >= CARD_MIN_HELD and rate > CARD_LIMIT
        )
    return out


def format_report(report: ArenaReport) -> str:
    """Return the readable table printed before the JSON line."""
    data = summary(report)
    lines = [
        f"{report.game}, {report.players} players, {data['games']} games, seats {','.join(report.seats)} "
        f"(rotated): {data['errors']} errors, {data['draws']} draws"
    ]
    shares = win_shares(report)
    for level, values in shares.items():
        mean, low, high = _interval(values)
        count = report.seats.count(level)
        ms = data["decision_ms"].get(level)
        worst = data["decision_ms_max"].get(level)
        busy = data["decision_cpu_ms_max"].get(level)
        timing = (
            f"decision median {ms:.1f} ms, max {worst:.1f} ms (processor time {busy:.1f} ms)"
            if ms is not None
            else "no decisions"
        )
        lines.append(
            f"  {level:<7} x{count}: wins {mean:6.1%}  (95% CI {low:.1%} to {high:.1%});  {timing}"
        )
    length = f"  game length: median {data['plies_median']} moves"
    if "rounds_median" in data:
        length += f", {data['rounds_median']} rounds"
    lines.append(length)
    feats = feat_totals(report)
    for name, per in sorted(feats.items()):
        lines.append(f"  {name}: " + ", ".join(f"{level} {n}" for level, n in per.items()))
    won, fought = feats.get("conflicts won"), feats.get("conflicts fought")
    if won and fought:
        shares = ", ".join(f"{level} {won[level] / fought[level]:.1%}" for level in won if fought[level])
        lines.append(f"  share of its conflicts each level won: {shares}")
    cards = card_rates(report)
    if cards:
        limit = f"flag above {CARD_LIMIT:.0%} when held {CARD_MIN_HELD}+ times"
        lines.append(f"  card holders' win rate ({limit}):")
        for key, (n, rate) in sorted(cards.items(), key=lambda kv: -kv[1][1]):
            flag = "  <-- over the limit" if n >= CARD_MIN_HELD and rate > CARD_LIMIT else ""
            low, high = _card_interval(n, rate)
            lines.append(f"    {key:<26}{n:>5} held  {rate:6.1%}  ({low:.0%}-{high:.0%}){flag}")
    return "\n".join(lines)
