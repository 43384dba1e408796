"""Golden playthroughs: the current engines replay each seeded game exactly as its file records it.

A failure is a change of behaviour: read the diff, and if the change is intended regenerate the file
with ``python -m tests.golden <kind>`` and commit it with the change that caused it.
"""

from __future__ import annotations

import difflib

import pytest

from rules.contract import Move
from tests.golden import GOLDENS, Golden, RandomPicker, named, playthrough


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
    """Each recorded game is whole: moves, then the result line and its winners (or none)."""
    for golden in GOLDENS.values():
        text = golden.path.read_text(encoding="utf-8")
        assert "\n1. " in text and "\nresult: " in text
        winners = text.split("\nwinners: ", 1)[1].split("\n", 1)[0]
        assert winners == "none" or winners.split(", ")[0] in text.split("# seats: ", 1)[1]


def test_every_game_and_mode_has_a_golden_game() -> None:
    """Each game, Argent at its smallest and largest tables, an advanced Academy scenario, and
    Quadrivium at 2 and 4 players, each of those tales reaching a council (issue 26 item 13)."""
    tables = {(g.kind, g.players, g.options.get("scenario")) for g in GOLDENS.values()}
    assert {("argent", 2, None), ("argent", 5, None), ("institute", 2, None)} <= tables
    assert any(k == "academy" and s not in (None, "basic") for k, _, s in tables)
    quadrivium = [g for g in GOLDENS.values() if g.kind == "quadrivium"]
    assert {g.players for g in quadrivium} >= {2, 4}
    for golden in quadrivium:
        assert "convenes." in golden.path.read_text(encoding="utf-8"), golden.name


def test_goldens_are_named_by_key_or_kind() -> None:
    assert [g.name for g in named(["argent"])] == ["argent_2p", "argent_3p", "argent_5p"]
    assert [g.name for g in named(["quadrivium_2p"])] == ["quadrivium_2p"]
    with pytest.raises(KeyError):
        named(["chess"])


class IdlePicker(RandomPicker):
    """Ends every turn at once: a cooperative table that does nothing loses to its disasters."""

    def pick(self, state: object, seat: int, legal: list[Move]) -> Move:
        return next((m for m in legal if m.action == "end"), legal[0])


def test_a_cooperative_defeat_is_written_with_no_winner() -> None:
    text = playthrough(Golden("academy", 2, 5, {"scenario": "basic"}, IdlePicker))
    assert "\nresult: " in text and text.endswith("\nwinners: none\nscores: P1 0, P2 0\n"), text[-300:]
