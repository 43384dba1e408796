"""Argent rules in play: turns, mage powers, common effects and resolution (the FAQ: test_argent_faq.py)."""

from __future__ import annotations

import pytest

from rules.argent.effects import grant_mage, wound
from rules.argent.engine import advance, leave, spell_cost
from rules.argent.state import change_ip, merit_free, merit_total
from tests.argent_helpers import (
    R,
    act,
    at,
    board_with,
    give_mage,
    labels,
    pick,
    round_one,
    run,
    seat_now,
    to_resolution,
    wound_in_guilds,
)

# --------------------------------------------------------------------------- turns


def test_one_fast_action_then_one_action() -> None:
    """Errands Phase, Fast Actions: one fast action before the regular one, never two, never after."""
    state = round_one(3)
    me = seat_now(state)
    give_mage(state, me, "planar_studies")
    state = act(state, me, "place", fast=1)
    state = pick(state, "Place it in Guilds")
    state = pick(state, "Planar Studies")
    assert seat_now(state) == me  # the fast action did not use the turn
    assert not any(m.get("fast") for m in R.legal_moves(state, me))
    state = pick(state, "Take the Bell Tower offering Initiative")
    assert seat_now(state) != me


def test_a_bell_tower_card_ends_the_turn_even_with_extra_actions() -> None:
    """5. Take a Bell Tower Card: it ends the turn at once, whatever extra actions remain."""
    state = round_one(3)
    me = seat_now(state)
    state["turn"]["allow"].append({"kinds": ["any"], "no_powers": False, "group": None, "optional": False})
    state = act(state, me, "bell", card="popularity")
    state = pick(state, "Gain 1 IP")
    assert seat_now(state) != me


def test_green_mages_cannot_be_wounded_and_blue_ignore_rival_spells() -> None:
    """1. Place a Mage: Natural Magick mages are never wounded; Divinity mages ignore opponents' spells."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    give_mage(state, foe, "natural_magick", "guilds/r2")
    give_mage(state, foe, "divinity", "guilds/r3")
    state["seats"][me]["spells"].append({"id": "lightning_and_you", "level": 1, "exhausted": False})
    # Bolt: nothing of the foe's can be chosen, so the spell can do nothing and is not offered.
    assert not any(text.startswith("Cast Bolt") for text in labels(state, me))
    # A rival Sorcery mage beside them makes Bolt castable, and only that mage is offered.
    give_mage(state, foe, "sorcery", "guilds/m1")
    state = act(state, me, "cast", spell="lightning_and_you", level=1)
    assert [t for t in labels(state, seat_now(state)) if t.startswith("Wound")] == [
        t for t in labels(state, seat_now(state)) if t.startswith("Wound") and "Sorcery" in t
    ]
    assert at(state, "guilds/r2")["owner"] == foe and at(state, "guilds/r3")["owner"] == foe


def test_blue_mages_are_still_wounded_by_a_sorcery_mage() -> None:
    """1. Place a Mage: Divinity mages are still susceptible to Sorcery mages."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    give_mage(state, foe, "divinity", "guilds/r2")
    give_mage(state, me, "sorcery")
    state = act(state, me, "place", room="guilds")
    assert any("wounds" in text for text in labels(state))


def test_mysticism_mage_is_placed_after_a_normal_spell() -> None:
    """1. Place a Mage: after the Cast a Spell action, a Mysticism mage may be placed."""
    state = round_one(3)
    me = seat_now(state)
    give_mage(state, me, "mysticism")
    state["seats"][me]["spells"].append({"id": "the_pursuit_of_power", "level": 1, "exhausted": False})
    state = act(state, me, "cast", spell="the_pursuit_of_power", level=1)
    assert seat_now(state) == me
    state = pick(state, "Place in Guilds")
    state = pick(state, "Mysticism mage in Guilds")
    assert any(
        m["type"] == "mysticism" and m["owner"] == me for m in state["mages"] if m["loc"].startswith("guilds")
    )


def test_a_fast_spell_does_not_call_the_mysticism_mage() -> None:
    """1. Place a Mage: only Regular Action spells allow the Mysticism placement."""
    state = round_one(3)
    me = seat_now(state)
    give_mage(state, me, "mysticism")
    state["seats"][me]["spells"].append({"id": "the_light_that_leads", "level": 1, "exhausted": False})
    state["seats"][me]["mana"] = 5
    state = act(state, me, "cast", spell="the_light_that_leads", level=1)
    state = pick(state, "Mark voter")
    assert not any("Place in" in text for text in labels(state))


