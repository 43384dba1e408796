"""Wizard's Academy, the advanced game: setup, the three actions, sharing, recall, last resorts, items,
the advanced threats and the scenarios' objectives (rulebook: Advanced Rules, Glossary)."""

from __future__ import annotations

import pytest

from rules.academy import RULES
from rules.academy.cards import disasters, scenarios, spells
from rules.academy.effects import hurt
from rules.academy.flow import push
from rules.academy.state import adjoining, empowered, slot_level
from rules.academy.threats import place
from rules.contract import Move
from tests.academy_helpers import calm, game, orient, play, settle


def adv(players: int = 1) -> dict:
    """An advanced (Golem) state at seat 0's actions on the test board."""
    return calm(players, scenario="golem")


# --------------------------------------------------------------------------- Setup


def test_golem_setup_follows_the_prototype_sheet() -> None:
    # Setup (advanced) and the prototype scenario: Outer Dimension beside the board, a guardian in the
    # Master's Study, sources 6 and 7, the named spells, botches, mana 6, a stacked progression deck.
    s = game(2, scenario="golem", seed=4)
    assert s["outside"] == "outer_dimension" and "lost_room" in s["board"]
    assert s["rooms"]["masters_study"]["guardian"] == 1
    assert s["rooms"]["lost_room"]["source"] == 6 and s["rooms"]["outer_dimension"]["source"] == 7
    dealt = [v["spell"] for v in s["slots"].values()]
    assert len(dealt) == 28 and all(dealt)
    assert set(scenarios()["golem"]["mandatory"]) <= set(dealt)
    for level, want in zip((1, 2, 3, 4), (3, 5, 3, 4), strict=True):
        got = sum(
            1 for k, v in s["slots"].items() if slot_level(k) == level and spells()[v["spell"]]["botch"]
        )
        assert got == want
    assert s["mana"] == 6
    levels = [disasters()[k]["level"] for k in s["progression"][:-1]]
    assert levels == [0, 0, 1, 1, 2, 2, 3, 3, 4, 4] and s["progression"][-1] == "collapse"
    assert s["step"] == "shifts" and s["shifts_left"] == 3 and RULES.waiting_on(s) == [0]


def test_easy_and_hard_change_mana_botches_and_the_first_disaster() -> None:
    # Prototype scenario: easy one botch fewer, +2 mana, Imps first; hard one more botch, a fire, Fire first.
    easy = game(1, scenario="golem", difficulty="easy", seed=2)
    hard = game(1, scenario="golem", difficulty="hard", seed=2)
    assert easy["mana"] == 8 and easy["hands"][0] == "imp_invasion"
    assert hard["hands"][0] == "fire" and sum(c["fire"] for c in hard["rooms"].values()) >= 0

    def botches(s: dict) -> int:
        return sum(1 for v in s["slots"].values() if spells()[v["spell"]]["botch"])

    assert botches(easy) < 15 <= botches(hard)


def test_hold_the_gates_starts_with_two_portals_and_hard_adds_the_troll_portal() -> None:
    # Designed scenario settings, tuned for balance (data/academy/README.md, Balance): 7 mana, an imp and
    # a fire portal at the start; the hard setting adds a troll portal.
    def portals(s: dict) -> list[str]:
        return sorted(p for c in s["rooms"].values() for p in c["portals"])

    normal = game(2, scenario="gates", seed=3)
    hard = game(2, scenario="gates", difficulty="hard", seed=3)
    assert portals(normal) == ["fire", "imp"] and normal["mana"] == 7
    assert portals(hard) == ["fire", "imp", "troll"] and hard["mana"] == 7
    assert game(2, scenario="gates", difficulty="easy", seed=3)["mana"] == 9
    assert game(2, scenario="demon", seed=3)["mana"] == 9


