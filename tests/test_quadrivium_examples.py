"""Every worked example and number of the Quadrivium design posts, as a test citing its post.

Posts are named as in shared/rules/quadrivium.txt and shared/cards/quadrivium.md.
"""

from __future__ import annotations

import pytest

from rules.contract import IllegalMove
from rules.quadrivium import council, magic
from rules.quadrivium.cards import rank
from rules.quadrivium.state import harm, res, use
from rules.quadrivium.trick import leader, total
from tests.quadrivium_helpers import R, act, fresh_table, play_cards, to_trick

# ------------------------------------------------- ranks ("The nature of conflict", conflict post)


def test_face_cards_rank_11_to_14() -> None:
    """Conflict post: "Jacks count as 11, Queens as 12, Kings as 13, Aces as 14"."""
    assert [rank(c) for c in ("JC", "QD", "KH", "AS", "10S", "2C")] == [11, 12, 13, 14, 10, 2]


def test_vigor_influence_four_of_hearts_counts_as_six() -> None:
    """"The nature of conflict": Vigor-Influence, "play a four of hearts and it counts as a 6 of hearts"."""
    s = to_trick(fresh_table(), ("vigor", "influence"))
    s = play_cards(s, "4H", "3S")
    assert total(s, 0) == 6
    assert total(s, 1) == 3


def test_vigor_vigor_nine_of_clubs_counts_as_king() -> None:
    """"The nature of conflict": Vigor-Vigor, "play a 9 of clubs and it counts as a 13 of clubs"."""
    s = to_trick(fresh_table(), ("vigor", "vigor"))
    s = play_cards(s, "9C", "KS")
    assert total(s, 0) == 13 == total(s, 1)


def test_suit_tie_break_alphabetical_spades_highest() -> None:
    """Conflict post: ties go by suit in the order club, diamond, heart, spade (spades highest: ours)."""
    s = to_trick(fresh_table(), ("craft", "craft"))
    s = play_cards(s, "KH", "KS")
    assert total(s, 0) == total(s, 1) == 13
    assert leader(s) == 1
    # The Vigor-Vigor example above: 9 of clubs (13) against a King of spades (13): spades take it.
    s = to_trick(fresh_table(), ("vigor", "vigor"))
    s = play_cards(s, "9C", "KS")
    assert leader(s) == 1


def test_suit_tie_break_option_clubs_highest() -> None:
    """The other reading of "precedence in the alphabetical order", as a table option."""
    s = to_trick(fresh_table(suit_order="clubs_high"), ("vigor", "vigor"))
    s = play_cards(s, "9C", "KS")
    assert leader(s) == 0


def test_joker_takes_the_trick_at_once_without_aid() -> None:
    """Conflict post: with a Joker "no aiding or other actions are permitted"; the highest Joker wins."""
    s = to_trick(fresh_table(3), ("vigor", "vigor"), tricks=2)
    s["hands"][2] = ["AC"]
    s = play_cards(s, "2D", "BJ")
    c = s["conflict"]
    assert c["wins"] == [0, 1]
    assert c["stage"] == "place"  # straight to the next trick: seat 2 was never asked to aid
    assert s["hands"][2] == ["AC"]


def test_red_joker_beats_black_joker() -> None:
    """House ruling: two Jokers in one trick, the red one is higher."""
    s = to_trick(fresh_table(), ("vigor", "vigor"), tricks=2)
    s = play_cards(s, "RJ", "BJ")
    assert s["conflict"]["wins"] == [1, 0]


def test_aid_adds_two_and_same_suit_higher_swaps() -> None:
    """Conflict post: Aid cards grant +2; same suit and higher, the Aid card becomes the Trick card."""
    s = to_trick(fresh_table(4), ("craft", "craft"))
    s["hands"][2] = ["9H"]
    s["hands"][3] = ["3S"]
    s = play_cards(s, "5H", "10S")
    assert s["conflict"]["trick"]["aid_queue"] == [2, 3]  # from the protagonist's left, sides skipped
    s, _ = act(s, 2, "aid", side=0, card="9H")
    side = s["conflict"]["trick"]["cards"][0]
    assert side["card"] == "9H" and side["aids"] == ["5H"]
    assert total(s, 0) == 11
    s, _ = act(s, 3, "aid", side=1, card="3S")
    assert total(s, 1) == 12  # 10 of spades +2; a lower same-suit card does not swap
    assert s["conflict"]["trick"]["cards"][1]["card"] == "10S"