# --------------------------------------------------------------------------- common effects


def test_wounding_an_own_mage_gives_no_sympathy_bonus() -> None:
    """Common Effects, Wounding: candidates who send their own mages to the Infirmary get no bonus."""
    state = round_one(3)
    me = seat_now(state)
    m = give_mage(state, me, "sorcery", "guilds/r2")
    state["harms"] = []
    wound(state, me, m, "spell", [])
    assert state["harms"][0]["bonus"] is False
    foe = (me + 1) % 3
    wound(state, foe, give_mage(state, me, "divinity", "guilds/r3"), "mage", [])
    assert state["harms"][1]["bonus"] is True


def test_infirmary_cannot_be_placed_in_and_its_mages_cannot_be_wounded() -> None:
    """Room Clarifications, Infirmary: no direct placement; mages there cannot be wounded."""
    state = round_one(3)
    me = seat_now(state)
    assert not any("Infirmary" in text for text in labels(state))
    give_mage(state, (me + 1) % 3, "sorcery", "infirmary/general/0")
    state = run(state, me, [{"wound": {}}])
    assert not any("Infirmary" in text for text in labels(state) if "Wound" in text)


def test_banishing_from_the_infirmary_heals() -> None:
    """Room Clarifications, Infirmary: its mages can be banished (in effect, healed)."""
    state = round_one(3)
    me = seat_now(state)
    mine = give_mage(state, me, "sorcery", "infirmary/general/0")
    state = run(state, me, [{"heal": {}}])
    state = pick(state, "Heal")
    assert state["mages"][mine["id"]]["loc"] == "office"


def test_infirmary_b_offers_its_wound_slots() -> None:
    """Room Clarifications, Infirmary B: a wounded mage may lie in an open top slot instead."""
    state = round_one(2)
    me = seat_now(state)
    foe = 1 - me
    victim = give_mage(state, foe, "divinity", "guilds/r2")
    state = wound_in_guilds(state, me)
    assert seat_now(state) == foe
    gold = state["seats"][foe]["gold"]
    state = pick(state, "wound slot 1")
    assert state["mages"][victim["id"]]["loc"] == "infirmary/w1"
    assert state["seats"][foe]["gold"] == gold + 4  # wound slot 1 pays 4 Gold on arrival


def test_locked_rooms_take_no_mage_and_unlock_after_resolution() -> None:
    """Common Effects, Locking: nothing moves into a locked room; it resolves and unlocks at the end."""
    state = round_one(3)
    me = seat_now(state)
    give_mage(state, me, "sorcery", "guilds/r2")
    state["board"]["rooms"]["guilds"]["locked"] = True
    assert "Place a mage in Guilds" not in labels(state)
    state = run(state, me, [{"banish": {}}])
    assert not any("Guilds" in text for text in labels(state) if text.startswith("Banish"))
    state["agenda"] = []
    advance(state, [])
    state = to_resolution(state)
    resolved = []
    while state["round"] == 1:
        if state["agenda"] and state["agenda"][0].get("kind") == "errand":
            resolved.append(state["agenda"][0]["data"]["loc"])
        state = pick(state, "")
    assert "guilds/r2" in resolved
    assert not state["board"]["rooms"]["guilds"]["locked"]


def test_gaining_a_mage_you_cannot_hold_gives_a_neutral_one() -> None:
    """FAQ: a coloured mage you cannot take becomes a neutral mage; never a third of a type."""
    state = round_one(3)
    me = seat_now(state)
    for m in state["mages"]:
        if m["owner"] == me:
            m["type"] = "sorcery" if m["id"] % 2 else "divinity"
    mine = [m for m in state["mages"] if m["owner"] == me]
    for i, m in enumerate(mine):
        m["type"] = ["sorcery", "sorcery", "divinity", "divinity", "mysticism"][i]
    grant_mage(state, me, "sorcery", [])
    kinds = [m["type"] for m in state["mages"] if m["owner"] == me]
    assert kinds.count("sorcery") == 2 and kinds.count("neutral") == 1


def test_no_more_than_seven_mages() -> None:
    """FAQ: never more than 7 permanent mages."""
    state = round_one(3)
    me = seat_now(state)
    for kind in ("neutral", "neutral", "planar_studies"):
        grant_mage(state, me, kind, [])
    assert sum(1 for m in state["mages"] if m["owner"] == me) == 7
    grant_mage(state, me, "neutral", [])
    assert sum(1 for m in state["mages"] if m["owner"] == me) == 7


