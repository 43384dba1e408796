"""Run a test on both store engines: SQLite (a file) and PostgreSQL (a schema of a throwaway cluster).

A module opts in by its name in ``BOTH_ENGINES``; its tests that take the ``engine`` fixture
(through ``store``, ``open_store``, ``h`` or ``locate``) run once per engine. ``locate(path)``
turns the database file a test names into the database of its engine: the path itself on
SQLite, a schema named after the path on PostgreSQL (reopening one path reopens one database).
A test that reads SQLite's file behind the store's back is marked ``sqlite_only``.

The PostgreSQL cluster is the one ``scripts/test`` starts (``CONCLAVE_TEST_PG``). Without it the
PostgreSQL half is deselected and the run's summary says so plainly; with ``CI`` set it is an
error instead: CI never passes without the PostgreSQL run.
"""

from __future__ import annotations

import hashlib
import os

import asyncpg
import pytest

PG_ENV = "CONCLAVE_TEST_PG"
ENGINES = ("sqlite", "postgresql")
BOTH_ENGINES = frozenset({
    "tests/test_store.py",
    "tests/test_store_engines.py",
    "tests/test_store_copy.py",
    "tests/test_bench_loadmp.py",
    "tests/test_due_work.py",
    "tests/test_clock.py",
    "tests/test_service.py",
    "tests/test_undo.py",
})
"""The store's suite and the service tests that touch the store: run on both engines."""
MISSING = (
    f"The PostgreSQL run did NOT happen: {PG_ENV} is not set (scripts/test starts a cluster;"
    " scripts/postgres starts one by hand)."
)


def pg_url() -> str | None:
    """Return the test cluster's URL, or None when no cluster was started."""
    return os.environ.get(PG_ENV) or None


def engines_for(module: str, only: str | None) -> list[str]:
    """Return the engines a test of ``module`` runs on (``only``: its marker's engine, if any)."""
    if module not in BOTH_ENGINES:
        return ["sqlite"]
    return [only] if only is not None else list(ENGINES)


def schema_for(path: str) -> str:
    """Return the PostgreSQL schema that stands for a database file a test names."""
    return "t_" + hashlib.sha256(path.encode()).hexdigest()[:20]


async def locate_pg(path: str) -> str:
    """Return the URL of a schema (created if new) that stands for ``path`` in the test cluster."""
    base = pg_url()
    if base is None:
        pytest.fail(MISSING)
    schema = schema_for(path)
    conn = await asyncpg.connect(base)
    try:
        # Two stores of one test may open the same file at once, and CREATE SCHEMA IF NOT EXISTS
        # is not safe against itself: a transaction-scoped advisory lock makes them take turns.
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", schema)
            await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}")
    finally:
        await conn.close()
    return f"{base}?search_path={schema}"