@pytest.mark.parametrize(
    ("scenario", "goal"), [("unstable", "anchor_reality"), ("gates", "seal_gates"), ("demon", "bind_demon")]
)
def test_designed_easy_settings_start_with_the_goal_spell_bound(scenario: str, goal: str) -> None:
    # Designed settings, tuned for balance: easy binds the objective's spell from the start.
    easy = game(2, scenario=scenario, difficulty="easy", seed=5)
    assert [v["spell"] for v in easy["slots"].values() if v["bound"]] == [goal]
    assert not any(v["bound"] for v in game(2, scenario=scenario, seed=5)["slots"].values())


def test_unstable_hard_places_two_more_ice_and_takes_a_mana() -> None:
    def ice(s: dict) -> int:
        return sum(c["ice"] for c in s["rooms"].values())

    normal = game(2, scenario="unstable", seed=6)
    hard = game(2, scenario="unstable", difficulty="hard", seed=6)
    assert hard["mana"] == normal["mana"] - 1 == 5
    assert ice(normal) == 2 and ice(hard) == 4


def test_three_shifts_then_the_game_starts() -> None:
    # Refine Academy: up to three shifts (swap two adjacent rooms, or rotate one a quarter turn).
    s = game(2, scenario="golem", seed=5)
    first, second = s["board"][0], s["board"][1]
    s, _ = play(s, 0, "shift", swap=[0, 1])
    assert s["board"][:2] == [second, first]
    rot = s["rot"][s["board"][5]]
    s, _ = play(s, 0, "shift", rotate=5)
    assert s["rot"][s["board"][5]] == (rot + 1) % 4
    s, _ = play(s, 0, "shift", rotate=5)
    assert s["step"] != "shifts" and s["turn"] == 1  # the third shift starts the game
    t = game(2, scenario="golem", seed=5)
    t, _ = play(t, 0, "ready")
    assert t["turn"] == 1 and t["shifts_left"] == 0


# --------------------------------------------------------------------------- Take actions


def test_move_room_and_magic_actions() -> None:
    # Take Actions: a move, a room and a magic action; a room action may be a move; a magic action either.
    s = adv()
    orient(s, "masters_study", ["e", "n"])
    orient(s, "library", ["s"])
    s, _ = play(s, 0, "move", room="masters_study")
    assert s["slots_left"] == {"move": False, "room": True, "magic": True}
    s, _ = play(s, 0, "move", room="library")
    assert s["slots_left"] == {"move": False, "room": False, "magic": True}
    assert not any(m.action == "take" for m in RULES.legal_moves(s, 0))
    s, _ = play(s, 0, "move", room="masters_study")
    assert s["slots_left"] == {"move": False, "room": False, "magic": False}
    assert s["step"] == "share" and s["current"] == 0  # all three spent: endure, then share


def test_room_actions_need_an_empowered_room_and_no_troll() -> None:
    # ROOM ACTION: "you must be in an empowered room"; a troll prevents all room actions.
    s = adv()
    s["rooms"]["mana_crystal"]["source"] = 3
    assert Move.of("take") in RULES.legal_moves(s, 0)
    s["rooms"]["mana_crystal"]["troll"] = 1
    assert Move.of("take") not in RULES.legal_moves(s, 0)
    s["rooms"]["mana_crystal"]["troll"] = 0
    s["wizards"][0]["room"] = "hoard"
    s["rooms"]["hoard"]["source"] = 2
    for r in adjoining(s, "hoard"):
        s["rooms"][r]["ice"] = 2  # its neighbours are sealed: no route to the crystal
    assert not empowered(s, "hoard")
    assert Move.of("take") not in RULES.legal_moves(s, 0)


def test_share_a_glyph_and_use_it_without_asking() -> None:
    # Share a Glyph: one glyph in the shared box; others use it to cast (only one shared glyph a spell).
    s = adv(players=2)
    s["wizards"][0]["glyphs"] = [3]
    s, _ = play(s, 0, "end")
    assert s["step"] == "share"
    s, _ = play(s, 0, "share", glyph=3)
    assert s["wizards"][0]["shared"] == 3 and s["wizards"][0]["glyphs"] == [] and s["current"] == 1
    s["wizards"][1]["glyphs"] = [2]
    moves = RULES.legal_moves(s, 1)
    assert Move.of("cast", a=2, b=3, helper=0) in moves
    s2, _ = play(s, 1, "cast", a=2, b=3, helper=0)
    assert s2["request"] is None and s2["wizards"][0]["shared"] is None


