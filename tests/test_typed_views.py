"""Typed views (issue 27): what presenters read, worked out once in the rules, hiding what the view hides."""

from __future__ import annotations

import random

import pytest

from rules import registry
from rules.academy.record import MARK_KINDS, AcademyView
from rules.argent import ARGENT
from rules.argent import scoring as argent_scoring
from rules.argent.record import ArgentView


def _argent_states(players: int, seed: int, every: int = 9) -> list[dict]:
    """Play a random Argent game, keeping every ``every``-th state (and the end)."""
    rand, state, kept = random.Random(seed), ARGENT.setup(players, {}, seed), []
    step = 0
    while not ARGENT.is_over(state):
        seat = ARGENT.waiting_on(state)[0]
        state, _ = ARGENT.apply(state, seat, rand.choice(ARGENT.legal_moves(state, seat)))
        step += 1
        if step % every == 0:
            kept.append(state)
    return [*kept, state]


@pytest.fixture(scope="module")
def argent_states() -> list[dict]:
    return _argent_states(3, 21) + _argent_states(2, 8, every=23)


def test_argent_typed_views_hide_what_the_view_hides(argent_states: list[dict]) -> None:
    """A seat's typed view is unchanged when what it may not know is re-drawn; so is the public one."""
    rand = random.Random(5)
    for state in argent_states[::3]:
        for seat in (None, *range(state["players"])):
            typed = ARGENT.typed_view(ARGENT.view(state, seat))
            hidden = ARGENT.scramble(state, seat, rand)
            assert ARGENT.typed_view(ARGENT.view(hidden, seat)) == typed


def test_argent_fast_moves_are_named_by_the_rules(argent_states: list[dict]) -> None:
    """The seat's typed view lists its fast actions (the panel groups by it, not by label words)."""
    seen = 0
    for state in argent_states:
        for seat in range(state["players"]):
            typed = ARGENT.typed_view(ARGENT.view(state, seat))
            labelled = ARGENT.labelled_moves(state, seat)
            fast = {m.code() for m, label in labelled if label.startswith("Fast action")}
            assert typed.fast == fast
            seen += bool(fast)
        assert ARGENT.typed_view(ARGENT.view(state, None)).fast == frozenset()
    assert seen


def test_argent_standings_are_the_game_end_count(argent_states: list[dict]) -> None:
    """A seat's own standing on each voter it has seen is the count the Game End rules use."""
    checked = 0
    for state in argent_states:
        for seat in range(state["players"]):
            typed: ArgentView = ARGENT.typed_view(ARGENT.view(state, seat))
            for voter in typed.voters:
                if voter.criterion is None:
                    assert voter.standing == () and voter.line is None
                    continue
                for count in voter.standing:
                    if count.seat == seat or count.exact:
                        assert count.value == argent_scoring.measure(state, count.seat, voter.criterion)
                        checked += 1
                    else:  # a rival's face-down discard may hide more: a floor
                        assert count.value <= argent_scoring.measure(state, count.seat, voter.criterion)
                assert voter.line is not None and voter.line.startswith("you ")
    assert checked > 100


def test_argent_decisions_are_the_prompts_in_words(argent_states: list[dict]) -> None:
    for state in argent_states:
        typed = ARGENT.typed_view(ARGENT.view(state, None))
        prompts = ARGENT.pending(state)
        wanted = [(p.seat, p.decision, p.kind) for p in prompts]
        assert [(d.seat, d.name, d.kind) for d in typed.decisions] == wanted
        assert [f"P{d.seat + 1}: {d.words}." for d in typed.decisions] == [p.text for p in prompts]


def test_argent_outcome_is_typed_at_the_end(argent_states: list[dict]) -> None:
    end = argent_states[-1]
    typed = ARGENT.typed_view(ARGENT.view(end, None))
    outcome = end["outcome"]
    assert typed.outcome is not None and typed.outcome.ranking == tuple(outcome["ranking"])
    awarded = [outcome["awarded"][str(i)] for i in range(len(typed.voters))]
    assert [a.winner for a in typed.outcome.awards] == awarded


def _academy_states(players: int, seed: int, options: dict[str, str], every: int = 7) -> list[dict]:
    """Play a random Academy game, keeping every ``every``-th state (and the end)."""
    rules = registry.get("academy")
    rand, state, kept, step = random.Random(seed), rules.setup(players, options, seed), [], 0
    while not rules.is_over(state) and step < 400:
        seat = rules.waiting_on(state)[0]
        state, _ = rules.apply(state, seat, rand.choice(rules.legal_moves(state, seat)))
        step += 1
        if step % every == 0:
            kept.append(state)
    return [*kept, state]


