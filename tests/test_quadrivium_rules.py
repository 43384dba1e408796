"""Quadrivium's procedure and our rulings: hidden hands, free text, actions, the bidding war, councils."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bench.selfplay import play
from rules.contract import IllegalMove, MalformedMove, Move, Prompt, PromptKind
from rules.quadrivium import council
from rules.quadrivium.cards import show
from rules.quadrivium.engine import passive
from rules.quadrivium.state import res
from rules.quadrivium.trick import total
from rules.quadrivium.views import own_hidden
from service import reading
from tests.quadrivium_helpers import R, act, fresh_table, play_cards, quick, to_trick


def _hidden(s: dict[str, Any]) -> set[str]:
    """Every card in a hand or face down on the table."""
    out = {c.split("/")[0] for h in s["hands"] for c in h}
    for seat in range(s["players"]):
        card = own_hidden(s, seat)
        if card:
            out.add(card.split("/")[0])
    return out


def _mentions(event: Any, card: str) -> bool:
    blob = json.dumps(event.data)
    return show(card) in event.text or f'"{card}"' in blob or f'"{card}/' in blob


@pytest.mark.parametrize("players", [2, 3, 5])
def test_no_hand_card_is_shown_publicly_before_it_is_played(players: int) -> None:
    """A card in a hand or face down is in no public event until it is played (tie-break reveals aside)."""
    checked = 0
    for seed in range(6):
        game = play(R, players, R.check_options({"creation": "quick"}), seed, keep_steps=True)
        assert game.finished, game.error
        for step in game.steps:
            still = _hidden(step.before) & _hidden(step.after)
            for e in step.events:
                if not e.public or e.kind == "oppose":
                    continue
                leaked = [c for c in still if _mentions(e, c)]
                assert not leaked, (seed, step.move, e.text, leaked)
                checked += 1
    assert checked > 500


def test_hand_is_only_in_its_owners_view() -> None:
    s = quick(3)
    for seat in range(3):
        view = R.view(s, seat)
        assert view["hand"] == s["hands"][seat]
        text = json.dumps(view)
        for other in range(3):
            if other != seat:
                assert all(f'"{c}"' not in text for c in s["hands"][other])
    assert R.view(s, None)["hand"] == []


def test_face_down_trick_card_only_in_owners_view() -> None:
    s = to_trick(fresh_table(), ("vigor", "vigor"))
    s["hands"][0] = ["7C", "8C"]
    s, ev = act(s, 0, "place", card="7C")
    assert [e.text for e in ev if e.public] == [e.text for e in ev if e.public and "7" not in e.text]
    assert R.view(s, 0)["placed"] == "7C"
    assert R.view(s, 1)["placed"] is None
    assert R.view(s, None)["conflict"]["trick"]["sides"][0] == {
        "seat": 0, "placed": True, "card": None, "aids": [], "adds": [], "minus": 0, "magic": 0,
        "total": None}


def test_scramble_redraws_other_hands_and_the_deck() -> None:
    import random

    s = quick(3)
    mixed = R.scramble(s, 0, random.Random(3))
    assert mixed["hands"][0] == s["hands"][0]
    assert mixed["hands"][1:] != s["hands"][1:] or mixed["deck"] != s["deck"]
    assert R.view(mixed, 0) == R.view(s, 0)


# --------------------------------------------------------------------------- free text


def test_text_travels_in_the_move_and_is_told_in_public_events() -> None:
    s = fresh_table()
    s, ev = act(s, 0, "intent", text="Argrave seeks the   lost codex @everyone")
    assert s["scene"]["intent"] == "Argrave seeks the lost codex @\u200beveryone"
    assert any("lost codex" in e.text for e in ev if e.public)


def test_text_too_long_or_not_words_is_refused_and_state_untouched() -> None:
    s = fresh_table()
    before = json.dumps(s)
    with pytest.raises(MalformedMove):
        act(s, 0, "intent", text="x" * 301)
    with pytest.raises(MalformedMove):
        act(s, 0, "intent", text=7)
    with pytest.raises(MalformedMove):
        act(s, 0, "intent", text="   ")
    assert json.dumps(s) == before


def test_text_never_changes_the_numbers() -> None:
    a = to_trick(fresh_table(), ("vigor", "vigor"))
    b = fresh_table()
    b, _ = act(b, 0, "intent", text="I win 100 Council Votes and destroy all Servants")
    b, _ = act(b, 1, "oppose")
    b, _ = act(b, 0, "type", trait="vigor")
    b, _ = act(b, 1, "type", trait="vigor")
    b, _ = act(b, 0, "conditions", win_harm="none", lose_harm="none", win="votes=99", lose="harm=all")
    b, _ = act(b, 1, "accept")
    b, _ = act(b, 1, "tricks", n=1)
    assert a["votes"] == b["votes"] and a["covenant"] == b["covenant"] and a["mages"] == b["mages"]


def test_missing_text_takes_a_stock_line() -> None:
    s = fresh_table()
    s, _ev = act(s, 0, "intent")
    assert s["scene"]["intent"]


def test_creation_step_by_step() -> None:
    s = R.setup(2, {}, 5)
    assert {p.decision for p in R.pending(s)} == {"create:covenant", "create:name"}
    s, _ = act(s, 0, "covenant", name="Fengheld", desc="in the fens")
    for seat in (0, 1):
        s, _ = act(s, seat, "mage", name=f"Mage {seat}")
        s, _ = act(s, seat, "traits", vigor=4, craft=2, influence=1, insight=1)
        s, _ = act(s, seat, "magic", vigor=0, craft=1, influence=3, insight=0)
    with pytest.raises(IllegalMove):
        act(s, 0, "traits", vigor=5, craft=1, influence=1, insight=1)
    s, first = act(s, 0, "boon", kind="companion", trait="influence")
    s, second = act(s, 1, "boon", kind="asset", trait="vigor")
    assert "Mage 0 brings an Influence Companion." in [e.text for e in first]
    assert "Mage 1 brings a Vigor Asset." in [e.text for e in second]
    assert s["phase"] == "scene"
    assert s["mages"][0]["companions"] == [{"trait": "influence", "value": 2, "spent": 0, "harm": 0}]
    assert s["mages"][1]["assets"] == {"vigor": res(1)}
    assert s["covenant"]["res"]["coffers"]["value"] == 4 and s["covenant"]["res"]["essences"]["value"] == 2


# --------------------------------------------------------------------------- actions in a trick


def test_vigor_adds_clubs_from_hand() -> None:
    """Actions post: expending Vigor, any number of clubs from hand add their combined rank."""
    s = to_trick(fresh_table(), ("craft", "craft"))
    s["hands"][0] = ["3C", "4C", "9H"]
    s = play_cards(s, "5C", "KS")
    s, _ = act(s, 0, "spend", trait="vigor", pay="point")
    assert {m.get("card") for m in R.legal_moves(s, 0) if m.action == "add"} == {"3C", "4C"}
    s, _ = act(s, 0, "add", card="3C")
    s, _ = act(s, 0, "add", card="4C")
    assert total(s, 0) == 12 and s["mages"][0]["traits"]["vigor"]["spent"] == 1


def test_insight_takes_at_random_and_gives_one_back() -> None:
    """Actions post: take a random card from the opponent's hand, then give one of choice back."""
    s = to_trick(fresh_table(), ("craft", "craft"))
    s["hands"][1] = ["2D", "3D"]
    s = play_cards(s, "5S", "KH")
    s, ev = act(s, 0, "spend", trait="insight", pay="point")
    taken = next(e for e in ev if e.seats == (0,)).data["card"]
    assert taken in s["hands"][0] and len(s["hands"][1]) == 1
    assert not any(taken in json.dumps(e.data) for e in ev if e.public)
    s, _ = act(s, 0, "give", card=taken)
    assert sorted(s["hands"][1]) == ["2D", "3D"]


