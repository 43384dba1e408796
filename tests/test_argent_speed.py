"""Argent's apply does each piece of work once: one copy shaped as a reload, one build of the options."""

from __future__ import annotations

import json
import random

import pytest

from rules.argent import ARGENT, engine
from rules.argent.engine import turn


def _states(moves: int, seed: int = 3):
    """Yield (state, seat, move) along a seeded random 3-player game."""
    rand = random.Random(seed)
    state = ARGENT.setup(3, ARGENT.default_options(), seed)
    for _ in range(moves):
        if ARGENT.is_over(state):
            return
        seat = rand.choice(ARGENT.waiting_on(state))
        move = rand.choice(ARGENT.legal_moves(state, seat))
        yield state, seat, move
        state, _ = ARGENT.apply(state, seat, move)


def _containers(data, seen: set[int]) -> int:
    """Count the dicts and lists reachable from data, each object once."""
    if not isinstance(data, (dict, list)) or id(data) in seen:
        return 0
    seen.add(id(data))
    items = data.values() if isinstance(data, dict) else data
    return 1 + sum(_containers(item, seen) for item in items)


def test_copy_is_what_a_reload_gives():
    """Equal to the JSON round trip, sharing nothing with the original or within itself."""
    checked = 0
    for state, _seat, _move in _states(160):
        copy = ARGENT.copy_state(state)
        assert copy == json.loads(json.dumps(state))
        inside: set[int] = set()
        total = _containers(copy, inside)
        assert len(inside) == total  # every container reached once: nothing shared
        assert not inside & {id(x) for x in _walk(state)}
        checked += 1
    assert checked == 160


def _walk(data):
    """Yield every dict and list inside data."""
    if isinstance(data, (dict, list)):
        yield data
        for item in data.values() if isinstance(data, dict) else data:
            yield from _walk(item)


def test_apply_builds_the_options_once(monkeypatch: pytest.MonkeyPatch):
    """The legality check and the resolution share one build of the seat's options."""
    built = []
    real = engine.iter_options

    def counting(state, seat, *action):
        built.append(seat)
        return real(state, seat, *action)

    monkeypatch.setattr(engine, "iter_options", counting)
    for state, seat, move in _states(60):
        built.clear()
        ARGENT.apply(state, seat, move)
        assert len(built) == 1


def _count_options(monkeypatch: pytest.MonkeyPatch) -> list:
    """Record every option the engine builds (``engine.iter_options``) into the returned list."""
    drawn: list = []
    real = engine.iter_options

    def counting(state, seat, *narrowing):
        for opt in real(state, seat, *narrowing):
            drawn.append(opt)
            yield opt

    monkeypatch.setattr(engine, "iter_options", counting)
    return drawn


def test_apply_builds_a_turn_up_to_the_move(monkeypatch: pytest.MonkeyPatch):
    """The legality check stops at the chosen move: the options after it are never built."""
    drawn = _count_options(monkeypatch)
    checked = 0
    for state, seat, _move in _states(200):
        moves = ARGENT.legal_moves(state, seat)
        if len(moves) < 2:
            continue
        drawn.clear()
        ARGENT.apply(state, seat, moves[0])
        assert len(drawn) == 1
        checked += 1
    assert checked > 10


def test_having_a_move_builds_one_option(monkeypatch: pytest.MonkeyPatch):
    """Whether a turn can go on is answered by its first option, not the whole list."""
    made = []
    real = turn.option

    def counting(*args, **kwargs):
        made.append(args[0])
        return real(*args, **kwargs)

    monkeypatch.setattr(turn, "option", counting)
    checked = 0
    for state, seat, _move in _states(200):
        if state["phase"] != "errands" or state["agenda"] or len(turn.turn_options(state, seat)) < 2:
            continue
        made.clear()
        assert engine.has_no_move(state, state["turn"]) is False
        assert len(made) == 1
        checked += 1
    assert checked > 10


def test_a_chosen_room_is_checked_alone(monkeypatch: pytest.MonkeyPatch):
    """A placement is legal in exactly the rooms the list offers, found without building the others."""
    from rules.argent.state import rooms_in_play
    from rules.contract import IllegalMove, Move

    drawn = _count_options(monkeypatch)
    checked = 0
    for state, seat, _move in _states(200):
        if state["phase"] != "errands" or state["agenda"] or state["turn"]["seat"] != seat:
            continue
        offered = {m.get("room") for m in ARGENT.legal_moves(state, seat) if m.action == "place"}
        for room in [*rooms_in_play(state), "no such room"]:
            drawn.clear()
            if room not in offered:
                with pytest.raises(IllegalMove):
                    ARGENT.apply(state, seat, Move.of("place", room=room))
                continue
            ARGENT.apply(state, seat, Move.of("place", room=room))
            # At most the fast placement (a Planar Studies mage at home) and the chosen room.
            assert len(drawn) <= 2 and all(opt["action"] == "place" for opt in drawn)
            checked += 1
    assert checked > 20


