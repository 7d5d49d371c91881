"""Agents and admins, and their presence and working channels."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from .common import Input, LocalDateTime, Record, UtcDateTime, Uuid

_EMAIL = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"
_PHONE = r"^\+?[0-9 ()\-]{5,20}$"


class WorkingChannel(StrEnum):
    """The channels an agent can be working on."""

    EMAIL = "Email"
    INTERACTIVE_CHAT = "InteractiveChat"
    MESSAGING = "Messaging"
    SPEAK = "Speak"


class Agent(Record):
    """An agent or an admin."""

    id: str
    created_at: UtcDateTime
    display_name: str
    email: str
    avatar_url: str | None = None
    phone_number: str | None = None
    additional_emails: list[str] | None = None
    additional_phone_numbers: list[str] | None = None
    first_name: str | None = None
    last_name: str | None = None
    middle_names: list[str] | None = None
    roles: list[str] | None = None


class _AgentFields(Input):
    """Optional fields shared by every agent input."""

    phone_number: str | None = Field(default=None, pattern=_PHONE)
    additional_emails: list[str] | None = Field(default=None, max_length=50)
    additional_phone_numbers: list[str] | None = Field(default=None, max_length=50)
    first_name: str | None = Field(default=None, max_length=255)
    last_name: str | None = Field(default=None, max_length=255)
    middle_names: list[str] | None = Field(default=None, max_length=10)
    avatar_url: str | None = Field(default=None, max_length=2048)


class CreateAgentInput(_AgentFields):
    """A new agent."""

    display_name: str = Field(min_length=1, max_length=255)
    email: str = Field(pattern=_EMAIL, max_length=320)


class UpdateAgentInput(_AgentFields):
    """A full update of an agent (PUT): the display name is required, the email cannot change."""

    display_name: str = Field(min_length=1, max_length=255)


class PatchAgentInput(_AgentFields):
    """A partial update of an agent (PATCH): only what is given changes."""

    display_name: str | None = Field(default=None, min_length=1, max_length=255)


class BulkUpdateAgentItem(UpdateAgentInput):
    """One item of a bulk full update."""

    id: Uuid


class BulkPatchAgentItem(PatchAgentInput):
    """One item of a bulk partial update."""

    id: Uuid


class BulkCreateAgentsInput(Input):
    """Agents to create in one call."""

    data: list[CreateAgentInput] = Field(min_length=1, max_length=500)


class UserPresence(Record):
    """An agent's presence: connection, working or away, and active channels."""

    user_id: str
    request_time: LocalDateTime
    last_seen: LocalDateTime | None = None
    presence_status: str | None = Field(default=None, description="Away or Working")
    connection_status: str = Field(description="Online or Offline")
    active_channels: list[str] = Field(default_factory=list)


class WorkingChannelInput(Input):
    """Turn one working channel of an agent on or off."""

    channel: WorkingChannel = Field(strict=False)
    working: bool


__all__ = [
    "Agent",
    "BulkCreateAgentsInput",
    "BulkPatchAgentItem",
    "BulkUpdateAgentItem",
    "CreateAgentInput",
    "PatchAgentInput",
    "UpdateAgentInput",
    "UserPresence",
    "WorkingChannel",
    "WorkingChannelInput",
]