def test_companion_changes_the_trick_cards_suit() -> None:
    """Actions post: a Companion turns a card of its Trait's suit into any other suit."""
    s = to_trick(fresh_table(), ("insight", "insight"))
    s["mages"][0]["companions"] = [{"trait": "influence", **res(1)}]
    s = play_cards(s, "9H", "10S")
    s, _ = act(s, 0, "companion", idx=0, suit="S")
    assert total(s, 0) == 13 and s["mages"][0]["companions"][0]["spent"] == 1


def test_item_lowers_an_opposing_card_of_its_suit() -> None:
    """Actions post: an Item plays same-suit cards from hand against an opposing card of that suit."""
    s = to_trick(fresh_table(), ("craft", "craft"))
    s["mages"][0]["items"] = [{"trait": "insight", **res(2)}]
    s["hands"][0] = ["4S"]
    s = play_cards(s, "9H", "KS")
    s, _ = act(s, 0, "item", idx=0)
    s, _ = act(s, 0, "add", card="4S")
    assert total(s, 1) == 9 and total(s, 0) == 9


def test_asset_gives_one_extra_use_and_is_never_harmed() -> None:
    s = to_trick(fresh_table(), ("craft", "craft"))
    s["mages"][0]["traits"]["vigor"] = {"value": 1, "spent": 1, "harm": 0}
    s["mages"][0]["assets"] = {"vigor": res(1)}
    s["hands"][0] = ["3C"]
    s = play_cards(s, "5C", "KS")
    pays = {m.get("pay") for m in R.legal_moves(s, 0) if m.action == "spend"}
    assert pays == {"harm", "asset", "cross"}
    s, _ = act(s, 0, "spend", trait="vigor", pay="asset")
    assert s["mages"][0]["assets"]["vigor"] == {"value": 1, "spent": 1, "harm": 0}


