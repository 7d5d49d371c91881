"""The gateway's audit: every write a member sends through it, kept in its database.

An entry is written *pending* before the request goes upstream and completed with the
service's status once the answer comes (*done*), or marked *failed* when the service could not
be reached (nothing was done) or *unknown* when the connection broke after sending (it may have
been done). A write the guard refused is kept too (*refused*, 403). A gateway that stops while
a write is upstream finishes it first; one that was killed finds its entries still pending at
the next start and marks them unknown. Entries are read newest first, page by page.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

__all__ = ["Audit", "AuditEntry", "State", "parse_since", "wire_time"]

State = Literal["pending", "done", "failed", "unknown", "refused"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS audit (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL,
    member_id TEXT NOT NULL,
    email TEXT NOT NULL,
    role TEXT NOT NULL,
    operation TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    targets TEXT NOT NULL,
    status INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_member ON audit (member_id, seq);
CREATE INDEX IF NOT EXISTS audit_at ON audit (at);
"""


def wire_time(moment: datetime) -> str:
    """``2026-01-05T09:00:00.000Z``: UTC, milliseconds, as the service writes times."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + \
        f"{moment.microsecond // 1000:03d}Z"


def parse_since(value: str) -> str:
    """An ISO 8601 time (a date alone is its midnight; no zone is UTC) as the audit writes
    times, to compare with them; ValueError when it is not one."""
    moment = datetime.fromisoformat(value.strip().replace("z", "Z"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return wire_time(moment)


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One write through the gateway."""

    id: str
    at: str
    member_id: str
    email: str
    role: str
    operation: str
    method: str
    path: str
    targets: list[str]
    status: int
    state: State

    def as_json(self) -> dict[str, object]:
        """The entry as ``GET /gateway/v1/audit`` shows it."""
        return {"id": self.id, "at": self.at, "memberId": self.member_id, "email": self.email,
                "role": self.role, "operation": self.operation, "method": self.method,
                "path": self.path, "targets": self.targets, "status": self.status,
                "state": self.state}


class Audit:
    """The audit table of the gateway's SQLite database at ``path`` (created by Members:
    0600 in a 0700 directory)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(path, timeout=30, check_same_thread=False,
                                   isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def close(self) -> None:
        """Close the connection (entries are all committed already)."""
        with self._lock:
            self._db.close()

    def begin(self, *, member_id: str, email: str, role: str, operation: str, method: str,
              path: str, targets: Sequence[str], state: State = "pending",
              status: int = 0) -> int:
        """Write an entry before the request goes upstream; its number, to finish it."""
        with self._tx() as db:
            cursor = db.execute(
                "INSERT INTO audit (at, member_id, email, role, operation, method, path, "
                "targets, status, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (wire_time(datetime.now(UTC)), member_id, email, role, operation, method,
                 path, json.dumps(list(targets)), status, state))
            seq = cursor.lastrowid
        assert seq is not None
        return seq

    def finish(self, seq: int, state: State, status: int) -> None:
        """Complete entry ``seq`` with what became of the request."""
        with self._tx() as db:
            db.execute("UPDATE audit SET state = ?, status = ? WHERE seq = ?",
                       (state, status, seq))

    def settle_interrupted(self) -> int:
        """Mark the entries a stopped gateway left pending as unknown; how many."""
        with self._tx() as db:
            return db.execute(
                "UPDATE audit SET state = 'unknown' WHERE state = 'pending'").rowcount

    def page(self, *, member_id: str | None = None, since: str | None = None, limit: int = 50,
             before: int | None = None) -> tuple[list[AuditEntry], int | None]:
        """Up to ``limit`` entries, newest first, older than entry ``before`` when given; and
        the number to continue from (None at the end)."""
        clauses, values = [], []
        if member_id is not None:
            clauses.append("member_id = ?")
            values.append(member_id)
        if since is not None:
            clauses.append("at >= ?")
            values.append(since)
        if before is not None:
            clauses.append("seq < ?")
            values.append(str(before))
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        with self._lock:
            rows = self._db.execute(
                f"SELECT * FROM audit {where} ORDER BY seq DESC LIMIT ?",
                (*values, limit + 1)).fetchall()
        entries = [_entry(row) for row in rows[:limit]]
        more = len(rows) > limit
        return entries, (int(entries[-1].id) if more and entries else None)


def _entry(row: sqlite3.Row) -> AuditEntry:
    return AuditEntry(id=str(row["seq"]), at=row["at"], member_id=row["member_id"],
                      email=row["email"], role=row["role"], operation=row["operation"],
                      method=row["method"], path=row["path"], targets=json.loads(row["targets"]),
                      status=row["status"], state=row["state"])
