"""Shared setup for the web tests: a service's web application under aiohttp's test client."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from aiohttp.test_utils import TestClient, TestServer

from service import TableError
from service.tables import TableService
from service.weblinks import WebLinks
from tests.async_helpers import ALICE, BOB, CAROL, Harness
from web.app import RateCap, create_app

SECRET = b"test-secret-for-the-web-pages"


def links(base: str = "http://conclave.test") -> WebLinks:
    """Return the link signer the tests' applications use."""
    return WebLinks(SECRET, base)


@asynccontextmanager
async def web_client(
    svc: TableService, *, rate: RateCap | None = None, poll: float = 0.05, discord: str = "ready"
) -> AsyncIterator[TestClient]:
    """Serve the service's pages and yield a client (no rate cap unless one is given)."""
    app = create_app(svc, links(), discord_state=lambda: discord,
                     rate=rate or RateCap(1e6, 1e6), poll=poll)
    async with TestClient(TestServer(app)) as client:
        yield client


async def play_first_moves(h: Harness, table_id: int, count: int) -> None:
    """Play ``count`` moves: each time, the first legal move of the seat the game waits on."""
    assert h.svc is not None and h.store is not None
    for _ in range(count):
        seat_view = None
        for user in (ALICE, BOB, CAROL):
            try:
                seat_view = await h.svc.reads.seat_view(table_id, user)
            except TableError:  # no seat at this table
                continue
            if seat_view.moves:
                await h.svc.act(table_id, user, seat_view.moves[0].value, expected_version=seat_view.version)
                break
