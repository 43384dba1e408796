"""Argent's apply copies only what a move changes: the parts a draft shares are never written in place.

``rules.argent.copying.draft`` shares the board, the voters, the decks and the other rarely changed
parts with the state it came from; a move that writes one takes its own copy first (``own``). Here
the shared parts are frozen, so a write that skips ``own`` fails where it happens, along whole
games in every variant; each new state is the one a full copy gives, byte for byte.
"""

from __future__ import annotations

import json
import marshal
import random
from typing import Any

import pytest

from rules.argent import ARGENT, copying
from rules.contract import Move


def _refuse(self: Any, *args: Any, **kwargs: Any) -> None:
    raise AssertionError("a move wrote a part of the state its draft shares, without own()")


class FrozenList(list):
    """A list that refuses every change."""

    append = extend = insert = pop = remove = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse


class FrozenDict(dict):
    """A dict that refuses every change."""

    __setitem__ = __delitem__ = pop = popitem = clear = update = setdefault = __ior__ = _refuse


def freeze(data: Any) -> Any:
    """Return a copy of plain data that refuses every change, all the way down."""
    if isinstance(data, dict):
        return FrozenDict({k: freeze(v) for k, v in data.items()})
    if isinstance(data, list):
        return FrozenList(freeze(v) for v in data)
    return data


def _parts(data: Any) -> Any:
    """Yield every dict and list inside data."""
    if isinstance(data, (dict, list)):
        yield data
        for item in data.values() if isinstance(data, dict) else data:
            yield from _parts(item)


def frozen_draft(state: dict[str, Any], answering: bool = False) -> copying.Draft:
    """A draft whose shared parts are frozen: a write without ``own`` raises, and so does a write
    to the options of the question the move answers (the input's list, in a draft that answers)."""
    new = draft(state, answering)
    for key in new.shared:
        dict.__setitem__(new, key, freeze(state[key]))
    if answering:
        new["agenda"][0]["options"] = freeze(state["agenda"][0]["options"])
    return new


draft = copying.draft


def thawing_copy(data: Any) -> Any:
    """Copy like ``tree_copy``, turning frozen parts back into plain ones (a JSON round trip)."""
    return json.loads(json.dumps(data))


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(copying, "draft", frozen_draft)
    monkeypatch.setattr(copying, "tree_copy", thawing_copy)


VARIANTS = [
    (2, {}, None),
    (3, {"rooms": "B", "candidates": "chosen", "mage_powers": "chosen"}, None),
    (4, {"layout": "build", "epic": "on"}, 120),
    (5, {"layout": "random", "rooms": "random", "diversity": "on", "discards": "open"}, 200),
    (4, {"rooms": "random", "candidates": "random", "mage_powers": "random"}, 40),
]
"""(players, options, step at which the second seat leaves the game or None)."""


@pytest.mark.parametrize(("players", "options", "leave_at"), VARIANTS)
def test_moves_write_no_shared_part(
    frozen: None, players: int, options: dict[str, str], leave_at: int | None
):
    """Along a whole game, no move writes a shared part in place, and no input changes."""
    rand = random.Random(players)
    state = ARGENT.setup(players, options, players)
    steps = 0
    while not ARGENT.is_over(state):
        before = marshal.dumps(thawing_copy(state), 2)
        if steps == leave_at:
            seat, move = 1, Move.of("resign")
        else:
            seat = rand.choice(ARGENT.waiting_on(state))
            move = rand.choice(ARGENT.legal_moves(state, seat))
        after, _events = ARGENT.apply(state, seat, move)
        assert marshal.dumps(thawing_copy(state), 2) == before, f"step {steps}: {move} changed its input"
        copied = [part for key in after.keys() - copying.SHARED for part in _parts(after[key])]
        inputs = {id(part) for part in _parts(state)}
        assert not {id(part) for part in copied} & inputs, f"step {steps}: a copied part is shared"
        # The answered question's options are frozen in the draft: none of them may be kept.
        assert not [part for part in copied if type(part) in (FrozenList, FrozenDict)], f"step {steps}: kept"
        if move.action != "resign":
            full = ARGENT.copy_state(state)
            ARGENT.resolve(full, seat, move)
            assert json.dumps(after) == json.dumps(full), f"step {steps}: {move}"
        state, steps = after, steps + 1
    assert steps > 100


def test_a_write_without_own_is_caught(frozen: None):
    """The frozen draft bites: writing a shared part in place raises; ``own`` gives a part to write."""
    state = ARGENT.setup(3, {}, 1)
    new = copying.draft(state)
    with pytest.raises(AssertionError):
        new["voters"][0]["marks"].append(0)
    with pytest.raises(AssertionError):
        del new["decks"]["vault"][:3]
    copying.own(new, "voters")[0]["marks"].append(0)
    assert new["voters"][0]["marks"] == [0] and state["voters"][0]["marks"] == []


def test_a_draft_shares_only_the_parts_it_never_wrote():
    """A published state keeps the input's unwritten parts and its own copies of the written ones."""
    state = ARGENT.setup(3, {}, 1)
    new = copying.draft(state)
    copying.own(new, "decks")["vault"].pop(0)
    published = copying.publish(new)
    assert type(published) is dict
    assert published["voters"] is state["voters"] and published["board"] is state["board"]
    assert published["decks"] is not state["decks"]
    assert published["decks"]["vault"] == state["decks"]["vault"][1:]
    assert published["mages"] is not state["mages"] and published["seats"] is not state["seats"]


def test_an_office_of_any_shape_is_copied_whole():
    """An office missing a dealt part, or holding one the copy does not know, still shares nothing."""
    state = ARGENT.setup(3, {}, 1)
    state["seats"][0].pop("bell")
    state["seats"][1]["leave_rooms"] = ["library", "vault"]
    state["seats"][2]["notes"] = {"kept": [1, 2]}
    new = copying.full_copy(state)
    assert json.dumps(new) == json.dumps(state)
    assert not {id(part) for part in _parts(new)} & {id(part) for part in _parts(state)}
