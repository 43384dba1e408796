"""``python -m bench --json``: one JSON line by kind, with moves timed through the cogs."""

from __future__ import annotations

import json

import pytest

from bench import e2e
from bench.cli import main
from cogs.kit import delivery

WANTED = {"e2e_median_ms", "e2e_p99_ms", "transactions_per_move", "apply_mean_us", "render_ms", "store_ms"}


def test_the_last_line_holds_every_figure_by_kind(capsys: pytest.CaptureFixture[str]) -> None:
    """Each kind asked for appears under its name with every figure measured (none missing)."""
    # The Institute: its first moves are played as typed. (Quadrivium's first decision, naming a
    # mage, opens its form instead and writes nothing: the bench's Quadrivium e2e plays no move.)
    code = main(["--kind", "institute", "--json", "--seconds", "0.05", "--renders", "1",
                 "--writes", "1", "--e2e-moves", "3"])
    assert code == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert list(figures) == ["institute"]
    row = figures["institute"]
    assert set(row) >= WANTED
    # No error: each timed move landed (a worded move is timed through its form to the move).
    assert row["e2e_moves"] == 3 and row["e2e_errors"] == 0
    assert 0 <= row["drawings_per_move"] <= 3  # only what a move shows: a board, its sheets
    assert 0 < row["e2e_median_ms"] <= row["e2e_p99_ms"]
    assert row["transactions_per_move"] >= 1  # a move is written: at least its own transaction
    assert row["apply_mean_us"] > 0 and row["render_ms"] > 0
    assert 0 < row["store_ms"] < row["e2e_p99_ms"]  # a move is written: time inside the store
    # The database thread's time: statements and the move's fsync, which runs once the commit was
    # handed back (beside the compose), so it may exceed the time the move spent in the store.
    assert 0 < row["store_db_ms"] < row["e2e_p99_ms"]


def test_transactions_are_counted_from_the_statements() -> None:
    """BEGIN ... COMMIT is one transaction; a statement outside one is its own."""
    counter = e2e.Transactions()
    for sql in ("SELECT 1", "BEGIN IMMEDIATE", "UPDATE t SET v = 1", "INSERT INTO m VALUES (1)",
                "COMMIT", "SELECT 2", "begin", "ROLLBACK"):
        counter.saw(sql)
    assert (counter.count, counter.statements) == (4, 8)


async def test_store_time_counts_overlapping_calls_once() -> None:
    """Time inside the store's calls: a call during another adds nothing twice; private ones are not timed."""
    import asyncio

    class Slow:
        async def write(self, seconds: float) -> str:
            await asyncio.sleep(seconds)
            return "written"

        async def both(self) -> None:
            await asyncio.gather(self.write(0.05), self.write(0.05))

        async def _inner(self) -> None:
            await asyncio.sleep(0.05)

    store, timer = Slow(), e2e.StoreTime()
    timer.wrap(store)
    assert await store.write(0.05) == "written"
    await store.both()  # two writes at once inside a third call: about 0.05 s, not 0.15
    await store._inner()  # not a public call: not timed
    assert 0.1 <= timer.seconds < 0.14


def test_no_edit_spacing_restores_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench's spacing of 0 holds only inside its block."""
    monkeypatch.setattr(delivery, "EDIT_SPACING", 1.0)  # as on Discord
    with e2e.no_edit_spacing():
        assert delivery.EDIT_SPACING == 0.0
    assert delivery.EDIT_SPACING == 1.0


def test_the_settle_poll_holds_only_inside_its_block() -> None:
    """SimCord looks every 5 ms while the bench times moves, and at its own interval after.

    The pinned SimCord must have the knob: without it the bench would again charge moves up to
    50 ms of SimCord's own wait, silently (``bench.settling.settle_poll``, used by ``bench --json``
    and ``bench chatter``)."""
    import simcord.env

    from bench import settling

    defaults = simcord.env.Env._settle_internal.__kwdefaults__
    before = defaults["idle"]
    assert before == 0.05
    with settling.settle_poll():
        assert defaults["idle"] == settling.SETTLE_POLL == 0.005
    assert defaults["idle"] == before


def test_the_json_figures_play_only_the_games_the_bot_offers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The toy game has engine figures but no table through the cogs: it is left out, not a crash."""
    import argparse

    from bench import cli
    from rules.toy import TOY

    played: list[str] = []
    monkeypatch.setattr(e2e, "run", lambda kind, *args: played.append(kind) or e2e.Timed(kind, 2))
    monkeypatch.setattr(e2e, "summary", lambda timed: {"e2e_median_ms": 0.0})
    args = argparse.Namespace(e2e_moves=1, seed=1)
    out = cli._json_figures(args, {"argent": {"players": 5}, TOY.kind: {"players": 3}})
    assert played == ["argent"] and list(out) == ["argent"]
