"""Business hours: the calendar arithmetic of ``hours.py``, and the schedule operations."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import httpx2
import pytest

from frontdesk.api.models import (
    BusinessHoursStatus,
    ScheduleDefinitionBody,
    ScheduleList,
    UpcomingBody,
)
from frontdesk.sandbox import hours, records
from frontdesk.sandbox.clock import ManualClock
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.hours import Rule, Schedule
from frontdesk.sandbox.server import SandboxServer

UNKNOWN = "00000000-0000-4000-8000-00000000abcd"


def advance(sandbox: SandboxServer, seconds: float) -> None:
    """Move the sandbox's manual clock."""
    clock = sandbox.clock
    assert isinstance(clock, ManualClock)
    clock.advance(seconds)
SINCE = date(2025, 1, 1)
CPH = "Europe/Copenhagen"


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def regular(day: int, *intervals: tuple[str, str], since: date = SINCE) -> Rule:
    return Rule(kind="Regular", name=f"day {day}", status="Open" if intervals else "Closed",
                start_date=since, intervals=intervals, day_of_week=day)


def dated(kind: str, on: date, *intervals: tuple[str, str], closed: bool = False,
          recurring: dict[str, Any] | None = None, name: str = "special") -> Rule:
    return Rule(kind=kind, name=name, status="Closed" if closed else "Open", start_date=on,
                intervals=intervals, recurring=recurring)


def office(*extra: Rule, zone: str = CPH) -> Schedule:
    """Monday to Thursday 08:00-17:00, Friday 08:00-15:30, closed at the weekend."""
    week = [regular(d, ("08:00", "17:00")) for d in range(1, 5)]
    week += [regular(5, ("08:00", "15:30")), regular(6), regular(7)]
    return Schedule(timezone=zone, rules=(*week, *extra))


CHRISTMAS = dated("Holiday", date(2020, 12, 25), closed=True,
                  recurring={"dayOfMonth": 25, "monthOfYear": 12}, name="Christmas Day")


# ------------------------------------------------------------------ hours.py, pure


def test_a_regular_week() -> None:
    schedule = office()
    # Monday 2026-01-05, 10:00 in Copenhagen (CET, UTC+1)
    assert hours.status(schedule, utc("2026-01-05T09:00:00")) == hours.Status(
        True, None, utc("2026-01-05T16:00:00"))
    assert hours.status(schedule, utc("2026-01-05T06:59:59")) == hours.Status(
        False, utc("2026-01-05T07:00:00"), None)
    # the end of an interval is already closed; the next day opens at 08:00 local
    assert hours.status(schedule, utc("2026-01-05T16:00:00")) == hours.Status(
        False, utc("2026-01-06T07:00:00"), None)
    friday = hours.day_intervals(schedule, date(2026, 1, 9))
    assert friday == [(utc("2026-01-09T07:00:00"), utc("2026-01-09T14:30:00"))]
    assert hours.day_intervals(schedule, date(2026, 1, 10)) == []


def test_opens_at_across_a_weekend() -> None:
    schedule = office()
    friday_evening = utc("2026-01-09T15:00:00")
    assert hours.status(schedule, friday_evening) == hours.Status(
        False, utc("2026-01-12T07:00:00"), None)
    assert hours.status(schedule, utc("2026-01-11T22:59:00")).opens_at == utc(
        "2026-01-12T07:00:00")


def test_an_exception_day_replaces_the_weekday() -> None:
    schedule = office(dated("Exception", date(2026, 1, 7), ("10:00", "12:00")))
    wednesday = date(2026, 1, 7)
    assert hours.day_intervals(schedule, wednesday) == [
        (utc("2026-01-07T09:00:00"), utc("2026-01-07T11:00:00"))]
    assert hours.status(schedule, utc("2026-01-07T08:00:00")) == hours.Status(
        False, utc("2026-01-07T09:00:00"), None)
    assert hours.status(schedule, utc("2026-01-07T10:30:00")).closes_at == utc(
        "2026-01-07T11:00:00")
    rule = hours.rule_for(schedule, wednesday)
    assert rule is not None and rule.kind == "Exception"
    # the next Wednesday is regular again
    assert hours.day_intervals(schedule, date(2026, 1, 14))[0][0] == utc("2026-01-14T07:00:00")


def test_a_closed_holiday_removes_the_day_every_year() -> None:
    schedule = office(CHRISTMAS)
    days = dict(hours.upcoming(schedule, date(2026, 12, 21), 7))  # Monday to Sunday
    assert sorted(days) == [date(2026, 12, d) for d in (21, 22, 23, 24)]  # 25th is Friday
    assert hours.status(schedule, utc("2026-12-24T17:00:00")).opens_at == utc(
        "2026-12-28T07:00:00")
    assert hours.falls_on(CHRISTMAS, date(2031, 12, 25))
    assert not hours.falls_on(CHRISTMAS, date(2019, 12, 25))  # before it started


