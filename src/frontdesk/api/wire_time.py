"""The one parser (and writer) of the service's timestamps.

The service writes three forms: ``2021-12-01T12:46:36.581Z``, ``2021-12-01T12:46:36.581Z[GMT]``
(a Java zoned form) and the zone-less ``2021-12-01T12:46:35.935`` (read as UTC). The models
validate with it and the store reads raw records with it. No pydantic here: the store's rows
use it before the models are loaded (the first frame does not wait for them).
"""

from __future__ import annotations

from datetime import UTC, datetime


class TimeOutOfRange(ValueError):
    """A timestamp that reads but cannot be brought to UTC (``9999-12-31T23:59:59-01:00``)."""


def parse_wire_time(text: str) -> datetime:
    """A timestamp of the wire as an aware UTC datetime; ``ValueError`` for anything else."""
    text = text.strip()
    if text.endswith("]"):
        text = text[:text.rindex("[")]  # no "[": ValueError, as for any bad form
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise TimeOutOfRange("timestamp is out of range") from None


def _millis(value: datetime) -> str:
    """The time to the millisecond, the year in four digits (the C library's ``%Y`` writes
    the year 192 as ``192``, which no reader takes for a date)."""
    value = value.astimezone(UTC) if value.tzinfo else value
    return (f"{value.year:04d}-{value.month:02d}-{value.day:02d}T{value.hour:02d}:"
            f"{value.minute:02d}:{value.second:02d}.{value.microsecond // 1000:03d}")


def format_utc(value: datetime) -> str:
    """``2021-12-01T12:46:36.581Z``: the service's ordinary form."""
    return _millis(value) + "Z"


def format_zoned(value: datetime) -> str:
    """``2021-12-01T12:46:36.581Z[GMT]``: the zoned form of message and anonymisation times."""
    return _millis(value) + "Z[GMT]"


def format_local(value: datetime) -> str:
    """``2021-12-01T12:46:35.935``: the zone-less form of presence times."""
    return _millis(value)
