"""A test for every Institute Card power, grouped by the shape of its effect.

Each test gives red (seat 0) the card, brings the game to the moment its power is used, uses it and
checks what changed. Stones are kept below every Cost so nothing else is won meanwhile, and Locations
1-4 keep their cards (the won immediate card sits at Location 5), so slots do not shift under the test.
"""

from __future__ import annotations

import pytest

from rules.institute import effects
from rules.institute.cards import deck
from rules.institute.state import card
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
)

PHASE_OF = {c.key: (c.power, c.phase) for c in deck()}


def board(seed: int = 3) -> dict:
    """Return a state with bare hands and five Characters (Cost 3+) at Locations 1-5."""
    s = fresh(seed)
    clear_hands(s)
    for loc, key in enumerate(("apprentice", "librarian", "herbalist", "groundskeeper", "astronomer"), 1):
        put(s, loc, key)
    return s


def reach(s: dict, key: str) -> tuple[dict, int]:
    """Bring red's card to the moment its power is used and start it; return the state and card id."""
    power, phase = PHASE_OF[key]
    if power == "immediate":
        cid = put(s, 5, key, red=card_cost(key))
        return jump(s, "check"), cid
    cid = give(s, 0, key)
    if phase == 4:
        s = jump(s, "phase4")
        assert R.pending(s)[0].seat == 0
    elif phase in (3, 5):
        s = jump(s, f"window{phase}")
    elif phase == 2:
        plan(s, 0, [1, 2, 3, 4], ["cast1", "cast1", "take", "cast2"])
        plan(s, 1, [1, 2, 3, 4], ["take", "take", "cast1", "cast1"])
        s, _ = confirm_both(s)
        assert s["step"] == "window2"
    s, _ = play(s, 0, "power", card=cid)
    return s, cid


def card_cost(key: str) -> int:
    return next(c.cost for c in deck() if c.key == key)


def stones(s: dict, loc: int) -> list[int]:
    return s["slots"][loc - 1]["stones"]


def set_on(s: dict, loc: int, red: int = 0, blue: int = 0) -> None:
    slot = s["slots"][loc - 1]
    s["supply"][0] += slot["stones"][0] - red
    s["supply"][1] += slot["stones"][1] - blue
    slot["stones"] = [red, blue]


@pytest.mark.parametrize(
    ("key", "gain"),
    [
        ("bag_of_holding", 3),
        ("philosophers_stone", 5),
        ("hourglass_of_plenty", 2),
    ],
)
def test_gain_stones(key: str, gain: int) -> None:
    s = board()
    s["players"][0]["rerolls"] = 0
    before = s["players"][0]["stones"]
    s, _ = reach(s, key)
    if PHASE_OF[key][1] == 2:
        # the power came first; then red took 3 (die 3) and cast 1 + 1 + 2 onto Locations 1, 2 and 4
        assert s["players"][0]["stones"] == before + gain + 3 - 4
        assert stones(s, 4)[0] == 2
    else:
        assert s["players"][0]["stones"] == before + gain
    if key == "hourglass_of_plenty":
        assert s["players"][0]["rerolls"] == 3
    assert balanced(s)


@pytest.mark.parametrize(("key", "n"), [("everburning_candle", 1), ("cauldron", 3), ("phoenix_feather", 2)])
def test_place_on_a_chosen_card(key: str, n: int) -> None:
    s = board()
    s, _ = reach(s, key)
    moves = R.legal_moves(s, 0)
    assert {m.get("at") for m in moves if m.action == "place"} == {1, 2, 3, 4} | (
        {5} if PHASE_OF[key][0] != "immediate" else set()
    )
    s, _ = play(s, 0, "place", at=4)  # The Groundskeeper costs 4: nothing is won afterwards
    assert stones(s, 4) == [n, 0]
    assert effects.frame(s, 0) is None
    assert balanced(s)


