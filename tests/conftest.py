"""Shared test setup."""

from __future__ import annotations

import pytest

from cogs import kit


@pytest.fixture(autouse=True)
def edits_at_machine_speed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests click faster than any player: the living board is edited at once, never debounced.

    SimCord's clock stands still unless a test advances it, so a debounced edit would wait for
    ever; the test of the debounce itself sets ``kit.EDIT_SPACING`` back.
    """
    monkeypatch.setattr(kit, "EDIT_SPACING", 0.0)
