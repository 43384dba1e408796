"""``python -m web.health``: exit 0 when this process's /healthz answers 200 (Docker's HEALTHCHECK).

Without ``CONCLAVE_WEB`` there is no web server to ask, and nothing else to check from outside:
it exits 0. The address it asks is the local one (``0.0.0.0`` listens on 127.0.0.1 too).
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

TIMEOUT = 5.0


def check(address: str | None, timeout: float = TIMEOUT) -> int:
    """Return 0 when the web server at ``host:port`` says it is healthy (or none is set), else 1."""
    if not address:
        return 0
    host, _, port = address.strip().rpartition(":")
    if host in ("", "0.0.0.0", "::", "[::]"):
        host = "127.0.0.1"
    try:
        with urllib.request.urlopen(f"http://{host}:{port}/healthz", timeout=timeout) as answer:
            return 0 if answer.status == 200 else 1
    except (OSError, urllib.error.URLError):
        return 1


if __name__ == "__main__":
    sys.exit(check(os.environ.get("CONCLAVE_WEB")))