def test_research_is_lost_without_int_or_wis() -> None:
    """Research: with no INT or WIS available, a Research is lost."""
    state = round_one(3)
    me = seat_now(state)
    state["seats"][me]["int"] = state["seats"][me]["wis"] = 0
    state = run(state, me, [{"gain": {"research": 2}}])
    assert not state["agenda"] or state["agenda"][0]["op"] != "ask"


def test_a_secret_supporter_goes_face_down_into_the_discard() -> None:
    """Common Effects: a Secret Supporter goes straight to the personal discard, face down."""
    state = round_one(3)
    me = seat_now(state)
    top = state["decks"]["supporter"][0]
    state = run(state, me, [{"secret_supporter": {}}])
    assert state["seats"][me]["discard"] == [{"kind": "supporter", "id": top, "secret": True}]


def test_draft_refills_spell_and_vault_tableaus_but_not_supporters() -> None:
    """Common Effects, Draft: spell and vault tableaus refill at once; supporters at the next round."""
    state = round_one(3)
    me = seat_now(state)
    state = run(state, me, [{"draft": {"tableau": "supporter"}}])
    state = pick(state, "Draft")
    assert len(state["tableau"]["supporter"]) == 4
    state = run(state, me, [{"draft": {"tableau": "vault"}}])
    state = pick(state, "Draft")
    assert len(state["tableau"]["vault"]) == 3


# --------------------------------------------------------------------------- resolution


def test_merit_slot_without_a_badge_offers_only_the_consolation_ip() -> None:
    """Resolution: a merit slot needs a Merit Badge; anyone may take 1 IP instead."""
    state = round_one(3)
    me = seat_now(state)
    give_mage(state, me, "sorcery", "guilds/m1")
    state = to_resolution(state)
    assert seat_now(state) == me
    assert merit_free(state, me) == 0 or "Spend a Merit Badge" in " ".join(labels(state))
    if merit_free(state, me) == 0:
        assert [text for text in labels(state)] == ["Take 1 IP instead"]
    ip = state["seats"][me]["ip"]
    state = pick(state, "Take 1 IP instead")
    assert state["seats"][me]["ip"] == ip + 1


