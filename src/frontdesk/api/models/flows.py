"""Conversation flows: how conversations arriving at a contact endpoint are routed."""

from __future__ import annotations

from pydantic import Field

from .common import Record
from .conversations import ChannelValue


class ConversationFlow(Record):
    """A flow of one channel, attached to a contact endpoint (a phone number, an address)."""

    id: str
    name: str
    channel: ChannelValue
    contact_endpoint_id: str = Field(description="the endpoint's phone number, address or id")


__all__ = ["ConversationFlow"]
