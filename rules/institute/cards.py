"""Load and check the Institute Cards in ``data/institute/cards.json``.

Every problem in the file is collected and reported at once, so whoever edits the file to match a
printed deck fixes it in one pass. An unknown effect key fails the load.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[2] / "data" / "institute" / "cards.json"

POWERS = ("permanent", "one-time", "immediate", "none")
SOURCES = ("rulebook", "published", "designed")
EFFECT_KEYS: dict[str, frozenset[int]] = {
    # effect key -> phases in which it may be used (the engine offers it only there)
    "gain_stones": frozenset({2, 3, 4, 5}),
    "gain_charms": frozenset({3, 4, 5}),
    "refill_rerolls": frozenset({3, 4, 5}),
    "place": frozenset({3, 4, 5}),
    "move_own": frozenset({3, 4, 5}),
    "move_opponent": frozenset({3, 4, 5}),
    "remove_opponent": frozenset({3, 4, 5}),
    "steal_charm": frozenset({3, 4, 5}),
    "clear_card": frozenset({3, 4, 5}),
    "set_die": frozenset({1, 2}),
    "reroll_dice": frozenset({1}),
    "swap_actions": frozenset({2}),
}
"""The effect vocabulary: each effect record holds exactly one of these keys."""
MODIFIERS = {"at": ("choose", "roll"), "if": ("behind",), "from": ("supply", "personal")}
"""Optional keys an effect record may carry beside its effect key, with their allowed values."""
FIELDS = (
    "key", "name", "copies", "cost", "surpass", "vp", "character", "power", "phase", "number",
    "short", "text", "effects", "source",
)  # fmt: skip
OPTIONAL = ("starting", "designed")
DECK_SIZE = 40


class CardDataError(ValueError):
    """The card file has problems; ``problems`` lists every one of them."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("Institute card data has problems:\n- " + "\n- ".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Card:
    """One Institute Card record (shared by its copies)."""

    key: str
    name: str
    copies: int
    cost: int
    surpass: int
    vp: int | None
    character: bool
    power: str
    phase: int | None
    number: int | None
    short: str
    text: str
    effects: tuple[dict[str, Any], ...]
    source: str
    starting: bool = False
    designed: tuple[str, ...] = field(default=())

    def to_view(self, card_id: int) -> dict[str, Any]:
        """Return the card as it appears in a view (see VIEW.md)."""
        cached = _VIEWS.get(card_id)
        if cached is None or cached["key"] != self.key:
            cached = _VIEWS[card_id] = {
                "id": card_id,
                "key": self.key,
                "name": self.name,
                "cost": self.cost,
                "surpass": self.surpass,
                "vp": self.vp,
                "character": self.character,
                "power": self.power,
                "phase": self.phase,
                "number": self.number,
                "short": self.short,
                "text": self.text,
                "source": self.source,
            }
        return dict(cached)  # every value is immutable, so a shallow copy is a safe copy


_VIEWS: dict[int, dict[str, Any]] = {}


def _check_effects(where: str, record: dict[str, Any], problems: list[str]) -> None:
    effects = record.get("effects")
    if not isinstance(effects, list):
        problems.append(f"{where}: effects must be a list.")
        return
    phase = record.get("phase")
    for i, effect in enumerate(effects):
        at = f"{where} effect {i + 1}"
        if not isinstance(effect, dict):
            problems.append(f"{at}: must be an object.")
            continue
        keys = [k for k in effect if k not in MODIFIERS]
        unknown = [k for k in keys if k not in EFFECT_KEYS]
        for k in unknown:
            problems.append(f"{at}: unknown effect key {k!r} (known: {', '.join(sorted(EFFECT_KEYS))}).")
        known = [k for k in keys if k in EFFECT_KEYS]
        if len(keys) != 1:
            problems.append(f"{at}: needs exactly one effect key, found {keys}.")
        for k in known:
            if isinstance(phase, int) and phase not in EFFECT_KEYS[k]:
                problems.append(f"{at}: {k} cannot be used in Phase {phase}.")
        if effect.get("at") == "roll" and known and known[0] not in ("place", "remove_opponent"):
            problems.append(f"{at}: only place and remove_opponent can aim with a die roll.")
        if "from" in effect and known and known[0] != "place":
            problems.append(f"{at}: only place takes its stones `from` somewhere.")
        for mod, allowed in MODIFIERS.items():
            if mod in effect and effect[mod] not in allowed:
                problems.append(f"{at}: {mod} must be one of {allowed}.")