def test_emergency_recall_costs_a_mana() -> None:
    # Emergency Recall.
    s = adv()
    s["wizards"][0]["char"] = "myrrin"
    s["wizards"][0]["room"] = "sanctuary"
    s, _ = play(s, 0, "recall")
    assert s["wizards"][0]["room"] == "mana_crystal" and s["mana"] == 4
    assert s["slots_left"] == {"move": True, "room": True, "magic": True}


def test_last_resort_at_the_crystal_spends_mana() -> None:
    # The Mana Crystal: "a wizard taking a room action in the Mana Crystal may expend mana".
    s = adv()
    s, _ = play(s, 0, "room", act="lr_glyph")
    assert s["mana"] == 4 and s["choice"] is not None
    s, _ = play(s, 0, "choose", value=4)
    assert s["wizards"][0]["glyphs"] == [4]


# --------------------------------------------------------------------------- Magic items


def test_robe_makes_its_threat_ignore_the_wizard() -> None:
    # Robes: "the wizard treats such threats as if they did not exist".
    s = adv()
    s["wizards"][0].update(room="hoard", robe="fire", char="myrrin")
    s["rooms"]["hoard"]["fire"] = 1
    s, _ = play(s, 0, "end")
    assert s["mana"] == 5 and s["choice"] is None


def test_buying_a_wand_and_casting_with_it() -> None:
    # Wands: bought in the Workshop for three glyphs; any glyph serves as the wand's type.
    s = adv()
    s["wizards"][0].update(room="workshop", glyphs=[1, 1, 2, 5, 6], char="myrrin")
    orient(s, "workshop", ["n"])
    assert empowered(s, "workshop")
    s, _ = play(s, 0, "room", act="wand")
    s, _ = play(s, 0, "choose", value=7)
    assert s["wizards"][0]["wand"] == 7 and s["wizards"][0]["glyphs"] == [5, 6]
    assert Move.of("cast", a=6, b=7, wand=5) in RULES.legal_moves(s, 0)


def test_staff_casts_as_a_move_action_without_glyphs() -> None:
    # Staves: cast the pair's spell as a move action without expending glyphs.
    s = adv()
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "create_guardian")
    s["wizards"][0]["staff"] = [int(x) for x in slot.split("-")]
    s, _ = play(s, 0, "staff")
    assert s["rooms"]["mana_crystal"]["guardian"] == 1 and s["slots_left"]["move"] is False


# --------------------------------------------------------------------------- Advanced threats


def test_double_ice_seals_a_room() -> None:
    # Glossary, Adjoining: "If a room contains two ice tokens it does not adjoin any other rooms."
    s = adv()
    assert adjoining(s, "mana_crystal")
    s["rooms"]["mana_crystal"]["ice"] = 2
    assert adjoining(s, "mana_crystal") == []


def test_single_ice_slides_a_wizard_on() -> None:
    # Robes (example): a wizard with an ice robe "will not slide on single ice"; without one she slides on.
    s = adv()
    orient(s, "cursed_room", ["w"])
    orient(s, "masters_study", ["e"])
    s["rooms"]["mana_crystal"]["ice"] = 1
    s["wizards"][0].update(room="cursed_room", char="myrrin")
    slid, _ = play(s, 0, "move", room="mana_crystal")
    assert slid["wizards"][0]["room"] == "masters_study"
    s["wizards"][0]["robe"] = "ice"
    held, _ = play(s, 0, "move", room="mana_crystal")
    assert held["wizards"][0]["room"] == "mana_crystal"


def test_darkness_makes_leaving_cost_an_extra_action() -> None:
    s = adv()
    s["rooms"]["mana_crystal"]["darkness"] = 1
    orient(s, "masters_study", ["e"])
    s, _ = play(s, 0, "move", room="masters_study")
    assert s["slots_left"] == {"move": False, "room": False, "magic": True}


