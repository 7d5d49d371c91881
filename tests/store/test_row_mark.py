"""An inbox row keeps its time and fingerprint in one int: both read back exactly."""

from __future__ import annotations

import copy
import pickle
from datetime import UTC, datetime, timedelta, timezone

from frontdesk.store.rows import InboxRow, micros_of


def test_time_and_fingerprint_read_back_and_replace() -> None:
    moment = datetime(2026, 3, 1, 10, 30, 15, 123456, tzinfo=timezone(timedelta(hours=2)))
    row = InboxRow(7, "Open", "Email", "r", "Hi", None, None, moment, (1 << 64) - 1)
    assert row.when == moment and row.when.tzinfo is UTC
    assert row.digest == (1 << 64) - 1 and row.micros == micros_of(moment)
    assert InboxRow.from_compact(row.compact()) == row
    assert copy.deepcopy(row) == pickle.loads(pickle.dumps(row)) == row
    later = row._replace(when=moment + timedelta(microseconds=1), subject="Re: Hi")
    assert (later.when - row.when, later.digest, later.subject) == (
        timedelta(microseconds=1), row.digest, "Re: Hi")
    assert row._replace(digest=5).digest == 5 and row._replace(digest=5).when == moment
    early = InboxRow(1, None, "Sms", "r", None, None, None, datetime(1960, 1, 1))
    assert early.when == datetime(1960, 1, 1, tzinfo=UTC) and early.digest == 0
