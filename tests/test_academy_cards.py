"""Wizard's Academy data: every file loads and keeps the designer's principles; every spell and disaster
does what its effect ops say, boosted and not (a test per card, checked per effect op)."""

from __future__ import annotations

from collections import Counter

import pytest

from rules.academy import RULES
from rules.academy.cards import (
    OPS,
    SCHOOLS,
    AcademyDataError,
    _check_ops,
    card_index,
    characters,
    disasters,
    load,
    room_cards,
    rooms,
    scenarios,
    spells,
)
from rules.academy.flow import push
from rules.contract import Move
from tests.academy_helpers import calm, orient, settle

CHAR_OF = {c["school"]: k for k, c in characters().items()}


def test_the_data_has_the_components_counts() -> None:
    # Component Descriptions: 17 rooms, 7 characters, 56 disaster cards, 14 room cards, 64 spells.
    data = load()
    assert len(data["rooms"]) == 17 and len(data["characters"]) == 7 and len(room_cards()) == 14
    assert len(spells()) == 64 and sum(d["copies"] for d in disasters().values()) == 56


def test_every_record_has_a_source_and_designed_ones_say_what() -> None:
    for group in (spells(), disasters(), rooms(), characters(), scenarios()):
        for record in group.values():
            assert record["source"] in ("rulebook", "published", "designed")
            if record["source"] == "designed":
                assert record["designed"]


def test_each_school_has_the_same_number_of_spells() -> None:
    # Designer's principle: each school has the same number of spells.
    counts = Counter(s["school"] for s in spells().values() if s["school"])
    assert set(counts) == set(SCHOOLS) and len(set(counts.values())) == 1


def test_every_threat_has_a_spell_that_places_it_and_one_that_removes_it() -> None:
    # Designer's principle: every threat is placed by some spell and removed by some spell.
    placed, removed = set(), set()
    for spell in spells().values():
        for op in spell["effects"] + spell["boost"]:
            what = op.get("what")
            kinds = what if isinstance(what, list) else [what]
            if op["op"] == "place":
                placed.update(kinds)
            if op["op"] == "remove":
                removed.update(kinds)
            if op["op"] in ("damage", "damage_each"):
                removed.update(["imp", "guardian", "troll", "demon"])
    threats = ("fire", "water", "ice", "darkness", "haunt", "imp", "troll", "demon", "portal", "guardian")
    for threat in threats:
        assert threat in placed and threat in removed, threat


def test_every_objective_is_reachable_by_a_spell() -> None:
    for scen in scenarios().values():
        goal = scen["objective"]
        if goal.get("spell"):
            assert goal["spell"] in spells() and goal["spell"] in scen["mandatory"]


def test_the_basic_game_cards_are_marked_basic() -> None:
    assert sum(1 for s in spells().values() if s["basic"]) == 15
    names = {d["name"] for d in disasters().values() if d["basic"]}
    assert names >= {
        "Activate Threats",
        "Wild Magic",
        "Fire",
        "Imp Invasion",
        "Twist",
        "Gathering",
        "Lure of Power",
    }


def test_an_unknown_effect_op_is_reported() -> None:
    problems: list[str] = []
    bad = [{"op": "teleport_everyone"}, {"op": "place", "what": "fire", "where": "moon"}]
    _check_ops("spell x", bad, problems)
    assert len(problems) == 2 and "teleport_everyone" in problems[0] and "moon" in problems[1]
    with pytest.raises(AcademyDataError):
        raise AcademyDataError(problems)


def test_card_index_lists_spells_disasters_rooms_and_characters() -> None:
    index = RULES.card_index()
    assert index == card_index()
    assert "Spell (level 2" in index["Abjure"] and "Disaster" in index["Wildfire"]
    assert "Room" in index["Library"] and "Character" in index["Myrrin"]
    assert any(name.startswith("Activate Threats (") for name in index)
    assert all("Source:" in text for text in index.values())


# --------------------------------------------------------------------------- every card, per effect op


def busy(scenario: str = "golem") -> dict:
    """A state full of things for effects to act on; seat 0 stands in the Hoard with seat 1."""
    s = calm(players=2, scenario=scenario)
    for room, sides in (
        ("hoard", ["n", "e", "w"]),
        ("cursed_room", ["s", "w"]),
        ("observatory", ["w"]),
        ("workshop", ["e"]),
    ):
        orient(s, room, sides)
    for room in [*s["board"], s["outside"]]:
        if room != "mana_crystal":
            s["rooms"][room].update(imp=1, source=1)
    s["rooms"]["hoard"].update(imp=2, water=1, ice=1, darkness=1, haunt=1, portals=["imp"], source=3)
    s["rooms"]["hoard"].update(troll=1, demon=1)
    s["rooms"]["cursed_room"].update(fire=1, portals=["fire"])
    s["rooms"]["observatory"].update(fire=1, ice=1, haunt=1, darkness=1)
    s["rooms"]["workshop"].update(demon=1, water=2)
    s["rooms"]["sanctuary"].update(source=5, guardian=1, imp=0)
    s["wizards"][0].update(room="hoard", glyphs=[1, 2, 4, 6])
    s["wizards"][1].update(room="hoard", glyphs=[2, 3])
    s["slots"]["1-3"] = {"spell": "burn", "bound": True}  # a bound botch for Backfire
    return s


