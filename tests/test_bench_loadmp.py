"""``python -m bench load --db ...``: worker processes play the same tables on one store (each engine)."""

from __future__ import annotations

import asyncio
import json

from bench import load_multi


async def test_two_processes_on_one_store_lose_and_double_nothing(engine: str) -> None:
    summary = await asyncio.to_thread(load_multi.run, engine, 2, 4, 2, None, False)
    assert summary["moves"] > 0 and summary["moves_per_s"] > 0 and summary["p99_ms"] is not None
    assert (summary["lost"], summary["doubled"]) == (0, 0)
    assert (summary["reminders"], summary["reminders_doubled"], summary["reminders_missed"]) == (4, 0, 0)


def test_bench_load_with_an_engine_word_runs_the_processes(capsys) -> None:
    from bench import cli

    code = cli.main(["load", "--db", "sqlite", "--processes", "2", "--tables", "2", "--moves", "1"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0 and summary["db"] == "sqlite" and summary["processes"] == 2
    assert (summary["lost"], summary["doubled"], summary["reminders_missed"]) == (0, 0, 0)


async def test_a_worker_killed_mid_run_leaves_nothing_lost_doubled_or_unsent(engine: str) -> None:
    summary = await asyncio.to_thread(load_multi.run, engine, 3, 8, 4, None, True)
    assert summary["killed"] == 1
    assert summary["killed_after_moves"] >= 8 * 4 // (4 * 3), "killed once it had made its quarter"
    assert (summary["lost"], summary["doubled"]) == (0, 0)
    assert (summary["reminders"], summary["reminders_doubled"], summary["reminders_missed"]) == (8, 0, 0)
