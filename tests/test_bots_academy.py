"""Wizard's Academy's bots: the search's playout policy, where a playout stops, the judge, the grid."""

from __future__ import annotations

import json
import random

import pytest

from bench.cli import main
from bots import make_bot, observe
from bots.core import playbook
from bots.games.academy import evaluate, next_actions, rank, rollout_policy, searches, sharp
from bots.levels import CONFIDENCE, settle
from rules.academy import RULES
from rules.contract import Move
from tests.academy_helpers import calm, game


def test_the_playout_policy_binds_no_spell_it_has_not_seen_though_the_sample_fixes_them_all() -> None:
    s = calm()
    s["wizards"][0]["room"] = "library"
    legal = RULES.legal_moves(s, 0)
    binds = [m for m in legal if m.action == "bind"]
    assert binds, "the library offers binds"
    for k in range(20):
        move = rollout_policy(RULES, s, 0, legal, random.Random(k))
        assert move in legal and move.action != "bind"
    # Once a cast has shown the slot's spell this turn, binding it is sensible.
    slot = binds[0].get("slot")
    spell = s["slots"][slot]["spell"]
    s["reveal"] = {"slot": slot, "spell": spell, "seat": 0, "turn": s["turn"]}
    moves = {rollout_policy(RULES, s, 0, legal, random.Random(k)) for k in range(5)}
    assert any(m.action == "bind" and m.get("spell") == spell for m in moves)


def test_a_playout_stops_at_the_next_turns_actions() -> None:
    s = game(players=2, seed=3)
    done = next_actions(s)
    turn = s["turn"]
    assert not done(s)
    rand = random.Random(3)
    while not done(s) and not s["over"]:
        seat = RULES.waiting_on(s)[0]
        s, _ = RULES.apply(s, seat, rollout_policy(RULES, s, seat, RULES.legal_moves(s, seat), rand))
    assert s["over"] or (s["turn"] == turn + 1 and s["step"] == "actions")


def test_the_judge_likes_mana_and_bound_spells_and_dislikes_fire() -> None:
    s = calm()
    base = evaluate(RULES, s, 0)
    richer = dict(s, mana=s["mana"] + 2)
    assert evaluate(RULES, richer, 0) > base
    burning = RULES.copy_state(s)
    burning["rooms"]["workshop"]["fire"] = 2
    assert evaluate(RULES, burning, 0) < base
    bound = RULES.copy_state(s)
    slot = next(k for k, v in bound["slots"].items() if v["spell"] == "abjure")
    bound["slots"][slot]["bound"] = True
    assert evaluate(RULES, bound, 0) > base


def test_strong_plays_a_legal_move_and_sees_only_its_view() -> None:
    s = game(players=2, seed=5)
    seat = RULES.waiting_on(s)[0]
    other = RULES.scramble(s, seat, random.Random(1))
    bot = make_bot("strong", iterations=3)
    real = bot.choose(observe(RULES, s, seat), random.Random(2))
    assert real in RULES.legal_moves(s, seat)
    assert bot.choose(observe(RULES, other, seat), random.Random(2)) == real


