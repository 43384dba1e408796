"""Wizard's Academy, the basic game: every rule and worked example of the rulebook, citing its section."""

from __future__ import annotations

import pytest

from bots.games.academy_paths import Mind
from rules.academy import RULES
from rules.academy.events import AcademyEvent
from rules.academy.flow import push
from rules.academy.setup import BASIC_DECK, BASIC_L1, BASIC_L2, BASIC_PROGRESSION
from rules.academy.state import adjoining, all_reachable, distances, slot_level
from rules.academy.threats import place
from rules.contract import IllegalMove, Move
from tests.academy_helpers import calm, deck, fires, game, give_pair, orient, play, settle, slot_of, wall

# --------------------------------------------------------------------------- Setup (basic game)


@pytest.mark.parametrize("seed", range(1, 9))
def test_setup_every_room_is_reachable_from_the_crystal(seed: int) -> None:
    # Setup: "if there is a room that cannot be reached from the Mana Crystal ... rotate ... until all can".
    s = game(3, seed=seed)
    assert all_reachable(s)
    assert "lost_room" not in s["board"] and "outer_dimension" in s["board"]


def test_setup_sources_guardians_spells_decks_and_mana() -> None:
    # Setup: sources 1-5 on drawn rooms (never the Cursed Room), guardians on 4 and 5, the listed
    # spells face-down on levels 1 and 2, the disaster and progression decks, five mana, one card each.
    s = game(4, seed=3)
    sources = {c["source"]: r for r, c in s["rooms"].items() if c["source"] is not None}
    assert sorted(sources) == [1, 2, 3, 4, 5] and "cursed_room" not in sources.values()
    assert {g for g in sources if s["rooms"][sources[g]]["guardian"]} == {4, 5}
    placed = {
        lvl: sorted(v["spell"] for k, v in s["slots"].items() if v["spell"] and slot_level(k) == lvl)
        for lvl in (1, 2)
    }
    assert placed == {1: sorted(BASIC_L1), 2: sorted(BASIC_L2)}
    assert not any(v["spell"] for k, v in s["slots"].items() if slot_level(k) > 2)
    assert not any(v["bound"] for v in s["slots"].values())
    assert sorted(s["disaster_deck"] + s["disaster_discard"] + [h for h in s["hands"] if h]) == sorted(
        BASIC_DECK
    )
    assert sorted(s["progression"]) == sorted(BASIC_PROGRESSION)
    assert s["mana"] <= 5 and all(w["room"] == "mana_crystal" for w in s["wizards"])
    assert len(s["room_discard"]) >= 5  # the five source cards stay in the discards


def test_setup_characters_have_schools() -> None:
    # Setup: "Use only characters with specialist schools for the basic game."
    for seed in range(1, 6):
        s = game(6, seed=seed)
        assert "pip" not in [w["char"] for w in s["wizards"]]


# --------------------------------------------------------------------------- Take three actions


def test_move_into_an_adjoining_room_only() -> None:
    # Take Three Actions / Glossary (Adjacent, Adjoining): a wall on either tile blocks.
    s = calm()
    wall(s, "flux_point", "s")  # the Flux Point lies north of the crystal
    assert "flux_point" not in adjoining(s, "mana_crystal")
    with pytest.raises(IllegalMove):
        play(s, 0, "move", room="flux_point")
    orient(s, "masters_study", ["e"])
    s2, _ = play(s, 0, "move", room="masters_study")
    assert s2["wizards"][0]["room"] == "masters_study" and s2["left"] == 2


def test_water_costs_an_extra_action_and_a_move_without_one_is_wasted() -> None:
    # Take Three Actions, MOVE ACTION: water takes an additional action; with none left the move is wasted.
    s = calm()
    orient(s, "masters_study", ["e"])
    s["rooms"]["masters_study"]["water"] = 1
    s2, _ = play(s, 0, "move", room="masters_study")
    assert s2["wizards"][0]["room"] == "masters_study" and s2["left"] == 1
    s["left"] = 1
    s3, events = play(s, 0, "move", room="masters_study")
    assert s3["wizards"][0]["room"] == "mana_crystal"
    assert any(e.kind == "wasted" for e in events)


