"""Business hours: schedules, their definitions, the coming days, and open or closed now."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime
from typing import Any

import httpx2

from ..models.business_hours import (
    BusinessHoursStatus,
    ScheduleDefinition,
    ScheduleRef,
    UpcomingSchedule,
)
from ..models.common import format_utc
from ..operations import Operation, operation
from ..pacing import Priority
from ._base import Page, Resource, check_uuid, fail, parse_one, unwrap

__all__ = ["BusinessHoursResource"]

_LIST = operation("business_hours.list_schedules")
_DEFINITION = operation("business_hours.definition")
_UPCOMING = operation("business_hours.upcoming")
_STATUS = operation("business_hours.status")


class BusinessHoursResource(Resource):
    """``client.business_hours``: when the organisation is open."""

    async def list_schedules(
        self, *, page_size: int | None = None, priority: Priority = Priority.INTERACTIVE
    ) -> AsyncIterator[ScheduleRef]:
        """Every schedule (id and name), page by page."""

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[ScheduleRef]:
            return await self._fetch_page(_LIST, ScheduleRef, page_size=page_size, page_key=key,
                                          priority=priority, items_of=_schedules, url=url)

        async for schedule in self._iterate(fetch, _LIST):
            yield schedule

    async def list_schedules_page(
        self,
        *,
        page_size: int | None = None,
        page_key: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Page[ScheduleRef]:
        """One page of schedules."""
        return await self._fetch_page(_LIST, ScheduleRef, page_size=page_size,
                                      page_key=page_key, priority=priority,
                                      items_of=_schedules)

    async def definition(self, schedule_id: str, *, priority: Priority = Priority.INTERACTIVE
                         ) -> ScheduleDefinition:
        """A schedule's weekly hours and exceptions, in its time zone."""
        path = {"scheduleId": check_uuid(schedule_id, _DEFINITION, "schedule id")}
        reply = await self._transport.send(_DEFINITION, path=path, priority=priority)
        return parse_one(_DEFINITION, _schedule(_DEFINITION, reply.body), ScheduleDefinition)

    async def upcoming(
        self,
        schedule_id: str,
        *,
        days: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> UpcomingSchedule:
        """The next ``days`` days (1-90; the service's default is 7) with rules and
        exceptions applied: one entry per open day, named by ``next_date``."""
        path = {"scheduleId": check_uuid(schedule_id, _UPCOMING, "schedule id")}
        if days is not None and (isinstance(days, bool) or not isinstance(days, int)
                                 or not 1 <= days <= 90):
            raise fail(_UPCOMING, "days must be a whole number from 1 to 90")
        reply = await self._transport.send(_UPCOMING, path=path, params={"days": days},
                                           priority=priority)
        return parse_one(_UPCOMING, _schedule(_UPCOMING, reply.body), UpcomingSchedule)

    async def status(
        self,
        schedule_id: str,
        *,
        at: datetime | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> BusinessHoursStatus:
        """Whether the business is open now (or at ``at``): when open, ``closes_at`` is the
        end of the current interval; when closed, ``opens_at`` the next opening."""
        path = {"scheduleId": check_uuid(schedule_id, _STATUS, "schedule id")}
        if at is not None and not isinstance(at, datetime):
            raise fail(_STATUS, "at must be a datetime")
        params = {"timestamp": None if at is None else format_utc(at)}
        reply = await self._transport.send(_STATUS, path=path, params=params, priority=priority)
        return parse_one(_STATUS, unwrap(_STATUS, reply.body), BusinessHoursStatus)


def _schedules(data: Any) -> Any:
    """The schedules of a list answer: ``{"schedules": [...]}``, or a bare list."""
    if isinstance(data, dict) and "schedules" in data:
        return data["schedules"]
    return data


def _schedule(op: Operation, body: Any) -> Any:
    """The schedule of a definition or upcoming answer: ``{"schedule": …}`` or bare."""
    data = unwrap(op, body)
    if isinstance(data, dict) and isinstance(data.get("schedule"), dict):
        return data["schedule"]
    return data
