"""The operator's numbers, kept in one Prometheus registry: moves, their latency, Discord's refusals.

The web layer exposes them at ``/metrics``; the gauges that a scrape can read from the store (tables
active, scheduler lag) are set there, at scrape time, rather than kept up to date here.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry()
"""Conclave's own registry: no process or platform collectors, nothing another library adds."""

MOVES = Counter("conclave_moves_applied", "Moves applied and saved, by game.", ["kind"], registry=REGISTRY)
MOVE_SECONDS = Histogram(
    "conclave_move_seconds",
    "Time from a move's arrival to its saved commit (lock wait, rules, store).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
TABLES_ACTIVE = Gauge("conclave_tables_active", "Tables whose game is in play.", registry=REGISTRY)
SCHEDULER_LAG = Gauge(
    "conclave_scheduler_lag_seconds", "How long the earliest open due work is overdue (0: none).",
    registry=REGISTRY,
)
DISCORD_ERRORS = Counter(
    "conclave_discord_errors", "Discord API calls refused, by HTTP status and Discord error code.",
    ["status", "code"], registry=REGISTRY,
)


def move_applied(kind: str, seconds: float) -> None:
    """Count one saved move and how long it took."""
    MOVES.labels(kind=kind).inc()
    MOVE_SECONDS.observe(seconds)


def discord_error(status: int, code: int) -> None:
    """Count one Discord call refused with this HTTP status and Discord code."""
    DISCORD_ERRORS.labels(status=str(status), code=str(code)).inc()
