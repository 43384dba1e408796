"""Wizard's Academy: the choices the rulebook gives the players (issue 26 items 1-5).

Line numbers are those of shared/rules/wizards-academy.txt.
"""

from __future__ import annotations

import random

from rules.academy import RULES
from rules.academy.flow import push
from rules.academy.threats import activation_ops, endure_ops
from rules.contract import Move
from tests.academy_helpers import calm, deck, game, orient, play, settle, slot_of


def _orders(s: dict) -> list[dict]:
    """Return the order options of the waiting Helpful Hand choice."""
    assert s["choice"] is not None and s["choice"]["about"]["op"] == "in_order", s["choice"]
    return s["choice"]["about"]["orders"]


def _first(s: dict, name: str) -> int:
    """Return the option value of the order that starts with ``name``."""
    return next(o["value"] for o in _orders(s) if o["names"][0].startswith(name))


# --------------------------------------------------------------------------- 1. the Helpful Hand of Fate


def test_endure_order_is_asked_and_fire_first_keeps_the_glyph() -> None:
    # Line 110: "the order in which they take effect is unspecified, so the Helpful Hand of Fate allows
    # players to choose"; line 125: the fire's teleport. Fire first, teleport: the glyph is kept for a mana.
    s = calm()
    s["wizards"][0].update(room="hoard", glyphs=[2])
    s["rooms"]["hoard"].update(imp=1, fire=1)
    s, _ = play(s, 0, "end")
    labels = [o["label"] for o in s["choice"]["options"]]
    assert len(labels) == 2 and len(set(labels)) == 2
    s, _ = play(s, 0, "choose", value=_first(s, "the fire"))
    s, _ = play(s, 0, "choose", value=True)  # be teleported to the Mana Crystal
    assert s["wizards"][0]["glyphs"] == [2] and s["wizards"][0]["room"] == "mana_crystal"
    assert s["mana"] == 4 and s["rooms"]["hoard"]["fire"] == 1


def test_endure_order_imp_first_douses_the_fire() -> None:
    # Line 120: an imp that takes a glyph removes a fire token; enduring it first saves the mana.
    s = calm()
    s["wizards"][0].update(room="hoard", glyphs=[2])
    s["rooms"]["hoard"].update(imp=1, fire=1)
    s, _ = play(s, 0, "end")
    s, _ = play(s, 0, "choose", value=_first(s, "the imp"))
    assert s["mana"] == 5 and s["rooms"]["hoard"]["fire"] == 0 and s["wizards"][0]["glyphs"] == []


def test_endure_order_is_not_asked_when_every_order_ends_the_same() -> None:
    # Line 65: a choice only where the effect "could be legally resolved in several ways": a wizard without
    # glyphs loses nothing to the imp, so both orders end alike and only the fire's own question is left.
    s = calm()
    s["wizards"][0].update(room="hoard", glyphs=[])
    s["rooms"]["hoard"].update(imp=1, fire=1)
    s, _ = play(s, 0, "end")
    assert s["choice"]["about"]["op"] == "endure_harm"


def _line_248(s: dict) -> dict:
    """An imp, a fire and a glyph source in the Hoard; P1 (in the crystal) holds that glyph."""
    s["rooms"]["hoard"].update(imp=1, fire=1, source=3)
    s["wizards"][0]["glyphs"] = [3]
    deck(s, "library")  # arrow 1 of every card points somewhere; the card's face does not matter here
    push(s, [{"op": "activate_in", "rooms": ["hoard"], "by": 0}])
    settle(s)
    return s


def test_line_248_example_the_players_choose_the_activation_order() -> None:
    # Line 248: "an imp, a fire and a glyph in one room ... the players may choose in which order they
    # activate". The imp first drains the glyph and douses the fire before it can spread: no card drawn.
    s = _line_248(calm())
    drawn = len(s["room_discard"])
    s, _ = play(s, 0, "choose", value=_first(s, "the imp"))
    assert s["rooms"]["hoard"]["fire"] == 0 and s["wizards"][0]["glyphs"] == []
    assert len(s["room_discard"]) == drawn and not any(c["fire"] for c in s["rooms"].values())


def test_line_248_example_fire_first_spreads_before_the_imp_douses_it() -> None:
    s = _line_248(calm())
    drawn = len(s["room_discard"])
    s, _ = play(s, 0, "choose", value=_first(s, "the fire"))
    assert len(s["room_discard"]) == drawn + 1  # the fire drew its room card and spread
    assert s["rooms"]["hoard"]["fire"] == 0  # then the imp doused the fire in its own room
    assert sum(c["fire"] for c in s["rooms"].values()) == 1


