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
class CardRecord:
    """One Institute Card, face up (VIEW.md's CARD), with the drawings' words for its power."""

    id: int
    """This physical card (stable for the whole game)."""
    name: str
    cost: int
    surpass: int
    vp: int | None
    """Printed VP; None for a Character (worth a VP per Character held)."""
    character: bool
    power: str
    phase: int | None
    number: int | None
    """The Phase IV number, else None."""
    short: str
    text: str


@dataclass(frozen=True)
class LocationRecord:
    """One of the six Locations: an Institute Card, the Portal or an empty space, and its stones by seat."""

    number: int
    kind: str
    card: CardRecord | None
    stones: tuple[int, ...]


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
    characters: int = 0
    active: tuple[CardRecord, ...] = ()
    """Permanent powers and unused one-time powers."""
    inactive: tuple[CardRecord, ...] = ()
    """Used one-time, immediate and Character cards."""
    assignment_visible: bool = False
    """Whether the Action Cards under the dice are public (a secret is still shown to its owner)."""


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
    goal: int = 0
    """The VP that end the game."""
    locations: tuple[LocationRecord, ...] = ()
    """Locations 1 to 6, in order."""
    realm: tuple[int, ...] = ()
    """The stones on the Ethereal Realm, by seat."""
    deck: int = 0
    discarded: int = 0
    """Cards removed from the game with 20+ stones."""
    log: tuple[str, ...] = ()
    """The last few public event texts."""

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


def _card(card: dict[str, Any]) -> CardRecord:
    return CardRecord(
        id=card["id"],
        name=card["name"],
        cost=card["cost"],
        surpass=card["surpass"],
        vp=card["vp"],
        character=bool(card["character"]),
        power=card["power"],
        phase=card["phase"],
        number=card.get("number"),
        short=card["short"],
        text=card["text"],
    )


def _location(loc: dict[str, Any]) -> LocationRecord:
    card = loc["card"]
    return LocationRecord(loc["number"], loc["kind"], _card(card) if card else None, tuple(loc["stones"]))


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
        characters=p["characters"],
        active=tuple(_card(c) for c in p["active"]),
        inactive=tuple(_card(c) for c in p["inactive"]),
        assignment_visible=bool(p["assignment_visible"]),
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
        goal=view["goal"],
        locations=tuple(_location(loc) for loc in view["locations"]),
        realm=tuple(view["realm"]["stones"]),
        deck=view["deck"],
        discarded=len(view["discarded"]),
        log=tuple(view["log"]),
    )
