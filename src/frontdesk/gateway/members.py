"""The gateway's members: who they are, their role, and the hash of their personal key.

The database keeps only a SHA-256 hash of each personal key (the keys are 32 random bytes, so
a fast hash is enough); a key is looked up by its hash and the stored hash compared in constant
time. The database file is created 0600 in a 0700 directory. Every call opens its own
connection, so a revocation or a rotation by one process is seen at once by another process
sharing the file.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sqlite3
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from frontdesk.api.roles import Role

__all__ = ["Member", "MemberError", "Members", "new_key"]

_KEY_PREFIX = "fdg_"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS members (
    member_id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    name TEXT,
    role TEXT NOT NULL,
    key_hash TEXT NOT NULL UNIQUE,
    revoked INTEGER NOT NULL DEFAULT 0
);
"""


class MemberError(Exception):
    """A member command that cannot be done: its message is one line for the user."""


@dataclass(frozen=True, slots=True)
class Member:
    """One person of the team at the gateway."""

    member_id: str
    agent_id: str
    email: str
    name: str | None
    role: Role
    revoked: bool


def new_key() -> str:
    """A fresh personal key: a prefix that names it, then 32 random bytes."""
    return _KEY_PREFIX + secrets.token_urlsafe(32)


def _hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _member(row: sqlite3.Row) -> Member:
    return Member(
        member_id=row["member_id"],
        agent_id=row["agent_id"],
        email=row["email"],
        name=row["name"],
        role=Role(row["role"]),
        revoked=bool(row["revoked"]),
    )


class Members:
    """The member table of the gateway's SQLite database at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(path.parent, 0o700)
        fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
        os.close(fd)
        os.chmod(path, 0o600)
        with self._db() as db:
            db.executescript(_SCHEMA)

    @contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=30)) as db:
            db.row_factory = sqlite3.Row
            with db:
                yield db

    def add(self, agent_id: str, email: str, name: str | None, role: Role) -> tuple[Member, str]:
        """Make ``agent_id`` a member with ``role``; the member and their key (shown once)."""
        key = new_key()
        member_id = uuid.uuid4().hex
        with self._db() as db:
            if db.execute("SELECT 1 FROM members WHERE agent_id = ?", (agent_id,)).fetchone():
                raise MemberError(f"{email} is already a member (rotate gives a new key)")
            db.execute(
                "INSERT INTO members VALUES (?, ?, ?, ?, ?, ?, 0)",
                (member_id, agent_id, email, name, role.value, _hash(key)),
            )
        return Member(member_id, agent_id, email, name, role, False), key

    def all(self) -> list[Member]:
        """Every member, revoked ones too, by email."""
        with self._db() as db:
            rows = db.execute("SELECT * FROM members ORDER BY email, member_id").fetchall()
        return [_member(row) for row in rows]

    def find(self, who: str) -> Member:
        """The member whose email, agent id or member id is ``who``."""
        with self._db() as db:
            row = db.execute(
                "SELECT * FROM members WHERE lower(email) = lower(?) OR agent_id = ?"
                " OR member_id = ?",
                (who, who, who),
            ).fetchone()
        if row is None:
            raise MemberError(f"No member {who!r}")
        return _member(row)

    def authenticate(self, key: str) -> Member | None:
        """The live member whose personal key is ``key``; None for an unknown or revoked key."""
        digest = _hash(key)
        with self._db() as db:
            row = db.execute("SELECT * FROM members WHERE key_hash = ?", (digest,)).fetchone()
        if row is None or not hmac.compare_digest(row["key_hash"], digest):
            return None
        member = _member(row)
        return None if member.revoked else member

    def revoke(self, who: str) -> Member:
        """Revoke ``who``'s key: refused from the next request on."""
        member = self.find(who)
        with self._db() as db:
            db.execute("UPDATE members SET revoked = 1 WHERE member_id = ?", (member.member_id,))
        return self.find(member.member_id)

    def set_role(self, who: str, role: Role) -> Member:
        """Give ``who`` the role ``role``, from their next request on (their key stays)."""
        member = self.find(who)
        with self._db() as db:
            db.execute("UPDATE members SET role = ? WHERE member_id = ?",
                       (role.value, member.member_id))
        return self.find(member.member_id)

    def rotate(self, who: str) -> tuple[Member, str]:
        """A new key for ``who`` (live again if revoked); the old key is dead at once."""
        member = self.find(who)
        key = new_key()
        with self._db() as db:
            db.execute(
                "UPDATE members SET key_hash = ?, revoked = 0 WHERE member_id = ?",
                (_hash(key), member.member_id),
            )
        return self.find(member.member_id), key
