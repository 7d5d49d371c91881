"""A business-hours schedule's coming days as a calendar: open days from the service's
resolved entries, closed ones named by the exception, holiday or weekday that applies."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from ..api.models import (
    BusinessHourEntry,
    BusinessHoursStatus,
    ScheduleDefinition,
    UpcomingSchedule,
)

__all__ = ["Calendar", "CalendarDay", "build_calendar", "zone_named"]


@dataclass(frozen=True)
class CalendarDay:
    """One day of the coming days: open (with its hours) or closed, and the rule deciding
    it (a weekday, an exception or a holiday)."""

    day: date
    is_open: bool
    intervals: list[tuple[str, str]]
    name: str = ""
    kind: str = ""


@dataclass(frozen=True)
class Calendar:
    """The coming ``len(days)`` days of a schedule, from today in its time zone."""

    schedule_id: str
    name: str
    timezone: str
    days: list[CalendarDay]
    status: BusinessHoursStatus


def zone_named(name: str) -> ZoneInfo | None:
    """The time zone of that name, or None when there is none."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _matches(entry: BusinessHourEntry, day: date) -> bool:
    """Whether an exception or holiday of a definition falls on ``day``."""
    recurring = entry.recurring
    if recurring is not None and recurring.day_of_month and recurring.month_of_year:
        return (day.day, day.month) == (recurring.day_of_month, recurring.month_of_year)
    return day.isoformat() in (entry.start_date, entry.next_date)


def build_calendar(upcoming: UpcomingSchedule, definition: ScheduleDefinition | None,
                   status: BusinessHoursStatus, days: int) -> Calendar:
    """Every day of the range, open ones from the service's resolved entries, closed ones
    named by the definition's exception, holiday or weekday where one applies."""
    zone = zone_named(upcoming.timezone)
    first = status.timestamp.astimezone(zone or UTC).date()
    open_days: dict[str, BusinessHourEntry] = {e.next_date: e for e in upcoming.business_hours
                                               if e.next_date}
    out: list[CalendarDay] = []
    for offset in range(days):
        day = first + timedelta(days=offset)
        entry = open_days.get(day.isoformat())
        if entry is not None and entry.status == "Open":
            out.append(CalendarDay(day, True,
                                   [(i.start_time, i.end_time) for i in entry.intervals],
                                   entry.name, entry.business_hour_type))
            continue
        name, kind = "", ""
        if definition is not None:
            special = next((e for e in definition.exceptions if _matches(e, day)), None)
            if special is not None:
                name, kind = special.name, special.business_hour_type
        out.append(CalendarDay(day, False, [], name, kind))
    return Calendar(upcoming.id, upcoming.name, upcoming.timezone, out, status)
