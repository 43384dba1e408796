"""The delivery policy in the service: one ping per turn, living boards, forced decisions that play
themselves, and replies as data (no cog reads a sentence).

Sigil Duel variants (``rules/toy.py``) pin each rule on a tiny game; random Argent games
through the real service check them on a big one.
"""

from __future__ import annotations

import logging
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from cogs import argent as argent_cog
from rules import registry
from rules.argent import ARGENT
from rules.contract import Event, Move, Prompt, PromptKind, State
from rules.toy import TOY, ToyRules
from service import ASK_PREF, AUTO_PREF, Board, Reply, TableService
from service.notify import pings
from store import Store
from tests.drawings import views_as_json

ALICE, BOB, CAROL = 101, 102, 103


class EmptyDeckToy(ToyRules):
    """Sigil Duel with no deck: the lowest mage's "draw or pass" can only pass (public: the deck
    count is on the board), which the game declares auto-resolvable. Choosing the last sigil of a
    hand is forced too, but the hand is secret: it stays asked."""

    kind = "toy-empty"

    def setup(self, players: int, options: dict[str, str], seed: int) -> State:
        state = super().setup(players, options, seed)
        state["deck"] = []
        return state

    def auto_resolvable(self, state: State, prompt: Prompt, move: Move) -> bool:
        return prompt.decision == "draw"


@pytest.fixture(autouse=True)
def registered() -> None:
    registry.register(TOY)
    registry.register(EmptyDeckToy())


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return 12345


async def started(svc: TableService, kind: str, users: list[tuple[int, str]], options: str = "") -> int:
    host, name = users[0]
    table = await svc.open_table(kind, options, guild_id=1, channel_id=2, host_id=host, host_name=name)
    for user, who in users[1:]:
        await svc.join(table.id, user, who)
    await svc.start(table.id, host)
    return table.id


async def seat_user(svc: TableService, table_id: int, seat: int) -> int:
    return next(s.user_id for s in await svc.seats(table_id) if s.seat == seat)


# ---------------------------------------------------------------------- one ping per turn


def test_the_ping_rule_asks_newcomers_once_and_never_the_mover() -> None:
    turn = Prompt(0, PromptKind.TURN, "turn", "P1: take your turn.")
    follow = Prompt(0, PromptKind.DECISION, "slot", "P1: choose a slot.")
    other = Prompt(1, PromptKind.TURN, "turn", "P2: take your turn.")
    # The mover's own follow-up decision is no new turn: no ping.
    assert pings([follow], [turn], mover=0) == set()
    # The decision passes to another seat: that seat is pinged, once.
    assert pings([other], [follow], mover=0) == {1}
    # Still waiting on the same prompt after someone else moved: no second ping.
    assert pings([other, Prompt(2, PromptKind.SECRET, "x", "x")], [other], mover=2) == set()
    # The game begins: everyone asked is pinged.
    assert pings([turn, other], [], mover=None) == {0, 1}


async def test_the_mover_is_never_pinged_and_its_follow_up_comes_on_its_note(svc: TableService) -> None:
    table_id = await started(svc, "toy", [(ALICE, "alice"), (BOB, "bob")])
    # Both choose; the second chooser reveals, and the lowest sigil gets the draw-or-pass turn.
    first = await svc.act(table_id, ALICE, (await svc.reads.choices(table_id, ALICE))[0].value)
    assert first.board is not None and first.board.ping == () and not first.board.fresh
    second = await svc.act(table_id, BOB, (await svc.reads.choices(table_id, BOB))[0].value)
    assert second.board is not None
    # A new thread message exactly when someone other than the mover is asked anew.
    assert second.board.fresh == bool(second.board.ping)
    lowest = next(p.seat for p in second.board.waiting)
    lowest_user = await seat_user(svc, table_id, lowest)
    assert (lowest_user == BOB) == (second.board.ping == ())
    if lowest_user == BOB:
        # Bob's follow-up (his turn) comes on the note answering his move, never as a ping.
        note = next(n for n in second.private if n.user_id == BOB)
        assert note.mover and note.waiting and note.choices
    else:
        assert second.board.ping == (ALICE,)


# ---------------------------------------------------------------------- forced decisions


