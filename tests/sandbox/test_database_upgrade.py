"""A sandbox database made by an earlier frontdesk (a demo's, kept across upgrades) opens with
the columns added since, filled from what it already holds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from frontdesk.sandbox.db import Database


def test_a_database_without_the_last_queue_gets_it_filled_from_the_queue(tmp_path: Path
                                                                         ) -> None:
    path = tmp_path / "sandbox.db"
    Database(path).close()
    old = sqlite3.connect(path)
    old.execute("ALTER TABLE conversations DROP COLUMN last_queue_id")
    old.execute("INSERT INTO users (id, kind, email, created_at) VALUES "
                "('u1', 'enduser', 'a@example.com', '2026-01-01T00:00:00Z')")
    old.execute("INSERT INTO queues (id, name, created_at) VALUES ('q1', 'General', "
                "'2026-01-01T00:00:00Z')")
    old.execute("INSERT INTO conversations (id, type, channel, requester_id, created_at, state, "
                "queue_id) VALUES (1, 'Chat', 'WidgetChat', 'u1', '2026-01-01T00:00:00Z', "
                "'Open', 'q1')")
    old.commit()
    old.close()
    upgraded = Database(path)
    try:
        row = upgraded.conn.execute("SELECT last_queue_id FROM conversations WHERE id = 1"
                                    ).fetchone()
        assert row[0] == "q1"
    finally:
        upgraded.close()


def test_the_database_is_its_owners_alone(tmp_path: Path) -> None:
    """It holds webhook secrets and basic-auth passwords: made 0600 in a folder made 0700,
    its -wal and -shm files too; one made readable by others before is narrowed."""
    import stat

    path = tmp_path / "new" / "sandbox.db"
    db = Database(path)
    with db.tx():
        db.run("INSERT INTO tags (id, name, state, created_at) VALUES "
               "('t1', 'x', 'Active', '2026-01-05T09:00:00.000Z')")
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in path.parent.iterdir()}
    db.close()
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert modes["sandbox.db"] == 0o600 and modes.get("sandbox.db-wal", 0o600) == 0o600
    assert all(mode & 0o077 == 0 for mode in modes.values()), modes
    old = tmp_path / "old.db"
    old.touch(mode=0o644)
    old.chmod(0o644)
    Database(old).close()
    assert stat.S_IMODE(old.stat().st_mode) == 0o600
