"""A seat's labelled moves are built once per kept table version (issue 28, the loop's cost).

The typed-move choices (autocomplete asks on every keystroke), the seat's view and the played
move's label read the labels the service keeps with the table (``compose.labelled_of``); what
they offer is what labelling each legal move with ``rules.label`` gives.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules import registry
from service import compose
from service.loaded import MAX_CHOICES, _clip, _Table, move_value, offered_value
from service.replies import Choice
from service.tablecache import TableCache
from store import SeatRecord, TableRecord

PLAYERS = {"argent": 4, "institute": 2, "academy": 4, "quadrivium": 4}


def _table(kind: str, state: dict[str, Any], version: int) -> _Table:
    rules = registry.get(kind)
    record = TableRecord(id=9, kind=kind, name="t", options={}, guild_id=None, channel_id=1, thread_id=2,
                         host_id=3, status="active", seed=1, version=version, created_at=0.0,
                         updated_at=0.0, result=None)
    seats = {n: SeatRecord(9, 100 + n, f"p{n}", n, 0.0, True) for n in range(PLAYERS[kind])}
    return _Table(record, state, rules, seats)


def _reference(table: _Table, seat: int, typed: str, stamped: bool) -> list[Choice]:
    """The choices as they were listed before the labels were kept: ``rules.label`` per legal move."""
    rules, state, version = table.rules, table.state, table.record.version
    found = []
    for index, move in enumerate(rules.legal_moves(state, seat)):
        label = rules.label(state, seat, move)
        if not compose.reading.fits(typed, label, move.code()):
            continue
        value = offered_value(version, index) if stamped else move_value(version, index, move)
        found.append(Choice(_clip(label), value))
        if len(found) == MAX_CHOICES:
            break
    return found


@pytest.mark.parametrize("kind", sorted(PLAYERS))
def test_choices_from_the_kept_labels_are_those_rules_label_gives(kind: str) -> None:
    rules = registry.get(kind)
    rand = random.Random(5)
    state = rules.setup(PLAYERS[kind], rules.default_options(), 11)
    for version in range(1, 40):
        if rules.is_over(state):
            break
        table = _table(kind, state, version)
        cache = TableCache()
        cache.put(table, cache.generation(9))
        for seat in range(PLAYERS[kind]):
            legal = rules.legal_moves(state, seat)
            word = rules.label(state, seat, legal[0]).split()[0] if legal else ""
            for typed, stamped in (("", False), ("", True), (word, False)):
                offered = compose._choices(cache, table, seat, typed, stamped)
                assert offered == _reference(table, seat, typed, stamped)
            for move in legal:
                assert compose.label_of(cache, table, seat, move) == rules.label(state, seat, move)
            assert compose.legal_moves_of(cache, table, seat) == legal
        seat = rand.choice(rules.waiting_on(state))
        state, _ = rules.apply(state, seat, rand.choice(rules.legal_moves(state, seat)))


def test_each_seat_is_labelled_once_per_kept_version(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = registry.get("argent")
    state = rules.setup(4, rules.default_options(), 3)
    table = _table("argent", state, 1)
    cache = TableCache()
    cache.put(table, cache.generation(9))
    built: list[int] = []
    real = type(rules).labelled_moves
    monkeypatch.setattr(type(rules), "labelled_moves",
                        lambda self, s, seat: built.append(seat) or real(self, s, seat))
    for seat in (0, 1):  # the move's notes work out these seats' views
        compose.seat_view_of(cache, table, seat)
    for _ in range(3):  # keystrokes, the played move's label, the panels again
        for seat in range(4):
            compose._choices(cache, table, seat, "")
            compose.legal_moves_of(cache, table, seat)
        for seat in (0, 1):
            compose.seat_view_of(cache, table, seat)
            for move in compose.legal_moves_of(cache, table, seat):
                compose.label_of(cache, table, seat, move)
    assert sorted(built) == [0, 1, 2, 3]
    cache.changed(9)  # the table moved on: its kept labels go with it
    compose._choices(cache, table, 0, "")
    compose._choices(cache, table, 0, "")
    assert sorted(built) == [0, 0, 0, 1, 2, 3]  # not kept any more: built on each ask
