"""The sharper basic-game policy (bots.games.academy_basic.SharpBasic): where it leaves the balance
policy on purpose, and that it plays a whole legal game."""

from __future__ import annotations

from bots.games.academy import SharpPolicy
from bots.games.academy_policy import Policy
from rules.academy import RULES
from rules.academy.state import distances
from rules.contract import Move
from tests.academy_helpers import calm

Sharp = SharpPolicy
"""The ``strong`` level's policy, the basic game's moves included."""


def _slot_of(s: dict, spell: str) -> str:
    return next(k for k, v in s["slots"].items() if v["spell"] == spell)


def _guarded_highs() -> dict:
    """A calm state whose glyph 4 and 5 sources both have a guardian on them."""
    s = calm(2)
    s["rooms"]["sanctuary"].update(source=4, guardian=1)
    s["rooms"]["observatory"].update(source=5, guardian=1)
    return s


def test_steal_glyphs_takes_the_guarded_glyph_the_looks_lack_not_the_highest() -> None:
    # Glyph 4 and 5 are both guarded beside the crystal; the table already holds two 5s, so every
    # level 2 look it cannot cast lacks a 4: the balance policy still steals the highest glyph.
    s = calm(2)
    s["rooms"]["masters_study"].update(source=4, guardian=1)
    s["rooms"]["flux_point"].update(source=5, guardian=1)
    steal = _slot_of(s, "steal_glyphs")
    s["wizards"][0]["glyphs"] = sorted(int(g) for g in steal.split("-"))
    s["wizards"][1]["glyphs"] = [5, 5]
    sharp, base = Sharp(1), Policy(1)
    for policy in (sharp, base):
        policy.mind.known[steal] = "steal_glyphs"
    pair = sorted(int(g) for g in steal.split("-"))
    cast = next(
        m
        for m in RULES.legal_moves(s, 0)
        if m.action == "cast" and m.get("helper") is None and sorted([m.get("a"), m.get("b")]) == pair
    )
    s, _ = RULES.apply(s, 0, cast)
    assert s["choice"] is not None and "source" in s["choice"]["why"]
    assert base.pick(s, 0).get("value") == "flux_point"
    pick = sharp.pick(s, 0)
    assert pick.get("value") == "masters_study"
    after, _ = RULES.apply(s, 0, pick)
    assert 4 in after["wizards"][0]["glyphs"]


def test_a_blocked_abjure_sends_the_wizard_gathering_for_level_1_looks() -> None:
    # Abjure lies on 1-5 and glyph 5 is guarded: only Nova or Steal Glyphs (level 1, not yet found)
    # reaches it. The balance policy walks off for a second glyph 1; the sharper one takes the glyph 2
    # at its feet, for the level 1 slots 2-2 and 2-3 it has still to look at.
    s = calm(2)
    other = s["slots"]["1-5"]["spell"]
    s["slots"][_slot_of(s, "abjure")]["spell"], s["slots"]["1-5"]["spell"] = other, "abjure"
    s["rooms"]["masters_study"].update(source=5, guardian=1)
    s["rooms"]["flux_point"]["source"] = 2
    s["rooms"]["library"]["source"] = 1
    s["wizards"][0].update(room="flux_point", glyphs=[1])
    sharp, base = Sharp(1), Policy(1)
    for policy in (sharp, base):
        policy.mind.known["1-5"] = "abjure"
    assert base.pick(s, 0) == Move.of("move", room="library")
    assert sharp.pick(s, 0) == Move.of("take")


def test_the_last_two_actions_never_wade_into_deep_water() -> None:
    # A move into water takes two actions; with only two left the wizard ends the turn in deep water
    # and the crystal pays a mana to save it. The balance policy walks in for the glyph there.
    s = calm(2)
    s["rooms"]["flux_point"].update(source=1, water=2)
    s["left"] = 2
    assert Policy(1).pick(s, 0) == Move.of("move", room="flux_point")
    move = Sharp(1).pick(s, 0)
    assert move in RULES.legal_moves(s, 0) and move.get("room") != "flux_point"
    s["left"] = 3  # with an action to spare the wizard wades in, takes the glyph and can still leave
    assert Sharp(1).pick(s, 0).get("room") == "flux_point"