def test_aider_stays_on_one_side() -> None:
    """Council Votes post: once a player Aids one side they may not Aid the other in that conflict."""
    s = to_trick(fresh_table(3), ("craft", "craft"), tricks=2)
    s["hands"][2] = ["2C", "3C"]
    s = play_cards(s, "5H", "10S")
    s, _ = act(s, 2, "aid", side=0, card="2C")
    s, _ = act(s, 0, "stand")  # the antagonist leads 10 to 7; the protagonist lets it stand
    s = play_cards(s, "6H", "7S")
    with pytest.raises(IllegalMove):
        act(s, 2, "aid", side=1, card="3C")
    s, _ = act(s, 2, "aid", side=0, card="3C")


# --------------------------------------------------------------------------- Council Votes


def test_antagonist_votes_role_trick_and_conflict() -> None:
    """Council Votes post: +1 for taking the role, +1 per trick won, +1 for winning the conflict."""
    s = fresh_table()
    start = s["votes"][1]
    s = to_trick(s, ("vigor", "vigor"), tricks=1)
    assert s["votes"][1] == start + 1
    s = play_cards(s, "2C", "AS")
    s, _ = act(s, 0, "stand")
    assert s["votes"][1] == start + 3


def test_aider_of_winning_antagonist_gains_one_vote() -> None:
    """Council Votes post: "If you Aid the Antagonist and they win ... you receive 1 Council Vote"."""
    s = fresh_table(3)
    start = s["votes"][2]
    s = to_trick(s, ("vigor", "vigor"), tricks=1)
    s["hands"][2] = ["2S"]
    s = play_cards(s, "2C", "AS")
    s, _ = act(s, 2, "aid", side=1, card="2S")
    s, _ = act(s, 0, "stand")
    assert s["votes"][2] == start + 1


def test_protagonist_may_gift_votes_to_aiders() -> None:
    """Council Votes post: a winning protagonist may give own votes to those who aided him."""
    s = fresh_table(3)
    s = to_trick(s, ("vigor", "vigor"), tricks=1)
    s["hands"][2] = ["2S"]
    s = play_cards(s, "AC", "2H")
    s, _ = act(s, 2, "aid", side=0, card="2S")
    s, _ = act(s, 1, "stand")
    assert s["conflict"]["stage"] == "gift"
    before = list(s["votes"])
    s, _ = act(s, 0, "gift", seat=2)
    assert s["votes"][0] == before[0] - 1 and s["votes"][2] == before[2] + 1


def test_vote_costs_draw_two_or_one_for_the_antagonist() -> None:
    """Actions post: 2 Council Votes to draw a card, 1 if Antagonist."""
    s = to_trick(fresh_table(), ("vigor", "vigor"))
    s["votes"] = [5, 5]
    s["hands"][0] = ["2C"]
    s, _ = act(s, 0, "buy_card")
    assert s["votes"][0] == 3 and len(s["hands"][0]) == 2
    s, _ = act(s, 0, "place", card="2C")
    s, _ = act(s, 1, "buy_card")
    assert s["votes"][1] == 4


