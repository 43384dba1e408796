"""What each seat may see (``view``), the hidden things re-drawn (``scramble``), and the text board.

Hidden information in Argent: a face-down voter is known to a seat only through its own Mark
(the white voters to everyone; everyone at the end); personal discards are face down to the other
players unless Open Discards is on, and Secret Supporters always are; every deck's order is
hidden from everyone; a decision's private options (Mystic Lantern's cards) only to its seat.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rules.argent import content
from rules.argent.scoring import criterion_text
from rules.argent.state import DEPT_NAMES, State, merit_free, merit_total, room_name
from rules.contract import IllegalMove, PromptKind, RuleRef
from rules.copies import tree_copy

View = dict[str, Any]


def voter_known(state: State, index: int, seat: int | None) -> bool:
    """Whether a seat may see which voter sits at that position."""
    voter = state["voters"][index]
    return voter["face_up"] or state["over"] or (seat is not None and seat in voter["marks"])


def discard_view(state: State, owner: int, seat: int | None) -> list[dict[str, Any]] | None:
    """Return the part of a discard pile a seat may see (None: nothing, not even its size).

    FAQ: another player's face-down pile "cannot be checked" unless Open Discards is on, and Secret
    Supporters "may never be looked at or counted" by anyone else, also once the game is over: they
    count only inside the scoring totals.
    """
    pile = state["seats"][owner]["discard"]
    if seat == owner:
        return [dict(c) for c in pile]
    if state["options"].get("discards") == "open":
        return [dict(c) for c in pile if not c["secret"]]
    return None


def office_view(state: State, owner: int, seat: int | None) -> dict[str, Any]:
    """Return one office as a seat may see it."""
    office = state["seats"][owner]
    out = {
        "seat": owner,
        "candidate": office["candidate"],
        "candidate_name": content.candidate_name(office["candidate"]) if office["candidate"] else None,
        "department": office["department"],
        "gold": office["gold"],
        "mana": office["mana"],
        "int": office["int"],
        "wis": office["wis"],
        "ip": office["ip"],
        "ip_time": office["ip_time"],
        "merit": merit_total(state, owner),
        "merit_free": merit_free(state, owner),
        "starter": (
            dict(office["starter"], name=content.starter(office["starter"]["id"])["name"])
            if office["starter"]
            else None
        ),
        # Each spell carries its book's name (public: the book was in the tableau or is on the table).
        "spells": [dict(s, name=content.book(s["id"])["name"]) for s in office["spells"]],
        "vaults": [dict(v) for v in office["vaults"]],
        "supporters": list(office["supporters"]),
        "bell": list(office["bell"]),
        "white_ash": office.get("white_ash"),
        "left": bool(office.get("left")),
        # Resigned this round: skipped from now on, gone at the round's end (FAQ).
        "leaving": bool(office.get("leaving")),
        "discard": discard_view(state, owner, seat),
        "discard_count": discard_count(state, owner, seat),
    }
    return out


def discard_count(state: State, owner: int, seat: int | None) -> int | None:
    """Return how many cards of a discard pile a seat may count (None: it may not count them).

    FAQ: another player's face-down pile may not be counted unless Open Discards is on, and then
    without its Secret Supporters, which "may never be looked at or counted", the game's end included.
    """
    pile = discard_view(state, owner, seat)
    return None if pile is None else len(pile)


def pending_view(state: State, seat: int | None) -> dict[str, Any] | None:
    """Return the decision at the front of the agenda as this seat may see it."""
    agenda = state["agenda"]
    if not agenda or agenda[0]["op"] != "ask":
        return None
    task = agenda[0]
    out: dict[str, Any] = {
        "seat": task["seat"],
        "kind": task["kind"],
        "prompt": task["prompt"],
        # Public flags: a reaction window (react or pass), and options that only their seat may read.
        "react": bool(task.get("react")),
        "secret": bool(task.get("secret")),
    }
    if seat == task["seat"]:
        out["options"] = [o["label"] for o in task["options"]]
    return out


@dataclass(frozen=True, slots=True)
class Asked:
    """The one decision the game's flow waits on: whose, what sort, its name and what it asks in words."""

    seat: int
    kind: PromptKind
    decision: str
    words: str


