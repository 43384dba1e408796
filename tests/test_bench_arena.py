"""bench arena: bots against bots with rotated seats; the last line is the JSON summary."""

from __future__ import annotations

import json

import pytest

from bench.arena import ArenaGame, ArenaReport, card_rates, format_report, summary, win_shares
from bench.cli import main
from rules.toy import TOY


def run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict, str]:
    code = main(argv)
    out = capsys.readouterr()
    return code, json.loads(out.out.strip().splitlines()[-1]), out.out + out.err


def test_arena_rotates_seats_and_reports_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "--game", TOY.kind, "--players", "3", "--games", "6", "--seed", "3"]
    code, data, text = run(capsys, [*argv, "--seats", "strong,basic,random", "--iterations", "2"])
    assert code == 0 and data["errors"] == 0
    assert data["game"] == "toy" and data["players"] == 3 and data["games"] == 6
    assert data["seats"] == ["strong", "basic", "random"]
    assert set(data["win_rate"]) == {"strong", "basic", "random"}
    # Shares of each finished game add up to one (a draw splits it), so the rates sum to 1.
    assert abs(sum(data["win_rate"].values()) - 1.0) < 1e-6
    assert set(data["decision_ms"]) == {"strong", "basic", "random"}
    assert all(low <= data["win_rate"][lv] <= high for lv, (low, high) in data["win_ci95"].items())
    assert "95% CI" in text and "wins so far" in text
    # The same seed plays the same games.
    again = run(capsys, [*argv, "--seats", "strong,basic,random", "--iterations", "2"])[1]
    assert again["win_rate"] == data["win_rate"]


def test_arena_refuses_a_seat_list_of_the_wrong_length(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--game", "toy", "--players", "2", "--games", "1", "--seats", "basic"])
    assert code == 2
    assert "one level per seat" in capsys.readouterr().err


def test_a_shared_win_is_split_and_a_strong_card_is_flagged() -> None:
    report = ArenaReport("x", 2, ["basic", "random"])
    for g in range(30):
        game = ArenaGame(g, ["basic", "random"] if g % 2 == 0 else ["random", "basic"])
        winner = 0 if g % 2 == 0 else 1  # basic always wins
        game.shares = {0: 0.5, 1: 0.5} if g == 29 else {winner: 1.0}
        game.held = {winner: {"crown"}, 1 - winner: {"pebble"}}
        report.games.append(game)
    shares = win_shares(report)
    assert sum(shares["basic"]) == 29.5 and sum(shares["random"]) == 0.5
    rates = card_rates(report)
    assert rates["crown"][0] == 30 and rates["crown"][1] > 0.65
    assert summary(report)["cards_over_limit"] == ["crown"]
    assert summary(report)["draws"] == 1


def test_each_card_line_shows_the_noise_around_its_holders_win_rate() -> None:
    report = ArenaReport("x", 2, ["basic", "basic"])
    for g in range(100):
        game = ArenaGame(g, ["basic", "basic"])
        game.shares = {0: 1.0}
        game.held = {0 if g < 60 else 1: {"crown"}}  # held 100 times, its holder won 60
        report.games.append(game)
    line = next(x for x in format_report(report).splitlines() if "crown" in x)
    # 60% of 100: 1.96 * sqrt(0.6 * 0.4 / 100) = 9.6 points either side.
    assert "100 held" in line and "60.0%" in line and "(50%-70%)" in line
    assert "over the limit" not in line
