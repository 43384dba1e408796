"""The Institute for Magical Arts: a two-player game of dice, Action Cards and Power Stones."""

from __future__ import annotations

from rules.institute.engine import InstituteRules
from rules.registry import register

RULES = register(InstituteRules())

__all__ = ["RULES", "InstituteRules"]