def test_shadow_resolves_right_after_its_slot() -> None:
    """Shadowing: a shadowing mage carries out the errand right after the slot's occupant."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    give_mage(state, foe, "sorcery", "guilds/r2")
    give_mage(state, me, "divinity", "guilds/r2s")
    give_mage(state, foe, "mysticism", "guilds/r3")
    state = to_resolution(state)
    order = []
    while state["phase"] == "resolution" and len(order) < 3:
        task = state["agenda"][0]
        order.append(task["data"]["loc"])
        state = pick(state, "Take 1 IP instead")
    assert order == ["guilds/r2", "guilds/r2s", "guilds/r3"]


def test_merit_badges_come_every_seven_ip_and_go_unspent_first() -> None:
    """Merit Badges and the FAQ: a badge at 7 and 14 IP; dropping below loses an unspent one first."""
    state = round_one(3)
    me = seat_now(state)
    base = merit_total(state, me)
    change_ip(state, me, 14 - state["seats"][me]["ip"])
    assert merit_total(state, me) == base + 2
    state["seats"][me]["merit_spent"] = 1
    change_ip(state, me, -1)
    assert merit_total(state, me) == base + 1
    assert state["seats"][me]["merit_spent"] == 1  # the unspent badge went first
    change_ip(state, me, -7)
    assert merit_total(state, me) == base
    assert state["seats"][me]["merit_spent"] == min(1, base)


def test_the_disc_that_moves_goes_on_top_of_the_stack() -> None:
    """Resources, Influence: the player who reached a space last places its disc on top."""
    state = round_one(3)
    a, b = 0, 1
    change_ip(state, a, 2)
    change_ip(state, b, 2)
    assert state["seats"][a]["ip"] == state["seats"][b]["ip"]
    assert state["seats"][a]["ip_time"] < state["seats"][b]["ip_time"]


def test_power_bell_lowers_only_spell_costs() -> None:
    """FAQ: Power reduces the Mana cost of spells only."""
    state = round_one(5)
    me = seat_now(state)
    state["seats"][me]["spells"].append({"id": "the_gift_of_fire", "level": 1, "exhausted": False})
    level = {"cost": 1}
    assert spell_cost(state, me, level) == 1
    state = act(state, me, "bell", card="power")
    assert spell_cost(state, me, level) == 0


def test_mysticism_b_discount_stops_at_one() -> None:
    """FAQ: the Mysticism B discount never takes a spell below 1 Mana on its own."""
    state = round_one(3, mage_powers="B")
    me = seat_now(state)
    give_mage(state, me, "mysticism", "guilds/r2")
    give_mage(state, me, "mysticism", "guilds/r3")
    assert spell_cost(state, me, {"cost": 3}) == 1
    assert spell_cost(state, me, {"cost": 1}) == 1
    state["statuses"].append({"name": "spell_discount", "seat": me, "duration": "this_round", "amount": 1})
    assert spell_cost(state, me, {"cost": 1}) == 0


def test_an_instant_room_pays_at_placement_or_one_ip() -> None:
    """Types of Errands and the FAQ: an immediate errand pays at once; 1 IP may be taken instead."""
    state = board_with(round_one(3), "chapel", "B")
    me = seat_now(state)
    give_mage(state, me, "divinity")
    state = act(state, me, "place", room="chapel")
    state = pick(state, "Divinity mage in Chapel, slot 3")
    assert "Take 1 IP instead" in labels(state)
    state = pick(state, "Claim")
    state = pick(state, "Mark voter")
    state = to_resolution(state)
    assert all(t.get("loc", "").split("/")[0] != "chapel" for t in state["agenda"] if "loc" in t)


def test_great_hall_takes_up_to_three_mages_in_one_action() -> None:
    """Room Clarifications, Great Hall: up to 3 mages in one regular Place a Mage action, +1 IP each."""
    state = board_with(round_one(3), "great_hall", "A")
    me = seat_now(state)
    for kind in ("divinity", "planar_studies"):
        give_mage(state, me, kind)
    ip = state["seats"][me]["ip"]
    state = act(state, me, "place", room="great_hall")
    for _ in range(3):
        state = pick(state, "in Great Hall")
    for _ in range(3):
        state = pick(state, "Claim")
        state = pick(state, "Gain 1 IP")
    assert sum(1 for m in state["mages"] if m["loc"].startswith("great_hall")) == 3
    assert state["seats"][me]["ip"] == ip + 3


def test_archmages_apprentice_is_temporary() -> None:
    """Room Clarifications, Archmage's Study: the Apprentice leaves your service at the round's end."""
    state = round_one(3)
    me = seat_now(state)
    state = run(state, me, [{"gain_mage": {"department": "apprentice", "temporary": True}}])
    apprentice = next(m for m in state["mages"] if m["type"] == "apprentice")
    assert apprentice["owner"] == me
    other = (me + 1) % 3
    state = run(state, other, [{"gain_mage": {"department": "apprentice", "temporary": True}}])
    assert apprentice["owner"] == me  # FAQ: it cannot be taken from its holder
    state = to_resolution(state)
    while state["round"] == 1:
        state = pick(state, "")
    assert next(m for m in state["mages"] if m["type"] == "apprentice")["owner"] is None


@pytest.mark.parametrize(("side", "after"), [("A", 2), ("B", 0)])
def test_astronomy_tower_marker_stays_on_a_and_resets_on_b(side: str, after: int) -> None:
    """Room Clarifications, Astronomy Tower: A's marker stays between rounds; B's resets."""
    state = board_with(round_one(3), "astronomy_tower", side)
    state["board"]["rooms"]["astronomy_tower"]["marker"] = 2
    state = to_resolution(state)
    while state["round"] == 1:
        state = pick(state, "")
    assert state["board"]["rooms"]["astronomy_tower"]["marker"] == after


def test_vault_a_reveals_three_and_occupants_take_in_order() -> None:
    """Room Clarifications, Vault A: three cards revealed, each occupant takes one, the rest go under."""
    state = round_one(3)
    me = seat_now(state)
    give_mage(state, me, "sorcery", "vault/r2")
    top3 = state["decks"]["vault"][:3]
    state = to_resolution(state)
    while not (state["agenda"] and state["agenda"][0].get("kind") == "errand" and seat_now(state) == me):
        state = pick(state, "")
    state = pick(state, "Claim")
    state = pick(state, "Take")
    taken = state["seats"][me]["vaults"][0]["id"]
    assert taken in top3
    rest = list(top3)
    rest.remove(taken)
    deck = state["decks"]["vault"]
    assert all(card in deck[3:] for card in rest)  # the leftovers went under the deck


def test_council_chamber_b_top_slots_never_repeat_a_choice() -> None:
    """Room Clarifications, Council Chamber B: the top three slots cannot pick an effect twice."""
    state = round_one(3)
    state["board"]["rooms"]["council_chamber"]["side"] = "B"
    me = seat_now(state)
    give_mage(state, me, "sorcery", "council_chamber/r2")
    state = to_resolution(state)
    while not (state["agenda"] and state["agenda"][0].get("kind") == "errand" and seat_now(state) == me):
        state = pick(state, "")
    state = pick(state, "Claim")
    first = labels(state)
    state = pick(state, "Gain 1 IP")
    state = pick(state, "Gain 1 IP")  # FAQ: benefits are optional, so the IP itself is offered
    assert "Gain 1 IP" in first and "Gain 1 IP" not in labels(state)


def test_council_chamber_a_holds_one_mage_per_player() -> None:
    """Council Chamber A: a player may have only one mage in the room."""
    state = round_one(3)
    me = seat_now(state)
    give_mage(state, me, "sorcery", "council_chamber/r3")
    assert "Place a mage in Council Chamber" not in labels(state)


def test_a_refresh_never_refreshes_itself() -> None:
    """FAQ: things that refresh cannot refresh themselves."""
    state = round_one(3)
    me = seat_now(state)
    state["seats"][me]["spells"].append({"id": "a_brighter_flame", "level": 2, "exhausted": False})
    state["seats"][me]["mana"] = 9
    # With nothing else exhausted, Kindle could only refresh itself: it is not offered.
    assert not any("Kindle" in text for text in labels(state))
    state["seats"][me]["starter"]["exhausted"] = True
    state = act(state, me, "cast", spell="a_brighter_flame", level=2)
    assert any(text.startswith("Refresh") for text in labels(state))
    assert not any("A Brighter Flame" in text for text in labels(state))


def test_repeating_hex_returns_the_casters_wis() -> None:
    """FAQ: casting Repeating Hex on an upgraded book returns its WIS to the office; research is lost."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    state["seats"][me]["spells"].append({"id": "the_grasping_darkness", "level": 3, "exhausted": False})
    state["seats"][foe]["spells"].append({"id": "the_gift_of_fire", "level": 1, "exhausted": False})
    state["seats"][me]["mana"] = 5
    wis = state["seats"][me]["wis"]
    state = act(state, me, "cast", spell="the_grasping_darkness", level=1)
    state = pick(state, "The Gift of Fire")
    assert state["seats"][me]["wis"] == wis + 2
    assert state["seats"][me]["spells"] == [{"id": "the_gift_of_fire", "level": 1, "exhausted": True}]
    assert state["seats"][foe]["spells"] == [{"id": "the_grasping_darkness", "level": 1, "exhausted": True}]


