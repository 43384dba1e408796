"""The table service on a real SQLite store, played with the Sigil Duel test game."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path

import pytest

from rules import registry
from rules.contract import Result
from rules.toy import TOY, QuietToyRules, WideToyRules
from service import Choice, TableError, TableService, parse_options, seat_order
from store import Store
from tests.async_helpers import OpenStore

pytestmark = pytest.mark.usefixtures("toy_registered")

ALICE, BOB, CAROL, DAVE = 101, 102, 103, 104
SEED = 12345


@pytest.fixture
def table_seed() -> int:
    """The seed every table of this module is dealt with."""
    return SEED


async def open_duel(svc: TableService, players: int = 2, options: str = "") -> int:
    table = await svc.open_table("toy", options, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    for user, name in [(BOB, "bob"), (CAROL, "carol")][: players - 1]:
        await svc.join(table.id, user, name)
    return table.id


def user_of(seats, number: int) -> int:
    return next(s.user_id for s in seats if s.seat == number)


async def test_open_validates_options_and_names_the_thread(svc: TableService) -> None:
    table = await svc.open_table("toy", "hand=4", guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    assert table.options == {"hand": "4"}
    assert svc.thread_name(table) == f"Sigil Duel #{table.id} — alice's table"
    with pytest.raises(TableError, match="hand must be one of"):
        await svc.open_table("toy", "hand=9", guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    with pytest.raises(TableError, match="no option called"):
        await svc.open_table("toy", {"speed": "1"}, guild_id=1, channel_id=2, host_id=ALICE, host_name="a")
    with pytest.raises(TableError, match="no game called"):
        await svc.open_table("chess", None, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")


def test_parse_options_reads_pairs_and_refuses_junk() -> None:
    assert parse_options('hand=4 side="b side"') == {"hand": "4", "side": "b side"}
    assert parse_options("  ") == {}
    with pytest.raises(TableError, match="name=value"):
        parse_options("hand 4")


async def test_lobby_refuses_second_seat_full_table_and_early_start(svc: TableService) -> None:
    table_id = await open_duel(svc, players=1)
    with pytest.raises(TableError, match="already have a seat"):
        await svc.join(table_id, ALICE, "alice")
    with pytest.raises(TableError, match="needs 2 to 3 players"):
        await svc.start(table_id, ALICE)
    await svc.join(table_id, BOB, "bob")
    await svc.join(table_id, CAROL, "carol")
    with pytest.raises(TableError, match="full"):
        await svc.join(table_id, DAVE, "dave")
    with pytest.raises(TableError, match="You host this table"):
        await svc.leave(table_id, ALICE)
    left = await svc.leave(table_id, CAROL)
    assert left.board is not None and "carol leaves" in left.board.text
    with pytest.raises(TableError, match="Only the host"):
        await svc.start(table_id, BOB)


async def test_start_records_seed_and_shuffled_seat_order(svc: TableService, store: Store) -> None:
    table_id = await open_duel(svc)
    reply = await svc.start(table_id, ALICE)
    record = await store.table(table_id)
    assert record is not None and record.status == "active" and record.seed == SEED
    seats = await store.seats(table_id)
    assert [s.user_id for s in sorted(seats, key=lambda s: s.seat)] == seat_order(SEED, [ALICE, BOB])
    # Both mages choose in secret at once: both are pinged, both get their hand privately.
    assert reply.board is not None and sorted(reply.board.ping) == [ALICE, BOB]
    assert sorted(n.user_id for n in reply.private) == [ALICE, BOB]
    with pytest.raises(TableError, match="already started"):
        await svc.start(table_id, ALICE)


async def test_a_secret_choice_stays_private_until_the_reveal(svc: TableService, store: Store) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    note = await svc.reads.hand(table_id, ALICE)
    assert note.view_text is not None and "hand [" in note.view_text
    _, state = await store.load(table_id)
    seat = (await svc._load(table_id)).seat_of(ALICE)
    sigil = state["hands"][seat][0]
    reply = await svc.act(table_id, ALICE, f"choose sigil={sigil}")
    assert reply.answer == f"You played: Choose sigil {sigil}."
    assert reply.board is not None
    public = reply.board.text + (reply.board.view_text or "")
    assert f"sigil {sigil}" not in public and "hand [" not in public
    assert "has locked in a sigil" in reply.board.text
    mine = [n for n in reply.private if n.user_id == ALICE]
    assert mine and f"You chose sigil {sigil}." in mine[0].text
    # Bob was already asked to choose: his prompt did not change, so he is not pinged again.
    assert reply.board.ping == ()
    log_text = " ".join(await svc.reads.log_lines(table_id))
    assert f"sigil {sigil}" not in log_text


async def test_play_to_the_end_posts_the_result(svc: TableService, store: Store) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    last = None
    for _ in range(100):
        record, state = await store.load(table_id)
        if record.status != "active":
            break
        seats = await store.seats(table_id)
        seat = TOY.waiting_on(state)[0]
        user = user_of(seats, seat)
        choice = (await svc.reads.choices(table_id, user))[0]
        last = await svc.act(table_id, user, choice.value)
    record = await store.table(table_id)
    assert record is not None and record.status == "finished" and record.result is not None
    assert last is not None and last.board is not None and last.board.finished
    assert "Game over" in last.board.text
    assert await svc.replay(table_id)
    with pytest.raises(TableError, match="over"):
        await svc.act(table_id, ALICE, "pass")
    assert await svc.reads.waiting_on(ALICE) == []


async def test_choices_are_the_users_own_legal_moves_filtered(svc: TableService, store: Store) -> None:
    table_id = await open_duel(svc, options="hand=4")
    await svc.start(table_id, ALICE)
    _, state = await store.load(table_id)
    seats = await store.seats(table_id)
    for seat in (0, 1):
        user = user_of(seats, seat)
        offered = await svc.reads.choices(table_id, user)
        assert [c.value for c in offered] == [m.code() for m in TOY.legal_moves(state, seat)]
    bob_hand = state["hands"][next(s.seat for s in seats if s.user_id == BOB)]
    typed = await svc.reads.choices(table_id, BOB, f"sigil {bob_hand[-1]}")
    assert [c.label for c in typed] == [f"Choose sigil {bob_hand[-1]}"]
    assert await svc.reads.choices(table_id, DAVE) == []


async def test_wrong_moves_are_refused_with_a_sentence_and_change_nothing(
    svc: TableService, store: Store
) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    for text, sentence in [
        ("choose sigil=99", "not allowed"),
        ("fly", "None of your moves fits that. They look like “Choose sigil"),
        ("choose sigil", "That fits 3 of your moves"),
        ("", "Type a move"),
    ]:
        with pytest.raises(TableError, match=sentence):
            await svc.act(table_id, ALICE, text)
    with pytest.raises(TableError, match="no seat"):
        await svc.act(table_id, DAVE, "pass")
    with pytest.raises(TableError, match="no seat"):
        await svc.reads.hand(table_id, DAVE)
    record = await store.table(table_id)
    assert record is not None and record.version == 0


async def test_two_clicks_at_once_apply_once(svc: TableService, store: Store) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    choice = (await svc.reads.choices(table_id, ALICE))[0]
    results = await asyncio.gather(
        svc.act(table_id, ALICE, choice.value, expected_version=0),
        svc.act(table_id, ALICE, choice.value, expected_version=0),
        return_exceptions=True,
    )
    errors = [r for r in results if isinstance(r, TableError)]
    assert len(errors) == 1 and "moved on" in errors[0].sentence
    assert len(await store.moves(table_id)) == 1


async def test_a_second_process_writing_is_caught_and_never_applied_twice(
    svc: TableService, tmp_path: Path, open_store: OpenStore
) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    other_store = await open_store(str(tmp_path / "tables.db"))
    try:
        other = TableService(other_store)
        choice = (await svc.reads.choices(table_id, ALICE))[0]
        results = await asyncio.gather(
            svc.act(table_id, ALICE, choice.value),
            other.act(table_id, ALICE, choice.value),
            return_exceptions=True,
        )
    finally:
        await other_store.close()
    # Alice has one secret choice to make: the second attempt finds it already made.
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert all(isinstance(r, TableError) for r in results if isinstance(r, Exception))
    assert len(await svc.store.moves(table_id)) == 1


async def test_index_tokens_stand_for_long_moves_and_expire(svc: TableService, store: Store) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    _, state = await store.load(table_id)
    seat = (await svc._load(table_id)).seat_of(BOB)
    with pytest.raises(TableError, match="moved on"):
        await svc.act(table_id, BOB, "#5.0")
    reply = await svc.act(table_id, BOB, "#0.1")
    assert reply.answer == f"You played: Choose sigil {state['hands'][seat][1]}."


async def test_abandon_needs_host_manager_or_every_player(svc: TableService, store: Store) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    with pytest.raises(TableError, match="Only the host"):
        await svc.abandon(table_id, DAVE)
    vote = await svc.abandon(table_id, BOB)
    assert vote.board is not None and "1 of 2" in vote.board.text
    record = await store.table(table_id)
    assert record is not None and record.status == "active"
    closed = await svc.abandon(table_id, DAVE, manage_server=True)
    assert closed.board is not None and closed.board.finished and closed.table.status == "abandoned"
    record = await store.table(table_id)
    assert record is not None and record.status == "abandoned"
    with pytest.raises(TableError, match="already closed"):
        await svc.abandon(table_id, ALICE)


async def test_every_player_agreeing_abandons(svc: TableService, store: Store) -> None:
    table = await svc.open_table("toy", None, guild_id=1, channel_id=2, host_id=DAVE, host_name="dave")
    await svc.join(table.id, BOB, "bob")
    await svc.leave(table.id, BOB)
    await svc.join(table.id, BOB, "bob")
    await svc.start(table.id, DAVE)
    # Dave hosts; here the players vote instead of using the host's power.
    await svc.abandon(table.id, BOB)
    assert (await store.table(table.id)).status == "active"  # type: ignore[union-attr]
    await store.add_abandon_vote(table.id, DAVE)
    done = await svc.abandon(table.id, BOB)
    assert done.board is not None and "Every player agreed" in done.board.text


async def test_waiting_on_me_lists_oldest_first(svc: TableService, store: Store) -> None:
    first = await open_duel(svc)
    second = await open_duel(svc)
    await svc.start(first, ALICE)
    await svc.start(second, ALICE)
    waiting = await svc.reads.waiting_on(BOB)
    assert [w.table.id for w in waiting] == [first, second]
    assert waiting[0].title.startswith("Sigil Duel #")


async def test_status_log_and_rules_summary(svc: TableService) -> None:
    table_id = await open_duel(svc)
    lobby = await svc.reads.status(table_id)
    assert "lobby" in lobby.text and "alice, bob" in lobby.text
    await svc.start(table_id, ALICE)
    board = await svc.reads.status(table_id)
    assert board.image is None and board.view_text is not None and "round 1" in board.view_text
    assert "hand [" not in board.view_text
    assert "Waiting on" in board.text and board.ping == ()
    summary = svc.catalogue.rules_summary("toy")
    assert "Sigil Duel" in summary and "rules/toy.py" in summary and "2-3" in summary
    assert svc.catalogue.card("Anything") == "No card called `Anything`."  # the shipped games have cards


async def test_log_lines_never_name_a_move(svc: TableService, caplog: pytest.LogCaptureFixture) -> None:
    table_id = await open_duel(svc)
    with caplog.at_level(logging.DEBUG, logger="conclave"):
        await svc.start(table_id, ALICE)
        choice = (await svc.reads.choices(table_id, ALICE))[0]
        await svc.act(table_id, ALICE, choice.value)
    text = caplog.text
    assert "choose" in text  # the action name is logged...
    assert choice.value not in text and "sigil=" not in text  # ...its arguments never


def test_option_hints_complete_one_pair_at_a_time(svc: TableService) -> None:
    assert svc.catalogue.option_hints("toy", "") == ["hand=3", "hand=4"]
    assert svc.catalogue.option_hints("toy", "hand=") == ["hand=", "hand=3", "hand=4"]
    assert svc.catalogue.option_hints("toy", "hand=4 ") == ["hand=4"]
    assert svc.catalogue.option_hints("chess", "") == []


class CardedDuel(type(TOY)):  # type: ignore[misc]
    """Sigil Duel with a card index, to prove the lookup hook."""

    kind = "carded-toy"

    def card_index(self) -> dict[str, str]:
        return {"Sigil of Dawn": "Sigil of Dawn: worth 12 (designed)."}


def test_card_lookup_asks_rules_that_index_cards(svc: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    # Registered for this test only, so other tests see the games they expect.
    monkeypatch.setitem(registry._GAMES, "carded-toy", CardedDuel())
    assert svc.catalogue.card_names("dawn") == ["Sigil of Dawn (Sigil Duel)"]
    assert svc.catalogue.card_names("dawn", "carded-toy") == ["Sigil of Dawn"]
    assert svc.catalogue.card("sigil of dawn", "carded-toy") == "Sigil of Dawn: worth 12 (designed)."
    assert svc.catalogue.card("Dawn", "carded-toy").startswith(
        "No card by that exact name. Did you mean: Sigil of Dawn"
    )
    assert svc.catalogue.card("nothing", "toy") == "No game here has cards to look up yet."


async def test_a_closed_table_says_so(svc: TableService) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    await svc.abandon(table_id, ALICE)
    board = await svc.reads.status(table_id)
    assert "This table was abandoned." in board.text and "Waiting on" not in board.text
    assert board.finished and not board.in_play
    lobby = await svc.open_table("toy", None, guild_id=1, channel_id=2, host_id=BOB, host_name="bob")
    await svc.abandon(lobby.id, BOB)
    assert (await svc.reads.status(lobby.id)).text == "This table was closed before its game started."
    with pytest.raises(TableError, match="closed"):
        await svc.reads.hand(lobby.id, BOB)


async def open_kind(svc: TableService, kind: str, options: str = "") -> int:
    table = await svc.open_table(kind, options, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    await svc.join(table.id, BOB, "bob")
    return table.id


async def test_seat_view_holds_every_legal_move_the_view_and_the_prompts(
    svc: TableService, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry._GAMES, "toy-wide", WideToyRules())
    table_id = await open_kind(svc, "toy-wide")
    with pytest.raises(TableError, match="not started"):
        await svc.reads.seat_view(table_id, ALICE)
    await svc.start(table_id, ALICE)
    with pytest.raises(TableError, match="no seat"):
        await svc.reads.seat_view(table_id, DAVE)
    _, state = await store.load(table_id)
    seat = (await svc._load(table_id)).seat_of(BOB)
    rules = registry.get("toy-wide")
    legal = rules.legal_moves(state, seat)
    seen = await svc.reads.seat_view(table_id, BOB)
    assert (seen.seat, seen.version, seen.table.id) == (seat, 0, table_id)
    assert seen.view == rules.view(state, seat) and seen.view["players"][seat]["hand"] is not None
    assert len(seen.moves) == len(legal) == 33  # uncapped: more than the 25 that choices() gives
    assert len(await svc.reads.choices(table_id, BOB)) == 25
    assert [c.value for c in seen.moves[:-1]] == [m.code() for m in legal[:-1]]
    assert seen.moves[-1].value == f"#0.{len(legal) - 1}"  # a code over 100 characters
    assert seen.moves[0].label == rules.label(state, seat, legal[0])
    assert {p.seat for p in seen.prompts} == {0, 1} and [p.seat for p in seen.asked] == [seat]
    # A value from the seat view plays that very move.
    reply = await svc.act(table_id, BOB, seen.moves[1].value, expected_version=seen.version)
    assert reply.answer == f"You played: {seen.moves[1].label}."
    await svc.abandon(table_id, ALICE)
    closed = await svc.reads.seat_view(table_id, BOB)
    assert closed.moves == () and closed.prompts == () and closed.version == 1


async def test_a_quiet_move_posts_no_board_and_a_loud_one_does(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry._GAMES, "toy-quiet", QuietToyRules())
    table_id = await open_kind(svc, "toy-quiet")
    opening = await svc.start(table_id, ALICE)
    assert opening.board is not None and not opening.board.quiet
    quiet = await svc.act(table_id, ALICE, "ponder")
    # No public event, the same prompts as before, the game goes on: nothing for the thread.
    assert quiet.board is not None and quiet.board.quiet and quiet.board.ping == ()
    assert quiet.board.view_text is not None  # still drawn, for cogs that post boards themselves
    assert [n.user_id for n in quiet.private] == [ALICE]  # the mover still hears their own event
    # Locking in is silent here too, but Alice's prompt ends: the thread must stop waiting on her.
    chosen = await svc.act(table_id, ALICE, (await svc.reads.choices(table_id, ALICE, "sigil"))[0].value)
    assert chosen.board is not None and not chosen.board.quiet
    assert "Waiting on bob" in chosen.board.text and "alice" not in chosen.board.text.split("\n")[0]
    loud = await svc.act(table_id, BOB, (await svc.reads.choices(table_id, BOB, "sigil"))[0].value)
    assert loud.board is not None and not loud.board.quiet and "Revealed" in loud.board.text
    # The ordinary game's lock-in is public, so it is never quiet.
    toy_id = await open_kind(svc, "toy")
    await svc.start(toy_id, ALICE)
    toy_move = await svc.act(toy_id, ALICE, (await svc.reads.choices(toy_id, ALICE))[0].value)
    assert toy_move.board is not None and not toy_move.board.quiet


async def test_seat_prefs_belong_to_seated_users_and_can_be_cleared(svc: TableService) -> None:
    table_id = await open_duel(svc)
    assert await svc.reads.seat_pref(table_id, BOB, "argent.react") is None
    await svc.reads.set_seat_pref(table_id, BOB, "argent.react", "pass")
    await svc.reads.set_seat_pref(table_id, ALICE, "argent.react", "ask")
    assert await svc.reads.seat_pref(table_id, BOB, "argent.react") == "pass"
    assert await svc.reads.seat_prefs(table_id, "argent.react") == {ALICE: "ask", BOB: "pass"}
    await svc.start(table_id, ALICE)  # preferences outlive the lobby
    assert await svc.reads.seat_pref(table_id, BOB, "argent.react") == "pass"
    await svc.reads.set_seat_pref(table_id, BOB, "argent.react", None)
    assert await svc.reads.seat_pref(table_id, BOB, "argent.react") is None
    with pytest.raises(TableError, match="no seat"):
        await svc.reads.set_seat_pref(table_id, DAVE, "argent.react", "pass")
    with pytest.raises(TableError, match="not a setting"):
        await svc.reads.set_seat_pref(table_id, BOB, "two words", "pass")
    with pytest.raises(TableError, match="too long"):
        await svc.reads.set_seat_pref(table_id, BOB, "note", "x" * 201)
    with pytest.raises(TableError, match="does not exist"):
        await svc.reads.set_seat_pref(999, BOB, "note", "x")


async def test_buttons_of_a_finished_or_closed_table_say_it_is_closed(svc: TableService) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    await svc.abandon(table_id, ALICE)
    with pytest.raises(TableError, match="This table is closed"):
        await svc.act(table_id, BOB, "pass", expected_version=0)
    note = await svc.reads.hand(table_id, BOB)
    assert note.choices == ()  # no select of moves on a closed table's private view


class NamedDuel(type(TOY)):  # type: ignore[misc]
    """Sigil Duel whose board calls the seats Red and Blue."""

    kind = "named-toy"
    seat_names = ("Red", "Blue")


async def test_the_seat_legend_uses_the_games_seat_names(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry._GAMES, "named-toy", NamedDuel())
    table_id = await open_kind(svc, "named-toy")
    opening = await svc.start(table_id, ALICE)
    seats = await svc.seats(table_id)
    names = {s.seat: s.name for s in seats}
    assert opening.board is not None
    assert f"Seats: Red {names[0]}, Blue {names[1]}." in opening.board.text
    plain = await open_duel(svc)
    board = (await svc.start(plain, ALICE)).board
    assert board is not None and "Seats: P1 " in board.text


class SentenceDuel(type(TOY)):  # type: ignore[misc]
    """Sigil Duel whose result reason is a whole sentence."""

    kind = "sentence-toy"

    def result(self, state: dict) -> Result | None:
        found = super().result(state)
        return None if found is None else replace(found, reason="Most points win.")


async def test_a_result_reason_ending_in_a_full_stop_is_not_doubled(
    svc: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(registry._GAMES, "sentence-toy", SentenceDuel())
    table_id = await open_kind(svc, "sentence-toy")
    await svc.start(table_id, ALICE)
    last = None
    for _ in range(100):
        record = await svc.table(table_id)
        if record.status != "active":
            break
        waiting = await svc.reads.waiting_on(ALICE)
        user = ALICE if waiting else BOB
        last = await svc.act(table_id, user, (await svc.reads.choices(table_id, user))[0].value)
    assert last is not None and last.board is not None
    assert "(Most points win.)." not in last.board.text and "(Most points win)." in last.board.text


async def test_public_view_holds_the_spectators_view_the_prompts_and_the_seats(
    svc: TableService, store: Store
) -> None:
    table_id = await open_duel(svc)
    with pytest.raises(TableError, match="not started"):
        await svc.reads.public_view(table_id)
    await svc.start(table_id, ALICE)
    _, state = await store.load(table_id)
    seats = await store.seats(table_id)
    seen = await svc.reads.public_view(table_id)
    assert seen.view == TOY.view(state, None) and seen.version == 0 and seen.table.id == table_id
    assert all(p["hand"] is None for p in seen.view["players"])  # nobody's hand: a spectator's view
    assert seen.prompts == tuple(TOY.pending(state)) and {p.seat for p in seen.prompts} == {0, 1}
    assert seen.users == {s.seat: s.user_id for s in seats}
    assert seen.names == {s.seat: s.name for s in seats} and set(seen.names.values()) == {"alice", "bob"}
    assert seen.seat_of(BOB) == next(s.seat for s in seats if s.user_id == BOB) and seen.seat_of(DAVE) is None
    await svc.abandon(table_id, ALICE)
    closed = await svc.reads.public_view(table_id)
    assert closed.prompts == () and closed.table.status == "abandoned"


async def test_seat_views_read_every_asked_seat_at_once_and_carry_the_moves(
    svc: TableService, store: Store
) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    _, state = await store.load(table_id)
    views = await svc.reads.seat_views(table_id, [ALICE, BOB, DAVE])
    assert set(views) == {ALICE, BOB}  # Dave has no seat: left out, not refused
    for user, seen in views.items():
        assert seen == await svc.reads.seat_view(table_id, user)
        legal = TOY.legal_moves(state, seen.seat)
        # Each choice carries its move, so a cog sorts by action without asking the rules.
        assert [c.move for c in seen.moves] == legal
        assert seen.view == TOY.view(state, seen.seat)
    # The move never takes part in equality: a choice from a custom id equals the offered one.
    first = views[ALICE].moves[0]
    assert first == Choice(first.label, first.value)


async def test_public_events_are_public_texts_only_since_a_version_or_back(
    svc: TableService, store: Store
) -> None:
    table_id = await open_duel(svc)
    await svc.start(table_id, ALICE)
    assert await svc.reads.public_events(table_id) == []
    for user in (ALICE, BOB):
        await svc.act(table_id, user, (await svc.reads.choices(table_id, user))[0].value)
    everything = await svc.reads.public_events(table_id)
    records = await store.moves(table_id)
    expected = [e["text"] for r in records for e in r.events if e["seats"] is None]
    assert everything == expected and len(records) == 2
    assert "Seat 0 has locked in a sigil." in everything or "Seat 1 has locked in a sigil." in everything
    assert not any(text.startswith("You chose") for text in everything)  # a private event
    second = [e["text"] for e in records[1].events if e["seats"] is None]
    assert await svc.reads.public_events(table_id, since_version=1) == second
    assert await svc.reads.public_events(table_id, back=1) == second
    assert await svc.reads.public_events(table_id, back=50) == everything
    with pytest.raises(TableError, match="does not exist"):
        await svc.reads.public_events(999)


async def _started(svc: TableService, kind: str, players: int) -> int:
    table = await svc.open_table(kind, None, guild_id=1, channel_id=2, host_id=ALICE, host_name="alice")
    for user, name in [(BOB, "bob"), (CAROL, "carol")][: players - 1]:
        await svc.join(table.id, user, name)
    await svc.start(table.id, ALICE)
    return table.id


async def test_leaving_a_game_in_progress_resigns_and_the_others_play_on(svc: TableService) -> None:
    table_id = await _started(svc, "argent", 3)
    before = await svc.table(table_id)
    reply = await svc.leave(table_id, CAROL)
    assert "play on without you" in reply.answer
    after = await svc.table(table_id)
    assert after.version == before.version + 1 and after.status == "active"
    logged = await svc.store.moves(table_id)
    assert logged[-1].move == {"action": "resign", "args": {}}
    assert await svc.replay(table_id)  # the resignation replays like any move
    with pytest.raises(TableError):
        await svc.leave(table_id, CAROL)  # a second resignation is refused
    assert (await svc.table(table_id)).version == after.version


async def test_leaving_a_game_that_cannot_go_on_points_to_abandon(svc: TableService) -> None:
    table_id = await _started(svc, "institute", 2)
    before = await svc.table(table_id)
    with pytest.raises(TableError, match=r"cannot go on without a player.*abandon"):
        await svc.leave(table_id, BOB)
    assert (await svc.table(table_id)).version == before.version