def test_vote_costs_restore_five_and_swap_ten() -> None:
    """Actions post: 5 votes restore a use (not Harm); 10 swap all cards in play, modifiers kept."""
    s = to_trick(fresh_table(), ("vigor", "influence"))
    s["mages"][0]["traits"]["craft"]["spent"] = 1
    s["mages"][0]["traits"]["craft"]["harm"] = 1
    s["votes"] = [20, 20]
    s = play_cards(s, "4H", "10S")
    s, _ = act(s, 0, "restore", what="trait:craft")
    craft = s["mages"][0]["traits"]["craft"]
    assert s["votes"][0] == 15 and craft["spent"] == 0 and craft["harm"] == 1
    s, _ = act(s, 0, "swap")
    assert s["votes"][0] == 5
    # The heart keeps its Influence bonus wherever it goes: 6 against 10 becomes 10 against 6.
    assert (total(s, 0), total(s, 1)) == (10, 6)
    assert leader(s) == 0


def test_swap_moves_the_cards_not_the_mages() -> None:
    """Actions post (line 209): 10 votes "switch all cards in play for the protagonist and antagonist";
    the cards keep their modifiers (a Corruption marks the card it was played with), the people stay."""
    s = to_trick(fresh_table(), ("craft", "craft"))
    s["mages"][1]["corruption"]["insight"] = 1  # the Antagonist's spades count 1 less
    s["votes"] = [20, 20]
    s = play_cards(s, "4H", "10S")
    assert (total(s, 0), total(s, 1)) == (4, 9)
    s, _ = act(s, 0, "swap")
    assert (total(s, 0), total(s, 1)) == (9, 4)  # the 10 of spades keeps its -1 on the other side
    sides = R.view(s, None)["conflict"]["trick"]["sides"]
    assert [x["seat"] for x in sides] == [0, 1] and [x["card"] for x in sides] == ["10S", "4H"]
    s, ev = act(s, 1, "stand")
    record = next(e for e in ev if e.data.get("what") == "trick_won" or "takes trick" in e.text)
    assert record.text.startswith(f"The Protagonist {s['mages'][0]['name']} takes trick 1")
    won = s["news"]["sides"]
    assert [(x["seat"], x["name"], x["card"]) for x in won] == [
        (0, s["mages"][0]["name"], "10S"), (1, s["mages"][1]["name"], "4H")]
    assert won[0]["corruption"] == 1 and won[1]["corruption"] == 0


def test_facecard_restores_a_use() -> None:
    """Actions post: discard a face card to restore 1 use of a character resource."""
    s = to_trick(fresh_table(), ("vigor", "vigor"))
    s["mages"][0]["traits"]["vigor"]["spent"] = 2
    s["hands"][0] = ["QD", "3C"]
    s, _ = act(s, 0, "facecard", card="QD", what="trait:vigor")
    assert s["mages"][0]["traits"]["vigor"]["spent"] == 1 and s["hands"][0] == ["3C"]


def test_repair_individually_three_votes_a_point() -> None:
    """Council post: "The player expends 3 Council Votes for each point of Harm they restore"."""
    s = fresh_table()
    s["covenant"]["res"]["coffers"]["harm"] = 2
    s["votes"] = [7, 0]
    council.open_council(s, [])
    first = s["council"]["order"][0]
    s["votes"][first] = 7
    s, _ = act(s, first, "repair", res="coffers")
    s, _ = act(s, first, "repair", res="coffers")
    assert s["covenant"]["res"]["coffers"]["harm"] == 0 and s["votes"][first] == 1


def test_repair_collectively_when_total_reaches_players() -> None:
    """Council post: 1 or 2 votes each; once the amount equals the number of players, a point is restored."""
    s = fresh_table(3)
    s["covenant"]["res"]["archives"]["harm"] = 1
    s["last_antagonist"] = 0
    s["votes"] = [5, 5, 5]
    council.open_council(s, [])
    s, _ = act(s, 0, "collect", res="archives", n=2)
    s, _ = act(s, 0, "done")
    assert s["covenant"]["res"]["archives"]["harm"] == 1
    s, _ = act(s, 1, "collect", res="archives", n=1)
    assert s["covenant"]["res"]["archives"]["harm"] == 0
    assert s["votes"] == [3, 4, 5]