@pytest.mark.parametrize("key", ["ring_of_influence", "novice_crystal_ball", "mortar_and_pestle"])
def test_starting_cards_roll_a_die_and_place_a_personal_stone(key: str) -> None:
    """The Ring's printed power (card notes A1); the two other starting cards share it with a twist."""
    s = board()
    set_on(s, 1, red=1)
    s["players"][0]["rerolls"] = 1
    before = s["players"][0]["stones"]
    s, _ = reach(s, key)
    if key == "novice_crystal_ball":
        s, _ = play(s, 0, "move", **{"from": 1, "to": 2})
        assert stones(s, 2) == [1, 0]
    assert {m.action for m in R.legal_moves(s, 0)} == {"accept", "roll_again"}
    die = effects.frame(s, 0)["cur"]["die"]
    placed = 1 if s["slots"][die - 1]["kind"] == "card" else 0
    s, _ = play(s, 0, "accept")
    taken = 1 if key == "mortar_and_pestle" else 0
    from_supply = key != "mortar_and_pestle"  # the Mortar places from the personal supply
    assert s["players"][0]["stones"] == before - 1 + taken - (0 if from_supply else placed)
    assert sum(x["stones"][0] for x in s["slots"]) == 1 + placed
    assert balanced(s)


@pytest.mark.parametrize(("key", "n"), [("ring_of_influence", 1), ("wand_of_scattering", 2)])
def test_place_where_a_die_points(key: str, n: int) -> None:
    s = board()
    s["players"][0]["rerolls"] = 1
    s, _ = reach(s, key)
    rolled = effects.frame(s, 0)["cur"]["die"]
    assert {m.action for m in R.legal_moves(s, 0)} == {"accept", "roll_again"}
    s, events = play(s, 0, "roll_again")  # a Reroll Cube on a power's die
    assert s["players"][0]["rerolls"] == 0
    again = next(int(e.text.split("rolls a ")[1][0]) for e in events if "rolls a" in e.text)
    assert 1 <= rolled <= 6 and 1 <= again <= 6
    slot = s["slots"][again - 1]
    if slot["kind"] == "card":
        assert slot["stones"][0] == n
    else:
        assert sum(sum(x["stones"]) for x in s["slots"] if x["kind"] == "card") == 0  # ignored
    assert balanced(s)


def test_a_rolled_placement_on_the_portal_or_an_empty_location_is_ignored() -> None:
    """Additional Rules for Phase V: a power aimed at an empty Location does nothing (nor at the Portal)."""
    for seed in range(40):
        s = board(seed)
        s["slots"][2] = {"kind": "empty", "card": None, "stones": [0, 0]}
        s["players"][0]["rerolls"] = 0  # no cube: the first roll stands
        s, _ = reach(s, "ring_of_influence")
        rolled = next(int(t.split("rolls a ")[1][0]) for t in s["log"] if "rolls a" in t)
        if rolled in (3, 6):
            assert all(sum(x["stones"]) == 0 for x in s["slots"])
            assert any("so nothing happens" in t for t in s["log"])
            return
    raise AssertionError("no seed rolled a 3 or a 6")


@pytest.mark.parametrize(
    ("key", "n"),
    [
        ("hourglass", 3),
        ("feather_quill", 2),
        ("cloak_of_shadows", 2),
    ],
)
def test_move_own_stones(key: str, n: int) -> None:
    s = board()
    set_on(s, 1, red=2, blue=1)
    set_on(s, 3, red=1)
    s, _ = reach(s, key)
    moves = R.legal_moves(s, 0)
    assert all(m.get("from") in (1, 3) for m in moves if m.action == "move")  # only where red has stones
    for _ in range(n):
        s, _ = play(s, 0, "move", **{"from": 1 if stones(s, 1)[0] else 3, "to": 4})
    assert stones(s, 4) == [n, 0]
    assert stones(s, 1)[1] == 1  # blue's stone stays
    assert effects.frame(s, 0) is None
    assert balanced(s)


def test_spellbook_also_takes_a_stone() -> None:
    s = board()
    set_on(s, 1, red=1)
    stones_before = s["players"][0]["stones"]
    s, _ = reach(s, "spellbook")
    s, _ = play(s, 0, "move", **{"from": 1, "to": 4})
    assert s["players"][0]["stones"] == stones_before - 1 + 1  # paid 1, took 1
    assert stones(s, 4) == [1, 0]


def test_scrying_pool_removes_a_rival_stone_where_the_die_points() -> None:
    for seed in range(30):
        s = board(seed)
        for loc in range(1, 6):
            set_on(s, loc, blue=2)
        s["players"][0]["rerolls"] = 0  # the first roll stands
        supply = s["supply"][1]
        s, _ = reach(s, "scrying_pool")
        rolled = next(int(t.split("rolls a ")[1][0]) for t in s["log"] if "rolls a" in t)
        if rolled != 6:
            assert stones(s, rolled) == [0, 1]
            assert s["supply"][1] == supply + 1
            assert balanced(s)
            return
    raise AssertionError("every seed rolled the Portal")


