"""Golden playthroughs: the current engines replay each seeded game exactly as its file records it.

A failure is a change of behaviour: read the diff, and if the change is intended regenerate the file
with ``python -m tests.golden <kind>`` and commit it with the change that caused it.
"""

from __future__ import annotations

import difflib

import pytest

from tests.golden import GOLDENS, playthrough


@pytest.mark.parametrize("kind", sorted(GOLDENS))
def test_the_engine_reproduces_its_golden_playthrough(kind: str) -> None:
    golden = GOLDENS[kind]
    recorded = golden.path.read_text(encoding="utf-8")
    played = playthrough(golden)
    if played != recorded:
        diff = difflib.unified_diff(
            recorded.splitlines(), played.splitlines(), "recorded", "played now", lineterm="", n=2
        )
        shown = "\n".join(list(diff)[:60])
        pytest.fail(f"{golden.path.name} no longer matches the engine:\n{shown}")


def test_golden_games_end_with_a_result() -> None:
    """Each recorded game is whole: moves, then the result line and its winners."""
    for golden in GOLDENS.values():
        text = golden.path.read_text(encoding="utf-8")
        assert "\n1. P" in text and "\nresult: " in text and "\nwinners: P" in text