@pytest.mark.parametrize(("trait", "card", "hand"), [("vigor", "5C", ["3C"]), ("influence", "5H", ["3D"]),
                                                     ("insight", "5S", [])])
def test_a_trait_of_no_value_buys_no_use_not_even_by_harming_another(trait: str, card: str,
                                                                      hand: list[str]) -> None:
    """The meaning of Harm (lines 69-73): uses come from the Trait's own points, and "a character may
    never Harm a resource which normally has no value (e.g. 0)", so the opposing Trait is no way in."""
    s = to_trick(fresh_table(), ("craft", "craft"))
    s["mages"][0]["traits"][trait] = res(0)
    s["hands"][0] = list(hand)
    s["hands"][1] = ["2D"]
    s = play_cards(s, card, "KH" if trait == "insight" else "KS")  # never the Trait's own suit
    assert not [m for m in R.legal_moves(s, 0) if m.action == "spend"]
    s["mages"][0]["traits"][trait] = {"value": 1, "spent": 1, "harm": 0}  # one point, expended: both ways
    assert {m.get("pay") for m in R.legal_moves(s, 0) if m.action == "spend"} == {"harm", "cross"}


def test_a_craft_of_no_value_takes_no_card_of_the_trick() -> None:
    """The meaning of Harm (line 71): a Craft of 0 has no use to spend on the trick's cards."""
    s = to_trick(fresh_table(), ("vigor", "vigor"), tricks=2)
    s["mages"][0]["traits"]["craft"] = res(0)
    s = play_cards(s, "3D", "KS")
    s, _ = act(s, 0, "stand")
    assert s["conflict"]["stage"] == "place"  # no Craft to spend: no spoils step at all


def test_craft_takes_a_card_of_the_trick() -> None:
    """Actions post: expending Craft on a diamond, take the winning or losing card into hand."""
    s = to_trick(fresh_table(), ("vigor", "vigor"), tricks=2)
    s = play_cards(s, "3D", "KS")
    s, _ = act(s, 0, "stand")
    assert s["conflict"]["stage"] == "spoils"
    s, _ = act(s, 0, "craft", take="win", pay="point")
    assert "KS" in s["hands"][0] and s["conflict"]["stage"] == "place"


def test_claim_draws_a_card_of_the_resources_suit() -> None:
    """Actions post: Claim a Covenant Resource to draw at once; the card takes the resource's suit."""
    s = to_trick(fresh_table(), ("vigor", "vigor"))
    s["deck"].append("7S")
    s, ev = act(s, 0, "claim", res="relations")
    assert "7S/H" in s["hands"][0] and s["covenant"]["res"]["relations"]["spent"] == 1
    assert all("7" not in e.text for e in ev if e.public)


def test_claim_bidding_war() -> None:
    """Actions post: a third player offers votes to stop the Claim; outbid and accepted, the Claim goes on."""
    s = to_trick(fresh_table(3), ("vigor", "vigor"))
    s["votes"] = [5, 5, 4]
    s, _ = act(s, 0, "claim", res="servants")
    s, _ = act(s, 2, "block", bid=2)
    s, _ = act(s, 0, "raise", bid=3)
    assert Move.of("raise", bid=4) in R.legal_moves(s, 2)
    s, _ = act(s, 2, "take_offer")
    assert s["votes"][0] == 2 and s["votes"][2] == 7
    assert s["covenant"]["res"]["servants"]["spent"] == 1