def test_take_glyph_needs_a_source_without_a_guardian() -> None:
    # ROOM ACTION: Take Glyph.
    s = calm()
    s["rooms"]["mana_crystal"]["source"] = 2
    s2, _ = play(s, 0, "take")
    assert s2["wizards"][0]["glyphs"] == [2]
    s["rooms"]["mana_crystal"]["guardian"] = 1
    assert Move.of("take") not in RULES.legal_moves(s, 0)


def _library(s: dict) -> None:
    s["wizards"][0]["room"] = "library"


def test_bind_right_stays_face_up_and_may_go_on() -> None:
    # ROOM ACTION: Bind Spells: a correct name binds the spell and the wizard may bind again.
    s = calm()
    _library(s)
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "nova")
    s2, _ = play(s, 0, "bind", slot=slot, spell="nova")
    assert s2["slots"][slot]["bound"] and s2["binding"] and s2["left"] == 2
    other = next(k for k, v in s2["slots"].items() if v["spell"] == "dash")
    s3, _ = play(s2, 0, "bind", slot=other, spell="dash")
    assert s3["slots"][other]["bound"] and s3["left"] == 2  # the same action
    s4, _ = play(s3, 0, "stop")
    assert not s4["binding"] and s4["left"] == 2


def test_bind_wrong_shuffles_that_level_and_costs_a_mana() -> None:
    # Bind Spells: a wrong name turns it back, shuffles that level's unbound spells, costs a mana.
    s = calm()
    _library(s)
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "abjure")
    bound = next(k for k, v in s["slots"].items() if v["spell"] == "snuff")
    s["slots"][bound]["bound"] = True
    level1 = {k: v["spell"] for k, v in s["slots"].items() if slot_level(k) == 1}
    s2, _ = play(s, 0, "bind", slot=slot, spell="burn")
    assert not s2["slots"][slot]["bound"] and s2["mana"] == 4 and not s2["binding"]
    assert s2["slots"][bound]["spell"] == "snuff"  # bound spells are not shuffled
    assert {k: v["spell"] for k, v in s2["slots"].items() if slot_level(k) == 1} == level1
    assert sorted(v["spell"] for k, v in s2["slots"].items() if slot_level(k) == 2) == sorted(BASIC_L2)


def test_bind_wrong_tells_the_shuffled_level_as_data_and_the_bots_forget_it() -> None:
    # Bind Spells: a wrong name shuffles that level; the event says which level in its data, so a
    # bot's memory forgets it without reading the sentence.
    s = calm()
    _library(s)
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "abjure")
    s2, events = play(s, 0, "bind", slot=slot, spell="burn")
    shuffle = next(e for e in events if e.kind == AcademyEvent.SHUFFLE)
    assert shuffle.data == {"level": slot_level(slot)}
    other = next(k for k in s["slots"] if slot_level(k) != slot_level(slot))
    mind = Mind()
    mind.known = {slot: "abjure", other: "snuff"}
    mind.observe(RULES.view(s2, 0), [shuffle])
    assert mind.known == {other: "snuff"}


def test_bind_wrong_with_the_last_mana_loses() -> None:
    # Bind Spells: "If this was your last mana token then the players have lost."
    s = calm()
    _library(s)
    s["mana"] = 1
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "abjure")
    s2, _ = play(s, 0, "bind", slot=slot, spell="burn")
    assert s2["over"] and not s2["won"] and RULES.result(s2).winners == ()


def test_cast_spends_two_own_glyphs_reveals_then_hides_an_unbound_spell() -> None:
    # MAGIC ACTION: Expend Glyphs, Reveal Spell, Resolve, Hide Spell.
    s = calm()
    a, b = give_pair(s, 0, "dash")
    s2, _ = play(s, 0, "cast", a=a, b=b)
    assert s2["wizards"][0]["glyphs"] == []
    assert s2["reveal"]["spell"] == "dash"
    assert s2["choice"] is not None  # Dash asks where to go
    assert not s2["slots"][f"{a}-{b}"]["bound"]


