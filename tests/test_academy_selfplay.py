"""Wizard's Academy self-play: the designed game can be won and lost by a sensible cooperative policy,
playing only through the contract (bots.games.academy_policy)."""

from __future__ import annotations

from bots.games.academy_policy import Policy, play
from rules.academy import RULES
from rules.academy.state import slot_level
from tests.academy_helpers import calm, game


def test_the_policy_wins_some_basic_games_and_loses_some() -> None:
    results = [play(1, {"scenario": "basic"}, seed)["won"] for seed in range(1, 13)]
    assert any(results) and not all(results)


def test_every_finished_game_has_a_shared_result() -> None:
    for seed in (1, 2, 3):
        state = play(3, {"scenario": "basic"}, seed)
        result = RULES.result(state)
        assert state["over"] and result is not None
        assert result.winners in ((), (0, 1, 2)) and bool(result.winners) == state["won"]


def test_easy_basic_game_starts_with_abjure_bound() -> None:
    s = game(2, difficulty="easy", seed=4)
    assert [v["spell"] for v in s["slots"].values() if v["bound"]] == ["abjure"] and s["mana"] == 7
    # designed easy setting: only glyph source 5 starts guarded (the rulebook's game guards 4 and 5)
    assert sorted(c["source"] for c in s["rooms"].values() if c["guardian"]) == [5]
    assert sorted(c["source"] for c in game(2, seed=4)["rooms"].values() if c["guardian"]) == [4, 5]
    hard = game(2, difficulty="hard", seed=4)
    assert hard["mana"] == 4 and not any(v["bound"] for v in hard["slots"].values())


def test_the_fast_layout_score_matches_the_engines_reach_after_every_setup_shift() -> None:
    from bots.games.academy_layout import openness, shifted
    from rules.academy.state import CRYSTAL, distances

    for seed, scenario in ((1, "unstable"), (2, "gates"), (3, "demon"), (4, "golem")):
        s = RULES.setup(3, {"scenario": scenario}, seed)
        for move in [m for m in RULES.legal_moves(s, s["current"]) if m.action == "shift"]:
            after, _ = RULES.apply(s, s["current"], move)
            board, rot = shifted(s["board"], s["rot"], move)
            assert (board, rot) == (after["board"], after["rot"])
            reach = distances(after, CRYSTAL)
            expected = len(reach) + 2 * sum(1 for r in reach if (after["rooms"][r]["source"] or 9) <= 5)
            assert openness(after) == expected


def _seen(s: dict, policy: Policy, *levels: int, but: str | None = None) -> None:
    """Let the policy's memory hold every used slot of these levels (as casts would show them), but one."""
    for slot, entry in s["slots"].items():
        if entry["spell"] and slot_level(slot) in levels and slot != but:
            policy.mind.known[slot] = entry["spell"]


def test_the_last_unknown_spell_of_a_basic_level_is_deduced_from_the_public_list() -> None:
    # Basic setup lists the level 2 spells; with eight of the nine slots seen, the ninth is known.
    s = calm()
    policy = Policy(1)
    last = next(k for k, v in s["slots"].items() if v["spell"] == "abjure")
    _seen(s, policy, 2, but=last)
    assert policy._deduced(RULES.view(s, 0))[last] == "abjure"
    policy.mind.known.pop(next(k for k in policy.mind.known if k != last))
    assert policy._deduced(RULES.view(s, 0))[last] is None  # two unknown slots: nothing follows


def test_the_policy_casts_a_known_abjure_in_the_crystal_with_no_fire() -> None:
    s = calm()
    policy = Policy(1)
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "abjure")
    policy.mind.known[slot] = "abjure"
    s["wizards"][0]["glyphs"] = sorted(int(g) for g in slot.split("-"))
    move = policy.pick(s, 0)
    assert move.action == "cast" and sorted([move.get("a"), move.get("b")]) == s["wizards"][0]["glyphs"]
    after, _ = RULES.apply(s, 0, move)
    assert after["won"]


def test_the_last_action_leaves_a_room_where_an_imp_would_rob_a_glyph() -> None:
    # ENDURE (imps): ending the turn with an imp costs a glyph; the policy steps out on its last action.
    s = calm()
    s["wizards"][0].update(room="library", glyphs=[1, 2])
    s["rooms"]["library"]["imp"] = 1
    s["left"] = 1
    move = Policy(1).pick(s, 0)
    assert move.action == "move" and not s["rooms"][move.get("room")]["imp"]


def _demon_beside_the_crystal(move_slot: bool) -> tuple[dict, str, Policy]:
    """A Bind the Demon table: seat 0 in the crystal holding Bind Demon's pair, a demon next door."""
    s = calm(1, "demon")
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "bind_demon")
    next_door = next(r["key"] for r in RULES.view(s, 0)["grid"] if "mana_crystal" in r["adjoining"])
    s["rooms"][next_door]["demon"] = 1
    s["wizards"][0]["glyphs"] = sorted(int(g) for g in slot.split("-"))
    s["slots_left"] = {"move": move_slot, "room": False, "magic": True}
    policy = Policy(1)
    policy.mind.known[slot] = "bind_demon"
    return s, next_door, policy


def test_the_policy_enters_the_demons_room_only_with_an_action_left_to_bind_it() -> None:
    # ENDURE (demon, 3 damage): a wizard ending the turn in its room dies and the crystal pays a mana,
    # so a move paid with the magic action (the move slot is spent) never walks in; with the move slot
    # still free the wizard walks in and binds it with the magic action.
    s, lair, policy = _demon_beside_the_crystal(move_slot=False)
    move = policy.pick(s, 0)
    assert not (move.action == "move" and move.get("room") == lair)
    s, lair, policy = _demon_beside_the_crystal(move_slot=True)
    move = policy.pick(s, 0)
    assert move.action == "move" and move.get("room") == lair
    s, _ = RULES.apply(s, 0, move)
    cast = policy.pick(s, 0)
    slot = f"{min(cast.get('a'), cast.get('b'))}-{max(cast.get('a'), cast.get('b'))}"
    assert cast.action == "cast" and policy.mind.spell_at(RULES.view(s, 0), slot) == "bind_demon"
