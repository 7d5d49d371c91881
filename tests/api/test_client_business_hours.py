"""client.business_hours against the sandbox: schedules, definition, upcoming, status."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from frontdesk.api import ApiClient, InvalidRequest, NotFound, Pacer, RetryPolicy
from frontdesk.sandbox import records
from frontdesk.sandbox.context import SandboxContext
from frontdesk.sandbox.server import SandboxServer

FAST = RetryPolicy(base_delay=0.01, max_delay=0.05)


@pytest.fixture
async def client(sandbox: SandboxServer) -> AsyncIterator[ApiClient]:
    async with ApiClient(sandbox.base_url, sandbox.key, sandbox.integrations_url,
                         pacer=Pacer(enabled=False), retry=FAST) as api:
        yield api


def weekday_schedule(sandbox: SandboxServer) -> str:
    """Open 09:00-17:00 UTC Monday to Friday, closed on Christmas Day."""
    def insert(ctx: SandboxContext) -> str:
        with ctx.db.tx():
            schedule = records.insert_schedule(ctx.db, name=f"Office {uuid.uuid4().hex[:4]}",
                                               timezone="UTC", position=1000)
            for day in range(1, 6):
                records.insert_schedule_entry(
                    ctx.db, schedule_id=schedule, kind="Regular", name=f"day {day}",
                    day_of_week=day, start_date="2020-01-01", intervals=[("09:00", "17:00")])
            records.insert_schedule_entry(
                ctx.db, schedule_id=schedule, kind="Holiday", name="Christmas",
                status="Closed", start_date="2020-12-25",
                recurring={"dayOfMonth": 25, "monthOfYear": 12})
            return schedule
    return sandbox.call(insert)


async def test_list_schedules(client: ApiClient, sandbox: SandboxServer) -> None:
    mine = weekday_schedule(sandbox)
    listed = [s async for s in client.business_hours.list_schedules(page_size=1)]
    assert mine in {s.id for s in listed}
    assert len(listed) == len({s.id for s in listed})
    page = await client.business_hours.list_schedules_page(page_size=1)
    assert len(page.items) == 1 and page.next_key is not None


async def test_definition(client: ApiClient, sandbox: SandboxServer) -> None:
    schedule = await client.business_hours.definition(weekday_schedule(sandbox))
    assert schedule.timezone == "UTC"
    assert [e.day_of_week for e in schedule.business_hours] == [1, 2, 3, 4, 5]
    assert schedule.business_hours[0].intervals[0].start_time == "09:00"
    assert [e.name for e in schedule.exceptions] == ["Christmas"]


async def test_upcoming(client: ApiClient, sandbox: SandboxServer) -> None:
    schedule_id = weekday_schedule(sandbox)
    upcoming = await client.business_hours.upcoming(schedule_id, days=7)
    assert len(upcoming.business_hours) == 5  # a week holds five open weekdays
    assert all(e.next_date for e in upcoming.business_hours)
    with pytest.raises(InvalidRequest) as caught:
        await client.business_hours.upcoming(schedule_id, days=91)
    assert caught.value.status is None


async def test_status(client: ApiClient, sandbox: SandboxServer) -> None:
    schedule_id = weekday_schedule(sandbox)
    monday_noon = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
    status = await client.business_hours.status(schedule_id, at=monday_noon)
    assert status.is_open and status.closes_at == datetime(2026, 1, 5, 17, 0, tzinfo=UTC)
    assert status.opens_at is None
    saturday = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
    status = await client.business_hours.status(schedule_id, at=saturday)
    assert not status.is_open and status.opens_at == datetime(2026, 1, 12, 9, 0, tzinfo=UTC)
    now = await client.business_hours.status(schedule_id)  # the sandbox's clock
    assert now.timestamp == sandbox.clock.now()


async def test_errors(client: ApiClient) -> None:
    unknown = str(uuid.uuid4())
    with pytest.raises(NotFound):
        await client.business_hours.definition(unknown)
    with pytest.raises(NotFound):
        await client.business_hours.upcoming(unknown)
    with pytest.raises(NotFound):
        await client.business_hours.status(unknown)
    with pytest.raises(InvalidRequest) as caught:
        await client.business_hours.status("office")
    assert caught.value.status is None
