"""A player leaving mid-game (rulebook FAQ, "Is there a way for players to leave mid-game?").

The contract's ``Move.of("resign")`` reaches ``ArgentRules.resign`` from any seat at any time; the
leaver is skipped for the rest of the round and chooses, in a private prompt answered while the others
play on, the two rooms outside University Central that leave the board at the round's end; the round's
end waits for that choice, and for a seat that is absent the service plays ``default_move`` (the first
legal move: the last two rooms in resolution order). The move log replays.
"""

from __future__ import annotations

import pytest

from rules.argent.engine import leaving_rooms
from rules.argent.state import CENTRAL, rooms_in_play
from rules.contract import IllegalMove, Move
from rules.toy import TOY
from tests.argent_helpers import R, opening, pick, round_one, seat_now, to_resolution
from tests.conformance import replay

RESIGN = Move.of("resign")


def finish_round(state: dict) -> dict:
    """Play on (first choice each time) until the next round begins."""
    start = state["round"]
    state = to_resolution(state)
    while state["round"] == start and not R.is_over(state):
        state = pick(state, "")
    return state


def test_faq_a_resigning_player_is_skipped_and_two_rooms_go_at_the_round_end() -> None:
    """FAQ: play out the round skipping the leaver; at its end two non-Central rooms are removed."""
    state = round_one(4)
    me = seat_now(state)
    before = R.view(state, None)
    outside = [r for r in rooms_in_play(state) if r not in CENTRAL]
    gone = outside[:2]  # the leaver's own choice, not the default
    after, events = R.apply(state, me, RESIGN)
    assert R.label(state, me, RESIGN) == "Leave the game"
    assert R.view(state, None) == before, "resigning must not change the input state"
    assert any(f"P{me + 1} is leaving" in e.text for e in events)
    # The others play on; the leaver's room choice is a private prompt beside the turn.
    assert seat_now(after) != me and me in R.waiting_on(after)
    assert [p.kind.value for p in R.pending(after) if p.seat == me] == ["secret"]
    for room in gone:
        move = next(m for m in R.legal_moves(after, me) if m.get("room") == room)
        after, events = R.apply(after, me, move)
    assert me not in R.waiting_on(after)
    assert all(e.seats == (me,) for e in events), "the choice stays private until the rooms go"
    assert R.view(after, None)["offices"][me]["leaving"] and not R.view(after, None)["offices"][me]["left"]
    assert set(gone) <= set(rooms_in_play(after)), "the rooms stay until the round ends"
    after = finish_round(after)
    assert not set(gone) & set(rooms_in_play(after))
    assert set(CENTRAL) <= set(rooms_in_play(after))
    assert all(any(row) for row in after["board"]["grid"]), "empty rows are dropped"
    assert after["seats"][me]["left"] and not any(m["owner"] == me for m in after["mages"])
    assert R.view(after, None)["offices"][me]["left"] and not R.view(after, None)["offices"][me]["leaving"]


def test_a_resigning_seat_need_not_be_the_one_the_game_waits_on() -> None:
    """Contract: resign bypasses pending; the seat's own turn is skipped when it comes."""
    state = round_one(3)
    waiting = seat_now(state)
    other = (waiting + 1) % 3
    state, _ = R.apply(state, other, RESIGN)
    assert seat_now(state) == waiting
    state = pick(state, "Take the Bell Tower offering")
    while state["agenda"]:
        state = pick(state, "")
    assert seat_now(state) not in (other,)


def test_typed_text_never_resigns() -> None:
    """Contract: reading a typed move refuses "resign"; only the leave command builds that move."""
    state = round_one(3)
    with pytest.raises(IllegalMove, match="leave command"):
        R.find(state, seat_now(state), "resign")


def test_resigning_twice_or_down_to_one_player_is_refused() -> None:
    """A seat leaves once; with two players left the game cannot go on without one of them."""
    state = round_one(3)
    a, b = seat_now(state), (seat_now(state) + 1) % 3
    state, _ = R.apply(state, a, RESIGN)
    with pytest.raises(IllegalMove, match="already left"):
        R.apply(state, a, RESIGN)
    with pytest.raises(IllegalMove, match="cannot go on without a player"):
        R.apply(state, b, RESIGN)
    with pytest.raises(IllegalMove, match="cannot go on"):
        R.apply(round_one(2), 0, RESIGN)


def test_games_that_cannot_lose_a_player_refuse_by_default() -> None:
    """Contract: the base resign refuses with a sentence and leaves the state alone."""
    state = TOY.setup(2, {}, 1)
    with pytest.raises(IllegalMove, match="cannot go on without a player"):
        TOY.apply(state, 0, RESIGN)


def test_a_resignation_replays_from_the_move_log() -> None:
    """The move log stays replayable: the resign move goes through apply like any other."""
    state = R.setup(3, {}, 5)
    log = []
    resigner = None
    for step in range(400):
        if R.is_over(state):
            break
        if step == 25:
            seat = resigner = (seat_now(state) + 1) % 3
            move = RESIGN
        else:
            seat = seat_now(state)
            move = R.legal_moves(state, seat)[-1]
        state, _ = R.apply(state, seat, move)
        log.append((seat, move))
    assert (resigner, RESIGN) in log and R.is_over(state)
    assert replay(R, 3, {}, 5, log) == state


def test_a_leaver_during_the_draft_drafts_no_more() -> None:
    """Setup: a seat that leaves during the mage draft is dropped from the draft and the Marks."""
    state = opening(3, 7)
    leaver = (seat_now(state) + 1) % 3
    state, _ = R.apply(state, leaver, RESIGN)
    assert leaver not in state["queue"]
    while state["phase"] in ("draft", "marks"):
        assert seat_now(state) != leaver
        state = pick(state, "")
    assert state["phase"] == "errands" and seat_now(state) != leaver


def test_a_leaver_while_the_university_is_built_leaves_the_building_to_the_others() -> None:
    """Build the University: the leaver's tiles are laid by the others, so the board is full size."""
    state = opening(4, 3, layout="build")
    assert state["phase"] == "build"
    leaver = seat_now(state)
    state, _ = R.apply(state, leaver, RESIGN)
    while state["phase"] == "build":
        assert seat_now(state) != leaver
        state = pick(state, "")
    assert len(rooms_in_play(state)) == 10


def test_the_round_end_waits_for_the_leavers_choice_and_an_absent_seat_gets_the_default() -> None:
    """FAQ: "The player who is leaving should choose two rooms"; the engine chooses only when the
    service plays for an absent seat (``default_move``: the last two rooms in resolution order)."""
    state = round_one(4)
    me = seat_now(state)
    default = leaving_rooms(state)
    state, _ = R.apply(state, me, RESIGN)
    state = to_resolution(state)
    while R.pending(state)[0].seat != me or R.pending(state)[0].decision != "leave_room":
        state = pick(state, "")
    assert R.waiting_on(state) == [me], "the round's end waits on the leaver alone"
    for _ in range(2):
        state, _ = R.apply(state, me, R.default_move(state, me))
    assert not set(default) & set(rooms_in_play(state))
    assert state["seats"][me]["left"]
