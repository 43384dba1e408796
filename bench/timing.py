"""Timings of one kind: apply, legal_moves, view + render, and a store write and load."""

from __future__ import annotations

import asyncio
import math
import statistics
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import render
from bench.selfplay import Playout, play
from rules.contract import Rules
from store import Store

USER_BASE = 10_000
"""Seat n sits as the made-up user USER_BASE + n in the bench's temporary database."""


@dataclass
class Report:
    """Samples gathered for one kind, in seconds (sizes in bytes)."""

    kind: str
    players: int
    games: int = 0
    moves: int = 0
    errors: list[str] = field(default_factory=list)
    samples: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    png_sizes: list[int] = field(default_factory=list)
    has_drawing: bool = True


def percentile(values: list[float], share: float) -> float:
    """Return the nearest-rank percentile (share in 0..1) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(share * len(ordered)))
    return ordered[rank - 1]


def measure(rules: Rules, players: int, seconds: float, seed: int, renders: int, writes: int) -> Report:
    """Play seeded random games for about ``seconds`` and time every part of a move's path."""
    report = Report(rules.kind, players)
    options = rules.default_options()
    deadline = time.perf_counter() + seconds
    playouts: list[Playout] = []
    kept = 0
    game_seed = seed
    while time.perf_counter() < deadline or not playouts:
        # Every move is timed, but states are kept only for enough games to feed the view
        # and store samples: a long bench of a big game must not hold thousands of states.
        keep = kept < max(writes, renders * 4)
        game = play(
            rules,
            players,
            options,
            game_seed,
            keep_steps=keep,
            timer=lambda what, took: report.samples[what].append(took),
        )
        game_seed += 1
        report.games += 1
        report.moves += game.moves
        if game.error:
            report.errors.append(f"seed {game.seed}: {game.error}")
        kept += len(game.steps)
        if keep:
            playouts.append(game)
    _time_views(rules, report, playouts, renders, seconds)
    asyncio.run(_time_store(rules, report, playouts, writes))
    return report


def _spread(playouts: list[Playout], count: int) -> list:
    """Pick up to ``count`` steps spread evenly over all games (early, middle and late states)."""
    steps = [step for game in playouts for step in game.steps]
    if len(steps) <= count:
        return steps
    stride = len(steps) / count
    return [steps[int(i * stride)] for i in range(count)]


def _time_views(rules: Rules, report: Report, playouts: list[Playout], renders: int, seconds: float) -> None:
    """Time the spectator view plus the board drawing on states spread over the games."""
    # A slow drawing must not stretch the bench: stop after the time budget (5 samples at least).
    deadline = time.perf_counter() + seconds
    for count, step in enumerate(_spread(playouts, renders)):
        if count >= 5 and time.perf_counter() > deadline:
            break
        began = time.perf_counter()
        view = rules.view(step.after, None)
        drawing = time.perf_counter()
        png = render.board(rules.kind, view)
        done = time.perf_counter()
        report.samples["view+render"].append(done - began)
        report.samples["render"].append(done - drawing)
        if png is None:
            report.has_drawing = False
        else:
            report.png_sizes.append(len(png))


async def _time_store(rules: Rules, report: Report, playouts: list[Playout], writes: int) -> None:
    """Replay games into a temporary database, timing each commit_move and load."""
    clock = time.perf_counter
    with tempfile.TemporaryDirectory(prefix="conclave-bench-") as folder:
        db = await Store.open(str(Path(folder) / "bench.db"))
        try:
            done = 0
            for game in playouts:
                if done >= writes or game.start is None:
                    break
                users = [USER_BASE + seat for seat in range(game.players)]
                table = await db.create_table(
                    rules.kind, f"bench {game.seed}", game.options, None, 1, users[0]
                )
                for user in users:
                    await db.add_seat(table.id, user, f"mage{user - USER_BASE}", None)
                waiting = [USER_BASE + s for s in rules.waiting_on(game.start)]
                await db.start(table.id, game.seed, users, game.start, waiting)
                for version, step in enumerate(game.steps[: writes - done]):
                    over = rules.is_over(step.after)
                    result = rules.result(step.after).to_json() if over else None
                    waiting = [] if over else [USER_BASE + s for s in rules.waiting_on(step.after)]
                    events = [event.to_json() for event in step.events]
                    began = clock()
                    await db.commit_move(
                        table.id, version, step.seat, step.move.to_json(), events, step.after, waiting, result
                    )
                    report.samples["store write"].append(clock() - began)
                    began = clock()
                    await db.load(table.id)
                    report.samples["store load"].append(clock() - began)
                    done += 1
        finally:
            await db.close()


def figures(report: Report) -> dict[str, float | int | None]:
    """Return the engine and drawing figures of a report as JSON-ready numbers."""
    applies = report.samples.get("apply") or []
    drawings = (report.samples.get("render") or []) if report.has_drawing else []
    return {
        "players": report.players,
        "moves": report.moves,
        "apply_mean_us": round(1e6 * statistics.fmean(applies), 1) if applies else None,
        "render_ms": round(1000 * statistics.median(drawings), 2) if drawings else None,
        "errors": len(report.errors),
    }


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.3f} ms"


def format_report(report: Report, title: str) -> str:
    """Return the report as aligned lines of text."""
    lines = [f"{report.kind} ({title}), {report.players} players: {report.games} games, {report.moves} moves"]
    for name in ("apply", "legal_moves", "view+render", "store write", "store load"):
        values = report.samples.get(name) or []
        if not values:
            lines.append(f"  {name:<12} no samples")
            continue
        line = (
            f"  {name:<12} median {_ms(statistics.median(values))}   "
            f"p99 {_ms(percentile(values, 0.99))}   n={len(values)}"
        )
        if name == "view+render":
            if report.has_drawing and report.png_sizes:
                line += f"   png median {statistics.median(report.png_sizes) / 1024:.1f} KiB"
            else:
                line += "   render n/a (no board drawing: view only)"
        lines.append(line)
    for error in report.errors[:5]:
        lines.append(f"  ERROR {error}")
    if len(report.errors) > 5:
        lines.append(f"  ... and {len(report.errors) - 5} more errors")
    return "\n".join(lines)
