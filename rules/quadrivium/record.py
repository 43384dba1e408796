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
    corruption: int = 0

    @property
    def fresh(self) -> int:
        """The points left to spend: the value less what is spent and what Harm took."""
        return self.value - self.spent - self.harm

    @property
    def usable_magic(self) -> int:
        """The Trait's magic less its Taint."""
        return self.magic - self.taint


@dataclass(frozen=True)
class Points:
    """A thing with points to expend and Harm: a covenant resource, a Companion or an Item."""

    name: str
    """The resource's name, or the Companion's or Item's Trait."""
    value: int
    spent: int
    harm: int

    @property
    def fresh(self) -> int:
        """The points left to spend: the value less what is spent and what Harm took."""
        return self.value - self.spent - self.harm


@dataclass(frozen=True)
class AssetRecord:
    """A mage's Asset of one Trait, and whether it was used."""

    trait: str
    used: bool


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
    companions: tuple[Points, ...] = ()
    items: tuple[Points, ...] = ()
    assets: tuple[AssetRecord, ...] = ()
    """By Trait name."""
    shares: tuple[tuple[str, int], ...] = ()
    """Each resource's share the mage holds, in the view's order (zero included)."""

    def trait(self, name: str) -> TraitRecord:
        """Return the Trait of that name."""
        return next(t for t in self.traits if t.name == name)


@dataclass(frozen=True)
class Covenant:
    """The covenant every mage shares: its name (empty before it is founded) and its resources."""

    name: str
    resources: tuple[Points, ...]

    def resource(self, name: str) -> Points:
        """Return the resource of that name."""
        return next(r for r in self.resources if r.name == name)


@dataclass(frozen=True)
class SceneRecord:
    """The scene under way: its Protagonist and the intent declared (empty before)."""

    pro: int
    intent: str


@dataclass(frozen=True)
class TrickSide:
    """One side of the trick under way: its seat and whether its card is down."""

    seat: int
    placed: bool


@dataclass(frozen=True)
class ConflictRecord:
    """The conflict under way as every seat sees it (empty words where nothing is set yet)."""

    sides: tuple[int, int]
    intent: str
    types: tuple[str, ...]
    """The conflict types named so far."""
    win: str
    lose: str
    win_harm: str
    lose_harm: str
    wins: tuple[int, int]
    tricks: int
    """How many tricks are played (0 before the Antagonist names it)."""
    trick: tuple[TrickSide, ...]
    """The trick under way (empty when none)."""
    revealed: bool
    """Whether the trick under way is revealed."""


@dataclass(frozen=True)
class Bid:
    """The bidding for first pick: the high bid, its bidder (None before a bid), who still bids."""

    high: int
    leader: int | None
    active: tuple[int, ...]


@dataclass(frozen=True)
class Take:
    """Taking from a resource: the price a point, who took, who passed."""

    cost: int
    takers: tuple[int, ...]
    passed: tuple[int, ...]


@dataclass(frozen=True)
class Duel:
    """A duel over a resource between two mages."""

    res: str
    a: int
    b: int


@dataclass(frozen=True)
class CouncilRecord:
    """The council under way as every seat sees it: never how anyone voted, only who has."""

    winter: bool
    step: str
    resource: str
    """The resource under bid or taken from now (empty when none)."""
    later: tuple[str, ...]
    """The resources bid for after it."""
    bid: Bid | None
    take: Take | None
    voted: tuple[int, ...]
    sat_out: tuple[int, ...]
    duel: Duel | None


@dataclass(frozen=True)
class NewsSide:
    """One side of the trick just decided: its card (None: conceded face down) and its rank's parts."""

    seat: int
    name: str
    card: str | None
    total: int | None
    bonus: int
    aids: tuple[str, ...]
    adds: tuple[str, ...]
    magic: int
    minus: int
    corruption: int


@dataclass(frozen=True)
class TrickNews:
    """The trick the last move decided: its number, the conflict types, the score, the winning side."""

    trick: int
    types: tuple[str, ...]
    wins: tuple[int, int]
    winner: int
    sides: tuple[NewsSide, ...]


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
    covenant: Covenant = Covenant("", ())
    deck: int = 0
    """How many cards are left in the deck."""
    scene: SceneRecord | None = None
    conflict: ConflictRecord | None = None
    council: CouncilRecord | None = None
    news: TrickNews | None = None
    """The trick the last move decided, else None."""
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
        TraitRecord(t, r["value"], r["spent"], r["harm"], p["magic"][t], p["taint"][t], p["corruption"][t])
        for t, r in p["traits"].items()
    )


