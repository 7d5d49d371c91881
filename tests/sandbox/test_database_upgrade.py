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
