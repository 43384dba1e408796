"""Pure game engines, one package per game, and the contract they share."""

from rules.contract import (
    Event,
    IllegalMove,
    MalformedMove,
    Move,
    NotYourDecision,
    OptionSpec,
    Prompt,
    PromptKind,
    Result,
    RuleRef,
    Rules,
    RulesError,
    UnknownMove,
)

__all__ = [
    "Event",
    "IllegalMove",
    "MalformedMove",
    "Move",
    "NotYourDecision",
    "OptionSpec",
    "Prompt",
    "PromptKind",
    "Result",
    "RuleRef",
    "Rules",
    "RulesError",
    "UnknownMove",
]