def test_damage_to_a_troll_sums_over_the_turn() -> None:
    # Glossary, Damage: "Killing a creature requires you to deal enough damage to kill it in a single turn".
    s = adv()
    s["rooms"]["hoard"]["troll"] = 1
    hurt(s, "hoard", "troll", 1)
    assert s["rooms"]["hoard"]["troll"] == 1 and s["damage"]["hoard"]["troll"] == [1]
    hurt(s, "hoard", "troll", 1)
    assert s["rooms"]["hoard"]["troll"] == 0 and "hoard" not in s["damage"]


def test_damage_is_forgotten_at_the_next_turn() -> None:
    s = adv(players=2)
    s["rooms"]["hoard"]["demon"] = 1
    hurt(s, "hoard", "demon", 2)
    s, _ = play(s, 0, "end")
    s, _ = play(s, 0, "done")
    assert s["damage"] == {} and s["rooms"]["hoard"]["demon"] == 1


def test_troll_blocks_room_actions_and_smashes_guardians() -> None:
    s = adv()
    s["rooms"]["hoard"]["guardian"] = 1
    place(s, "hoard", "troll")
    assert s["rooms"]["hoard"]["guardian"] == 0


def test_demon_kills_a_wizard_and_the_crystal_pays() -> None:
    # The Mana Crystal: "Mana can also be spent to prevent a wizard from dying".
    s = adv()
    s["wizards"][0].update(room="hoard", glyphs=[2, 3])
    s["rooms"]["hoard"]["demon"] = 1
    push(s, [{"op": "demon_act", "room": "hoard"}])
    settle(s)
    assert s["wizards"][0]["room"] == "mana_crystal" and s["wizards"][0]["glyphs"] == [] and s["mana"] == 4


def test_typed_portal_lets_its_threat_through() -> None:
    s = adv()
    place(s, "hoard", "portal", 1, "troll")
    push(s, [{"op": "activate", "what": "portal", "by": 0}])
    settle(s)
    assert s["rooms"]["hoard"]["troll"] == 1


def test_water_overflow_and_chain_overflow() -> None:
    # Glossary, Overflow: a third token overflows into every adjoining room; the chain skips rooms that
    # already overflowed.
    s = adv()
    orient(s, "hoard", ["e", "s", "w"])
    orient(s, "sanctuary", ["n", "w"])
    orient(s, "crystal_ball_room", ["e"])
    orient(s, "observatory", ["w"])
    s["rooms"]["hoard"]["water"] = 2
    s["rooms"]["sanctuary"]["water"] = 2
    assert "sanctuary" in adjoining(s, "hoard") and "crystal_ball_room" in adjoining(s, "sanctuary")
    place(s, "hoard", "water")
    assert s["rooms"]["hoard"]["water"] == 2 and s["rooms"]["sanctuary"]["water"] == 2
    assert s["rooms"]["observatory"]["water"] == 1
    assert s["rooms"]["crystal_ball_room"]["water"] == 1  # the chain overflow from the Sanctuary
    assert s["overflowed"] == ["hoard", "sanctuary"]


def test_basic_water_never_overflows() -> None:
    # Water (basic): "If there are three water tokens in a room, remove one of them".
    s = calm()
    orient(s, "hoard", ["e"])
    orient(s, "observatory", ["w"])
    s["rooms"]["hoard"]["water"] = 2
    place(s, "hoard", "water")
    assert s["rooms"]["hoard"]["water"] == 2 and s["rooms"]["observatory"]["water"] == 0


def test_place_unless_threatening() -> None:
    # Play Disaster Card: place threats only if none of that type is threatening the Mana Crystal.
    s = adv()
    s["rooms"]["cursed_room"]["imp"] = 1
    assert "cursed_room" in adjoining(s, "mana_crystal")
    before = len(s["room_discard"])
    push(
        s,
        [{"op": "place", "what": "imp", "where": "random", "times": 2, "unless_threatening": "imp", "by": 0}],
    )
    settle(s)
    assert len(s["room_discard"]) == before and s["rooms"]["cursed_room"]["imp"] == 1