def test_cast_with_another_wizards_glyph_needs_their_consent() -> None:
    # Expend Glyphs: one glyph may come from another wizard, with their permission; never two.
    s = calm(players=2)
    a, b = (int(x) for x in slot_of(s, "philanthropy").split("-"))
    s["wizards"][0]["glyphs"] = [a]
    s["wizards"][1]["glyphs"] = sorted([b, a])
    s["wizards"][1]["room"] = "library"  # not in the same room: still allowed
    move = Move.of("cast", a=a, b=b, helper=1)
    assert move in RULES.legal_moves(s, 0)
    empty = RULES.copy_state(s)
    empty["wizards"][0]["glyphs"] = []
    assert not any(m.action == "cast" for m in RULES.legal_moves(empty, 0))  # never two from another wizard
    s2, _ = RULES.apply(s, 0, move)
    assert RULES.waiting_on(s2) == [1] and s2["wizards"][1]["glyphs"] == sorted([a, b])
    declined, _ = play(s2, 1, "consent", ok=False)
    assert declined["wizards"][1]["glyphs"] == sorted([a, b]) and declined["left"] == 3
    accepted, _ = play(s2, 1, "consent", ok=True)
    assert accepted["wizards"][1]["glyphs"] == [a] and accepted["wizards"][0]["glyphs"] == []
    assert accepted["left"] == 2


def test_a_bound_spell_stays_face_up_after_a_cast() -> None:
    # Hide Spell: "Otherwise, leave it face-up."
    s = calm()
    a, b = give_pair(s, 0, "danger")
    s["slots"][f"{a}-{b}"]["bound"] = True
    s2, _ = play(s, 0, "cast", a=a, b=b)
    assert s2["slots"][f"{a}-{b}"]["bound"] and s2["rooms"]["mana_crystal"]["imp"] == 1


def test_boost_by_the_casters_school_or_the_rooms_icon() -> None:
    # Boost Spell: the icon matches the caster's school or an icon on their room.
    from rules.academy.casting import boosted

    s = calm()
    s["wizards"][0]["char"] = "myrrin"  # elementalism
    assert boosted(s, "snuff", 0) and not boosted(s, "abjure", 0)
    s["wizards"][0]["room"] = "holy_room"  # sanctuary icon
    assert boosted(s, "abjure", 0)
    assert not boosted(s, "danger", 0)  # a spell with no school is never boosted


def test_damage_kills_an_imp_or_a_guardian() -> None:
    # Resolve Spell: "choose an imp or guardian within range and remove it".
    s = calm()
    s["rooms"]["mana_crystal"].update(imp=1)
    s["rooms"]["mana_crystal"]["guardian"] = 0
    a, b = give_pair(s, 0, "nova")
    s2, _ = play(s, 0, "cast", a=a, b=b)
    assert s2["rooms"]["mana_crystal"]["imp"] == 0


# --------------------------------------------------------------------------- Disasters and decks


def test_drawing_from_an_empty_deck_adds_two_progression_cards_to_the_discards() -> None:
    # Draw Disaster Card: empty deck -> two progression cards join the discards, shuffled into a new deck.
    s = calm()
    s["disaster_deck"] = []
    s["disaster_discard"] = ["activate_threats_1", "activate_threats_2"]
    s["progression"] = ["twist", "fire", "gathering"]
    push(s, [{"op": "draw_disaster"}])
    settle(s)
    assert s["refills"] == 1 and s["progression"] == ["gathering"]
    assert sorted([*s["disaster_deck"], s["hands"][0]]) == sorted(
        ["activate_threats_1", "activate_threats_2", "twist", "fire"]
    )


def test_both_decks_empty_is_a_loss() -> None:
    # Draw Disaster Card: "If the progression deck is also empty then the academy crumbles."
    s = calm()
    s["disaster_deck"], s["progression"] = [], []
    push(s, [{"op": "draw_disaster"}])
    settle(s)
    assert s["over"] and not s["won"]


