"""The local store's tables, as migration steps: ``MIGRATIONS[n]`` takes a database from
schema version ``n`` to ``n + 1``; :func:`~.local.migrate` runs them."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

__all__ = ["MIGRATIONS", "SCHEMA_VERSION"]

_V1 = """
CREATE TABLE drafts (
    conversation_id INTEGER PRIMARY KEY,
    text TEXT NOT NULL,
    attachments TEXT NOT NULL DEFAULT '[]',
    updated_at REAL NOT NULL
);

CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id INTEGER NOT NULL,
    external_id TEXT NOT NULL UNIQUE,
    payload TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('pending', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX outbox_state ON outbox (state, id);

CREATE TABLE working_set (
    conversation_id INTEGER PRIMARY KEY,
    record TEXT NOT NULL,
    source TEXT NOT NULL,
    seen_at REAL NOT NULL
);
CREATE INDEX working_set_seen ON working_set (seen_at);

CREATE TABLE snapshots (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    saved_at REAL NOT NULL
);

CREATE TABLE names (
    user_id TEXT PRIMARY KEY,
    name TEXT NOT NULL
);
"""


def _script(sql: str) -> Callable[[sqlite3.Connection], None]:
    """A migration step that runs ``sql`` statement by statement (inside the caller's tx)."""

    def step(conn: sqlite3.Connection) -> None:
        for statement in sql.split(";"):
            if statement.strip():
                conn.execute(statement)

    return step


# The inbox's compact row beside each record (rows.InboxRow.compact): the first frame reads
# these, not the records. NULL for records kept before; the inbox reads those records then.
_V2 = """
ALTER TABLE working_set ADD COLUMN row TEXT
"""

# The working set's rows in the order the first frame reads them, in an index of their own:
# reading them is a scan of that index alone, never of the records stored beside them.
_V3 = """
CREATE INDEX working_set_rows ON working_set (seen_at, conversation_id, row)
"""

# Read state: per conversation, the newest message the agent has seen (the thread opened with
# it on screen). Local only: marking a conversation read never costs a request. Conversation 0
# is the read floor: the first start's moment, before which every message counts as read.
_V4 = """
CREATE TABLE read_marks (
    conversation_id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL,
    created_at TEXT NOT NULL
)
"""

# Undo send: when a held reply or note may leave (seconds since the epoch, so a hold
# survives a restart); NULL for one that may leave at once (every item kept before).
_V5 = """
ALTER TABLE outbox ADD COLUMN send_at REAL
"""

#: Migration steps: ``MIGRATIONS[n]`` takes a database from version ``n`` to ``n + 1``.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_script(_V1), _script(_V2),
                                                          _script(_V3), _script(_V4),
                                                          _script(_V5)]

#: The schema version this code writes (``PRAGMA user_version``).
SCHEMA_VERSION = len(MIGRATIONS)
