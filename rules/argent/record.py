"""Argent's typed view: the record a presenter reads (the panel, the thread, the office sheet).

``read`` builds it from a view (``views.view`` as ``ArgentRules.view`` returns it), never from the
state, so a seat's record holds only what that seat may see and the public record nothing hidden.
The facts a presenter needs are worked out here once: each voter's standing (``standings``, the
count the Game End rules use), the criterion and the standing in words, the decision the game waits
on in words, which of the seat's moves are fast actions, and the reveal's reasons.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.argent import standings
from rules.contract import PromptKind


@dataclass(frozen=True, slots=True)
class Spell:
    """A spell card in an office: its book's id and name, the level researched, whether exhausted."""

    id: str
    name: str
    level: int
    exhausted: bool


@dataclass(frozen=True, slots=True)
class Card:
    """A card by its kind and id ("vault", "supporter", ...); ``exhausted`` for a vault card in play,
    ``secret`` for a Secret Supporter in a discard pile."""

    kind: str
    id: str
    exhausted: bool = False
    secret: bool = False


@dataclass(frozen=True, slots=True)
class Office:
    """One player's office as the view shows it (``discard_count`` None: that pile may not be counted)."""

    seat: int
    candidate: str | None
    department: str | None
    ip: int
    gold: int
    mana: int
    intelligence: int
    wisdom: int
    merit: int
    merit_free: int
    starter: Spell | None
    spells: tuple[Spell, ...]
    supporters: tuple[str, ...]
    vaults: tuple[str, ...]
    left: bool
    leaving: bool
    discard_count: int | None
    ip_time: int
    """When the seat reached its Influence (the first to arrive sits lowest on a stack)."""
    vault_cards: tuple[Card, ...]
    bell: tuple[str, ...]
    """The Bell Tower cards the seat has taken this round."""
    discard: tuple[Card, ...] | None
    """The discard pile as this view may see it (None: not even its size)."""


@dataclass(frozen=True, slots=True)
class Mage:
    """A player's mage: its owner, department type and where it stands (``office`` or ``<room>/<slot>``)."""

    id: int
    owner: int
    type: str
    loc: str
    temp: bool

    @property
    def placed(self) -> bool:
        """Whether the mage stands in a room's slot or area."""
        return "/" in self.loc


@dataclass(frozen=True, slots=True)
class Room:
    """A room of the University as placed: its side, whether locked, its track marker, its cards."""

    id: str
    side: str
    locked: bool
    marker: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Tableau:
    """The cards face up to buy or draft: spell books, vault cards and supporters, by id."""

    spells: tuple[str, ...]
    vaults: tuple[str, ...]
    supporters: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Count:
    """A seat's count of what a voter weighs; not ``exact`` when a face-down pile may hide more."""

    seat: int
    value: int
    exact: bool


@dataclass(frozen=True, slots=True)
class Voter:
    """A voter on the board; name and criterion None while face down to this view.

    ``standing`` is every seated player's count (empty while the criterion is unknown); ``line`` says
    where the view's seat stands, in words (None for a spectator or an unknown voter).
    """

    position: int
    face_up: bool
    name: str | None
    title: str | None
    criterion: str | None
    criterion_words: str
    marks: tuple[int, ...]
    standing: tuple[Count, ...]
    line: str | None

    @property
    def marked_by(self) -> str:
        """Return who marked this voter, in words ("P1, P3" or "no Marks")."""
        return ", ".join(standings.seat_tag(s) for s in self.marks) or "no Marks"


@dataclass(frozen=True, slots=True)
class Decision:
    """What the game waits on: whose decision, its name, and what it asks in words (public)."""

    seat: int
    name: str
    words: str
    kind: PromptKind

    @property
    def turn(self) -> bool:
        """Whether this is an ordinary turn (place, cast, fast action, Bell Tower)."""
        return self.name == "turn"

    @property
    def reaction(self) -> bool:
        """Whether this is an optional reaction window (react or pass)."""
        return self.kind is PromptKind.REACTION


