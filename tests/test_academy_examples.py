"""Wizard's Academy: the rulebook's remaining examples and glossary clarifications, citing sections."""

from __future__ import annotations

from rules.academy import RULES
from rules.academy.flow import push
from rules.academy.moves import STAFF_LIMIT
from rules.academy.state import adjoining, count_all, neighbour
from rules.academy.threats import toward_cursed
from rules.contract import Move
from tests.academy_helpers import calm, deck, fires, orient, play, settle


def test_an_activation_with_nothing_to_activate_does_nothing() -> None:
    # Play Disaster Card: "Early in the game it is common for 'activate all threats in [room]' cards to
    # be played with no ill effects"; advanced: "If an instruction cannot be carried out ... skip it".
    s = calm()
    before = RULES.copy_state(s)
    push(
        s,
        [
            {"op": "activate_in", "rooms": ["library", "flux_point"], "by": 0},
            {"op": "activate", "what": "fire", "by": 0},
        ],
    )
    settle(s)
    assert s["rooms"] == before["rooms"] and s["room_deck"] == before["room_deck"] and s["mana"] == 5


def test_highest_bound_botch_choice_goes_to_the_current_player() -> None:
    # Play Disaster Card (advanced), SPECIAL: several bound botches of the top level -> the player chooses.
    s = calm(players=2, scenario="golem")
    s["current"] = 1
    s["slots"]["1-4"] = {"spell": "burn", "bound": True}
    s["slots"]["2-4"] = {"spell": "summon_imp", "bound": True}
    s["slots"]["1-1"] = {"spell": "danger", "bound": True}
    push(s, [{"op": "backfire", "by": 1}])
    settle(s)
    assert s["choice"]["seat"] == 1 and sorted(o["value"] for o in s["choice"]["options"]) == ["1-4", "2-4"]


def test_a_random_room_leaves_no_choice() -> None:
    # Play Disaster Card (advanced): "Select a random room, place a darkness token in that room" allows
    # no choice.
    s = calm(scenario="golem")
    deck(s, "zen_room")
    push(s, [{"op": "place", "what": "darkness", "where": "random", "by": 0}])
    settle(s)
    assert s["choice"] is None and s["rooms"]["zen_room"]["darkness"] == 1


def test_a_demon_ignores_a_wizard_in_a_demon_robe() -> None:
    # Robes: "A demon will ignore a wizard with a demon robe; it is not able to kill the wizard, nor will
    # the wizard's presence influence its choice of action."
    s = calm(players=2, scenario="golem")
    orient(s, "hoard", ["n"])
    orient(s, "cursed_room", ["s", "n"])
    orient(s, "planar_rift", ["s"])
    s["wizards"][0].update(room="hoard", robe="demon")
    s["wizards"][1].update(room="planar_rift")
    s["rooms"]["hoard"]["demon"] = 1
    push(s, [{"op": "demon_act", "room": "hoard"}])
    settle(s)
    assert s["wizards"][0]["room"] == "hoard" and s["rooms"]["cursed_room"]["demon"] == 1


def test_a_staff_is_not_offered_past_its_limit() -> None:
    # Staves: "A given staff may not be used more than one hundred and one times in a turn."
    s = calm(scenario="golem")
    slot = next(k for k, v in s["slots"].items() if v["spell"])
    s["wizards"][0]["staff"] = [int(x) for x in slot.split("-")]
    assert Move.of("staff") in RULES.legal_moves(s, 0)
    s["staff_uses"] = STAFF_LIMIT
    assert Move.of("staff") not in RULES.legal_moves(s, 0)


def test_rooms_touching_at_a_corner_are_not_adjacent() -> None:
    # Glossary, Adjacent: "Rooms that only touch corner-to-corner are not considered adjacent."
    s = calm()
    diagonal = s["board"][0]  # the Library, up and left of the crystal
    assert diagonal not in [neighbour(s, "mana_crystal", d) for d in "nesw"]
    assert diagonal not in adjoining(s, "mana_crystal")


