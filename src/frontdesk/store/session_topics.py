"""What the session's own live topics fetch: the inbox (after finding out who I am), my
presence, and whether the business is open now (:class:`HoursNow`, which also sets the
service's clock offset).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, NamedTuple

from ..api.errors import ApiError, Unauthorized
from ..api.pacing import Priority

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

    from ..api.client import ApiClient
    from ..api.models import Agent, BusinessHoursStatus, UserPresence
    from ..settings import Settings
    from .business_time import BusinessTime
    from .inbox import InboxStore
    from .live import LiveStore
    from .local import LocalStore

__all__ = ["HoursNow", "SessionTopics", "hours_now"]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


class HoursNow(NamedTuple):
    """Whether the business is open, and until when (``is_open``) or from when (closed): the
    moment in UTC, for the console to show in the user's own time zone. None when the schedule
    gives none (always open, or never opening soon). Equal readings compare equal, so an
    unchanged poll is no change."""

    is_open: bool
    until: datetime | None


def hours_now(status: BusinessHoursStatus) -> HoursNow:
    """The header's reading of a business-hours status."""
    return HoursNow(status.is_open, status.closes_at if status.is_open else status.opens_at)


class SessionTopics:
    """The fetches of the inbox, my presence and the business hours (a part of
    ``Session``)."""

    identity: str
    settings: Settings
    local: LocalStore
    inbox: InboxStore
    wall: Callable[[], datetime]
    server_offset: timedelta
    clock_known: bool
    schedule_zone: ZoneInfo | None
    schedule_id: str | None

    if TYPE_CHECKING:
        @property
        def me_id(self) -> str: ...
        @property
        def client(self) -> ApiClient: ...
        @property
        def live(self) -> LiveStore: ...
        async def resolve_me(self) -> Agent: ...

    async def _poll_inbox(self) -> int:
        if not self.me_id:
            try:
                await self.resolve_me()
            except Unauthorized:
                raise  # the header must say the key is refused, not show an empty inbox
            except (ApiError, LookupError) as error:
                if await self._no_service(error):
                    raise  # nor live over an empty inbox when the address is not the service
        self.local.probe()
        return await self.inbox.poll()

    async def _no_service(self, error: BaseException) -> str | None:
        """The one line saying the base URL is not the service, put in the header, when
        ``error`` (from asking who I am) shows it; None otherwise."""
        from .address import address_problem

        client = self.client
        said = await address_problem(client, client.base_url, "@" in self.identity, error)
        if said is not None:
            self.live.no_service(said)
        return said

    async def _my_presence(self) -> UserPresence | None:
        if not self.me_id:
            return None
        presence = await self.client.agents.presence(self.me_id, priority=Priority.VISIBLE)
        # The service's clock reading is not news: without it an unchanged poll is no change.
        return presence.model_copy(update={"request_time": _EPOCH})

    async def _hours(self) -> HoursNow | None:
        client = self.client
        hours: BusinessTime | None = None
        if self.schedule_id is None:
            wanted = self.settings.ui.business_hours_schedule
            page = await client.business_hours.list_schedules_page(priority=Priority.BACKGROUND)
            if not page.items:
                self.inbox.set_business_time(None)  # plain waits, this machine's clock
                return None
            chosen = next((s for s in page.items if wanted in (s.id, s.name)), page.items[0])
            definition = await client.business_hours.definition(chosen.id,
                                                                priority=Priority.BACKGROUND)
            self.schedule_id = chosen.id
            from .business_time import BusinessTime
            from .hours_calendar import zone_named

            self.schedule_zone = zone_named(definition.timezone)
            hours = BusinessTime.of(definition)
        before = self.wall()
        status = await client.business_hours.status(self.schedule_id, priority=Priority.BACKGROUND)
        after = self.wall()
        self.server_offset = status.timestamp - (before + (after - before) / 2)
        self.clock_known = True
        if hours is not None:  # the first reading: the waits count these hours from now on
            self.inbox.set_business_time(hours)
        return hours_now(status)