@dataclass(frozen=True, slots=True)
class Award:
    """Who a voter voted for at the end, and why: the counts weighed, the Most winner passed over
    (a second-most voter's ``first``), and the tie-break that settled it."""

    position: int
    winner: int | None
    counts: tuple[tuple[int, int], ...] | None
    """Each seat's count weighed, as (seat, count); None when the engine recorded no reason."""
    first: int | None
    tiebreak: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of the game: each voter's award, votes per seat, the ranking and the engine's lines."""

    awards: tuple[Award, ...]
    votes: tuple[int, ...]
    ranking: tuple[int, ...]
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ArgentView:
    """Everything a presenter reads about one Argent table, for one seat (``seat`` None: a spectator).

    ``decisions`` are what the game waits on (whose, in words); ``fast`` holds the codes of the
    seat's moves that are fast actions now (empty off its turn).
    """

    seat: int | None
    players: int
    round: int
    rounds: int
    phase: str
    first: int
    turn: int | None
    offices: tuple[Office, ...]
    voters: tuple[Voter, ...]
    decisions: tuple[Decision, ...]
    fast: frozenset[str]
    outcome: Outcome | None
    pending: Decision | None
    """The agenda's front decision (a reaction, a card's choice), None during a plain turn or setup."""
    queue: tuple[int, ...]
    """The seats still to draft a mage or place a starting Mark, in order (empty otherwise)."""
    bell_left: int
    mages: tuple[Mage, ...]
    grid: tuple[tuple[str | None, ...], ...]
    """The University's rooms by row, as laid out (None: an empty place)."""
    rooms: dict[str, Room]
    tableau: Tableau

    @property
    def me(self) -> Office | None:
        """Return the view's own office (None for a spectator)."""
        return None if self.seat is None else self.offices[self.seat]

    def tag(self, seat: int) -> str:
        """Return how the game's texts name a seat (P1..P5)."""
        return standings.seat_tag(seat)

    def decision_of(self, seat: int) -> Decision | None:
        """Return the decision a seat must make now, or None."""
        return next((d for d in self.decisions if d.seat == seat), None)

    def voter(self, position: int) -> Voter:
        """Return the voter at a position on the board."""
        return self.voters[position]


def _card(card: dict[str, Any], kind: str = "") -> Card:
    return Card(card.get("kind", kind), card["id"], bool(card.get("exhausted")), bool(card.get("secret")))


def _spell(card: dict[str, Any], name: str) -> Spell:
    return Spell(card["id"], name, card.get("level", 1), bool(card["exhausted"]))


def _office(office: dict[str, Any]) -> Office:
    starter = office["starter"]
    return Office(
        seat=office["seat"],
        candidate=office["candidate_name"],
        department=office["department"],
        ip=office["ip"],
        gold=office["gold"],
        mana=office["mana"],
        intelligence=office["int"],
        wisdom=office["wis"],
        merit=office["merit"],
        merit_free=office["merit_free"],
        starter=_spell(starter, starter["name"]) if starter else None,
        spells=tuple(_spell(s, s["name"]) for s in office["spells"]),
        supporters=tuple(office["supporters"]),
        vaults=tuple(v["id"] for v in office["vaults"]),
        left=office["left"],
        leaving=office["leaving"],
        discard_count=office["discard_count"],
        ip_time=office["ip_time"],
        vault_cards=tuple(_card(v, "vault") for v in office["vaults"]),
        bell=tuple(office["bell"]),
        discard=None if office["discard"] is None else tuple(_card(c) for c in office["discard"]),
    )


def _voter(view: dict[str, Any], voter: dict[str, Any], seen: dict[int, Count] | None = None) -> Voter:
    """Read one voter; ``seen``: the counts of the offices another view shows alike (``read_beside``)."""
    criterion, seat = voter["criterion"], view["you"]
    counts: tuple[Count, ...] = ()
    line = None
    if criterion:
        # Counted once for the counts and the line.
        standing = _standing(view, criterion, seen) if seen else standings.standing(view, criterion)
        counts = tuple(Count(s, v, exact) for s, (v, exact) in standing.items())
        line = standings.standing_line(view, seat, criterion, standing) if seat is not None else None
    return Voter(
        position=voter["position"],
        face_up=voter["face_up"],
        name=voter["name"],
        title=voter["title"],
        criterion=criterion,
        criterion_words=standings.criterion_words(criterion),
        marks=tuple(voter["marks"]),
        standing=counts,
        line=line,
    )


def _pending(data: dict[str, Any] | None) -> Decision | None:
    if not data:
        return None
    kind = PromptKind.REACTION if data["react"] else PromptKind.DECISION
    return Decision(data["seat"], data["kind"], data["prompt"], kind)


def _room(room: str, info: dict[str, Any]) -> Room:
    cards = tuple(_card(c) for c in info.get("cards") or ())
    return Room(room, info["side"], bool(info.get("locked")), info.get("marker", 0), cards)


def _mage(mage: dict[str, Any]) -> Mage:
    return Mage(mage["id"], mage["owner"], mage["type"], mage["loc"], bool(mage.get("temp")))


def _decision(data: dict[str, Any]) -> Decision:
    return Decision(data["seat"], data["name"], data["words"], PromptKind(data["kind"]))


def _outcome(data: dict[str, Any] | None, voters: int) -> Outcome | None:
    if not data:
        return None
    awarded, reasons = data.get("awarded") or {}, data.get("awarded_why") or {}
    awards = []
    for position in range(voters):
        why = reasons.get(str(position)) or {}
        counts = tuple((int(s), n) for s, n in why["counts"].items()) if why else None
        winner = awarded.get(str(position))
        awards.append(Award(position, winner, counts, why.get("first"), why.get("tiebreak")))
    return Outcome(tuple(awards), tuple(data["votes"]), tuple(data["ranking"]), tuple(data["lines"]))


