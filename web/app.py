"""The read-only web application: table pages, seat pages, server pages, health and metrics.

GET only; every page reads through the service (``service.pages.TablePages`` and the service's
read calls), never a state. Tables and servers are named by signed tokens, seats by signed,
expiring links (``service.weblinks``). Every answer carries strict security headers, and each
address is held to a request rate.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from service import TableError
from service import metrics as numbers
from service.pages import TablePages
from service.tables import TableService
from service.weblinks import WebLinks
from web import html
from web.live import CLOSED, Live

log = logging.getLogger("conclave.web")

STATIC = Path(__file__).parent / "static"
HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self';"
        " base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""Sent with every answer: no inline script or style, no framing, no referrer leaving a page
(a seat link in a Referer header would hand the seat's view to another site)."""
RATE = 10.0
BURST = 120.0
"""Requests per second per address, and the burst a page load (page, board, script, stream) may
spend at once; past it an address is answered 429 until its bucket refills."""
HEARTBEAT = 15.0
"""Seconds between keep-alive comments on a live stream (proxies close silent connections)."""
NOT_FOUND = "There is no such page. Ask for the table's link again with /game web."
PAGES = web.AppKey("pages", TablePages)
LIVE = web.AppKey("live", Live)
LINKS = web.AppKey("links", WebLinks)
STATE = web.AppKey("state", dict)


class RateCap:
    """A token bucket per address: ``rate`` requests a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, address: str) -> bool:
        """Spend one request of the address's bucket; False when it is empty."""
        now = self.clock()
        tokens, then = self._buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if len(self._buckets) > 10_000:  # forget idle addresses rather than grow without end
            self._buckets = {a: b for a, b in self._buckets.items() if now - b[1] < 60}
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        self._buckets[address] = (tokens - 1, now)
        return True


def create_app(
    svc: TableService,
    links: WebLinks,
    *,
    discord_state: Callable[[], str] | None = None,
    rate: RateCap | None = None,
    poll: float | None = None,
    behind_proxy: bool = False,
) -> web.Application:
    """Build the application over a service; ``rate`` None: the default cap per address.

    ``behind_proxy``: the visitor's address is the last one in ``X-Forwarded-For`` (what the
    operator's own proxy appended), else every visitor would share the proxy's rate.
    """
    cap = rate or RateCap(RATE, BURST)

    def address(request: web.Request) -> str:
        if behind_proxy:
            forwarded = request.headers.get("X-Forwarded-For", "").split(",")[-1].strip()
            if forwarded:
                return forwarded
        return request.remote or "?"

    @web.middleware
    async def guard(request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                    ) -> web.StreamResponse:
        if request.method not in ("GET", "HEAD"):
            response: web.StreamResponse = web.Response(
                status=405, text="Read only.", headers={"Allow": "GET"}
            )
        elif not cap.allow(address(request)):
            response = web.Response(status=429, text="Too many requests: wait a moment.",
                                    headers={"Retry-After": "2"})
        else:
            try:
                response = await handler(request)
            except Refused as exc:
                response = _refuse(exc.status, exc.title, exc.sentence)
            except web.HTTPException as exc:  # no such route (404), a method not allowed...
                sentence = NOT_FOUND if exc.status == 404 else exc.reason
                response = _refuse(exc.status, exc.reason, sentence)
        if not response.prepared:
            response.headers.update(HEADERS)
        return response

    app = web.Application(middlewares=[guard])
    pages = TablePages(svc)
    app[PAGES] = pages
    app[LINKS] = links
    app[LIVE] = Live(pages) if poll is None else Live(pages, poll)
    app[STATE] = {"discord": discord_state or (lambda: "none"), "svc": svc}
    app.router.add_get("/", _index)
    app.router.add_get("/healthz", _health)
    app.router.add_get("/metrics", _metrics)
    app.router.add_get("/static/{name:page\\.(?:js|css)}", _static)
    app.router.add_get("/t/{token}", _table)
    app.router.add_get("/t/{token}/board/{version:[0-9]{1,18}}.png", _board)
    app.router.add_get("/t/{token}/step/{version:[0-9]{1,18}}.json", _step)
    app.router.add_get("/t/{token}/replay.gif", _replay)
    app.router.add_get("/t/{token}/live", _live)
    app.router.add_get("/seat/{table}/{user}/{expires}/{mac}", _seat)
    app.router.add_get("/seat/{table}/{user}/{expires}/{mac}/sheet.png", _sheet)
    app.router.add_get("/g/{token}", _server)

    async def closing(app: web.Application) -> None:
        await app[LIVE].close()

    app.on_shutdown.append(closing)
    return app


