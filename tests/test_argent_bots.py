"""The Argent bots: the expected-votes evaluator and the basic heuristic in constructed situations."""

from __future__ import annotations

import dataclasses
import random
import time

from bots import BasicBot, Seating, StrongBot, bot_rng, observe
from bots.games import argent_lookahead as book
from bots.games import argent_search
from rules.argent import content
from rules.argent.state import merit_total
from rules.contract import Move
from tests.argent_helpers import R, act, round_one, seat_now, to_resolution


def _no_badge(state: dict, seat: int) -> dict:
    """Leave a seat without any Merit Badge (5 IP, no starting badge)."""
    office = state["seats"][seat]
    office["ip"], office["merit_bonus"], office["merit_spent"] = 5, 0, 0
    assert merit_total(state, seat) == 0
    return state


def _basic(state: dict, seat: int, n: int = 0) -> Move:
    return BasicBot().choose(observe(R, state, seat), bot_rng("argent-test", n))


def test_known_voters_weigh_whole_and_the_unknown_ones_spread_over_the_pool() -> None:
    state = round_one(2, seed=3)
    weights = book.criterion_weights(state, 0)
    assert abs(sum(weights.values()) - len(state["voters"])) < 1e-9
    # The white voters are face up: Most Influence and Most Supporters weigh at least a whole voter.
    assert weights["most:ip"] >= 1.0 and weights["most:supporters"] >= 1.0
    # Two players: the second-most voters are out of the game, so nobody expects them.
    assert not any(c.startswith("second_most:") for c in weights)
    marked = next(v for v in state["voters"] if 0 in v["marks"])
    assert weights[content.voter(marked["id"])["criterion"]] >= 1.0


def test_the_evaluator_never_reads_a_voter_its_seat_has_not_seen() -> None:
    state = round_one(2, seed=3)
    hidden = next(i for i, v in enumerate(state["voters"]) if not v["face_up"] and 0 not in v["marks"])
    before = book.evaluate_state(R, state, 0)
    other = R.copy_state(state)
    spare = other["voter_deck"][0]
    other["voters"][hidden]["id"], other["voter_deck"][0] = spare, other["voters"][hidden]["id"]
    assert book.evaluate_state(R, other, 0) == before
    # The seat that marked it does see the swap.
    other["voters"][hidden]["marks"] = [0]
    state["voters"][hidden]["marks"] = [0]
    assert book.criterion_weights(other, 0) != book.criterion_weights(state, 0)


def test_more_of_what_voters_count_scores_higher_for_its_holder_only() -> None:
    state = round_one(2, seed=3)
    richer = R.copy_state(state)
    richer["seats"][0]["gold"] += 6
    richer["seats"][0]["ip"] += 3
    assert book.evaluate_state(R, richer, 0) > book.evaluate_state(R, state, 0)
    assert book.evaluate_state(R, richer, 1) < book.evaluate_state(R, state, 1)


def test_a_mage_on_an_errand_counts_what_its_slot_will_bring() -> None:
    state = _no_badge(round_one(2, seed=3), 0)
    before = book.margin(state, 0)
    mage = next(m for m in state["mages"] if m["owner"] == 0 and m["loc"] == "office")
    mage["loc"] = "guilds/r2"
    assert book._pending(state)[0]["gold"] == 6  # Guilds A slot 2: 6 Gold (the better of its choice)
    assert book.margin(state, 0) > before
    # On the Merit slot without a badge, the errand can only bring its consolation IP.
    mage["loc"] = "guilds/m1"
    assert book._pending(state)[0] == {"ip": 1.0}


def test_basic_sends_its_mage_to_the_best_slot_it_can_claim() -> None:
    state = round_one(2, seed=3)
    seat = seat_now(state)
    _no_badge(state, seat)
    placing = act(state, seat, "place", room="guilds")
    assert _basic(placing, seat).get("slot") == "r2"  # not the Merit slot it cannot pay, not slot 3
    state["seats"][seat]["merit_bonus"] = 1
    placing = act(state, seat, "place", room="guilds")
    assert _basic(placing, seat).get("slot") == "m1"


def test_basic_keeps_placing_while_it_has_mages_instead_of_ringing_the_bell() -> None:
    state = round_one(2, seed=3)
    seat = seat_now(state)
    assert any(m.action == "bell" for m in R.legal_moves(state, seat))
    for n in range(4):
        assert _basic(state, seat, n).action != "bell"


def _errand_in_guilds() -> tuple[dict, int]:
    """Return round one (2 players, seed 3) at its resolution, the first seat's mage on the Guilds' r2."""
    state = round_one(2, seed=3)
    seat = seat_now(state)
    state = act(state, seat, "place", room="guilds")
    kind = next(m["type"] for m in state["mages"] if m["owner"] == seat and m["loc"] == "office")
    return to_resolution(act(state, seat, "place", slot="r2", type=kind)), seat


