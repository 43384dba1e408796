"""Wizard's Academy house rulings (docs/rulings.md, section Wizard's Academy): one test per ruling."""

from __future__ import annotations

import random

import pytest

from rules.academy import RULES
from rules.academy.flow import push
from rules.academy.setup import BASIC_DECK, BASIC_PROGRESSION
from rules.academy.state import all_reachable
from rules.academy.threats import place
from rules.contract import IllegalMove, Move, Prompt
from tests.academy_helpers import calm, deck, game, play, settle


def test_ruling_basic_setup_reorients_rooms_itself() -> None:
    for seed in range(20, 40):
        assert all_reachable(game(2, seed=seed))


def test_ruling_refill_with_one_progression_card_left() -> None:
    s = calm()
    s["disaster_deck"], s["disaster_discard"], s["progression"] = [], ["twist"], ["fire"]
    push(s, [{"op": "draw_disaster"}])
    settle(s)
    assert not s["over"] and s["progression"] == []
    assert sorted([*s["disaster_deck"], s["hands"][0]]) == ["fire", "twist"]


def test_ruling_abjure_checks_for_fire_after_its_own_text() -> None:
    # Boosted (Sister Alba, sanctuary), Abjure first clears the fire in the crystal, then wins.
    s = calm()
    s["wizards"][0]["char"] = "alba"
    s["rooms"]["mana_crystal"]["fire"] = 1
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "abjure")
    a, b = (int(x) for x in slot.split("-"))
    s["wizards"][0]["glyphs"] = sorted([a, b])
    s2, _ = play(s, 0, "cast", a=a, b=b)
    assert s2["over"] and s2["won"]


def test_ruling_one_imp_in_the_crystal_stays_two_are_removed() -> None:
    s = calm()
    place(s, "mana_crystal", "imp")
    assert s["rooms"]["mana_crystal"]["imp"] == 1 and s["mana"] == 5
    place(s, "mana_crystal", "imp")
    assert s["rooms"]["mana_crystal"]["imp"] == 0 and s["mana"] == 4


def test_ruling_an_imps_glyph_is_a_glyph_source() -> None:
    s = calm()
    s["rooms"]["hoard"]["imp"] = 1
    s["wizards"][0]["glyphs"] = [4]  # a glyph held by a wizard elsewhere is not "a glyph in the room"
    deck(s, "library")
    push(s, [{"op": "imp_act", "room": "hoard"}])
    settle(s)
    assert s["wizards"][0]["glyphs"] == [4] and s["rooms"]["hoard"]["imp"] in (0, 1)


def test_ruling_the_reveal_stays_until_the_next_move() -> None:
    s = calm(players=2)
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "danger")
    a, b = (int(x) for x in slot.split("-"))
    s["wizards"][0]["glyphs"] = sorted([a, b])
    s["left"] = 1
    s2, _ = play(s, 0, "cast", a=a, b=b)  # the last action: the turn passes
    assert s2["current"] == 1 and RULES.view(s2, None)["reveal"]["spell"]["key"] == "danger"
    s3, _ = play(s2, 1, "end")
    assert s3["reveal"] is None


def test_ruling_last_resorts_never_spend_the_last_mana() -> None:
    s = calm(scenario="golem")
    s["mana"] = 1
    assert not any(m.action == "room" for m in RULES.legal_moves(s, 0))
    s["mana"] = 2
    assert Move.of("room", act="lr_glyph") in RULES.legal_moves(s, 0)
    assert Move.of("room", act="lr_banish") not in RULES.legal_moves(s, 0)


def test_ruling_the_crystal_holds_at_most_eight_mana() -> None:
    s = calm()
    s["mana"] = 7
    push(s, [{"op": "mana", "n": 3, "by": 0}])
    settle(s)
    assert s["mana"] == 8


def test_ruling_share_one_change_a_step() -> None:
    s = calm(players=2, scenario="golem")
    s["wizards"][0]["glyphs"] = [2, 5]
    s["wizards"][0]["shared"] = 3
    s, _ = play(s, 0, "end")
    moves = RULES.legal_moves(s, 0)
    assert Move.of("share", back=True) in moves and not any(m.get("glyph") for m in moves)
    s, _ = play(s, 0, "share", back=True)
    assert s["current"] == 1 and s["wizards"][0]["glyphs"] == [2, 3, 5]


def test_ruling_teleport_reaches_the_room_beside_the_board() -> None:
    s = calm(scenario="golem")
    s["wizards"][0]["char"] = "pip"
    push(s, [{"op": "teleport", "by": 0}])
    settle(s)
    assert "outer_dimension" in [o["value"] for o in s["choice"]["options"]]


def test_ruling_items_are_paid_with_the_lowest_glyphs_and_replace_the_old_one() -> None:
    s = calm(scenario="golem")
    s["wizards"][0].update(room="awakened_room", glyphs=[1, 2, 3, 6, 7], robe="ice", char="myrrin")
    s["rot"]["awakened_room"] = next(r for r in range(4) if "awakened_room" in _adj(s, r))
    s, _ = play(s, 0, "room", act="robe")
    s, _ = play(s, 0, "choose", value="fire")
    assert s["wizards"][0]["robe"] == "fire" and s["wizards"][0]["glyphs"] == [7]


def _adj(s: dict, rot: int) -> list[str]:
    from rules.academy.state import adjoining

    t = dict(s, rot=dict(s["rot"], awakened_room=rot))
    return adjoining(t, "masters_study") + adjoining(t, "workshop")