def test_the_drawn_card_is_played_next_turn() -> None:
    # Play (Basic Game): play the card drawn last turn, then draw the next.
    s = calm(players=2)
    s["hands"] = ["twist", "fire"]
    s2, events = play(s, 0, "end")
    assert s2["current"] == 1 and s2["hands"][1] is not None and s2["hands"][1] != "fire"
    assert "fire" in s2["disaster_discard"]
    assert any(e.kind == "disaster" and e.data.get("card") == "fire" for e in events)


def test_activate_threats_example_an_imp_moves_once() -> None:
    # Disasters, example: "An imp in the Cursed Room activates and moves to the Warded Room; it is not
    # activated again."
    s = calm()
    orient(s, "cursed_room", ["e"])
    orient(s, "warded_room", ["w", "s"])
    s["rooms"]["cursed_room"]["imp"] = 1
    deck(s, "library", "library")  # arrows n, e, s, w: north is walled for neither? east first that adjoins
    s["rot"]["cursed_room"] = next(r for r in range(4) if _only_east_open(s, r))
    push(s, [{"op": "activate_in", "rooms": ["cursed_room", "warded_room"], "by": 0}])
    settle(s)
    assert s["rooms"]["warded_room"]["imp"] == 1 and s["rooms"]["cursed_room"]["imp"] == 0
    assert len([c for c in s["room_discard"] if c == "library"]) == 1  # one card: one activation


def _only_east_open(s: dict, rot: int) -> bool:
    from rules.academy.cards import rooms

    doors = rooms()["cursed_room"]["doors"]
    north = doors[(0 - rot) % 4]
    east = doors[(1 - rot) % 4]
    return east and not north


def test_activate_threats_example_a_fire_in_both_rooms_activates_once() -> None:
    # Disasters, example: "A fire that is in both the Cursed and Warded Rooms will only be activated once."
    s = calm()
    orient(s, "cursed_room", ["e"])
    orient(s, "warded_room", ["w"])
    assert "warded_room" in adjoining(s, "cursed_room")
    s["rooms"]["cursed_room"]["fire"] = 1
    s["rooms"]["warded_room"]["fire"] = 1
    before = len(s["room_discard"])
    push(s, [{"op": "activate_in", "rooms": ["cursed_room", "warded_room"], "by": 0}])
    settle(s)
    assert len(s["room_discard"]) == before + 1  # one fire activation, one room card


def test_wildfire_example_two_paragraphs_activate_fire_twice() -> None:
    # Disasters, example: Wildfire's two "Activate fire" paragraphs activate every fire twice.
    s = calm()
    deck(s, "masters_study", "holy_room", "holy_room")  # portal room; then arrow 1 = west, twice
    orient(s, "masters_study", ["n"])
    s["rooms"]["workshop"]["fire"] = 1
    orient(s, "workshop", ["w"])
    orient(s, "awakened_room", ["e", "w"])
    before = len(s["room_discard"])
    wildfire = [{"op": "place", "what": "portal", "type": "fire", "where": "random"}]
    wildfire += [{"op": "activate", "what": "fire"}] * 2
    push(s, [dict(op, by=0) for op in wildfire])
    settle(s)
    assert len(s["room_discard"]) == before + 3
    assert "fire" in s["rooms"]["masters_study"]["portals"]
    assert s["rooms"]["awakened_room"]["fire"] == 1  # spread west once, then on again
    assert s["rooms"]["workshop"]["fire"] == 1


def test_wild_magic_shuffles_only_unbound_spells_of_its_level() -> None:
    # Play Disaster Card, SPECIAL: Wild Magic shuffles the unbound spells of the level and deals them back.
    s = calm()
    keep = slot_of(s, "abjure")
    s["slots"][keep]["bound"] = True
    level1 = {k: v["spell"] for k, v in s["slots"].items() if slot_level(k) == 1}
    changed = False
    for i in range(6):
        t = calm()
        t["slots"] = {k: dict(v) for k, v in s["slots"].items()}
        t["rng"] = 1000 + i
        push(t, [{"op": "wild", "level": 2, "by": 0}])
        settle(t)
        assert t["slots"][keep]["spell"] == "abjure"
        assert {k: v["spell"] for k, v in t["slots"].items() if slot_level(k) == 1} == level1
        changed |= any(t["slots"][k]["spell"] != s["slots"][k]["spell"] for k in t["slots"])
    assert changed


