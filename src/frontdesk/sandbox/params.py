"""Path parameters shared by the routes: ids checked for shape before a route runs."""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import Path
from pydantic import BeforeValidator

from ..api.models.common import UUID_PATTERN

MAX_ID = 2**63 - 1

_DIGITS = re.compile(r"[0-9]+")


def _digits_only(value: object) -> object:
    """A conversation id is written in plain ASCII digits: ``+1``, `` 1``, ``1_0``, an
    Arabic-Indic or fullwidth digit (which Python's ``int`` would take) are not ids."""
    if isinstance(value, str) and not _DIGITS.fullmatch(value):
        raise ValueError("must be a whole number written in digits only")
    return value


def uuid_path(alias: str, description: str) -> Any:
    """A path id that must be a UUID (``Annotated[str, uuid_path("tagId", "a tag id")]``):
    any other shape is a 400 before the route runs."""
    return Path(alias=alias, pattern=UUID_PATTERN, description=description)


ConversationIdPath = Annotated[
    int, Path(alias="conversationId", ge=1, le=MAX_ID, description="the conversation id (csid)"),
    BeforeValidator(_digits_only),
]
TagIdPath = Annotated[str, uuid_path("tagId", "a tag id")]
MessageIdPath = Annotated[str, uuid_path("messageId", "a message id")]
UserIdPath = Annotated[str, uuid_path("userId", "an end user id")]
AgentIdPath = Annotated[str, uuid_path("agentId", "an agent or admin id")]
TeamIdPath = Annotated[str, uuid_path("teamId", "a team id")]
QueueIdPath = Annotated[str, uuid_path("queueId", "a queue id")]
RatingIdPath = Annotated[str, uuid_path("ratingId", "a rating offer id")]
ScheduleIdPath = Annotated[str, uuid_path("scheduleId", "a schedule id")]
RequestIdPath = Annotated[str, uuid_path("requestId", "an anonymisation request id")]
CustomAttributeIdPath = Annotated[
    str, uuid_path("customAttributeId", "a custom attribute definition id")]
ContactEndpointIdPath = Annotated[
    str, Path(alias="contactEndpointId", min_length=1, max_length=320,
              description="a contact endpoint: its email address or E.164 phone number")
]
LegacyEndpointIdPath = Annotated[
    str, Path(alias="id", min_length=1, max_length=100,
              description="an endpoint id of the deprecated listing")
]
CsidPath = Annotated[
    int, Path(alias="csid", ge=1, le=MAX_ID, description="the conversation id (csid)"),
    BeforeValidator(_digits_only),
]
