"""A version's seat views share the public view's parts, and are what a fresh build gives (issue 28).

The service works out a version's public view, then each seat's beside it
(``compose.seat_view_of``): Argent puts the public view's own objects where a seat sees what a
spectator sees (``Rules.view_beside``) and takes the public record's pieces where the two views
hold equal data (``Rules.typed_seat_view``). Here, along whole seeded games, every seat's view
and typed record at every version equal a fresh build of that seat alone; the public view is
left as it was (no seat's part goes into it); and the readers of a seat's view (its record, its
text, its drawing) never write a shared part: the public view is frozen while they read.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import render
from rules.argent import ARGENT
from rules.contract import View
from service import compose
from service.loaded import _Table
from service.replies import alt_of, alt_text
from service.tablecache import TableCache
from store import SeatRecord, TableRecord
from tests.test_argent_drafts import freeze

GAMES = [(3, 11, "closed"), (4, 12, "open"), (5, 13, "closed"), (5, 14, "open")]
"""Players, seed and the discards option of each seeded game played to its end."""


def _game(players: int, seed: int, discards: str) -> Iterator[dict[str, Any]]:
    """Yield every state of a seeded random game, to its end (the reveal: every voter known)."""
    rand = random.Random(seed)
    options = dict(ARGENT.default_options(), discards=discards)
    state = ARGENT.setup(players, options, seed)
    for _ in range(3000):
        yield state
        if ARGENT.is_over(state):
            return
        seat = rand.choice(ARGENT.waiting_on(state))
        state, _ = ARGENT.apply(state, seat, rand.choice(ARGENT.legal_moves(state, seat)))
    raise AssertionError("the game did not end")


def _table(state: dict[str, Any], version: int) -> _Table:
    record = TableRecord(id=7, kind="argent", name="t", options={}, guild_id=None, channel_id=1, thread_id=2,
                         host_id=3, status="active", seed=1, version=version, created_at=0.0,
                         updated_at=0.0, result=None)
    seats = {n: SeatRecord(7, 100 + n, f"p{n}", n, 0.0, True) for n in range(state["players"])}
    return _Table(record, state, ARGENT, seats)


def _same(mine: View, fresh: View) -> None:
    """The two views are equal, and written out alike (the key order the JSON keeps)."""
    assert mine == fresh
    assert json.dumps(mine) == json.dumps(fresh)


@pytest.mark.parametrize(("players", "seed", "discards"), GAMES)
def test_seat_views_beside_the_public_one_are_fresh_builds(players: int, seed: int, discards: str) -> None:
    """Every seat's view and record at every version equal ``view``'s and ``typed_view``'s alone."""
    shared = 0
    for state in _game(players, seed, discards):
        public = ARGENT.view(state, None)
        before = json.dumps(public)
        shown = ARGENT.typed_view(public)
        for seat in range(players):
            view = ARGENT.view_beside(state, seat, public)
            fresh = ARGENT.view(state, seat)
            _same(view, fresh)
            assert ARGENT.typed_seat_view(view, public, shown) == ARGENT.typed_view(fresh)
            shared += view["board"] is public["board"]
        # No seat's part went into the public view: it is what a spectator's fresh build gives.
        assert json.dumps(public) == before
        _same(public, ARGENT.view(state, None))
    assert shared  # the parts were shared, not rebuilt


@pytest.mark.parametrize(("players", "seed", "discards"), GAMES[1:3])
def test_typed_record_beside_any_public_view_is_the_fresh_one(players: int, seed: int, discards: str) -> None:
    """The record's pieces are taken on equal data alone: a public view of another moment is safe."""
    states = list(_game(players, seed, discards))
    for step in range(0, len(states), 7):
        other = ARGENT.view(states[max(0, step - 3)], None)
        shown = ARGENT.typed_view(other)
        for seat in range(players):
            view = ARGENT.view(states[step], seat)
            assert ARGENT.typed_seat_view(view, other, shown) == ARGENT.typed_view(view)


@pytest.mark.parametrize(("players", "seed", "discards"), GAMES[::3])
def test_the_service_seat_views_are_fresh_builds(players: int, seed: int, discards: str) -> None:
    """Through the kept table: every seat's ``SeatView`` equals one worked out with no public view."""
    cache = TableCache()
    for version, state in enumerate(_game(players, seed, discards), start=1):
        table = _table(state, version)
        assert cache.put(table, cache.generation(table.record.id))
        public = compose.public_view_of(cache, table)
        for seat in range(players):
            kept = compose.seat_view_of(cache, table, seat)
            fresh = compose._seat_view(table, seat)
            _same(kept.view, fresh.view)
            assert kept.typed == fresh.typed
            assert (kept.moves, kept.prompts, kept.waiting) == (fresh.moves, fresh.prompts, fresh.waiting)
            assert kept.view["mages"] is public.view["mages"]
        _same(public.view, ARGENT.view(state, None))


def test_no_seat_sees_another_seats_own_parts() -> None:
    """A seat's own office (its discard) and the voters it marked are in its view alone."""
    players, seen_discard, seen_voter = 4, 0, 0
    for state in _game(players, 21, "closed"):
        public = ARGENT.view(state, None)
        views = {seat: ARGENT.view_beside(state, seat, public) for seat in range(players)}
        for seat, view in views.items():
            for other, theirs in views.items():
                if other == seat:
                    continue
                # What one seat sees of another's office is what a spectator sees: never its discard.
                assert theirs["offices"][seat] == public["offices"][seat]
                seen_discard += view["offices"][seat]["discard"] != public["offices"][seat]["discard"]
                voters = zip(view["voters"], public["voters"], theirs["voters"], strict=True)
                for mine, spectators, its in voters:
                    if mine != spectators and other not in mine["marks"]:
                        assert its == spectators  # a voter known through this seat's Mark alone
                        seen_voter += 1
        _same(public, ARGENT.view(state, None))
    assert seen_discard and seen_voter  # the game did give seats something of their own


@pytest.mark.parametrize(("players", "seed", "discards"), GAMES[2:])
def test_readers_of_a_seat_view_write_no_shared_part(players: int, seed: int, discards: str) -> None:
    """The record, the text, the alt text and the drawings of a seat's view, read with the public
    view frozen: a reader writing a part it shares with the public view (or another seat's) fails."""
    for step, state in enumerate(_game(players, seed, discards)):
        if step % 40:
            continue
        public = freeze(ARGENT.view(state, None))
        shown = ARGENT.typed_view(public)
        render.board("argent", public)
        for seat in range(players):
            view = ARGENT.view_beside(state, seat, public)
            ARGENT.typed_seat_view(view, public, shown)
            assert alt_of(ARGENT.view_lines(view)) == alt_text(ARGENT.view_text(view))
            render.private("argent", view)
        _same(public, ARGENT.view(state, None))
