"""Typed events (issue 27): every game's events carry a real kind from a closed set, and old logs read."""

from __future__ import annotations

from rules.contract import Event, EventKind
from rules.toy import TOY, ToyEvent


def test_a_kind_is_its_plain_name_when_stored() -> None:
    event = Event(ToyEvent.SCORE, "Seat 0 scores with the highest sigil.")
    stored = event.to_json()
    assert stored["kind"] == "score" and type(stored["kind"]) is str  # plain data: marshal and JSON copy it
    read = Event.from_json(stored)
    assert read == event and read.kind == ToyEvent.SCORE


def test_the_toy_declares_its_kinds() -> None:
    assert TOY.event_kinds is ToyEvent and issubclass(ToyEvent, EventKind)


def test_an_event_stored_under_the_game_name_reads_under_its_real_kind() -> None:
    """Argent stored kind "argent" with the real kind in data["what"]; old move logs must read the same."""
    old = {"kind": "argent", "text": "Round 2 begins; P1 goes first.", "seats": None,
           "data": {"what": "round", "round": 2}}
    event = Event.from_json(old)
    assert event.kind == "round"
    assert event.data == {"round": 2}
    assert event.text == old["text"] and event.public


def test_an_old_plain_line_reads_as_a_note() -> None:
    old = {"kind": "argent", "text": "P1 casts Lightning Bolt.", "seats": [0], "data": {}}
    event = Event.from_json(old)
    assert event.kind == "note" and event.seats == (0,) and event.data == {}
