"""The schema, as an ordered list of migration steps.

Step N (counting from 1) takes a database from schema version N-1 to N; the version lives in
``PRAGMA user_version`` (0 for an empty file). Each step runs once, in its own transaction,
together with the bump of ``user_version``, so a crash mid-migration leaves the old schema.
Never edit a step that has shipped: append a new one.
"""

from __future__ import annotations

import aiosqlite

from store.records import StoreError

MIGRATIONS: list[tuple[str, ...]] = [
    # 1: tables, seats, the move log, snapshots, who the game waits on, abandon votes, meta.
    (
        """
        CREATE TABLE tables (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            kind        TEXT    NOT NULL,
            name        TEXT    NOT NULL,
            options     TEXT    NOT NULL,
            guild_id    INTEGER,
            channel_id  INTEGER NOT NULL,
            thread_id   INTEGER UNIQUE,
            host_id     INTEGER NOT NULL,
            status      TEXT    NOT NULL DEFAULT 'lobby'
                        CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            seed        INTEGER,
            version     INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
            created_at  REAL    NOT NULL,
            updated_at  REAL    NOT NULL,
            result      TEXT
        )
        """,
        """
        CREATE TABLE seats (
            table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            user_id     INTEGER NOT NULL,
            name        TEXT    NOT NULL,
            seat        INTEGER CHECK (seat >= 0),
            joined_at   REAL    NOT NULL,
            dm_ok       INTEGER CHECK (dm_ok IN (0, 1)),
            PRIMARY KEY (table_id, user_id),
            UNIQUE (table_id, seat)
        )
        """,
        """
        CREATE TABLE moves (
            table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            version     INTEGER NOT NULL CHECK (version >= 1),
            seat        INTEGER NOT NULL,
            move        TEXT    NOT NULL,
            events      TEXT    NOT NULL,
            created_at  REAL    NOT NULL,
            PRIMARY KEY (table_id, version)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE snapshots (
            table_id    INTEGER PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
            version     INTEGER NOT NULL,
            state       TEXT    NOT NULL
        )
        """,
        """
        CREATE TABLE waiting (
            table_id    INTEGER NOT NULL,
            user_id     INTEGER NOT NULL,
            since       REAL    NOT NULL,
            PRIMARY KEY (table_id, user_id),
            FOREIGN KEY (table_id, user_id) REFERENCES seats(table_id, user_id) ON DELETE CASCADE
        ) WITHOUT ROWID
        """,
        "CREATE INDEX waiting_by_user ON waiting (user_id, since)",
        """
        CREATE TABLE abandon_votes (
            table_id    INTEGER NOT NULL,
            user_id     INTEGER NOT NULL,
            voted_at    REAL    NOT NULL,
            PRIMARY KEY (table_id, user_id),
            FOREIGN KEY (table_id, user_id) REFERENCES seats(table_id, user_id) ON DELETE CASCADE
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE meta (
            key         TEXT PRIMARY KEY,
            value       TEXT NOT NULL
        ) WITHOUT ROWID
        """,
    ),
    # 2: per-seat preferences (a game's small settings for one player at one table).
    (
        """
        CREATE TABLE seat_prefs (
            table_id    INTEGER NOT NULL,
            user_id     INTEGER NOT NULL,
            key         TEXT    NOT NULL,
            value       TEXT    NOT NULL,
            PRIMARY KEY (table_id, user_id, key),
            FOREIGN KEY (table_id, user_id) REFERENCES seats(table_id, user_id) ON DELETE CASCADE
        ) WITHOUT ROWID
        """,
    ),
    # 3: integrity: each table's move log as a hash chain (version 0 holds the seed and seats),
    # and each snapshot's checksum over the chain's head. Store.open seals older tables.
    (
        """
        CREATE TABLE chain (
            table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            version     INTEGER NOT NULL CHECK (version >= 0),
            link        TEXT    NOT NULL,
            PRIMARY KEY (table_id, version)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE snapshot_sums (
            table_id    INTEGER PRIMARY KEY REFERENCES tables(id) ON DELETE CASCADE,
            checksum    TEXT    NOT NULL
        )
        """,
    ),
    # 4: bot seats. ``bot`` names the level of the bot that plays the seat now (NULL: its person).
    # A seat a bot fills from the lobby has a negative user id (-1, -2...: no Discord user has one);
    # a person's seat handed to a bot keeps its user id, so /game rejoin gives it back.
    ("ALTER TABLE seats ADD COLUMN bot TEXT",),
    # 5: asynchronous play: due work for the scheduler, seat clocks, sent reminders, user
    # preferences, votes on absent seats and undo, spectators.
    (
        """
        CREATE TABLE due_work (
            id          INTEGER PRIMARY KEY AUTOINCREMENT,
            due_at      REAL    NOT NULL,
            kind        TEXT    NOT NULL,
            key         TEXT    NOT NULL UNIQUE,
            table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            user_id     INTEGER,
            payload     TEXT    NOT NULL,
            claimed_at  REAL
        )
        """,
        "CREATE INDEX due_work_next ON due_work (due_at) WHERE claimed_at IS NULL",
        """
        CREATE TABLE seat_clocks (
            table_id        INTEGER NOT NULL,
            user_id         INTEGER NOT NULL,
            bank            REAL    NOT NULL,
            running_since   REAL,
            out_since       REAL,
            absent          TEXT,
            played_for      INTEGER NOT NULL DEFAULT 0,
            last_reminder   REAL,
            PRIMARY KEY (table_id, user_id),
            FOREIGN KEY (table_id, user_id) REFERENCES seats(table_id, user_id) ON DELETE CASCADE
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE notices (
            key         TEXT    PRIMARY KEY,
            table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            user_id     INTEGER,
            kind        TEXT    NOT NULL,
            sent_at     REAL    NOT NULL
        ) WITHOUT ROWID
        """,
        "CREATE INDEX notices_by_table ON notices (table_id, user_id)",
        """
        CREATE TABLE user_prefs (
            user_id     INTEGER PRIMARY KEY,
            pings       TEXT    NOT NULL DEFAULT 'every',
            quiet_from  INTEGER,
            quiet_to    INTEGER,
            utc_offset  INTEGER NOT NULL DEFAULT 0
        )
        """,
        """
        CREATE TABLE votes (
            table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            topic       TEXT    NOT NULL,
            user_id     INTEGER NOT NULL,
            choice      TEXT    NOT NULL,
            voted_at    REAL    NOT NULL,
            PRIMARY KEY (table_id, topic, user_id)
        ) WITHOUT ROWID
        """,
        """
        CREATE TABLE spectators (
            table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            user_id     INTEGER NOT NULL,
            since       REAL    NOT NULL,
            PRIMARY KEY (table_id, user_id)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX spectators_by_user ON spectators (user_id)",
    ),
    # bots' private memories: one JSON document per bot seat, written with each move it saw.
    (
        """
        CREATE TABLE bot_memory (
            table_id    INTEGER NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
            seat        INTEGER NOT NULL,
            memory      TEXT    NOT NULL,
            PRIMARY KEY (table_id, seat)
        ) WITHOUT ROWID
        """,
    ),
    # servers (issue 24): each Discord server's settings for its tables and when the bot was
    # removed from it (its tables pause until it comes back); a user's time zone by IANA name
    # (NULL: the older whole-hour ``utc_offset`` still counts); tables found by their server.
    (
        """
        CREATE TABLE servers (
            guild_id    INTEGER PRIMARY KEY,
            left_at     REAL,
            settings    TEXT    NOT NULL DEFAULT '{}'
        )
        """,
        "ALTER TABLE user_prefs ADD COLUMN tz TEXT",
        "CREATE INDEX tables_by_guild ON tables (guild_id, status)",
    ),
    # due work under leases (issue 23): a runner leases a row until ``claimed_until`` and marks
    # it done (``claimed_at``) only after its effect; a failure counts an attempt and retries
    # later; a row that cannot be run is set aside with the reason in ``failed``. Delivery of a
    # move (kind ``deliver``) is a row of due work too, written in the move's transaction.
    (
        "ALTER TABLE due_work ADD COLUMN claimed_until REAL",
        "ALTER TABLE due_work ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE due_work ADD COLUMN failed TEXT",
        # A table's open work, read and written with every move (its delivery, its seats' waits).
        "CREATE INDEX due_work_open ON due_work (table_id, kind) WHERE claimed_at IS NULL",
    ),
    # A spectator's digest: how often (turn, round or day; ``rows.DIGESTS``) and what it last told
    # (the table's version, the round it showed, when).
    (
        "ALTER TABLE spectators ADD COLUMN every TEXT NOT NULL DEFAULT 'round'",
        "ALTER TABLE spectators ADD COLUMN told_version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE spectators ADD COLUMN told_round INTEGER",
        "ALTER TABLE spectators ADD COLUMN told_at REAL",
    ),
]


async def schema_version(db: aiosqlite.Connection) -> int:
    """Return the schema version recorded in the file (0 for an empty file)."""
    async with db.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0])


async def migrate(db: aiosqlite.Connection, steps: list[tuple[str, ...]] | None = None) -> int:
    """Apply every step the file lacks, each once in its own transaction; return the version."""
    steps = MIGRATIONS if steps is None else steps
    target = len(steps)
    for number in range(1, target + 1):
        # BEGIN IMMEDIATE takes the write lock first, so two processes opening one fresh file
        # cannot both run the same step: the second sees the bumped version and skips it.
        await db.execute("BEGIN IMMEDIATE")
        try:
            current = await schema_version(db)
            refuse_newer(current, target)
            if current < number:
                for statement in steps[number - 1]:
                    await db.execute(statement)
                # user_version lives in the file header and changes inside this transaction.
                await db.execute(f"PRAGMA user_version = {number:d}")
            await db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
    return await schema_version(db)


def refuse_newer(current: int, target: int) -> None:
    """Refuse a database at a schema version newer than this Conclave knows (either engine)."""
    if current > target:
        raise StoreError(
            f"The database is at schema version {current}, newer than this Conclave "
            f"knows ({target}). Upgrade Conclave before opening it."
        )