def test_claim_bidding_war_offers_any_amount_held() -> None:
    """Actions post (line 211): the blocker offers "a number of Council Votes (minimum 1)" and each
    answer is "at least one more": any amount up to the votes held, never a listing cap."""
    s = to_trick(fresh_table(3), ("vigor", "vigor"))
    s["votes"] = [25, 5, 15]
    s, _ = act(s, 0, "claim", res="servants")
    assert max(m.get("bid") for m in R.legal_moves(s, 2) if m.action == "block") == 15
    s, _ = act(s, 2, "block", bid=12)
    assert {m.get("bid") for m in R.legal_moves(s, 0) if m.action == "raise"} == set(range(13, 26))


def test_claim_bidding_war_claimer_takes_the_votes_instead() -> None:
    s = to_trick(fresh_table(3), ("vigor", "vigor"))
    s["votes"] = [5, 5, 4]
    s, _ = act(s, 0, "claim", res="servants")
    s, _ = act(s, 2, "block", bid=2)
    s, _ = act(s, 0, "take_offer")
    assert s["votes"][0] == 7 and s["votes"][2] == 2
    assert s["covenant"]["res"]["servants"]["spent"] == 0
    assert not any(m.action == "claim" for m in R.legal_moves(s, 0))


# --------------------------------------------------------------------------- councils (our defaults)


def _to_take(s: dict) -> dict:
    council.open_council(s, [])
    for seat in s["council"]["order"]:
        s, _ = act(s, seat, "done")
    while s["council"]["step"] == "bid":
        s, _ = act(s, s["council"]["bid"]["turn"], "pass")
    return s


def _taking() -> tuple[dict, int, str]:
    """Return a two-mage council at its take step (ten votes each), the first taker and resource."""
    s = fresh_table(2)
    s["votes"] = [10, 10]
    s["last_antagonist"] = 0
    s = _to_take(s)
    return s, s["council"]["take"]["turn"], s["council"]["resources"][0]


def test_council_take_raise_and_shares() -> None:
    s, first, res_name = _taking()
    s, _ = act(s, first, "take", n=1, raise_by=2)
    assert s["votes"][first] == 10 - 2 and s["mages"][first]["shares"][res_name] == 1
    other = 1 - first
    s, _ = act(s, other, "take", n=2, raise_by=0)
    assert s["votes"][other] == 10 - (2 + 2 + 1)  # two points at the raised cost of 2, the second +1
    assert s["covenant"]["res"][res_name]["spent"] == 3 and s["mages"][other]["shares"][res_name] == 2


def test_nothing_is_taken_from_a_resource_whose_every_point_is_destroyed() -> None:
    """Lines 39 and 75: a point is taken if any remain, else Harmed; once every point is destroyed
    there is neither. Offering a Take there gave free shares for ever (a stand-in's default move
    took "1 point (none)" turn after turn, and a table of skipped seats never ended)."""
    s, first, res_name = _taking()
    s["covenant"]["res"][res_name] = res(0)
    s["council"]["take"]["cost"] = 0
    moves = R.legal_moves(s, first)
    assert moves and all(m.action in ("pass", "sit_out") for m in moves)  # no take, only passes
    assert R.default_move(s, first) == Move.of("pass", raise_by=0)
    with pytest.raises(IllegalMove):
        act(s, first, "take", n=1, raise_by=0)
    s, _ = act(s, first, "pass", raise_by=0)
    s, _ = act(s, 1 - first, "pass", raise_by=0)
    assert s["council"]["ri"] == 1, "both passed: the taking moves on to the next resource"


def test_one_supplementary_action_a_turn() -> None:
    """Bidding for Resources, lines 35-47: one main action (pass, or Take a single point) and "one of
    the following supplementary actions": further points or a raise, never both in one turn."""
    s, first, _ = _taking()
    takes = [m for m in R.legal_moves(s, first) if m.action == "take"]
    assert Move.of("take", n=1, raise_by=3) in takes and Move.of("take", n=2, raise_by=0) in takes
    assert not [m for m in takes if m.get("n") > 1 and m.get("raise_by")]
    with pytest.raises(IllegalMove):
        act(s, first, "take", n=2, raise_by=1)