# --------------------------------------------------------------------------- Threats (basic game)


def test_imp_robs_a_wizard_in_its_room_and_douses_a_token() -> None:
    # Imps, ACTIVATION, first situation.
    s = calm()
    s["rooms"]["mana_crystal"].update(imp=1, water=1)
    s["wizards"][0]["glyphs"] = [1, 3]
    push(s, [{"op": "imp_act", "room": "mana_crystal"}])
    settle(s)
    assert s["choice"]["seat"] == 0  # the wizard picks which glyph
    s2, _ = play(s, 0, "choose", value=3)
    assert s2["wizards"][0]["glyphs"] == [1] and s2["rooms"]["mana_crystal"]["water"] == 0


def test_imp_at_a_glyph_source_drains_every_wizard_then_leaves() -> None:
    # Imps, ACTIVATION, second situation.
    s = calm(players=2)
    s["rooms"]["hoard"].update(imp=1, source=2, fire=1)
    s["wizards"][0]["glyphs"] = [2, 2]
    push(s, [{"op": "imp_act", "room": "hoard"}])
    settle(s)
    assert s["wizards"][0]["glyphs"] == [2] and s["rooms"]["hoard"]["fire"] == 0
    s["wizards"][0]["glyphs"] = []
    push(s, [{"op": "imp_act", "room": "hoard"}])
    settle(s)
    assert s["rooms"]["hoard"]["imp"] == 0  # nothing left to steal: it leaves the board


def test_imp_wanders_by_the_lowest_arrow_that_leads_to_an_adjoining_room() -> None:
    # Imps, ACTIVATION, third situation; Room Cards: "use the lowest number that indicates an appropriate
    # direction".
    s = calm()
    s["rooms"]["hoard"]["imp"] = 1
    wall(s, "hoard", "s")  # library card: n, e, s, w
    orient(s, "cursed_room", ["s"])
    deck(s, "library")
    if "cursed_room" not in adjoining(s, "hoard"):
        orient(s, "hoard", ["n"])
    push(s, [{"op": "imp_act", "room": "hoard"}])
    settle(s)
    assert s["rooms"]["cursed_room"]["imp"] == 1


def test_imp_endure_takes_a_glyph_and_douses() -> None:
    # Imps, ENDURE.
    s = calm()
    s["rooms"]["mana_crystal"].update(imp=1)
    s["wizards"][0]["glyphs"] = [4]
    s2, _ = play(s, 0, "end")
    assert s2["wizards"][0]["glyphs"] == []


def test_one_imp_in_the_crystal_does_nothing_two_cost_mana() -> None:
    # Imps, ATTACK.
    s = calm()
    place(s, "mana_crystal", "imp")
    assert s["rooms"]["mana_crystal"]["imp"] == 1 and s["mana"] == 5
    place(s, "mana_crystal", "imp", 2)
    assert s["rooms"]["mana_crystal"]["imp"] == 0 and s["mana"] == 3  # three imps: two mana


def test_fire_and_water_interactions() -> None:
    # Fire: two fires become one; fire and water together: the fire goes. Water: a third token is removed.
    s = calm()
    place(s, "hoard", "fire", 2)
    assert s["rooms"]["hoard"]["fire"] == 1
    place(s, "hoard", "water")
    assert s["rooms"]["hoard"]["fire"] == 0
    place(s, "hoard", "fire")
    assert s["rooms"]["hoard"]["fire"] == 0
    place(s, "hoard", "water", 2)
    assert s["rooms"]["hoard"]["water"] == 2


