"""A table page's seats list with each game's scores, and pages read by version, not per request (issue 30).

The scores come from the game's public view (``Rules.public_scores``) through the service's read
side. What a page shows is kept per table and version: while a live watcher looks at a table
(one read of its row a poll), its pages, steps and boards read no database however many ask.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from rules import registry
from service.pages import COOPERATIVE
from tests.async_helpers import ALICE, BOB, CAROL, Harness
from tests.web_helpers import links, play_first_moves, web_client
from web.app import LIVE

UNITS = {"argent": "IP", "institute": "VP", "quadrivium": "Council Votes"}


@pytest.mark.parametrize(
    ("kind", "users"),
    [("argent", (ALICE, BOB, CAROL)), ("institute", (ALICE, BOB)), ("quadrivium", (ALICE, BOB, CAROL)),
     ("academy", (ALICE, BOB))],
)
async def test_the_seats_list_shows_each_seats_score_from_the_public_view(
    h: Harness, kind: str, users: tuple[int, ...]
) -> None:
    assert h.svc is not None
    table_id = await h.table(kind, users=users)
    await play_first_moves(h, table_id, 3)
    public = await h.svc.reads.public_view(table_id)
    scores = registry.get(kind).public_scores(public.view)
    base = f"/t/{links().table_token(table_id)}"
    async with web_client(h.svc) as client:
        page = await (await client.get(base)).text()
        step = await (await client.get(f"{base}/step/{public.version}.json")).json()
    if kind == "academy":  # cooperative: nobody scores apart, and the page says why
        assert scores == {} and "<th scope='col'>Score</th>" not in page and COOPERATIVE in page
        assert {s["score"] for s in step["seats"]} == {""}
        return
    assert sorted(scores) == list(range(len(users)))
    assert "<th scope='col'>Score</th>" in page
    for seat, score in scores.items():
        assert UNITS[kind] in score
        assert f"<tr data-seat='{seat}'>" in page and f"<td class='score'>{score}</td>" in page
    # The live page's script refreshes the seats from each new step.
    assert {s["seat"]: s["score"] for s in step["seats"]} == scores


def counting_reads(h: Harness, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the store's reads of a table's row from now on."""
    assert h.store is not None
    reads: list[int] = []
    real = h.store.table

    async def table(table_id: int) -> Any:
        reads.append(table_id)
        return await real(table_id)

    monkeypatch.setattr(h.store, "table", table)
    return reads


async def test_a_watched_tables_pages_steps_and_boards_read_no_database_however_many_ask(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    base = f"/t/{links().table_token(table_id)}"
    async with web_client(h.svc, poll=0.05) as client:
        stream = await client.get(f"{base}/live")
        assert await stream.content.readuntil(b"\n\n") == b"event: version\ndata: 0\n\n"
        await play_first_moves(h, table_id, 1)
        assert await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5) == b"event: version\ndata: 1\n\n"
        client.app[LIVE].poll = 3600.0  # the watcher's next look comes after the burst below
        await asyncio.sleep(0.2)
        reads = counting_reads(h, monkeypatch)
        paths = [base, f"{base}/step/1.json", f"{base}/board/1.png", f"{base}/step/0.json"]
        answers = await asyncio.gather(*(client.get(path) for path in paths for _ in range(100)))
        assert [a.status for a in answers] == [200] * 400
        assert "Version 1:" in await answers[0].text()
        assert reads == [], "400 requests of a watched table: its row comes from the watcher"
        stream.close()


