"""The web pages through aiohttp's test client: addresses, boards by version, seats, safety (issue 30)."""

from __future__ import annotations

import asyncio

import pytest

from service.weblinks import WebLinks
from tests.async_helpers import ALICE, BOB, CAROL, Harness
from tests.web_helpers import links, play_first_moves, web_client
from web.app import PAGES, RateCap


async def test_a_table_page_opens_only_at_its_signed_address(h: Harness) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    async with web_client(h.svc) as client:
        good = await client.get(f"/t/{links().table_token(table_id)}")
        assert good.status == 200
        page = await good.text()
        assert "<img id='board'" in page and "alice" in page
        for forged in (str(table_id), f"{table_id}-{'0' * 24}", links().table_token(table_id)[:-1] + "x"):
            refused = await client.get(f"/t/{forged}")
            assert refused.status == 404, forged
        other = WebLinks(b"another secret", "x").table_token(table_id)
        assert (await client.get(f"/t/{other}")).status == 404


async def test_every_answer_carries_the_security_headers(h: Harness) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    token = links().table_token(table_id)
    async with web_client(h.svc) as client:
        for path in ("/", f"/t/{token}", f"/t/{token}/board/0.png", "/t/nothing", "/healthz",
                     "/static/page.js"):
            answer = await client.get(path)
            csp = answer.headers["Content-Security-Policy"]
            assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp, path
            assert "unsafe-inline" not in csp
            assert answer.headers["X-Frame-Options"] == "DENY"
            assert answer.headers["Referrer-Policy"] == "no-referrer"
        assert (await client.post(f"/t/{token}")).status == 405


async def test_history_shows_each_version_board_and_events_and_draws_it_once(h: Harness) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    await play_first_moves(h, table_id, 6)
    token = links().table_token(table_id)
    async with web_client(h.svc) as client:
        table = await h.svc.table(table_id)
        versions = [int(v) for v in (await (await client.get(f"/t/{token}/step/0.json")).json())["versions"]]
        assert versions[0] == 0 and versions[-1] == table.version and len(versions) == table.version + 1
        first = await client.get(f"/t/{token}/board/0.png")
        last = await client.get(f"/t/{token}/board/{table.version}.png")
        assert first.status == last.status == 200
        assert (await first.read())[:8] == b"\x89PNG\r\n\x1a\n"
        assert await first.read() != await last.read()
        step = await (await client.get(f"/t/{token}/step/{versions[-1]}.json")).json()
        assert step["events"] and step["heading"].startswith(f"Version {versions[-1]}:")
        permalink = await (await client.get(f"/t/{token}?v=1")).text()
        assert "Version 1:" in permalink
        assert (await client.get(f"/t/{token}?v=999")).status == 404
        # A hundred requests for one version at once: one drawing.
        pages = client.app[PAGES]
        before = pages.drawings
        answers = await asyncio.gather(*(client.get(f"/t/{token}/board/2.png") for _ in range(100)))
        assert all(a.status == 200 for a in answers)
        assert pages.drawings - before == 1


async def test_the_log_is_searchable(h: Harness) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    await play_first_moves(h, table_id, 4)
    token = links().table_token(table_id)
    async with web_client(h.svc) as client:
        whole = await (await client.get(f"/t/{token}")).text()
        found = await (await client.get(f"/t/{token}?q=zzzz-no-such-words")).text()
        assert whole.count("<li data-words=") == (await h.svc.table(table_id)).version + 1
        assert found.count("<li data-words=") == 0


async def test_a_seat_link_shows_that_seat_only_until_it_expires(h: Harness) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    now = h.clock.now()
    signer = links()
    async with web_client(h.svc) as client:
        path = signer.seat_path(table_id, ALICE, int(now) + 600)
        page = await client.get(path)
        assert page.status == 200
        body = await page.text()
        mine = await h.svc.reads.hand(table_id, ALICE)
        assert "Your private view" in body and mine.text.splitlines()[0][:20] in body
        assert page.headers["Cache-Control"] == "no-store"
        assert (await client.get(path + "/sheet.png")).status == 200
        # Another user in the same link, another table, or a changed expiry: refused.
        for forged in (path.replace(f"/{ALICE}/", f"/{BOB}/"), path.replace(f"/{table_id}/", "/999/", 1),
                       path.replace(f"/{int(now) + 600}/", f"/{int(now) + 9999}/")):
            refused = await client.get(forged)
            assert refused.status == 403 and "not valid" in await refused.text()
        # A user who holds no seat gets nothing even with a valid signature.
        stranger = await client.get(signer.seat_path(table_id, CAROL, int(now) + 600))
        assert stranger.status == 403
        h.clock.advance(601)
        expired = await client.get(path)
        assert expired.status == 403 and "expired" in await expired.text()


async def test_live_pages_hear_each_new_version(h: Harness) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    token = links().table_token(table_id)
    async with web_client(h.svc) as client:
        streams = [await client.get(f"/t/{token}/live") for _ in range(5)]
        for stream in streams:
            assert stream.headers["Content-Type"] == "text/event-stream"
            assert await stream.content.readuntil(b"\n\n") == b"event: version\ndata: 0\n\n"
        await play_first_moves(h, table_id, 1)
        for stream in streams:
            line = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5)
            assert line == b"event: version\ndata: 1\n\n"
            stream.close()