def test_apply_refuses_what_the_list_leaves_out():
    """A move outside the seat's options is refused with the game's reason, the state untouched."""
    from rules.contract import IllegalMove, Move

    for state, seat, _move in _states(40):
        before = json.dumps(state)
        with pytest.raises(IllegalMove):
            ARGENT.apply(state, seat, Move.of("bell", card="no such offering"))
        assert json.dumps(state) == before


def test_labelled_moves_build_the_options_once(monkeypatch: pytest.MonkeyPatch):
    """Every move with its label, as ``label`` names it one by one, from one build per version and seat."""
    samples = [(state, seat) for state, seat, _move in _states(50)]
    built = []
    real = engine.options_for
    monkeypatch.setattr(engine, "options_for", lambda state, seat: built.append(seat) or real(state, seat))
    for state, seat in samples:
        built.clear()
        moves = ARGENT.legal_moves(state, seat)
        expected = [(move, opt["label"]) for move, opt in zip(moves, real(state, seat), strict=True)]
        built.clear()
        assert ARGENT.labelled_moves(state, seat) == expected
        assert [(move, ARGENT.label(state, seat, move)) for move in moves] == expected
        assert len(built) == 1


def test_labels_follow_a_state_changed_in_place():
    """A version's labels are reused only while the state is unchanged: a change in place is relabelled."""
    for state, seat, _move in _states(120):
        if state["phase"] == "errands" and not state["agenda"] and state["turn"]["seat"] == seat:
            break
    before = ARGENT.labelled_moves(state, seat)
    assert any(m.action == "bell" for m, _label in before)
    state["bell"] = []  # the Bell Tower emptied in place: its offerings leave the list
    after = ARGENT.labelled_moves(state, seat)
    assert not any(m.action == "bell" for m, _label in after)
    assert after == [(engine.to_move(o), o["label"]) for o in engine.options_for(state, seat)]


def test_labels_are_kept_per_seat():
    """Each seat gets its own labels from the same version, never another seat's."""
    state = ARGENT.setup(3, ARGENT.default_options(), 2)
    seat = ARGENT.waiting_on(state)[0]
    other = (seat + 1) % 3
    assert ARGENT.labelled_moves(state, seat)
    assert ARGENT.labelled_moves(state, other) == []
    assert ARGENT.labelled_moves(state, seat) == [
        (engine.to_move(o), o["label"]) for o in engine.options_for(state, seat)
    ]


def test_waiting_on_names_the_seats_pending_names():
    """``waiting_on`` skips the prompts' sentences but names exactly their seats, a leaver's too."""
    from rules.contract import Move

    rand = random.Random(4)
    state = ARGENT.setup(4, ARGENT.default_options(), 4)
    leavers = 0
    for step in range(400):
        if ARGENT.is_over(state):
            break
        assert ARGENT.waiting_on(state) == sorted({p.seat for p in ARGENT.pending(state)})
        leavers += any(p.decision == "leave_room" for p in ARGENT.pending(state))
        if step == 60:
            state, _ = ARGENT.apply(state, 1, Move.of("resign"))
            continue
        seat = rand.choice(ARGENT.waiting_on(state))
        state, _ = ARGENT.apply(state, seat, rand.choice(ARGENT.legal_moves(state, seat)))
    assert leavers


def test_errand_words_are_kept_per_room_side():
    """The claims an errand offers are worded once per room side and slot, as a fresh wording gives.

    A shadow slot's words are those of the slot it shadows; the same slot of the other side of a
    room keeps its own words (nothing passes between sides, so none between tables).
    """
    from rules.argent import content
    from rules.argent.engine import _claims, _printed_claims

    differ = 0
    for room in content.room_ids():
        words = {}
        for side in ("A", "B"):
            for slot in content.room_side(room, side)["slots"]:
                printed = slot
                if slot["kind"] in ("shadow", "shadow_merit"):
                    printed = next(s for s in content.room_side(room, side)["slots"] if s["id"] == slot["of"])
                expected = _claims(list(printed.get("effects", [])))
                assert list(_printed_claims(room, side, slot["id"])) == expected
                words.setdefault(slot["id"], []).append(expected)
        differ += sum(1 for pair in words.values() if len(pair) == 2 and pair[0] != pair[1])
    assert differ > 5


