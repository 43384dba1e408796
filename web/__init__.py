"""Read-only web pages of tables (public and signed private views), health and metrics.

``CONCLAVE_WEB`` (``host:port``) turns the server on inside the bot's process;
``CONCLAVE_PUBLIC_URL`` is the address its links start with (default ``http://host:port``);
``CONCLAVE_WEB_SECRET`` signs the links (default: a random secret kept in the store, so links
survive a restart).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from aiohttp import web

from service.tables import TableService
from service.weblinks import SECRET_META, WebLinks, new_secret
from web.app import RateCap, create_app

log = logging.getLogger("conclave.web")

__all__ = ["WebConfig", "WebServer", "links_for", "start"]


@dataclass(frozen=True)
class WebConfig:
    """Where the web server listens and how its links are made."""

    host: str
    port: int
    public_url: str | None = None
    secret: str | None = None
    behind_proxy: bool = False

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> WebConfig | None:
        """Read CONCLAVE_WEB, CONCLAVE_PUBLIC_URL, CONCLAVE_WEB_SECRET, CONCLAVE_WEB_PROXY (None: no web)."""
        env = os.environ if env is None else env
        address = env.get("CONCLAVE_WEB", "").strip()
        if not address:
            return None
        host, _, port = address.rpartition(":")
        if not port.isdigit() or not 0 <= int(port) < 65536:
            raise SystemExit("CONCLAVE_WEB must be host:port, e.g. 0.0.0.0:8080.")
        public = env.get("CONCLAVE_PUBLIC_URL", "").strip().rstrip("/") or None
        return cls(host or "0.0.0.0", int(port), public,
                   env.get("CONCLAVE_WEB_SECRET", "").strip() or None,
                   env.get("CONCLAVE_WEB_PROXY", "").strip().casefold() in ("1", "yes", "on", "true"))


@dataclass
class WebServer:
    """A running web server: its runner, address and links (``stop`` ends it)."""

    runner: web.AppRunner
    url: str
    links: WebLinks

    async def stop(self) -> None:
        """Stop serving (open live pages are closed)."""
        await self.runner.cleanup()


async def links_for(svc: TableService, config: WebConfig, base: str) -> WebLinks:
    """Return the link signer: the configured secret, else the store's (made once, then kept)."""
    secret = config.secret
    if secret is None:
        # Kept once for every process on the store: a link one process signs, another accepts.
        secret = await svc.store.get_meta(SECRET_META) or await svc.store.meta_once(SECRET_META, new_secret())
    return WebLinks(secret.encode(), base)


async def start(
    svc: TableService,
    config: WebConfig,
    *,
    discord_state: Callable[[], str] | None = None,
    rate: RateCap | None = None,
) -> WebServer:
    """Serve the pages on the configured address; return the running server."""
    links = await links_for(svc, config, config.public_url or "")
    app = create_app(svc, links, discord_state=discord_state, rate=rate, behind_proxy=config.behind_proxy)
    runner = web.AppRunner(app,
                           handle_signals=False, access_log=None, shutdown_timeout=5.0)
    await runner.setup()
    site = web.TCPSite(runner, config.host, config.port)
    await site.start()
    port = config.port
    server = site._server
    if port == 0 and server is not None:  # an ephemeral port (tests, the bench): the one given
        port = server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    url = config.public_url or f"http://{config.host}:{port}"
    log.info("web pages served at %s", url)
    # The application signs and checks paths only; the links handed out carry the address.
    return WebServer(runner, url, WebLinks(links.secret, url))
