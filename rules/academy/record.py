"""The Academy's typed view: the record the panel and the commands read (``AcademyRules.typed_view``).

``read`` builds it from a view (the JSON of VIEW.md), never from the state, so a seat's record holds
only what that seat may see (its own next disaster, no face-down spell) and the public one nothing
hidden. The facts a presenter needs are worked out here: each wizard's room by name, the actions
left this turn, the slots still free, the Helpful Hand of Fate's orders in words, the outcome.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OUTSIDE = "outside the academy"
"""How a room not on the board (or no room) is named."""


@dataclass(frozen=True, slots=True)
class Room:
    """A room tile: its key and name, its place in the grid (None outside), its action key."""

    key: str
    name: str
    pos: int | None
    action: str | None


@dataclass(frozen=True, slots=True)
class Wizard:
    """A wizard at the table, as everyone may see it."""

    seat: int
    name: str
    school: str | None
    ability: str | None
    room: str | None
    room_name: str
    glyphs: tuple[int, ...]
    robe: str | None
    wand: int | None
    staff: tuple[int, int] | None
    shared: int | None
    left: bool


@dataclass(frozen=True, slots=True)
class Slot:
    """A spell slot (``id`` "a-b" by its glyph pair): its level and, when face up to this view, its spell."""

    id: str
    level: int
    spell: str | None


@dataclass(frozen=True, slots=True)
class Card:
    """A disaster card's face."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Actions:
    """What the current wizard may still do this turn.

    ``left`` counts the basic game's actions left (advanced: the unused slots), ``extra`` the extra
    actions from spells; ``free`` names the advanced game's unused action slots (None: the basic
    game); ``binding`` is True while a Bind Spells action goes on after a right guess.
    """

    left: int
    extra: int
    free: tuple[str, ...] | None
    binding: bool


@dataclass(frozen=True, slots=True)
class Choice:
    """A decision an effect needs (the Helpful Hand of Fate): whose, why, and the orders offered."""

    seat: int
    why: str
    orders: tuple[str, ...]
    """For a choice of order (threats acting in turn), each order in words; empty for another choice."""


@dataclass(frozen=True, slots=True)
class Request:
    """A glyph asked for: the caster, the helper asked, the glyph wanted and the caster's own."""

    caster: int
    helper: int
    glyph: int
    mine: int


@dataclass(frozen=True, slots=True)
class AcademyView:
    """Everything a presenter reads about one Academy table, for one seat (``seat`` None: a spectator)."""

    seat: int | None
    basic: bool
    mana: int
    step: str
    shifts_left: int
    actions: Actions
    grid: tuple[Room, ...]
    wizards: tuple[Wizard, ...]
    spells: tuple[Slot, ...]
    my_disaster: Card | None
    choice: Choice | None
    request: Request | None
    waiting: tuple[int, ...]
    over: bool
    won: bool

    @property
    def me(self) -> Wizard | None:
        """Return the view's own wizard (None for a spectator)."""
        return None if self.seat is None else self.wizards[self.seat]

    def room(self, key: str | None) -> Room | None:
        """Return a room on the board by its key, or None."""
        return next((r for r in self.grid if r.key == key), None)

    def slot(self, slot_id: str) -> Slot | None:
        """Return a spell slot by its id, or None."""
        return next((s for s in self.spells if s.id == slot_id), None)


def _room(room: dict[str, Any]) -> Room:
    return Room(room["key"], room["name"], room["pos"], room["action"])


def _wizard(wizard: dict[str, Any], names: dict[str, str]) -> Wizard:
    character = wizard["character"]
    staff = wizard.get("staff")
    return Wizard(
        seat=wizard["seat"],
        name=character["name"],
        school=character.get("school"),
        ability=character.get("ability"),
        room=wizard["room"],
        room_name=names.get(wizard["room"], OUTSIDE),
        glyphs=tuple(wizard["glyphs"]),
        robe=wizard.get("robe"),
        wand=wizard.get("wand"),
        staff=(staff[0], staff[1]) if staff else None,
        shared=wizard.get("shared"),
        left=wizard["left"],
    )


def _actions(acts: dict[str, Any]) -> Actions:
    slots = acts.get("slots")
    free = None if slots is None else tuple(name for name, unused in slots.items() if unused)
    return Actions(acts["left"], acts.get("extra", 0), free, bool(acts.get("binding")))


def _choice(choice: dict[str, Any] | None) -> Choice | None:
    if not choice:
        return None
    about = choice.get("about") or {}
    orders = tuple(o["label"] for o in about["orders"]) if about.get("op") == "in_order" else ()
    return Choice(choice["seat"], choice["why"], orders)


def _slot(slot: dict[str, Any]) -> Slot:
    return Slot(slot["id"], slot["level"], slot["spell"]["name"] if slot["spell"] else None)


def _request(request: dict[str, Any] | None) -> Request | None:
    if not request:
        return None
    return Request(request["caster"], request["helper"], request["glyph"], request["mine"])


def read(view: dict[str, Any]) -> AcademyView:
    """Return the typed record of an Academy view (public or a seat's)."""
    rooms = [*view["grid"], *([view["outside"]] if view.get("outside") else [])]
    names = {r["key"]: r["name"] for r in rooms}
    mine = view.get("my_disaster")
    result = view.get("result") or {}
    return AcademyView(
        seat=view["seat"],
        basic=bool(view["basic"]),
        mana=view["mana"],
        step=view["step"],
        shifts_left=view["shifts_left"],
        actions=_actions(view["actions"]),
        grid=tuple(_room(r) for r in view["grid"]),
        wizards=tuple(_wizard(w, names) for w in view["wizards"]),
        spells=tuple(_slot(s) for s in view["spells"]),
        my_disaster=Card(mine["name"], mine["text"]) if mine else None,
        choice=_choice(view.get("choice")),
        request=_request(view.get("request")),
        waiting=tuple(view.get("waiting") or ()),
        over=bool(view["over"]),
        won=bool(result.get("won")),
    )
