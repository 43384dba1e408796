"""Undo through the move log, spectators and the public history (Sigil Duel, hand-moved clock)."""

from __future__ import annotations

import asyncio
import io
import json

import pytest

from service import TableError
from service.repeats import REPEAT_WINDOW
from tests.async_helpers import ALICE, BOB, DAVE, Harness

pytestmark = pytest.mark.usefixtures("toy_registered")


async def play(h: Harness, table_id: int, user_id: int, label: str | None = None) -> None:
    """Play the move with this label (or the first choice) for the user."""
    assert h.svc is not None
    choices = await h.svc.reads.choices(table_id, user_id)
    chosen = next(c for c in choices if label is None or c.label == label)
    await h.svc.act(table_id, user_id, chosen.value)


async def to_the_draw(h: Harness) -> tuple[int, int, int]:
    """Both mages choose; return the table, the lowest mage (on turn) and the other."""
    assert h.svc is not None
    table = await h.table()
    await play(h, table, ALICE)
    await play(h, table, BOB)
    view = await h.svc.reads.public_view(table)
    lowest = view.users[view.prompts[0].seat]
    return table, lowest, BOB if lowest == ALICE else ALICE


async def test_undo_takes_back_your_own_move_and_tells_the_thread(h: Harness) -> None:
    assert h.svc is not None
    table, lowest, _ = await to_the_draw(h)
    before = await h.svc.reads.public_view(table)
    await play(h, table, lowest, "Pass")
    reply = await h.svc.play.undo(table, lowest)
    assert reply.board is not None and "took back: Pass." in reply.board.text
    after = await h.svc.reads.public_view(table)
    assert after.view == before.view and after.prompts == before.prompts
    assert after.version == before.version + 2, "the undo is a row of the move log, version-checked"
    assert await h.svc.replay(table) and await h.svc.history.rebuild_check(table)
    h.clock.advance(REPEAT_WINDOW)  # asked again later: a second request, not a double send
    again = await h.svc.play.undo(table, lowest)
    assert again.board is None and "The others must agree" in again.answer, (
        "taking back the secret choice before needs the others' vote"
    )


async def test_nothing_to_take_back_before_your_first_move(h: Harness) -> None:
    assert h.svc is not None
    table = await h.table()
    with pytest.raises(TableError, match="no move to take back"):
        await h.svc.play.undo(table, ALICE)


async def test_undo_works_after_a_restart(h: Harness) -> None:
    table, lowest, _ = await to_the_draw(h)
    await play(h, table, lowest, "Pass")
    svc = await h.restart()
    reply = await svc.play.undo(table, lowest)
    assert reply.answer == "You took back: Pass."
    assert await svc.replay(table)


async def test_two_undo_clicks_undo_once(h: Harness) -> None:
    assert h.svc is not None
    table, lowest, _ = await to_the_draw(h)
    await play(h, table, lowest, "Pass")
    version = (await h.svc.table(table)).version
    results = await asyncio.gather(
        h.svc.play.undo(table, lowest, expected_version=version),
        h.svc.play.undo(table, lowest, expected_version=version),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, TableError)]
    assert len(refused) == 1 and "moved on" in refused[0].sentence
    assert (await h.svc.table(table)).version == version + 1


async def test_undo_after_a_reveal_needs_the_others_vote(h: Harness) -> None:
    assert h.svc is not None
    table, lowest, other = await to_the_draw(h)
    await play(h, table, lowest, "Draw a sigil")
    version = (await h.svc.table(table)).version
    reply = await h.svc.play.undo(table, lowest)
    assert reply.board is None and "showed something that was hidden" in reply.answer
    assert (await h.svc.table(table)).version == version, "nothing was taken back yet"
    vote = h.notices("vote")[-1]
    assert vote.topic.startswith("undo:") and vote.ping == (other,)
    with pytest.raises(TableError, match="Only the other"):
        await h.svc.play.vote(table, lowest, vote.topic, "yes")
    assert "taken back" in await h.svc.play.vote(table, other, vote.topic, "yes")
    assert (await h.svc.table(table)).version == version + 1
    assert await h.svc.replay(table)


async def test_undo_after_another_player_moved_needs_a_vote_and_no_keeps_it(h: Harness) -> None:
    assert h.svc is not None
    table, lowest, other = await to_the_draw(h)
    await play(h, table, lowest, "Pass")
    await play(h, table, other)  # the next round's secret choice
    reply = await h.svc.play.undo(table, lowest)
    assert "other players have moved since" in reply.answer
    topic = h.notices("vote")[-1].topic
    assert "stays" in await h.svc.play.vote(table, other, topic, "no")
    assert "keep the move" in h.notices("decided")[-1].text


async def test_an_undo_vote_lapses_when_someone_moves_or_after_a_day(h: Harness) -> None:
    assert h.svc is not None
    table, lowest, other = await to_the_draw(h)
    await play(h, table, lowest, "Draw a sigil")
    await h.svc.play.undo(table, lowest)
    topic = h.notices("vote")[-1].topic
    await h.wait(24 * 3600)
    assert "lapsed" in h.notices("decided")[-1].text
    await play(h, table, other)
    with pytest.raises(TableError, match="lapsed"):
        await h.svc.play.vote(table, other, topic, "yes")