class Refused(Exception):
    """A request answered with a plain refusal page (raised deep, answered by the guard)."""

    def __init__(self, status: int, title: str, sentence: str) -> None:
        super().__init__(sentence)
        self.status, self.title, self.sentence = status, title, sentence


def _refuse(status: int, title: str, sentence: str) -> web.Response:
    return web.Response(status=status, text=html.refusal(title, sentence), content_type="text/html")


def _table_id(request: web.Request) -> int:
    table_id = request.app[LINKS].table_of(request.match_info["token"])
    if table_id is None:
        raise Refused(404, "Not found", NOT_FOUND)
    return table_id


def _base(request: web.Request, table_id: int) -> str:
    return f"/t/{request.app[LINKS].table_token(table_id)}"


async def _index(request: web.Request) -> web.Response:
    return web.Response(text=html.index_page(), content_type="text/html")


async def _static(request: web.Request) -> web.Response:
    name = request.match_info["name"]
    kind = "text/javascript" if name.endswith(".js") else "text/css"
    return web.Response(text=(STATIC / name).read_text(), content_type=kind,
                        headers={"Cache-Control": "max-age=300"})


async def _table(request: web.Request) -> web.Response:
    table_id = _table_id(request)
    pages = request.app[PAGES]
    wanted = request.query.get("v", "")
    try:
        table = await pages.current(table_id)  # one read of the row, or none while watched live
        page = await pages.table_page(table_id, table)
        steps = await pages.steps(table_id, table) if page.versions else []
        step = None
        if steps:
            step = await pages.step(table_id, int(wanted), table) if wanted.isdigit() else steps[-1]
    except TableError as exc:
        return _refuse(404, "Not found", exc.sentence if wanted else NOT_FOUND)
    alt = pages.describe(table_id, page.table.kind, step) if step else ""
    view_text = pages.view_text(table_id, page.table.kind, step) if step else ""
    thread = None
    if page.thread_id and page.guild_id:
        thread = f"https://discord.com/channels/{page.guild_id}/{page.thread_id}"
    body = html.table_page(page, _base(request, table_id), step, steps, alt, view_text,
                           request.query.get("q", "")[:100], thread)
    return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-cache"})


async def _board(request: web.Request) -> web.Response:
    table_id = _table_id(request)
    try:
        image = await request.app[PAGES].board_image(table_id, int(request.match_info["version"]))
    except TableError as exc:
        return _refuse(404, "Not found", exc.sentence)
    if image is None:
        return _refuse(404, "No drawing", "This game has no board drawing: the page shows it as text.")
    # A version's board never changes: it may be kept as long as a browser likes.
    return web.Response(body=image, content_type="image/png",
                        headers={"Cache-Control": "public, max-age=86400, immutable"})


async def _step(request: web.Request) -> web.Response:
    table_id = _table_id(request)
    pages = request.app[PAGES]
    try:
        version = int(request.match_info["version"])
        table = await pages.current(table_id, at_least=version)
        step = await pages.step(table_id, version, table)
        page = await pages.table_page(table_id, table)
    except TableError as exc:
        return web.json_response({"error": exc.sentence}, status=404)
    kind = page.table.kind
    data = {
        "version": step.version, "heading": html.step_heading(step), "events": list(step.events),
        "alt": pages.describe(table_id, kind, step), "text": pages.view_text(table_id, kind, step),
        "status": html.status_line(page), "waiting": page.waiting or page.result, "latest": page.version,
        "versions": list(page.versions),
        "seats": [{"seat": s.seat, "score": s.score, "time": s.time_left} for s in page.seats],
    }
    return web.json_response(data, headers={"Cache-Control": "no-cache"})


async def _replay(request: web.Request) -> web.Response:
    table_id = _table_id(request)
    try:
        image = await request.app[STATE]["svc"].history.replay_image(table_id)
    except TableError as exc:
        return _refuse(404, "Not found", exc.sentence)
    if image is None:
        return _refuse(404, "No replay", "This table has no replay yet.")
    return web.Response(body=image, content_type="image/gif", headers={
        "Content-Disposition": f"attachment; filename=\"conclave-{table_id}.gif\""})