async def test_health_and_metrics(h: Harness) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    await play_first_moves(h, table_id, 2)
    async with web_client(h.svc, discord="ready") as client:
        health = await client.get("/healthz")
        assert health.status == 200
        report = await health.json()
        assert report["loop"] == "ok" and report["store"] == "ok" and report["discord"] == "ready"
        text = await (await client.get("/metrics")).text()
        assert 'conclave_moves_applied_total{kind="institute"}' in text
        assert "conclave_move_seconds_bucket" in text
        assert "conclave_tables_active 1.0" in text
        assert "conclave_scheduler_lag_seconds" in text
        assert "conclave_discord_errors" in text
        assert h.store is not None
        await h.store.close()
        h.store = None
        dead = await client.get("/healthz")
        assert dead.status == 503 and (await dead.json())["store"].startswith("error")


async def test_an_address_past_its_rate_is_held_back(h: Harness) -> None:
    assert h.svc is not None
    async with web_client(h.svc, rate=RateCap(0.001, 5)) as client:
        statuses = [(await client.get("/")).status for _ in range(8)]
        assert statuses[:5] == [200] * 5 and statuses[5:] == [429] * 3


async def test_an_unknown_address_gets_the_plain_refusal_page(h: Harness) -> None:
    assert h.svc is not None
    async with web_client(h.svc) as client:
        answer = await client.get("/favicon.ico")
        assert answer.status == 404 and "/game web" in await answer.text()
        assert answer.headers["X-Frame-Options"] == "DENY"


async def test_the_docker_health_check_asks_healthz(h: Harness) -> None:
    import web
    from web.health import check

    assert h.svc is not None
    assert await asyncio.to_thread(check, None) == 0  # no web server: nothing to ask
    server = await web.start(h.svc, web.WebConfig("127.0.0.1", 0))
    try:
        address = server.url.removeprefix("http://")
        assert await asyncio.to_thread(check, address) == 0
        assert h.store is not None
        await h.store.close()
        h.store = None
        assert await asyncio.to_thread(check, address) == 1  # the store does not answer
    finally:
        await server.stop()
    assert await asyncio.to_thread(check, address, 1.0) == 1  # nobody listens


def test_a_missing_browser_is_said_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests import browser

    monkeypatch.setattr(browser, "CHROMIUM", ("/nowhere/chromium",))
    monkeypatch.setattr(browser.shutil, "which", lambda name: None)
    with pytest.raises(browser.BrowserMissing, match="no chromium"):
        browser.start()
    monkeypatch.setenv("CI", "1")
    assert browser.required()


async def test_a_server_page_lists_its_tables_only_once_its_moderators_turn_it_on(h: Harness) -> None:
    assert h.svc is not None
    table_id = await h.table("institute")
    token = links().server_token(1)  # the harness opens its tables in server 1
    async with web_client(h.svc) as client:
        assert (await client.get(f"/g/{token}")).status == 404
        await h.svc.servers.set_server_setting(1, "web", "on")
        page = await client.get(f"/g/{token}")
        assert page.status == 200
        assert f"/t/{links().table_token(table_id)}" in await page.text()
        assert (await client.get(f"/g/{links().server_token(2)}")).status == 404
        assert (await client.get(f"/g/1-{'0' * 24}")).status == 404
        await h.svc.servers.set_server_setting(1, "web", "off")
        assert (await client.get(f"/g/{token}")).status == 404


async def test_a_closed_live_page_stops_its_stream_and_the_tables_watcher(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    from web import app as web_app
    from web.app import LIVE

    assert h.svc is not None
    monkeypatch.setattr(web_app, "HEARTBEAT", 0.05)
    table_id = await h.table("institute")
    token = links().table_token(table_id)
    async with web_client(h.svc) as client:
        stream = await client.get(f"/t/{token}/live")
        await stream.content.readuntil(b"\n\n")
        assert client.app[LIVE].watchers(table_id) == 1
        stream.close()
        for _ in range(100):
            if client.app[LIVE].watchers(table_id) == 0:
                break
            await asyncio.sleep(0.05)
        assert client.app[LIVE].watchers(table_id) == 0


async def test_behind_a_proxy_each_visitor_has_their_own_rate(h: Harness) -> None:
    from aiohttp.test_utils import TestClient, TestServer

    from web.app import create_app

    assert h.svc is not None
    app = create_app(h.svc, links(), rate=RateCap(0.001, 2), behind_proxy=True)
    async with TestClient(TestServer(app)) as client:
        first = [(await client.get("/", headers={"X-Forwarded-For": "forged, 10.0.0.1"})).status
                 for _ in range(3)]
        other = (await client.get("/", headers={"X-Forwarded-For": "10.0.0.2"})).status
        assert first == [200, 200, 429] and other == 200


async def test_a_lobby_has_a_page_without_a_board_and_a_gone_table_none(h: Harness) -> None:
    assert h.svc is not None
    record = await h.svc.open_table("institute", "", guild_id=1, channel_id=2, host_id=ALICE,
                                    host_name="alice")
    async with web_client(h.svc) as client:
        lobby = await client.get(f"/t/{links().table_token(record.id)}")
        assert lobby.status == 200
        text = await lobby.text()
        assert "Waiting in the lobby." in text and "id='board'" not in text
        assert (await client.get(f"/t/{links().table_token(record.id)}/board/0.png")).status == 404
        assert (await client.get(f"/t/{links().table_token(999)}?v=1")).status == 404
