"""Every worked example of the Institute rulebook, as a scenario (section cited on each test).

Seat 0 (red) and seat 1 (blue) stand in for the rulebook's named players.
"""

from __future__ import annotations

from rules.contract import PromptKind
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


def test_becca_takes_four_stones_and_seth_takes_none():
    """Phase II, Step A, "Example: Taking Power Stones"."""
    s = fresh()
    clear_hands(s)
    plan(s, 0, [4, 6, 6, 6], ["take", "cast1", "cast1", "cast1"])  # Becca (casts onto the Portal)
    plan(s, 1, [2, 3, 5, 1], ["cast2", "cast1", "cast1", "cast1"])  # Seth, no Take Stones card
    supply = list(s["supply"])
    s, events = confirm_both(s)
    assert s["supply"][0] == supply[0] - 4  # Becca took 4 from the general supply
    assert s["supply"][1] == supply[1]  # Seth took nothing
    assert s["players"][0]["stones"] == 5 + 4 - 3  # then she cast her three Cast 1 Stone cards
    assert s["step"] == "portal" and s["slots"][5]["stones"][0] == 3
    assert any(e.text == "Red takes 4 Power Stones." for e in events)
    assert balanced(s)


def test_billy_casts_two_stones_at_location_three():
    """Phase II, Step B, "Example: Casting 2 Power Stones"."""
    s = fresh()
    clear_hands(s)
    plan(s, 0, [3, 6, 6, 6], ["cast2", "take", "take", "cast1"])  # Billy: Cast 2 on a die showing 3
    plan(s, 1, [6, 6, 6, 6], ["take", "take", "cast1", "cast1"])
    card3 = s["slots"][2]["card"]
    s, _ = confirm_both(s)
    assert s["slots"][2]["card"] == card3
    assert s["slots"][2]["stones"][0] == 2


def test_anthony_moves_one_stone_to_the_ethereal_realm():
    """Phase III, Method for Declaring One's Option, "Example: Moving Stones to the Ethereal Realm"."""
    s = fresh()
    clear_hands(s)
    put_portal(s, 6, red=3)  # Anthony 3 stones, Steve none
    s = jump(s, "portal")
    prompts = R.pending(s)
    assert [(p.seat, p.kind) for p in prompts] == [(0, PromptKind.TURN)]  # only Anthony decides, openly
    s, _ = play(s, 0, "portal", to=6)  # the Portal's own Location means the Ethereal Realm
    assert s["realm"] == [1, 0]
    assert s["slots"][5]["stones"] == [2, 0]  # the other two stay on the Portal


def test_seamus_and_orion_choose_in_secret_and_reveal_together():
    """Phase III, Method for Declaring One's Option, "Example: Using the Portal" (Portal at Location 4)."""
    s = fresh()
    clear_hands(s)
    put_portal(s, 4, red=2, blue=2)
    target = s["slots"][1]["card"]
    s = jump(s, "portal")
    assert {(p.seat, p.kind) for p in R.pending(s)} == {(0, PromptKind.SECRET), (1, PromptKind.SECRET)}
    s, events = play(s, 0, "portal", to=2)  # Seamus turns his die to 2
    assert all(e.seats == (0,) or "2" not in e.text for e in events)  # the public never learns the 2
    assert R.view(s, 1)["players"][0]["portal_choice"] is None
    assert R.view(s, 1)["players"][0]["portal_chosen"] is True
    assert R.view(s, 0)["players"][0]["portal_choice"] == 2
    assert s["slots"][3]["stones"] == [2, 2]  # nothing moves before both have chosen
    s, _ = play(s, 1, "portal", to=4)  # Orion shows the Portal's Location: 1 stone to the Realm
    assert s["slots"][1]["card"] == target and s["slots"][1]["stones"][0] == 2
    assert s["slots"][3]["stones"] == [0, 1]
    assert s["realm"] == [0, 1]
    assert R.view(s, 1)["players"][0]["portal_choice"] == 2  # revealed now


def test_michael_and_yami_at_the_ethereal_realm():
    """Phase III, The Ethereal Realm Card, "Example: Claiming an Ethereal Realm Award"."""
    s = fresh()
    clear_hands(s)
    s["realm"] = [3, 0]  # Michael (red) has 3 stones on the Realm
    s["supply"][0] -= 3
    put_portal(s, 6, blue=2)  # Yami has 2 on the Portal
    s["players"][0]["rerolls"] = 1
    s = jump(s, "portal")
    s, _ = play(s, 1, "portal", to=6)  # Yami moves 1 stone to the Realm
    assert s["realm"] == [2, 0]  # her stone and one of Michael's go back to the supply
    assert s["slots"][5]["stones"] == [0, 1]
    score, charms = s["players"][0]["score"], s["players"][0]["charms"]
    assert R.pending(s)[0].seat == 0
    s, _ = play(s, 0, "claim")
    me = s["players"][0]
    assert (me["charms"], me["score"], me["rerolls"]) == (charms + 2, score + 2, 3)
    assert s["realm"] == [0, 0]
    assert balanced(s)


