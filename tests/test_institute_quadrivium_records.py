"""Typed views (issue 27) for the Institute and Quadrivium: frozen records read from a seat's view."""

from __future__ import annotations

import dataclasses
import random

import pytest

from rules.institute.record import InstituteRecord
from rules.institute.record import read_view as institute_record
from rules.institute.state import Step
from rules.quadrivium.record import read_view as quadrivium_record
from rules.quadrivium.state import Phase
from tests.institute_helpers import R as INSTITUTE
from tests.quadrivium_helpers import R as QUADRIVIUM
from tests.quadrivium_helpers import quick


def test_the_institute_record_is_frozen_and_works_out_the_facts() -> None:
    s = INSTITUTE.setup(2, INSTITUTE.default_options(), 4)
    s["players"][1]["score"] = 5
    view = INSTITUTE.view(s, 0)
    record = institute_record(view)
    assert isinstance(record, InstituteRecord)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.round = 9  # type: ignore[misc]
    assert record.step is Step.ASSIGN and record.assigning
    assert [p.seat for p in record.standings] == [1, 0]
    assert record.waiting == tuple(view["waiting"]) == (0, 1)
    assert record.decision_of(0) == " ".join(p["text"] for p in view["prompts"] if p["seat"] == 0)
    assert record.locked_in == view["locked_in"] and "has not locked in yet" in record.locked_in


def test_the_institute_record_keeps_the_rivals_assignment_secret() -> None:
    s = INSTITUTE.setup(2, INSTITUTE.default_options(), 4)
    s["players"][1]["assign"] = ["take", "cast1", "cast2", "take"]
    red = institute_record(INSTITUTE.view(s, 0))
    blue = institute_record(INSTITUTE.view(s, 1))
    spectator = institute_record(INSTITUTE.view(s, None))
    assert red.players[1].assignment is None and spectator.players[1].assignment is None
    assert blue.players[1].assignment == ("take", "cast1", "cast2", "take")
    assert red.me() is red.players[0] and spectator.me() is None


def test_the_institute_record_reads_every_view_of_a_played_game() -> None:
    rand = random.Random(3)
    s = INSTITUTE.setup(2, INSTITUTE.default_options(), 3)
    while not INSTITUTE.is_over(s):
        for seat in (0, 1, None):
            view = INSTITUTE.view(s, seat)
            record = institute_record(view)
            assert record.step.value == view["step"] and record.waiting == tuple(view["waiting"])
        seat = rand.choice(INSTITUTE.pending(s)).seat
        s, _ = INSTITUTE.apply(s, seat, rand.choice(INSTITUTE.legal_moves(s, seat)))
    record = institute_record(INSTITUTE.view(s, None))
    assert record.over and record.ending and record.winners == tuple(s["result"]["winners"])


def test_the_institute_record_holds_the_boards_facts_the_drawing_reads() -> None:
    # The board and the sheet read the record alone: the Locations with their cards and stones,
    # the Realm, the deck, the goal, the log and each player's cards (render/institute.py).
    rand = random.Random(5)
    s = INSTITUTE.setup(2, INSTITUTE.default_options(), 5)
    for _ in range(40):
        seat = rand.choice(INSTITUTE.pending(s)).seat
        s, _ = INSTITUTE.apply(s, seat, rand.choice(INSTITUTE.legal_moves(s, seat)))
    view = INSTITUTE.view(s, None)
    record = institute_record(view)
    assert record.goal == view["goal"] and record.deck == view["deck"]
    assert record.discarded == len(view["discarded"]) and record.log == tuple(view["log"])
    assert record.realm == tuple(view["realm"]["stones"])
    for loc, raw in zip(record.locations, view["locations"], strict=True):
        assert (loc.number, loc.kind, loc.stones) == (raw["number"], raw["kind"], tuple(raw["stones"]))
        assert (loc.card is None) == (raw["card"] is None)
        if loc.card is not None:
            assert (loc.card.id, loc.card.name, loc.card.vp, loc.card.short) == (
                raw["card"]["id"], raw["card"]["name"], raw["card"]["vp"], raw["card"]["short"])
    for player, raw in zip(record.players, view["players"], strict=True):
        assert [c.name for c in player.active] == [c["name"] for c in raw["active"]]
        assert [c.name for c in player.inactive] == [c["name"] for c in raw["inactive"]]
        assert player.characters == raw["characters"]
        assert player.assignment_visible == raw["assignment_visible"]
    assert hash(record.locations)  # frozen all the way down: a Location's drawing is cached by its record