PHASE_ASKS = {
    "candidates": ("candidate", "choose your candidate"),
    "powers": ("power", "choose your department's mage power"),
    "build": ("build", "add a room to the University"),
    "draft": ("draft", "draft a mage"),
    "marks": ("mark", "place your starting Mark"),
}
"""The setup phases that ask the front of the queue, with the decision's name and its words."""


def asked(state: State) -> Asked | None:
    """Return the decision the flow waits on (the agenda's front ask, a setup phase, a turn), or None."""
    where = _flow_source(state)
    if where == "ask":
        task = state["agenda"][0]
        kind = PromptKind.REACTION if task["react"] else PromptKind.DECISION
        return Asked(task["seat"], kind, task["kind"], task["prompt"])
    if where == "queue":
        decision, words = PHASE_ASKS[state["phase"]]
        return Asked(state["queue"][0], PromptKind.TURN, decision, words)
    if where == "turn":
        return Asked(state["turn"]["seat"], PromptKind.TURN, "turn", "take your turn")
    return None


def _flow_source(state: State) -> str | None:
    """Name where the flow's decision is read from: the agenda's front ask, the setup queue or the turn."""
    agenda = state["agenda"]
    if agenda and agenda[0]["op"] == "ask":
        return "ask"
    phase = state["phase"]
    if phase in PHASE_ASKS and state["queue"]:
        return "queue"
    if phase == "errands" and state["turn"]:
        return "turn"
    return None


def flow_seat(state: State) -> int | None:
    """Return the seat of ``asked``'s decision without building its record."""
    where = _flow_source(state)
    if where == "ask":
        return state["agenda"][0]["seat"]
    if where == "queue":
        return state["queue"][0]
    if where == "turn":
        return state["turn"]["seat"]
    return None


def decisions(state: State) -> list[Asked]:
    """Return every decision the game waits on: the flow's, then each leaver still choosing its rooms."""
    if state["over"]:
        return []
    main = asked(state)
    found = [main] if main is not None else []
    waiting = {a.seat for a in found}
    leavers = [
        Asked(s, PromptKind.SECRET, "leave_room", "choose the two rooms that leave with you")
        for s, office in enumerate(state["seats"])
        if office.get("leave_choice") and s not in waiting
    ]
    return found + leavers


def waiting_seats(state: State) -> list[int]:
    """Return the seats ``decisions`` names, sorted, without building a decision's record."""
    if state["over"]:
        return []
    main = flow_seat(state)
    seats = {s for s, office in enumerate(state["seats"]) if office.get("leave_choice")}
    if main is not None:
        seats.add(main)
    return sorted(seats)


def decisions_view(state: State) -> list[dict[str, Any]]:
    """Return the decisions the game waits on as everyone may read them (a prompt's text is public)."""
    return [
        {"seat": a.seat, "name": a.decision, "words": a.words, "kind": a.kind.value} for a in decisions(state)
    ]


def supply_counts(state: State) -> dict[str, int]:
    """Count the unowned mage pawns left in the supply, by type."""
    out: dict[str, int] = {}
    for m in state["mages"]:
        if m["owner"] is None and m["loc"] == "supply":
            out[m["type"]] = out.get(m["type"], 0) + 1
    return out


def view(state: State, seat: int | None) -> View:
    """Return everything a seat (None: a spectator) may know."""
    voters = [voter_view(state, i, seat) for i in range(len(state["voters"]))]
    out: View = {
        "kind": "argent",
        "you": seat,
        "players": state["players"],
        "options": dict(state["options"]),
        "round": state["round"],
        "rounds": state["rounds"],
        "phase": state["phase"],
        "first": state["first"],
        "turn": state["turn"]["seat"] if state.get("turn") else None,
        "queue": list(state["queue"]) if state["phase"] in ("draft", "marks") else [],
        "offices": [office_view(state, s, seat) for s in range(state["players"])],
        "mages": [dict(m) for m in state["mages"] if m["owner"] is not None],
        "supply": supply_counts(state),
        # Plain data copied in C (``tree_copy``): deepcopy's walk in Python was most of a view's cost.
        "board": tree_copy(state["board"]),
        "voters": voters,
        "tableau": tree_copy(state["tableau"]),
        "deck_sizes": {k: len(v) for k, v in state["decks"].items()},
        "legendary": list(state["legendary"]),
        "bell": list(state["bell"]),
        "statuses": [dict(s) for s in state["statuses"]],
        "mage_powers": dict(state["mage_powers"]),
        "pending": pending_view(state, seat),
        "decisions": decisions_view(state),
        "outcome": tree_copy(state["outcome"]) if state["over"] else None,
    }
    return out


