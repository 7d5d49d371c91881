"""Business-hours schedules: definitions, the coming days, and open or closed."""

from __future__ import annotations

from pydantic import Field

from .common import Record, UtcDateTime


class ScheduleRef(Record):
    """A schedule's id and name."""

    id: str
    name: str


class ScheduleList(Record):
    """One page of schedules."""

    schedules: list[ScheduleRef]


class Interval(Record):
    """Opening hours within a day, ``HH:MM`` to ``HH:MM`` local time."""

    start_time: str
    end_time: str


class Recurring(Record):
    """When an exception or holiday comes back each year."""

    day_of_month: int | None = None
    month_of_year: int | None = None
    holiday: str | None = None


class BusinessHourEntry(Record):
    """A day's hours: a weekly ``Regular`` day, an ``Exception`` or a ``Holiday``."""

    name: str
    day_of_week: int | None = Field(default=None, description="1 = Monday")
    business_hour_type: str = Field(description="Regular, Exception or Holiday")
    status: str = Field(description="Open or Closed")
    intervals: list[Interval] = Field(default_factory=list)
    start_date: str | None = None
    recurring: Recurring | None = None
    next_date: str | None = None


class ScheduleDefinition(Record):
    """A schedule: weekly hours and exceptions, in a time zone."""

    id: str
    name: str
    timezone: str
    business_hours: list[BusinessHourEntry] = Field(default_factory=list)
    exceptions: list[BusinessHourEntry] = Field(default_factory=list)


class ScheduleDefinitionBody(Record):
    """``{"schedule": …}`` of the definition operation."""

    schedule: ScheduleDefinition


class UpcomingSchedule(Record):
    """The coming days of a schedule, rules and exceptions applied; one entry per open day."""

    id: str
    name: str
    timezone: str
    business_hours: list[BusinessHourEntry] = Field(default_factory=list)


class UpcomingBody(Record):
    """``{"schedule": …}`` of the upcoming operation."""

    schedule: UpcomingSchedule


class BusinessHoursStatus(Record):
    """Whether the business is open at ``timestamp``; when it closes, or when it opens."""

    is_open: bool
    timestamp: UtcDateTime
    opens_at: UtcDateTime | None = None
    closes_at: UtcDateTime | None = None

    def wire(self) -> dict[str, object]:
        """Both ``opensAt`` and ``closesAt`` are sent; the one that does not apply is null."""
        return self.model_dump(mode="json")


__all__ = [
    "BusinessHourEntry",
    "BusinessHoursStatus",
    "Interval",
    "Recurring",
    "ScheduleDefinition",
    "ScheduleDefinitionBody",
    "ScheduleList",
    "ScheduleRef",
    "UpcomingBody",
    "UpcomingSchedule",
]
