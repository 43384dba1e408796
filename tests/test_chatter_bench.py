"""The chatter bench: whole games through the real cogs in SimCord, counting what Discord shows."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from bench.chatter import (
    BUDGETS,
    FIGURES,
    WHOLE,
    Tally,
    _count_lone,
    _rounds,
    chatter,
    count_requests,
    over_budget,
    whole,
    whole_table,
)
from bench.cli import main
from rules.contract import Move, Prompt, PromptKind

pytestmark = pytest.mark.usefixtures("toy_registered")

KEYS = {
    "game",
    "players",
    "games",
    "turns",
    "posts",
    "edits",
    "pings",
    "dms",
    "spectator_dms",
    "interactions",
    "pings_per_turn",
    "forced_clicks",
    "forced_secret",
    "seconds",
}


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
        Entry("POST", "/channels/8/messages", {"content": "a spectator's digest"}),
        Entry("POST", "/interactions/4/x/callback", {"type": 5}),
    ]
    counted = count_requests(log, {1}, {2, 8}, {8})
    assert counted == {"posts": 1, "edits": 1, "pings": 1, "dms": 1, "spectator_dms": 1}


def test_the_command_line_prints_the_summary_last(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["chatter", "--game", "toy", "--players", "2", "--games", "1", "--seed", "3"])
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0 and set(summary) >= KEYS and summary["game"] == "toy"


class _LoneRules:
    """A game whose seat 0 has one legal move: ``card`` when the hidden card is a Joker, else also
    ``pass``; a re-deal draws the hidden card again when the state says it is a secret."""

    def legal_moves(self, state: dict[str, Any], seat: int) -> list[Move]:
        lone = [Move.of(state["move"])]
        return lone if state["hidden"] == "joker" else [*lone, Move.of("pass")]

    def scramble(self, state: dict[str, Any], seat: int | None, rand: random.Random) -> dict[str, Any]:
        return dict(state, hidden=rand.choice(["joker", "ace"])) if state["secret"] else dict(state)

    def writes(self, move: Move) -> bool:
        return move.action == "say"


@pytest.mark.parametrize(
    ("state", "counted"),
    [
        ({"move": "take", "hidden": "joker", "secret": False}, "forced_clicks"),
        ({"move": "take", "hidden": "joker", "secret": True}, "forced_secret"),
        ({"move": "say", "hidden": "joker", "secret": True}, "written"),
    ],
)
def test_a_lone_click_is_sorted_forced_secret_bound_or_written(state: dict[str, Any], counted: str) -> None:
    tally = Tally()
    asked = [Prompt(0, PromptKind.TURN, "pick", "Pick.")]
    _count_lone(tally, _LoneRules(), state, 0, 2, asked, random.Random(1))
    figures = {"forced_clicks": tally.forced_clicks, "forced_secret": tally.forced_secret}
    figures["written"] = tally.written
    assert figures == {k: int(k == counted) for k in figures}
    assert sum(tally.forced.values()) == tally.forced_clicks
    assert sum(tally.secret.values()) == tally.forced_secret


def test_rounds_come_from_the_view_or_from_full_cycles_of_the_turns() -> None:
    assert _rounds({"round": 5, "turn": 40}, 4) == 5
    assert _rounds({"turn": 9}, 4) == 3  # two full cycles and a third begun
    assert _rounds({"turn": 8}, 1) == 8  # alone, each turn is a round
    assert _rounds({"phase": "over"}, 3) == 0


@pytest.mark.parametrize("kind", sorted(BUDGETS))
async def test_each_game_stays_within_its_chatter_budget(kind: str) -> None:
    """Posts, pings, DMs, a spectator's DMs and clicks of a short seeded run stay in the game's budget."""
    budget = BUDGETS[kind]
    out = await chatter(kind, budget.players, 1, budget.seed, moves=budget.moves)
    assert out["errors"] == 0 and out["moves"] >= budget.moves
    assert over_budget(out, budget) == []


def test_a_figure_over_its_budget_is_named() -> None:
    budget = BUDGETS["argent"]
    within = dict.fromkeys(budget.limits, 0)
    assert over_budget(within, budget) == []
    over = dict(within, posts=budget.limits["posts"] + 1)
    assert over_budget(over, budget) == [f"posts {budget.limits['posts'] + 1} > {budget.limits['posts']}"]


def test_the_whole_game_run_reports_each_games_figures_as_a_table() -> None:
    """``--whole`` plays the four games at a usual size; here the toy game stands in for them."""
    assert {kind for kind, _ in WHOLE} == {"argent", "academy", "institute", "quadrivium"}
    report = whole(7, (("toy", 2), ("toy", 3)))
    assert report["errors"] == 0 and list(report["games"]) == ["toy 2p", "toy 3p"]
    for figures in report["games"].values():
        assert figures["finished"] == 1 and set(FIGURES) <= set(figures)
        assert figures["posts"] > 0 and figures["interactions"] > 0
    rows = whole_table(report)
    assert rows[0].startswith("| game | moves | posts | pings | DMs | spectator DMs | clicks |")
    toy = report["games"]["toy 2p"]
    assert rows[2] == "| toy 2p | " + " | ".join(str(toy[k]) for k in ("moves", *FIGURES)) + " |"


def test_the_command_line_asks_for_a_game_or_the_whole_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["chatter"]) == 2
    assert "--whole" in capsys.readouterr().err
