"""End users: the customers who write in, and their conversations."""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx

from ..models.conversations import Conversation
from ..models.endusers import CreateEndUserInput, EndUser
from ..operations import operation
from ..pacing import Priority
from ._base import (
    Page,
    Resource,
    build,
    check_uuid,
    fail,
    parse_one,
    unwrap,
)

__all__ = ["EndUsersResource"]

_LIST = operation("endusers.list")
_CREATE = operation("endusers.create")
_GET = operation("endusers.get")
_CONVERSATIONS = operation("endusers.conversations")


class EndUsersResource(Resource):
    """``client.endusers``: find, create and read end users; list their conversations."""

    async def list(
        self,
        *,
        email: str | None = None,
        phone: str | None = None,
        external_id: str | None = None,
        page_size: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AsyncIterator[EndUser]:
        """Every end user, page by page, optionally filtered by one of ``email``, ``phone``
        or ``external_id`` (more than one is refused). (Beyond the spec; published.)"""
        params = _filters(email, phone, external_id)

        async def fetch(key: str | None, url: httpx.URL | None) -> Page[EndUser]:
            return await self._fetch_page(_LIST, EndUser, params=params, page_size=page_size,
                                          page_key=key, priority=priority, url=url)

        async for user in self._iterate(fetch, _LIST):
            yield user

    async def list_page(
        self,
        *,
        email: str | None = None,
        phone: str | None = None,
        external_id: str | None = None,
        page_size: int | None = None,
        page_key: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Page[EndUser]:
        """One page of end users; pass the previous page's ``next_key`` for the next."""
        return await self._fetch_page(_LIST, EndUser, params=_filters(email, phone, external_id),
                                      page_size=page_size, page_key=page_key,
                                      priority=priority)

    async def create(
        self,
        user: CreateEndUserInput | Mapping[str, Any] | None = None,
        *,
        display_name: str | None = None,
        email: str | None = None,
        phone_number: str | None = None,
        first_name: str | None = None,
        last_name: str | None = None,
        external_id: str | None = None,
        avatar_url: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> EndUser:
        """Create an end user, from an input or from the keyword fields (all optional).

        Not retried after it may have reached the service (a second try could create a
        second user).
        """
        body = build(_CREATE, CreateEndUserInput, user, display_name=display_name,
                     email=email, phone_number=phone_number, first_name=first_name,
                     last_name=last_name, external_id=external_id, avatar_url=avatar_url)
        reply = await self._send(_CREATE, body=body.wire(), priority=priority)
        return parse_one(_CREATE, unwrap(_CREATE, reply.body), EndUser)

    async def get(self, user_id: str, *, priority: Priority = Priority.INTERACTIVE) -> EndUser:
        """One end user, with custom attributes."""
        path = {"userId": check_uuid(user_id, _GET, "end user id")}
        reply = await self._send(_GET, path=path, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), EndUser)

    async def conversations(
        self,
        user_id: str,
        *,
        page_size: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AsyncIterator[Conversation]:
        """Every conversation the end user requested, page by page (without custom
        attributes: read one conversation for those)."""
        path = {"userId": check_uuid(user_id, _CONVERSATIONS, "end user id")}

        async def fetch(key: str | None, url: httpx.URL | None) -> Page[Conversation]:
            return await self._fetch_page(_CONVERSATIONS, Conversation, path=path,
                                          page_size=page_size, page_key=key,
                                          priority=priority, url=url)

        async for conversation in self._iterate(fetch, _CONVERSATIONS):
            yield conversation

    async def conversations_page(
        self,
        user_id: str,
        *,
        page_size: int | None = None,
        page_key: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Page[Conversation]:
        """One page of the end user's conversations."""
        path = {"userId": check_uuid(user_id, _CONVERSATIONS, "end user id")}
        return await self._fetch_page(_CONVERSATIONS, Conversation, path=path,
                                      page_size=page_size, page_key=page_key,
                                      priority=priority)


def _filters(email: str | None, phone: str | None, external_id: str | None) -> dict[str, str]:
    given = {k: v for k, v in (("email", email), ("phone", phone), ("externalId", external_id))
             if v is not None}
    if len(given) > 1:
        raise fail(_LIST, "Filter end users by one of email, phone or external id, not several")
    for name, value in given.items():
        if not isinstance(value, str) or not value.strip():
            raise fail(_LIST, f"The {name} filter must be a non-empty text")
    return given
