"""Bots choose from what their seat may know: hidden information never changes a choice.

For every registered game (and the test game) and every level, at decision points of seeded
random games, a bot given the real state and a bot given the state with the seat's secrets
re-drawn (``scramble``) choose the same move with the same generator. The strong bot runs on a
fixed number of iterations here, so its choice is reproducible.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from bots import LEVELS, BasicBot, Bot, StrongBot, bot_rng, make_bot, observe
from bots.levels import unsearched
from rules import registry
from rules.contract import Rules, State
from rules.toy import TOY

GAMES = [registry.get(k) for k in registry.kinds()] + [TOY]
ITERATIONS = 12
"""Strong iterations in the scramble test: enough to search, few enough to stay fast."""


def decision_points(rules: Rules, seed: int, count: int) -> list[State]:
    """Return ``count`` states spread over one seeded random game (each waits on someone)."""
    rand = random.Random(seed)
    state = rules.setup(rules.min_players if rules.min_players > 1 else 2, {}, seed)
    if rules.max_players >= 3:
        state = rules.setup(3, {}, seed)
    found: list[State] = []
    step = 0
    while not rules.is_over(state) and len(found) < count:
        if step % 7 == 3:
            found.append(state)
        seat = rand.choice(rules.waiting_on(state))
        state, _ = rules.apply(state, seat, rand.choice(rules.legal_moves(state, seat)))
        step += 1
    return found


def _bot(level: str) -> Bot:
    return StrongBot(iterations=ITERATIONS) if level == "strong" else make_bot(level)


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.kind)
def test_scrambling_the_hidden_information_never_changes_a_choice(rules: Rules) -> None:
    moved = 0
    for n, state in enumerate(decision_points(rules, seed=11, count=6)):
        for seat in rules.waiting_on(state):
            for k in range(2):
                other = rules.scramble(state, seat, random.Random(1000 * n + k))
                assert rules.view(other, seat) == rules.view(state, seat)
                moved += other != state
                for level in LEVELS:
                    real = _bot(level).choose(observe(rules, state, seat), bot_rng(n, seat, level))
                    fake = _bot(level).choose(observe(rules, other, seat), bot_rng(n, seat, level))
                    assert real == fake, f"{rules.kind} {level}: the choice depends on hidden things"
                    assert real in rules.legal_moves(state, seat)
    if rules.has_secrets:
        assert moved, "no scramble re-drew anything, so the test proved nothing"


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.kind)
def test_a_sample_depends_only_on_what_the_seat_knows(rules: Rules) -> None:
    for n, state in enumerate(decision_points(rules, seed=5, count=4)):
        for seat in rules.waiting_on(state):
            other = rules.scramble(state, seat, random.Random(n))
            a = observe(rules, state, seat).sample(random.Random(7))
            b = observe(rules, other, seat).sample(random.Random(7))
            assert a == b
            assert rules.view(a, seat) == rules.view(state, seat)


class OrderKeepingToy(type(TOY)):
    """The test game with a scramble that shuffles the real order instead of a canonical one."""

    def scramble(self, state: State, seat: int | None, rand: Any) -> State:
        """Shuffle the deck as it lies (the hidden order leaks into every sample)."""
        new = copy.deepcopy(state)
        rand.shuffle(new["deck"])
        return new


def test_the_sample_check_catches_a_scramble_that_keeps_the_real_order() -> None:
    leaky = OrderKeepingToy()
    state = decision_points(leaky, seed=3, count=1)[0]
    seat = leaky.waiting_on(state)[0]
    other = TOY.scramble(state, seat, random.Random(1))  # the same information set, another deal
    a = observe(leaky, state, seat).sample(random.Random(7))
    b = observe(leaky, other, seat).sample(random.Random(7))
    assert a != b


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.kind)
def test_every_level_plays_a_whole_game_legally(rules: Rules) -> None:
    state = rules.setup(2 if rules.min_players <= 2 <= rules.max_players else rules.min_players, {}, 4)
    levels = {0: BasicBot(), 1: StrongBot(iterations=4)}
    rand = random.Random(4)
    plies = 0
    while not rules.is_over(state):
        seat = rand.choice(rules.waiting_on(state))
        bot = levels.get(seat, make_bot("random"))
        move = bot.choose(observe(rules, state, seat), rand)
        state, _ = rules.apply(state, seat, move)
        plies += 1
        assert plies < rules.max_moves(2, {})
    assert rules.result(state) is not None


@pytest.mark.parametrize("rules", GAMES, ids=lambda r: r.kind)
def test_strong_with_no_time_plays_its_unsearched_move_at_once(rules: Rules) -> None:
    """The budget is a deadline: with none left, strong searches nothing and keeps the move it plays
    without a search (basic's, or its game's sharper policy's)."""
    import time

    for n, state in enumerate(decision_points(rules, seed=9, count=3)):
        seat = rules.waiting_on(state)[0]
        seating = observe(rules, state, seat)
        start = time.perf_counter()
        fast = StrongBot(budget=0.0).choose(seating, bot_rng(n))
        assert time.perf_counter() - start < 1.0
        assert fast == unsearched(seating, bot_rng(n))


def test_settle_keeps_the_basic_move_unless_another_is_clearly_better() -> None:
    from bots.levels import settle

    assert settle([]) == 0
    # Candidate 1 is better on average but noisy: not clearly better, basic stays.
    assert settle([[0.5, 0.9], [0.5, 0.1], [0.5, 0.8], [0.5, 0.3]]) == 0
    # Candidate 2 is better in every round (paired): it is played.
    assert settle([[0.5, 0.4, 0.7], [0.2, 0.1, 0.4], [0.6, 0.5, 0.9], [0.3, 0.3, 0.5]]) == 2


def test_race_drops_moves_that_trail_or_never_differ_and_stops_once_one_leads_clearly() -> None:
    from bots.levels import RACE_ROUNDS, race, settle

    # Candidate 1 equals basic every round, 2 trails it every round, 3 is close: only 3 races on.
    rounds = [[0.5, 0.5, 0.3 - k / 100, 0.5 + (-1) ** k / 10] for k in range(RACE_ROUNDS)]
    assert race(rounds[:-1], [0, 1, 2, 3]) == [0, 1, 2, 3]  # too few rounds to judge yet
    assert race(rounds, [0, 1, 2, 3]) == [0, 3]
    # Dropped candidates have no value in later rounds; settle weighs only those played throughout.
    later = [*rounds, [0.4, None, None, 0.45], [0.6, None, None, 0.62]]
    assert settle(later) == 0  # 3 leads on average but not clearly: basic stays
    # A move that leads in every round by the same margin is decided at once.
    assert race([[0.4, 0.6, 0.1]] * RACE_ROUNDS, [0, 1, 2]) == [1]
    assert settle([[0.4, 0.6, 0.1]] * RACE_ROUNDS) == 1


def test_settle_keeps_the_basic_move_when_the_gain_is_below_the_games_margin() -> None:
    from bots.levels import settle

    # Candidate 1 gains 0.01 in every round: clearly better, but too little to matter under a margin.
    rounds = [[0.5, 0.51], [0.3, 0.31], [0.6, 0.61], [0.4, 0.41]]
    assert settle(rounds) == 1
    assert settle(rounds, margin=0.03) == 0
    assert settle([[0.5, 0.6], [0.3, 0.4], [0.6, 0.7], [0.4, 0.5]], margin=0.03) == 1