def test_collection_short_is_lost() -> None:
    """Council post: if every player has had a turn and the total falls short, the votes are discarded."""
    s = fresh_table(3)
    s["covenant"]["res"]["archives"]["harm"] = 1
    s["last_antagonist"] = 0
    s["votes"] = [5, 5, 5]
    council.open_council(s, [])
    s, _ = act(s, 0, "collect", res="archives", n=2)
    for seat in (0, 1, 2):
        s, _ = act(s, seat, "done")
    assert s["covenant"]["res"]["archives"]["harm"] == 1 and s["votes"][0] == 3
    assert s["council"]["step"] == "bid"


def test_bidding_must_beat_and_all_pass_gives_acting_player() -> None:
    """Council post: bid higher than any prior bid or pass; if all pass, the acting player wins."""
    s = fresh_table(3)
    s["last_antagonist"] = 0
    s["votes"] = [5, 5, 5]
    council.open_council(s, [])
    for seat in (0, 1, 2):
        s, _ = act(s, seat, "done")
    acting = s["council"]["bid"]["turn"]
    assert acting == 2  # the last to act in Repair opens the bidding
    s, _ = act(s, 2, "bid", n=2)
    with pytest.raises(IllegalMove):
        act(s, 0, "bid", n=2)  # meeting the bid is not enough
    s, _ = act(s, 0, "pass")
    s, _ = act(s, 1, "pass")
    assert s["votes"][2] == 3 and s["council"]["take"]["turn"] == 2
    # The next resource: everyone passes, and its acting player takes first pick for free.
    s, _ = act(s, 2, "pass", raise_by=0)
    s, _ = act(s, 0, "pass", raise_by=0)
    s, _ = act(s, 1, "pass", raise_by=0)
    acting = s["council"]["bid"]["acting"]
    for seat in (acting, (acting + 1) % 3, (acting + 2) % 3):
        s, _ = act(s, seat, "pass")
    assert s["council"]["step"] == "take" and s["council"]["take"]["turn"] == acting


def test_extra_points_cost_one_then_two_more() -> None:
    """Council post: "a second point for 1 Council Vote, a third point for an additional 2"."""
    assert [council.take_cost(0, n) for n in (1, 2, 3)] == [0, 1, 3]
    # A raised cost applies to every point taken, extra points included.
    assert council.take_cost(2, 3) == 9


# --------------------------------------------------------------------------- expending, Harm, destruction


def test_insight_three_used_three_times_then_harmed() -> None:
    """"The meaning of Harm": Insight 3 may be invoked 3 times; after that a use Harms a point."""
    r = res(3)
    assert [use(r) for _ in range(3)] == ["expended"] * 3
    assert use(r) == "harmed"
    assert r == {"value": 3, "spent": 2, "harm": 1}


def test_wealth_six_used_six_times_harmed_six_then_destroyed() -> None:
    """"The meaning of Harm": a Wealth of 6 can be used 6 times and take 6 Harm; twice Harmed, a point goes"""
    r = res(6)
    hows = [use(r) for _ in range(12)]
    assert hows == ["expended"] * 6 + ["harmed"] * 6
    assert use(r) == "destroyed"
    assert r["value"] == 5


def test_zero_value_is_never_harmed() -> None:
    """"The meaning of Harm": "A character may never Harm a resource which normally has no value"."""
    r = res(0)
    assert harm(r) == "none" and r == res(0)


def test_cross_harm_takes_expended_points_first_else_a_fresh_one() -> None:
    """"The meaning of Harm": Harm in the opposing Trait: expended points first, else a fresh one."""
    s = to_trick(fresh_table(), ("insight", "insight"))
    me = s["mages"][0]
    me["traits"]["influence"] = {"value": 2, "spent": 2, "harm": 0}
    me["traits"]["vigor"] = {"value": 3, "spent": 1, "harm": 0}
    s["hands"][0] = ["5C"]
    s = play_cards(s, "4H", "10C")
    s, _ = act(s, 0, "spend", trait="influence", pay="cross")
    assert me["traits"]["vigor"] == {"value": 3, "spent": 1, "harm": 0}  # the input state is untouched
    vigor = s["mages"][0]["traits"]["vigor"]
    assert vigor == {"value": 3, "spent": 0, "harm": 1}
    s, _ = act(s, 0, "add", card="5C")
    assert total(s, 0) == 6


