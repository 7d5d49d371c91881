"""The periods of the sandbox's analytics: a preset (today, this week, the previous quarter…)
or an interval, as ``[start, end)`` in the request's time zone."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..api.models.analytics import PeriodInterval, PeriodPreset
from .errors import bad_request

__all__ = ["period", "zone"]


def zone(name: str) -> ZoneInfo:
    """The request's time zone; a 400 for one that does not exist."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise bad_request(f"Invalid value in request: unknown timezone {name!r}") from None


def period(now: datetime, value: PeriodPreset | PeriodInterval, tz: ZoneInfo
           ) -> tuple[datetime, datetime]:
    """``[start, end)`` of a period, as aware datetimes."""
    if isinstance(value, PeriodInterval):
        if value.end <= value.start:
            raise bad_request("Invalid value in request: the period must end after it starts")
        return value.start, value.end
    local = now.astimezone(tz)
    day = local.replace(hour=0, minute=0, second=0, microsecond=0)
    name = value.value.type
    if name in ("Today", "Yesterday"):
        start = day - timedelta(days=1 if name == "Yesterday" else 0)
        return _span(start, days=1, tz=tz)
    if name in ("ThisWeek", "PreviousWeek"):
        start = day - timedelta(days=day.weekday() + (7 if name == "PreviousWeek" else 0))
        return _span(start, days=7, tz=tz)
    if name == "ThisYear":
        start = day.replace(month=1, day=1)
        return start, start.replace(year=start.year + 1)
    months = 3 if "Quarter" in name else 1
    first = day.replace(day=1, month=(day.month - 1) // months * months + 1)
    if name.startswith("Previous"):
        first = _add_months(first, -months)
    return first, _add_months(first, months)


def _span(start: datetime, *, days: int, tz: ZoneInfo) -> tuple[datetime, datetime]:
    naive = start.replace(tzinfo=None)
    return naive.replace(tzinfo=tz), (naive + timedelta(days=days)).replace(tzinfo=tz)


def _add_months(value: datetime, months: int) -> datetime:
    index = value.year * 12 + value.month - 1 + months
    return value.replace(year=index // 12, month=index % 12 + 1)
