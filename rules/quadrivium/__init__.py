"""Quadrivium: a GM-less story game of mages in council and conflict, played with a standard deck."""

from __future__ import annotations

from rules.quadrivium.engine import QuadriviumRules
from rules.registry import register

RULES = register(QuadriviumRules())

__all__ = ["RULES", "QuadriviumRules"]
