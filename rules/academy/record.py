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


MARK_KINDS = ("fire", "water", "ice", "darkness", "haunt", "imp", "guardian", "troll", "demon")
"""The threats and creatures a room can hold, in the view's order."""


@dataclass(frozen=True, slots=True)
class Room:
    """A room tile: its key and name, its place in the grid (None outside), its action key.

    And what the board shows of it: its open sides, whether a route leads it to the Mana Crystal,
    its effect in short, its glyph source, the threats and creatures in it (``marks``: kind and
    count, only those present, in ``MARK_KINDS`` order), its portals and the seats standing there.
    """

    key: str
    name: str
    pos: int | None
    action: str | None
    row: int | None = None
    col: int | None = None
    rot: int = 0
    doors: frozenset[str] = frozenset()
    empowered: bool = True
    cursed: bool = False
    short: str = ""
    boost: str | None = None
    source: int | None = None
    marks: tuple[tuple[str, int], ...] = ()
    portals: tuple[str, ...] = ()
    wizards: tuple[int, ...] = ()


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
    used: bool = True
    """Whether a spell lies in this slot in this game."""


@dataclass(frozen=True, slots=True)
class Card:
    """A disaster card's face."""

    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Reveal:
    """The spell turned up this turn (cast, or wrongly named): its slot (None once reshuffled) and face."""

    slot: str | None
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Decks:
    """The decks by count (their order is secret), and how many seats hold a disaster for later."""

    disaster: int
    progression: int
    room: int
    holding: int


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
    turn: int = 0
    current: int = 0
    objective: str = ""
    """The scenario's goal, in words."""
    outside: Room | None = None
    """The room beside the board (the advanced game's Outer Dimension), if any."""
    reveal: Reveal | None = None
    decks: Decks | None = None
    played: Card | None = None
    """The disaster played at the start of this turn."""

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
    return Room(
        room["key"],
        room["name"],
        room["pos"],
        room["action"],
        row=room.get("row"),
        col=room.get("col"),
        rot=room.get("rot", 0),
        doors=frozenset(side for side, open_ in room["doors"].items() if open_),
        empowered=room.get("empowered", True),
        cursed=bool(room.get("cursed")),
        short=room.get("short") or "",
        boost=room.get("boost"),
        source=room.get("source"),
        marks=tuple((kind, room[kind]) for kind in MARK_KINDS if room.get(kind)),
        portals=tuple(room.get("portals") or ()),
        wizards=tuple(room.get("wizards") or ()),
    )


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
    spell = slot["spell"]
    return Slot(slot["id"], slot["level"], spell["name"] if spell else None, bool(slot["used"]))


def _reveal(reveal: dict[str, Any] | None) -> Reveal | None:
    spell = (reveal or {}).get("spell")
    if not reveal or not spell:
        return None
    return Reveal(reveal.get("slot"), spell["name"], spell.get("text") or "")


def _card(card: dict[str, Any] | None) -> Card | None:
    return Card(card["name"], card.get("text") or "") if card else None


def _request(request: dict[str, Any] | None) -> Request | None:
    if not request:
        return None
    return Request(request["caster"], request["helper"], request["glyph"], request["mine"])


def read(view: dict[str, Any]) -> AcademyView:
    """Return the typed record of an Academy view (public or a seat's)."""
    rooms = [*view["grid"], *([view["outside"]] if view.get("outside") else [])]
    names = {r["key"]: r["name"] for r in rooms}
    result = view.get("result") or {}
    decks = view["decks"]
    outside = view.get("outside")
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
        my_disaster=_card(view.get("my_disaster")),
        choice=_choice(view.get("choice")),
        request=_request(view.get("request")),
        waiting=tuple(view.get("waiting") or ()),
        over=bool(view["over"]),
        won=bool(result.get("won")),
        turn=view["turn"],
        current=view["current"],
        objective=view["scenario"]["objective"],
        outside=_room(outside) if outside else None,
        reveal=_reveal(view.get("reveal")),
        decks=Decks(decks["disaster"], decks["progression"], decks["room"], sum(map(bool, view["holding"]))),
        played=_card(view.get("played")),
    )
