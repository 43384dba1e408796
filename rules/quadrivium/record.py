"""Quadrivium's typed view: a frozen record of what one seat may know, with the facts worked out.

``QuadriviumRules.view`` returns the JSON view (the stored, hashed form). Presenters read it
through ``read_view``: the phase as a ``Phase``, each mage's standing (Council Votes, the only
score the tale keeps), the roles (protagonist, antagonist), whose decision it is and in what words.
The record is built from the view alone, so it holds nothing the view does not show that seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.quadrivium.state import Phase


@dataclass(frozen=True)
class TraitRecord:
    """One of a mage's four Traits (Vigor, Craft, Influence, Insight), public to every seat."""

    name: str
    value: int
    spent: int
    harm: int
    magic: int
    taint: int

    @property
    def fresh(self) -> int:
        """The points left to spend: the value less what is spent and what Harm took."""
        return self.value - self.spent - self.harm

    @property
    def usable_magic(self) -> int:
        """The Trait's magic less its Taint."""
        return self.magic - self.taint


@dataclass(frozen=True)
class MageRecord:
    """One mage as every seat sees it."""

    seat: int
    name: str
    votes: int
    hand: int
    """How many cards the mage holds (never which)."""
    roles: tuple[str, ...]
    """"protagonist" and/or "antagonist" while a scene or conflict is under way."""
    traits: tuple[TraitRecord, ...] = ()
    """The mage's Traits in the view's order."""


@dataclass(frozen=True)
class Ask:
    """A seat the table waits on, and what it must decide, in words."""

    seat: int
    text: str


@dataclass(frozen=True)
class QuadriviumRecord:
    """What one seat (None: a spectator) may know of the table, ready to present."""

    seat: int | None
    phase: Phase
    year: int
    season: str
    scenes: int
    conflicts: int
    mages: tuple[MageRecord, ...]
    asks: tuple[Ask, ...]
    hand: tuple[str, ...]
    """The viewing seat's own hand (empty for a spectator)."""
    placed: str | None
    """The viewing seat's own face-down card, if any."""
    ended: str
    """Why the tale ended, else empty."""
    fighting: tuple[int, ...] = ()
    """The two sides (protagonist, antagonist) of a conflict still undecided, else empty."""
    situation: tuple[Any, ...] = ()
    """What the viewing seat is offered against, as JSON data: the frame, the scene, the conflict
    and the council without the others' answers to a decision taken at once, and the seat's own
    mage, hand and face-down card. A panel's fingerprint digests it, so one seat's answer does
    not stale another seat's panel."""

    @property
    def over(self) -> bool:
        """Whether the tale has ended."""
        return self.phase is Phase.OVER

    @property
    def waiting(self) -> tuple[int, ...]:
        """The seats the table waits on, in seat order."""
        return tuple(sorted({a.seat for a in self.asks}))

    @property
    def standings(self) -> tuple[MageRecord, ...]:
        """The mages by Council Votes, most first (seat order between equals)."""
        return tuple(sorted(self.mages, key=lambda m: (-m.votes, m.seat)))

    def decision_of(self, seat: int) -> str:
        """Return what the table asks of a seat now, in words (empty when nothing)."""
        return " ".join(a.text for a in self.asks if a.seat == seat)


def _roles(view: dict[str, Any], seat: int) -> tuple[str, ...]:
    roles = []
    if view.get("protagonist") == seat and view["phase"] in (Phase.SCENE, Phase.CONFLICT):
        roles.append("protagonist")
    conflict = view.get("conflict")
    if conflict and conflict["sides"][1] == seat:
        roles.append("antagonist")
    return tuple(roles)


def _traits(p: dict[str, Any]) -> tuple[TraitRecord, ...]:
    return tuple(
        TraitRecord(t, r["value"], r["spent"], r["harm"], p["magic"][t], p["taint"][t])
        for t, r in p["traits"].items()
    )


def _without(part: dict[str, Any] | None, *keys: str) -> dict[str, Any] | None:
    return None if part is None else {k: v for k, v in part.items() if k not in keys}


def _fighting(conflict: dict[str, Any] | None) -> tuple[int, ...]:
    return tuple(conflict["sides"]) if conflict and conflict["winner"] is None else ()


def _situation(view: dict[str, Any]) -> tuple[Any, ...]:
    """Return what a seat's panel is offered against, leaving out the others' simultaneous answers."""
    frame = [view[k] for k in ("phase", "year", "season", "scenes", "conflicts", "protagonist", "ended")]
    scene = _without(view["scene"], "answers", "shown")
    conflict = _without(view["conflict"], "refill", "pile")
    council = _without(view["council"], "votes", "last")
    if council and council.get("duel"):
        council["duel"] = _without(council["duel"], "placed")
    seat = view["you"]
    mine = [None if seat is None else view["seats"][seat], view["hand"], view["placed"]]
    return (frame, scene, conflict, council, mine)


def read_view(view: dict[str, Any]) -> QuadriviumRecord:
    """Return the typed record of a Quadrivium view."""
    return QuadriviumRecord(
        seat=view["you"],
        phase=Phase(view["phase"]),
        year=view["year"],
        season=view["season"],
        scenes=view["scenes"],
        conflicts=view["conflicts"],
        mages=tuple(
            MageRecord(p["seat"], p["name"] or "", p["votes"], p["hand"], _roles(view, p["seat"]), _traits(p))
            for p in view["seats"]
        ),
        asks=tuple(Ask(a["seat"], a["text"]) for a in view.get("prompts", [])),
        hand=tuple(view["hand"]),
        placed=view.get("placed"),
        ended=view["ended"] or "",
        fighting=_fighting(view.get("conflict")),
        situation=_situation(view),
    )