def test_the_room_beside_the_board_is_not_in_the_academy() -> None:
    # Glossary, Containing: "The academy does not contain the room placed to one side".
    s = calm(scenario="golem")
    s["rooms"]["outer_dimension"]["fire"] = 1
    assert count_all(s, "fire") == 0 and adjoining(s, "outer_dimension") == []
    push(s, [{"op": "remove", "what": "fire", "where": "academy", "n": "all", "by": 0}])
    settle(s)
    assert s["rooms"]["outer_dimension"]["fire"] == 1


def test_forced_movement_ignores_water_and_haunt() -> None:
    # Glossary, Forced Movement: not randomized by a haunt, not slowed by darkness or water.
    s = calm(scenario="golem")
    orient(s, "masters_study", ["e"])
    s["rooms"]["mana_crystal"].update(haunt=1, darkness=1)
    s["rooms"]["masters_study"]["water"] = 2
    push(s, [{"op": "move_self", "steps": 1, "by": 0}])
    settle(s)
    s2, _ = play(s, 0, "choose", value="masters_study")
    assert s2["wizards"][0]["room"] == "masters_study"
    assert s2["slots_left"] == {"move": True, "room": True, "magic": True}


def test_towards_the_cursed_room_from_inside_it_prefers_new_threats() -> None:
    # Glossary, Towards the Cursed Room: already in the Cursed Room -> the direction making the most
    # new threats; only then do the players choose.
    s = calm()
    orient(s, "cursed_room", ["w", "e", "s"])
    s["rooms"]["mana_crystal"]["fire"] = 0
    s["rooms"]["warded_room"]["fire"] = 1
    s["rooms"]["hoard"]["water"] = 1
    options = toward_cursed(
        s, "cursed_room", lambda r: 0 if s["rooms"][r]["fire"] or s["rooms"][r]["water"] else 1
    )
    assert options == ["w"]  # the crystal: the only room where a fire would be new


def test_fire_spread_towards_the_cursed_room_uses_each_fires_own_route() -> None:
    # Room Cards: "Towards the Cursed Room" sends fire along its shortest route ("even unintelligent
    # threats").
    s = calm()
    orient(s, "hoard", ["n"])
    orient(s, "cursed_room", ["s"])
    s["rooms"]["hoard"]["fire"] = 1
    deck(s, "warded_room")  # a 'towards the Cursed Room' card
    push(s, [{"op": "activate", "what": "fire", "by": 0}])
    settle(s)
    assert fires(s) == {"hoard": 1, "cursed_room": 1}


def test_ice_around_the_crystal_costs_mana_when_it_activates() -> None:
    # The Mana Crystal: "the ice threat can influence the Mana Crystal once it is in all rooms adjoining".
    s = calm(scenario="golem")
    for room in adjoining(s, "mana_crystal"):
        s["rooms"][room]["ice"] = 1
    push(s, [{"op": "activate", "what": "ice", "by": 0}])
    settle(s)
    lost = [e["text"] for e in s["out"] if e["kind"] == "mana"]
    assert any("ice surrounds the crystal" in text for text in lost) and s["mana"] < 5


def test_a_shared_glyph_does_not_pay_for_items() -> None:
    # Share a Glyph: "Other players can use a shared glyph to cast spells, but not to pay other costs."
    s = calm(scenario="golem")
    orient(s, "workshop", ["n"])
    s["wizards"][0].update(room="workshop", glyphs=[1, 2], shared=3, char="myrrin")
    assert Move.of("room", act="wand") not in RULES.legal_moves(s, 0)


def test_a_guardian_stops_only_taking_glyphs() -> None:
    # Take Actions (advanced): "a troll prevents all room actions, whereas a guardian only prevents you
    # from taking glyphs."
    s = calm(scenario="golem")
    orient(s, "library", ["e"])
    orient(s, "flux_point", ["w", "s"])
    s["wizards"][0]["room"] = "library"
    s["rooms"]["library"].update(guardian=1, source=2)
    moves = RULES.legal_moves(s, 0)
    assert Move.of("take") not in moves and any(m.action == "bind" for m in moves)
    s["rooms"]["library"].update(guardian=0, troll=1)
    moves = RULES.legal_moves(s, 0)
    assert Move.of("take") not in moves and not any(m.action == "bind" for m in moves)