def voter_view(state: State, index: int, seat: int | None) -> dict[str, Any]:
    """Return the voter at a position as a seat may see it (face down: no name, no criterion)."""
    v = state["voters"][index]
    known = voter_known(state, index, seat)
    rec = content.voter(v["id"]) if known else None
    return {
        "position": index,
        "face_up": v["face_up"],
        "id": v["id"] if known else None,
        "name": rec["name"] if rec else None,
        "title": rec.get("title") if rec else None,
        "criterion": rec["criterion"] if rec else None,
        "marks": list(v["marks"]),
    }


def view_beside(state: State, seat: int, public: View) -> View:
    """Return ``view(state, seat)`` given ``public``, ``view(state, None)`` of this same state.

    Every part a seat sees as a spectator does is the public view's own object (the University,
    the mages, the tableau, each rival's office...): built once a version, not once a seat. What
    the seat alone sees is built for it: its own office (its discard), the voters it marked, the
    decision's options when it is the one asked. The views are read, never written, by everything
    that takes them (records, drawings, texts), so sharing a part changes nothing anyone sees; a
    seat's part is never put into the public view.
    """
    out = dict(public)
    out["you"] = seat
    offices = list(public["offices"])
    offices[seat] = office_view(state, seat, seat)
    out["offices"] = offices
    out["voters"] = [
        voter_view(state, i, seat) if seat in v["marks"] and not voter_known(state, i, None) else shown
        for i, (v, shown) in enumerate(zip(state["voters"], public["voters"], strict=True))
    ]
    out["pending"] = pending_view(state, seat)
    return out


def scramble(state: State, seat: int | None, rand: Any) -> State:
    """Return a copy with every secret of this seat re-drawn: deck orders, unseen voters, others' secrets."""
    new = json.loads(json.dumps(state))
    # Every pool is sorted before it is shuffled, so the result depends on what the seat knows
    # and on ``rand`` alone, never on the real hidden order (bots sample their worlds this way).
    for deck in new["decks"].values():
        deck.sort()
        rand.shuffle(deck)
    if new["over"]:
        return new
    # Voters this seat has not seen trade places with the undealt ones.
    hidden = [i for i in range(len(new["voters"])) if not voter_known(new, i, seat)]
    pool = sorted([new["voters"][i]["id"] for i in hidden] + list(new["voter_deck"]))
    rand.shuffle(pool)
    for i in hidden:
        new["voters"][i]["id"] = pool.pop()
    new["voter_deck"] = pool
    # Other players' secret supporters trade places with the supporter deck.
    slots = []
    for owner, office in enumerate(new["seats"]):
        if owner == seat:
            continue
        for card in office["discard"]:
            if card["secret"]:
                slots.append(card)
    if slots:
        pool = sorted([c["id"] for c in slots] + new["decks"]["supporter"])
        rand.shuffle(pool)
        for card in slots:
            card["id"] = pool.pop()
        new["decks"]["supporter"] = pool
    return new


# --------------------------------------------------------------------------- text


def view_text(v: View) -> str:
    """Return a seat's view as plain text, enough to play by."""
    return "\n".join(view_lines(v))


