"""Anonymisation requests and their status."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .common import Input, Record, ZonedDateTime

#: The deprecated ``entityType`` that goes with each ``_type``.
ENTITY_TYPES = {
    "Conversation": "ConversationAnonymizationType",
    "Message": "MessageAnonymizationType",
    "User": "UserAnonymizationType",
}


class AnonymizationRequestStatus(Record):
    """An anonymisation request: ``processedAt`` is set once the data is scrubbed."""

    id: str
    type: str = Field(alias="_type", description="Conversation, Message or User")
    initiated_at: ZonedDateTime
    target_entity_id: str
    requested_by: str
    processed_at: ZonedDateTime | None = None
    entity_type: str = Field(deprecated=True, description="replaced by _type")

    @property
    def processed(self) -> bool:
        """Whether the service has scrubbed the data."""
        return self.processed_at is not None


class AnonymizationInput(Input):
    """The deprecated anonymisation request."""

    entity_id: str = Field(min_length=1, max_length=100)
    type: Literal["Conversation", "Message", "User"] = Field(alias="_type")
    force_anonymization: bool | None = None
    entity_type: str | None = Field(default=None, deprecated=True)


__all__ = ["ENTITY_TYPES", "AnonymizationInput", "AnonymizationRequestStatus"]