def test_companion_support_shortfall_is_harm() -> None:
    """Council post: a Vigor Companion with 3 uses supported with 1 Wealth takes 2 Harm."""
    s = fresh_table()
    s["mages"][0]["companions"] = [{"trait": "vigor", **res(3)}]
    s["mages"][0]["shares"]["coffers"] = 1
    s["council"] = {"last": 0, "step": "take"}
    council._upkeep(s, [])
    assert s["mages"][0]["companions"][0]["harm"] == 2 and s["mages"][0]["shares"]["coffers"] == 0


# --------------------------------------------------------------------------- magic and the Winter Council


def test_taint_lowers_the_magic_rating_at_once() -> None:
    """Magic post: "a magic rating of 3 and receives 5 Taint points ... decreased to -2 immediately"."""
    s = fresh_table()
    s["mages"][0]["magic"]["vigor"] = 3
    s["mages"][0]["taint"]["vigor"] = 5
    assert magic.rating(s, 0, "vigor") == -2


def test_taint_counts_opponent_cards_above_the_best() -> None:
    """Magic post: one Taint for each opponent card ranked higher than the initiator's single highest card."""
    s = fresh_table()
    assert magic.taint_for(s, ["9C", "4D"], ["10H", "KS", "3C", "9D"]) == 3


def _contest(s: dict, power: int, deck_top: list[str]) -> dict:
    s["deck"] += list(reversed(deck_top))  # draw() takes from the end
    s, _ = act(s, 0, "magic", power=power)
    s, _ = act(s, 0, "contest")
    return s


def test_magic_success_adds_two_per_point_of_power() -> None:
    """Magic post: the initiator's best card beats all of the opponent's: +2 rank per point of power."""
    s = to_trick(fresh_table(), ("craft", "craft"))
    s["mages"][0]["magic"]["vigor"] = 1
    s = play_cards(s, "3C", "9S")
    s = _contest(s, 2, ["AS", "5D", "6H"])
    assert total(s, 0) == 3 + 4
    assert s["mages"][0]["taint"]["vigor"] == 0


def test_magic_failure_gives_taint_negative_rating_gives_extra_cards() -> None:
    """Magic post: at a -2 rating the opponent draws 2 extra cards; losing brings Taint."""
    s = to_trick(fresh_table(), ("craft", "craft"))
    s["mages"][0]["magic"]["vigor"] = 0
    s["mages"][0]["taint"]["vigor"] = 2
    s = play_cards(s, "3C", "9S")
    s["hands"][0] = ["4D"]
    s["deck"] += list(reversed(["KH", "2S", "QC"]))
    s, _ = act(s, 0, "magic", power=1)
    s, _ = act(s, 0, "contest", card="4D")  # at 0 or less a hand card must be given
    sub = s["conflict"]["trick"]["sub"]
    assert sub["mine"] == ["4D"] and len(sub["theirs"]) == 3
    s, _ = act(s, 0, "settle")
    assert s["mages"][0]["taint"]["vigor"] == 2 + 2
    assert total(s, 0) == 3


def test_essence_can_rescue_a_losing_contest() -> None:
    """Magic post: a losing initiator may Claim Essences for more cards; no Taint if it then wins."""
    s = to_trick(fresh_table(), ("craft", "craft"))
    s["mages"][0]["magic"]["vigor"] = 1
    s = play_cards(s, "3C", "9S")
    s = _contest(s, 1, ["4D", "10H", "AS"])
    assert s["conflict"]["trick"]["sub"]["stage"] == "losing"
    s, _ = act(s, 0, "essence")
    assert s["covenant"]["res"]["essences"]["spent"] == 1
    assert s["conflict"]["trick"]["sub"] is None and total(s, 0) == 5
    assert s["mages"][0]["taint"]["vigor"] == 0