def test_basic_claims_a_reward_worth_more_than_the_consolation_ip() -> None:
    state, seat = _errand_in_guilds()
    while not (
        state["agenda"]
        and state["agenda"][0]["kind"] == "errand"
        and state["agenda"][0]["data"]["loc"] == "guilds/r2"
    ):
        who = seat_now(state)
        state, _ = R.apply(state, who, _basic(state, who))
    assert seat_now(state) == seat
    assert _basic(state, seat).get("claim") == "plain"


def test_ending_the_round_is_worth_the_rivals_unplaced_mages_less_ones_own() -> None:
    state = round_one(2, seed=3)
    seat = seat_now(state)
    ended = R.copy_state(state)
    ended["phase"] = "resolution"
    # Nobody has placed yet: ending now costs both sides alike.
    assert book._round_end_bias(state, ended, seat) == 0.0
    for m in state["mages"]:
        if m["owner"] == seat:
            m["loc"] = "supply"  # as if every mage of the seat were out
    assert book._round_end_bias(state, ended, seat) > 0.0
    assert book._round_end_bias(state, state, seat) == 0.0  # the round goes on: nothing to weigh


def test_the_search_chooses_legal_moves_through_a_game() -> None:
    state = round_one(2, seed=5)
    strong = StrongBot(iterations=1)
    for n in range(60):
        if R.is_over(state):
            break
        seat = R.waiting_on(state)[0]
        seating = observe(R, state, seat)
        move = strong.choose(seating, bot_rng(n))
        assert move in seating.legal
        state, _ = R.apply(state, seat, move)


def _counting(seating: Seating) -> tuple[Seating, list[int]]:
    """Return the seating with a sampler that counts its samples."""
    drawn = [0]

    def sample(rand: random.Random) -> dict:
        drawn[0] += 1
        return seating.sample(rand)

    return dataclasses.replace(seating, _sampler=sample), drawn


def test_strong_reads_a_bookkeeping_decision_once_and_a_turn_on_many_samples() -> None:
    state, _ = _errand_in_guilds()
    bookkeeping, drawn = _counting(observe(R, state, seat_now(state)))
    assert not book.worth_searching(bookkeeping)
    assert StrongBot(iterations=50).choose(bookkeeping, bot_rng(2)) in bookkeeping.legal
    assert drawn[0] == 1
    state = round_one(2, seed=5)
    turn, drawn = _counting(observe(R, state, seat_now(state)))
    assert book.worth_searching(turn)
    StrongBot(iterations=6).choose(turn, bot_rng(2))
    assert drawn[0] == 6


def test_the_sharp_reading_looks_through_follow_ups_until_its_deadline() -> None:
    state = round_one(2, seed=3)
    seat = seat_now(state)
    moves = [m for m in R.legal_moves(state, seat) if m.action == "place"]
    deep = book.score_moves(R, state, seat, moves, argent_search.SHARP)
    # Past the deadline every move is judged as it stands after it, as a reading of depth 0 would.
    cut = book.score_moves(R, state, seat, moves, argent_search.SHARP, deadline=0.0)
    flat = book.score_moves(R, state, seat, moves, dataclasses.replace(argent_search.SHARP, depth=0))
    assert cut == flat
    # Choosing a room is only half the placement: the deep reading sees the slot it leads to.
    assert deep != flat


def test_the_searchs_reading_leans_a_tie_to_the_seat_that_wins_the_tie_break() -> None:
    state = round_one(2, seed=3)
    for office in state["seats"]:
        office["ip"], office["gold"], office["mana"] = 10, 5, 3
    first, second = R.copy_state(state), R.copy_state(state)
    first["seats"][0]["ip_time"], first["seats"][1]["ip_time"] = 1, 2  # seat 1's disc on top of 0's
    second["seats"][0]["ip_time"], second["seats"][1]["ip_time"] = 2, 1
    # basic's reading shares a tie alike; the search's gives it to the disc lowest in the stack.
    assert book.margin(first, 0) == book.margin(second, 0)
    assert book.margin(first, 0, ties=True) > book.margin(second, 0, ties=True)
    assert book.margin(first, 1, ties=True) < book.margin(second, 1, ties=True)


def test_strong_chooses_through_the_argent_search_within_its_budget() -> None:
    state = round_one(2, seed=5)
    seating = observe(R, state, seat_now(state))
    assert StrongBot(iterations=2).choose(seating, bot_rng(4)) == argent_search.search(
        seating, bot_rng(4), 1.0, 2
    )
    # No time at all: basic's own move, at once.
    assert argent_search.search(seating, bot_rng(5), 0.0) == BasicBot().choose(seating, bot_rng(5))
    start = time.perf_counter()
    assert argent_search.search(seating, bot_rng(6), 0.05) in seating.legal
    assert time.perf_counter() - start < 0.05 + 0.1
