"""End users: the customers who write in, and their conversations."""

from __future__ import annotations

import builtins
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any

import httpx2

from ..models.common import BulkActionOutcome, Input
from ..models.conversations import Conversation
from ..models.endusers import (
    BulkCreateEndUsersInput,
    BulkPatchEndUserItem,
    BulkPatchEndUsersInput,
    BulkUpdateEndUserItem,
    BulkUpdateEndUsersInput,
    CreateEndUserInput,
    EndUser,
    PatchEndUserInput,
    UpdateEndUserInput,
)
from ..operations import Operation, operation
from ..pacing import Priority
from ._base import (
    Page,
    Resource,
    build,
    check_uuid,
    fail,
    parse_items,
    parse_one,
    unwrap,
)

__all__ = ["EndUsersResource"]

_LIST = operation("endusers.list")
_CREATE = operation("endusers.create")
_GET = operation("endusers.get")
_CONVERSATIONS = operation("endusers.conversations")
_UPDATE = operation("endusers.update")
_PATCH = operation("endusers.patch")
_BULK_UPDATE = operation("endusers.bulk_update")
_BULK_PATCH = operation("endusers.bulk_patch")
_BULK_CREATE = operation("endusers.bulk_create")


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

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[EndUser]:
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
        reply = await self._transport.send(_CREATE, body=body.wire(), priority=priority)
        return parse_one(_CREATE, unwrap(_CREATE, reply.body), EndUser)

    async def get(self, user_id: str, *, priority: Priority = Priority.INTERACTIVE) -> EndUser:
        """One end user, with custom attributes."""
        path = {"userId": check_uuid(user_id, _GET, "end user id")}
        reply = await self._transport.send(_GET, path=path, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), EndUser)

    async def update(
        self,
        user_id: str,
        user: UpdateEndUserInput | Mapping[str, Any] | None = None,
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
        """Replace an end user's details (a full update: ``display_name`` is required, the
        fields not given are cleared). (Published beyond the spec's tables.)"""
        path = {"userId": check_uuid(user_id, _UPDATE, "end user id")}
        body = build(_UPDATE, UpdateEndUserInput, user, display_name=display_name,
                     email=email, phone_number=phone_number, first_name=first_name,
                     last_name=last_name, external_id=external_id, avatar_url=avatar_url)
        reply = await self._transport.send(_UPDATE, path=path, body=body.wire(), priority=priority)
        return parse_one(_UPDATE, unwrap(_UPDATE, reply.body), EndUser)

    async def patch(
        self,
        user_id: str,
        user: PatchEndUserInput | Mapping[str, Any] | None = None,
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
        """Change some of an end user's details; what is not given stays (pass a mapping
        with ``None`` to clear a field). (Published beyond the spec's tables.)"""
        path = {"userId": check_uuid(user_id, _PATCH, "end user id")}
        body = build(_PATCH, PatchEndUserInput, user, display_name=display_name,
                     email=email, phone_number=phone_number, first_name=first_name,
                     last_name=last_name, external_id=external_id, avatar_url=avatar_url)
        wire = body.model_dump(mode="json", exclude_unset=True)
        reply = await self._transport.send(_PATCH, path=path, body=wire, priority=priority)
        return parse_one(_PATCH, unwrap(_PATCH, reply.body), EndUser)

    async def bulk_update(
        self,
        users: Sequence[BulkUpdateEndUserItem | Mapping[str, Any]],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> builtins.list[BulkActionOutcome[EndUser]]:
        """Fully update several end users (``id`` and ``display_name`` each); one outcome
        each, in order. (Published beyond the spec's tables.)"""
        items = _items(_BULK_UPDATE, BulkUpdateEndUserItem, users)
        body = build(_BULK_UPDATE, BulkUpdateEndUsersInput, {"data": items})
        reply = await self._transport.send(_BULK_UPDATE, body=body.wire(), priority=priority)
        return parse_items(_BULK_UPDATE, unwrap(_BULK_UPDATE, reply.body),
                           BulkActionOutcome[EndUser])

    async def bulk_patch(
        self,
        users: Sequence[BulkPatchEndUserItem | Mapping[str, Any]],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> builtins.list[BulkActionOutcome[EndUser]]:
        """Partly update several end users (``id`` and the fields to change); one outcome
        each, in order. (Published beyond the spec's tables.)"""
        items = _items(_BULK_PATCH, BulkPatchEndUserItem, users, unset=True)
        build(_BULK_PATCH, BulkPatchEndUsersInput, {"data": items})
        reply = await self._transport.send(_BULK_PATCH, body={"data": items}, priority=priority)
        return parse_items(_BULK_PATCH, unwrap(_BULK_PATCH, reply.body),
                           BulkActionOutcome[EndUser])

    async def bulk_create(
        self,
        users: Sequence[CreateEndUserInput | Mapping[str, Any]],
        *,
        priority: Priority = Priority.INTERACTIVE,
    ) -> builtins.list[BulkActionOutcome[EndUser]]:
        """Create several end users; one outcome each, in order (an outcome's ``data`` is the
        end user as a dict). Not retried after it may have reached the service."""
        items = _items(_BULK_CREATE, CreateEndUserInput, users)
        body = build(_BULK_CREATE, BulkCreateEndUsersInput, {"data": items})
        reply = await self._transport.send(_BULK_CREATE, body=body.wire(), priority=priority)
        return parse_items(_BULK_CREATE, unwrap(_BULK_CREATE, reply.body),
                           BulkActionOutcome[EndUser])

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

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[Conversation]:
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


def _items(op: Operation, model: type[Input], items: Sequence[Any], *, unset: bool = False
           ) -> builtins.list[dict[str, Any]]:
    """The checked items of a bulk body, in wire form (``unset``: only the fields given, so a
    patch can clear a field with ``None``)."""
    if isinstance(items, str | Mapping) or not items:
        raise fail(op, "Give a non-empty list of end users")
    checked = [build(op, model, item) for item in items]
    if unset:
        return [item.model_dump(mode="json", exclude_unset=True) for item in checked]
    return [item.wire() for item in checked]


def _filters(email: str | None, phone: str | None, external_id: str | None) -> dict[str, str]:
    given = {k: v for k, v in (("email", email), ("phone", phone), ("externalId", external_id))
             if v is not None}
    if len(given) > 1:
        raise fail(_LIST, "Filter end users by one of email, phone or external id, not several")
    for name, value in given.items():
        if not isinstance(value, str) or not value.strip():
            raise fail(_LIST, f"The {name} filter must be a non-empty text")
    return given