def test_one_off_exception_beats_a_recurring_holiday() -> None:
    open_this_year = dated("Exception", date(2026, 12, 25), ("10:00", "14:00"))
    schedule = office(open_this_year, CHRISTMAS)
    assert hours.rule_for(schedule, date(2026, 12, 25)) is open_this_year
    assert hours.rule_for(schedule, date(2027, 12, 25)) is CHRISTMAS


def test_daylight_saving_changes_in_copenhagen() -> None:
    schedule = office()
    # Summer time starts on Sunday 29 March 2026: 08:00 is 07:00Z before, 06:00Z after.
    assert hours.status(schedule, utc("2026-03-27T12:00:00")).closes_at == utc(
        "2026-03-27T14:30:00")
    assert hours.status(schedule, utc("2026-03-28T12:00:00")) == hours.Status(
        False, utc("2026-03-30T06:00:00"), None)
    # and ends on Sunday 25 October 2026
    assert hours.status(schedule, utc("2026-10-24T12:00:00")).opens_at == utc(
        "2026-10-26T07:00:00")
    all_day = Schedule(CPH, (regular(7, ("00:00", "24:00")),))
    ((start, end),) = hours.day_intervals(all_day, date(2026, 3, 29))
    assert end - start == timedelta(hours=23)
    ((start, end),) = hours.day_intervals(all_day, date(2026, 10, 25))
    assert end - start == timedelta(hours=25)


def test_upcoming_days() -> None:
    schedule = office(CHRISTMAS)
    monday = date(2026, 1, 5)
    assert [d for d, _ in hours.upcoming(schedule, monday, 1)] == [monday]
    assert hours.upcoming(schedule, date(2026, 1, 10), 1) == []  # a Saturday
    ninety = hours.upcoming(schedule, monday, 90)
    # 12 whole weeks, then Monday to Friday; the 90th day is a closed Saturday
    assert len(ninety) == 5 * 12 + 5
    assert all(day.isoweekday() <= 5 for day, _ in ninety)
    assert ninety[-1][0] == monday + timedelta(days=88)


def test_adjacent_intervals_close_once_and_always_open_never_closes() -> None:
    split = Schedule(CPH, (regular(1, ("09:00", "12:00"), ("12:00", "17:00")),))
    assert hours.status(split, utc("2026-01-05T09:00:00")).closes_at == utc(
        "2026-01-05T16:00:00")
    lunch = Schedule(CPH, (regular(1, ("09:00", "12:00"), ("13:00", "17:00")),))
    assert hours.status(lunch, utc("2026-01-05T09:00:00")).closes_at == utc(
        "2026-01-05T11:00:00")
    assert hours.status(lunch, utc("2026-01-05T11:30:00")).opens_at == utc(
        "2026-01-05T12:00:00")
    always = Schedule("UTC", tuple(  # Open without intervals: all day, every day
        Rule(kind="Regular", name="all", status="Open", start_date=SINCE, day_of_week=d)
        for d in range(1, 8)))
    assert hours.status(always, utc("2026-01-05T09:00:00")) == hours.Status(True, None, None)
    never = Schedule("UTC", ())
    assert hours.status(never, utc("2026-01-05T09:00:00")) == hours.Status(False, None, None)


def test_a_later_regular_rule_takes_over() -> None:
    schedule = Schedule("UTC", (regular(1, ("08:00", "16:00")),
                                regular(1, ("10:00", "14:00"), since=date(2026, 2, 1))))
    assert hours.day_intervals(schedule, date(2026, 1, 26))[0][0] == utc("2026-01-26T08:00:00")
    assert hours.day_intervals(schedule, date(2026, 2, 2))[0][0] == utc("2026-02-02T10:00:00")


def test_recurring_and_movable_holidays() -> None:
    assert hours.easter(2026) == date(2026, 4, 5)
    assert hours.easter(2027) == date(2027, 3, 28)
    good_friday = dated("Holiday", SINCE, closed=True, recurring={"holiday": "Good Friday"})
    assert hours.falls_on(good_friday, date(2026, 4, 3))
    assert hours.next_occurrence(good_friday, date(2026, 4, 4)) == date(2027, 3, 26)
    leap = dated("Holiday", date(2024, 2, 29), closed=True, recurring={})
    assert hours.next_occurrence(leap, date(2024, 3, 1)) == date(2028, 2, 29)
    once = dated("Exception", date(2026, 1, 7))
    assert hours.next_occurrence(once, date(2026, 1, 5)) == date(2026, 1, 7)
    assert hours.next_occurrence(once, date(2026, 1, 8)) is None