def view_lines(v: View) -> Iterator[str]:
    """Yield ``view_text``'s lines one by one: an alt text stops reading at its limit (the University)."""
    yield f"Argent: The Consortium. Round {v['round']} of {v['rounds']}, phase: {v['phase']}."
    if v["turn"] is not None:
        yield f"Turn: P{v['turn'] + 1}. First player: P{v['first'] + 1}."
    yield ""
    yield "University (rows resolve top to bottom, left to right):"
    mages_at = {m["loc"]: m for m in v["mages"]}
    for row in v["board"]["grid"]:
        for room in row:
            if not room:
                continue
            info = v["board"]["rooms"][room]
            tags = [f"side {info['side']}"]
            if info["locked"]:
                tags.append("locked")
            if room == "astronomy_tower":
                tags.append(f"marker on space {info['marker'] + 1}")
            here = [
                f"{_short_loc(loc, info['side'])}: {_mage_word(m)}"
                for loc, m in sorted(mages_at.items())
                if loc.split("/")[0] == room
            ]
            yield f"  {room_name(room)} ({', '.join(tags)}): " + ("; ".join(here) or "empty")
            text = content.room_side(room, info["side"]).get("text")
            if text:
                yield f"      {text}"
    yield ""
    yield "Voters:"
    for voter in v["voters"]:
        marks = ", ".join(f"P{s + 1}" for s in voter["marks"]) or "none"
        who = voter["name"] or "face down"
        crit = f" ({criterion_text(voter['criterion'])})" if voter["criterion"] else ""
        yield f"  {voter['position'] + 1}. {who}{crit}; marks: {marks}"
    yield ""
    for office in v["offices"]:
        you = " (you)" if office["seat"] == v["you"] else ""
        yield (
            f"P{office['seat'] + 1}{you} {office['candidate_name']} "
            f"[{DEPT_NAMES.get(office['department'], '')}]: "
            f"IP {office['ip']}, Merit {office['merit_free']}/{office['merit']}, Gold {office['gold']}, "
            f"Mana {office['mana']}, INT {office['int']}, WIS {office['wis']}"
        )
        home = [m for m in v["mages"] if m["owner"] == office["seat"] and m["loc"] == "office"]
        if home:
            yield "   mages at home: " + ", ".join(_mage_word(m) for m in home)
        spells = [
            f"{content.book(s['id'])['name']} L{s['level']}{' (exhausted)' if s['exhausted'] else ''}"
            for s in office["spells"]
        ]
        if office["starter"]:
            st = office["starter"]
            spells.insert(
                0, f"{content.starter(st['id'])['name']} (starter){' (exhausted)' if st['exhausted'] else ''}"
            )
        yield "   spells: " + (", ".join(spells) or "none")
        if office["vaults"]:
            yield (
                "   vault: "
                + ", ".join(
                    f"{content.vault(x['id'])['name']}{' (exhausted)' if x['exhausted'] else ''}"
                    for x in office["vaults"]
                )
            )
        if office["supporters"]:
            yield (
                "   supporters: " + ", ".join(content.supporter(x)["name"] for x in office["supporters"])
            )
        if office["discard"]:
            yield (
                "   discard: "
                + ", ".join(
                    content.card_name(c["kind"], c["id"]) + (" (secret)" if c["secret"] else "")
                    for c in office["discard"]
                )
            )
    yield ""
    yield "Spell tableau: " + ", ".join(content.book(b)["name"] for b in v["tableau"]["spell"])
    yield (
        "Vault tableau: "
        + ", ".join(
            f"{content.vault(x)['name']} ({content.vault(x)['cost']} Gold)" for x in v["tableau"]["vault"]
        )
    )
    yield (
        "Supporter tableau: " + ", ".join(content.supporter(x)["name"] for x in v["tableau"]["supporter"])
    )
    yield (
        "Mage supply: "
        + (", ".join(f"{n} {DEPT_NAMES.get(t, t)}" for t, n in sorted(v["supply"].items())) or "empty")
    )
    yield "Bell Tower: " + (", ".join(content.bell(b)["name"] for b in v["bell"]) or "empty")
    if v["statuses"]:
        yield (
            "In effect: "
            + "; ".join(
                f"P{s['seat'] + 1} {s['name'].replace('_', ' ')} ({s['duration'].replace('_', ' ')})"
                for s in v["statuses"]
            )
        )
    if v["pending"]:
        p = v["pending"]
        yield ""
        yield f"Waiting on P{p['seat'] + 1}: {p['prompt']}."
        for i, label in enumerate(p.get("options", []), 1):
            yield f"  {i}. {label}"
    if v["outcome"]:
        yield ""
        yield from v["outcome"]["lines"]