def test_no_cap_on_bids_raises_or_points_but_the_votes_held() -> None:
    """Lines 33, 45, 47: bid "any number of Council Votes (up to their maximum)", raise the cost by
    "one or more", take further points at the cumulative cost: only the votes held limit them."""
    s = fresh_table(2)
    s["votes"] = [30, 30]
    s["last_antagonist"] = 0
    council.open_council(s, [])
    for seat in s["council"]["order"]:
        s, _ = act(s, seat, "done")
    bidder = s["council"]["bid"]["turn"]
    bids = {m.get("n") for m in R.legal_moves(s, bidder) if m.action == "bid"}
    assert bids == set(range(1, 31))
    s, _ = act(s, bidder, "bid", n=25)
    s, _ = act(s, 1 - bidder, "pass")
    assert s["votes"][bidder] == 5
    s["covenant"]["res"][s["council"]["resources"][0]] = res(6)
    taker, other = s["council"]["take"]["turn"], 1 - s["council"]["take"]["turn"]
    s["votes"][taker] = 30
    moves = R.legal_moves(s, taker)
    # Points: 1 + 2 + ... : seven points cost 21, eight would cost 28 of 30 votes.
    assert max(m.get("n") for m in moves if m.action == "take") == 8
    assert Move.of("pass", raise_by=30) in moves and Move.of("take", n=1, raise_by=30) in moves
    s, _ = act(s, taker, "take", n=1, raise_by=12)
    assert s["council"]["take"]["cost"] == 12
    # Any later player adds any amount; a point now costs 12 (line 45).
    assert Move.of("pass", raise_by=30) in R.legal_moves(s, other)
    assert Move.of("take", n=2, raise_by=0) in R.legal_moves(s, other)  # 12 + 12 + 1 = 25 of 30


def test_any_amount_can_be_typed_where_the_panel_lists_run_out() -> None:
    """Lines 33 and 45 allow any amount: ``/game play`` reads the number typed (``Bid 27``, a raise
    of 23), so no amount is out of reach when a panel's lists cannot hold them all."""
    s = fresh_table(2)
    s["votes"] = [30, 30]
    s["last_antagonist"] = 0
    council.open_council(s, [])
    for seat in s["council"]["order"]:
        s, _ = act(s, seat, "done")
    bidder = s["council"]["bid"]["turn"]
    legal = R.legal_moves(s, bidder)
    labels = [R.label(s, bidder, m) for m in legal]
    assert reading.read_move("bid 27", legal, labels) == Move.of("bid", n=27)
    s, _ = act(s, bidder, "pass")
    s, _ = act(s, 1 - bidder, "pass")
    taker = s["council"]["take"]["turn"]
    legal = R.legal_moves(s, taker)
    labels = [R.label(s, taker, m) for m in legal]
    assert reading.read_move("pass, raise the cost by 23", legal, labels) == Move.of("pass", raise_by=23)
    assert reading.read_move("take 1 point raise 23", legal, labels) == Move.of("take", n=1, raise_by=23)


def test_blocking_duel_returns_a_point() -> None:
    s, first, res_name = _taking()
    other = 1 - first
    s, _ = act(s, first, "take", n=1, raise_by=0)
    s, _ = act(s, other, "pass", raise_by=0)
    s, _ = act(s, first, "take", n=1, raise_by=0)
    s, _ = act(s, other, "duel", target=first)
    s["hands"][other] = ["AS"]
    s["hands"][first] = ["2C"]
    s, ev = act(s, other, "duel_card", card="AS")
    assert not any("A♠" in e.text for e in ev if e.public)
    s, ev = act(s, first, "duel_card", card="2C")
    assert s["mages"][first]["shares"][res_name] == 1
    assert s["covenant"]["res"][res_name]["spent"] == 1


def test_seasons_never_skip_a_winter() -> None:
    s = fresh_table()
    s["season"] = 1
    assert council.season_choices(s) == [1, 2]
    s["season"] = 3
    assert council.season_choices(s) == [1, 2, 3, 4]


def _to_years(s: dict) -> dict:
    s = _to_take(s)
    while s["council"]["step"] in ("take", "bid"):
        k = s["council"]
        if k["step"] == "bid":
            s, _ = act(s, k["bid"]["turn"], "pass")
        else:
            s, _ = act(s, k["take"]["turn"], "pass", raise_by=0)
    for seat in list(s["council"]["order"]):
        s, _ = act(s, seat, "rest")
    return s


