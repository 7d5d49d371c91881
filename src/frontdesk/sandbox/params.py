"""Path parameters shared by the routes: ids checked for shape before a route runs."""

from __future__ import annotations

import re
from typing import Annotated

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


ConversationIdPath = Annotated[
    int, Path(alias="conversationId", ge=1, le=MAX_ID, description="the conversation id (csid)"),
    BeforeValidator(_digits_only),
]
TagIdPath = Annotated[str, Path(alias="tagId", pattern=UUID_PATTERN, description="a tag id")]
MessageIdPath = Annotated[
    str, Path(alias="messageId", pattern=UUID_PATTERN, description="a message id")
]
UserIdPath = Annotated[
    str, Path(alias="userId", pattern=UUID_PATTERN, description="an end user id")
]
AgentIdPath = Annotated[
    str, Path(alias="agentId", pattern=UUID_PATTERN, description="an agent or admin id")
]
TeamIdPath = Annotated[str, Path(alias="teamId", pattern=UUID_PATTERN, description="a team id")]
QueueIdPath = Annotated[
    str, Path(alias="queueId", pattern=UUID_PATTERN, description="a queue id")
]
RatingIdPath = Annotated[
    str, Path(alias="ratingId", pattern=UUID_PATTERN, description="a rating offer id")
]
ScheduleIdPath = Annotated[
    str, Path(alias="scheduleId", pattern=UUID_PATTERN, description="a schedule id")
]
RequestIdPath = Annotated[
    str, Path(alias="requestId", pattern=UUID_PATTERN, description="an anonymisation request id")
]
CustomAttributeIdPath = Annotated[
    str, Path(alias="customAttributeId", pattern=UUID_PATTERN,
              description="a custom attribute definition id")
]
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