def test_the_quadrivium_record_shows_only_the_seats_own_hand_and_the_roles() -> None:
    s = quick(3, 2)
    s, _ = QUADRIVIUM.apply(s, 0, QUADRIVIUM.legal_moves(s, 0)[0])  # the intent
    own = quadrivium_record(QUADRIVIUM.view(s, 1))
    spectator = quadrivium_record(QUADRIVIUM.view(s, None))
    assert own.hand == tuple(s["hands"][1]) and spectator.hand == ()
    assert own.phase is Phase.SCENE and own.mages[0].roles == ("protagonist",)
    assert own.waiting == (1, 2) and own.decision_of(1).startswith("Oppose")
    assert [m.votes for m in own.standings] == sorted(s["votes"], reverse=True)
    assert all(m.hand == len(s["hands"][m.seat]) for m in spectator.mages)


def test_both_rules_objects_hand_presenters_the_typed_record() -> None:
    s = INSTITUTE.setup(2, INSTITUTE.default_options(), 4)
    view = INSTITUTE.view(s, 1)
    assert INSTITUTE.typed_view(view) == institute_record(view)
    q = quick(2, 5)
    view = QUADRIVIUM.view(q, 0)
    assert QUADRIVIUM.typed_view(view) == quadrivium_record(view)


def test_the_institute_record_names_what_lies_at_each_location() -> None:
    s = INSTITUTE.setup(2, INSTITUTE.default_options(), 4)
    view = INSTITUTE.view(s, 0)
    record = institute_record(view)
    assert [loc.number for loc in record.locations] == [1, 2, 3, 4, 5, 6]
    for loc, raw in zip(record.locations, view["locations"], strict=True):
        assert loc.kind == raw["kind"]
        assert (loc.card.name if loc.card else None) == (raw["card"]["name"] if raw["card"] else None)


def test_the_quadrivium_record_works_out_each_traits_fresh_points_and_magic() -> None:
    s = quick(3, 2)
    mage = s["mages"][1]
    trait = next(iter(mage["traits"]))
    mage["traits"][trait]["spent"], mage["traits"][trait]["harm"] = 1, 1
    record = quadrivium_record(QUADRIVIUM.view(s, 0))
    got = next(t for t in record.mages[1].traits if t.name == trait)
    assert got.fresh == mage["traits"][trait]["value"] - 2 and got.harm == 1
    assert got.usable_magic == mage["magic"][trait] - mage["taint"][trait]


def test_a_quadrivium_situation_leaves_out_the_others_answers_but_not_the_seats_own() -> None:
    s = quick(3, 2)
    s, _ = QUADRIVIUM.apply(s, 0, QUADRIVIUM.legal_moves(s, 0)[0])  # the intent: seats 1 and 2 may oppose
    before = quadrivium_record(QUADRIVIUM.view(s, 1)).situation
    answer = QUADRIVIUM.legal_moves(s, 2)[0]
    after_other, _ = QUADRIVIUM.apply(s, 2, answer)
    assert quadrivium_record(QUADRIVIUM.view(after_other, 1)).situation == before
    spectator = quadrivium_record(QUADRIVIUM.view(s, None)).situation
    assert spectator[-1] == [None, [], None]  # a spectator's situation holds no hand
    own = quadrivium_record(QUADRIVIUM.view(s, 1)).situation[-1]
    assert own[1] == s["hands"][1]


def test_neither_record_changes_when_the_seats_secrets_are_redrawn() -> None:
    """A record holds only what its seat sees: redrawing everything hidden from it changes nothing."""
    rand = random.Random(5)
    s = INSTITUTE.setup(2, INSTITUTE.default_options(), 4)
    s["players"][1]["assign"] = ["take", "cast1", "cast2", "take"]
    for seat in (0, None):
        hidden = INSTITUTE.scramble(s, seat, rand)
        assert hidden["deck"] != s["deck"]  # the draw pile's order is secret from every seat
        assert institute_record(INSTITUTE.view(hidden, seat)) == institute_record(INSTITUTE.view(s, seat))
    q = quick(3, 2)
    q, _ = QUADRIVIUM.apply(q, 0, QUADRIVIUM.legal_moves(q, 0)[0])
    for seat in (1, None):
        hidden = QUADRIVIUM.scramble(q, seat, rand)
        assert hidden["hands"][2] != q["hands"][2]  # another seat's hand is redrawn
        assert quadrivium_record(QUADRIVIUM.view(hidden, seat)) == quadrivium_record(QUADRIVIUM.view(q, seat))