def test_the_grid_reports_each_levels_win_rate_per_cell(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["grid", "--game", "academy", "--players", "1", "--levels", "random", "--games", "2",
            "--axes", "difficulty", "--seed", "4"]
    assert main(argv) == 0
    out = capsys.readouterr().out.strip().splitlines()
    data = json.loads(out[-1])
    assert data["game"] == "academy" and data["errors"] == 0
    assert [c["difficulty"] for c in data["cells"]] == ["normal", "easy", "hard"]
    assert all(c["level"] == "random" and c["games"] == 2 and 0 <= c["win_rate"] <= 1 for c in data["cells"])
    assert any(line.startswith("easy") and "random" not in line for line in out)


def test_the_grid_refuses_a_game_that_is_not_cooperative(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["grid", "--game", "quadrivium", "--players", "2", "--games", "1"]) == 2
    assert "cooperative" in capsys.readouterr().err


def test_the_search_weighs_actions_and_choices_but_not_the_share_or_the_setup_shifts() -> None:
    s = calm(players=2)
    assert not searches(observe(RULES, s, 0)), "no glyphs, no spell in reach: a walk is the policy's"
    s["wizards"][0]["glyphs"] = [1, 2]
    assert searches(observe(RULES, s, 0))
    ranked = rank(observe(RULES, s, 0), random.Random(1))
    assert ranked[0] == sharp(observe(RULES, s, 0), random.Random(1)), "its own policy's move first"
    assert any(m.action == "cast" for m in ranked) and not any(m.action == "move" for m in ranked[1:])
    s["step"] = "share"
    assert not searches(observe(RULES, s, 0))
    shifts = game(players=2, scenario="gates", seed=2)
    assert shifts["step"] == "shifts" and not searches(observe(RULES, shifts, shifts["current"]))


def test_strong_plays_its_sharper_policy_where_it_does_not_search(monkeypatch: pytest.MonkeyPatch) -> None:
    s = calm(players=2)
    seating = observe(RULES, s, 0)
    assert not searches(seating), "no glyphs, no spell in reach: no search"
    basic = make_bot("basic").choose(seating, random.Random(1))
    other = next(m for m in seating.legal if m != basic)
    monkeypatch.setattr(playbook("academy"), "sharp", lambda seating, rand: other)
    assert make_bot("strong", iterations=2).choose(seating, random.Random(1)) == other
    assert make_bot("basic").choose(seating, random.Random(1)) == basic, "basic keeps the balance policy"


def test_the_judge_values_a_playout_that_found_the_goal_spell() -> None:
    from bots.games.academy import PLAYOUT_MEMORY, witness

    s = calm(players=2)
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "abjure")
    blind = evaluate(RULES, s, 0)
    s["reveal"] = {"slot": slot, "spell": "abjure", "seat": 0, "turn": s["turn"], "how": "cast"}
    witness(s)  # a playout ply showed Abjure's slot
    assert s[PLAYOUT_MEMORY]["known"] == {slot: "abjure"}
    s["reveal"] = None
    witness(s)  # the reveal is gone from the board, not from the playout's memory
    assert evaluate(RULES, s, 0) > blind
    s["shuffles"] = [0, 1, 0, 0]  # that level shuffled: the playout forgets it
    witness(s)
    assert s[PLAYOUT_MEMORY]["known"] == {} and evaluate(RULES, s, 0) == blind


def _waiting_in_the_crystal() -> tuple[dict, dict]:
    """Both wizards wait in the crystal holding Abjure's pair (5-5) while a fire burns two rooms away;
    the seat remembers Abjure and Snuff (3-5), and a glyph 3 source lies next door (the Cursed Room)."""
    s = calm(players=2)
    for slot, spell in (("5-5", "abjure"), ("3-5", "snuff")):
        other = next(k for k, v in s["slots"].items() if v["spell"] == spell)
        s["slots"][slot]["spell"], s["slots"][other]["spell"] = spell, s["slots"][slot]["spell"]
    s["rooms"]["cursed_room"]["source"] = 3
    s["rooms"]["warded_room"]["fire"] = 1
    for w in s["wizards"]:
        w["glyphs"] = [5, 5]
    return s, {"known": {"5-5": "abjure", "3-5": "snuff"}, "shuffles": list(s["shuffles"])}


def test_strong_keeps_abjures_pair_while_fire_burns_where_a_looser_bar_would_spend_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Both wizards hold Abjure's pair in the crystal while a fire burns two rooms away. Cast now, Abjure
    # wins nothing (a fire burns) and the pair is gone; the judge still likes the cast a little. The
    # Academy's bar (a margin of about a mana, two standard errors) keeps the policy's wait; the generic
    # bar would spend the pair.
    s, memory = _waiting_in_the_crystal()
    seating = observe(RULES, s, 0, memory)
    abjure = {m for m in seating.legal if m.action == "cast" and {m.get("a"), m.get("b")} == {5}}
    assert sharp(seating, random.Random(1)) == Move.of("end"), "its policy waits"
    for k in range(3):
        assert make_bot("strong", iterations=20).choose(seating, random.Random(k)) == Move.of("end")
    monkeypatch.setattr(playbook("academy"), "margin", 0.0)
    monkeypatch.setattr(playbook("academy"), "confidence", 1.0)
    assert make_bot("strong", iterations=20).choose(seating, random.Random(0)) in abjure


def test_the_search_leaves_its_policy_only_by_the_games_margin_and_confidence() -> None:
    book = playbook("academy")
    lead = [[0.5, 0.5 + d] for d in (0.25, -0.05, 0.2, 0.0, 0.1)]  # a lead of 0.1 at 1.75 standard errors
    assert settle(lead, 0.03, CONFIDENCE) == 1, "the generic bar takes it"
    assert settle(lead, book.margin, book.confidence) == 0, "the Academy's asks for two standard errors"
    clear = [[0.5, 0.5 + d] for d in (0.12, 0.1, 0.08, 0.1, 0.1)]
    assert settle(clear, book.margin, book.confidence) == 1
    small = [[0.5, 0.5 + d] for d in (0.05, 0.04, 0.05, 0.04, 0.05)]
    assert settle(small, 0.03, CONFIDENCE) == 1 and settle(small, book.margin, book.confidence) == 0