def test_years_majority_and_refresh() -> None:
    s = fresh_table(3)
    s["last_antagonist"] = 2
    s["mages"][0]["traits"]["vigor"]["spent"] = 2
    s["covenant"]["res"]["archives"].update(spent=2, harm=1)
    s = _to_years(s)
    s, _ = act(s, 0, "seasons", n=1)
    s, _ = act(s, 1, "seasons", n=2)
    s, _ = act(s, 2, "seasons", n=2)
    assert s["season"] == 2 and s["phase"] == "scene"
    assert s["mages"][0]["traits"]["vigor"]["spent"] == 0
    assert s["covenant"]["res"]["archives"]["spent"] == 0 and s["covenant"]["res"]["archives"]["harm"] == 1


def test_table_vote_ends_the_tale() -> None:
    s = fresh_table(3)
    s["last_antagonist"] = 2
    s = _to_years(s)
    s, _ = act(s, 0, "seasons", n=1, end=True)
    s, _ = act(s, 1, "seasons", n=1, end=True)
    s, _ = act(s, 2, "seasons", n=1)
    assert R.is_over(s) and R.result(s).winners == ()


def test_winter_council_of_the_last_year_ends_the_tale() -> None:
    s = fresh_table(2, ending="years")
    s["season"] = 3
    s["last_antagonist"] = 0
    s = _to_years(s)
    assert Move.of("seasons", n=1, end=True) not in R.legal_moves(s, 0)
    s, _ = act(s, 0, "seasons", n=1)
    s, _ = act(s, 1, "seasons", n=1)
    assert R.is_over(s)


def test_improve_costs_new_value_times_two() -> None:
    s = fresh_table(2)
    s["votes"] = [6, 0]
    s["last_antagonist"] = 0
    s = _to_take(s)
    while s["council"]["step"] in ("take", "bid"):
        k = s["council"]
        if k["step"] == "bid":
            s, _ = act(s, k["bid"]["turn"], "pass")
        else:
            s, _ = act(s, k["take"]["turn"], "pass", raise_by=0)
    actor = s["council"]["order"][s["council"]["pos"]]
    s["votes"][actor] = 6
    s, _ = act(s, actor, "improve", what="trait:vigor")
    assert s["mages"][actor]["traits"]["vigor"]["value"] == 3 and s["votes"][actor] == 0


def _all_cards(s: dict[str, Any]) -> list[str]:
    """Every card wherever it is: deck, discards, hands, the table, a contest, a tie-break, a duel."""
    out = list(s["deck"]) + list(s["discard"]) + [c for h in s["hands"] for c in h]
    c = s["conflict"]
    if c:
        out += c["pile"]
        t = c["trick"]
        if t and c["stage"] != "spoils":  # in the spoils the trick's cards already lie in the pile
            for side in t["cards"]:
                out += ([side["card"]] if side["card"] else []) + side["aids"] + side["adds"]
            out += t.get("pile_extra", [])
            if t["sub"] and t["sub"]["kind"] == "magic":
                out += t["sub"]["mine"] + t["sub"]["theirs"]
    sc = s["scene"]
    if sc:
        out += [x for x in sc["shown"] if x]
    k = s["council"]
    if k and k["duel"]:
        out += [x for x in k["duel"]["cards"] if x]
    return sorted(x.split("/")[0] for x in out)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_card_is_somewhere_exactly_once(players: int) -> None:
    from rules.quadrivium.cards import full_deck

    deck = sorted(full_deck())
    for seed in range(4):
        game = play(R, players, R.check_options({"creation": "quick"}), seed, keep_steps=True)
        assert game.finished, game.error
        for step in game.steps:
            assert _all_cards(step.after) == deck, (seed, step.move)


def test_bench_conflict_lengths_under_both_policies() -> None:
    from bench.quadrivium_conflicts import conflicts

    simple = conflicts("simple", 3, 2)
    assert simple and all(1 <= tricks <= 3 for tricks, _ in simple)  # two to win: three tricks at most
    rand = conflicts("random", 3, 2)
    assert rand and all(moves > 0 for _, moves in rand)


def test_labels_tell_a_contest_from_a_magic_spread() -> None:
    s = fresh_table()
    assert R.label(s, 0, Move.of("magic", power=3)) == "Magic contest of power 3"
    spread = Move.of("magic", vigor=1, craft=1, influence=1, insight=1)
    assert R.label(s, 0, spread) == "Magic: Vigor 1, Craft 1, Influence 1, Insight 1"
    craft = Move.of("craft", take="lose", pay="point")
    assert R.label(s, 0, craft) == "Craft: take the losing card (expend a point)"


