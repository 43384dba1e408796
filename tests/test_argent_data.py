"""The Argent content in data/argent/: valid, complete, and in line with the rulebook's examples.

Section names in the docstrings refer to shared/rules/argent-the-consortium.txt; rulings to
docs/rulings.md ("Argent: The Consortium").
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path

import pytest

from rules.argent import cards
from rules.argent.cards import ArgentDataError

VOCABULARY = Path(cards.__file__).with_name("VOCABULARY.md")


def _slot(room: str, side: str, slot_id: str) -> dict:
    face = cards.rooms_by_id()[room]["sides"][side]
    return next(s for s in face["slots"] if s["id"] == slot_id)


def _level(level_id: str) -> dict:
    return cards.spell_levels()[level_id]


# --------------------------------------------------------------------------- validity


def test_every_shipped_file_is_valid() -> None:
    """Load every file and report every problem at once."""
    problems = cards.check(cards.read_all())
    assert problems == [], "\n".join(problems)
    cards.validate()  # the same check through the raising entry point


def test_bad_records_are_all_reported_by_name() -> None:
    data = copy.deepcopy(cards.read_all())
    data["vaults"][0]["effects"] = [{"teleport_home": {}}]
    del data["supporters"][3]["department"]
    data["voters"].append(copy.deepcopy(data["voters"][5]))
    data["spells"][1]["levels"][0]["effects"] = [
        {"choose": [[{"gain": {"gold": 1}}], [{"wound": {"whoose": "own"}}]]}
    ]
    with pytest.raises(ArgentDataError) as caught:
        cards.validate(data)
    message = str(caught.value)
    vault, supporter, voter = data["vaults"][0]["id"], data["supporters"][3]["id"], data["voters"][5]["id"]
    level = data["spells"][1]["id"]
    assert f"vaults.json: {vault}" in message and "unknown effect key 'teleport_home'" in message
    assert f"supporters.json: {supporter}: missing field 'department'" in message
    assert f"voters.json: {voter}: duplicate id" in message
    assert f"spells.json: {level}" in message and "unknown argument 'whoose'" in message
    assert len(caught.value.problems) >= 4


def test_bad_argument_shapes_are_rejected() -> None:
    bad = [
        ({"gain": {"gold": 0}}, "whole number"),
        ({"gain": {"silver": 2}}, "unknown resource 'silver'"),
        ({"wound": {"count": "many"}}, "count"),
        ({"move": {"whose": "own"}}, "lacks required argument 'to'"),
        ({"choose": [[{"gain": {"ip": 1}}]]}, "at least 2"),
        ({"status": {"name": "sleepy", "duration": "this_round"}}, "'sleepy'"),
        ({"hook": {"name": "unwritten"}}, "'unwritten'"),
        ({"gain": {"ip": 1}, "pay": {"gold": 1}}, "exactly one effect key"),
        ({"repeat": {"effects": [{"bogus": {}}], "max": 2}}, "unknown effect key 'bogus'"),
    ]
    for effect, words in bad:
        problems = cards.check_effect(effect, "x")
        assert problems and words in " ".join(problems), (effect, problems)
    assert cards.check_effect({"gain": {"gold": 6}}, "x") == []


def test_reaction_without_trigger_and_designed_without_note_fail() -> None:
    data = copy.deepcopy(cards.read_all())
    shield = next(v for v in data["vaults"] if v["id"] == "shield_potion")
    del shield["trigger"]
    data["bell_tower"][0]["source"] = "designed"
    data["bell_tower"][0].pop("note", None)
    problems = cards.check(data)
    assert any("vaults.json: shield_potion: a reaction needs a 'trigger'" in p for p in problems)
    assert any("bell_tower.json: initiative: a designed record must say" in p for p in problems)


def test_a_broken_link_is_reported() -> None:
    data = copy.deepcopy(cards.read_all())
    data["candidates"][0]["starter"] = "nonexistent_spell"
    data["layouts"][1]["grid"][0][0] = "moon_base"
    problems = cards.check(data)
    assert any("unknown starter 'nonexistent_spell'" in p for p in problems)
    assert any("unknown room 'moon_base'" in p for p in problems)


def test_every_effect_key_is_documented() -> None:
    """VOCABULARY.md defines every key the loader accepts, and the data uses all but `unlock`."""
    doc = VOCABULARY.read_text(encoding="utf-8")
    for key in cards.EFFECT_KEYS | cards.STATUSES | cards.ROOM_RULES | cards.HOOKS:
        assert f"`{key}`" in doc, key
    assert cards.EFFECT_KEYS - cards.effect_keys_used() == {"unlock"}


def test_hooks_are_few_and_named() -> None:
    assert sorted(cards.hooks()) == [
        ("possession", "Possession"),
        ("repeating_hex", "Repeating Hex"),
        ("white_ash", "White Ash"),
    ]


# --------------------------------------------------------------------------- counts


def test_component_counts_match_the_rulebook() -> None:
    """Game Materials: 15 tiles, 18 voters, 25 + 5 spells, 38 vault cards, 36 supporters, 5 offerings."""
    assert len(cards.rooms()) == 15
    assert len(cards.voters()) == 18
    books = cards.spells()
    assert (sum(not b["legendary"] for b in books), sum(b["legendary"] for b in books)) == (25, 5)
    assert all([lv["level"] for lv in b["levels"]] == [1, 2, 3] for b in books)
    assert len(cards.starters()) == 12 and len(cards.candidates()) == 12
    assert len(cards.vaults()) == 26 and sum(v["copies"] for v in cards.vaults()) == 38
    assert len(cards.supporters()) == 36
    assert len(cards.bell_tower()) == 5
    pawns = {m["id"]: m["pawns"] for m in cards.mages()}
    assert sum(pawns.values()) == 35 and pawns["apprentice"] == 1 and pawns["neutral"] == 4
    assert Counter(s["department"] for s in cards.supporters()) == {
        "divinity": 7,
        "mysticism": 7,
        "natural_magick": 7,
        "planar_studies": 7,
        "sorcery": 7,
        "wild": 1,
    }
    assert Counter(b["department"] for b in books) == {d: 6 for d in cards.DEPARTMENTS}


def test_sealed_scrolls_match_legendary_books() -> None:
    """Legendary Spells: only Sealed Scroll reaches them, one copy per legendary book."""
    scroll = cards.vaults_by_id()["sealed_scroll"]
    assert scroll["copies"] == sum(b["legendary"] for b in cards.spells())
    assert {"research_legendary": {}} in scroll["effects"]


def test_voter_criteria_cover_every_category() -> None:
    """Game End: resources, card types, departments, research and diversity each have a voter."""
    criteria = Counter(v["criterion"] for v in cards.voters())
    assert all(n == 1 for n in criteria.values())
    assert {f"most:department:{d}" for d in cards.DEPARTMENTS} <= criteria.keys()
    for c in ("most:research", "most:diversity", "most:marks", "most:vault_type:treasure", "most:gold"):
        assert c in criteria
    white = {v["criterion"] for v in cards.voters() if v["always_in_play"]}
    assert white == {"most:ip", "most:supporters"}


def test_card_index_covers_everything() -> None:
    index = cards.card_index()
    assert all(len(row) == 4 and all(isinstance(x, str) and x for x in row) for row in index)
    keys = Counter((name, kind) for name, kind, _, _ in index)
    assert [k for k, n in keys.items() if n > 1] == []
    kinds = Counter(kind for _, kind, _, _ in index)
    assert kinds["room"] == 30 and kinds["spell"] == 75 and kinds["legendary spell"] == 15
    assert kinds["vault"] == 26 and kinds["supporter"] == 36 and kinds["voter"] == 18
    assert ("Wave", "spell") in keys and ("Power", "bell tower") in keys and ("Power", "spell") in keys
    assert {source for *_, source in index} <= cards.SOURCES


# --------------------------------------------------------------------------- rulebook examples


def test_jen_blue_mage_at_the_guilds() -> None:
    """1. Place a Mage, example: Jen's mage in a Guilds slot gets 6 Gold or 3 Mana at resolution."""
    face = cards.rooms_by_id()["guilds"]["sides"]["A"]
    assert face["instant"] is False
    assert _slot("guilds", "A", "r2")["effects"] == [
        {"choose": [[{"gain": {"gold": 6}}], [{"gain": {"mana": 3}}]]}
    ]