@pytest.mark.parametrize("text", ["9:00", "09:60", "24:01", "ab:cd", "0900", ""])
def test_bad_clock_times(text: str) -> None:
    with pytest.raises(ValueError):
        hours.parse_clock(text)


def test_zone_names() -> None:
    assert hours.valid_zone(CPH)
    assert not hours.valid_zone("Mars/Olympus_Mons")


# ------------------------------------------------------------------ over HTTP


def make_schedule(sandbox: SandboxServer, *, name: str = "Test office", position: int = 100
                  ) -> str:
    """The office week in Copenhagen with a closed Christmas and one exception day."""

    def write(ctx: SandboxContext) -> str:
        db = ctx.db
        with db.tx():
            schedule_id = records.insert_schedule(db, name=name, timezone=CPH,
                                                  position=position)
            for day in range(1, 6):
                records.insert_schedule_entry(
                    db, schedule_id=schedule_id, kind="Regular", name=f"day {day}",
                    day_of_week=day, start_date="2025-01-01",
                    intervals=[("08:00", "15:30" if day == 5 else "17:00")])
            for day in (6, 7):
                records.insert_schedule_entry(
                    db, schedule_id=schedule_id, kind="Regular", name=f"day {day}",
                    day_of_week=day, start_date="2025-01-01", status="Closed")
            records.insert_schedule_entry(
                db, schedule_id=schedule_id, kind="Holiday", name="Christmas Day",
                start_date="2020-12-25", status="Closed",
                recurring={"dayOfMonth": 25, "monthOfYear": 12})
            records.insert_schedule_entry(
                db, schedule_id=schedule_id, kind="Exception", name="Training",
                start_date="2026-01-07", intervals=[("10:00", "12:00")])
        return schedule_id

    return sandbox.call(write)


def message(response: httpx2.Response) -> str:
    body = response.json()
    assert set(body) == {"message"}
    return str(body["message"])


def test_list_schedules_paged(http: httpx2.Client, sandbox: SandboxServer) -> None:
    mine = {make_schedule(sandbox, name=f"Office {n}", position=100 + n) for n in range(3)}
    everything = http.get("/v1/business-hours/schedules", params={"pageLimit": 500}).json()
    ScheduleList.model_validate(everything["data"])
    all_ids = [s["id"] for s in everything["data"]["schedules"]]
    assert mine <= set(all_ids)
    seen: list[str] = []
    url: str | None = "/v1/business-hours/schedules?pageLimit=1"
    while url is not None:
        body = http.get(url).json()
        page = body["data"]["schedules"]
        assert len(page) == 1
        seen += [s["id"] for s in page]
        url = (body.get("meta") or {}).get("next")
        assert len(seen) <= len(all_ids)
    assert seen == all_ids
    assert http.get("/v1/business-hours/schedules",
                    params={"pageKey": "nonsense!"}).status_code == 400
    assert http.get("/v1/business-hours/schedules",
                    params={"pageLimit": 0}).status_code == 400


def test_definition(http: httpx2.Client, sandbox: SandboxServer) -> None:
    schedule_id = make_schedule(sandbox)
    response = http.get(f"/v1/business-hours/schedules/{schedule_id}/definition")
    assert response.status_code == 200
    body = ScheduleDefinitionBody.model_validate(response.json()["data"])
    schedule = body.schedule
    assert (schedule.id, schedule.name, schedule.timezone) == (schedule_id, "Test office", CPH)
    assert [e.day_of_week for e in schedule.business_hours] == [1, 2, 3, 4, 5, 6, 7]
    monday = response.json()["data"]["schedule"]["businessHours"][0]
    assert monday == {"name": "day 1", "dayOfWeek": 1, "businessHourType": "Regular",
                      "status": "Open", "intervals": [{"startTime": "08:00",
                                                       "endTime": "17:00"}],
                      "startDate": "2025-01-01"}
    assert schedule.business_hours[6].status == "Closed"
    assert schedule.business_hours[6].intervals == []
    christmas, training = schedule.exceptions
    assert christmas.business_hour_type == "Holiday"
    assert christmas.recurring is not None and christmas.recurring.month_of_year == 12
    assert christmas.next_date == "2026-12-25"
    assert (training.business_hour_type, training.next_date) == ("Exception", "2026-01-07")


