"""Wizard's Academy, defects found in review: one test per defect (each failed before its fix).

Rulebook quotes are from shared/rules/wizards-academy.txt; the view contract is rules/academy/VIEW.md.
"""

from __future__ import annotations

from rules.academy import RULES
from rules.academy.cards import rooms
from rules.contract import Move
from tests.academy_helpers import calm, game, give_pair, play, settle, slot_of


def test_basic_view_room_action_is_null_except_the_librarys_binding() -> None:
    # Basic setup: "Ignore the room setup text ..."; the basic game's only room action is Bind Spells.
    view = RULES.view(calm(), None)
    actions = {r["key"]: r["action"] for r in view["grid"]}
    assert actions["library"] == "bind"
    assert {k for k, a in actions.items() if a is not None} == {"library"}
    assert rooms()["workshop"]["action"] == "wand"  # the data keeps it for the advanced game


def test_advanced_view_room_action_is_the_rooms_own() -> None:
    view = RULES.view(calm(scenario="golem"), None)
    actions = {r["key"]: r["action"] for r in view["grid"]}
    assert actions["workshop"] == "wand" and actions["mana_crystal"] == "last_resort"
    assert actions["library"] == "bind"


def test_lost_room_short_says_it_has_no_effect() -> None:
    # Basic setup removes the Lost Room, so on a board (advanced game only) it is a plain room.
    record = rooms()["lost_room"]
    assert record["action"] is None and record["boost"] is None
    assert record["short"] == "No room effect"
    view = RULES.view(calm(scenario="golem"), None)
    lost = next(r for r in view["grid"] if r["key"] == "lost_room")
    assert lost["short"] == "No room effect" and lost["action"] is None


def test_consent_prompt_starts_with_the_helpers_tag() -> None:
    s = calm(players=2)
    a, b = (int(x) for x in slot_of(s, "philanthropy").split("-"))
    s["wizards"][0]["glyphs"] = [a]
    s["wizards"][1]["glyphs"] = [b]
    s2, _ = RULES.apply(s, 0, Move.of("cast", a=a, b=b, helper=1))
    (prompt,) = RULES.pending(s2)
    assert prompt.decision == "consent" and prompt.seat == 1
    assert prompt.text.startswith(f"{RULES.seat_tag(1)}: ")
    assert RULES.seat_tag(0) in prompt.text and f"glyph {b}" in prompt.text


def test_shifts_prompt_starts_with_the_current_players_tag() -> None:
    (prompt,) = RULES.pending(game(2, scenario="golem"))
    assert prompt.decision == "shifts" and prompt.text.startswith(f"{RULES.seat_tag(0)}: ")


def test_reveal_says_whether_a_cast_or_a_bind_turned_it_up() -> None:
    # MAGIC ACTION: Reveal Spell; ROOM ACTION: Bind Spells, "Turn the spell face-up".
    s = calm()
    a, b = give_pair(s, 0, "dash")
    cast, events = play(s, 0, "cast", a=a, b=b)
    assert RULES.view(cast, 0)["reveal"]["how"] == "cast"
    assert next(e for e in events if e.kind == "cast").data["how"] == "cast"
    s = calm()
    s["wizards"][0]["room"] = "library"
    slot = slot_of(s, "dash")
    binds = [m for m in RULES.legal_moves(s, 0) if m.action == "bind" and m.get("slot") == slot]
    wrong = next(m for m in binds if m.get("spell") != "dash")
    bound, events = RULES.apply(s, 0, wrong)
    assert RULES.view(bound, 0)["reveal"]["how"] == "bind"
    assert next(e for e in events if e.kind == "bind").data["how"] == "bind"


def test_rotation_choices_say_the_doors_after_turning() -> None:
    s = calm()
    s["wizards"][0]["glyphs"] = []
    s["queue"] = [{"op": "rotate", "where": "any", "by": 0}]
    settle(s)
    s, _ = play(s, 0, "choose", value="library")
    labels = {o["value"]: o["label"] for o in s["choice"]["options"]}
    printed = rooms()["library"]["doors"]
    for turns, label in labels.items():
        rot = (s["rot"]["library"] + turns) % 4
        sides = [d for i, d in enumerate("NESW") if printed[(i - rot) % 4]]
        assert label == f"{turns * 90} degrees (doors {', '.join(sides)})"


def test_shift_rotate_label_says_the_doors_after_turning() -> None:
    s = game(2, scenario="golem")
    p = 5
    room = s["board"][p]
    rot = (s["rot"][room] + 1) % 4
    printed = rooms()[room]["doors"]
    sides = [d for i, d in enumerate("NESW") if printed[(i - rot) % 4]]
    label = RULES.label(s, 0, Move.of("shift", rotate=p))
    assert label.endswith(f"(doors {', '.join(sides)})")