def test_trey_red_mage_wounds_and_takes_the_slot() -> None:
    """1. Place a Mage, example: Trey pays 1 Mana to wound Jen's mage and take its slot."""
    power = cards.mages_by_id()["sorcery"]["powers"]["A"]
    assert power["timing"] == "on_place"
    assert power["effects"] == [{"pay": {"mana": 1}}, {"wound": {"take_slot": True}}]


def test_trey_casts_wave() -> None:
    """2. Cast a Spell, example: Wave, level 1, banishes a mage (of a rival)."""
    wave = _level("wave")
    assert (wave["level"], wave["book"], wave["department"]) == (
        1,
        "book_of_one_hundred_seas",
        "natural_magick",
    )
    assert wave["effects"] == [{"banish": {"whose": "opponent"}}]
    assert wave["timing"] == "act" and wave["cost"] == 1


def test_brad_researches_malaise_then_haunt() -> None:
    """Research example: Malaise and Haunt are levels 1 and 2 of one spell."""
    malaise, haunt = _level("malaise"), _level("haunt")
    assert malaise["book"] == haunt["book"] == "the_darkness_within"
    assert (malaise["level"], haunt["level"]) == (1, 2)


def test_brad_uses_spellblade() -> None:
    """3. Use a Vault Item, example: Spellblade is a Treasure that wounds a mage and puts his in its slot."""
    blade = cards.vaults_by_id()["spellblade"]
    assert blade["type"] == "treasure" and blade["timing"] == "act"
    assert blade["effects"] == [{"wound": {"take_slot": True}}]