def test_steve_and_brown_trigger_permanent_powers_in_number_order():
    """Phase IV, "Example: Triggering Permanent Powers" (#2 and #7 for Steve, #4 for Brown)."""
    s = fresh()
    clear_hands(s)
    give(s, 0, "hourglass")  # #7
    give(s, 0, "mortar_and_pestle")  # #2
    give(s, 1, "scrying_pool")  # #4
    put(s, 1, "apprentice", red=1, blue=1)
    s = jump(s, "phase4")
    first = R.pending(s)[0]
    assert (first.seat, first.kind) == (0, PromptKind.TURN) and "#2" in first.text
    stones, supply = s["players"][0]["stones"], s["supply"][0]
    s["players"][0]["rerolls"] = 0  # so the power's die roll stands at once
    s, _ = play(s, 0, "power", card=s["phase4"]["order"][0])  # Steve pays 1 and uses #2
    placed = sum(x["stones"][0] for x in s["slots"]) - 1  # Mortar and Pestle: take 1, place 1 by die
    assert s["supply"][0] == supply + 1 - 1  # paid 1 to the supply, took 1 from it
    assert s["players"][0]["stones"] == stones - 1 + 1 - placed
    assert R.pending(s)[0].seat == 1 and "#4" in R.pending(s)[0].text
    s, _ = play(s, 1, "decline")  # Brown keeps his stone
    assert R.pending(s)[0].seat == 0 and "#7" in R.pending(s)[0].text
    s, _ = play(s, 0, "decline")
    assert (s["round"], s["phase"]) == (2, 1)  # Phase IV ended and the round ran out without a win


def test_chris_and_andre_in_phase_five():
    """Phase V, the example of checking Locations 1-3 (Broken Wand, Crystal Ball, Ring of Influence)."""
    s = fresh()
    clear_hands(s)
    put(s, 1, "broken_wand", red=1)  # Cost 3, Surpass 1: Chris has 1
    put(s, 2, "novice_crystal_ball", red=6, blue=4)  # Cost 4, Surpass 3: both meet Cost, no Surpass
    ring = put(s, 3, "ring_of_influence", red=5, blue=2)  # Chris meets both
    put(s, 4, "apprentice")
    put(s, 5, "librarian")
    score = s["players"][0]["score"]
    s = jump(s, "check")
    assert ring in s["players"][0]["active"]
    assert s["players"][0]["score"] == score + 1
    assert s["round"] == 2  # the round ended and the board was refilled
    assert s["slots"][0]["stones"] == [1, 0]  # Broken Wand stays with its stone
    assert s["slots"][1]["stones"] == [6, 4]
    assert balanced(s)


def test_a_location_already_checked_is_not_checked_again():
    """Additional Rules for Phase V, first point (Becca's power lands on Location 1 after it was checked)."""
    s = fresh()
    clear_hands(s)
    wand = put(s, 1, "broken_wand", red=2)  # one short of its Cost of 3
    put(s, 3, "phoenix_feather", red=5)  # immediate: put 2 stones on a card
    s = jump(s, "check")
    assert R.pending(s)[0].seat == 0
    s, _ = play(s, 0, "place", at=1)
    assert s["slots"][0]["card"] == wand and s["slots"][0]["stones"][0] == 4  # meets it now, too late
    assert wand not in s["players"][0]["active"]
    assert s["round"] == 2


def test_the_new_round_shift():
    """Ending a Round, "Example: Preparing for a New Round" (cards won at 2 and 4, Portal at 3)."""
    s = fresh()
    clear_hands(s)
    a = put(s, 1, "apprentice")
    put(s, 2, "librarian", red=3)  # Cost 3, Surpass 2: red wins
    put_portal(s, 3)
    put(s, 4, "herbalist", blue=4)  # Cost 4, Surpass 1: blue wins
    e = put(s, 5, "groundskeeper")
    f = put(s, 6, "astronomer")
    top = s["deck"][:2]
    s = jump(s, "check")
    kinds = [slot["kind"] for slot in s["slots"]]
    assert kinds == ["card", "portal", "card", "card", "card", "card"]
    assert [slot["card"] for slot in s["slots"]] == [a, None, e, f, *top]


def test_the_portal_wraps_from_one_to_six_and_its_stones_return():
    """Shifting the Portal, and its Important Rule: stones on it go back to the general supply."""
    s = fresh()
    clear_hands(s)
    put(s, 1, "librarian", red=3)  # won this round, so Location 1 empties
    put_portal(s, 2, red=2, blue=1)
    keys = ((3, "apprentice"), (4, "herbalist"), (5, "alchemist"), (6, "astronomer"))
    c3, c4, c5, c6 = (put(s, i, k) for i, k in keys)
    top = s["deck"][0]
    supply = list(s["supply"])
    s = jump(s, "check")
    assert [slot["card"] for slot in s["slots"]] == [c3, c4, c5, c6, top, None]
    assert s["slots"][5]["kind"] == "portal" and s["slots"][5]["stones"] == [0, 0]
    assert s["supply"] == [supply[0] + 3 + 2, supply[1] + 1]
    assert balanced(s)
