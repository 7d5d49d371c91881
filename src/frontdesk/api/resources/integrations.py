"""The deprecated endpoint-listing interface, served at the integrations URL.

Deprecated by the service (equivalent: :mod:`.contact_endpoints`); kept because an older
organisation may still rely on it. It pages with cursors: each page's ``paging.next_page``
links to the next one, and the client asks for it with the cursor that link carries (``after``),
on its own address, so a link can never take the key elsewhere.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qs, urlsplit

from ..models.integrations import Endpoint, Paging
from ..operations import operation
from ..pacing import Priority
from ._base import (
    Resource,
    check_page_size,
    check_text_id,
    fail,
    log,
    parse_items,
    parse_one,
    unwrap,
)

__all__ = ["EndpointsPage", "IntegrationsResource"]

_LIST = operation("integrations.list_endpoints")
_GET = operation("integrations.get_endpoint")

EndpointKind = Literal["email_address", "phone_number"]


@dataclass(frozen=True, slots=True)
class EndpointsPage:
    """One page of the deprecated listing: its endpoints and the cursor of the next page."""

    items: list[Endpoint]
    next_cursor: str | None = None


class IntegrationsResource(Resource):
    """``client.integrations``: the deprecated endpoint listing (use contact endpoints)."""

    async def list_endpoints(
        self,
        *,
        type: EndpointKind | None = None,
        page_size: int | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> AsyncIterator[Endpoint]:
        """Deprecated: every endpoint (or those of one ``type``), following the cursor pages.
        Use ``client.contact_endpoints.list`` instead."""
        cursor: str | None = None
        seen: set[str] = set()
        while True:
            page = await self.list_endpoints_page(type=type, page_size=page_size,
                                                  after=cursor, priority=priority)
            for endpoint in page.items:
                yield endpoint
            if page.next_cursor is None:
                return
            if page.next_cursor in seen:
                log.warning("the service repeated a page cursor of %s; stopping", _LIST.label)
                return
            seen.add(page.next_cursor)
            cursor = page.next_cursor

    async def list_endpoints_page(
        self,
        *,
        type: EndpointKind | None = None,
        page_size: int | None = None,
        after: str | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> EndpointsPage:
        """Deprecated: one page of the listing, after the cursor ``after``."""
        if type is not None and type not in ("email_address", "phone_number"):
            raise fail(_LIST, "The type must be email_address or phone_number")
        params = {"type": type, "limit": check_page_size(page_size, _LIST), "after": after}
        reply = await self._transport.send(_LIST, params=params, priority=priority)
        body = reply.body
        items = parse_items(_LIST, unwrap(_LIST, body), Endpoint)
        cursor = None
        if isinstance(body, dict) and isinstance(body.get("paging"), dict):
            paging = parse_one(_LIST, body["paging"], Paging)
            if paging.next_page:
                cursor = _after(paging.next_page)
                if cursor is None and paging.cursors is not None:
                    cursor = paging.cursors.after
        return EndpointsPage(items, cursor)

    async def get_endpoint(self, endpoint_id: str, *, priority: Priority = Priority.INTERACTIVE
                           ) -> Endpoint:
        """Deprecated: one endpoint by its id (the member not of its kind is null). Use
        ``client.contact_endpoints.get`` instead."""
        path = {"id": check_text_id(endpoint_id, _GET, "endpoint id")}
        reply = await self._transport.send(_GET, path=path, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), Endpoint)


def _after(link: str) -> str | None:
    """The ``after`` cursor carried by a ``next_page`` link."""
    try:
        values = parse_qs(urlsplit(link).query).get("after")
    except ValueError:
        return None
    return values[0] if values and values[0] else None