def test_eunice_uses_alumis() -> None:
    """4. Use a Supporter, example: Alumis marks 2 voters."""
    alumis = cards.supporters_by_id()["alumis"]
    assert alumis["effects"] == [{"gain": {"mark": 2}}]
    assert alumis["timing"] == "act" and not alumis["familiar"]


def test_trey_takes_popularity() -> None:
    """5. Take a Bell Tower Card, example: Popularity gives 1 IP."""
    assert cards.bell_tower_by_id()["popularity"]["effects"] == [{"gain": {"ip": 1}}]


def test_power_offering_discounts_only_spells() -> None:
    """FAQ: the Power offering lowers spell costs only."""
    effects = cards.bell_tower_by_id()["power"]["effects"]
    assert effects == [{"status": {"name": "spell_discount", "duration": "this_round", "amount": 1}}]


def test_temporary_mages() -> None:
    """FAQ: Living Image and the Archmage's Apprentice are temporary mages."""
    assert cards.starters_by_id()["living_image"]["effects"] == [{"place": {"mage": "temporary_neutral"}}]
    apprentice = cards.mages_by_id()["apprentice"]
    assert apprentice["temporary"] and apprentice["powers"]["A"]["key"] == "all_powers"
    study = _slot("archmages_study", "A", "m1")
    assert {"gain_mage": {"department": "apprentice", "temporary": True}} in study["effects"]


def test_first_game_layouts_follow_the_rulebook() -> None:
    """First-Game Recommended University Setups: 8, 10 and 12 A-side rooms."""
    listed = {
        3: "Training Fields, Courtyard, Catacombs, Guilds, Vault, Council Chamber, Library, Infirmary",
        4: "Training Fields, Courtyard, Chapel, Catacombs, Guilds, Vault, Student Stores, Council Chamber, "
        "Library, Infirmary",
        5: "Training Fields, Courtyard, Chapel, Catacombs, Guilds, Adventuring, Vault, Student Stores, "
        "Council Chamber, Astronomy Tower, Library, Infirmary",
    }
    names = {r["id"]: r["name"] for r in cards.rooms()}
    by_players = {lay["players"]: lay for lay in cards.layouts()}
    for players, text in listed.items():
        lay = by_players[players]
        rooms = [names[r] for row in lay["grid"] for r in row if r]
        assert sorted(rooms) == sorted(text.split(", "))
        assert lay["sides"] == {} and lay["source"] == "rulebook"


def test_two_player_rules_in_the_data() -> None:
    """Argent for Two: no Great Hall A or Dormitory, Infirmary B always, no 2nd-most voters."""
    rooms = cards.rooms_by_id()
    assert "not_in_two_player" in rooms["great_hall"]["sides"]["A"]["rules"]
    assert "not_in_two_player" not in rooms["great_hall"]["sides"]["B"]["rules"]
    assert all("not_in_two_player" in rooms["dormitory"]["sides"][s]["rules"] for s in "AB")
    assert "two_player_required" in rooms["infirmary"]["sides"]["B"]["rules"]
    removed = {v["criterion"] for v in cards.voters() if not v["two_player"]}
    assert removed == {"second_most:ip", "second_most:supporters"}
    lay = next(lay for lay in cards.layouts() if lay["players"] == 2)
    assert [len(row) for row in lay["grid"]] == [3, 3, 3] and lay["sides"] == {"infirmary": "B"}
    assert "great_hall" not in str(lay["grid"]) and "dormitory" not in str(lay["grid"])


