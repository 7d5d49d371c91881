"""The sandbox's storage: one SQLite database on disk, WAL, foreign keys, an index per lookup.

The sandbox runs every request on one event-loop thread, so one connection serves them all;
each request runs in one transaction (``Database.tx``), so a refused request leaves nothing
half-written and two requests never interleave their writes.

Times are stored as ISO-8601 UTC text with milliseconds (``2021-12-01T12:46:36.581Z``), which
sorts correctly as text. Lists and nested objects are stored as JSON text.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .schema import SCHEMA


def iso(value: datetime) -> str:
    """A datetime as stored: UTC, milliseconds, ``Z``, the year in four digits (``0192``: the
    C library's ``%Y`` writes ``192``, which is no date and sorts as text among the others)."""
    value = value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)
    return (f"{value.year:04d}-{value.month:02d}-{value.day:02d}T{value.hour:02d}:"
            f"{value.minute:02d}:{value.second:02d}.{value.microsecond // 1000:03d}Z")


def from_iso(text: str) -> datetime:
    """A stored time back as an aware datetime."""
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def dumps(value: Any) -> str:
    """JSON text for a stored list or object."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def loads(text: str | None) -> Any:
    """A stored JSON value, or None."""
    return None if text is None else json.loads(text)


def _private(path: Path) -> None:
    """Make the database file readable by its owner alone before SQLite opens it: it holds
    webhook secrets and basic-auth passwords. A folder made for it is 0700; the file is made
    0600, or narrowed to it (SQLite gives its -wal and -shm files the file's mode)."""
    if not path.parent.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    try:
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            path.chmod(mode & 0o700)
    except PermissionError:  # another user's database, read as it is: SQLite says the rest
        pass


class Database:
    """The sandbox's SQLite database: one connection, one transaction per request."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        _private(self.path)
        self.conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=10.0
        )
        self.conn.row_factory = sqlite3.Row
        for pragma in (
            "PRAGMA journal_mode = WAL",
            "PRAGMA synchronous = NORMAL",
            "PRAGMA foreign_keys = ON",
            "PRAGMA busy_timeout = 10000",
            "PRAGMA cache_size = -65536",
            "PRAGMA temp_store = MEMORY",
        ):
            self.conn.execute(pragma)
        self.conn.executescript(SCHEMA)
        self._add_later_columns()
        self._depth = 0

    def _add_later_columns(self) -> None:
        """Columns added after a database may have been made (a demo's, kept across
        upgrades): added, and filled from what the database already says."""
        have = {row[1] for row in self.conn.execute("PRAGMA table_info(conversations)")}
        if "last_queue_id" not in have:
            with self.conn:
                self.conn.execute("ALTER TABLE conversations ADD COLUMN last_queue_id TEXT")
                self.conn.execute("UPDATE conversations SET last_queue_id = queue_id "
                                  "WHERE queue_id IS NOT NULL")

    def close(self) -> None:
        """Close the connection (the WAL is checkpointed by SQLite)."""
        self.conn.close()

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed when the block ends, rolled back on any exception.

        Nested use joins the outer transaction, so a rule called from a route shares it.
        """
        if self._depth:
            self._depth += 1
            try:
                yield self.conn
            finally:
                self._depth -= 1
            return
        self.conn.execute("BEGIN IMMEDIATE")
        self._depth = 1
        try:
            yield self.conn
        except BaseException:
            self._depth = 0
            self.conn.execute("ROLLBACK")
            raise
        self._depth = 0
        self.conn.execute("COMMIT")

    def one(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> sqlite3.Row | None:
        """The first row of a query, or None."""
        row: sqlite3.Row | None = self.conn.execute(sql, params).fetchone()
        return row

    def all(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        """Every row of a query."""
        return self.conn.execute(sql, params).fetchall()

    def run(self, sql: str, params: tuple[Any, ...] | dict[str, Any] = ()) -> sqlite3.Cursor:
        """Execute one statement."""
        return self.conn.execute(sql, params)

    def get_meta(self, key: str) -> str | None:
        """A value of the ``meta`` table."""
        row = self.one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    def set_meta(self, key: str, value: str) -> None:
        """Set a value of the ``meta`` table."""
        self.run(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
