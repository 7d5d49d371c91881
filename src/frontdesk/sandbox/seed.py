"""Demo and test data for the sandbox (placeholder: the organisation's bare bones)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Literal

from .db import Database


def ensure_seeded(path: Path, *, seed: int | None, empty: bool = False,
                  scale: Literal["small", "large"] = "small", now: datetime | None = None) -> None:
    """Create the database at ``path`` and fill it once (nothing happens when it is filled).

    ``seed`` makes the demo organisation deterministic; ``empty`` keeps only the contact
    endpoints, custom attribute definitions and schedules; ``now`` anchors every time.
    """
    db = Database(path)
    try:
        if db.get_meta("seeded") is None:
            with db.tx():
                db.set_meta("seeded", "empty" if empty or seed is None else str(seed))
    finally:
        db.close()