def test_a_move_power_may_be_used_partially() -> None:
    """Using the Powers, General Rules: a player may shift only part of what the power allows."""
    s = board()
    set_on(s, 1, red=2)
    s, _ = reach(s, "hourglass")
    s, _ = play(s, 0, "move", **{"from": 1, "to": 2})
    s, _ = play(s, 0, "done")
    assert stones(s, 1) == [1, 0] and stones(s, 2) == [1, 0]
    assert effects.frame(s, 0) is None


@pytest.mark.parametrize(("key", "n"), [("silver_dagger", 2), ("broken_wand", 1), ("hex_doll", 2)])
def test_remove_opponent_stones(key: str, n: int) -> None:
    s = board()
    set_on(s, 2, red=1, blue=2)
    set_on(s, 4, blue=1)
    supply = s["supply"][1]
    s, _ = reach(s, key)
    assert {m.get("at") for m in R.legal_moves(s, 0) if m.action == "remove"} == {2, 4}
    for _ in range(n):
        s, _ = play(s, 0, "remove", at=2)
    assert stones(s, 2) == [1, 2 - n]
    assert s["supply"][1] == supply + n
    assert effects.frame(s, 0) is None
    assert balanced(s)


@pytest.mark.parametrize(("key", "n"), [("wand_of_transference", 1), ("grimoire", 3)])
def test_move_opponent_stones(key: str, n: int) -> None:
    s = board()
    set_on(s, 1, blue=2)
    set_on(s, 3, blue=2)
    s, _ = reach(s, key)
    for i in range(n):
        s, _ = play(s, 0, "move", **{"from": 1 if i < 2 else 3, "to": 4})
    assert stones(s, 4) == [0, n]
    assert effects.frame(s, 0) is None
    assert balanced(s)


def test_pouch_of_charms_gains_two_charms_and_their_vp() -> None:
    s = board()
    me = s["players"][0]
    score, charms = me["score"], me["charms"]
    s, _ = reach(s, "pouch_of_charms")
    me = s["players"][0]
    assert (me["charms"], me["score"]) == (charms + 2, score + 1 + 2)  # 1 VP printed, 2 from the charms


def test_thieving_glove_takes_a_charm_from_the_opponent() -> None:
    s = board()
    s, _ = reach(s, "thieving_glove")
    red, blue = s["players"]
    assert (red["charms"], blue["charms"]) == (3, 1)
    assert (red["score"], blue["score"]) == (3 + 1 + 1, 3 - 1)  # 1 VP printed, 1 Charm taken


def test_thieving_glove_takes_nothing_from_an_opponent_without_charms() -> None:
    s = board()
    s["players"][1]["charms"] = 0
    s, _ = reach(s, "thieving_glove")
    assert s["players"][0]["charms"] == 2 and s["players"][1]["charms"] == 0


@pytest.mark.parametrize("behind", [True, False])
def test_storm_staff_clears_a_card_only_when_behind(behind: bool) -> None:
    s = board()
    s["players"][1]["score"] = 10 if behind else 0
    set_on(s, 2, red=2, blue=2)
    s, _ = reach(s, "storm_staff")
    if behind:
        assert {m.action for m in R.legal_moves(s, 0)} == {"clear", "done"}
        s, _ = play(s, 0, "clear", at=2)
        assert stones(s, 2) == [0, 0]
    else:
        assert effects.frame(s, 0) is None
        assert stones(s, 2) == [2, 2]
    assert balanced(s)


def test_fortune_stone_sets_a_die_in_phase_one() -> None:
    s = board()
    cid = give(s, 0, "fortune_stone")
    s["players"][0]["dice"] = [1, 2, 3, 4]
    s, _ = play(s, 0, "power", card=cid)
    assert len(R.legal_moves(s, 0)) == 4 * 5 + 1  # every die to every other face, or stop
    assert R.legal_moves(s, 1)  # blue keeps assigning meanwhile: Phase I is simultaneous
    s, _ = play(s, 0, "set", die=2, face=6)
    assert s["players"][0]["dice"] == [1, 6, 3, 4]
    assert cid in s["players"][0]["inactive"]
    assert not any(m.action == "power" for m in R.legal_moves(s, 0))


