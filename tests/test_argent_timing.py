"""Round-long statuses on every placement and every spell: Zero Hour, Inversion, Energy Drain.

Card texts (data/argent/spells.json, from shared/cards/argent.md): Zero Hour, "for the rest of the
round your placements may go into the shadow of a rival's mage"; Inversion, "for the rest of the round
you may place only as a shadow of a rival's mage or of an empty slot"; Energy Drain, "this round, each
rival pays you 1 extra Mana for every spell they cast". A placement is any "place a mage" (rulebook,
Common Effects: placing from your office), not only a turn's Place a Mage action; a spell is cast
whether as an action, by another card's effect, or as a reaction (rulebook, Reactions).
"""

from __future__ import annotations

from tests.argent_helpers import R, act, at, give_mage, labels, pick, round_one, run, seat_now, set_turn


def status(state: dict, seat: int, name: str) -> None:
    """Give a seat a round-long status, as its spell would."""
    state["statuses"].append({"name": name, "seat": seat, "duration": "this_round", "amount": 0})


def seats() -> tuple[dict, int, int]:
    """Return a round-one game of three, the seat to act and the next seat."""
    state = round_one(3)
    me = seat_now(state)
    return state, me, (me + 1) % 3


# --------------------------------------------------------------------------- Zero Hour


def test_zero_hour_holds_for_a_placement_granted_by_an_effect() -> None:
    """Zero Hour: an effect's "place a mage" may also go into the shadow of a rival's mage."""
    state, me, foe = seats()
    host = give_mage(state, foe, "sorcery", "guilds/r2")
    status(state, me, "shadow_on_place")
    state = run(state, me, [{"place": {}}])
    state = pick(state, "Place in Guilds")
    assert any("the shadow of Guilds, slot 2" in text for text in labels(state))
    assert any(text.endswith("Guilds, slot 3") for text in labels(state)), "open slots stay open to it"
    state = pick(state, "the shadow of Guilds, slot 2")
    assert at(state, "guilds/r2s")["owner"] == me
    assert any(h["on"] == "shadowed" and h["mage"] == host["id"] and h["by"] == me for h in state["harms"])


def test_zero_hour_opens_a_room_whose_slots_rivals_fill() -> None:
    """Zero Hour: a room with no open slot but a rival's mage with an open shadow takes a placement."""
    state, me, foe = seats()
    for slot in ("m1", "r2", "r3"):
        give_mage(state, foe, "divinity" if slot == "m1" else "neutral", f"guilds/{slot}")
    assert "Place a mage in Guilds" not in labels(state)
    status(state, me, "shadow_on_place")
    assert "Place a mage in Guilds" in labels(state)
    state = act(state, me, "place", room="guilds")
    assert any(text.startswith("Your Sorcery mage shadows P") for text in labels(state))
    assert not any(text.startswith("Place a") for text in labels(state)), "no open slot"


def test_zero_hour_is_no_help_beside_your_own_mage() -> None:
    """Zero Hour names a rival's mage: your own mage's shadow is not offered by it."""
    state, me, _foe = seats()
    give_mage(state, me, "neutral", "guilds/r2")
    status(state, me, "shadow_on_place")
    state = run(state, me, [{"place": {}}])
    state = pick(state, "Place in Guilds")
    assert not any("shadow of Guilds, slot 2" in text for text in labels(state))


# --------------------------------------------------------------------------- Inversion


def test_inversion_holds_for_a_placement_granted_by_an_effect() -> None:
    """Inversion: an effect's placement too goes only beside a rival's mage or an empty slot."""
    state, me, foe = seats()
    give_mage(state, foe, "sorcery", "guilds/r2")
    give_mage(state, me, "neutral", "guilds/r3")
    status(state, me, "shadow_only_place")
    state = run(state, me, [{"place": {}}])
    state = pick(state, "Place in Guilds")
    offered = [t for t in labels(state) if t != "Place nothing"]
    assert offered and all("the shadow of" in t for t in offered)
    assert any("shadow of Guilds, slot 2" in t for t in offered), "beside a rival's mage"
    assert any("shadow of Guilds, slot 1" in t for t in offered), "beside an empty slot"
    assert not any("shadow of Guilds, slot 3" in t for t in offered), "never beside your own mage"


