"""The web pages' addresses: a table's unguessable address and a seat's signed, expiring link.

A table's address is its id beside an HMAC of the id under the web secret, never the bare
number: knowing table 7 exists gives nobody its page. A seat's link signs the table, the user
and an expiry; it shows that user's private view until it expires, and only while they sit
there. Every comparison is in constant time (``hmac.compare_digest``).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

SEAT_LINK_SECONDS = 24 * 3600
"""A seat link lasts a day: long enough for an evening's play, short enough that a forwarded
link stops showing a hand soon."""
SECRET_META = "web_secret"
"""Where the store keeps a generated secret when ``CONCLAVE_WEB_SECRET`` is not set."""
_MAC_CHARS = 24
_TABLE_TOKEN = re.compile(r"(?P<id>[1-9][0-9]{0,18})-(?P<mac>[0-9a-f]{24})")
_NUMBER = re.compile(r"[0-9]{1,19}")
_MAC = re.compile(r"[0-9a-f]{24}")


@dataclass(frozen=True)
class SeatPass:
    """A checked seat link: whose private view at which table, until when."""

    table_id: int
    user_id: int
    expires: int


@dataclass(frozen=True)
class WebLinks:
    """Signs and checks the web pages' addresses; ``base`` is the public address (no trailing /)."""

    secret: bytes
    base: str

    def _mac(self, *parts: object) -> str:
        message = ":".join(str(p) for p in parts).encode()
        return hmac.new(self.secret, message, hashlib.sha256).hexdigest()[:_MAC_CHARS]

    def table_token(self, table_id: int) -> str:
        """Return a table's token: ``<id>-<mac>``."""
        return f"{table_id}-{self._mac('table', table_id)}"

    def table_of(self, token: str) -> int | None:
        """Return the table a token names, or None for a forged or malformed one."""
        found = _TABLE_TOKEN.fullmatch(token)
        if found is None:
            return None
        table_id = int(found["id"])
        return table_id if hmac.compare_digest(found["mac"], self._mac("table", table_id)) else None

    def server_token(self, guild_id: int) -> str:
        """Return a server page's token: ``<guild>-<mac>``."""
        return f"{guild_id}-{self._mac('server', guild_id)}"

    def server_of(self, token: str) -> int | None:
        """Return the server a token names, or None for a forged or malformed one."""
        found = _TABLE_TOKEN.fullmatch(token)
        if found is None:
            return None
        guild_id = int(found["id"])
        return guild_id if hmac.compare_digest(found["mac"], self._mac("server", guild_id)) else None

    def seat_path(self, table_id: int, user_id: int, expires: int) -> str:
        """Return the path of a seat's signed link, valid until ``expires`` (Unix seconds)."""
        mac = self._mac("seat", table_id, user_id, expires)
        return f"/seat/{table_id}/{user_id}/{expires}/{mac}"

    def seat_pass(self, table: str, user: str, expires: str, mac: str, now: float) -> SeatPass | None:
        """Return the seat a link's parts sign when the signature holds and it has not expired."""
        if not all(_NUMBER.fullmatch(p) for p in (table, user, expires)) or not _MAC.fullmatch(mac):
            return None
        want = self._mac("seat", int(table), int(user), int(expires))
        if not hmac.compare_digest(mac, want) or int(expires) <= now:
            return None
        return SeatPass(int(table), int(user), int(expires))

    def table_url(self, table_id: int) -> str:
        """Return a table page's full address."""
        return f"{self.base}/t/{self.table_token(table_id)}"

    def seat_url(self, table_id: int, user_id: int, now: float, seconds: int = SEAT_LINK_SECONDS) -> str:
        """Return a seat's signed link, valid ``seconds`` from ``now``."""
        return self.base + self.seat_path(table_id, user_id, int(now) + seconds)

    def server_url(self, guild_id: int) -> str:
        """Return a server page's full address."""
        return f"{self.base}/g/{self.server_token(guild_id)}"


def new_secret() -> str:
    """Return a fresh random secret (kept in the store when the operator set none)."""
    return secrets.token_hex(32)
