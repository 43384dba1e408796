"""Declared steps (issue 27): the Institute and Quadrivium each read one table of steps.

Each step is declared once (its prompts, legal moves, what a move does, what runs on reaching
it), with names from an Enum; the engines decide nothing by comparing a step's name with a literal.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from rules import registry
from rules.contract import Move
from rules.institute import steps as institute_steps
from rules.institute.state import Step as InstituteStep
from rules.institute.state import say
from rules.quadrivium.state import event as quadrivium_event
from tests.institute_helpers import R as INSTITUTE

ROOT = Path(__file__).resolve().parents[1]
STEP_TEST = re.compile(r"""(\[["']step["']\]|\bstep)\s*(==|!=|in)\s*[("'{]""")
"""A step compared with a literal name (or a literal tuple or set of names)."""


def test_every_institute_step_is_declared() -> None:
    assert set(institute_steps.STEPS) == set(InstituteStep)


@pytest.mark.parametrize("seed", [1, 7])
def test_institute_prompts_and_moves_come_from_the_step_in_play(seed: int) -> None:
    rand = random.Random(seed)
    s = INSTITUTE.setup(2, INSTITUTE.default_options(), seed)
    reached = set()
    for _ in range(2500):
        if INSTITUTE.is_over(s):
            break
        step = InstituteStep(s["step"])
        reached.add(step)
        prompts = INSTITUTE.pending(s)
        assert prompts, f"nobody is asked in {step}"
        if not s["frames"]:
            assert prompts == institute_steps.STEPS[step].prompts(s)
        seat = rand.choice(prompts).seat
        s, _ = INSTITUTE.apply(s, seat, rand.choice(INSTITUTE.legal_moves(s, seat)))
    assert {InstituteStep.ASSIGN, InstituteStep.WINDOW2, InstituteStep.PORTAL} <= reached


def test_a_refusal_and_the_turn_rule_come_from_the_step_in_play() -> None:
    s = INSTITUTE.setup(2, INSTITUTE.default_options(), 3)
    s["step"] = InstituteStep.PHASE4.value
    refusal = INSTITUTE.why_not(s, 0, Move.of("done"))
    assert "(Phase IV, permanent powers)" in str(refusal)
    assert INSTITUTE.turn_rule_at(s) == institute_steps.STEPS[InstituteStep.PHASE4].rule
    s["step"] = InstituteStep.WINDOW3.value
    assert INSTITUTE.turn_rule_at(s) == INSTITUTE.turn_rule


@pytest.mark.parametrize("game", ["institute", "quadrivium"])
def test_the_engines_compare_no_step_name_with_a_literal(game: str) -> None:
    found = []
    for path in sorted((ROOT / "rules" / game).glob("*.py")):
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if STEP_TEST.search(line):
                found.append(f"{path.name}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("kind", ["institute", "quadrivium"])
def test_every_event_has_a_kind_from_the_games_closed_set(kind: str) -> None:
    rules = registry.get(kind)
    members = {k.value for k in rules.event_kinds}
    seen: set[str] = set()
    for seed in (2, 9):
        rand = random.Random(seed)
        options = rules.default_options() | ({"creation": "quick"} if kind == "quadrivium" else {})
        s = rules.setup(2, options, seed)
        for _ in range(1500):
            if rules.is_over(s):
                break
            seat = rand.choice(rules.pending(s)).seat
            move = rand.choice(rules.legal_moves(s, seat))
            s, events = rules.apply(s, seat, rules.sample_words(move, rand) if kind == "quadrivium" else move)
            seen |= {e.kind for e in events}
    assert seen and seen <= members, seen - members


def test_an_event_of_no_known_kind_is_refused() -> None:
    with pytest.raises(ValueError):
        say(INSTITUTE.setup(2, INSTITUTE.default_options(), 1), [], "argent", "A line of another game.")
    with pytest.raises(ValueError):
        quadrivium_event("A line of another game.", "argent")
