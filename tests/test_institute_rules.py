"""The Institute's rules phase by phase, its secrets, and the house rulings (docs/rulings.md)."""

from __future__ import annotations

import json
import random
import time

import pytest

from rules.contract import IllegalMove, Move, PromptKind
from rules.institute import engine
from rules.institute.cards import deck
from rules.institute.state import MAX_CHANGES, ROUND_CAP, STONES_PER_COLOUR, card
from tests.institute_helpers import (
    R,
    balanced,
    clear_hands,
    confirm_both,
    fresh,
    give,
    jump,
    plan,
    play,
    put,
    put_portal,
    set_stones,
)

# --------------------------------------------------------------------------- setup


def test_setup_follows_the_rulebook():
    """Setup, steps 1-11."""
    s = fresh(5)
    for p in s["players"]:
        assert (p["stones"], p["rerolls"], p["charms"], p["score"]) == (5, 3, 2, 3)
        assert len(p["active"]) == 1 and card(p["active"][0]).starting
    assert [slot["kind"] for slot in s["slots"]] == ["card"] * 5 + ["portal"]
    assert len(s["deck"]) == 40 - 2 - 5
    everywhere = s["deck"] + [x["card"] for x in s["slots"] if x["card"] is not None]
    everywhere += [c for p in s["players"] for c in p["active"]]
    assert sorted(everywhere) == list(range(40))
    assert s["supply"] == [STONES_PER_COLOUR - 5] * 2
    assert R.view(s, None)["phase"] == 1 and all(len(p["dice"]) == 4 for p in s["players"])


def test_two_starting_cards_variant():
    """Variants: each player takes 2 of the 6 starting cards."""
    s = fresh(5, starting_cards="2")
    for p in s["players"]:
        assert len(p["active"]) == 2 and p["score"] == 4
    assert len(s["deck"]) == 40 - 4 - 5


def test_the_starting_cards_are_shuffled_between_games():
    dealt = {tuple(card(c).key for p in fresh(seed)["players"] for c in p["active"]) for seed in range(30)}
    assert len(dealt) > 3


# --------------------------------------------------------------------------- Phase I


def test_free_reroll_only_while_the_total_is_six_or_less():
    """Additional Rules for Phase I: free rerolls of all dice while the total is 6 or less."""
    s = fresh()
    s["players"][0]["dice"] = [1, 2, 1, 1]
    rerolls = [m for m in R.legal_moves(s, 0) if m.action == "reroll"]
    assert rerolls == [Move.of("reroll", dice=[1, 2, 3, 4])]
    s, _ = play(s, 0, "reroll", dice=[1, 2, 3, 4])
    assert s["players"][0]["rerolls"] == 3


def test_paid_reroll_of_any_dice_spends_a_cube():
    s = fresh()
    s["players"][0]["dice"] = [6, 5, 1, 1]
    rerolls = [m for m in R.legal_moves(s, 0) if m.action == "reroll"]
    assert len(rerolls) == 15  # any or all of the four dice
    s, _ = play(s, 0, "reroll", dice=[3, 4])
    assert s["players"][0]["rerolls"] == 2
    assert s["players"][0]["dice"][:2] == [6, 5]
    assert s["supply"] == fresh()["supply"]


def test_no_cubes_no_paid_reroll_and_a_helpful_sentence():
    s = fresh()
    s["players"][0]["dice"] = [6, 5, 1, 1]
    s["players"][0]["rerolls"] = 0
    assert not any(m.action == "reroll" for m in R.legal_moves(s, 0))
    with pytest.raises(IllegalMove, match="You have no Reroll Cubes left"):
        play(s, 0, "reroll", dice=[1])


def test_refill_returns_a_charm_and_its_vp():
    s = fresh()
    s["players"][0]["rerolls"] = 1
    s, _ = play(s, 0, "refill")
    me = s["players"][0]
    assert (me["rerolls"], me["charms"], me["score"]) == (3, 1, 2)
    assert Move.of("refill") not in R.legal_moves(s, 0)  # at most 3 cubes
    with pytest.raises(IllegalMove, match="already hold 3"):
        play(s, 0, "refill")