def test_reacting_out_of_the_infirmary_loses_the_sympathy_bonus() -> None:
    """FAQ: a reaction that keeps a mage out of the Infirmary also forfeits the bonus."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    victim = give_mage(state, foe, "divinity", "guilds/r2")
    state["seats"][foe]["vaults"].append({"id": "phase_steppers", "exhausted": False})
    state = wound_in_guilds(state, me)
    assert seat_now(state) == foe
    state = pick(state, "React with Phase Steppers")
    assert state["mages"][victim["id"]]["loc"] == "guilds/r2s"
    assert not any("Gain 2 Gold" in text for text in labels(state))


def test_ancient_armor_moves_the_wounded_mage_to_an_open_slot() -> None:
    """Reactions: after the action resolves, the wounded player reacts (Ancient Armor)."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    victim = give_mage(state, foe, "divinity", "guilds/r2")
    state["seats"][foe]["vaults"].append({"id": "ancient_armor", "exhausted": False})
    state = wound_in_guilds(state, me)
    assert R.pending(state)[0].kind.value == "reaction"
    state = pick(state, "React with Ancient Armor")
    state = pick(state, "Move it to Courtyard")
    state = pick(state, "Move it to")
    assert state["mages"][victim["id"]]["loc"].startswith("courtyard/")


