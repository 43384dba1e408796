"""Quadrivium's declared steps: the engine reads one table, and the table answers every decision."""

from __future__ import annotations

import random

from rules.quadrivium import council, steps, trick
from rules.quadrivium.state import Phase
from rules.quadrivium.steps import STEPS, Step, step_of
from tests.quadrivium_helpers import R, quick


def _walk(seed: int, players: int, limit: int = 1500) -> list[tuple[dict, list]]:
    """Play a seeded random game; return (state, prompts) at every decision point."""
    rand = random.Random(seed)
    s = quick(players, seed)
    seen = []
    for _ in range(limit):
        if R.is_over(s):
            break
        prompts = R.pending(s)
        seen.append((s, prompts))
        seat = prompts[0].seat
        s, _ = R.apply(s, seat, R.sample_words(rand.choice(R.legal_moves(s, seat)), rand))
    return seen


def test_every_step_is_declared_once_with_its_asks_moves_and_resolve() -> None:
    assert set(STEPS) == set(Step)
    for rules in STEPS.values():
        assert callable(rules.asks) and callable(rules.moves) and callable(rules.resolve)


def test_every_open_decision_is_in_a_declared_step_and_every_move_has_its_handler() -> None:
    stages = set()
    for seed, players in ((3, 2), (5, 3), (8, 4)):
        for s, prompts in _walk(seed, players):
            step = step_of(s)
            assert step is not None and prompts
            stages.add(step)
            assert [(a.seat, a.decision) for a in steps.asks(s)] == [(p.seat, p.decision) for p in prompts]
            for p in prompts:
                actions = {m.action for m in R.legal_moves(s, p.seat)}
                if step is Step.TRICK and not s["conflict"]["block"]:
                    assert actions <= set(trick.TRICK_MOVES), actions - set(trick.TRICK_MOVES)
                if step is Step.COUNCIL and not s["council"]["duel"]:
                    assert p.decision in council.COUNCIL_MOVES
                    assert s["council"]["step"] in council.COUNCIL_STEPS
    assert {Step.SCENE, Step.FRAME, Step.TRICK, Step.COUNCIL} <= stages


def test_a_council_closed_by_the_years_vote_opens_the_next_scene_through_the_table() -> None:
    s = quick(2, 1)
    council.open_council(s, [])
    s["council"]["step"] = "years"
    scenes = s["scenes"]
    events: list = []
    # Both seats vote one season: the council closes itself; the table's ``then`` opens a scene.
    steps.resolve(s, 0, R.legal_moves(s, 0)[0], events)
    assert s["phase"] == Phase.COUNCIL
    steps.resolve(s, 1, R.legal_moves(s, 1)[0], events)
    assert s["phase"] == Phase.SCENE and s["council"] is None and s["scenes"] == scenes + 1
    assert events[-1].kind == "scene"