def test_assign_respects_the_six_action_cards():
    s = fresh()
    s, _ = play(s, 0, "assign", die=1, card="take")
    s, _ = play(s, 0, "assign", die=2, card="take")
    assert Move.of("assign", die=3, card="take") not in R.legal_moves(s, 0)  # only 2 Take Stones
    s, _ = play(s, 0, "assign", die=3, card="cast2")
    assert Move.of("assign", die=4, card="cast2") not in R.legal_moves(s, 0)
    assert Move.of("confirm") not in R.legal_moves(s, 0)
    with pytest.raises(IllegalMove, match="each of your four dice"):
        play(s, 0, "confirm")
    s, _ = play(s, 0, "assign", die=4, card="cast1")
    assert Move.of("confirm") in R.legal_moves(s, 0)
    assert len(R.legal_moves(s, 0)) <= 35


def test_changing_an_assignment_is_limited():
    """House ruling: at most MAX_CHANGES changes of an assigned die per round."""
    s = fresh()
    s, _ = play(s, 0, "assign", die=1, card="take")
    for i in range(MAX_CHANGES):
        s, _ = play(s, 0, "assign", die=1, card="cast1" if i % 2 == 0 else "take")
    assert not any(m.action == "assign" and m.get("die") == 1 for m in R.legal_moves(s, 0))
    assert any(m.action == "assign" and m.get("die") == 2 for m in R.legal_moves(s, 0))


@pytest.mark.parametrize("first", [0, 1])
def test_secret_assignment_and_simultaneous_reveal(first: int):
    """Phase I, steps 3-5 and "Example: Assigning Action Cards to Dice" (Seth reveals at the end of
    Phase I): assign in secret, reveal together; either player may confirm first."""
    s = fresh(7)
    plans = {0: ["take", "cast1", "cast2", "cast1"], 1: ["cast1", "take", "take", "cast2"]}
    assert {(p.seat, p.kind) for p in R.pending(s)} == {(0, PromptKind.SECRET), (1, PromptKind.SECRET)}
    public: list = []
    for seat in (first, 1 - first):
        for d, what in enumerate(plans[seat], 1):
            s, events = play(s, seat, "assign", die=d, card=what)
            assert all(e.seats == (seat,) for e in events)
            public += [e for e in events if e.public]
        if seat == first:
            s, events = play(s, seat, "confirm")
            public += [e for e in events if e.public]
            assert [p.seat for p in R.pending(s)] == [1 - first]
            other_view = R.view(s, 1 - first)
            assert other_view["players"][first]["assignment"] is None
            assert other_view["players"][first]["confirmed"] is True
            assert R.view(s, None)["players"][first]["assignment"] is None
            assert R.view(s, first)["players"][first]["assignment"] == plans[first]
            text = R.view_text(R.view(s, None))
            assert "Take" not in text and "Cast" not in text
    assert not any("Take Stones" in e.text or "Cast" in e.text for e in public)
    s, events = play(s, 1 - first, "confirm")
    assert [e.kind for e in events if e.kind == "reveal"] == ["reveal", "reveal"]
    assert all(e.public for e in events if e.kind == "reveal")
    view = R.view(s, None)
    assert view["players"][0]["assignment"] == plans[0] and view["players"][1]["assignment"] == plans[1]


def test_scramble_redraws_the_secrets_without_changing_the_view():
    s = fresh(9)
    s, _ = play(s, 1, "assign", die=1, card="take")
    rand = random.Random(1)
    changed = False
    for seat in (None, 0, 1):
        for _ in range(5):
            t = R.scramble(s, seat, rand)
            assert R.view(t, seat) == R.view(s, seat)
            changed |= t["deck"] != s["deck"] or t["players"][1]["assign"] != s["players"][1]["assign"]
    assert changed
    assert R.scramble(s, 1, rand)["players"][1]["assign"] == s["players"][1]["assign"]


