"""Protection: the one place that decides whether an effect may touch a mage or enter a room.

Every effect asks here before it offers a target, places, moves, heals, wounds, banishes, shadows
or swaps a mage (rulebook: Mage powers, Locking, Shadowing; the FAQ; the protective spells):

- **Locked room.** "Locking protects a room and its occupants from all Spells and effects ... no
  Mages can be moved into, out of, or within the room." A mage in a locked room is out of reach, and
  nothing enters a locked room (the Infirmary is never locked).
- **Shadowing mages.** "A Shadowing Mage may not be moved or harmed by any method except Spells and
  Vault cards that specifically refer to Shadowing Mages" (the FAQ says the same of your own).
- **Green (Natural Magick A).** "Nature Mages can never be Wounded."
- **Blue (Divinity A).** "Divinity Mages can never be affected by Spells cast by rival candidates
  (they are still susceptible to Sorcery Mages, Vault Cards, and Supporters)." A shadowing mage loses
  its innate powers (so a shadowing Blue mage is still vulnerable to spells).
- **Spell Shield** (``own_ignore_spells``): your mages ignore rivals' spells.
- **Wall, Diamondskin** (``own_ignore_harm``): your mages ignore every negative effect of rivals'
  spells, vault cards and mages (supporters and rooms still reach them).
- **Sanctification, Protective Aura** (``own_unwoundable``); **Oakskin, Stoneskin**
  (``own_unwoundable_unmovable``).

Acts: ``wound``, ``banish``, ``move``, ``push_shadow``, ``shadow`` (being shadowed), ``swap`` (a
loyalty badge changing hands) and ``heal``. All but ``heal`` are harms. Sources (``via``):
``spell``, ``vault``, ``mage`` (a mage power), ``supporter``, ``room``, ``bell``, or None.
"""

from __future__ import annotations

from typing import Any

from rules.argent import vocab
from rules.argent.state import (
    APPRENTICE,
    DEPARTMENTS,
    INFIRMARY,
    NEUTRAL,
    TYPE_LIMIT,
    State,
    is_shadow,
    locked,
    placed,
    room_of,
    slot_of,
)

HARMS = ("wound", "banish", "move", "push_shadow", "shadow", "swap")
ACTS = (*HARMS, "heal")
# Wall: "every negative effect from spells, vault cards and other mages".
WALL_SOURCES = ("spell", "vault", "mage")
# Only spells and vault cards that name shadowing mages reach them (rulebook, Shadowing).
SHADOW_SOURCES = ("spell", "vault")


def shadowing(state: State, m: dict[str, Any]) -> bool:
    """Whether a mage stands in a shadow slot."""
    return placed(m["loc"]) and is_shadow(slot_of(state, m["loc"]))


def innate(state: State, m: dict[str, Any]) -> set[str]:
    """Return the power keys protecting a mage: none while it shadows (rulebook, Shadowing)."""
    return set() if shadowing(state, m) else vocab.powers_of(state, m)


def in_locked_room(state: State, m: dict[str, Any]) -> bool:
    """Whether a mage stands in a locked room (a mage in the Infirmary never does)."""
    room = room_of(m["loc"])
    return room is not None and room != INFIRMARY and locked(state, room)


def protected(
    state: State,
    actor: int | None,
    m: dict[str, Any],
    act: str,
    via: str | None,
    names_shadows: bool = False,
) -> bool:
    """Whether ``m`` is protected from ``act`` done by ``actor`` through ``via`` (the one rule)."""
    if act not in ACTS:
        raise ValueError(f"unknown act {act!r}")
    owner = m["owner"]
    if in_locked_room(state, m):
        return True
    if shadowing(state, m) and not (names_shadows and via in SHADOW_SOURCES):
        return True
    rival = owner is not None and actor is not None and owner != actor
    if (
        rival
        and via == "spell"
        and ("immune_opponent_spells" in innate(state, m) or vocab.covers(state, owner, "own_ignore_spells"))
    ):
        return True
    if rival and act in HARMS and via in WALL_SOURCES and vocab.covers(state, owner, "own_ignore_harm"):
        return True
    if act == "wound" and (
        vocab.covers(state, owner, "own_unwoundable")
        or vocab.covers(state, owner, "own_unwoundable_unmovable")
        or "unwoundable" in innate(state, m)
    ):
        return True
    return act in ("move", "push_shadow") and vocab.covers(state, owner, "own_unwoundable_unmovable")


def may_target(
    state: State,
    actor: int | None,
    m: dict[str, Any] | None,
    act: str,
    via: str | None,
    names_shadows: bool = False,
) -> bool:
    """Whether an effect may offer this mage as a target (a mage that exists and is not protected)."""
    return m is not None and not protected(state, actor, m, act, via, names_shadows)


def room_open(state: State, room: str | None) -> bool:
    """Whether mages may enter a room at all (no Lock token; rulebook, Locking)."""
    return room is not None and not locked(state, room)


def room_full_for(state: State, room: str | None, seat: int | None, moving: int | None = None) -> bool:
    """Whether a room already holds this seat's one allowed mage (Council Chamber A)."""
    if room is None or seat is None or room not in state["board"]["rooms"]:
        return False
    if not vocab.room_has(state, room, "one_mage_per_player"):
        return False
    return any(m["owner"] == seat and room_of(m["loc"]) == room and m["id"] != moving for m in state["mages"])


def may_enter(state: State, seat: int | None, room: str | None, moving: int | None = None) -> bool:
    """Whether a mage of ``seat`` may be placed, moved or shadowed into ``room`` now."""
    return room_open(state, room) and not room_full_for(state, room, seat, moving)



def may_swap(state: State, a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two mages may trade loyalty badges without breaking the limit of 2 of a colour (FAQ)."""
    if a["owner"] == b["owner"]:
        return False
    for new_owner, gained, lost in ((b["owner"], a, b), (a["owner"], b, a)):
        t = gained["type"]
        if t in (NEUTRAL, APPRENTICE) or t not in DEPARTMENTS or t == lost["type"]:
            continue
        held = sum(
            1 for x in state["mages"] if x["owner"] == new_owner and not x["temp"] and x["type"] == t
        )
        if held >= TYPE_LIMIT:
            return False
    return True
