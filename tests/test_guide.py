"""/game rules: a how-to-play summary per game, and a guide file in our own words."""

from __future__ import annotations

import pytest

from rules import registry
from service import guide


@pytest.mark.parametrize("kind", registry.kinds())
def test_every_game_has_a_how_to_play_summary_of_10_to_20_lines(kind: str) -> None:
    rules = registry.get(kind)
    shown = guide.guide(rules)
    lines = shown.summary.splitlines()
    assert 10 <= len(lines) <= 20, lines
    text = shown.summary.casefold()
    assert "**aim.**" in text and "**it ends**" in text  # the aim and how it ends
    assert any(word in text for word in ("your turn", "a round", "a scene"))  # and how play goes
    assert len(shown.summary) <= 2000  # one Discord message


@pytest.mark.parametrize("kind", registry.kinds())
def test_the_guide_file_lists_every_option_and_ships_no_rulebook(kind: str) -> None:
    rules = registry.get(kind)
    files = guide.guide(rules).files
    # The publishers' rulebooks are not in the repository: only our guide is attached.
    assert [f.name for f in files] == [f"{kind}-how-to-play.txt"]
    text = files[0].text
    for option in rules.options:
        assert f"{option.name}: {option.description}" in text
    assert "not shipped with Conclave" in text and "**" not in text and "`" not in text