def test_a_wizard_walled_off_from_the_crystal_casts_instead_of_idling() -> None:
    # The test academy leaves the Workshop reachable only from the Crystal Ball Room and the Zen Room;
    # the guarded sources are out of reach too, so the balance policy ends its turn with three actions.
    s = _guarded_highs()
    s["wizards"][0].update(room="workshop", glyphs=[2, 2])
    assert Policy(1).pick(s, 0).action == "end"
    move = Sharp(1).pick(s, 0)
    assert move.action == "cast" and (move.get("a"), move.get("b")) == (2, 2)


def test_a_whole_basic_game_is_legal() -> None:
    for difficulty in ("easy", "hard"):
        state = RULES.setup(2, {"scenario": "basic", "difficulty": difficulty}, 3)
        policy = Sharp(3)
        for _ in range(RULES.max_moves(2, {"scenario": "basic"})):
            if RULES.is_over(state):
                break
            seat = RULES.waiting_on(state)[0]
            move = policy.pick(state, seat)
            assert move in RULES.legal_moves(state, seat)
            state, events = RULES.apply(state, seat, move)
            policy.mind.observe(RULES.view(state, seat), events)
        assert RULES.is_over(state)


def _step_closer(s: dict, move: Move, room: str) -> bool:
    """Whether a move brings seat 0 one step closer to a room."""
    here = s["wizards"][0]["room"]
    return move.action == "move" and distances(s, move.get("room"))[room] < distances(s, here)[room]


def _guarded_with_nova(*policies: Policy) -> tuple[dict, str]:
    """A state with guardians on glyph 4 and 5 and a glyph 1 source; each policy knows where Nova lies."""
    s = _guarded_highs()
    s["rooms"]["hoard"]["source"] = 1
    nova = _slot_of(s, "nova")
    for policy in policies:
        policy.mind.known[nova] = "nova"
    return s, nova


def test_a_known_nova_is_carried_to_the_library_nearby_and_bound() -> None:
    # Nova is known but face down: the next Wild Magic would shuffle it away while the guardian on
    # glyph 4 still stands. The Library is two moves off, so the wizard goes to bind it there.
    sharp, base = Sharp(1), Policy(1)
    s, nova = _guarded_with_nova(sharp, base)
    assert not _step_closer(s, base.pick(s, 0), "library")
    assert _step_closer(s, sharp.pick(s, 0), "library")
    s["wizards"][0]["room"] = "library"
    assert sharp.pick(s, 0) == Move.of("bind", slot=nova, spell="nova")
    s, _ = RULES.apply(s, 0, Move.of("bind", slot=nova, spell="nova"))
    assert s["slots"][nova]["bound"]


def test_no_library_trip_when_far_or_when_abjure_is_known() -> None:
    policy = Sharp(1)
    s, _ = _guarded_with_nova(policy)
    s["wizards"][0]["room"] = "hoard"  # four moves from the Library
    assert not _step_closer(s, policy.pick(s, 0), "library")
    s["wizards"][0]["room"] = "mana_crystal"
    policy.mind.known[_slot_of(s, "abjure")] = "abjure"
    assert not _step_closer(s, policy.pick(s, 0), "library")


def test_with_no_way_past_the_guardians_a_level_1_look_is_cast_where_the_wizard_stands() -> None:
    # Both glyph 4 and 5 are guarded and no opener is known: the balance policy carries its pair to a
    # guardian's room before it looks; the sharper one looks at once and saves the walk.
    s = _guarded_highs()
    s["rooms"]["flux_point"]["source"] = 2
    s["wizards"][0].update(room="planar_rift", glyphs=[2, 2])
    assert Policy(1).pick(s, 0).action == "move"
    move = Sharp(1).pick(s, 0)
    assert move.action == "cast" and (move.get("a"), move.get("b")) == (2, 2)
    s["rooms"]["zen_room"]["fire"] = 1  # while fire burns the balance policy's plan stands
    assert Sharp(1).pick(s, 0).action != "cast"
