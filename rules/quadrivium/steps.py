"""Quadrivium's steps, declared once: who is asked, what they may do, what a move does, what follows.

The engine reads only this table. Each stage module keeps its own rules (``scene``, ``conflict``,
``trick``, ``council``); the table names the one function of each that answers each question, so
no step is spread over parallel if-chains. What follows a step is declared here too: the council
closes itself after the years vote and this table opens the next scene (``council`` sits below
``scene`` in the imports, so it never calls back up).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from rules.contract import Move
from rules.quadrivium import conflict, council, scene, trick
from rules.quadrivium.common import Ask, Events
from rules.quadrivium.state import Phase, State


class Step(StrEnum):
    """A step of the tale that asks for decisions."""

    CREATE = "create"
    """Making the covenant and the mages (every seat at once)."""
    SCENE = "scene"
    """A scene: the intent, the opposition, the tie-break for the Antagonist role."""
    FRAME = "frame"
    """A conflict's frame and its end: types, conditions, tricks to win, gifts, the finale, the refill."""
    TRICK = "trick"
    """A trick: placing, revealing, Aid, actions, magic, the Claim's bidding war, the spoils."""
    COUNCIL = "council"
    """A council: repair, bidding, support, mage actions, duels, the seasons vote."""


def _never(s: State) -> bool:
    return False


def _council_closed(s: State) -> bool:
    return s["council"] is None


@dataclass(frozen=True)
class StepRules:
    """One step: its open decisions, the moves of a decision, what a move does, and what follows."""

    asks: Callable[[State], list[Ask]]
    moves: Callable[[State, int, str], list[Move]]
    resolve: Callable[[State, int, Move, Events], None]
    closed: Callable[[State], bool] = _never
    """Whether the step has closed its own record (then ``then`` opens the next step)."""
    then: Callable[[State, Events], None] | None = None


STEPS: dict[Step, StepRules] = {
    Step.CREATE: StepRules(scene.create_asks, scene.create_moves, scene.create_resolve),
    Step.SCENE: StepRules(scene.scene_asks, scene.scene_moves, scene.scene_resolve),
    Step.FRAME: StepRules(conflict.frame_asks, conflict.frame_moves, conflict.frame_resolve),
    Step.TRICK: StepRules(trick.trick_asks, trick.trick_moves, trick.trick_resolve),
    Step.COUNCIL: StepRules(
        council.council_asks,
        council.council_moves,
        council.council_resolve,
        closed=_council_closed,
        then=scene.start_scene,
    ),
}

_OF_PHASE = {Phase.CREATE: Step.CREATE, Phase.SCENE: Step.SCENE, Phase.COUNCIL: Step.COUNCIL}


def step_of(s: State) -> Step | None:
    """Return the step the tale is at (None once it is over)."""
    phase = s["phase"]
    if phase == Phase.CONFLICT:
        # The stages that frame or wind up the conflict are the frame's; the rest are a trick's.
        return Step.FRAME if s["conflict"]["stage"] in conflict.FRAME_ASKS else Step.TRICK
    return _OF_PHASE.get(phase)


def asks(s: State) -> list[Ask]:
    """Return every open decision of the state."""
    step = step_of(s)
    return [] if step is None else STEPS[step].asks(s)


def moves(s: State, seat: int, decision: str) -> list[Move]:
    """Return the moves that answer a decision of the step in play (text arguments left out)."""
    step = step_of(s)
    return [] if step is None else STEPS[step].moves(s, seat, decision)


def resolve(s: State, seat: int, move: Move, ev: Events) -> None:
    """Carry out a move in the step in play, then open whatever follows a step that closed."""
    step = step_of(s)
    assert step is not None, "no step is open once the tale is over"
    STEPS[step].resolve(s, seat, move, ev)
    follow(s, ev)


def follow(s: State, ev: Events) -> None:
    """Open the next step when the one in play has closed its record."""
    step = step_of(s)
    if step is None:
        return
    rules = STEPS[step]
    if rules.then is not None and rules.closed(s):
        rules.then(s, ev)
