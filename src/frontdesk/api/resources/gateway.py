"""The team gateway's own operations: its health, who a personal key belongs to, and the
audit of what members did through it (``/gateway/v1/…``, never served by the service)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import datetime

import httpx2

from ..models.common import format_utc
from ..models.gateway import AuditEntry, ChangeNotice, GatewayHealth, GatewayMember
from ..operations import operation
from ..pacing import Priority
from ._base import Page, Resource, check_text_id, fail, parse_one, unwrap

__all__ = ["GatewayResource"]

_HEALTH = operation("gateway.health")
_ME = operation("gateway.me")
_AUDIT = operation("gateway.audit")
_CHANGES = operation("gateway.changes")

class GatewayResource(Resource):
    """``client.gateway``: the team gateway in front of the service (only when the base URL
    is a gateway's; the service itself answers these with a 404)."""

    async def health(self, *, priority: Priority = Priority.INTERACTIVE) -> GatewayHealth:
        """Whether the gateway works and reaches the service (it needs no key)."""
        reply = await self._transport.send(_HEALTH, priority=priority)
        return parse_one(_HEALTH, unwrap(_HEALTH, reply.body), GatewayHealth)

    async def me(self, *, priority: Priority = Priority.INTERACTIVE) -> GatewayMember:
        """The member the key belongs to: the agent they act as and their role."""
        reply = await self._transport.send(_ME, priority=priority)
        return parse_one(_ME, unwrap(_ME, reply.body), GatewayMember)

    async def changes(self, *, last_seen: int | None = None) -> AsyncIterator[ChangeNotice]:
        """What changes at the service, as the gateway hears it, for as long as the stream
        lasts (a :class:`~frontdesk.api.errors.TransportError` when it breaks). ``last_seen``
        is the ``seq`` of the last notice had: what came since is sent first (or a
        ``reset`` when the gateway no longer holds it)."""
        stream = self._transport.events(
            _CHANGES, last_event_id=None if last_seen is None else str(last_seen))
        async for seq, kind, data in stream:
            try:
                said = json.loads(data) if data else {}
            except ValueError:
                said = {}
            listed = said.get("conversations") if isinstance(said, dict) else None
            what = said.get("what") if isinstance(said, dict) else None
            yield ChangeNotice(
                seq=int(seq) if seq is not None and seq.isascii() and seq.isdigit() else None,
                kind=kind,
                conversations=[c for c in listed or () if isinstance(c, int)
                               and not isinstance(c, bool)],
                what=[w for w in what if isinstance(w, str)] if isinstance(what, list) else [])

    def audit(
        self,
        *,
        member: str | None = None,
        since: datetime | None = None,
        page_size: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AsyncIterator[AuditEntry]:
        """Every audit entry, newest first, page by page (admins only); ``member`` keeps one
        member's (their member id or email), ``since`` those at or after a time."""
        params = _audit_filter(member, since)

        async def fetch(key: str | None, url: httpx2.URL | None) -> Page[AuditEntry]:
            return await self._fetch_page(_AUDIT, AuditEntry, params=params,
                                          page_size=page_size, page_key=key,
                                          priority=priority, url=url)

        return self._iterate(fetch, _AUDIT)

    async def audit_page(
        self,
        *,
        member: str | None = None,
        since: datetime | None = None,
        page_size: int | None = None,
        page_key: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> Page[AuditEntry]:
        """One page of the audit, newest first; pass the previous page's ``next_key``."""
        return await self._fetch_page(_AUDIT, AuditEntry, params=_audit_filter(member, since),
                                      page_size=page_size, page_key=page_key,
                                      priority=priority)


def _audit_filter(member: str | None, since: datetime | None) -> dict[str, str]:
    params: dict[str, str] = {}
    if member is not None:
        params["member"] = check_text_id(member, _AUDIT, "member")
    if since is not None:
        if not isinstance(since, datetime):
            raise fail(_AUDIT, "since must be a datetime")
        params["since"] = format_utc(since)
    return params