def test_inversion_turns_a_taken_slot_into_its_shadow() -> None:
    """Inversion with Spellblade: the freed slot is empty, so your mage goes into its shadow."""
    state, me, foe = seats()
    victim = give_mage(state, foe, "sorcery", "guilds/r2")
    status(state, me, "shadow_only_place")
    state = run(state, me, [{"wound": {"whose": "opponent", "take_slot": True}}])
    while not any(t.startswith("Put your") for t in labels(state)):
        state = pick(state, "Wound" if any("Wound" in t for t in labels(state)) else "")
    assert "the shadow of Guilds, slot 2" in R.pending(state)[0].text
    state = pick(state, "Put your")
    assert state["mages"][victim["id"]]["loc"].startswith("infirmary")
    assert at(state, "guilds/r2") is None and at(state, "guilds/r2s")["owner"] == me


def test_inversion_leaves_a_room_of_own_mages_closed() -> None:
    """Inversion: a room whose slots are all yours offers no placement at all."""
    state, me, _foe = seats()
    for slot in ("m1", "r2", "r3"):
        give_mage(state, me, "neutral" if slot != "m1" else "divinity", f"guilds/{slot}")
    status(state, me, "shadow_only_place")
    assert "Place a mage in Guilds" not in labels(state)


# --------------------------------------------------------------------------- Energy Drain


def test_energy_drain_charges_a_reaction_spell() -> None:
    """Energy Drain: a rival's Haunt, cast as a reaction, costs its 2 Mana plus 1 to the drainer."""
    state, me, foe = seats()
    victim = give_mage(state, foe, "divinity", "guilds/r2")
    state["seats"][foe]["spells"].append({"id": "the_darkness_within", "level": 2, "exhausted": False})
    state["seats"][foe]["mana"] = 5
    status(state, me, "energy_drain")
    give_mage(state, me, "sorcery")
    state = act(state, me, "place", room="guilds")
    state = pick(state, "wounds")
    mine = state["seats"][me]["mana"]
    state = pick(state, "React with Haunt")
    assert state["seats"][foe]["mana"] == 5 - 2 - 1
    assert state["seats"][me]["mana"] == mine + 1
    assert state["mages"][victim["id"]]["loc"] == "guilds/r2s"


def test_energy_drain_hides_a_reaction_its_toll_makes_unaffordable() -> None:
    """Energy Drain: the toll is part of what a spell costs, so 2 Mana no longer pays for Haunt."""
    state, me, foe = seats()
    give_mage(state, foe, "divinity", "guilds/r2")
    state["seats"][foe]["spells"].append({"id": "the_darkness_within", "level": 2, "exhausted": False})
    state["seats"][foe]["mana"] = 2
    status(state, me, "energy_drain")
    give_mage(state, me, "sorcery")
    state = act(state, me, "place", room="guilds")
    state = pick(state, "wounds")
    assert not any("Haunt" in t for t in labels(state, foe))


def test_energy_drain_charges_a_spell_cast_by_an_effect_even_for_free() -> None:
    """Energy Drain: a spell cast through another card (here free of its cost) still pays the toll."""
    state, me, foe = seats()
    state = set_turn(state, foe)
    state["seats"][foe]["spells"].append({"id": "the_gift_of_fire", "level": 1, "exhausted": False})
    state["seats"][foe]["mana"] = 4
    status(state, me, "energy_drain")
    mine = state["seats"][me]["mana"]
    state = run(state, foe, [{"cast": {"from": "own", "level": "any", "pay": False, "exhaust": False}}])
    state = pick(state, "Cast Firebolt", foe)
    assert state["seats"][foe]["mana"] == 3
    assert state["seats"][me]["mana"] == mine + 1


def test_energy_drain_charges_both_tap_the_well_and_the_spell_it_casts() -> None:
    """Energy Drain: Tap the Well is a spell and so is the tableau spell it casts: two tolls."""
    state, me, foe = seats()
    state = set_turn(state, foe)
    state["seats"][foe]["spells"].append({"id": "thirteen_greater_mysteries", "level": 2, "exhausted": False})
    state["tableau"]["spell"][0] = "the_gift_of_fire"
    state["seats"][foe]["mana"] = 6
    status(state, me, "energy_drain")
    mine = state["seats"][me]["mana"]
    state = act(state, foe, "cast", spell="thirteen_greater_mysteries", level=2)
    state = pick(state, "Cast Firebolt from the tableau", foe)
    assert state["seats"][foe]["mana"] == 6 - (0 + 1) - (1 + 1)
    assert state["seats"][me]["mana"] == mine + 2
    assert R.pending(state)