def test_potion_sets_a_die_after_the_reveal() -> None:
    """The Potion is the rulebook's example of a power tied to Phase I ending at the reveal."""
    s = board()
    s, _ = reach(s, "potion")
    assert s["revealed"] and s["phase"] == 2
    s, _ = play(s, 0, "set", die=3, face=6)  # the Take Stones die now shows 6
    assert s["players"][0]["stones"] == 5 + 6 - 4  # the window closed and the round went on


def test_lucky_talisman_rerolls_chosen_dice_for_free() -> None:
    s = board()
    cid = give(s, 0, "lucky_talisman")
    s["players"][0]["dice"] = [6, 6, 6, 6]
    s["players"][0]["rerolls"] = 0
    s, _ = play(s, 0, "power", card=cid)
    s, _ = play(s, 0, "reroll", dice=[2, 4])
    d = s["players"][0]["dice"]
    assert d[0] == 6 and d[2] == 6
    assert s["players"][0]["rerolls"] == 0
    assert cid in s["players"][0]["inactive"]


def test_tricksters_mirror_swaps_two_action_cards_after_the_reveal() -> None:
    s = board()
    s, _ = reach(s, "tricksters_mirror")
    s, events = play(s, 0, "swap", dice=[1, 3])  # take under die 1 (1), cast1 under die 3 (3)
    assert any("Take Stones now under the 1, Cast 1 Stone under the 3" in e.text for e in events)
    assert s["players"][0]["stones"] == 5 + 1 - 4  # took 1 (die 1), cast 1 + 1 + 2
    assert stones(s, 3)[0] == 1 and stones(s, 1)[0] == 0


def test_characters_score_one_vp_per_character_held() -> None:
    """Using the Powers of Institute Cards: the first Character scores 1, the second 2, and so on."""
    s = board()
    set_on(s, 1, red=3)  # The Apprentice, 3/1
    set_on(s, 2, red=3)  # The Librarian, 3/2
    score = s["players"][0]["score"]
    s = jump(s, "check")
    me = s["players"][0]
    assert me["characters"] == 2
    assert me["score"] == score + 1 + 2
    assert all(card(c).character for c in me["inactive"])


def test_one_time_power_is_spent_and_permanent_power_stays() -> None:
    s = board()
    s, dagger = reach(s, "silver_dagger")
    assert dagger in s["players"][0]["inactive"]
    t = board()
    t, ring = reach(t, "ring_of_influence")
    assert ring in t["players"][0]["active"]


def test_immediate_power_from_the_realm_is_played_in_phase_three() -> None:
    """The Ethereal Realm Card: an immediate power won as an award is played at once, in Phase III."""
    s = board()
    feather = put(s, 5, "phoenix_feather")
    s["slots"][4] = {"kind": "card", "card": s["deck"].pop(0), "stones": [0, 0]}
    s["deck"].insert(0, feather)
    s["realm"] = [3, 0]
    s["supply"][0] -= 3
    put_portal(s, 6, red=1)
    s = jump(s, "portal")
    s, _ = play(s, 0, "portal", to=6)  # the fourth stone: the award must be claimed
    assert s["phase"] == 3
    assert feather in s["players"][0]["inactive"]
    assert {m.action for m in R.legal_moves(s, 0)} == {"place", "done"}
    s, _ = play(s, 0, "place", at=1)
    assert stones(s, 1) == [2, 0]
    assert balanced(s)


def test_no_power_touches_the_portal() -> None:
    """Using the Powers, Important Rule: no power may move stones to or from the Portal."""
    s = board()
    put_portal(s, 3, red=2, blue=2)
    set_on(s, 1, red=1, blue=1)
    s, _ = reach(s, "hourglass")
    spots = {m.get("from") for m in R.legal_moves(s, 0) if m.action == "move"}
    spots |= {m.get("to") for m in R.legal_moves(s, 0) if m.action == "move"}
    assert 3 not in spots and spots
    t = board()
    put_portal(t, 3, blue=2)
    t, _ = reach(t, "silver_dagger")
    assert effects.frame(t, 0) is None  # rival stones only on the Portal: nothing to remove
    assert t["slots"][2]["stones"] == [0, 2]
