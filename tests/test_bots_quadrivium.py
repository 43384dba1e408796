"""Quadrivium's bots: the basic policy's choices in constructed positions, the search's judge, the count.

Each position is a real table (quick creation) brought to a decision, with the deciding seat's hand
set by hand; the bot sees it through ``observe`` like any seat, so it decides from its view alone.
"""

from __future__ import annotations

import random
from typing import Any

from bench.arena import ArenaGame, ArenaReport, feat_totals, play_game
from bots import LEVELS, BasicBot, StrongBot, bot_rng, make_bot, observe
from bots.games.quadrivium import evaluate, feats, searches
from rules.contract import Move
from tests.quadrivium_helpers import R, act, even_mage, quick, to_trick


def give(s: dict[str, Any], seat: int, cards: list[str]) -> None:
    """Make ``cards`` the seat's hand (taken from wherever they lie; the old hand goes to the deck)."""
    for pile in [s["deck"], *s["hands"]]:
        for card in cards:
            if card in pile:
                pile.remove(card)
    s["deck"] += s["hands"][seat]
    s["hands"][seat] = list(cards)


def basic(s: dict[str, Any], seat: int) -> Move:
    return BasicBot().choose(observe(R, s, seat), random.Random(5))


def at_trick(hand: list[str], types: tuple[str, str] = ("vigor", "influence"), tricks: int = 2) -> dict:
    s = quick(2, seed=3)
    even_mage(s, 0)
    even_mage(s, 1)
    s = to_trick(s, types, tricks=tricks)
    give(s, 0, hand)
    return s


def test_basic_places_the_lowest_card_that_should_take_the_trick() -> None:
    # Vigor-Influence: the 9 of hearts counts 11, enough; the King of spades is kept for later.
    s = at_trick(["2C", "9H", "KS", "4D"])
    assert basic(s, 0) == Move.of("place", card="9H")


def test_basic_throws_its_weakest_card_when_none_should_win_and_the_trick_decides_nothing() -> None:
    # In a Vigor conflict the 2 of clubs counts 4: the 3 of spades is the weakest card.
    s = at_trick(["2C", "5S", "7D", "3S"])
    assert basic(s, 0) == Move.of("place", card="3S")


def test_basic_keeps_a_joker_for_the_deciding_trick() -> None:
    s = at_trick(["RJ", "10C", "3S"], tricks=2)
    assert basic(s, 0) == Move.of("place", card="10C")
    s = at_trick(["RJ", "10C", "3S"], tricks=1)
    assert basic(s, 0) == Move.of("place", card="RJ")


def test_basic_opposes_with_a_strong_hand_and_lets_a_weak_one_pass() -> None:
    s = quick(2, seed=3)
    s, _ = act(s, 0, "intent", text="I climb the tower")
    give(s, 1, ["AS", "KH", "QD", "2C", "3C"])
    assert basic(s, 1) == Move.of("oppose")
    give(s, 1, ["2S", "3H", "4D", "5C", "6C"])
    assert basic(s, 1) == Move.of("allow")


def test_basic_names_the_type_its_hand_favours_and_keeps_the_conditions_fair() -> None:
    s = quick(2, seed=3)
    s, _ = act(s, 0, "intent", text="I climb the tower")
    s, _ = act(s, 1, "oppose")
    give(s, 0, ["4H", "9H", "QH", "2C", "3S"])
    assert basic(s, 0) == Move.of("type", trait="influence")
    s, _ = act(s, 0, "type", trait="influence")
    s, _ = act(s, 1, "type", trait="vigor")
    assert basic(s, 0) == Move.of("conditions", win_harm="none", lose_harm="none")
    # The Antagonist is asked to accept a Harm to itself if it loses: it revises that away.
    s, _ = act(s, 0, "conditions", win_harm="craft", lose_harm="none")
    assert basic(s, 1) == Move.of("revise", part="win", harm="none")


def test_basic_calls_on_vigor_when_its_clubs_turn_the_trick() -> None:
    s = at_trick(["8C", "6C", "2H"])
    s["hands"][1] += ["KS"]
    s, _ = act(s, 0, "place", card="8C")
    s, _ = act(s, 1, "place", card="KS")
    s, _ = act(s, 0, "reveal")
    s, _ = act(s, 1, "reveal")
    # 8 of clubs +2 (Vigor type) = 10 against the King's 13: the 6 of clubs closes the gap.
    move = basic(s, 0)
    assert move.action == "spend" and move.get("trait") == "vigor" and move.get("pay") == "point"
    s, _ = act(s, 0, "spend", trait="vigor", pay="point")
    assert basic(s, 0) == Move.of("add", card="6C")