# --------------------------------------------------------------------------- Phase II


def test_cast_to_the_fullest_extent_choosing_which_cards_when_short():
    """Additional Rules for Phase II: short of stones, the player chooses which Cast Cards to fulfil."""
    s = fresh()
    clear_hands(s)
    for loc, key in enumerate(("apprentice", "librarian", "herbalist", "groundskeeper", "astronomer"), 1):
        put(s, loc, key)
    set_stones(s, 0, 2)
    plan(s, 0, [2, 3, 4, 5], ["cast2", "cast1", "cast1", "cast1"])
    plan(s, 1, [1, 1, 1, 1], ["take", "take", "cast1", "cast1"])
    s, _ = confirm_both(s)
    assert [(p.seat, p.kind, p.decision) for p in R.pending(s)] == [(0, PromptKind.DECISION, "cast")]
    assert {m.get("die") for m in R.legal_moves(s, 0)} == {1, 2, 3, 4}
    s, _ = play(s, 0, "cast", die=2)  # 1 stone to Location 3
    s, _ = play(s, 0, "cast", die=1)  # the Cast 2 Stones card gets what is left: 1 stone
    assert s["slots"][2]["stones"][0] == 1 and s["slots"][1]["stones"][0] == 1
    assert s["players"][0]["stones"] == 0
    assert s["phase"] != 2
    assert balanced(s)


def test_cast_needs_no_choice_when_one_location_is_targeted():
    s = fresh()
    clear_hands(s)
    put(s, 4, "groundskeeper")
    set_stones(s, 0, 1)
    plan(s, 0, [4, 4, 4, 4], ["cast2", "cast1", "cast1", "cast1"])
    plan(s, 1, [1, 1, 1, 1], ["take", "take", "cast1", "cast1"])
    s, _ = confirm_both(s)
    assert s["slots"][3]["stones"][0] == 1


def test_take_is_limited_by_the_general_supply():
    """Additional Rules for Phase II: a short supply gives as many stones as it can."""
    s = fresh()
    clear_hands(s)
    s["players"][0]["stones"] += s["supply"][0] - 2
    s["supply"][0] = 2
    plan(s, 0, [6, 5, 6, 6], ["take", "take", "cast1", "cast1"])
    plan(s, 1, [1, 1, 1, 1], ["take", "take", "cast1", "cast1"])
    s, events = confirm_both(s)
    assert any(e.text == "Red takes 2 Power Stones (the supply had only 2)." for e in events)
    assert balanced(s)


def test_casting_at_an_empty_location_is_lost():
    """House ruling: a Cast Card whose die points at an empty Location casts nothing."""
    s = fresh()
    clear_hands(s)
    s["deck"].append(s["slots"][2]["card"])
    s["slots"][2] = {"kind": "empty", "card": None, "stones": [0, 0]}
    plan(s, 0, [3, 3, 6, 6], ["cast2", "cast1", "cast1", "cast1"])
    plan(s, 1, [1, 1, 1, 1], ["take", "take", "cast1", "cast1"])
    s, events = confirm_both(s)
    assert any("Location 3 is empty" in e.text for e in events)
    assert s["players"][0]["stones"] == 5 - 2  # only the two casts onto the Portal happened
    assert s["slots"][5]["stones"][0] == 2


def test_no_stones_anywhere_rule():
    """Additional Rules for Phase II, last point: both dry, shared cards lose one stone of each colour."""
    s = fresh()
    for seat in (0, 1):
        set_stones(s, seat, 0)
    s["slots"][0]["stones"] = [15, 10]
    s["slots"][1]["stones"] = [10, 0]
    s["slots"][2]["stones"] = [5, 20]
    s["supply"] = [0, 0]
    assert balanced(s)
    events: list = []
    engine._no_stones_rule(s, events)
    assert [x["stones"] for x in s["slots"][:3]] == [[14, 9], [10, 0], [4, 19]]
    assert s["supply"] == [2, 2]
    assert balanced(s)


