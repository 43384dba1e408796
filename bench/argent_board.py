"""Argent's board: render time and PNG size for 2 and 5 players, and a command's time to its posted board.

The command timing runs the real bot and cogs in SimCord (the Discord stand-in): a 3-player table is
started, then the time from `/argent bell` arriving to the board message being in the thread is taken.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from rules.argent import ARGENT as R

SEED = 7


def busy_game(players: int, seed: int, steps: int, options: dict[str, str] | None = None) -> dict[str, Any]:
    """Play a seeded game that prefers placing mages (so the board fills up) for at most ``steps`` moves."""
    state = R.setup(players, options or {}, seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        prompts = R.pending(state)
        if not prompts:
            break
        seat = prompts[0].seat
        moves = R.legal_moves(state, seat)
        places = [m for m in moves if m.action == "place"]
        busy = [m for m in moves if m.action not in ("bell", "done")]
        pick = rnd.choice(places) if places and rnd.random() < 0.7 else rnd.choice(busy or moves)
        state, _ = R.apply(state, seat, pick)
    return state


def render_figures(players: int, samples: int = 9) -> tuple[float, float, float, int]:
    """Return (median wall ms, best wall ms, median CPU ms, PNG bytes) of the board over mid-game states.

    CPU time is what the drawing costs; wall time also counts waiting for a busy machine's cores.
    """
    from render import argent as drawing

    views = [R.view(busy_game(players, SEED + k, 60 + 25 * k), None) for k in range(3)]
    drawing.draw_board(views[0])  # fonts and glyph masks load once per process
    times, cpu, size = [], [], 0
    for k in range(samples):
        view = views[k % len(views)]
        began, used = time.perf_counter(), time.process_time()
        png = drawing.draw_board(view)
        times.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - used) * 1000)
        size = max(size, len(png))
    return statistics.median(times), min(times), statistics.median(cpu), size


async def _command_to_board(samples: int) -> list[float]:
    """Time `/argent bell` (or `/argent place`) from arrival to the posted board, in the stand-in."""
    import simcord

    from bot import create_bot

    with tempfile.TemporaryDirectory() as folder:
        bot = create_bot(str(Path(folder) / "bench.db"), seed_source=lambda: SEED)
        async with simcord.run(bot, check_errors=False) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("tables")
            people = [guild.add_member(env.create_user(n)) for n in ("ann", "ben", "cat")]
            await people[0].slash(channel, "game new", kind="argent")
            thread = channel.threads[-1]
            for member in people[1:]:
                await member.slash(thread, "game join")
            await people[0].slash(thread, "game start")
            by_id = {m.id: m for m in people}
            times: list[float] = []
            while len(times) < samples:
                record = await bot.store.table_for_thread(thread.id)  # type: ignore[union-attr]
                _, state = await bot.store.load(record.id)  # type: ignore[union-attr]
                prompts = R.pending(state)
                if not prompts:
                    break
                seat = prompts[0].seat
                seats = await bot.store.seats(record.id)  # type: ignore[union-attr]
                member = by_id[next(s.user_id for s in seats if s.seat == seat)]
                moves = R.legal_moves(state, seat)
                move = moves[0]
                before = len(thread.history())
                began = time.perf_counter()
                await member.slash(thread, "argent decide", choice=move.code())
                if len(thread.history()) > before and prompts[0].decision == "turn":
                    times.append((time.perf_counter() - began) * 1000)
            await bot.close_store()
    return times


def command_figures(samples: int = 12) -> tuple[float, float]:
    """Return (median ms, worst ms) from a turn command arriving to its board posted in the stand-in."""
    times = asyncio.run(_command_to_board(samples))
    return (statistics.median(times), max(times)) if times else (float("nan"), float("nan"))


def report() -> str:
    """Return the Argent board block of `python -m bench`."""
    lines = ["Argent board"]
    for players in (2, 5):
        median, best, cpu, size = render_figures(players)
        lines.append(
            f"  {players} players: render median {median:.1f} ms (best {best:.1f} ms, CPU {cpu:.1f} ms), "
            f"PNG {size // 1024} KB"
        )
    try:
        median, worst = command_figures()
        lines.append(
            f"  command -> board posted (SimCord, 3 players): median {median:.0f} ms, worst {worst:.0f} ms"
        )
    except ImportError as exc:  # SimCord is a test dependency
        lines.append(f"  command -> board posted: n/a ({exc.name} not installed)")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
