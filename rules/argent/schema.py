"""The checks of every Argent record, built on the vocabulary (``rules.argent.vocabulary``).

``check`` returns every problem it finds in the loaded files (keys, arguments, fields, counts, links);
``rules.argent.cards`` reads the files, calls it once and serves the records.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from rules.argent.vocabulary import (
    CRITERIA,
    DEPARTMENTS,
    EXPECTED,
    POWER_KEYS,
    ROOM_RULES,
    SLOT_KINDS,
    SLUG,
    SOURCES,
    TIMINGS,
    TRIGGER_EVENTS,
    Check,
    Data,
    Record,
    _bool,
    _effects,
    _either,
    _enum,
    _int,
    _is_int,
    _list_of,
    _none,
    _options,
)

FILES = (
    "rooms",
    "layouts",
    "voters",
    "candidates",
    "mages",
    "bell_tower",
    "spells",
    "starters",
    "vaults",
    "supporters",
)





# --------------------------------------------------------------------------- records


def _fields(record: Record, where: str, required: dict[str, Check], optional: dict[str, Check]) -> list[str]:
    problems = [f"{where}: missing field {name!r}" for name in required if name not in record]
    if "designed" in record and not record.get("note"):
        problems.append(f"{where}: a record with designed parts must say in 'note' what was open")
    for name, value in record.items():
        # "designed": the parts of a published or rulebook record that are our decisions (with a note).
        check = required.get(name) or optional.get(name) or (_designed_parts if name == "designed" else None)
        if check is None:
            problems.append(f"{where}: unknown field {name!r}")
        else:
            problems += [f"{where}: {p}" for p in check(value, name)]
    return problems


def _designed_parts(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        return [f"{where} must list the designed parts as non-empty texts"]
    return []


def _text(value: Any, where: str) -> list[str]:
    return [] if isinstance(value, str) and value.strip() else [f"{where} must be non-empty text"]


def _slug(value: Any, where: str) -> list[str]:
    if not isinstance(value, str) or not SLUG.match(value):
        return [f"{where} must be a lower-case slug, not {value!r}"]
    return []


def _trigger(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where} must be an object"]
    problems = _fields(
        value,
        where,
        {"on": _list_of(_enum(TRIGGER_EVENTS), 1)},
        {"by": _enum("any", "opponent", "other_player"), "via": _enum("any", "spell"), "instead": _bool},
    )
    return problems


COMMON = {"id": _slug, "name": _text, "text": _text, "source": _enum(SOURCES)}
COST = _either(_int(0), _enum("X"))


def _timed(record: Record, where: str) -> list[str]:
    """Check that a reaction has a trigger and nothing else does."""
    if record.get("timing") == "react" and "trigger" not in record:
        return [f"{where}: a reaction needs a 'trigger'"]
    if record.get("timing") != "react" and "trigger" in record:
        return [f"{where}: only a reaction may have a 'trigger'"]
    return []


def _designed_note(record: Record, where: str) -> list[str]:
    if record.get("source") == "designed" and not record.get("note"):
        return [f"{where}: a designed record must say in 'note' what was open"]
    return []


def _slots(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or not value:
        return [f"{where} must be a non-empty list of slots"]
    problems: list[str] = []
    seen: list[str] = []
    for i, slot in enumerate(value):
        here = f"{where}[{i}]"
        if not isinstance(slot, dict):
            problems.append(f"{here} must be an object")
            continue
        kind = slot.get("kind")
        if kind in ("shadow", "shadow_merit"):
            problems += _fields(slot, here, {"id": _slug, "kind": _enum(SLOT_KINDS), "of": _slug}, {})
            wanted = "merit" if kind == "shadow_merit" else "regular"
            before = value[i - 1] if i else {}
            if not seen or slot.get("of") != seen[-1] or before.get("kind") != wanted:
                problems.append(f"{here}: a {kind} slot must follow the {wanted} slot it shadows")
        else:
            problems += _fields(slot, here, {"id": _slug, "kind": _enum(SLOT_KINDS), "effects": _effects}, {})
        if slot.get("id") in seen:
            problems.append(f"{here}: duplicate slot id {slot.get('id')!r}")
        seen.append(slot.get("id"))
    return problems


def _room_side(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where} must be an object"]
    problems = _fields(
        value,
        where,
        {"instant": _bool, "rules": _list_of(_enum(ROOM_RULES)), "text": _text, "slots": _slots},
        {
            "on_place": _effects,
            "track": _options(1),
            "marker": _enum("stays", "resets"),
            "wrap": _bool,
        },
    )
    uses_tower = any("astronomy" in e for s in value.get("slots", []) for e in s.get("effects", []))
    if uses_tower and not {"track", "marker", "wrap"} <= value.keys():
        problems.append(f"{where}: a tower slot needs the side's 'track', 'marker' and 'wrap'")
    return problems


def _sides(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict) or set(value) != {"A", "B"}:
        return [f"{where} must have exactly the sides 'A' and 'B'"]
    return [p for side in ("A", "B") for p in _room_side(value[side], f"{where}.{side}")]


def _check_room(r: Record, where: str) -> list[str]:
    common = {k: c for k, c in COMMON.items() if k != "text"}
    return _fields(r, where, {**common, "central": _bool, "sides": _sides}, {"note": _text})


def _grid(value: Any, where: str) -> list[str]:
    row = _list_of(_either(_slug, _none), 1)
    return _list_of(row, 1)(value, where)


def _check_layout(r: Record, where: str) -> list[str]:
    return _fields(
        r,
        where,
        {
            **COMMON,
            "players": _int(2, 5),
            "grid": _grid,
            "sides": lambda v, w: [] if isinstance(v, dict) else [w],
        },
        {"note": _text},
    )


def _check_voter(r: Record, where: str) -> list[str]:
    return _fields(
        r,
        where,
        {
            **COMMON,
            "title": _text,
            "criterion": _enum(CRITERIA),
            "always_in_play": _bool,
            "two_player": _bool,
        },
        {"note": _text},
    )


def _start(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where} must be an object"]
    mage_kinds = _enum(DEPARTMENTS, "neutral")

    def mages(v: Any, w: str) -> list[str]:
        if not isinstance(v, dict) or not v:
            return [f"{w} must map mage kinds to counts"]
        return [p for k, n in v.items() for p in mage_kinds(k, f"{w} key") + _int(1, 2)(n, f"{w}.{k}")]

    return _fields(
        value,
        where,
        {"gold": _int(0), "mana": _int(0), "int": _int(0), "wis": _int(0), "merit": _int(0), "mages": mages},
        {},
    )


def _check_candidate(r: Record, where: str) -> list[str]:
    return _fields(
        r,
        where,
        {
            **COMMON,
            "title": _text,
            "department": _enum(DEPARTMENTS, "student_body"),
            "side": _enum("A", "B"),
            "sheet": _int(1, 6),
            "starter": _slug,
            "start": _start,
        },
        {"note": _text},
    )


def _power(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, dict):
        return [f"{where} must be an object or null"]
    return _fields(
        value,
        where,
        {
            "key": _enum(POWER_KEYS),
            "text": _text,
            "timing": _enum("passive", "on_place", "after_cast"),
            "effects": _effects,
        },
        {},
    )


def _check_mage(r: Record, where: str) -> list[str]:
    def powers(v: Any, w: str) -> list[str]:
        if not isinstance(v, dict) or set(v) != {"A", "B"} or v.get("A") is None:
            return [f"{w} must have an 'A' power and a 'B' power (or null)"]
        return _power(v["A"], f"{w}.A") + _power(v["B"], f"{w}.B")

    common = {k: c for k, c in COMMON.items() if k != "text"}
    return _fields(
        r,
        where,
        {**common, "colour": _text, "pawns": _int(1), "temporary": _bool, "powers": powers},
        {"note": _text},
    )


def _check_bell(r: Record, where: str) -> list[str]:
    return _fields(r, where, {**COMMON, "min_players": _int(2, 5), "effects": _effects}, {"note": _text})


def _level(value: Any, where: str) -> list[str]:
    if not isinstance(value, dict):
        return [f"{where} must be an object"]
    problems = _fields(
        value,
        where,
        {
            "id": _slug,
            "name": _text,
            "level": _int(1, 3),
            "cost": COST,
            "timing": _enum(TIMINGS),
            "text": _text,
            "effects": _effects,
        },
        {"trigger": _trigger, "note": _text},
    )
    return problems + _timed(value, where)


def _check_book(r: Record, where: str) -> list[str]:
    common = {k: c for k, c in COMMON.items() if k != "text"}
    problems = _fields(
        r,
        where,
        {**common, "department": _enum(DEPARTMENTS), "legendary": _bool, "levels": _list_of(_level, 3)},
        {"note": _text},
    )
    levels = r.get("levels")
    if isinstance(levels, list) and [lv.get("level") for lv in levels if isinstance(lv, dict)] != [1, 2, 3]:
        problems.append(f"{where}: a book has exactly levels 1, 2 and 3 in order")
    return problems


def _check_starter(r: Record, where: str) -> list[str]:
    return _fields(
        r,
        where,
        {
            **COMMON,
            "candidate": _slug,
            "department": _enum(DEPARTMENTS, "student_body"),
            "cost": COST,
            "timing": _enum(TIMINGS),
            "effects": _effects,
        },
        {"trigger": _trigger, "note": _text},
    ) + _timed(r, where)


def _check_vault(r: Record, where: str) -> list[str]:
    return _fields(
        r,
        where,
        {
            **COMMON,
            "type": _enum("treasure", "consumable"),
            "cost": _int(0),
            "timing": _enum(TIMINGS),
            "copies": _int(1),
            "effects": _effects,
        },
        {"trigger": _trigger, "note": _text},
    ) + _timed(r, where)


def _check_supporter(r: Record, where: str) -> list[str]:
    problems = _fields(
        r,
        where,
        {
            **COMMON,
            "title": _text,
            "department": _enum(DEPARTMENTS, "wild"),
            "timing": _enum(TIMINGS, "none", "endgame"),
            "familiar": _bool,
            "effects": _effects,
        },
        {"trigger": _trigger, "note": _text},
    ) + _timed(r, where)
    if r.get("familiar") and r.get("effects"):
        problems.append(f"{where}: a familiar has no effects")
    return problems


RECORD_CHECKS: dict[str, Callable[[Record, str], list[str]]] = {
    "rooms": _check_room,
    "layouts": _check_layout,
    "voters": _check_voter,
    "candidates": _check_candidate,
    "mages": _check_mage,
    "bell_tower": _check_bell,
    "spells": _check_book,
    "starters": _check_starter,
    "vaults": _check_vault,
    "supporters": _check_supporter,
}


def _record_where(name: str, index: int, record: Any) -> str:
    rid = record.get("id") if isinstance(record, dict) else None
    return f"{name}.json: {rid or f'record #{index}'}"


def _check_file(name: str, records: Any) -> list[str]:
    if not isinstance(records, list):
        return [f"{name}.json: must hold a JSON array of records"]
    problems: list[str] = []
    ids = Counter(r.get("id") for r in records if isinstance(r, dict))
    problems += [f"{name}.json: {rid}: duplicate id ({n} records)" for rid, n in ids.items() if n > 1]
    for i, record in enumerate(records):
        where = _record_where(name, i, record)
        if not isinstance(record, dict):
            problems.append(f"{where}: must be an object")
            continue
        problems += RECORD_CHECKS[name](record, where)
        problems += _designed_note(record, where)
    return problems


def _check_counts(data: Data) -> list[str]:
    problems = []
    for name, want in EXPECTED.items():
        if len(data.get(name, [])) != want:
            problems.append(f"{name}.json: holds {len(data.get(name, []))} records, the base game has {want}")
    books = data.get("spells", [])
    regular = sum(1 for b in books if not b.get("legendary"))
    legendary = len(books) - regular
    if (regular, legendary) != (25, 5):
        problems.append(
            f"spells.json: holds {regular} regular + {legendary} legendary books, expected 25 + 5"
        )
    copies = sum(v.get("copies", 0) for v in data.get("vaults", []) if _is_int(v.get("copies")))
    if copies != 38:
        problems.append(f"vaults.json: copies add up to {copies}, the base game has 38")
    voters_ = data.get("voters", [])
    if sum(1 for v in voters_ if v.get("always_in_play")) != 2:
        problems.append("voters.json: exactly two voters (the white ones) are always in play")
    if sum(1 for v in voters_ if v.get("two_player") is False) != 2:
        problems.append("voters.json: exactly two voters are removed in 2-player games")
    return problems


def _check_links(data: Data) -> list[str]:
    """Check the references between files (ids that must exist elsewhere)."""
    problems = []
    room_ids = {r.get("id") for r in data.get("rooms", [])}
    starters_by_id = {s.get("id"): s for s in data.get("starters", [])}
    candidate_ids = {c.get("id") for c in data.get("candidates", [])}
    for c in data.get("candidates", []):
        starter = starters_by_id.get(c.get("starter"))
        if starter is None:
            problems.append(f"candidates.json: {c.get('id')}: unknown starter {c.get('starter')!r}")
        elif starter.get("candidate") != c.get("id"):
            problems.append(
                f"candidates.json: {c.get('id')}: starter {c.get('starter')!r} names another candidate"
            )
    for s in data.get("starters", []):
        if s.get("candidate") not in candidate_ids:
            problems.append(f"starters.json: {s.get('id')}: unknown candidate {s.get('candidate')!r}")
    sheets = Counter((c.get("sheet"), c.get("side")) for c in data.get("candidates", []))
    problems += [
        f"candidates.json: sheet {k[0]} side {k[1]} is used {n} times" for k, n in sheets.items() if n > 1
    ]
    for lay in data.get("layouts", []):
        grid = lay.get("grid") if isinstance(lay.get("grid"), list) else []
        placed = [r for row in grid if isinstance(row, list) for r in row if r is not None]
        where = f"layouts.json: {lay.get('id')}"
        problems += [f"{where}: unknown room {r!r}" for r in placed if r not in room_ids]
        if len(placed) != len(set(placed)):
            problems.append(f"{where}: a room appears twice")
        want = {2: 9, 3: 8, 4: 10, 5: 12}.get(lay.get("players"))
        if want is not None and len(placed) != want:
            problems.append(f"{where}: {len(placed)} rooms for {lay.get('players')} players, expected {want}")
        missing = {"council_chamber", "library", "infirmary"} - set(placed)
        if missing:
            problems.append(f"{where}: lacks University Central room(s) {sorted(missing)}")
        sides = lay.get("sides") if isinstance(lay.get("sides"), dict) else {}
        problems += [f"{where}: sides names {k!r}, not in the grid" for k in sides if k not in placed]
        problems += [
            f"{where}: side {v!r} of {k!r} is not A or B" for k, v in sides.items() if v not in ("A", "B")
        ]
    level_ids = Counter(
        lv.get("id") for b in data.get("spells", []) for lv in b.get("levels", []) if isinstance(lv, dict)
    )
    problems += [f"spells.json: level id {k!r} is used {n} times" for k, n in level_ids.items() if n > 1]
    return problems


def check(data: Data) -> list[str]:
    """Return every problem in ``data`` (file name -> records); an empty list means valid."""
    problems: list[str] = []
    for name in FILES:
        if name not in data:
            problems.append(f"{name}.json: missing")
            continue
        problems += _check_file(name, data[name])
    shaped = all(isinstance(data.get(n), list) and all(isinstance(r, dict) for r in data[n]) for n in FILES)
    if shaped:
        problems += _check_counts(data)
    if not problems:
        # Links are checked only on well-formed records, so one fault is not reported twice.
        problems += _check_links(data)
    return problems