def test_ruling_a_wizard_who_dies_costs_a_mana_and_wakes_in_the_crystal() -> None:
    s = calm(scenario="golem")
    s["wizards"][0].update(room="hoard", glyphs=[1, 2], shared=None)
    s["rooms"]["hoard"]["demon"] = 1
    s, _ = play(s, 0, "end")
    assert s["wizards"][0]["room"] == "mana_crystal" and s["wizards"][0]["glyphs"] == [] and s["mana"] == 4


def test_ruling_a_declined_request_costs_nothing() -> None:
    s = calm(players=2)
    s["wizards"][0]["glyphs"] = [1]
    s["wizards"][1]["glyphs"] = [2]
    s, _ = play(s, 0, "cast", a=1, b=2, helper=1)
    s, _ = play(s, 1, "consent", ok=False)
    assert s["left"] == 3 and s["wizards"][0]["glyphs"] == [1] and s["wizards"][1]["glyphs"] == [2]


def test_ruling_a_wizard_may_leave_and_the_others_play_on() -> None:
    s = calm(players=3)
    s["hands"] = ["twist", "gathering", "lure_of_power"]
    s["wizards"][1]["glyphs"] = [2, 3]
    s2, events = RULES.apply(s, 1, Move.of("resign"))
    assert 1 in s2["resigned"] and s2["wizards"][1]["room"] is None and s2["wizards"][1]["glyphs"] == []
    assert "gathering" in s2["disaster_discard"] and s2["hands"][1] is None
    assert any(e.kind == "leave" for e in events)
    assert not any(m.get("helper") == 1 for m in RULES.legal_moves(s2, 0))
    s3, _ = play(s2, 0, "end")
    assert s3["current"] == 2  # the leaver's turns are skipped
    with pytest.raises(IllegalMove):
        RULES.apply(s3, 1, Move.of("resign"))


def test_ruling_the_current_player_leaving_ends_their_turn() -> None:
    s = calm(players=2)
    s["hands"] = ["twist", "gathering"]
    s2, _ = RULES.apply(s, 0, Move.of("resign"))
    assert s2["current"] == 1 and RULES.waiting_on(s2) == [1]


def test_ruling_the_last_wizard_cannot_leave_and_leavers_do_not_win() -> None:
    s = calm(players=1)
    with pytest.raises(IllegalMove):
        RULES.apply(s, 0, Move.of("resign"))
    s = calm(players=2)
    s, _ = RULES.apply(s, 1, Move.of("resign"))
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "abjure")
    a, b = (int(x) for x in slot.split("-"))
    s["wizards"][0]["glyphs"] = sorted([a, b])
    s, _ = play(s, 0, "cast", a=a, b=b)
    assert s["won"] and RULES.result(s).winners == (0,)


def test_a_seat_that_passes_reactions_keeps_its_glyph() -> None:
    s = calm(players=2)
    s["wizards"][0]["glyphs"] = [1]
    s["wizards"][1]["glyphs"] = [2]
    s, _ = play(s, 0, "cast", a=1, b=2, helper=1)
    (prompt,) = RULES.pending(s)
    move = RULES.decline(s, 1, prompt)
    assert move == Move.of("consent", ok=False) and move in RULES.legal_moves(s, 1)
    assert RULES.decline(s, 0, RULES.pending(calm())[0]) is None


def test_texts_name_seats_by_their_tags() -> None:
    # Contract, Rules.seat_tag: the service puts each player's name on the tag ("bob (P2)").
    s = calm(players=2)
    s["hands"] = ["twist", "gathering"]
    _, events = play(s, 0, "end")
    assert any(e.text.startswith("P1 ") for e in events) and any(e.text.startswith("P2 ") for e in events)
    assert RULES.pending(calm())[0].text.startswith(f"{RULES.seat_tag(0)}: ")


def test_ruling_a_turn_with_no_action_left_ends_itself() -> None:
    """Automatic play (issue 9): with every action spent, ending the turn is the lone move, it
    depends on the public board only (a re-deal of the hidden disasters and decks keeps it) and the
    service may play it; with an action left the wizard is asked."""
    s = calm(2)
    s["left"], s["extra"] = 0, 0
    prompt = RULES.pending(s)[0]
    assert prompt.decision == "actions" and RULES.legal_moves(s, 0) == [Move.of("end")]
    assert RULES.auto_resolvable(s, prompt, Move.of("end"))
    for k in range(5):
        assert RULES.legal_moves(RULES.scramble(s, 1, random.Random(k)), 0) == [Move.of("end")]
    s["left"] = 1
    assert len(RULES.legal_moves(s, 0)) > 1
    # The service plays only lone moves; a choice inside a disaster is never declared automatic.
    choice = Prompt(0, prompt.kind, "choice", "Choose a room.")
    assert not RULES.auto_resolvable(s, choice, Move.of("choose", value="hoard"))


@pytest.mark.parametrize("players", range(1, 7))
def test_ruling_normal_basic_game_is_the_rulebooks_at_every_size(players: int) -> None:
    # Setup (basic game): five mana, guardians on sources 4 and 5, the listed decks; nothing scales
    # with the table, while the designed easy setting is the one offered to large tables.
    normal = game(players, seed=11)
    easy = game(players, seed=11, difficulty="easy")
    guarded = {c["source"] for c in normal["rooms"].values() if c["source"] and c["guardian"]}
    assert normal["mana"] == 5 and guarded == {4, 5}
    held = [h for h in normal["hands"] if h]
    assert len(held) == players
    assert sorted(normal["disaster_deck"] + normal["disaster_discard"] + held) == sorted(BASIC_DECK)
    assert sorted(normal["progression"]) == sorted(BASIC_PROGRESSION)
    assert easy["mana"] == 7
    spec = next(o for o in RULES.options if o.name == "difficulty")
    assert spec.default == "normal" and "3 or more" in spec.description
