"""The Institute's typed view: a frozen record of what one seat may know, with the facts worked out.

``InstituteRules.view`` returns the JSON view (the stored, hashed form; see VIEW.md). Presenters
(cogs, render, bots, the web) read it through ``read_view``: attributes instead of keys, the step
as a ``Step``, the standings, whose decision it is and in what words, who has locked in. The record
is built from the view alone, so it can hold nothing the view does not show that seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.institute.state import Step


@dataclass(frozen=True)
class PlayerRecord:
    """One player as the viewing seat may see them."""

    seat: int
    colour: str
    score: int
    charms: int
    rerolls: int
    stones: int
    dice: tuple[int, ...]
    confirmed: bool
    assignment: tuple[str | None, ...] | None
    """The Action Cards under the dice, or None while they are secret from the viewer."""
    portal_choice: int | None
    portal_chosen: bool


@dataclass(frozen=True)
class LocationRecord:
    """One of the six Locations: an Institute Card, the Portal, or empty (the deck ran dry)."""

    number: int
    kind: str
    """"card", "portal" or "empty" (VIEW.md)."""
    card: str | None
    """The name of the Institute Card there, else None."""


@dataclass(frozen=True)
class Ask:
    """A seat the game waits on, and what it must decide, in words."""

    seat: int
    decision: str
    secret: bool
    """Whether the seats answer in secret (Phase I, a contested Portal)."""
    text: str


@dataclass(frozen=True)
class InstituteRecord:
    """What one seat (None: a spectator) may know of the table, ready to present."""

    seat: int | None
    round: int
    phase: int
    phase_name: str
    step: Step
    over: bool
    ending: str
    """Why the game ended (the result's reason), else empty."""
    winners: tuple[int, ...]
    players: tuple[PlayerRecord, ...]
    asks: tuple[Ask, ...]
    locked_in: str
    """Phase I only: who has locked in their Action Cards (never what), in the thread's words."""
    locations: tuple[LocationRecord, ...] = ()
    """Locations 1 to 6, in order."""

    @property
    def assigning(self) -> bool:
        """Whether the round is in Phase I's secret assignment."""
        return self.step is Step.ASSIGN and not self.over

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats the game waits on, in seat order."""
        return tuple(sorted({a.seat for a in self.asks}))

    @property
    def standings(self) -> tuple[PlayerRecord, ...]:
        """The players by score, highest first (seat order between equals)."""
        return tuple(sorted(self.players, key=lambda p: (-p.score, p.seat)))

    def me(self) -> PlayerRecord | None:
        """Return the viewing seat's own record (None for a spectator)."""
        return None if self.seat is None else self.players[self.seat]

    def decision_of(self, seat: int) -> str:
        """Return what the game asks of a seat now, in words (empty when nothing)."""
        return " ".join(a.text for a in self.asks if a.seat == seat)


def _player(p: dict[str, Any]) -> PlayerRecord:
    assignment = p["assignment"]
    return PlayerRecord(
        seat=p["seat"],
        colour=p["colour"],
        score=p["score"],
        charms=p["charms"],
        rerolls=p["rerolls"],
        stones=p["stones"],
        dice=tuple(p["dice"]),
        confirmed=p["confirmed"],
        assignment=None if assignment is None else tuple(assignment),
        portal_choice=p["portal_choice"],
        portal_chosen=p["portal_chosen"],
    )


def read_view(view: dict[str, Any]) -> InstituteRecord:
    """Return the typed record of an Institute view."""
    result = view.get("result") or {}
    return InstituteRecord(
        seat=view["seat"],
        round=view["round"],
        phase=view["phase"],
        phase_name=view["phase_name"],
        step=Step(view["step"]),
        over=bool(view["over"]),
        ending=str(result.get("reason", "")) if view["over"] else "",
        winners=tuple(result.get("winners") or ()) if view["over"] else (),
        players=tuple(_player(p) for p in view["players"]),
        asks=tuple(Ask(p["seat"], p["decision"], p["kind"] == "secret", p["text"]) for p in view["prompts"]),
        locked_in=view.get("locked_in") or "",
        locations=tuple(
            LocationRecord(loc["number"], loc["kind"], loc["card"]["name"] if loc["card"] else None)
            for loc in view["locations"]
        ),
    )