@pytest.fixture(scope="module")
def academy_states() -> list[dict]:
    advanced = registry.get("academy").options
    scenario = next(o for o in advanced if o.name == "scenario")
    other = next(c for c in scenario.choices if c != scenario.default)
    return _academy_states(2, 4, {}) + _academy_states(3, 9, {"scenario": other})


def test_academy_typed_views_hide_what_the_view_hides(academy_states: list[dict]) -> None:
    rules, rand = registry.get("academy"), random.Random(2)
    for state in academy_states[::2]:
        for seat in (None, *range(len(state["wizards"]))):
            typed = rules.typed_view(rules.view(state, seat))
            assert rules.typed_view(rules.view(rules.scramble(state, seat, rand), seat)) == typed


def test_academy_typed_views_carry_the_presenters_facts(academy_states: list[dict]) -> None:
    """Each wizard's room by name, the seat's own next disaster only, the free action slots."""
    rules = registry.get("academy")
    advanced = 0
    for state in academy_states:
        for seat in (None, *range(len(state["wizards"]))):
            typed: AcademyView = rules.typed_view(rules.view(state, seat))
            for wizard in typed.wizards:
                room = typed.room(wizard.room)
                assert wizard.room_name == (room.name if room else rules.view(state, seat)["outside"]["name"])
            held = state["hands"][seat] if seat is not None else None
            assert (typed.my_disaster is not None) == bool(held)
            slots = state["slots_left"]
            if slots is not None and state["step"] == "actions":
                advanced += 1
                assert typed.actions.free == tuple(k for k, unused in slots.items() if unused)
            assert typed.actions.free is None or not typed.basic
    assert advanced


def test_argent_typed_views_carry_what_the_drawings_read(argent_states: list[dict]) -> None:
    """The board's pieces, the agenda's decision, the setup queue and each office's cards, from the view."""
    for state in argent_states:
        for seat in (None, *range(state["players"])):
            view = ARGENT.view(state, seat)
            typed = ARGENT.typed_view(view)
            assert [(m.id, m.owner, m.type, m.loc) for m in typed.mages] == [
                (m["id"], m["owner"], m["type"], m["loc"]) for m in view["mages"]
            ]
            assert [list(row) for row in typed.grid] == view["board"]["grid"]
            for room, info in view["board"]["rooms"].items():
                placed = typed.rooms[room]
                assert (placed.side, placed.locked) == (info["side"], bool(info.get("locked")))
            assert typed.tableau.spells == tuple(view["tableau"]["spell"])
            assert typed.bell_left == len(view["bell"]) and list(typed.queue) == view["queue"]
            assert (typed.pending.seat if typed.pending else None) == (view["pending"] or {}).get("seat")
            for office, raw in zip(typed.offices, view["offices"], strict=True):
                assert [(c.id, c.exhausted) for c in office.vault_cards] == [
                    (v["id"], v["exhausted"]) for v in raw["vaults"]
                ]
                assert list(office.bell) == raw["bell"] and office.ip_time == raw["ip_time"]
                if raw["discard"] is None:
                    assert office.discard is None and office.discard_count is None
                else:
                    assert [(c.kind, c.id) for c in office.discard or ()] == [
                        (c["kind"], c["id"]) for c in raw["discard"]
                    ]
                    # Another seat's pile never shows its Secret Supporters.
                    assert office.seat == seat or not any(c.secret for c in office.discard or ())


def test_academy_typed_views_carry_the_boards_facts(academy_states: list[dict]) -> None:
    """What render/academy.py draws comes from the record: each room's contents, the decks, the reveal."""
    rules = registry.get("academy")
    for state in academy_states:
        view = rules.view(state, None)
        typed: AcademyView = rules.typed_view(view)
        for room, raw in zip(typed.grid, view["grid"], strict=True):
            assert (room.row, room.col) == (raw["row"], raw["col"])
            assert (room.empowered, room.short) == (raw["empowered"], raw["short"])
            assert room.doors == {side for side, open_ in raw["doors"].items() if open_}
            assert dict(room.marks) == {k: raw[k] for k in MARK_KINDS if raw[k]}
            assert (room.portals, room.wizards) == (tuple(raw["portals"]), tuple(raw["wizards"]))
        assert typed.decks is not None and typed.decks.disaster == view["decks"]["disaster"]
        assert typed.decks.holding == sum(view["holding"])
        assert (typed.turn, typed.current) == (view["turn"], view["current"])
        assert typed.objective == view["scenario"]["objective"]
        reveal = view["reveal"]
        assert (typed.reveal.name if typed.reveal else None) == (reveal["spell"]["name"] if reveal else None)
        assert [s.used for s in typed.spells] == [s["used"] for s in view["spells"]]
        assert hash(typed.grid)  # frozen all the way down