def test_fire_spreads_by_arrow_one_and_a_wall_stops_it() -> None:
    # Fire, ACTIVATION: arrow "1" only; "unlike imps, it ... does not change direction when faced with a
    # wall".
    s = calm()
    s["rooms"]["hoard"]["fire"] = 1
    wall(s, "hoard", "n")
    deck(s, "library")  # arrow 1: north
    push(s, [{"op": "activate", "what": "fire", "by": 0}])
    settle(s)
    assert fires(s) == {"hoard": 1}
    orient(s, "hoard", ["n"])
    orient(s, "cursed_room", ["s"])
    deck(s, "library")
    push(s, [{"op": "activate", "what": "fire", "by": 0}])
    settle(s)
    assert fires(s) == {"hoard": 1, "cursed_room": 1}


def test_fire_activation_chains_through_adjoining_fires() -> None:
    # Fire, ACTIVATION: fires in adjoining rooms activate too, all with the same card.
    s = calm()
    orient(s, "hoard", ["n", "e"])
    orient(s, "observatory", ["w", "n"])
    orient(s, "cursed_room", ["s"])
    orient(s, "warded_room", ["s"])
    s["rooms"]["hoard"]["fire"] = 1
    s["rooms"]["observatory"]["fire"] = 1
    assert "observatory" in adjoining(s, "hoard")
    deck(s, "library")  # arrow 1: north
    push(s, [{"op": "activate_in", "rooms": ["observatory"], "by": 0}])
    settle(s)
    assert fires(s) == {"hoard": 1, "observatory": 1, "cursed_room": 1, "warded_room": 1}


def test_fire_endure_costs_a_mana_and_offers_a_teleport() -> None:
    # Fire, ENDURE.
    s = calm()
    s["wizards"][0]["room"] = "hoard"
    s["rooms"]["hoard"]["fire"] = 1
    s2, _ = play(s, 0, "end")
    assert s2["choice"] is not None and s2["choice"]["seat"] == 0
    s3, _ = play(s2, 0, "choose", value=True)
    assert s3["mana"] == 4 and s3["wizards"][0]["room"] == "mana_crystal"


def test_deep_water_endure_costs_a_mana_shallow_does_not() -> None:
    # Water, ENDURE: deep water (two tokens) only.
    s = calm()
    s["wizards"][0]["room"] = "hoard"
    s["rooms"]["hoard"]["water"] = 1
    s2, _ = play(s, 0, "end")
    assert s2["mana"] == 5 and s2["choice"] is None
    s["rooms"]["hoard"]["water"] = 2
    s3, _ = play(s, 0, "end")
    s4, _ = play(s3, 0, "choose", value=False)
    assert s4["mana"] == 4 and s4["wizards"][0]["room"] == "hoard"


def test_fire_reaching_the_crystal_takes_its_joined_fires_one_mana_per_three() -> None:
    # Fire, ATTACK.
    s = calm()
    orient(s, "cursed_room", ["w", "e"])
    orient(s, "warded_room", ["w"])
    for r in ("cursed_room", "warded_room"):
        s["rooms"][r]["fire"] = 1
    place(s, "mana_crystal", "fire")
    assert fires(s) == {} and s["mana"] == 4  # three tokens: one mana


def test_water_reaching_the_crystal_one_mana_per_six() -> None:
    # Water, ATTACK.
    s = calm()
    orient(s, "cursed_room", ["w"])
    s["rooms"]["cursed_room"]["water"] = 2
    place(s, "mana_crystal", "water")
    assert s["rooms"]["cursed_room"]["water"] == 0 and s["mana"] == 4


def test_imp_portal_one_per_room_activation_and_attack() -> None:
    # Imp Portal.
    s = calm()
    place(s, "hoard", "portal", 1, "imp")
    place(s, "hoard", "portal", 1, "imp")
    assert s["rooms"]["hoard"]["portals"] == ["imp"]
    push(s, [{"op": "activate", "what": "portal", "by": 0}])
    settle(s)
    assert s["rooms"]["hoard"]["imp"] == 1
    place(s, "mana_crystal", "portal", 1, "imp")
    assert s["rooms"]["mana_crystal"]["portals"] == [] and s["mana"] == 4


