"""Shared setup for Quadrivium's tests: quick tables, moves by name, and a conflict at its first trick."""

from __future__ import annotations

from typing import Any

from rules.contract import Event, Move
from rules.quadrivium.engine import QuadriviumRules
from rules.quadrivium.state import res

R = QuadriviumRules()


def quick(players: int = 2, seed: int = 1, **options: str) -> dict[str, Any]:
    """Return a table past creation (random spreads, stock names), at the first scene."""
    return R.setup(players, {"creation": "quick", **options}, seed)


def act(s: dict[str, Any], who: int, action: str, /, **args: Any) -> tuple[dict[str, Any], list[Event]]:
    """Apply one move by name for seat ``who``; return the new state and its events."""
    return R.apply(s, who, Move.of(action, **args))


def even_mage(s: dict[str, Any], seat: int, points: int = 2, magic: int = 1) -> None:
    """Give a seat's mage plain, known numbers (every Trait ``points``, every rating ``magic``)."""
    me = s["mages"][seat]
    me["traits"] = {t: res(points) for t in me["traits"]}
    me["magic"] = {t: magic for t in me["magic"]}
    me["companions"], me["items"], me["assets"] = [], [], {}


def to_trick(s: dict[str, Any], types: tuple[str, str] = ("vigor", "influence"), tricks: int = 1,
             ant: int = 1) -> dict[str, Any]:
    """Play the scene's framing: seat 0 intends, ``ant`` opposes alone, types, conditions, accepted."""
    s, _ = act(s, 0, "intent", text="Argrave marries the noble's daughter")
    for seat in range(1, s["players"]):
        s, _ = act(s, seat, "oppose" if seat == ant else "allow")
    s, _ = act(s, 0, "type", trait=types[0])
    s, _ = act(s, ant, "type", trait=types[1])
    s, _ = act(s, 0, "conditions", win_harm="none", lose_harm="none", win="I marry her", lose="He refuses")
    s, _ = act(s, ant, "accept")
    s, _ = act(s, ant, "tricks", n=tricks)
    return s


def play_cards(s: dict[str, Any], pro_card: str, ant_card: str, ant: int = 1) -> dict[str, Any]:
    """Give each side the card and place and reveal them (protagonist first)."""
    s["hands"][0].append(pro_card)
    s["hands"][ant].append(ant_card)
    s, _ = act(s, 0, "place", card=pro_card)
    s, _ = act(s, ant, "place", card=ant_card)
    s, _ = act(s, 0, "reveal")
    s, _ = act(s, ant, "reveal")
    return s


def public_texts(events: list[Event]) -> list[str]:
    """Return the texts of the public events."""
    return [e.text for e in events if e.public]


def fresh_table(players: int = 2, **options: str) -> dict[str, Any]:
    """Return a quick table whose mages are even and whose hands are empty (a test deals them)."""
    s = quick(players, **options)
    for seat in range(players):
        even_mage(s, seat)
        s["hands"][seat] = []
    return s