def test_upcoming(http: httpx2.Client, sandbox: SandboxServer) -> None:
    schedule_id = make_schedule(sandbox)
    url = f"/v1/business-hours/schedules/{schedule_id}/upcoming"
    week = http.get(url)
    assert week.status_code == 200
    body = UpcomingBody.model_validate(week.json()["data"])
    days = [(e.next_date, e.business_hour_type) for e in body.schedule.business_hours]
    # today is Monday 5 January 2026; Wednesday is the training day; no weekend
    assert days == [("2026-01-05", "Regular"), ("2026-01-06", "Regular"),
                    ("2026-01-07", "Exception"), ("2026-01-08", "Regular"),
                    ("2026-01-09", "Regular")]
    one = http.get(url, params={"days": 1}).json()["data"]["schedule"]["businessHours"]
    assert [e["nextDate"] for e in one] == ["2026-01-05"]
    ninety = http.get(url, params={"days": 90}).json()["data"]["schedule"]["businessHours"]
    assert len(ninety) == 5 * 12 + 5  # 12 weeks and Monday to Friday; day 90 is a Saturday
    assert ninety[-1]["nextDate"] == "2026-04-03"
    for bad in (0, 91, "seven"):
        response = http.get(url, params={"days": bad})
        assert response.status_code == 400
        assert "days" in message(response)


def test_status(http: httpx2.Client, sandbox: SandboxServer) -> None:
    schedule_id = make_schedule(sandbox)
    url = f"/v1/business-hours/schedules/{schedule_id}/status"
    now = http.get(url)
    assert now.status_code == 200
    assert now.json()["data"] == {"isOpen": True, "timestamp": "2026-01-05T09:00:00.000Z",
                                  "opensAt": None, "closesAt": "2026-01-05T16:00:00.000Z"}
    BusinessHoursStatus.model_validate(now.json()["data"])
    friday = http.get(url, params={"timestamp": "2026-01-09T17:00:00+01:00"}).json()["data"]
    assert friday == {"isOpen": False, "timestamp": "2026-01-09T16:00:00.000Z",
                      "opensAt": "2026-01-12T07:00:00.000Z", "closesAt": None}
    # an unencoded "+" reaches the service as a space, and the zoned form is understood too
    spaced = http.get(url + "?timestamp=2026-01-09T17:00:00+01:00").json()["data"]
    assert spaced == friday
    zoned = http.get(url, params={"timestamp": "2026-01-09T16:00:00.000Z[GMT]"}).json()["data"]
    assert zoned == friday
    advance(sandbox, 8 * 3600)  # 18:00 local
    later = http.get(url).json()["data"]
    assert (later["isOpen"], later["opensAt"]) == (False, "2026-01-06T07:00:00.000Z")
    for bad in ("yesterday", "2026-13-01T00:00:00Z", "0001-01-01T00:00:00Z"):
        response = http.get(url, params={"timestamp": bad})
        assert response.status_code == 400
        assert "timestamp" in message(response)


@pytest.mark.parametrize("operation", ["definition", "upcoming", "status"])
def test_unknown_schedule(http: httpx2.Client, operation: str) -> None:
    response = http.get(f"/v1/business-hours/schedules/{UNKNOWN}/{operation}")
    assert response.status_code == 404
    assert "Schedule" in message(response)
    assert http.get(f"/v1/business-hours/schedules/nope/{operation}").status_code == 400


@pytest.mark.parametrize("entry", [
    {"kind": "Regular", "name": "Mon", "start_date": "2025-01-01"},  # no day of week
    {"kind": "Regular", "name": "Mon", "start_date": "2025-01-01", "day_of_week": 8},
    {"kind": "Holiday", "name": "X", "start_date": "2025-01-01", "day_of_week": 1},
    {"kind": "Sometimes", "name": "X", "start_date": "2025-01-01"},
    {"kind": "Exception", "name": "X", "start_date": "1 Jan"},
    {"kind": "Exception", "name": "X", "start_date": "2025-01-01", "status": "Maybe"},
    {"kind": "Exception", "name": "X", "start_date": "2025-01-01",
     "intervals": [("17:00", "09:00")]},
    {"kind": "Exception", "name": "X", "start_date": "2025-01-01",
     "intervals": [("9", "17:00")]},
])
def test_records_refuse_bad_schedule_entries(sandbox: SandboxServer, entry: dict[str, Any]
                                             ) -> None:
    def write(ctx: SandboxContext) -> None:
        with ctx.db.tx():
            schedule_id = records.insert_schedule(ctx.db, name="Bad", timezone="UTC")
            records.insert_schedule_entry(ctx.db, schedule_id=schedule_id, **entry)

    with pytest.raises(ValueError):
        sandbox.call(write)


def test_records_refuse_an_unknown_zone(sandbox: SandboxServer) -> None:
    def write(ctx: SandboxContext) -> None:
        with ctx.db.tx():
            records.insert_schedule(ctx.db, name="Bad", timezone="Mars/Olympus_Mons")

    with pytest.raises(ValueError):
        sandbox.call(write)
