"""Wizard's Academy self-play: the designed game can be won and lost by a sensible cooperative policy,
playing only through the contract (rules.academy.selfplay)."""

from __future__ import annotations

from rules.academy import RULES
from rules.academy.selfplay import play
from tests.academy_helpers import game


def test_the_policy_wins_some_basic_games_and_loses_some() -> None:
    results = [play(1, {"scenario": "basic"}, seed)["won"] for seed in range(1, 13)]
    assert any(results) and not all(results)


def test_every_finished_game_has_a_shared_result() -> None:
    for seed in (1, 2, 3):
        state = play(3, {"scenario": "basic"}, seed)
        result = RULES.result(state)
        assert state["over"] and result is not None
        assert result.winners in ((), (0, 1, 2)) and bool(result.winners) == state["won"]


def test_easy_basic_game_starts_with_abjure_bound() -> None:
    s = game(2, difficulty="easy", seed=4)
    assert [v["spell"] for v in s["slots"].values() if v["bound"]] == ["abjure"] and s["mana"] == 7
    hard = game(2, difficulty="hard", seed=4)
    assert hard["mana"] == 4 and not any(v["bound"] for v in hard["slots"].values())