def _check_record(i: int, record: Any, problems: list[str]) -> None:
    where = f"card {i + 1}"
    if not isinstance(record, dict):
        problems.append(f"{where}: must be an object.")
        return
    where = f"card {i + 1} ({record.get('name', '?')})"
    for name in FIELDS:
        if name not in record:
            problems.append(f"{where}: missing field {name!r}.")
    for name in record:
        if name not in FIELDS and name not in OPTIONAL:
            problems.append(f"{where}: unknown field {name!r}.")
    ints = {"copies": (1, 6), "cost": (1, 12), "surpass": (0, 10)}
    for name, (lo, hi) in ints.items():
        value = record.get(name)
        if name in record and (not isinstance(value, int) or not lo <= value <= hi):
            problems.append(f"{where}: {name} must be a whole number from {lo} to {hi}.")
    character = record.get("character")
    if character is True:
        if record.get("vp") is not None:
            problems.append(f"{where}: a Character has vp null (its VP is the '?').")
        if record.get("power") != "none" or record.get("effects"):
            problems.append(f"{where}: a Character has no power.")
    elif character is False:
        vp = record.get("vp")
        if not isinstance(vp, int) or not 0 <= vp <= 5:
            problems.append(f"{where}: a Tool needs vp from 0 to 5.")
        if record.get("power") == "none":
            problems.append(f"{where}: a Tool needs a power.")
        phase = record.get("phase")
        if not isinstance(phase, int) or not 1 <= phase <= 5:
            problems.append(f"{where}: a Tool needs a phase from 1 to 5.")
        if record.get("power") == "immediate" and phase != 5:
            problems.append(f"{where}: immediate powers are Phase V powers.")
        if record.get("power") == "permanent" and phase != 4:
            problems.append(f"{where}: permanent powers are Phase IV powers in this deck.")
        if not record.get("effects"):
            problems.append(f"{where}: a Tool needs at least one effect.")
    else:
        problems.append(f"{where}: character must be true or false.")
    if record.get("power") not in POWERS:
        problems.append(f"{where}: power must be one of {POWERS}.")
    number = record.get("number")
    if record.get("phase") == 4:
        if not isinstance(number, int) or number < 1:
            problems.append(f"{where}: a Phase IV card needs its number.")
    elif number is not None:
        problems.append(f"{where}: only Phase IV cards carry a number.")
    if record.get("source") not in SOURCES:
        problems.append(f"{where}: source must be one of {SOURCES}.")
    for name in ("key", "name", "short", "text"):
        if name in record and (not isinstance(record[name], str) or not record[name].strip()):
            problems.append(f"{where}: {name} must be non-empty text.")
    _check_effects(where, record, problems)


def validate(data: Any) -> list[str]:
    """Return every problem found in the parsed card file (empty when it is sound)."""
    problems: list[str] = []
    records = data.get("cards") if isinstance(data, dict) else None
    if not isinstance(records, list):
        return ["The file needs a top-level object with a `cards` list."]
    for i, record in enumerate(records):
        _check_record(i, record, problems)
    good = [r for r in records if isinstance(r, dict)]
    keys = [r.get("key") for r in good]
    for key in sorted({k for k in keys if keys.count(k) > 1}, key=str):
        problems.append(f"key {key!r} is used by more than one card.")
    numbers = [r.get("number") for r in good if r.get("number") is not None]
    for n in sorted({n for n in numbers if numbers.count(n) > 1}, key=str):
        problems.append(f"Phase IV number {n} is used by more than one card.")
    total = sum(r.get("copies", 0) for r in good if isinstance(r.get("copies"), int))
    if total != DECK_SIZE:
        problems.append(f"the deck holds {total} cards; the game has {DECK_SIZE}.")
    starting = [r for r in good if r.get("starting")]
    if sum(r.get("copies", 0) for r in starting) != 6:
        problems.append("the starred starting cards must be 6 in all (3 cards, 2 copies each).")
    return problems


def parse(data: Any) -> tuple[Card, ...]:
    """Check parsed card data and return one Card per physical card (copies expanded)."""
    problems = validate(data)
    if problems:
        raise CardDataError(problems)
    deck: list[Card] = []
    for r in data["cards"]:
        card = Card(
            key=r["key"],
            name=r["name"],
            copies=r["copies"],
            cost=r["cost"],
            surpass=r["surpass"],
            vp=r["vp"],
            character=r["character"],
            power=r["power"],
            phase=r["phase"],
            number=r["number"],
            short=r["short"],
            text=r["text"],
            effects=tuple(r["effects"]),
            source=r["source"],
            starting=bool(r.get("starting", False)),
            designed=tuple(r.get("designed", ())),
        )
        deck.extend([card] * card.copies)
    return tuple(deck)


@lru_cache(maxsize=1)
def deck() -> tuple[Card, ...]:
    """Return the 40 physical cards; a card's id is its index here."""
    return parse(json.loads(DATA.read_text(encoding="utf-8")))


def by_name(text: str) -> list[tuple[int, Card]]:
    """Return the cards (first copy of each) whose name contains the text, case-blind."""
    wanted = text.strip().lower()
    seen: set[str] = set()
    found: list[tuple[int, Card]] = []
    for i, card in enumerate(deck()):
        if card.key not in seen and wanted in card.name.lower():
            seen.add(card.key)
            found.append((i, card))
    return found


def _lookup_text(card: Card) -> str:
    """Return the public lookup text of one card record."""
    if card.character:
        head = f"Character, x{card.copies}. Cost {card.cost} / Surpass {card.surpass}."
    else:
        timing = f"{card.power} power, Phase {card.phase}" if card.phase else f"{card.power} power"
        number = f" #{card.number}" if card.number else ""
        head = f"x{card.copies}. Cost {card.cost} / Surpass {card.surpass}, {card.vp} VP, {timing}{number}."
    source = card.source
    if card.designed:
        source += f" (designed: {', '.join(card.designed)})"
    return f"**{card.name}** — {head}\n{card.text}\nSource: {source}."


@lru_cache(maxsize=1)
def card_index() -> dict[str, str]:
    """Return card name -> lookup text, one entry per record (not per copy)."""
    return {card.name: _lookup_text(card) for card in deck()}
