"""What the local store raises when it cannot read or write.

SQLite's own errors (a damaged file, a closed connection) and :class:`LocalStoreError` (a
full disk, a read-only file). Code that carries on without the local store (a default
instead of a kept choice, a refusal instead of a queued reply) catches these, and only
these: anything else is a bug, and goes on to the console's one handler for failed workers.
"""

from __future__ import annotations

import sqlite3
from typing import Final

from .local import LocalStoreError

__all__ = ["LOCAL_FAILURES"]

LOCAL_FAILURES: Final = (sqlite3.Error, LocalStoreError)