def test_guardian_kills_an_imp_that_enters() -> None:
    # Guardian.
    s = calm()
    s["rooms"]["hoard"]["guardian"] = 1
    place(s, "hoard", "imp")
    assert s["rooms"]["hoard"]["imp"] == 0 and s["rooms"]["hoard"]["guardian"] == 1


# --------------------------------------------------------------------------- Victory and defeat


def test_abjure_in_the_crystal_with_no_fire_wins() -> None:
    # Victory and Defeat.
    s = calm(players=3)
    a, b = give_pair(s, 0, "abjure")
    s2, _ = play(s, 0, "cast", a=a, b=b)
    assert s2["over"] and s2["won"]
    assert RULES.result(s2).winners == (0, 1, 2)


def test_abjure_with_fire_anywhere_does_not_win() -> None:
    s = calm()
    s["wizards"][0]["char"] = "myrrin"  # not sanctuary: no boost
    s["rooms"]["sanctuary"]["fire"] = 1
    a, b = give_pair(s, 0, "abjure")
    s2, _ = play(s, 0, "cast", a=a, b=b)
    assert not s2["over"]


def test_abjure_outside_the_crystal_does_not_win() -> None:
    s = calm()
    s["wizards"][0]["room"] = "hoard"
    a, b = give_pair(s, 0, "abjure")
    s2, _ = play(s, 0, "cast", a=a, b=b)
    assert not s2["over"]


# --------------------------------------------------------------------------- Room cards, the Cursed Room


def test_towards_the_cursed_room_takes_the_shortest_route() -> None:
    # Room Cards / Glossary: "Towards the Cursed Room".
    from rules.academy.threats import toward_cursed

    s = calm()
    orient(s, "mana_crystal", ["e"])
    orient(s, "cursed_room", ["w"])
    dist = distances(s, "cursed_room")
    options = toward_cursed(s, "mana_crystal")
    assert options == ["e"] and dist["mana_crystal"] == 1


def test_an_empty_room_deck_reshuffles_its_discards() -> None:
    # Setup: "If the room deck is empty and you need to draw from it, shuffle the discard pile".
    from rules.academy.state import draw_room_card

    s = calm()
    s["room_discard"] = s["room_deck"] + s["room_discard"]
    s["room_deck"] = []
    draw_room_card(s)
    assert len(s["room_deck"]) == 13 and len(s["room_discard"]) == 1


def test_helpful_hand_of_fate_the_current_player_decides() -> None:
    # The Helpful Hand of Fate: two equally short routes towards the Cursed Room; the current player picks.
    s = calm(players=3)
    s["current"] = 2
    for room, sides in (("flux_point", ["e", "s"]), ("planar_rift", ["w", "s"]), ("cursed_room", ["n", "w"])):
        orient(s, room, sides)
    s["rooms"]["flux_point"]["imp"] = 1
    push(s, [{"op": "gather", "by": 2}])
    settle(s)
    assert s["choice"]["seat"] == 2
    assert sorted(o["value"] for o in s["choice"]["options"]) == ["e", "s"]
    s2, _ = play(s, 2, "choose", value="e")
    assert s2["rooms"]["planar_rift"]["imp"] == 1


def test_a_basic_game_disaster_never_names_the_lost_room() -> None:
    # The basic game lays no Lost Room (Setup): "Activate every threat in the Lost Room and the Outer
    # Dimension" activates, and names, the Outer Dimension only.
    s = calm()
    assert "lost_room" not in s["board"] and "outer_dimension" in s["board"]
    push(s, [{"op": "activate_in", "rooms": ["lost_room", "outer_dimension"], "by": 0}])
    settle(s)
    assert "Threats activate in: Outer Dimension." in s["log"]
    assert not [line for line in s["log"] if "Lost Room" in line]


def test_a_threat_spreading_twice_into_a_room_names_it_once() -> None:
    from rules.academy.threats import _rooms_once

    assert _rooms_once(["library", "library", "flux_point"]) == "Library (twice), Flux Point"
    assert _rooms_once(["library"]) == "Library"