def test_a_player_who_leaves_passes_by_default() -> None:
    """Ours: the mage stays in the tale; an absent seat yields its conflicts, allows, passes, rests."""
    s = to_trick(fresh_table(3), ("vigor", "vigor"), tricks=2)
    s, _ = R.apply(s, 1, Move.of("resign"))
    assert s["gone"] == [1]
    s["hands"][0] = ["5C"]
    s, _ev = act(s, 0, "place", card="5C")
    assert s["conflict"]["winner"] == 0  # on its turn the absent antagonist yielded the conflict
    assert s["hands"][0] == ["5C"]  # and the face-down card went back to its hand
    with pytest.raises(IllegalMove):
        R.apply(s, 1, Move.of("resign"))
    s, _ = R.apply(s, 0, Move.of("resign"))
    assert R.is_over(s) and "too few players" in s["ended"]


def test_reactions_can_be_declined() -> None:
    s = fresh_table(3)
    s, _ = act(s, 0, "intent", text="I walk the boundary")
    prompts = {p.seat: p for p in R.pending(s)}
    assert R.decline(s, 1, prompts[1]) == Move.of("allow")
    s, _ = act(s, 1, "allow")
    s, _ = act(s, 2, "oppose")
    assert all(R.decline(s, p.seat, p) is None for p in R.pending(s))  # a type is no reaction


def test_self_play_writes_random_words_and_they_are_told() -> None:
    from rules.quadrivium.engine import clean_text

    game = play(R, 3, R.check_options({}), 4, keep_steps=True)
    worded = [st for st in game.steps if st.move.action == "intent" and st.move.get("text")]
    assert worded
    for st in worded:
        told = clean_text(st.move.get("text"), 300)
        assert any(told in e.text for e in st.events if e.public)


def test_only_public_lone_moves_are_played_automatically() -> None:
    s = fresh_table(revisions="2")
    s, _ = act(s, 0, "intent", text="I cross the marsh")
    s, _ = act(s, 1, "oppose")
    s, _ = act(s, 0, "type", trait="vigor")
    s, _ = act(s, 1, "type", trait="vigor")
    s, _ = act(s, 0, "conditions", win_harm="none", lose_harm="none", win="I cross", lose="I sink")
    s, _ = act(s, 1, "revise", part="win", harm="none", text="You cross, soaked")
    s, _ = act(s, 0, "revise", part="lose", harm="none", text="You sink to the knees")
    prompt = R.pending(s)[0]
    assert R.legal_moves(s, 1) == [Move.of("accept")]
    assert R.auto_resolvable(s, prompt, Move.of("accept"))
    # A lone move naming a card is never played for the seat: the log would show the card.
    give = Prompt(1, PromptKind.DECISION, "sub:give", "Give a card back.")
    assert not R.auto_resolvable(s, give, Move.of("give", card="7C"))


def test_a_council_step_with_no_votes_to_spend_plays_itself_but_words_never_do() -> None:
    """Ruling (Automatic play): a council step one cannot spend on is a lone public move and plays
    itself ("done" in repair); a bid one cannot afford is not even asked (the game passes the seat,
    line 33). A lone move that carries words the player writes (the finale) is a choice of words
    and is never played for the seat."""
    s = fresh_table(2)
    s["votes"] = [0, 0]
    s["last_antagonist"] = 0
    council.open_council(s, [])
    for seat in s["council"]["order"]:
        prompt = R.pending(s)[0]
        assert prompt.decision == "repair" and R.legal_moves(s, seat) == [Move.of("done")]
        assert R.auto_resolvable(s, prompt, Move.of("done"))
        s, events = act(s, seat, "done")
    # Nobody can bid: both are passed by the game and the acting player has first pick.
    assert R.pending(s)[0].decision == "take"
    passed = [e.text for e in events if "has no Council Votes and passes" in e.text]
    assert len(passed) == 2
    finale = Prompt(0, PromptKind.TURN, "finale", "Narrate the finale.")
    assert R.writes(Move.of("finale")) and not R.auto_resolvable(s, finale, Move.of("finale"))