# --------------------------------------------------------------------------- Phase III


def test_both_players_moving_into_an_empty_realm_cancel_out():
    """The Ethereal Realm: only one colour at a time; both lose a stone."""
    s = fresh()
    clear_hands(s)
    put_portal(s, 6, red=1, blue=2)
    s = jump(s, "portal")
    s, _ = play(s, 0, "portal", to=6)
    s, _ = play(s, 1, "portal", to=6)
    assert s["realm"] == [0, 0]
    assert s["slots"][5]["stones"] == [0, 1]
    assert balanced(s)


def test_portal_stones_may_not_go_to_the_portal_or_an_empty_location():
    s = fresh()
    clear_hands(s)
    s["deck"].append(s["slots"][1]["card"])
    s["slots"][1] = {"kind": "empty", "card": None, "stones": [0, 0]}
    put_portal(s, 6, red=2)
    s = jump(s, "portal")
    assert sorted(m.get("to") for m in R.legal_moves(s, 0)) == [1, 3, 4, 5, 6]


def test_four_stones_on_the_realm_force_the_award():
    s = fresh()
    clear_hands(s)
    s["realm"] = [3, 0]
    s["supply"][0] -= 3
    put_portal(s, 6, red=1)
    top = give(s, 1, "spellbook")
    s["players"][1]["active"].remove(top)
    s["deck"].insert(0, top)
    score = s["players"][0]["score"]
    s = jump(s, "portal")
    assert R.pending(s)[0].decision == "portal"
    s, _ = play(s, 0, "portal", to=6)
    me = s["players"][0]
    assert s["realm"] == [0, 0]
    assert me["charms"] == 2 + 4
    assert top in me["active"]
    assert me["score"] == score + 4 + card(top).vp


@pytest.mark.parametrize(("count", "charms", "rerolls"), [(1, 1, 0), (2, 2, 3), (3, 4, 0)])
def test_realm_awards(count: int, charms: int, rerolls: int):
    s = fresh()
    clear_hands(s)
    s["realm"] = [count, 0]
    s["supply"][0] -= count
    s["players"][0]["rerolls"] = 0
    s = jump(s, "portal")
    assert [(p.seat, p.decision) for p in R.pending(s)] == [(0, "realm")]
    s, _ = play(s, 0, "claim")
    me = s["players"][0]
    assert (me["charms"], me["rerolls"]) == (2 + charms, rerolls)
    assert balanced(s)


def test_realm_stones_may_wait():
    s = fresh()
    clear_hands(s)
    s["realm"] = [2, 0]
    s["supply"][0] -= 2
    s = jump(s, "portal")
    s, _ = play(s, 0, "keep")
    assert s["realm"] == [2, 0]


def test_realm_award_of_four_with_an_empty_deck_brings_no_card():
    """House ruling: the fourth award gives only its Charms when the deck is empty."""
    s = fresh()
    clear_hands(s)
    s["deck"] = []
    s["realm"] = [4, 0]
    s["supply"][0] -= 4
    s = jump(s, "portal")
    me = s["players"][0]
    assert me["charms"] == 6 and not me["active"] and not me["inactive"]


# --------------------------------------------------------------------------- Phase IV


def test_a_permanent_power_needs_a_stone_to_pay():
    s = fresh()
    clear_hands(s)
    give(s, 0, "mortar_and_pestle")
    set_stones(s, 0, 0)
    s = jump(s, "phase4")
    assert s["phase"] != 4 or not any(p.seat == 0 for p in R.pending(s))