def test_winter_council_face_card_corrupts_that_suit() -> None:
    """Magic post: draw a card per Taint, stop at a face card; its suit's Trait gains one Corruption."""
    s = fresh_table()
    s["mages"][0]["taint"]["insight"] = 3
    s["deck"] += list(reversed(["4C", "QH", "KS"]))
    s["season"] = 3
    council.open_council(s, [])
    me = s["mages"][0]
    assert me["corruption"]["influence"] == 1 and sum(me["corruption"].values()) == 1
    assert me["taint"]["insight"] == 0
    assert "KS" in s["deck"]  # drawing stopped at the Queen


def test_winter_council_without_face_card_clears_taint() -> None:
    """Magic post: no face card drawn, the Taint points are simply lost."""
    s = fresh_table()
    s["mages"][1]["taint"]["craft"] = 2
    s["deck"] += list(reversed(["4C", "AH"]))
    s["season"] = 3
    council.open_council(s, [])
    assert s["mages"][1]["taint"]["craft"] == 0 and not any(s["mages"][1]["corruption"].values())


def test_corruption_lowers_trick_cards_of_its_suit() -> None:
    """Magic post: -1 rank per point of Corruption on Trick cards of the Corrupted Trait's suit."""
    s = fresh_table()
    s["mages"][0]["corruption"]["influence"] = 2
    s = to_trick(s, ("craft", "craft"))
    s = play_cards(s, "9H", "7S")
    assert total(s, 0) == 7


# ------------------------------------------------- framing ("The nature of conflict", Argrave)


def test_argrave_example_alternate_revisions_accepter_sets_tricks() -> None:
    """Argrave example: A states, B revises the win, A revises it back slightly, B revises the loss, A accepts
    and, as the one who accepted, sets two tricks."""
    s = fresh_table()
    s, _ = act(s, 0, "intent", text="Argrave marries the noble's daughter")
    s, _ = act(s, 1, "oppose")
    s, _ = act(s, 0, "type", trait="influence")
    s, _ = act(s, 1, "type", trait="vigor")
    s, _ = act(s, 0, "conditions", win_harm="none", lose_harm="none",
               win="If I win, I marry the noble's daughter and receive an enormous dowry.",
               lose="If I lose, the noble refuses me his daughter's hand, but we remain friends.")
    s, _ = act(s, 1, "revise", part="win", harm="none",
               text="If you win, you marry her only after beggaring yourself with gifts.")
    with pytest.raises(IllegalMove):
        act(s, 1, "accept")  # it is now the protagonist's answer
    s, _ = act(s, 0, "revise", part="win", harm="none",
               text="If I win, I marry her and receive a moderate dowry.")
    s, _ = act(s, 1, "revise", part="lose", harm="none",
               text="If you lose, you marry her against his will and he becomes a bitter enemy.")
    s, _ = act(s, 0, "accept")
    with pytest.raises(IllegalMove):
        act(s, 1, "tricks", n=2)
    s, _ev = act(s, 0, "tricks", n=2)
    c = s["conflict"]
    assert c["target"] == 2 and c["types"] == ["influence", "vigor"]
    assert c["cond"]["lose"].startswith("If you lose, you marry her against his will")


def test_trick_cap_option() -> None:
    """Council Votes post "Issues": a hard cap on conflict length (the author suggests 4), a table option."""
    s = to_trick(fresh_table(trick_cap="3"), ("vigor", "vigor"), tricks=3)
    assert s["conflict"]["target"] == 3
    with pytest.raises(IllegalMove):
        to_trick(fresh_table(trick_cap="3"), ("vigor", "vigor"), tricks=4)


