"""The "instead" reactions: Haunt, Invisibility Cloak, Phase Steppers, Shield Potion.

Rulebook, Reactions: a reaction is played "as soon as the action it responds to is completely
resolved". The FAQ settles what "instead" then means: a reaction that saves a wounded mage from the
Infirmary forfeits the Infirmary bonus ("If I react to being Wounded in a way that saves me from going
to the Infirmary..."), and with the shadow slot taken the mage suffers the harm after all ("what
happens if that shadow spot is already occupied?"). So the engine undoes the harm after the action
instead of preventing it; these tests show that the outcome is what each card intends (house ruling
in docs/rulings.md).
"""

from __future__ import annotations

from rules.argent.agenda import push, push_effects
from rules.argent.engine import advance
from tests.argent_helpers import R, at, give_mage, labels, pick, round_one, seat_now


def action(state: dict, seat: int, effects: list[dict]) -> dict:
    """Carry out an effect list as the seat's action: the effects, then the reaction window."""
    state["harms"] = []
    push(state, {"op": "after_action", "seat": seat, "mystic": False})
    push_effects(state, seat, effects, {"via": "spell"})
    advance(state, [])
    return state


def answer_until_reaction(state: dict, target: str) -> dict:
    """Pick the mage labelled ``target`` while the actor chooses targets, until a reaction is offered."""
    while R.pending(state)[0].kind.value != "reaction":
        state = pick(state, target)
    return state


def test_haunt_keeps_a_wounded_mage_in_its_slots_shadow_without_the_bonus() -> None:
    """Haunt: the mage "slips into its slot's shadow instead" of the Infirmary: no sympathy bonus."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    victim = give_mage(state, foe, "sorcery", "guilds/r2")
    state["seats"][foe]["spells"].append({"id": "the_darkness_within", "level": 2, "exhausted": False})
    state["seats"][foe]["mana"] = 4
    gold = state["seats"][foe]["gold"]
    state = action(state, me, [{"wound": {"whose": "opponent"}}])
    state = answer_until_reaction(state, "Guilds, slot 2")
    state = pick(state, "React with Haunt")
    assert state["mages"][victim["id"]]["loc"] == "guilds/r2s"
    assert not any(m["loc"].startswith("infirmary") for m in state["mages"] if m["owner"] == foe)
    assert state["seats"][foe]["gold"] == gold and not any("sympathy" in t for t in labels(state, foe))
    # Without the reaction the same wound earns the bonus: the reaction is what took it away.
    again = round_one(3)
    give_mage(again, foe, "sorcery", "guilds/r2")
    again = action(again, me, [{"wound": {"whose": "opponent"}}])
    again = pick(again, "Guilds, slot 2")
    assert any(m["loc"].startswith("infirmary") for m in again["mages"] if m["owner"] == foe)
    assert again["agenda"] and again["agenda"][0]["seat"] == foe, "the bonus waits for its owner"


def test_invisibility_cloak_undoes_a_banishment() -> None:
    """Invisibility Cloak: a banished mage stays on the board, in its slot's shadow."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    victim = give_mage(state, foe, "sorcery", "guilds/r3")
    state["seats"][foe]["vaults"].append({"id": "invisibility_cloak", "exhausted": False})
    state = action(state, me, [{"banish": {"whose": "opponent"}}])
    state = answer_until_reaction(state, "Guilds, slot 3")
    state = pick(state, "React with Invisibility Cloak")
    assert state["mages"][victim["id"]]["loc"] == "guilds/r3s"
    assert state["seats"][foe]["vaults"][-1]["exhausted"], "a treasure is exhausted, not discarded"


def test_phase_steppers_save_a_banished_temporary_mage() -> None:
    """Phase Steppers: a banished temporary neutral goes to its owner's office (rulebook, Banishing);
    the reaction puts it in its slot's shadow instead, still temporary and still its owner's."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    temp = give_mage(state, foe, "neutral", "guilds/r2")
    temp["temp"] = True
    state["seats"][foe]["vaults"].append({"id": "phase_steppers", "exhausted": False})
    state = action(state, me, [{"banish": {"whose": "opponent"}}])
    state = answer_until_reaction(state, "Guilds, slot 2")
    assert (state["mages"][temp["id"]]["loc"], state["mages"][temp["id"]]["owner"]) == ("office", foe)
    state = pick(state, "React with Phase Steppers")
    saved = state["mages"][temp["id"]]
    assert (saved["owner"], saved["loc"], saved["temp"]) == (foe, "guilds/r2s", True)
    assert {"kind": "vault", "id": "phase_steppers", "secret": False} in state["seats"][foe]["discard"]


def test_shield_potion_lets_a_moved_mage_stand_in_any_open_slot() -> None:
    """Shield Potion: instead of where it was moved, the mage goes to any open slot (even its own)."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    victim = give_mage(state, foe, "sorcery", "guilds/r2")
    state["seats"][foe]["vaults"].append({"id": "shield_potion", "exhausted": False})
    state = action(state, me, [{"move": {"whose": "opponent", "to": "same_room"}}])
    state = pick(state, "Guilds, slot 2")
    state = pick(state, "Move it to Guilds, slot 3")
    assert at(state, "guilds/r3")["id"] == victim["id"]
    state = pick(state, "React with Shield Potion")
    state = pick(state, "Move it to Guilds")
    state = pick(state, "Move it to Guilds, slot 2")
    assert state["mages"][victim["id"]]["loc"] == "guilds/r2", "back where it stood, as if never moved"


def test_an_instead_reaction_leaves_a_mage_alone_once_something_else_moved_it() -> None:
    """A replacement answers the harm it names: a mage since healed stays healed, not teleported."""
    state = round_one(3)
    me = seat_now(state)
    foe = (me + 1) % 3
    victim = give_mage(state, foe, "divinity", "guilds/r2")
    trigger = {
        "on": "wounded",
        "mage": victim["id"],
        "owner": foe,
        "by": me,
        "via": "spell",
        "from": "guilds/r2",
        "to": "infirmary/general/0",
        "cost": 0,
    }
    victim["loc"] = "office"  # healed by someone else before the reaction resolved
    push_effects(state, foe, [{"redirect": {"to": "shadow"}}], {"trigger": trigger, "via": "vault"})
    advance(state, [])
    assert state["mages"][victim["id"]]["loc"] == "office"
    assert at(state, "guilds/r2s") is None
