"""Where each seat stands on a voter: the one count of what a voter weighs, on a state or on a view.

The Game End rules (``scoring``) count each seat's holdings on the whole state; a seat's view shows
the same counts, but a rival's face-down discard pile (FAQ: it "cannot be checked") may hide
supporters and vault cards, so a count read from a view may be a floor. Both go through ``count``:
the rule is written once. The words for criteria and standings (the panel, the office sheet and
the typed view read them) are here too, so every presenter says the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.argent import content
from rules.argent.state import DEPARTMENTS, DEPT_NAMES

WHITE_ASH = "white_ash"
DISCARD_KINDS = frozenset({"supporters", "vault_type", "department", "diversity"})
"""Criteria that count cards which may lie in a discard pile (a view may not see them all)."""


def supporter_department(office: dict[str, Any], sid: str) -> str | None:
    """Return the department a supporter counts for (White Ash: the one its owner declared)."""
    if sid == WHITE_ASH:
        return office.get("white_ash")
    return content.supporter(sid)["department"]


def count(
    office: dict[str, Any],
    criterion: str,
    supporters: Sequence[str],
    vaults: Sequence[str],
    voters: Sequence[dict[str, Any]],
    seat: int,
) -> int:
    """Return how much of a voter's counted thing an office holds (Game End, the voters' criteria).

    ``office`` is a state's office or a view's (the same keys); ``supporters`` and ``vaults`` are the
    card ids counted (office and discard); ``voters`` carry each voter's ``marks``.
    """
    kind = criterion.split(":", 1)[1] if ":" in criterion else criterion
    spells = office["spells"]
    if kind in ("ip", "gold", "mana"):
        return office[kind]
    if kind == "int":
        return office["int"] + len(spells)
    if kind == "wis":
        return office["wis"] + sum(s["level"] - 1 for s in spells)
    if kind == "supporters":
        return len(supporters)
    if kind == "marks":
        return sum(1 for v in voters for s in v["marks"] if s == seat)
    if kind == "research":
        return sum(s["level"] for s in spells)
    if kind == "diversity":
        sup = {supporter_department(office, sid) for sid in supporters} & set(DEPARTMENTS)
        spl = {content.book(s["id"])["department"] for s in spells} & set(DEPARTMENTS)
        return len(sup) + len(spl)
    if kind.startswith("vault_type:"):
        wanted = kind.split(":", 1)[1]
        return sum(1 for vid in vaults if content.vault(vid)["type"] == wanted)
    if kind.startswith("department:"):
        dept = kind.split(":", 1)[1]
        icons = sum(s["level"] for s in spells if content.book(s["id"])["department"] == dept)
        return icons + sum(1 for sid in supporters if supporter_department(office, sid) == dept)
    raise ValueError(f"unknown voter criterion {criterion}")


def _seen_cards(office: dict[str, Any], kind: str) -> list[str]:
    """Return the ids of an office's cards of a kind a view shows: in the office, then in the discard seen."""
    held = list(office["supporters"]) if kind == "supporter" else [v["id"] for v in office["vaults"]]
    return held + [c["id"] for c in office.get("discard") or () if c["kind"] == kind]


def seen_count(view: dict[str, Any], seat: int, criterion: str) -> tuple[int, bool]:
    """Return a seat's count for a criterion as a view shows it, and whether it is exact (not a floor)."""
    office = view["offices"][seat]
    kind = criterion.split(":")[1] if ":" in criterion else criterion
    if kind not in DISCARD_KINDS:
        # Influence, resources, spells, Marks: no card list is read, and no discard hides any.
        return count(office, criterion, (), (), view["voters"], seat), True
    supporters, vaults = _seen_cards(office, "supporter"), _seen_cards(office, "vault")
    value = count(office, criterion, supporters, vaults, view["voters"], seat)
    return value, office.get("discard") is not None


def standing(view: dict[str, Any], criterion: str) -> dict[int, tuple[int, bool]]:
    """Return every seated player's count for a criterion ('second-most' counts the same thing)."""
    return {o["seat"]: seen_count(view, o["seat"], criterion) for o in view["offices"] if not o.get("left")}


def seat_tag(seat: int) -> str:
    """Return a seat's short name, as the engine's texts write it (P1..P5)."""
    return f"P{seat + 1}"


def standing_line(
    view: dict[str, Any], seat: int, criterion: str, counts: dict[int, tuple[int, bool]] | None = None
) -> str:
    """Return where a seat stands on a voter now, e.g. 'you 9 Gold; best rival P2 12: behind by 3'.

    ``counts``: ``standing(view, criterion)`` when the caller has it already (not counted twice).
    """
    if counts is None:
        counts = standing(view, criterion)
    mine, _ = counts.get(seat, (0, True))
    rivals = {s: c for s, c in counts.items() if s != seat}
    if not rivals:
        return f"you {mine}"
    best = max(rivals, key=lambda s: rivals[s][0])
    value, exact = rivals[best]
    floor = "" if exact else "≥"
    if criterion.startswith("second_most"):
        ranked = sorted(counts.items(), key=lambda kv: -kv[1][0])
        place = 1 + sum(1 for s, (v, _) in ranked if v > mine)
        nth = {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")
        return f"you {mine} ({nth}); {seat_tag(best)} has {floor}{value}; this voter backs the runner-up"
    if mine == 0 and value == 0:
        verdict = "nobody has any yet" if exact else "nobody shows any yet"
    elif not exact:
        # A rival's face-down discard may hold more: the count shown is a floor.
        verdict = {
            True: "ahead of what you can see",
            False: f"behind by {value - mine} or more" if mine < value else "level with what you can see",
        }[mine > value]
    elif mine > value:
        verdict = f"ahead by {mine - value}"
    elif mine == value:
        verdict = "tied (a Mark, then IP break ties)"
    else:
        verdict = f"behind by {value - mine}"
    return f"you {mine}; best rival {seat_tag(best)} {floor}{value}: {verdict}"


CRITERION_NAMES = {
    "ip": "Influence",
    "int": "INT",
    "wis": "WIS",
    "gold": "Gold",
    "mana": "Mana",
    "supporters": "supporters",
    "marks": "Marks",
    "research": "research",
    "diversity": "diversity",
}


def criterion_words(criterion: str | None) -> str:
    """Return a voter's criterion in a few words, e.g. 'most Gold' or '2nd-most Influence'."""
    if not criterion:
        return "?"
    parts = criterion.split(":")
    prefix = "most" if parts[0] == "most" else "2nd-most"
    what = parts[1]
    if what == "department":
        return f"{prefix} {DEPT_NAMES.get(parts[2], parts[2])} icons"
    if what == "vault_type":
        return f"{prefix} {parts[2]}s"
    return f"{prefix} {CRITERION_NAMES.get(what, what)}"