def test_setup_starting_items() -> None:
    """Game Setup 1: 6 Gold, 2 Mana, 2 INT, 2 WIS and 2 mages; Student Body gets a Merit Badge."""
    for c in cards.candidates():
        start = c["start"]
        assert (start["gold"], start["mana"], start["int"], start["wis"]) == (6, 2, 2, 2)
        assert sum(start["mages"].values()) == 2
        assert start["merit"] == (1 if c["department"] == "student_body" else 0)
        assert cards.starters_by_id()[c["starter"]]["candidate"] == c["id"]
    sheets = Counter(c["sheet"] for c in cards.candidates())
    assert sorted(sheets.values()) == [2] * 6


# --------------------------------------------------------------------------- room clarifications


def test_room_clarifications() -> None:
    """Room Clarifications, one assertion group per room."""
    rooms = cards.rooms_by_id()
    # Adventuring A: a drawn spell may be researched at once (draw from the Spell deck).
    assert any("draw" in e for o in _slot("adventuring", "A", "r3")["effects"][0]["choose"] for e in o)
    # Adventuring B: a card is laid in the room on placement, drafted at resolution.
    adv_b = rooms["adventuring"]["sides"]["B"]
    assert adv_b["on_place"] == [{"add_room_card": {"max_per_type": 3}}]
    assert all(s["effects"] == [{"draft_room_card": {}}] for s in adv_b["slots"] if "effects" in s)
    # Astronomy Tower: the marker stays on A, resets on B.
    tower = rooms["astronomy_tower"]["sides"]
    assert (tower["A"]["marker"], tower["B"]["marker"]) == ("stays", "resets")
    assert len(tower["A"]["track"]) == 6 and len(tower["B"]["track"]) == 8
    # Council Chamber B: the top three slots never repeat an option.
    council = rooms["council_chamber"]["sides"]["B"]["slots"]
    assert len(council[0]["effects"]) == 3
    assert council[2]["effects"][0]["choose_distinct"]["picks"] == 2
    # Great Hall: up to 3 mages with one ordinary placement.
    assert all("place_up_to_3" in rooms["great_hall"]["sides"][s]["rules"] for s in "AB")
    # Infirmary: never placed in, never locked, no wounds inside; B has two top wound slots.
    for side in "AB":
        rules = rooms["infirmary"]["sides"][side]["rules"]
        assert {"no_direct_placement", "never_locked", "no_wounds_inside"} <= set(rules)
    kinds = [s["kind"] for s in rooms["infirmary"]["sides"]["B"]["slots"]]
    assert kinds == ["wound", "wound", "general"]
    # Student Stores B: one tableau cycle; the merit slot's discount covers both buys.
    assert "cycle_vault_once_for_1_gold" in rooms["student_stores"]["sides"]["B"]["rules"]
    assert _slot("student_stores", "B", "m1")["effects"] == [{"buy": {"count": 2, "discount": 2}}]
    # Vault A: three cards revealed at resolution and taken in slot order.
    assert "reveal_vault_3" in rooms["vault"]["sides"]["A"]["rules"]


def test_instant_rooms() -> None:
    """Types of Errands: instant rooms are flagged; the rest resolve at the end of the round."""
    instant = {(r["id"], s) for r in cards.rooms() for s in "AB" if r["sides"][s]["instant"]}
    assert instant == {
        ("archmages_study", "A"),
        ("archmages_study", "B"),
        ("chapel", "B"),
        ("great_hall", "A"),
        ("great_hall", "B"),
        ("guilds", "B"),
    }


# --------------------------------------------------------------------------- rulings


def test_shadow_slot_ruling() -> None:
    """Ruling: one shadow slot right after every merit and regular slot; none in Great Hall, Infirmary."""
    for room in cards.rooms():
        for side, face in room["sides"].items():
            slots = face["slots"]
            errands = [s for s in slots if s["kind"] in ("merit", "regular")]
            shadows = [s for s in slots if s["kind"] in ("shadow", "shadow_merit")]
            if room["id"] in ("great_hall", "infirmary"):
                assert shadows == [] and errands == [], (room["id"], side)
                continue
            assert len(shadows) == len(errands) > 0, (room["id"], side)
            for errand, shadow in zip(slots[::2], slots[1::2], strict=True):
                assert shadow["of"] == errand["id"] and "effects" not in shadow
                assert shadow["kind"] == ("shadow_merit" if errand["kind"] == "merit" else "shadow")


def test_bell_tower_ruling() -> None:
    """Ruling: Resourcefulness is 3+, so every player count has as many offerings as players."""
    assert cards.bell_tower_by_id()["resourcefulness"]["min_players"] == 3
    for players in range(2, 6):
        assert sum(b["min_players"] <= players for b in cards.bell_tower()) == players


def test_sealed_scroll_ruling() -> None:
    """Ruling: Sealed Scroll is a Treasure that retires itself to the personal discard."""
    scroll = cards.vaults_by_id()["sealed_scroll"]
    assert scroll["type"] == "treasure" and scroll["effects"][-1] == {"retire": {}}