def test_basic_takes_a_fresh_point_at_council_but_never_harms_the_covenant() -> None:
    s = quick(2, seed=3)
    taken = passed = 0
    rand = random.Random(2)
    while s["phase"] != "council" or s["council"]["step"] != "take":
        seat = R.waiting_on(s)[0]
        s, _ = R.apply(s, seat, rand.choice(R.legal_moves(s, seat)))
    while s["phase"] == "council" and s["council"]["step"] in ("take", "bid"):
        seat = R.waiting_on(s)[0]
        move = basic(s, seat)
        if move.action == "take":
            k = s["council"]
            cov = s["covenant"]["res"][k["resources"][k["ri"]]]
            assert cov["value"] - cov["spent"] - cov["harm"] > 0, "took from an exhausted resource"
            taken += 1
        passed += move.action == "pass"
        s, _ = R.apply(s, seat, move)
    assert taken and passed


def test_the_search_judges_the_conflict_and_only_searches_where_it_fights() -> None:
    s = at_trick(["8C", "6C", "2H"])
    assert searches(observe(R, s, 0)) and searches(observe(R, s, 1))
    c = s["conflict"]
    c["wins"] = [1, 0]
    ahead = evaluate(R, s, 0)
    assert ahead > 0.5 > evaluate(R, s, 1)
    c["winner"] = 1
    assert evaluate(R, s, 1) == 1.0 and evaluate(R, s, 0) == 0.0
    calm = quick(2, seed=3)
    assert not searches(observe(R, calm, 0)) and evaluate(R, calm, 0) == 0.5


def test_strong_plays_a_legal_move_within_its_budget_in_a_conflict() -> None:
    s = at_trick(["8C", "6C", "2H", "QS"])
    move = make_bot("strong", iterations=6).choose(observe(R, s, 0), random.Random(3))
    assert move in R.legal_moves(s, 0)


def test_the_arena_counts_conflicts_fought_and_won_per_level() -> None:
    times: dict[str, list[float]] = {}
    bots = {"basic": make_bot("basic"), "random": make_bot("random")}
    game = play_game(R, ["basic", "random"], 7, bots, times)
    assert game.error is None
    fought, won = game.feats["conflicts fought"], game.feats.get("conflicts won", {})
    # Two players: every conflict is fought by both seats and won by one.
    assert fought[0] == fought[1] and sum(won.values()) == fought[0] > 0
    other = ArenaGame(8, ["random", "basic"])
    report = ArenaReport("quadrivium", 2, ["basic", "random"], games=[game, other])
    report.games[1].feats = {"conflicts won": {0: 2}, "conflicts fought": {0: 3, 1: 3}}
    totals = feat_totals(report)
    assert totals["conflicts won"]["random"] == won.get(1, 0) + 2
    assert totals["conflicts fought"]["basic"] == fought[0] + 3


def test_feats_credit_the_conflict_events() -> None:
    s = quick(2, seed=3)
    s, _ = act(s, 0, "intent", text="I climb the tower")
    s, events = act(s, 1, "oppose")
    credited = [f for e in events for f in feats(e)]
    assert ("conflicts fought", 0) in credited and ("conflicts fought", 1) in credited
    s, _ = act(s, 0, "type", trait="vigor")
    s, _ = act(s, 1, "type", trait="vigor")
    s, _ = act(s, 0, "conditions", win_harm="none", lose_harm="none")
    s, _ = act(s, 1, "accept")
    s, _ = act(s, 1, "tricks", n=1)
    s, events = act(s, 0, "yield")
    assert [f for e in events for f in feats(e)] == [("conflicts won", 1)]


def test_no_level_reads_a_secret_in_a_running_conflict() -> None:
    """The scramble test of tests/test_bots.py, at decisions inside conflicts (hidden cards in play)."""
    s = quick(3, seed=12)
    rand = random.Random(12)
    checked = 0
    while not R.is_over(s) and checked < 8:
        seat = R.waiting_on(s)[0]
        c = s["conflict"]
        if c and seat in c["sides"] and c["winner"] is None and rand.random() < 0.3:
            other = R.scramble(s, seat, random.Random(checked))
            assert R.view(other, seat) == R.view(s, seat) and other != s
            for level in LEVELS:
                bot = StrongBot(iterations=8) if level == "strong" else make_bot(level)
                real = bot.choose(observe(R, s, seat), bot_rng(checked, level))
                assert real == bot.choose(observe(R, other, seat), bot_rng(checked, level)), level
            checked += 1
        s, _ = R.apply(s, seat, BasicBot().choose(observe(R, s, seat), rand))
    assert checked == 8