def test_tardy_places_after_the_last_bell_tower_offering() -> None:
    """Jion Erjon's Tardy: after another player takes the last offering, one more placement."""
    state = round_one(3)
    me = seat_now(state)
    other = (me + 1) % 3
    state["seats"][other]["starter"] = {"id": "tardy", "exhausted": False}
    state["bell"] = ["popularity"]
    state = act(state, me, "bell", card="popularity")
    state = pick(state, "Gain 1 IP")
    assert seat_now(state) == other
    state = pick(state, "React with Tardy")
    state = pick(state, "Place in Guilds")
    state = pick(state, "in Guilds")
    assert any(m["owner"] == other and m["loc"].startswith("guilds/") for m in state["mages"])
    assert state["phase"] == "resolution"


def test_a_leaving_player_is_skipped_and_two_rooms_go_at_round_end() -> None:
    """FAQ: a leaving player picks two rooms (not University Central), removed at the round's end."""
    state = round_one(4)
    me = seat_now(state)
    leave(state, me, ["guilds", "library", "chapel"], [])
    advance(state, [])
    assert seat_now(state) != me
    state = to_resolution(state)
    while state["round"] == 1:
        state = pick(state, "")
    assert "guilds" not in state["board"]["rooms"] and "chapel" not in state["board"]["rooms"]
    assert "library" in state["board"]["rooms"]
    assert me not in [p.seat for p in R.pending(state)]
    assert at(state, "guilds/r2") is None


def test_auric_catalyst_waives_a_gold_cost() -> None:
    """Auric Catalyst: a Gold cost about to be paid becomes 0; the card goes to the discard."""
    state = round_one(3)
    me = seat_now(state)
    state["seats"][me]["vaults"].append({"id": "auric_catalyst", "exhausted": False})
    gold = state["seats"][me]["gold"]
    state = run(state, me, [{"pay": {"gold": 3}}, {"gain": {"ip": 1}}])
    assert R.pending(state)[0].kind.value == "reaction"
    ip = state["seats"][me]["ip"]
    state = pick(state, "React with Auric Catalyst")
    state = pick(state, "Gain 1 IP")
    assert state["seats"][me]["gold"] == gold
    assert state["seats"][me]["ip"] == ip + 1
    assert state["seats"][me]["discard"] == [{"kind": "vault", "id": "auric_catalyst", "secret": False}]


def test_revival_lets_a_wounded_mage_walk_out_and_keep_the_bonus() -> None:
    """Revival: wounded mages may be moved after the wounding action, and the bonus still comes."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    victim = give_mage(state, foe, "divinity", "guilds/r2")
    state["statuses"].append(
        {"name": "own_wounded_may_move", "seat": foe, "duration": "this_round", "amount": 0}
    )
    state = wound_in_guilds(state, me)
    gold = state["seats"][foe]["gold"]
    state = pick(state, "Gain 2 Gold")
    assert state["seats"][foe]["gold"] == gold + 2
    state = pick(state, "Move your wounded mage")
    state = pick(state, "Move it to Courtyard")
    state = pick(state, "Move it to")
    assert state["mages"][victim["id"]]["loc"].startswith("courtyard/")


def test_inversion_places_only_as_shadows() -> None:
    """Inversion: for the rest of the round, place only as a shadow beside opponents or empty slots."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    give_mage(state, foe, "sorcery", "guilds/r2")
    state["statuses"].append({"name": "shadow_only_place", "seat": me, "duration": "this_round", "amount": 0})
    state = act(state, me, "place", room="guilds")
    assert labels(state) and all("the shadow of" in text for text in labels(state))
    state = pick(state, "the shadow of Guilds, slot 2")
    assert at(state, "guilds/r2s")["owner"] == me


def test_a_gained_mark_goes_on_a_voter_not_yet_marked_by_you() -> None:
    """House ruling: one Mark per voter per player; a Mark with nowhere to go is lost."""
    state = round_one(3)
    me = seat_now(state)
    mine = [i for i, v in enumerate(state["voters"]) if me in v["marks"]]
    state = run(state, me, [{"gain": {"mark": 1}}])
    offered = [m.get("voter") for m in R.legal_moves(state, me)]
    assert offered and not set(offered) & set(mine)
    for v in state["voters"]:
        v["marks"] = [me]
    state["agenda"] = []
    state = run(state, me, [{"gain": {"mark": 1}}])
    assert not state["agenda"] or state["agenda"][0]["op"] != "ask"