def test_copies_with_the_same_number_go_lower_score_first():
    """House ruling: equal Phase IV numbers (copies) resolve for the player with fewer VP first."""
    s = fresh()
    clear_hands(s)
    give(s, 0, "ring_of_influence")
    give(s, 1, "ring_of_influence")
    s["players"][0]["score"] = 9
    s = jump(s, "phase4")
    assert R.pending(s)[0].seat == 1


# --------------------------------------------------------------------------- Phase V and the round's end


def test_a_card_with_twenty_stones_is_discarded():
    """Additional Rules for Phase V: 20+ stones after the check, unwon, leave the game."""
    s = fresh()
    clear_hands(s)
    cid = put(s, 2, "headmistress", red=10, blue=10)
    s = jump(s, "check")
    assert cid in s["discarded"]
    assert all(x["card"] != cid for x in s["slots"])
    assert balanced(s)


def test_two_immediate_powers_resolve_in_location_order():
    """House ruling: powers won in one Phase V fire in Location order, each right after its VP."""
    s = fresh()
    clear_hands(s)
    put(s, 1, "pouch_of_charms", red=4)
    put(s, 2, "phoenix_feather", red=5)
    put(s, 4, "groundskeeper")
    s = jump(s, "check")
    me = s["players"][0]
    assert me["charms"] == 4  # the Pouch fired first, at Location 1
    assert [p.decision for p in R.pending(s)] == ["power"]


def _finish(score0: int, score1: int, **extra) -> dict:
    s = fresh()
    clear_hands(s)
    s["players"][0]["score"], s["players"][1]["score"] = score0, score1
    for seat, changes in extra.items():
        s["players"][int(seat[-1])].update(changes)
    return jump(s, "check")


def test_the_game_ends_after_phase_five_at_twenty():
    s = _finish(20, 12)
    assert R.is_over(s) and R.result(s).winners == (0,)
    assert R.pending(s) == [] and R.legal_moves(s, 0) == []


def test_both_past_the_goal_the_higher_score_wins():
    s = _finish(21, 23)
    assert R.result(s).winners == (1,)


def test_a_longer_game_to_25():
    s = fresh(goal="25")
    clear_hands(s)
    s["players"][0]["score"] = 22
    s = jump(s, "check")
    assert not R.is_over(s) and s["round"] == 2


@pytest.mark.parametrize(
    ("field", "red", "blue"),
    [("characters", 2, 1), ("charms", 1, 3), ("stones", 8, 2), ("rerolls", 1, 2)],
)
def test_tie_break_chain(field: str, red: int, blue: int):
    """Game End: ties go to Institute Cards, Characters, Charms, personal stones, then Reroll Cubes."""
    s = _finish(20, 20, p0={field: red}, p1={field: blue})
    assert R.result(s).winners == ((0,) if red > blue else (1,))
    assert field.rstrip("s")[:4].lower() in R.result(s).reason.lower() or "Reroll" in R.result(s).reason


def test_more_institute_cards_breaks_a_tie_first():
    s = fresh()
    clear_hands(s)
    give(s, 1, "apprentice")
    s["players"][0]["score"] = s["players"][1]["score"] = 20
    s["players"][0]["charms"] = 9
    s = jump(s, "check")
    assert R.result(s).winners == (1,) and "Institute Cards" in R.result(s).reason


def test_a_perfect_tie_is_a_draw():
    s = _finish(20, 20)
    result = R.result(s)
    assert result.draw and set(result.winners) == {0, 1}


def test_a_perfect_tie_plays_on_with_the_variant():
    """Game End: players may agree to play another round to break the tie (option on_tie=play_on)."""
    s = fresh(on_tie="play_on")
    clear_hands(s)
    s["players"][0]["score"] = s["players"][1]["score"] = 20
    s = jump(s, "check")
    assert not R.is_over(s) and s["round"] == 2


