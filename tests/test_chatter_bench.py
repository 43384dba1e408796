"""The chatter bench: whole games through the real cogs in SimCord, counting what Discord shows."""

from __future__ import annotations

import json

import pytest

from bench.chatter import chatter, count_requests
from bench.cli import main
from rules import registry
from tests.toygame import TOY

KEYS = {
    "game",
    "players",
    "games",
    "turns",
    "posts",
    "edits",
    "pings",
    "dms",
    "interactions",
    "pings_per_turn",
    "forced_clicks",
    "seconds",
}


@pytest.fixture(autouse=True)
def toy_registered() -> None:
    registry.register(TOY)


async def test_chatter_plays_whole_games_and_meets_the_quiet_table_targets() -> None:
    out = await chatter("toy", 3, 2, 7)
    assert set(out) >= KEYS
    assert (out["game"], out["players"], out["games"]) == ("toy", 3, 2)
    assert out["finished"] == 2 and out["errors"] == 0
    assert out["turns"] > 0 and out["interactions"] >= out["turns"]
    # One ping per turn at most; a new thread message per turn (plus rounds and the lobby/end).
    assert out["pings_per_turn"] <= 1.0
    assert out["posts"] <= out["posts_budget"]
    assert out["edits"] > 0  # the living board was edited in place during turns


def test_chatter_counts_posts_edits_pings_and_dms_from_the_request_log() -> None:
    class Entry:
        def __init__(self, method: str, path: str, body: dict) -> None:
            self.method, self.path, self.json = method, path, body

    log = [
        Entry("POST", "/channels/1/messages", {"content": "<@5> <@6>", "allowed_mentions": {"users": ["5"]}}),
        Entry("PATCH", "/channels/1/messages/9", {"content": "<@5> edited"}),
        Entry("POST", "/channels/2/messages", {"content": "a DM"}),
        Entry("POST", "/channels/3/messages", {"content": "<@5> elsewhere"}),
        Entry("POST", "/interactions/4/x/callback", {"type": 5}),
    ]
    assert count_requests(log, {1}, {2}) == {"posts": 1, "edits": 1, "pings": 1, "dms": 1}


def test_the_command_line_prints_the_summary_last(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["chatter", "--game", "toy", "--players", "2", "--games", "1", "--seed", "3"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0 and set(summary) >= KEYS and summary["game"] == "toy"