async def test_a_forced_public_decision_plays_itself_and_is_logged_as_automatic(
    svc: TableService, store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    table_id = await started(svc, "toy-empty", [(ALICE, "alice"), (BOB, "bob")])
    await svc.act(table_id, ALICE, (await svc.reads.choices(table_id, ALICE))[0].value)
    with caplog.at_level(logging.INFO, logger="conclave.service"):
        reply = await svc.act(table_id, BOB, (await svc.reads.choices(table_id, BOB))[0].value)
    assert reply.board is not None
    # Nobody clicked "Pass" with an empty deck: the service did, for the lowest mage, and said so.
    assert len(reply.board.automatic) == 1 and reply.board.automatic[0].endswith(": Pass")
    # The board names the seat once, beside its tag: "bob (P1): Pass", never "bob (P1) bob: Pass".
    line = next(x for x in reply.board.text.splitlines() if x.startswith("Played automatically:"))
    assert re.fullmatch(r"Played automatically: \w+ \(P\d\): Pass\.", line), line
    # Told just before what it did ("Seat 1 passes."), never after its results.
    lines = reply.board.text.splitlines()
    assert lines.index(line) + 1 == next(i for i, x in enumerate(lines) if x.endswith("passes."))
    assert "(automatic)" in caplog.text and "Pass" not in caplog.text  # the log names the action only
    moves = await store.moves(table_id)
    assert [Move.from_json(m.move).action for m in moves] == ["choose", "choose", "pass"]
    # The next round asks both again.
    assert {p.decision for p in reply.board.waiting} == {"choose"}


async def test_a_seat_can_turn_automatic_play_off(svc: TableService) -> None:
    table_id = await started(svc, "toy-empty", [(ALICE, "alice"), (BOB, "bob")])
    await svc.reads.set_seat_pref(table_id, ALICE, AUTO_PREF, "off")
    await svc.reads.set_seat_pref(table_id, BOB, AUTO_PREF, "off")
    await svc.act(table_id, ALICE, (await svc.reads.choices(table_id, ALICE))[0].value)
    reply = await svc.act(table_id, BOB, (await svc.reads.choices(table_id, BOB))[0].value)
    assert reply.board is not None and reply.board.automatic == ()
    assert [p.decision for p in reply.board.waiting] == ["draw"]  # asked as usual


async def test_a_forced_choice_that_depends_on_a_secret_hand_is_still_asked(svc: TableService) -> None:
    table_id = await started(svc, "toy-empty", [(ALICE, "alice"), (BOB, "bob")])
    for _ in range(2):  # two rounds: each hand of three sigils is down to one
        for user in (ALICE, BOB):
            await svc.act(table_id, user, (await svc.reads.choices(table_id, user))[0].value)
    for user in (ALICE, BOB):
        note = await svc.reads.hand(table_id, user)
        assert len(note.choices) == 1  # one sigil left: forced, but only its holder knows it
    reply = await svc.act(table_id, ALICE, (await svc.reads.choices(table_id, ALICE))[0].value)
    assert reply.board is not None and reply.board.automatic == ()
    assert any(p.seat is not None and p.decision == "choose" for p in reply.board.waiting)


async def test_auto_play_declines_a_reaction_for_a_seat_that_passes_them(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The auto-pass lives in the service: a seat set to pass has its reaction windows declined."""

    class ReactingToy(ToyRules):
        kind = "toy-react"

        def pending(self, state: State) -> list[Prompt]:
            asked = super().pending(state)
            if state["phase"] == "draw":
                return [replace(p, kind=PromptKind.REACTION) for p in asked]
            return asked

        def decline(self, state: State, seat: int, prompt: Prompt) -> Move | None:
            return Move.of("pass") if prompt.kind is PromptKind.REACTION else None

    monkeypatch.setitem(registry._GAMES, "toy-react", ReactingToy())
    table_id = await started(svc, "toy-react", [(ALICE, "alice"), (BOB, "bob")])
    for user in (ALICE, BOB):
        await svc.reads.set_seat_pref(table_id, user, "reactions", "pass")
    await svc.act(table_id, ALICE, (await svc.reads.choices(table_id, ALICE))[0].value)
    reply = await svc.act(table_id, BOB, (await svc.reads.choices(table_id, BOB))[0].value)
    assert reply.board is not None and len(reply.board.automatic) == 1
    assert {p.decision for p in reply.board.waiting} == {"choose"}


class PresumingToy(EmptyDeckToy):
    """Sigil Duel whose "draw or pass" (public: the deck count is on the board) is presumed a pass."""

    kind = "toy-presume"

    def auto_resolvable(self, state: State, prompt: Prompt, move: Move) -> bool:
        return False

    def presumed(self, state: State, seat: int, prompt: Prompt) -> Move | None:
        return Move.of("pass") if prompt.decision == "draw" else None


@pytest.mark.parametrize(("pref", "value", "played"), [(None, None, True), (ASK_PREF, "on", False),
                                                        (AUTO_PREF, "off", False)])
async def test_a_presumed_answer_plays_unless_the_seat_asks_to_be_asked(
    svc: TableService, monkeypatch: pytest.MonkeyPatch, pref: str | None, value: str | None, played: bool
) -> None:
    """An optional question the game presumes the answer to (Argent: take the IP) is answered for a
    person, unless they set ``ask`` to "on" (``/argent ip mode:ask``) or turned automatic play off."""
    monkeypatch.setitem(registry._GAMES, "toy-presume", PresumingToy())
    table_id = await started(svc, "toy-presume", [(ALICE, "alice"), (BOB, "bob")])
    if pref is not None:
        for user in (ALICE, BOB):
            await svc.reads.set_seat_pref(table_id, user, pref, value)
    await svc.act(table_id, ALICE, (await svc.reads.choices(table_id, ALICE))[0].value)
    reply = await svc.act(table_id, BOB, (await svc.reads.choices(table_id, BOB))[0].value)
    assert reply.board is not None
    if played:
        assert len(reply.board.automatic) == 1 and reply.board.automatic[0].endswith(": Pass")
        assert {p.decision for p in reply.board.waiting} == {"choose"}  # the next round, nobody asked
    else:
        assert reply.board.automatic == () and [p.decision for p in reply.board.waiting] == ["draw"]


def test_argent_presumes_only_the_optional_ip_and_never_on_a_secret() -> None:
    """FAQ, benefits are optional: an IP gain that could be declined is presumed taken; nothing else
    is presumed, and re-dealing every secret a rival cannot see leaves the presumed move the same."""
    seen_ip = 0
    for game in range(3):
        rand = random.Random(game)
        players = 3 + game % 3
        state = ARGENT.setup(players, ARGENT.check_options({}), 70 + game)
        for step in range(4000):
            if ARGENT.is_over(state):
                break
            for prompt in ARGENT.pending(state):
                move = ARGENT.presumed(state, prompt.seat, prompt)
                legal = ARGENT.legal_moves(state, prompt.seat)
                if prompt.decision != "take_ip":
                    assert move is None, prompt
                    continue
                seen_ip += 1
                assert move in legal and ARGENT.label(state, prompt.seat, move).startswith("Gain ")
                for other in (s for s in range(players) if s != prompt.seat):
                    scrambled = ARGENT.scramble(state, other, random.Random(step))
                    assert ARGENT.presumed(scrambled, prompt.seat, prompt) == move
            seat = rand.choice(ARGENT.waiting_on(state))
            state, _ = ARGENT.apply(state, seat, rand.choice(ARGENT.legal_moves(state, seat)))
    assert seen_ip > 0


# ---------------------------------------------------------------------- Argent through the service


async def test_argent_never_waits_on_a_forced_errand_and_never_pings_the_mover(svc: TableService) -> None:
    """A whole random Argent game through the service: every "Take 1 IP instead" with no other
    answer plays itself, no forced decision the game declares is ever left waiting, and a ping
    only ever goes to a newly asked seat that did not just move."""
    rand = random.Random(3)
    users = [(ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")]
    automatic: list[str] = []
    with views_as_json("argent"):
        table_id = await started(svc, "argent", users)
        for _ in range(2000):
            table = await svc.table(table_id)
            if table.status != "active":
                break
            public = await svc.reads.public_view(table_id)
            prompt = public.prompts[0]
            user = public.users[prompt.seat]
            now = await svc.reads.seat_view(table_id, user)
            _, state = await svc.store.load(table_id)
            # The service already played every declared forced decision.
            assert not (
                len(now.moves) == 1 and ARGENT.auto_resolvable(state, prompt, now.moves[0].move)  # type: ignore[arg-type]
            ), prompt
            assert prompt.decision != "take_ip", prompt  # an optional IP gain is taken unasked
            reply = await svc.act(table_id, user, rand.choice(now.moves).move)  # type: ignore[arg-type]
            assert reply.board is not None
            assert user not in reply.board.ping
            automatic += reply.board.automatic
    assert (await svc.table(table_id)).status == "finished"
    assert any(a.endswith("Take 1 IP instead") for a in automatic)
    assert any(re.search(r": Gain \d+ IP$", a) for a in automatic)


@pytest.mark.parametrize("kind", ["academy", "argent", "institute", "quadrivium", "toy-empty"])
def test_an_automatic_move_never_depends_on_a_secret(kind: str) -> None:
    """Wherever a game lets the service play a lone move, re-dealing everything another seat
    cannot see leaves that lone move the same: the automatic move reveals nothing to anyone."""
    rules = registry.get(kind)
    checked = 0
    decisions: set[str] = set()
    # A lone "end" is rare in the Academy's random playouts (the Helpful Hand's order choices moved the
    # one that game 1 reached): it plays more games to meet one.
    for game in range(40 if kind == "academy" else 6):
        rand = random.Random(game)
        players = rules.min_players + game % (rules.max_players - rules.min_players + 1)
        state = rules.setup(players, rules.check_options({}), 40 + game)
        for step in range(3000):
            if rules.is_over(state):
                break
            for prompt in rules.pending(state):
                legal = rules.legal_moves(state, prompt.seat)
                if len(legal) != 1 or not rules.auto_resolvable(state, prompt, legal[0]):
                    continue
                checked += 1
                decisions.add(prompt.decision)
                for other in (s for s in range(players) if s != prompt.seat):
                    seen = rules.scramble(state, other, random.Random(step))
                    assert rules.legal_moves(seen, prompt.seat) == legal, (kind, prompt)
            seat = rand.choice(rules.waiting_on(state))
            state, _ = rules.apply(state, seat, rand.choice(rules.legal_moves(state, seat)))
    # Academy, Argent, Quadrivium and the empty-deck duel do play lone moves; the Institute declares none.
    assert (checked > 0) == (kind != "institute")
    if kind == "quadrivium":
        # The council's steps, whose lone "done" follows from public Council Votes. A seat that
        # cannot outbid is now passed by the game itself (no move: docs/rulings.md, Quadrivium), and
        # one that can bid may also pass for the rest of the bidding, so bid and take are never lone.
        assert "repair" in decisions and not {"bid", "take"} & decisions, decisions


# ---------------------------------------------------------------------- replies are data


def _reworded(events: list[Event]) -> list[Event]:
    """Every event's sentence replaced by another; the data kept."""
    return [replace(e, text=f"Something happened ({k}).") for k, e in enumerate(events)]


def _argent_events(seed: int) -> tuple[list[Event], dict[str, Any], list[Event]]:
    """Play a random Argent game; return its public events, the final public view and one seat's
    private events."""
    rand = random.Random(seed)
    state = ARGENT.setup(3, {}, seed)
    public: list[Event] = []
    private: list[Event] = []
    while not ARGENT.is_over(state):
        seat = ARGENT.pending(state)[0].seat
        state, events = ARGENT.apply(state, seat, rand.choice(ARGENT.legal_moves(state, seat)))
        public += [e for e in events if e.public]
        private += [e for e in events if not e.public and e.visible_to(0)]
    return public, ARGENT.view(state, 0), private


def test_rewording_every_event_leaves_summaries_boards_and_panels_intact() -> None:
    events, view, secret = _argent_events(11)
    # Every round's summary is read from data: the same with every sentence reworded.
    rounds = [k for k, e in enumerate(events) if e.kind == "round"]
    ends = [*rounds[1:], len(events)]
    summaries = [argent_cog.round_summary(events[:k]) for k in ends]
    assert all(summaries) and len(summaries) == 5
    reworded = _reworded(events)
    assert [argent_cog.round_summary(reworded[:k]) for k in ends] == summaries
    # The final board never spoils the votes, whatever their sentences say.
    board = Board(1, 9, "", events=tuple(reworded[-8:]), finished=True, kind="argent")
    votes = [e.text for e in reworded[-8:] if e.kind == "votes"]
    assert votes and not any(v in line for line in argent_cog.board_lines(board) for v in votes)
    # A voter seen through a Mark still gets its criterion and standing in the panel.
    seen = [e for e in secret if e.kind == "voter_seen"]
    assert seen
    other = _reworded(seen)
    typed = ARGENT.typed_view(view)
    plain = argent_cog.enrich(seen, typed)
    lines = argent_cog.enrich(other, typed)
    added = [line[len(e.text) :] for line, e in zip(plain, seen, strict=True)]
    assert any("It counts" in a for a in added)
    assert lines == [e.text + a for e, a in zip(other, added, strict=True)]


def test_no_game_cog_reads_the_sentences_of_a_reply() -> None:
    """The game cogs read replies as data: no regular expression over event texts, no splitting
    a board's or note's text into lines."""

    cogs = Path(__file__).parent.parent / "cogs"
    for name in ("argent", "institute"):
        for path in sorted((cogs / name).rglob("*.py")):
            source = path.read_text()
            assert ".text.splitlines()" not in source, path
            assert "startswith(\"Waiting on" not in source and "Seats: " not in source, path
            if name == "argent":
                assert "import re\n" not in source, path


def test_a_reply_carries_its_events_waiting_and_legend_as_data() -> None:
    reply_fields = {f for f in Reply.__dataclass_fields__}
    board_fields = set(Board.__dataclass_fields__)
    assert {"board", "private"} <= reply_fields
    assert {"events", "waiting", "legend", "result", "automatic", "fresh"} <= board_fields


def test_argent_declines_a_reaction_with_pass_and_nothing_else() -> None:
    react = Prompt(1, PromptKind.REACTION, "react", "P2: react to what just happened, or pass.")
    turn = Prompt(1, PromptKind.TURN, "turn", "P2: take your turn.")
    assert ARGENT.decline({}, 1, react) == Move.of("pass")
    assert ARGENT.decline({}, 1, turn) is None