def test_the_game_ends_when_the_deck_and_locations_run_dry():
    """House ruling: with no Institute Card left anywhere to win, the game ends."""
    s = fresh()
    clear_hands(s)
    s["deck"] = []
    for i in range(5):
        s["slots"][i] = {"kind": "empty", "card": None, "stones": [0, 0]}
    s["players"][0]["score"] = 5
    s = jump(s, "check")
    assert R.is_over(s) and R.result(s).winners == (0,)


def test_an_empty_deck_leaves_locations_empty():
    """House ruling: when the deck runs out, emptied Locations stay empty."""
    s = fresh()
    clear_hands(s)
    put(s, 1, "librarian", red=3)
    s["deck"] = []
    s = jump(s, "check")
    assert [x["kind"] for x in s["slots"]].count("empty") == 1


def test_the_round_cap_ends_a_game():
    """House ruling: a game ends at the close of round ROUND_CAP."""
    s = fresh()
    clear_hands(s)
    s["round"] = ROUND_CAP
    s = jump(s, "check")
    assert R.is_over(s)


# --------------------------------------------------------------------------- the engine as a whole


def test_states_views_and_moves_are_json():
    s = fresh(3)
    rand = random.Random(3)
    for _ in range(300):
        if R.is_over(s):
            break
        seat = rand.choice(R.waiting_on(s))
        move = rand.choice(R.legal_moves(s, seat))
        assert R.label(s, seat, move)
        s, _ = R.apply(s, seat, move)
        assert json.loads(json.dumps(s)) == s
        assert balanced(s)
        for seat in (None, 0, 1):
            json.dumps(R.view(s, seat))


def test_moves_are_fast_and_lists_stay_short():
    s = fresh(4)
    rand = random.Random(4)
    spent, count, longest = 0.0, 0, 0
    while not R.is_over(s) and count < 400:
        seat = rand.choice(R.waiting_on(s))
        start = time.perf_counter()
        moves = R.legal_moves(s, seat)
        s, _ = R.apply(s, seat, rand.choice(moves))
        spent += time.perf_counter() - start
        count += 1
        longest = max(longest, len(moves))
    assert spent / count < 0.002  # apply + legal_moves well under two milliseconds on average
    assert longest <= 35


def test_every_card_record_is_reachable_by_key():
    keys = {c.key for c in deck()}
    assert len(keys) == len({c.name for c in deck()})


def _score_parts(p: dict) -> int:
    tools = sum(card(c).vp or 0 for c in p["active"] + p["inactive"] if not card(c).character)
    return p["charms"] + tools + p["characters"] * (p["characters"] + 1) // 2


@pytest.mark.parametrize("seed", [21, 22])
def test_whole_games_keep_stones_and_scores_consistent(seed: int):
    """Self-play to the end: 30 stones a colour always, and every VP accounted for by charms and cards."""
    from bots.games.institute_policy import Chooser, pick

    s = fresh(seed)
    chooser = Chooser(seed)
    while not R.is_over(s):
        seat = chooser.choice(R.waiting_on(s))
        s, _ = R.apply(s, seat, pick(chooser, R.legal_moves(s, seat), "greedy", s, seat))
        assert balanced(s)
        assert all(p["score"] == _score_parts(p) for p in s["players"])
        assert all(0 <= p["rerolls"] <= 3 and p["charms"] >= 0 for p in s["players"])
    result = R.result(s)
    assert result is not None and max(p["score"] for p in s["players"]) >= 20


def test_only_one_stone_a_round_reaches_the_realm_from_the_portal():
    """Phase III, Point of Emphasis: at most 1 stone moves from the Portal to the Realm in a round."""
    s = fresh()
    clear_hands(s)
    put_portal(s, 6, red=3)
    s = jump(s, "portal")
    s, _ = play(s, 0, "portal", to=6)
    assert s["realm"] == [1, 0] and s["slots"][5]["stones"] == [2, 0]
    assert [p.decision for p in R.pending(s)] == ["realm"]
    s, _ = play(s, 0, "keep")
    assert s["round"] == 2 and s["realm"] == [1, 0]  # no second Portal decision that round