def _short_loc(loc: str, side: str) -> str:
    """Name a board location for the text view: 'slot 2 (merit)', 'shadow of slot 1', 'area'."""
    parts = loc.split("/")
    room, slot_id = parts[0], parts[1]
    slots = content.room_side(room, side)["slots"]
    number, names = 0, {}
    for s in slots:
        if s["kind"] not in ("shadow", "shadow_merit"):
            number += 1
            names[s["id"]] = number
    s = next(x for x in slots if x["id"] == slot_id)
    if s["kind"] in ("shadow", "shadow_merit"):
        return f"shadow of slot {names[s['of']]}"
    if s["kind"] in ("area", "general"):
        return "area"
    if s["kind"] == "wound":
        return f"wound slot {names[slot_id]}"
    return f"slot {names[slot_id]}" + (" (merit)" if s["kind"] == "merit" else "")


def _mage_word(m: dict[str, Any]) -> str:
    owner = "supply" if m["owner"] is None else f"P{m['owner'] + 1}"
    kind = DEPT_NAMES.get(m["type"], m["type"])
    return f"{owner} {kind}" + (" (temporary)" if m["temp"] else "")


FAST = RuleRef("Fast Actions")
PLACE = RuleRef("Place a Mage")
FAST_MAGE = "Only a Planar Studies mage (or the Apprentice) may be placed as a fast action."
CAST = RuleRef("Cast a Spell")
BELL = RuleRef("Take a Bell Tower Card")
INFIRMARY = RuleRef("Room Clarifications")
LOCKED = RuleRef("Locked rooms take no placements", ruling=True)


def refusal(state: State, seat: int, move: Any) -> IllegalMove | None:
    """Return the refusal of an errands-phase move that is not allowed (with its rule), when one fits."""
    from rules.argent.effects import has_status
    from rules.argent.engine import castable

    office = state["seats"][seat]
    turn = state["turn"] or {}
    action = move.action
    if action == "place":
        room = move.get("room")
        if move.get("fast") and turn.get("fast"):
            return IllegalMove("You have already taken your fast action this turn.", FAST)
        if room is None and move.get("fast"):
            return IllegalMove(FAST_MAGE, PLACE)
        if room not in state["board"]["rooms"]:
            return IllegalMove("There is no such room in this University.", PLACE)
        if has_status(state, None, "no_placing"):
            return IllegalMove("Nobody may place mages until Malaise wears off.", CAST)
        if move.get("fast") and turn.get("fast"):
            return IllegalMove("You have already taken your fast action this turn.", FAST)
        if room == "infirmary":
            return IllegalMove("No mage can be placed in the Infirmary.", INFIRMARY)
        if state["board"]["rooms"][room]["locked"]:
            return IllegalMove(f"{room_name(room)} is locked.", LOCKED)
        if not any(m["owner"] == seat and m["loc"] == "office" for m in state["mages"]):
            return IllegalMove("You have no mage waiting in your office.", PLACE)
        if move.get("fast"):
            return IllegalMove(FAST_MAGE, PLACE)
        return IllegalMove(f"There is no open slot for you in {room_name(room)}.", PLACE)
    if action == "cast":
        spell = move.get("spell")
        owned = [s for s in office["spells"] if s["id"] == spell]
        starter = office["starter"] and office["starter"]["id"] == spell
        if not owned and not starter:
            return IllegalMove("You have not learned that spell.", CAST)
        if has_status(state, None, "no_casting"):
            return IllegalMove("Nobody may cast spells until Silence wears off.", CAST)
        card = owned[0] if owned else office["starter"]
        if card["exhausted"]:
            return IllegalMove("That spell is exhausted until the next round.", CAST)
        if owned and (move.get("level") or 1) > owned[0]["level"]:
            return IllegalMove("You have not researched that level yet.", CAST)
        if not any(c[1] == spell for c in castable(state, seat, "act") + castable(state, seat, "fast")):
            return IllegalMove("You do not have enough Mana for that spell.", CAST)
    if action == "bell" and move.get("card") not in state["bell"]:
        return IllegalMove("That Bell Tower offering has already been taken.", BELL)
    if action in ("use", "support"):
        return IllegalMove(
            "That card cannot be used now (used up, exhausted, or not an action).",
            RuleRef("Use a Vault Item" if action == "use" else "Use a Supporter"),
        )
    return None