def read_mages(view: dict[str, Any]) -> tuple[Mage, ...]:
    """Return only a view's mages: all a board reads of the view before a move (where they stood)."""
    return tuple(_mage(m) for m in view["mages"])


def read(view: dict[str, Any]) -> ArgentView:
    """Return the typed record of an Argent view (public or a seat's)."""
    return ArgentView(
        **_plain(view),
        offices=tuple(_office(o) for o in view["offices"]),
        voters=tuple(_voter(view, v) for v in view["voters"]),
        decisions=_decisions(view),
        outcome=_outcome(view["outcome"], len(view["voters"])),
        pending=_pending(view["pending"]),
        mages=tuple(_mage(m) for m in view["mages"]),
        grid=tuple(tuple(row) for row in view["board"]["grid"]),
        rooms=_rooms(view),
        tableau=_tableau(view),
    )


def _plain(view: dict[str, Any]) -> dict[str, Any]:
    """Return the record's fields a view holds as they are (read alike by ``read`` and ``read_beside``)."""
    return {
        "seat": view["you"],
        "players": view["players"],
        "round": view["round"],
        "rounds": view["rounds"],
        "phase": view["phase"],
        "first": view["first"],
        "turn": view["turn"],
        "fast": frozenset(view.get("fast") or ()),
        "queue": tuple(view["queue"]),
        "bell_left": len(view["bell"]),
    }


def _decisions(view: dict[str, Any]) -> tuple[Decision, ...]:
    return tuple(_decision(d) for d in view["decisions"])


def _rooms(view: dict[str, Any]) -> dict[str, Room]:
    return {room: _room(room, info) for room, info in view["board"]["rooms"].items()}


def _tableau(view: dict[str, Any]) -> Tableau:
    return Tableau(*(tuple(view["tableau"][k]) for k in ("spell", "vault", "supporter")))


def _standing(view: dict[str, Any], criterion: str, seen: dict[int, Count]) -> dict[int, tuple[int, bool]]:
    """Return ``standings.standing(view, criterion)``, taking the counts of the offices in ``seen``
    as they are and counting the others (a seat's own office, whose discard it sees)."""
    out: dict[int, tuple[int, bool]] = {}
    for office in view["offices"]:
        if office.get("left"):
            continue
        number = office["seat"]
        known = seen.get(number)
        out[number] = (known.value, known.exact) if known else standings.seen_count(view, number, criterion)
    return out


def read_beside(view: dict[str, Any], public: dict[str, Any], shown: ArgentView) -> ArgentView:
    """Return ``read(view)`` for a seat's view, reusing the pieces of ``shown`` (``read(public)``)
    wherever ``view`` holds the same data as ``public``.

    A seat's view repeats most of the public one (the University, the mages, the tableau, every
    rival's office); each piece of the record is worked out from its piece of the view alone, so
    a piece whose data is equal to the public view's is equal to the public record's, and is
    taken from it (the records are frozen: sharing them changes nothing a reader can see). The
    test is on the data, never on the version, so a public view of any moment is safe here, only
    less useful. What the seat alone sees (its office with its discard, voters it marked, its
    options, the standings' words "you ...") is read from its own view.
    """
    if view["players"] != public["players"] or view["you"] is None:
        return read(view)
    mine, theirs = view["offices"], public["offices"]
    offices = tuple(
        shown.offices[n] if office == theirs[n] else _office(office) for n, office in enumerate(mine)
    )
    marks_alike = [v["marks"] for v in view["voters"]] == [v["marks"] for v in public["voters"]]
    alike = {n for n, office in enumerate(mine) if office == theirs[n]} if marks_alike else set()
    voters = []
    for position, voter in enumerate(view["voters"]):
        if position >= len(public["voters"]) or voter != public["voters"][position]:
            voters.append(_voter(view, voter))  # known to this seat alone (its Mark)
        elif not voter["criterion"]:
            voters.append(shown.voters[position])  # face down alike: no count, no line of the seat's
        else:
            # The same voter, known the same: the offices shown alike count as the public's did.
            seen = {c.seat: c for c in shown.voters[position].standing if c.seat in alike}
            voters.append(_voter(view, voter, seen))
    board, n = view["board"], len(voters)
    same = board == public["board"]  # the University: its grid and rooms
    return ArgentView(
        **_plain(view),
        offices=offices,
        voters=tuple(voters),
        decisions=shown.decisions if view["decisions"] == public["decisions"] else _decisions(view),
        outcome=shown.outcome if view["outcome"] == public["outcome"] else _outcome(view["outcome"], n),
        pending=shown.pending if view["pending"] == public["pending"] else _pending(view["pending"]),
        mages=shown.mages if view["mages"] == public["mages"] else read_mages(view),
        grid=shown.grid if same else tuple(tuple(row) for row in board["grid"]),
        # A fresh dict of the shared rooms: a reader that changed its own could not reach another's.
        rooms=dict(shown.rooms) if same else _rooms(view),
        tableau=shown.tableau if view["tableau"] == public["tableau"] else _tableau(view),
    )
