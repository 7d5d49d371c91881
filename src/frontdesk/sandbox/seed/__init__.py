"""The demo organisation "Acme Demo": built once per database, deterministically.

``ensure_seeded`` fills a new database in one transaction and marks it (``meta.seeded``), so a
second call does nothing. Every organisation has its fixed parts: the admin on whose behalf
API keys act, contact endpoints, custom attribute definitions and business-hours schedules
(drawn from a fixed generator, so they are the same in every sandbox). The demo data beyond
that comes from ``random.Random(seed)``, and every time in it is relative to ``now``: the same
seed and ``now`` give the same rows, ids included.

* small: ~25 agents with presence (one of them the console's demo agent), teams, queues,
  40 tags, 200 end users and 1,000 conversations over every channel and state, with message
  threads of 1 to 300 messages (~12,000 messages; 12,161 with seed 7), tags, custom
  attributes, ratings and a few processed anonymisation requests.
* large, for benchmarks: the small organisation plus 10,000 end users, 100,000 short
  conversations with threads of 1 to 60 messages (~10.3 on average: waiting ones hold the
  customer's first lines, calls one to four, written threads mostly a few turns, one in ten
  21 to 60) and one conversation of exactly 10,000 messages (``meta.big_thread_id``):
  101,001 conversations and ~1.05 million messages (1,051,076 with seed 7), a ~730 MB file.
  Built in one transaction through a rollback journal (the database is WAL again afterwards),
  messages written by ``executemany`` in batches of 100,000: 15-20 s on a 2-core machine.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from ..db import Database
from . import knowledge, organization, templates
from .demo import Demo
from .fixed import build_fixed
from .message_attributes import (
    attachment_url,
    chat_attributes,
    email_attributes,
    files,
    html_email,
    phone_attributes,
    plain_attributes,
)
from .names import (
    ADMIN_EMAIL,
    CHANNELS,
    CONVERSATION_TYPES,
    DEMO_AGENT_EMAIL,
    STATES,
    WORKING_CHANNELS,
)
from .values import ascii_slug, fill, new_uuid


def ensure_seeded(path: Path, *, seed: int | None, empty: bool = False,
                  scale: Literal["small", "large"] = "small", now: datetime | None = None) -> None:
    """Create the database at ``path`` and fill it once (nothing happens when it is filled).

    ``seed`` makes the demo organisation deterministic; ``empty`` (or no seed) keeps only the
    admin, contact endpoints, custom attribute definitions and schedules; ``now`` anchors every
    time (default: the current time).
    """
    moment = _aware(now or datetime.now(UTC))
    bare = empty or seed is None
    db = Database(path)
    try:
        if db.get_meta("seeded") is not None:
            return
        bulk = scale == "large" and not bare
        if bulk:
            # A million rows in one transaction: through a rollback journal they are written
            # once, through the WAL twice (the log, then the checkpoint). A new database has
            # no other connection, so the switch takes; back to WAL below.
            db.run("PRAGMA journal_mode = DELETE")
        with db.tx():
            fixed = build_fixed(db, moment)
            organization.build(db)
            if not bare:
                demo = Demo(db, random.Random(seed), moment, fixed)
                demo.build_small()
                templates.build(db, random.Random(f"templates {seed}"), moment,
                                [a.id for a in demo.agents])
                knowledge.build(db, random.Random(seed), moment, [a.id for a in demo.agents])
                if bulk:
                    demo.build_large()
            db.set_meta("scale", "empty" if bare else scale)
            db.set_meta("seeded", "empty" if bare else str(seed))
        db.run("ANALYZE")
        if bulk:
            db.run("PRAGMA journal_mode = WAL")
    finally:
        db.close()


def summary(db: Database | Path | str) -> dict[str, int]:
    """Rows per table (a database or its path): for tests, the demo banner and benchmarks."""
    own = not isinstance(db, Database)
    database = Database(db) if not isinstance(db, Database) else db
    try:
        names = [r["name"] for r in database.all(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name")]
        counts: dict[str, int] = {}
        for name in names:
            row = database.one(f"SELECT COUNT(*) AS n FROM {name}")
            counts[name] = int(row["n"]) if row is not None else 0
        return counts
    finally:
        if own:
            database.close()


def _aware(value: datetime) -> datetime:
    """``value`` as an aware UTC datetime (a naive one is taken as UTC)."""
    return value.astimezone(UTC) if value.tzinfo else value.replace(tzinfo=UTC)


__all__ = [
    "ADMIN_EMAIL",
    "CHANNELS",
    "CONVERSATION_TYPES",
    "DEMO_AGENT_EMAIL",
    "STATES",
    "WORKING_CHANNELS",
    "ascii_slug",
    "attachment_url",
    "chat_attributes",
    "email_attributes",
    "ensure_seeded",
    "files",
    "fill",
    "html_email",
    "new_uuid",
    "phone_attributes",
    "plain_attributes",
    "summary",
]