async def _live(request: web.Request) -> web.StreamResponse:
    """Stream ``version`` events (Server-Sent Events) while the page is open."""
    table_id = _table_id(request)
    try:
        table = await request.app[STATE]["svc"].table(table_id)
    except TableError:
        raise Refused(404, "Not found", NOT_FOUND) from None
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-cache", **HEADERS})
    await response.prepare(request)
    async with request.app[LIVE].listen(table_id, table.version) as queue:
        try:
            await response.write(f"event: version\ndata: {table.version}\n\n".encode())
            while True:
                try:
                    version = await asyncio.wait_for(queue.get(), HEARTBEAT)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if version == CLOSED:
                    break
                await response.write(f"event: version\ndata: {version}\n\n".encode())
        except ConnectionResetError:
            pass  # the page was closed: its stream ends here
    return response


def _seat_pass(request: web.Request) -> tuple[int, int, int]:
    info = request.match_info
    now = request.app[STATE]["svc"].clock.now()
    seat = request.app[LINKS].seat_pass(info["table"], info["user"], info["expires"], info["mac"], now)
    if seat is None:
        raise Refused(403, "This link does not open",
                      "This private link has expired or is not valid. Ask for a new one with /game web.")
    return seat.table_id, seat.user_id, seat.expires


async def _seat(request: web.Request) -> web.Response:
    table_id, user_id, expires = _seat_pass(request)
    pages = request.app[PAGES]
    try:
        note = await pages.seat_page(table_id, user_id)
        table = await pages.svc.table(table_id)
    except TableError as exc:
        return _refuse(403, "This link does not open", exc.sentence)
    from service.pages import _utc

    body = html.seat_page(pages.svc.thread_name(table), note, f"{request.path}/sheet.png", _utc(expires),
                          _base(request, table_id))
    return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-store"})


async def _sheet(request: web.Request) -> web.Response:
    table_id, user_id, _ = _seat_pass(request)
    try:
        note = await request.app[PAGES].seat_page(table_id, user_id)
    except TableError as exc:
        return _refuse(403, "This link does not open", exc.sentence)
    image = await request.app[PAGES].svc.reads.image(note)
    if image is None:
        return _refuse(404, "No drawing", "This view has no drawing: the page shows it as text.")
    return web.Response(body=image, content_type="image/png", headers={"Cache-Control": "no-store"})


async def _server(request: web.Request) -> web.Response:
    links = request.app[LINKS]
    guild_id = links.server_of(request.match_info["token"])
    if guild_id is None:
        return _refuse(404, "Not found", NOT_FOUND)
    try:
        tables = await request.app[STATE]["svc"].servers.web_tables(guild_id)
    except TableError:
        return _refuse(404, "Not found", NOT_FOUND)
    urls = {t.table.id: f"/t/{links.table_token(t.table.id)}" for t in tables}
    return web.Response(text=html.server_page("This server's tables", tables, urls), content_type="text/html")


async def _health(request: web.Request) -> web.Response:
    """Say whether the event loop and the store answer, and Discord's connection state."""
    svc: TableService = request.app[STATE]["svc"]
    started = time.perf_counter()
    await asyncio.sleep(0)
    report: dict[str, Any] = {"loop": "ok", "loop_ms": round((time.perf_counter() - started) * 1000, 2)}
    try:
        await asyncio.wait_for(svc.store.get_meta("health"), 5)
        report["store"] = "ok"
    except Exception as exc:  # any failure: the store does not answer
        report["store"] = f"error: {type(exc).__name__}"
    report["discord"] = request.app[STATE]["discord"]()
    # Discord reconnects by itself: only a dead store makes the process unhealthy (and restarted).
    status = 200 if report["store"] == "ok" else 503
    return web.Response(status=status, text=json.dumps(report), content_type="application/json",
                        headers={"Cache-Control": "no-store"})


async def _metrics(request: web.Request) -> web.Response:
    """Return the Prometheus text, with the store-read gauges set now."""
    svc: TableService = request.app[STATE]["svc"]
    numbers.TABLES_ACTIVE.set(await svc.store.count_tables("active"))
    due = await svc.store.next_due()
    numbers.SCHEDULER_LAG.set(0.0 if due is None else max(0.0, svc.clock.now() - due))
    body = generate_latest(numbers.REGISTRY)
    return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
