"""The activity log: what happened to one conversation, or to every conversation."""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator
from datetime import datetime

import httpx2

from ..models.activity_log import ActivityLogEntry
from ..models.common import format_utc
from ..operations import operation
from ..pacing import Priority
from ._base import Page, Resource, check_conversation_id, fail, parse_items, unwrap

__all__ = ["ActivityLogResource"]

_LIST = operation("activity_log.list")
_ONE = operation("activity_log.for_conversation")


class ActivityLogResource(Resource):
    """``client.activity_log``: who did what to conversations, and when. (Published beyond
    the spec's tables.)"""

    async def for_conversation(self, conversation_id: int, *,
                               priority: Priority = Priority.INTERACTIVE
                               ) -> builtins.list[ActivityLogEntry]:
        """Every entry of one conversation's log, in the order things happened."""
        path = {"conversationId": check_conversation_id(conversation_id, _ONE)}
        reply = await self._transport.send(_ONE, path=path, priority=priority)
        return parse_items(_ONE, unwrap(_ONE, reply.body), ActivityLogEntry)

    async def list(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        page_size: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AsyncIterator[ActivityLogEntry]:
        """Every entry of the organisation's log, in order, page by page; ``since`` and
        ``until`` bound the entries' times (both included)."""
        params = _window(since, until)

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[ActivityLogEntry]:
            return await self._fetch_page(_LIST, ActivityLogEntry, params=params,
                                          page_size=page_size, page_key=key,
                                          priority=priority, url=url)

        async for entry in self._iterate(fetch, _LIST):
            yield entry

    async def list_page(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        page_size: int | None = None,
        page_key: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Page[ActivityLogEntry]:
        """One page of the organisation's log; pass the previous page's ``next_key``."""
        return await self._fetch_page(_LIST, ActivityLogEntry, params=_window(since, until),
                                      page_size=page_size, page_key=page_key,
                                      priority=priority)


def _window(since: datetime | None, until: datetime | None) -> dict[str, str]:
    params: dict[str, str] = {}
    for name, value in (("fromDatetime", since), ("toDatetime", until)):
        if value is None:
            continue
        if not isinstance(value, datetime):
            raise fail(_LIST, f"{name} must be a datetime")
        params[name] = format_utc(value)
    if since is not None and until is not None and since > until:
        raise fail(_LIST, "The window ends before it starts")
    return params
