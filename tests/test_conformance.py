"""Every registered game, and the test game, must pass the conformance suite."""

from __future__ import annotations

import pytest

from rules import registry
from rules.toy import TOY
from tests.conformance import check_game

# Deep checks (views, scrambles, refusals) on every step cost more on long games; a stride keeps
# the suite fast while every move is still applied and validated.
STRIDE = {"argent": 4, "institute": 3, "quadrivium": 3, "academy": 2}


@pytest.mark.parametrize("kind", registry.kinds())
def test_registered_game_conforms(kind: str) -> None:
    rules = registry.get(kind)
    assert check_game(rules, seeds=2, deep_every=STRIDE.get(kind, 1)) > 0


def test_toy_game_conforms() -> None:
    assert check_game(TOY, seeds=3) > 0