def test_data_files_label_every_default_and_fit_the_limits() -> None:
    """Every number we chose says so (source designed) with a reason; stock lines fit the text limits."""
    from rules.quadrivium.state import TEXT_LIMITS, defaults, tales

    problems = []
    for key, entry in defaults().items():
        if key.startswith("_"):
            continue
        if entry.get("source") not in ("designed", "rulebook"):
            problems.append(f"{key}: source must be designed or rulebook")
        if not entry.get("why"):
            problems.append(f"{key}: no reason given")
    limits = {"covenant": "name", "mage": "name", "desc": "desc", "intent": "text", "win": "win",
              "lose": "lose", "finale": "text"}
    for key, lines in tales().items():
        if key.startswith("_"):
            continue
        if not lines:
            problems.append(f"tales {key}: empty")
        problems += [f"tales {key}: too long: {x}" for x in lines if len(x) > TEXT_LIMITS[limits[key]]]
    assert not problems, problems
    assert sum(e.get("source") == "designed" for e in defaults().values() if isinstance(e, dict)) >= 10


def _to_bidding(players: int, votes: list[int]) -> dict:
    """Open a council with those Council Votes and finish its repair step (nobody repairs)."""
    s = fresh_table(players)
    s["votes"] = list(votes)
    s["last_antagonist"] = 0
    council.open_council(s, [])
    for seat in s["council"]["order"]:
        s, _ = act(s, seat, "done")
    return s


def test_a_seat_that_cannot_outbid_is_passed_by_the_game() -> None:
    """Line 33: a bid must be "higher than any prior bid ... or pass", so a seat whose Council Votes
    cannot top the high bid has only "pass": the game passes it without asking, and says so."""
    s = _to_bidding(3, [9, 9, 9])
    a = s["council"]["bid"]["turn"]
    b, c = (a + 1) % 3, (a + 2) % 3
    s["votes"][a], s["votes"][b], s["votes"][c] = 5, 2, 6
    s, events = act(s, a, "bid", n=3)
    # b holds 2 votes and cannot outbid 3: passed; c (6 votes) is asked.
    res_name = s["council"]["resources"][0].title()
    assert any(e.public and e.text.endswith(f"cannot outbid 3 and passes on {res_name}.") for e in events)
    assert b not in s["council"]["bid"]["active"]
    assert [p.seat for p in R.pending(s)] == [c] and R.pending(s)[0].decision == "bid"
    s, _ = act(s, c, "bid", n=5)
    # a (5 votes) cannot outbid 5: passed too, so c wins the first pick.
    assert s["council"]["step"] == "take" and s["council"]["take"]["turn"] == c
    assert s["votes"][c] == 1


def test_a_seat_may_pass_for_the_rest_of_the_bidding() -> None:
    """House ruling (Bidding for Resources): "Pass for the rest of this bidding" is kept in the
    council and passes every later bid and taking turn of that seat until the bidding ends; then the
    seat is asked again (its Mage Action)."""
    s = _to_bidding(2, [9, 9])
    seat = s["council"]["bid"]["turn"]
    assert Move.of("sit_out") in R.legal_moves(s, seat)
    assert R.label(s, seat, Move.of("sit_out")) == "Pass for the rest of this bidding"
    s, events = act(s, seat, "sit_out")
    assert any(e.public and e.text.endswith("passes for the rest of this bidding.") for e in events)
    assert s["council"]["sat_out"] == [seat]
    asked = []
    while s["council"]["step"] in ("bid", "take"):
        prompt = R.pending(s)[0]
        asked.append(prompt.seat)
        s, _ = act(s, prompt.seat, "pass", **({"raise_by": 0} if prompt.decision == "take" else {}))
    # Through every resource the other seat alone was asked; once the bidding ended, the sitter is back.
    assert asked and set(asked) == {1 - seat}
    assert s["council"]["sat_out"] == []
    assert s["council"]["step"] == "actions"
    while seat not in {p.seat for p in R.pending(s)}:
        assert s["council"]["step"] == "actions"
        other = R.pending(s)[0].seat
        s, _ = R.apply(s, other, passive(R.legal_moves(s, other)))
    assert R.pending(s)[0].decision == "mage_action"


def test_passing_for_the_rest_of_the_bidding_in_a_taking_turn() -> None:
    """The same move in a taking turn passes that turn and every later one of the bidding."""
    s = _to_bidding(2, [0, 0])
    taker = s["council"]["take"]["turn"]
    assert Move.of("sit_out") in R.legal_moves(s, taker)
    s, _ = act(s, taker, "sit_out")
    assert s["council"]["take"]["passed"][taker]
    while s["council"]["step"] in ("bid", "take"):
        prompt = R.pending(s)[0]
        assert prompt.seat != taker
        s, _ = act(s, prompt.seat, "pass", **({"raise_by": 0} if prompt.decision == "take" else {}))
    assert s["council"]["sat_out"] == []