def _points(name: str, r: dict[str, Any]) -> Points:
    return Points(name, r["value"], r["spent"], r["harm"])


def _mage(view: dict[str, Any], p: dict[str, Any]) -> MageRecord:
    return MageRecord(
        p["seat"], p["name"] or "", p["votes"], p["hand"], _roles(view, p["seat"]), _traits(p),
        companions=tuple(_points(c["trait"], c) for c in p["companions"]),
        items=tuple(_points(c["trait"], c) for c in p["items"]),
        assets=tuple(AssetRecord(t, bool(a["spent"])) for t, a in sorted(p["assets"].items())),
        shares=tuple(p["shares"].items()),
    )


def _covenant(cov: dict[str, Any]) -> Covenant:
    return Covenant(cov["name"] or "", tuple(_points(name, r) for name, r in cov["res"].items()))


def _scene(scene: dict[str, Any] | None) -> SceneRecord | None:
    return None if not scene else SceneRecord(scene["pro"], scene.get("intent") or "")


def _conflict(c: dict[str, Any] | None) -> ConflictRecord | None:
    if not c:
        return None
    cond = c.get("cond") or {}
    trick = c.get("trick")
    return ConflictRecord(
        sides=tuple(c["sides"]), intent=c.get("intent") or "",
        types=tuple(t for t in c.get("types") or [] if t),
        win=cond.get("win") or "", lose=cond.get("lose") or "",
        win_harm=cond.get("win_harm") or "", lose_harm=cond.get("lose_harm") or "",
        wins=tuple(c["wins"]), tricks=c.get("tricks") or 0,
        trick=tuple(TrickSide(side["seat"], side["placed"]) for side in trick["sides"]) if trick else (),
        revealed=bool(trick and trick["revealed"]),
    )


def _take(take: dict[str, Any]) -> Take:
    passed = tuple(x for x, done in enumerate(take["passed"]) if done)
    return Take(take["cost"], tuple(take["takers"]), passed)


def _council(k: dict[str, Any] | None) -> CouncilRecord | None:
    if not k:
        return None
    resources, ri = k.get("resources") or [], k.get("ri", 0)
    bid, take, duel = k.get("bid"), k.get("take"), k.get("duel")
    return CouncilRecord(
        winter=bool(k.get("winter")), step=k["step"],
        resource=resources[ri] if ri < len(resources) else "", later=tuple(resources[ri + 1:]),
        bid=Bid(bid["high"], bid["leader"], tuple(bid["active"])) if bid else None,
        take=_take(take) if take else None,
        voted=tuple(x for x, v in enumerate(k.get("votes") or []) if v is not None),
        sat_out=tuple(k.get("sat_out") or ()),
        duel=Duel(duel["res"], duel["a"], duel["b"]) if duel else None,
    )


def _news(news: dict[str, Any] | None) -> TrickNews | None:
    if not news:
        return None
    sides = tuple(
        NewsSide(side["seat"], side["name"], side["card"], side["total"], side["bonus"], tuple(side["aids"]),
                 tuple(side["adds"]), side["magic"], side["minus"], side["corruption"])
        for side in news["sides"]
    )
    return TrickNews(news["trick"], tuple(news["types"]), tuple(news["wins"]), news["winner"], sides)


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
        mages=tuple(_mage(view, p) for p in view["seats"]),
        asks=tuple(Ask(a["seat"], a["text"]) for a in view.get("prompts", [])),
        hand=tuple(view["hand"]),
        placed=view.get("placed"),
        ended=view["ended"] or "",
        fighting=_fighting(view.get("conflict")),
        covenant=_covenant(view["covenant"]),
        deck=view["deck"],
        scene=_scene(view.get("scene")),
        conflict=_conflict(view.get("conflict")),
        council=_council(view.get("council")),
        news=_news(view.get("news")),
        situation=_situation(view),
    )