def test_orders_that_differ_only_by_hidden_room_cards_are_not_asked() -> None:
    # Ruling (the Helpful Hand and hidden cards): a fire and a wandering imp both draw a room card first;
    # which unknown card each gets is no choice the players can make, so nothing is asked.
    from rules.academy.order import _plan

    s = calm()
    s["rooms"]["library"]["fire"] = 1
    s["rooms"]["observatory"]["imp"] = 1
    for seed in range(6):
        t = RULES.copy_state(s)
        random.Random(seed).shuffle(t["room_deck"])
        plan = _plan(t, *_groups(activation_ops(t, ["library", "observatory"])))
        assert len(plan) == 1


def test_whether_an_order_is_asked_never_depends_on_the_deck_order() -> None:
    # Hidden information (DESIGN: views never hold a secret): the options and their labels are worked out
    # up to the first hidden card, so any order of the room deck gives the same question.
    from rules.academy.order import _plan

    s = calm()
    s["rooms"]["hoard"].update(imp=1, fire=1, source=3)
    s["wizards"][0]["glyphs"] = [3]
    s["rooms"]["observatory"]["imp"] = 1
    plans = []
    for seed in range(6):
        t = RULES.copy_state(s)
        random.Random(seed).shuffle(t["room_deck"])
        plans.append(_plan(t, *_groups(activation_ops(t, ["hoard", "observatory"]))))
    assert len(plans[0]) > 1 and all(p == plans[0] for p in plans)


def test_only_threats_that_can_meet_are_ordered() -> None:
    # Ruling: threats that touch nothing in common (rooms, neighbouring rooms, the wizards' glyphs) end alike
    # in any order, so the question names only the threats whose order matters.
    s = calm(2)
    s["rooms"]["hoard"].update(imp=1, fire=1, source=3)
    s["wizards"][0]["glyphs"] = [3]
    s["rooms"]["library"]["portals"] = ["imp"]
    push(s, [{"op": "activate_in", "rooms": ["hoard", "library"], "by": 0}])
    settle(s)
    names = {n for o in _orders(s) for n in o["names"]}
    assert names == {"the fire", "the imp in the Hoard"} and len(_orders(s)) == 2
    s, _ = play(s, 0, "choose", value=_first(s, "the imp"))
    assert s["rooms"]["library"]["imp"] == 1 and s["rooms"]["hoard"]["fire"] == 0


def test_more_than_four_threats_that_meet_keep_the_default_order() -> None:
    # Ruling (a limit of ours): five threats in one room are not worked out; fire first, as by default.
    s = calm()
    s["rooms"]["hoard"].update(imp=4, fire=1, source=3)
    s["wizards"][0]["glyphs"] = [3, 3, 3, 3]
    drawn = len(s["room_discard"])
    push(s, [{"op": "activate_in", "rooms": ["hoard"], "by": 0}])
    settle(s)
    assert s["choice"] is None and len(s["room_discard"]) == drawn + 1  # the fire spread first


def test_an_imp_portal_and_its_imp_are_not_asked() -> None:
    # Line 65: ask only when the ways differ. The imp wanders (a card) and the portal lets one through:
    # whichever goes first, one imp stays and one has moved by the same card.
    s = calm()
    s["rooms"]["workshop"].update(imp=1, portals=["imp"])
    push(s, [{"op": "activate_in", "rooms": ["workshop"], "by": 0}])
    settle(s)
    assert s["choice"] is None or s["choice"]["about"]["op"] != "in_order"
    assert s["rooms"]["workshop"]["imp"] == 1


def _groups(ops: list[dict]) -> tuple[list, list]:
    (op,) = ops
    return op["groups"], op["names"]


def test_endure_ops_in_the_default_order_when_alone() -> None:
    # One threat: no order to choose, its ops run as they are.
    s = calm()
    s["wizards"][0].update(room="hoard", glyphs=[1])
    s["rooms"]["hoard"]["imp"] = 1
    assert [o["op"] for o in endure_ops(s, 0)] == ["endure_imp"]