def test_placing_as_a_shadow_in_an_instant_room_earns_the_errand() -> None:
    """Shadowing (data ruling): a mage placed as a shadow in an instant room gains the slot's reward."""
    state = board_with(round_one(3), "chapel", "B")
    me = seat_now(state)
    foe = (me + 1) % 3
    give_mage(state, foe, "sorcery", "chapel/r3")
    state["seats"][me]["spells"].append({"id": "parallel_synchronicity", "level": 1, "exhausted": False})
    state = act(state, me, "cast", spell="parallel_synchronicity", level=1)
    state = pick(state, "Chapel")
    assert at(state, "chapel/r3s")["owner"] == me
    assert "Take 1 IP instead" in labels(state)


def test_at_seven_mages_a_gained_mage_may_replace_one_at_home() -> None:
    """FAQ: at the 7-mage limit a new mage may be swapped in, keeping 2 of a type at most."""
    state = round_one(3)
    me = seat_now(state)
    for kind in ("neutral", "neutral"):
        grant_mage(state, me, kind, [])
    mine = [m for m in state["mages"] if m["owner"] == me]
    assert len(mine) == 7
    state = run(state, me, [{"gain_mage": {"department": "divinity"}}])
    offered = labels(state)
    assert offered[-1] == "Keep your mages"
    state = pick(state, "Send a Neutral mage home")
    kinds = [m["type"] for m in state["mages"] if m["owner"] == me]
    assert len(kinds) == 7 and "divinity" in kinds


def test_a_new_round_refreshes_cards_merit_tableaus_and_the_bell_tower() -> None:
    """1 - Setup Phase: refresh exhausted cards and badges, re-deal the tableaus, return the offerings."""
    state = round_one(3)
    me = seat_now(state)
    state["seats"][me]["spells"].append({"id": "the_gift_of_fire", "level": 1, "exhausted": True})
    state["seats"][me]["vaults"].append({"id": "mana_crystal", "exhausted": True})
    state["seats"][me]["merit_spent"] = 1
    old_supporters = list(state["tableau"]["supporter"])
    state = act(state, me, "bell", card="initiative")  # Initiative: first player next round
    state = to_resolution(state)
    while state["round"] == 1:
        state = pick(state, "")
    office = state["seats"][me]
    assert not office["spells"][0]["exhausted"] and not office["vaults"][0]["exhausted"]
    assert office["merit_spent"] == 0 and office["bell"] == []
    assert len(state["bell"]) == 3 and len(state["tableau"]["supporter"]) == 5
    assert state["tableau"]["supporter"] != old_supporters
    assert state["first"] == me and seat_now(state) == me
    assert all(m["loc"] in ("office", "supply") for m in state["mages"])


def test_merit_slot_spends_a_badge_that_comes_back_next_round() -> None:
    """Merit slots: exhaust a Merit Badge to claim; badges refresh every round."""
    state = round_one(3)
    me = seat_now(state)
    change_ip(state, me, 7)
    give_mage(state, me, "sorcery", "guilds/m1")
    state = to_resolution(state)
    gold = state["seats"][me]["gold"]
    # The badge and the reward are one choice (the errand offers 8 Gold or another reward); the
    # round then ends at once, and the badge with it comes back.
    assert "Spend a Merit Badge: gain 8 Gold" in labels(state)
    state = pick(state, "Spend a Merit Badge: gain 8 Gold")
    assert state["seats"][me]["gold"] == gold + 8
    assert state["round"] == 2 and state["seats"][me]["merit_spent"] == 0


def test_an_errand_that_is_one_choice_asks_it_once() -> None:
    """Rulebook, 1. Place a Mage (Jen at the Guilds: 6 Gold or 3 Mana): claiming such an errand is
    one choice, so each reward is a claim of its own and no "choose one reward" follows."""
    state = round_one(3)
    me = seat_now(state)
    give_mage(state, me, "divinity")
    state = act(state, me, "place", room="guilds")
    state = pick(state, "Divinity mage in Guilds, slot 2")
    state = to_resolution(state)
    assert seat_now(state) == me
    assert labels(state) == ["Claim: gain 6 Gold", "Claim: gain 3 Mana", "Take 1 IP instead"]
    mana = state["seats"][me]["mana"]
    state = pick(state, "Claim: gain 3 Mana")
    assert state["seats"][me]["mana"] == mana + 3
    assert not any(t.get("seat") == me and t.get("kind") == "choose" for t in state["agenda"])
    assert not any("reward" in label.lower() for label in labels(state, me))
