"""``python -m bench loadmp``: two worker processes play the same tables on one store (each engine)."""

from __future__ import annotations

import asyncio

from bench import load_multi


async def test_two_processes_on_one_store_lose_and_double_nothing(engine: str) -> None:
    summary = await asyncio.to_thread(load_multi.run, engine, 2, 4, 2, None, False)
    assert summary["moves"] > 0 and summary["moves_per_s"] > 0 and summary["p99_ms"] is not None
    assert (summary["lost"], summary["doubled"]) == (0, 0)
    assert (summary["reminders"], summary["reminders_doubled"], summary["reminders_missed"]) == (4, 0, 0)