def test_council_chamber_ruling() -> None:
    """Ruling: Council Chamber A's merit slot gives the regular reward; one mage per player."""
    face = cards.rooms_by_id()["council_chamber"]["sides"]["A"]
    errands = [s for s in face["slots"] if "effects" in s]
    assert len(errands) == 5 and all(s["effects"] == errands[0]["effects"] for s in errands)
    assert face["rules"] == ["one_mage_per_player"]


def test_candidates_start() -> None:
    """Ruling: Student Body candidates start with two neutral mages; the others with their department's."""
    for c in cards.candidates():
        kind = "neutral" if c["department"] == "student_body" else c["department"]
        assert c["start"]["mages"] == {kind: 2}


def test_layouts() -> None:
    """Ruling: grids laid row by row in the rulebook's order; the 2-player grid is ours and says so."""
    shapes = {lay["players"]: [len(row) for row in lay["grid"]] for lay in cards.layouts()}
    assert shapes == {2: [3, 3, 3], 3: [4, 4], 4: [5, 5], 5: [4, 4, 4]}
    two = next(lay for lay in cards.layouts() if lay["players"] == 2)
    assert two["source"] == "designed" and "note" in two


def test_mage_powers() -> None:
    """Mage Power Cards: the five A powers of the rulebook, B powers present, neutral has none."""
    powers = {m["id"]: m["powers"]["A"]["key"] for m in cards.mages()}
    assert powers == {
        "divinity": "immune_opponent_spells",
        "mysticism": "place_after_act_spell",
        "natural_magick": "unwoundable",
        "planar_studies": "fast_place",
        "sorcery": "place_wound",
        "neutral": "none",
        "apprentice": "all_powers",
    }
    assert all(m["powers"]["B"] for m in cards.mages() if m["id"] in cards.DEPARTMENTS)
    # Ruling: the Sorcery mage may wound any mage (the rulebook), not only a rival's.
    assert "whose" not in cards.mages_by_id()["sorcery"]["powers"]["A"]["effects"][1]["wound"]


def test_original_sheet_values() -> None:
    """Ruling: Astronomy Tower A's third slot costs 4 Gold a space; Shadow Bolt costs 1 Mana."""
    assert _slot("astronomy_tower", "A", "r3")["effects"] == [{"astronomy": {"pay": "gold", "per_space": 4}}]
    assert cards.starters_by_id()["shadow_bolt"]["cost"] == 1


# --------------------------------------------------------------------------- card shapes


def test_every_reaction_names_its_trigger() -> None:
    """Reactions: every reaction card says what it answers; replacements use redirect."""
    reactions = [lv for lv in cards.spell_levels().values() if lv["timing"] == "react"]
    reactions += [r for r in cards.vaults() + cards.starters() if r["timing"] == "react"]
    assert len(reactions) == 16
    for r in reactions:
        replaces = r["trigger"].get("instead", False)
        assert replaces == any("redirect" in e for e in r["effects"]), r["name"]


def test_familiars_do_nothing_but_count() -> None:
    """Supporters: the five familiars have no effect; every other supporter has one."""
    familiars = [s["name"] for s in cards.supporters() if s["familiar"]]
    assert sorted(familiars) == ["Borneo", "Juto", "Salamander", "Wandering Calculus", "Wyvern"]
    assert all(s["effects"] for s in cards.supporters() if not s["familiar"])


def test_coloured_mage_supporters() -> None:
    """FAQ (a colour you cannot hold becomes neutral): five supporters sell a mage of their colour."""
    sellers = {
        s["department"]: s["effects"]
        for s in cards.supporters()
        if any("gain_mage" in e for e in s["effects"])
    }
    assert set(sellers) == set(cards.DEPARTMENTS)
    for dept, effects in sellers.items():
        # "Swap X for Y" on the sheet: a swap, which Auric Catalyst cannot waive.
        assert effects == [{"pay": {"gold": 3, "swap": True}}, {"gain_mage": {"department": dept}}]


def test_x_cost_spells() -> None:
    """Spell costs: X (one per rival) appears only on Energy Drain and Volcano."""
    xs = sorted(lv["name"] for lv in cards.spell_levels().values() if lv["cost"] == "X")
    assert xs == ["Energy Drain", "Volcano"]


def test_ids_are_slugs_of_names() -> None:
    for lv in cards.spell_levels().values():
        assert lv["id"] == re.sub(r"[^a-z0-9]+", "_", lv["name"].lower()).strip("_")