def drive(s: dict, kinds: list[str]) -> dict:
    """Answer every choice with its last option (it moves, targets, takes rather than stays)."""
    for _ in range(80):
        if s["choice"] is None or s["over"]:
            break
        seat = s["choice"]["seat"]
        value = s["choice"]["options"][-1]["value"]
        s, events = RULES.apply(s, seat, Move.of("choose", value=value))
        kinds += [e.kind for e in events]
    return s


def threats_total(s: dict) -> dict:
    out: Counter = Counter()
    for c in s["rooms"].values():
        for k in ("fire", "water", "ice", "darkness", "haunt", "imp", "guardian", "troll", "demon"):
            out[k] += c[k]
        out["portal"] += len(c["portals"])
    return out


ACTIVITY = {
    *("spread", "moves", "portal", "imp_steals", "imp_drains", "imp_leaves", "imp_douses", "activate"),
    *("death", "kill", "place", "overflow", "smash", "mana", "imp_killed"),
}


def _targets(before: dict, op: dict) -> bool:
    """Whether anything the op could remove lay in its reach before the cast."""
    from rules.academy.state import adjoining

    room = before["wizards"][0]["room"]
    adj = adjoining(before, room)
    where = {"here": [room], "here_and_adjoining": [room, *adj], "adjoining_all": adj, "near": [room, *adj]}
    reach = where.get(op["where"], before["board"])
    kinds = op["what"] if isinstance(op["what"], list) else [op["what"]]
    c = before["rooms"]
    return any((c[r]["portals"] if k == "portal" else c[r][k]) for r in reach for k in kinds)


def effect_seen(op: dict, before: dict, after: dict, events: list[str]) -> bool:
    """Whether the state shows the op's effect."""
    name = op["op"]
    me_b, me_a = before["wizards"][0], after["wizards"][0]
    if name == "place":
        return "place" in events or "skip" in events
    if name == "remove":
        return "remove" in events or not _targets(before, op)
    if name in ("damage", "damage_each"):
        room = after["wizards"][0]["room"]
        nobody = not any(after["rooms"][room][k] for k in ("imp", "guardian", "troll", "demon"))
        return "kill" in events or after["damage"] != {} or (op["range"] == "here" and nobody)
    if name in ("move_self", "blink", "teleport"):
        return me_a["room"] != me_b["room"] or "move" in events
    if name in ("take_source", "gain", "duplicate", "lose"):
        return "glyph" in events
    if name == "mana":
        return after["mana"] != before["mana"] or before["mana"] == 8
    if name in ("activate", "activate_in", "unrest", "gather"):
        return bool(ACTIVITY & set(events)) or after["rooms"] != before["rooms"]
    if name in ("rotate", "twist"):
        return after["rot"] != before["rot"]
    if name in ("swap", "rumble"):
        return after["board"] != before["board"]
    if name == "wild":
        return "wild" in events
    if name == "actions":
        return after["extra"] > before["extra"]
    if name == "shield":
        return after["shield"] == 0
    if name == "item":
        return any(me_a[k] != me_b[k] for k in ("robe", "wand", "staff"))
    if name == "move_source":
        return "source" in events or "place" in events
    if name == "backfire":
        return "cast" in events or "skip" in events
    if name == "collapse":
        return after["over"] and not after["won"]
    if name == "bring":
        return True  # checked by the Teleport Self test below
    return name in ("boost_here", "win_if")


def cast_in_busy(key: str, boosted: bool) -> tuple[dict, dict, list[str]]:
    """Cast a spell from slot 1-2 as seat 0 in the busy state; return before, after and the event kinds."""
    s = busy()
    school = spells()[key]["school"]
    s["wizards"][0]["char"] = CHAR_OF[school] if boosted and school else "pip"
    s["slots"]["1-2"] = {"spell": key, "bound": False}
    before = RULES.copy_state(s)
    after, events = RULES.apply(s, 0, Move.of("cast", a=1, b=2))
    kinds = [e.kind for e in events]
    return before, drive(after, kinds), kinds


CASTS = [(k, False) for k in sorted(spells())] + [
    (k, True) for k in sorted(spells()) if spells()[k]["school"]
]
"""Every spell unboosted, and boosted where it has a school (a spell with no school has no boost box)."""


@pytest.mark.parametrize(("key", "boosted"), CASTS)
def test_every_spell_does_what_its_ops_say(key: str, boosted: bool) -> None:
    spell = spells()[key]
    before, after, kinds = cast_in_busy(key, boosted)
    ops = spell["effects"] + (spell["boost"] if boosted else [])
    for op in ops:
        assert effect_seen(op, before, after, kinds), (key, op, kinds)


@pytest.mark.parametrize("key", sorted(disasters()))
def test_every_disaster_does_what_its_ops_say(key: str) -> None:
    s = busy()
    before = RULES.copy_state(s)
    push(s, [dict(op, by=0) for op in disasters()[key]["effects"]])
    settle(s)
    kinds = [e["kind"] for e in s["out"]]
    s = drive(s, kinds)
    for op in disasters()[key]["effects"]:
        assert effect_seen(op, before, s, kinds), (key, op, kinds)


def test_teleport_self_boosted_brings_a_wizard_along() -> None:
    _, after, _ = cast_in_busy("teleport_self", True)
    me, other = after["wizards"]
    assert me["room"] != "hoard" and other["room"] == me["room"]


def test_every_op_is_used_by_some_card() -> None:
    cards = [*spells().values(), *disasters().values()]
    used = {op["op"] for c in cards for op in c["effects"] + c.get("boost", [])}
    assert set(OPS) == used  # no op of the vocabulary is dead
