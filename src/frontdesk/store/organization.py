"""The organisation the API key belongs to, and its conversation flows, for Admin.

The service lists flows one channel at a time (``PstnPhone`` when none is named), so every
flow of the organisation is every channel's list, in channel order. A channel the service
refuses to list is reported by name rather than hiding the others.

The convention is :mod:`.people`'s: refusals raise :class:`~.people.Refused`. No Textual here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..api.errors import ApiError
from ..api.models import Channel, ConversationFlow, Organization
from ..api.pacing import Priority
from .errors import Refused, refusals

if TYPE_CHECKING:
    from .hub import Hub

__all__ = ["Flows", "OrganizationStore", "Refused"]


@dataclass(frozen=True)
class Flows:
    """Every flow read, in channel order, and the channels that could not be read (with the
    service's reason)."""

    flows: list[ConversationFlow] = field(default_factory=list)
    unread: dict[str, str] = field(default_factory=dict)


class OrganizationStore:
    """The organisation's details and flows."""

    def __init__(self, hub: Hub) -> None:
        self._hub = hub

    async def organization(self) -> Organization:
        """Whose service this is: id, name, subdomain, status, avatar."""
        with refusals("Could not read the organisation"):
            org: Organization = await self._hub.client.organization.get()
        return org

    async def flows(self) -> Flows:
        """The flows of every channel. Refused only when no channel could be read."""
        found: list[ConversationFlow] = []
        unread: dict[str, str] = {}
        last: ApiError | None = None
        for channel in Channel:
            try:
                found.extend(await self._hub.client.flows.list(
                    channel, priority=Priority.VISIBLE))
            except ApiError as error:
                unread[channel.value] = error.message
                last = error
        if last is not None and len(unread) == len(Channel):
            raise Refused(f"Could not list the flows: {last.message}", error=last)
        return Flows(found, unread)

