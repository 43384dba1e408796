"""Wizard's Academy: a cooperative game of wizards saving a collapsing academy."""

from __future__ import annotations

from rules.academy.engine import AcademyRules
from rules.registry import register

RULES = register(AcademyRules())

__all__ = ["RULES", "AcademyRules"]