def test_policy_answers_the_order_choice() -> None:
    # Bots must play the new decision: the self-play policy keeps the most mana.
    from bots.games.academy_policy import Policy

    s = calm()
    s["wizards"][0].update(room="hoard", glyphs=[2])
    s["rooms"]["hoard"].update(imp=1, fire=1)
    s, _ = play(s, 0, "end")
    move = Policy(1).pick(s, 0)
    assert move == Move.of("choose", value=_first(s, "the imp"))


# --------------------------------------------------------------------------- 2. emergency recall


def _demon_room(glyphs: list[int]) -> dict:
    s = calm(scenario="golem")
    s["wizards"][0].update(room="hoard", glyphs=glyphs, char="myrrin")
    s["rooms"]["hoard"]["demon"] = 1
    return s


def test_recall_is_offered_after_the_third_action_before_enduring() -> None:
    # Lines 217 and 228: "A wizard may teleport to the Mana Crystal at any time during their turn." After
    # the last action the demon has not struck yet: the wizard may still recall.
    s = _demon_room([1, 2])
    orient(s, "hoard", ["n"])
    orient(s, "cursed_room", ["s"])
    s["slots_left"] = {"move": True, "room": False, "magic": False}
    s["wizards"][0]["room"] = "cursed_room"
    s, _ = play(s, 0, "move", room="hoard")  # the last action ends in the demon's room
    assert s["choice"]["about"]["op"] == "recall_window"
    s, _ = play(s, 0, "choose", value="recall")
    assert s["wizards"][0]["room"] == "mana_crystal" and s["wizards"][0]["glyphs"] == [1, 2]
    assert s["mana"] == 4 and s["step"] == "share"


def test_recall_is_offered_between_two_threats_endured() -> None:
    # Lines 217, 110: endure the imp first (it douses the fire), then recall away from the demon.
    s = _demon_room([1, 2])
    s["rooms"]["hoard"].update(imp=1, fire=1)
    s, _ = play(s, 0, "end")
    s, _ = play(s, 0, "choose", value=_first(s, "the imp"))
    s, _ = play(s, 0, "choose", value=1)  # the imp takes glyph 1 and douses the fire
    assert s["rooms"]["hoard"]["fire"] == 0
    assert s["choice"]["about"]["op"] == "recall_window"
    s, _ = play(s, 0, "choose", value="recall")
    assert s["wizards"][0]["room"] == "mana_crystal" and s["wizards"][0]["glyphs"] == [2]
    assert s["mana"] == 4 and s["step"] == "share"


def test_ending_ones_actions_is_the_chance_to_recall() -> None:
    # Ruling: a wizard who ends their actions had recall on offer beside "end": no second question.
    s = _demon_room([1, 2])
    s, _ = play(s, 0, "end")
    assert s["wizards"][0]["glyphs"] == [] and s["wizards"][0]["room"] == "mana_crystal" and s["mana"] == 4


def test_recall_is_offered_in_the_share_step() -> None:
    # Line 217: the share step is still the wizard's turn.
    s = calm(scenario="golem")
    s["wizards"][0].update(room="hoard", glyphs=[3], char="myrrin")
    s, _ = play(s, 0, "end")
    assert s["step"] == "share" and Move.of("recall") in RULES.legal_moves(s, 0)
    s, _ = play(s, 0, "recall")
    assert s["wizards"][0]["room"] == "mana_crystal" and s["step"] == "share" and s["mana"] == 4


# --------------------------------------------------------------------------- 3. a wand on a shared glyph


def test_a_wand_works_on_a_shared_glyph() -> None:
    # Line 236: the wand "extends to glyphs they receive from other wizards via shared glyph".
    s = calm(2, scenario="golem")
    slot = slot_of(s, "create_guardian")
    low, high = (int(x) for x in slot.split("-"))
    s["wizards"][0].update(glyphs=[low], wand=high, char="myrrin")
    s["wizards"][1].update(shared=1 if high != 1 else 2, char="alba")
    shared = s["wizards"][1]["shared"]
    move = Move.of("cast", a=low, b=high, helper=1, wand_shared=shared)
    assert move in RULES.legal_moves(s, 0)
    assert "as your wand" in RULES.label(s, 0, move)
    s, _ = play(s, 0, "cast", a=low, b=high, helper=1, wand_shared=shared)
    assert s["wizards"][1]["shared"] is None and s["wizards"][0]["glyphs"] == []
    assert s["reveal"]["slot"] == slot


