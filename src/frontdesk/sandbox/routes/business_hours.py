"""Sandbox routes: business-hours schedules, their coming days, and open or closed now.

The calendar arithmetic is in ``hours.py``; this module reads the rows and shapes the answers.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel
from starlette.responses import Response

from ...api.models import (
    BusinessHoursStatus,
    Envelope,
    PageMeta,
    ScheduleDefinitionBody,
    ScheduleList,
    UpcomingBody,
    parse_timestamp,
)
from .. import hours
from ..context import (
    Ctx,
    SandboxContext,
    decode_page_key,
    encode_page_key,
    ok,
    page_limit,
    page_meta,
)
from ..db import iso, loads
from ..errors import bad_request, not_found
from ..params import ScheduleIdPath

router = APIRouter(tags=["business hours"])

NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"description": "No such schedule"}}
MAX_DAYS = 90
#: Timestamps the status operation accepts (the calendar searches 400 days on either side).
MIN_YEAR, MAX_YEAR = 1900, 9000


class SchedulePage(BaseModel):
    """``{"data": {"schedules": […]}, "meta": …}``: one page of schedules."""

    data: ScheduleList
    meta: PageMeta | None = None


def get_schedule(ctx: SandboxContext, schedule_id: str) -> Any:
    """The schedule row, or a 404."""
    row = ctx.db.one("SELECT * FROM schedules WHERE id = ?", (schedule_id.lower(),))
    if row is None:
        raise not_found(f"Schedule {schedule_id}")
    return row


def _entry_rows(ctx: SandboxContext, schedule_id: str) -> list[Any]:
    return ctx.db.all("SELECT * FROM schedule_entries WHERE schedule_id = ? ORDER BY id",
                      (schedule_id,))


def _rule(row: Any) -> hours.Rule:
    return hours.rule_from_row(
        kind=row["kind"], name=row["name"], status=row["status"], start_date=row["start_date"],
        intervals=loads(row["intervals"]) or [], day_of_week=row["day_of_week"],
        recurring=loads(row["recurring"]),
    )


def load(ctx: SandboxContext, schedule_id: str) -> tuple[Any, hours.Schedule]:
    """The schedule row and its rules for the calendar (404 when unknown)."""
    row = get_schedule(ctx, schedule_id)
    rules = tuple(_rule(r) for r in _entry_rows(ctx, row["id"]))
    return row, hours.Schedule(timezone=row["timezone"], rules=rules)


def entry(rule: hours.Rule, next_date: date | None = None) -> dict[str, Any]:
    """A Regular, Exception or Holiday entry in wire form (a Closed one has no intervals)."""
    out: dict[str, Any] = {"name": rule.name}
    if rule.kind == hours.REGULAR:
        out["dayOfWeek"] = rule.day_of_week
    out["businessHourType"] = rule.kind
    out["status"] = rule.status
    out["intervals"] = ([{"startTime": s, "endTime": e} for s, e in rule.intervals]
                        if rule.is_open else [])
    if rule.recurring is not None:
        out["recurring"] = dict(rule.recurring)
    out["startDate"] = rule.start_date.isoformat()
    if next_date is not None:
        out["nextDate"] = next_date.isoformat()
    return out


@router.get("/v1/business-hours/schedules", response_model=SchedulePage,
            summary="List schedules")
async def list_schedules(
    ctx: Ctx,
    request: Request,
    limit: Annotated[int | None, Query(alias="pageLimit")] = None,
    key: Annotated[str | None, Query(alias="pageKey", max_length=500)] = None,
) -> Response:
    """Schedules (id and name), a page at a time."""
    size = page_limit(limit)
    position = decode_page_key(key)
    params: tuple[Any, ...] = ()
    where = ""
    if position is not None:
        after = position.get("after")
        if not (isinstance(after, list) and len(after) == 2 and isinstance(after[0], int)
                and isinstance(after[1], str)):
            raise bad_request("Invalid value in request: pageKey is not a key this service made")
        where = " WHERE (position, id) > (?, ?)"
        params = (after[0], after[1])
    rows = ctx.db.all(f"SELECT id, name, position FROM schedules{where} "
                      "ORDER BY position, id LIMIT ?", (*params, size + 1))
    more = len(rows) > size
    rows = rows[:size]
    next_key = (encode_page_key({"after": [rows[-1]["position"], rows[-1]["id"]]})
                if more else None)
    return ok({"schedules": [{"id": r["id"], "name": r["name"]} for r in rows]},
              meta=page_meta(request, next_key, size))


@router.get("/v1/business-hours/schedules/{scheduleId}/definition",
            response_model=Envelope[ScheduleDefinitionBody], summary="A schedule's definition",
            responses=NOT_FOUND)
async def schedule_definition(ctx: Ctx, schedule_id: ScheduleIdPath) -> Response:
    """Weekly hours (Regular, by day of week) and the exceptions and holidays, with the next
    date each of those falls on."""
    row, schedule = load(ctx, schedule_id)
    today = hours.local_today(schedule, ctx.clock.now())
    regular = sorted((r for r in schedule.rules if r.kind == hours.REGULAR),
                     key=lambda r: (r.day_of_week or 0, r.start_date))
    dated = sorted((r for r in schedule.rules if r.kind != hours.REGULAR),
                   key=lambda r: r.start_date)
    return ok({"schedule": {
        "id": row["id"], "name": row["name"], "timezone": row["timezone"],
        "businessHours": [entry(r) for r in regular],
        "exceptions": [entry(r, hours.next_occurrence(r, today)) for r in dated],
    }})


@router.get("/v1/business-hours/schedules/{scheduleId}/upcoming",
            response_model=Envelope[UpcomingBody], summary="The coming days of a schedule",
            responses=NOT_FOUND)
async def schedule_upcoming(
    ctx: Ctx,
    schedule_id: ScheduleIdPath,
    days: Annotated[int, Query(ge=1, le=MAX_DAYS, description="how many days, from today")] = 7,
) -> Response:
    """One entry per open day among today and the following days (the schedule's local
    dates), exceptions and holidays replacing the weekly rule; closed days are left out."""
    row, schedule = load(ctx, schedule_id)
    today = hours.local_today(schedule, ctx.clock.now())
    return ok({"schedule": {
        "id": row["id"], "name": row["name"], "timezone": row["timezone"],
        "businessHours": [entry(rule, day) for day, rule in
                          hours.upcoming(schedule, today, days)],
    }})


_SPACED_OFFSET = re.compile(r" (\d\d(:?\d\d)?)$")


def _instant(text: str | None, ctx: SandboxContext) -> datetime:
    if text is None:
        return ctx.clock.now()
    # An unencoded "+01:00" in a query string arrives as " 01:00".
    value = parse_timestamp(_SPACED_OFFSET.sub(r"+\1", text.strip()))
    if not isinstance(value, datetime):
        raise bad_request("Invalid value in request: timestamp must be an ISO-8601 date-time")
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise bad_request(f"Invalid value in request: timestamp must be in the years "
                          f"{MIN_YEAR} to {MAX_YEAR}")
    return value


@router.get("/v1/business-hours/schedules/{scheduleId}/status",
            response_model=Envelope[BusinessHoursStatus],
            summary="Whether the business is open now or at a given time", responses=NOT_FOUND)
async def schedule_status(
    ctx: Ctx,
    schedule_id: ScheduleIdPath,
    timestamp: Annotated[str | None, Query(max_length=64,
                                           description="ISO-8601; default now")] = None,
) -> Response:
    """Open or closed at ``timestamp``: when open, ``closesAt`` is the end of the current open
    period and ``opensAt`` null; when closed, ``opensAt`` is the next opening and ``closesAt``
    null (both null when it never opens within 400 days)."""
    _, schedule = load(ctx, schedule_id)
    at = _instant(timestamp, ctx)
    result = hours.status(schedule, at)
    return ok({
        "isOpen": result.is_open,
        "timestamp": iso(at),
        "opensAt": None if result.opens_at is None else iso(result.opens_at),
        "closesAt": None if result.closes_at is None else iso(result.closes_at),
    })