# ---------------------------------------------------------------------- spectators


async def test_spectators_get_public_boards_and_nothing_private(h: Harness) -> None:
    assert h.svc is not None
    table = await h.table()
    assert "You follow" in await h.svc.play.watch(table, DAVE)
    assert "already" in await h.svc.play.watch(table, DAVE)
    with pytest.raises(TableError, match="You play at this table"):
        await h.svc.play.watch(table, ALICE)
    for _ in range(6):
        for user in (ALICE, BOB):
            choices = await h.svc.reads.choices(table, user)
            if choices:
                await h.svc.act(table, user, choices[0].value)
    seen = h.notices("spectate", DAVE)
    assert seen, "dave got boards at the turn changes"
    secrets = [
        e["text"] for r in await h.store.moves(table) for e in r.events if e.get("seats") is not None  # type: ignore[union-attr]
    ]
    assert secrets, "the game had private events"
    for notice in seen:
        assert notice.board is not None and notice.board.ping == ()
        assert not any(s in notice.text for s in secrets)
    await h.svc.play.unwatch(table, DAVE)
    count = len(h.notices("spectate"))
    choices = await h.svc.reads.choices(table, ALICE) or await h.svc.reads.choices(table, BOB)
    assert choices
    with pytest.raises(TableError, match="do not follow"):
        await h.svc.play.unwatch(table, DAVE)
    assert len(h.notices("spectate")) == count


async def test_a_table_without_spectators_refuses_watchers(h: Harness) -> None:
    assert h.svc is not None
    table = await h.table(options="spectators=off")
    with pytest.raises(TableError, match="without spectators"):
        await h.svc.play.watch(table, DAVE)


# ---------------------------------------------------------------------- history


async def test_the_log_pages_and_the_history_hold_only_public_events(h: Harness) -> None:
    assert h.svc is not None and h.store is not None
    table, lowest, _ = await to_the_draw(h)
    await play(h, table, lowest, "Pass")
    await h.svc.play.undo(table, lowest)
    newest = await h.svc.history.log_page(table, 0, size=2)
    older = await h.svc.history.log_page(table, 1, size=2)
    assert newest.pages >= 3 and newest.lines[-1].endswith("took back: Pass.")
    assert older.lines != newest.lines
    text, data = await h.svc.history.history(table)
    parsed = json.loads(data)
    assert [m["version"] for m in parsed["moves"]] == list(range(1, len(parsed["moves"]) + 1))
    assert parsed["moves"][-2]["undone"] and parsed["moves"][-2]["move"] == "(taken back)"
    # A sigil is chosen in secret: the public history names the move, never the sigil.
    assert parsed["moves"][0]["move"] == "Choose" and "Choose sigil" not in text
    mover = parsed["moves"][0]["seat"]
    _, own_data = await h.svc.history.history(table, (await h.svc.reads.public_view(table)).users[mover])
    own = json.loads(own_data)["moves"]
    assert own[0]["move"].startswith("Choose sigil"), "a player's own copy names their moves in full"
    assert own[1]["move"] == "Choose", "and never the other seat's secret"
    private = [e["text"] for r in await h.store.moves(table) for e in r.events if e.get("seats") is not None]
    assert private and not any(p in text or p in data for p in private)


async def test_the_replay_has_one_frame_per_turn() -> None:
    from PIL import Image

    from render.replay import gif as _gif

    frames = []
    for shade in (10, 90, 170, 250):
        image = Image.new("RGB", (64, 32), (shade, shade, shade))
        out = io.BytesIO()
        image.save(out, format="PNG")
        frames.append(out.getvalue())
    gif = Image.open(io.BytesIO(_gif(frames)))
    assert gif.n_frames == 4


async def test_the_replay_of_an_institute_game_has_a_frame_per_turn_under_8_mb(h: Harness) -> None:
    from PIL import Image

    assert h.svc is not None
    table = await h.table("institute")
    turns = 0
    for _ in range(6):
        view = await h.svc.reads.public_view(table)
        waiting = sorted({p.seat for p in view.prompts})
        user = view.users[waiting[0]]
        # Stamped as autocomplete offers them: the same reroll twice in a row is meant, not a double send.
        choices = await h.svc.reads.choices(table, user, stamped=True)
        await h.svc.act(table, user, choices[0].value)
        after = await h.svc.reads.public_view(table)
        turns += sorted({p.seat for p in after.prompts}) != waiting
    data = await h.svc.history.replay_image(table)
    assert data is not None and len(data) < 8 * 1024 * 1024
    assert Image.open(io.BytesIO(data)).n_frames == turns + 1



async def test_the_store_check_replays_a_log_with_an_undo_and_a_clock_option(h: Harness) -> None:
    from store.check import check_table

    assert h.svc is not None and h.store is not None
    table, lowest, _ = await to_the_draw(h)
    await play(h, table, lowest, "Pass")
    await h.svc.play.undo(table, lowest)
    assert (await h.svc.table(table)).options.get("clock") is None
    fast = await h.table(options="clock=fast")
    await play(h, fast, ALICE)
    for table_id in (table, fast):
        finding = await check_table(h.store, table_id)
        assert finding.verdict == "sound", finding.line()
