"""Contact endpoints: the organisation's email addresses and phone numbers."""

from __future__ import annotations

import builtins
import re
from typing import Literal

from ..models.contact_endpoints import ContactEndpoint
from ..operations import operation
from ..pacing import Priority
from ._base import Resource, check_text_id, fail, parse_items, parse_one, unwrap

__all__ = ["ContactEndpointsResource"]

_LIST = operation("contact_endpoints.list")
_GET = operation("contact_endpoints.get")

_EMAIL = re.compile(r"^[^@\s/]+@[^@\s/]+\.[^@\s/]+$")
_E164 = re.compile(r"^\+[1-9][0-9]{6,14}$")


class ContactEndpointsResource(Resource):
    """``client.contact_endpoints``: where customers can reach the organisation."""

    async def list(
        self,
        *,
        type: Literal["EmailEndpoint", "TelephonyEndpoint"] | None = None,
        priority: Priority = Priority.INTERACTIVE,
    ) -> builtins.list[ContactEndpoint]:
        """Every contact endpoint, or only those of one ``type``."""
        if type is not None and type not in ("EmailEndpoint", "TelephonyEndpoint"):
            raise fail(_LIST, "The type must be EmailEndpoint or TelephonyEndpoint")
        reply = await self._transport.send(_LIST, params={"_type": type}, priority=priority)
        return parse_items(_LIST, unwrap(_LIST, reply.body), ContactEndpoint)

    async def get(self, contact_endpoint_id: str, *, priority: Priority = Priority.INTERACTIVE
                  ) -> ContactEndpoint:
        """One endpoint, by its email address or its E.164 phone number."""
        key = check_text_id(contact_endpoint_id, _GET, "contact endpoint id")
        if not (_EMAIL.match(key) or _E164.match(key)):
            raise fail(_GET, "A contact endpoint id is an email address or an E.164 phone "
                       "number (+4512345678)")
        reply = await self._transport.send(_GET, path={"contactEndpointId": key}, priority=priority)
        return parse_one(_GET, unwrap(_GET, reply.body), ContactEndpoint)
