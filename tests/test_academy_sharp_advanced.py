"""The strong bot's sharper policy for the Academy's advanced scenarios (bots.games.academy_advanced):
where it parts from the balance policy, and that a whole game of it plays only legal moves."""

from __future__ import annotations

from bots.games.academy import SharpPolicy, _layout
from bots.games.academy_policy import Policy
from rules.academy import RULES
from rules.contract import Move
from tests.academy_helpers import calm, orient

Sharp = SharpPolicy
"""The ``strong`` level's policy, advanced moves included."""


def _decide(policy: Policy, s: dict, seat: int = 0):
    return policy.decide(RULES.view(s, seat), seat, RULES.legal_moves(s, seat))


def test_the_last_action_steps_out_of_a_burning_room_instead_of_taking_its_glyph() -> None:
    s = calm(1, scenario="golem")
    s["wizards"][0]["room"] = "cursed_room"
    s["rooms"]["cursed_room"].update(source=3, fire=1)
    s["slots_left"] = {"move": False, "room": False, "magic": True}  # one action left
    assert _decide(Policy(1), s).action == "take"  # a glyph, then the crystal pays a mana to shield
    step = _decide(Sharp(1), s)
    assert step.action == "move" and not s["rooms"][step.get("room")]["fire"]


def test_the_last_action_does_not_walk_into_a_trolls_room() -> None:
    s = calm(1, scenario="golem")
    s["rooms"]["cursed_room"].update(source=1, troll=1)
    s["slots_left"] = {"move": False, "room": False, "magic": True}
    assert _decide(Policy(1), s).get("room") == "cursed_room"
    assert _decide(Sharp(1), s).get("room") != "cursed_room"


def test_a_cheap_goals_glyphs_come_from_the_nearest_source() -> None:
    # Golem: Create Guardian is a level 1 spell, so glyphs 1 and 3 serve alike; the balance policy walks
    # to the higher one however far, the sharp one to the source next door.
    s = calm(1, scenario="golem")
    s["rooms"]["masters_study"]["source"] = 1
    s["rooms"]["sanctuary"]["source"] = 3
    assert _decide(Policy(1), s).get("room") in ("cursed_room", "workshop")
    assert _decide(Sharp(1), s).get("room") == "masters_study"


def test_damage_spares_the_guardian_of_a_golem_corner() -> None:
    s = calm(1, scenario="golem")
    view = RULES.view(s, 0)
    view["grid"][0]["guardian"] = 1  # the library, a corner
    view["grid"][6]["troll"] = 1  # the cursed room
    view["choice"] = {
        "seat": 0,
        "why": "Deal 2 damage to which creature?",
        "about": {"op": "damage", "n": 2},
        "options": [
            {"value": "library:guardian", "label": "guardian"},
            {"value": "cursed_room:troll", "label": "troll"},
        ],
    }
    picks = {Sharp(seed)._choose(view, 0, []).get("value") for seed in range(8)}
    assert picks == {"cursed_room:troll"}
    assert "library:guardian" in {Policy(seed)._choose(view, 0, []).get("value") for seed in range(8)}


def test_a_whole_advanced_game_of_the_sharp_policy_plays_only_legal_moves() -> None:
    for scenario, seed in (("golem", 3), ("demon", 5)):
        state = RULES.setup(2, {"scenario": scenario, "difficulty": "normal"}, seed)
        policy = Sharp(seed)
        plies = 0
        while not RULES.is_over(state):
            seat = RULES.waiting_on(state)[0]
            legal = RULES.legal_moves(state, seat)
            if (state["step"] == "shifts" and state["choice"] is None) or _layout(state):
                move = policy.pick(state, seat)  # the board is public: layouts are the balance tool's
            else:
                move = policy._decide(RULES.view(state, seat), seat, legal)
            assert move in legal
            state, events = RULES.apply(state, seat, move)
            policy.mind.observe(RULES.view(state, seat), events)
            plies += 1
            assert plies < RULES.max_moves(2, {"scenario": scenario})
        assert RULES.result(state) is not None


def _empower_workshop(s: dict) -> None:
    """Open the Workshop (below the crystal on the test board) to the crystal: room actions need it."""
    orient(s, "workshop", ["n"])
    orient(s, "mana_crystal", ["s"])


def test_a_level_four_goal_buys_a_wand_of_seven_in_the_workshop() -> None:
    # Unstable Academy: only Anchor Reality (level 4, a glyph 7 slot) wins, and glyph 7 sources are rare.
    s = calm(1, scenario="unstable")
    _empower_workshop(s)
    s["wizards"][0].update(room="workshop", glyphs=[1, 2, 2, 3, 3])
    buy = Move.of("room", act="wand")
    assert buy in RULES.legal_moves(s, 0)
    assert _decide(Policy(1), s) != buy  # the balance policy never buys an item
    assert _decide(Sharp(1), s) == buy
    s, _ = RULES.apply(s, 0, buy)
    assert "wand" in s["choice"]["why"]
    s, _ = RULES.apply(s, 0, _decide(Sharp(1), s))
    assert s["wizards"][0]["wand"] == 7 and s["wizards"][0]["glyphs"] == [3, 3]
    # with the wand, a glyph 3 serves as a 7: the level-4 slot 3-7 can be looked at
    assert any(m.action == "cast" and {m.get("a"), m.get("b")} == {3, 7} for m in RULES.legal_moves(s, 0))


def test_hold_the_gates_buys_no_wand_close_portal_serves_too() -> None:
    s = calm(1, scenario="gates")
    _empower_workshop(s)
    s["wizards"][0].update(room="workshop", glyphs=[1, 2, 2, 3, 3])
    assert Move.of("room", act="wand") in RULES.legal_moves(s, 0)
    assert _decide(Sharp(1), s) != Move.of("room", act="wand")