def test_fewest_votes_takes_the_antagonist_role_ties_by_high_card() -> None:
    """Argrave example: several opposers, the one with the fewest Council Votes; ties by a high card."""
    s = fresh_table(4)
    s["votes"] = [3, 4, 2, 2]
    s, _ = act(s, 0, "intent", text="I climb the tower")
    for seat in (1, 2, 3):
        s, _ = act(s, seat, "oppose")
    assert s["scene"]["stage"] == "tiebreak" and s["scene"]["tied"] == [2, 3]
    s["hands"][2] = ["QH"]
    s["hands"][3] = ["QS"]
    s, ev = act(s, 2, "tiebreak", card="QH")
    assert all("Q" not in e.text for e in ev if e.public)  # nothing shown until both are down
    s, ev = act(s, 3, "tiebreak", card="QS")
    assert s["conflict"]["sides"] == [0, 3]
    assert s["hands"][2] == ["QH"] and s["hands"][3] == ["QS"]  # house ruling: shown, then kept


def test_concede_redraws_hand_plus_one() -> None:
    """Actions post: concede before the reveal; the opponent wins; discard the hand and draw as many +1."""
    s = to_trick(fresh_table(), ("vigor", "vigor"), tricks=2)
    s["hands"][0] = ["2C", "3C", "4C", "5C"]
    s["hands"][1] = ["AS"]
    s, _ = act(s, 0, "place", card="2C")
    s, _ = act(s, 1, "place", card="AS")
    s, ev = act(s, 0, "concede")
    assert s["conflict"]["wins"] == [0, 1]
    assert len(s["hands"][0]) == 4 and not {"3C", "4C", "5C"} & set(s["hands"][0])
    assert all("A♠" not in e.text for e in ev)  # the cards are never revealed


def test_yield_ends_the_conflict_even_ahead() -> None:
    """Conflict post: a player may "yield" at any time, even with more tricks, losing the conflict."""
    s = to_trick(fresh_table(), ("vigor", "vigor"), tricks=2)
    s = play_cards(s, "AC", "2H")
    s, _ = act(s, 1, "stand")
    assert s["conflict"]["wins"] == [1, 0]
    s, _ = act(s, 0, "yield")
    assert s["conflict"]["winner"] == 1 and s["conflict"]["stage"] == "finale"


def test_refill_after_a_conflict_to_hand_size() -> None:
    """Conflict post: every participant may discard any cards and redraw to the normal hand size."""
    s = to_trick(fresh_table(3, hand_size="5"), ("vigor", "vigor"))
    s["hands"][2] = ["2S", "3S"]
    s = play_cards(s, "AC", "2H")
    s, _ = act(s, 2, "aid", side=1, card="2S")
    s, _ = act(s, 1, "stand")
    s, _ = act(s, 0, "done") if s["conflict"]["stage"] == "gift" else (s, [])
    s, _ = act(s, 0, "finale", text="And so Argrave wed.")
    assert s["conflict"]["refill"] == [True, True, True]
    s, _ = act(s, 2, "discard", card="3S")
    s, _ = act(s, 2, "refill")
    assert len(s["hands"][2]) == 5


def test_magic_resistance_adds_cards_against_the_protagonist() -> None:
    """Magic post: an NPC with magic resistance draws one more card per point against a magic contest."""
    s = fresh_table()
    s, _ = act(s, 0, "intent", text="I banish the spirit of the mill")
    s, _ = act(s, 1, "oppose")
    s, _ = act(s, 0, "type", trait="vigor")
    s, _ = act(s, 1, "type", trait="insight", resistance=2)
    s, _ = act(s, 0, "conditions", win_harm="none", lose_harm="none", win="It goes", lose="It stays")
    s, _ = act(s, 1, "accept")
    s, _ = act(s, 1, "tricks", n=1)
    s["mages"][0]["magic"]["craft"] = 1
    s = play_cards(s, "3D", "KS")
    s["deck"] += list(reversed(["2C", "5H", "6H", "7H"]))  # a low card for the mage: the contest is lost
    s, _ = act(s, 0, "magic", power=1)
    s, _ = act(s, 0, "contest")
    sub = s["conflict"]["trick"]["sub"]
    assert sub["mine"] == ["2C"] and sub["theirs"] == ["5H", "6H", "7H"]  # power 1, resistance 2
    s, _ = act(s, 0, "settle")
    assert s["mages"][0]["taint"]["craft"] == 3