def _queue_every_step(state, task, events):
    """The steps after an action as they were first written: all four queued, each run by ``advance``."""
    from rules.argent.agenda import push
    from rules.argent.engine import reactions

    push(state, *(reactions.after_step(state, op, task) for op in reactions.AFTER_ACTION))


def test_steps_after_an_action_play_as_if_each_were_queued(monkeypatch: pytest.MonkeyPatch):
    """Running the idle steps in place gives the same states (agendas included) and events as queuing all."""
    from rules.argent.engine import reactions

    pairs = []
    for seed in (1, 2, 5):
        rand = random.Random(seed)
        state = ARGENT.setup(4, ARGENT.default_options(), seed)
        while not ARGENT.is_over(state):
            seat = rand.choice(ARGENT.waiting_on(state))
            move = rand.choice(ARGENT.legal_moves(state, seat))
            pairs.append((state, seat, move))
            state, _ = ARGENT.apply(state, seat, move)
    now = [ARGENT.apply(s, seat, move) for s, seat, move in pairs]
    monkeypatch.setitem(engine.FLOW_TASKS, "after_action", _queue_every_step)
    queued = [ARGENT.apply(s, seat, move) for s, seat, move in pairs]
    assert [json.dumps(s) for s, _ in now] == [json.dumps(s) for s, _ in queued]
    assert [e for _, e in now] == [e for _, e in queued]
    # Both ways were walked: reaction questions waiting with the later steps behind them.
    behind = [s for s, _ in now if any(t["op"] in reactions.AFTER_ACTION for t in s["agenda"])]
    assert behind and len(behind) < len(now) // 4


def test_a_harmless_action_dispatches_no_idle_step(monkeypatch: pytest.MonkeyPatch):
    """After an action that harmed nobody and placed in no instant room, none of the four steps is a task."""
    dispatched = []
    real = engine.run_task

    def spying(state, task, events):
        idle = not state["harms"] and not state.get("instants")
        dispatched.append("harmless" if task["op"] == "after_action" and idle else task["op"])
        real(state, task, events)

    monkeypatch.setattr(engine, "run_task", spying)
    harmless = 0
    for state, seat, move in _states(120):
        dispatched.clear()
        ARGENT.apply(state, seat, move)
        if "harmless" in dispatched:
            harmless += 1
            assert not {"reactions", "sympathy", "instants", "mystic"} & set(dispatched)
    assert harmless > 10


def test_waiting_on_builds_no_decision_record(monkeypatch: pytest.MonkeyPatch):
    """``waiting_on`` (asked on every move) names the seats without building the decisions' records."""
    from rules.argent import views

    built = []
    real = views.Asked

    def counting(*args):
        built.append(args)
        return real(*args)

    states = [state for state, _seat, _move in _states(80)]
    monkeypatch.setattr(views, "Asked", counting)
    assert all(ARGENT.waiting_on(state) for state in states)
    assert not built
    assert all(views.decisions(state) for state in states) and built  # the records are still there to build


def test_placement_words_come_from_the_card_data_cache(monkeypatch: pytest.MonkeyPatch):
    """A placement's plain options read as a fresh wording of each slot gives, without wording any slot anew.

    The words depend on the room side, the slot, the mage type and, on a Merit slot, whether the
    seat has a badge left: the cache is keyed by exactly those, so both notes show up as they should.
    """
    from rules.argent import effects
    from rules.argent.engine import placement
    from rules.argent.state import loc_text, merit_total, open_slots, rooms_in_play

    cases = []
    for state, _seat, _move in _states(300, seed=8):
        if state["phase"] == "errands" and state["turn"] and not state["agenda"]:
            seat = state["turn"]["seat"]
            spent = ARGENT.copy_state(state)  # the same table with every badge of the seat spent
            spent["seats"][seat]["merit_spent"] = merit_total(state, seat)
            for table in (state, spent):
                cases += [(table, seat, room) for room in rooms_in_play(table) if open_slots(table, room)]
    expected = {}
    for state, seat, room in cases:
        for opt in placement.placement_options(state, seat, room, False, True):
            loc = f"{room}/{opt['args']['slot']}"
            name = placement.mage_name(opt["args"]["type"])
            note = effects.merit_note(state, seat, loc)
            expected[id(opt)] = opt["label"] == f"Place a {name} in {loc_text(state, loc)}{note}", note
    assert all(same for same, _note in expected.values())
    assert {bool(note) for _same, note in expected.values()} == {True, False}
    worded = []
    monkeypatch.setattr(effects, "merit_note", lambda *args: worded.append(args) or "")
    monkeypatch.setattr(placement, "loc_text", lambda *args: worded.append(args) or "")
    for state, seat, room in cases:
        placement.placement_options(state, seat, room, False, True)
    assert not worded