def test_a_wand_turns_an_own_glyph_to_pair_with_a_shared_one() -> None:
    s = calm(2, scenario="golem")
    slot = slot_of(s, "create_guardian")
    low, high = (int(x) for x in slot.split("-"))
    other = 7 if high != 7 and low != 7 else 6
    s["wizards"][0].update(glyphs=[other], wand=high, char="myrrin")
    s["wizards"][1].update(shared=low, char="alba")
    move = Move.of("cast", a=high, b=low, helper=1, wand=other)
    assert move in RULES.legal_moves(s, 0)
    s, _ = play(s, 0, "cast", a=high, b=low, helper=1, wand=other)
    assert s["wizards"][0]["glyphs"] == [] and s["wizards"][1]["shared"] is None


# --------------------------------------------------------------------------- 4. rotations either way


def test_setup_shift_rotates_either_way() -> None:
    # Line 175: "rotate a room by 90 degrees", in either direction.
    s = game(2, scenario="golem", seed=5)
    p = next(i for i, r in enumerate(s["board"]) if r == "library")
    moves = RULES.legal_moves(s, 0)
    assert Move.of("shift", rotate=p, turns=3) in moves
    assert "anticlockwise" in RULES.label(s, 0, Move.of("shift", rotate=p, turns=3))
    rot = s["rot"]["library"]
    s, _ = play(s, 0, "shift", rotate=p, turns=3)
    assert s["rot"]["library"] == (rot + 3) % 4


def test_a_symmetric_room_rotates_one_way_only() -> None:
    # Line 65: ask only where outcomes differ: a quarter turn either way leaves the Lost Room's doors alike.
    s = game(2, scenario="golem", seed=5)
    p = s["board"].index("lost_room")
    moves = RULES.legal_moves(s, 0)
    assert Move.of("shift", rotate=p) in moves and Move.of("shift", rotate=p, turns=3) not in moves


def test_rotating_a_room_with_four_doors_asks_nothing() -> None:
    # Dimension Twist rotates the caster's room; every turn of the Mana Crystal leaves four doors.
    s = calm()
    s["queue"] = [{"op": "rotate", "where": "here", "by": 0}]
    settle(s)
    assert s["choice"] is None


# --------------------------------------------------------------------------- 5. a wasted water move


def test_a_wasted_water_move_says_so() -> None:
    # Line 98: "if you do not have another action the move is wasted"; the ruling says its label says so.
    s = calm()
    orient(s, "masters_study", ["e"])
    s["rooms"]["masters_study"]["water"] = 1
    move = Move.of("move", room="masters_study")
    assert RULES.label(s, 0, move) == "Move to the Master's Study (water: an extra action)"
    s["left"] = 1
    assert "the move is wasted" in RULES.label(s, 0, move)


# --------------------------------------------------------------------------- shown to the table


def _order_pending() -> dict:
    s = calm(2)
    s["wizards"][0].update(room="hoard", glyphs=[2, 5])
    s["rooms"]["hoard"].update(imp=1, fire=1)
    s, _ = play(s, 0, "end")
    return s


def test_the_panels_list_every_order_and_invite_the_others() -> None:
    # Line 65: "the players may decide ... if they cannot agree, the player whose turn it is" decides.
    from cogs.academy import Panel, decision_line, waiting_line

    s = _order_pending()
    labels = [o["label"] for o in s["choice"]["options"]]
    mine = Panel(None, 1, 0, RULES.typed_view(RULES.view(s, 0)), (), {0: "alice", 1: "bob"})  # type: ignore[arg-type]
    text = decision_line(mine)
    assert "Helpful Hand of Fate" in text and all(f"{n + 1}. {lab}" in text for n, lab in enumerate(labels))
    theirs = Panel(None, 1, 1, RULES.typed_view(RULES.view(s, 1)), (), {0: "alice", 1: "bob"})  # type: ignore[arg-type]
    told = waiting_line(theirs)
    assert told.startswith("alice picks the order") and all(lab in told for lab in labels)
    assert "Say in the thread" in told


def test_the_board_lists_the_orders_and_hides_nothing_more() -> None:
    # The public board shows each order's outcome; it is the same whatever the hidden cards are.
    import render
    from render import academy as drawing

    s = _order_pending()
    view = RULES.view(s, None)
    assert len(drawing.orders(view)) == 2 and drawing.orders(view)[0].startswith("1. The imp, then the fire")
    image = render.board("academy", view)
    assert image != render.board("academy", RULES.view(calm(2), None))
    for n in range(3):
        other = RULES.scramble(s, None, random.Random(n))
        assert render.board("academy", RULES.view(other, None)) == image
