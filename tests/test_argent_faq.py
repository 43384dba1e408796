"""Argent rules in play: the FAQ and the Room Clarifications, the B-side powers, and the rooms' errands."""

from __future__ import annotations

import pytest

from rules.argent.agenda import push_effects
from rules.argent.cards import spell_levels
from rules.argent.effects import grant_mage
from rules.argent.engine import advance, spell_cost
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

# --------------------------------------------------------------------------- FAQ, B sides and errands


def test_faq_own_mages_may_be_banished_and_opponents_healed() -> None:
    """FAQ: you may banish or wound your own mages (unless a card says an opponent's) and heal a rival's."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    mine = give_mage(state, me, "sorcery", "guilds/r2")
    state = run(state, me, [{"banish": {}}])
    assert any("Guilds, slot 2" in text for text in labels(state))
    state = pick(state, "Guilds, slot 2")
    assert state["mages"][mine["id"]]["loc"] == "office"
    # A Sorcery mage: a rival's Blue mage is not affected by my spells (rulebook, Mage powers).
    theirs = give_mage(state, foe, "sorcery", "infirmary/general/0")
    state = run(state, me, [{"heal": {}}])
    state = pick(state, "Heal")
    assert state["mages"][theirs["id"]]["loc"] == "office"


def test_faq_shadowing_mages_are_off_limits() -> None:
    """FAQ: a shadowing mage cannot be banished, wounded or moved by ordinary effects."""
    state = round_one(3)
    me = seat_now(state)
    give_mage(state, (me + 1) % 3, "sorcery", "guilds/r2s")
    state = run(state, me, [{"wound": {}}])
    assert not any("shadow" in text for text in labels(state, me))


def test_faq_adjacent_rooms_are_orthogonal_only() -> None:
    """FAQ: adjacency does not include diagonal rooms."""
    from rules.argent.state import adjacent

    state = round_one(3)  # rows: TF CY CA GU / VA CC LI IN
    assert sorted(adjacent(state, "courtyard")) == sorted(["training_fields", "catacombs", "council_chamber"])
    assert "vault" not in adjacent(state, "courtyard")


def test_faq_the_astronomy_tower_must_be_paid() -> None:
    """FAQ: moving the Astronomy Tower marker must be paid for (the merit slot's first space is free)."""
    state = board_with(round_one(3), "astronomy_tower", "A")
    me = seat_now(state)
    state["seats"][me]["gold"] = 3
    tower = {"via": "room", "room": "astronomy_tower"}
    push_effects(state, me, [{"astronomy": {"pay": "gold", "per_space": 2}}], tower)
    advance(state, [])
    assert [text.split(" for ")[1].split(" Gold")[0] for text in labels(state)] == ["2"]
    state["agenda"] = []
    push_effects(state, me, [{"astronomy": {"pay": "gold", "per_space": 1, "first_space_free": True}}], tower)
    advance(state, [])
    assert labels(state)[0].startswith("Move 1 space for 0 Gold")


def test_faq_benefits_may_be_declined() -> None:
    """FAQ: benefits are never mandatory: a Research may be let go."""
    state = round_one(3)
    me = seat_now(state)
    state = run(state, me, [{"gain": {"research": 1}}])
    int_before = state["seats"][me]["int"]
    state = pick(state, "Let this Research go")
    assert state["seats"][me]["int"] == int_before


def test_b_powers_sorcery_gains_mana_per_mage_in_the_room() -> None:
    """Alternate Mage Powers, Sorcery B: gain 1 Mana per other mage already in the room (at most 3)."""
    state = round_one(3, mage_powers="B")
    me = seat_now(state)
    foe = (me + 1) % 3
    give_mage(state, foe, "divinity", "guilds/m1")
    give_mage(state, foe, "divinity", "guilds/r2")
    give_mage(state, me, "sorcery")
    mana = state["seats"][me]["mana"]
    state = act(state, me, "place", room="guilds")
    state = pick(state, "Place a Sorcery mage in Guilds, slot 3")
    assert state["seats"][me]["mana"] == mana + 2


def test_b_powers_natural_shifts_a_rival_and_takes_its_slot() -> None:
    """Alternate Mage Powers, Natural Magick B: shift an opponent's mage within the room, take its slot."""
    state = round_one(3, mage_powers="B")
    me = seat_now(state)
    foe = (me + 1) % 3
    rival = give_mage(state, foe, "divinity", "guilds/m1")
    give_mage(state, me, "natural_magick")
    state = act(state, me, "place", room="guilds")
    state = pick(state, "Your Natural Magick mage shifts")
    state = pick(state, "Shift it to Guilds, slot 3")
    assert at(state, "guilds/m1")["owner"] == me
    assert state["mages"][rival["id"]]["loc"] == "guilds/r3"


def test_b_powers_planar_pays_to_shadow_a_rival() -> None:
    """Alternate Mage Powers, Planar Studies B: pay 1 Mana to shadow an opponent's mage instead."""
    state = round_one(3, mage_powers="B")
    me = seat_now(state)
    foe = (me + 1) % 3
    give_mage(state, foe, "divinity", "guilds/r2")
    give_mage(state, me, "planar_studies")
    mana = state["seats"][me]["mana"]
    state = act(state, me, "place", room="guilds")
    state = pick(state, "Pay 1 Mana: your Planar Studies mage shadows")
    assert at(state, "guilds/r2s")["owner"] == me
    assert state["seats"][me]["mana"] == mana - 1
    # Planar Studies B cannot be placed as a fast action any more (that is the A power).
    assert not any(m.get("fast") for m in R.legal_moves(state, seat_now(state)))


def test_b_powers_divinity_pays_four_gold_for_a_merit_slot() -> None:
    """Alternate Mage Powers, Divinity B: 4 Gold instead of a Merit Badge for a merit slot."""
    state = round_one(3, mage_powers="B")
    me = seat_now(state)
    give_mage(state, me, "divinity", "guilds/m1")
    state = to_resolution(state)
    assert seat_now(state) == me
    state["seats"][me]["gold"] = 10
    state = pick(state, "Pay 4 Gold instead of a Merit Badge: gain 4 Mana")
    assert state["seats"][me]["gold"] == 6


def test_the_archmages_apprentice_has_every_power() -> None:
    """Room Clarifications, Archmage's Study: the Apprentice has all mage powers (here: fast placement)."""
    state = round_one(3)
    me = seat_now(state)
    state = run(state, me, [{"gain_mage": {"department": "apprentice", "temporary": True}}])
    assert any(m.get("fast") for m in R.legal_moves(state, me))
    state = act(state, me, "place", fast=1)
    state = pick(state, "Place it in Guilds")
    assert any("Archmage's Apprentice" in text for text in labels(state))


def errand_for(state: dict, seat: int) -> dict:
    """Resolve rooms (first choices) until the given seat's errand is asked."""
    for _ in range(200):
        if state["agenda"] and state["agenda"][0].get("kind") == "errand" and seat_now(state) == seat:
            return state
        state = pick(state, "")
    raise AssertionError("the errand never came")


def test_adventuring_a_drawn_spell_is_researched_or_sent_back() -> None:
    """Room Clarifications, Adventuring A: a drawn spell may be researched at once, else it goes back."""
    state = board_with(round_one(3), "adventuring", "A")
    me = seat_now(state)
    give_mage(state, me, "sorcery", "adventuring/r3")
    top = state["decks"]["spell"][0]
    state = errand_for(to_resolution(state), me)
    state = pick(state, "Claim: draw 1 spell")
    state = pick(state, "Put ")
    assert top in state["decks"]["spell"][-4:]  # under the deck (the round's tableau may follow it)
    assert all(s["id"] != top for s in state["seats"][me]["spells"])


def test_adventuring_b_lays_a_card_on_placement_and_drafts_it_at_resolution() -> None:
    """Room Clarifications, Adventuring B: a card laid from any deck when placing, drafted at resolution."""
    state = board_with(round_one(3), "adventuring", "B")
    me = seat_now(state)
    give_mage(state, me, "divinity")
    top = state["decks"]["vault"][0]
    state = act(state, me, "place", room="adventuring")
    state = pick(state, "Divinity mage in Adventuring, slot 2")
    state = pick(state, "Lay the top vault card")
    assert state["board"]["rooms"]["adventuring"]["cards"] == [{"kind": "vault", "id": top}]
    state = errand_for(to_resolution(state), me)
    state = pick(state, "Claim")
    state = pick(state, "Draft")
    assert state["seats"][me]["vaults"][-1]["id"] == top


def test_student_stores_a_sells_a_stat_for_four_gold() -> None:
    """Student Stores A: a Buy may instead purchase 1 INT, 1 WIS or 1 Research for 4 Gold."""
    state = round_one(4)
    me = seat_now(state)
    give_mage(state, me, "sorcery", "student_stores/r3")
    state = errand_for(to_resolution(state), me)
    state["seats"][me]["gold"] = 5
    wis = state["seats"][me]["wis"]
    state = pick(state, "Claim")
    state = pick(state, "Buy 1 WIS for 4 Gold")
    assert state["seats"][me]["wis"] == wis + 1 and state["seats"][me]["gold"] == 1


def test_student_stores_b_cycles_once_without_using_a_buy() -> None:
    """Room Clarifications, Student Stores B: cycle the Vault tableau once for 1 Gold; the Buy remains."""
    state = round_one(4)
    state["board"]["rooms"]["student_stores"]["side"] = "B"
    me = seat_now(state)
    give_mage(state, me, "sorcery", "student_stores/r3")
    state = errand_for(to_resolution(state), me)
    state["seats"][me]["gold"] = 20
    state = pick(state, "Claim")
    before = list(state["tableau"]["vault"])
    state = pick(state, "Pay 1 Gold to clear and refill")
    assert state["tableau"]["vault"] != before and state["seats"][me]["gold"] == 19
    assert not any("refill" in text for text in labels(state))
    assert any(text.startswith("Buy ") for text in labels(state))


def test_astronomy_b_marker_at_the_end_gives_the_last_reward_free() -> None:
    """FAQ: if the Astronomy Tower B marker is at the end, take that reward without paying."""
    state = board_with(round_one(3), "astronomy_tower", "B")
    me = seat_now(state)
    track = len(content_track("astronomy_tower", "B"))
    state["board"]["rooms"]["astronomy_tower"]["marker"] = track - 1
    push_effects(state, me, [{"astronomy": {"pay": "mana", "per_space": 2}}], {"room": "astronomy_tower"})
    advance(state, [])
    assert labels(state) == [labels(state)[0]] and "for free" in labels(state)[0]


def content_track(room: str, side: str) -> list:
    """Return a tower side's track."""
    from rules.argent import content

    return content.room_side(room, side)["track"]


def test_faq_more_than_two_neutral_mages_are_allowed() -> None:
    """FAQ: neutral mages have no power, so more than two may be held."""
    state = round_one(3)
    me = seat_now(state)
    for m in state["mages"]:
        if m["owner"] == me:
            m["type"] = "neutral"
    grant_mage(state, me, "neutral", [])
    assert sum(1 for m in state["mages"] if m["owner"] == me and m["type"] == "neutral") >= 3


def test_faq_an_occupied_shadow_leaves_the_reaction_without_effect() -> None:
    """FAQ: a reaction to slip into the shadow fails if that shadow slot is taken."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    victim = give_mage(state, foe, "divinity", "guilds/r2")
    give_mage(state, (me + 2) % 3, "sorcery", "guilds/r2s")
    state["seats"][foe]["vaults"].append({"id": "phase_steppers", "exhausted": False})
    state = wound_in_guilds(state, me)
    # The reaction could do nothing, so it is not offered: the mage suffers the wound (FAQ).
    assert not any("Phase Steppers" in text for text in labels(state, foe))
    assert state["mages"][victim["id"]]["loc"].startswith("infirmary/")


def test_faq_temporary_mages_stay_temporary_when_swapped() -> None:
    """FAQ: a temporary mage can never become permanent (the Archmage's Study swap refuses it)."""
    state = round_one(3)
    me = seat_now(state)
    state = run(state, me, [{"place": {"mage": "temporary_neutral"}}])
    state = pick(state, "Place in Guilds")
    state = pick(state, "in Guilds")
    temp = next(m for m in state["mages"] if m["owner"] == me and m["temp"])
    push_effects(state, me, [{"swap_mage": {"to": "any"}}], {"mage": temp["id"]})
    advance(state, [])
    assert temp["temp"] and state["mages"][temp["id"]]["owner"] == me
    assert not (state["agenda"] and state["agenda"][0].get("kind") == "swap_mage")


def test_faq_spells_strike_mages_in_turn_order() -> None:
    """FAQ: a spell that hits many mages affects them in turn order (it matters with Infirmary B)."""
    state = round_one(3)
    me = seat_now(state)
    order = [(me + 1) % 3, (me + 2) % 3]
    give_mage(state, order[1], "sorcery", "guilds/m1")
    give_mage(state, order[0], "sorcery", "guilds/r3")
    state = run(state, me, [{"wound": {"scope": "room", "count": "all"}}])
    state = pick(state, "Choose Guilds")
    wounded = [h["owner"] for h in state["harms"] if h["on"] == "wounded"]
    assert wounded == order


def test_reactions_cannot_be_reacted_to() -> None:
    """Reactions: a reaction's own harm opens no new reaction window (but its sympathy still comes)."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    give_mage(state, foe, "divinity", "guilds/r2")
    mine = give_mage(state, me, "mysticism", "courtyard/r2")
    state["seats"][foe]["spells"].append({"id": "wrath_of_heaven", "level": 3, "exhausted": False})
    state["seats"][foe]["mana"] = 5
    state["seats"][me]["vaults"].append({"id": "ancient_armor", "exhausted": False})
    state = wound_in_guilds(state, me)
    assert seat_now(state) == foe
    state = pick(state, "React with Retribution")
    state = pick(state, "Courtyard")
    while state["agenda"] and state["agenda"][0].get("kind") == "select":
        state = pick(state, "Wound")
    assert state["mages"][mine["id"]]["loc"].startswith("infirmary/")
    # Next come the sympathy bonuses, never a reaction to Retribution.
    assert state["agenda"][0]["kind"] != "react"
    assert any("Gain 2 Gold" in text for text in labels(state))


def test_mages_in_the_infirmary_can_be_banished() -> None:
    """Room Clarifications, Infirmary: its mages can be banished, which in effect heals them."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    patient = give_mage(state, foe, "sorcery", "infirmary/general/0")
    state = run(state, me, [{"banish": {}}])
    state = pick(state, "the Infirmary")
    assert state["mages"][patient["id"]]["loc"] == "office"


@pytest.mark.parametrize("spell", ["tsunami", "cataclysm", "planar_disjunction"])
def test_a_room_wide_banish_may_empty_the_infirmary(spell: str) -> None:
    """Room Clarifications, Infirmary: its mages "can be banished", so "every mage in one room" may
    be every mage in the Infirmary; it "can never be locked", so Cataclysm locks nothing there."""
    state = round_one(3)
    me = seat_now(state)
    patients = [give_mage(state, (me + k) % 3, "sorcery", f"infirmary/general/{k}") for k in (0, 1)]
    state = run(state, me, spell_levels()[spell]["effects"])
    state = pick(state, "Choose Infirmary")
    assert [state["mages"][m["id"]]["loc"] for m in patients] == ["office", "office"]
    assert state["board"]["rooms"]["infirmary"]["locked"] is False


def test_cataclysm_on_the_infirmary_says_it_cannot_be_locked() -> None:
    """Room Clarifications, Infirmary: it "can never be locked"; the log says why nothing locks."""
    state = round_one(3)
    me = seat_now(state)
    give_mage(state, (me + 1) % 3, "sorcery", "infirmary/general/0")
    push_effects(state, me, spell_levels()["cataclysm"]["effects"], {"via": "spell"})
    events: list = []
    advance(state, events)
    found = [m for m in R.legal_moves(state, me) if "Infirmary" in R.label(state, me, m)]
    state, said = R.apply(state, me, found[0])
    assert "The Infirmary can never be locked." in [e.text for e in said]


def test_a_shadowing_mage_loses_its_innate_power() -> None:
    """Shadowing: shadowing mages lose their innate powers (a Mysticism B shadow gives no discount)."""
    state = round_one(3, mage_powers="B")
    me = seat_now(state)
    give_mage(state, me, "mysticism", "guilds/r2s")
    assert spell_cost(state, me, {"cost": 3}) == 3
    give_mage(state, me, "mysticism", "guilds/r3")
    assert spell_cost(state, me, {"cost": 3}) == 2


def test_until_your_next_turn_ends_with_the_round() -> None:
    """House ruling: a status lasting until its caster's next turn ends with the round at the latest."""
    state = round_one(3)
    me = seat_now(state)
    state["statuses"].append(
        {"name": "no_placing", "seat": me, "duration": "until_your_next_turn", "amount": 0}
    )
    assert not any(m.action == "place" for m in R.legal_moves(state, me))
    state = to_resolution(state)
    while state["round"] == 1:
        state = pick(state, "")
    assert state["statuses"] == []
    assert any(m.action == "place" for m in R.legal_moves(state, seat_now(state)))


def test_long_choices_are_split_into_steps() -> None:
    """Every decision stays within 25 choices: many mages and many slots ask for the mage first."""
    state = round_one(3)
    me = seat_now(state)
    for m in [m for m in state["mages"] if m["owner"] == me]:
        m["owner"], m["loc"] = None, "supply"
    for kind in ("sorcery", "mysticism", "natural_magick", "planar_studies", "divinity", "neutral"):
        give_mage(state, me, kind)
    state = act(state, me, "place", room="council_chamber")
    assert len(R.legal_moves(state, me)) == 6 and all(t.startswith("Place your") for t in labels(state))
    state = pick(state, "Place your Divinity mage")
    assert len(R.legal_moves(state, me)) == 5
    state = pick(state, "Council Chamber, slot 5")
    assert at(state, "council_chamber/r5")["type"] == "divinity"
