"""The Institute card file: it loads, every fact from the card notes is kept, bad files are explained."""

from __future__ import annotations

import copy
import json

import pytest

from bots.games.institute_policy import simulate
from rules.institute import cards
from rules.institute.cards import DATA, CardDataError, deck, parse, validate


def raw() -> dict:
    return json.loads(DATA.read_text(encoding="utf-8"))


def record(key: str) -> dict:
    return next(r for r in raw()["cards"] if r["key"] == key)


def test_the_shipped_file_is_sound_and_holds_forty_cards():
    assert validate(raw()) == []
    assert len(deck()) == 40


def test_starting_cards_are_two_copies_of_three_starred_cards_worth_one_vp():
    """Setup step 4 and 6: the starred cards, and a score of 3 = 2 charms + a 1 VP starting card."""
    starting = [c for c in deck() if c.starting]
    assert sorted({c.name for c in starting}) == [
        "Mortar and Pestle",
        "Novice Crystal Ball",
        "Ring of Influence",
    ]
    assert len(starting) == 6
    assert all(c.vp == 1 for c in starting)


@pytest.mark.parametrize(
    ("key", "cost", "surpass"),
    [("novice_crystal_ball", 4, 3), ("ring_of_influence", 4, 3), ("broken_wand", 3, 1)],
)
def test_printed_cost_and_surpass_from_the_rulebook(key: str, cost: int, surpass: int):
    """Phase V example: Broken Wand 3/1, Novice Crystal Ball 4/3, Ring of Influence 4/3."""
    r = record(key)
    assert (r["cost"], r["surpass"], r["source"]) == (cost, surpass, "rulebook")


def test_ring_of_influence_rolls_a_die_and_places_a_stone_there():
    """Additional Rules for Phase V: the Ring's die chooses the Location of one stone."""
    # house ruling: the stone comes from the general supply (see docs/rulings.md)
    assert record("ring_of_influence")["effects"] == [{"place": 1, "at": "roll", "from": "supply"}]


def test_the_potion_is_used_at_the_end_of_phase_one():
    """Additional Rules for Phase I: the Potion's moment depends on Phase I ending at the reveal."""
    r = record("potion")
    assert r["phase"] == 2 and r["power"] == "one-time" and r["source"] == "rulebook"


def test_designed_parts_are_marked():
    for r in raw()["cards"]:
        if r["source"] == "rulebook":
            assert r.get("designed"), f"{r['name']} must list the fields we designed"
    designed = [r for r in raw()["cards"] if r["source"] == "designed"]
    assert len(designed) >= 28  # records (copies counted once)


def test_characters_and_tools_and_numbers():
    characters = [c for c in deck() if c.character]
    assert 6 <= len(characters) <= 14 and all(c.vp is None and c.power == "none" for c in characters)
    numbers = [c.number for c in {c.key: c for c in deck()}.values() if c.phase == 4]
    assert sorted(numbers) == list(range(1, len(numbers) + 1))
    powers = {c.power for c in deck() if not c.character}
    assert powers == {"permanent", "one-time", "immediate"}
    assert all(1 <= c.vp <= 3 for c in deck() if not c.character)


def test_every_problem_is_reported_at_once():
    data = raw()
    bad = copy.deepcopy(data)
    bad["cards"][0]["effects"] = [{"teleport": 2}]
    bad["cards"][1]["cost"] = "four"
    bad["cards"][2]["source"] = "rumour"
    del bad["cards"][3]["text"]
    with pytest.raises(CardDataError) as caught:
        parse(bad)
    problems = caught.value.problems
    assert any("unknown effect key 'teleport'" in p for p in problems)
    assert any("cost must be" in p for p in problems)
    assert any("source must be" in p for p in problems)
    assert any("missing field 'text'" in p for p in problems)
    assert len(problems) >= 4


def test_an_effect_used_in_the_wrong_phase_is_refused():
    bad = raw()
    potion = next(r for r in bad["cards"] if r["key"] == "potion")
    potion["phase"] = 4
    potion["number"] = 99
    assert any("set_die cannot be used in Phase 4" in p for p in validate(bad))


def test_a_wrong_deck_size_is_refused():
    bad = raw()
    bad["cards"][0]["copies"] = 3
    assert any("the deck holds 41 cards" in p for p in validate(bad))


def test_lookup_by_name():
    assert [c.name for _, c in cards.by_name("ring of")] == ["Ring of Influence"]
    assert {c.name for _, c in cards.by_name("WAND")} == {
        "Broken Wand",
        "Wand of Transference",
        "Wand of Scattering",
    }


def test_self_play_statistics_count_games_and_cards():
    stats = simulate(3, seed=11, policy="eager")
    assert stats.games == 3 and len(stats.rounds) == 3
    assert all(r >= 2 for r in stats.rounds)
    assert sum(stats.seat_wins.values()) + stats.draws == 3
    assert all(stats.held_won[k] <= stats.held[k] for k in stats.held)
