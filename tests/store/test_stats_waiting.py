"""The Stats waiting chart from stays in a queue: how many had begun and not ended at each
day's end (today: now), the most of those, and how many wait now."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from frontdesk.api.models import MetricRecord
from frontdesk.store.stats import TILES, waiting_tile

NOW = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)  # TZ=UTC in tests: local midnight is UTC's
DAYS = tuple(date(2026, 1, day) for day in range(1, 6))
WAITING = next(spec for spec in TILES if spec.figure == "waiting")


def stay(arrived: str, left: str | None = None) -> MetricRecord:
    fields: list[dict[str, Any]] = [{"name": "csid", "field": {"value": 1,
                                                               "_type": "LongField"}}]
    if left is not None:
        fields.append({"name": "left_queue_at", "field": {"value": left,
                                                          "_type": "InstantField"}})
    return MetricRecord.model_validate({
        "primaryTimestampField": {"name": "arrived_at", "timestamp": arrived},
        "fields": fields})


def test_waiting_is_counted_at_each_days_end() -> None:
    records = [
        stay("2025-12-20T10:00:00Z"),                          # waits all along
        stay("2026-01-01T08:00:00Z", "2026-01-02T09:00:00Z"),  # over the 1st's end
        stay("2026-01-02T23:00:00Z", "2026-01-03T00:00:00Z"),  # left at the 2nd's very end
        stay("2026-01-03T12:00:00Z", "2026-01-03T13:00:00Z"),  # within a day: never counted
        stay("2026-01-04T22:00:00Z", "2026-01-05T08:30:00Z"),  # over the 4th's end
        stay("2026-01-05T08:00:00Z"),                          # arrived today, waits now
        stay("2026-01-05T10:00:00Z"),                          # after now (clock skew)
        stay("2026-01-03T10:00:00Z", "not a time"),            # an end we cannot read: open
    ]
    tile = waiting_tile(WAITING, records, DAYS, NOW)
    assert tile.series == (2.0, 1.0, 2.0, 3.0, 3.0)
    assert tile.today == 3.0 and tile.week == 3.0
    assert tile.records == tuple(reversed(records))  # the service's order, newest first
