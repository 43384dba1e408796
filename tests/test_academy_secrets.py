"""Wizard's Academy secrets: each player's disaster card is theirs alone; unbound spells are hidden from
everyone in every view, label and event; memory=strict forgets a reveal after its turn, open keeps it."""

from __future__ import annotations

import json
import random

import pytest

from rules.academy import RULES
from rules.academy.cards import spells
from tests.academy_helpers import calm, game, play


def _unbound_hidden(s: dict, view: dict) -> None:
    """Every slot in a view shows a spell only when it is bound or is this turn's reveal."""
    reveal = (s["reveal"] or {}).get("slot")
    for entry in view["spells"]:
        state = s["slots"][entry["id"]]
        if entry["spell"] is not None:
            assert state["bound"] or entry["id"] == reveal
            assert entry["spell"]["key"] == state["spell"]


@pytest.mark.parametrize(
    ("scenario", "memory", "seed"), [("basic", "strict", 3), ("golem", "strict", 4), ("basic", "open", 5)]
)
def test_random_games_never_show_an_unbound_spell(scenario: str, memory: str, seed: int) -> None:
    rand = random.Random(seed)
    s = game(3, scenario=scenario, memory=memory, seed=seed)
    for _ in range(400):
        if RULES.is_over(s):
            break
        for seat in (None, 0, 1, 2):
            _unbound_hidden(s, RULES.view(s, seat))
        seat = rand.choice(RULES.waiting_on(s))
        moves = RULES.legal_moves(s, seat)
        for move in moves:
            if move.action == "cast":
                slot = f"{min(move.get('a'), move.get('b'))}-{max(move.get('a'), move.get('b'))}"
                name = spells()[s["slots"][slot]["spell"]]["name"]
                assert (name in RULES.label(s, seat, move)) == s["slots"][slot]["bound"]
        casts = [m for m in moves if m.action == "cast"]
        move = rand.choice(casts if casts and rand.random() < 0.5 else moves)
        before = {k: dict(v) for k, v in s["slots"].items()}
        s, events = RULES.apply(s, seat, move)
        for event in events:
            slot = event.data.get("slot")
            if event.kind == "cast" and slot and memory == "strict" and not before[slot]["bound"]:
                key = before[slot]["spell"]
                assert spells()[key]["name"] not in event.text and "spell" not in event.data


def test_each_disaster_card_is_private_to_its_holder() -> None:
    s = game(3, seed=7)
    hands = s["hands"]
    for seat in range(3):
        view = RULES.view(s, seat)
        assert view["my_disaster"]["key"] == hands[seat]
    assert RULES.view(s, None)["my_disaster"] is None
    swapped = RULES.copy_state(s)
    swapped["hands"][1] = next(k for k in ("twist", "gathering", "lure_of_power") if k != hands[1])
    assert RULES.view(swapped, 0) == RULES.view(s, 0)
    assert RULES.view(swapped, 1) != RULES.view(s, 1)


def test_the_drawn_card_is_told_only_to_its_drawer() -> None:
    s = calm(players=2)
    s["hands"] = ["twist", "gathering"]
    _, events = play(s, 0, "end")
    private = [e for e in events if e.kind == "my_disaster"]
    assert private and all(e.seats == (1,) for e in private)
    public = json.dumps([x.to_json() for x in events if x.public])
    for e in private:
        assert e.data["card"] not in public
        assert e.data["card"] == s2_hand(events)


def s2_hand(events: list) -> str:
    """Return the card named in the last private draw event."""
    return [e for e in events if e.kind == "my_disaster"][-1].data["card"]


def _cast_unbound(memory: str) -> tuple[dict, list, str]:
    s = calm(players=2, memory=memory)
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "danger")
    a, b = (int(x) for x in slot.split("-"))
    s["wizards"][0]["glyphs"] = sorted([a, b])
    s2, events = play(s, 0, "cast", a=a, b=b)
    return s2, events, slot


def test_strict_memory_shows_the_reveal_this_turn_only() -> None:
    s, events, slot = _cast_unbound("strict")
    view = RULES.view(s, None)
    assert view["reveal"]["spell"]["name"] == "Danger"
    assert next(x for x in view["spells"] if x["id"] == slot)["spell"]["name"] == "Danger"
    assert not any("Danger" in e.text or "danger" in json.dumps(e.data) for e in events)
    s, _ = play(s, 0, "end")
    s, _ = play(s, 1, "end")  # the next move of the next turn clears it
    later = json.dumps(RULES.view(s, 0))
    assert RULES.view(s, None)["reveal"] is None and "Danger" not in later


def test_open_memory_keeps_the_reveal_in_the_log() -> None:
    s, events, _ = _cast_unbound("open")
    assert any("Danger" in e.text for e in events if e.kind == "cast")
    s, _ = play(s, 0, "end")
    s, _ = play(s, 1, "end")
    assert any("Danger" in line for line in RULES.view(s, None)["log"])


def test_a_wrong_bind_names_only_the_guess_under_strict_memory() -> None:
    s = calm()
    s["wizards"][0]["room"] = "library"
    slot = next(k for k, v in s["slots"].items() if v["spell"] == "abjure")
    _, events = play(s, 0, "bind", slot=slot, spell="burn")
    text = " ".join(e.text for e in events)
    assert "Burn" in text and "Abjure" not in text


def test_scramble_redraws_other_hands_and_unbound_spells() -> None:
    s = game(3, seed=9)
    rand = random.Random(1)
    moved_hand = moved_spell = False
    for _ in range(10):
        t = RULES.scramble(s, 0, rand)
        assert t["hands"][0] == s["hands"][0]
        moved_hand |= t["hands"][1:] != s["hands"][1:]
        moved_spell |= any(t["slots"][k]["spell"] != s["slots"][k]["spell"] for k in s["slots"])
        assert RULES.view(t, 0) == RULES.view(s, 0)
    assert moved_hand and moved_spell