async def test_an_unwatched_tables_page_reads_its_row_once_per_request(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    base = f"/t/{links().table_token(table_id)}"
    async with web_client(h.svc) as client:
        await client.get(base)  # the page of version 0 is kept
        reads = counting_reads(h, monkeypatch)
        for _ in range(3):
            assert (await client.get(base)).status == 200
        assert reads == [table_id] * 3, "one read of the row a request, which says the page is current"
        await play_first_moves(h, table_id, 1)
        assert "Version 1:" in await (await client.get(base)).text(), "a move shows at the next request"


async def test_a_live_page_hears_an_undo_and_its_version_shows_the_table_after_it(h: Harness) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    base = f"/t/{links().table_token(table_id)}"
    await play_first_moves(h, table_id, 2)
    async with web_client(h.svc, poll=0.05) as client:
        stream = await client.get(f"{base}/live")
        await stream.content.readuntil(b"\n\n")
        seat_of = {s.seat: s.user_id for s in await h.svc.seats(table_id)}
        last = (await h.svc.store.moves(table_id))[-1]
        asker = seat_of[last.seat]
        await h.svc.play.undo(table_id, asker)
        if (await h.svc.table(table_id)).version == last.version:  # the others vote on taking it back
            other = next(user for user in seat_of.values() if user != asker)
            await h.svc.play.vote(table_id, other, h.notices("vote")[-1].topic, "yes")
        table = await h.svc.table(table_id)
        assert table.version > last.version
        told = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
        assert told == f"event: version\ndata: {table.version}\n\n".encode()
        step = await (await client.get(f"{base}/step/{table.version}.json")).json()
        assert step["version"] == step["versions"][-1] < table.version, "the table after the undo"
        assert last.version not in step["versions"]
        stream.close()


async def test_the_page_is_semantic_html_with_the_boards_text_as_alt_and_the_thread_and_replay_links(
    h: Harness,
) -> None:
    from html import escape

    from service.replies import alt_text

    assert h.svc is not None
    table_id = await h.table("institute")
    await h.svc.attach_thread(table_id, 555)
    await play_first_moves(h, table_id, 2)
    public = await h.svc.reads.public_view(table_id)
    base = f"/t/{links().table_token(table_id)}"
    async with web_client(h.svc) as client:
        page = await (await client.get(base)).text()
        replay = await client.get(f"{base}/replay.gif")
        assert replay.status == 200 and (await replay.read())[:6] in (b"GIF87a", b"GIF89a")
        assert replay.headers["Content-Disposition"].startswith("attachment;")
    assert page.startswith("<!doctype html>") and "<html lang='en'>" in page
    landmarks = ("<header>", "<main id='table'", "<footer>", "<section aria-labelledby='board-h'",
                 "<section aria-labelledby='seats-h'", "<section aria-labelledby='log-h'",
                 "<th scope='col'>Seat</th>", "<label for='slider'>History</label>", "<form role='search'")
    for landmark in landmarks:
        assert landmark in page, landmark
    view_text = registry.get("institute").view_text(public.view)
    assert f"alt='{escape(alt_text(view_text))}'" in page, "the board's alt text is its text view"
    assert "href='https://discord.com/channels/1/555'" in page
    assert f"href='{base}/replay.gif' download" in page
    # The awaited seats' time left (the harness's tables run the normal clock).
    assert "<td class='time'>until 20" in page


async def test_signed_addresses_are_checked_in_constant_time(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    import hmac

    from service import weblinks

    assert h.svc is not None
    table_id = await h.table("institute")
    compared: list[int] = []
    real = hmac.compare_digest

    def compare(a: Any, b: Any) -> bool:
        compared.append(1)
        return real(a, b)

    monkeypatch.setattr(weblinks.hmac, "compare_digest", compare)
    async with web_client(h.svc) as client:
        assert (await client.get(f"/t/{table_id}-{'0' * 24}")).status == 404
        alices = links().seat_path(table_id, ALICE, int(h.clock.now()) + 600)
        assert (await client.get(alices.replace(f"/{ALICE}/", f"/{BOB}/"))).status == 403
    assert len(compared) == 2


def test_the_public_url_starts_every_link_handed_out() -> None:
    from web import WebConfig

    config = WebConfig.from_env({"CONCLAVE_WEB": "0.0.0.0:8080", "CONCLAVE_PUBLIC_URL": "https://games.example/"})
    assert config is not None and config.public_url == "https://games.example"
    assert WebConfig.from_env({}) is None, "no CONCLAVE_WEB: no web server"
