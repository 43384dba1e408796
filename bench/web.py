"""``python -m bench web``: a real table of each game on a local web server, many live viewers.

For each kind a table is opened and started through the service, its page is served on
127.0.0.1, and ``viewers`` pages listen to its live stream (Server-Sent Events). Each move
(random, legal, through ``TableService.act``) reaches every viewer, which then loads the new
step and board as the page's script does; some viewers step back through the history. Times are
measured at the client; ``table_reads`` counts the pages' reads of a table's row (a watched
table's pages trust its live watcher's read). Every text answer is searched for the card names
that some seat's private view holds and the public view lacks at that moment (``leaks``).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from rules import registry
from rules.contract import Rules

KINDS = (("argent", 3), ("institute", 2), ("academy", 2), ("quadrivium", 3))


def _strings(data: Any) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return {s for k, v in data.items() for s in _strings(k) | _strings(v)}
    if isinstance(data, list | tuple):
        return {s for v in data for s in _strings(v)}
    return set()


def hidden_cards(rules: Rules, state: Any, players: int) -> set[str]:
    """Return the card names some seat's private view holds and the public view does not show."""
    index = getattr(rules, "card_index", None)
    names = set(index()) if index else set()
    public = json.dumps(rules.view(state, None))
    held = {s for seat in range(players) for s in _strings(rules.view(state, seat)) if s in names}
    return {name for name in held if name not in public}


class _Viewer:
    """One live page: listens to the stream, then loads each new step and board."""

    def __init__(self, session: aiohttp.ClientSession, url: str, base: str) -> None:
        self.session, self.url, self.base = session, url, base
        self.seen = 0
        self.page_ms: list[float] = []
        self.history_ms: list[float] = []
        self.bodies: list[tuple[int, str]] = []
        self.ready = asyncio.Event()

    async def _get(self, path: str, version: int) -> float:
        began = time.perf_counter()
        async with self.session.get(self.url + path) as answer:
            body = await answer.read()
            if answer.status != 200:
                raise RuntimeError(f"{path}: {answer.status}")
        if not path.endswith(".png"):
            self.bodies.append((version, body.decode()))
        return (time.perf_counter() - began) * 1000

    async def run(self, rand: random.Random) -> None:
        self.page_ms.append(await self._get(self.base, -1))
        async with self.session.get(self.url + self.base + "/live") as stream:
            self.ready.set()
            async for line in stream.content:
                if not line.startswith(b"data: "):
                    continue
                version = int(line[6:])
                if version <= self.seen and self.seen:
                    continue
                spent = await self._get(f"{self.base}/step/{version}.json", version)
                spent += await self._get(f"{self.base}/board/{version}.png", version)
                self.page_ms.append(spent)
                if rand.random() < 0.2 and version > 1:  # a viewer steps back through the history
                    back = rand.randrange(0, version)
                    try:
                        took = await self._get(f"{self.base}/step/{back}.json", -2)
                        took += await self._get(f"{self.base}/board/{back}.png", -2)
                        self.history_ms.append(took)
                    except RuntimeError:
                        pass  # a version taken back by an undo is not in the history
                self.seen = version


async def _table(svc: Any, kind: str, players: int) -> int:
    record = await svc.open_table(kind, {}, guild_id=1, channel_id=1, host_id=1, host_name="p1")
    for user in range(2, players + 1):
        await svc.join(record.id, user, f"p{user}")
    await svc.start(record.id, 1)
    return record.id


async def run(moves: int = 20, viewers: int = 100, seed: int = 1) -> dict[str, Any]:
    """Serve a table of each kind, play ``moves`` moves each with ``viewers`` live pages; return figures."""
    import web
    from service import TableService
    from store import Store
    from web.app import PAGES, RateCap

    rand = random.Random(seed)
    page_ms: list[float] = []
    history_ms: list[float] = []
    leaks: list[str] = []
    versions = 0
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(str(Path(folder) / "bench.db"))
        svc = TableService(store, seed_source=lambda: seed)
        # The bench's viewers all come from one address: the per-address cap would hold them back.
        server = await web.start(svc, web.WebConfig("127.0.0.1", 0), rate=RateCap(1e9, 1e9))
        try:
            for kind, players in KINDS:
                rules = registry.get(kind)
                table_id = await _table(svc, kind, players)
                base = f"/t/{server.links.table_token(table_id)}"
                hidden_at: dict[int, set[str]] = {}
                connector = aiohttp.TCPConnector(limit=0)
                async with aiohttp.ClientSession(connector=connector) as session:
                    pages = [_Viewer(session, server.url, base) for _ in range(viewers)]
                    tasks = [asyncio.create_task(p.run(random.Random(rand.random()))) for p in pages]
                    await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in pages)), 120)
                    for _ in range(moves):
                        record, state = await store.load(table_id)
                        if record.status != "active":
                            break
                        seat = rand.choice(rules.waiting_on(state))
                        user = next(s.user_id for s in await svc.seats(table_id) if s.seat == seat)
                        await svc.act(table_id, user, rand.choice(rules.legal_moves(state, seat)))
                        record, state = await store.load(table_id)
                        hidden_at[record.version] = hidden_cards(rules, state, players)
                        deadline = time.monotonic() + 120
                        while any(p.seen < record.version for p in pages) and time.monotonic() < deadline:
                            await asyncio.sleep(0.05)
                    for task in tasks:
                        task.cancel()
                    await asyncio.gather(*tasks, return_exceptions=True)
                for p in pages:
                    page_ms += p.page_ms
                    history_ms += p.history_ms
                    for version, body in p.bodies:
                        secret = hidden_at.get(version, set())
                        leaks += [f"{kind} v{version}: {name}" for name in secret if name in body]
                versions += len(await server.runner.app[PAGES].steps(table_id))
            drawings = server.runner.app[PAGES].drawings
            reads = server.runner.app[PAGES].reads
        finally:
            await server.stop()
            await store.close()
    return {
        "kinds": [k for k, _ in KINDS], "moves_per_table": moves, "viewers": viewers,
        "requests": len(page_ms) + len(history_ms),
        "page_median_ms": round(statistics.median(page_ms), 1),
        "page_p99_ms": round(statistics.quantiles(page_ms, n=100)[98], 1),
        "history_median_ms": round(statistics.median(history_ms), 1) if history_ms else None,
        "drawings": drawings, "versions": versions, "table_reads": reads, "leaks": len(leaks),
        "leaked": leaks[:5],
    }
