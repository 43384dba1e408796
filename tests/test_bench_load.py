"""``python -m bench load``: tables moving at once through the service, audited afterwards."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest

from bench.cli import main
from bench.load import TableRun, audit


def test_the_last_line_gives_throughput_and_the_audit(capsys: pytest.CaptureFixture[str], tmp_path) -> None:
    """Every table makes its moves, none is lost or doubled, and the file named by --db is used."""
    db = tmp_path / "load.db"
    code = main(["load", "--tables", "3", "--moves", "2", "--game", "quadrivium", "--db", str(db)])
    assert code == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {"moves_per_s", "p99_ms", "lost", "doubled", "rss_mb"} <= set(summary)
    assert (summary["tables"], summary["moves"], summary["lost"], summary["doubled"]) == (3, 6, 0, 0)
    assert summary["moves_per_s"] > 0 and summary["rss_mb"] > 0
    assert 0 < summary["rss_opened_mb"] <= summary["rss_mb"] and summary["drawings_kept_mb"] >= 0
    assert summary["drawn_on_loop"] == 0
    assert summary["drawings"] > 0  # the boards and notes the bot would post are drawn, as it draws them
    # ... by what shows them (service.showing decides, as for the bot): never more than a board
    # and every seat's note per move.
    assert summary["drawings"] == sum(summary["drawn"].values())
    assert set(summary["drawn"]) <= {"post", "edit", "dm", "answer"} and summary["quiet"] >= 0
    assert summary["drawn"].get("post", 0) + summary["drawn"].get("edit", 0) <= 6 - summary["quiet"]
    assert db.exists()


class _Log:
    """A store stand-in holding one table's logged versions."""

    def __init__(self, versions: list[int]) -> None:
        self.versions = versions

    async def moves(self, table_id: int) -> list[SimpleNamespace]:
        return [SimpleNamespace(version=v) for v in self.versions]


def test_the_audit_finds_a_lost_and_a_doubled_move() -> None:
    """A reported version missing from the log is lost; a version twice (log or replies) is doubled."""
    run = TableRun(7, versions=[1, 2, 3, 3])
    assert asyncio.run(audit(_Log([1, 2, 2]), run)) == (1, 2)
    assert asyncio.run(audit(_Log([1, 2, 3]), TableRun(7, versions=[1, 2, 3]))) == (0, 0)
