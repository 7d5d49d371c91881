"""The organisation the API key belongs to."""

from __future__ import annotations

from ..models.organization import Organization
from ..operations import operation
from ..pacing import Priority
from ._base import Resource, parse_one, unwrap

__all__ = ["OrganizationResource"]

_GET = operation("organization.get")


class OrganizationResource(Resource):
    """``client.organization``: whose service this is. (Published beyond the spec's
    tables.)"""

    async def get(self, *, priority: Priority = Priority.INTERACTIVE) -> Organization:
        """The organisation's id, name, subdomain and status."""
        reply = await self._transport.send(_GET, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), Organization)
