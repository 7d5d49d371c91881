"""Business time: how much of a customer's wait fell within the schedule's open hours, over
nights, weekends, holidays, time zones and daylight saving time (no service, no console)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from frontdesk.api.models import ScheduleDefinition
from frontdesk.store.business_time import BusinessTime

HOUR = 3600.0
DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def schedule(zone: str, week: dict[int, list[tuple[str, str]] | None],
             exceptions: Sequence[dict[str, Any]] = ()) -> BusinessTime:
    """A schedule as the service's definition gives it: ``week`` maps a weekday (1 = Monday)
    to its intervals (an empty list: open all day; None: closed)."""
    regular = [{"name": DAYS[day - 1], "dayOfWeek": day, "businessHourType": "Regular",
                "status": "Closed" if hours is None else "Open", "startDate": "2025-01-01",
                "intervals": [{"startTime": a, "endTime": b} for a, b in hours or ()]}
               for day, hours in week.items()]
    definition = ScheduleDefinition.model_validate({
        "id": "s", "name": "support", "timezone": zone, "businessHours": regular,
        "exceptions": list(exceptions)})
    found = BusinessTime.of(definition)
    assert found is not None
    return found


OFFICE = {day: [("08:00", "17:00")] for day in range(1, 6)} | {6: None, 7: None}


def at(zone: str, year: int, month: int, day: int, hour: int = 0, minute: int = 0
       ) -> datetime:
    """A local wall-clock moment in ``zone``, as UTC."""
    return datetime(year, month, day, hour, minute, tzinfo=ZoneInfo(zone)).astimezone(UTC)


def test_nights_and_weekends_are_not_waited() -> None:
    cph = "Europe/Copenhagen"
    hours = schedule(cph, OFFICE)
    # Friday 16:30 to Monday 08:30: half an hour each side of a weekend
    wrote, now = at(cph, 2026, 1, 9, 16, 30), at(cph, 2026, 1, 12, 8, 30)
    assert (now - wrote).total_seconds() == 64 * HOUR
    assert hours.seconds_between(wrote, now) == HOUR
    # overnight, and a whole weekend: nothing
    assert hours.seconds_between(at(cph, 2026, 1, 6, 17, 0), at(cph, 2026, 1, 7, 8, 0)) == 0
    assert hours.seconds_between(at(cph, 2026, 1, 10, 9), at(cph, 2026, 1, 11, 20)) == 0
    # within a day, and a week: 5 days of 9 hours
    assert hours.seconds_between(at(cph, 2026, 1, 7, 9), at(cph, 2026, 1, 7, 11)) == 2 * HOUR
    assert hours.seconds_between(at(cph, 2026, 1, 5, 0), at(cph, 2026, 1, 12, 0)) == 45 * HOUR
    # no span, or one backwards
    assert hours.seconds_between(now, now) == 0
    assert hours.seconds_between(now, wrote) == 0


def test_the_schedules_time_zone_decides_and_split_days_count_their_parts() -> None:
    tokyo = schedule("Asia/Tokyo", {day: [("09:00", "12:00"), ("13:00", "18:00")]
                                    for day in range(1, 6)})
    # 08:00 UTC on a Wednesday is 17:00 in Tokyo: one open hour left that day
    wrote = datetime(2026, 1, 7, 8, tzinfo=UTC)
    assert tokyo.seconds_between(wrote, wrote + timedelta(hours=2)) == HOUR
    # Tokyo's whole Thursday: 8 hours (the lunch hour closed)
    assert tokyo.seconds_between(at("Asia/Tokyo", 2026, 1, 8, 0),
                                 at("Asia/Tokyo", 2026, 1, 9, 0)) == 8 * HOUR
    new_york = schedule("America/New_York", OFFICE)
    # the same UTC span is the night in New York (03:00 to 05:00)
    assert new_york.seconds_between(wrote, wrote + timedelta(hours=2)) == 0


def test_daylight_saving_time_moves_the_opening_instant() -> None:
    cph = "Europe/Copenhagen"
    hours = schedule(cph, OFFICE | {7: []})  # Sundays open all day
    # 08:00 in Copenhagen is 07:00 UTC on the Friday before summer time, 06:00 the Monday after
    assert hours.seconds_between(datetime(2026, 3, 27, 6, tzinfo=UTC),
                                 datetime(2026, 3, 27, 7, tzinfo=UTC)) == 0
    assert hours.seconds_between(datetime(2026, 3, 30, 6, tzinfo=UTC),
                                 datetime(2026, 3, 30, 7, tzinfo=UTC)) == HOUR
    # the Sunday the clocks go forward is 23 hours long, the one they go back 25
    assert hours.seconds_between(at(cph, 2026, 3, 29, 0), at(cph, 2026, 3, 30, 0)) == 23 * HOUR
    assert hours.seconds_between(at(cph, 2026, 10, 25, 0),
                                 at(cph, 2026, 10, 26, 0)) == 25 * HOUR


def test_holidays_and_exceptions_replace_the_weekday() -> None:
    cph = "Europe/Copenhagen"
    hours = schedule(cph, OFFICE, [
        {"name": "Christmas Day", "businessHourType": "Holiday", "status": "Closed",
         "startDate": "2025-01-01", "recurring": {"dayOfMonth": 25, "monthOfYear": 12}},
        {"name": "Good Friday", "businessHourType": "Holiday", "status": "Closed",
         "startDate": "2025-01-01", "recurring": {"holiday": "Good Friday"}},
        {"name": "Training", "businessHourType": "Exception", "status": "Open",
         "startDate": "2026-01-14", "intervals": [{"startTime": "08:00", "endTime": "12:00"}]},
        {"name": "Inventory", "businessHourType": "Exception", "status": "Open",
         "startDate": "2026-01-17", "intervals": []},  # a Saturday, open all day
    ])
    day = timedelta(days=1)
    christmas = at(cph, 2026, 12, 25, 0)  # a Friday
    assert hours.seconds_between(christmas, christmas + day) == 0
    good_friday = at(cph, 2026, 4, 3, 0)  # Easter Sunday 2026 is 5 April
    assert hours.seconds_between(good_friday, good_friday + day) == 0
    assert hours.seconds_between(good_friday - day, good_friday) == 9 * HOUR
    training = at(cph, 2026, 1, 14, 0)
    assert hours.seconds_between(training, training + day) == 4 * HOUR
    saturday = at(cph, 2026, 1, 17, 0)
    assert hours.seconds_between(saturday, saturday + day) == 24 * HOUR


def test_an_unknown_time_zone_gives_no_business_time() -> None:
    definition = ScheduleDefinition.model_validate(
        {"id": "s", "name": "x", "timezone": "Mars/Olympus", "businessHours": []})
    assert BusinessTime.of(definition) is None