# --------------------------------------------------------------------------- Objectives


def test_golem_objective_guardians_in_the_four_corners() -> None:
    s = adv()
    for pos in (0, 3, 12):
        s["rooms"][s["board"][pos]]["guardian"] = 1
    corner = s["board"][15]
    s["wizards"][0]["room"] = corner
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "create_guardian")
    a, b = (int(x) for x in slot.split("-"))
    s["wizards"][0]["glyphs"] = sorted([a, b])
    s["wizards"][0]["char"] = "myrrin"
    s, _ = play(s, 0, "cast", a=a, b=b)
    assert s["over"] and s["won"]


@pytest.mark.parametrize("scenario", ["unstable", "gates", "demon"])
def test_designed_objectives_are_reachable_by_a_spell(scenario: str) -> None:
    s = calm(1, scenario=scenario)
    goal = {"unstable": "anchor_reality", "gates": "seal_gates", "demon": "bind_demon"}[scenario]
    slot = next(k for k, v in s["slots"].items() if v["spell"] == goal)
    a, b = (int(x) for x in slot.split("-"))
    s["wizards"][0].update(glyphs=sorted([a, b]), char="myrrin")
    s["rooms"]["mana_crystal"]["demon"] = 1 if scenario == "demon" else 0
    if scenario == "gates":
        s["rooms"]["mana_crystal"]["portals"] = []
        s["rooms"]["cursed_room"]["portals"] = ["imp"]
        assert "cursed_room" in adjoining(s, "mana_crystal")
    s, _ = play(s, 0, "cast", a=a, b=b)
    assert s["over"] and s["won"]


def test_collapse_card_loses() -> None:
    s = adv()
    push(s, [{"op": "collapse", "by": 0}])
    settle(s)
    assert s["over"] and not s["won"]


def test_hopeless_option_concedes_a_doomed_game() -> None:
    # Draw Disaster Card (advanced): "If the highest-level spell you've bound is lower than the number of
    # times you've shuffled the disaster deck ... Some groups choose to adopt this as an additional defeat
    # condition" (table option hopeless=concede).
    for option, over in (("concede", True), ("play_on", False)):
        s = calm(scenario="golem")
        s["options"]["hopeless"] = option
        s["disaster_deck"], s["disaster_discard"] = [], ["twist"]
        s["progression"] = ["fire", "flicker", "sneak"]
        push(s, [{"op": "draw_disaster"}])
        settle(s)
        assert s["over"] is over
    s = calm(scenario="golem")
    s["options"]["hopeless"] = "concede"
    next(v for v in s["slots"].values() if v["spell"])["bound"] = True
    s["disaster_deck"], s["disaster_discard"], s["progression"] = [], ["twist"], ["fire", "flicker"]
    push(s, [{"op": "draw_disaster"}])
    settle(s)
    assert not s["over"]


def test_create_guardian_is_level_one_and_its_boost_guards_any_room() -> None:
    # Designed numbers tuned for the prototype scenario (docs/rulings.md, Create Guardian).
    s = adv()
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "create_guardian")
    assert spells()["create_guardian"]["level"] == 1 and slot_level(slot) == 1
    far = s["board"][15] if s["board"][0] == "mana_crystal" else s["board"][0]
    assert far not in adjoining(s, "mana_crystal")
    a, b = (int(x) for x in slot.split("-"))
    s["wizards"][0].update(glyphs=sorted([a, b]), char="alba", room="mana_crystal")
    s, _ = play(s, 0, "cast", a=a, b=b)
    assert s["rooms"]["mana_crystal"]["guardian"] == 1
    assert {o["value"] for o in s["choice"]["options"]} >= {far}
    s, _ = play(s, 0, "choose", value=far)
    assert s["rooms"][far]["guardian"] == 1
